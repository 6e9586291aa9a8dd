#!/usr/bin/env python3
"""Where a graph-executor prediction misses, by instruction family: the kernels of one captured
run as Nsight Compute timed them, beside the predicted time of the instruction classes that
launch them.

  usage: python3 experiments/graph_breakdown.py RUN.json NCU.csv --out FILE.csv

RUN.json: `mmvram run ALGO --backend cuda --executor graph --profile P --format json` (its
`instructions` carry each record's class and predicted time, its span the measured time).
NCU.csv: `ncu --csv --page raw --metrics gpu__time_duration.sum,dram__bytes_read.sum,
dram__bytes_write.sum mmvram run <the same point> --repeat 1 ...`: the verified run's kernels,
then the timed run's, the same sequence twice; the second half is taken. A kernel's family is
read off its name (KERNEL_RULES below), an instruction's from its class; ncu runs the kernels one
at a time, so their sum leaves out the time between kernels that the graph's span holds (the
last row, `all`, puts the two side by side).
"""
import argparse
import csv
import json
import pathlib
import sys

from ncu_stalls import launches as ncu_csv_launches

# A kernel's family: the first rule whose name fragment it holds (gather_strided_impl is the
# `stream` class's gather-strided instruction, so it comes before the scatter/gather rule).
KERNEL_RULES = [("for_each_kernel<mmv::mmu", "mmu"), ("cutlass", "mmu"), ("gemv", "mmu"), ("gemm", "mmu"),
                ("xmma", "mmu"), ("gather_strided", "stream"), ("scatter", "scatter/gather"),
                ("gather", "scatter/gather"), ("compress", "compress"), ("cub::", "compress"),
                ("for_each_kernel", "stream")]
# An instruction's family from its class name's start.
CLASS_RULES = [("mmu-word", "mmu"), ("mmu-real", "mmu"), ("scatter", "scatter/gather"),
               ("gather", "scatter/gather"), ("compress", "compress"), ("stream", "stream")]
FAMILIES = ["mmu", "stream", "scatter/gather", "compress", "other"]
COLUMNS = ["algorithm", "n", "s", "family", "instructions", "kernels", "kernel_ns", "predicted_ns",
           "predicted_over_kernel", "dram_bytes", "span_ns", "predicted_span_ns"]


def family_of_kernel(name):
    return next((fam for frag, fam in KERNEL_RULES if frag in name), "other")


def family_of_class(cls):
    return next((fam for start, fam in CLASS_RULES if cls.startswith(start)), "other")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run")
    ap.add_argument("ncu")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    try:
        run = json.loads(pathlib.Path(a.run).read_text())
        span, predicted_span, records = run["measured_span_ns"], run["predicted_serial_ns"], run["instructions"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"graph_breakdown.py: {a.run} is not a timed graph run report ({e})")
    if run.get("executor") != "graph" or span is None or predicted_span is None:
        sys.exit(f"graph_breakdown.py: {a.run} is not a timed, priced graph-executor run")
    launches = ncu_csv_launches(a.ncu, "graph_breakdown.py")
    half = len(launches) // 2
    if not launches or len(launches) % 2:
        sys.exit(f"graph_breakdown.py: {a.ncu} holds {len(launches)} launches, not two runs' worth")
    if [k["Kernel Name"] for k in launches[:half]] != [k["Kernel Name"] for k in launches[half:]]:
        sys.exit(f"graph_breakdown.py: the two halves of {a.ncu} launch different kernels (not one point's two runs)")
    num = lambda x: float(x.replace(",", ""))
    rows = {f: {"instructions": 0, "kernels": 0, "kernel_ns": 0.0, "predicted_ns": 0.0, "dram_bytes": 0.0}
            for f in FAMILIES}
    for k in launches[half:]:
        r = rows[family_of_kernel(k["Kernel Name"])]
        r["kernels"] += 1
        r["kernel_ns"] += num(k["gpu__time_duration.sum"])
        r["dram_bytes"] += num(k["dram__bytes_read.sum"]) + num(k["dram__bytes_write.sum"])
    for i in records:
        if i["op"] == "load":
            continue
        r = rows[family_of_class(i["class"])]
        r["instructions"] += 1
        r["predicted_ns"] += i["predicted_ns"] or 0.0
    point = {"algorithm": run["algorithm"], "n": run["n"], "s": run["s"]}
    with open(a.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        for fam, r in rows.items():
            if r["kernels"] == 0 and r["instructions"] == 0:
                continue
            ratio = round(r["predicted_ns"] / r["kernel_ns"], 4) if r["kernel_ns"] else ""
            w.writerow({**point, "family": fam, **{k: round(v, 1) if isinstance(v, float) else v for k, v in r.items()},
                        "predicted_over_kernel": ratio})
        total = {k: sum(r[k] for r in rows.values()) for k in ("instructions", "kernels", "kernel_ns", "predicted_ns",
                                                                "dram_bytes")}
        w.writerow({**point, "family": "all", **{k: round(v, 1) if isinstance(v, float) else v for k, v in total.items()},
                    "predicted_over_kernel": round(total["predicted_ns"] / total["kernel_ns"], 4) if total["kernel_ns"] else "",
                    "span_ns": round(span, 1), "predicted_span_ns": round(predicted_span, 1)})
    print(f"graph_breakdown.py: {a.out} (kernels {total['kernel_ns'] / 1e3:.1f} us of a {span / 1e3:.1f} us span)")


if __name__ == "__main__":
    main()
