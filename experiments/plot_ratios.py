"""The mission's figure: each MMU algorithm over its best VCU-only rival, against n, per GPU.

Ratios (MMU algorithm / rival at the same n, density, mode and input) of the ledger's steps,
depth, work and words moved (read + written), of the predicted time and of the measured time on
each executor, from the heldout_<GPU>.csv of --heldout (the drawn pairs, experiments/heldout.py; run_all.sh
passes the latest complete draws, experiments/results/heldout/draw_bce2c66/)
and prediction_<GPU>.csv (the stored grid, in-order: each MMU row against the rival with the
fewest steps among the registry's VCU-only candidates of its input at the same n, density and
mode; needs --mmvram for the registry). The fused kernels: the `mmvram-gpu-bench/1` JSON's kernel
of the algorithm (family "ours") over the fastest CUB kernel of the same operation (int32, one
segment; every distribution is kept in the CSV). Writes into --out ratios_vs_n.{png,svg} (one
row of panels per MMU algorithm, one column per GPU: H100, H200 and any other with data; a panel
without data says so) and ratios_vs_n.csv, every ratio plotted.
usage: experiments/plot_ratios.py [--out experiments/out] [--results experiments/results]
                                  [--mmvram build/cpu/tools/mmvram]
"""
import argparse
import csv
import json
import pathlib
import subprocess

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import mmvram_data  # noqa: E402

GPUS = ["H100", "H200"]
LEDGER = {"steps_ratio": ("steps",), "depth_ratio": ("depth_steps",), "work_ratio": ("work_total_ops",),
          "words_moved_ratio": ("words_read", "words_written")}
FIELDS = ["gpu", "mmu_algorithm", "rival", "source", "executor", "n_items", "s", "density_starts_per_item", "mode",
          *LEDGER, "predicted_time_ratio", "measured_time_ratio", "predicted_mmu_ns", "predicted_rival_ns",
          "measured_mmu_ns", "measured_rival_ns"]


def ledger_total(row, columns):
    """The sum of a row's ledger columns; None when one is missing."""
    vals = [mmvram_data.number(row.get(c)) for c in columns]
    return None if None in vals else sum(vals)


def ratio(a, b):
    """a / b; None when either is missing or b is 0."""
    return a / b if a is not None and b not in (None, 0) else None


def pair_row(gpu, source, executor, mmu, rival, predicted):
    """One plotted point: the ratios of an MMU run over its rival's (None where a run failed)."""
    ok = lambda r: r.get("verified") == "true" and not r.get("error")
    out = {"gpu": gpu, "mmu_algorithm": mmu["algorithm"], "rival": rival["algorithm"], "source": source,
           "executor": executor, "n_items": int(mmu["n"]), "s": int(mmu["s"]),
           "density_starts_per_item": mmu.get("density", ""), "mode": mmu.get("mode", "")}
    for name, columns in LEDGER.items():
        out[name] = ratio(ledger_total(mmu, columns), ledger_total(rival, columns))
    m = mmvram_data.HELDOUT_MEASURED
    num = mmvram_data.number
    out.update(predicted_mmu_ns=num(mmu.get(predicted)), predicted_rival_ns=num(rival.get(predicted)),
               measured_mmu_ns=num(mmu.get(m)) if ok(mmu) else None,
               measured_rival_ns=num(rival.get(m)) if ok(rival) else None)
    out["predicted_time_ratio"] = ratio(out["predicted_mmu_ns"], out["predicted_rival_ns"])
    out["measured_time_ratio"] = ratio(out["measured_mmu_ns"], out["measured_rival_ns"])
    return out


def heldout_points(gpu, rows):
    """Per draw and executor of heldout_<GPU>.csv: the MMU run over its rival's (pair_row)."""
    by = {}
    for r in rows:
        by.setdefault((r["heldout_seed"], r["draw"], r["heldout_executor"]), {})[r["role"]] = r
    out = []
    for (_, _, executor), pair in by.items():
        if "mmu" in pair and "rival" in pair:
            out.append(pair_row(gpu, "heldout", executor, pair["mmu"], pair["rival"],
                                mmvram_data.EXECUTORS[executor]["predicted"]))
    return out


def grid_points(gpu, rows, registry):
    """The stored grid's in-order points: each MMU row over its fewest-step rival at the same n, mode and
    (segmented algorithms) density; a rival run at the same s where there is one."""
    candidates = mmvram_data.rival_candidates(registry)
    segmented = {e["name"] for e in registry if "flags" in e["input"]}
    ran = [r for r in rows if r.get("verified") == "true"]
    out = []
    for r in ran:
        if r["algorithm"] not in candidates:
            continue
        rivals = [x for x in ran if x["algorithm"] in candidates[r["algorithm"]] and x["n"] == r["n"]
                  and x["mode"] == r["mode"] and (x["density"] == r["density"] or r["algorithm"] not in segmented)]
        if rivals:
            best = min(rivals, key=lambda x: (int(x["steps"]), candidates[r["algorithm"]].index(x["algorithm"]),
                                              x["s"] != r["s"]))
            out.append(pair_row(gpu, "grid", "in-order", r, best, mmvram_data.EXECUTORS["in-order"]["predicted"]))
    return out


def fused_points(bench):
    """Each fused kernel ("ours") over the fastest CUB kernel of its operation, per distribution, int32."""
    out = []
    for r in bench:
        if r.get("family") != "ours" or r.get("dtype") != "i32":
            continue
        cubs = [c for c in bench if c.get("family") == "cub" and c["operation"] == r["operation"] and
                c["dtype"] == r["dtype"] and c["distribution"] == r["distribution"] and c["gpu"] == r["gpu"]]
        if not cubs:
            continue
        cub = min(cubs, key=lambda c: c["time_ms"])
        density = "0" if r["distribution"] in ("none", "one_segment") else r.get("segment_density", "")
        out.append({"gpu": r["gpu"].split()[1] if len(r["gpu"].split()) > 1 else r["gpu"],
                    "mmu_algorithm": r["kernel"], "rival": cub["kernel"], "source": f"fused bench ({r['distribution']})",
                    "executor": "fused", "n_items": r["n"], "s": "", "density_starts_per_item": density, "mode": "i32",
                    "measured_mmu_ns": r["time_ms"] * 1e6, "measured_rival_ns": cub["time_ms"] * 1e6,
                    "measured_time_ratio": r["time_ms"] / cub["time_ms"]})
    return out


def algorithm_of_kernel(kernel, algorithms):
    """The registry algorithm a fused kernel computes: its name is the algorithm's with '_' for '-'."""
    for a in algorithms:
        k = a.replace("-", "_")
        if kernel == k or kernel.startswith(k + "_"):
            return a
    return None


STYLE = [("steps_ratio", "steps", "C0"), ("depth_ratio", "depth", "C1"), ("work_ratio", "work", "C2"),
         ("words_moved_ratio", "words moved", "C3")]
EXEC_STYLE = {"in-order": ("C4", "o"), "graph": ("C5", "s"), "dag": ("C6", "^")}


def draw_panel(ax, points, fused):
    """One panel: the ledger ratios, predicted and measured time ratios per executor, the fused ratio;
    "no data" when there is nothing to draw."""
    if not points and not fused:
        ax.text(0.5, 0.5, "no data", ha="center", va="center", transform=ax.transAxes, fontsize=12, color="grey")
        ax.set_xticks([])
        ax.set_yticks([])
        return
    for key, label, colour in STYLE:
        pts = [(p["n_items"], p[key]) for p in points if p.get(key)]
        if pts:
            ax.scatter(*zip(*pts), color=colour, marker="_", s=40, label=f"{label} (ledger)")
    for executor, (colour, marker) in EXEC_STYLE.items():
        mine = [p for p in points if p["executor"] == executor]
        meas = [(p["n_items"], p["measured_time_ratio"]) for p in mine if p["measured_time_ratio"]]
        pred = [(p["n_items"], p["predicted_time_ratio"]) for p in mine if p["predicted_time_ratio"]]
        if meas:
            ax.scatter(*zip(*meas), color=colour, marker=marker, s=22, label=f"measured, {executor}")
        if pred:
            ax.scatter(*zip(*pred), facecolors="none", edgecolors=colour, marker=marker, s=30,
                       label=f"predicted, {executor}")
    for p in fused:
        ax.scatter([p["n_items"]], [p["measured_time_ratio"]], color="k", marker="*", s=80,
                   label=f"fused {p['mmu_algorithm']} / {p['rival']}")
    ax.axhline(1, color="grey", lw=0.8)
    ax.set(xscale="log", yscale="log", xlabel="n")


def main():
    here = pathlib.Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=here / "out", type=pathlib.Path)
    parser.add_argument("--results", default=here / "results", type=pathlib.Path)
    parser.add_argument("--heldout", default=here / "results" / "heldout", type=pathlib.Path,
                        help="the held-out runs (heldout_<GPU>.csv, experiments/gpu_prediction.sh quick)")
    parser.add_argument("--mmvram", default=str(here.parent / "build/cpu/tools/mmvram"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        registry = json.loads(subprocess.run([args.mmvram, "list", "--format", "json"], check=True,
                                             capture_output=True, text=True).stdout)
    except (OSError, subprocess.CalledProcessError):
        registry = []
        print(f"plot_ratios.py: no mmvram at {args.mmvram}: the stored grid's pairs are left out")
    candidates = mmvram_data.rival_candidates(registry) if registry else {}
    points = []
    for path in sorted(args.heldout.glob("heldout_*.csv")):
        points += heldout_points(path.stem[len("heldout_"):], list(csv.DictReader(open(path))))
    for path in sorted(args.results.glob("prediction_*.csv")):
        points += grid_points(path.stem[len("prediction_"):], list(csv.DictReader(open(path))), registry)
    fused = fused_points(mmvram_data.read_gpu_bench(args.results))
    algorithms = sorted(set(candidates) | {p["mmu_algorithm"] for p in points})
    for p in fused:
        p["mmu_algorithm"] = algorithm_of_kernel(p["mmu_algorithm"], algorithms) or p["mmu_algorithm"]
    gpus = GPUS + sorted({p["gpu"] for p in points + fused} - set(GPUS))
    fig, axes = plt.subplots(max(len(algorithms), 1), len(gpus), figsize=(5.5 * len(gpus), 4 * max(len(algorithms), 1)),
                             squeeze=False)
    for i, algo in enumerate(algorithms):
        for j, gpu in enumerate(gpus):
            mine = [p for p in points if p["mmu_algorithm"] == algo and p["gpu"] == gpu]
            fmine = [p for p in fused if p["mmu_algorithm"] == algo and p["gpu"] == gpu and p["density_starts_per_item"] == "0"]
            draw_panel(axes[i][j], mine, fmine)
            rivals = sorted({p["rival"] for p in mine})
            axes[i][j].set_title(f"{gpu}: {algo} / {', '.join(rivals) or 'its rival'}", fontsize=9)
            if mine or fmine:
                axes[i][j].legend(fontsize=6, ncol=2)
    fig.suptitle("MMU algorithm over its best VCU-only rival: model quantities and times (ratio 1: equal)")
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(args.out / f"ratios_vs_n.{ext}", dpi=110)
    plt.close(fig)
    with open(args.out / "ratios_vs_n.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n", extrasaction="ignore")
        w.writeheader()
        for p in sorted(points + fused, key=lambda p: (p["gpu"], p["mmu_algorithm"], p["executor"], p["n_items"])):
            w.writerow({k: ("" if p.get(k) is None else p.get(k, "")) for k in FIELDS})
    print(f"plot_ratios.py: {len(points) + len(fused)} ratios of {len(gpus)} GPUs in {args.out}/ratios_vs_n.*")


if __name__ == "__main__":
    main()
