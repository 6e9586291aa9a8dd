#!/usr/bin/env python3
"""Draws every figure of experiments/out/ from the CSVs written by run_all.sh and the GPU JSON in
experiments/results/ (when present), then writes experiments/out/summary.md. PNG and SVG each.

usage: experiments/plot.py [--out experiments/out] [--results experiments/results] [--gpu-only]
  --gpu-only: redraw only the GPU figure (and summary.md), e.g. after `mmvram-gpu bench`.
"""
import argparse
import math
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import mmvram_data as data  # noqa: E402
import summary  # noqa: E402

S_VALUES = [2, 4, 8, 16, 32, 128]
STYLE = {
    "matmul-scan": ("tab:blue", "-"), "scd": ("tab:orange", "-"), "sscr": ("tab:green", "-"),
    "block-sscr": ("tab:red", "-"), "hillis-steele-scan": ("tab:gray", "--"),
    "brent-kung-scan": ("tab:brown", "--"), "schwartz-segmented-scan": ("tab:purple", "--"),
    "min-index-segmented-scan": ("tab:pink", "--"), "decayed-scan-stable": ("tab:olive", "-"),
    "spmv": ("tab:cyan", "-"), "elementwise-product": ("tab:blue", "-"), "matrix-product": ("tab:orange", "-"),
}


def save(fig, out, name):
    for ext in ("png", "svg"):
        fig.savefig(out / f"{name}.{ext}", dpi=130, bbox_inches="tight")
    plt.close(fig)
    print(f"plot.py: {name}.png/.svg")


def draw(ax, rows, algo, y, label=None, scale=None):
    xs, ys = data.series(rows, y)
    if scale:
        ys = [v / scale(x) for x, v in zip(xs, ys)]
    if xs:
        color, style = STYLE.get(algo, (None, "-"))
        ax.plot(xs, ys, style, color=color, marker=".", ms=4, lw=1.3, label=label or algo)


def panels(count):
    cols = 3
    fig, axes = plt.subplots((count + cols - 1) // cols, cols, figsize=(13, 7.5), squeeze=False)
    return fig, axes.flatten()


def figure_vs_n(out, mmu, vcu, field, name, ylabel, per_element=False):
    """One panel per s: every algorithm's `field` against n, with the bound curves."""
    fig, axes = panels(len(S_VALUES))
    scale = (lambda n: n) if per_element else None
    for ax, s in zip(axes, S_VALUES):
        for algo in data.MMU:
            draw(ax, data.select(mmu, algorithm=algo, s=s), algo, field, scale=scale)
        for algo in data.VCU_ONLY:
            draw(ax, data.select(vcu, algorithm=algo), algo, field, label=f"{algo} (VCU only)", scale=scale)
        ns = sorted({r["n"] for r in mmu + vcu if r["n"] > 1})
        if ns and not per_element:
            ax.plot(ns, [data.bound_log_s(n, s) for n in ns], ":", color="black", lw=1, label="log_s n (constant 1)")
            ax.plot(ns, [2 * math.floor(data.bound_log_s(n, s) + 1e-9) for n in ns], "-.", color="black", lw=1,
                    label="2 floor(log_s n) (MatMulScan depth bound)")
            ax.plot(ns, [data.bound_vcu(n) for n in ns], ":", color="tab:red", lw=1.5,
                    label="log2 n / log2 log2 n (VCU-only lower bound, constant 1)")
        if per_element:
            ax.set_yscale("log")
        ax.set_xscale("log", base=2)
        ax.set_title(f"s = {s}")
        ax.set_xlabel("n (elements)")
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8, bbox_to_anchor=(0.5, -0.06))
    fig.tight_layout()
    save(fig, out, name)


def figure_crossover(out, mmu, vcu):
    """Left: VCU-only steps / MMU steps per s. Right: where the ratio passes 1, against s = log2 n."""
    best = data.best_vcu_steps(vcu)
    crossings = summary.crossings(mmu, vcu)
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5))
    cmap = plt.get_cmap("viridis")
    for i, s in enumerate(S_VALUES):
        for algo, style in (("sscr", "-"), ("block-sscr", "--")):
            rows = [r for r in data.select(mmu, algorithm=algo, s=s) if r["n"] in best]
            xs = [r["n"] for r in rows]
            ys = [best[r["n"]] / r["steps"] for r in rows]
            if xs:
                left.plot(xs, ys, style, color=cmap(i / (len(S_VALUES) - 1)), marker=".",
                          label=f"{algo}, s = {s}")
    left.axhline(1, color="black", lw=1)
    left.set_xscale("log", base=2)
    left.set_xlabel("n (elements)")
    left.set_ylabel("steps of the best VCU-only segmented scan / steps of the MMU algorithm")
    left.set_title("> 1: the MMU algorithm takes fewer steps")
    left.legend(fontsize=7, ncol=2)
    left.grid(alpha=0.3)
    n_top = max([24] + [math.log2(r["n"]) for r in mmu])
    ss = [2 ** k for k in range(1, 8)]
    right.fill_between(ss, 0, [min(s, n_top) for s in ss], color="tab:green", alpha=0.15,
                       label="s >= log2 n: log_s n below log2 n / log2 log2 n")
    right.plot(ss, [min(s, n_top) for s in ss], ":", color="black", label="log2 n = s")
    for algo, marker in (("sscr", "o"), ("block-sscr", "s")):
        pts = [(s, crossings[(algo, s)]) for s in S_VALUES if crossings.get((algo, s))]
        right.plot([p[0] for p in pts], [math.log2(p[1]) for p in pts], marker, ms=8,
                   label=f"{algo}: fewer steps than the VCU-only scans from this n on")
    right.set_ylim(0, n_top)
    right.set_xscale("log", base=2)
    right.set_xlabel("s (MMU tile size)")
    right.set_ylabel("log2 n (n in elements)")
    right.set_title("measured crossover against the s >= log n region")
    right.legend(fontsize=8, loc="upper left")
    right.grid(alpha=0.3)
    fig.tight_layout()
    save(fig, out, "crossover")


def figure_bits(out, bits):
    algos = [a for a in ("elementwise-product", "matrix-product", "sscr", "block-sscr")
             if data.select(bits, algorithm=a)]
    if not algos:
        return
    fig, axes = plt.subplots(2, len(algos), figsize=(4 * len(algos), 7), squeeze=False)
    for col, algo in enumerate(algos):
        for s in (2, 4, 16):
            rows = sorted(data.select(bits, algorithm=algo, s=s), key=lambda r: r["word_bits"])
            for row, field in ((0, "work_total_ops"), (1, "steps")):
                xs, ys = data.series(rows, field, x="word_bits")
                axes[row][col].plot(xs, ys, marker="o", label=f"s = {s}")
        n = rows[0]["n"] if rows else "?"
        axes[0][col].set_title(f"{algo} (n = {n})")
        axes[0][col].set_ylabel("work (element ops + multiply-adds)")
        axes[1][col].set_ylabel("steps")
        for row in (0, 1):
            axes[row][col].set_xlabel("word width B (bits)")
            axes[row][col].grid(alpha=0.3)
            axes[row][col].legend(fontsize=8)
    fig.tight_layout()
    save(fig, out, "work_vs_bits")


def figure_unit_share(out, picked):
    """Per algorithm: the MMU's and the VCU's share of the work and of the steps."""
    names = list(picked)
    fig, (work, steps) = plt.subplots(1, 2, figsize=(13, 0.45 * len(names) + 1.5), sharey=True)
    for ax, mmu_field, vcu_field, title in ((work, "mmu_multiply_adds", "vcu_work_element_ops", "work"),
                                            (steps, "mmu_steps", "vcu_steps", "steps")):
        mmu = [picked[a][mmu_field] / max(1, picked[a][mmu_field] + picked[a][vcu_field]) for a in names]
        ax.barh(names, mmu, color="tab:orange", label="MMU")
        ax.barh(names, [1 - m for m in mmu], left=mmu, color="tab:blue", label="VCU")
        ax.set_xlim(0, 1)
        ax.set_xlabel(f"share of {title} (fraction)")
        ax.legend(loc="lower right", fontsize=8)
    work.set_title("MMU multiply-adds vs VCU element ops")
    steps.set_title("MMU steps vs VCU steps")
    fig.tight_layout()
    save(fig, out, "unit_share")


def figure_other(out, floats, matrix):
    """Steps against n for the float algorithms and the matrix product, one line per s."""
    parts = [("decayed-scan-stable", floats, "n (elements)"), ("spmv", floats, "n (nonzeros)"),
             ("matrix-product", matrix, "n (matrix side)")]
    parts = [p for p in parts if data.select(p[1], algorithm=p[0])]
    if not parts:
        return
    fig, axes = plt.subplots(1, len(parts), figsize=(4.6 * len(parts), 4.2), squeeze=False)
    cmap = plt.get_cmap("viridis")
    for ax, (algo, rows, xlabel) in zip(axes[0], parts):
        ss = sorted({r["s"] for r in data.select(rows, algorithm=algo)})
        for i, s in enumerate(ss):
            xs, ys = data.series(data.select(rows, algorithm=algo, s=s), "steps")
            ax.plot(xs, ys, marker=".", color=cmap(i / max(1, len(ss) - 1)), label=f"s = {s}")
        ax.set_xscale("log", base=2)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("steps (MMU + VCU instructions)")
        ax.set_title(f"{algo} ({rows[0]['format'] if rows else ''})")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    save(fig, out, "steps_vs_n_other")


def figure_density(out, rows):
    if not rows:
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for algo in ("scd", "sscr", "block-sscr", "schwartz-segmented-scan"):
        sel = [r for r in data.select(rows, algorithm=algo) if r["density"] > 0]
        xs, ys = data.series(sel, "vcu_work_element_ops", x="density")
        ax.plot(xs, [y / sel[0]["n"] for y in ys], marker="o", label=algo, color=STYLE[algo][0])
    ax.set_xscale("log")
    ax.set_xlabel("segment density (segment starts per element)")
    ax.set_ylabel("VCU work per element (ops)")
    ax.set_title(f"VCU work against density (n = {rows[0]['n']}, s = {rows[0]['s']})")
    ax.grid(alpha=0.3)
    ax.legend()
    save(fig, out, "work_vs_density")


def figure_gpu(out, gpu_rows):
    """Throughput against segment density for our kernels and the baselines, per GPU and dtype."""
    seg = [r for r in gpu_rows if r.get("operation") in ("segmented_scan", "segmented_sum")]
    if not seg:
        return
    groups = sorted({(r["gpu"], r["dtype"], r["operation"]) for r in seg})
    rows_n = (len(groups) + 1) // 2
    fig, axes = plt.subplots(rows_n, 2, figsize=(13, 4.5 * rows_n), squeeze=False)
    for ax in axes.flatten()[len(groups):]:
        ax.set_visible(False)
    for ax, (gpu, dtype, op) in zip(axes.flatten(), groups):
        rows = [r for r in seg if (r["gpu"], r["dtype"], r["operation"]) == (gpu, dtype, op)
                and r.get("distribution_family") in ("geometric", "one_segment", "all_length_1")]
        for kernel in sorted({r["kernel"] for r in rows}):
            pts = sorted((max(r["segment_density"], 1e-9), r["throughput_gitems_per_s"]) for r in rows
                         if r["kernel"] == kernel)
            ours = any(r["family"] == "ours" for r in rows if r["kernel"] == kernel)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "-o" if ours else "--.", lw=2 if ours else 1,
                    label=kernel)
        copy = [r for r in gpu_rows if r["gpu"] == gpu and r["operation"] == "copy" and r["dtype"] == dtype]
        if copy:
            ax.axhline(copy[0]["throughput_gitems_per_s"], color="black", lw=0.8, ls=":", label="device copy (8 B/item)")
        ax.set_xscale("log")
        ax.set_xlabel("segment density (segments / n; one segment plotted at 1e-9)")
        ax.set_ylabel("throughput (G items/s)")
        ax.set_title(f"{gpu}: {op}, {dtype}")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    save(fig, out, "gpu_throughput_vs_density")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = pathlib.Path(__file__).resolve().parent
    parser.add_argument("--out", default=here / "out", type=pathlib.Path)
    parser.add_argument("--results", default=here / "results", type=pathlib.Path)
    parser.add_argument("--gpu-only", action="store_true", help="redraw only the GPU figure and summary.md")
    args = parser.parse_args()
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    gpu_rows = data.read_gpu_bench(args.results) if args.results.exists() else []
    mmu = data.good(data.read_csv(out / "steps_mmu.csv"))
    vcu = data.good(data.read_csv(out / "steps_vcu.csv"))
    floats = data.good(data.read_csv(out / "steps_float.csv"))
    bits = data.good(data.read_csv(out / "bits.csv"))
    if args.gpu_only:
        figure_gpu(out, gpu_rows)
        summary.write(out, mmu, vcu, floats, bits, gpu_rows)
        return 0
    if mmu or vcu:
        figure_vs_n(out, mmu, vcu, "steps", "steps_vs_n", "steps (MMU + VCU instructions)")
        figure_vs_n(out, mmu, vcu, "depth_steps", "depth_vs_n", "depth (longest dependency chain, steps)")
        figure_vs_n(out, mmu, vcu, "work_total_ops", "work_vs_n", "work per element (ops)", per_element=True)
        figure_crossover(out, mmu, vcu)
    figure_bits(out, bits)
    figure_other(out, floats, data.good(data.read_csv(out / "matrix_product.csv")))
    picked = summary.pick_for_share(mmu + vcu + floats + bits)
    if picked:
        figure_unit_share(out, picked)
    figure_density(out, data.good(data.read_csv(out / "density.csv")))
    figure_gpu(out, gpu_rows)
    summary.write(out, mmu, vcu, floats, bits, gpu_rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
