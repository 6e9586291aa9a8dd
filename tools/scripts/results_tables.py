#!/usr/bin/env python3
"""The docs' result tables, generated from the JSON in experiments/results/.

A page marks a generated table with

    <!-- table: NAME -->
    ...
    <!-- /table -->

(NAME may carry an argument after a colon, e.g. `bench:f32`). This script rewrites what lies
between the markers from the stored JSON; `--check` rewrites nothing and exits 1 when a page's
table differs from what the JSON gives (tests/tools/test_docs.cpp runs it).

    tools/scripts/results_tables.py [--check] [PAGE.md ...]     (default: every page under docs/)
    tools/scripts/results_tables.py --list
    tools/scripts/results_tables.py --summarize-check CHECK.json [OUT.json]

`--summarize-check` turns the per-case log of `mmvram kernels check --out` into the small record
kept in experiments/results/ (default OUT: gpu_check_summary_<GPU>.json): result counts per
kernel × dtype × status, the worst error/bound per kernel and dtype, the device, seed and commit
(when the log records one).
"""
import argparse
import csv
import importlib.util
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
RESULTS = ROOT / "experiments" / "results"
MARKER = re.compile(r"(<!-- table: ([A-Za-z0-9_:.-]+) -->\n)(.*?)(<!-- /table -->)", re.S)

# The segment-length distributions the tables show, in the docs' column order.
DISTS = [("one_segment", "one segment"), ("geometric:1048576", "mean 1M"),
         ("geometric:32768", "mean 32K"), ("geometric:1024", "mean 1K"),
         ("geometric:32", "mean 32"), ("all_length_1", "all length 1")]


def load(name):
    with open(RESULTS / name) as f:
        return json.load(f)


def fused(doc):
    """{fused kernel: {kernel: "V0".."V3"}} of a bench run, from its rows' family and variant fields:
    the fused kernels are family "ours" (in the run's order), their variants every row of the same
    operation that names a variant (v1_tensor_cores -> V1), in variant order."""
    out, by_operation = {}, {}
    for r in doc["rows"]:
        if r.get("family") == "ours":
            out.setdefault(r["kernel"], {})
            by_operation[r["operation"]] = r["kernel"]
    for r in doc["rows"]:
        if r.get("variant") and r.get("operation") in by_operation:
            out[by_operation[r["operation"]]][r["kernel"]] = r["variant"].split("_")[0].upper()
    return {k: dict(sorted(v.items(), key=lambda kv: kv[1])) for k, v in out.items()}


def num(v):
    """G items/s as the docs print them: one decimal below 10, else whole."""
    return f"{v:.1f}" if v < 10 else f"{v:.0f}"


def grouped(v):
    return f"{v:,.0f}"


def source(name, doc, extra=""):
    gpu = doc["gpu"]["name"] if isinstance(doc.get("gpu"), dict) else doc.get("gpu", "")
    date = doc.get("date_utc", doc.get("date", ""))[:10]
    parts = [p for p in (gpu, f"run of {date}" if date else "", extra) if p]
    return f"From `experiments/results/{name}` ({', '.join(parts)})."


def bench_rows(doc, dtype):
    rows = {}
    for r in doc["rows"]:
        if r["dtype"] == dtype and "error" not in r:
            rows[(r["kernel"], r["distribution"])] = r
    return rows


def dist_cells(rows, kernel, field="throughput_gitems_per_s", fmt=num):
    if (kernel, "none") in rows:  # unsegmented: one value, under "one segment"
        return [fmt(rows[(kernel, "none")][field]) + " (unsegmented)"] + [""] * (len(DISTS) - 1)
    return [fmt(rows[(kernel, d)][field]) if (kernel, d) in rows else "" for d, _ in DISTS]


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def t_bench(dtype):
    """Every kernel of the full bench run, G items/s by segment length."""
    name = "gpu_bench_H100.json"
    doc = load(name)
    rows = bench_rows(doc, dtype)
    # The docs' rows: order and prose labels (e.g. "uint8 keys") are the page's, not fields of the JSON.
    kernels = [("copy", "copy (ceiling)"), ("read_only_reduce", "read-only reduction (ceiling)"),
               ("matmul_scan", "`matmul_scan` (ours)"), ("cub_inclusive_sum", "CUB `InclusiveSum`"),
               ("sscr_segmented_scan", "`sscr_segmented_scan` (ours)"),
               ("cub_inclusive_sum_by_key_u8", "CUB `InclusiveSumByKey`, uint8 keys"),
               ("cub_inclusive_sum_by_key", "CUB `InclusiveSumByKey`, int32 keys"),
               ("vcu_flag_transform_scan", "CUDA-core flag-transform scan (baseline)"),
               ("vcu_min_index_scan", "CUDA-core min-index scan (baseline)"),
               ("cccl_segmented_scan", "CCCL `DeviceSegmentedScan`"),
               ("cub_flag_pair_scan", "CUB `InclusiveScan` on (flag, value) pairs"),
               ("scd_segmented_sum", "`scd_segmented_sum` (ours)"),
               ("cub_segmented_reduce_sum", "CUB `DeviceSegmentedReduce::Sum`")]
    body = [[label] + dist_cells(rows, k) for k, label in kernels if any(kk == k for kk, _ in rows)]
    return (source(name, doc, f"n = {doc['n']:,}, {dtype}, G items/s") + f"\n\n" +
            table(["kernel"] + [h for _, h in DISTS], body))


def t_copy_fraction(dtype):
    """The fused kernels' bandwidth as a share of the copy's, and their byte floor's share of
    the read-only ceiling."""
    name = "gpu_bench_H100.json"
    doc = load(name)
    rows = bench_rows(doc, dtype)
    pct = lambda v: f"{100 * v:.0f}"
    body = []
    for k in fused(doc):
        body.append([f"`{k}`", "% of copy bandwidth"] + dist_cells(rows, k, "copy_bandwidth_fraction", pct))
        body.append([f"`{k}`", "% of read-only ceiling (floor bytes)"] +
                    dist_cells(rows, k, "floor_fraction_of_read_only", pct))
    return (source(name, doc, f"n = {doc['n']:,}, {dtype}") + f"\n\n" +
            table(["kernel", "measure"] + [h for _, h in DISTS], body))


def t_ablation(dtype):
    """V0–V3 of the three fused kernels, one run, G items/s."""
    name = "gpu_bench_ablation_H100.json"
    doc = load(name)
    rows = bench_rows(doc, dtype)
    body = []
    for variants in fused(doc).values():
        for kv, v in variants.items():
            if (kv, "none") in rows or (kv, "one_segment") in rows:
                body.append([f"`{kv}`", v] + dist_cells(rows, kv))
    return (source(name, doc, f"n = {doc['n']:,}, {dtype}, G items/s") + f"\n\n" +
            table(["kernel", "variant"] + [h for _, h in DISTS], body))


def t_ablation_ratio(_):
    """Speed of V1–V3 relative to V0 over every distribution of the ablation run."""
    name = "gpu_bench_ablation_H100.json"
    doc = load(name)
    body = []
    for k, variants in fused(doc).items():
        for kv, v in variants.items():
            if v == "V0":
                continue
            cells = []
            for dtype in ("f32", "i32"):
                rows = bench_rows(doc, dtype)
                ratios = [rows[(kv, d)]["throughput_gitems_per_s"] / rows[(k, d)]["throughput_gitems_per_s"]
                          for (kk, d) in rows if kk == kv and (k, d) in rows]
                lo, hi = (f"{min(ratios):.2f}", f"{max(ratios):.2f}") if ratios else ("", "")
                cells.append(lo if lo == hi else f"{lo}–{hi}")
            if any(cells):
                body.append([f"`{k}`", v] + cells)
    return (f"{source(name, doc, 'every distribution of the run; throughput over V0’s')}\n\n" +
            table(["kernel", "variant", "fp32, × V0", "int32, × V0"], body))


def t_unaligned(dtype):
    """Time with pointers one item off (and ours three items off), over the aligned time of the
    same call's run."""
    name, name3, ref = ("gpu_bench_unaligned_H100.json", "gpu_bench_unaligned_offset3_H100.json",
                        "gpu_bench_aligned_ref_H100.json")
    doc = load(name)
    al = bench_rows(load(ref), dtype)
    cols = [("one_segment", "one segment"), ("geometric:32", "mean 32"),
            ("geometric:1024", "mean 1K"), ("all_length_1", "all length 1")]
    # The docs' rows: order and prose labels are the page's, not fields of the JSON.
    ours = [("matmul_scan", "`matmul_scan`"), ("sscr_segmented_scan", "`sscr_segmented_scan`"),
            ("scd_segmented_sum", "`scd_segmented_sum`")]
    rivals = [("copy", "copy"), ("read_only_reduce", "read-only reduction"),
              ("cub_inclusive_sum", "CUB `InclusiveSum`"),
              ("cub_inclusive_sum_by_key_u8", "CUB `InclusiveSumByKey`, uint8 keys"),
              ("cub_segmented_reduce_sum", "CUB `DeviceSegmentedReduce::Sum`")]
    body = []
    for file, kernels, suffix in [(name, ours + rivals, ""), (name3, ours, ", 3 items off")]:
        un = bench_rows(load(file), dtype)
        for k, label in kernels:
            if (k, "none") in un:
                cells = [f"{un[(k, 'none')]['time_ms'] / al[(k, 'none')]['time_ms']:.2f}× (unsegmented)"] + [""] * 3
            else:
                cells = [f"{un[(k, d)]['time_ms'] / al[(k, d)]['time_ms']:.2f}×" if (k, d) in un and (k, d) in al
                         else "" for d, _ in cols]
            body.append([label + suffix] + cells)
    return (source(name, doc, f"offset {doc['pointer_offset_items']} item, {dtype}") + f" Rows marked 3 items off: "
            f"`experiments/results/{name3}`. Time over the aligned time in `experiments/results/{ref}` (the same "
            f"call, before them).\n\n" + table(["kernel"] + [h for _, h in cols], body))


def t_latency(dtype):
    """Median SM cycles per tile at small n, V0 / V1 / V2 / V3 (V2 = V1 for MatMulScan)."""
    docs = {n: load(f"gpu_latency_v3_n{n}_H100.json") for n in (12, 14, 16)}
    body = []
    # The docs' rows: which distributions of each kernel the page shows is the page's choice.
    for k, dists in [("matmul_scan", [("none", "—")]),
                     ("sscr_segmented_scan", [("one_segment", "one"), ("geometric:32", "mean 32")]),
                     ("scd_segmented_sum", [("one_segment", "one"), ("geometric:32", "mean 32")])]:
        for d, label in dists:
            cells = []
            for n, doc in docs.items():
                rows = bench_rows(doc, dtype)
                cells.append(" / ".join(f"{round(rows[(kv, d)]['tile_cycles_median'], -2):,.0f}"
                                        for kv in fused(doc)[k] if (kv, d) in rows))
            body.append([f"`{k}`" + (" (V0 / V1 / V3)" if k == "matmul_scan" else ""), label] + cells)
    doc = docs[14]
    return (f"From `experiments/results/gpu_latency_v3_n{{12,14,16}}_H100.json` ({doc['gpu']['name']}, "
            f"run of {doc['date_utc'][:10]}, {dtype}, {doc['reps']} calls; median cycles per tile, to the nearest 100).\n\n" +
            table(["kernel", "segments", "n = 2^12 (V0 / V1 / V2 / V3)", "n = 2^14", "n = 2^16"], body))


def t_ncu_mix(_):
    """Executed instruction mix from ncu, one call per kernel and distribution."""
    name = "ncu_mix_v3_H100.json"
    doc = load(name)
    dist_label = dict(DISTS)
    # ncu's rows name only the kernel; the ablation run's rows carry its family and variant.
    kernels = fused(load("gpu_bench_ablation_H100.json"))
    variant = {kv: (k, v) for k, variants in kernels.items() for kv, v in variants.items()}
    body = []
    for r in doc["rows"]:
        base, v = variant[r["kernel"]]
        body.append([f"`{base}`", dist_label.get(r["distribution"], r["distribution"]), v,
                     f"{r['warp_instructions_executed'] / 1e6:.1f}", f"{r['tensor_share_pct']:.1f}",
                     f"{r['issue_active_per_cycle']:.2f}", f"{r['dram_throughput_pct']:.0f}",
                     f"{r['duration_ns'] / 1e6:.3f}"])
    order = [label for _, label in DISTS]
    body.sort(key=lambda c: (list(kernels).index(c[0].strip("`")), order.index(c[1]) if c[1] in order else 99, c[2]))
    return (source(name, doc, f"n = {doc['n']:,}, {doc['dtype']}; ncu at its own clocks") + f"\n\n" +
            table(["kernel", "segments", "variant", "warp instructions (M)", "tensor pipe (%)",
                   "issued per scheduler-cycle", "DRAM throughput (%)", "time (ms)"], body))


# The kernels' mangled names: device::<kernel>_kernel<T, Unit, tile_policy> with Unit an agent's
# unit policy (agent/unit_policy.cuh), and device::state_passing_kernel<Scan, bf16, T, Acc>.
SASS_KERNEL = re.compile(r"device\d+(matmul_scan|sscr|scd)_kernelI([fj])NS0_5agent"
                         r"(9warp_unit|8row_unit|9lane_unitILNS0_4warp4unitE\dEE)")
# warp::unit {tensor_cores, cuda_cores, rows, warp}: lane_unit<cuda_cores> is V0, lane_unit<tensor_cores> V1
SASS_UNIT = {"9warp_unit": "V3", "8row_unit": "V2", "9lane_unitILNS0_4warp4unitE0EE": "V1",
             "9lane_unitILNS0_4warp4unitE1EE": "V0"}
# The device kernel's name -> the kernel's registry name (tools/kernels/kernels.cpp); sass_mix's JSON has
# only the mangled symbols, so nothing in it names the registry kernel.
SASS_NAME = {"matmul_scan": "matmul_scan", "sscr": "sscr_segmented_scan", "scd": "scd_segmented_sum"}
SP_KERNEL = re.compile(r"state_passing_kernelINS0_5agent(11serial_scan|8mma_scanILb[01]EE)ELb[01]E([tfd])fEE")
SP_METHOD = {"11serial_scan": "cuda_core", "8mma_scanILb0EE": "tensor_core",
             "8mma_scanILb1EE": "tensor_core_speculative"}


def t_sass_mix(_):
    """Static SASS: tensor-core (HMMA/IMMA) instructions over all instructions, per kernel."""
    name = "sass_mix_sm90a.json"
    doc = load(name)
    cells = {}
    for sym, c in doc.items():
        m = SASS_KERNEL.search(sym)
        if m:
            key = (SASS_NAME[m[1]], SASS_UNIT[m[3]])
            cells.setdefault(key, {})["fp32" if m[2] == "f" else "int32"] = c
            continue
        m = SP_KERNEL.search(sym)
        if m and m[1] in SP_METHOD:
            dt = {"f": "fp32", "t": "bf16", "d": "fp64"}[m[2]]
            cells.setdefault((f"state_passing_{SP_METHOD[m[1]]}", ""), {})[dt] = c
    fmt = lambda c: (f"{c['tensor_core']:,} / {c['instructions']:,}" +
                     (f" ({100 * c['tensor_core'] / c['instructions']:.1f}%)" if c["tensor_core"] else ""))
    body = []
    for (k, v), by in sorted(cells.items(), key=lambda kv: (kv[0][0].startswith("state"), kv[0])):
        if k.startswith("state_passing"):
            body.append([f"`{k}`", "—", fmt(by["fp32"]) if "fp32" in by else "",
                         "bf16 data: " + fmt(by["bf16"]) if "bf16" in by else ""])
        else:
            body.append([f"`{k}`", v, fmt(by["fp32"]), fmt(by["int32"])])
    return (f"From `experiments/results/{name}` (static counts, sm_90a, `tools/scripts/sass_mix.sh`).\n\n" +
            table(["kernel", "variant", "fp32: tensor-core / all instructions", "int32: tensor-core / all instructions"],
                  body))


def t_check_summary(gpu):
    """`mmvram kernels check` results per kernel and dtype, from its stored summary."""
    name = f"gpu_check_summary_{gpu}.json"
    doc = load(name)
    body = []
    for k in doc["kernels"]:
        c = k["counts"]
        body.append([f"`{k['kernel']}`", k["dtype"], str(c.get("PASS", 0)), str(c.get("FAIL", 0)),
                     str(c.get("ERROR", 0)), str(c.get("SKIPPED", 0)), f"{k['worst_error_over_bound']:.3g}"])
    extra = f"seed {doc['seed']}, {'--quick' if doc['quick'] else 'full check'}, {doc['wall_time_s']:.0f} s"
    return (f"{source(name, doc, extra)}\n\n" +
            table(["kernel", "dtype", "PASS", "FAIL", "ERROR", "SKIPPED", "worst error / bound"], body))


def t_v3_accuracy(gpu):
    """V3's fp32 bits lost against the magnitude spread (experiments/v3_accuracy_table.py's cells)."""
    spec = importlib.util.spec_from_file_location("v3_accuracy_table", ROOT / "experiments" / "v3_accuracy_table.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    name = f"gpu_v3_accuracy_{gpu}.json"
    doc = load(name)
    rows = {}
    for r in doc["results"]:
        rows.setdefault((r["values"], r["distribution"]), {})[r["kernel"]] = r
    body = [[values, dist] + [mod.cell(by[k]) if k in by else "" for k, _ in mod.KERNELS]
            for (values, dist), by in rows.items()]
    return (source(name, doc, f"n = {doc['n']:,}, seed {doc['seed']}") + f"\n\n" +
            table(["values", "starts"] + [n for _, n in mod.KERNELS], body))


def t_suites(_):
    """Per GPU: the recorded GPU suite (gpu_suite_<GPU>.json) and the soak (gpu_stress_soak_<GPU>.json)."""
    body = []
    for path in sorted(RESULTS.glob("gpu_suite_*.json")):
        suite = json.loads(path.read_text())
        gpu = path.stem[len("gpu_suite_"):]
        by = {x["suite"]: x for x in suite["suites"]}
        passed = sum(1 for x in suite["suites"] if x["pass"])
        check = by.get("check_quick", {}).get("counts", {})
        sp = by.get("gpu_state_passing", {}).get("counts", {}).get("assertions")
        be = by.get("gpu_backends", {}).get("counts", {}).get("assertions")
        suite_cell = (f"{passed} of {len(suite['suites'])} suites pass; assertions: {sp:,} state passing, "
                      f"{be:,} `[backends]`; check `--quick`: {check.get('PASS', 0):,} PASS, "
                      f"{check.get('FAIL', 0):,} FAIL ({check.get('documented_inaccuracy_failures', 0):,} of them "
                      f"V3's documented inaccuracy), {check.get('beyond_derivation', 0)} beyond V3's derived bound; "
                      f"Catch2 stress {suite['stress_seconds']} s")
        alg = by.get("check_algorithms", {}).get("counts")
        if alg:
            suite_cell += (f"; check ALGO: {alg['paths_pass']} paths PASS, {alg['paths_fail']} FAIL, "
                           f"{alg['documented_inaccuracy']} V3 documented inaccuracy")
        soak_path = RESULTS / f"gpu_stress_soak_{gpu}.json"
        soak_cell = ""
        if soak_path.exists():
            soak = json.loads(soak_path.read_text())
            backend = soak["by_kernel"].get("cuda_backend", {}).get("cases", 0)
            soak_cell = (f"{soak['seconds']:.0f} s, {soak['cases']:,} cases ({backend:,} backend comparisons), "
                         f"{soak['failures']} failures; commit {soak['commit'][:7]}")
        count = gpu.rpartition("_x")[2] if "_x" in gpu else ""
        body.append([suite["gpu"] + (f" × {count}" if count else ""), suite["commit"][:7] + (" (dirty)" if suite["dirty"] else ""),
                     suite["driver"], suite_cell, soak_cell])
    return ("From `experiments/results/gpu_suite_<GPU>.json` and `gpu_stress_soak_<GPU>.json`.\n\n" +
            table(["GPU", "commit", "driver", "suite", "soak"], body))


def t_multi_gpu(arg):
    """The sharded kernels at weak scaling (multi_gpu_<GPU>_x<count>.json, `mmvram kernels multi-gpu`)."""
    name = f"multi_gpu_{arg}.json"
    doc = load(name)
    body = [[r["op"], r["dtype"], r["distribution"], f"2^{r['n_per_gpu'].bit_length() - 1}",
             f"{r['single_gpu_ms']:.3f}", f"{r['sharded_ms']:.3f}", f"{100 * r['per_gpu_throughput_vs_single']:.1f}%",
             f"{r['exchange_ms'] * 1000:.0f}", f"{100 * r['exchange_share']:.1f}%", r["check"]] for r in doc["results"]]
    dirty = " (built from a dirty tree)" if doc.get("commit_dirty") else ""
    return (source(name, doc, f"{doc['gpu']['count']} GPUs, commit {doc['commit'][:7]}{dirty}") + "\n\n" +
            table(["op", "dtype", "starts", "items per GPU", "1 GPU (ms)", "sharded (ms)", "per-GPU throughput",
                   "all-gather alone (µs)", "all-gather / sharded", "check"], body))


def t_state_passing_distributed(arg):
    """State passing at the MVE split across ranks (state_passing_distributed_<GPU>_x<count>.json)."""
    name = f"state_passing_distributed_{arg}.json"
    doc = load(name)
    body = []
    for r in doc["results"]:
        cuts = r["chunk_cuts"]
        sizes = " + ".join(str(b - a) for a, b in zip(cuts, cuts[1:]))
        body.append([r.get("config", "mve"), f"{r['chunks']:,}", sizes] + [f"{r[m]['median_us']:.0f}" if m in r else "not run"
                               for m in ("one_gpu", "distributed", "gather", "local_only")] +
                    [", ".join(sorted({r[m]["check"] for m in ("one_gpu", "distributed", "gather")}))])
    return (source(name, doc, f"{doc['gpus']} GPUs, commit {doc['commit'][:7]}, chunks of "
                              f"{doc['shape']['chunk_tokens']} tokens") + "\n\n" +
            table(["batch", "chunks", "chunks per rank", "one GPU (µs)", "distributed (µs)", "gather to rank 0 (µs)",
                   "local op only (µs)", "check"], body))


def t_heldout(gpu):
    """The held-out points of one GPU per executor, every point counted (experiments/prediction_summary.py)."""
    sys.path.insert(0, str(ROOT / "experiments"))
    import prediction_summary
    name = f"heldout/heldout_{gpu}.csv"
    if not (RESULTS / name).exists():
        return (f"No held-out run of the {gpu} is stored yet (`experiments/gpu_prediction.sh experiments/results/heldout "
                f"quick` on that GPU writes `experiments/results/{name}`).")
    with open(RESULTS / name) as f:
        rows = list(csv.DictReader(f))
    return f"From `experiments/results/{name}`. " + prediction_summary.markdown(prediction_summary.summarize(rows, gpu))


TABLES = {"bench": t_bench, "copy_fraction": t_copy_fraction, "ablation": t_ablation,
          "ablation_ratio": t_ablation_ratio, "unaligned": t_unaligned, "latency": t_latency,
          "ncu_mix": t_ncu_mix, "sass_mix": t_sass_mix, "check_summary": t_check_summary,
          "v3_accuracy": t_v3_accuracy, "suites": t_suites, "multi_gpu": t_multi_gpu,
          "state_passing_distributed": t_state_passing_distributed, "heldout": t_heldout}


# The fused-kernel model's columns (experiments/fused_model.py): segment lengths by mean, then family.
FUSED_DISTS = [("one_segment", "one segment")] + [
    (f"{fam}:{mean}", f"{label} {short}") for mean, short in (("1048576", "1M"), ("32768", "32K"), ("1024", "1K"), ("32", "32"))
    for fam, label in (("fixed", "fixed"), ("geometric", "geo"), ("pareto", "pareto"))] + [("all_length_1", "length 1")]


def t_fused_prediction(gpu):
    """Fused kernels: the model's time beside every measured point (fused_prediction_<GPU>.json)."""
    name = f"fused_prediction_{gpu}.json"
    doc = load(name)
    m, s = doc["model"], doc["summary"]
    col = lambda d: "one_segment" if d == "none" else d
    ms = lambda v: f"{v:.3f}"
    body, seen = [], set()
    for p in doc["points"]:
        key = (p["operation"], p["dtype"])
        if key not in seen:  # the model's row: one time per operation, dtype and distribution
            seen.add(key)
            cells = {col(q["distribution"]): ms(q["predicted_ms"]) for q in doc["points"]
                     if (q["operation"], q["dtype"]) == key}
            body.append((key, "", [f"**{p['operation']}**", "model", p["dtype"]] +
                         [cells.get(d, "") for d, _ in FUSED_DISTS]))
        row = next((b for b in body if b[1] == (p["file"], p["kernel"], p["dtype"])), None)
        if row is None:
            run = "ablation" if "ablation" in p["file"] else "bench"
            row = (key, (p["file"], p["kernel"], p["dtype"]), [f"`{p['kernel']}` ({run})", p["variant"], p["dtype"]] +
                   [""] * len(FUSED_DISTS))
            body.append(row)
        row[2][3 + [d for d, _ in FUSED_DISTS].index(col(p["distribution"]))] = \
            f"{ms(p['measured_ms'])} ({100 * p['relative_error']:+.0f}%)"
    order = {k: i for i, k in enumerate(dict.fromkeys(b[0] for b in body))}
    body.sort(key=lambda b: (order[b[0]], b[1] != "", b[1]))
    bw = m["bandwidth_gb_per_s"]["f32"]
    hop = ", ".join(f"{op} {v:.2f}" for op, v in m["hop_us"].items())
    return (f"From `experiments/results/{name}` ({doc['gpu']}; runs {', '.join(r['file'] for r in doc['runs'])}). "
            f"Model rows: predicted ms; the others: measured ms (error of the prediction). Read {bw['read_gb_per_s']:.0f} "
            f"and write {bw['write_gb_per_s']:.0f} GB/s (fp32, from `{m['bandwidth_from']}`), launch "
            f"{m['launch_us']:.2f} µs and hop {hop} µs (from `{m['latency_from'][0]}` and `{m['latency_from'][1]}`), "
            f"{m['lookback_window_tiles']} tiles per look-back step. {s['within_band']} of {s['points']} points within "
            f"±{100 * doc['band_relative']:.0f}%, median |error| {100 * s['median_abs_relative_error']:.1f}%.\n\n" +
            table(["kernel", "variant", "dtype"] + [h for _, h in FUSED_DISTS], [b[2] for b in body]))


def t_fused_prediction_summary(_):
    """Fused kernels: the model's points within ±15% per GPU, kernel and variant (every fused_prediction_<GPU>.json)."""
    body = []
    for path in sorted(RESULTS.glob("fused_prediction_*.json")):
        doc = json.loads(path.read_text())
        groups = {}
        for p in doc["points"]:
            groups.setdefault((p["operation"], p["variant"]), []).append(p["relative_error"])
        for (op, v), errs in sorted(groups.items()):
            inside = sum(abs(e) <= doc["band_relative"] for e in errs)
            body.append([doc["gpu"], op, v, str(len(errs)), str(inside), f"{100 * min(errs):+.1f}% to {100 * max(errs):+.1f}%"])
    return ("From `experiments/results/fused_prediction_<GPU>.json` (`experiments/fused_model.py`).\n\n" +
            table(["GPU", "operation", "variant", "points", "within ±15%", "error range"], body))


def t_spmv(gpu):
    """mmvram kernels spmv: per matrix and type, the median ms of ours and both cuSPARSE
    algorithms, each one's % of its own compulsory-byte floor, and ours over each rival."""
    name = f"spmv_{gpu or 'H100'}.json"
    doc = load(name)
    kernels = ["mmvram_spmv_csr", "cusparse_default", "cusparse_csr_alg2"]
    body = []
    for m in doc["matrices"]:
        for dtype in ("f32", "f64"):
            rs = {r["kernel"]: r for r in m["results"] if r["dtype"] == dtype}
            cell = lambda k: (f"{rs[k]['median_ms']:.4f} ({rs[k]['percent_of_floor']:.0f}%)"
                              if "median_ms" in rs.get(k, {}) else "fail")
            ratio = lambda k: (f"{rs['mmvram_spmv_csr']['median_ms'] / rs[k]['median_ms']:.2f}"
                               if "median_ms" in rs.get(k, {}) and "median_ms" in rs.get("mmvram_spmv_csr", {})
                               else "")
            body.append([f"`{m['name']}`", dtype] + [cell(k) for k in kernels] +
                        [ratio("cusparse_default"), ratio("cusparse_csr_alg2")])
    extra = f"copy {doc['copy_bytes_per_s'] / 1e9:.0f} GB/s, seed {doc['seed']}, median of {doc['reps']}"
    return (source(name, doc, extra) + "\n\n" +
            table(["matrix", "type", "mmvram ms (% of floor)", "cuSPARSE default ms (%)", "cuSPARSE CSR_ALG2 ms (%)",
                   "ours / default", "ours / ALG2"], body))


TABLES["spmv"] = t_spmv  # its argument names the GPU: spmv:H100
TABLES["fused_prediction"] = t_fused_prediction  # its argument names the GPU: fused_prediction:H100
TABLES["fused_prediction_summary"] = t_fused_prediction_summary


def generate(spec):
    name, _, arg = spec.partition(":")
    if name not in TABLES:
        raise SystemExit(f"results_tables.py: unknown table '{spec}' (known: {', '.join(TABLES)})")
    return TABLES[name](arg or {"bench": "f32", "copy_fraction": "f32", "ablation": "f32",
                                "unaligned": "f32", "latency": "f32", "check_summary": "H100",
                                "v3_accuracy": "H100"}.get(name, ""))


def process(page, check):
    text = page.read_text()
    problems = []

    def replace(m):
        want = generate(m[2]) + "\n"
        if m[3] != want:
            problems.append(m[2])
        return m[1] + want + m[4]

    new = MARKER.sub(replace, text)
    if not check and new != text:
        page.write_text(new)
    return problems


def summarize_check(log_path, out_path):
    with open(log_path) as f:
        log = json.load(f)
    by = {}
    for r in log["results"]:
        e = by.setdefault((r["kernel"], r["dtype"]), {"kernel": r["kernel"], "dtype": r["dtype"],
                                                      "counts": {}, "worst_error_over_bound": 0.0})
        e["counts"][r["status"]] = e["counts"].get(r["status"], 0) + 1
        w = r.get("worst_error_over_bound")
        if isinstance(w, (int, float)):
            e["worst_error_over_bound"] = max(e["worst_error_over_bound"], w)
    gpu = log["gpu"]["name"]
    out = {"schema": "mmvram-gpu-check-summary/1",
           "from": "tools/scripts/results_tables.py --summarize-check on the per-case log of "
                   "`mmvram kernels check --out`",
           "gpu": gpu, "commit": log.get("commit"),
           "cuda_runtime_version": log.get("cuda_runtime_version"),
           "cuda_driver_version": log.get("cuda_driver_version"),
           "seed": log.get("seed"), "quick": log.get("quick"), "wall_time_s": log.get("wall_time_s"),
           "f32_bound": log.get("f32_bound"), "summary": log.get("summary"),
           "kernels": [by[k] for k in sorted(by)]}
    if out_path is None:
        short = next((w for w in ("H100", "H200", "A100", "B200") if w in gpu), gpu.replace(" ", "_"))
        out_path = RESULTS / f"gpu_check_summary_{short}.json"
    pathlib.Path(out_path).write_text(json.dumps(out, indent=1) + "\n")
    print(f"results_tables.py: {out_path} ({len(log['results'])} results, {len(by)} kernel × dtype)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pages", nargs="*", type=pathlib.Path)
    ap.add_argument("--check", action="store_true", help="exit 1 when a table differs from the JSON")
    ap.add_argument("--list", action="store_true", help="the known table names")
    ap.add_argument("--summarize-check", nargs="+", metavar=("CHECK.json", "OUT.json"))
    a = ap.parse_args()
    if a.list:
        for name, fn in TABLES.items():
            print(f"{name:16} {fn.__doc__.split(chr(10))[0]}")
        return 0
    if a.summarize_check:
        summarize_check(a.summarize_check[0], a.summarize_check[1] if len(a.summarize_check) > 1 else None)
        return 0
    pages = a.pages or sorted((ROOT / "docs").rglob("*.md"))
    bad = 0
    for page in pages:
        for spec in process(page, a.check):
            bad += 1
            print(f"results_tables.py: {page}: table '{spec}' "
                  f"{'differs from' if a.check else 'regenerated from'} experiments/results "
                  f"{'(run tools/scripts/results_tables.py)' if a.check else ''}", file=sys.stderr)
    return 1 if a.check and bad else 0


if __name__ == "__main__":
    sys.exit(main())
