#!/usr/bin/env bash
# The README's main job: install dependencies, build, run the simulator report and
# regenerate every table and plot into experiments/out/. When a GPU is present it also runs
# mmvram kernels check, bench and state-passing, the prediction experiment and (with PyTorch)
# the minimum viable experiment (MVE) of inter-chunk state passing against its PyTorch rivals,
# and stores their JSON under experiments/results/ (of the check, only the summary: its
# per-case log stays in experiments/out/).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tools/scripts/setup.sh

preset=cpu
command -v nvcc >/dev/null 2>&1 && preset=cuda
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
bin="build/$preset"

"$bin/tools/mmvram" list
MMVRAM="$bin/tools/mmvram" bash experiments/run_all.sh

if [ "$preset" = cuda ] && nvidia-smi >/dev/null 2>&1; then
  # The short GPU name of the stored files (H100, as results_tables.py --summarize-check names them).
  name=$(nvidia-smi --query-gpu=name --format=csv,noheader | sed -n 1p)
  gpu=$(grep -oE 'H100|H200|A100|B200' <<<"$name" | sed -n 1p || true)
  [ -n "$gpu" ] || gpu=$(tr ' ' '_' <<<"$name")
  # The per-case check log stays in experiments/out/; experiments/results/ keeps its summary.
  mkdir -p experiments/out
  "$bin/tools/mmvram" kernels check --out "experiments/out/gpu_check_${gpu}.json"
  python3 tools/scripts/results_tables.py --summarize-check "experiments/out/gpu_check_${gpu}.json" \
    "experiments/results/gpu_check_summary_${gpu}.json"
  "$bin/tools/mmvram" kernels bench --out "experiments/results/gpu_bench_${gpu}.json"
  "$bin/tools/mmvram" kernels state-passing --out "experiments/results/state_passing_bench_${gpu}.json"
  # The prediction experiment: calibrate on single instructions, then the algorithms on the
  # cuda backend beside the profile's predictions (experiments/results/{profile,prediction}_*).
  MMVRAM="$bin/tools/mmvram" bash experiments/gpu_prediction.sh experiments/results all
  # The held-out protocol: fresh profiles frozen, then pairs drawn from a printed seed
  # (experiments/results/heldout/, docs/prediction.md "The held-out protocol").
  MMVRAM="$bin/tools/mmvram" bash experiments/gpu_prediction.sh experiments/results/heldout quick
  python3 experiments/plot.py --gpu-only
  python3 experiments/plot_prediction.py
  # The state-passing MVE against mamba_ssm and flash-linear-attention when PyTorch is there
  # (MMVRAM_RIVALS: a folder holding mamba_ssm's ssd_state_passing.py; fla is used when the
  # fla-core package is installed).
  if python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
    python3 experiments/state_passing_mve.py --rivals "${MMVRAM_RIVALS:-}"
    python3 experiments/plot_state_passing.py
  fi
fi
echo "main job done in ${SECONDS}s: see experiments/out/ (summary.md, PNG and SVG figures)"
