#!/bin/sh
# Builds tuning variants of the kernels (tile shape and blocks per SM) as separate check
# binaries for run_device.sh's VARIANTS:
#   sh gpu/src-dev/variants.sh NAME:PASSES:STAGES:SCANB:SEGB[:LOOKBACK_WORDS] ...
set -e
cd "$(dirname "$0")/../.."
for spec in "$@"; do
  IFS=: read name p st sb gb lw <<EOT
$spec
EOT
  d=/tmp/mmvram_variant_$name
  rm -rf $d && mkdir -p $d && cp -r gpu/include/mmvram $d/
  sed -i "s/inline constexpr int kPasses = .*;/inline constexpr int kPasses = $p;/; s/inline constexpr int kStages = .*;  /inline constexpr int kStages = $st;  /" $d/mmvram/gpu/tile/tile_stages.cuh
  sed -i "s/kScanMinBlocks = [0-9]*;/kScanMinBlocks = $sb;/; s/kSegMinBlocks = [0-9]*;/kSegMinBlocks = $gb;/" $d/mmvram/gpu/device/matmul_scan.cuh
  [ -n "$lw" ] && sed -i "s/kLookbackWords = [0-9]*;/kLookbackWords = $lw;/" $d/mmvram/gpu/tile/lookback.cuh
  grep -h "kLookbackWords =\|kPasses =\|kStages =\|MinBlocks =" $d/mmvram/gpu/tile/lookback.cuh $d/mmvram/gpu/tile/tile_stages.cuh $d/mmvram/gpu/device/matmul_scan.cuh | tr '\n' ' '; echo
  sh gpu/src-dev/build.sh $d $name
done
