"""Predict stored GPU measurements again with a device profile, on the CPU (no GPU needed).

Each row of a prediction CSV (`mmvram sweep --backend cuda ...`) keeps its measured times; its
predicted_serial_ns, predicted_dag_ns and predicted_queued_ns are replaced by those of `mmvram run` on the simulate
backend with the same algorithm, n, s, density, seed and mode, and the given --profile: the same
ledger (tests/gpu/test_backends.cpp checks the two backends retire identical records), priced by
the profile. Use it after `mmvram calibrate --refit`, or to try another profile on old data.
usage: experiments/repredict.py CSV PROFILE [--mmvram build/cpu/tools/mmvram] [--jobs 2]
"""
import argparse
import concurrent.futures
import csv
import pathlib
import subprocess
import sys


def predict(tool, profile, row):
    args = [tool, "run", row["algorithm"], "--n", row["n"], "--s", row["s"], "--seed", row["seed"], "--mode", row["mode"],
            "--bits", row["word_bits"], "--profile", str(profile), "--format", "csv"]
    out = subprocess.run(args + ["--density", row["density"]], capture_output=True, text=True)
    if out.returncode != 0:  # algorithms without flags refuse --density
        out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"repredict.py: {' '.join(args)} failed: {out.stderr.strip()}")
    got = next(csv.DictReader(out.stdout.splitlines()))
    if got["steps"] != row["steps"] or got["words_read"] != row["words_read"]:
        raise SystemExit(f"repredict.py: the simulator's ledger differs from the GPU run's for {row['algorithm']} n={row['n']}")
    return got["predicted_serial_ns"], got["predicted_dag_ns"], got["predicted_queued_ns"], got["profile_device"]


def main():
    here = pathlib.Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", type=pathlib.Path)
    parser.add_argument("profile", type=pathlib.Path)
    parser.add_argument("--mmvram", default=str(here.parent / "build/cpu/tools/mmvram"))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    rows = list(csv.DictReader(open(args.csv)))
    if not rows:
        sys.exit(f"repredict.py: no rows in {args.csv}")
    fields = list(rows[0].keys())
    if "predicted_queued_ns" not in fields:  # a file written before the queued prediction existed
        fields.insert(fields.index("predicted_dag_ns") + 1, "predicted_queued_ns")
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda r: predict(args.mmvram, args.profile, r), rows))
    for r, (serial, dag, queued, device) in zip(rows, results):
        r["predicted_serial_ns"], r["predicted_dag_ns"], r["predicted_queued_ns"], r["profile_device"] = serial, dag, queued, device
    tmp = args.csv.with_suffix(".tmp")
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    tmp.replace(args.csv)
    print(f"repredict.py: {len(rows)} rows of {args.csv} predicted again with {args.profile}")


if __name__ == "__main__":
    main()
