// Rendering a run_report. The flat fields below ARE the schema: the CSV header, the CSV row
// and the top level of the JSON object all come from fields(), so they cannot drift apart.
#include "report.hpp"
#include "report_format.hpp"

#include <ostream>

#include <nlohmann/json.hpp>

namespace mmv::tool {

namespace {

using ordered_json = nlohmann::ordered_json;

enum class kind { text, number, boolean };
struct field {
  std::string name;
  kind type;
  std::optional<std::string> value;  // nothing: null in JSON, empty in CSV
};

std::vector<field> fields(const run_report& r) {
  const bool ran = r.counted;
  const auto& t = r.totals;
  const auto counted = [&](std::int64_t v) { return ran ? std::optional(num(v)) : std::nullopt; };
  const auto& p = r.predicted;
  const auto predicted = [&](std::int64_t v) { return p ? std::optional(num(v)) : std::nullopt; };
  return {
      {"algorithm", kind::text, r.algorithm},
      {"units", kind::text, r.units},
      {"mode", kind::text, r.mode},
      {"word_bits", kind::number, num(std::int64_t{r.bits})},
      {"s", kind::number, num(std::int64_t{r.s})},
      {"n", kind::number, num(r.n)},
      {"density", kind::number, num(r.density)},
      {"seed", kind::number, std::to_string(r.seed)},
      {"input", kind::text, r.input_source},
      {"segments", kind::number, num(r.segments)},
      {"verified", kind::boolean, boolean(r.error.empty() && r.outcome.verified)},
      {"error", kind::text, r.error},
      {"max_abs_error", kind::number,
       ran && r.error.empty() ? std::optional(num(r.outcome.max_abs_error, "%.6g")) : std::nullopt},
      {"tolerance", kind::number, ran ? std::optional(num(r.outcome.tolerance, "%.6g")) : std::nullopt},
      {"steps", kind::number, counted(t.total().steps)},
      {"mmu_steps", kind::number, counted(t.mmu.steps)},
      {"vcu_steps", kind::number, counted(t.vcu.steps)},
      {"depth_steps", kind::number, counted(r.depth)},
      {"mmu_tile_products", kind::number, counted(t.mmu.tile_products)},
      {"mmu_multiply_adds", kind::number, counted(t.mmu.multiply_adds)},
      {"vcu_work_element_ops", kind::number, counted(t.vcu.work)},
      {"work_total_ops", kind::number, counted(t.total().work)},
      {"words_read", kind::number, counted(t.total().words_read)},
      {"words_written", kind::number, counted(t.total().words_written)},
      {"scalar_ops", kind::number, counted(t.scalar_ops)},
      {"predicted_steps", kind::number, predicted(p ? p->steps() : 0)},
      {"predicted_mmu_steps", kind::number, predicted(p ? p->mmu_steps : 0)},
      {"predicted_vcu_steps", kind::number, predicted(p ? p->vcu_steps : 0)},
      {"predicted_depth_steps", kind::number, predicted(p ? p->depth : 0)},
      {"predicted_mmu_tile_products", kind::number, predicted(p ? p->tile_products : 0)},
      {"predicted_mmu_multiply_adds", kind::number, predicted(p ? p->multiply_adds : 0)},
      {"predicted_vcu_work_element_ops", kind::number, predicted(p ? p->vcu_work : 0)},
      {"prediction_matches", kind::boolean, p && ran ? std::optional(boolean(r.prediction_matches())) : std::nullopt},
      {"predicted_formula", kind::text, p ? std::optional(p->formula) : std::nullopt},
      {"output_length", kind::number, counted(r.outcome.output_length)},
      {"wall_time_s", kind::number, ran ? std::optional(num(r.wall_time_s, "%.6g")) : std::nullopt},
      {"backend", kind::text, r.backend},
      {"executor", kind::text, r.executor},
      {"measured_ns", kind::number,
       ran && r.measured && r.executor == "in-order" ? std::optional(num(r.measured_ns, "%.1f")) : std::nullopt},
      {"measured_span_ns", kind::number, ran && r.measured ? std::optional(num(r.measured_span_ns, "%.1f")) : std::nullopt},
      {"measured_end_to_end_ns", kind::number, ran && r.measured ? std::optional(num(r.measured_end_to_end_ns, "%.1f")) : std::nullopt},
      {"measured_host_ns", kind::number, ran && r.measured ? std::optional(num(r.measured_host_ns, "%.1f")) : std::nullopt},
      {"measured_host_end_to_end_ns", kind::number, ran && r.measured ? std::optional(num(r.measured_host_end_to_end_ns, "%.1f")) : std::nullopt},
      {"repetitions", kind::number, ran && r.measured ? std::optional(num(std::int64_t{r.repetitions})) : std::nullopt},
      {"predicted_serial_ns", kind::number, ran && r.predicted_time ? std::optional(num(r.predicted_time->serial_ns, "%.1f")) : std::nullopt},
      {"predicted_dag_ns", kind::number, ran && r.predicted_time ? std::optional(num(r.predicted_time->dag_ns, "%.1f")) : std::nullopt},
      {"predicted_queued_ns", kind::number, ran && r.predicted_time ? std::optional(num(r.predicted_time->queued_ns, "%.1f")) : std::nullopt},
      {"profile_device", kind::text, r.profile_device},
  };
}

// A number cell's text read as a JSON number, so that JSON and CSV show the same digits; null
// for text that is no JSON number (inf, nan: JSON has no such number).
ordered_json json_number(const std::string& text) {
  ordered_json v = ordered_json::parse(text, nullptr, false);
  return v.is_number() ? v : ordered_json(nullptr);
}

// A field's JSON value: null where the field does not apply.
ordered_json json_value(const field& f) {
  if (!f.value) return nullptr;
  if (f.type == kind::text) return *f.value;
  if (f.type == kind::boolean) return *f.value == "true";
  return json_number(*f.value);
}

std::string csv_cell(const field& f) {
  if (!f.value) return "";
  const std::string& v = *f.value;
  if (v.find_first_of(",\"\n") == std::string::npos) return v;
  std::string q = "\"";
  for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + '"';
}

// A record as JSON, starting with its "op": its instruction as `mmvram instructions` names it;
// a load (the scalar unit, whose record carries the loaded input's name in `op`) is "load" with
// a "name" field. Then its unit and region.
ordered_json json_record(const instruction_record& t) {
  ordered_json o = {{"op", t.where == unit::scalar ? std::string("load") : t.op}};
  if (t.where == unit::scalar) o["name"] = t.op;
  o["unit"] = to_string(t.where);
  o["region"] = t.region;
  return o;
}

// One region's counts (and device time, where measured) as JSON.
ordered_json json_region(const std::string& name, const unit_costs& u) {
  ordered_json o = {{"region", name},
                    {"mmu_steps", u.mmu.steps},
                    {"vcu_steps", u.vcu.steps},
                    {"mmu_tile_products", u.mmu.tile_products},
                    {"mmu_multiply_adds", u.mmu.multiply_adds},
                    {"vcu_work_element_ops", u.vcu.work},
                    {"words_read", u.total().words_read},
                    {"words_written", u.total().words_written}};
  if (u.measured_ns > 0) o["measured_ns"] = json_number(num(u.measured_ns, "%.1f"));
  return o;
}

// A measured time of an instruction, null where it was not measured (< 0).
ordered_json json_ns(double ns) { return ns >= 0 ? json_number(num(ns, "%.1f")) : ordered_json(nullptr); }

}  // namespace

bool run_report::prediction_matches() const {
  if (!predicted) return false;
  const auto& p = *predicted;
  return p.mmu_steps == totals.mmu.steps && p.vcu_steps == totals.vcu.steps && p.depth == depth &&
         p.tile_products == totals.mmu.tile_products && p.multiply_adds == totals.mmu.multiply_adds &&
         p.vcu_work == totals.vcu.work;
}

const std::vector<std::string>& csv_columns() {
  static const std::vector<std::string> columns = [] {
    std::vector<std::string> c;
    for (const auto& f : fields(run_report{})) c.push_back(f.name);
    return c;
  }();
  return columns;
}

std::string csv_header() {
  std::string h;
  for (const auto& c : csv_columns()) h += (h.empty() ? "" : ",") + c;
  return h;
}

std::string csv_row(const run_report& r) {
  std::string row;
  bool first = true;
  for (const auto& f : fields(r)) {
    if (!first) row += ',';
    row += csv_cell(f), first = false;
  }
  return row;
}

void print_json(std::ostream& out, const run_report& r) {
  ordered_json doc = {{"schema", "mmvram-run/4"}};
  for (const auto& f : fields(r)) doc[f.name] = json_value(f);
  doc["output_preview"] = r.outcome.output_preview;
  doc["mismatch"] = r.outcome.mismatch;
  const auto optional_int = [](const std::optional<int>& v) { return v ? ordered_json(*v) : ordered_json(nullptr); };
  doc["min_word_bits"] = optional_int(r.min_word_bits);
  doc["min_word_bits_exact"] = r.min_word_bits ? ordered_json(r.min_word_bits_exact) : ordered_json(nullptr);
  doc["min_word_bits_searched"] = optional_int(r.min_word_bits_searched);
  doc["regions"] = ordered_json::array();
  for (const auto& [name, u] : r.regions) doc["regions"].push_back(json_region(name, u));
  for (const auto& t : r.trace) {
    ordered_json o = json_record(t);
    o["length"] = t.length, o["steps"] = t.price.steps, o["work"] = t.price.work, o["depth_steps"] = t.depth;
    o["output"] = t.preview;
    doc["trace"].push_back(std::move(o));
  }
  for (std::size_t i = 0; i < r.instructions.size(); ++i) {
    const auto& t = r.instructions[i];
    ordered_json o = json_record(t);
    o["length"] = t.length, o["work"] = t.price.work, o["words_read"] = t.price.words_read;
    o["words_written"] = t.price.words_written, o["mmu_multiply_adds"] = t.price.multiply_adds;
    o["depth_steps"] = t.depth, o["measured_ns"] = json_ns(t.measured_ns), o["host_ns"] = json_ns(t.host_ns);
    const bool priced = i < r.instruction_predicted_ns.size();
    o["class"] = priced ? ordered_json(r.instruction_classes[i]) : ordered_json(nullptr);
    o["predicted_ns"] = priced ? json_ns(r.instruction_predicted_ns[i]) : ordered_json(nullptr);
    doc["instructions"].push_back(std::move(o));
  }
  if (r.strict)
    doc["strict_pricing"] = {{"steps", r.strict->steps()},
                             {"mmu_steps", r.strict->mmu_steps},
                             {"vcu_steps", r.strict->vcu_steps},
                             {"vcu_work_element_ops", r.strict->vcu_work}};
  // Bytes that are not UTF-8 (from an input's text) are written as U+FFFD: the report stays JSON.
  out << doc.dump(2, ' ', false, ordered_json::error_handler_t::replace) << "\n";
}

}  // namespace mmv::tool
