// Agent layer: unsegmented MatMulScan's tile program (agent/tile_loop runs it). Reduce: each
// pass (512 items per warp) scans its 16-item rows with Unit's row scan (warp/row_scan), carries
// between the warp's rows (warp/row_carry; V3: a second product, warp/row_totals_mma) and parks
// the warp-local scan in the stage. Prefix: carries between warps from shared memory
// (tile/warp_prefix), the tile's exclusive prefix by decoupled look-back (tile/lookback). Sweep:
// adds the carries and stores 16-byte vectors.
#pragma once
#include <cstdint>

#include "mmvram/gpu/agent/tile_loop.cuh"
#include "mmvram/gpu/agent/unit_policy.cuh"
#include "mmvram/gpu/tile/lookback.cuh"
#include "mmvram/gpu/tile/policy.cuh"
#include "mmvram/gpu/tile/tile_stages.cuh"
#include "mmvram/gpu/tile/warp_prefix.cuh"

namespace mmv::gpu::agent {

// out[i] = in[0] + ... + in[i]; T = float or std::uint32_t (wrapping). Unit: a unit policy
// (agent/unit_policy.cuh; only its row scans and row carries are used), P: a tile::tile_policy.
template <class T, class Unit, class P>
struct matmul_scan_agent {
  using policy = P;
  // The kernel's __shared__ variables besides the stages, each declared in the kernel (device/).
  struct temp_storage {
    T* warp_total;             // [P::passes * P::warps]
    T* tile_excl;
    unsigned long long* slot;
    std::uint64_t* bars;       // [P::stages * P::passes]
  };
  struct tile_state {
    T pre[P::passes];  // the warp's carry in each pass
  };

  const temp_storage tmp;
  T* out;
  const int warp, lane;
  const value_frags<T> frags;
  const total_frags<T> totals;
  const tile::scan_chain_state<T> chain;
  tile::tile_stages<T, false, P> src;

  // desc: one zeroed word per tile, counter zeroed; grid: where the tiles sit (in, out);
  // stages: P::stage_bytes<T, false>() of dynamic shared memory.
  __device__ __forceinline__ matmul_scan_agent(temp_storage tmp, unsigned char* stages, const T* in, T* out,
                                               std::int64_t n, std::int64_t tiles, std::uint64_t* desc,
                                               unsigned long long* counter, tile::tile_grid grid)
      : tmp(tmp), out(out), warp(threadIdx.x >> 5), lane(threadIdx.x & 31),
        frags(warp::make_value_frags<T>(lane)), totals(warp::make_total_frags<T>(lane)), chain{desc},
        src{in, nullptr, n, tiles, grid, counter, tmp.slot, tmp.bars, stages} {}

  // Pass p of tile t (stage s): row scans, row carries, the warp's scan parked, its total shared.
  __device__ __forceinline__ void reduce_pass(std::int64_t t, int s, int p, tile_state&) {
    T v[4][4], xs[4][4], tot[4], carry[4];
    std::uint32_t no_flags[4];
    src.load(t, s, p, warp, lane, v, no_flags);
    warp::row_scan_on<Unit::unit>(v, frags, xs, tot);
    const T wt = warp::row_carry_on<Unit::unit>(tot, totals, carry);
#pragma unroll
    for (int c = 0; c < 4; ++c)
#pragma unroll
      for (int e = 0; e < 4; ++e) xs[c][e] += carry[c];
    src.put(s, p, warp, lane, xs);
    if (lane == 0) tmp.warp_total[p * P::warps + warp] = wt;
  }

  // After a barrier: the warps' carries; warp 0 looks back, publishes and claims the next tile.
  __device__ __forceinline__ void tile_prefix(std::int64_t t, tile_state& ts) {
    T total;
    tile::warp_prefixes(tmp.warp_total, warp, ts.pre, total);
    if (warp == 0) {
      const T ex = chain.exclusive_prefix(t, total, false);
      if (lane == 0) *tmp.tile_excl = ex, src.claim();
    }
  }

  // After a barrier: pass p read back, the tile's and the warp's carries added, stored.
  __device__ __forceinline__ void sweep_pass(std::int64_t t, int s, int p, const tile_state& ts) {
    T xs[4][4];
    src.get(s, p, warp, lane, xs);
    const T cv = *tmp.tile_excl + ts.pre[p];
#pragma unroll
    for (int c = 0; c < 4; ++c)
#pragma unroll
      for (int e = 0; e < 4; ++e) xs[c][e] += cv;
    tile::store_values<P::shifted>(out, src.pass_base(t, p), src.n, src.staged(t), warp, lane, xs);
  }
};

}  // namespace mmv::gpu::agent
