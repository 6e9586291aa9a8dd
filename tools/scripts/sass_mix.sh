#!/usr/bin/env bash
# The static SASS instruction mix of every kernel file in gpu/kernels/src/ for sm_90a: compiles each to a
# cubin, disassembles it (cuobjdump, which needs nvdisasm; both ship with the CUDA toolkit and as
# the PyPI packages nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm) and counts per kernel with
# experiments/sass_mix.py. Writes experiments/results/sass_mix_sm90a.json (or $1).
#   usage: tools/scripts/sass_mix.sh [OUT.json]     (CUOBJDUMP=path overrides the tool)
# Without CUOBJDUMP it takes cuobjdump from PATH, /usr/local/cuda/bin, or the pip packages
# (python3 -m pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm: nvidia/cu*/bin/ of the
# python3's site-packages); nvdisasm is looked for beside the cuobjdump it uses.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-experiments/results/sass_mix_sm90a.json}
pip_tool() {  # the pip-installed tool $1 (nvidia/cu*/bin/$1), or nothing
  python3 - "$1" 2>/dev/null <<'PY' || true
import glob, os, sys
import nvidia
for root in nvidia.__path__:
    for p in sorted(glob.glob(os.path.join(root, "cu*", "bin", sys.argv[1])), reverse=True):
        if os.access(p, os.X_OK):
            print(p)
            sys.exit(0)
PY
}
cuobjdump=${CUOBJDUMP:-$(command -v cuobjdump || true)}
[[ -n $cuobjdump ]] || { [[ -x /usr/local/cuda/bin/cuobjdump ]] && cuobjdump=/usr/local/cuda/bin/cuobjdump; } || true
[[ -n $cuobjdump ]] || cuobjdump=$(pip_tool cuobjdump)
[[ -n $cuobjdump && -x $cuobjdump ]] || {
  echo "sass_mix.sh: cuobjdump not found: install the CUDA toolkit's, or" \
    "python3 -m pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm, or set CUOBJDUMP=path" >&2
  exit 2
}
# cuobjdump -sass runs nvdisasm from PATH: the one beside it first.
export PATH="$(dirname "$cuobjdump"):$PATH"
command -v nvdisasm >/dev/null || {
  echo "sass_mix.sh: nvdisasm not found (python3 -m pip install nvidia-cuda-nvdisasm, or put it on PATH)" >&2
  exit 2
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for cu in gpu/kernels/src/*.cu; do
  nvcc -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Igpu/kernels/include -Igpu/kernels/internal -Igpu/kernels/src \
    -Igpu/runtime/include --expt-relaxed-constexpr \
    -cubin -o "$tmp/$(basename "$cu" .cu).cubin" "$cu"
  "$cuobjdump" -sass "$tmp/$(basename "$cu" .cu).cubin"
done | python3 experiments/sass_mix.py > "$out"
echo "sass_mix.sh: $out ($(nvcc --version | tail -n 1))"
