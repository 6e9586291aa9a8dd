"""mmvram's inter-chunk state propagation as a PyTorch op with autograd (docs/state_passing.md).

    h = mmvram_torch.state_passing(local, log_decay, starts, method="cuda_core")

local [G, H, N, V] (float32, bfloat16 or float64), log_decay [G, H, N] (per row, GLA style) or
[G, H] (per head, Mamba-2 style; any strides), starts uint8 [G] or None. Returns float32 (float64
for float64 input) h with h[j] = exp(log_decay[j]) * h[j-1] + local[j], restarted at starts.
The backward pass is the reverse segmented scan, run by the same kernels on flipped inputs.
The extension is compiled on first use (nvcc, ninja) against the PyTorch that imports it.
"""
import pathlib

import torch
from torch.utils import cpp_extension

_ROOT = pathlib.Path(__file__).resolve().parents[2]
_ext = None


def extension():
    """The compiled binding (built once per machine into PyTorch's extension cache)."""
    global _ext
    if _ext is None:
        major, minor = torch.cuda.get_device_capability()
        if major < 8:
            raise RuntimeError("mmvram_torch needs a GPU of compute capability 8.0 or newer (mma.sync tf32)")
        arch = f"{major}{minor}"
        _ext = cpp_extension.load(
            name="mmvram_state_passing_ext",
            sources=[str(pathlib.Path(__file__).with_name("state_passing_binding.cpp")),
                     str(_ROOT / "gpu" / "kernels" / "src" / "state_passing.cu"),
                     str(_ROOT / "gpu" / "runtime" / "src" / "runtime.cpp")],
            extra_include_paths=[str(_ROOT / "gpu" / "kernels" / d) for d in ("include", "internal", "src")]
            + [str(_ROOT / "gpu" / "runtime" / "include")],
            extra_cuda_cflags=["-O3", f"-gencode=arch=compute_{arch},code=sm_{arch}", "--expt-relaxed-constexpr"],
            extra_cflags=["-O3"])
    return _ext

METHODS = {"cuda_core": 0, "tensor_core": 1, "tensor_core_speculative": 2}  # state_passing_method

# The fp32 methods' rule: |h - reference| <= STATE_PASSING_TOLERANCE times the float64 recurrence
# on |u| (without restarts for the speculative method). The one tolerance policy's
# kStatePassingTolerance (harness/include/mmvram/harness/tolerance.hpp); a CPU test keeps the two equal.
STATE_PASSING_TOLERANCE = 2e-6


@torch.library.custom_op("mmvram::state_passing", mutates_args=())
def _state_passing(local: torch.Tensor, log_decay: torch.Tensor, starts: torch.Tensor | None,
                   method: int) -> torch.Tensor:
    per_row = log_decay.dim() == 3
    if local.dtype == torch.float64:
        method = METHODS["cuda_core"]  # float64 runs on the CUDA cores only
    return extension().forward(local, log_decay, starts, method, per_row)


@_state_passing.register_fake
def _(local, log_decay, starts, method):
    return local.new_empty(local.shape, dtype=torch.float64 if local.dtype == torch.float64 else torch.float32)


def _setup_context(ctx, inputs, output):
    local, log_decay, starts, method = inputs
    ctx.save_for_backward(log_decay, starts, output)
    ctx.method, ctx.local_dtype = method, local.dtype


def _backward(ctx, grad):
    """lam[j] = grad[j] + (1 - start[j+1]) exp(l[j+1]) lam[j+1]: a forward scan of the flipped
    gradient whose decays are shifted by one chunk and whose starts are the shifted starts."""
    log_decay, starts, h = ctx.saved_tensors
    chunks = h.shape[0]
    if chunks == 0:
        return torch.zeros_like(h).to(ctx.local_dtype), torch.zeros_like(log_decay), None, None
    grad = grad.to(h.dtype).contiguous()
    rev_decay = torch.cat([torch.zeros_like(log_decay[:1]), log_decay[1:].flip(0)]).contiguous()
    rev_starts = torch.ones(chunks, dtype=torch.uint8, device=h.device)
    if starts is not None:
        rev_starts[1:] = starts[1:].flip(0)
    else:
        rev_starts[1:] = 0
    lam = _state_passing(grad.flip(0).contiguous(), rev_decay, rev_starts, ctx.method).flip(0)
    previous = torch.cat([torch.zeros_like(h[:1]), h[:-1]])
    keep = torch.ones(chunks, dtype=h.dtype, device=h.device)
    keep[0] = 0
    if starts is not None:
        keep = keep * (starts == 0).to(h.dtype)
    contrib = lam * previous * keep.view(-1, 1, 1, 1)
    d_log_decay = contrib.sum(dim=-1) if log_decay.dim() == 3 else contrib.sum(dim=(-1, -2))
    d_log_decay = d_log_decay * torch.exp(log_decay.to(h.dtype))
    return lam.to(ctx.local_dtype), d_log_decay.to(log_decay.dtype), None, None


_state_passing.register_autograd(_backward, setup_context=_setup_context)


def _require_no_grad(name, *tensors):
    """Raises RuntimeError when autograd would track one of `tensors` through an op without a
    backward pass (its result would silently have no grad_fn)."""
    if torch.is_grad_enabled() and any(t.requires_grad for t in tensors):
        raise RuntimeError(f"{name} has no backward pass: call it on tensors that do not require grad "
                           "(detach(), or under torch.no_grad()), or use state_passing with starts "
                           "from packing.starts_from_offsets for gradients")


def state_passing(local, log_decay, starts=None, method="cuda_core"):
    """h[j] = exp(log_decay[j]) * h[j-1] + local[j] for every chunk j, h[-1] = 0 and h[j-1] := 0
    where starts[j] != 0. method: cuda_core (default, the fastest on an H100), tensor_core or
    tensor_core_speculative (docs/state_passing.md).

    Shapes: local [G, H, N, V] contiguous on a CUDA device; H * N * V <= 2^31 lanes. Per-row
    decays (log_decay [G, H, N], rows contiguous) need V (cols) % 32 == 0; per-head decays
    (log_decay [G, H]) need N * V (rows * cols) % 32 == 0. Otherwise the extension raises."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (one of {', '.join(METHODS)})")
    return _state_passing(local, log_decay, starts, METHODS[method])


def state_passing_per_sequence(local, log_decay, chunk_offsets):
    """The same recurrence, one warp chain per (sequence, 32 lanes): chunk_offsets int64 [S + 1],
    0 first, G last, non-decreasing (checked here, one host copy). float32 only; the shapes of
    state_passing (V % 32 == 0 per row, N * V % 32 == 0 per head).

    Forward only: it has no backward pass, so inputs that require grad (with grad enabled) raise
    RuntimeError instead of returning a result without grad_fn; for gradients use state_passing
    with starts = packing.starts_from_offsets(chunk_offsets)."""
    _require_no_grad("state_passing_per_sequence", local, log_decay)
    o = chunk_offsets.detach().cpu()
    if o.numel() < 1 or int(o[0]) != 0 or int(o[-1]) != local.shape[0] or bool((o[1:] < o[:-1]).any()):
        raise ValueError("chunk_offsets must start at 0, end at G and never decrease")
    return extension().per_sequence(local, log_decay, chunk_offsets, log_decay.dim() == 3)
