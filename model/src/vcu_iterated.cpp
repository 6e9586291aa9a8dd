// The optional iterated-addition instructions (docs/model.md): block prefix sums of at most k
// words per output. Off unless machine_config::iterated_addition_limit >= k.
#include "mmvram/model/machine.hpp"

#include "word_arith.hpp"

#include <algorithm>

namespace mmv {

namespace {
void require_iterated_addition(const std::string& op, std::int64_t k, std::int64_t limit) {
  if (limit == 0)
    throw model_error(op + ": iterated addition is off on this machine (machine_config::iterated_addition_limit = 0)");
  if (k < 2 || k > limit)
    throw model_error(op + ": block " + std::to_string(k) + " outside 2.." + std::to_string(limit) +
                      " (the machine's iterated-addition limit)");
}

// out[i] = sum a[j], j from max(block start, start_of(i)) to i, exact and width-checked for words.
template <class T, class Start>
array<T> block_sums(const array<T>& a, std::int64_t k, int bits, number_format format, const std::string& op, Start start_of) {
  const std::int64_t m = a.size();
  array<T> out(m);
  for (std::int64_t block = 0; block < m; block += k) {
    const std::int64_t end = std::min(m, block + k);
    for (std::int64_t i = block; i < end; ++i) {
      const std::int64_t from = std::max(block, start_of(i));
      if constexpr (std::is_same_v<T, word>) {
        detail::wide sum = 0;
        for (std::int64_t j = from; j <= i; ++j) sum += a[j];
        if (sum < detail::word_min(bits) || sum > detail::word_max(bits)) throw width_error(op, i, detail::to_string(sum), bits);
        out[i] = static_cast<word>(sum);
      } else {
        real sum = 0;
        for (std::int64_t j = from; j <= i; ++j) sum += a[j];
        out[i] = sum;
      }
    }
  }
  if constexpr (std::is_same_v<T, real>) detail::round_to_format(out, format);
  return out;
}
}  // namespace

template <class T>
vec<T> machine::block_prefix_sum(const vec<T>& a, std::int64_t k) {
  require_type<T>();
  require_iterated_addition("block-prefix", k, config_.iterated_addition_limit);
  array<T> out = block_sums<T>(a.values(), k, word_bits(), config_.format, "block-prefix", [](std::int64_t) { return std::int64_t{0}; });
  const std::int64_t m = a.size();
  return retire<T>("block-prefix", unit::vcu, cost_of_iterated_addition(m, k, m), std::move(out), {a.node_});
}

template <class T>
vec<T> machine::block_segmented_prefix_sum(const vec<T>& a, const word_vec& f, std::int64_t k) {
  require_type<T>();
  require_iterated_addition("block-seg-prefix", k, config_.iterated_addition_limit);
  require_same_length("block-seg-prefix", a.size(), f.size());
  require_flags("block-seg-prefix", f);
  const auto& flags = f.values();
  std::vector<std::int64_t> last(static_cast<std::size_t>(a.size()));
  for (std::int64_t i = 0, l = 0; i < a.size(); ++i) last[static_cast<std::size_t>(i)] = l = flags[i] ? i : l;
  array<T> out = block_sums<T>(a.values(), k, word_bits(), config_.format, "block-seg-prefix",
                               [&](std::int64_t i) { return last[static_cast<std::size_t>(i)]; });
  const std::int64_t m = a.size();
  return retire<T>("block-seg-prefix", unit::vcu, cost_of_iterated_addition(m, k, 2 * m), std::move(out), {a.node_, f.node_});
}

template vec<word> machine::block_prefix_sum<word>(const vec<word>&, std::int64_t);
template vec<real> machine::block_prefix_sum<real>(const vec<real>&, std::int64_t);
template vec<word> machine::block_segmented_prefix_sum<word>(const vec<word>&, const word_vec&, std::int64_t);
template vec<real> machine::block_segmented_prefix_sum<real>(const vec<real>&, const word_vec&, std::int64_t);

}  // namespace mmv
