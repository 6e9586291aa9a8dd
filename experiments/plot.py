#!/usr/bin/env python3
"""Draws every figure of experiments/out/ from the CSVs written by run_all.sh and the GPU JSON in
experiments/results/ (when present), then writes experiments/out/summary.md. PNG and SVG each.

usage: experiments/plot.py [--out experiments/out] [--results experiments/results] [--gpu-only]
  --gpu-only: redraw only the GPU figures (and summary.md), e.g. after `mmvram kernels bench`.
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
import plot_gpu  # noqa: E402
import summary  # noqa: E402

S_VALUES = [2, 4, 8, 16, 32, 128]
STYLE = {
    "matmul-scan": ("tab:blue", "-"), "scd": ("tab:orange", "-"), "sscr": ("tab:green", "-"),
    "block-sscr": ("tab:red", "-"), "hillis-steele-scan": ("tab:gray", "--"),
    "brent-kung-scan": ("tab:brown", "--"), "schwartz-segmented-scan": ("tab:purple", "--"),
    "min-index-segmented-scan": ("tab:pink", "--"), "iterated-addition-scan": ("black", "--"),
    "iterated-addition-segmented-scan": ("tab:red", "--"), "decayed-scan-stable": ("tab:olive", "-"),
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
    no_mmu = data.vcu_only(mmu + vcu)
    for ax, s in zip(axes, S_VALUES):
        for algo in STYLE:  # legend order: the MMU algorithms, then the VCU-only ones
            if algo in no_mmu:
                draw(ax, data.select(vcu, algorithm=algo), algo, field, label=f"{algo} (VCU only)", scale=scale)
            else:
                draw(ax, data.select(mmu, algorithm=algo, s=s), algo, field, scale=scale)
        ns = sorted({r["n"] for r in mmu + vcu if r["n"] > 1})
        if ns and not per_element:
            ax.plot(ns, [data.bound_log_s(n, s) for n in ns], ":", color="black", lw=1, label="log_s n (constant 1)")
            ax.plot(ns, [2 * math.floor(data.bound_log_s(n, s) + 1e-9) for n in ns], "-.", color="black", lw=1,
                    label="2 floor(log_s n) (MatMulScan depth bound)")
            ax.plot(ns, [data.bound_vcu(n) for n in ns], ":", color="tab:red", lw=1.5,
                    label="log2 n / log2 log2 n (VCU-only lower bound, constant 1)")
        if ns and per_element:
            ax.plot(ns, [s for n in ns], ":", color="black", lw=1, label="s (O(n s) work of an MMU algorithm, constant 1)")
            ax.plot(ns, [math.log2(n) for n in ns], "-.", color="black", lw=1,
                    label="log2 n (O(n log n) work of a doubling VCU scan, constant 1)")
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


def figure_crossover(out, points):
    """Left: the bounds' ratio (log n / log log n) / log_s n, above 1 exactly when s > log2 n.
    Middle: steps of the best VCU-only rival / steps of SSCR and block SSCR against n (closed forms
    up to 2^40 when closed_forms.csv exists), Schwartz / SSCR as context. Right: from which n each
    MMU algorithm beats the rival, against the s >= log2 n region."""
    rival = points.get((data.RIVAL, None), {})
    context = points.get((data.CONTEXT, None), {})
    found = summary.crossings(points)
    fig, (theory, left, right) = plt.subplots(1, 3, figsize=(18, 5.2))
    cmap = plt.get_cmap("viridis")
    ss = [s for s in data.CROSS_S if ("sscr", s) in points]
    color = {s: cmap(i / max(1, len(ss) - 1)) for i, s in enumerate(ss)}
    ks = [2 ** (e / 8) for e in range(8, 8 * 9 + 1)]  # log2 n from 2 to 512
    for s in ss:
        theory.plot(ks, [data.bound_vcu(2 ** min(k, 1000)) / (k / math.log2(s)) for k in ks], color=color[s],
                    label=f"s = {s}: crosses 1 at log2 n = {s}")
    theory.axhline(1, color="black", lw=1)
    theory.set_xscale("log", base=2)
    theory.set_xlabel("log2 n (n in elements)")
    theory.set_ylabel("(log2 n / log2 log2 n) / log_s n  (= log2 s / log2 log2 n)")
    theory.set_title("bounds: > 1 where O(log_s n) is below the VCU-only bound")
    theory.legend(fontsize=7, ncol=2)
    theory.grid(alpha=0.3)
    for s in ss:
        for algo, style in (("sscr", "-"), ("block-sscr", "--")):
            by_n = points.get((algo, s), {})
            xs = sorted(n for n in by_n if n in rival)
            if xs:
                left.plot(xs, [rival[n] / by_n[n] for n in xs], style, color=color[s], lw=1.2,
                          label=f"{algo}, s = {s}" if algo == "sscr" or s == ss[-1] else None)
        if s in (16, 128):
            by_n = points.get(("sscr", s), {})
            xs = sorted(n for n in by_n if n in context)
            left.plot(xs, [context[n] / by_n[n] for n in xs], ":", color=color[s], lw=1,
                      label=f"Schwartz (Theta(log n)) / sscr, s = {s} (context)")
    left.axhline(1, color="black", lw=1)
    left.set_xscale("log", base=2)
    left.set_yscale("log", base=2)
    left.set_xlabel("n (elements)")
    left.set_ylabel(f"{data.RIVAL} steps / MMU algorithm steps")
    left.set_title("> 1 where the MMU algorithm takes fewer steps than the best VCU-only scan")
    left.legend(fontsize=6, ncol=2)
    left.grid(alpha=0.3)
    n_top = math.log2(max(rival, default=2))
    right.fill_between(ss, 0, [min(s, n_top) for s in ss], color="tab:green", alpha=0.15,
                       label="s >= log2 n: log_s n below log2 n / log2 log2 n")
    right.plot(ss, [min(s, n_top) for s in ss], ":", color="black", label="log2 n = s")
    for algo, marker in (("sscr", "o"), ("scd", "^"), ("block-sscr", "s")):
        pts = [(s, found[(algo, s)]) for s in ss if found.get((algo, s))]
        right.plot([p[0] for p in pts], [math.log2(p[1]) for p in pts], marker, ms=8, fillstyle="none",
                   label=f"{algo}: fewer steps than the rival from this n on")
    right.set_ylim(0, n_top)
    right.set_xscale("log", base=2)
    right.set_xlabel("s (MMU tile size); no marker: never up to the largest n")
    right.set_ylabel("log2 n (n in elements)")
    right.set_title("crossover against the best VCU-only scan")
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
    labels = [f"{a} (n = {picked[a]['n']})" for a in names]
    fig, (work, steps) = plt.subplots(1, 2, figsize=(13, 0.45 * len(names) + 1.5), sharey=True)
    for ax, mmu_field, vcu_field, title in ((work, "mmu_multiply_adds", "vcu_work_element_ops", "work"),
                                            (steps, "mmu_steps", "vcu_steps", "steps")):
        mmu = [picked[a][mmu_field] / max(1, picked[a][mmu_field] + picked[a][vcu_field]) for a in names]
        ax.barh(labels, mmu, color="tab:orange", label="MMU")
        ax.barh(labels, [1 - m for m in mmu], left=mmu, color="tab:blue", label="VCU")
        ax.set_xlim(0, 1)
        ax.set_xlabel(f"share of {title} (fraction)")
        ax.legend(loc="lower right", fontsize=8)
    fig.suptitle("share of each unit, s = 16, the largest verified n <= 2^16 of each algorithm", fontsize=10)
    work.set_title("MMU multiply-adds vs VCU element ops")
    steps.set_title("MMU steps vs VCU steps")
    fig.tight_layout()
    save(fig, out, "unit_share")


def figure_other(out, floats, products):
    """Steps (top) and work per element (bottom) against n for the algorithms beyond the scans:
    one line per s, with log_s n in the same colour."""
    parts = [("decayed-scan-stable", floats, "n (elements)"), ("decayed-scan-unstable", floats, "n (elements)"),
             ("spmv", floats, "n (nonzeros)"), ("elementwise-product", products, "n (elements)"),
             ("matrix-product", products, "n (matrix side)")]
    parts = [p for p in parts if data.select(p[1], algorithm=p[0])]
    if not parts:
        return
    fig, axes = plt.subplots(2, len(parts), figsize=(4.2 * len(parts), 7.5), squeeze=False)
    cmap = plt.get_cmap("viridis")
    for col, (algo, rows, xlabel) in enumerate(parts):
        mine = data.select(rows, algorithm=algo)
        ss = sorted({r["s"] for r in mine})
        for i, s in enumerate(ss):
            sel = [r for r in mine if r["s"] == s and r["word_bits"] == max(x["word_bits"] for x in mine)]
            color = cmap(i / max(1, len(ss) - 1))
            xs, ys = data.series(sel, "steps")
            axes[0][col].plot(xs, ys, marker=".", color=color, label=f"s = {s}")
            if algo != "elementwise-product":  # its steps depend on B only: O(log_s B)
                axes[0][col].plot(xs, [data.bound_log_s(x, s) for x in xs], ":", color=color, lw=1)
            xs, ys = data.series(sel, "work_total_ops")
            axes[1][col].plot(xs, [y / x for x, y in zip(xs, ys)], marker=".", color=color, label=f"s = {s}")
        axes[0][col].set_title(f"{algo} ({mine[0]['mode']}, B = {max(r['word_bits'] for r in mine)})", fontsize=10)
        axes[0][col].set_ylabel("steps (MMU + VCU instructions)")
        axes[1][col].set_ylabel("work per n (ops: multiply-adds + element ops)")
        axes[1][col].set_yscale("log")
        for row in (0, 1):
            axes[row][col].set_xscale("log", base=2)
            axes[row][col].set_xlabel(xlabel)
            axes[row][col].grid(alpha=0.3)
        axes[0][col].legend(fontsize=7, title=None if algo == "elementwise-product" else "dotted: log_s n",
                            title_fontsize=7)
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = pathlib.Path(__file__).resolve().parent
    parser.add_argument("--out", default=here / "out", type=pathlib.Path)
    parser.add_argument("--results", default=here / "results", type=pathlib.Path)
    parser.add_argument("--gpu-only", action="store_true", help="redraw only the GPU figures and summary.md")
    args = parser.parse_args()
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    gpu_rows = data.read_gpu_bench(args.results) if args.results.exists() else []
    mmu = data.good(data.read_csv(out / "steps_mmu.csv"))
    vcu = data.good(data.read_csv(out / "steps_vcu.csv"))
    floats = data.good(data.read_csv(out / "steps_float.csv"))
    bits = data.good(data.read_csv(out / "bits.csv"))
    closed = data.read_csv(out / "closed_forms.csv")
    if args.gpu_only:
        plot_gpu.draw_all(out, gpu_rows, save)
        summary.write(out, mmu, vcu, floats, bits, gpu_rows, closed)
        return 0
    if mmu or vcu:
        figure_vs_n(out, mmu, vcu, "steps", "steps_vs_n", "steps (MMU + VCU instructions)")
        figure_vs_n(out, mmu, vcu, "depth_steps", "depth_vs_n", "depth (longest dependency chain, steps)")
        figure_vs_n(out, mmu, vcu, "work_total_ops", "work_vs_n", "work per element (ops)", per_element=True)
        figure_crossover(out, data.steps_by_point(closed, mmu, vcu))
    figure_bits(out, bits)
    products = data.good(data.read_csv(out / "products.csv"))
    figure_other(out, data.ran(data.read_csv(out / "steps_float.csv")), products)
    picked = summary.pick_for_share(mmu + vcu + floats + bits + products)
    if picked:
        figure_unit_share(out, picked)
    figure_density(out, data.good(data.read_csv(out / "density.csv")))
    plot_gpu.draw_all(out, gpu_rows, save)
    summary.write(out, mmu, vcu, floats, bits, gpu_rows, closed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
