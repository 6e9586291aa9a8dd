// Agent layer: SSCR segmented scan's tile program (agent/tile_loop runs it). Reduce: in each pass
// (512 items per warp) a warp block holding a start is scanned by the unit policy (speculative
// scans, REVERT, segmented carries between lanes and rows: agent/unit_policy), one without takes
// MatMulScan's path (row scans, plain row carries); the result is parked in the stage. Prefix:
// segmented carries between warps and a segmented decoupled look-back between tiles (a tile
// holding a start publishes its last segment's sum as a prefix at once). Sweep: adds the carry
// to the items before their warp's first start and stores.
#pragma once
#include <cstdint>

#include "mmvram/gpu/agent/tile_loop.cuh"
#include "mmvram/gpu/agent/unit_policy.cuh"
#include "mmvram/gpu/tile/lookback.cuh"
#include "mmvram/gpu/tile/policy.cuh"
#include "mmvram/gpu/tile/tile_stages.cuh"
#include "mmvram/gpu/tile/warp_prefix.cuh"

namespace mmv::gpu::agent {

// out[i] = x[s] + ... + x[i], s = the last start <= i. Unit: a unit policy
// (agent/unit_policy.cuh), P: a tile::tile_policy.
template <class T, class Unit, class P>
struct sscr_agent {
  using policy = P;
  // The kernel's __shared__ variables besides the stages, each declared in the kernel (device/).
  struct temp_storage {
    warp::seg<T>* warp_span;       // [P::passes * P::warps]
    T* tile_excl;
    unsigned long long* slot;
    std::uint64_t* bars;           // [P::stages * P::passes]
    T* slots;                      // [P::warps * Unit::slots_per_warp], at least one
  };
  struct tile_state {
    std::uint32_t fs[P::passes];  // the warp's first start in each pass (512: none)
    warp::seg<T> pre[P::passes];  // the warp's carry in each pass
  };

  const temp_storage tmp;
  T* out;
  const int warp, lane;
  const block_frags<T> frags;
  const tile::scan_chain_state<T> chain;
  tile::tile_stages<T, true, P> src;

  // desc: one zeroed word per tile, counter zeroed; grid: where the tiles sit (x, flags, out);
  // stages: P::stage_bytes<T, true>() of dynamic shared memory.
  __device__ __forceinline__ sscr_agent(temp_storage tmp, unsigned char* stages, const T* x,
                                        const std::uint8_t* flags, T* out, std::int64_t n, std::int64_t tiles,
                                        std::uint64_t* desc, unsigned long long* counter, tile::tile_grid grid)
      : tmp(tmp), out(out), warp(threadIdx.x >> 5), lane(threadIdx.x & 31), frags(make_block_frags<T>(lane)),
        chain{desc}, src{x, flags, n, tiles, grid, counter, tmp.slot, tmp.bars, stages} {}

  // Pass p of tile t (stage s): the warp block's scan parked, its span shared.
  __device__ __forceinline__ void reduce_pass(std::int64_t t, int s, int p, tile_state& ts) {
    T v[4][4], A[4][4];
    std::uint32_t fw[4];
    src.load(t, s, p, warp, lane, v, fw);
    warp::seg<T> ws;
    if (__any_sync(~0u, (fw[0] | fw[1] | fw[2] | fw[3]) != 0u)) {
      ws = Unit::sscr_block(v, fw, frags, tmp.slots + warp * Unit::slots_per_warp, A, ts.fs[p]);
    } else {  // no start in the warp block: MatMulScan's plain row scans and row carries
      T tot[4], carry[4];
      warp::row_scan_on<Unit::unit>(v, frags.rows, A, tot);
      ws = {0u, warp::row_carry_on<Unit::unit>(tot, frags.block.totals, carry)};
#pragma unroll
      for (int c = 0; c < 4; ++c)
#pragma unroll
        for (int e = 0; e < 4; ++e) A[c][e] += carry[c];
      ts.fs[p] = 512;
    }
    src.put(s, p, warp, lane, A);
    if (lane == 0) tmp.warp_span[p * P::warps + warp] = ws;
  }

  // After a barrier: the warps' carries; warp 0 looks back, publishes and claims the next tile.
  __device__ __forceinline__ void tile_prefix(std::int64_t t, tile_state& ts) {
    warp::seg<T> total;
    tile::warp_prefixes(tmp.warp_span, warp, ts.pre, total);
    if (warp == 0) {
      const T ex = chain.exclusive_prefix(t, total.v, total.f != 0u);
      if (lane == 0) *tmp.tile_excl = ex, src.claim();
    }
  }

  // After a barrier: pass p read back, the carry added before the warp's first start, stored.
  __device__ __forceinline__ void sweep_pass(std::int64_t t, int s, int p, const tile_state& ts) {
    T xs[4][4];
    src.get(s, p, warp, lane, xs);
    warp::add_prefix(ts.fs[p], ts.pre[p].f ? ts.pre[p].v : *tmp.tile_excl + ts.pre[p].v, xs);
    tile::store_values<P::shifted>(out, src.pass_base(t, p), src.n, src.staged(t), warp, lane, xs);
  }
};

}  // namespace mmv::gpu::agent
