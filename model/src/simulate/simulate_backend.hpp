// The simulate backend (internal): every instruction executes for real on Eigen arrays, exact
// and width-checked for words, rounded to the format for reals. The front (machine) has checked
// lengths and parameters; this class checks what depends on the data.
#pragma once
#include "mmvram/model/backend.hpp"

#include "word_arith.hpp"

namespace mmv::simulate {

template <class T>
class host_buffer final : public buffer<T> {
 public:
  explicit host_buffer(array<T> v) : buffer<T>(v.size()), values(std::move(v)) {}
  const array<T> values;
};

template <class T>
const array<T>& host(const buffer<T>& b) { return static_cast<const host_buffer<T>&>(b).values; }

template <class T>
handle<T> wrap(array<T>&& a) { return std::make_shared<const host_buffer<T>>(std::move(a)); }

class simulate_backend final : public backend_of<simulate_backend> {
 public:
  explicit simulate_backend(const machine_config& c) : c_(c) {}
  std::string name() const override { return "simulate"; }

  handle<word> shift_bits(op_code op, const buffer<word>& a, int k) override;
  handle<word> extract_bit(const buffer<word>& a, const buffer<word>& k) override;
  handle<word> iota(std::int64_t m, word start, word step, std::int64_t block) override;
  handle<word> lane_index(std::int64_t m, std::int64_t block) override;
  handle<real> to_real(const buffer<word>& a) override;
  void begin_instruction(std::int64_t seq, const char*) override { sequence_ = seq + 1; }
  std::optional<nonfinite_result> first_nonfinite() const override { return first_nonfinite_; }

 private:
  template <class, class, class>
  friend class mmv::typed_forwarding;

  // The typed instructions (backend.hpp), for T = word and real.
  template <class T> handle<T> do_upload(std::span<const T> v);
  template <class T> std::vector<T> do_download(const buffer<T>& v);
  template <class T> handle<T> do_binary(op_code op, const buffer<T>& a, const buffer<T>& b);
  template <class T> handle<T> do_binary_const(op_code op, const buffer<T>& a, T c);
  template <class T> handle<T> do_unary(op_code op, const buffer<T>& a);
  template <class T> handle<word> do_compare(op_code op, const buffer<T>& a, const buffer<T>& b);
  template <class T> handle<word> do_compare_const(op_code op, const buffer<T>& a, T c);
  template <class T> handle<T> do_select(const buffer<word>& k, const buffer<T>& a, const buffer<T>& b);
  template <class T> handle<T> do_select_const(const buffer<word>& k, const buffer<T>& a, T b);
  template <class T> handle<T> do_shift(const buffer<T>& a, std::int64_t offset, T fill);
  template <class T> handle<T> do_broadcast(T value, std::int64_t m);
  template <class T> handle<T> do_gather(const buffer<T>& a, const buffer<word>& idx);
  template <class T> handle<T> do_gather_strided(const buffer<T>& a, std::int64_t start, std::int64_t stride, std::int64_t count);
  template <class T> handle<T> do_scatter(const buffer<T>& dst, const buffer<word>& idx, const buffer<T>& v);
  template <class T> handle<T> do_compress(const buffer<T>& a, const buffer<word>& mask, const buffer<word>& pos);
  template <class T> handle<T> do_resize(const buffer<T>& a, std::int64_t m, T fill);
  template <class T> handle<T> do_revspec(const buffer<T>& a, const buffer<word>& f);
  template <class T> handle<T> do_block_prefix(const buffer<T>& a, const buffer<word>* f, std::int64_t k);
  template <class T> handle<T> do_mmu(const buffer<T>& a, const buffer<T>& w);

  // Throws width_error at the first word outside B bits (no-op for reals).
  template <class T> void check_width(const char* op, const array<T>& out) const;
  void require_flags(const char* op, const buffer<word>& f) const;
  void round(array<real>& a) const { detail::round_to_format(a, c_.format); }
  // Rounds the result of real instruction `op` to the format and records its first value that
  // is not finite, unless an earlier instruction's was recorded.
  void settle(const char* op, array<real>& a);

  machine_config c_;
  std::int64_t sequence_ = 0;
  std::optional<nonfinite_result> first_nonfinite_;
};

}  // namespace mmv::simulate
