"""The state propagation across ranks (torch.distributed, NCCL backend): a packed batch's chunks
split in order over the ranks of a process group, sequences crossing rank boundaries.

    h = mmvram_torch.distributed.state_passing(local, log_decay, starts, group=None)

Each rank passes its own consecutive chunks (rank 0 the first ones), shaped as for
mmvram_torch.state_passing, and gets back its chunks of the whole batch's h. Each rank runs the
single-GPU op on its chunks, then all ranks exchange, in one all_gather, a summary per lane: the
end state of their chunks, the product of their decays and whether a sequence starts among them.
Rank r folds the summaries of ranks < r into the state carried into its first chunk and adds
exp(sum of its log-decays up to j) * carry to every chunk j before its first start (a prefix of
its chunks; the others are copied as they are). Autograd
runs through it: the all_gather is torch.distributed.nn's, whose backward sends each rank's
gradient of the summaries back to the rank that made them (the exchange in reverse).
"""
import torch
import torch.distributed as dist
import torch.distributed.nn.functional as dist_fn

from . import state_passing as _single_gpu


class _Tie(torch.autograd.Function):
    """h unchanged, made to depend on the exchanged summaries, so that a rank whose result takes
    no carry still joins the all_gather's backward (a collective)."""

    @staticmethod
    def forward(ctx, h, exchanged):
        ctx.exchanged_shape, ctx.exchanged_dtype = exchanged.shape, exchanged.dtype
        return h.view_as(h)

    @staticmethod
    def backward(ctx, grad):
        return grad, torch.zeros(ctx.exchanged_shape, dtype=ctx.exchanged_dtype, device=grad.device)


def _lanes(t, per_row):
    """A [.., H, N] (per row) or [.., H] (per head) decay tensor broadcast over [.., H, N, V]."""
    return t[..., None] if per_row else t[..., None, None]


def _decay_products(log_decay, dtype):
    """exp(l[0] + ... + l[j]) for every chunk j, summed in float64 so that long runs of small
    decays keep the product's bits. The sum runs along the last dimension of the transposed
    decays: a cumsum along dim 0 of [G, lanes] is one dependent add per chunk in each lane, while
    along the innermost dimension it is a parallel scan."""
    chunks = log_decay.shape[0]
    if chunks == 0:
        return log_decay.to(dtype)
    per_lane = log_decay.to(torch.float64).reshape(chunks, -1).t().contiguous()
    return torch.exp(torch.cumsum(per_lane, 1)).t().reshape(log_decay.shape).to(dtype)


def state_passing(local, log_decay, starts=None, method="cuda_core", group=None):
    """This rank's chunks of h for a batch split over the ranks of `group` in rank order (see the
    module's text). local [G_r, H, N, V] on this rank's GPU (G_r may be 0), log_decay [G_r, H, N]
    or [G_r, H], starts uint8 [G_r] or None (no sequence starts on this rank); every rank passes
    the same H, N, V, dtype, decay layout and method, and inputs that require grad on one rank
    require it on all (the backward is a collective too). Collective: every rank of the group
    calls it. Returns float32 (float64 for float64 input); where no chunk takes a carry the result
    is a view tied to the exchange, so clone it before modifying it in place."""
    rank, world = dist.get_rank(group), dist.get_world_size(group)
    per_row = log_decay.dim() == 3
    h_local = _single_gpu(local, log_decay, starts, method)
    chunks = local.shape[0]
    # before[j] = 1 while no sequence has started on this rank up to chunk j (device-side, no sync).
    if starts is None:
        before = torch.ones(chunks, dtype=h_local.dtype, device=local.device)
    else:
        before = (torch.cumsum(starts.to(torch.int32), 0) == 0).to(h_local.dtype)
    decay = _decay_products(log_decay, h_local.dtype)
    lane_shape = h_local.shape[1:]
    decay_shape = log_decay.shape[1:]
    if chunks > 0:
        end, product, opened = h_local[-1], decay[-1], 1 - before[-1:]
    else:  # sums over no chunks: zeros and ones that stay in the autograd graph of the inputs,
        # so this rank joins the all_gather's backward like the others
        end = local.to(h_local.dtype).sum(0)
        product = torch.exp(log_decay.to(h_local.dtype).sum(0))
        opened = h_local.new_zeros(1)
    summary = torch.cat([end.reshape(-1), product.reshape(-1), opened])
    gathered = dist_fn.all_gather(summary, group=group) if world > 1 else [summary]
    carry = h_local.new_zeros(lane_shape)
    lanes, products = end.numel(), product.numel()
    for q in range(rank):
        s = gathered[q]
        end_q = s[:lanes].reshape(lane_shape)
        product_q = _lanes(s[lanes:lanes + products].reshape(decay_shape), per_row)
        # A start on rank q ends the carried sequence: take its end state, never 0 * carry (an
        # inf or NaN of an earlier sequence must not reach this one).
        carry = torch.where(s[-1] > 0, end_q, product_q * carry + end_q)
    # The chunks before this rank's first start form a prefix: only they take the carry (one
    # host synchronisation, after the exchange has been queued, reads its length).
    first = int(before.sum().item()) if rank > 0 else 0
    if first > 0:
        fixed = torch.addcmul(h_local[:first], _lanes(decay[:first], per_row), carry[None])
        return fixed if first == chunks else torch.cat([fixed, h_local[first:]])
    return _Tie.apply(h_local, torch.stack(gathered)) if world > 1 else h_local
