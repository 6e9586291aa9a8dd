"""Where a large-n prediction misses, by instruction class: reads the JSON reports of timed
in-order runs (`mmvram run ALGO --backend cuda --executor in-order --profile P --format json`,
whose `instructions` carry each record's measured device time, class and predicted class time)
and writes one CSV row per run and class: the instructions, their summed measured and predicted
device times, and the ratio. The inf/nan checks after real results are not in either column.

  usage: python3 experiments/class_breakdown.py RUN.json... --out FILE.csv
"""
import argparse
import sys
from collections import defaultdict

import mmvram_data

COLUMNS = ["algorithm", "mode", "n", "s", "density", "profile_device", "class", "instructions",
           "measured_ns", "predicted_ns", "predicted_over_measured", "share_of_measured"]


def breakdown(report):
    """Rows of one run report (a dict of schema mmvram-run/4); raises ValueError when the report
    has no timed, priced instructions."""
    records = [i for i in report.get("instructions") or [] if i.get("op") != "load"]
    if not records or any(i.get(k) is None for i in records for k in ("measured_ns", "class", "predicted_ns")):
        raise ValueError("no timed in-order instructions with a class (run with --backend cuda --executor "
                         "in-order --profile FILE --format json)")
    by_class = defaultdict(lambda: [0, 0.0, 0.0])
    for i in records:
        c = by_class[i["class"]]
        c[0] += 1
        c[1] += i["measured_ns"]
        c[2] += i["predicted_ns"]
    total = sum(c[1] for c in by_class.values())
    rows = []
    for name, (count, measured, predicted) in sorted(by_class.items(), key=lambda kv: -kv[1][1]):
        rows.append({"algorithm": report["algorithm"], "mode": report["mode"], "n": report["n"], "s": report["s"],
                     "density": report["density"], "profile_device": report.get("profile_device"), "class": name,
                     "instructions": count, "measured_ns": round(measured, 1), "predicted_ns": round(predicted, 1),
                     "predicted_over_measured": round(predicted / measured, 4) if measured > 0 else None,
                     "share_of_measured": round(measured / total, 4) if total > 0 else None})
    return rows


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", help="JSON reports of timed in-order runs")
    ap.add_argument("--out", required=True, help="the CSV to write")
    a = ap.parse_args(argv)
    rows = mmvram_data.rows_of_reports(a.runs, breakdown, "class_breakdown.py")
    return 1 if rows is None else mmvram_data.write_rows(a.out, COLUMNS, rows, "class_breakdown.py")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
