"""Packed variable-length batches for the state propagation, and its float64 reference (CPU).

Needs only torch (no GPU, no extension), so tests and experiments share it."""
import math

import torch


_MAX_LENGTH = 2 ** 62  # token counts stay exact in int64 and in the float64 draw


def lognormal_lengths(sequences, mu, sigma, generator, max_tokens=None):
    """Token counts of `sequences` sequences drawn from LogNormal(mu, sigma), at least 1 each,
    at most max_tokens when given (else at most 2^62). Raises ValueError for sequences < 0,
    a mu or sigma that is not finite, sigma < 0, or max_tokens < 1 (every length would be 0)."""
    if int(sequences) != sequences or sequences < 0:
        raise ValueError(f"sequences must be a count >= 0 (got {sequences!r})")
    if not (math.isfinite(mu) and math.isfinite(sigma) and sigma >= 0):
        raise ValueError(f"mu and sigma must be finite, sigma >= 0 (got mu={mu!r}, sigma={sigma!r})")
    if max_tokens is not None and not 1 <= max_tokens <= _MAX_LENGTH:
        raise ValueError(f"max_tokens must be in 1..2^62 (got {max_tokens!r})")
    z = torch.randn(int(sequences), generator=generator, dtype=torch.float64)
    top = _MAX_LENGTH if max_tokens is None else max_tokens
    lengths = torch.exp(mu + sigma * z).round().clamp(min=1, max=top)  # exp overflow: inf -> top
    return lengths.to(torch.int64)


def chunk_offsets(lengths, chunk):
    """Chunk-aligned packing: sequence k takes ceil(T_k / chunk) chunks; returns int64 [S + 1].
    Raises ValueError for chunk < 1 or a negative length."""
    if int(chunk) != chunk or chunk < 1:
        raise ValueError(f"chunk must be a whole number >= 1 (got {chunk!r})")
    lengths = torch.as_tensor(lengths, dtype=torch.int64)
    if lengths.numel() and bool((lengths < 0).any()):
        raise ValueError("lengths must be >= 0")
    chunks = (lengths + chunk - 1) // chunk
    return torch.cat([torch.zeros(1, dtype=torch.int64), torch.cumsum(chunks, 0)])


def starts_from_offsets(offsets):
    """uint8 [G] with 1 at the first chunk of every sequence."""
    starts = torch.zeros(int(offsets[-1]), dtype=torch.uint8)
    starts[offsets[:-1][offsets[:-1] < offsets[-1]]] = 1
    return starts


def random_problem(chunks, heads, rows, cols, per_row, generator, dtype=torch.float32):
    """Local states ~ N(0, 1) [G, H, N, V] and chunk log-decays in [-1, 0] ([G, H, N] per row,
    [G, H] per head; one in ten exactly 0), on the CPU."""
    local = torch.randn(chunks, heads, rows, cols, generator=generator).to(dtype)
    shape = (chunks, heads, rows) if per_row else (chunks, heads)
    log_decay = -torch.rand(shape, generator=generator)
    log_decay[torch.rand(shape, generator=generator) < 0.1] = 0.0
    return local, log_decay


def reference(local, log_decay, starts):
    """h[j] = exp(l[j]) h[j-1] + u[j] restarted at starts, sequentially in float64 on the CPU."""
    u = local.detach().to("cpu", torch.float64)
    a = torch.exp(log_decay.detach().to("cpu", torch.float64))
    if a.dim() == 2:
        a = a[:, :, None, None]
    else:
        a = a[:, :, :, None]
    h = torch.empty_like(u)
    carry = torch.zeros_like(u[0]) if u.shape[0] else None
    for j in range(u.shape[0]):
        restart = starts is not None and bool(starts[j])
        carry = u[j] if restart else a[j] * carry + u[j]
        h[j] = carry
    return h


def padded_offsets(offsets):
    """Every sequence padded to the longest one's chunk count: offsets of the padded layout."""
    counts = offsets[1:] - offsets[:-1]
    longest = int(counts.max()) if counts.numel() else 0
    return torch.arange(counts.numel() + 1, dtype=torch.int64) * longest, longest

