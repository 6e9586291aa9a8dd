// `mmvram kernels ...` without a GPU: its command lines are parsed with the tool's helpers
// before any device is looked for, so bad ones exit 2 with one line (CUDA builds); a good one
// on a machine without a usable device exits 2 saying so; a build without CUDA refuses every
// kernels command with one line.
#include "catch.hpp"
#include "tool_checks.hpp"
#include "tool_process.hpp"

#include <cstdlib>

using mmv::test::require_clean_error;
using mmv::test::run_tool;

namespace {

// Hides every CUDA device from the tools this process starts.
void hide_devices() { REQUIRE(setenv("CUDA_VISIBLE_DEVICES", "-1", 1) == 0); }

const std::vector<std::string> subcommands{"check", "bench", "profile", "accuracy", "stress", "state-passing"};

}  // namespace

#if defined(MMVRAM_TOOL_HAS_CUDA)

TEST_CASE("bad kernels command lines exit 2 with one line") {
  require_clean_error({"kernels"}, "kernels needs a command");
  require_clean_error({"kernels", "frob"}, "unknown kernels command 'frob'");
  require_clean_error({"kernels", "bench", "--n", "bogus"}, "--n: expected a count");
  require_clean_error({"kernels", "bench", "--n", "2^34"}, "--n must be in 1..8589934592");
  require_clean_error({"kernels", "bench", "--offset", "16"}, "--offset must be in 0..15");
  require_clean_error({"kernels", "bench", "--dists", "geometric:0"}, "unknown distribution 'geometric:0'");
  require_clean_error({"kernels", "bench", "--dtypes", "f64"}, "unknown type 'f64'");
  require_clean_error({"kernels", "bench", "--seed", "1", "--seed", "2"}, "option --seed is given twice");
  require_clean_error({"kernels", "check", "--kernels", "nope"}, "unknown kernel 'nope'");
  require_clean_error({"kernels", "check", "--reps", "3"}, "unknown option --reps");
  require_clean_error({"kernels", "profile"}, "kernels profile needs --kernels NAME");
  require_clean_error({"kernels", "profile", "--kernels", "copy", "--reps", "2"}, "unknown option --reps");
  require_clean_error({"kernels", "accuracy", "--n", "2^30+1"}, "--n must be in 1..1073741824");
  require_clean_error({"kernels", "stress", "--min-n", "9", "--max-n", "3"}, "--min-n must not exceed --max-n");
  require_clean_error({"kernels", "stress", "--seconds", "-1"}, "--seconds must be in [0, 86400]");
  require_clean_error({"kernels", "stress", "--threads", "65"}, "--threads must be in 1..64");
  require_clean_error({"kernels", "state-passing", "--cols", "48"}, "--cols must be a multiple of 32");
  require_clean_error({"kernels", "state-passing", "--mu", "13"}, "--mu must be in [0, 12]");
  require_clean_error({"kernels", "state-passing", "--mu", "12", "--sigma", "3"}, "the batch would be too large");
  require_clean_error({"kernels", "stress", "extra"}, "kernels stress takes no argument");
  // The meaning of the options is checked at parse time too: usage errors, exit 2.
  require_clean_error({"kernels", "stress", "--kernels", "copy", "--no-state-passing"}, "--kernels: no fused kernel selected");
  require_clean_error({"kernels", "stress", "--kernels", "sscr_segmented_scan,copy"},
                      "kernels stress calls the fused kernels only (ours, ablation or their names), not copy");
  require_clean_error({"kernels", "stress", "--kernels", "baselines"}, "kernels stress calls the fused kernels only");
}

TEST_CASE("an output file that cannot be written exits 2 before anything runs") {
  hide_devices();  // the path is checked before the device is looked for
  const std::string missing = "/nonexistent-mmvram-dir/out.json";
  require_clean_error({"kernels", "check", "--quick", "--out", missing}, "cannot write --out '" + missing + "': No such file or directory");
  require_clean_error({"kernels", "stress", "--out", missing}, "cannot write --out '" + missing + "'");
  require_clean_error({"kernels", "bench", "--out", missing}, "cannot write --out '" + missing + "'");
  require_clean_error({"kernels", "accuracy", "--out", missing}, "cannot write --out '" + missing + "'");
  require_clean_error({"kernels", "state-passing", "--out", missing}, "cannot write --out '" + missing + "'");
  require_clean_error({"kernels", "bench", "--out", "/tmp"}, "cannot write --out '/tmp': it is a directory");
}

TEST_CASE("kernels check ALGO takes a registered algorithm with fused kernels and its own options") {
  require_clean_error({"kernels", "check", "nosuch"}, "unknown algorithm 'nosuch'");
  require_clean_error({"kernels", "check", "hillis-steele-scan"}, "hillis-steele-scan has no fused kernels");
  // The names it takes come from the registry (entries whose fused kernels are in the kernel table).
  require_clean_error({"kernels", "check", "hillis-steele-scan"}, "(kernels check ALGO takes matmul-scan, scd, sscr, spmv)");
  // state-passing has fused kernels, the state-passing methods, checked elsewhere.
  require_clean_error({"kernels", "check", "state-passing"}, "checked by `mmvram kernels state-passing` and the [state_passing] tests");
  require_clean_error({"kernels", "check", "sscr", "scd"}, "kernels check takes one algorithm");
  require_clean_error({"kernels", "check", "sscr", "--quick"}, "--quick applies to the kernel suite");
  require_clean_error({"kernels", "check", "scd", "--kernels", "ours"}, "--kernels applies to the kernel suite");
  require_clean_error({"kernels", "check", "--n", "5"}, "--n applies to kernels check ALGO only");
  require_clean_error({"kernels", "check", "sscr", "--n", "2^24+1"}, "--n must be in 1..16777216");
  require_clean_error({"kernels", "check", "sscr", "--density", "1.5"}, "--density must be in [0, 1]");
  require_clean_error({"kernels", "check", "matmul-scan", "--s", "1"}, "--s must be in 2..4096");
}

TEST_CASE("every kernels command takes exactly the options its help lists") {
  const auto help = run_tool({"kernels", "--help"});
  REQUIRE(help.code == 0);
  for (const auto& sub : subcommands) {
    CAPTURE(sub);
    CHECK(help.out.find("\nkernels " + sub + " options:\n") != std::string::npos);
    CHECK(run_tool({"kernels", sub, "--help"}).out == help.out);
    // walk() compares the parser's options with the help's table before reading any argument.
    require_clean_error({"kernels", sub, "--no-such-option"}, "unknown option --no-such-option");
  }
  CHECK(run_tool({"help"}).out.find("\n  kernels stress [options]") != std::string::npos);
}

TEST_CASE("good kernels command lines without a CUDA device exit 2 saying so") {
  hide_devices();
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"kernels", "check", "--quick", "--kernels", "ours", "--dtypes", "f32"},
           {"kernels", "check", "sscr", "--n", "2^12+1", "--density", "1/8", "--s", "4", "--dtypes", "i32"},
           {"kernels", "bench", "--n", "2^20+3", "--dists", "fixed:32,pareto:1024", "--tile-cycles"},
           {"kernels", "profile", "--kernels", "sscr_segmented_scan", "--calls", "2"},
           {"kernels", "accuracy", "--n", "2^10"},
           {"kernels", "stress", "--seconds", "0.5", "--no-backend"},
           {"kernels", "state-passing", "--sequences", "4"}}) {
    require_clean_error(args, "no CUDA device");
    CHECK(run_tool(args, "", 60).err.find("kernels " + args[1] + " needs a GPU") != std::string::npos);
  }
}

#else

TEST_CASE("a build without CUDA refuses the kernels commands with one line") {
  require_clean_error({"kernels"}, "built without CUDA");
  for (const auto& sub : subcommands) require_clean_error({"kernels", sub}, "built without CUDA");
  require_clean_error({"kernels", "bench", "--n", "bogus"}, "built without CUDA");
}

#endif

TEST_CASE("counts may be written 2^K+C and 2^K-C") {
  const auto r = run_tool({"run", "matmul-scan", "--n", "2^4+1", "--format", "json"});
  REQUIRE(r.code == 0);
  CHECK(mmv::test::json_field(r.out, "n") == "17");
  CHECK(mmv::test::json_field(run_tool({"run", "matmul-scan", "--n", "2^4-1", "--format", "json"}).out, "n") == "15");
  require_clean_error({"run", "matmul-scan", "--n", "2^2-5"}, "--n: 2^2-5 is negative");
  require_clean_error({"run", "matmul-scan", "--n", "2^4+x"}, "expected a count");
}
