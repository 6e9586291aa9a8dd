"""experiments/inorder_timeline.py and experiments/dag_overlap.py on synthetic inputs: an in-order
run's sums and ratios against sums computed here, bad reports refused; dag runs paired with their
graph runs on random held-out rows, the dag error splitting exactly into the graph error and the
overlap error, unpaired or mismatched points left out; both scripts end to end (CSV columns, exit 1
with one line on bad input).
usage: python3 tests/python/test_executor_breakdowns.py"""
import csv
import io
import json
import pathlib
import random
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "experiments"))
import dag_overlap  # noqa: E402
import inorder_timeline  # noqa: E402
from checks import FAILURES, check  # noqa: E402

rng = random.Random()
seed = rng.randrange(2 ** 32)
rng.seed(seed)
print(f"seed {seed}")


def records(k, classes=("stream", "mmu-word/s64", "scatter")):
    return [{"op": "add", "class": rng.choice(classes), "host_ns": rng.uniform(1, 1e5),
             "measured_ns": rng.uniform(1, 1e5)} for _ in range(k)]


def report(recs, **kw):
    r = {"algorithm": "scd", "mode": "integer", "n": 1000, "s": 16, "density": 0.1, "profile_device": "GPU",
         "executor": "in-order", "measured_span_ns": 2e5, "measured_end_to_end_ns": 1.5e5,
         "predicted_queued_ns": 1.8e5, "instructions": [{"op": "load", "class": "load"}] + recs}
    r.update(kw)
    return r


ok = True
for _ in range(100):
    recs = records(rng.randint(1, 30))
    row = inorder_timeline.timeline(report(recs))
    ok &= row["instructions"] == len(recs)
    ok &= abs(row["summed_host_ns"] - sum(r["host_ns"] for r in recs)) <= 0.05 + 1e-12 * row["summed_host_ns"]
    ok &= abs(row["summed_device_ns"] - sum(r["measured_ns"] for r in recs)) <= 0.05 + 1e-12 * row["summed_device_ns"]
    ok &= row["events_ns"] == 5e4 and row["predicted_over_span"] == 0.9 and row["predicted_over_end_to_end"] == 1.2
check(ok, "a run's row on 100 random runs: loads left out, summed host and device times, events, ratios")
for bad, what in [(report(records(3), executor="graph"), "a graph run"), (report([]), "a run without instructions"),
                  (report([{"op": "add", "class": "stream", "host_ns": None, "measured_ns": 1.0}]), "an untimed record"),
                  (report(["add"]), "an instruction that is not an object"), ([report(records(2))], "a JSON list")]:
    try:
        inorder_timeline.timeline(bad)
        check(False, f"{what} is refused")
    except ValueError:
        check(True, f"{what} is refused")

FIELDS = ["heldout_seed", "commit", "profile_device", "draw", "role", "heldout_executor", "algorithm", "mode", "n",
          "s", "measured_span_ns", "predicted_serial_ns", "predicted_dag_ns"]


def heldout_rows(points):
    out = []
    for d in range(points):
        for role in ("mmu", "rival"):
            n, ps = rng.randint(1000, 1 << 26), rng.uniform(1e4, 1e7)
            common = {"heldout_seed": "7", "commit": "c", "profile_device": "GPU", "draw": str(d), "role": role,
                      "algorithm": role, "mode": "integer", "n": str(n), "s": "16"}
            out.append(dict(common, heldout_executor="graph", measured_span_ns=str(ps * rng.uniform(0.5, 2)),
                            predicted_serial_ns=str(ps), predicted_dag_ns=str(ps * 0.7)))
            out.append(dict(common, heldout_executor="dag", measured_span_ns=str(ps * rng.uniform(0.3, 2)),
                            predicted_serial_ns=str(ps), predicted_dag_ns=str(ps * rng.uniform(0.5, 1))))
            out.append(dict(common, heldout_executor="in-order", measured_span_ns="1", predicted_serial_ns="1",
                            predicted_dag_ns="1"))
    return out


rows = heldout_rows(20)
rows[1]["measured_span_ns"] = ""  # a failed dag run: left out
rows[4]["predicted_serial_ns"] = str(float(rows[4]["predicted_serial_ns"]) * 1.01)  # not the same records: left out
points, left_out = dag_overlap.points(rows)
ok = len(points) == 38 and left_out == 2
for p in points:
    g = next(r for r in rows if r["draw"] == p["draw"] and r["role"] == p["role"] and r["heldout_executor"] == "graph")
    d = next(r for r in rows if r["draw"] == p["draw"] and r["role"] == p["role"] and r["heldout_executor"] == "dag")
    mg, md, ps, pd = (float(x) for x in (g["measured_span_ns"], d["measured_span_ns"], g["predicted_serial_ns"],
                                         d["predicted_dag_ns"]))
    ok &= abs(p["dag_error"] - (pd / md - 1)) <= 1e-4 and abs(p["graph_error"] - (ps / mg - 1)) <= 1e-4
    ok &= abs((1 + p["dag_error"]) - (1 + p["graph_error"]) * (1 + p["overlap_error"])) <= 1e-3 * (1 + p["dag_error"])
check(ok, "dag points paired with their graph runs, a failed run left out, dag error = graph error x overlap error")

with tempfile.TemporaryDirectory() as tmp:
    t = pathlib.Path(tmp)
    (t / "run.json").write_text(json.dumps(report(records(4))))
    (t / "bad.json").write_text("{")
    check(inorder_timeline.main([str(t / "run.json"), "--out", str(t / "a.csv")]) == 0, "inorder_timeline.py writes its CSV")
    check(next(csv.reader(open(t / "a.csv"))) == inorder_timeline.COLUMNS, "inorder_timeline.py: the documented columns")
    check(inorder_timeline.main([str(t / "bad.json"), "--out", str(t / "a.csv")]) == 1, "inorder_timeline.py: exit 1 on bad JSON")
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=FIELDS)
    w.writeheader()
    w.writerows(heldout_rows(3))
    (t / "h.csv").write_text(buf.getvalue())
    check(dag_overlap.main([str(t / "h.csv"), "--out", str(t / "b.csv")]) == 0, "dag_overlap.py writes its CSV")
    check(next(csv.reader(open(t / "b.csv"))) == dag_overlap.COLUMNS, "dag_overlap.py: the documented columns")
    (t / "x.csv").write_text("a,b\n1,2\n")
    check(dag_overlap.main([str(t / "x.csv"), "--out", str(t / "b.csv")]) == 1, "dag_overlap.py: exit 1 on a CSV without its columns")
    (t / "e.csv").write_text("")
    check(dag_overlap.main([str(t / "e.csv"), "--out", str(t / "b.csv")]) == 1, "dag_overlap.py: exit 1 on an empty file")

sys.exit(1 if FAILURES else 0)
