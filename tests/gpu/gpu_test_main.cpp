// main() of the GPU tests: without a CUDA device they are skipped (exit 77, which ctest's
// SKIP_RETURN_CODE turns into "skipped"), so CI machines with nvcc but no GPU stay green.
#include <cuda_runtime_api.h>

#include <cstdio>

#if !defined(MMVRAM_CATCH2_V3)
#define CATCH_CONFIG_RUNNER
#endif
#include "catch.hpp"

int main(int argc, char** argv) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    std::printf("no CUDA device: GPU tests skipped (%s)\n",
                e != cudaSuccess ? cudaGetErrorString(e) : "no devices");
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
