#!/usr/bin/env bash
# The prediction experiment on a GPU (docs/prediction.md): calibrate device profiles on single
# instructions, draw the held-out points and run them on every executor, then the stored grids.
# Writes into experiments/results (or $1): profile_<GPU>.json (calibrated with other kernels and a
# new MMU shape between the timed instructions), profile_<GPU>_back_to_back.json,
# profile_<GPU>_graph.json (device only, `--executor graph`), heldout_<GPU>.csv and .json (the
# held-out draw, experiments/heldout.py) and prediction_<GPU>.csv (the grids).
#   usage: experiments/gpu_prediction.sh [RESULTS_DIR] [calibrate|heldout|classes|validate|extend|others|quick|all]
# heldout draws its points from a printed seed after the profiles exist and runs each on the
# in-order, graph and dag executors; validate runs the main grid of the scans; extend the other
# tile sizes, the fixed held-out sizes and n = 2^24..2^28; others the remaining algorithms at
# s = 16; classes times the segmented scans and sums at n = 2^24 instruction by instruction and
# writes class_breakdown_<GPU>.csv (experiments/class_breakdown.py: measured against predicted
# per instruction class, where the large-n misses come from). quick = calibrate (without the back-to-back profile) + heldout (at
# 47bfbad the calibration took 4-6 minutes and 24 pairs about 13 minutes on an H200: a draw cut by a call's limit goes on with
# heldout.py run --resume); all = every stage but heldout (the
# held-out draw runs with quick in its own folder, experiments/results/heldout, own profiles).
# Environment: MMVRAM (default build/cuda/tools/mmvram), MMVRAM_REPEAT (grids, default 10),
# MMVRAM_MAX_N (largest n of the main grid, default 2^22; larger n at s = 16 follow),
# MMVRAM_SEED (the held-out draw's seed; default: fresh from /dev/urandom, printed),
# MMVRAM_HELDOUT_PAIRS (drawn pairs, default 24).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool=${MMVRAM:-$root/build/cuda/tools/mmvram}
results=${1:-$root/experiments/results}
what=${2:-all}
repeat=${MMVRAM_REPEAT:-10}
max_n=${MMVRAM_MAX_N:-2^22}
pairs=${MMVRAM_HELDOUT_PAIRS:-24}
case $what in
  calibrate | heldout | classes | validate | extend | others | quick | all) ;;
  *) echo "gpu_prediction.sh: unknown stage '$what' (calibrate, heldout, classes, validate, extend, others, quick, all)" >&2
     exit 2 ;;
esac
[[ -x $tool ]] || { echo "gpu_prediction.sh: no mmvram binary at $tool (build first, or set MMVRAM)" >&2; exit 2; }
mkdir -p "$results"
gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader | sed -n 1p)
gpu=$(echo "$gpu_name" | awk '{print $2}')  # H100, H200, ...
profile="$results/profile_$gpu.json"
csv="$results/prediction_$gpu.csv"
sm=$(nvidia-smi --query-gpu=clocks.max.sm --format=csv,noheader,nounits | sed -n 1p)
mem=$(nvidia-smi --query-gpu=clocks.max.mem --format=csv,noheader,nounits | sed -n 1p)

# stage NAME: whether this invocation runs stage NAME; prints how long the stage before it took.
current="" started=0
stage_took() { [[ -z $current ]] || echo "gpu_prediction.sh: stage $current took $((SECONDS - started)) s"; }
stage() {
  [[ $what == "$1" || ($what == all && $1 != heldout) || ($what == quick && ($1 == calibrate || $1 == heldout)) ]] ||
    return 1
  stage_took
  current=$1 started=$SECONDS
  echo "gpu_prediction.sh: stage $1"
}
has_executor=0
[[ $("$tool" help) == *--executor* ]] && has_executor=1

# The sweeps below append to $csv and go on past a failed point; a file of another schema would
# make every one of them refuse, so it is refused here once.
if [[ $what != calibrate && $what != heldout && $what != classes && $what != quick && -s $csv && $(head -n 1 "$csv") != $("$tool" run hillis-steele-scan --n 4 --format csv | head -n 1) ]]; then
  echo "gpu_prediction.sh: $csv has another CSV header than this mmvram writes; move it away first" >&2
  exit 2
fi
if stage calibrate; then
  # quick calibrates only the two profiles the held-out runs use (no back-to-back one).
  contexts=(interleaved)
  [[ $what == quick ]] || contexts+=(back-to-back)
  if ((has_executor)); then
    contexts+=(graph)
  else
    echo "gpu_prediction.sh: this mmvram has no --executor: no profile_${gpu}_graph.json" >&2
  fi
  for context in "${contexts[@]}"; do
    out=$profile extra=()
    [[ $context == back-to-back ]] && out="$results/profile_${gpu}_back_to_back.json" extra=(--back-to-back)
    [[ $context == graph ]] && out="$results/profile_${gpu}_graph.json" extra=(--executor graph)
    # A failed graph calibration leaves its profile out: the held-out graph and dag runs then
    # record that as their error.
    if ! "$tool" calibrate --backend cuda --out "$out" --max-m 2^26 --device "$gpu_name" --sm-clock "$sm" \
      --memory-clock "$mem" --quiet "${extra[@]}"; then
      [[ $context == graph ]] || exit 1
      echo "gpu_prediction.sh: the graph calibration failed: no $out" >&2
      rm -f "$out"
    fi
  done
fi
if stage heldout; then
  [[ -f $profile ]] || { echo "gpu_prediction.sh: $profile missing: run the calibrate stage first" >&2; exit 2; }
  seed_arg=()
  [[ -n ${MMVRAM_SEED:-} ]] && seed_arg=(--seed "$MMVRAM_SEED")
  python3 "$root/experiments/heldout.py" run --gpu "$gpu" --device "$gpu_name" --results "$results" \
    --pairs "$pairs" --repeat 5 --mmvram "$tool" "${seed_arg[@]}"
fi
if stage classes; then
  [[ -f $profile ]] || { echo "gpu_prediction.sh: $profile missing: run the calibrate stage first" >&2; exit 2; }
  mkdir -p "$results/classes"
  runs=()
  for mode in integer float64; do
    for algo in sscr scd block-sscr iterated-addition-segmented-scan; do
      out="$results/classes/${gpu}_${algo}_${mode}.json"
      "$tool" run "$algo" --backend cuda --executor in-order --mode "$mode" --n 2^24 --s 64 --density 1/100 \
        --repeat 3 --profile "$profile" --format json > "$out" && runs+=("$out") ||
        echo "gpu_prediction.sh: $algo $mode failed (see $out)" >&2
    done
  done
  python3 "$root/experiments/class_breakdown.py" "${runs[@]}" --out "$results/class_breakdown_$gpu.csv"
fi
if stage validate; then
  common=(--backend cuda --repeat "$repeat" --profile "$profile" --out "$csv" --quiet)
  # The main grid: n = 2^10, 2^14, ..., s in {2, 16, 128}, one segment and mean length 32.
  "$tool" sweep matmul-scan hillis-steele-scan brent-kung-scan --n "2^10..$max_n:16" --s 2,16,128 --density 0 \
    "${common[@]}" || true
  "$tool" sweep sscr scd block-sscr schwartz-segmented-scan min-index-segmented-scan --n "2^10..$max_n:16" \
    --s 2,16,128 --density 0,1/32 "${common[@]}" || true
fi
if stage extend; then
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
if stage others; then
  common=(--backend cuda --repeat "$repeat" --profile "$profile" --out "$csv" --quiet --s 16)
  "$tool" sweep decayed-scan-stable --mode float64 --n "2^10..2^22:16" --density 0,1/32 "${common[@]}" || true
  "$tool" sweep spmv --n "2^10..2^22:16" "${common[@]}" || true
  "$tool" sweep elementwise-product --n "2^10..2^22:16" "${common[@]}" || true
  "$tool" sweep matrix-product --n 16,64,256 "${common[@]}" || true
  "$tool" sweep iterated-addition-scan --n "2^10..2^22:16" "${common[@]}" || true
  "$tool" sweep iterated-addition-segmented-scan --n "2^10..2^22:16" --density 0,1/32 "${common[@]}" || true
fi
stage_took
echo "gpu_prediction.sh: done in ${SECONDS} s: results in $results"
