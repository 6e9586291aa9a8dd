#!/bin/sh
# Runs on the device machine (the `run` tool): A/B of kernel variants built by build.sh into
# .device-carry/kernels/ (e.g. check_old, check, check_alt). Correctness of the CANDIDATES
# (full dev suite), then their --time-only tables interleaved ROUNDS times with the BASELINE's
# (same run, same card), then compute-sanitizer memcheck + racecheck on the candidates.
#   BASELINE=check_old CANDIDATES="check check_alt" ROUNDS=2 sh gpu/src-dev/compare_device.sh
cd .device-carry/kernels || exit 1
OUT=${OUT:-/tmp}
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader
for b in $CANDIDATES; do
  timeout 150 ./$b --no-time > $OUT/${b}_check.log 2>&1; echo "$b check rc=$?"
  grep -E "^FAIL|^checked|PASSED|FAILED" $OUT/${b}_check.log | head -5
done
for r in $(seq 1 ${ROUNDS:-2}); do
  for b in $BASELINE $CANDIDATES; do
    timeout 60 ./$b --time-only > $OUT/${b}_time$r.log 2>&1; echo "round $r $b rc=$?"
    grep -E "^(copy|cub|scd|sscr)" $OUT/${b}_time$r.log | grep -E "${TIME_FILTER:-.}"
  done
done
for b in $CANDIDATES; do
  for tool in memcheck racecheck; do
    timeout 100 compute-sanitizer --tool $tool ./$b --small > $OUT/san_${b}_$tool.log 2>&1
    echo "sanitizer $b $tool rc=$?: $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY|^checked' $OUT/san_${b}_$tool.log | tr '\n' ' ')"
  done
done
