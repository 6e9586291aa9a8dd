#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (the `fuzz` preset: clang, ASan + UBSan) and runs each
# for SECONDS (default 20) from its committed corpus, fuzz/corpus/<target>/. New inputs go to a
# scratch directory, so the committed corpus stays as it is; a crash leaves its input there
# and makes this script exit non-zero. Prints the executions of every target and their total.
# usage: tools/scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-20}
bash tools/scripts/setup.sh
cmake --preset cpu >/dev/null  # the fuzz build links the cpu preset's model library (CMakeLists.txt)
cmake --build --preset cpu -j "$(nproc)" --target mmvram_model
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$(nproc)" --target fuzz_all
scratch=$(mktemp -d /tmp/mmvram-fuzz.XXXXXX)
total=0
for corpus in fuzz/corpus/*/; do
  target=$(basename "$corpus")
  mkdir -p "$scratch/$target"
  log="$scratch/$target.log"
  "build/fuzz/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$scratch/$target-" "$scratch/$target" "$corpus" >"$log" 2>&1 &
  pid=$!
  status=0
  wait "$pid" || status=$?
  rm -f /dev/shm/mmvram-fuzz-"$pid"-* /tmp/mmvram-fuzz-"$pid"-*  # the target's input file (fuzz_file.hpp)
  if ((status != 0)); then
    tail -40 "$log" >&2
    echo "fuzz: $target found a failure; its input is in $scratch" >&2
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  echo "fuzz: $target: $runs executions in ${seconds}s, no failure"
  total=$((total + runs))
done
echo "fuzz: $total executions in total"
rm -rf "$scratch"
