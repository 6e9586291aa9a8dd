#!/bin/sh
# The final device run of issue 5, in two calls of the `run` tool (each under 10 minutes), with
# the CMake-built mmvram-gpu and mmvram_gpu_tests copied to .device-carry/harness/:
#   sh gpu/src-dev/final_device.sh check   # Catch2 GPU tests, sanitizers, full mmvram-gpu check
#   sh gpu/src-dev/final_device.sh bench   # mmvram-gpu bench at n = 2^28 (copy + CUB in the run)
# Results go to $OUT as gpu_{check,bench}_<GPU>.{json,log}, GPU = H100, H200, ...
cd "$(dirname "$0")/../.." || exit 1
export LD_LIBRARY_PATH=$PWD/.device-carry/harness
H=.device-carry/harness
OUT=${OUT:-/tmp}
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | grep -oE "[A-Z][0-9]{2,3}" | head -1)
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader
if [ "${1:-check}" = check ]; then
  timeout 150 $H/mmvram_gpu_tests > $OUT/gpu_tests_$GPU.log 2>&1; echo "catch2 rc=$?"
  tail -2 $OUT/gpu_tests_$GPU.log
  for tool in memcheck racecheck; do
    timeout 120 compute-sanitizer --tool $tool .device-carry/kernels/check --small > /tmp/san.log 2>&1
    echo "sanitizer $tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log) $(grep -E '^checked' /tmp/san.log)"
  done
  timeout 400 $H/mmvram-gpu check --json $OUT/gpu_check_$GPU.json > $OUT/gpu_check_$GPU.log 2>&1
  echo "check rc=$?"
  grep -E "FAIL|ERROR|SKIP" $OUT/gpu_check_$GPU.log | head -10
  tail -22 $OUT/gpu_check_$GPU.log
else
  timeout 560 $H/mmvram-gpu bench --out $OUT/gpu_bench_$GPU.json > $OUT/gpu_bench_$GPU.log 2>&1
  echo "bench rc=$?"
  grep -vE "^  (f32|i32) .* done" $OUT/gpu_bench_$GPU.log | tail -75
fi
