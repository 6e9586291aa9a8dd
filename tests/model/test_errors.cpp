// Bad input raises mmv::model_error with a message that says what is wrong (and retires
// nothing): machine parameters, operand lengths, flags and masks, indices, compress ranks,
// MMU shapes, real vectors on an integer machine, shift counts, validate_flags.
#include <functional>
#include <source_location>

#include "model_test_util.hpp"

using mmv::real;
using mmv::word;
using mmv::word_vec;

namespace {

// f must throw model_error whose message contains every one of `words`; the machine m (when
// given) must retire nothing but the loads of f's operands.
void expect_model_error(const std::function<void()>& f, const std::vector<std::string>& words,
                        const mmv::machine* m = nullptr, std::source_location where = std::source_location::current()) {
  INFO("expected model_error from line " << where.line());
  const auto before = m ? m->costs().records().size() : 0;
  bool thrown = false;
  try {
    f();
  } catch (const mmv::model_error& e) {
    thrown = true;
    const std::string msg = e.what();
    INFO("message: " << msg);
    CHECK(!msg.empty());
    for (const auto& w : words) CHECK(msg.find(w) != std::string::npos);
  }
  CHECK(thrown);
  if (m)
    for (auto i = before; i < m->costs().records().size(); ++i)
      CHECK(m->costs().records()[i].where == mmv::unit::scalar);
}

}  // namespace

TEST_CASE("machine parameters: 2 <= s <= 4096, B in 2..64", "[errors]") {
  for (int s : {-3, 0, 1}) {
    CAPTURE(s);
    expect_model_error([&] { (void)mt::make_machine(s); }, {"s", std::to_string(s)});
  }
  expect_model_error([] { (void)mt::make_machine(4097); }, {"s", "4097"});  // documented upper bound
  for (int bits : {-1, 0, 1, 65, 128}) {
    CAPTURE(bits);
    expect_model_error([&] { (void)mt::make_machine(4, bits); }, {"B", std::to_string(bits)});
  }
  for (int s : {2, 3, 128, 4096})
    for (int bits : {2, 64}) {
      CAPTURE(s, bits);
      const auto m = mt::make_machine(s, bits);
      CHECK(m.s() == s);
      CHECK(m.word_bits() == bits);
    }
  CHECK(mmv::parse_number_format("float32") == mmv::number_format::float32);
  expect_model_error([] { (void)mmv::parse_number_format("bfloat16"); }, {"bfloat16"});
}

TEST_CASE("length mismatch for every binary instruction", "[errors]") {
  auto m = mt::make_machine(4);
  const auto a = m.load(std::vector<word>{1, 2, 3}), b = m.load(std::vector<word>{1, 2, 3, 4});
  const auto f3 = m.load(std::vector<word>{1, 0, 1}), f4 = m.load(std::vector<word>{1, 0, 1, 0});
  const std::vector<std::string> sizes = {"3", "4"};
  const std::vector<std::pair<std::string, std::function<void()>>> cases = {
      {"add", [&] { (void)m.add(a, b); }},
      {"sub", [&] { (void)m.sub(a, b); }},
      {"min", [&] { (void)m.min(a, b); }},
      {"max", [&] { (void)m.max(a, b); }},
      {"lt", [&] { (void)m.compare("lt", a, b); }},
      {"eq", [&] { (void)m.compare("eq", b, a); }},
      {"select", [&] { (void)m.select(f3, a, b); }},
      {"select", [&] { (void)m.select(f3, b, a); }},
      {"select", [&] { (void)m.select(f4, a, a); }},
      {"select", [&] { (void)m.select(f4, a, word{0}); }},
      {"and", [&] { (void)m.logic_and(a, b); }},
      {"or", [&] { (void)m.logic_or(a, b); }},
      {"xor", [&] { (void)m.logic_xor(a, b); }},
      {"extract-bit", [&] { (void)m.extract_bit(a, f4); }},
      {"scatter", [&] { (void)m.scatter(b, f3, b); }},
      {"compress", [&] { (void)m.compress(a, f4, a); }},
      {"compress", [&] { (void)m.compress(b, f4, a); }},
      {"revspec", [&] { (void)m.revspec(a, f4); }},
  };
  for (const auto& [op, run] : cases) {
    CAPTURE(op);
    auto words = sizes;
    words.push_back(op);
    expect_model_error(run, words, &m);
  }
  auto r = mt::make_machine(4, 32, mmv::number_format::float64);
  const auto x = r.load(std::vector<real>{1, 2, 3}), y = r.load(std::vector<real>{1, 2});
  expect_model_error([&] { (void)r.mul(x, y); }, {"mul", "3", "2"}, &r);
  expect_model_error([&] { (void)r.div(y, x); }, {"div", "2", "3"}, &r);
  expect_model_error([&] { (void)r.add(x, y); }, {"add"}, &r);
  expect_model_error([&] { (void)r.compare("ge", x, y); }, {"ge"}, &r);
  expect_model_error([&] { (void)r.select(r.load(std::vector<word>{1, 0}), x, x); }, {"select"}, &r);
  CHECK(m.costs().totals().total() == mmv::cost{});
  CHECK(r.costs().totals().total() == mmv::cost{});
}

TEST_CASE("flags and masks must be 0/1", "[errors]") {
  auto m = mt::make_machine(4);
  const auto a = m.load(std::vector<word>{5, 6, 7, 8});
  for (word bad : {word{2}, word{-1}, word{7}}) {
    CAPTURE(bad);
    const auto f = m.load(std::vector<word>{0, 1, bad, 0});
    const auto pos = m.load(std::vector<word>{0, 0, 1, 2});
    const std::string b = std::to_string(bad);
    expect_model_error([&] { (void)m.select(f, a, a); }, {"select", "index 2", b}, &m);
    expect_model_error([&] { (void)m.select(f, a, word{0}); }, {"select", "index 2", b}, &m);
    expect_model_error([&] { (void)m.compress(a, f, pos); }, {"compress", "index 2", b}, &m);
    expect_model_error([&] { (void)m.revspec(a, f); }, {"revspec", "index 2", b}, &m);
    expect_model_error([&] { (void)m.logic_not01(f); }, {"index 2", b}, &m);
  }
  CHECK(m.costs().totals().total() == mmv::cost{});
}

TEST_CASE("validate_flags", "[errors]") {
  mmv::validate_flags(std::vector<word>{});
  mmv::validate_flags(std::vector<word>{0, 1, 1, 0});
  expect_model_error([] { mmv::validate_flags(std::vector<word>{0, 1, 3}); }, {"index 2", "3"});
  expect_model_error([] { mmv::validate_flags(std::vector<word>{-1}); }, {"index 0", "-1"});
}

TEST_CASE("gather, gather_strided, scatter: addresses out of range, duplicates", "[errors]") {
  auto m = mt::make_machine(4);
  const auto a = m.load(std::vector<word>{10, 20, 30, 40, 50});
  for (word bad : {word{-1}, word{5}, word{1000}}) {
    CAPTURE(bad);
    const auto idx = m.load(std::vector<word>{0, bad, 1});
    const std::string b = std::to_string(bad);
    expect_model_error([&] { (void)m.gather(a, idx); }, {"gather", b, "position 1"}, &m);
    expect_model_error([&] { (void)m.scatter(a, idx, m.load(std::vector<word>{7, 8, 9})); }, {"scatter", b}, &m);
  }
  expect_model_error([&] { (void)m.gather(mmv::word_vec{}, m.load(std::vector<word>{0})); }, {"gather"}, &m);
  expect_model_error(
      [&] {
        (void)m.scatter(a, m.load(std::vector<word>{3, 1, 3}), m.load(std::vector<word>{7, 8, 9}));
      },
      {"scatter", "3"}, &m);
  expect_model_error([&] { (void)m.gather_strided(a, 0, 2, 4); }, {"gather-strided"}, &m);   // 0 2 4 6
  expect_model_error([&] { (void)m.gather_strided(a, 5, 1, 1); }, {"gather-strided"}, &m);   // start past the end
  expect_model_error([&] { (void)m.gather_strided(a, -1, 1, 2); }, {"gather-strided"}, &m);  // start before 0
  expect_model_error([&] { (void)m.gather_strided(a, 2, -1, 4); }, {"gather-strided"}, &m);  // 2 1 0 -1
  expect_model_error([&] { (void)m.gather_strided(a, 0, 1, -1); }, {"gather-strided"}, &m);
  // The last legal addresses pass.
  CHECK(m.read(m.gather_strided(a, 0, 2, 3)) == std::vector<word>{10, 30, 50});
  CHECK(m.read(m.gather_strided(a, 4, -2, 3)) == std::vector<word>{50, 30, 10});
  CHECK(m.read(m.gather_strided(a, 7, 3, 0)).empty());  // no address is formed
}

TEST_CASE("compress with a wrong rank", "[errors]") {
  auto m = mt::make_machine(4);
  const auto a = m.load(std::vector<word>{5, 6, 7, 8});
  const auto mask = m.load(std::vector<word>{1, 0, 1, 1});
  expect_model_error(
      [&] {
        (void)m.compress(a, mask, m.load(std::vector<word>{0, 0, 2, 2}));
      },
      {"compress", "pos[2]"}, &m);
  expect_model_error(
      [&] {
        (void)m.compress(a, mask, m.load(std::vector<word>{1, 0, 1, 2}));
      },
      {"compress", "pos[0]"}, &m);
  // An inclusive instead of an exclusive scan is wrong at every set position; the first is named.
  expect_model_error([&] { (void)m.compress(a, mask, m.load(std::vector<word>{1, 1, 2, 3})); }, {"pos[0]"}, &m);
  CHECK(m.read(m.compress(a, mask, m.load(std::vector<word>{0, 99, 1, 2}))) == std::vector<word>{5, 7, 8});
}

TEST_CASE("mmu shapes: weight s*s, operand a multiple of s", "[errors]") {
  for (int s : {2, 3, 4}) {
    CAPTURE(s);
    auto m = mt::make_machine(s);
    const auto w = m.broadcast(word{1}, std::int64_t{s} * s);
    for (std::int64_t len : {std::int64_t{1}, std::int64_t{s} - 1, std::int64_t{s} + 1, std::int64_t{2} * s + 1}) {
      CAPTURE(len);
      expect_model_error([&] { (void)m.mmu(m.load(std::vector<word>(static_cast<std::size_t>(len), 1)), w); },
                         {"mmu", std::to_string(len)}, &m);
    }
    for (std::int64_t wlen : {std::int64_t{0}, std::int64_t{s}, std::int64_t{s} * s - 1, std::int64_t{s} * s + 1}) {
      CAPTURE(wlen);
      expect_model_error(
          [&] {
            (void)m.mmu(m.load(std::vector<word>(static_cast<std::size_t>(s), 1)),
                        m.load(std::vector<word>(static_cast<std::size_t>(wlen), 1)));
          },
          {"mmu", std::to_string(wlen)}, &m);
    }
    CHECK(m.costs().totals().mmu == mmv::cost{});
  }
}

TEST_CASE("real vectors on an integer machine", "[errors]") {
  auto m = mt::make_machine(4);
  const mmv::real_vec none;
  const auto w = m.load(std::vector<word>{1, 2});
  expect_model_error([&] { (void)m.load(std::vector<real>{1.5}); }, {"real"}, &m);
  expect_model_error([&] { (void)m.broadcast(real{1.5}, 3); }, {"real"}, &m);
  expect_model_error([&] { (void)m.to_real(w); }, {"real"}, &m);
  expect_model_error([&] { (void)m.add(none, none); }, {"real"}, &m);
  expect_model_error([&] { (void)m.mul(none, none); }, {"real"}, &m);
  expect_model_error([&] { (void)m.mul(none, 2.0); }, {"real"}, &m);
  expect_model_error([&] { (void)m.div(none, none); }, {"real"}, &m);
  expect_model_error([&] { (void)m.exp(none); }, {"real"}, &m);
  expect_model_error([&] { (void)m.log(none); }, {"real"}, &m);
  expect_model_error([&] { (void)m.mmu(none, none); }, {"real"}, &m);
  expect_model_error([&] { (void)m.revspec(none, mmv::word_vec{}); }, {"real"}, &m);
  CHECK(m.costs().records().size() == 1);
}

TEST_CASE("shift counts, bit indices, unknown comparisons, negative lengths", "[errors]") {
  const int bits = GENERATE(8, 32, 64);
  CAPTURE(bits);
  auto m = mt::make_machine(4, bits);
  const auto a = m.load(std::vector<word>{1, 2, 3});
  for (int k : {-1, bits, bits + 1}) {
    CAPTURE(k);
    expect_model_error([&] { (void)m.shift_left_bits(a, k); }, {"shl", std::to_string(k)}, &m);
    expect_model_error([&] { (void)m.shift_right_bits(a, k); }, {"shr", std::to_string(k)}, &m);
    expect_model_error(
        [&] {
          (void)m.extract_bit(a, m.load(std::vector<word>{0, k, 0}));
        },
        {"extract-bit", std::to_string(k), "index 1"}, &m);
  }
  CHECK(m.read(m.shift_right_bits(a, bits - 1)) == std::vector<word>{0, 0, 0});
  CHECK(m.read(m.extract_bit(a, m.load(std::vector<word>{0, 1, bits - 1}))) == std::vector<word>{1, 1, 0});
  expect_model_error([&] { (void)m.compare("lte", a, a); }, {"lte"}, &m);
  expect_model_error([&] { (void)m.compare("", a, word{0}); }, {"compare"}, &m);
  expect_model_error([&] { (void)m.compare("foo", mmv::word_vec{}, mmv::word_vec{}); }, {"foo"}, &m);
  expect_model_error([&] { (void)m.broadcast(word{1}, -1); }, {"broadcast"}, &m);
  expect_model_error([&] { (void)m.resize(a, -2, word{0}); }, {"resize"}, &m);
  expect_model_error([&] { (void)m.iota(-1); }, {"iota"}, &m);
  expect_model_error([&] { (void)m.iota(4, 0, 1, 0); }, {"iota"}, &m);
  expect_model_error([&] { (void)m.lane_index(4, 0); }, {"lane-index"}, &m);
}
