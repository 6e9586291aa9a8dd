#!/usr/bin/env bash
# The whole GPU suite on one commit, recorded: the Catch2 GPU cases (baselines, fused kernels,
# special values, state passing, SpMV, both backends), the concurrency stress, the PyTorch op's
# test, `mmvram kernels check --quick`, `mmvram kernels check ALGO` (matmul-scan, sscr, scd,
# spmv), `mmvram kernels spmv --quick` and `mmvram kernels stress`; writes
# experiments/results/gpu_suite_<GPU>.json with the commit, date, GPU, driver and each suite's
# counts and verdict. Exit 0 only when every suite passed.
#
#   bash tools/scripts/gpu_suite.sh [--stress-seconds S] [--out FILE]
#       builds the cuda preset here (tools/scripts/setup.sh installs what is missing) and runs it
#       (S: the Catch2 stress case's length, default 120; `mmvram kernels stress` runs 60 s: soaks
#       run apart, docs/gpu_testing.md);
#   bash tools/scripts/gpu_suite.sh --pack DIR
#       builds here and packs the GPU programs with the commit into DIR (no GPU needed), for a
#       GPU machine without the build's dependencies (the CUDA runtime and cuSPARSE, 260 MB with
#       its nvJitLink, are not packed: they come from that machine, below);
#   bash tools/scripts/gpu_suite.sh --bin DIR [--stress-seconds S] [--out FILE]
#       runs the programs packed in DIR (their commit is the one recorded).
set -euo pipefail
cd "$(dirname "$0")/../.."

bin="" pack="" out="" stress_seconds=120
while (($#)); do
  case "$1" in
    --bin) bin="${2:?--bin needs a folder}"; shift 2 ;;
    --pack) pack="${2:?--pack needs a folder}"; shift 2 ;;
    --out) out="${2:?--out needs a file}"; shift 2 ;;
    --stress-seconds) stress_seconds="${2:?--stress-seconds needs a number}"; shift 2 ;;
    *) echo "gpu_suite.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[[ "$stress_seconds" =~ ^[0-9]+$ ]] || { echo "gpu_suite.sh: --stress-seconds takes whole seconds" >&2; exit 2; }

programs=(tools/mmvram tests/gpu/mmvram_gpu_tests tests/gpu/mmvram_backend_tests
          tests/gpu/mmvram_stress_tests tests/gpu/mmvram_multi_gpu_tests
          gpu/baselines/libmmvram_cccl_segmented_scan.so)

commit_info() {  # {"commit": ..., "dirty": ...} of this checkout
  local dirty=false
  [ -n "$(git status --porcelain 2>/dev/null)" ] && dirty=true
  printf '{"commit": "%s", "dirty": %s}\n' "$(git rev-parse HEAD)" "$dirty"
}

if [ -z "$bin" ]; then
  bash tools/scripts/setup.sh
  cmake --preset cuda >/dev/null
  cmake --build --preset cuda -j "$(nproc)"
  if [ -n "$pack" ]; then
    mkdir -p "$pack"
    for p in "${programs[@]}"; do
      [ -f "build/cuda/$p" ] || { [[ "$p" == *.so || "$p" == *multi_gpu* ]] && continue; echo "gpu_suite.sh: build/cuda/$p missing" >&2; exit 1; }
      strip -o "$pack/$(basename "$p")" "build/cuda/$p"
    done
    commit_info > "$pack/build_info.json"
    echo "gpu_suite.sh: packed $(ls "$pack" | wc -l) files into $pack"
    exit 0
  fi
  bin=$(mktemp -d)
  for p in "${programs[@]}"; do [ -f "build/cuda/$p" ] && ln -s "$PWD/build/cuda/$p" "$bin/"; done
  commit_info > "$bin/build_info.json"
fi
[ -f "$bin/build_info.json" ] || { echo "gpu_suite.sh: $bin/build_info.json missing (pack with --pack)" >&2; exit 2; }
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# cuSPARSE (the SpMV rival) from the machine: the toolkit's (the programs' RUNPATH) or, where
# that has none, the nvidia-* wheels PyTorch brings (site-packages/nvidia/*/lib).
if ldd "$bin/mmvram" | grep 'libcusparse.*not found' >/dev/null; then
  for d in $(python3 -c 'import glob, os, nvidia
print(" ".join(sorted({os.path.dirname(p) for b in nvidia.__path__ for n in ("libcusparse.so.*", "libnvJitLink.so.*")
                       for p in glob.glob(os.path.join(b, "**", n), recursive=True)})))' 2>/dev/null); do
    LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$d"
  done
  ! ldd "$bin/mmvram" | grep 'not found' ||
    { echo "gpu_suite.sh: shared libraries of $bin/mmvram not found (above)" >&2; exit 2; }
fi
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 ||
  { echo "gpu_suite.sh: no GPU (nvidia-smi -L failed); nothing recorded" >&2; exit 2; }

logs=$(mktemp -d)
suites=()
run_suite() {  # name, command...: runs it, keeps its log and exit code
  local name=$1; shift
  local start=$SECONDS rc=0
  echo "gpu_suite.sh: $name: $*" >&2
  "$@" >"$logs/$name.log" 2>&1 || rc=$?
  echo "$name $rc $((SECONDS - start))" >>"$logs/summary"
  tail -n 3 "$logs/$name.log" >&2
}
run_suite gpu_baselines "$bin/mmvram_gpu_tests" "[baselines]"
run_suite gpu_kernels "$bin/mmvram_gpu_tests" "[ours]"
run_suite gpu_state_passing "$bin/mmvram_gpu_tests" "[state_passing]"
run_suite gpu_spmv "$bin/mmvram_gpu_tests" "[spmv]"
run_suite gpu_backends "$bin/mmvram_backend_tests" "[backends]"
run_suite gpu_stress env MMV_STRESS_SECONDS="$stress_seconds" "$bin/mmvram_stress_tests" "[stress]"
run_suite python_state_passing python3 tests/python/test_state_passing_torch.py
run_suite python_packing python3 tests/python/test_packing.py
run_suite check_quick "$bin/mmvram" kernels check --quick --out "$logs/check.json"
# One input through the simulate backend, the cuda backend and every fused kernel, per algorithm.
run_suite check_algorithms bash -c 'rc=0; for a in matmul-scan sscr scd spmv; do "$0" kernels check "$a" || rc=1; done; exit $rc' "$bin/mmvram"
run_suite spmv_quick "$bin/mmvram" kernels spmv --quick --out "$logs/spmv.json"
run_suite stress "$bin/mmvram" kernels stress --seconds 60 --out "$logs/stress.json"
# The sharded kernels (gpu/multi, NCCL): only where there are two GPUs or more and NCCL was built.
if [ "$(nvidia-smi -L | wc -l)" -ge 2 ] && [ -f "$bin/mmvram_multi_gpu_tests" ]; then
  run_suite gpu_multi "$bin/mmvram_multi_gpu_tests" "[multi_gpu]"
  run_suite python_state_passing_distributed python3 tests/python/test_state_passing_distributed.py
fi

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | sed -n 1p)
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | sed -n 1p)
python3 tools/scripts/gpu_suite_record.py "$logs" "$bin/build_info.json" "$gpu" "$driver" "$stress_seconds" "$out"
