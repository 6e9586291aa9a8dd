#!/usr/bin/env bash
# Regenerates every figure and table of the project into experiments/out/ (docs/reproduce.md):
#   1. CSVs from `mmvram sweep` (resumable: rerunning only adds missing rows),
#   2. the BigBird SpMV table and the DAG pictures from `mmvram run`,
#   3. the plots and experiments/out/summary.md from experiments/plot.py (CSV/JSON only; GPU
#      results in experiments/results/*.json are plotted when present).
# Environment:
#   MMVRAM       the mmvram binary (default: build/cpu/tools/mmvram)
#   MMVRAM_OUT   output directory (default: experiments/out)
#   MMVRAM_FULL  1: n up to 2^24 and every BigBird block size (slow); default: n up to 2^20
#   MMVRAM_JOBS  parallel runs per sweep (default: every core)
#   MMVRAM_FRESH 1: delete the previous CSVs first instead of resuming them
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool=${MMVRAM:-$root/build/cpu/tools/mmvram}
out=${MMVRAM_OUT:-$root/experiments/out}
full=${MMVRAM_FULL:-0}
jobs=${MMVRAM_JOBS:-$(nproc)}
if [[ ! -x $tool ]]; then
  echo "run_all.sh: no mmvram binary at $tool (build first, or set MMVRAM)" >&2
  exit 2
fi
mkdir -p "$out"
if [[ ${MMVRAM_FRESH:-0} == 1 ]]; then rm -f "$out"/*.csv; fi
# A CSV written by an mmvram with another schema cannot be resumed: start it again.
header=$("$tool" run matmul-scan --n 1 --format csv | head -n 1)
for f in "$out"/*.csv; do
  [[ -f $f ]] || continue
  want=$header
  [[ $f == */closed_forms.csv ]] && continue  # written by `mmvram closed-forms`, regenerated below
  [[ $f == */bigbird_spmv.csv ]] && want="$header,bigbird_block,bigbird_random"
  if [[ $(head -n 1 "$f") != "$want" ]]; then
    echo "run_all.sh: $f has an older CSV schema; regenerating it" >&2
    rm -f "$f"
  fi
done

if [[ $full == 1 ]]; then n_max=2^24; bigbird_blocks="2 4 16 64"; else n_max=2^20; bigbird_blocks="2 4"; fi
s_list=2,4,8,16,32,128
# A sweep exits 1 when some of its points failed (recorded in the CSV, listed in summary.md;
# a rerun runs failed points again). Exit code 2 (bad usage) stops the script at once; an
# unexpected failure lets it finish the figures and then exit 1. `sweep_expecting_failures`
# is for decayed-scan-unstable alone, which fails by design (summary.md counts those rows).
unexpected_failures=0
sweep() {
  echo "== mmvram sweep $*" >&2
  local rc=0
  "$tool" sweep "$@" --jobs "$jobs" || rc=$?
  if ((rc == 1)); then
    echo "run_all.sh: some points failed (see summary.md)" >&2
    unexpected_failures=1
  fi
  if ((rc > 1)); then exit "$rc"; fi
}
# Expected failures are rows that ran and did not verify, or whose reals overflowed ("float
# overflow: ..." in the error column; such a row keeps its counts); any other error (an
# exception, out of memory, a width overflow) is unexpected even here. Arguments: ALGO ... --out FILE.
sweep_expecting_failures() {
  echo "== mmvram sweep $* (failures expected)" >&2
  local rc=0 csv=${*: -1}
  "$tool" sweep "$@" --jobs "$jobs" || rc=$?
  if ((rc > 1)); then exit "$rc"; fi
  if ! python3 - "$csv" "$1" <<'PY'
import csv, sys
path, algorithm = sys.argv[1], sys.argv[2]
errors = [r for r in csv.DictReader(open(path))
          if r["algorithm"] == algorithm and r["error"] and not r["error"].startswith("float overflow")]
for r in errors[:5]:
    print(f"run_all.sh: {algorithm} n={r['n']} s={r['s']}: {r['error']}", file=sys.stderr)
sys.exit(1 if errors else 0)
PY
  then
    echo "run_all.sh: $1 raised errors, not only the expected verification failures" >&2
    unexpected_failures=1
  fi
}

# Steps and work against n, every s: the MMU algorithms, and the VCU-only ones (s-independent).
sweep matmul-scan scd sscr block-sscr --n "2^2..$n_max" --s $s_list --mean-length 32 --out "$out/steps_mmu.csv"
sweep hillis-steele-scan brent-kung-scan schwartz-segmented-scan min-index-segmented-scan \
  iterated-addition-scan iterated-addition-segmented-scan \
  --n "2^2..$n_max" --s 16 --mean-length 32 --out "$out/steps_vcu.csv"
# The crossover beyond simulation: closed forms (equal to the ledger where both run; summary.md
# checks every shared point) for n up to 2^40 and s up to 1024.
"$tool" closed-forms matmul-scan scd sscr block-sscr schwartz-segmented-scan min-index-segmented-scan \
  iterated-addition-scan iterated-addition-segmented-scan --n "2^2..2^40" --s 2,4,8,16,32,64,128,256,512,1024 \
  >"$out/closed_forms.csv"
# The float algorithms: decayed scans (the unstable one divides by exp of the running sum of
# log a, loses precision as it grows and fails verification by design from n ~ 2^7) and SpMV.
# Its failed points are cheap (n <= 2^16) and rerun on every resume.
sweep decayed-scan-stable spmv --mode float64 --n "2^2..2^16" --s $s_list --mean-length 32 \
  --out "$out/steps_float.csv"
sweep_expecting_failures decayed-scan-unstable --mode float64 --n "2^2..2^16" --s $s_list --mean-length 32 \
  --out "$out/steps_float.csv"
sweep_expecting_failures decayed-scan-unstable --mode float32 --n "2^2..2^16" --s 16 --density 0 \
  --out "$out/unstable_float32.csv"
# The integer products, whose steps depend on the word width B.
sweep elementwise-product --n 2^6 --s 2,4,16 --bits 12,16,24,32,48,64 --out "$out/bits.csv"
sweep matrix-product --n 8 --s 2,4,16 --bits 24,32,48,64 --out "$out/bits.csv"
sweep sscr block-sscr --n 2^12 --s 2,4,16 --bits 24,32,48,64 --out "$out/bits.csv"
# The products against n (B = 64).
sweep elementwise-product --n "2^2..2^16" --s $s_list --bits 64 --out "$out/products.csv"
sweep matrix-product --n 2..32 --s $s_list --bits 64 --out "$out/products.csv"
# Work of the compress step against the segment density.
sweep scd sscr block-sscr schwartz-segmented-scan --n 2^16 --s 16 \
  --density 0,0.0001,0.001,0.01,0.03125,0.1,0.3,1 --out "$out/density.csv"

# SpMV on BigBird sparse-attention matrices (n = 65536, r random blocks, 1 window, 2 global).
bigbird="$out/bigbird_spmv.csv"
for b in $bigbird_blocks; do
  for r in 2 4 8; do
    if [[ -f $bigbird ]] && grep -q "^spmv,.*,$b,$r\$" "$bigbird"; then continue; fi
    echo "== mmvram run spmv --bigbird $b,$r,1,2 --n 65536" >&2
    row=$("$tool" run spmv --bigbird "$b,$r,1,2" --n 65536 --s 16 --mode float64 --format csv)
    [[ -f $bigbird ]] || echo "$(head -1 <<<"$row"),bigbird_block,bigbird_random" >"$bigbird"
    echo "$(tail -1 <<<"$row"),$b,$r" >>"$bigbird"
  done
done

# The DAGs of SSCR and SCD on the seeds' example (n = 8, s = 2), drawn by Graphviz.
for algo in sscr scd; do
  "$tool" run "$algo" --s 2 --values "$root/experiments/inputs/seed001_x.txt" \
    --flags "$root/experiments/inputs/seed001_f.txt" --dag "$out/dag_$algo.dot" >/dev/null
  if command -v dot >/dev/null; then
    dot -Tsvg "$out/dag_$algo.dot" -o "$out/dag_$algo.svg"
    dot -Tpng "$out/dag_$algo.dot" -o "$out/dag_$algo.png"
  else
    echo "run_all.sh: Graphviz 'dot' not found; kept $out/dag_$algo.dot only" >&2
  fi
done

python3 "$root/experiments/plot.py" --out "$out" --results "$root/experiments/results"
# Prediction against measurement, from the stored GPU results (no GPU needed).
python3 "$root/experiments/plot_prediction.py" --out "$out" --results "$root/experiments/results"
# The held-out points per executor, every point counted, and one GPU predicted from the other's
# rescaled profile, from the latest complete draws (their profiles, runs and stored cross-device
# predictions, crossdevice_*.csv, reused).
heldout="$root/experiments/results/heldout/draw_bce2c66"
python3 "$root/experiments/prediction_summary.py" --out "$out" --results "$heldout" --mmvram "$tool"
# The mission's figure: each MMU algorithm over its VCU-only rival, model quantities and times, per GPU.
python3 "$root/experiments/plot_ratios.py" --out "$out" --results "$root/experiments/results" --heldout "$heldout" --mmvram "$tool"
# Inter-chunk state passing (state propagation over packed sequences, with rivals), from the stored GPU results.
python3 "$root/experiments/plot_state_passing.py" --out "$out" --results "$root/experiments/results"
# Past one GPU: weak scaling of the sharded kernels and the split state passing, from the stored results.
python3 "$root/experiments/plot_multi_gpu.py" --out "$out" --results "$root/experiments/results"
# The fused kernels' model (bytes from the ledger's DAG, time from the stored bench runs) against every bench point.
python3 "$root/experiments/fused_model.py" --mmvram "$tool" --out "$out" --results "$root/experiments/results"
echo "run_all.sh: figures and summary in $out" >&2
if ((unexpected_failures)); then
  echo "run_all.sh: some sweep points failed unexpectedly (listed in $out/summary.md)" >&2
  exit 1
fi
