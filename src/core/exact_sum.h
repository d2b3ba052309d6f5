// Exact summation of clipped per-record contributions, in fixed point.
//
// Plain C++17, no R headers. A privatised sum is released as S + N(0, sigma^2 I),
// and the accountant is given the bound C on one record's contribution. Summed in
// floating point, S carries a rounding error of up to about m u sum_j |t_j| (m
// terms, unit roundoff u) that depends on every record, so two neighbouring data
// sets can give sums further apart than C: outside the proof (Casacuberta et al.
// 2022). Here every term is truncated toward zero onto the grid 2^-e (which never
// increases its magnitude, so each record's contribution stays within its clip
// bound) and the grid integers are added exactly in int64. The grid is chosen from
// a public bound on sum_j |t_jk|, so that every partial sum is below 2^52 in grid
// units: the integers never overflow and the result converts to double exactly.
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

namespace pgbb {

class ExactSum {
 public:
  /// `bound`: a public upper bound on sum_j |t_jk| for every coordinate k (for
  /// weighted clipped gradients with weights summing to at most W, W C).
  ExactSum(int d, double bound)
      : acc_(static_cast<size_t>(d > 0 ? d : 0), 0), plain_(std::isinf(bound) ? static_cast<size_t>(d > 0 ? d : 0) : 0, 0.0) {
    if (d < 1) throw std::invalid_argument("ExactSum: need at least one coordinate");
    if (!(bound > 0.0)) throw std::invalid_argument("ExactSum: bound must be positive");
    if (std::isinf(bound)) return;  // unclipped, non-private: plain summation
    int b = 0;
    std::frexp(bound, &b);              // bound <= 2^b
    scale_ = std::ldexp(1.0, 52 - b);   // |partial sums| <= bound * scale_ <= 2^52
    unscale_ = std::ldexp(1.0, b - 52);
  }

  void clear() {
    for (auto& a : acc_) a = 0;
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
    if (std::fabs(y) < 0x1p53) acc_[static_cast<size_t>(k)] += static_cast<int64_t>(y);
  }

  /// Adds c x[0..p-1] to coordinates 0..p-1.
  template <class X>
  void add_scaled(double c, const X* x, int p) {
    for (int j = 0; j < p; ++j) add(j, c * static_cast<double>(x[j]));
  }

  /// Adds another partial sum over different terms (same d and bound). On the
  /// grid the addition is exact, so a sum split into parts and merged is the
  /// sum of all terms whatever the split; the plain (unclipped) path adds in
  /// the order of the merges.
  void merge(const ExactSum& other) {
    for (size_t k = 0; k < acc_.size(); ++k) acc_[k] += other.acc_[k];
    for (size_t k = 0; k < plain_.size(); ++k) plain_[k] += other.plain_[k];
  }

  /// The exact sum (every grid integer is below 2^52, so the conversion is exact).
  void write(double* s) const {
    if (!plain_.empty()) {
      for (size_t k = 0; k < plain_.size(); ++k) s[k] = plain_[k];
      return;
    }
    for (size_t k = 0; k < acc_.size(); ++k) s[k] = static_cast<double>(acc_[k]) * unscale_;
  }

  double resolution() const { return unscale_; }

 private:
  std::vector<int64_t> acc_;
  std::vector<double> plain_;  // non-empty only for an infinite bound
  double scale_ = 1.0, unscale_ = 1.0;
};

}  // namespace pgbb

#endif  // PGBB_CORE_EXACT_SUM_H
