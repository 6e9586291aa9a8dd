// Basic types of the MMV-RAM simulator: words, units, machine parameters and the errors it
// raises. Everything here is plain data; the instructions live in machine.hpp.
#pragma once
#include <Eigen/Core>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace mmv {

using word = std::int64_t;  // an integer machine word, checked against B bits
using real = double;        // a floating-point word (rounded to float32 in float32 mode)

template <class T>
using array = Eigen::Array<T, Eigen::Dynamic, 1>;

// The three units of the machine. The scalar unit is free (no steps) but listed in the trace.
enum class unit { scalar, vcu, mmu };

// Arithmetic mode: exact integers checked against B bits, or IEEE floats (no width check on
// real words; integer words such as flags and indices are still checked against B bits).
enum class number_format { integer, float32, float64 };

const char* to_string(unit u);
const char* to_string(number_format f);
number_format parse_number_format(const std::string& name);  // "integer", "float32", "float64"

// Parameters of one machine. s >= 2 is the MMU tile size; word_bits is B in 2..64.
struct machine_config {
  std::string backend = "simulate";  // who executes: "simulate" (CPU) or "cuda" (backend.hpp)
  int s = 16;
  int word_bits = 32;
  number_format format = number_format::integer;
  bool record_dag = true;     // keep the Boost.Graph DAG (off for large n; counts are identical)
  bool record_trace = false;  // keep a preview of every instruction's output for --trace
  // Timing backends (cuda): bracket every instruction with device events (its measured_ns);
  // false: only the back-to-back span of the whole run is measured, with no event in between.
  bool time_instructions = true;
  // How a timing backend (cuda) issues the instructions: "in-order" (each its own operation on
  // one stream, events around each), "graph" (captured into CUDA graphs and replayed) or "dag"
  // (captured on several streams along the dependencies); docs/backends.md. simulate ignores it.
  std::string executor = "in-order";
  // Largest block k the optional iterated-addition instructions (block_prefix_sum) accept;
  // 0 (the default) switches them off, so every result of the plain model stays as it is.
  std::int64_t iterated_addition_limit = 0;
};

// Bad input: wrong lengths, s < 2, B out of range, flags not 0/1, an index out of range, ...
struct model_error : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// `text` with every byte outside printable ASCII written as \xNN, so that a message or a report
// quoting bytes of an input file stays one readable line.
std::string escaped(const std::string& text);

// The first real result that is not finite (inf or nan) in a run whose inputs were finite: an
// overflow of the format (or 0/0, inf - inf) inside the algorithm. Recorded, not thrown, so the
// run's counts stay complete; machine::first_nonfinite() reports it.
struct nonfinite_result {
  std::int64_t sequence = 0;  // the instruction's position in the ledger (the trace's #, from 1)
  std::string instruction;    // its name, e.g. "div"
  std::int64_t index = 0;     // the first output position that is not finite
  double value = 0;           // inf, -inf or nan
};

// An integer result that does not fit in B-bit two's complement.
struct width_error : std::overflow_error {
  width_error(std::string instruction, std::int64_t index, std::string value, int word_bits);
  std::string instruction;
  std::int64_t index;
  std::string value;
  int word_bits;
};

namespace detail {
// v in decimal (width errors name the value that did not fit, every backend alike).
std::string to_string(__int128 v);
}  // namespace detail

}  // namespace mmv
