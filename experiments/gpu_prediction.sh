#!/usr/bin/env bash
# The prediction experiment on a GPU (docs/prediction.md): calibrate a device profile on single
# instructions, then run the algorithms on the cuda backend beside the profile's predictions.
# Writes experiments/results/profile_<GPU>.json (calibrated with other kernels and a new MMU
# shape between the timed instructions), profile_<GPU>_back_to_back.json and
# prediction_<GPU>.csv (or under $1).
#   usage: experiments/gpu_prediction.sh [RESULTS_DIR] [calibrate|validate|extend|others|all]
# validate runs the main grid of the scans; extend the other tile sizes, the held-out points and
# n = 2^24..2^28; others the remaining algorithms (decayed scans, SpMV, the products, the
# iterated-addition scans) at s = 16.
# Environment: MMVRAM (default build/cuda/tools/mmvram), MMVRAM_REPEAT (default 10),
# MMVRAM_MAX_N (largest n of the main grid, default 2^22; larger n at s = 16 follow).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool=${MMVRAM:-$root/build/cuda/tools/mmvram}
results=${1:-$root/experiments/results}
what=${2:-all}
repeat=${MMVRAM_REPEAT:-10}
max_n=${MMVRAM_MAX_N:-2^22}
mkdir -p "$results"
gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
gpu=$(echo "$gpu_name" | awk '{print $2}')  # H100, H200, ...
profile="$results/profile_$gpu.json"
csv="$results/prediction_$gpu.csv"
sm=$(nvidia-smi --query-gpu=clocks.max.sm --format=csv,noheader,nounits | head -n 1)
mem=$(nvidia-smi --query-gpu=clocks.max.mem --format=csv,noheader,nounits | head -n 1)

# The sweeps below append to $csv and go on past a failed point; a file of another schema would
# make every one of them refuse, so it is refused here once.
if [[ -s $csv && $(head -n 1 "$csv") != $("$tool" run hillis-steele-scan --n 4 --format csv | head -n 1) ]]; then
  echo "gpu_prediction.sh: $csv has another CSV header than this mmvram writes; move it away first" >&2
  exit 2
fi
if [[ $what == calibrate || $what == all ]]; then
  for context in interleaved back-to-back; do
    out=$profile extra=()
    [[ $context == back-to-back ]] && out="$results/profile_${gpu}_back_to_back.json" extra=(--back-to-back)
    "$tool" calibrate --backend cuda --out "$out" --max-m 2^26 --device "$gpu_name" --sm-clock "$sm" \
      --memory-clock "$mem" --quiet "${extra[@]}"
  done
fi
if [[ $what == validate || $what == all ]]; then
  common=(--backend cuda --repeat "$repeat" --profile "$profile" --out "$csv" --quiet)
  # The main grid: n = 2^10, 2^14, ..., s in {2, 16, 128}, one segment and mean length 32.
  "$tool" sweep matmul-scan hillis-steele-scan brent-kung-scan --n "2^10..$max_n:16" --s 2,16,128 --density 0 \
    "${common[@]}" || true
  "$tool" sweep sscr scd block-sscr schwartz-segmented-scan min-index-segmented-scan --n "2^10..$max_n:16" \
    --s 2,16,128 --density 0,1/32 "${common[@]}" || true
fi
if [[ $what == extend || $what == all ]]; then
  common=(--backend cuda --repeat "$repeat" --profile "$profile" --out "$csv" --quiet)
  # The other calibrated tile sizes (the MMU algorithms: the VCU-only ones do not use s).
  "$tool" sweep matmul-scan sscr scd --n 2^14,2^20 --s 4,8,32,64 \
    --density 0 "${common[@]}" || true
  "$tool" sweep sscr scd --n 2^20 --s 4,8,32,64 --density 1/32 "${common[@]}" || true
  # Held out: sizes, s and densities the calibration and the grids do not use.
  "$tool" sweep matmul-scan sscr scd block-sscr schwartz-segmented-scan --n 3000,300000,5000000 --s 12,64 \
    --density 1/100 "${common[@]}" || true
  # Large n at s = 16, one segment: where bandwidth decides.
  "$tool" sweep matmul-scan hillis-steele-scan sscr scd schwartz-segmented-scan --n 2^24,2^26 --s 16 --density 0 \
    "${common[@]}" || true
  # The largest n (2 GiB per vector of words), five timed runs each.
  "$tool" sweep matmul-scan hillis-steele-scan sscr scd --n 2^28 --s 16 --density 0 --backend cuda --repeat 5 \
    --profile "$profile" --out "$csv" --quiet || true
fi
if [[ $what == others || $what == all ]]; then
  common=(--backend cuda --repeat "$repeat" --profile "$profile" --out "$csv" --quiet --s 16)
  "$tool" sweep decayed-scan-stable --mode float64 --n "2^10..2^22:16" --density 0,1/32 "${common[@]}" || true
  "$tool" sweep spmv --n "2^10..2^22:16" "${common[@]}" || true
  "$tool" sweep elementwise-product --n "2^10..2^22:16" "${common[@]}" || true
  "$tool" sweep matrix-product --n 16,64,256 "${common[@]}" || true
  "$tool" sweep iterated-addition-scan --n "2^10..2^22:16" "${common[@]}" || true
  "$tool" sweep iterated-addition-segmented-scan --n "2^10..2^22:16" --density 0,1/32 "${common[@]}" || true
fi
echo "gpu_prediction.sh: $profile $csv"
