// Simulate backend: data movement (vector shift, constants, index patterns, gather/scatter,
// COMPRESS, resize), the block-local REVSPEC and the optional iterated additions. Every index is
// checked; nothing reads or writes out of range.
#include "simulate_backend.hpp"

#include <algorithm>
#include <vector>

namespace mmv::simulate {

using detail::exact_words;
using detail::wide;

template <class T>
handle<T> simulate_backend::do_shift(const buffer<T>& a, std::int64_t offset, T fill) {
  const std::int64_t m = a.size();
  array<T> out = array<T>::Constant(m, fill);
  if (offset > -m && offset < m)
    for (std::int64_t i = std::max<std::int64_t>(0, offset); i < std::min(m, m + offset); ++i) out[i] = host(a)[i - offset];
  check_width("shift", out);
  return wrap<T>(std::move(out));
}

template <class T>
handle<T> simulate_backend::do_broadcast(T value, std::int64_t m) {
  array<T> out = array<T>::Constant(m, value);
  check_width("broadcast", out);
  return wrap<T>(std::move(out));
}

handle<word> simulate_backend::iota(std::int64_t m, word start, word step, std::int64_t block) {
  return wrap<word>(exact_words("iota", m, c_.word_bits, [&](std::int64_t i) { return vcu::iota(start, step, block, i); }));
}

handle<word> simulate_backend::lane_index(std::int64_t m, std::int64_t block) {
  return wrap<word>(exact_words("lane-index", m, c_.word_bits, [&](std::int64_t i) { return vcu::lane_index(block, i); }));
}

template <class T>
handle<T> simulate_backend::do_gather(const buffer<T>& a, const buffer<word>& idx) {
  const auto& ix = host(idx);
  array<T> out(ix.size());
  for (Eigen::Index i = 0; i < ix.size(); ++i) {
    const word j = ix[i];
    if (j < 0 || j >= a.size())
      throw model_error("gather: index " + std::to_string(j) + " at position " + std::to_string(i) + " outside 0.." +
                        std::to_string(a.size() - 1));
    out[i] = host(a)[j];
  }
  return wrap<T>(std::move(out));
}

template <class T>
handle<T> simulate_backend::do_gather_strided(const buffer<T>& a, std::int64_t start, std::int64_t stride, std::int64_t count) {
  array<T> out(count);
  for (std::int64_t i = 0; i < count; ++i) out[i] = host(a)[start + i * stride];
  return wrap<T>(std::move(out));
}

template <class T>
handle<T> simulate_backend::do_scatter(const buffer<T>& dst, const buffer<word>& idx, const buffer<T>& v) {
  array<T> out = host(dst);
  const auto& ix = host(idx);
  std::vector<bool> written(static_cast<std::size_t>(dst.size()), false);
  for (Eigen::Index i = 0; i < ix.size(); ++i) {
    const word j = ix[i];
    if (j < 0 || j >= dst.size())
      throw model_error("scatter: index " + std::to_string(j) + " at position " + std::to_string(i) + " outside 0.." +
                        std::to_string(dst.size() - 1));
    if (written[static_cast<std::size_t>(j)]) throw model_error("scatter: two writes to address " + std::to_string(j) + " (EREW)");
    written[static_cast<std::size_t>(j)] = true;
    out[j] = host(v)[i];
  }
  return wrap<T>(std::move(out));
}

template <class T>
handle<T> simulate_backend::do_compress(const buffer<T>& a, const buffer<word>& mask, const buffer<word>& pos) {
  require_flags("compress", mask);
  const auto &mk = host(mask), &ps = host(pos);
  array<T> out(static_cast<Eigen::Index>(mk.sum()));
  std::int64_t rank = 0;
  for (std::int64_t i = 0; i < a.size(); ++i) {
    if (!mk[i]) continue;
    if (ps[i] != rank)
      throw model_error("compress: pos[" + std::to_string(i) + "] = " + std::to_string(ps[i]) + " but position " +
                        std::to_string(i) + " is set mask entry number " + std::to_string(rank));
    out[rank++] = host(a)[i];
  }
  return wrap<T>(std::move(out));
}

template <class T>
handle<T> simulate_backend::do_resize(const buffer<T>& a, std::int64_t m, T fill) {
  array<T> out = array<T>::Constant(m, fill);
  const std::int64_t kept = std::min(m, a.size());
  out.head(kept) = host(a).head(kept);
  check_width("resize", out);
  return wrap<T>(std::move(out));
}

template <class T>
handle<T> simulate_backend::do_revspec(const buffer<T>& a, const buffer<word>& f) {
  require_flags("revspec", f);
  const std::int64_t m = a.size(), s = c_.s;
  const auto &x = host(a), &flags = host(f);
  array<T> out(m);
  for (std::int64_t block = 0; block < m; block += s) {
    std::int64_t last = -1;
    for (std::int64_t i = block; i < std::min(m, block + s); ++i) {
      if (flags[i]) last = i;
      const auto e = vcu::revspec(x.data(), block, last, i, c_.word_bits, c_.format == number_format::float32);
      if (!e.fits) throw width_error("revspec", i, detail::to_string(e.exact), c_.word_bits);
      out[i] = e.value;
    }
  }
  if constexpr (std::is_same_v<T, real>) settle("revspec", out);
  return wrap<T>(std::move(out));
}

template <class T>
handle<T> simulate_backend::do_block_prefix(const buffer<T>& a, const buffer<word>* f, std::int64_t k) {
  const char* op = f ? "block-seg-prefix" : "block-prefix";
  if (f) require_flags(op, *f);
  const std::int64_t m = a.size();
  const auto& x = host(a);
  array<T> out(m);
  for (std::int64_t block = 0; block < m; block += k) {
    std::int64_t from = block;
    for (std::int64_t i = block; i < std::min(m, block + k); ++i) {
      if (f && host(*f)[i]) from = i;
      if constexpr (std::is_same_v<T, word>) {
        const wide sum = vcu::prefix_sum(x.data(), from, i);
        if (!vcu::fits(sum, c_.word_bits))
          throw width_error(op, i, detail::to_string(sum), c_.word_bits);
        out[i] = static_cast<word>(sum);
      } else {
        out[i] = vcu::prefix_sum(x.data(), from, i);
      }
    }
  }
  if constexpr (std::is_same_v<T, real>) settle(op, out);
  return wrap<T>(std::move(out));
}

#define MMV_SIM_MOVEMENT(T)                                                                         \
  template handle<T> simulate_backend::do_shift<T>(const buffer<T>&, std::int64_t, T);                  \
  template handle<T> simulate_backend::do_broadcast<T>(T, std::int64_t);                                  \
  template handle<T> simulate_backend::do_gather<T>(const buffer<T>&, const buffer<word>&);              \
  template handle<T> simulate_backend::do_gather_strided<T>(const buffer<T>&, std::int64_t, std::int64_t, std::int64_t); \
  template handle<T> simulate_backend::do_scatter<T>(const buffer<T>&, const buffer<word>&, const buffer<T>&); \
  template handle<T> simulate_backend::do_compress<T>(const buffer<T>&, const buffer<word>&, const buffer<word>&); \
  template handle<T> simulate_backend::do_resize<T>(const buffer<T>&, std::int64_t, T);                  \
  template handle<T> simulate_backend::do_revspec<T>(const buffer<T>&, const buffer<word>&);              \
  template handle<T> simulate_backend::do_block_prefix<T>(const buffer<T>&, const buffer<word>*, std::int64_t);
MMV_SIM_MOVEMENT(word)
MMV_SIM_MOVEMENT(real)
#undef MMV_SIM_MOVEMENT

}  // namespace mmv::simulate
