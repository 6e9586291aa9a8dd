"""How much of a dag-executor miss is the overlap: reads held-out runs (`heldout_<GPU>.csv`,
experiments/heldout.py) and pairs each point's dag run with its graph run (same draw, same
algorithm, same graph profile, so the same priced records). Writes one CSV row per such point.

The overlap the dag executor measured is its span over the graph executor's (measured_dag_over_graph);
the overlap the model predicts is the DAG prediction over the serial one (predicted_dag_over_serial).
The dag run's error then splits exactly into the graph run's error and the overlap's:
(1 + dag_error) = (1 + graph_error) * (1 + overlap_error), overlap_error being
predicted_dag_over_serial / measured_dag_over_graph - 1. A point whose runs did not both give a
time, or whose two rows disagree on the serial prediction (so not the same priced records), is
left out and counted on stderr; a file without held-out rows is an error.

  usage: python3 experiments/dag_overlap.py HELDOUT.csv... --out FILE.csv
"""
import argparse
import csv
import statistics
import sys

import mmvram_data

COLUMNS = ["heldout_seed", "commit", "profile_device", "draw", "role", "algorithm", "mode", "n", "s",
           "measured_graph_ns", "measured_dag_ns", "predicted_serial_ns", "predicted_dag_ns",
           "measured_dag_over_graph", "predicted_dag_over_serial", "graph_error", "dag_error", "overlap_error"]

NEEDED = ["heldout_seed", "commit", "profile_device", "draw", "role", "heldout_executor", "algorithm", "mode", "n",
          "s", "measured_span_ns", "predicted_serial_ns", "predicted_dag_ns"]


def number(text):
    """A positive time from a CSV cell; None when empty, not a number or not positive."""
    v = mmvram_data.number(text)
    return v if v is not None and v > 0 else None


def points(rows):
    """(paired rows, points left out) from the rows of one held-out CSV."""
    runs = {}
    for r in rows:
        runs[(r["draw"], r["role"], r["heldout_executor"])] = r
    out, left_out = [], 0
    for (draw, role, executor), d in runs.items():
        if executor != "dag":
            continue
        g = runs.get((draw, role, "graph"))
        mg, md = number(g and g["measured_span_ns"]), number(d["measured_span_ns"])
        ps, pd = number(g and g["predicted_serial_ns"]), number(d["predicted_dag_ns"])
        if None in (mg, md, ps, pd) or abs((number(d["predicted_serial_ns"]) or 0) - ps) > 1e-6 * ps:
            left_out += 1
            continue
        measured, predicted = md / mg, pd / ps
        out.append({"heldout_seed": d["heldout_seed"], "commit": d["commit"], "profile_device": d["profile_device"],
                    "draw": draw, "role": role, "algorithm": d["algorithm"], "mode": d["mode"], "n": int(d["n"]),
                    "s": d["s"], "measured_graph_ns": mg, "measured_dag_ns": md, "predicted_serial_ns": ps,
                    "predicted_dag_ns": pd, "measured_dag_over_graph": round(measured, 4),
                    "predicted_dag_over_serial": round(predicted, 4), "graph_error": round(ps / mg - 1, 4),
                    "dag_error": round(pd / md - 1, 4), "overlap_error": round(predicted / measured - 1, 4)})
    return sorted(out, key=lambda p: (p["n"], p["role"])), left_out


def summary(path, rows):
    """One line: the medians and how the dag misses split (band: ±15% from 2^20 items, else ±25%)."""
    band = lambda p: 0.15 if p["n"] >= 1 << 20 else 0.25  # noqa: E731
    misses = [p for p in rows if abs(p["dag_error"]) > band(p)]
    graph_within = sum(abs(p["graph_error"]) <= band(p) for p in misses)
    med = lambda k: statistics.median(p[k] for p in rows) if rows else float("nan")  # noqa: E731
    return (f"{path}: {len(rows)} points; median measured dag/graph {med('measured_dag_over_graph'):.2f}, "
            f"predicted dag/serial {med('predicted_dag_over_serial'):.2f}; {len(misses)} dag misses, "
            f"{graph_within} of them with the graph run within its band")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("heldout", nargs="+", help="heldout_<GPU>.csv files")
    ap.add_argument("--out", required=True, help="the CSV to write")
    a = ap.parse_args(argv)
    rows = []
    for path in a.heldout:
        try:
            with open(path, newline="") as f:
                table = list(csv.DictReader(f))
            missing = [c for c in NEEDED if not table or c not in table[0]]
            if missing:
                raise ValueError("no held-out rows" if not table else f"no column {missing[0]} (not a heldout_<GPU>.csv)")
            mine, left_out = points(table)
        except (OSError, ValueError, csv.Error) as e:
            print(f"dag_overlap.py: {path}: {e}", file=sys.stderr)
            return 1
        print(summary(path, mine))
        if left_out:
            print(f"dag_overlap.py: {path}: {left_out} points left out (a run without a time, or the two "
                  "rows' serial predictions differ)", file=sys.stderr)
        rows += mine
    return mmvram_data.write_rows(a.out, COLUMNS, rows, "dag_overlap.py")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
