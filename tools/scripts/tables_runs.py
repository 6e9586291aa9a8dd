"""The docs' tables of whole runs: GPU suites, multi-GPU and distributed state passing, the
held-out prediction and the fused-kernel model (results_tables.py assembles them)."""
import csv
import json
import sys

from results_common import RESULTS, ROOT, load, source, table


def t_suites(_):
    """Per GPU: the recorded GPU suite (gpu_suite_<GPU>.json) and the soak (gpu_stress_soak_<GPU>.json)."""
    body = []
    for path in sorted(RESULTS.glob("gpu_suite_*.json")):
        suite = json.loads(path.read_text())
        gpu = path.stem[len("gpu_suite_"):]
        by = {x["suite"]: x for x in suite["suites"]}
        passed = sum(1 for x in suite["suites"] if x["pass"])
        check = by.get("check_quick", {}).get("counts", {})
        sp = by.get("gpu_state_passing", {}).get("counts", {}).get("assertions")
        be = by.get("gpu_backends", {}).get("counts", {}).get("assertions")
        suite_cell = (f"{passed} of {len(suite['suites'])} suites pass; assertions: {sp:,} state passing, "
                      f"{be:,} `[backends]`; check `--quick`: {check.get('PASS', 0):,} PASS, "
                      f"{check.get('FAIL', 0):,} FAIL ({check.get('documented_inaccuracy_failures', 0):,} of them "
                      f"V3's documented inaccuracy), {check.get('beyond_derivation', 0)} beyond V3's derived bound; "
                      f"Catch2 stress {suite['stress_seconds']} s")
        alg = by.get("check_algorithms", {}).get("counts")
        if alg:
            suite_cell += (f"; check ALGO: {alg['paths_pass']} paths PASS, {alg['paths_fail']} FAIL, "
                           f"{alg['documented_inaccuracy']} V3 documented inaccuracy")
        soak_path = RESULTS / f"gpu_stress_soak_{gpu}.json"
        soak_cell = ""
        if soak_path.exists():
            soak = json.loads(soak_path.read_text())
            backend = soak["by_kernel"].get("cuda_backend", {}).get("cases", 0)
            soak_cell = (f"{soak['seconds']:.0f} s, {soak['cases']:,} cases ({backend:,} backend comparisons), "
                         f"{soak['failures']} failures; commit {soak['commit'][:7]}")
        count = gpu.rpartition("_x")[2] if "_x" in gpu else ""
        body.append([suite["gpu"] + (f" × {count}" if count else ""), suite["commit"][:7] + (" (dirty)" if suite["dirty"] else ""),
                     suite["driver"], suite_cell, soak_cell])
    return ("From `experiments/results/gpu_suite_<GPU>.json` and `gpu_stress_soak_<GPU>.json`.\n\n" +
            table(["GPU", "commit", "driver", "suite", "soak"], body))


def t_multi_gpu(arg):
    """The sharded kernels at weak scaling (multi_gpu_<GPU>_x<count>.json, `mmvram kernels multi-gpu`)."""
    name = f"multi_gpu_{arg}.json"
    doc = load(name)
    body = [[r["op"], r["dtype"], r["distribution"], f"2^{r['n_per_gpu'].bit_length() - 1}",
             f"{r['single_gpu_ms']:.3f}", f"{r['sharded_ms']:.3f}", f"{100 * r['per_gpu_throughput_vs_single']:.1f}%",
             f"{r['exchange_ms'] * 1000:.0f}", f"{100 * r['exchange_share']:.1f}%", r["check"]] for r in doc["results"]]
    dirty = " (built from a dirty tree)" if doc.get("commit_dirty") else ""
    return (source(name, doc, f"{doc['gpu']['count']} GPUs, commit {doc['commit'][:7]}{dirty}") + "\n\n" +
            table(["op", "dtype", "starts", "items per GPU", "1 GPU (ms)", "sharded (ms)", "per-GPU throughput",
                   "all-gather alone (µs)", "all-gather / sharded", "check"], body))


def t_state_passing_distributed(arg):
    """State passing at the MVE split across ranks (state_passing_distributed_<GPU>_x<count>.json)."""
    name = f"state_passing_distributed_{arg}.json"
    doc = load(name)
    body = []
    for r in doc["results"]:
        cuts = r["chunk_cuts"]
        sizes = " + ".join(str(b - a) for a, b in zip(cuts, cuts[1:]))
        body.append([r.get("config", "mve"), f"{r['chunks']:,}", sizes] + [f"{r[m]['median_us']:.0f}" if m in r else "not run"
                               for m in ("one_gpu", "distributed", "gather", "local_only")] +
                    [", ".join(sorted({r[m]["check"] for m in ("one_gpu", "distributed", "gather")}))])
    return (source(name, doc, f"{doc['gpus']} GPUs, commit {doc['commit'][:7]}, chunks of "
                              f"{doc['shape']['chunk_tokens']} tokens") + "\n\n" +
            table(["batch", "chunks", "chunks per rank", "one GPU (µs)", "distributed (µs)", "gather to rank 0 (µs)",
                   "local op only (µs)", "check"], body))


def t_heldout(arg):
    """The held-out points of one GPU per executor, every point counted (experiments/prediction_summary.py);
    arg is GPU or GPU:FOLDER, an earlier draw kept in experiments/results/heldout/FOLDER/."""
    sys.path.insert(0, str(ROOT / "experiments"))
    import prediction_summary
    gpu, _, folder = arg.partition(":")
    name = f"heldout/{folder + '/' if folder else ''}heldout_{gpu}.csv"
    if not (RESULTS / name).exists():
        return (f"No held-out run of the {gpu} is stored yet (`experiments/gpu_prediction.sh experiments/results/heldout "
                f"quick` on that GPU writes `experiments/results/{name}`).")
    with open(RESULTS / name) as f:
        rows = list(csv.DictReader(f))
    return f"From `experiments/results/{name}`. " + prediction_summary.markdown(prediction_summary.summarize(rows, gpu))


# The fused-kernel model's columns (experiments/fused_model.py): segment lengths by mean, then family.
FUSED_DISTS = [("one_segment", "one segment")] + [
    (f"{fam}:{mean}", f"{label} {short}") for mean, short in (("1048576", "1M"), ("32768", "32K"), ("1024", "1K"), ("32", "32"))
    for fam, label in (("fixed", "fixed"), ("geometric", "geo"), ("pareto", "pareto"))] + [("all_length_1", "length 1")]


def t_fused_prediction(gpu):
    """Fused kernels: the model's time beside every measured point (fused_prediction_<GPU>.json)."""
    name = f"fused_prediction_{gpu}.json"
    doc = load(name)
    m, s = doc["model"], doc["summary"]
    col = lambda d: "one_segment" if d == "none" else d
    ms = lambda v: f"{v:.3f}"
    body, seen = [], set()
    for p in doc["points"]:
        key = (p["operation"], p["dtype"])
        if key not in seen:  # the model's row: one time per operation, dtype and distribution
            seen.add(key)
            cells = {col(q["distribution"]): ms(q["predicted_ms"]) for q in doc["points"]
                     if (q["operation"], q["dtype"]) == key}
            body.append((key, "", [f"**{p['operation']}**", "model", p["dtype"]] +
                         [cells.get(d, "") for d, _ in FUSED_DISTS]))
        row = next((b for b in body if b[1] == (p["file"], p["kernel"], p["dtype"])), None)
        if row is None:
            run = "ablation" if "ablation" in p["file"] else "bench"
            row = (key, (p["file"], p["kernel"], p["dtype"]), [f"`{p['kernel']}` ({run})", p["variant"], p["dtype"]] +
                   [""] * len(FUSED_DISTS))
            body.append(row)
        row[2][3 + [d for d, _ in FUSED_DISTS].index(col(p["distribution"]))] = \
            f"{ms(p['measured_ms'])} ({100 * p['relative_error']:+.0f}%)"
    order = {k: i for i, k in enumerate(dict.fromkeys(b[0] for b in body))}
    body.sort(key=lambda b: (order[b[0]], b[1] != "", b[1]))
    bw = m["bandwidth_gb_per_s"]["f32"]
    hop = ", ".join(f"{op} {v:.2f}" for op, v in m["hop_us"].items())
    return (f"From `experiments/results/{name}` ({doc['gpu']}; runs {', '.join(r['file'] for r in doc['runs'])}). "
            f"Model rows: predicted ms; the others: measured ms (error of the prediction). Read {bw['read_gb_per_s']:.0f} "
            f"and write {bw['write_gb_per_s']:.0f} GB/s (fp32, from `{m['bandwidth_from']}`), launch "
            f"{m['launch_us']:.2f} µs and hop {hop} µs (from `{m['latency_from'][0]}` and `{m['latency_from'][1]}`), "
            f"{m['lookback_window_tiles']} tiles per look-back step. {s['within_band']} of {s['points']} points within "
            f"±{100 * doc['band_relative']:.0f}%, median |error| {100 * s['median_abs_relative_error']:.1f}%.\n\n" +
            table(["kernel", "variant", "dtype"] + [h for _, h in FUSED_DISTS], [b[2] for b in body]))


def t_fused_prediction_summary(_):
    """Fused kernels: the model's points within ±15% per GPU, kernel and variant (every fused_prediction_<GPU>.json)."""
    body = []
    for path in sorted(RESULTS.glob("fused_prediction_*.json")):
        doc = json.loads(path.read_text())
        groups = {}
        for p in doc["points"]:
            groups.setdefault((p["operation"], p["variant"]), []).append(p["relative_error"])
        for (op, v), errs in sorted(groups.items()):
            inside = sum(abs(e) <= doc["band_relative"] for e in errs)
            body.append([doc["gpu"], op, v, str(len(errs)), str(inside), f"{100 * min(errs):+.1f}% to {100 * max(errs):+.1f}%"])
    return ("From `experiments/results/fused_prediction_<GPU>.json` (`experiments/fused_model.py`).\n\n" +
            table(["GPU", "operation", "variant", "points", "within ±15%", "error range"], body))


def t_state_passing_sweep(gpu):
    """`mmvram kernels state-passing --seed 8` over the spread of the token counts (--sigma; the
    MVE is sigma 1): the packed CUDA-core chain against the per-sequence grid, µs and % of copy."""
    files = [(s, f"state_passing_bench_sigma{s}_{gpu}.json") for s in ("0", "0.5")]
    files += [("1", f"state_passing_bench_{gpu}.json")]
    files += [(s, f"state_passing_bench_sigma{s}_{gpu}.json") for s in ("1.5", "2")]
    body, doc, commits = [], None, []
    for sigma, name in files:
        if not (RESULTS / name).exists():
            continue
        doc = load(name)
        commits.append(doc["commit"][:7])
        rows = {(r["method"], r["dtype"]): r for r in doc["rows"]}
        cell = lambda key: (f"{rows[key]['median_us']:.1f} ({rows[key]['percent_of_copy']:.1f})" if key in rows else "")
        ahead = rows[("per_sequence", "fp32")]["median_us"] / rows[("cuda_core", "fp32")]["median_us"]
        body.append([sigma + (" (MVE)" if sigma == "1" else ""), f"{doc['shape']['chunks']:,}",
                     cell(("cuda_core", "fp32")), cell(("per_sequence", "fp32")), cell(("cuda_core", "bf16")),
                     f"{ahead:.2f}×"])
    if doc is None:
        return f"No state-passing sweep of the {gpu} is stored yet."
    built = ", ".join(dict.fromkeys(commits))  # the commits the rows' binaries were built from, in row order
    return (f"From `experiments/results/state_passing_bench[_sigmaS]_{gpu}.json` ({doc['device']}, "
            f"commit {built}, seed 8; µs, % of the same run's copy bandwidth in parentheses).\n\n" +
            table(["σ", "G", "`cuda_core` fp32", "per-sequence grid fp32", "`cuda_core` bf16",
                   "per-sequence time / `cuda_core` time"], body))
