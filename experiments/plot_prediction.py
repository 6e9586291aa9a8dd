"""Prediction against measurement: figures and a summary table drawn from stored results only.

Reads experiments/results/prediction_<GPU>.csv (`mmvram sweep --backend cuda --profile ...`: the
measured device times beside the times the profile predicts from the same ledger) and
experiments/results/profile_<GPU>.json (`mmvram calibrate`). Writes into --out:
- prediction_scatter: predicted (queued behind the host) against measured time (launched back to back), log-log,
  one colour per algorithm, with the ±15% band; held-out points (sizes and s the calibration did not
  time) hollow.
- prediction_time_vs_n: per algorithm, measured times and the three predictions (serial, DAG,
  queued behind the host) against n.
- prediction_ratios: for each MMU algorithm and its VCU-only rival, the predicted and the measured
  time ratio against n, beside the model's step ratio.
- calibration_fit: every single-instruction training point, measured against fitted, per class.
- a "Prediction against measurement" section appended to summary.md.
usage: experiments/plot_prediction.py [--out experiments/out] [--results experiments/results]
"""
import argparse
import csv
import json
import math
import pathlib
import statistics

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PAIRS = [("sscr", "schwartz-segmented-scan"), ("sscr", "min-index-segmented-scan"),
         ("matmul-scan", "hillis-steele-scan"), ("matmul-scan", "brent-kung-scan"),
         ("scd", "schwartz-segmented-scan"), ("block-sscr", "schwartz-segmented-scan")]
CALIBRATED_S = {2, 4, 8, 16, 32, 64, 128}  # `mmvram calibrate` times m = 2^8, 2^10, ..., 2^26 at these s
# The measured time a prediction is held against: the run's instructions launched back to back
# (first start to last end on the device, launch gaps included), median of the timed runs.
MEASURED = "measured_span_ns"
# The prediction held against it: one host thread issuing into one in-order device queue (the
# cuda backend's own schedule); the serial sum is drawn and tabulated beside it.
PREDICTED = "predicted_queued_ns"


def read_rows(results):
    rows = []
    for path in sorted(results.glob("prediction_*.csv")):
        gpu = path.stem[len("prediction_"):]
        for r in csv.DictReader(open(path)):
            if r.get("verified") != "true" or not r.get(MEASURED) or not r.get("predicted_serial_ns"):
                continue
            if r.get("executor", "in-order") != "in-order":  # graph and dag rows have their own predictions
                continue
            r["gpu"] = gpu
            r.setdefault("predicted_queued_ns", "")
            r["predicted_queued_ns"] = r["predicted_queued_ns"] or r["predicted_serial_ns"]  # older files
            for k in ("n", "s", "steps", "measured_ns", "measured_span_ns", MEASURED,
                      "predicted_serial_ns", "predicted_dag_ns", "predicted_queued_ns", "density"):
                r[k] = float(r[k])
            rows.append(r)
    return rows


def held_out(r):
    """A point whose n or s the calibration never timed (its densities are never calibrated)."""
    return int(r["s"]) not in CALIBRATED_S or math.log2(r["n"]) % 2 != 0


def rel_err(pred, meas):
    return (pred - meas) / meas


def figure_scatter(out, rows, save):
    fig, ax = plt.subplots(figsize=(7.5, 6.5))
    for algo in sorted({r["algorithm"] for r in rows}):
        mine = [r for r in rows if r["algorithm"] == algo]
        main = [r for r in mine if not held_out(r)]
        held = [r for r in mine if held_out(r)]
        line = ax.scatter([r[MEASURED] / 1e3 for r in main], [r[PREDICTED] / 1e3 for r in main],
                          s=14, label=algo)
        ax.scatter([r[MEASURED] / 1e3 for r in held], [r[PREDICTED] / 1e3 for r in held],
                   s=18, facecolors="none", edgecolors=line.get_facecolor())
    lo = min(min(r[MEASURED], r[PREDICTED]) for r in rows) / 1e3 / 1.5
    hi = max(max(r[MEASURED], r[PREDICTED]) for r in rows) / 1e3 * 1.5
    xs = [lo, hi]
    ax.plot(xs, xs, "k-", lw=0.8, label="predicted = measured")
    ax.fill_between(xs, [x * 0.85 for x in xs], [x * 1.15 for x in xs], color="grey", alpha=0.25, label="±15%")
    ax.set(xscale="log", yscale="log", xlabel="measured time, launched back to back (µs)", ylabel="predicted time, queued behind the host (µs)",
           title=f"Prediction against measurement ({rows[0]['gpu']}; hollow: held-out points)")
    ax.legend(fontsize=7, ncol=2)
    save(fig, out / "prediction_scatter")


def figure_time(out, rows, save):
    algos = sorted({r["algorithm"] for r in rows})
    cols = 3
    fig, axes = plt.subplots((len(algos) + cols - 1) // cols, cols, figsize=(15, 3.6 * ((len(algos) + cols - 1) // cols)),
                             squeeze=False)
    for ax in axes.flatten()[len(algos):]:
        ax.set_visible(False)
    for ax, algo in zip(axes.flatten(), algos):
        mine = [r for r in rows if r["algorithm"] == algo and int(r["s"]) == 16 and not held_out(r)]
        density = min({r["density"] for r in mine}, default=0)
        mine = sorted([r for r in mine if r["density"] == density], key=lambda r: r["n"])
        if not mine:
            ax.set_visible(False)
            continue
        n = [r["n"] for r in mine]
        ax.plot(n, [r[MEASURED] / 1e3 for r in mine], "ko-", ms=3, label="measured, back to back")
        ax.plot(n, [r["measured_ns"] / 1e3 for r in mine], "k:", label="measured, sum of instructions")
        ax.plot(n, [r["predicted_serial_ns"] / 1e3 for r in mine], "C0-", label="predicted, serial")
        ax.plot(n, [r["predicted_dag_ns"] / 1e3 for r in mine], "C1--", label="predicted, DAG")
        ax.plot(n, [r["predicted_queued_ns"] / 1e3 for r in mine], "C2-.", label="predicted, queued behind the host")
        ax.set(xscale="log", yscale="log", title=f"{algo} (s = 16, density {density:g})", xlabel="n", ylabel="µs")
        ax.legend(fontsize=6)
    save(fig, out / "prediction_time_vs_n")


def ratio_series(rows, a, b, s):
    by = {}
    for r in rows:
        if int(r["s"]) == s and r["density"] == 0 and r["algorithm"] in (a, b) and not held_out(r):
            by.setdefault(r["n"], {})[r["algorithm"]] = r
    out = []
    for n in sorted(by):
        if a in by[n] and b in by[n]:
            x, y = by[n][a], by[n][b]
            out.append((n, x[PREDICTED] / y[PREDICTED],
                        x[MEASURED] / y[MEASURED], x["steps"] / y["steps"]))
    return out


def figure_ratios(out, rows, save):
    pairs = [(a, b) for a, b in PAIRS if ratio_series(rows, a, b, 16)]
    if not pairs:
        return
    fig, axes = plt.subplots(1, len(pairs), figsize=(4.2 * len(pairs), 3.8), squeeze=False)
    for ax, (a, b) in zip(axes[0], pairs):
        series = ratio_series(rows, a, b, 16)
        n = [p[0] for p in series]
        ax.plot(n, [p[1] for p in series], "C0-", label="predicted time ratio")
        ax.plot(n, [p[2] for p in series], "ko-", ms=3, label="measured time ratio")
        ax.plot(n, [p[3] for p in series], "C2:", label="step ratio (model)")
        ax.axhline(1, color="grey", lw=0.6)
        ax.set(xscale="log", yscale="log", title=f"{a} / {b} (s = 16)", xlabel="n")
        ax.legend(fontsize=6)
    save(fig, out / "prediction_ratios")


def figure_calibration(out, profile_paths, save):
    for path in profile_paths:
        prof = json.load(open(path))
        pts = prof.get("training_points", [])
        classes = sorted({p["class"] for p in pts})
        if not classes:
            continue
        fig, ax = plt.subplots(figsize=(7, 6))
        for c in classes:
            mine = [p for p in pts if p["class"] == c]
            m = prof["classes"][c]
            ax.scatter([p["measured_ns"] / 1e3 for p in mine], [p["predicted_ns"] / 1e3 for p in mine], s=10,
                       label=f"{c} (median residual {m['residual_median']:.1%})")
        lo = min(p["measured_ns"] for p in pts) / 1e3 / 1.5
        hi = max(p["measured_ns"] for p in pts) / 1e3 * 1.5
        ax.plot([lo, hi], [lo, hi], "k-", lw=0.8)
        ax.set(xscale="log", yscale="log", xlabel="measured (µs)", ylabel="fitted (µs)",
               title=f"Calibration on single instructions ({prof['device']}, {prof['date']})")
        ax.legend(fontsize=7)
        save(fig, out / "calibration_fit")


def target_met(pred, r):
    return abs(rel_err(r[pred], r[MEASURED])) <= (0.15 if r["n"] >= 2 ** 20 else 0.25)


def summary_lines(rows):
    lines = ["", "## Prediction against measurement (GPU, from experiments/results/prediction_*.csv)", "",
             "Relative error of the predictions against the measured time (the instructions launched back to back, "
             "median of the timed runs): serial and queued behind the host, median error and points inside the "
             "target (±15% for n ≥ 2^20, ±25% below); the serial prediction against the sum of the instructions' "
             "own device times beside them; held-out points (n or s never calibrated) apart.", "",
             "| algorithm | points | serial: median error | worst | within target | queued: median error | within target "
             "| serial vs sum of instructions: within target | held-out points | held-out within target (queued) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for algo in sorted({r["algorithm"] for r in rows}):
        mine = [r for r in rows if r["algorithm"] == algo]
        main = [r for r in mine if not held_out(r)]
        held = [r for r in mine if held_out(r)]
        errs = [rel_err(r["predicted_serial_ns"], r[MEASURED]) for r in main]
        qerrs = [abs(rel_err(r["predicted_queued_ns"], r[MEASURED])) for r in main]
        own = [abs(rel_err(r["predicted_serial_ns"], r["measured_ns"])) <= (0.15 if r["n"] >= 2 ** 20 else 0.25)
               for r in main]
        worst = max(errs, key=abs) if errs else float("nan")
        med = statistics.median([abs(e) for e in errs]) if errs else float("nan")
        qmed = statistics.median(qerrs) if qerrs else float("nan")
        lines.append(f"| {algo} | {len(main)} | {med:.1%} | {worst:+.1%} | "
                     f"{sum(target_met('predicted_serial_ns', r) for r in main)}/{len(main)} | {qmed:.1%} | "
                     f"{sum(target_met('predicted_queued_ns', r) for r in main)}/{len(main)} | {sum(own)}/{len(own)} | "
                     f"{len(held)} | {sum(target_met(PREDICTED, r) for r in held)}/{len(held)} |")
    lines += ["", "Time ratios of each MMU algorithm to its VCU-only rival (queued prediction; target: the predicted "
              "ratio within ±15% of the measured one).", "",
              "| pair (s = 16, one segment) | n | predicted ratio | measured ratio | ratio error | step ratio |",
              "|---|---|---|---|---|---|"]
    inside = total = 0
    for a, b in PAIRS:
        for n, pred, meas, steps in ratio_series(rows, a, b, 16):
            total += 1
            inside += abs(pred / meas - 1) <= 0.15
            lines.append(f"| {a} / {b} | 2^{int(math.log2(n))} | {pred:.3f} | {meas:.3f} | {pred / meas - 1:+.1%} | {steps:.3f} |")
    lines += ["", f"Ratios within ±15%: {inside} of {total}."]
    return lines


def main():
    here = pathlib.Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=here / "out", type=pathlib.Path)
    parser.add_argument("--results", default=here / "results", type=pathlib.Path)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    def save(fig, stem):
        fig.tight_layout()
        for ext in ("png", "svg"):
            fig.savefig(f"{stem}.{ext}", dpi=110)
        plt.close(fig)

    rows = read_rows(args.results) if args.results.exists() else []
    profiles = sorted(args.results.glob("profile_*.json")) if args.results.exists() else []
    figure_calibration(args.out, profiles, save)
    if not rows:
        print("plot_prediction.py: no prediction_*.csv in", args.results, "(run the GPU experiment first)")
        return
    figure_scatter(args.out, rows, save)
    figure_time(args.out, rows, save)
    figure_ratios(args.out, rows, save)
    with open(args.out / "summary.md", "a") as f:
        f.write("\n".join(summary_lines(rows)) + "\n")
    print("plot_prediction.py: figures and the summary section in", args.out)


if __name__ == "__main__":
    main()
