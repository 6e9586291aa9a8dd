"""Loading the numbers the plots draw: the CSVs of `mmvram sweep`/`run --format csv` (schema in
docs/tool.md) and the GPU JSON of `mmvram kernels bench` (schema in docs/kernels.md); reading run
reports and writing CSV rows for the breakdown scripts. Nothing here knows how the numbers were
produced."""
import csv
import json
import math
import pathlib
import sys

INT_COLUMNS = {
    "word_bits", "s", "n", "seed", "segments", "steps", "mmu_steps", "vcu_steps", "depth_steps",
    "mmu_tile_products", "mmu_multiply_adds", "vcu_work_element_ops", "work_total_ops", "words_read",
    "words_written", "scalar_ops", "output_length", "bigbird_block", "bigbird_random",
}
FLOAT_COLUMNS = {"density", "max_abs_error", "tolerance", "wall_time_s"}

# The best VCU-only rival: O(log n / log log n) steps with the iterated-addition instructions the
# lower bound's AC[0] circuits allow (docs/lower_bound.md); Schwartz is the Theta(log n) context.
RIVAL = "iterated-addition-segmented-scan"
CONTEXT = "schwartz-segmented-scan"
CROSS_S = [2 ** k for k in range(1, 11)]  # s of the crossover: 2 .. 1024


def vcu_only(rows):
    """Names of the algorithms that never use the MMU: no row of theirs counts an MMU step (the
    sweeps' CSVs and closed_forms.csv both carry mmu_steps). Their counts do not depend on s."""
    return {r["algorithm"] for r in rows} - {r["algorithm"] for r in rows if r.get("mmu_steps")}


def segmented(rows):
    """Names of the algorithms that read segment flags: some row of theirs counts more than one
    segment (an input without flags is one segment)."""
    return {r["algorithm"] for r in rows if (r.get("segments") or 0) > 1}


def number(v):
    """A CSV cell as a float; None when empty or not a number."""
    try:
        return float(v) if v not in ("", None) else None
    except ValueError:
        return None


def _convert(row):
    out = {}
    for key, value in row.items():
        if key in INT_COLUMNS:
            out[key] = int(value) if value not in ("", None) else None
        elif key in FLOAT_COLUMNS:
            out[key] = float(value) if value not in ("", None) else None
        elif key in ("verified", "prediction_matches"):
            out[key] = value == "true"
        else:
            out[key] = value
    return out


def read_csv(path):
    """Rows of one CSV as dicts with numbers converted; [] when the file is missing."""
    path = pathlib.Path(path)
    if not path.exists():
        return []
    with path.open(newline="") as f:
        return [_convert(r) for r in csv.DictReader(f)]


def good(rows):
    """Rows that ran to the end and verified."""
    return [r for r in rows if r.get("verified") and not r.get("error")]


def counted(row):
    """True when the row ran to the end: no error, or a float overflow (its counts are kept)."""
    return not row.get("error") or str(row["error"]).startswith("float overflow")


def ran(rows):
    """Rows that ran to the end (their counts are valid even where the result did not verify)."""
    return [r for r in rows if counted(r)]


def select(rows, **where):
    """Rows whose fields equal every keyword; sorted by n."""
    picked = [r for r in rows if all(r.get(k) == v for k, v in where.items())]
    return sorted(picked, key=lambda r: (r["n"], r.get("s", 0)))


def series(rows, y, x="n"):
    """(xs, ys) of one field against another, skipping missing values."""
    pts = [(r[x], r[y]) for r in rows if r.get(x) is not None and r.get(y) is not None]
    return [p[0] for p in pts], [p[1] for p in pts]


def bound_log_s(n, s):
    return math.log(n) / math.log(s) if n > 1 else 0.0


def bound_vcu(n):
    """log2 n / log2 log2 n: the VCU-only lower bound's shape (constant factor 1)."""
    if n < 4:
        return 1.0
    return math.log2(n) / math.log2(math.log2(n))


def steps_by_point(closed, mmu, vcu):
    """(algorithm, s) -> {n: steps}: the closed forms of `mmvram closed-forms` (closed_forms.csv) when
    present, else the sweeps' ledger counts. VCU-only algorithms are keyed with s = None."""
    table, rows = {}, closed or (mmu + vcu)
    no_mmu = vcu_only(rows)
    for r in rows:
        s = None if r["algorithm"] in no_mmu else r["s"]
        table.setdefault((r["algorithm"], s), {})[r["n"]] = r["steps"]
    return table


def closed_form_agreement(closed, mmu, vcu):
    """(points a sweep and the closed forms share, the (algorithm, n, s) among them whose steps or
    depth differ): the closed forms must equal the ledger wherever both exist."""
    forms = {(r["algorithm"], r["n"], r["s"]): (r["steps"], r["depth_steps"]) for r in closed}
    shared, differ = 0, []
    for r in mmu + vcu:
        key = (r["algorithm"], r["n"], r["s"])
        if key in forms:
            shared += 1
            if forms[key] != (r["steps"], r["depth_steps"]):
                differ.append(key)
    return shared, differ


def read_gpu_bench(results_dir):
    """Rows of every `mmvram-gpu-bench/1` JSON in results_dir, each with its file's GPU name.
    Runs on unaligned pointers (pointer_offset_items > 0) are left out: they measure the cost of
    misalignment, not the kernels, and docs/gpu_matrix_unit.md reports them. So are runs at a
    smaller n than the largest stored for the same GPU (the small-n latency runs). Where several
    files hold the same (GPU, kernel, dtype, distribution), the row of the run with the most rows
    is kept (the full run, which timed the rivals beside ours); a partial run such as the
    ablation's adds only the kernels the full run lacks."""
    docs = []
    for path in sorted(pathlib.Path(results_dir).glob("*.json")):
        try:
            doc = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if not isinstance(doc, dict) or doc.get("schema") != "mmvram-gpu-bench/1":
            continue
        if doc.get("pointer_offset_items", 0):
            continue
        docs.append((path, doc, doc.get("gpu", {}).get("name", path.stem)))
    largest = {}
    for _, doc, gpu in docs:
        largest[gpu] = max(largest.get(gpu, 0), doc.get("n", 0))
    kept = {}
    for path, doc, gpu in docs:
        if doc.get("n", 0) != largest[gpu]:
            continue
        for r in doc.get("rows", []):
            if "error" not in r and r.get("throughput_gitems_per_s") is not None:
                key = (gpu, r.get("kernel"), r.get("dtype"), r.get("distribution"))
                rank = (len(doc.get("rows", [])), doc.get("date_utc", ""))
                if key not in kept or rank > kept[key][0]:
                    kept[key] = (rank, dict(r, gpu=gpu, source=path.name))
    return [row for _, row in kept.values()]


# The held-out protocol (docs/prediction.md, "The held-out protocol"): what each executor's runs
# are held against. in-order: one host thread issuing into one stream (queued prediction, the
# interleaved profile); graph: the run's instructions captured and replayed as CUDA graphs (serial
# sum, the device-only profile); dag: the ledger's DAG on several streams (longest path, the same
# profile). measured_span_ns is the in-order span, and the graphs' summed device time otherwise.
EXECUTORS = {"in-order": {"predicted": "predicted_queued_ns", "profile": "profile_{gpu}.json"},
             "graph": {"predicted": "predicted_serial_ns", "profile": "profile_{gpu}_graph.json"},
             "dag": {"predicted": "predicted_dag_ns", "profile": "profile_{gpu}_graph.json"}}
HELDOUT_MEASURED = "measured_span_ns"
# The held-out range (n up to 2^27, s up to 128) reaches about 1.3e11 simulated operations (SCD at
# n = 2^27, s = 128), past the tool's default work limit of 2^36, which guards interactive runs.
HELDOUT_WORK_LIMIT = "2^39"


def heldout_env():
    """The environment of a tool run on a held-out point: this one, with the work limit raised to
    HELDOUT_WORK_LIMIT where MMVRAM_WORK_LIMIT does not set one."""
    import os
    return dict(os.environ, MMVRAM_WORK_LIMIT=os.environ.get("MMVRAM_WORK_LIMIT", HELDOUT_WORK_LIMIT))


def uses_mmu(entry):
    """True for a registry entry (`mmvram list --format json`) whose algorithm uses the MMU."""
    return "MMU" in entry["units"]


def rival_candidates(registry):
    """{MMU algorithm: [VCU-only algorithms of the same input]} from `mmvram list --format json`:
    an MMU algorithm without such a rival in the registry is left out."""
    vcu = [e for e in registry if not uses_mmu(e)]
    out = {}
    for e in registry:
        if uses_mmu(e):
            rivals = [v["name"] for v in vcu if v["input"] == e["input"]]
            if rivals:
                out[e["name"]] = rivals
    return out


def best_rival(candidates, steps_at_n):
    """The candidate with the fewest steps at one n (steps_at_n: {algorithm: steps}, from the
    closed forms); ties go to the earlier candidate in registry order."""
    return min(candidates, key=lambda a: (steps_at_n[a], candidates.index(a)))


def rows_of_reports(paths, rows_of, tool):
    """The rows `rows_of` (a function of one parsed JSON report, returning a list; ValueError,
    KeyError or TypeError on a bad report) makes of each file in `paths`, in order; None after
    printing one line naming `tool` when a file cannot be read or is refused."""
    rows = []
    for path in paths:
        try:
            with open(path) as f:
                rows += rows_of(json.load(f))
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"{tool}: {path}: {e}", file=sys.stderr)
            return None
    return rows


def write_rows(path, columns, rows, tool):
    """Writes `rows` (dicts) as a CSV with the header `columns`; 0, or 1 after printing one line
    naming `tool` when the file cannot be written."""
    try:
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=columns)
            w.writeheader()
            w.writerows(rows)
    except OSError as e:
        print(f"{tool}: cannot write {path}: {e}", file=sys.stderr)
        return 1
    return 0
