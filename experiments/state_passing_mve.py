"""The minimum viable experiment (MVE) of inter-chunk state passing, on a GPU.

State passing: the state propagation of chunked linear attention over packed variable-length
batches; the MVE runs mmvram's kernels beside mamba_ssm's `_state_passing_fwd` and
flash-linear-attention's `chunk_fwd_h`, in one process on the same data (docs/state_passing.md).

Writes RESULTS/state_passing_<GPU>.json (schema mmvram-state-passing/1): per configuration and
implementation the median/min/max time of `--reps` CUDA-event-timed runs after warm-up, useful
states/s, bytes moved, % of the copy bandwidth measured in the same run, the max abs error
against the float64 CPU reference, the leakage check, and the study's criteria met/missed
(docs/state_passing.md).
usage: experiments/state_passing_mve.py [--results DIR] [--rivals DIR] [--reps R] [--quick]
  --rivals: a folder holding ssd_state_passing.py, copied from mamba_ssm/ops/triton/ of a clone
  of state-spaces/mamba, loaded by path, so its compiled extension is not needed; when
  mamba_ssm.utils.determinism does not import, a stand-in keeps every autotune config (mamba's
  default, non-deterministic mode). fla is imported as the package fla-core when installed. A
  rival that is missing is recorded so in the JSON.
"""
import argparse
import importlib.util
import json
import math
import pathlib
import sys
import types

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python"))
import mmvram_torch  # noqa: E402
from mmvram_torch import packing  # noqa: E402

H, N, V, C = 32, 16, 64, 64  # heads, state rows, value columns, chunk size (the MVE's shape)


def timed(fn, reps, warmup=5):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) * 1e3)
    times.sort()
    return {"median_us": times[len(times) // 2], "min_us": times[0], "max_us": times[-1], "repetitions": reps}


def load_mamba(rivals):
    path = pathlib.Path(rivals or "") / "ssd_state_passing.py"
    if not rivals or not path.exists():
        return None, f"not found: {path}"
    sys.path.insert(0, str(path.parent))
    try:
        import mamba_ssm.utils.determinism  # noqa: F401
    except ImportError:
        for name in ("mamba_ssm", "mamba_ssm.utils", "mamba_ssm.utils.determinism"):
            sys.modules[name] = types.ModuleType(name)
        sys.modules["mamba_ssm.utils.determinism"].autotune_configs = lambda configs: configs
    spec = importlib.util.spec_from_file_location("mamba_ssd_state_passing", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, "mamba_ssm ops/triton/ssd_state_passing.py (by path)"


def load_fla():
    try:
        from fla.ops.common.chunk_h import chunk_fwd_h
        import fla
        return chunk_fwd_h, f"fla-core {fla.__version__}"
    except Exception as e:  # noqa: BLE001 - any import failure means "rival not available"
        return None, f"not importable: {e}"


class Case:
    """One packed batch on the GPU, with its reference."""

    def __init__(self, name, lengths, gen):
        self.name, self.lengths = name, lengths
        self.offsets = packing.chunk_offsets(lengths, C)
        self.chunks = int(self.offsets[-1])
        self.starts = packing.starts_from_offsets(self.offsets)
        local, self.log_decay = packing.random_problem(self.chunks, H, N, V, True, gen)
        self.head_decay = self.log_decay.mean(dim=2)  # Mamba-2 style: one decay per (chunk, head)
        self.local = {"fp32": local, "bf16": local.to(torch.bfloat16)}
        self.gpu = {k: v.cuda() for k, v in self.local.items()}
        self.d_decay, self.d_head_decay = self.log_decay.cuda(), self.head_decay.cuda()
        self.d_starts, self.d_offsets = self.starts.cuda(), self.offsets.cuda()
        self.states = self.chunks * H * N * V

    def reference(self, dtype, per_row=True, segmented=True):
        return packing.reference(self.local[dtype], self.log_decay if per_row else self.head_decay,
                                 self.starts if segmented else None)


def row(case, impl, dtype, t, bytes_moved, copy_gbs, err=None, **extra):
    gbs = bytes_moved / (t["median_us"] * 1e3)
    r = {"config": case.name, "implementation": impl, "dtype": dtype, "chunks": case.chunks,
         "sequences": int(case.lengths.numel()), **t, "useful_states_per_s": case.states / (t["median_us"] * 1e-6),
         "bytes": bytes_moved, "gb_per_s": gbs, "percent_of_copy": 100 * gbs / copy_gbs if copy_gbs else None,
         "max_abs_error": err}
    r.update(extra)
    print(f"{case.name:>14} {dtype} {impl:<34} {t['median_us']:9.1f} us {gbs:7.0f} GB/s"
          + (f"  err {err:.1e}" if err is not None else ""))
    return r


def max_err(got, want):
    return (got.detach().double().cpu() - want).abs().max().item() if got.numel() else 0.0


def leakage_free(case, method):
    """Perturb one sequence; every other sequence's states must be bit-identical."""
    k = int(case.lengths.numel()) // 2
    lo, hi = int(case.offsets[k]), int(case.offsets[k + 1])
    base = mmvram_torch.state_passing(case.gpu["fp32"], case.d_decay, case.d_starts, method)
    perturbed = case.gpu["fp32"].clone()
    perturbed[lo:hi] *= 3.5
    after = mmvram_torch.state_passing(perturbed, case.d_decay, case.d_starts, method)
    outside = torch.ones(case.chunks, dtype=torch.bool, device="cuda")
    outside[lo:hi] = False
    return bool(torch.equal(base[outside], after[outside])) and not torch.equal(base[~outside], after[~outside])


def run_ours(case, reps, copy_gbs, rows, errors_only=False):
    for dtype in ("fp32", "bf16"):
        local, in_bytes = case.gpu[dtype], case.gpu[dtype].element_size()
        moved = case.states * (in_bytes + 4) + case.d_decay.numel() * 4 + case.chunks
        want, want_unseg = case.reference(dtype), case.reference(dtype, segmented=False)
        for method in mmvram_torch.METHODS:
            f = lambda: mmvram_torch.state_passing(local, case.d_decay, case.d_starts, method)  # noqa: E731
            rows.append(row(case, f"mmvram_{method}", dtype, timed(f, reps), moved, copy_gbs, max_err(f(), want),
                            leakage_free=leakage_free(case, method) if dtype == "fp32" else None))
        f = lambda: mmvram_torch.state_passing(local, case.d_decay, None, "tensor_core")  # noqa: E731
        rows.append(row(case, "mmvram_tensor_core_unsegmented", dtype, timed(f, reps), moved, copy_gbs,
                        max_err(f(), want_unseg)))
    f = lambda: mmvram_torch.state_passing_per_sequence(case.gpu["fp32"], case.d_decay, case.d_offsets)  # noqa: E731
    rows.append(row(case, "mmvram_per_sequence_loop", "fp32", timed(f, reps), case.states * 8, copy_gbs,
                    max_err(f(), case.reference("fp32"))))
    # Padding every sequence to the longest: the same kernel on the padded layout.
    pad_offsets, longest = packing.padded_offsets(case.offsets)
    padded = torch.zeros(int(pad_offsets[-1]), H, N, V, device="cuda")
    pad_decay = torch.zeros(int(pad_offsets[-1]), H, N, device="cuda")
    for k in range(int(case.lengths.numel())):
        lo, hi, p = int(case.offsets[k]), int(case.offsets[k + 1]), int(pad_offsets[k])
        padded[p:p + hi - lo] = case.gpu["fp32"][lo:hi]
        pad_decay[p:p + hi - lo] = case.d_decay[lo:hi]
    pad_starts = packing.starts_from_offsets(pad_offsets).cuda()
    for method in ("cuda_core", "tensor_core"):
        f = lambda: mmvram_torch.state_passing(padded, pad_decay, pad_starts, method)  # noqa: E731
        rows.append(row(case, f"padded_to_longest_{method}", "fp32", timed(f, reps), padded.numel() * 8, copy_gbs,
                        padded_chunks=int(pad_offsets[-1]), longest_chunks=longest))


def run_mamba(case, mamba, reps, copy_gbs, rows):
    """Like with like: state passing alone, one decay per (chunk, head), dim = N·V."""
    states = case.gpu["fp32"].reshape(1, case.chunks, H, N * V)
    dA = case.d_head_decay.t().unsqueeze(0)  # [1, H, G], mamba's layout (a strided view for ours)
    seq_idx = torch.repeat_interleave(torch.arange(case.lengths.numel(), device="cuda", dtype=torch.int32),
                                      (case.offsets[1:] - case.offsets[:-1]).cuda() * C).unsqueeze(0)
    want = case.reference("fp32", per_row=False)
    f = lambda: mamba._state_passing_fwd(states, dA, seq_idx=seq_idx, chunk_size=C, out_dtype=torch.float32)  # noqa: E731
    out, final = f()
    got = torch.cat([out[0, 1:], final]).reshape(case.chunks, H, N, V)  # mamba's out[c] is h[c-1]
    moved = case.states * 8 + case.chunks * H * 4 + seq_idx.numel() * 4
    rows.append(row(case, "mamba_state_passing_fwd", "fp32", timed(f, reps), moved, copy_gbs, max_err(got, want)))
    decay_view = case.d_head_decay.t().contiguous().t()  # [G, H], strides (1, G): head-major like mamba's dA
    for method in ("tensor_core", "cuda_core"):
        g = lambda: mmvram_torch.state_passing(case.gpu["fp32"], decay_view, case.d_starts, method)  # noqa: E731
        rows.append(row(case, f"mmvram_{method}_per_head", "fp32", timed(g, reps), case.states * 8 + case.chunks * H * 4,
                        copy_gbs, max_err(g(), want)))


def mamba_gradients(case, mamba, gen):
    """Our autograd (the reverse segmented scan) against mamba's `_state_passing_bwd` on the same
    per-head data and the same upstream gradient w of the loss sum(w * h)."""
    seq_idx = torch.repeat_interleave(torch.arange(case.lengths.numel(), device="cuda", dtype=torch.int32),
                                      (case.offsets[1:] - case.offsets[:-1]).cuda() * C).unsqueeze(0)
    w = torch.randn(case.chunks, H, N, V, generator=gen).cuda()
    dA = case.d_head_decay.t().unsqueeze(0)
    out, _ = mamba._state_passing_fwd(case.gpu["fp32"].reshape(1, case.chunks, H, N * V), dA, seq_idx=seq_idx,
                                      chunk_size=C, out_dtype=torch.float32)
    dout = torch.zeros_like(out)
    dout[0, 1:] = w[:-1].reshape(case.chunks - 1, H, N * V)  # mamba's out[c] is h[c-1]
    dstates, ddA, _ = mamba._state_passing_bwd(out, dA, dout, dfinal_states=w[-1].reshape(1, H, N * V),
                                               seq_idx=seq_idx, chunk_size=C)
    result = {"config": case.name, "mamba_dA_gradient_scale": ddA.abs().max().item()}
    for method in mmvram_torch.METHODS:
        u = case.gpu["fp32"].clone().requires_grad_()
        l = case.d_head_decay.clone().requires_grad_()
        (mmvram_torch.state_passing(u, l, case.d_starts, method) * w).sum().backward()
        result[f"{method}_max_abs_diff_d_local"] = (u.grad - dstates.reshape(u.shape)).abs().max().item()
        result[f"{method}_max_abs_diff_d_log_decay"] = (l.grad - ddA[0].t()).abs().max().item()
    print("gradients against mamba:", json.dumps(result))
    return result


def run_fla(case, chunk_fwd_h, reps, copy_gbs, rows, gen):
    """fla's fused local-state product + propagation against torch's product + ours."""
    tokens = case.chunks * C
    k = torch.randn(1, tokens, H, N, generator=gen).to(torch.bfloat16).cuda()
    v = torch.randn(1, tokens, H, V, generator=gen).to(torch.bfloat16).cuda()
    g = (-torch.rand(1, tokens, H, N, generator=gen) / C).cuda()
    gk = g.reshape(case.chunks, C, H, N).cumsum(1)  # chunk-local cumulative log-decays
    cu = (case.offsets * C).to(torch.int32).cuda()
    gk2 = (gk / math.log(2)).reshape(1, tokens, H, N)  # fla's gates are in log2 units
    f = lambda: chunk_fwd_h(k, v, gk=gk2, cu_seqlens=cu, chunk_size=C, output_final_state=True,  # noqa: E731
                            states_in_fp32=True)
    h_fla, _ = f()
    chunk_decay = gk[:, -1].contiguous()  # [G, H, N]
    kc, vc = k.reshape(case.chunks, C, H, N).float(), v.reshape(case.chunks, C, H, V).float()

    def ours():
        weighted = kc * torch.exp(chunk_decay[:, None] - gk)
        local = torch.einsum("gchn,gchv->ghnv", weighted, vc)
        return mmvram_torch.state_passing(local, chunk_decay, case.d_starts, "tensor_core")

    mine = ours()
    shifted = torch.zeros_like(mine)  # fla stores the state before each chunk
    shifted[1:] = mine[:-1]
    shifted[case.d_starts.bool()] = 0
    diff = (h_fla.reshape(case.chunks, H, N, V).float() - shifted).abs().max().item()
    moved = tokens * H * (N + V) * 2 + tokens * H * N * 4 + case.states * 4
    rows.append(row(case, "fla_chunk_fwd_h", "bf16", timed(f, reps), moved, copy_gbs, None, max_abs_diff_vs_ours=diff))
    rows.append(row(case, "mmvram_local_product_torch+tensor_core", "bf16", timed(ours, reps), moved, copy_gbs, None,
                    max_abs_diff_vs_fla=diff))


def copy_bandwidth(case, reps):
    src = case.gpu["fp32"]
    dst = torch.empty_like(src)
    t = timed(lambda: dst.copy_(src), reps)
    return 2 * src.numel() * 4 / (t["median_us"] * 1e3), t


def pick(rows, config, impl, dtype="fp32"):
    return next((r for r in rows if r["config"] == config and r["implementation"] == impl and r["dtype"] == dtype), None)


def criteria(rows, config):
    out = {}
    for dtype in ("fp32", "bf16"):
        seg, unseg = pick(rows, config, "mmvram_tensor_core", dtype), pick(rows, config, "mmvram_tensor_core_unsegmented", dtype)
        flag = pick(rows, config, "mmvram_cuda_core", dtype)
        out[f"{dtype}_segmented_over_unsegmented_throughput"] = unseg["median_us"] / seg["median_us"]
        out[f"{dtype}_segmented_at_least_85_percent_of_unsegmented"] = unseg["median_us"] / seg["median_us"] >= 0.85
        out[f"{dtype}_speedup_over_flag_based_scan"] = flag["median_us"] / seg["median_us"]
        out[f"{dtype}_at_least_1.3x_flag_based"] = flag["median_us"] / seg["median_us"] >= 1.3
    out["bf16_max_abs_error_below_1e-3"] = pick(rows, config, "mmvram_tensor_core", "bf16")["max_abs_error"] < 1e-3
    seg, best = pick(rows, config, "mmvram_tensor_core"), pick(rows, config, "mmvram_cuda_core")
    per_seq = pick(rows, config, "mmvram_per_sequence_loop")
    out["tensor_core_faster_than_per_sequence_loop"] = seg["median_us"] < per_seq["median_us"]
    out["cuda_core_faster_than_per_sequence_loop"] = best["median_us"] < per_seq["median_us"]
    mamba, ours_head = pick(rows, config, "mamba_state_passing_fwd"), pick(rows, config, "mmvram_tensor_core_per_head")
    if mamba:
        out["tensor_core_speedup_over_mamba_state_passing_fwd"] = mamba["median_us"] / ours_head["median_us"]
        cuda_head = pick(rows, config, "mmvram_cuda_core_per_head")
        out["cuda_core_speedup_over_mamba_state_passing_fwd"] = mamba["median_us"] / cuda_head["median_us"]
    for method in ("cuda_core", "tensor_core"):
        padded = pick(rows, config, f"padded_to_longest_{method}")
        out[f"{method}_useful_states_per_s_over_padded"] = padded["median_us"] / pick(rows, config, f"mmvram_{method}")["median_us"]
    for method in mmvram_torch.METHODS:
        out[f"{method}_bit_identical_outside_a_perturbed_sequence"] = pick(rows, config, f"mmvram_{method}")["leakage_free"]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", default=str(pathlib.Path(__file__).resolve().parent / "results"))
    ap.add_argument("--rivals", default=None)
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--quick", action="store_true", help="the MVE configuration only")
    ap.add_argument("--gradients", action="store_true",
                    help="only compare the gradients with mamba's backward on the MVE data "
                         "(writes state_passing_gradients_<GPU>.json)")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        sys.exit("state_passing_mve.py: no CUDA device")
    torch.backends.cuda.matmul.allow_tf32 = True
    gen = torch.Generator().manual_seed(2026)
    mamba, mamba_note = load_mamba(args.rivals)
    fla_fwd, fla_note = load_fla()
    configs = [("mve", packing.lognormal_lengths(32, 7.0, 1.0, gen))]
    gpu = torch.cuda.get_device_name()
    tag = gpu.split()[1] if len(gpu.split()) > 1 else "gpu"
    if args.gradients:
        if not mamba:
            sys.exit(f"state_passing_mve.py: --gradients needs mamba ({mamba_note})")
        doc = {"schema": "mmvram-state-passing-gradients/1", "device": gpu, "torch": torch.__version__,
               "shape": {"heads": H, "rows": N, "cols": V, "chunk_tokens": C}, "rivals": {"mamba": mamba_note},
               "gradients": mamba_gradients(Case("mve", configs[0][1], gen), mamba, gen)}
        out = pathlib.Path(args.results) / f"state_passing_gradients_{tag}.json"
        out.write_text(json.dumps(doc, indent=1) + "\n")
        print("wrote", out)
        return
    if not args.quick:
        long = packing.lognormal_lengths(4096, 7.0, 1.0, gen)
        counts = (long + C - 1) // C
        keep = int((torch.cumsum(counts, 0) <= 8192).sum())
        configs.append(("g8192", long[:keep]))
        configs.append(("s1024_short", packing.lognormal_lengths(1024, 5.0, 1.0, gen)))
        for sigma in (0.0, 0.5, 1.5, 2.0):
            configs.append((f"sigma_{sigma}", packing.lognormal_lengths(32, 7.0, sigma, gen, max_tokens=2**17)))
    rows, copies, summary = [], {}, {}
    for name, lengths in configs:
        case = Case(name, lengths, gen)
        copy_gbs, copy_t = copy_bandwidth(case, args.reps)
        copies[name] = {"gb_per_s": copy_gbs, **copy_t, "bytes": 2 * case.states * 4}
        run_ours(case, args.reps, copy_gbs, rows)
        if mamba:
            run_mamba(case, mamba, args.reps, copy_gbs, rows)
        if fla_fwd and name == "mve":
            run_fla(case, fla_fwd, args.reps, copy_gbs, rows, gen)
        summary[name] = criteria(rows, name)
        summary[name]["length_mean_tokens"] = float(lengths.double().mean())
        summary[name]["length_std_tokens"] = float(lengths.double().std()) if lengths.numel() > 1 else 0.0
        print(name, json.dumps(summary[name]))
        del case
        torch.cuda.empty_cache()
    doc = {"schema": "mmvram-state-passing/1", "device": gpu, "torch": torch.__version__,
           "shape": {"heads": H, "rows": N, "cols": V, "chunk_tokens": C},
           "rivals": {"mamba": mamba_note, "fla": fla_note}, "copy": copies, "rows": rows, "criteria": summary}
    out = pathlib.Path(args.results) / f"state_passing_{tag}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1) + "\n")
    print("wrote", out)


if __name__ == "__main__":
    main()
