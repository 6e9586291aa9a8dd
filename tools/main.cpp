// mmvram: the command-line tool of the MMV-RAM simulator (docs/tool.md).
// Exit codes: 0 success; 1 a result failed verification; 2 a bad command line, a bad input
// file, input the machine rejects (model_error), a word-width overflow (width_error), an input
// too large for the machine's memory, or a failed write (io_error).
#include "commands.hpp"
#include "output.hpp"
#include "runner.hpp"
#include "sweep.hpp"

#if defined(MMVRAM_HAVE_CUDA_BACKEND)
#include "mmvram/gpu/machine/cuda_backend.hpp"
#endif

#include <malloc.h>

#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace mmv::tool {

std::string usage_text() {
  return R"(usage: mmvram COMMAND [options]

commands:
  list [--format table|json]            algorithms, their units, step/work bounds and word width
  instructions [--s S] [--m M]          the machine's instruction table with its prices
  run ALGO [options]                    run one algorithm, verify it, print its cost report
  sweep ALGO... --out FILE.csv [options]  many runs, appended to a resumable CSV
  calibrate --out FILE.json [options]   time single instructions on the GPU, fit a device profile
  predict ALGO --profile FILE [options] the device time a profile predicts from the ledger (CPU only)
  closed-forms ALGO... --n LIST [--s L]  closed-form counts of scans as CSV (n up to 2^40, nothing runs)
  help                                  this text

run options:
  --n N                 problem size (1024, 2^20); default 1024
  --s S                 MMU tile size, S >= 2; default 16
  --bits B              word width B in 2..64; default 32 (64 with --mode float64)
  --mode M              number format of the machine: integer | float32 | float64; default integer
  --density D           probability that a position starts a segment, in [0, 1]; default 0.05
  --mean-length L       the same as --density 1/L
  --seed K              seed of the random input; default 1
  --max-value M         random integers in [0, M] (default: totals fit in B bits, at most 100)
  --signed              random values in [-M, M] (reals in [-1, 1))
  --values FILE         x (b for decayed scans) from a file instead of random
  --flags FILE          segment-start flags (0/1) for --values
  --decays FILE         decays a for decayed scans
  --values2 FILE        second operand (element-wise and matrix products)
  --matrix FILE.mtx     Matrix Market matrix for spmv; --vector FILE its dense vector
  --format F            report format: table | json | csv; default table
  --dag FILE.dot        write the dependency DAG as Graphviz DOT
  --output FILE         write the whole result: text (one value per line, round-trip
                        precision), or binary when FILE ends in .u8 .i32 .i64 .f32 .f64
  --trace               print every instruction (unit, op, region, length, cost, output)
  --backend B           who executes: simulate (CPU) | cuda (GPU, timed); default simulate
  --repeat R            cuda: timed runs behind the reported medians; default 5
  --profile FILE.json   predict the device time (serial and DAG) from the ledger with this profile
  --strict-pricing      also the run re-priced strictly: gather/scatter/compress as sorting
                        networks, REVSPEC and iterated additions as doubling rounds (docs/model.md)
  --min-bits            also search the smallest B by re-running (integer mode; checks min_word_bits)
  Files ending in .u8 .i32 .i64 .f32 .f64 are raw little-endian binary; others are text.

sweep options:
  --n LIST              counts and ranges: 2^10..2^20 (doubling), 2^4..2^20:4 (factor 4), 1000,5000
  --s LIST, --bits LIST, --density LIST (or --mean-length LIST), --mode M, --seed K
  --out FILE.csv        rows are appended; points with a verified row in the file are skipped,
                        failed ones are run again (their old rows removed)
  --keep-failed         skip failed points too (they still make the exit code 1)
  --jobs J              parallel runs (default: every core); --quiet hides the progress bar
  --backend B, --repeat R, --profile FILE.json   as for run (cuda: one point at a time)

calibrate options:
  --out FILE.json       the device profile to write (required); --backend cuda (the default)
  --max-m M             largest instruction length, m = 2^8, 2^10, ... (default 2^24)
  --s LIST              tile sizes of the MMU and REVSPEC points (default 2,4,8,16,32,64,128)
  --repeat R            timed issues per point after a warm-up (default 7); --seed K; --quiet
  --device NAME, --sm-clock MHZ, --memory-clock MHZ   recorded in the profile
  --refit FILE.json     fit again on that profile's stored timings (CPU only) and write --out
  --back-to-back        time each instruction right after itself (default: after two others)

Each option may be given once; an empty value is an error.

exit codes: 0 ok, 1 verification failed, 2 bad usage, bad input, word-width overflow, an input
too large for this machine's memory, or a failed write
)";
}

int command_predict(const run_options& o) {
  if (o.format != report_format::table) return command_run(o);
  const run_report r = run_once(o);
  if (!r.error.empty()) throw std::runtime_error(r.error);
  const auto& t = r.totals;
  const auto& p = *r.predicted_time;
  std::cout << "algorithm  " << r.algorithm << " (" << r.units << "), n = " << r.n << ", s = " << r.s << ", B = " << r.bits
            << ", " << r.mode << (r.segments > 1 ? ", " + std::to_string(r.segments) + " segments" : "") << "\n"
            << "verified   " << (r.outcome.verified ? "true" : "false") << " (simulate backend)\n"
            << "ledger     " << t.total().steps << " steps (MMU " << t.mmu.steps << ", VCU " << t.vcu.steps << "), depth "
            << r.depth << ", MMU multiply-adds " << t.mmu.multiply_adds << ", VCU work " << t.vcu.work << ", words "
            << t.total().words_read + t.total().words_written << "\n"
            << "predicted  " << p.serial_ns / 1e3 << " us serial, " << p.dag_ns / 1e3 << " us along the DAG (profile: "
            << r.profile_device << ")\n";
  return r.outcome.verified ? 0 : 1;
}

int command_run(const run_options& o) {
  const run_report r = run_once(o);
  if (!r.error.empty()) throw std::runtime_error(r.error);  // exit 2, nothing printed on stdout
  if (o.format == report_format::json) {
    print_json(std::cout, r);
  } else if (o.format == report_format::csv) {
    std::cout << csv_header() << "\n" << csv_row(r) << "\n";
  } else {
    if (o.trace) {
      print_trace(std::cout, r);
      std::cout << "\n";
    }
    print_table(std::cout, r);
  }
  if (!r.outcome.verified)
    std::cerr << "mmvram: " << r.algorithm << " failed verification: " << r.outcome.mismatch << "\n";
  return r.outcome.verified ? 0 : 1;
}

namespace {

// The hint after a word-width overflow, by what overflowed: iota and lane-index generate
// indices/addresses, which grow with n, so only --bits helps; any other result may be a sum of
// data or of addresses, so the hint offers --max-value only as an alternative.
std::string width_hint(const width_error& e) {
  const std::string bits = std::to_string(e.word_bits);
  if (e.instruction == "iota" || e.instruction == "lane-index")
    return "the indices/addresses " + e.instruction + " generates for this n need more than " + bits +
           " bits: raise --bits";
  return "raise --bits; if " + e.value + " is a sum or product of the data, smaller values (--max-value) also help";
}

int dispatch(const std::vector<std::string>& args) {
  if (args.empty()) throw usage_error("missing command (try mmvram help)");
#if defined(MMVRAM_HAVE_CUDA_BACKEND)
  gpu::register_cuda_backend();
#endif
  const std::string& command = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (command == "help" || command == "--help" || command == "-h") {
    std::cout << usage_text();
    return 0;
  }
  if (command == "list") return print_list(parse_list(rest));
  if (command == "instructions") return print_instructions(parse_instructions(rest));
  if (command == "run") return command_run(parse_run(rest));
  if (command == "sweep") return run_sweep(parse_sweep(rest));
  if (command == "calibrate") return command_calibrate(parse_calibrate(rest));
  if (command == "predict") return command_predict(parse_predict(rest));
  if (command == "closed-forms") return print_closed_forms(parse_closed_forms(rest));
  throw usage_error("unknown command '" + command + "' (try mmvram help)");
}

}  // namespace

}  // namespace mmv::tool

namespace {

// The exit code of `args`, with the standard output flushed and checked: a report that could
// not be written is an error, never a silent success.
int run_checked(const std::vector<std::string>& args) {
  const int code = mmv::tool::dispatch(args);
  mmv::tool::check_written(std::cout, "to the standard output");
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  // Every instruction allocates its output; keep freed blocks in the heap instead of returning
  // them to the kernel, so large runs do not pay a page fault per touched page per instruction.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  try {
    return run_checked(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::length_error&) {
    std::cerr << "mmvram: error: out of memory: the input is too large for this machine (the simulator needs "
                 "about 80 bytes per element; see docs/tool.md, Performance)\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "mmvram: error: out of memory: the input is too large for this machine (the simulator needs "
                 "about 80 bytes per element; see docs/tool.md, Performance)\n";
    return 2;
  } catch (const mmv::width_error& e) {
    std::cerr << "mmvram: error: " << mmv::tool::escaped(e.what()) << " (" << mmv::tool::width_hint(e) << ")\n";
  } catch (const std::exception& e) {
    std::cerr << "mmvram: error: " << mmv::tool::escaped(e.what()) << "\n";
  }
  return 2;
}
