// The time model (mmvram/prediction/time_model.hpp): instruction classes and the prediction from records.
#include "mmvram/prediction/time_model.hpp"

#include <algorithm>
#include <cmath>
#include <list>
#include <optional>
#include <utility>

namespace mmv {

std::string instruction_class(const instruction_record& r) {
  if (r.where == unit::scalar) return "load";
  if (r.where == unit::mmu)
    return std::string(r.real_output ? "mmu-real" : "mmu-word") + "/s" + std::to_string(r.sizes.s) +
           (r.length <= r.sizes.s ? one_row_suffix : "");
  if (r.op == "gather") return "gather";
  if (r.op == "scatter") return "scatter";
  if (r.op == "compress") return "compress";
  if (r.op == "revspec") return "revspec";
  if (r.op == "block-prefix" || r.op == "block-seg-prefix") return "block-prefix";
  return "stream";
}

double class_work(const instruction_record& r) {
  if (r.where == unit::mmu) return static_cast<double>(r.price.multiply_adds);
  if (r.op == "revspec" || r.op == "block-prefix" || r.op == "block-seg-prefix") return static_cast<double>(r.price.work);
  return 0;
}

double record_bytes(const instruction_record& r, int bytes_per_word) {
  return static_cast<double>(bytes_per_word) * static_cast<double>(r.price.words_read + r.price.words_written);
}

namespace {
// The MMU class `format`/sS`suffix` calibrated at the smallest s' >= s (the product padded to
// that shape), else at the largest s' calibrated; nothing when the profile has no such class.
const class_time_model* mmu_class(const device_profile& p, const std::string& format, std::int64_t s,
                                  const std::string& suffix, std::int64_t* chosen_s = nullptr) {
  const class_time_model* best = nullptr;
  std::int64_t best_s = 0;
  for (const auto& [name, m] : p.classes) {
    if (!name.starts_with(format + "/s") || !name.ends_with(suffix) || name.size() < format.size() + 2 + suffix.size())
      continue;
    const std::string digits = name.substr(format.size() + 2, name.size() - format.size() - 2 - suffix.size());
    if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::int64_t cs = std::stoll(digits);
    const bool better = best == nullptr || (cs >= s && (best_s < s || cs < best_s)) || (cs < s && best_s < s && cs > best_s);
    if (better) best = &m, best_s = cs;
  }
  if (chosen_s) *chosen_s = best_s;
  return best;
}
}  // namespace

namespace {
// mmu_shape_factor where the sweep holds s and s' and the class exists; nothing otherwise.
std::optional<double> swept_shape_factor(const device_profile& p, const std::string& format, std::int64_t s,
                                         std::int64_t s_calibrated) {
  const auto cls = p.classes.find(format + "/s" + std::to_string(s_calibrated));
  const mmu_shape_point *at = nullptr, *ref = nullptr;
  for (const auto& q : p.mmu_shapes) {
    if (q.format != format) continue;
    if (q.s == s) at = &q;
    if (q.s == s_calibrated) ref = &q;
  }
  if (cls == p.classes.end() || !at || !ref || at->m <= 0 || ref->m <= 0) return std::nullopt;
  if (!(at->measured_ns > 0) || !(ref->measured_ns > 0) || !std::isfinite(at->measured_ns) || !std::isfinite(ref->measured_ns))
    return std::nullopt;
  const double latency = cls->second.latency_ns;
  const double per_word_at = at->measured_ns / static_cast<double>(at->m);
  const double per_word_ref = ref->measured_ns / static_cast<double>(ref->m);
  const double here = (at->measured_ns - latency) / static_cast<double>(at->m);
  const double there = (ref->measured_ns - latency) / static_cast<double>(ref->m);
  // A sweep point that is mostly latency says little about the terms: then the plain per-word
  // ratio. So each term kept is at least a tenth of its point, and f at most 10x the plain ratio.
  if (here <= 0.1 * per_word_at || there <= 0.1 * per_word_ref) return per_word_at / per_word_ref;
  return here / there;
}
}  // namespace

double mmu_shape_factor(const device_profile& p, const std::string& format, std::int64_t s, std::int64_t s_calibrated) {
  return swept_shape_factor(p, format, s, s_calibrated).value_or(1.0);
}

namespace {
// A record's class model, with how its terms are scaled: a multi-row MMU product priced by the
// class of another tile size s', where the sweep holds s and s', takes the shape factor f on both
// terms, its work counted at s' (f compares whole per-word times, which already hold the work's
// growth with s); without them, the class's terms at the record's own bytes and work.
struct priced_class {
  const class_time_model* model = nullptr;  // nothing for loads
  double shape = 1;                          // f of the shape sweep, else 1
  double work_scale = 1;                     // s' / s where shaped, else 1
};

// The model of a record's class, its name preceded by `prefix`. An MMU record falls back to
// mmu_class: a one-row product without a one-row class of its format to its format's multi-row
// class, unshaped (the sweep times multi-row products only); a multi-row product to the class of
// another s', shaped. Throws model_error when none is found.
priced_class class_model(const device_profile& p, const instruction_record& r, const std::string& prefix = "") {
  const std::string c = instruction_class(r);
  if (c == "load") return {};
  const auto it = p.classes.find(prefix + c);
  if (it != p.classes.end()) return {&it->second};
  if (r.where == unit::mmu) {
    const std::string format = r.real_output ? "mmu-real" : "mmu-word";
    const bool one_row = c.ends_with(one_row_suffix);
    if (one_row)
      if (const class_time_model* m = mmu_class(p, prefix + format, r.sizes.s, one_row_suffix)) return {m};
    std::int64_t calibrated_s = 0;
    if (const class_time_model* m = mmu_class(p, prefix + format, r.sizes.s, "", &calibrated_s)) {
      const auto f = one_row || r.sizes.s <= 0 ? std::nullopt : swept_shape_factor(p, format, r.sizes.s, calibrated_s);
      if (!f) return {m};
      return {m, *f, static_cast<double>(calibrated_s) / static_cast<double>(r.sizes.s)};
    }
  }
  throw model_error("device profile has no model for instruction class '" + prefix + c + "' (op " + r.op + ")");
}

// A record's time by its priced class, without (`with_latency` false) or with the class latency,
// `far` of its bytes read from past the L2.
double priced_ns(const device_profile& p, const priced_class& c, const instruction_record& r, bool with_latency = true,
                 double far = 0) {
  if (!c.model) return 0;
  const class_time_model& m = *c.model;
  const double terms = m.bytes_ns(record_bytes(r, p.bytes_per_word), static_cast<double>(p.l2_bytes), far) +
                       m.ns_per_op * class_work(r) * c.work_scale;
  return (with_latency ? m.latency_ns : 0) + c.shape * terms;
}

bool has_concurrent_classes(const device_profile& p) {
  const auto it = p.classes.lower_bound(concurrent_class_prefix);
  return it != p.classes.end() && it->first.starts_with(concurrent_class_prefix);
}

// A record's time when it overlaps others on the dag executor (its concurrent class), with the
// check of a real VCU result priced as a concurrent stream read of it.
double concurrent_ns(const device_profile& p, const instruction_record& r, double far) {
  const priced_class c = class_model(p, r, concurrent_class_prefix);
  if (!c.model) return 0;
  double t = priced_ns(p, c, r, true, far);
  if (r.real_output && r.where != unit::mmu) {
    const auto it = p.classes.find(concurrent_class_prefix + "stream");
    if (it == p.classes.end()) throw model_error("device profile has concurrent classes but no 'concurrent:stream'");
    t += it->second.predict_ns(static_cast<double>(p.bytes_per_word) * static_cast<double>(r.length), 0,
                               static_cast<double>(p.l2_bytes));
  }
  return t;
}
}  // namespace

double predict_record_ns(const device_profile& p, const instruction_record& r) { return priced_ns(p, class_model(p, r), r); }

std::vector<double> far_read_bytes(const device_profile& p, const std::vector<instruction_record>& records) {
  std::vector<double> far(records.size(), 0.0);
  const double l2 = static_cast<double>(p.l2_bytes);
  if (l2 <= 0) return far;
  const auto bytes_of = [&](std::size_t j) {
    return static_cast<double>(p.bytes_per_word) * static_cast<double>(records[j].price.words_written);
  };
  std::list<std::size_t> recent;  // the arrays by the record that wrote them, most recently touched first
  std::vector<std::list<std::size_t>::iterator> place(records.size(), recent.end());
  const auto touch = [&](std::size_t j) {
    if (place[j] != recent.end()) recent.erase(place[j]);
    recent.push_front(j);
    place[j] = recent.begin();
  };
  for (std::size_t i = 0; i < records.size(); ++i) {
    std::vector<std::size_t> operands;
    for (const auto in : records[i].inputs)
      if (in >= 0 && static_cast<std::size_t>(in) < i) operands.push_back(static_cast<std::size_t>(in));
    std::sort(operands.begin(), operands.end());
    operands.erase(std::unique(operands.begin(), operands.end()), operands.end());
    double all = 0, evicted = 0;
    for (const auto j : operands) {
      const double b = bytes_of(j);
      if (b <= 0) continue;
      double between = 0;  // bytes touched since j was (stops once past the L2: then all of j is gone)
      for (auto it = recent.begin(); it != recent.end() && *it != j && between < l2; ++it) between += bytes_of(*it);
      all += b;
      evicted += b * std::clamp((between + b - l2) / b, 0.0, 1.0);
    }
    if (all > 0)
      far[i] = static_cast<double>(p.bytes_per_word) * static_cast<double>(records[i].price.words_read) * (evicted / all);
    for (const auto j : operands) touch(j);
    touch(i);
  }
  return far;
}

std::vector<double> predict_record_times(const device_profile& p, const std::vector<instruction_record>& records) {
  const std::vector<double> far = far_read_bytes(p, records);
  std::vector<double> t(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) t[i] = priced_ns(p, class_model(p, records[i]), records[i], true, far[i]);
  return t;
}

namespace {
// The part of a record's predicted time that the memory system and the units are busy with
// (bytes and work at the class's rates, without its latency, `far` bytes read from past the L2):
// what concurrent records share.
double throughput_ns(const device_profile& p, const instruction_record& r, double far) {
  return priced_ns(p, class_model(p, r), r, false, far);
}

// The host issue time of a record's class (0 for loads and uncalibrated classes).
double issue_ns(const device_profile& p, const instruction_record& r) {
  if (r.where == unit::scalar) return 0;
  const class_time_model* m = class_model(p, r).model;
  return m ? m->host_ns : 0;
}
}  // namespace

namespace {
// The executor's inf/nan check after a real result (the cuda backend, every executor): one more
// streaming read of the output, priced by the stream class. A graph profile's mmu-real constants
// already hold it (its chains time a product with its check), so there only VCU results add it.
// Returns {device ns, host issue ns}.
std::pair<double, double> check_ns(const device_profile& p, const instruction_record& r) {
  if (!r.real_output || r.where == unit::scalar || (r.where == unit::mmu && p.context == "graph")) return {0, 0};
  const auto it = p.classes.find("stream");
  if (it == p.classes.end()) return {0, 0};
  return {it->second.predict_ns(static_cast<double>(p.bytes_per_word) * static_cast<double>(r.length), 0,
                                static_cast<double>(p.l2_bytes)),
          it->second.host_ns};
}
// The check's bandwidth part (its time without the stream class's latency).
double check_throughput_ns(const device_profile& p, double check) {
  return check > 0 ? check - p.classes.at("stream").latency_ns : 0;
}
}  // namespace

time_prediction predict_time(const device_profile& p, const std::vector<instruction_record>& records) {
  time_prediction t;
  std::vector<double> finish(records.size(), 0.0);
  double host_clock = 0, check_clock = 0, shared = 0, concurrent = 0;
  const bool floor_by_concurrent = has_concurrent_classes(p);
  const std::vector<double> far = far_read_bytes(p, records);
  for (std::size_t i = 0; i < records.size(); ++i) {
    const double own = priced_ns(p, class_model(p, records[i]), records[i], true, far[i]);
    const auto [check, check_issue] = check_ns(p, records[i]);
    double ready = 0;
    for (const auto in : records[i].inputs)
      if (in >= 0 && static_cast<std::size_t>(in) < i) ready = std::max(ready, finish[static_cast<std::size_t>(in)]);
    finish[i] = ready + own;
    t.serial_ns += own + check;
    shared += throughput_ns(p, records[i], far[i]) + check_throughput_ns(p, check);
    if (floor_by_concurrent) concurrent += concurrent_ns(p, records[i], far[i]);
    // The checks run in program order on a queue of their own, each after its result.
    if (check > 0) check_clock = std::max(check_clock, finish[i]) + check;
    t.dag_ns = std::max({t.dag_ns, finish[i], check_clock});
    if (records[i].where == unit::scalar) continue;
    // compress's output length is a count the host reads back: it waits for the device first.
    if (instruction_class(records[i]) == "compress") host_clock = std::max(host_clock, t.queued_ns);
    host_clock += issue_ns(p, records[i]);
    t.queued_ns = std::max(t.queued_ns, host_clock) + own;
    if (check > 0) {  // issued right after the instruction, into the same queue
      host_clock += check_issue;
      t.queued_ns = std::max(t.queued_ns, host_clock) + check;
    }
  }
  // Overlapping records share the memory system and the units: the DAG time is at least their
  // summed bandwidth and work terms, and at least their summed concurrent class times.
  t.dag_ns = std::max({t.dag_ns, shared, concurrent});
  if (!std::isfinite(t.serial_ns) || !std::isfinite(t.dag_ns) || !std::isfinite(t.queued_ns))
    throw model_error("the predicted device time is not finite: the profile's constants are too large");
  return t;
}

}  // namespace mmv
