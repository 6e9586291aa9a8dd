// Fitting the time model (fit.hpp): relative least squares per instruction class, constants kept
// at 0 or above.
#include "mmvram/prediction/fit.hpp"

#include "mmvram/model/types.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace mmv {

namespace {

// Least squares on the chosen columns: each column scaled to unit norm, then the normal
// equations by Gaussian elimination with partial pivoting. Nothing (an empty vector) when the
// columns are (nearly) dependent.
std::vector<double> least_squares(std::vector<std::vector<double>> cols, const std::vector<double>& y) {
  const std::size_t k = cols.size();
  std::vector<double> scale(k, 1.0);
  for (std::size_t i = 0; i < k; ++i) {
    double norm = 0;
    for (const double v : cols[i]) norm += v * v;
    scale[i] = norm > 0 ? 1.0 / std::sqrt(norm) : 1.0;
    for (double& v : cols[i]) v *= scale[i];
  }
  std::vector<std::vector<double>> a(k, std::vector<double>(k + 1, 0.0));
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = 0; j < k; ++j)
      for (std::size_t r = 0; r < y.size(); ++r) a[i][j] += cols[i][r] * cols[j][r];
    for (std::size_t r = 0; r < y.size(); ++r) a[i][k] += cols[i][r] * y[r];
  }
  for (std::size_t c = 0; c < k; ++c) {
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r < k; ++r)
      if (std::fabs(a[r][c]) > std::fabs(a[pivot][c])) pivot = r;
    std::swap(a[c], a[pivot]);
    if (std::fabs(a[c][c]) < 1e-12) return {};
    for (std::size_t r = 0; r < k; ++r) {
      if (r == c) continue;
      const double f = a[r][c] / a[c][c];
      for (std::size_t j = c; j <= k; ++j) a[r][j] -= f * a[c][j];
    }
  }
  std::vector<double> x(k);
  for (std::size_t i = 0; i < k; ++i) x[i] = a[i][k] / a[i][i] * scale[i];
  return x;
}

}  // namespace

namespace {
// One relative least-squares fit with the knee as a hinge or (step) a step; see fit_class.
class_time_model fit_knee(const std::vector<double>& bytes, const std::vector<double>& work, const std::vector<double>& ns,
                          bool use_work, double l2_bytes, bool step) {
  // Relative least squares: each point weighted by 1/measured, so that microsecond instructions
  // count as much as milliseconds ones (the residuals are relative too). The terms: latency,
  // bytes (up to the knee while the term past it is fitted, else all of them), bytes past the
  // knee (only where some point moves more), work.
  const std::size_t n = ns.size();
  const bool past_knee = l2_bytes > 0 && std::any_of(bytes.begin(), bytes.end(), [&](double b) { return b > l2_bytes; });
  std::vector<bool> active = {true, true, past_knee, use_work};
  const auto value = [&](int c, std::size_t r) {
    switch (c) {
      case 0: return 1.0;
      case 1:
        if (!active[2]) return bytes[r];
        return step ? (bytes[r] > l2_bytes ? 0.0 : bytes[r]) : std::min(bytes[r], l2_bytes);
      case 2: return step ? (bytes[r] > l2_bytes ? bytes[r] : 0.0) : std::max(0.0, bytes[r] - l2_bytes);
      default: return work[r];
    }
  };
  std::vector<double> coef(4, 0.0);
  for (int round = 0; round < 5; ++round) {
    std::vector<std::vector<double>> cols;
    std::vector<int> which;
    for (int c = 0; c < 4; ++c) {
      if (!active[static_cast<std::size_t>(c)]) continue;
      std::vector<double> col(n);
      for (std::size_t r = 0; r < n; ++r) col[r] = value(c, r) / ns[r];
      cols.push_back(std::move(col));
      which.push_back(c);
    }
    coef.assign(4, 0.0);
    if (which.empty()) break;
    const std::vector<double> x = least_squares(cols, std::vector<double>(n, 1.0));
    // Dependent columns (work proportional to bytes): drop the last term and fit again. Else drop
    // the most negative constant; the latency alone is the last resort. Dropping the term past
    // the knee leaves one bandwidth for all bytes.
    int worst = -1;
    if (x.empty()) {
      worst = which.back();
    } else {
      for (std::size_t i = 0; i < which.size(); ++i) {
        coef[static_cast<std::size_t>(which[i])] = x[i];
        if (x[i] < 0 && (worst < 0 || x[i] < coef[static_cast<std::size_t>(worst)])) worst = which[i];
      }
    }
    if (worst < 0) break;
    coef.assign(4, 0.0);
    active[static_cast<std::size_t>(worst)] = false;
    if (std::none_of(active.begin(), active.end(), [](bool a) { return a; })) active[0] = true;
  }
  for (auto& c : coef) c = std::max(c, 0.0);
  class_time_model m{coef[0], coef[1], coef[3]};
  m.ns_per_byte_beyond_l2 = active[2] ? coef[2] : coef[1];
  m.step_at_knee = step && active[2];
  std::vector<double> rel;
  for (std::size_t r = 0; r < n; ++r) rel.push_back(std::fabs(m.predict_ns(bytes[r], work[r], l2_bytes) - ns[r]) / ns[r]);
  std::sort(rel.begin(), rel.end());
  m.points = static_cast<int>(n);
  m.residual_median = rel.empty() ? 0 : rel[rel.size() / 2];
  m.residual_max = rel.empty() ? 0 : rel.back();
  return m;
}

// The sum of squared relative residuals of `m` on the points: what the fit minimises.
double squared_residuals(const class_time_model& m, const std::vector<double>& bytes, const std::vector<double>& work,
                         const std::vector<double>& ns, double l2_bytes) {
  double sum = 0;
  for (std::size_t r = 0; r < ns.size(); ++r) {
    const double e = m.predict_ns(bytes[r], work[r], l2_bytes) / ns[r] - 1;
    sum += e * e;
  }
  return sum;
}
}  // namespace

class_time_model fit_class(const std::vector<double>& bytes, const std::vector<double>& work, const std::vector<double>& ns,
                           bool use_work, double l2_bytes) {
  const class_time_model hinge = fit_knee(bytes, work, ns, use_work, l2_bytes, false);
  if (!(l2_bytes > 0 && std::any_of(bytes.begin(), bytes.end(), [&](double b) { return b > l2_bytes; }))) return hinge;
  const class_time_model step = fit_knee(bytes, work, ns, use_work, l2_bytes, true);
  return squared_residuals(step, bytes, work, ns, l2_bytes) < squared_residuals(hinge, bytes, work, ns, l2_bytes) ? step : hinge;
}

void fit_profile(device_profile& p, std::vector<training_point> points) {
  std::map<std::string, std::vector<training_point*>> by_class;
  for (auto& t : points) {
    if (!(std::isfinite(t.measured_ns) && t.measured_ns > 0) || !std::isfinite(t.bytes) || !std::isfinite(t.work))
      throw model_error("training point of class '" + escaped(t.cls) + "' (op " + escaped(t.op) + ", m = " + std::to_string(t.m) +
                        ") has no usable time: measured_ns must be a finite number > 0");
    by_class[t.cls].push_back(&t);
  }
  // Every class fitted at the knee `knee`: the classes and their summed squared residuals.
  const auto fit_all = [&](double knee) {
    std::pair<std::map<std::string, class_time_model>, double> fitted{{}, 0.0};
    for (auto& [cls, pts] : by_class) {
      std::vector<double> bytes, work, ns;
      for (const auto* t : pts) bytes.push_back(t->bytes), work.push_back(t->work), ns.push_back(t->measured_ns);
      const std::string base = cls.starts_with(concurrent_class_prefix) ? cls.substr(concurrent_class_prefix.size()) : cls;
      const bool use_work = base == "revspec" || base == "block-prefix" || base.rfind("mmu", 0) == 0;
      fitted.first[cls] = fit_class(bytes, work, ns, use_work, knee);
      fitted.second += squared_residuals(fitted.first[cls], bytes, work, ns, knee);
    }
    return fitted;
  };
  if (p.l2_cache_bytes <= 0) p.l2_cache_bytes = p.l2_bytes;
  p.l2_bytes = p.l2_cache_bytes;
  auto best = fit_all(static_cast<double>(p.l2_bytes));
  for (std::int64_t j = 15; j >= 4 && p.l2_cache_bytes > 0; --j) {
    const std::int64_t knee = p.l2_cache_bytes / 16 * j;
    auto tried = fit_all(static_cast<double>(knee));
    if (tried.second < best.second) best = std::move(tried), p.l2_bytes = knee;
  }
  p.classes = std::move(best.first);
  for (auto& [cls, pts] : by_class) {
    std::vector<double> host;
    for (const auto* t : pts)
      if (t->host_ns > 0) host.push_back(t->host_ns);
    std::sort(host.begin(), host.end());
    p.classes[cls].host_ns = host.empty() ? 0 : host[host.size() / 2];
    for (auto* t : pts) t->predicted_ns = p.classes[cls].predict_ns(t->bytes, t->work, static_cast<double>(p.l2_bytes));
  }
  p.points = std::move(points);
}

}  // namespace mmv
