#!/usr/bin/env bash
# The README's test command: install dependencies, build (with CUDA when nvcc is present),
# and run every Catch2 test through ctest. GPU tests skip cleanly where no GPU is present.
# `--sanitize` runs the CPU tests again under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tools/scripts/setup.sh

preset=cpu
command -v nvcc >/dev/null 2>&1 && preset=cuda
[ "${1:-}" = "--sanitize" ] && preset=asan
jobs=$(nproc)

cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$jobs"
ctest --preset "$preset" -j "$jobs"
