// machine::issue (internal): brackets one instruction's execution on the backend (for timing),
// retires it, and records the host time its issue took. Included by the files that define the instructions' front ends.
#pragma once
#include "mmvram/model/machine.hpp"

#include <chrono>

namespace mmv {

template <class T, class Run>
vec<T> machine::issue(op_code op, operand_sizes sizes, std::initializer_list<vec_node> inputs, Run run) {
  const auto seq = static_cast<std::int64_t>(ledger_.records().size());
  const auto issued = std::chrono::steady_clock::now();
  backend_->begin_instruction(seq, info_of(op).name);
  handle<T> out;
  try {
    out = run(*backend_);
  } catch (...) {
    backend_->abandon_instruction(seq);  // no record: a timing backend drops its bracket
    throw;
  }
  backend_->end_instruction(seq);
  const std::chrono::duration<double, std::nano> host = std::chrono::steady_clock::now() - issued;
  vec<T> v = retire<T>(op, sizes, std::move(out), inputs);
  ledger_.set_host_time(host.count());
  return v;
}

}  // namespace mmv
