#!/usr/bin/env python3
"""A model of the fused kernels (MatMulScan, SSCR, SCD), held against every fused-kernel point of
the stored `mmvram kernels bench` runs (docs/prediction.md, "A model of the fused kernels").

1. Bytes, from the ledger's DAG: `mmvram run ALGO --dag` (simulate backend) gives every record
   and its dependencies. A fused kernel reads the algorithm's inputs once (the loads that are not
   constants), writes its outputs once (the DAG's sinks) and keeps every other record inside a
   tile; with the kernels' element types (values T = fp32/int32, flags uint8, SCD's per-segment
   outputs a sum T and an int64 offset) that gives bytes per item and per segment, which must
   equal the byte floors each bench row carries (tools/kernels/kernels.cpp).
2. Time: launch + max(bytes read / read bandwidth + bytes written / write bandwidth,
   look-back chain), bandwidths from the same GPU's bench run (read-only reduction and copy),
   launch and look-back hop from the small-n latency runs (gpu_latency_*_n14/_n16_<GPU>.json).
Writes experiments/results/fused_prediction_<GPU>.json for every GPU with a gpu_bench_<GPU>.json,
and the figure fused_prediction_<GPU>.{png,svg} into --out.
usage: experiments/fused_model.py [--mmvram build/cpu/tools/mmvram] [--results DIR] [--out DIR]
"""
import argparse
import json
import math
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
# The ledger's algorithm behind each fused kernel's bench operation.
ALGORITHMS = {"scan": "matmul-scan", "segmented_scan": "sscr", "segmented_sum": "scd"}
# Element bytes of the fused kernels' arrays: a load named x is the values, f the flags; an
# output of one item per input item is a value, one per segment is SCD's (sum, int64 offset).
VALUE_BYTES = {"f32": 4, "i32": 4}
LOAD_BYTES = {"x": "value", "f": 1}
OFFSET_BYTES = 8
BAND = 0.15


def die(msg):
    raise SystemExit(f"fused_model.py: {msg}")


def parse_dot(text):
    """(nodes {id: (op, unit, m)}, edges [(from, to)]) of `mmvram run --dag`'s Graphviz file."""
    nodes = {i: (op, unit, int(m)) for i, op, unit, m in
             re.findall(r'(n\d+) \[label="([^"\\]+)\\n(\w+) m=(\d+)"', text)}
    edges = re.findall(r"(n\d+) -> (n\d+);", text)
    if not nodes:
        die("no records in the DAG file")
    return nodes, edges


def classify(nodes, edges):
    """The DAG split as a fused kernel sees it: inputs {name: m} (non-constant loads), outputs
    [m] (records no record reads), and the count of the other records (kept in a tile)."""
    read = {a for a, _ in edges}
    inputs = {op: m for op, unit, m in nodes.values() if unit == "scalar" and not op.startswith("const:")}
    outputs = [m for i, (op, unit, m) in nodes.items() if i not in read and unit != "scalar"]
    inner = len(nodes) - len(outputs) - sum(1 for _, unit, _ in nodes.values() if unit == "scalar")
    return inputs, outputs, inner


def fused_bytes(inputs, outputs, n, segments, dtype):
    """(read bytes per item, written bytes per item, written bytes per segment) of a fused kernel
    over n items and `segments` segments: each input item read once, each output written once."""
    value = VALUE_BYTES[dtype]
    read = 0
    for name, m in inputs.items():
        if name not in LOAD_BYTES or m != n:
            die(f"input '{name}' of length {m} is not one of {sorted(LOAD_BYTES)} of length n = {n}")
        read += value if LOAD_BYTES[name] == "value" else LOAD_BYTES[name]
    per_item = per_segment = 0
    for m in outputs:
        if m == n and m != segments:
            per_item += value
        elif m == segments and m != n:
            per_segment += value + OFFSET_BYTES
        else:
            die(f"an output of length {m} is neither per item (n = {n}) nor per segment ({segments}); "
                "choose n and a density with n != segments")
    return read, per_item, per_segment


def derive(mmvram, algorithm, n=4096, s=16, density=1 / 32):
    """Runs ALGO on the simulate backend and returns its DAG's fused byte counts per dtype and the
    ledger's own words moved per item (for comparison)."""
    with tempfile.TemporaryDirectory() as tmp:
        dot = pathlib.Path(tmp) / "dag.dot"
        cmd = [str(mmvram), "run", algorithm, "--n", str(n), "--s", str(s), "--format", "json", "--dag", str(dot)]
        if density is not None:  # None for an algorithm without segments (matmul-scan)
            cmd += ["--density", str(density)]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            die(f"{' '.join(cmd)} failed: {run.stderr.strip()}")
        report = json.loads(run.stdout)
        nodes, edges = parse_dot(dot.read_text())
    inputs, outputs, inner = classify(nodes, edges)
    out = {"algorithm": algorithm, "n": n, "s": s, "density": density, "segments": report["segments"],
           "ledger_records": len(nodes), "inputs": inputs, "output_lengths": outputs, "records_kept_on_chip": inner,
           "ledger_words_moved_per_item": (report["words_read"] + report["words_written"]) / n}
    for dtype in VALUE_BYTES:
        r, w, seg = fused_bytes(inputs, outputs, n, report["segments"], dtype)
        out[dtype] = {"read_bytes_per_item": r, "written_bytes_per_item": w, "written_bytes_per_segment": seg}
    return out


def source_constant(path, pattern):
    m = re.search(pattern, (ROOT / path).read_text())
    if not m:
        die(f"no match for {pattern!r} in {path}")
    return m


def tile_geometry():
    """(items per tile for each operation, tiles one look-back step reads) from the device code."""
    pass_items = int(source_constant("gpu/kernels/internal/mmvram/gpu/tile/tile_io.cuh",
                                     r"kPassItems = kThreads \* (\d+)")[1]) * \
        int(source_constant("gpu/kernels/internal/mmvram/gpu/tile/tile_io.cuh", r"kThreads = (\d+)")[1])
    tuning = "gpu/kernels/include/mmvram/gpu/tuning.hpp"  # candidate 0: the untuned tile policy
    passes = {p.lower(): int(source_constant(tuning, rf"k{p}Candidates{{{{{{(\d+),")[1]) for p in ("Scan", "Segmented")}
    words = int(source_constant("gpu/kernels/internal/mmvram/gpu/tile/lookback.cuh", r"kLookbackWords = (\d+)")[1])
    tiles = {"scan": passes["scan"] * pass_items, "segmented_scan": passes["segmented"] * pass_items,
             "segmented_sum": passes["segmented"] * pass_items}
    return tiles, 32 * words


def fused_rows(doc):
    """The bench run's fused-kernel rows: those naming a variant of one of ALGORITHMS' operations."""
    return [r for r in doc["rows"] if r.get("variant") and r.get("operation") in ALGORITHMS and "error" not in r]


def latency_terms(results, gpu):
    """Launch (µs) and look-back hop (µs per operation) from the single-tile (n = 2^14) and
    four-tile (2^16) runs: launch = call time - one tile's cycles; hop = the extra cycles per tile
    when tiles look back. Medians over kernels, variants, distributions and dtypes; None when the
    runs are missing or lack one of the operations."""
    for prefix in ("gpu_latency_v3", "gpu_latency"):
        p14, p16 = results / f"{prefix}_n14_{gpu}.json", results / f"{prefix}_n16_{gpu}.json"
        if p14.exists() and p16.exists():
            break
    else:
        return None
    d14, d16 = json.loads(p14.read_text()), json.loads(p16.read_text())
    mhz = d14["gpu"]["sm_clock_khz"] / 1e3
    by16 = {(r["kernel"], r["dtype"], r["distribution"]): r for r in fused_rows(d16)}
    launch, hops = [], {}
    for r in fused_rows(d14):
        launch.append(r["time_ms"] * 1e3 - r["tile_cycles_median"] / mhz)
        o = by16.get((r["kernel"], r["dtype"], r["distribution"]))
        if o:
            hops.setdefault(r["operation"], []).append((o["tile_cycles_median"] - r["tile_cycles_median"]) / mhz)
    if set(hops) != set(ALGORITHMS):
        return None
    return {"from": [p14.name, p16.name], "sm_clock_mhz": mhz, "launch_us": statistics.median(launch),
            "hop_us": {op: statistics.median(v) for op, v in hops.items()}}


def bandwidths(doc):
    """Per dtype: read bandwidth (the read-only reduction) and write bandwidth (what the copy's
    written bytes add to its read), GB/s, from the run's own rows."""
    out = {}
    for dtype in VALUE_BYTES:
        rows = {r["kernel"]: r for r in doc["rows"] if r["dtype"] == dtype}
        if "copy" not in rows or "read_only_reduce" not in rows:
            continue
        c, ro = rows["copy"], rows["read_only_reduce"]
        read_s = ro["n"] * ro["kernel_bytes_per_item"] / (ro["time_ms"] * 1e-3 * 1e9)  # GB/s
        copy_read_ms = c["n"] * VALUE_BYTES[dtype] / read_s * 1e-6
        write_s = c["n"] * VALUE_BYTES[dtype] / ((c["time_ms"] - copy_read_ms) * 1e-3) / 1e9
        out[dtype] = {"read_gb_per_s": read_s, "write_gb_per_s": write_s}
    return out


def predict(row, derived, bw, lat, tiles, window):
    """One point: the model's terms (ms) beside the measured time."""
    d, n, segs = derived[row["operation"]][row["dtype"]], row["n"], row["num_segments"]
    read_b, write_b = n * d["read_bytes_per_item"], n * d["written_bytes_per_item"] + segs * d["written_bytes_per_segment"]
    floor = row["kernel_bytes_per_item"] * n + row["kernel_bytes_per_segment"] * segs
    if read_b + write_b != floor:
        die(f"{row['kernel']} {row['distribution']}: derived {read_b + write_b} bytes, the bench's floor {floor}")
    b = bw[row["dtype"]]
    bytes_ms = (read_b / b["read_gb_per_s"] + write_b / b["write_gb_per_s"]) * 1e-6
    n_tiles = math.ceil(n / row.get("tile_items", tiles[row["operation"]]))  # the run's tile policy when recorded
    hop = lat["hop_us"][row["operation"]]
    chain_ms, serial_ms = math.ceil(n_tiles / window) * hop * 1e-3, n_tiles * hop * 1e-3
    pred = lat["launch_us"] * 1e-3 + max(bytes_ms, chain_ms)
    return {"kernel": row["kernel"], "operation": row["operation"], "variant": row["variant"].split("_")[0].upper(),
            "dtype": row["dtype"], "distribution": row["distribution"], "n": n, "num_segments": segs,
            "bytes_read": read_b, "bytes_written": write_b, "tiles": n_tiles, "bytes_ms": bytes_ms,
            "chain_ms": chain_ms, "chain_serial_ms": serial_ms, "launch_ms": lat["launch_us"] * 1e-3,
            "predicted_ms": pred, "measured_ms": row["time_ms"], "relative_error": pred / row["time_ms"] - 1}


def model_gpu(results, gpu, derived, tiles, window):
    """The fused_prediction_<GPU> document, or None (with a note) when a file it needs is missing."""
    bench = json.loads((results / f"gpu_bench_{gpu}.json").read_text())
    bw, lat = bandwidths(bench), latency_terms(results, gpu)
    lat_gpu = gpu
    if lat is None:  # no small-n runs of this GPU: another GPU's, said in the document
        others = sorted(p.name[len("gpu_latency_v3_n14_"):-5] for p in results.glob("gpu_latency_v3_n14_*.json"))
        lat_gpu = others[0] if others else None
        lat = latency_terms(results, lat_gpu) if lat_gpu else None
    if not bw or lat is None:
        print(f"fused_model.py: {gpu}: no copy/read-only rows or no latency runs; skipped", file=sys.stderr)
        return None
    points, runs = [], []
    for path in sorted(results.glob(f"gpu_bench*_{gpu}.json")):
        doc = json.loads(path.read_text())
        if doc.get("pointer_offset_items", 0) != 0 or path.name.startswith("gpu_bench_aligned_ref_") or not fused_rows(doc):
            continue  # the unaligned runs, their aligned reference and any run naming no variant: other experiments
        runs.append({"file": path.name, "date_utc": doc["date_utc"], "n": doc["n"]})
        for r in fused_rows(doc):
            points.append({"file": path.name, **predict(r, derived, bw, lat, tiles, window)})
    inside = sum(abs(p["relative_error"]) <= BAND for p in points)
    return {"schema": "mmvram-fused-prediction/1", "gpu": bench["gpu"]["name"], "gpu_key": gpu,
            "from": "experiments/fused_model.py", "runs": runs,
            "model": {"predicted_ms": "launch_ms + max(bytes_ms, chain_ms)",
                      "bytes_ms": "bytes_read / read_gb_per_s + bytes_written / write_gb_per_s",
                      "chain_ms": "ceil(tiles / lookback_window_tiles) * hop_us",
                      "chain_serial_ms": "tiles * hop_us (one hop per tile; not in the prediction)",
                      "relative_error": "predicted_ms / measured_ms - 1",
                      "bandwidth_from": f"gpu_bench_{gpu}.json", "bandwidth_gb_per_s": bw,
                      "latency_from": lat["from"], "latency_gpu": lat_gpu, "sm_clock_mhz": lat["sm_clock_mhz"],
                      "launch_us": lat["launch_us"], "hop_us": lat["hop_us"], "tile_items": tiles,
                      "lookback_window_tiles": window},
            "derivation": derived, "band_relative": BAND,
            "summary": {"points": len(points), "within_band": inside,
                        "median_abs_relative_error": statistics.median(abs(p["relative_error"]) for p in points) if points else None},
            "points": points}


def plot(doc, out):
    """Predicted against measured time (±15% band), and each point's error against its segment
    density, one colour per variant and one marker per kernel."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax, ex) = plt.subplots(1, 2, figsize=(12, 5))
    colours = {"V0": "tab:blue", "V1": "tab:orange", "V2": "tab:green", "V3": "tab:red"}
    markers = {"scan": "s", "segmented_scan": "o", "segmented_sum": "^"}
    for p in doc["points"]:
        style = dict(s=16, c=colours[p["variant"]], marker=markers[p["operation"]], alpha=0.7, linewidths=0)
        ax.scatter(p["measured_ms"], p["predicted_ms"], **style)
        ex.scatter(max(p["num_segments"], 1) / p["n"], 100 * p["relative_error"], **style)
    lo = min(min(p["measured_ms"], p["predicted_ms"]) for p in doc["points"]) * 0.8
    hi = max(max(p["measured_ms"], p["predicted_ms"]) for p in doc["points"]) * 1.2
    ax.plot([lo, hi], [lo, hi], "k-", lw=0.8)
    ax.fill_between([lo, hi], [lo * (1 - BAND), hi * (1 - BAND)], [lo * (1 + BAND), hi * (1 + BAND)],
                    color="grey", alpha=0.2, label="±15%")
    ex.axhspan(-100 * BAND, 100 * BAND, color="grey", alpha=0.2)
    ex.axhline(0, color="k", lw=0.8)
    for v, c in colours.items():
        ax.scatter([], [], c=c, s=16, label=v)
    for op, m in markers.items():
        ax.scatter([], [], c="k", marker=m, s=16, label=ALGORITHMS[op])
    s = doc["summary"]
    ax.set(xscale="log", yscale="log", xlim=(lo, hi), ylim=(lo, hi), xlabel="measured (ms)", ylabel="predicted (ms)",
           title=f"{doc['gpu']}: {s['within_band']} of {s['points']} within ±15%")
    ex.set(xscale="log", xlabel="segments per item (n = %s)" % f"{doc['points'][0]['n']:,}",
           ylabel="error of the prediction (%)", title="error against segment density")
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(out / f"fused_prediction_{doc['gpu_key']}.{ext}", dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mmvram", type=pathlib.Path, default=ROOT / "build" / "cpu" / "tools" / "mmvram")
    ap.add_argument("--results", type=pathlib.Path, default=ROOT / "experiments" / "results")
    ap.add_argument("--out", type=pathlib.Path, default=ROOT / "experiments" / "out")
    a = ap.parse_args()
    if not a.mmvram.is_file():
        die(f"no mmvram binary at {a.mmvram} (build first, or pass --mmvram)")
    gpus = sorted(p.stem[len("gpu_bench_"):] for p in a.results.glob("gpu_bench_*.json")
                  if not p.stem.startswith(("gpu_bench_ablation_", "gpu_bench_unaligned_", "gpu_bench_aligned_ref_",
                                            "gpu_bench_scd_")))
    if not gpus:
        print(f"fused_model.py: no gpu_bench_<GPU>.json in {a.results}; nothing to model")
        return 0
    derived = {op: derive(a.mmvram, algo, density=None if op == "scan" else 1 / 32) for op, algo in ALGORITHMS.items()}
    tiles, window = tile_geometry()
    a.out.mkdir(parents=True, exist_ok=True)
    for gpu in gpus:
        doc = model_gpu(a.results, gpu, derived, tiles, window)
        if doc is None:
            continue
        (a.results / f"fused_prediction_{gpu}.json").write_text(json.dumps(doc, indent=1) + "\n")
        plot(doc, a.out)
        s = doc["summary"]
        print(f"fused_model.py: {gpu}: {s['within_band']} of {s['points']} points within ±15% "
              f"(median |error| {s['median_abs_relative_error']:.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
