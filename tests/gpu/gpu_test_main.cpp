// main() of the GPU tests: without a CUDA device they are skipped (exit 77, which ctest's
// SKIP_RETURN_CODE turns into "skipped"), so CI machines with nvcc but no GPU stay green.
#include <cuda_runtime_api.h>

#include <cstdio>

#if !defined(MMVRAM_CATCH2_V3)
#define CATCH_CONFIG_RUNNER
#endif
#include "catch.hpp"

// Tests that need several devices are built with MMVRAM_MIN_GPUS (default 1).
#ifndef MMVRAM_MIN_GPUS
#define MMVRAM_MIN_GPUS 1
#endif

int main(int argc, char** argv) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count < MMVRAM_MIN_GPUS) {
    std::printf("%d CUDA device(s), %d needed: GPU tests skipped (%s)\n", e == cudaSuccess ? count : 0,
                MMVRAM_MIN_GPUS, e != cudaSuccess ? cudaGetErrorString(e) : "too few devices");
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
