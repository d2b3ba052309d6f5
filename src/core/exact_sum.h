// Exact summation of clipped per-record contributions, in fixed point.
//
// Plain C++17, no R headers. A privatised sum is released as S + N(0, sigma^2 I),
// and the accountant is given the bound C on one record's contribution. Summed in
// floating point, S carries a rounding error of up to about m u sum_j |t_j| (m
// terms, unit roundoff u) that depends on every record, so two neighbouring data
// sets can give sums further apart than C: outside the proof (Casacuberta et al.
// 2022). Here every term is truncated toward zero onto the grid 2^-e (which never
// increases its magnitude, so each record's contribution stays within its clip
// bound) and the grid integers are added exactly. The grid is chosen from a public
// bound on sum_j |t_jk|, so that every partial sum is below 2^52 in grid units.
// The integers are held in doubles: every integer of magnitude up to 2^53 is a
// double, so each addition of two of them whose sum stays below 2^53 is exact,
// in any order, like integer addition (and the vector path of add_scaled() can
// truncate and add four at a time). Scaling by the grid's power of two is exact
// too, so (c x) 2^e and (c 2^e) x are the same double.
// The released sum is then an exact function of the records' own truncated
// contributions: replacing one record moves it by exactly that record's change.
// What is left is the rounding of S + noise itself (see ?pgbb_privacy).
//
// An infinite bound (no clip: the non-private runs at sigma = 0, which have no
// sensitivity to keep) sums in plain double precision instead.
#ifndef PGBB_CORE_EXACT_SUM_H
#define PGBB_CORE_EXACT_SUM_H

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define PGBB_EXACT_SUM_AVX 1
#endif

namespace pgbb {

namespace detail {

/// acc[j] += trunc(cs x[j]) for j < p, skipping a term whose magnitude is not
/// below 2^53 (or is NaN): the reference every path matches bit for bit.
template <class X>
inline void add_truncated_portable(double* acc, double cs, const X* x, int p) {
  for (int j = 0; j < p; ++j) {
    const double y = cs * static_cast<double>(x[j]);
    if (std::fabs(y) < 0x1p53) acc[j] += std::trunc(y);
  }
}

#ifdef PGBB_EXACT_SUM_AVX
template <class X>
__attribute__((target("avx"))) inline __m256d load4_pd(const X* x);
template <>
__attribute__((target("avx"))) inline __m256d load4_pd<float>(const float* x) {
  return _mm256_cvtps_pd(_mm_loadu_ps(x));
}
template <>
__attribute__((target("avx"))) inline __m256d load4_pd<double>(const double* x) {
  return _mm256_loadu_pd(x);
}

/// The grid integers that four scaled terms y add: trunc(y) (exact), and 0
/// for a term not below 2^53 or NaN (the ordered comparison is false for
/// them), as add_truncated_portable() does one at a time.
__attribute__((target("avx"), always_inline)) inline __m256d truncate_on_grid4(__m256d y) {
  const __m256d ok = _mm256_cmp_pd(_mm256_andnot_pd(_mm256_set1_pd(-0.0), y), _mm256_set1_pd(0x1p53), _CMP_LT_OQ);
  return _mm256_and_pd(_mm256_round_pd(y, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC), ok);
}

/// Four terms at a time: multiply (correctly rounded, no fused operation),
/// truncate onto the grid, add (exact on the grid).
template <class X>
__attribute__((target("avx"))) inline void add_truncated_avx(double* acc, double cs, const X* x, int p) {
  const __m256d c = _mm256_set1_pd(cs);
  int j = 0;
  for (; j + 4 <= p; j += 4) {
    const __m256d t = truncate_on_grid4(_mm256_mul_pd(c, load4_pd(x + j)));
    _mm256_storeu_pd(acc + j, _mm256_add_pd(_mm256_loadu_pd(acc + j), t));
  }
  add_truncated_portable(acc + j, cs, x + j, p - j);
}

inline bool exact_sum_has_avx() {
  static const bool has = __builtin_cpu_supports("avx");
  return has;
}
#endif

template <class X>
inline void add_truncated(double* acc, double cs, const X* x, int p) {
#ifdef PGBB_EXACT_SUM_AVX
  if (exact_sum_has_avx()) return add_truncated_avx(acc, cs, x, p);
#endif
  add_truncated_portable(acc, cs, x, p);
}

}  // namespace detail

class ExactSum {
 public:
  /// add_scaled() multiplies x by c 2^e only while |c 2^e| is below this (so
  /// that (c 2^e) x and (c x) 2^e are the same double); a larger factor goes
  /// term by term through add().
  static constexpr double kMaxScaledFactor = 0x1p1000;

  /// `bound`: a public upper bound on sum_j |t_jk| for every coordinate k (for
  /// weighted clipped gradients with weights summing to at most W, W C).
  ExactSum(int d, double bound)
      : acc_(static_cast<size_t>(d > 0 ? d : 0), 0.0), plain_(std::isinf(bound) ? static_cast<size_t>(d > 0 ? d : 0) : 0, 0.0) {
    if (d < 1) throw std::invalid_argument("ExactSum: need at least one coordinate");
    if (!(bound > 0.0)) throw std::invalid_argument("ExactSum: bound must be positive");
    if (std::isinf(bound)) return;  // unclipped, non-private: plain summation
    int b = 0;
    std::frexp(bound, &b);              // bound <= 2^b
    scale_ = std::ldexp(1.0, 52 - b);   // |partial sums| <= bound * scale_ <= 2^52
    unscale_ = std::ldexp(1.0, b - 52);
  }

  void clear() {
    for (auto& a : acc_) a = 0.0;
    for (auto& a : plain_) a = 0.0;
  }

  /// Adds v to coordinate k, truncated toward zero onto the grid. A value that
  /// is not finite, or beyond the bound, contributes nothing (within any clip).
  void add(int k, double v) {
    if (!plain_.empty()) {
      plain_[static_cast<size_t>(k)] += v;
      return;
    }
    const double y = v * scale_;
    if (std::fabs(y) < 0x1p53) acc_[static_cast<size_t>(k)] += std::trunc(y);
  }

  /// Adds c x[0..p-1] to coordinates 0..p-1: the same as add(j, c x[j]) for
  /// every j (c 2^e x = (c x) 2^e exactly, see the header), four at a time
  /// where the CPU has AVX. A c whose scaled value is not finite falls back
  /// to add(), which skips what is not finite.
  template <class X>
  void add_scaled(double c, const X* x, int p) {
    const double cs = c * scale_;
    if (!plain_.empty() || !(std::fabs(cs) < kMaxScaledFactor)) {
      for (int j = 0; j < p; ++j) add(j, c * static_cast<double>(x[j]));
      return;
    }
    detail::add_truncated(acc_.data(), cs, x, p);
  }

#ifdef PGBB_EXACT_SUM_AVX
  /// add_scaled() for a caller compiled for AVX (the trainer's record loop,
  /// trainer.h), where the vector kernel can be inlined.
  template <class X>
  __attribute__((target("avx"))) void add_scaled_avx(double c, const X* x, int p) {
    const double cs = c * scale_;
    if (!plain_.empty() || !(std::fabs(cs) < kMaxScaledFactor)) {
      for (int j = 0; j < p; ++j) add(j, c * static_cast<double>(x[j]));
      return;
    }
    detail::add_truncated_avx(acc_.data(), cs, x, p);
  }
#endif

  /// Adds another partial sum over different terms (same d and bound). On the
  /// grid the addition is exact, so a sum split into parts and merged is the
  /// sum of all terms whatever the split; the plain (unclipped) path adds in
  /// the order of the merges.
  void merge(const ExactSum& other) {
    for (size_t k = 0; k < acc_.size(); ++k) acc_[k] += other.acc_[k];
    for (size_t k = 0; k < plain_.size(); ++k) plain_[k] += other.plain_[k];
  }

  /// The exact sum (grid integers below 2^52 times a power of two: exact).
  void write(double* s) const {
    if (!plain_.empty()) {
      for (size_t k = 0; k < plain_.size(); ++k) s[k] = plain_[k];
      return;
    }
    for (size_t k = 0; k < acc_.size(); ++k) s[k] = acc_[k] * unscale_;
  }

  double resolution() const { return unscale_; }

  /// Whether the sum is the plain (unclipped) one, which has no grid.
  bool plain() const { return !plain_.empty(); }

  /// The grid's power of two: a term t is added as trunc(t * grid_scale()).
  double grid_scale() const { return scale_; }

  /// Adds to coordinate k a value already on the grid: an integer, itself an
  /// exact sum of truncated terms of the same bound (a caller's lane partials,
  /// trainer.h), so the addition is exact like every other.
  void add_grid(int k, double integer) { acc_[static_cast<size_t>(k)] += integer; }

 private:
  std::vector<double> acc_;    // grid integers (exact in double below 2^53)
  std::vector<double> plain_;  // non-empty only for an infinite bound
  double scale_ = 1.0, unscale_ = 1.0;
};

}  // namespace pgbb

#endif  // PGBB_CORE_EXACT_SUM_H
