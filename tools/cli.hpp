// Command-line parsing for `mmvram`: the options of each command, the number syntax
// (1024, 2^10, ranges 2^10..2^24), and the usage error that maps to exit code 2.
#pragma once
#include "mmvram/harness/random_inputs.hpp"
#include "mmvram/model/types.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mmv::tool {

// A malformed command line or an out-of-range option: one line on stderr, exit code 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class report_format { table, json, csv };

// Where the values of a run come from and how random ones are drawn.
struct input_options {
  std::int64_t n = 1024;
  double density = 0.05;                // probability that a position starts a segment
  // --dist: segment starts of a named distribution (random_inputs.hpp) instead of --density's
  // Bernoulli draws from the run's stream.
  std::optional<inputs::distribution> dist;
  std::uint64_t seed = 1;
  std::optional<std::int64_t> max_value;  // integer values drawn in [0, M] (or [-M, M])
  bool signed_values = false;
  std::string values_file, flags_file, decays_file, values2_file, matrix_file, vector_file;
  std::vector<std::int64_t> bigbird;  // SpMV on a BigBird matrix: block, random[, window, global]
  // State passing: n chunks of heads x rows x cols lanes, one log-decay per row or per head.
  std::int64_t heads = 2, rows = 4, cols = 8;
  bool per_head = false;
  // The options of random inputs given on the command line (so that one the run would ignore
  // is refused): "--n", "--density", "--mean-length" or "--dist", "--seed", "--max-value", "--signed",
  // "--heads", "--rows", "--cols", "--decay".
  std::vector<std::string> random_options;
  bool from_files() const { return !values_file.empty() || !matrix_file.empty(); }
};

struct run_options {
  std::string algorithm;
  int s = 16;
  int bits = 32;
  number_format mode = number_format::integer;  // --mode: the machine's number format
  input_options input;
  report_format format = report_format::table;   // --format: how the report is printed
  std::string dag_file;
  std::string output_file;  // --output: the whole result vector (text, or binary by extension)
  bool trace = false;
  std::string backend = "simulate";  // --backend: who executes (simulate, cuda)
  std::string executor = "in-order";  // --executor: in-order, graph or dag (machine_config::executor)
  int repeat = 5;                    // --repeat: timed runs on a timing backend (median reported)
  std::string profile;               // --profile FILE.json: predict the device time from the ledger
  bool strict_pricing = false;  // --strict-pricing: also the run re-priced by the strict rules
  bool min_bits = false;        // --min-bits: search the smallest B this input runs at
};

struct closed_forms_options {
  std::vector<std::string> algorithms;
  std::vector<std::int64_t> ns;  // up to 2^62: closed forms only, nothing is simulated
  std::vector<int> ss;
};

struct sweep_options {
  std::vector<std::string> algorithms;
  std::vector<std::int64_t> ns;
  std::vector<int> ss;
  std::vector<int> bits;
  std::vector<double> densities;
  number_format mode = number_format::integer;
  std::uint64_t seed = 1;
  std::string out;
  int jobs = 0;  // 0: every available core
  bool quiet = false;
  bool keep_failed = false;  // --keep-failed: failed rows in --out count as done (still exit 1)
  std::string backend = "simulate";  // --backend (cuda runs one point at a time)
  std::string executor = "in-order";  // --executor, as for run
  int repeat = 5;                    // --repeat, as for run
  std::string profile;               // --profile, as for run
};

struct list_options {
  report_format format = report_format::table;
};

struct calibrate_options {
  std::string backend = "cuda";  // a timing backend
  // --executor: in-order, or graph (each instruction timed inside a captured graph: device-only)
  std::string executor = "in-order";
  std::string out;               // --out FILE.json (required)
  std::int64_t max_m = std::int64_t{1} << 24;  // --max-m: largest instruction length (m = 2^8, 2^10, ..., 2^18, 2^19, ...)
  double max_work = 0x1p36;      // MMU and REVSPEC points with m * s above this are skipped
  std::vector<int> mmu_s{2, 4, 8, 16, 32, 64, 128};  // --s: tile sizes of the MMU and REVSPEC points
  int repeat = 7;                // --repeat: timed issues per point (median), after one warm-up
  std::uint64_t seed = 1;
  bool quiet = false;
  std::string device_name = "unknown";           // --device, as nvidia-smi names it
  double sm_clock_mhz = 0, memory_clock_mhz = 0;  // --sm-clock, --memory-clock (for the record)
  // --l2-bytes: the knee of the byte terms, the device's L2 size (-1: the device's own, which
  // mmvram reads on the cuda backend, 0 without one; with --refit, the profile's own).
  std::int64_t l2_bytes = -1;
  std::string refit;  // --refit FILE.json: fit again on that profile's stored timings (no device)
  bool interleaved = true;  // --back-to-back: time each instruction after itself, not after others
};

struct instructions_options {
  int s = 16;
  std::int64_t m = 1024;  // 1..2^40, so that every cost column fits in 64 bits
};

// The parsers take the arguments after the command word; they throw usage_error.
run_options parse_run(const std::vector<std::string>& args);
sweep_options parse_sweep(const std::vector<std::string>& args);
list_options parse_list(const std::vector<std::string>& args);
instructions_options parse_instructions(const std::vector<std::string>& args);
calibrate_options parse_calibrate(const std::vector<std::string>& args);
// `predict`: the options of `run` on the simulate backend; --profile is required.
run_options parse_predict(const std::vector<std::string>& args);
closed_forms_options parse_closed_forms(const std::vector<std::string>& args);

// "1024", "2^10", "2^10+3", "2^10-1": a non-negative integer up to 2^62. Throws usage_error
// naming `what`.
std::int64_t parse_count(const std::string& text, const std::string& what);
// parse_count, and a usage_error unless the count is in lo..hi.
std::int64_t parse_count_in(const std::string& text, const std::string& what, std::int64_t lo, std::int64_t hi);
// A comma-separated list of counts and ranges A..B (doubling) or A..B:F (factor F).
std::vector<std::int64_t> parse_count_list(const std::string& text, const std::string& what);
// parse_count_in as an int (lo and hi within int's range).
int parse_int_in(const std::string& text, const std::string& what, std::int64_t lo, std::int64_t hi);
// --seed: parse_count of text (0..2^62), as the seed of a run.
std::uint64_t parse_seed(const std::string& text);
// "0.01", "1/32": a real number.
double parse_real(const std::string& text, const std::string& what);
// parse_real, and a usage_error unless the number is in [lo, hi].
double parse_real_in(const std::string& text, const std::string& what, double lo, double hi);
// The parts of `text` between the separators `sep` (one empty part for an empty text).
std::vector<std::string> split(const std::string& text, char sep);

// Walks the arguments of `command` (a name in command_docs()): positional ones go to
// `positional`, options (--name value, --name=value) to their handler, switches to theirs. An
// unknown option, one given twice or with an empty value is a usage_error; handlers that differ
// from the command's documented options are a std::logic_error (the help is complete).
void walk(const std::string& command, const std::vector<std::string>& args,
          const std::map<std::string, std::function<void(const std::string&)>>& options,
          const std::map<std::string, std::function<void()>>& switches,
          const std::function<void(const std::string&)>& positional);

// One option of a command: its name, the value it takes (empty for a switch) and its help
// text ('\n' breaks a line).
struct option_doc {
  std::string name, value, help;
};
// One command: its synopsis and one-line summary for `mmvram help`, its options, a closing note.
struct command_doc {
  std::string name, synopsis, summary;
  std::vector<option_doc> options = {};
  std::string note = {};
};
// Every command's option table (usage.cpp), in the order `mmvram help` prints them. The
// parsers accept exactly these options: walk() throws std::logic_error when they differ.
const std::vector<command_doc>& command_docs();
// The table of command `name`; std::logic_error when there is none.
const command_doc& command_doc_of(const std::string& name);

// The text of `mmvram help`, generated from command_docs().
std::string usage_text();
// The option sections of the commands whose name starts with `prefix` ("kernels " for the
// help of `mmvram kernels`), as usage_text() prints them.
std::string options_text(const std::string& prefix);

}  // namespace mmv::tool
