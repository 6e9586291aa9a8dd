"""mmvram_torch.distributed.state_passing on every GPU of the machine (one process per GPU,
torch.distributed with NCCL): a batch cut at random chunk boundaries across the ranks (empty
ranks, one sequence across ranks, a start at every cut with an inf just before it), forward in
fp32 against the float64
CPU reference of the whole batch, gradients in float64 against the single-GPU op on the whole
batch. Exits 77 (skipped) without PyTorch or with fewer than two GPUs.
usage: python3 tests/python/test_state_passing_distributed.py"""
import os
import socket
import sys

from checks import FAILURES, check, require_torch

torch = require_torch()
if not torch.cuda.is_available() or torch.cuda.device_count() < 2:
    print("fewer than two CUDA devices: skipped")
    sys.exit(77)

import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402


def cases(gen, world):
    """(name, G, H, N, V, per_row, starts or None, cuts [world + 1], inf_before_cut)."""
    out = []
    for G, H, N, V, per_row, rate in [(64, 2, 2, 32, True, 0.05), (200, 1, 3, 32, True, 0.0), (50, 2, 4, 8, False, 0.1),
                                      (9, 1, 1, 32, True, 0.3), (300, 2, 2, 64, True, 0.01), (2, 1, 2, 16, False, 0.5)]:
        starts = (torch.rand(G, generator=gen) < rate).to(torch.uint8) if rate > 0 else None
        inner = sorted(int(c) for c in torch.randint(0, G + 1, (world - 1,), generator=gen))
        out.append((f"G={G} H={H} N={N} V={V} {'per_row' if per_row else 'per_head'} rate {rate} cuts {inner}",
                    G, H, N, V, per_row, starts, [0] + inner + [G], False))
        # Every chunk on the last rank (the others empty), no starts.
        out.append((f"G={G} all chunks on the last rank, no starts", G, H, N, V, per_row, None, [0] * world + [G], False))
    # A sequence starts exactly at each cut, and the sequence before it holds an inf: the inf must
    # stay in its own sequence (forward only; its gradients are not finite).
    G = 64
    starts = torch.zeros(G, dtype=torch.uint8)
    starts[0] = 1
    cuts = [0] + [G * (k + 1) // world for k in range(world - 1)] + [G]
    for c in cuts[1:-1]:
        starts[c] = 1
    out.append((f"G={G} a start at every cut, an inf just before it", G, 2, 2, 32, True, starts, cuts, True))
    return out


def close(got, want, bound, tol):
    """got within tol * bound of want where want is finite, and the same inf or NaN where not."""
    finite = torch.isfinite(want)
    if not bool((torch.isfinite(got) == finite).all()):
        return False
    same = (got[~finite] == want[~finite]) | (torch.isnan(got[~finite]) & torch.isnan(want[~finite]))
    return bool(((got[finite] - want[finite]).abs() <= tol * bound[finite]).all()) and bool(same.all())


def worker(rank, world, port, seed):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world, device_id=torch.device("cuda", rank))
    import mmvram_torch
    from mmvram_torch import distributed, packing
    gen = torch.Generator().manual_seed(seed)
    for name, G, H, N, V, per_row, starts, cuts, inf_before_cut in cases(gen, world):
        local, log_decay = packing.random_problem(G, H, N, V, per_row, gen)
        if inf_before_cut:
            for c in cuts[1:-1]:
                local[c - 1, 0, 0, 0] = float("inf")
        weights = torch.randn(local.shape, generator=gen, dtype=torch.float64)
        b, e = cuts[rank], cuts[rank + 1]
        mine = None if starts is None else starts[b:e].cuda()
        # Forward, fp32: the single-GPU op's rule (STATE_PASSING_TOLERANCE of the |u| recurrence
        # without restarts); the exchange adds two roundings of the carried state, far below it.
        want = packing.reference(local, log_decay, starts)[b:e]
        bound = packing.reference(local.abs(), log_decay, None)[b:e]
        tol = mmvram_torch.STATE_PASSING_TOLERANCE
        for method in mmvram_torch.METHODS:
            if inf_before_cut and method != "cuda_core":
                continue  # only the CUDA-core method keeps an inf in its sequence (docs/state_passing.md)
            got = distributed.state_passing(local[b:e].cuda(), log_decay[b:e].cuda(), mine, method).cpu().double()
            finite = torch.isfinite(want)
            err = (got[finite] - want[finite]).abs().max().item() if bool(finite.any()) else 0.0
            check(close(got, want, bound, tol), f"rank {rank} forward {name} {method}: max abs error {err:.2e}")
        if inf_before_cut:
            continue
        # Backward, float64: against autograd through the single-GPU op on the whole batch.
        u = local.double()[b:e].cuda().requires_grad_()
        lg = log_decay.double()[b:e].cuda().requires_grad_()
        (distributed.state_passing(u, lg, mine) * weights[b:e].cuda()).sum().backward()
        u_all = local.double().cuda().requires_grad_()
        l_all = log_decay.double().cuda().requires_grad_()
        all_starts = None if starts is None else starts.cuda()
        (mmvram_torch.state_passing(u_all, l_all, all_starts) * weights.cuda()).sum().backward()
        err_u = ((u.grad - u_all.grad[b:e]).abs() / (1 + u_all.grad[b:e].abs())).max().item() if e > b else 0.0
        err_l = ((lg.grad - l_all.grad[b:e]).abs() / (1 + l_all.grad[b:e].abs())).max().item() if e > b else 0.0
        check(err_u < 1e-10 and err_l < 1e-10, f"rank {rank} backward {name}: du {err_u:.1e}, dl {err_l:.1e}")
    dist.destroy_process_group()
    if FAILURES:
        raise SystemExit(f"rank {rank}: {len(FAILURES)} failures")


def main():
    world = torch.cuda.device_count()
    seed = int(torch.randint(0, 2**31, (1,)).item())
    print(f"seed {seed}, {world} ranks")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    try:
        mp.spawn(worker, args=(world, port, seed), nprocs=world)
    except Exception as e:  # a rank failed: its lines above say which check
        print(f"FAIL {e}")
        return 1
    print("0 failures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
