// The optional iterated-addition instructions block_prefix_sum and block_segmented_prefix_sum:
// exact results against a plain loop on fresh random inputs, their cost (one VCU step, work m*k),
// the refusal when the machine leaves them off or k is outside 2..limit, and width errors
// exactly at the B-bit word limit.
#include "model_test_util.hpp"

#include <algorithm>

using mmv::word;

namespace {

mmv::machine make_machine(std::int64_t limit, int bits = 32) {
  mmv::machine_config c;
  c.s = 4;
  c.word_bits = bits;
  c.iterated_addition_limit = limit;
  return mmv::machine(c);
}

// out[i] = sum x[j], j from the later of i's k-block start and i's last head (f, or none) to i.
std::vector<word> plain_block_sums(const std::vector<word>& x, const std::vector<word>* f, std::int64_t k) {
  std::vector<word> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::size_t from = i - i % static_cast<std::size_t>(k);
    if (f)
      for (std::size_t j = from; j <= i; ++j)
        if ((*f)[j]) from = j;
    word sum = 0;
    for (std::size_t j = from; j <= i; ++j) sum += x[j];
    out[i] = sum;
  }
  return out;
}

}  // namespace

TEST_CASE("block prefix sums equal a plain loop and cost one step of work m*k", "[iterated]") {
  const auto seed = mt::fresh_seed();
  CAPTURE(seed);
  mt::rng r(seed);
  for (std::int64_t n : {1, 2, 5, 16, 17, 100}) {
    for (std::int64_t k : {2, 3, 4, 7, 20}) {
      CAPTURE(n, k);
      auto m = make_machine(20);
      const auto x = r.words(n, -1000, 1000);
      const auto f = r.flags(n, 0.3);
      const auto xv = m.load(x, "x");
      const auto fv = m.load(f, "f");
      CHECK(m.read(m.block_prefix_sum(xv, k)) == plain_block_sums(x, nullptr, k));
      CHECK(m.read(m.block_segmented_prefix_sum(xv, fv, k)) == plain_block_sums(x, &f, k));
      const auto& recs = m.costs().records();
      REQUIRE(recs.size() == 4);
      CHECK(recs[2].op == "block-prefix");
      CHECK(recs[3].op == "block-seg-prefix");
      for (int i : {2, 3}) {
        CHECK(recs[i].where == mmv::unit::vcu);
        CHECK(recs[i].price.steps == 1);
        CHECK(recs[i].price.work == n * k);
        CHECK(recs[i].price.words_written == n);
        CHECK(recs[i].depth == 1);
      }
      CHECK(recs[2].price.words_read == n);
      CHECK(recs[3].price.words_read == 2 * n);
    }
  }
}

TEST_CASE("iterated addition is refused when off or when k is outside 2..limit", "[iterated]") {
  for (std::int64_t limit : {0, 4}) {
    auto m = make_machine(limit);
    const auto x = m.load(std::vector<word>{1, 2, 3, 4, 5});
    const auto f = m.load(std::vector<word>{1, 0, 1, 0, 0});
    for (std::int64_t k : {std::int64_t{1}, std::int64_t{2}, limit + 1}) {
      CAPTURE(limit, k);
      const bool allowed = limit > 0 && k >= 2 && k <= limit;
      if (allowed) {
        CHECK_NOTHROW(m.block_prefix_sum(x, k));
      } else {
        CHECK_THROWS_AS(m.block_prefix_sum(x, k), mmv::model_error);
        CHECK_THROWS_AS(m.block_segmented_prefix_sum(x, f, k), mmv::model_error);
      }
    }
  }
  auto m = make_machine(4);
  const auto x = m.load(std::vector<word>{1, 2, 3});
  CHECK_THROWS_AS(m.block_segmented_prefix_sum(x, m.load(std::vector<word>{1, 0}), 2), mmv::model_error);
  CHECK_THROWS_AS(m.block_segmented_prefix_sum(x, m.load(std::vector<word>{1, 2, 0}), 2), mmv::model_error);
}

TEST_CASE("iterated addition raises width_error exactly past the B-bit limit", "[iterated]") {
  for (int bits : {8, 16, 64}) {
    CAPTURE(bits);
    auto m = make_machine(8, bits);
    const word top = static_cast<word>(mt::lim_max(bits));
    const word low = static_cast<word>(mt::lim_min(bits));
    // Exactly at the limits: no error.
    const auto at = m.load(std::vector<word>{top - 1, 1, low + 1, -1});
    CHECK(m.read(m.block_prefix_sum(at, 2)) == std::vector<word>{top - 1, top, low + 1, low});
    // One past: the error names the instruction, the index and the exact value.
    const auto past = m.load(std::vector<word>{0, top, 1, 5});
    try {
      m.block_prefix_sum(past, 4);
      FAIL("no width_error");
    } catch (const mmv::width_error& e) {
      CHECK(e.instruction == "block-prefix");
      CHECK(e.index == 2);
      CHECK(e.value == mt::to_dec(mt::lim_max(bits) + 1));
    }
    // The segmented form restarts at the head at 2, so the same values fit.
    const auto f = m.load(std::vector<word>{1, 0, 1, 0});
    CHECK(m.read(m.block_segmented_prefix_sum(past, f, 4)) == std::vector<word>{0, top, 1, 6});
    const auto no_heads = m.load(std::vector<word>{0, 0, 0, 0});
    CHECK_THROWS_AS(m.block_segmented_prefix_sum(past, no_heads, 4), mmv::width_error);
  }
}
