#!/usr/bin/env python3
"""A held-out draw priced again without some of its profiles' classes: what those classes change.

The draw's two profiles (profile_<GPU>.json and profile_<GPU>_graph.json in --results) lose every
class whose name ends with --suffix (default "/row": the one-row MMU classes; "": none), or with
--shapes strip their MMU shapes (every uncalibrated s priced as its class's s', f = 1), or with
--shapes plain keep them with each sweep point's words and time times 10^6 (so the class latency
drops out of the shape factor: f becomes the plain ratio of time per word), or with --bytes dram
every class's bytes at the rate fitted past the L2 whatever their number, its latency as fitted
(what an instruction whose operands come from DRAM would cost, for the classes whose rate past
the L2 is the slower one); the simulate
backend prices each run's ledger with them (prediction_summary.cross_predict, as the cross-device
pricing does), the prices go to without_<label>_<GPU>.csv in --results (reused when the stripped
profiles are unchanged) and the held-out summary of those prices is printed beside nothing else.
A class the ledgers need and the stripped profiles lack falls back as the time model says
(a one-row product to its multi-row class).
usage: experiments/class_ablation.py --gpu H100 [--results experiments/results/heldout]
                                     [--suffix /row] [--shapes keep|strip|plain] [--bytes dram]
                                     [--label row_classes] [--mmvram TOOL]
(with --shapes strip or plain or --bytes dram, --suffix defaults to "" and --label to mmu_shapes,
mmu_shape_latency or l2_rate, l2_rate_mmu_shapes, l2_rate_mmu_shape_latency)
"""
import argparse
import csv
import json
import pathlib
import sys
import tempfile

import mmvram_data
import prediction_summary

HERE = pathlib.Path(__file__).resolve().parent


def without_classes(profile, suffix):
    """A copy of a profile (parsed JSON) without the classes whose names end with `suffix` ("": none)."""
    out = dict(profile)
    out["classes"] = {k: v for k, v in profile["classes"].items() if not (suffix and k.endswith(suffix))}
    return out


def with_shapes(profile, how):
    """A copy of a profile (parsed JSON) with its MMU shapes kept, stripped, or scaled to plain ratios."""
    out = dict(profile)
    if how == "strip":
        out["mmu_shapes"] = []
    elif how == "plain":
        out["mmu_shapes"] = [dict(q, m=q["m"] * 10 ** 6, measured_ns=q["measured_ns"] * 10 ** 6)
                             for q in profile.get("mmu_shapes", [])]
    return out


def at_dram_rate(profile):
    """A copy of a profile (parsed JSON) whose classes price every byte at their rate past the L2."""
    out = dict(profile)
    out["classes"] = {k: dict(v, ns_per_byte=v.get("ns_per_byte_beyond_l2", v["ns_per_byte"]))
                      for k, v in profile["classes"].items()}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpu", required=True)
    ap.add_argument("--results", type=pathlib.Path, default=HERE / "results" / "heldout")
    ap.add_argument("--suffix", default=None, help='default "/row" with --shapes keep, else "" (no class)')
    ap.add_argument("--shapes", choices=["keep", "strip", "plain"], default="keep")
    ap.add_argument("--bytes", choices=["dram"], default=None, help="every byte at its class's rate past the L2")
    ap.add_argument("--label", default=None, help="default row_classes, mmu_shapes or mmu_shape_latency after "
                    "--shapes keep, strip or plain; with --bytes dram, l2_rate or l2_rate_ before that")
    ap.add_argument("--mmvram", default=str(HERE.parent / "build/cuda/tools/mmvram"))
    a = ap.parse_args()
    if a.suffix is None:
        a.suffix = "/row" if a.shapes == "keep" and not a.bytes else ""
    if a.label is None:
        a.label = {"keep": "row_classes", "strip": "mmu_shapes", "plain": "mmu_shape_latency"}[a.shapes]
        if a.bytes:
            a.label = "l2_rate" if a.shapes == "keep" else f"l2_rate_{a.label}"
    table = a.results / f"heldout_{a.gpu}.csv"
    if not table.exists():
        sys.exit(f"class_ablation.py: no {table}")
    rows = list(csv.DictReader(open(table)))
    with tempfile.TemporaryDirectory() as tmp:
        profiles = {}
        for kind in sorted({spec["profile"] for spec in mmvram_data.EXECUTORS.values()}):
            name = kind.format(gpu=a.gpu)
            path = pathlib.Path(tmp) / name
            profile = with_shapes(without_classes(json.load(open(a.results / name)), a.suffix), a.shapes)
            path.write_text(json.dumps(at_dram_rate(profile) if a.bytes else profile, indent=1))
            profiles[name] = path
        cache = prediction_summary.cross_predict(a.mmvram, rows, profiles,
                                                 a.results / f"without_{a.label}_{a.gpu}.csv")
    priced = []
    for r in rows:
        c = cache.get((r["heldout_seed"], r["draw"], r["role"], r["profile"]))
        column = mmvram_data.EXECUTORS[r["heldout_executor"]]["predicted"]
        priced.append(dict(r, **{column: "" if c is None or c["error"] else c[column]}))
    print(prediction_summary.markdown(prediction_summary.summarize(priced, a.gpu)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
