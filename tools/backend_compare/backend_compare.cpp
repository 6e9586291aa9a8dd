#include "backend_compare.hpp"

#include <cmath>
#include <sstream>
#include <vector>

#include "mmvram/gpu/backend/cuda_backend.hpp"
#include "mmvram/harness/random_inputs.hpp"
#include "mmvram/harness/registry.hpp"
#include "mmvram/harness/run_inputs.hpp"

namespace mmv::gpu {

machine_config backend_config(const std::string& backend, number_format f, int s, int bits,
                              std::int64_t iterated_addition) {
  machine_config c;
  c.iterated_addition_limit = iterated_addition;
  c.backend = backend;
  c.format = f;
  c.s = s;
  c.word_bits = bits;
  c.record_dag = false;
  return c;
}

namespace {

// "" when both ledgers hold the same records (op, unit, region, length, price, depth).
std::string ledger_difference(const ledger& a, const ledger& b) {
  if (a.records().size() != b.records().size())
    return "ledgers differ in length: " + std::to_string(a.records().size()) + " vs " + std::to_string(b.records().size());
  for (std::size_t i = 0; i < a.records().size(); ++i) {
    const auto &x = a.records()[i], &y = b.records()[i];
    if (x.op != y.op || x.where != y.where || x.region != y.region || x.length != y.length || x.price != y.price ||
        x.depth != y.depth)
      return "ledger record " + std::to_string(i) + " differs: " + std::string(x.op) + " / " + std::string(y.op);
  }
  return "";
}

}  // namespace

std::vector<number_format> formats_of(const std::string& algorithm) {
  const algorithm_entry& e = find_algorithm(algorithm);
  std::vector<number_format> f;
  if (e.integer_ok) f.push_back(number_format::integer);
  if (e.float_ok) f.push_back(number_format::float32), f.push_back(number_format::float64);
  return f;
}

std::string compare_backends(const backend_case& c) {
  register_cuda_backend();
  const algorithm_entry& entry = find_algorithm(c.algorithm);
  const number_format f = c.format;
  const int s = c.s, bits = c.bits;
  inputs::run_draw draw;
  draw.n = c.n, draw.density = c.density, draw.seed = c.seed, draw.signed_values = c.signed_values;
  if (c.max_value > 0) draw.max_value = c.max_value;
  const algorithm_input input = inputs::random_run_input(entry.shape, draw, f, bits);
  const std::int64_t k = entry.iterated_addition_limit ? entry.iterated_addition_limit(input.n) : 0;
  machine sim(backend_config("simulate", f, s, bits, k)), gpu(backend_config("cuda", f, s, bits, k));
  const algorithm_outcome a = entry.run(sim, input);
  const algorithm_outcome b = entry.run(gpu, input);
  gpu.collect_timing();
  if (auto d = ledger_difference(sim.costs(), gpu.costs()); !d.empty()) return d;
  if (!gpu.costs().measured()) return "the cuda backend's ledger holds no measured times";
  // A method that breaks down by design (decayed-scan-unstable divides by exp of a running sum
  // of log a) amplifies the last-bit differences of exp and log between the CPU's libm and
  // CUDA's, so only its ledger is compared.
  if (!a.verified || entry.breaks_down) return "";
  if (!b.verified) return "cuda: " + b.mismatch;
  if (f == number_format::integer) return a.output_words == b.output_words ? "" : "integer outputs differ";
  if (a.output_reals.size() != b.output_reals.size()) return "output lengths differ";
  for (std::size_t i = 0; i < a.output_reals.size(); ++i)
    if (!(std::fabs(a.output_reals[i] - b.output_reals[i]) <= 2 * a.tolerance)) {
      std::ostringstream os;
      os << "index " << i << ": simulate " << a.output_reals[i] << ", cuda " << b.output_reals[i] << " (tolerance "
         << a.tolerance << ")";
      return os.str();
    }
  return "";
}

std::string random_backend_case(std::uint64_t case_seed) {
  inputs::stream draws(case_seed);  // the case's choices, in order
  const auto pick = [&](std::size_t count) { return std::size_t(draws.integer(0, std::int64_t(count) - 1)); };
  std::vector<const algorithm_entry*> table;  // the entries the cuda backend runs
  for (const auto& e : algorithm_table())
    if (e.cuda_backend) table.push_back(&e);
  const algorithm_entry& entry = *table[pick(table.size())];
  const auto formats = formats_of(entry.name);
  const number_format f = formats[pick(formats.size())];
  const bool square = facts_of(entry.shape).square;
  const std::int64_t n = square ? draws.integer(1, 5) : draws.integer(1, 5000);
  const int sizes[] = {2, 3, 16, 128};
  const int s = sizes[pick(4)];
  const double densities[] = {0.0, 1.0, 0.05, 0.001};
  const double density = densities[pick(4)];
  const int bits = f == number_format::float64 ? 64 : 32;
  backend_case c;
  c.algorithm = entry.name, c.format = f, c.s = s, c.bits = bits, c.n = n, c.density = density, c.seed = draws.next();
  const std::string d = compare_backends(c);
  if (d.empty()) return d;
  std::ostringstream os;
  os << entry.name << ' ' << to_string(f) << " n=" << n << " s=" << s << " B=" << bits << " density=" << density << ": "
     << d;
  return os.str();
}

}  // namespace mmv::gpu
