// The one generator of random inputs (random_inputs.hpp).
#include "mmvram/harness/random_inputs.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstring>
#include <thread>

namespace mmv::inputs {

const char* dtype_name(dtype t) { return t == dtype::f32 ? "f32" : "i32"; }

std::optional<dtype> parse_dtype(std::string_view s) {
  if (s == "f32" || s == "float") return dtype::f32;
  if (s == "i32" || s == "int32") return dtype::i32;
  return std::nullopt;
}

std::string distribution::family() const {
  switch (k) {
    case kind::one_segment: return "one_segment";
    case kind::no_flags: return "no_flags";
    case kind::first_flag_0: return "first_flag_0";
    case kind::all_length_1: return "all_length_1";
    case kind::geometric: return "geometric";
    case kind::pareto: return "pareto";
    case kind::fixed: return "fixed";
  }
  return "?";
}

std::string distribution::name() const {
  const bool has_mean = k == kind::geometric || k == kind::pareto || k == kind::fixed;
  return has_mean ? family() + ":" + std::to_string(mean) : family();
}

std::optional<distribution> distribution::parse(std::string_view s) {
  const auto colon = s.find(':');
  const std::string_view fam = s.substr(0, colon);
  distribution d;
  for (kind k : {kind::one_segment, kind::no_flags, kind::first_flag_0, kind::all_length_1,
                 kind::geometric, kind::pareto, kind::fixed}) {
    d.k = k;
    if (d.family() != fam) continue;
    const bool has_mean = k == kind::geometric || k == kind::pareto || k == kind::fixed;
    if (k == kind::first_flag_0) d.mean = 32;  // geometric:32 with flags[0] = 0
    if (!has_mean) return colon == std::string_view::npos ? std::optional(d) : std::nullopt;
    if (colon == std::string_view::npos) return std::nullopt;
    const std::string_view m = s.substr(colon + 1);
    long long v = 0;
    const auto r = std::from_chars(m.data(), m.data() + m.size(), v);
    if (r.ec != std::errc() || r.ptr != m.data() + m.size() || v < 1) return std::nullopt;
    d.mean = v;
    return d;
  }
  return std::nullopt;
}

std::vector<distribution> standard_distributions() {
  using K = distribution::kind;
  std::vector<distribution> v{{K::one_segment, 0}, {K::no_flags, 0}, {K::first_flag_0, 32},
                              {K::all_length_1, 1}};
  for (K k : {K::geometric, K::pareto, K::fixed})
    for (std::int64_t m : {32, 1024, 32768, 1048576}) v.push_back({k, m});
  return v;
}

void parallel_for(std::int64_t n, const std::function<void(std::int64_t, std::int64_t)>& body) {
  if (n <= 0) return;  // no range to cover: body is never called with an empty one
  const std::int64_t threads =
      std::clamp<std::int64_t>(std::thread::hardware_concurrency(), 1, 64);
  const std::int64_t parts = std::min<std::int64_t>(threads, std::max<std::int64_t>(1, n / 65536));
  if (parts <= 1) {
    body(0, n);
    return;
  }
  std::vector<std::thread> pool;
  for (std::int64_t p = 0; p < parts; ++p)
    pool.emplace_back([&, p] { body(n * p / parts, n * (p + 1) / parts); });
  for (auto& t : pool) t.join();
}

std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

void fill_values(dtype t, void* host, std::int64_t n, std::uint64_t seed) {
  const std::uint64_t key = mix64(seed ^ 0x76616c7565ull);
  parallel_for(n, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) {
      const std::uint64_t h = mix64(key + static_cast<std::uint64_t>(i));
      if (t == dtype::f32) {
        float x = -0.5f + 1.5f * static_cast<float>(h >> 40) * 0x1p-24f;
        if (std::fabs(x) < 0x1p-10f) x = (h & 1) ? 0x1p-10f : -0x1p-10f;
        static_cast<float*>(host)[i] = x;
      } else {
        std::int32_t x = static_cast<std::int32_t>(static_cast<std::uint32_t>(h >> 32));
        static_cast<std::int32_t*>(host)[i] = x != 0 ? x : 1;
      }
    }
  });
}

void fill_flags(const distribution& d, std::uint8_t* f, std::int64_t n, std::uint64_t seed) {
  using K = distribution::kind;
  const std::uint64_t key = mix64(seed ^ 0x666c616773ull);
  switch (d.k) {
    case K::one_segment:
    case K::no_flags:
      parallel_for(n, [&](std::int64_t b, std::int64_t e) { std::memset(f + b, 0, e - b); });
      break;
    case K::all_length_1:
      parallel_for(n, [&](std::int64_t b, std::int64_t e) { std::memset(f + b, 1, e - b); });
      break;
    case K::fixed:
      parallel_for(n, [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t i = b; i < e; ++i) f[i] = i % d.mean == 0 ? 1 : 0;
      });
      break;
    case K::geometric:
    case K::first_flag_0: {  // Bernoulli(1/mean) starts: geometric segment lengths
      stream s(key);
      bernoulli_flags(s, f, n, 1.0 / static_cast<double>(std::max<std::int64_t>(d.mean, 1)));
      break;
    }
    case K::pareto: {
      parallel_for(n, [&](std::int64_t b, std::int64_t e) { std::memset(f + b, 0, e - b); });
      const double alpha = 1.5, xmin = static_cast<double>(d.mean) * (alpha - 1.0) / alpha;
      stream s(key);
      for (std::int64_t pos = 0; pos < n;) {
        f[pos] = 1;
        const double len = std::ceil(xmin / std::pow(1.0 - s.unit(), 1.0 / alpha));
        pos += len >= static_cast<double>(n) ? n : std::max<std::int64_t>(1, static_cast<std::int64_t>(len));
      }
      break;
    }
  }
  if (n > 0) f[0] = (d.k == K::no_flags || d.k == K::first_flag_0) ? 0 : 1;
}

std::vector<value_family> value_families() {
  std::vector<value_family> f;
  for (int k : {0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30})
    f.push_back({"spread:1e" + std::to_string(k), k, 0});
  for (int every : {64, 512}) f.push_back({"huge_1e30:1/" + std::to_string(every), 0, every});
  return f;
}

void fill_family(const value_family& f, float* x, std::int64_t n, std::uint64_t seed) {
  const std::uint64_t key = mix64(seed ^ 0x6163637572ull);
  parallel_for(n, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) {
      const std::uint64_t h = mix64(key + static_cast<std::uint64_t>(i));
      const double u = static_cast<double>(h >> 11) * 0x1p-53;
      const double sign = (h & 1) ? -1.0 : 1.0;
      double v = std::pow(10.0, f.decades * u);
      if (f.huge_every > 0)
        v = (mix64(h) % static_cast<std::uint64_t>(f.huge_every)) == 0 ? 1e30 * (1.0 + u) : 0.5 + 0.5 * u;
      x[i] = static_cast<float>(sign * v);
    }
  });
}

std::vector<word> distribution_flags(const distribution& d, std::int64_t n, std::uint64_t seed) {
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(n));
  fill_flags(d, bytes.data(), n, seed);
  return std::vector<word>(bytes.begin(), bytes.end());
}

std::int64_t count_segments(const std::uint8_t* flags, std::int64_t n) {
  if (n <= 0) return 0;
  std::atomic_int64_t total{0};
  parallel_for(n - 1, [&](std::int64_t b, std::int64_t e) {
    std::int64_t c = 0;
    for (std::int64_t i = b + 1; i < e + 1; ++i) c += flags[i] != 0;
    total += c;
  });
  return total + 1;
}

void bernoulli_flags(stream& d, std::uint8_t* f, std::int64_t n, double p) {
  if (n <= 0) return;
  f[0] = 1;
  parallel_for(n - 1, [&](std::int64_t b, std::int64_t e) {  // position i + 1 takes draw i
    stream part = d;
    part.skip(static_cast<std::uint64_t>(b));
    for (std::int64_t i = b; i < e; ++i) f[i + 1] = part.unit() < p ? 1 : 0;
  });
  d.skip(static_cast<std::uint64_t>(n - 1));
}

double normal_sum12(stream& d) {
  double z = -6;
  for (int k = 0; k < 12; ++k) z += d.unit();
  return z;
}

std::vector<word> bounded_flags(stream& d, std::int64_t n, double density) {
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(n));
  bernoulli_flags(d, bytes.data(), n, density);
  return std::vector<word>(bytes.begin(), bytes.end());
}

std::vector<word> bounded_words(stream& d, std::int64_t n, std::int64_t max_value, bool signed_values) {
  std::vector<word> x(static_cast<std::size_t>(n));
  for (auto& v : x) v = d.integer(signed_values ? -max_value : 0, max_value);
  return x;
}

std::vector<real> bounded_reals(stream& d, std::int64_t n, bool signed_values, bool float32) {
  std::vector<real> x(static_cast<std::size_t>(n));
  for (auto& v : x) {
    v = signed_values ? 2 * d.unit() - 1 : d.unit();
    if (float32) v = static_cast<float>(v);
  }
  return x;
}

}  // namespace mmv::inputs
