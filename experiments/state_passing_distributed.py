"""State passing at the MVE split across the GPUs of one machine (torch.distributed, NCCL).

The MVE batch (minimum viable experiment: 32 sequences of LogNormal(7, 1) tokens, 64-token
chunks, 32 heads, 16 x 64 states, per-row decays, fp32), and one of 512 such sequences, is cut at
a random token position per cut (rounded to its chunk), so sequences cross the ranks. Three ways to get h, each timed in the same run as the median of
`--reps` runs (all ranks synchronised before, wall clock until the slowest rank has finished):
  one_gpu      mmvram_torch.state_passing on the whole batch on GPU 0 (the others idle);
  distributed  mmvram_torch.distributed.state_passing, each rank its own chunks;
  gather       every rank's chunks gathered to rank 0, the single-GPU op there, h scattered back;
  local_only   each rank the single-GPU op on its own chunks, no exchange (not h: the floor the
               distributed op's exchange and repair add to).
Each h is checked against the single-GPU op in float64 on the whole batch (the op's rule,
mmvram_torch.STATE_PASSING_TOLERANCE of the |u|
recurrence; the tests check the float64 op against the CPU loop).
Writes RESULTS/state_passing_distributed_<GPU>_x<count>.json (schema
mmvram-state-passing-distributed/1).
usage: python3 experiments/state_passing_distributed.py [--results DIR] [--reps R] [--cuts K]
"""
import argparse
import json
import os
import pathlib
import socket
import subprocess
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python"))
from mmvram_torch import packing  # noqa: E402

H, N, V, C = 32, 16, 64, 64


def timed(fn, reps, warmup=3):
    """Median wall time in µs of fn() on all ranks: barrier, run, synchronise, slowest rank."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        torch.cuda.synchronize()
        dist.barrier()
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        t = torch.tensor([time.perf_counter() - t0], device="cuda")
        dist.all_reduce(t, op=dist.ReduceOp.MAX)
        times.append(t.item() * 1e6)
    times.sort()
    return {"median_us": times[len(times) // 2], "min_us": times[0], "max_us": times[-1], "repetitions": reps}


def worker(rank, world, port, args, queue):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world, device_id=torch.device("cuda", rank))
    import mmvram_torch
    from mmvram_torch import distributed
    gen = torch.Generator().manual_seed(args.seed)
    rows = []
    for config, sequences in (("mve", 32), ("mve_x16", 512)):
        rows += run_config(rank, world, args, gen, config, sequences, mmvram_torch, distributed)
    if rank == 0:
        queue.put(rows)
    dist.destroy_process_group()


def run_config(rank, world, args, gen, config, sequences, mmvram_torch, distributed):
    """Every cut of one batch of `sequences` LogNormal(7, 1) sequences, each way timed."""
    lengths = packing.lognormal_lengths(sequences, 7.0, 1.0, gen)
    offsets = packing.chunk_offsets(lengths, C)
    G = int(offsets[-1])
    starts = packing.starts_from_offsets(offsets)
    local, log_decay = packing.random_problem(G, H, N, V, True, gen)
    tokens = int(lengths.sum())
    u_all, l_all, s_all = local.cuda(), log_decay.cuda(), starts.cuda()
    # The reference: the single-GPU op in float64 (checked against the CPU loop by the tests), and
    # the magnitude the fp32 rule scales with (the |u| recurrence without restarts).
    want = mmvram_torch.state_passing(u_all.double(), l_all.double(), s_all)
    bound = mmvram_torch.state_passing(u_all.double().abs(), l_all.double(), None)
    rows = []
    for k in range(args.cuts):
        token_cuts = sorted(int(t) for t in torch.randint(0, tokens + 1, (world - 1,), generator=gen))
        # A token cut lies in the chunk holding that token of the packed layout: rounded to it.
        chunk_cuts = [0] + [min(G, _chunk_of(t, lengths, offsets)) for t in token_cuts] + [G]
        b, e = chunk_cuts[rank], chunk_cuts[rank + 1]
        u, lg, s = u_all[b:e].contiguous(), l_all[b:e].contiguous(), s_all[b:e].contiguous()

        def one_gpu():
            return mmvram_torch.state_passing(u_all, l_all, s_all) if rank == 0 else None

        def split():
            return distributed.state_passing(u, lg, s)

        counts = [chunk_cuts[r + 1] - chunk_cuts[r] for r in range(world)]
        most = max(counts)

        def gather():
            pad = torch.zeros(most, H, N, V, device="cuda")
            pad[:e - b] = u
            padl = torch.zeros(most, H, N, device="cuda")
            padl[:e - b] = lg
            pads = torch.zeros(most, dtype=torch.uint8, device="cuda")
            pads[:e - b] = s
            us = [torch.empty_like(pad) for _ in range(world)] if rank == 0 else None
            ls = [torch.empty_like(padl) for _ in range(world)] if rank == 0 else None
            ss = [torch.empty_like(pads) for _ in range(world)] if rank == 0 else None
            dist.gather(pad, us, dst=0)
            dist.gather(padl, ls, dst=0)
            dist.gather(pads, ss, dst=0)
            out = torch.empty_like(pad)
            parts = None
            if rank == 0:
                h = mmvram_torch.state_passing(torch.cat([x[:c] for x, c in zip(us, counts)]),
                                               torch.cat([x[:c] for x, c in zip(ls, counts)]),
                                               torch.cat([x[:c] for x, c in zip(ss, counts)]))
                parts = list(torch.split(h, counts))
                parts = [torch.cat([p, torch.zeros(most - p.shape[0], H, N, V, device="cuda")]) for p in parts]
            dist.scatter(out, parts, src=0)
            return out[:e - b]

        result = {"config": config, "sequences": sequences, "cut": k, "chunk_cuts": chunk_cuts, "chunks": G,
                  "tokens": tokens}
        def local_only():
            return mmvram_torch.state_passing(u, lg, s)

        for name, fn in (("one_gpu", one_gpu), ("distributed", split), ("gather", gather), ("local_only", local_only)):
            got = fn()
            if name == "local_only":
                ok = True  # not h: nothing to check
            elif name == "one_gpu":
                ok = rank != 0 or bool(((got.double() - want).abs() <= mmvram_torch.STATE_PASSING_TOLERANCE * bound).all())
            else:
                ok = e == b or bool(((got.double() - want[b:e]).abs() <= mmvram_torch.STATE_PASSING_TOLERANCE * bound[b:e]).all())
            okt = torch.tensor([int(ok)], device="cuda")
            dist.all_reduce(okt, op=dist.ReduceOp.MIN)
            result[name] = {**timed(fn, args.reps), "check": "PASS" if okt.item() else "FAIL"}
            if name == "local_only":
                result[name]["check"] = "not checked (not h)"
        rows.append(result)
        if rank == 0:
            print(json.dumps(result), flush=True)
    return rows


def _chunk_of(token, lengths, offsets):
    """The chunk of the packed, chunk-aligned layout that holds token number `token`."""
    ends = torch.cumsum(lengths, 0)
    k = int(torch.searchsorted(ends, token, right=True))
    if k >= lengths.numel():
        return int(offsets[-1])
    before = int(ends[k - 1]) if k > 0 else 0
    return int(offsets[k]) + (token - before) // C


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--results", default=str(pathlib.Path(__file__).resolve().parent / "results"))
    p.add_argument("--reps", type=int, default=50)
    p.add_argument("--cuts", type=int, default=5)
    p.add_argument("--seed", type=int, default=20261126)
    p.add_argument("--commit", default=None, help="the commit of this tree (default: git rev-parse HEAD)")
    args = p.parse_args()
    world = torch.cuda.device_count()
    if world < 2:
        sys.exit("state_passing_distributed.py: needs two GPUs or more")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    queue = mp.get_context("spawn").SimpleQueue()
    mp.spawn(worker, args=(world, port, args, queue), nprocs=world)
    rows = queue.get()
    gpu = torch.cuda.get_device_name(0)
    out = pathlib.Path(args.results) / f"state_passing_distributed_{gpu.split()[1] if ' ' in gpu else gpu}_x{world}.json"
    commit = args.commit
    if commit is None:
        try:
            commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True,
                                    cwd=pathlib.Path(__file__).parent).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            commit = "unknown"
    doc = {"schema": "mmvram-state-passing-distributed/1", "commit": commit, "gpu": gpu, "gpus": world, "seed": args.seed,
           "shape": {"heads": H, "rows": N, "cols": V, "chunk_tokens": C, "lengths": "LogNormal(7, 1)"},
           "timing": "wall clock, all ranks synchronised before each run, the slowest rank; median of reps",
           "results": rows}
    out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {out}")
    return 1 if any(r[m]["check"] != "PASS" for r in rows for m in ("one_gpu", "distributed", "gather")) else 0


if __name__ == "__main__":
    sys.exit(main())
