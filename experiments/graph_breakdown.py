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
read off its name (FAMILIES below); ncu runs the kernels one at a time, so their sum leaves out
the time between kernels that the graph's span holds.
"""
import argparse
import csv
import json
import pathlib
import sys

# Family: (classes whose instructions launch these kernels, kernel-name fragments).
FAMILIES = {
    "mmu": (("mmu-word", "mmu-real"), ("for_each_kernel<mmv::mmu", "cutlass", "gemv", "gemm", "xmma")),
    "scatter/gather": (("scatter", "gather"), ("scatter", "gather")),
    "compress": (("compress",), ("compress", "cub::")),
    "stream": (("stream", "broadcast"), ("for_each_kernel",)),
}
COLUMNS = ["algorithm", "n", "s", "family", "instructions", "kernels", "kernel_ns", "predicted_ns",
           "predicted_over_kernel", "dram_bytes", "ledger_bytes"]


def family_of_kernel(name):
    for fam, (_, fragments) in FAMILIES.items():
        if any(f in name for f in fragments):
            return fam
    return "other"


def family_of_class(cls):
    for fam, (classes, _) in FAMILIES.items():
        if any(cls.startswith(c) for c in classes):
            return fam
    return "other"


def ncu_launches(path):
    lines = pathlib.Path(path).read_text().splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID"')), None)
    if start is None:
        sys.exit(f"graph_breakdown.py: {path} holds no ncu CSV header")
    rows = list(csv.reader(lines[start:]))
    header = rows[0]
    return [dict(zip(header, r)) for r in rows[2:] if len(r) == len(header)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run")
    ap.add_argument("ncu")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    run = json.loads(pathlib.Path(a.run).read_text())
    launches = ncu_launches(a.ncu)
    if not launches or len(launches) % 2:
        sys.exit(f"graph_breakdown.py: {a.ncu} holds {len(launches)} launches, not two runs' worth")
    num = lambda x: float(x.replace(",", ""))
    rows = {f: {"instructions": 0, "kernels": 0, "kernel_ns": 0.0, "predicted_ns": 0.0, "dram_bytes": 0.0,
                "ledger_bytes": 0.0} for f in list(FAMILIES) + ["other"]}
    for k in launches[len(launches) // 2:]:
        r = rows[family_of_kernel(k["Kernel Name"])]
        r["kernels"] += 1
        r["kernel_ns"] += num(k["gpu__time_duration.sum"])
        r["dram_bytes"] += num(k["dram__bytes_read.sum"]) + num(k["dram__bytes_write.sum"])
    bytes_per_word = 8 if run["word_bits"] == 64 else 4
    for i in run["instructions"]:
        if i["op"] == "load":
            continue
        r = rows[family_of_class(i["class"])]
        r["instructions"] += 1
        r["predicted_ns"] += i["predicted_ns"] or 0.0
        r["ledger_bytes"] += bytes_per_word * (i["words_read"] + i["words_written"])
    with open(a.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        for fam, r in rows.items():
            if r["kernels"] == 0 and r["instructions"] == 0:
                continue
            ratio = r["predicted_ns"] / r["kernel_ns"] if r["kernel_ns"] else ""
            w.writerow({"algorithm": run["algorithm"], "n": run["n"], "s": run["s"], "family": fam,
                        **{k: round(v, 1) if isinstance(v, float) else v for k, v in r.items()},
                        "predicted_over_kernel": round(ratio, 4) if ratio != "" else ""})
        total_kernel = sum(r["kernel_ns"] for r in rows.values())
        w.writerow({"algorithm": run["algorithm"], "n": run["n"], "s": run["s"], "family": "span (graph)",
                    "kernel_ns": round(run["measured_span_ns"], 1), "predicted_ns": round(run["predicted_serial_ns"], 1),
                    "predicted_over_kernel": round(run["predicted_serial_ns"] / run["measured_span_ns"], 4),
                    "kernels": sum(r["kernels"] for r in rows.values())})
    print(f"graph_breakdown.py: {a.out} (kernels {total_kernel / 1e3:.1f} us of a {run['measured_span_ns'] / 1e3:.1f} us span)")


if __name__ == "__main__":
    main()
