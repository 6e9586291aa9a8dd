#!/bin/sh
# Builds the self-check driver here (no GPU needed) into .device-carry/kernels/ for the `run` tool:
#   sh gpu/src-dev/build.sh [include-dir] [binary-name]
# The optional include dir replaces gpu/include (to build a variant of the kernels); the driver
# object itself (which needs only api.hpp) is built once and reused.
set -e
cd "$(dirname "$0")/../.."
inc=${1:-gpu/include}
name=${2:-check}
dir=.device-carry/kernels
obj=.device-carry/obj/$name
mkdir -p $dir $obj
flags="-gencode=arch=compute_90a,code=sm_90a -O3 -std=c++20 --expt-relaxed-constexpr -lineinfo"
if [ ! -f .device-carry/obj/check_main.o ] || [ gpu/src-dev/check.cu -nt .device-carry/obj/check_main.o ]; then
  nvcc $flags -Igpu/include -c gpu/src-dev/check.cu -o .device-carry/obj/check_main.o
fi
for f in matmul_scan sscr scd; do
  nvcc $flags -I"$inc" -Xptxas -v -c gpu/src/$f.cu -o $obj/$f.o 2>&1 | grep -E "error|warning|registers|spill" | paste - - &
done
wait
nvcc -gencode=arch=compute_90a,code=sm_90a $obj/*.o .device-carry/obj/check_main.o -o $dir/$name
