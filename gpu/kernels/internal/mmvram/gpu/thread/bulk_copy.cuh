// Thread layer: the Hopper bulk-copy engine (cp.async.bulk, global → shared) completing on a
// shared-memory mbarrier, issued by one thread; other threads wait on the barrier's phase.
#pragma once
#include <cstdint>

namespace mmv::gpu::thread {

__device__ __forceinline__ std::uint32_t smem_addr(const void* p) {
  return std::uint32_t(__cvta_generic_to_shared(p));
}

// One thread, before the first use: an mbarrier expecting one arrival per phase.
__device__ __forceinline__ void mbarrier_init(std::uint64_t* bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n\tfence.mbarrier_init.release.cluster;"
               ::"r"(smem_addr(bar)) : "memory");
}

// One thread: arrives on bar expecting `bytes` more from bulk copies, then copies `bytes`
// (a multiple of 16, both addresses 16-byte aligned) from src to dst. Shared memory that
// threads read before the last barrier may be overwritten (the proxy fence orders it).
__device__ __forceinline__ void bulk_copy_arrive(std::uint64_t* bar, std::uint32_t bytes) {
  asm volatile("fence.proxy.async.shared::cta;\n\tmbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               ::"r"(smem_addr(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bulk_copy(void* dst, const void* src, std::uint32_t bytes, std::uint64_t* bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               ::"r"(smem_addr(dst)), "l"(__cvta_generic_to_global(src)), "r"(bytes), "r"(smem_addr(bar))
               : "memory");
}

// Waits until the phase with the given parity of bar has completed.
__device__ __forceinline__ void mbarrier_wait(std::uint64_t* bar, std::uint32_t parity) {
  asm volatile(
      "{\n\t.reg .pred done;\n"
      "wait_%=:\n\t"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
      "@!done bra wait_%=;\n\t}"
      ::"r"(smem_addr(bar)), "r"(parity) : "memory");
}

}  // namespace mmv::gpu::thread
