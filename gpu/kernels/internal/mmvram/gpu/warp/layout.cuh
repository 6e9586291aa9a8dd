// Warp layer: how a warp lays its 512 items onto the tensor cores, and the constant B operands.
// A warp owns 512 consecutive items as 32 rows of 16. Lane l = 4g + q holds, for chunk
// c = 0..3, items 4q..4q+3 of row 4g + c; chunk c is row g + 8(c % 2) of m-tile c / 2.
// Matrix column j of a row holds row item mp(j) = 4((j & 7) >> 1) + (j & 1) + 2(j >> 3): a lane's
// bf16 A columns {2q, 2q+1, 2q+8, 2q+9} and its D columns are then exactly its own four items.
#pragma once
#include <cstdint>

namespace mmv::gpu::warp {

inline constexpr int kWarpItems = 512;
inline constexpr int kChunks = 4;  // rows (chunks of 4 items) per lane

__device__ __forceinline__ int row_item(int j) { return 4 * ((j & 7) >> 1) + (j & 1) + 2 * (j >> 3); }

// B operands of the bf16 row scan: u[t] = columns 8t..8t+7 of U' (U'[k][j] = 1 iff item
// mp(k) <= item mp(j): an upper-triangular ones matrix in row-item order); J = all ones.
struct scan_frags_bf16 {
  std::uint32_t u[2][2];
  static constexpr std::uint32_t j = 0x3F803F80u;
};

// B operands of the uint8 row scan: byte i of u[t] = U'[4q + i][8t + g]; J = all ones.
struct scan_frags_u8 {
  std::uint32_t u[2];
  static constexpr std::uint32_t j = 0x01010101u;
};

// This lane's fragments of U' for the bf16 (m16n8k16 B: rows 2q, 2q+1, 2q+8, 2q+9 of column g).
// lane_blocks: U' restricted to the four 4-item blocks of a row (one per lane), so the products
// are in-lane prefixes (the segmented kernels join lanes themselves).
__device__ __forceinline__ bool scan_entry(int k, int j, bool lane_blocks) {
  return row_item(k) <= row_item(j) && (!lane_blocks || row_item(k) / 4 == row_item(j) / 4);
}

// This lane's share of a constant 0/1 B operand, entry(k, j) = its row k, column j, for the bf16
// MMA: u[t][r] packs rows 2q + 8r and 2q + 8r + 1 of column 8t + g.
template <class Entry>
__device__ __forceinline__ void bf16_b_frags(int lane, Entry entry, std::uint32_t (&u)[2][2]) {
  const int g = lane >> 2, q = lane & 3;
#pragma unroll
  for (int t = 0; t < 2; ++t)
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      const int k = 2 * q + 8 * r, j = 8 * t + g;
      u[t][r] = (entry(k, j) ? 0x3F80u : 0u) | (entry(k + 1, j) ? 0x3F800000u : 0u);
    }
}

// The same for the uint8 MMA: byte i of u[t] is row 4q + i of column 8t + g.
template <class Entry>
__device__ __forceinline__ void u8_b_frags(int lane, Entry entry, std::uint32_t (&u)[2]) {
  const int g = lane >> 2, q = lane & 3;
#pragma unroll
  for (int t = 0; t < 2; ++t) {
    u[t] = 0;
#pragma unroll
    for (int i = 0; i < 4; ++i) u[t] |= (entry(4 * q + i, 8 * t + g) ? 1u : 0u) << (8 * i);
  }
}

__device__ __forceinline__ scan_frags_bf16 make_frags_bf16(int lane, bool lane_blocks = false) {
  scan_frags_bf16 f;
  bf16_b_frags(lane, [lane_blocks](int k, int j) { return scan_entry(k, j, lane_blocks); }, f.u);
  return f;
}

// This lane's fragments of U' for the uint8 MMA (m16n8k16 B: rows 4q..4q+3 of column g).
__device__ __forceinline__ scan_frags_u8 make_frags_u8(int lane, bool lane_blocks = false) {
  scan_frags_u8 f;
  u8_b_frags(lane, [lane_blocks](int k, int j) { return scan_entry(k, j, lane_blocks); }, f.u);
  return f;
}

}  // namespace mmv::gpu::warp
