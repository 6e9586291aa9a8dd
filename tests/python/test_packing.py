"""The pure-PyTorch parts of python/mmvram_torch (no GPU, no extension): packing's argument
checks (chunk_offsets refuses chunk < 1 and negative lengths; lognormal_lengths never returns a
length below 1 and refuses parameters that would) and state_passing_per_sequence refusing inputs
that require grad (it has no backward pass). Exits 77 (skipped) without PyTorch.
usage: python3 tests/python/test_packing.py"""
import sys

from checks import FAILURES, check, require_torch

torch = require_torch()
from mmvram_torch import packing  # noqa: E402


def raises(error, call):
    try:
        call()
    except error:
        return True
    return False


def main():
    gen = torch.Generator().manual_seed(1)
    lengths = torch.tensor([1, 5, 64, 65, 0])
    check(packing.chunk_offsets(lengths, 64).tolist() == [0, 1, 2, 3, 5, 5], "chunk_offsets of 1, 5, 64, 65, 0 at 64")
    for chunk in (0, -1, 0.5):
        check(raises(ValueError, lambda: packing.chunk_offsets(lengths, chunk)), f"chunk_offsets refuses chunk {chunk}")
    check(raises(ValueError, lambda: packing.chunk_offsets(torch.tensor([3, -1]), 4)), "chunk_offsets refuses length -1")
    got = packing.lognormal_lengths(1000, -50.0, 0.1, gen)
    check(bool((got >= 1).all()), "lognormal_lengths at mu = -50: every length >= 1")
    got = packing.lognormal_lengths(100, 800.0, 1.0, gen)  # exp overflows to inf
    check(bool((got >= 1).all()) and int(got.max()) == 2 ** 62, "lognormal_lengths at mu = 800: capped at 2^62")
    check(int(packing.lognormal_lengths(100, 5.0, 3.0, gen, max_tokens=7).max()) <= 7, "max_tokens caps the lengths")
    for args in [(10, 1.0, 1.0, 0), (10, float("nan"), 1.0, None), (10, 1.0, -1.0, None), (-1, 1.0, 1.0, None),
                 (10, 1.0, float("inf"), None)]:
        check(raises(ValueError, lambda: packing.lognormal_lengths(args[0], args[1], args[2], gen, max_tokens=args[3])),
              f"lognormal_lengths refuses {args}")
    # state_passing_per_sequence: refused before the extension is built (no GPU needed).
    import mmvram_torch
    local = torch.zeros(2, 1, 1, 32, requires_grad=True)
    log_decay = torch.zeros(2, 1, 1)
    offsets = torch.tensor([0, 2])
    check(raises(RuntimeError, lambda: mmvram_torch.state_passing_per_sequence(local, log_decay, offsets)),
          "state_passing_per_sequence refuses local that requires grad")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
