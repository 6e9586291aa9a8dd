// The command-line syntax every `mmvram` command shares (cli.hpp): walk() over the arguments
// (--name value, --name=value, switches, positional ones) against the command's documented
// options, and the values' syntax: counts (1024, 2^10, 2^10+3), count lists and ranges, reals
// (0.01, 1/32), seeds, comma-separated lists.
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "cli.hpp"

namespace mmv::tool {

namespace {

using handler = std::function<void(const std::string&)>;

// Throws std::logic_error unless the handlers of `command` are exactly its documented options
// (a value for each option with one, none for each switch): the help text is complete.
void require_documented(const std::string& command, const std::map<std::string, handler>& options,
                        const std::map<std::string, std::function<void()>>& switches) {
  std::set<std::string> documented, handled;
  for (const auto& o : command_doc_of(command).options) documented.insert(o.name + (o.value.empty() ? "" : " VALUE"));
  for (const auto& entry : options) handled.insert(entry.first + " VALUE");
  for (const auto& entry : switches) handled.insert(entry.first);
  if (documented != handled) throw std::logic_error("the options of '" + command + "' differ from its help (usage.cpp)");
}

}  // namespace

void walk(const std::string& command, const std::vector<std::string>& args,
          const std::map<std::string, handler>& options, const std::map<std::string, std::function<void()>>& switches,
          const std::function<void(const std::string&)>& positional) {
  require_documented(command, options, switches);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0 || a == "--") {
      positional(a);
      continue;
    }
    std::string name = a, value;
    const auto eq = a.find('=');
    const bool inline_value = eq != std::string::npos;
    if (inline_value) name = a.substr(0, eq), value = a.substr(eq + 1);
    if (!seen.insert(name).second) throw usage_error("option " + name + " is given twice (give each option once)");
    if (auto sw = switches.find(name); sw != switches.end()) {
      if (inline_value) throw usage_error("option " + name + " takes no value");
      sw->second();
      continue;
    }
    auto opt = options.find(name);
    if (opt == options.end()) throw usage_error("unknown option " + name + " (see mmvram help)");
    if (!inline_value) {
      if (i + 1 >= args.size()) throw usage_error("option " + name + " needs a value");
      value = args[++i];
    }
    if (value.empty()) throw usage_error("option " + name + " needs a value (got an empty one)");
    opt->second(value);
  }
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto end = text.find(sep, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

std::int64_t parse_count(const std::string& text, const std::string& what) {
  constexpr __int128 top = __int128{1} << 62;
  const auto bad = [&] { return usage_error(what + ": expected a count like 1024, 2^10 or 2^10+3 (got '" + text + "')"); };
  const auto too_large = [&] { return usage_error(what + ": " + text + " is too large (the limit is 2^62)"); };
  const auto digits = [&](const std::string& t) {
    if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos) throw bad();
    __int128 v = 0;
    for (const char c : t)
      if ((v = v * 10 + (c - '0')) > top) throw too_large();
    return static_cast<std::int64_t>(v);
  };
  const auto caret = text.find('^');
  if (caret == std::string::npos) return digits(text);
  const auto sign = text.find_first_of("+-", caret);
  const std::int64_t base = digits(text.substr(0, caret)), exp = digits(text.substr(caret + 1, sign - caret - 1));
  __int128 v = 1;
  if (base <= 1) v = exp == 0 ? 1 : base;  // 0^k and 1^k without k multiplications
  else
    for (std::int64_t k = 0; k < exp; ++k)
      if ((v *= base) > top) throw too_large();
  if (sign != std::string::npos) {  // B^E+C or B^E-C
    const std::int64_t c = digits(text.substr(sign + 1));
    v += text[sign] == '+' ? c : -__int128{c};
    if (v > top) throw too_large();
    if (v < 0) throw usage_error(what + ": " + text + " is negative");
  }
  return static_cast<std::int64_t>(v);
}

std::int64_t parse_count_in(const std::string& text, const std::string& what, std::int64_t lo, std::int64_t hi) {
  const std::int64_t v = parse_count(text, what);
  if (v < lo || v > hi)
    throw usage_error(what + " must be in " + std::to_string(lo) + ".." + std::to_string(hi) + " (got " + text + ")");
  return v;
}

double parse_real_in(const std::string& text, const std::string& what, double lo, double hi) {
  const double v = parse_real(text, what);
  if (!(v >= lo && v <= hi))
    throw usage_error((std::ostringstream() << what << " must be in [" << lo << ", " << hi << "] (got " << text << ")").str());
  return v;
}

std::vector<std::int64_t> parse_count_list(const std::string& text, const std::string& what) {
  std::vector<std::int64_t> out;
  for (const auto& item : split(text, ',')) {
    const auto dots = item.find("..");
    if (dots == std::string::npos) {
      out.push_back(parse_count(item, what));
      continue;
    }
    std::string hi_text = item.substr(dots + 2);
    std::int64_t factor = 2;
    if (const auto colon = hi_text.find(':'); colon != std::string::npos) {
      factor = parse_count(hi_text.substr(colon + 1), what + " range factor");
      hi_text = hi_text.substr(0, colon);
    }
    const std::int64_t lo = parse_count(item.substr(0, dots), what), hi = parse_count(hi_text, what);
    if (factor < 2 || lo < 1 || lo > hi) throw usage_error(what + ": bad range '" + item + "'");
    // At most 62 values (lo >= 1, factor >= 2, hi <= 2^62); v * factor is formed only when it is <= hi.
    for (std::int64_t v = lo;; v *= factor) {
      out.push_back(v);
      if (v > hi / factor) break;
    }
  }
  return out;
}

int parse_int_in(const std::string& text, const std::string& what, std::int64_t lo, std::int64_t hi) {
  return static_cast<int>(parse_count_in(text, what, lo, hi));
}

std::uint64_t parse_seed(const std::string& text) { return static_cast<std::uint64_t>(parse_count(text, "--seed")); }

double parse_real(const std::string& text, const std::string& what) {
  const auto parts = split(text, '/');
  if (parts.size() > 2) throw usage_error(what + ": expected a number like 0.01 or 1/32 (got '" + text + "')");
  double v = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    // strtod, not stod: stod throws on an underflow, so 1e-310 (a subnormal) would be "not a number".
    char* end = nullptr;
    const double x = std::strtod(parts[i].c_str(), &end);
    const auto used = static_cast<std::size_t>(end - parts[i].c_str());
    if (used == 0 || used != parts[i].size() || !std::isfinite(x))
      throw usage_error(what + ": expected a number like 0.01 or 1/32 (got '" + text + "')");
    v = i == 0 ? x : v / x;
  }
  if (!std::isfinite(v)) throw usage_error(what + ": " + text + " is not a finite number");
  return v;
}

}  // namespace mmv::tool
