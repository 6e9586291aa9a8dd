"""The held-out points against their predictions, every point counted (docs/prediction.md).

Reads experiments/results/heldout_<GPU>.csv (experiments/heldout.py) for every GPU present and
writes into --out prediction_summary_<GPU>.json and prediction_summary.md: per executor, the
points within ±15% at n >= 2^20 and within ±25% below, the median |error|, the worst point and
the ratio target (each MMU algorithm over its rival, predicted ratio within ±15% of the measured
one at n >= 2^20). A failed run, or one without a measured or a predicted time, is a miss.
Cross-device: with two GPUs' held-out runs and profiles, each GPU's points are predicted again
from the other's profiles rescaled by three of its own stream-class numbers (rescaled_profile)
on the simulate backend (--mmvram; the predictions are kept in crossdevice_<A>_from_<B>.csv in
--results, stored with the held-out runs, and reused while the draw and the rescaled profile are
unchanged: a fresh checkout redraws without pricing up to 2^27-item ledgers again).
usage: experiments/prediction_summary.py [--out experiments/out] [--results experiments/results]
                                         [--mmvram build/cpu/tools/mmvram]
"""
import argparse
import csv
import hashlib
import json
import os
import pathlib
import statistics
import subprocess
import sys

import mmvram_data

BIG_N = 2 ** 20
TARGETS = {"big": (0.15, 0.90), "small": (0.25, 0.80)}  # (band, share of points inside it)
RATIO_BAND, RATIO_SHARE = 0.15, 1.0  # every ratio at n >= 2^20 within ±15%
CONCURRENT = "concurrent:"  # the prefix of a graph profile's classes timed on the dag executor
RESCALED = {"latency_ns": "latency_ns", "ns_per_byte": "ns_per_byte", "ns_per_op": "ns_per_byte",
            "ns_per_byte_beyond_l2": "ns_per_byte_beyond_l2",
            "host_ns": "host_ns"}  # a class's constant -> the stream-class constant whose ratio scales it


def rel_error(row, predicted):
    """(predicted - measured) / measured of one run, or None for a miss (failed, no numbers)."""
    if row.get("error") or row.get("verified") != "true":
        return None
    p, m = mmvram_data.number(row.get(predicted)), mmvram_data.number(row.get(mmvram_data.HELDOUT_MEASURED))
    return None if p is None or m is None or m <= 0 else (p - m) / m


def describe(row):
    """One run in words: algorithm, n, s, density and mode."""
    d = row.get("density") or "-"
    return f"{row['algorithm']} n={row['n']} s={row['s']} density={d} {row.get('mode', '')}".strip()


def band_stats(rows, predicted, band, share):
    """Runs within ±band of their measured time against the target share; failed runs count as outside."""
    errs = [rel_error(r, predicted) for r in rows]
    inside = sum(e is not None and abs(e) <= band for e in errs)
    return {"points": len(rows), "within": inside, "failed": sum(e is None for e in errs),
            "fraction": inside / len(rows) if rows else None, "band": band, "target": share,
            "met": inside >= share * len(rows) if rows else None}


def ratio_points(rows, predicted):
    """Per draw: the MMU run over its rival's, predicted and measured; error None for a miss."""
    by = {}
    for r in rows:
        by.setdefault((r["heldout_seed"], int(r["draw"])), {})[r["role"]] = r
    out = []
    for (seed, draw), pair in sorted(by.items()):
        mmu, rival = pair.get("mmu"), pair.get("rival")
        entry = {"seed": seed, "draw": draw, "pair": (mmu or rival)["pair"], "n": int((mmu or rival)["n"]),
                 "predicted_ratio": None, "measured_ratio": None, "error": None}
        if mmu and rival and rel_error(mmu, predicted) is not None and rel_error(rival, predicted) is not None:
            m = mmvram_data.HELDOUT_MEASURED
            entry["predicted_ratio"] = float(mmu[predicted]) / float(rival[predicted])
            entry["measured_ratio"] = float(mmu[m]) / float(rival[m])
            entry["error"] = entry["predicted_ratio"] / entry["measured_ratio"] - 1
        out.append(entry)
    return out


def executor_summary(rows, predicted):
    big = [r for r in rows if int(r["n"]) >= BIG_N]
    small = [r for r in rows if int(r["n"]) < BIG_N]
    errs = [(rel_error(r, predicted), r) for r in rows]
    known = [(e, r) for e, r in errs if e is not None]
    worst = max(known, key=lambda er: abs(er[0]), default=None)
    ratios = ratio_points(rows, predicted)
    big_ratios = [x for x in ratios if x["n"] >= BIG_N]
    inside = sum(x["error"] is not None and abs(x["error"]) <= RATIO_BAND for x in big_ratios)
    fraction = inside / len(big_ratios) if big_ratios else None
    return {"predicted": predicted, "measured": mmvram_data.HELDOUT_MEASURED, "runs": len(rows),
            "failed": sum(e is None for e, _ in errs),
            "big": band_stats(big, predicted, *TARGETS["big"]),
            "small": band_stats(small, predicted, *TARGETS["small"]),
            "median_abs_error": statistics.median(abs(e) for e, _ in known) if known else None,
            "worst": None if worst is None else {"point": describe(worst[1]), "error": worst[0]},
            "failed_points": [f"{describe(r)}: {r.get('error') or 'no time'}" for e, r in errs if e is None],
            "ratios": {"points": len(big_ratios), "within": inside, "fraction": fraction, "band": RATIO_BAND, "target": RATIO_SHARE,
                       "met": inside >= RATIO_SHARE * len(big_ratios) if big_ratios else None, "all": ratios}}


def summarize(rows, gpu):
    """The summary of one GPU's held-out rows (dicts of heldout_<GPU>.csv)."""
    return {"schema": "mmvram-prediction-summary/1", "gpu": gpu,
            "seeds": sorted({r["heldout_seed"] for r in rows}), "commits": sorted({r["commit"] for r in rows}),
            "executors": {e: executor_summary([r for r in rows if r["heldout_executor"] == e], spec["predicted"])
                          for e, spec in mmvram_data.EXECUTORS.items()}}


def pct(x):
    """A fraction as a percentage with one decimal; a dash for None."""
    return "—" if x is None else f"{100 * x:.1f}%"


def markdown(summary):
    """The summary of one GPU as the docs' table."""
    lines = [f"{summary['gpu']}: seed {', '.join(summary['seeds'])}, commit "
             f"{', '.join(c[:7] for c in summary['commits'])}; every run counted, a failed run a miss.", "",
             "| executor | n ≥ 2^20 within ±15% (target 90%) | n < 2^20 within ±25% (target 80%) | median error "
             "| worst point | failed runs | ratios at n ≥ 2^20 within ±15% |",
             "|---|---|---|---|---|---|---|"]
    for e, x in summary["executors"].items():
        worst = "—" if x["worst"] is None else f"{x['worst']['point']}: {x['worst']['error']:+.1%}"
        cell = lambda b: (f"{b['within']} / {b['points']} ({pct(b['fraction'])}){'' if b['met'] else ', missed'}"
                          if b["points"] else "no points")
        lines.append(f"| {e} | {cell(x['big'])} | {cell(x['small'])} | {pct(x['median_abs_error'])} | {worst} | "
                     f"{x['failed']} / {x['runs']} | {cell(x['ratios'])} |")
    cross = summary.get("cross_device")
    if "cross_device" in summary and cross is None:
        lines += ["", "Not predicted from another GPU: that needs both GPUs' interleaved and graph profiles, and --mmvram where "
                      "no stored prediction matches."]
    if cross:
        lines += ["", f"Predicted from the {cross['from']} profiles rescaled to {summary['gpu']} "
                      f"({cross['how']}):", "",
                  "| executor | n ≥ 2^20 within ±15% | n < 2^20 within ±25% | median error |", "|---|---|---|---|"]
        for e, x in cross["executors"].items():
            lines.append(f"| {e} | {x['big']['within']} / {x['big']['points']} | {x['small']['within']} / "
                         f"{x['small']['points']} | {pct(x['median_abs_error'])} |")
    return "\n".join(lines)


def rescaled_profile(source, target):
    """The profile `source` (a profile JSON's dict) rescaled to another GPU from `target`'s stream
    class alone (a concurrent class by the concurrent stream class): every class's latency by the ratio of the stream latencies, its ns per byte and per
    op by the ratio of the stream ns per byte, its ns per byte past the knee by the ratio of the stream
    ones past the knee (a class without one has its ns per byte there, as the profile reader takes it),
    its host issue time by the ratio of the stream host times; the knee (l2_bytes) and the L2's size
    (l2_cache_bytes) are the target's where it records them."""
    out = json.loads(json.dumps(source))
    for name, c in out["classes"].items():
        # A graph profile's concurrent classes (timed overlapping on the dag executor) by the
        # concurrent stream class, where both profiles have one.
        ref = CONCURRENT + "stream" if name.startswith(CONCURRENT) else "stream"
        if ref not in source["classes"] or ref not in target["classes"]:
            ref = "stream"
        a, b = source["classes"][ref], target["classes"][ref]
        for key, by in RESCALED.items():
            if c.get(key) and a.get(by):
                target_value = b.get(by, b.get("ns_per_byte")) if by == "ns_per_byte_beyond_l2" else b[by]
                c[key] = c[key] * target_value / a[by]
    for key in ("l2_bytes", "l2_cache_bytes"):
        if key in target:
            out[key] = target[key]
    out["device"] = f"{source['device']} rescaled to {target['device']}"
    return out


def cross_predict(tool, rows, profiles, cache_path):
    """{(seed, draw, role, profile file): {column: ns}} of the rows that ran, each predicted with the
    rescaled profile standing for its own (profiles: {the GPU's profile file name: rescaled profile path})
    on the simulate backend; rows already in cache_path for the same profile hash are reused."""
    hashes = {name: hashlib.sha256(p.read_bytes()).hexdigest() for name, p in profiles.items()}
    cache = {}
    if cache_path.exists():
        for r in csv.DictReader(open(cache_path)):
            if hashes.get(r["profile"]) == r["profile_sha256"] and not (tool and r["error"]):
                cache[(r["heldout_seed"], r["draw"], r["role"], r["profile"])] = r
    # The run CSV reports a density for every algorithm; only those with segment starts take it.
    segmented = set()
    if tool is not None:
        listed = json.loads(subprocess.run([tool, "list", "--format", "json"], check=True, capture_output=True,
                                           text=True).stdout)
        segmented = {e["name"] for e in listed if "flags" in e["input"]}
    fields = ["heldout_seed", "draw", "role", "profile", "profile_sha256", "predicted_serial_ns",
              "predicted_dag_ns", "predicted_queued_ns", "error"]
    for r in rows:
        name = r["profile"]
        key = (r["heldout_seed"], r["draw"], r["role"], name)
        if key not in cache and tool is not None and not r.get("error") and name in profiles:
            path = profiles[name]
            args = [tool, "run", r["algorithm"], "--n", r["n"], "--s", r["s"], "--mode", r["mode"], "--seed",
                    r["seed"], "--profile", str(path), "--format", "csv"]
            if r["algorithm"] in segmented and r.get("density") not in ("", None):
                args += ["--density", r["density"]]
            done = subprocess.run(args, capture_output=True, text=True, env=mmvram_data.heldout_env())
            got = next(csv.DictReader(done.stdout.splitlines()), {})
            error = "" if done.returncode == 0 else done.stderr.strip()[-200:]
            if not error and got.get("steps") != r.get("steps"):
                error = "the simulator's ledger differs from the GPU run's"
            cache[key] = dict({k: got.get(k, "") for k in fields[5:8]}, heldout_seed=key[0], draw=key[1], role=key[2],
                              profile=name, profile_sha256=hashes[name], error=error)
    if tool is None:  # nothing was priced: the stored file (if any) stays as it is
        return cache
    with open(cache_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(sorted(cache.values(), key=lambda r: (r["heldout_seed"], int(r["draw"]), r["role"], r["profile"])))
    return cache


def cross_device(a, b, rows_a, results, out, tool):
    """GPU a's held-out rows predicted from GPU b's profiles rescaled to a; None without the profiles
    or, when nothing is cached, without a tool to predict with."""
    kinds = sorted({spec["profile"] for spec in mmvram_data.EXECUTORS.values()})
    profiles = {}
    for kind in kinds:
        src, dst = results / kind.format(gpu=b), results / kind.format(gpu=a)
        if not src.exists() or not dst.exists():
            return None
        path = out / kind.format(gpu=f"{b}_rescaled_to_{a}")
        path.write_text(json.dumps(rescaled_profile(json.load(open(src)), json.load(open(dst))), indent=1) + "\n")
        profiles[kind.format(gpu=a)] = path
    cache = cross_predict(tool, rows_a, profiles, results / f"crossdevice_{a}_from_{b}.csv")
    predicted = []
    for r in rows_a:
        if r.get("error"):
            predicted.append(r)  # failed on the GPU: a miss whatever the prediction
            continue
        c = cache.get((r["heldout_seed"], r["draw"], r["role"], r["profile"]))
        if c is None:
            return None  # not predicted yet and no tool to predict with
        column = mmvram_data.EXECUTORS[r["heldout_executor"]]["predicted"]
        predicted.append(dict(r, **{column: "" if c["error"] else c[column]}))
    how = (f"every class of profile_{b}*.json: latency × ({a} stream latency / {b} stream latency), ns per byte "
           f"and per op × ({a} stream ns per byte / {b} stream ns per byte), host issue time × ({a} stream host time "
           f"/ {b} stream host time); a concurrent class by the concurrent stream class")
    return {"from": b, "how": how, "executors": summarize(predicted, a)["executors"]}


def main():
    here = pathlib.Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=here / "out", type=pathlib.Path)
    parser.add_argument("--results", default=here / "results", type=pathlib.Path)
    parser.add_argument("--mmvram", default=None, help="predicts the cross-device points (simulate backend)")
    parser.add_argument("--cross-device", action="store_true",
                        help="price the points missing from the stored crossdevice_*.csv with --mmvram "
                             "(minutes per 2^27-item ledger: not part of the main job)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    # Without a runnable mmvram only stored cross-device predictions are used.
    tool = args.mmvram if args.cross_device and args.mmvram and os.access(args.mmvram, os.X_OK) else None
    data = {p.stem[len("heldout_"):]: list(csv.DictReader(open(p)))
            for p in sorted(args.results.glob("heldout_*.csv"))}
    data = {gpu: rows for gpu, rows in data.items() if rows}
    if not data:
        print(f"prediction_summary.py: no heldout_<GPU>.csv in {args.results} (run experiments/gpu_prediction.sh quick on a GPU)")
        return 0
    tables = []
    for gpu, rows in data.items():
        summary = summarize(rows, gpu)
        for other in data:
            if other != gpu:
                summary["cross_device"] = cross_device(gpu, other, rows, args.results, args.out, tool)
        (args.out / f"prediction_summary_{gpu}.json").write_text(json.dumps(summary, indent=1) + "\n")
        tables.append(markdown(summary))
    (args.out / "prediction_summary.md").write_text("# The held-out points\n\n" + "\n\n".join(tables) + "\n")
    print(f"prediction_summary.py: {', '.join(data)} in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
