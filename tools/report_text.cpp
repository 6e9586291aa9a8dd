// Rendering a run_report as text: the per-instruction trace and the summary table (report.hpp).
#include "report.hpp"

#include <algorithm>
#include <iomanip>
#include <ostream>

#include "report_format.hpp"

namespace mmv::tool {
namespace {

// The first values of an output, "..." when there are more.
std::string preview(const std::vector<std::string>& values, std::int64_t length) {
  std::string s = "[";
  for (std::size_t i = 0; i < values.size(); ++i) s += (i ? " " : "") + values[i];
  if (length > static_cast<std::int64_t>(values.size())) s += " ...";
  return s + "]";
}

}  // namespace

void print_trace(std::ostream& out, const run_report& r) {
  std::size_t op_w = 2, region_w = 6;
  for (const auto& t : r.trace) op_w = std::max(op_w, t.op.size()), region_w = std::max(region_w, t.region.size());
  const auto w = [](std::size_t n) { return std::setw(static_cast<int>(n) + 2); };
  out << std::left << std::setw(4) << "#" << std::setw(7) << "unit" << w(op_w) << "op" << w(region_w) << "region"
      << std::right << std::setw(7) << "m" << std::setw(6) << "steps" << std::setw(8) << "work" << std::setw(6) << "depth"
      << "  output\n";
  for (std::size_t i = 0; i < r.trace.size(); ++i) {
    const auto& t = r.trace[i];
    out << std::left << std::setw(4) << i + 1 << std::setw(7) << to_string(t.where) << w(op_w) << t.op << w(region_w)
        << (t.region.empty() ? "-" : t.region) << std::right << std::setw(7) << t.length << std::setw(6) << t.price.steps
        << std::setw(8) << t.price.work << std::setw(6) << t.depth << "  " << t.preview << "\n";
  }
}

void print_table(std::ostream& out, const run_report& r) {
  out << "algorithm  " << r.algorithm << " (" << r.units << ")\n"
      << "machine    s = " << r.s << ", B = " << r.bits << " bits, " << r.mode << "\n"
      << "input      " << r.input_source << ": n = " << r.n
      << (r.segments > 0 ? ", " + std::to_string(r.segments) + " segment(s), density " + num(r.density) : "")
      << (r.input_source == "files" ? "" : ", seed " + std::to_string(r.seed)) << "\n"
      << "output     " << preview(r.outcome.output_preview, r.outcome.output_length) << " (" << r.outcome.output_length
      << " values)\n"
      << "verified   " << boolean(r.outcome.verified)
      << (r.outcome.tolerance > 0 ? " (max |error| " + num(r.outcome.max_abs_error, "%.3g") + ", tolerance " +
                                        num(r.outcome.tolerance, "%.3g") + ")"
                                  : " (exact)")
      << (r.outcome.mismatch.empty() ? "" : ": " + r.outcome.mismatch) << "\n"
      << (r.min_word_bits ? "min B      " + std::to_string(*r.min_word_bits) +
                                (r.min_word_bits_exact ? " bits (exact: the smallest word width this input runs at)"
                                                       : " bits (an upper bound: this input runs at this width)") +
                                (r.min_word_bits_searched ? ", " + std::to_string(*r.min_word_bits_searched) +
                                                                " found by re-running"
                                                          : std::string()) +
                                "\n"
                          : std::string())
      << "\n";

  const auto& t = r.totals;
  const auto& p = r.predicted;
  const auto row = [&](const std::string& name, std::int64_t measured, std::optional<std::int64_t> want) {
    out << "  " << std::left << std::setw(26) << name << std::right << std::setw(14) << measured << std::setw(14)
        << (want ? std::to_string(*want) : std::string("-")) << (want && *want != measured ? "  <- differs" : "") << "\n";
  };
  const auto pred = [&](std::int64_t cost_prediction::*f) { return p ? std::optional((*p).*f) : std::nullopt; };
  out << "  " << std::left << std::setw(26) << "cost" << std::right << std::setw(14) << "measured" << std::setw(14)
      << "predicted\n";
  row("steps", t.total().steps, p ? std::optional(p->steps()) : std::nullopt);
  row("  MMU steps", t.mmu.steps, pred(&cost_prediction::mmu_steps));
  row("  VCU steps", t.vcu.steps, pred(&cost_prediction::vcu_steps));
  row("depth (steps)", r.depth, pred(&cost_prediction::depth));
  row("MMU tile products", t.mmu.tile_products, pred(&cost_prediction::tile_products));
  row("MMU multiply-adds", t.mmu.multiply_adds, pred(&cost_prediction::multiply_adds));
  row("VCU work (element ops)", t.vcu.work, pred(&cost_prediction::vcu_work));
  row("words read", t.total().words_read, std::nullopt);
  row("words written", t.total().words_written, std::nullopt);
  row("scalar ops (free)", t.scalar_ops, std::nullopt);
  out << "  formula: " << (p ? p->formula : std::string("(none)")) << "\n"
      << "  wall time: " << num(r.wall_time_s, "%.4f") << " s (" << r.backend << " backend)\n";
  if (r.predicted_time)
    out << "  predicted device time (" << r.profile_device << "): " << num(r.predicted_time->serial_ns / 1e3, "%.1f")
        << " us serial, " << num(r.predicted_time->dag_ns / 1e3, "%.1f") << " us along the DAG, "
        << num(r.predicted_time->queued_ns / 1e3, "%.1f") << " us queued behind the host\n";
  if (r.measured && r.executor != "in-order")
    out << "  device time (median of " << r.repetitions << ", " << r.executor << " executor): "
        << num(r.measured_span_ns / 1e3, "%.1f") << " us in the run's graphs\n"
        << "  host issue time: " << num(r.measured_host_ns / 1e3, "%.1f") << " us\n";
  else if (r.measured)
    out << "  device time (median of " << r.repetitions << "): " << num(r.measured_ns / 1e3, "%.1f")
        << " us in the instructions, " << num(r.measured_span_ns / 1e3, "%.1f") << " us launched back to back, "
        << num(r.measured_end_to_end_ns / 1e3, "%.1f") << " us end to end without per-instruction events\n"
        << "  host issue time: " << num(r.measured_host_ns / 1e3, "%.1f") << " us with events, "
        << num(r.measured_host_end_to_end_ns / 1e3, "%.1f") << " us without\n";
  out << "\n";
  if (r.strict) {
    out << "  strict pricing (docs/model.md): steps " << r.strict->steps() << " (MMU " << r.strict->mmu_steps << " + VCU "
        << r.strict->vcu_steps << "), VCU work " << r.strict->vcu_work << "; extra steps:";
    for (const auto& [op, extra] : r.strict->extra_steps) out << " " << op << " +" << extra;
    out << (r.strict->extra_steps.empty() ? " none\n\n" : "\n\n");
  }

  std::size_t region_w = 12;
  for (const auto& entry : r.regions) region_w = std::max(region_w, entry.first.size());
  const int rw = static_cast<int>(region_w) + 2;
  out << "  " << std::left << std::setw(rw) << "region" << std::right << std::setw(8) << "MMU" << std::setw(8) << "VCU"
      << std::setw(13) << "tiles" << std::setw(14) << "mult-adds" << std::setw(14) << "VCU work" << std::setw(14)
      << "words r+w" << "\n";
  for (const auto& [name, u] : r.regions)
    out << "  " << std::left << std::setw(rw) << (name.empty() ? "(top level)" : name) << std::right << std::setw(8)
        << u.mmu.steps << std::setw(8) << u.vcu.steps << std::setw(13) << u.mmu.tile_products << std::setw(14)
        << u.mmu.multiply_adds << std::setw(14) << u.vcu.work << std::setw(14)
        << u.total().words_read + u.total().words_written << "\n";
}

}  // namespace mmv::tool
