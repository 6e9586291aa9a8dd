// Device level: single-pass segmented inclusive scan on CUDA cores. Each block takes the next
// tile (dynamic tile id), scans it in registers (thread), WarpScan (warp, tile), then gets the
// carry from its predecessors by decoupled look-back, through the same chain state as mmvram's
// fused kernels (mmvram/gpu/tile/lookback.cuh). About 9 bytes of traffic per item.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "mmvram/gpu/api.hpp"
#include "mmvram/gpu/runtime/error.hpp"
#include "mmvram/gpu/tile/lookback.cuh"
#include "mmvram/gpu/baselines/warp/warp_seg_scan.cuh"
#include "mmvram/gpu/baselines/warp/warp_io.cuh"
#include "mmvram/gpu/baselines/tile/tile_seg_scan.cuh"

namespace mmv::gpu::baselines {

constexpr int vcu_warps = 8;
constexpr int vcu_items = 16;
constexpr int vcu_tile_items = vcu_warps * 32 * vcu_items;  // 4096

template <class WarpScan, class T>
__global__ void __launch_bounds__(vcu_warps * 32)
    vcu_segmented_scan_kernel(const T* x, const std::uint8_t* flags, T* out, long long n,
                              unsigned long long* tile_counter, tile::scan_chain_state<T> chain, bool aligned) {
  using io = warp_io<vcu_items>;
  __shared__ T io_buffer[vcu_warps][io::smem_words];
  __shared__ tile_scan_storage<T, vcu_warps> scan_storage;
  __shared__ long long tile_id;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (threadIdx.x == 0) tile_id = static_cast<long long>(atomicAdd(tile_counter, 1ull));
  __syncthreads();
  const long long tile = tile_id, base = tile * vcu_tile_items;
  const int tile_valid = n - base < vcu_tile_items ? static_cast<int>(n - base) : vcu_tile_items;
  const int warp_first = static_cast<int>(warp) * io::items;
  const int valid = min(max(tile_valid - warp_first, 0), io::items);
  const bool vec = aligned && tile_valid == vcu_tile_items;

  T v[vcu_items];
  io::load(x + base + warp_first, valid, vec, io_buffer[warp], lane, v);
  std::uint32_t heads = io::load_heads(flags + base + warp_first, valid, vec, lane);
  if (base == 0 && threadIdx.x == 0) heads |= 1u;  // position 0 always starts a segment

  const seg_pair<T> summary = thread_seg_scan<vcu_items>(v, heads);
  const seg_pair<T> exc = tile_exclusive_scan<WarpScan, vcu_warps>(summary, scan_storage, lane, warp);
  if (warp == 0) {
    const seg_pair<T> agg = scan_storage.tile_aggregate;
    const bool starts_with_head = __shfl_sync(full_warp, heads & 1u, 0) != 0u;
    const T tile_exc = chain.exclusive_prefix(tile, agg.value, agg.flag != 0u, !starts_with_head);
    if (lane == 0) scan_storage.tile_exclusive = {tile_exc, 0u};
  }
  __syncthreads();
  thread_apply_carry<vcu_items>(v, heads, schwartz(scan_storage.tile_exclusive, exc).value);
  io::store(out + base + warp_first, valid, vec, io_buffer[warp], lane, v);
}

// Host side, CUB's temp-storage convention (temp == nullptr: report temp_bytes and return).
template <class WarpScan, class T>
void vcu_segmented_scan(const T* x, const std::uint8_t* flags, T* out, std::int64_t n, void* temp,
                        std::size_t& temp_bytes, cudaStream_t stream, const char* name) {
  const long long tiles = n > 0 ? (n + vcu_tile_items - 1) / vcu_tile_items : 0;
  const std::size_t need = 256 + static_cast<std::size_t>(tiles) * sizeof(std::uint64_t);
  if (temp == nullptr) {
    temp_bytes = need;
    return;
  }
  auto check = [name](cudaError_t e) { runtime::check(e, name); };
  if (temp_bytes < need) throw cuda_error(std::string(name) + ": temp storage too small");
  if (n <= 0) return;
  check(cudaMemsetAsync(temp, 0, need, stream));
  auto* counter = static_cast<unsigned long long*>(temp);
  const tile::scan_chain_state<T> chain{reinterpret_cast<std::uint64_t*>(static_cast<char*>(temp) + 256)};
  const bool aligned = ((reinterpret_cast<std::uintptr_t>(x) | reinterpret_cast<std::uintptr_t>(out) |
                         reinterpret_cast<std::uintptr_t>(flags)) % 16) == 0;
  vcu_segmented_scan_kernel<WarpScan, T>
      <<<static_cast<unsigned>(tiles), vcu_warps * 32, 0, stream>>>(x, flags, out, n, counter, chain, aligned);
  check(cudaGetLastError());
}

}  // namespace mmv::gpu::baselines
