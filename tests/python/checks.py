"""Shared by the Python tests: PyTorch or exit 77 (skipped), python/ on the import path, and
check(), which prints one line per check and collects the failures."""
import pathlib
import sys

FAILURES = []


def require_torch():
    """The torch module; exits 77 (ctest: skipped) without PyTorch."""
    try:
        import torch
    except ImportError:
        print("no PyTorch: skipped")
        sys.exit(77)
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python"))
    return torch


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        FAILURES.append(what)
