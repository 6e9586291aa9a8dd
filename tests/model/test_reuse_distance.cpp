// The L2 of the time model: which operand bytes come from past it (far_read_bytes, by the bytes
// touched between an operand's last touch and its read) against a by-hand ledger and against an
// independent replay of the touches on random ledgers, and how those bytes are priced.
#include <algorithm>
#include <random>
#include <set>

#include "model_test_util.hpp"
#include "time_model_test_util.hpp"
#include "mmvram/prediction/time_model.hpp"

using mt::small_profile;

namespace {
// x (16 words), a = x + 1, b = a + 1, c = b + 1, d = x + c: d reads x after a, b and c (384
// bytes) were touched since x was.
mmv::machine chain_ledger() {
  mmv::machine_config c;
  c.s = 4;
  mmv::machine m(c);
  const auto x = m.load<mmv::word>(std::vector<mmv::word>(16, 1));
  const auto a = m.add(x, mmv::word{1});
  const auto b = m.add(a, mmv::word{1});
  const auto cc = m.add(b, mmv::word{1});
  (void)m.add(x, cc);
  return m;
}

// The evicted share of each record's operands by definition: the touches as a list of events
// (each record touches its distinct operands, then its own array), and for each operand the
// distinct other arrays touched since its last event, before the record's.
std::vector<double> replayed_far_bytes(const std::vector<mmv::instruction_record>& r, double l2, int bytes_per_word) {
  std::vector<std::size_t> events;
  std::vector<double> far(r.size(), 0.0);
  const auto bytes_of = [&](std::size_t j) { return bytes_per_word * static_cast<double>(r[j].price.words_written); };
  for (std::size_t i = 0; i < r.size(); ++i) {
    std::set<std::size_t> operands;
    for (const auto in : r[i].inputs)
      if (in >= 0 && static_cast<std::size_t>(in) < i) operands.insert(static_cast<std::size_t>(in));
    double all = 0, evicted = 0;
    for (const auto j : operands) {
      if (bytes_of(j) <= 0) continue;
      const auto last = std::find(events.rbegin(), events.rend(), j);
      std::set<std::size_t> since(events.rbegin(), last);
      since.erase(j);
      double between = 0;
      for (const auto k : since) between += bytes_of(k);
      all += bytes_of(j);
      evicted += bytes_of(j) * std::clamp((between + bytes_of(j) - l2) / bytes_of(j), 0.0, 1.0);
    }
    if (all > 0) far[i] = bytes_per_word * static_cast<double>(r[i].price.words_read) * evicted / all;
    events.insert(events.end(), operands.begin(), operands.end());
    events.push_back(i);
  }
  return far;
}
}  // namespace

TEST_CASE("an operand read after more than the L2 was touched since is read from past it", "[time][l2]") {
  const mmv::machine m = chain_ledger();
  const auto& r = m.costs().records();
  auto p = small_profile();  // stream: 1000 + 0.5 ns per byte
  p.l2_bytes = 8 * 40;       // 320 < the 384 bytes touched since x: all of x is gone
  auto far = mmv::far_read_bytes(p, r);
  CHECK(far == std::vector<double>{0, 0, 0, 0, 8 * 32 * 0.5});  // d reads x (gone) and c (held): half its reads
  p.l2_bytes = 8 * 56;  // 448: (384 + 128 - 448) / 128, half of x is gone
  far = mmv::far_read_bytes(p, r);
  CHECK(far[4] == Approx(8 * 32 * 0.25));
  p.l2_bytes = 8 * 64;  // 512: x is held
  CHECK(mmv::far_read_bytes(p, r)[4] == 0);
  p.l2_bytes = 0;  // no knee, no far bytes
  CHECK(mmv::far_read_bytes(p, r)[4] == 0);
}

TEST_CASE("far bytes take the slower of the two rates, and only in a record within the knee", "[time][l2]") {
  const mmv::machine m = chain_ledger();
  const auto& r = m.costs().records();
  auto p = small_profile();
  p.l2_bytes = 8 * 56;  // d moves 8 * 48 = 384 bytes, 64 of them far
  p.classes["stream"].ns_per_byte_beyond_l2 = 2;
  auto t = mmv::predict_record_times(p, r);
  CHECK(t[4] == Approx(1000 + 0.5 * (384 - 64) + 2 * 64));
  CHECK(t[1] == mmv::predict_record_ns(p, r[1]));  // nothing far: as calibrated
  CHECK(mmv::predict_time(p, r).serial_ns == Approx(t[1] + t[2] + t[3] + t[4]));
  p.classes["stream"].ns_per_byte_beyond_l2 = 0.1;  // a class faster past the knee: DRAM is not
  CHECK(mmv::predict_record_times(p, r)[4] == Approx(1000 + 0.5 * 384));
  p.classes["stream"].ns_per_byte_beyond_l2 = 2;
  p.l2_bytes = 8 * 40;  // d (384 bytes) is past the knee itself: its class's knee prices it
  CHECK(mmv::predict_record_times(p, r)[4] == mmv::predict_record_ns(p, r[4]));
}

TEST_CASE("far_read_bytes equals a replay of the touches on random ledgers", "[time][l2]") {
  const auto seed = mt::fresh_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 60)(rng);
    std::vector<mmv::instruction_record> r(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      auto& x = r[static_cast<std::size_t>(i)];
      x.op = "add", x.where = i == 0 || rng() % 6 == 0 ? mmv::unit::scalar : mmv::unit::vcu;
      x.price.words_written = std::uniform_int_distribution<std::int64_t>(0, 1000)(rng);
      for (int k = std::uniform_int_distribution<int>(0, 3)(rng); k > 0 && i > 0; --k)
        x.inputs.push_back(std::uniform_int_distribution<std::int64_t>(-1, i - 1)(rng));  // -1: no record
      x.price.words_read = std::uniform_int_distribution<std::int64_t>(0, 3000)(rng);
    }
    mmv::device_profile p;
    p.bytes_per_word = trial % 2 ? 4 : 8;
    p.l2_bytes = std::uniform_int_distribution<std::int64_t>(0, 40000)(rng);
    const auto far = mmv::far_read_bytes(p, r);
    const auto want = replayed_far_bytes(r, static_cast<double>(p.l2_bytes), p.bytes_per_word);
    REQUIRE(far.size() == want.size());
    for (std::size_t i = 0; i < far.size(); ++i) {
      INFO("trial " << trial << " record " << i << " l2 " << p.l2_bytes);
      CHECK(far[i] == Approx(p.l2_bytes > 0 ? want[i] : 0.0).margin(1e-9));
      CHECK(far[i] <= p.bytes_per_word * static_cast<double>(r[i].price.words_read) + 1e-9);
    }
  }
}
