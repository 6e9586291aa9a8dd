// How costs compose: dependent instructions add steps and depth, independent ones add steps
// but overlap in depth; the Boost.Graph DAG's longest path equals the ledger's depth (hand
// drawn programs and random ones); scalar loads are free; DAG recording off changes no count;
// region tags; DOT export; the trace preview of each record.
#include <algorithm>
#include <map>
#include <sstream>

#include "model_test_util.hpp"

using mmv::real;
using mmv::unit;
using mmv::word;

TEST_CASE("a chain of dependent instructions adds steps and depth", "[compose]") {
  auto m = mt::make_machine(4);
  const auto a = m.load(std::vector<word>{1, 2, 3, 4, 5});
  auto v = a;
  for (int i = 1; i <= 6; ++i) {
    v = m.add(v, a);
    CHECK(m.costs().records().back().depth == i);
    CHECK(m.costs().depth() == i);
    CHECK(m.costs().totals().vcu.steps == i);
  }
  CHECK(m.read(v) == std::vector<word>{7, 14, 21, 28, 35});
  CHECK(m.costs().totals().vcu == mt::vcu_cost(5, 10) + mt::vcu_cost(5, 10) + mt::vcu_cost(5, 10) +
                                      mt::vcu_cost(5, 10) + mt::vcu_cost(5, 10) + mt::vcu_cost(5, 10));
  CHECK(m.graph().longest_path() == 6);
}

TEST_CASE("independent instructions add steps but overlap in depth", "[compose]") {
  auto m = mt::make_machine(2);
  const auto a = m.load(std::vector<word>{1, 2, 3, 4}), w = m.load(std::vector<word>{1, 1, 0, 1});
  (void)m.add(a, a);
  (void)m.neg(a);
  (void)m.mmu(a, w);
  (void)m.iota(7);
  CHECK(m.costs().totals().vcu.steps == 3);
  CHECK(m.costs().totals().mmu.steps == 1);
  CHECK(m.costs().totals().total().steps == 4);
  CHECK(m.costs().totals().total().work == 4 + 4 + 7 + 2 * 2 * 2);  // mmu: rows * s^2
  CHECK(m.costs().depth() == 1);
  CHECK(m.graph().longest_path() == 1);
  for (const auto& r : m.costs().records()) CHECK(r.depth == (r.where == unit::scalar ? 0 : 1));
}

TEST_CASE("scalar-unit loads add no steps and no depth", "[compose]") {
  auto m = mt::make_machine(3);
  const auto a = m.load(std::vector<word>{1, 2, 3});
  const auto b = m.load(std::vector<word>{4, 5, 6}, "constant");
  CHECK(m.costs().totals().total() == mmv::cost{});
  CHECK(m.costs().totals().scalar_ops == 2);
  CHECK(m.costs().depth() == 0);
  CHECK(m.graph().longest_path() == 0);
  CHECK(m.costs().records()[1].op == "constant");
  CHECK(m.costs().records()[1].price == mt::scalar_cost(3));
  const auto c = m.add(a, b);
  const auto late = m.load(std::vector<word>{7, 8, 9});  // loaded after c: still depth 0
  const auto d = m.add(c, late);
  CHECK(m.costs().records().back().depth == 2);
  CHECK(m.costs().depth() == 2);
  CHECK(m.graph().longest_path() == 2);
  CHECK(m.costs().totals().total().steps == 2);
  CHECK(m.costs().totals().scalar_ops == 3);
  CHECK(m.read(d) == std::vector<word>{12, 15, 18});
}

namespace {
// One vertex per record, and for each instruction an edge from each operand's producer.
void check_graph_shape(const mmv::machine& m, std::size_t edges) {
  const auto& g = m.graph().graph();
  REQUIRE(boost::num_vertices(g) == m.costs().records().size());
  CHECK(boost::num_edges(g) == edges);
  for (std::size_t v = 0; v < boost::num_vertices(g); ++v) {
    const auto& r = m.costs().records()[v];
    CHECK(g[v].op == r.op);
    CHECK(g[v].where == r.where);
    CHECK(g[v].length == r.length);
    CHECK(g[v].region == r.region);
  }
}

bool has_edge(const mmv::machine& m, std::size_t from, std::size_t to) {
  return boost::edge(from, to, m.graph().graph()).second;
}
}  // namespace

TEST_CASE("a hand-drawn diamond program: DAG longest path = hand depth = ledger depth", "[compose]") {
  // vertices: 0 a, 1 b, 2 w (loads)
  //   3 v1 = add(a, b)        VCU  depth 1
  //   4 v2 = mmu(v1, w)       MMU  depth 2
  //   5 v3 = neg(v1)          VCU  depth 2
  //   6 v4 = sub(v2, v3)      VCU  depth 3
  //   7 v5 = iota(4)          VCU  depth 1  (independent)
  //   8 v6 = add(v4, v5)      VCU  depth 4
  auto m = mt::make_machine(2);
  const auto a = m.load(std::vector<word>{1, 2, 3, 4}), b = m.load(std::vector<word>{10, 20, 30, 40});
  const auto w = m.load(std::vector<word>{1, 1, 0, 1});  // prefix matrix for s = 2
  const auto v1 = m.add(a, b);
  const auto v2 = m.mmu(v1, w);
  const auto v3 = m.neg(v1);
  const auto v4 = m.sub(v2, v3);
  const auto v5 = m.iota(4);
  const auto v6 = m.add(v4, v5);
  // v1 = 11 22 33 44; v2 = 11 33 33 77; v3 = -v1; v4 = 22 55 66 121; + 0 1 2 3
  CHECK(m.read(v6) == std::vector<word>{22, 56, 68, 124});
  const std::vector<std::int64_t> depths = {0, 0, 0, 1, 2, 2, 3, 1, 4};
  for (std::size_t i = 0; i < depths.size(); ++i) {
    CAPTURE(i);
    CHECK(m.costs().records()[i].depth == depths[i]);
  }
  CHECK(m.costs().depth() == 4);
  CHECK(m.graph().longest_path() == 4);
  check_graph_shape(m, 9);
  for (auto [from, to] :
       std::vector<std::pair<int, int>>{{0, 3}, {1, 3}, {3, 4}, {2, 4}, {3, 5}, {4, 6}, {5, 6}, {6, 8}, {7, 8}})
    CHECK(has_edge(m, from, to));
  CHECK_FALSE(has_edge(m, 0, 8));
  CHECK(m.costs().totals().vcu.steps == 5);
  CHECK(m.costs().totals().mmu.steps == 1);
  CHECK(m.costs().totals().vcu ==
        mt::vcu_cost(4, 8) + mt::vcu_cost(4, 4) + mt::vcu_cost(4, 8) + mt::vcu_cost(4, 0) + mt::vcu_cost(4, 8));
  CHECK(m.costs().totals().mmu == mt::mmu_cost(2, 2));

  SECTION("DOT export: one node per instruction, every edge") {
    std::ostringstream dot;
    m.graph().write_dot(dot);
    const std::string text = dot.str();
    INFO(text);
    CHECK(text.rfind("digraph", 0) == 0);
    CHECK(text.back() == '\n');
    std::istringstream lines(text);
    std::string line;
    int nodes = 0, arrows = 0, boxes = 0;
    while (std::getline(lines, line)) {
      if (line.find("[label=") != std::string::npos) ++nodes;
      if (line.find("->") != std::string::npos) ++arrows;
      if (line.find("shape=box") != std::string::npos) ++boxes;
    }
    CHECK(nodes == 9);
    CHECK(arrows == 9);
    CHECK(boxes == 1);
    for (auto [from, to] :
         std::vector<std::pair<int, int>>{{0, 3}, {1, 3}, {3, 4}, {2, 4}, {3, 5}, {4, 6}, {5, 6}, {6, 8}, {7, 8}})
      CHECK(text.find("n" + std::to_string(from) + " -> n" + std::to_string(to) + ";") != std::string::npos);
    for (int v = 0; v < 9; ++v) CHECK(text.find("n" + std::to_string(v) + " [label=") != std::string::npos);
  }
}

namespace {

struct tally {
  mmv::cost vcu, mmu;
  std::int64_t scalar_ops = 0, depth = 0, edges = 0;
  std::vector<std::int64_t> record_depths;
};

// A random program on a float64 machine (values may grow freely): each instruction draws its
// operands from the vectors made so far. Returns what a hand count says the ledger must hold.
tally random_program(mmv::machine& m, std::uint64_t seed) {
  mt::rng r(seed);
  const int s = m.s();
  const std::int64_t n = 3 * s;
  std::vector<std::pair<mmv::real_vec, std::int64_t>> pool;   // vector, its depth
  std::vector<std::pair<mmv::word_vec, std::int64_t>> flags;  // 0/1 words, its depth
  tally t;
  auto retire = [&](std::int64_t d, unit u, const mmv::cost& c, int inputs) {
    t.record_depths.push_back(d);
    t.depth = std::max(t.depth, d);
    t.edges += inputs;
    if (u == unit::vcu) t.vcu += c;
    if (u == unit::mmu) t.mmu += c;
    if (u == unit::scalar) ++t.scalar_ops;
  };
  auto pick = [&](auto& from) -> auto& {
    return from[static_cast<std::size_t>(r.uniform(0, static_cast<word>(from.size()) - 1))];
  };
  pool.push_back({m.load(r.reals(n, -1, 1)), 0});
  retire(0, unit::scalar, {}, 0);
  flags.push_back({m.load(r.flags(n)), 0});
  retire(0, unit::scalar, {}, 0);
  const auto weight = m.load(r.reals(s * s, -1, 1));
  retire(0, unit::scalar, {}, 0);
  for (int step = 0; step < 60; ++step) {
    const auto op = r.uniform(0, 7);
    const auto [a, da] = pick(pool);
    const auto [b, db] = pick(pool);
    if (op == 0) {
      pool.push_back({m.load(r.reals(n, -1, 1)), 0});
      retire(0, unit::scalar, {}, 0);
    } else if (op == 1) {
      const auto d = std::max(da, db) + 1;
      pool.push_back({m.add(a, b), d});
      retire(d, unit::vcu, mt::vcu_cost(n, 2 * n), 2);
    } else if (op == 2) {
      pool.push_back({m.neg(a), da + 1});
      retire(da + 1, unit::vcu, mt::vcu_cost(n, n), 1);
    } else if (op == 3) {
      const auto d = std::max(da, db) + 1;
      flags.push_back({m.compare("lt", a, b), d});
      retire(d, unit::vcu, mt::vcu_cost(n, 2 * n), 2);
    } else if (op == 4) {
      const auto [f, df] = pick(flags);
      const auto d = std::max({df, da, db}) + 1;
      pool.push_back({m.select(f, a, b), d});
      retire(d, unit::vcu, mt::vcu_cost(n, 3 * n), 3);
    } else if (op == 5) {
      pool.push_back({m.mmu(a, weight), da + 1});
      retire(da + 1, unit::mmu, mt::mmu_cost(n / s, s), 2);
    } else if (op == 6) {
      pool.push_back({m.broadcast(real{0.5}, n), 1});
      retire(1, unit::vcu, mt::vcu_cost(n, 0), 0);
    } else {
      const auto [f, df] = pick(flags);
      const auto d = std::max(df, da) + 1;
      pool.push_back({m.revspec(a, f), d});
      retire(d, unit::vcu, mt::revspec_cost(n, s), 2);
    }
  }
  return t;
}

}  // namespace

TEST_CASE("random programs: ledger and DAG agree with a hand count, DAG on or off", "[compose]") {
  const int s = GENERATE(2, 3, 8);
  for (int trial = 0; trial < 5; ++trial) {
    const auto seed = mt::fresh_seed();
    CAPTURE(s, seed);
    auto on = mt::make_machine(s, 32, mmv::number_format::float64, true);
    auto off = mt::make_machine(s, 32, mmv::number_format::float64, false);
    const tally t = random_program(on, seed);
    const tally t_off = random_program(off, seed);
    REQUIRE(t.record_depths == t_off.record_depths);
    for (const auto* m : {&on, &off}) {
      CHECK(m->costs().totals().vcu == t.vcu);
      CHECK(m->costs().totals().mmu == t.mmu);
      CHECK(m->costs().totals().scalar_ops == t.scalar_ops);
      CHECK(m->costs().depth() == t.depth);
      std::vector<std::int64_t> depths;
      for (const auto& r : m->costs().records()) depths.push_back(r.depth);
      CHECK(depths == t.record_depths);
    }
    CHECK(on.graph().longest_path() == t.depth);
    check_graph_shape(on, static_cast<std::size_t>(t.edges));
    CHECK(boost::num_vertices(off.graph().graph()) == 0);
    CHECK(off.graph().longest_path() == 0);
    // Same results either way (the DAG is bookkeeping only).
    for (std::size_t i = 0; i < on.costs().records().size(); ++i) {
      CHECK(on.costs().records()[i].op == off.costs().records()[i].op);
      CHECK(on.costs().records()[i].price == off.costs().records()[i].price);
    }
  }
}

TEST_CASE("region tags file instructions under nested paths", "[compose][regions]") {
  auto m = mt::make_machine(2);
  const auto a = m.load(std::vector<word>{1, 2, 3, 4});
  mmv::word_vec x, y, z, u, v;
  {
    auto g = m.region("a");
    x = m.add(a, a);
    {
      auto h = m.region("b");
      y = m.neg(x);
      z = m.mmu(y, m.load(std::vector<word>{1, 0, 0, 1}));
    }
    {
      auto h = m.region("c");
      u = m.sub(z, x);
    }
    u = m.sub(u, a);
  }
  v = m.neg(u);
  const auto& regions = m.costs().by_region();
  CHECK(regions.size() == 4);
  REQUIRE(regions.count("") == 1);
  REQUIRE(regions.count("a") == 1);
  REQUIRE(regions.count("a/b") == 1);
  REQUIRE(regions.count("a/c") == 1);
  CHECK(regions.at("").vcu == mt::vcu_cost(4, 4));
  CHECK(regions.at("").scalar_ops == 1);
  CHECK(regions.at("a").vcu == mt::vcu_cost(4, 8) + mt::vcu_cost(4, 8));
  CHECK(regions.at("a").mmu == mmv::cost{});
  CHECK(regions.at("a/b").vcu == mt::vcu_cost(4, 4));
  CHECK(regions.at("a/b").mmu == mt::mmu_cost(2, 2));
  CHECK(regions.at("a/b").scalar_ops == 1);  // the weight was loaded inside "a/b"
  CHECK(regions.at("a/c").vcu == mt::vcu_cost(4, 8));
  mmv::unit_costs sum;
  for (const auto& [name, c] : regions) {
    sum.vcu += c.vcu;
    sum.mmu += c.mmu;
    sum.scalar_ops += c.scalar_ops;
  }
  CHECK(sum.vcu == m.costs().totals().vcu);
  CHECK(sum.mmu == m.costs().totals().mmu);
  CHECK(sum.scalar_ops == m.costs().totals().scalar_ops);
  std::vector<std::string> tags;
  for (const auto& r : m.costs().records()) tags.push_back(r.region);
  CHECK(tags == std::vector<std::string>{"", "a", "a/b", "a/b", "a/b", "a/c", "a", ""});
  check_graph_shape(m, 2 + 1 + 2 + 2 + 2 + 1);
  std::ostringstream dot;
  m.graph().write_dot(dot);
  CHECK(dot.str().find("label=\"a/b\"") != std::string::npos);
  CHECK(dot.str().find("label=\"a/c\"") != std::string::npos);
  CHECK(m.read(v) == std::vector<word>{-(-2 - 2 - 1), -(-4 - 4 - 2), -(-6 - 6 - 3), -(-8 - 8 - 4)});
}

namespace {
template <class T>
std::string expected_preview(const std::vector<T>& v) {
  std::ostringstream o;
  o << "[";
  for (std::size_t i = 0; i < std::min<std::size_t>(v.size(), 16); ++i) o << (i ? " " : "") << v[i];
  if (v.size() > 16) o << " ...";
  o << "]";
  return o.str();
}
}  // namespace

TEST_CASE("trace: every record previews its output", "[trace]") {
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  CAPTURE(seed);
  auto m = mt::make_machine(4, 32, mmv::number_format::integer, true, true);
  std::vector<std::vector<word>> outputs;
  const auto x = r.words(r.uniform(17, 40), -99, 99);
  const auto a = m.load(x);
  outputs.push_back(x);
  const auto b = m.add(a, a);
  outputs.push_back(m.read(b));
  outputs.push_back(m.read(m.gather_strided(b, 0, 1, 5)));
  outputs.push_back(m.read(m.resize(b, 0, word{0})));
  outputs.push_back(m.read(m.mmu(m.resize(b, 16, word{0}), m.broadcast(word{1}, 16))));
  const auto& recs = m.costs().records();
  REQUIRE(recs.size() == 7);  // load add gather-strided resize resize broadcast mmu
  std::vector<std::string> previews;
  for (const auto& rec : recs) previews.push_back(rec.preview);
  CHECK(previews[0] == expected_preview(outputs[0]));
  CHECK(previews[1] == expected_preview(outputs[1]));
  CHECK(previews[2] == expected_preview(outputs[2]));
  CHECK(previews[3] == "[]");
  CHECK(previews[6] == expected_preview(outputs[4]));
  CHECK(previews[0].find("...") != std::string::npos);
  CHECK(previews[2].find("...") == std::string::npos);

  auto f = mt::make_machine(4, 32, mmv::number_format::float64, true, true);
  (void)f.add(f.load(std::vector<real>{0.5, -1.25, 3}), real{1});
  CHECK(f.costs().records().back().preview == "[1.5 -0.25 4]");

  auto quiet = mt::make_machine(4);
  (void)quiet.add(quiet.load(x), quiet.load(x));
  for (const auto& rec : quiet.costs().records()) CHECK(rec.preview.empty());
}
