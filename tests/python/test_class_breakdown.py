"""experiments/class_breakdown.py: per-class sums of random synthetic run reports against sums
computed here, loads left out, reports without timed or priced instructions refused, and the
script end to end (CSV header and rows, exit 1 on a bad report).
usage: python3 tests/python/test_class_breakdown.py"""
import csv
import json
import pathlib
import random
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "experiments"))
import class_breakdown as cb  # noqa: E402
from checks import FAILURES, check  # noqa: E402

CLASSES = ["stream", "gather", "mmu-real/s64", "revspec", "compress"]


def report(rng, records):
    return {"algorithm": "sscr", "mode": "float64", "n": 1 << 24, "s": 64, "density": 0.01,
            "profile_device": "test GPU", "instructions": records}


def random_records(rng):
    out = [{"op": "load", "measured_ns": None, "class": "load", "predicted_ns": 0.0}]
    for _ in range(rng.randint(1, 40)):
        out.append({"op": "add", "class": rng.choice(CLASSES), "measured_ns": rng.uniform(1, 1e6),
                    "predicted_ns": rng.uniform(1, 1e6)})
    return out


rng = random.Random()
seed = rng.randrange(2 ** 32)
rng.seed(seed)
print(f"seed {seed}")
for trial in range(50):
    recs = random_records(rng)
    rows = cb.breakdown(report(rng, recs))
    timed = [r for r in recs if r["op"] != "load"]
    total = sum(r["measured_ns"] for r in timed)
    ok = len(rows) == len({r["class"] for r in timed})
    for row in rows:
        mine = [r for r in timed if r["class"] == row["class"]]
        m, p = sum(r["measured_ns"] for r in mine), sum(r["predicted_ns"] for r in mine)
        ok &= row["instructions"] == len(mine) and abs(row["measured_ns"] - m) <= 0.05 + 1e-12 * m
        ok &= abs(row["predicted_ns"] - p) <= 0.05 + 1e-12 * p
        ok &= abs(row["predicted_over_measured"] - p / m) <= 1e-4 and abs(row["share_of_measured"] - m / total) <= 1e-4
    ok &= [r["measured_ns"] for r in rows] == sorted((r["measured_ns"] for r in rows), reverse=True)
    if not ok:
        check(False, f"trial {trial}: per-class sums")
        break
else:
    check(True, "per-class counts, sums, ratios and shares of 50 random reports; loads left out")

for bad, what in [({"op": "add", "class": "stream", "measured_ns": None, "predicted_ns": 1.0}, "an untimed record"),
                  ({"op": "add", "class": None, "measured_ns": 1.0, "predicted_ns": None}, "a record without a class"),
                  ({"op": "add", "class": "stream", "measured_ns": 1.0, "predicted_ns": None}, "an unpriced record")]:
    try:
        cb.breakdown(report(rng, [bad]))
        check(False, f"{what} is refused")
    except ValueError:
        check(True, f"{what} is refused")
try:
    cb.breakdown(report(rng, []))
    check(False, "a report without instructions is refused")
except ValueError:
    check(True, "a report without instructions is refused")

with tempfile.TemporaryDirectory() as d:
    good, bad, out = pathlib.Path(d, "a.json"), pathlib.Path(d, "b.json"), pathlib.Path(d, "c.csv")
    good.write_text(json.dumps(report(rng, random_records(rng))))
    bad.write_text(json.dumps(report(rng, [])))
    check(cb.main([str(good), "--out", str(out)]) == 0, "the script writes the CSV")
    with open(out) as f:
        rows = list(csv.DictReader(f))
    check(rows and list(rows[0].keys()) == cb.COLUMNS, "the CSV has the documented columns")
    check(cb.main([str(good), str(bad), "--out", str(out)]) == 1, "a bad report makes the script exit 1")

sys.exit(1 if FAILURES else 0)
