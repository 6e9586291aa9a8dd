// VCU data movement: vector shifts, constants and index patterns, gather/scatter, COMPRESS,
// resize and the block-local REVSPEC. Indices are checked; nothing reads out of range.
#include "mmvram/model/machine.hpp"

#include "word_arith.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace mmv {

using detail::exact_words;

// ---- data movement ----

template <class T>
vec<T> machine::shift(const vec<T>& a, std::int64_t offset, T fill) {
  require_type<T>();
  fill = detail::round_constant(fill, config_.format);
  const std::int64_t m = a.size();
  array<T> out = array<T>::Constant(m, fill);
  if (offset > -m && offset < m) {  // otherwise every element is the fill
    for (std::int64_t i = std::max<std::int64_t>(0, offset); i < std::min(m, m + offset); ++i)
      out[i] = a.values()[i - offset];
  }
  if constexpr (std::is_same_v<T, word>) check_width("shift", out);
  return retire<T>("shift", unit::vcu, cost_of_vcu(m, m), std::move(out), {a.node_});
}

template <class T>
vec<T> machine::broadcast(T value, std::int64_t m) {
  require_type<T>();
  if (m < 0) throw model_error("broadcast: negative length " + std::to_string(m));
  array<T> out = array<T>::Constant(m, value);
  if constexpr (std::is_same_v<T, real>) detail::round_to_format(out, config_.format);
  check_width("broadcast", out);
  return retire<T>("broadcast", unit::vcu, cost_of_vcu(m, 0), std::move(out), {});
}

word_vec machine::iota(std::int64_t m, word start, word step, std::int64_t block) {
  if (m < 0 || block < 1) throw model_error("iota: need m >= 0 and block >= 1");
  array<word> out = exact_words("iota", m, word_bits(), [&](std::int64_t i) { return detail::wide(start) + detail::wide(step) * (i / block); });
  return retire<word>("iota", unit::vcu, cost_of_vcu(m, 0), std::move(out), {});
}

word_vec machine::lane_index(std::int64_t m, std::int64_t block) {
  if (m < 0 || block < 1) throw model_error("lane-index: need m >= 0 and block >= 1");
  array<word> out = exact_words("lane-index", m, word_bits(), [&](std::int64_t i) { return detail::wide(i % block); });
  return retire<word>("lane-index", unit::vcu, cost_of_vcu(m, 0), std::move(out), {});
}

template <class T>
vec<T> machine::gather(const vec<T>& a, const word_vec& idx) {
  require_type<T>();
  const std::int64_t m = idx.size();
  array<T> out(m);
  for (std::int64_t i = 0; i < m; ++i) {
    const word j = idx.values()[i];
    if (j < 0 || j >= a.size())
      throw model_error("gather: index " + std::to_string(j) + " at position " + std::to_string(i) +
                        " outside 0.." + std::to_string(a.size() - 1));
    out[i] = a.values()[j];
  }
  return retire<T>("gather", unit::vcu, cost_of_vcu(m, 2 * m), std::move(out), {a.node_, idx.node_});
}

template <class T>
vec<T> machine::gather_strided(const vec<T>& a, std::int64_t start, std::int64_t stride, std::int64_t count) {
  require_type<T>();
  if (count < 0) throw model_error("gather-strided: negative count");
  const detail::wide last = detail::wide(start) + detail::wide(count - 1) * stride;
  if (count > 0 && (start < 0 || start >= a.size() || last < 0 || last >= a.size()))
    throw model_error("gather-strided: addresses " + std::to_string(start) + " + k*" + std::to_string(stride) +
                      " (k < " + std::to_string(count) + ") leave 0.." + std::to_string(a.size() - 1));
  array<T> out(count);
  for (std::int64_t i = 0; i < count; ++i) out[i] = a.values()[start + i * stride];
  return retire<T>("gather-strided", unit::vcu, cost_of_vcu(count, count), std::move(out), {a.node_});
}

template <class T>
vec<T> machine::scatter(const vec<T>& dst, const word_vec& idx, const vec<T>& v) {
  require_type<T>();
  require_same_length("scatter", idx.size(), v.size());
  array<T> out = dst.values();
  std::vector<bool> written(static_cast<std::size_t>(dst.size()), false);
  for (std::int64_t i = 0; i < idx.size(); ++i) {
    const word j = idx.values()[i];
    if (j < 0 || j >= dst.size())
      throw model_error("scatter: index " + std::to_string(j) + " at position " + std::to_string(i) +
                        " outside 0.." + std::to_string(dst.size() - 1));
    if (written[static_cast<std::size_t>(j)])
      throw model_error("scatter: two writes to address " + std::to_string(j) + " (EREW)");
    written[static_cast<std::size_t>(j)] = true;
    out[j] = v.values()[i];
  }
  return retire<T>("scatter", unit::vcu, cost_of_vcu(dst.size(), dst.size() + 2 * idx.size()), std::move(out),
                   {dst.node_, idx.node_, v.node_});
}

template <class T>
vec<T> machine::compress(const vec<T>& a, const word_vec& mask, const word_vec& pos) {
  require_type<T>();
  require_same_length("compress", a.size(), mask.size());
  require_same_length("compress", a.size(), pos.size());
  require_flags("compress", mask);
  const auto count = static_cast<std::int64_t>(mask.values().sum());
  array<T> out(count);
  std::int64_t rank = 0;
  for (std::int64_t i = 0; i < a.size(); ++i) {
    if (!mask.values()[i]) continue;
    if (pos.values()[i] != rank)
      throw model_error("compress: pos[" + std::to_string(i) + "] = " + std::to_string(pos.values()[i]) +
                        " but position " + std::to_string(i) + " is set mask entry number " + std::to_string(rank));
    out[rank++] = a.values()[i];
  }
  return retire<T>("compress", unit::vcu, cost_of_vcu(count, 3 * a.size()), std::move(out),
                   {a.node_, mask.node_, pos.node_});
}

template <class T>
vec<T> machine::resize(const vec<T>& a, std::int64_t m, T fill) {
  require_type<T>();
  fill = detail::round_constant(fill, config_.format);
  if (m < 0) throw model_error("resize: negative length " + std::to_string(m));
  array<T> out = array<T>::Constant(m, fill);
  const std::int64_t kept = std::min(m, a.size());
  out.head(kept) = a.values().head(kept);
  if constexpr (std::is_same_v<T, word>) check_width("resize", out);
  return retire<T>("resize", unit::vcu, cost_of_vcu(m, kept), std::move(out), {a.node_});
}

template <class T>
vec<T> machine::revspec(const vec<T>& a, const word_vec& f) {
  require_type<T>();
  require_same_length("revspec", a.size(), f.size());
  require_flags("revspec", f);
  const std::int64_t m = a.size(), s = config_.s;
  const auto &x = a.values(), &flags = f.values();
  array<T> out(m);
  for (std::int64_t block = 0; block < m; block += s) {
    std::int64_t last = -1;
    for (std::int64_t i = block; i < std::min(m, block + s); ++i) {
      if (flags[i]) last = i;
      if (last < 0 || last == block) {
        out[i] = x[i];
      } else if constexpr (std::is_same_v<T, word>) {
        const detail::wide d = detail::wide(x[i]) - x[last - 1];
        if (d < word_min() || d > word_max()) throw width_error("revspec", i, detail::to_string(d), word_bits());
        out[i] = static_cast<word>(d);
      } else {
        out[i] = x[i] - x[last - 1];
      }
    }
  }
  if constexpr (std::is_same_v<T, word>) {
    check_width("revspec", out);
  } else {
    detail::round_to_format(out, config_.format);
  }
  return retire<T>("revspec", unit::vcu, cost_of_revspec(m, s), std::move(out), {a.node_, f.node_});
}

#define MMV_INSTANTIATE_VCU_MOVE(T) \
  template vec<T> machine::shift<T>(const vec<T>&, std::int64_t, T); \
  template vec<T> machine::broadcast<T>(T, std::int64_t); \
  template vec<T> machine::gather<T>(const vec<T>&, const word_vec&); \
  template vec<T> machine::gather_strided<T>(const vec<T>&, std::int64_t, std::int64_t, std::int64_t); \
  template vec<T> machine::scatter<T>(const vec<T>&, const word_vec&, const vec<T>&); \
  template vec<T> machine::compress<T>(const vec<T>&, const word_vec&, const word_vec&); \
  template vec<T> machine::resize<T>(const vec<T>&, std::int64_t, T); \
  template vec<T> machine::revspec<T>(const vec<T>&, const word_vec&); \

MMV_INSTANTIATE_VCU_MOVE(word)
MMV_INSTANTIATE_VCU_MOVE(real)
#undef MMV_INSTANTIATE_VCU_MOVE

}  // namespace mmv
