#!/usr/bin/env python3
"""Where a kernel's time goes, from Nsight Compute: one JSON row per profiled launch.

usage: experiments/ncu_stalls.py --gpu NAME --commit C --command CMD --out FILE.json
                                 CSV[:LABEL,LABEL,...] [CSV[:LABELS] ...]

Each CSV is the output of `ncu --clock-control none --csv --page raw --section WarpStateStats
--section SpeedOfLight --section Occupancy --section LaunchStats --metrics M ...` (M below); the
program's own lines before ncu's header are skipped. LABELS name the launches in order (the
distribution or setting each ran); a CSV without them is labelled by its file name. A row holds
the kernel, its time, DRAM throughput, executed warp instructions, issue-slot and warp occupancy,
registers and grid, and each stall reason's share of the stall cycles: ncu's per-issue warp
stall ratios summed over the reasons, `selected` (a warp issuing, not stalled) left out.
"""
import argparse
import csv
import datetime
import json
import pathlib
import sys

METRICS = {  # ncu metric -> JSON field (units in the name)
    "gpu__time_duration.sum": "time_ns",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed": "dram_throughput_pct_of_peak",
    "dram__bytes_read.sum": "dram_read_bytes",
    "dram__bytes_write.sum": "dram_write_bytes",
    "smsp__inst_executed.sum": "warp_instructions",
    "smsp__issue_active.avg.pct_of_peak_sustained_active": "issue_active_pct",
    "sm__warps_active.avg.pct_of_peak_sustained_active": "warps_active_pct",
    "launch__registers_per_thread": "registers_per_thread",
    "launch__grid_size": "grid_blocks",
}
STALL_PREFIX, STALL_SUFFIX = "smsp__average_warps_issue_stalled_", "_per_issue_active.ratio"


def number(text):
    return float(text.replace(",", ""))


def launches(path, tool="ncu_stalls.py"):
    """The rows of one ncu CSV (`--csv --page raw`, the program's own lines before the header) as
    {column: value}, with the units row dropped; exits with a one-line error naming `tool`."""
    try:
        lines = pathlib.Path(path).read_text().splitlines()
    except OSError as e:
        sys.exit(f"{tool}: cannot read {path}: {e.strerror}")
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID"')), None)
    if start is None:
        sys.exit(f"{tool}: {path} holds no ncu CSV header")
    rows = list(csv.reader(lines[start:]))
    header = rows[0]
    return [dict(zip(header, r)) for r in rows[2:] if len(r) == len(header)]


def summarize(raw, label):
    row = {"label": label, "kernel": raw["Kernel Name"]}
    for metric, field in METRICS.items():
        if raw.get(metric, "") in ("", "n/a"):
            sys.exit(f"ncu_stalls.py: metric {metric} missing for {raw['Kernel Name']}")
        row[field] = number(raw[metric])
    stalls = {k[len(STALL_PREFIX):-len(STALL_SUFFIX)]: number(v) for k, v in raw.items()
              if k.startswith(STALL_PREFIX) and k.endswith(STALL_SUFFIX) and v not in ("", "n/a")}
    stalls.pop("selected", None)  # the warp issuing: not a stall
    total = sum(stalls.values())
    if total <= 0:
        sys.exit(f"ncu_stalls.py: no stall samples for {raw['Kernel Name']} (was WarpStateStats collected?)")
    row["stall_cycles_per_issue"] = total
    row["stall_share_pct"] = {k: 100 * v / total for k, v in sorted(stalls.items(), key=lambda kv: -kv[1]) if v > 0}
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpu", required=True)
    ap.add_argument("--commit", required=True)
    ap.add_argument("--command", required=True, help="the ncu command line (recorded as given)")
    ap.add_argument("--out", required=True)
    ap.add_argument("csvs", nargs="+")
    a = ap.parse_args()
    rows = []
    for spec in a.csvs:
        path, _, labels = spec.partition(":")
        raws = launches(path)
        names = labels.split(",") if labels else [pathlib.Path(path).stem] * len(raws)
        if len(names) != len(raws):
            sys.exit(f"ncu_stalls.py: {path} has {len(raws)} launches, {len(names)} labels")
        rows += [dict(summarize(r, n), source=pathlib.Path(path).name) for r, n in zip(raws, names)]
    doc = {"schema": "mmvram-ncu-stalls/1", "gpu": a.gpu, "commit": a.commit,
           "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "command": a.command, "clocks": "not locked (--clock-control none)", "rows": rows}
    pathlib.Path(a.out).write_text(json.dumps(doc, indent=1) + "\n")
    print(f"ncu_stalls.py: {len(rows)} launches written to {a.out}")


if __name__ == "__main__":
    main()
