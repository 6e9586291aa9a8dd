"""The multi-GPU figures, drawn from stored results only (no GPU needed).

Reads experiments/results/multi_gpu_<GPU>_x<count>.json (`mmvram kernels multi-gpu`) and
state_passing_distributed_<GPU>_x<count>.json (`experiments/state_passing_distributed.py`) and
writes into --out:
- multi_gpu_scaling: per-GPU throughput of each sharded kernel against the single-GPU kernel at
  the same items per GPU (weak scaling), with the 90% target and the 50% a second pass over the
  shard allows (docs/multi_gpu.md);
- state_passing_distributed: the split batch's time per cut for one GPU, the distributed op,
  gather-to-rank-0 and the local op alone.
usage: experiments/plot_multi_gpu.py [--out experiments/out] [--results experiments/results]
"""
import argparse
import json
import pathlib
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def scaling(results, out):
    for path in sorted(results.glob("multi_gpu_*.json")):
        if not re.fullmatch(r"multi_gpu_[A-Za-z0-9]+_x\d+\.json", path.name):
            continue  # another record of the runs (an ncu profile), not a scaling run
        doc = json.loads(path.read_text())
        rows = doc["results"]
        labels = [f"{r['op']}\n{r['dtype']} {r['distribution']}\n2^{r['n_per_gpu'].bit_length() - 1}/GPU" for r in rows]
        values = [100 * r["per_gpu_throughput_vs_single"] for r in rows]
        fig, ax = plt.subplots(figsize=(max(8, 0.7 * len(rows)), 4.5))
        ax.bar(range(len(rows)), values, color=["C0" if v >= 90 else "C3" for v in values])
        ax.axhline(90, color="k", ls="--", lw=1, label="target: 90% of the single-GPU kernel")
        ax.axhline(50, color="gray", ls=":", lw=1, label="one more pass over the shard (carry into every item)")
        ax.set_xticks(range(len(rows)), labels, fontsize=6, rotation=90)
        ax.set_ylabel("per-GPU throughput vs one GPU (%)")
        ax.set_ylim(0, 110)
        ax.set_title(f"Sharded kernels, {doc['gpu']['count']} x {doc['gpu']['name']} (weak scaling)")
        ax.legend(fontsize=7, loc="lower right")
        fig.tight_layout()
        stem = "multi_gpu_scaling_" + path.stem[len("multi_gpu_"):]
        for ext in ("png", "svg"):
            fig.savefig(out / f"{stem}.{ext}")
        plt.close(fig)


def state_passing(results, out):
    for path in sorted(results.glob("state_passing_distributed_*.json")):
        doc = json.loads(path.read_text())
        rows = doc["results"]
        methods = [m for m in ("one_gpu", "distributed", "gather", "local_only") if m in rows[0]]
        fig, ax = plt.subplots(figsize=(8, 4.5))
        width = 0.8 / len(methods)
        for k, m in enumerate(methods):
            ax.bar([i + k * width for i in range(len(rows))], [r[m]["median_us"] for r in rows], width, label=m)
        cuts = [" + ".join(str(b - a) for a, b in zip(r["chunk_cuts"], r["chunk_cuts"][1:])) for r in rows]
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(rows))], cuts, fontsize=7)
        ax.set_xlabel("chunks per rank")
        ax.set_ylabel("median time (µs)")
        ax.set_title(f"State passing split across {doc['gpus']} x {doc['gpu']}")
        ax.legend(fontsize=7)
        fig.tight_layout()
        stem = "state_passing_distributed_" + path.stem[len("state_passing_distributed_"):]
        for ext in ("png", "svg"):
            fig.savefig(out / f"{stem}.{ext}")
        plt.close(fig)


def main():
    p = argparse.ArgumentParser()
    root = pathlib.Path(__file__).resolve().parent
    p.add_argument("--out", default=str(root / "out"))
    p.add_argument("--results", default=str(root / "results"))
    a = p.parse_args()
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    scaling(pathlib.Path(a.results), out)
    state_passing(pathlib.Path(a.results), out)


if __name__ == "__main__":
    main()
