"""Shared by the docs' result tables (results_tables.py, tables_kernels.py, tables_runs.py): where
the stored results are, their loader, and the cells and Markdown tables they are printed as."""
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
RESULTS = ROOT / "experiments" / "results"

# The segment-length distributions the tables show, in the docs' column order.
DISTS = [("one_segment", "one segment"), ("geometric:1048576", "mean 1M"),
         ("geometric:32768", "mean 32K"), ("geometric:1024", "mean 1K"),
         ("geometric:32", "mean 32"), ("all_length_1", "all length 1")]


def load(name):
    with open(RESULTS / name) as f:
        return json.load(f)


def fused(doc):
    """{fused kernel: {kernel: "V0".."V3"}} of a bench run, from its rows' family and variant fields:
    the fused kernels are family "ours" (in the run's order), their variants every row of the same
    operation that names a variant (v1_tensor_cores -> V1), in variant order."""
    out, by_operation = {}, {}
    for r in doc["rows"]:
        if r.get("family") == "ours":
            out.setdefault(r["kernel"], {})
            by_operation[r["operation"]] = r["kernel"]
    for r in doc["rows"]:
        if r.get("variant") and r.get("operation") in by_operation:
            out[by_operation[r["operation"]]][r["kernel"]] = r["variant"].split("_")[0].upper()
    return {k: dict(sorted(v.items(), key=lambda kv: kv[1])) for k, v in out.items()}


def num(v):
    """G items/s as the docs print them: one decimal below 10, else whole."""
    return f"{v:.1f}" if v < 10 else f"{v:.0f}"


def grouped(v):
    return f"{v:,.0f}"


def source(name, doc, extra=""):
    gpu = doc["gpu"]["name"] if isinstance(doc.get("gpu"), dict) else doc.get("gpu", "")
    date = doc.get("date_utc", doc.get("date", ""))[:10]
    parts = [p for p in (gpu, f"run of {date}" if date else "", extra) if p]
    return f"From `experiments/results/{name}` ({', '.join(parts)})."


def bench_rows(doc, dtype):
    rows = {}
    for r in doc["rows"]:
        if r["dtype"] == dtype and "error" not in r:
            rows[(r["kernel"], r["distribution"])] = r
    return rows


def dist_cells(rows, kernel, field="throughput_gitems_per_s", fmt=num):
    if (kernel, "none") in rows:  # unsegmented: one value, under "one segment"
        return [fmt(rows[(kernel, "none")][field]) + " (unsegmented)"] + [""] * (len(DISTS) - 1)
    return [fmt(rows[(kernel, d)][field]) if (kernel, d) in rows else "" for d, _ in DISTS]


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)
