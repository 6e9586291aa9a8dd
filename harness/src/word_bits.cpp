// The minimum word width of every integer algorithm, term by term from its source: the data
// term (inputs, products, partial sums) and the structure term (iota results, indices,
// addresses, flag counts, constants), which depends on n, s, the segments and, for the
// integer products, on B itself. The products' structure grows with B by at most one bit per
// bit of B (integer_product.cpp), so the smallest B that fits is found by trying B = 2, 3, ...
#include "mmvram/harness/word_bits.hpp"

#include "mmvram/algorithms/iterated_addition.hpp"

#include <algorithm>

namespace mmv {

namespace {

// The range of values a run forms, in 128 bits (sums may exceed 64).
struct value_span {
  __int128 lo = 0, hi = 0;
  void add(__int128 v) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
};

// The smallest B in 2..64 whose words hold every value of `span`; 65 when none does.
int bits_for(const value_span& span) {
  for (int b = 2; b <= 64; ++b) {
    const __int128 top = (__int128{1} << (b - 1));
    if (span.lo >= -top && span.hi <= top - 1) return b;
  }
  return 65;
}

using words = std::vector<__int128>;

// Every value a scan can form is 0 or the sum of a contiguous range of its input: pushed one
// value at a time, widens `span` by the largest and smallest range sums. These are formed (the
// total is the last prefix) when the values have one sign: one_signed() says so.
class range_sums {
 public:
  explicit range_sums(value_span& span) : span_(span) {}
  void push(__int128 v) {
    prefix_ += v;
    span_.add(prefix_ - low_);
    span_.add(prefix_ - high_);
    low_ = std::min(low_, prefix_), high_ = std::max(high_, prefix_);
    positive_ = positive_ || v > 0, negative_ = negative_ || v < 0;
  }
  bool one_signed() const { return !(positive_ && negative_); }

 private:
  value_span& span_;
  __int128 prefix_ = 0, low_ = 0, high_ = 0;  // the smallest and largest prefix so far
  bool positive_ = false, negative_ = false;
};

bool add_range_sums(value_span& span, const std::vector<word>& x) {
  range_sums r(span);
  for (auto v : x) r.push(v);
  return r.one_signed();
}

// The same, within each segment of flags f (position 0 always starts one).
bool add_segment_sums(value_span& span, const std::vector<word>& x, const std::vector<word>& f) {
  bool one_signed = true;
  for (std::size_t start = 0, end; start < x.size(); start = end) {
    range_sums r(span);
    for (end = start; end < x.size() && (end == start || f[end] != 1); ++end) r.push(x[end]);
    one_signed = r.one_signed() && one_signed;
  }
  return one_signed;
}

// speculate_and_compress (SCD, SSCR) on n values with k segments: the flag scan counts to
// k, both scans address n' - s.
__int128 speculation_structure(std::int64_t n, std::int64_t s, std::int64_t k) {
  return std::max<__int128>({1, k, matmul_scan_addresses(n, s)});
}

// elementwise_product on n pairs at width B: the owner iota (n - 1), the lane index
// (P - 1, P = s ceil((B-1)/s)), the broadcast K = B - 1, and when c1 = P/s >= 2 the first
// re-pad's addresses (n c1 - 1; later re-pads address less).
__int128 product_structure(std::int64_t n, std::int64_t s, int bits) {
  if (n == 0) return 0;
  const std::int64_t k = bits - 1, per = ceil_div(k, s) * s, c1 = per / s;
  __int128 v = std::max<__int128>({n - 1, per - 1, k});
  if (c1 >= 2) v = std::max<__int128>(v, __int128{n} * c1 - 1);
  return v;
}

// One product's data: the factors as loaded and the product (−|a b| is formed, and a b itself
// where it is positive); SCD then scans the products in order (`sums`).
void add_product(value_span& span, range_sums& sums, __int128 a, __int128 b) {
  span.add(a), span.add(b);
  const __int128 p = a * b;
  span.add(p > 0 ? -p : p), span.add(p);
  sums.push(p);
}

// The smallest B at which both `data` and a structure term that depends on B fit.
word_bits_need smallest_with(const value_span& data, bool exact, const std::function<__int128(int)>& structure) {
  for (int b = std::max(2, bits_for(data)); b <= 64; ++b) {
    value_span all = data;
    all.add(structure(b));
    if (bits_for(all) <= b) return {b, exact};
  }
  return {65, exact};
}

word_bits_need fixed(value_span data, bool exact, __int128 structure) {
  data.add(structure);
  return {bits_for(data), exact};
}

std::int64_t length(const algorithm_input& in) { return static_cast<std::int64_t>(in.words.size()); }

word_bits_need scan(const algorithm_input& in, __int128 structure) {
  value_span d;
  const bool exact = add_range_sums(d, in.words);
  return fixed(d, exact, structure);
}

word_bits_need segmented(const algorithm_input& in, __int128 structure) {
  value_span d;
  const bool exact = add_segment_sums(d, in.words, in.flags);
  return fixed(d, exact, structure);
}

// The in-block segmented scan y of block b (REVSPEC of the in-block prefix sums): calls
// visit(i, prefix, y, seen) for each position, `seen` when a flag is at or before i in the block.
template <class T, class Visit>
void scan_block(const std::vector<T>& x, const std::vector<word>& f, std::int64_t b, std::int64_t s, Visit visit) {
  const std::int64_t n = static_cast<std::int64_t>(x.size());
  __int128 prefix = 0, at_flag = 0;  // the in-block prefix before the last flag
  bool seen = false;
  for (std::int64_t i = b * s; i < std::min(n, (b + 1) * s); ++i) {
    if (f[i] == 1 && i > b * s) at_flag = prefix;
    seen = seen || f[i] == 1;
    prefix += x[i];
    visit(i, prefix, prefix - at_flag, seen);
  }
}

// Block SSCR, level by level as block_sscr.cpp forms its values: the in-block prefix sums
// (MMU), REVSPEC's in-block segmented sums, the carries, y + carry-in at every lane (formed
// before the select), the flag counts per block and the iota of block numbers. Exact: it
// follows the algorithm's data flow, two passes per level so that only the carries are stored.
// Returns the true segmented scan at this level when `keep` (the level below needs it).
template <class T>
words block_level(value_span& span, const std::vector<T>& x, const std::vector<word>& f, std::int64_t s, bool keep) {
  const std::int64_t n = static_cast<std::int64_t>(x.size()), blocks = ceil_div(n, s);
  std::vector<word> block_flags(static_cast<std::size_t>(blocks), 0);
  words carries(static_cast<std::size_t>(blocks), 0), out(keep ? x.size() : 0);
  std::int64_t most_flags = 0;
  for (std::int64_t b = 0; b < blocks; ++b) {
    std::int64_t count = 0;
    scan_block(x, f, b, s, [&](std::int64_t i, __int128 prefix, __int128 y, bool) {
      span.add(prefix), span.add(y);
      count += f[i] == 1;
      carries[b] = y;  // padding lanes add 0 and hold no flag: the last y is the block end's
      if (keep && blocks == 1) out[i] = y;
    });
    most_flags = std::max(most_flags, count);
    block_flags[b] = count > 0;
  }
  if (blocks == 1) return out;
  span.add(blocks - 1), span.add(most_flags);
  const words r = block_level(span, carries, block_flags, s, true);
  for (std::int64_t b = 0; b < blocks; ++b)
    scan_block(x, f, b, s, [&](std::int64_t i, __int128, __int128 y, bool seen) {
      const __int128 carried = y + (b > 0 ? r[b - 1] : 0);
      span.add(carried);
      if (keep) out[i] = seen ? y : carried;
    });
  return out;
}

}  // namespace

__int128 matmul_scan_addresses(std::int64_t n, int s) {
  if (n <= s) return 0;
  std::int64_t below = 1;
  for (std::int64_t j = 1; j < ceil_log(n, s); ++j) below *= s;
  return ceil_div(n, below) * below - s;
}

__int128 iterated_addition_addresses(std::int64_t n, int) {
  const std::int64_t k = iterated_addition_block(n);
  return n > k ? ceil_div(n, k) - 1 : 0;
}

word_bits_rule scan_rule(structure_term structure) {
  return [structure](const algorithm_input& in, int s) { return scan(in, structure ? structure(length(in), s) : 0); };
}

word_bits_rule segmented_rule(structure_term structure) {
  return [structure](const algorithm_input& in, int s) { return segmented(in, structure(length(in), s)); };
}

word_bits_need speculated_word_bits(const algorithm_input& in, int s) {
  return scan(in, speculation_structure(length(in), s, segment_count(input_shape::segmented, in)));
}

word_bits_need block_sscr_word_bits(const algorithm_input& in, int s) {
  value_span d;
  for (auto v : in.words) d.add(v);
  if (!in.words.empty()) block_level(d, in.words, in.flags, s, false);
  return {bits_for(d), true};
}

word_bits_need elementwise_product_word_bits(const algorithm_input& in, int s) {
  value_span d, not_summed;  // no scan runs over the products here
  range_sums sums(not_summed);
  for (std::size_t i = 0; i < in.words.size(); ++i) add_product(d, sums, in.words[i], in.words2[i]);
  const std::int64_t n = length(in);
  return smallest_with(d, true, [&](int b) { return product_structure(n, s, b); });
}

// matrix_product: the address terms reach n^2 - 1; n^3 products in (i, j, k) order; SCD over
// them with n^2 segments.
word_bits_need matrix_product_word_bits(const algorithm_input& in, int s) {
  const std::int64_t n = in.n, cube = n * n * n;
  value_span d;
  range_sums sums(d);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t k = 0; k < n; ++k) add_product(d, sums, in.words[i * n + k], in.words2[k * n + j]);
  const bool exact = sums.one_signed();
  const __int128 addresses = n == 0 ? 0 : std::max<__int128>(__int128{n} * n - 1, speculation_structure(cube, s, n * n));
  return smallest_with(d, exact, [&](int bits) { return std::max(addresses, product_structure(cube, s, bits)); });
}

// spmv_csr: row_ptr (up to nnz), the row iota, the count of non-empty rows and its scan's
// addresses, the column indices, the products and SCD over them.
word_bits_need spmv_word_bits(const algorithm_input& in, int s) {
  const csr_matrix& a = in.matrix;
  const std::int64_t nnz = a.nonzeros();
  value_span d;
  for (auto v : in.words) d.add(v);
  if (nnz == 0) return {bits_for(d), true};
  range_sums sums(d);
  std::int64_t nonempty = 0;
  for (std::int64_t r = 0; r < a.rows; ++r) {
    nonempty += a.row_ptr[r + 1] > a.row_ptr[r];
    for (auto k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
      add_product(d, sums, in.words[a.col_idx[k]], static_cast<__int128>(a.values[k]));
  }
  const bool exact = sums.one_signed();
  const auto most_col = *std::max_element(a.col_idx.begin(), a.col_idx.end());
  const __int128 rows = std::max<__int128>({nnz, a.rows - 1, most_col, nonempty, matmul_scan_addresses(a.rows, s),
                                            speculation_structure(nnz, s, nonempty)});
  return smallest_with(d, exact, [&](int bits) { return std::max(rows, product_structure(nnz, s, bits)); });
}

}  // namespace mmv
