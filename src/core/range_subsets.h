// Poisson subsets of a range of 2^k records, by count and positions.
//
// Plain C++17, no R headers. A Poisson subset includes every record
// independently with probability q (the subsampling that the accountant's
// amplification assumes, SM S1.4). Its law factors into a count and a set:
// N ~ Binomial(m, q), and given N, a uniformly random N-subset of the m
// records. For a range of exactly m = 2^k records this class draws it that
// way: N by inversion of a table of the binomial cdf, then N distinct
// positions, each a k-bit field of a 64-bit draw (uniform on the range with no
// rejection), a repeat (found in a bitmap) redrawn. The subset comes out in
// the order drawn, not sorted: its users add exactly (exact_sum.h), so the
// order changes nothing. That costs about a third of a 64-bit draw and two bit
// operations per included record, against a 53-bit uniform and a table search
// per gap for geometric skipping (GeometricGaps, in increasing order), which
// stays the sampler of every other range.
//
// Exactness. The positions are exact: sequential draws without repeats give
// every N-subset the same probability. The count is exact up to the table:
// the binomial probabilities come from the ratio recursion
// P(k + 1) / P(k) = (m - k) q / ((k + 1) (1 - q)) from the mode (relative
// error a few hundred ulps), the table ends where the terms fall below 2^-80
// of the mode (the mass left out, below 2^-70 in all, is given back by the
// normalisation), and a 53-bit uniform selects an entry. inclusion_rate()
// returns the rate that the drawn N realise, E[N] / m, computed from the table
// as the 53-bit uniform partitions it; the core tests check it against q to a
// relative 1e-12, so the accountant's q is the inclusion probability to that
// precision (as for GeometricGaps, whose thresholds come from exp and log).
#ifndef PGBB_CORE_RANGE_SUBSETS_H
#define PGBB_CORE_RANGE_SUBSETS_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "rng.h"

namespace pgbb {

class RangeSubsets {
 public:
  /// Ranges of 2^bits records (bits in [6, 21]) at rate q in (0, max_rate()].
  RangeSubsets(int bits, double q) : bits_(bits), m_(int64_t(1) << bits) {
    if (bits < 6 || bits > 21) throw std::invalid_argument("RangeSubsets: bits must be in [6, 21]");
    if (!(q > 0.0 && q <= max_rate())) throw std::invalid_argument("RangeSubsets: q must be in (0, 1/8]");
    build_cdf(q);
  }

  /// Rates above this go to geometric skipping: repeats would grow common.
  static constexpr double max_rate() { return 0.125; }
  int64_t range() const { return m_; }

  /// Appends a Poisson(q) subset of {begin, ..., begin + range() - 1} to
  /// `out`, in the order drawn. `bitmap` is workspace of range() / 64 words,
  /// all zero on entry and on return.
  void draw(Rng& rng, int64_t begin, std::vector<uint64_t>& bitmap, std::vector<int64_t>& out) const {
    if (static_cast<int64_t>(bitmap.size()) * 64 != m_)
      throw std::invalid_argument("RangeSubsets: the bitmap must hold one bit per record");
    const int64_t count = draw_count(rng.uniform());
    const size_t first = out.size();
    const uint64_t mask = (uint64_t(1) << bits_) - 1;
    const int fields = 64 / bits_;
    uint64_t word = 0;
    int left = 0;
    for (int64_t placed = 0; placed < count;) {
      if (left == 0) word = rng.next_u64(), left = fields;
      const uint64_t pos = word & mask;
      word >>= bits_;
      --left;
      uint64_t& w = bitmap[pos >> 6];
      const uint64_t bit = uint64_t(1) << (pos & 63);
      if (w & bit) continue;  // a repeat: redraw
      w |= bit;
      out.push_back(begin + static_cast<int64_t>(pos));
      ++placed;
    }
    // The positions were appended as drawn; clear their bits for the next range.
    for (size_t i = first; i < out.size(); ++i) {
      const uint64_t pos = static_cast<uint64_t>(out[i] - begin);
      bitmap[pos >> 6] &= ~(uint64_t(1) << (pos & 63));
    }
  }

  /// N for a uniform u in (0, 1): the smallest k with u <= cdf(k).
  int64_t draw_count(double u) const {
    const size_t i = static_cast<size_t>(std::lower_bound(cdf_.begin(), cdf_.end() - 1, u) - cdf_.begin());
    return lo_ + static_cast<int64_t>(i);
  }

  /// E[N] / range() as the 53-bit uniforms of Rng::uniform() (u = (i + 1/2)
  /// 2^-53) select the table's entries: the inclusion probability realised.
  long double inclusion_rate() const {
    const long double grid = 9007199254740992.0L;  // 2^53
    long double mean = 0.0L, below = 0.0L;
    for (size_t i = 0; i < cdf_.size(); ++i) {
      // uniforms at or below cdf_[i]: i with (i + 1/2) 2^-53 <= c
      const long double upto =
          i + 1 == cdf_.size() ? grid : std::min(grid, std::floor(static_cast<long double>(cdf_[i]) * grid - 0.5L) + 1.0L);
      mean += (upto - below) * static_cast<long double>(lo_ + static_cast<int64_t>(i));
      below = upto;
    }
    return mean / grid / static_cast<long double>(m_);
  }
  int64_t table_low() const { return lo_; }
  int64_t table_high() const { return lo_ + static_cast<int64_t>(cdf_.size()) - 1; }

 private:
  void build_cdf(double q) {
    const double m = static_cast<double>(m_), odds = q / (1.0 - q);
    const int64_t mode = std::min<int64_t>(m_, static_cast<int64_t>(std::floor((m + 1.0) * q)));
    const double floor_w = 0x1p-80;
    std::vector<double> up{1.0}, down;
    for (int64_t k = mode; k < m_; ++k) {  // P(k + 1) / P(k)
      const double w = up.back() * (m - static_cast<double>(k)) / static_cast<double>(k + 1) * odds;
      if (w < floor_w) break;
      up.push_back(w);
    }
    for (int64_t k = mode; k > 0; --k) {  // P(k - 1) / P(k)
      const double w = (down.empty() ? 1.0 : down.back()) * static_cast<double>(k) /
                       (m - static_cast<double>(k) + 1.0) / odds;
      if (w < floor_w) break;
      down.push_back(w);
    }
    lo_ = mode - static_cast<int64_t>(down.size());
    std::vector<double> w(down.rbegin(), down.rend());
    w.insert(w.end(), up.begin(), up.end());
    long double total = 0.0L;
    for (double v : w) total += v;
    cdf_.resize(w.size());
    long double acc = 0.0L;
    for (size_t i = 0; i < w.size(); ++i) {
      acc += w[i];
      cdf_[i] = static_cast<double>(acc / total);
    }
    cdf_.back() = 1.0;
  }

  int bits_;
  int64_t m_;
  int64_t lo_ = 0;
  std::vector<double> cdf_;
};

}  // namespace pgbb

#endif  // PGBB_CORE_RANGE_SUBSETS_H
