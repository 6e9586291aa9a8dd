"""Markdown table of V3's fp32 accuracy from `mmvram kernels accuracy` JSON: per value family and
start distribution, the bits of fp32's 24 lost (largest over the results) by V0 and V3 of SSCR
and SCD, at single-item results (segment starts, one-item segments: x in every order) and over
all results (against the sum of |x| of the result's own segment), the share of single-item
results beyond the fp32 bound, and V3's largest single-item error over its derived bound.
usage: experiments/v3_accuracy_table.py experiments/results/gpu_v3_accuracy_H100.json
"""
import json
import sys

# The columns: the V0/V3 pair the docs compare (tools/kernels/kernels.cpp defines the kernels); the
# accuracy JSON's rows carry no variant field to pick or label them by.
KERNELS = [("sscr_segmented_scan", "SSCR V0"), ("sscr_segmented_scan_tc_warp", "SSCR V3"),
           ("scd_segmented_sum", "SCD V0"), ("scd_segmented_sum_tc_warp", "SCD V3")]


def cell(r):
    share = r["single_bad_count"] / max(r["single_results"], 1)
    text = f'{r["single_bits_lost"]:.1f} / {r["bits_lost"]:.1f} ({100 * share:.0f}%)'
    if r["kernel"].endswith("_tc_warp"):
        text += f' {r["single_over_derived"]:.2g}'
    return text


def main(path):
    with open(path) as f:
        data = json.load(f)
    rows = {}
    for r in data["results"]:
        rows.setdefault((r["values"], r["distribution"]), {})[r["kernel"]] = r
    print(f'{data["gpu"]["name"]}, n = {data["n"]}, seed {data["seed"]}; cells: bits lost at single items / '
          'over all results (share of single items beyond 1e-6 |x|), V3: then single-item error / derived bound')
    print()
    print("| values | starts | " + " | ".join(name for _, name in KERNELS) + " |")
    print("|---|---|" + "---|" * len(KERNELS))
    for (values, dist), by_kernel in rows.items():
        cells = [cell(by_kernel[k]) if k in by_kernel else "" for k, _ in KERNELS]
        print(f"| {values} | {dist} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1])
