#!/usr/bin/env bash
# The static SASS instruction mix of every kernel file in gpu/kernels/src/ for sm_90a: compiles each to a
# cubin, disassembles it (cuobjdump, which needs nvdisasm; both ship with the CUDA toolkit and as
# the PyPI packages nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm) and counts per kernel with
# experiments/sass_mix.py. Writes experiments/results/sass_mix_sm90a.json (or $1).
#   usage: tools/scripts/sass_mix.sh [OUT.json]     (CUOBJDUMP=path overrides the tool)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-experiments/results/sass_mix_sm90a.json}
cuobjdump=${CUOBJDUMP:-$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)}
[[ -x $cuobjdump ]] || { echo "sass_mix.sh: cuobjdump not found (set CUOBJDUMP)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for cu in gpu/kernels/src/*.cu; do
  nvcc -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Igpu/kernels/include -Igpu/kernels/internal -Igpu/kernels/src \
    -Igpu/runtime/include --expt-relaxed-constexpr \
    -cubin -o "$tmp/$(basename "$cu" .cu).cubin" "$cu"
  "$cuobjdump" -sass "$tmp/$(basename "$cu" .cu).cubin"
done | python3 experiments/sass_mix.py > "$out"
echo "sass_mix.sh: $out ($(nvcc --version | tail -n 1))"
