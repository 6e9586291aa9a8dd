"""The GPU figures, drawn from the rows of `mmvram-gpu-bench/1` JSON files (mmvram_data.read_gpu_bench):
no GPU is needed, and nothing here knows how the numbers were measured.

- gpu_throughput_vs_density: G items/s against segment density for every segmented-scan and
  segmented-sum kernel (ours bold, CUB, CCCL and the CUDA-core baselines dashed), with the copy
  and read-only ceilings (each bandwidth divided by the operation's byte floor per item).
- gpu_scan_throughput: the unsegmented scan (MatMulScan against CUB InclusiveSum) beside the same
  ceilings.
"""
import matplotlib.pyplot as plt

# Distributions drawn as one line against density; the others (pareto, fixed) are in summary.md.
DENSITY_FAMILIES = ("geometric", "one_segment", "all_length_1")


def ceilings(gpu_rows, gpu, dtype, bytes_per_item):
    """[(G items/s, label, style)]: the operation's byte floor moved at the device copy's and at the
    read-only reduction's bandwidth (a read-only kernel goes faster than a copy)."""
    out = []
    for op, name, style in (("copy", "copy", ":"), ("reduce", "read-only", "-.")):
        rows = [r for r in gpu_rows if r["gpu"] == gpu and r["operation"] == op and r["dtype"] == dtype
                and r.get("bandwidth_gb_per_s")]
        if rows and bytes_per_item:
            bw = rows[0]["bandwidth_gb_per_s"]
            out.append((bw / bytes_per_item, f"{name} ceiling: {bw:.0f} GB/s / {bytes_per_item} B per item", style))
    return out


def figure_density(out, gpu_rows, save):
    """One panel per (GPU, operation, dtype): throughput against density, every kernel."""
    seg = [r for r in gpu_rows if r.get("operation") in ("segmented_scan", "segmented_sum")]
    if not seg:
        return
    groups = sorted({(r["gpu"], r["operation"], r["dtype"]) for r in seg})
    rows_n = (len(groups) + 1) // 2
    fig, axes = plt.subplots(rows_n, 2, figsize=(13, 4.5 * rows_n), squeeze=False)
    for ax in axes.flatten()[len(groups):]:
        ax.set_visible(False)
    for ax, (gpu, op, dtype) in zip(axes.flatten(), groups):
        rows = [r for r in seg if (r["gpu"], r["operation"], r["dtype"]) == (gpu, op, dtype)
                and r.get("distribution_family") in DENSITY_FAMILIES]
        for kernel in sorted({r["kernel"] for r in rows}):
            mine = [r for r in rows if r["kernel"] == kernel]
            pts = sorted((r["segment_density"], r["throughput_gitems_per_s"]) for r in mine)
            ours = any(r.get("family") == "ours" for r in mine)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "-o" if ours else "--.", lw=2.2 if ours else 1,
                    label=f"{kernel} ({mine[0].get('family', '?')})")
        for value, label, style in ceilings(gpu_rows, gpu, dtype, rows[0].get("bytes_per_item") if rows else None):
            ax.axhline(value, color="black", lw=1, ls=style, label=label)
        ax.set_xscale("log")
        ax.set_xlabel("segment density (segments per element; one segment = 1/n)")
        ax.set_ylabel("throughput (G items/s)")
        n = rows[0]["n"] if rows else 0
        ax.set_title(f"{gpu}: {op}, {dtype}, n = {n:,}")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    save(fig, out, "gpu_throughput_vs_density")


def figure_scan(out, gpu_rows, save):
    """Bars: the unsegmented scan kernels per (GPU, dtype), with the copy ceiling."""
    scans = [r for r in gpu_rows if r.get("operation") == "scan"]
    if not scans:
        return
    groups = sorted({(r["gpu"], r["dtype"]) for r in scans})
    fig, axes = plt.subplots(1, len(groups), figsize=(4.5 * len(groups), 4), squeeze=False)
    for ax, (gpu, dtype) in zip(axes[0], groups):
        rows = sorted((r for r in scans if (r["gpu"], r["dtype"]) == (gpu, dtype)), key=lambda r: r["kernel"])
        colors = ["tab:green" if r.get("family") == "ours" else "tab:gray" for r in rows]
        ax.bar([r["kernel"] for r in rows], [r["throughput_gitems_per_s"] for r in rows], color=colors)
        for value, label, style in ceilings(gpu_rows, gpu, dtype, rows[0].get("bytes_per_item")):
            ax.axhline(value, color="black", lw=1, ls=style, label=label)
            ax.legend(fontsize=7, loc="lower right")
        ax.set_ylabel("throughput (G items/s)")
        ax.set_title(f"{gpu}\nunsegmented scan, {dtype}, n = {rows[0]['n']:,}", fontsize=9)
        ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    save(fig, out, "gpu_scan_throughput")


def draw_all(out, gpu_rows, save):
    """Every GPU figure that the rows allow (none when there are no rows)."""
    figure_density(out, gpu_rows, save)
    figure_scan(out, gpu_rows, save)
