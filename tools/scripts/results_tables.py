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
import json
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from results_common import RESULTS, ROOT  # noqa: E402
from tables_kernels import (t_ablation, t_ablation_ratio, t_bench, t_check_summary, t_copy_fraction,  # noqa: E402
                           t_latency, t_ncu_mix, t_ncu_stalls, t_sass_mix, t_scd, t_spmv, t_tuning, t_unaligned,
                           t_v3_accuracy)
from tables_runs import (t_fused_prediction, t_fused_prediction_summary, t_heldout, t_multi_gpu,  # noqa: E402
                         t_state_passing_distributed, t_state_passing_sweep, t_suites)

MARKER = re.compile(r"(<!-- table: ([A-Za-z0-9_:.-]+) -->\n)(.*?)(<!-- /table -->)", re.S)

# Every table a page can name; an argument after the colon picks the dtype or the GPU
# (bench:i32, spmv:H100, scd:H200, fused_prediction:H100, heldout:H200, ncu_stalls:scd:H200).
TABLES = {"bench": t_bench, "copy_fraction": t_copy_fraction, "ablation": t_ablation,
          "ablation_ratio": t_ablation_ratio, "unaligned": t_unaligned, "tuning": t_tuning, "latency": t_latency,
          "ncu_mix": t_ncu_mix, "ncu_stalls": t_ncu_stalls, "sass_mix": t_sass_mix, "check_summary": t_check_summary,
          "v3_accuracy": t_v3_accuracy, "suites": t_suites, "multi_gpu": t_multi_gpu,
          "state_passing_distributed": t_state_passing_distributed,
          "state_passing_sweep": t_state_passing_sweep, "heldout": t_heldout,
          "spmv": t_spmv, "scd": t_scd, "fused_prediction": t_fused_prediction,
          "fused_prediction_summary": t_fused_prediction_summary}


def generate(spec):
    name, _, arg = spec.partition(":")
    if name not in TABLES:
        raise SystemExit(f"results_tables.py: unknown table '{spec}' (known: {', '.join(TABLES)})")
    return TABLES[name](arg or {"bench": "f32", "copy_fraction": "f32", "ablation": "f32",
                                "unaligned": "H100", "latency": "f32", "check_summary": "H100",
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
