#!/usr/bin/env bash
# Installs what mmvram needs on a fresh Debian machine, skipping what is already there:
# compilers and CMake, Eigen 3, Boost.Graph, Catch2, nlohmann/json (the one JSON library),
# Google Benchmark, Graphviz, clang with libFuzzer (for fuzz/), and from PyPI matplotlib for the plots (python3 may be a pyenv build,
# not Debian's) and, where nvcc is present, nvidia-cuda-cccl (newer CCCL headers, for the
# cub::DeviceSegmentedScan baseline of `mmvram kernels`). Safe to run repeatedly.
set -euo pipefail

packages=(build-essential cmake ninja-build libeigen3-dev libboost-graph-dev catch2
          nlohmann-json3-dev libbenchmark-dev graphviz python3 python3-pip clang)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing Debian packages: ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# libFuzzer (tools/scripts/fuzz.sh): some Debian releases ship its runtime apart from clang.
fuzz_probe='extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }'
if ! echo "$fuzz_probe" | clang++ -x c++ -fsanitize=fuzzer - -o /dev/null >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  major=$(clang++ -dumpversion | cut -d. -f1)
  echo "setup: installing libFuzzer (libclang-rt-$major-dev)" >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "libclang-rt-$major-dev" >/dev/null
fi

if ! python3 -c "import matplotlib" >/dev/null 2>&1; then
  echo "setup: installing matplotlib from PyPI" >&2
  python3 -m pip install -q matplotlib 2>/dev/null ||
    python3 -m pip install -q --break-system-packages matplotlib 2>/dev/null ||
    python3 -m pip install -q --user --break-system-packages matplotlib
fi

# Optional: without it the build skips one GPU baseline and says so.
if command -v nvcc >/dev/null 2>&1 &&
   ! python3 -c "import nvidia, os, sys; sys.exit(not any(os.path.exists(os.path.join(p, 'cu13/include/cccl/cub/device/device_segmented_scan.cuh')) for p in nvidia.__path__))" >/dev/null 2>&1; then
  echo "setup: installing nvidia-cuda-cccl from PyPI" >&2
  cccl="nvidia-cuda-cccl>=13.3,<14"
  python3 -m pip install -q "$cccl" 2>/dev/null ||
    python3 -m pip install -q --break-system-packages "$cccl" 2>/dev/null ||
    python3 -m pip install -q --user --break-system-packages "$cccl" 2>/dev/null ||
    echo "setup: could not install nvidia-cuda-cccl; the cccl_segmented_scan baseline will be skipped" >&2
fi
