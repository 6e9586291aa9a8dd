// The option table of every command, and `mmvram help` generated from it. The parsers in
// cli.cpp accept exactly the options listed here (walk() checks it on every parse), so the
// help text cannot leave an option out or list one that does not exist.
#include "cli.hpp"
#include "mmvram/model/backend.hpp"

#include <algorithm>
#include <sstream>

namespace mmv::tool {

namespace {

const std::vector<command_doc> docs{
    {.name = "list",
     .synopsis = "list [--format table|json]",
     .summary = "algorithms, their units, step/work bounds and word width",
     .options = {{"--format", "F", "table | json; default table"}}},
    {.name = "instructions",
     .synopsis = "instructions [--s S] [--m M]",
     .summary = "the machine's instruction table with its prices",
     .options = {{"--s", "S", "MMU tile size of the prices; default 16"},
                 {"--m", "M", "instruction length of the prices, 1..2^40; default 1024"}}},
    {.name = "run",
     .synopsis = "run ALGO [options]",
     .summary = "run one algorithm, verify it, print its cost report",
     .options = {{"--n", "N", "problem size (1024, 2^20); default 1024"},
                 {"--s", "S", "MMU tile size, S >= 2; default 16"},
                 {"--bits", "B", "word width B in 2..64; default 32 (64 with --mode float64)"},
                 {"--mode", "M", "number format of the machine: integer | float32 | float64; default integer"},
                 {"--density", "D", "probability that a position starts a segment, in [0, 1]; default 0.05"},
                 {"--mean-length", "L", "the same as --density 1/L"},
                 {"--dist", "NAME", "segment starts of a named distribution instead: one_segment, no_flags, first_flag_0, "
                                    "all_length_1, geometric:M, pareto:M, fixed:L (the kernels' flags for that seed)"},
                 {"--seed", "K", "seed of the random input; default 1"},
                 {"--max-value", "M", "random integers in [0, M] (default: totals fit in B bits, at most 100)"},
                 {"--signed", "", "random values in [-M, M] (reals in [-1, 1))"},
                 {"--heads", "H", "state-passing: heads H in 1..2^16; default 2"},
                 {"--rows", "N", "state-passing: state rows N per head in 1..2^16; default 4"},
                 {"--cols", "V", "state-passing: state columns V in 1..2^16; default 8 (n H N V <= 2^24)"},
                 {"--decay", "K", "state-passing: one log-decay per-row | per-head; default per-row"},
                 {"--values", "FILE", "x (b for decayed scans) from a file instead of random"},
                 {"--flags", "FILE", "segment-start flags (0/1) for --values"},
                 {"--decays", "FILE", "decays a for decayed scans"},
                 {"--values2", "FILE", "second operand (element-wise and matrix products)"},
                 {"--matrix", "FILE.mtx", "Matrix Market matrix for spmv"},
                 {"--vector", "FILE", "the dense vector of spmv (one value per matrix column)"},
                 {"--bigbird", "B,R[,W,G]", "spmv on a BigBird matrix of side --n: blocks of BxB, R random,\n"
                                           "W window (default 1) and G global (default 2) blocks"},
                 {"--format", "F", "report format: table | json | csv; default table"},
                 {"--dag", "FILE.dot", "write the dependency DAG as Graphviz DOT"},
                 {"--output", "FILE", "write the whole result: text (one value per line, round-trip\n"
                                      "precision), or binary when FILE ends in .u8 .i32 .i64 .f32 .f64"},
                 {"--trace", "", "print every instruction (unit, op, region, length, cost, output)"},
                 {"--backend", "B", "who executes: " + backend_help() + "; default simulate"},
                 {"--executor", "E", "cuda: in-order (one stream, events around each instruction) | graph\n"
                                     "(captured CUDA graphs, device time only) | dag (graphs on several\n"
                                     "streams along the dependencies); default in-order"},
                 {"--repeat", "R", "cuda: timed runs behind the reported medians; default 5"},
                 {"--profile", "FILE.json", "predict the device time (serial and DAG) from the ledger with this profile"},
                 {"--strict-pricing", "", "also the run re-priced strictly: gather/scatter/compress as sorting\n"
                                          "networks, REVSPEC and iterated additions as doubling rounds (docs/model.md)"},
                 {"--min-bits", "", "also search the smallest B by re-running (integer mode; checks min_word_bits)"}},
     .note = "Files ending in .u8 .i32 .i64 .f32 .f64 are raw little-endian binary; others are text."},
    {.name = "sweep",
     .synopsis = "sweep ALGO... --out FILE.csv [options]",
     .summary = "many runs, appended to a resumable CSV",
     .options = {{"--n", "LIST", "counts and ranges: 2^10..2^20 (doubling), 2^4..2^20:4 (factor 4), 1000,5000"},
                 {"--s", "LIST", "MMU tile sizes; default 16"},
                 {"--bits", "LIST", "word widths; default 32 (64 with --mode float64)"},
                 {"--density", "LIST", "segment densities; default 0.05"},
                 {"--mean-length", "LIST", "the same as --density 1/L for each L"},
                 {"--mode", "M", "integer | float32 | float64; default integer"},
                 {"--seed", "K", "seed of the random inputs; default 1"},
                 {"--out", "FILE.csv", "rows are appended; points with a verified row in the file are skipped,\n"
                                       "failed ones are run again (their old rows removed)"},
                 {"--keep-failed", "", "skip failed points too (they still make the exit code 1)"},
                 {"--jobs", "J", "parallel runs (default: every core)"},
                 {"--quiet", "", "no progress bar"},
                 {"--backend", "B", "as for run (cuda: one point at a time)"},
                 {"--executor", "E", "as for run"},
                 {"--repeat", "R", "as for run"},
                 {"--profile", "FILE.json", "as for run"}}},
    {.name = "calibrate",
     .synopsis = "calibrate --out FILE.json [options]",
     .summary = "time single instructions on the GPU, fit a device profile",
     .options = {{"--out", "FILE.json", "the device profile to write (required)"},
                 {"--backend", "B", "cuda (the default; simulate only with --refit)"},
                 {"--executor", "E", "in-order (the default) | graph: each instruction timed as a chain of\n"
                                     "repetitions inside one CUDA graph (device-only constants)"},
                 {"--max-m", "M", "largest instruction length, m = 2^8, 2^10, ..., 2^18, 2^19, 2^20, ...\n"
                                 "(default 2^24)"},
                 {"--s", "LIST", "tile sizes of the MMU and REVSPEC points (default 2,4,8,16,32,64,128); each\n"
                                 "point takes the whole rows of s that its size holds"},
                 {"--repeat", "R", "timed issues per point after a warm-up (default 7)"},
                 {"--seed", "K", "seed of the timed operands"},
                 {"--quiet", "", "no progress lines"},
                 {"--device", "NAME", "recorded in the profile"},
                 {"--sm-clock", "MHZ", "recorded in the profile"},
                 {"--memory-clock", "MHZ", "recorded in the profile"},
                 {"--l2-bytes", "N", "the knee of the byte terms (default: the device's L2 size; with\n"
                                     "--refit, the profile's)"},
                 {"--refit", "FILE.json", "fit again on that profile's stored timings (CPU only) and write --out"},
                 {"--back-to-back", "", "time each instruction right after itself (default: after two others)"}}},
    {.name = "predict",
     .synopsis = "predict ALGO --profile FILE [options]",
     .summary = "the device time a profile predicts from the ledger (CPU only)",
     .note = "predict takes the options of run; --profile is required."},
    {.name = "closed-forms",
     .synopsis = "closed-forms ALGO... --n LIST [--s L]",
     .summary = "closed-form counts of scans as CSV (n up to 2^40, nothing runs)",
     .options = {{"--n", "LIST", "sizes in 1..2^40 (required)"}, {"--s", "LIST", "tile sizes; default 16"}}},
    {.name = "kernels check",
     .synopsis = "kernels check [ALGO] [options]",
     .summary = "fused CUDA kernels against CPU references (CUDA builds)",
     .options = {{"--quick", "", "main cases of 3*2^20+1234 items (not 2^24+1234), no 2^31+5 case"},
                 {"--no-big", "", "leave out the 2^31 + 5 item cases"},
                 {"--seed", "S", "seed of the inputs (default: fresh, printed)"},
                 {"--kernels", "LIST", "all (default), ours, ablation, baselines, or kernel names"},
                 {"--dtypes", "LIST", "f32,i32 (default both)"},
                 {"--out", "FILE.json", "write every result as JSON (schema mmvram-gpu-check/1)"},
                 {"--verbose", "", "print the edge cases that passed too"},
                 {"--n", "N", "ALGO: items of the one input, 1..2^24 (default 2^20+3)"},
                 {"--s", "S", "ALGO: the backends' MMU tile size (default 16)"},
                 {"--density", "D", "ALGO: probability that a position starts a segment (default 0.05)"}},
     .note = "With ALGO (a registry algorithm whose fused kernels are in the kernel table; any other ALGO\n"
             "  is refused with their names): one input, drawn as `run` draws it, through the simulate\n"
             "  and cuda backends and every fused kernel of ALGO (V0-V3). i32: every path equal to the\n"
             "  harness reference; f32: the backends within their tolerance of the harness reference, the\n"
             "  kernels by check's fp32 rule (against their float64 reference) on the same float32 values.\n"
             "  spmv: --n nonzeros; the backends and spmv_csr (fp32, fp64 on the f32 input) within its bound.\n"
             "  --quick, --no-big, --kernels, --out and --verbose are the suite's; --n, --s, --density ALGO's."},
    {.name = "kernels bench",
     .synopsis = "kernels bench [options]",
     .summary = "median times of the kernels beside CUB and a copy, as JSON",
     .options = {{"--n", "N", "items (2^28 default; 2^K+C allowed), 1..2^33"},
                 {"--reps", "R", "timed calls per row (default 20)"},
                 {"--warmup", "W", "untimed calls first (default 3)"},
                 {"--sets", "K", "input sets rotated per call (default: 3x L2, at least 2)"},
                 {"--seed", "S", "seed of the inputs (default: fresh, printed)"},
                 {"--offset", "O", "x, flags and out O items (0..15) past aligned pointers"},
                 {"--kernels", "LIST", "as for kernels check"},
                 {"--dtypes", "LIST", "f32,i32 (default both)"},
                 {"--dists", "LIST", "one_segment, no_flags, first_flag_0, all_length_1, geometric:M,\n"
                                     "pareto:M, fixed:L (default: all but no_flags, first_flag_0)"},
                 {"--tile-cycles", "", "R more calls of each fused kernel with its clock64 probe"},
                 {"--out", "FILE.json", "write the rows as JSON (schema mmvram-gpu-bench/1)"}}},
    {.name = "kernels profile",
     .synopsis = "kernels profile --kernels NAME [options]",
     .summary = "a few untimed calls of one kernel, for ncu / compute-sanitizer",
     .options = {{"--kernels", "LIST", "the kernels to call (required)"},
                 {"--dtypes", "T", "f32 (default) or i32"},
                 {"--dists", "D", "segment distribution (default geometric:32)"},
                 {"--n", "N", "items (default 2^28)"},
                 {"--offset", "O", "as for kernels bench"},
                 {"--calls", "C", "calls after one warm-up (default 1)"},
                 {"--seed", "S", "seed of the input"}}},
    {.name = "kernels tune",
     .synopsis = "kernels tune [options]",
     .summary = "every tile policy candidate of the fused kernels timed, and the one to run here, as JSON",
     .options = {{"--n", "N", "items (2^28 default), 1..2^33"},
                 {"--reps", "R", "timed calls per row (default 20)"},
                 {"--warmup", "W", "untimed calls first (default 3)"},
                 {"--sets", "K", "input sets rotated per call (default: 3x L2, at least 2)"},
                 {"--seed", "S", "seed of the inputs (default: fresh, printed)"},
                 {"--dtypes", "LIST", "f32,i32 (default both)"},
                 {"--dists", "LIST", "as for kernels bench (default one_segment, geometric:32,\n"
                                     "geometric:1024, all_length_1)"},
                 {"--out", "FILE.json", "write the rows and choices as JSON (schema mmvram-gpu-tune/1)"}},
     .note = "V0 of matmul_scan, sscr_segmented_scan and scd_segmented_sum on each compiled-in tile policy\n"
             "  (mmvram/gpu/tuning.hpp), timed as kernels bench times; a kernel's choice is the candidate with\n"
             "  the least geometric mean time over its rows if that is at least 1% faster than candidate 0's,\n"
             "  else candidate 0. It prints the table row of gpu/kernels/src/tuning.cpp\n"
             "  for this device (docs/kernels.md \"Per-device tuning\")."},
    {.name = "kernels accuracy",
     .synopsis = "kernels accuracy [options]",
     .summary = "fp32 error of the segmented kernels against the magnitude spread",
     .options = {{"--n", "N", "items per case (default 2^22), 1..2^30"},
                 {"--seed", "S", "seed of the inputs"},
                 {"--kernels", "LIST", "default V0-V3 of SSCR and SCD"},
                 {"--out", "FILE.json", "write the results as JSON (schema mmvram-gpu-accuracy/1)"}},
     .note = "check and accuracy print FAIL for V3's fp32 (docs/gpu_v3_error.md) but do not count it."},
    {.name = "kernels stress",
     .synopsis = "kernels stress [options]",
     .summary = "the fused kernels from several threads and streams at once",
     .options = {{"--seconds", "S", "stop after S seconds (default 10)"},
                 {"--cases", "C", "or after C cases"},
                 {"--threads", "T", "host threads, each on its own stream (default 4), 1..64"},
                 {"--min-n", "N", "smallest case (default 1)"},
                 {"--max-n", "N", "largest case (default 6291456), at most 2^28"},
                 {"--seed", "S", "seed of the cases"},
                 {"--kernels", "LIST", "the fused kernels drawn from (default ours,ablation)"},
                 {"--no-state-passing", "", "no state-passing cases"},
                 {"--no-backend", "", "no thread comparing the simulate and cuda backends"},
                 {"--no-load", "", "no stream keeping the SMs busy"},
                 {"--out", "FILE.json", "write the report as JSON (schema mmvram-gpu-stress/1)"}}},
    {.name = "kernels state-passing",
     .synopsis = "kernels state-passing [options]",
     .summary = "inter-chunk state passing (chunked linear attention), timed",
     .options = {{"--sequences", "S", "sequences (default 32)"},
                 {"--mu", "M", "token counts ~ LogNormal(M, SD): M in [0, 12] (default 7)"},
                 {"--sigma", "SD", "SD in [0, 3] (default 1)"},
                 {"--chunk-tokens", "C", "tokens per chunk (default 64)"},
                 {"--heads", "H", "heads (default 32)"},
                 {"--rows", "N", "state rows (default 16)"},
                 {"--cols", "V", "state columns, a multiple of 32 (default 64)"},
                 {"--reps", "R", "timed runs (default 30)"},
                 {"--calls", "K", "launches per timed run (default 10)"},
                 {"--seed", "S", "seed of the batch"},
                 {"--out", "FILE.json", "write the rows as JSON (schema mmvram-gpu-state-passing/1)"}},
     .note = "One packed batch of sequences (by default the minimum viable experiment of docs/state_passing.md:\n"
             "  32 sequences of LogNormal(7, 1) tokens, 64-token chunks, 32 heads, 16 x 64 states) through every\n"
             "  state-propagation method in fp32 and bf16, each checked against a float64 host loop, then timed."},
    {.name = "kernels spmv",
     .synopsis = "kernels spmv [options]",
     .summary = "CSR SpMV: the fused spmv_csr against cuSPARSE (default, CSR_ALG2), checked, then timed",
     .options = {{"--matrices", "LIST", "generated: bigbird, power_law, banded, giant_row, empty_rows, none\n"
                                        "(default all but none)"},
                 {"--matrix", "FILES", "Matrix Market files, comma-separated, after the generated ones"},
                 {"--nnz", "N", "nonzeros of the generated matrices, about (default 2^25), 2^10..2^30"},
                 {"--quick", "", "--nnz 2^16, 5 reps, 1 warm-up (a smoke run)"},
                 {"--dtypes", "LIST", "f32,f64 (default both)"},
                 {"--reps", "R", "timed runs per implementation (default 50)"},
                 {"--warmup", "W", "untimed runs first (default 5)"},
                 {"--seed", "S", "seed of the matrices and x"},
                 {"--out", "FILE.json", "write the results as JSON (schema mmvram-gpu-spmv/2)"}},
     .note = "Each implementation's y is checked against a long-double CPU reference within the derived\n"
             "  bound (docs/kernels.md \"SpMV\") before it is timed; a failed check is not timed (exit 1)."},
    {.name = "kernels multi-gpu",
     .synopsis = "kernels multi-gpu [options]",
     .summary = "the sharded kernels on every GPU (NCCL) against the single-GPU kernel, weak scaling",
     .options = {{"--n", "N", "items per GPU (default 2^28)"},
                 {"--large-n", "N", "one more segmented scan with N items per GPU (an array too large for one)"},
                 {"--gpus", "P", "GPUs to use (default all, at least 2)"},
                 {"--reps", "R", "timed runs per case after 3 warm-ups (default 20)"},
                 {"--seed", "S", "seed of the inputs"},
                 {"--out", "FILE.json", "write the rows as JSON (schema mmvram-multi-gpu/1)"}},
     .note = "Built only with NCCL. Each case is checked against the CPU reference before it is timed."},
    {.name = "help", .synopsis = "help", .summary = "this text"},
};

// "  --name VALUE" padded to 24 columns, then the help with its later lines indented to match.
std::string option_line(const option_doc& o) {
  std::string head = "  " + o.name + (o.value.empty() ? "" : " " + o.value);
  head += std::string(head.size() < 24 ? 24 - head.size() : 1, ' ');
  std::string text = o.help, out = head;
  for (std::size_t at; (at = text.find('\n')) != std::string::npos; text = text.substr(at + 1))
    out += text.substr(0, at) + "\n" + std::string(24, ' ');
  return out + text + "\n";
}

}  // namespace

const std::vector<command_doc>& command_docs() { return docs; }

const command_doc& command_doc_of(const std::string& name) {
  const auto it = std::find_if(docs.begin(), docs.end(), [&](const command_doc& d) { return d.name == name; });
  if (it == docs.end()) throw std::logic_error("no option table for command '" + name + "'");
  return *it;
}

std::string options_text(const std::string& prefix) {
  std::ostringstream out;
  for (const auto& d : docs) {
    if (d.name.rfind(prefix, 0) != 0 || (d.options.empty() && d.note.empty())) continue;
    out << "\n" << d.name << " options:\n";
    for (const auto& o : d.options) out << option_line(o);
    if (!d.note.empty()) out << "  " << d.note << "\n";
  }
  return out.str();
}

std::string usage_text() {
  std::ostringstream out;
  out << "usage: mmvram COMMAND [options]\n\ncommands:\n";
  for (const auto& d : docs) {
    std::string head = "  " + d.synopsis;
    head += std::string(head.size() < 39 ? 40 - head.size() : 2, ' ');
    out << head << d.summary << "\n";
  }
  out << options_text("");
  out << "\nEach option may be given once; an empty value is an error.\n\n"
         "Counts may be written 1024, 2^10 or 2^10+3. The kernels commands need a CUDA build and device;\n"
         "their LIST is comma-separated.\n\n"
         "exit codes: 0 ok, 1 verification failed (kernels: a kernel failed), 2 bad usage, bad input, word-width or float overflow,\n"
         "an input too large for this machine's memory, or a failed write\n";
  return out.str();
}

}  // namespace mmv::tool
