"""Where an in-order run's time goes, from its own measurements: reads the JSON reports of timed
in-order runs (`mmvram run ALGO --backend cuda --executor in-order --profile P --format json`)
and writes one CSV row per run.

Each row holds the measured span (the runs with an event pair around every instruction), the
end-to-end time of the runs without those events and their difference, the summed
per-instruction device times (each from the instruction's start event, recorded before the host
issues it, to its end event, so it holds the host's issue time where the device was idle) and
host times (loads left out of both), and the model's queued prediction against the span and
against the end-to-end time.

  usage: python3 experiments/inorder_timeline.py RUN.json... --out FILE.csv
"""
import argparse
import sys

import mmvram_data

COLUMNS = ["algorithm", "mode", "n", "s", "density", "profile_device", "instructions", "measured_span_ns",
           "measured_end_to_end_ns", "events_ns", "summed_device_ns", "summed_host_ns", "predicted_queued_ns",
           "predicted_over_span", "predicted_over_end_to_end"]


def ratio(a, b):
    return round(a / b, 4) if a is not None and b else None


def timeline(report):
    """One row for a report of schema mmvram-run/4; raises ValueError when it is not a timed
    in-order run with per-instruction host and device times."""
    if not isinstance(report, dict):
        raise ValueError("not a run report (a JSON object)")
    records = [i for i in report.get("instructions") or [] if not isinstance(i, dict) or i.get("op") != "load"]
    if report.get("executor") != "in-order" or not records or report.get("measured_span_ns") is None or any(
            not isinstance(i, dict) or not isinstance(i.get("measured_ns"), (int, float))
            or not isinstance(i.get("host_ns"), (int, float)) for i in records):
        raise ValueError("not a timed in-order run with per-instruction host and device times (run with "
                         "--backend cuda --executor in-order --format json)")
    span, e2e, queued = report["measured_span_ns"], report.get("measured_end_to_end_ns"), report.get("predicted_queued_ns")
    return {"algorithm": report["algorithm"], "mode": report["mode"], "n": report["n"], "s": report["s"],
            "density": report["density"], "profile_device": report.get("profile_device"),
            "instructions": len(records), "measured_span_ns": round(span, 1),
            "measured_end_to_end_ns": None if e2e is None else round(e2e, 1),
            "events_ns": None if e2e is None else round(span - e2e, 1),
            "summed_device_ns": round(sum(i["measured_ns"] for i in records), 1),
            "summed_host_ns": round(sum(i["host_ns"] for i in records), 1),
            "predicted_queued_ns": None if queued is None else round(queued, 1),
            "predicted_over_span": ratio(queued, span), "predicted_over_end_to_end": ratio(queued, e2e)}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", help="JSON reports of timed in-order runs")
    ap.add_argument("--out", required=True, help="the CSV to write")
    a = ap.parse_args(argv)
    rows = mmvram_data.rows_of_reports(a.runs, lambda report: [timeline(report)], "inorder_timeline.py")
    return 1 if rows is None else mmvram_data.write_rows(a.out, COLUMNS, rows, "inorder_timeline.py")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
