"""The PyTorch op mmvram_torch.state_passing on the GPU: forward against the float64 CPU
reference (every method, both decay layouts, fp32/bf16/fp64), the backward pass by gradcheck in
float64 and against autograd through the reference in fp32. Exits 77 (skipped) without
PyTorch or a CUDA device. usage: python3 tests/python/test_state_passing_torch.py"""
import sys

from checks import FAILURES, check, require_torch

torch = require_torch()
if not torch.cuda.is_available():
    print("no CUDA device: skipped")
    sys.exit(77)

import mmvram_torch  # noqa: E402
from mmvram_torch import packing  # noqa: E402


def differentiable_reference(local, log_decay, starts):
    """The recurrence in torch ops (autograd follows it)."""
    a = torch.exp(log_decay)
    a = a[:, :, :, None] if a.dim() == 3 else a[:, :, None, None]
    out, carry = [], torch.zeros_like(local[0])
    for j in range(local.shape[0]):
        carry = local[j] if bool(starts[j]) else a[j] * carry + local[j]
        out.append(carry)
    return torch.stack(out)


def forward_cases(gen):
    for chunks, heads, rows, cols, per_row in [(1, 1, 1, 32, True), (37, 2, 3, 32, True), (300, 2, 4, 64, True),
                                               (100, 3, 4, 8, False), (0, 1, 1, 32, True)]:
        starts = (torch.rand(chunks, generator=gen) < 0.05).to(torch.uint8)
        local, log_decay = packing.random_problem(chunks, heads, rows, cols, per_row, gen)
        yield f"G={chunks} H={heads} N={rows} V={cols} {'per_row' if per_row else 'per_head'}", local, log_decay, starts


def test_forward(gen):
    for name, local, log_decay, starts in forward_cases(gen):
        for dtype in (torch.float32, torch.bfloat16):
            u = local.to(dtype)
            want = packing.reference(u, log_decay, starts)
            bound = packing.reference(u.float().abs(), log_decay, None)  # unsegmented magnitude
            for method in mmvram_torch.METHODS:
                got = mmvram_torch.state_passing(u.cuda(), log_decay.cuda(), starts.cuda(), method).cpu().double()
                excess = ((got - want).abs() - mmvram_torch.STATE_PASSING_TOLERANCE * bound).max().item() if got.numel() else -1.0
                err = (got - want).abs().max().item() if got.numel() else 0.0
                check(excess <= 0, f"forward {name} {dtype} {method}: max abs error {err:.2e}")
        got = mmvram_torch.state_passing(local.double().cuda(), log_decay.double().cuda(), starts.cuda())
        err = (got.cpu() - packing.reference(local.double(), log_decay.double(), starts)).abs().max().item() \
            if got.numel() else 0.0
        check(err <= 1e-12, f"forward {name} float64: max abs error {err:.2e}")


def test_backward(gen):
    for per_row, with_starts in ((True, True), (False, True), (False, False)):
        chunks, starts = 21, torch.zeros(21, dtype=torch.uint8)
        if with_starts:
            starts[[0, 5, 6, 15]] = 1
        rows, cols = 2, 32
        local = torch.randn(chunks, 1, rows, cols, dtype=torch.float64, generator=gen).cuda().requires_grad_()
        shape = (chunks, 1, rows) if per_row else (chunks, 1)
        log_decay = (-torch.rand(shape, dtype=torch.float64, generator=gen)).cuda().requires_grad_()
        maybe_starts = starts.cuda() if with_starts else None
        name = f"{'per_row' if per_row else 'per_head'}, {'starts' if with_starts else 'no starts'}"
        ok = torch.autograd.gradcheck(lambda u, l: mmvram_torch.state_passing(u, l, maybe_starts),
                                      (local, log_decay), eps=1e-6, atol=1e-7, rtol=1e-5, raise_exception=False)
        check(ok, f"gradcheck float64 {name}")
        for method in mmvram_torch.METHODS:
            u32 = local.detach().float().requires_grad_()
            l32 = log_decay.detach().float().requires_grad_()
            weights = torch.randn(local.shape, generator=gen, dtype=torch.float64).cuda()
            (mmvram_torch.state_passing(u32, l32, maybe_starts, method).double() * weights).sum().backward()
            u64 = local.detach().clone().requires_grad_()
            l64 = log_decay.detach().clone().requires_grad_()
            (differentiable_reference(u64, l64, starts) * weights).sum().backward()
            err_u = (u32.grad.double() - u64.grad).abs().max().item()
            err_l = ((l32.grad.double() - l64.grad).abs() / (l64.grad.abs() + 1)).max().item()
            check(err_u < 1e-4 and err_l < 1e-4, f"backward fp32 {method} {name}: du {err_u:.1e}, dl (relative) {err_l:.1e}")


def main():
    seed = int(torch.randint(0, 2**31, (1,)).item())
    print(f"seed {seed}")
    gen = torch.Generator().manual_seed(seed)
    test_forward(gen)
    test_backward(gen)
    try:
        mmvram_torch.state_passing(torch.zeros(4, 1, 1, 16).cuda(), torch.zeros(4, 1, 1).cuda(), None)
        check(False, "cols % 32 != 0 refused")
    except RuntimeError as e:
        check("cols % 32" in str(e), f"cols % 32 != 0 refused: {str(e).splitlines()[0]}")
    print(f"{len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
