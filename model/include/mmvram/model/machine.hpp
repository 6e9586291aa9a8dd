// The MMV-RAM machine: the only way an algorithm touches data. The machine is the front: it
// checks each instruction's arguments, has its backend (backend.hpp: simulate or cuda) execute
// it, and retires one ledger record priced by the instruction table (instruction_table.hpp).
// T is `word` (B-bit integers) or `real` (float modes only).
#pragma once
#include "mmvram/model/backend.hpp"
#include "mmvram/model/dag.hpp"
#include "mmvram/model/instruction_table.hpp"
#include "mmvram/model/ledger.hpp"
#include "mmvram/model/types.hpp"
#include "mmvram/model/vec.hpp"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mmv {

class machine;

// RAII tag: instructions issued while it lives are recorded under "outer/name".
class region_guard {
 public:
  region_guard(const region_guard&) = delete;
  region_guard& operator=(const region_guard&) = delete;
  ~region_guard();

 private:
  friend class machine;
  explicit region_guard(machine& m) : m_(m) {}
  machine& m_;
};

class machine {
 public:
  // Throws model_error unless s >= 2 and 2 <= word_bits <= 64, or when config.backend cannot
  // be made (not built in, no device).
  explicit machine(machine_config config);
  ~machine();
  machine(machine&&) noexcept;
  machine& operator=(machine&&) noexcept;

  const machine_config& config() const { return config_; }
  int s() const { return config_.s; }
  int word_bits() const { return config_.word_bits; }
  const ledger& costs() const { return ledger_; }
  const dag& graph() const { return dag_; }
  // The backend executing the instructions ("simulate" or "cuda").
  std::string backend_name() const;
  // Waits for the backend and writes the measured device time of every instruction retired
  // since the last call into the ledger (records' measured_ns, per-region and total sums).
  // A no-op on the simulate backend. Deferred device errors surface here at the latest.
  void collect_timing();
  // The first real result that was not finite (inf or nan), with its instruction and index;
  // none when every real result was finite or the backend does not check (cuda). Loaded
  // values are not checked: a run from finite inputs reports an overflow inside the algorithm.
  std::optional<nonfinite_result> first_nonfinite() const;
  // Tags the instructions issued until the guard dies; nested tags join with '/'.
  [[nodiscard]] region_guard region(const std::string& name);
  // Smallest and largest value a B-bit signed word holds.
  word word_min() const;
  word word_max() const;

  // ---- scalar unit (free; listed in the trace) ----
  // Copies host data into memory (an input or a constant). Words are width-checked.
  template <class T> vec<T> load(std::span<const T> values, const std::string& name = "load");
  template <class T> vec<T> load(const std::vector<T>& values, const std::string& name = "load") {
    return load<T>(std::span<const T>(values), name);
  }
  // Copies a vector back to the host: how an algorithm returns its result.
  template <class T> std::vector<T> read(const vec<T>& v) const;

  // ---- VCU: one step each, element-wise on equal lengths unless stated ----
  template <class T> vec<T> add(const vec<T>& a, const vec<T>& b);
  template <class T> vec<T> add(const vec<T>& a, T c);
  template <class T> vec<T> sub(const vec<T>& a, const vec<T>& b);
  template <class T> vec<T> sub(const vec<T>& a, T c);
  template <class T> vec<T> neg(const vec<T>& a);
  template <class T> vec<T> min(const vec<T>& a, const vec<T>& b);
  template <class T> vec<T> max(const vec<T>& a, const vec<T>& b);
  // Comparisons give 0/1 words. op is one of "eq" "ne" "lt" "le" "gt" "ge".
  template <class T> word_vec compare(const std::string& op, const vec<T>& a, const vec<T>& b);
  template <class T> word_vec compare(const std::string& op, const vec<T>& a, T c);
  // out[i] = cond[i] ? a[i] : b[i]; cond must hold 0/1.
  template <class T> vec<T> select(const word_vec& cond, const vec<T>& a, const vec<T>& b);
  template <class T> vec<T> select(const word_vec& cond, const vec<T>& a, T b);
  // Bitwise logic on words (logical on 0/1 flags).
  word_vec logic_and(const word_vec& a, const word_vec& b);
  word_vec logic_or(const word_vec& a, const word_vec& b);
  word_vec logic_xor(const word_vec& a, const word_vec& b);
  word_vec logic_not01(const word_vec& a);  // 1 - a on 0/1 flags
  // Shifts of every word by a constant number of bits (arithmetic right shift).
  word_vec shift_left_bits(const word_vec& a, int k);
  word_vec shift_right_bits(const word_vec& a, int k);
  // out[i] = bit k[i] of a[i]: a B-way multiplexer per element (constant depth).
  word_vec extract_bit(const word_vec& a, const word_vec& k);
  // Shift of the vector by a constant offset: out[i] = a[i - offset], `fill` outside.
  template <class T> vec<T> shift(const vec<T>& a, std::int64_t offset, T fill);
  // m copies of a scalar-unit constant.
  template <class T> vec<T> broadcast(T value, std::int64_t m);
  // A constant index pattern: out[i] = start + step * (i / block), or i % block when modulo.
  word_vec iota(std::int64_t m, word start = 0, word step = 1, std::int64_t block = 1);
  word_vec lane_index(std::int64_t m, std::int64_t block);
  // out[i] = a[idx[i]]; every index must be in range.
  template <class T> vec<T> gather(const vec<T>& a, const word_vec& idx);
  // out[i] = a[start + i * stride] for i < count (addresses from the scalar unit).
  template <class T> vec<T> gather_strided(const vec<T>& a, std::int64_t start, std::int64_t stride,
                                           std::int64_t count);
  // Copy of dst with dst[idx[i]] = v[i]; indices in range and pairwise distinct (EREW).
  template <class T> vec<T> scatter(const vec<T>& dst, const word_vec& idx, const vec<T>& v);
  // The elements a[i] with mask[i] = 1, in order. pos[i] must be the rank of i among the set
  // positions (an exclusive scan of mask, computed by the algorithm) wherever mask[i] = 1.
  template <class T> vec<T> compress(const vec<T>& a, const word_vec& mask, const word_vec& pos);
  // Copy of a truncated or padded with `fill` to length m.
  template <class T> vec<T> resize(const vec<T>& a, std::int64_t m, T fill);
  // REVSPEC: a holds speculative (unsegmented) prefix sums inside each s-block, f the flags.
  // out[i] = a[i] - a[j-1] where j <= i is the last flagged position of i's block (a[j-1] = 0
  // when j starts the block); out[i] = a[i] when no flag precedes i in its block. Work m*s.
  template <class T> vec<T> revspec(const vec<T>& a, const word_vec& f);

  // ---- VCU, optional iterated addition (off unless machine_config::iterated_addition_limit) ----
  // out[i] = sum of a[j] for j from k*floor(i/k) to i: each output adds at most k words, which a
  // constant-depth circuit does for k <= polylog(n). Needs 2 <= k <= iterated_addition_limit.
  template <class T> vec<T> block_prefix_sum(const vec<T>& a, std::int64_t k);
  // The same, restarted at flags: the sum runs from the last j <= i in i's k-block with f[j] = 1
  // (or the block's start when there is none) to i.
  template <class T> vec<T> block_segmented_prefix_sum(const vec<T>& a, const word_vec& f, std::int64_t k);

  // ---- VCU, float modes only (IEEE operations of the CUDA cores; see docs/model.md) ----
  real_vec mul(const real_vec& a, const real_vec& b);
  real_vec mul(const real_vec& a, real c);
  real_vec div(const real_vec& a, const real_vec& b);
  real_vec exp(const real_vec& a);
  real_vec log(const real_vec& a);
  real_vec to_real(const word_vec& a);

  // ---- MMU: one step ----
  // a is an (m/s x s) row-major matrix (a.size() a multiple of s), w an s x s row-major matrix
  // (s*s words). Returns a * w, row-major. Integer results are exact and width-checked.
  template <class T> vec<T> mmu(const vec<T>& a, const vec<T>& w);

 private:
  friend class region_guard;
  // Records one instruction (ledger, DAG, trace) and wraps its output.
  // Executes `run` on the backend as instruction `op` and records it (ledger, DAG, trace).
  template <class T, class Run>
  vec<T> issue(op_code op, operand_sizes sizes, std::initializer_list<vec_node> inputs, Run run);
  template <class T> vec<T> retire(op_code op, const operand_sizes& sizes, handle<T> out,
                                   std::initializer_list<vec_node> inputs, const std::string* listed_as = nullptr);
  // The backend buffer of v (the empty vector for a default-constructed handle).
  template <class T> const buffer<T>& buf(const vec<T>& v) const;
  template <class T> void require_type() const;
  void require_same_length(const std::string& op, std::int64_t a, std::int64_t b) const;
  template <class T> T constant(const char* op, T c) const;

  machine_config config_;
  std::unique_ptr<backend> backend_;
  handle<word> empty_words_;
  handle<real> empty_reals_;
  std::size_t timed_upto_ = 0;  // records before this index carry their measured time
  ledger ledger_;
  dag dag_;
  std::vector<std::string> region_stack_;
};

// Throws model_error naming the first position whose flag is not 0 or 1.
void validate_flags(std::span<const word> flags);

}  // namespace mmv
