"""The state-passing figures and table, drawn from stored results only (no GPU needed).

State passing: the inter-chunk state propagation of chunked linear attention over packed
variable-length sequences (docs/state_passing.md).

Reads experiments/results/state_passing_<GPU>.json (`experiments/state_passing_mve.py`) and
writes into --out:
- state_passing_vs_variance: useful states/s against the spread of sequence lengths (std/mean of
  the token counts) for mmvram's methods, the per-sequence grid, padding to the longest sequence
  and mamba_ssm's `_state_passing_fwd`, with the copy ceiling (copy bandwidth / 8 bytes a state);
- state_passing_mve: the median times (min–max as error bars), fp32 and bf16, of the minimum
  viable experiment (MVE: one packed batch of 32 sequences with LogNormal(7, 1) token counts,
  64-token chunks, 32 heads, a 16 x 64 state per head);
- a "State passing" section appended to summary.md: the MVE table and the study's criteria
  met or missed (docs/state_passing.md).
usage: experiments/plot_state_passing.py [--out experiments/out] [--results experiments/results]
"""
import argparse
import json
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LINES = [("mmvram_cuda_core", "mmvram, CUDA cores (flag-based, serial per lane)", "-", "o"),
         ("mmvram_tensor_core", "mmvram, tensor cores (masked exp(segsum))", "-", "s"),
         ("mmvram_tensor_core_speculative", "mmvram, tensor cores, speculative + repair", "-", "^"),
         ("mmvram_per_sequence_loop", "per-sequence grid (CUDA cores)", "--", "v"),
         ("padded_to_longest_cuda_core", "padded to the longest (CUDA cores)", ":", "x"),
         ("mamba_state_passing_fwd", "mamba_ssm _state_passing_fwd (per-head decay)", "-.", "D")]


def load(results):
    docs = [(p.stem[len("state_passing_"):], json.loads(p.read_text())) for p in sorted(results.glob("state_passing_*.json"))]
    return [(gpu, doc) for gpu, doc in docs if doc.get("schema") == "mmvram-state-passing/1"]


def spread(doc, config):
    c = doc["criteria"][config]
    return c["length_std_tokens"] / c["length_mean_tokens"]


def figure_variance(out, gpu, doc):
    configs = sorted((c for c in doc["criteria"] if c.startswith("sigma_") or c == "mve"), key=lambda c: spread(doc, c))
    fig, ax = plt.subplots(figsize=(8, 5))
    for impl, label, style, marker in LINES:
        pts = [(spread(doc, c), r["useful_states_per_s"] / 1e9) for c in configs for r in doc["rows"]
               if r["config"] == c and r["implementation"] == impl and r["dtype"] == "fp32"]
        if pts:
            ax.plot(*zip(*pts), style, marker=marker, label=label)
    ceiling = [(spread(doc, c), doc["copy"][c]["gb_per_s"] / 8) for c in configs]
    ax.plot(*zip(*ceiling), color="grey", lw=3, alpha=0.4, label="copy ceiling (8 B a state, fp32)")
    ax.set_xlabel("spread of sequence lengths (std / mean of the token counts; 32 sequences)")
    ax.set_ylabel("useful states / s (G), fp32")
    ax.set_yscale("log")
    ax.set_title(f"State propagation over packed sequences, H={doc['shape']['heads']}, N={doc['shape']['rows']}, "
                 f"V={doc['shape']['cols']} ({gpu})", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(out / f"state_passing_vs_variance.{ext}")
    plt.close(fig)


def figure_mve(out, gpu, doc):
    rows = [r for r in doc["rows"] if r["config"] == "mve"]
    fig, ax = plt.subplots(figsize=(9, 5))
    labels = [f"{r['implementation']} ({r['dtype']})" for r in rows]
    med = [r["median_us"] for r in rows]
    err = [[r["median_us"] - r["min_us"] for r in rows], [r["max_us"] - r["median_us"] for r in rows]]
    ax.barh(range(len(rows)), med, xerr=err, color=["C0" if r["implementation"].startswith("mmvram") else "C1" for r in rows])
    ax.set_yticks(range(len(rows)), labels, fontsize=7)
    ax.axvline(doc["copy"]["mve"]["median_us"], color="grey", ls="--", label="copy of the local states (fp32)")
    ax.set_xlabel("median time (µs), min–max bars")
    ax.set_title(f"State passing, minimum viable experiment: G = {rows[0]['chunks']} chunks, {rows[0]['sequences']} sequences ({gpu})", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(out / f"state_passing_mve.{ext}")
    plt.close(fig)


def summary(gpu, doc):
    lines = [f"\n## State passing: state propagation over packed sequences ({gpu}, torch {doc['torch']})\n",
             f"Rivals: mamba {doc['rivals']['mamba']}; fla {doc['rivals']['fla']}.\n",
             "| config | implementation | dtype | median µs | useful G states/s | % of copy | max abs error |",
             "|---|---|---|---|---|---|---|"]
    for r in doc["rows"]:
        if r["config"] not in ("mve", "g8192", "s1024_short"):
            continue
        err = "" if r["max_abs_error"] is None else f"{r['max_abs_error']:.1e}"
        lines.append(f"| {r['config']} | {r['implementation']} | {r['dtype']} | {r['median_us']:.1f} | "
                     f"{r['useful_states_per_s'] / 1e9:.1f} | {r['percent_of_copy']:.0f} | {err} |")
    lines += ["", "| config | criterion | value |", "|---|---|---|"]
    for config in ("mve", "g8192", "s1024_short"):
        for k, v in doc["criteria"].get(config, {}).items():
            lines.append(f"| {config} | {k} | {v:.3g} |" if isinstance(v, float) else f"| {config} | {k} | {v} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = pathlib.Path(__file__).resolve().parent
    ap.add_argument("--out", default=str(here / "out"))
    ap.add_argument("--results", default=str(here / "results"))
    args = ap.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    docs = load(pathlib.Path(args.results))
    text = ""
    for gpu, doc in docs:
        figure_variance(out, gpu, doc)
        figure_mve(out, gpu, doc)
        text += summary(gpu, doc)
    with open(out / "summary.md", "a") as f:
        f.write(text or "\n## State passing\n\nNo stored state_passing_*.json results.\n")
    print(f"plot_state_passing.py: {len(docs)} result file(s) drawn into {out}")


if __name__ == "__main__":
    main()
