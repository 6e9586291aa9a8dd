#!/bin/sh
# Runs on the device machine (the `run` tool) from the repo root: checks, timing, variant
# timing, SASS counts and compute-sanitizer, logs under $OUT.
cd .device-carry/kernels || exit 1
OUT=${OUT:-/tmp}
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader
timeout 300 ./check --no-time > $OUT/check.log 2>&1; echo "check rc=$?"
timeout 120 ./check --time-only > $OUT/time.log 2>&1; echo "time rc=$?"
grep -E "FAIL|info|large|checked|PASSED|FAILED" $OUT/check.log | head -40
grep -E "^ok .* n=4194304 " $OUT/check.log | head -40
cat $OUT/time.log
for v in $VARIANTS; do
  timeout 120 ./$v --time-only > $OUT/$v.log 2>&1; echo "$v rc=$?"; grep -E "FAIL|PASSED|FAILED" $OUT/$v.log | head -5
  grep -E "G items" $OUT/$v.log
done
cuobjdump --dump-sass ./check > $OUT/sass.txt 2>&1
for k in matmul_scan_kernelIf matmul_scan_kernelIj sscr_kernelIf sscr_kernelIj scd_kernelIf scd_kernelIj; do
  awk -v k=$k '/Function :/{p=index($0,k)>0} p' $OUT/sass.txt > /tmp/k.txt
  echo "$k: HMMA $(grep -c HMMA /tmp/k.txt) IMMA $(grep -c IMMA /tmp/k.txt) LDG128 $(grep -c 'LDG.E.*128' /tmp/k.txt) STG128 $(grep -c 'STG.E.128' /tmp/k.txt) LDL $(grep -c LDL /tmp/k.txt) STL $(grep -c STL /tmp/k.txt) SHFL $(grep -c SHFL /tmp/k.txt)"
done
for bin in $SANITIZE; do
  for tool in memcheck racecheck; do
    timeout 150 compute-sanitizer --tool $tool ./$bin --small > $OUT/san_${bin}_$tool.log 2>&1; echo "sanitizer $bin $tool rc=$?"
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/san_${bin}_$tool.log | tail -3
  done
done
if [ -n "$PROFILE" ]; then
  for spec in $PROFILE; do  # KIND:MEAN_LEN, e.g. 2:1024
    k=${spec%%:*}; L=${spec##*:}
    timeout 120 ncu --launch-skip 2 --launch-count 1 -k regex:"(matmul_scan|sscr|scd)_kernel" \
      --section SpeedOfLight --section Occupancy --section SchedulerStats --section WarpStateStats \
      --section LaunchStats --section InstructionStats ./check --profile $k $L > $OUT/ncu_${k}_${L}.txt 2>&1
    echo "ncu kind=$k L=$L rc=$?"
    grep -E "Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)|Achieved Occupancy|Issue Slots Busy|Issued Warp|No Eligible|Executed Ipc Active|Registers Per|Block Limit|Warp Cycles Per Issued|Executed Instructions  " $OUT/ncu_${k}_${L}.txt | head -24
  done
fi
