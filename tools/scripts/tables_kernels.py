"""The docs' tables of the fused kernels' measurements: bench, ablation, unaligned pointers,
latency, instruction mixes, checks and SpMV (results_tables.py assembles them)."""
import importlib.util
import re
import statistics

from results_common import DISTS, RESULTS, ROOT, bench_rows, dist_cells, fused, load, source, table


def bench_run(arg):
    """The full bench run that a table's argument names ("f32" or "f32:H200"; the H100's by
    default): its file name, its JSON and the dtype."""
    dtype, _, gpu = arg.partition(":")
    name = f"gpu_bench_{gpu or 'H100'}.json"
    return name, load(name), dtype


def t_bench(arg):
    """Every kernel of the full bench run, G items/s by segment length (bench:f32, bench:f32:H200)."""
    name, doc, dtype = bench_run(arg)
    rows = bench_rows(doc, dtype)
    # The docs' rows: order and prose labels (e.g. "uint8 keys") are the page's, not fields of the JSON.
    kernels = [("copy", "copy (ceiling)"), ("read_only_reduce", "read-only reduction (ceiling)"),
               ("matmul_scan", "`matmul_scan` (ours)"), ("cub_inclusive_sum", "CUB `InclusiveSum`"),
               ("sscr_segmented_scan", "`sscr_segmented_scan` (ours)"),
               ("cub_inclusive_sum_by_key_u8", "CUB `InclusiveSumByKey`, uint8 keys"),
               ("cub_inclusive_sum_by_key", "CUB `InclusiveSumByKey`, int32 keys"),
               ("vcu_flag_transform_scan", "CUDA-core flag-transform scan (baseline)"),
               ("vcu_min_index_scan", "CUDA-core min-index scan (baseline)"),
               ("cccl_segmented_scan", "CCCL `DeviceSegmentedScan`"),
               ("cub_flag_pair_scan", "CUB `InclusiveScan` on (flag, value) pairs"),
               ("scd_segmented_sum", "`scd_segmented_sum` (ours)"),
               ("cub_segmented_reduce_sum", "CUB `DeviceSegmentedReduce::Sum`")]
    body = [[label] + dist_cells(rows, k) for k, label in kernels if any(kk == k for kk, _ in rows)]
    return (source(name, doc, f"n = {doc['n']:,}, {dtype}, G items/s") + f"\n\n" +
            table(["kernel"] + [h for _, h in DISTS], body))


def t_copy_fraction(arg):
    """The fused kernels' bandwidth as a share of the copy's, and their byte floor's share of
    the read-only ceiling (copy_fraction:f32, copy_fraction:f32:H200)."""
    name, doc, dtype = bench_run(arg)
    rows = bench_rows(doc, dtype)
    pct = lambda v: f"{100 * v:.0f}"
    body = []
    for k in fused(doc):
        body.append([f"`{k}`", "% of copy bandwidth"] + dist_cells(rows, k, "copy_bandwidth_fraction", pct))
        body.append([f"`{k}`", "% of read-only ceiling (floor bytes)"] +
                    dist_cells(rows, k, "floor_fraction_of_read_only", pct))
    return (source(name, doc, f"n = {doc['n']:,}, {dtype}") + f"\n\n" +
            table(["kernel", "measure"] + [h for _, h in DISTS], body))


def t_ablation(dtype):
    """V0–V3 of the three fused kernels, one run, G items/s."""
    name = "gpu_bench_ablation_H100.json"
    doc = load(name)
    rows = bench_rows(doc, dtype)
    body = []
    for variants in fused(doc).values():
        for kv, v in variants.items():
            if (kv, "none") in rows or (kv, "one_segment") in rows:
                body.append([f"`{kv}`", v] + dist_cells(rows, kv))
    return (source(name, doc, f"n = {doc['n']:,}, {dtype}, G items/s") + f"\n\n" +
            table(["kernel", "variant"] + [h for _, h in DISTS], body))


def t_ablation_ratio(_):
    """Speed of V1–V3 relative to V0 over every distribution of the ablation run."""
    name = "gpu_bench_ablation_H100.json"
    doc = load(name)
    body = []
    for k, variants in fused(doc).items():
        for kv, v in variants.items():
            if v == "V0":
                continue
            cells = []
            for dtype in ("f32", "i32"):
                rows = bench_rows(doc, dtype)
                ratios = [rows[(kv, d)]["throughput_gitems_per_s"] / rows[(k, d)]["throughput_gitems_per_s"]
                          for (kk, d) in rows if kk == kv and (k, d) in rows]
                lo, hi = (f"{min(ratios):.2f}", f"{max(ratios):.2f}") if ratios else ("", "")
                cells.append(lo if lo == hi else f"{lo}–{hi}")
            if any(cells):
                body.append([f"`{k}`", v] + cells)
    return (f"{source(name, doc, 'every distribution of the run; throughput over V0’s')}\n\n" +
            table(["kernel", "variant", "fp32, × V0", "int32, × V0"], body))


def t_unaligned(gpu):
    """fp32 time with pointers one item off (and ours three items off), over the aligned time of
    the same call's run on one GPU."""
    name, name3, ref = (f"gpu_bench_unaligned_{gpu}.json", f"gpu_bench_unaligned_offset3_{gpu}.json",
                        f"gpu_bench_aligned_ref_{gpu}.json")
    doc, dtype = load(name), "f32"
    al = bench_rows(load(ref), dtype)
    cols = [("one_segment", "one segment"), ("geometric:32", "mean 32"),
            ("geometric:1024", "mean 1K"), ("all_length_1", "all length 1")]
    # The docs' rows: order and prose labels are the page's, not fields of the JSON.
    ours = [("matmul_scan", "`matmul_scan`"), ("sscr_segmented_scan", "`sscr_segmented_scan`"),
            ("scd_segmented_sum", "`scd_segmented_sum`")]
    rivals = [("copy", "copy"), ("read_only_reduce", "read-only reduction"),
              ("cub_inclusive_sum", "CUB `InclusiveSum`"),
              ("cub_inclusive_sum_by_key_u8", "CUB `InclusiveSumByKey`, uint8 keys"),
              ("cub_segmented_reduce_sum", "CUB `DeviceSegmentedReduce::Sum`")]
    body = []
    for file, kernels, suffix in [(name, ours + rivals, ""), (name3, ours, ", 3 items off")]:
        un = bench_rows(load(file), dtype)
        for k, label in kernels:
            if (k, "none") in un:
                cells = [f"{un[(k, 'none')]['time_ms'] / al[(k, 'none')]['time_ms']:.2f}× (unsegmented)"] + [""] * 3
            else:
                cells = [f"{un[(k, d)]['time_ms'] / al[(k, d)]['time_ms']:.2f}×" if (k, d) in un and (k, d) in al
                         else "" for d, _ in cols]
            body.append([label + suffix] + cells)
    return (source(name, doc, f"offset {doc['pointer_offset_items']} item, {dtype}") + f" Rows marked 3 items off: "
            f"`experiments/results/{name3}`. Time over the aligned time in `experiments/results/{ref}` (the same "
            f"call, before them).\n\n" + table(["kernel"] + [h for _, h in cols], body))


def t_latency(dtype):
    """Median SM cycles per tile at small n, V0 / V1 / V2 / V3 (V2 = V1 for MatMulScan)."""
    docs = {n: load(f"gpu_latency_v3_n{n}_H100.json") for n in (12, 14, 16)}
    body = []
    # The docs' rows: which distributions of each kernel the page shows is the page's choice.
    for k, dists in [("matmul_scan", [("none", "—")]),
                     ("sscr_segmented_scan", [("one_segment", "one"), ("geometric:32", "mean 32")]),
                     ("scd_segmented_sum", [("one_segment", "one"), ("geometric:32", "mean 32")])]:
        for d, label in dists:
            cells = []
            for n, doc in docs.items():
                rows = bench_rows(doc, dtype)
                cells.append(" / ".join(f"{round(rows[(kv, d)]['tile_cycles_median'], -2):,.0f}"
                                        for kv in fused(doc)[k] if (kv, d) in rows))
            body.append([f"`{k}`" + (" (V0 / V1 / V3)" if k == "matmul_scan" else ""), label] + cells)
    doc = docs[14]
    return (f"From `experiments/results/gpu_latency_v3_n{{12,14,16}}_H100.json` ({doc['gpu']['name']}, "
            f"run of {doc['date_utc'][:10]}, {dtype}, {doc['reps']} calls; median cycles per tile, to the nearest 100).\n\n" +
            table(["kernel", "segments", "n = 2^12 (V0 / V1 / V2 / V3)", "n = 2^14", "n = 2^16"], body))


def t_ncu_mix(_):
    """Executed instruction mix from ncu, one call per kernel and distribution."""
    name = "ncu_mix_v3_H100.json"
    doc = load(name)
    dist_label = dict(DISTS)
    # ncu's rows name only the kernel; the ablation run's rows carry its family and variant.
    kernels = fused(load("gpu_bench_ablation_H100.json"))
    variant = {kv: (k, v) for k, variants in kernels.items() for kv, v in variants.items()}
    body = []
    for r in doc["rows"]:
        base, v = variant[r["kernel"]]
        body.append([f"`{base}`", dist_label.get(r["distribution"], r["distribution"]), v,
                     f"{r['warp_instructions_executed'] / 1e6:.1f}", f"{r['tensor_share_pct']:.1f}",
                     f"{r['issue_active_per_cycle']:.2f}", f"{r['dram_throughput_pct']:.0f}",
                     f"{r['duration_ns'] / 1e6:.3f}"])
    order = [label for _, label in DISTS]
    body.sort(key=lambda c: (list(kernels).index(c[0].strip("`")), order.index(c[1]) if c[1] in order else 99, c[2]))
    return (source(name, doc, f"n = {doc['n']:,}, {doc['dtype']}; ncu at its own clocks") + f"\n\n" +
            table(["kernel", "segments", "variant", "warp instructions (M)", "tensor pipe (%)",
                   "issued per scheduler-cycle", "DRAM throughput (%)", "time (ms)"], body))


def t_ncu_stalls(arg):
    """Where a kernel's time goes by ncu, per setting: medians over its launches (ncu_stalls:scd:H200)."""
    what, _, gpu = arg.partition(":")
    name = f"ncu_stalls_{what}_{gpu}.json"
    doc = load(name)
    groups = {}
    for r in doc["rows"]:
        if what == "state_passing" and "split_kernel" not in r["kernel"]:
            continue  # the tensor-core methods share the files; the table is the CUDA-core chain's
        label = r["label"].removeprefix("state_passing_").removesuffix(f"_{gpu}")
        groups.setdefault((label, re.sub(r"\(.*", "", r["kernel"]).replace("void ", "")), []).append(r)
    med = lambda rs, f: statistics.median(f(r) for r in rs)
    body = []
    for (label, kernel), rs in groups.items():
        share = lambda k: med(rs, lambda r: r["stall_share_pct"].get(k, 0.0))
        reasons = sorted({k for r in rs for k in r["stall_share_pct"]}, key=lambda k: -share(k))[:3]
        body.append([label, f"`{kernel}`", str(len(rs)), f"{med(rs, lambda r: r['time_ns']) / 1e3:.1f}",
                     f"{med(rs, lambda r: r['dram_throughput_pct_of_peak']):.1f}",
                     f"{med(rs, lambda r: r['warp_instructions']) / 1e6:.1f}",
                     f"{med(rs, lambda r: r['issue_active_pct']):.1f}", f"{med(rs, lambda r: r['warps_active_pct']):.1f}",
                     f"{med(rs, lambda r: r['registers_per_thread']):.0f}",
                     ", ".join(f"{k} {share(k):.0f}" for k in reasons)])
    return (source(name, doc, f"commit {doc['commit']}; ncu, clocks not locked; medians over each setting's launches") +
            "\n\n" + table(["setting", "kernel", "launches", "time (µs)", "DRAM (% of peak)", "warp instructions (M)",
                             "issue slots busy (%)", "warp slots occupied (%)", "registers",
                             "largest stall reasons (% of stall cycles)"], body))


# The kernels' mangled names: device::<kernel>_kernel<T, Unit, tile_policy> with Unit an agent's
# unit policy (agent/unit_policy.cuh), and device::state_passing_kernel<Scan, bf16, T, Acc>.
SASS_KERNEL = re.compile(r"device\d+(matmul_scan|sscr|scd)_kernelI([fj])NS0_5agent"
                         r"(9warp_unit|8row_unit|9lane_unitILNS0_4warp4unitE\dEE)")
# warp::unit {tensor_cores, cuda_cores, rows, warp}: lane_unit<cuda_cores> is V0, lane_unit<tensor_cores> V1
SASS_UNIT = {"9warp_unit": "V3", "8row_unit": "V2", "9lane_unitILNS0_4warp4unitE0EE": "V1",
             "9lane_unitILNS0_4warp4unitE1EE": "V0"}
# The device kernel's name -> the kernel's registry name (tools/kernels/kernels.cpp); sass_mix's JSON has
# only the mangled symbols, so nothing in it names the registry kernel.
SASS_NAME = {"matmul_scan": "matmul_scan", "sscr": "sscr_segmented_scan", "scd": "scd_segmented_sum"}
# cuda_core: state_passing_split_kernel<K, MinBlocks, T> (the split chain), and serial_scan<2, 2>
# (plain serial_scan in a JSON of older kernels), its one chain per lane group under graph capture;
# serial_scan<1, 1> is the per-sequence grid's and fp64's, not in the table.
SP_KERNEL = re.compile(r"state_passing_kernelINS0_5agent(11serial_scan(?:ILi2ELi2EE)?|8mma_scanILb[01]EE)ELb[01]E([tfd])fEE")
SP_SPLIT = re.compile(r"state_passing_split_kernelILi\d+ELi\d+E([tf])EE")
SP_METHOD = {"11serial_scan": ("cuda_core", "one chain (graph capture)"),
             "11serial_scanILi2ELi2EE": ("cuda_core", "one chain (graph capture)"),
             "8mma_scanILb0EE": ("tensor_core", "—"), "8mma_scanILb1EE": ("tensor_core_speculative", "—")}


def t_sass_mix(_):
    """Static SASS: tensor-core (HMMA/IMMA) instructions over all instructions, per kernel."""
    name = "sass_mix_sm90a.json"
    doc = load(name)
    cells = {}
    for sym, c in doc.items():
        m = SASS_KERNEL.search(sym)
        if m:
            if "shifted_policy" in sym or "tile_policyILi4ELi1E" not in sym:
                continue  # the table shows the aligned kernel of candidate 0 (4 passes, 1 stage)
            key = (SASS_NAME[m[1]], SASS_UNIT[m[3]])
            cells.setdefault(key, {})["fp32" if m[2] == "f" else "int32"] = c
            continue
        m = SP_SPLIT.search(sym)
        if m:
            cells.setdefault(("state_passing_cuda_core", "split chain"), {})["fp32" if m[1] == "f" else "bf16"] = c
            continue
        m = SP_KERNEL.search(sym)
        if m and m[1] in SP_METHOD:
            dt = {"f": "fp32", "t": "bf16", "d": "fp64"}[m[2]]
            method, variant = SP_METHOD[m[1]]
            cells.setdefault((f"state_passing_{method}", variant), {})[dt] = c
    fmt = lambda c: (f"{c['tensor_core']:,} / {c['instructions']:,}" +
                     (f" ({100 * c['tensor_core'] / c['instructions']:.1f}%)" if c["tensor_core"] else ""))
    body = []
    for (k, v), by in sorted(cells.items(), key=lambda kv: (kv[0][0].startswith("state"), kv[0])):
        if k.startswith("state_passing"):
            body.append([f"`{k}`", v, fmt(by["fp32"]) if "fp32" in by else "",
                         "bf16 data: " + fmt(by["bf16"]) if "bf16" in by else ""])
        else:
            body.append([f"`{k}`", v, fmt(by["fp32"]), fmt(by["int32"])])
    return (f"From `experiments/results/{name}` (static counts, sm_90a, `tools/scripts/sass_mix.sh`; the fused "
            f"kernels' aligned instantiation of tile-policy candidate 0).\n\n" +
            table(["kernel", "variant", "fp32: tensor-core / all instructions", "int32: tensor-core / all instructions"],
                  body))


def t_check_summary(gpu):
    """`mmvram kernels check` results per kernel and dtype, from its stored summary."""
    name = f"gpu_check_summary_{gpu}.json"
    doc = load(name)
    body = []
    for k in doc["kernels"]:
        c = k["counts"]
        body.append([f"`{k['kernel']}`", k["dtype"], str(c.get("PASS", 0)), str(c.get("FAIL", 0)),
                     str(c.get("ERROR", 0)), str(c.get("SKIPPED", 0)), f"{k['worst_error_over_bound']:.3g}"])
    extra = f"seed {doc['seed']}, {'--quick' if doc['quick'] else 'full check'}, {doc['wall_time_s']:.0f} s"
    return (f"{source(name, doc, extra)}\n\n" +
            table(["kernel", "dtype", "PASS", "FAIL", "ERROR", "SKIPPED", "worst error / bound"], body))


def t_v3_accuracy(gpu):
    """V3's fp32 bits lost against the magnitude spread (experiments/v3_accuracy_table.py's cells)."""
    spec = importlib.util.spec_from_file_location("v3_accuracy_table", ROOT / "experiments" / "v3_accuracy_table.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    name = f"gpu_v3_accuracy_{gpu}.json"
    doc = load(name)
    rows = {}
    for r in doc["results"]:
        rows.setdefault((r["values"], r["distribution"]), {})[r["kernel"]] = r
    body = [[values, dist] + [mod.cell(by[k]) if k in by else "" for k, _ in mod.KERNELS]
            for (values, dist), by in rows.items()]
    return (source(name, doc, f"n = {doc['n']:,}, seed {doc['seed']}") + f"\n\n" +
            table(["values", "starts"] + [n for _, n in mod.KERNELS], body))


def t_spmv(gpu):
    """mmvram kernels spmv: per matrix and type, the median ms of ours and both cuSPARSE
    algorithms, each one's % of its own compulsory-byte floor, and ours over each rival."""
    name = f"spmv_{gpu or 'H100'}.json"
    doc = load(name)
    kernels = ["mmvram_spmv_csr", "cusparse_default", "cusparse_csr_alg2"]
    body = []
    for m in doc["matrices"]:
        for dtype in ("f32", "f64"):
            rs = {r["kernel"]: r for r in m["results"] if r["dtype"] == dtype}
            cell = lambda k: (f"{rs[k]['median_ms']:.4f} ({rs[k]['percent_of_floor']:.0f}%)"
                              if "median_ms" in rs.get(k, {}) else "fail")
            ratio = lambda k: (f"{rs['mmvram_spmv_csr']['median_ms'] / rs[k]['median_ms']:.2f}"
                               if "median_ms" in rs.get(k, {}) and "median_ms" in rs.get("mmvram_spmv_csr", {})
                               else "")
            body.append([f"`{m['name']}`", dtype] + [cell(k) for k in kernels] +
                        [ratio("cusparse_default"), ratio("cusparse_csr_alg2")])
    extra = f"copy {doc['copy_bytes_per_s'] / 1e9:.0f} GB/s, seed {doc['seed']}, median of {doc['reps']}"
    return (source(name, doc, extra) + "\n\n" +
            table(["matrix", "type", "mmvram ms (% of floor)", "cuSPARSE default ms (%)", "cuSPARSE CSR_ALG2 ms (%)",
                   "ours / default", "ours / ALG2"], body))




def t_scd(gpu):
    """SCD's segmented sum beside CUB's DeviceSegmentedReduce::Sum, one run: median ms per segment
    length and type, and each one's share of its own byte floor at the run's read-only bandwidth."""
    name = f"gpu_bench_scd_{gpu or 'H100'}.json"
    if not (RESULTS / name).exists():
        return f"No SCD run of the {gpu} is stored yet (`experiments/results/{name}`)."
    doc = load(name)
    body = []
    for dtype in ("f32", "i32"):
        rows = bench_rows(doc, dtype)
        read_only = rows.get(("read_only_reduce", "none"))
        dists = [d for d, _ in SCD_DISTS if ("scd_segmented_sum", d) in rows]
        for kernel, label in (("scd_segmented_sum", "SCD (V0)"), ("cub_segmented_reduce_sum", "CUB")):
            cells = []
            for d in dists:
                r = rows.get((kernel, d))
                if r is None:
                    cells.append("")
                    continue
                floor_bytes = r["n"] * r["kernel_bytes_per_item"] + r["num_segments"] * r["kernel_bytes_per_segment"]
                share = floor_bytes / (read_only["bandwidth_gb_per_s"] * 1e9) / (r["time_ms"] * 1e-3) if read_only else None
                cells.append(f"{r['time_ms']:.3f}" + (f" ({100 * share:.0f}%)" if share else ""))
            body.append([label, dtype] + cells)
        prepared = [rows.get(("cub_segmented_reduce_sum", d), {}).get("time_with_preparation_ms") for d in dists]
        if any(v is not None for v in prepared):  # runs that timed the offsets' making too
            body.append(["CUB, offsets built from the flags in the timed call", dtype] +
                        ["" if v is None else f"{v:.3f}" for v in prepared])
    header = ["kernel", "type"] + [label for d, label in SCD_DISTS if d in dists]
    return source(name, doc, f"n = 2^{doc['n'].bit_length() - 1}, median of {doc['reps']}") + "\n\n" + table(header, body)


# SCD's table columns: segment lengths from one segment to all of length 1.
SCD_DISTS = [("one_segment", "one segment"), ("geometric:1048576", "geometric 1M"), ("geometric:32768", "geometric 32K"),
             ("fixed:32768", "fixed 32K"), ("geometric:1024", "geometric 1K"), ("fixed:1024", "fixed 1K"),
             ("pareto:1024", "pareto 1K"), ("geometric:32", "geometric 32"), ("all_length_1", "length 1")]


def t_tuning(gpu):
    """The tile-policy sweep of one GPU (mmvram kernels tune): ms as f32 / i32 per candidate and
    distribution, each candidate's geometric mean and its gain over candidate 0, the choice in bold."""
    name = f"gpu_tuning_{gpu}.json"
    doc = load(name)
    dists = [("none", "one_segment"), ("one_segment", "one_segment"), ("geometric:32", "geometric:32"),
             ("geometric:1024", "geometric:1024"), ("all_length_1", "all_length_1")]
    times = {(r["kernel"], r["candidate"], r["dtype"], r["distribution"]): r["time_ms"] for r in doc["rows"]}
    body = []
    for kernel, cands in doc["candidates"].items():
        choice = doc["choice"][kernel]
        for c in cands:
            i = c["candidate"]
            label = f"c{i} ({c['passes']}, {c['stages']}, {c['min_blocks']})"
            cells = []
            for d, _ in dists[1:]:
                dd = "none" if (kernel, i, "f32", "none") in times and d == "one_segment" else d
                f, n = times.get((kernel, i, "f32", dd)), times.get((kernel, i, "i32", dd))
                cells.append("" if f is None else f"{f:.3f} / {n:.3f}" + (" (no flags)" if dd == "none" else ""))
            g = choice["geomean_ms"][i]
            gain = choice["geomean_ms"][0] / g - 1
            body.append([f"`{kernel}`", f"**{label}**" if i == choice["candidate"] else label] + cells +
                        [f"{g:.3f}", "—" if i == 0 else f"{100 * gain:+.1f}%"])
    header = ["kernel", "candidate (passes, stages, blocks/SM)"] + [h for _, h in dists[1:]] + ["geometric mean",
                                                                                                   "faster than c0"]
    return (source(name, doc, f"n = 2^{doc['n'].bit_length() - 1}, seed {doc['seed']}, ms as f32 / i32; table row "
                   f"`{doc['table_row']}`") + "\n\n" + table(header, body))
