// A vector in the machine's memory. Algorithms hold vec handles and pass them to the
// machine's instructions; they cannot read or write the values (machine::read is the one
// exit, used to return results to the host). The values live in the backend's storage.
#pragma once
#include "mmvram/model/backend.hpp"

#include <memory>

namespace mmv {

class machine;

// Where a vector sits in the dependency DAG: its producer vertex and the step it is ready at.
struct vec_node {
  std::int64_t producer = -1;  // DAG vertex of the instruction that wrote it (-1: none)
  std::int64_t depth = 0;      // longest path (in steps) ending at its producer
  std::int64_t record = -1;    // ledger position of the instruction that wrote it (-1: none)
};

template <class T>
class vec {
 public:
  vec() = default;
  std::int64_t size() const { return data_ ? data_->size() : 0; }

 private:
  friend class machine;
  vec(handle<T> data, vec_node node) : data_(std::move(data)), node_(node) {}

  handle<T> data_;  // null: the empty vector
  vec_node node_;
};

using word_vec = vec<word>;
using real_vec = vec<real>;

}  // namespace mmv
