// mmvram: the command-line tool of the MMV-RAM simulator (docs/tool.md).
// Exit codes: 0 success; 1 a result failed verification (kernels: a kernel failed); 2 a bad
// command line, a bad input file, input the machine rejects (model_error), a word-width overflow
// (width_error), an input too large for the machine's memory, a failed write (io_error), or
// (kernels) no CUDA device.
#include "commands.hpp"
#include "memory.hpp"
#include "output.hpp"
#include "runner.hpp"
#include "sweep.hpp"

#if defined(MMVRAM_HAVE_CUDA_BACKEND)
#include "mmvram/gpu/backend/cuda_backend.hpp"
#include "mmvram/gpu/runtime/device.hpp"
#endif

#include <malloc.h>

#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace mmv::tool {

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
            << "predicted  " << p.serial_ns / 1e3 << " us serial, " << p.dag_ns / 1e3 << " us along the DAG, "
            << p.queued_ns / 1e3 << " us queued behind the host (profile: " << r.profile_device << ")\n";
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

// The hint after a word-width overflow: the smallest B the input needs where the run knows it
// (integer mode), else by what overflowed: iota and lane-index generate
// indices/addresses, which grow with n, so only --bits helps; any other result may be a sum of
// data or of addresses, so the hint offers --max-value only as an alternative.
std::string width_hint(const width_error& e) {
  const std::string bits = std::to_string(e.word_bits);
  if (const auto* run = dynamic_cast<const run_width_error*>(&e)) {
    if (run->needed_bits > 64) return "this input needs more than 64 bits; smaller values (--max-value) help";
    const std::string needed = std::to_string(run->needed_bits);
    if (e.instruction == "iota" || e.instruction == "lane-index")
      return "this input needs --bits " + needed + " or more: the indices/addresses " + e.instruction +
             " generates grow with n";
    return "this input needs --bits " + needed + " or more (its min_word_bits); smaller values (--max-value) also help";
  }
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
  // A malformed MMVRAM_MEMORY_LIMIT_MB or MMVRAM_WORK_LIMIT fails every command at once.
  (void)available_memory(), (void)work_limit();
  if (command == "help" || command == "--help" || command == "-h") {
    std::cout << usage_text();
    return 0;
  }
  if (command == "list") return print_list(parse_list(rest));
  if (command == "instructions") return print_instructions(parse_instructions(rest));
  if (command == "run") return command_run(parse_run(rest));
  if (command == "sweep") return run_sweep(parse_sweep(rest));
  if (command == "calibrate") {
    calibrate_options o = parse_calibrate(rest);
#if defined(MMVRAM_HAVE_CUDA_BACKEND)
    // The knee: the device's L2 size (none without a device; the timing then fails as for any run).
    gpu::runtime::device_info dev;
    std::string why;
    if (o.l2_bytes < 0 && o.refit.empty() && o.backend == "cuda" && gpu::runtime::current_device(dev, why))
      o.l2_bytes = static_cast<std::int64_t>(dev.l2_bytes);
#endif
    return command_calibrate(o);
  }
  if (command == "predict") return command_predict(parse_predict(rest));
  if (command == "closed-forms") return print_closed_forms(parse_closed_forms(rest));
  if (command == "kernels") {
#if defined(MMVRAM_HAVE_CUDA_BACKEND)
    return command_kernels(rest);
#else
    throw usage_error("kernels: this mmvram was built without CUDA (configure with the cuda preset)");
#endif
  }
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
