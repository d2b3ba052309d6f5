// Resampling for the one-shot confidence regions (CR paper, Section 4.1):
// without-replacement subsamples (WOR) and with-replacement m-out-of-n
// resamples (WR), the multiplicity bound kappa_star of eq. (4) (Proposition
// 4.1) and multiplicity-conditioned sampling (Algorithm 1).
//
// Plain C++17, no R headers. Resample i is always drawn from its own engine
// Rng::stream(seed, i), so the indices never depend on the data, on the order
// in which resamples are visited, or on how work is split among threads. The
// privacy proofs (Lemma D.1, Appendix F.2) fix a realisation of the indices and
// compare neighbouring data sets on it; the tests do exactly that.
#ifndef PGBB_CORE_RESAMPLING_H
#define PGBB_CORE_RESAMPLING_H

#include <cmath>
#include <cstdint>
#include <algorithm>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "rng.h"
#include "stop.h"

namespace pgbb {

/// @brief Principal branch W0 of the Lambert W function on [-1/e, inf):
/// the solution w >= -1 of w e^w = x. Halley iteration on w e^w - x below e,
/// Newton on w + log w = log x above (no overflow for x up to DBL_MAX).
inline double lambert_w0(double x) {
  const double e = 2.718281828459045235;
  if (std::isnan(x)) return x;
  if (x < -1.0 / e) {
    if (x > -1.0 / e - 1e-15) return -1.0;  // rounding at the branch point
    throw std::invalid_argument("lambert_w0: argument must be >= -1/e");
  }
  if (x == 0.0) return 0.0;
  if (std::isinf(x)) return x;
  double w;
  if (x > e) {
    const double lx = std::log(x);
    w = lx - std::log(lx);
    for (int it = 0; it < 100; ++it) {
      const double f = w + std::log(w) - lx;
      const double wn = w - f / (1.0 + 1.0 / w);
      if (std::fabs(wn - w) <= 4.0 * std::numeric_limits<double>::epsilon() * std::fabs(wn)) { w = wn; break; }
      w = wn;
    }
    return w;
  }
  // Series near the branch point, log1p elsewhere, then Halley.
  if (x < -0.3) {
    const double p = std::sqrt(2.0 * (e * x + 1.0));
    w = -1.0 + p - p * p / 3.0 + 11.0 / 72.0 * p * p * p;
  } else {
    w = std::log1p(x);
    if (x > 0.5) w *= 0.9;
  }
  for (int it = 0; it < 100; ++it) {
    const double ew = std::exp(w);
    const double f = w * ew - x;
    const double wp1 = w + 1.0;
    if (wp1 == 0.0) break;
    const double wn = w - f / (ew * wp1 - (w + 2.0) * f / (2.0 * wp1));
    if (std::fabs(wn - w) <= 4.0 * std::numeric_limits<double>::epsilon() * (1.0 + std::fabs(wn))) { w = wn; break; }
    w = wn;
  }
  return w;
}

/// @brief kappa_star(n, m, B, rho) of eq. (4):
///   min{ m, ceil( A / W0(n A / (m e)) ) - 1 },  A = log(B n / rho).
/// k0 = A / W0(n A / (m e)) solves k log(k n / (e m)) = A exactly, so any
/// multiplicity threshold kappa with kappa + 1 >= k0 makes the Chernoff bound
/// (10) at most rho / (B n) and the union bound (9) at most rho. Because the
/// ceiling of a floating-point k0 can land one below the true ceiling, the
/// result is checked against the defining inequality and raised if needed.
inline int kappa_star(double n, double m, double B, double rho) {
  if (!(n >= 2)) throw std::invalid_argument("kappa_star: 'n' must be at least 2");
  if (!(m >= 1 && m <= n)) throw std::invalid_argument("kappa_star: 'm' must be between 1 and n");
  if (!(B >= 1)) throw std::invalid_argument("kappa_star: 'B' must be at least 1");
  if (!(rho > 0 && rho < 1)) throw std::invalid_argument("kappa_star: 'rho' must be in (0, 1)");
  const double A = std::log(B) + std::log(n) - std::log(rho);
  const double z = std::exp(std::log(n) - std::log(m) - 1.0 + std::log(A));
  const double k0 = A / lambert_w0(z);
  double kap = std::ceil(k0) - 1.0;
  if (kap < 1.0) kap = 1.0;
  // Defining inequality for the failure bound: (kappa+1) log((kappa+1) n / (e m)) >= A.
  while (kap < m && (kap + 1.0) * (std::log(kap + 1.0) + std::log(n) - std::log(m) - 1.0) < A) kap += 1.0;
  if (kap > m) kap = m;
  return static_cast<int>(kap);
}

enum class ResampleMode { WR, WOR };

inline ResampleMode resample_mode_from(const std::string& s) {
  if (s == "wr") return ResampleMode::WR;
  if (s == "wor") return ResampleMode::WOR;
  throw std::invalid_argument("resampling mode must be \"wr\" or \"wor\"");
}

/// @brief Unbiased bounded integers from the package engine by Lemire's
/// multiply-shift method on 32-bit halves of each 64-bit output (two draws per
/// engine step; rejection keeps it exactly uniform).
class BoundedDraw {
 public:
  explicit BoundedDraw(Rng& rng) : rng_(rng) {}
  uint32_t below(uint32_t s) {
    uint64_t prod = static_cast<uint64_t>(next32()) * s;
    uint32_t low = static_cast<uint32_t>(prod);
    if (low < s) {
      const uint32_t t = static_cast<uint32_t>(-s) % s;
      while (low < t) {
        prod = static_cast<uint64_t>(next32()) * s;
        low = static_cast<uint32_t>(prod);
      }
    }
    return static_cast<uint32_t>(prod >> 32);
  }

 private:
  uint32_t next32() {
    if (has_) { has_ = false; return static_cast<uint32_t>(buf_ >> 32); }
    buf_ = rng_.next_u64();
    has_ = true;
    return static_cast<uint32_t>(buf_);
  }
  Rng& rng_;
  uint64_t buf_ = 0;
  bool has_ = false;
};

/// @brief Public description of B resamples of size m from n records.
struct ResamplePlan {
  int n = 0;
  int m = 0;
  int B = 0;
  ResampleMode mode = ResampleMode::WR;
  int kappa = 0;       ///< WR multiplicity threshold (Algorithm 1); <= 0 means no check
  Key seed{};         ///< resample i uses Rng::stream(seed, i)

  void validate() const {
    if (n < 2) throw std::invalid_argument("resampling: 'n' must be at least 2");
    if (m < 1 || m > n) throw std::invalid_argument("resampling: 'm' must be between 1 and n");
    if (B < 1) throw std::invalid_argument("resampling: 'B' must be at least 1");
  }
};

/// Streams at or above this offset are reserved for randomness other than the
/// resample indices (per-resample SGD permutations, release noise), so they can
/// never coincide with an index stream.
constexpr uint64_t kPermutationStreamBase = 1ULL << 40;
constexpr uint64_t kNoiseStream = 1ULL << 50;

/// @brief Draws resample indices (0-based) into caller buffers, reusing O(n)
/// scratch that is reset after every resample, so the cost is O(m) per resample.
class Resampler {
 public:
  explicit Resampler(const ResamplePlan& plan) : plan_(plan) {
    plan_.validate();
    count16_.assign(static_cast<size_t>(plan_.n), 0);
    bits_.assign((static_cast<size_t>(plan_.n) + 63) / 64, 0ULL);
    dups_.reserve(static_cast<size_t>(plan_.m));
  }

  /// Resample i into idx[0..m-1]. Returns the largest multiplicity seen if it
  /// exceeds kappa (WR with a threshold; the resample is then rejected, Algorithm
  /// 1), else 0.
  ///
  /// Multiplicities are found with a bitset of first occurrences and counters for
  /// repeats only (max_multiplicity_bits); thresholds of 65535 or more use 32-bit
  /// counters.
  int draw(int i, uint32_t* idx) {
    last_mult_ = 0;
    Rng rng = Rng::stream(plan_.seed, static_cast<uint64_t>(i));
    BoundedDraw bd(rng);
    const int m = plan_.m;
    const uint32_t n = static_cast<uint32_t>(plan_.n);
    int over = 0;
    if (plan_.mode == ResampleMode::WR) {
      if (plan_.kappa <= 0) {
        for (int t = 0; t < m; ++t) idx[t] = bd.below(n);
      } else if (plan_.kappa < 65535 && m < 65534) {
        for (int t = 0; t < m; ++t) idx[t] = bd.below(n);
        const unsigned mx = max_multiplicity_bits(idx, m);
        last_mult_ = static_cast<int>(mx);
        if (mx > static_cast<unsigned>(plan_.kappa)) over = static_cast<int>(mx);
      } else {  // 32-bit counters: exact for any m
        if (count32_.empty()) count32_.assign(static_cast<size_t>(plan_.n), 0u);
        const uint32_t kap = static_cast<uint32_t>(plan_.kappa);
        uint32_t mx = 0u;
        for (int t = 0; t < m; ++t) {
          const uint32_t j = bd.below(n);
          idx[t] = j;
          const uint32_t c = ++count32_[j];
          if (c > mx) mx = c;
        }
        for (int t = 0; t < m; ++t) count32_[idx[t]] = 0u;
        last_mult_ = static_cast<int>(mx);
        if (mx > kap) over = static_cast<int>(mx);
      }
    } else {
      // Floyd's algorithm: a uniformly random m-subset in O(m).
      uint64_t* bits = bits_.data();
      int t = 0;
      for (uint32_t j = n - static_cast<uint32_t>(m); j < n; ++j) {
        uint32_t r = bd.below(j + 1);
        if (bits[r >> 6] & (1ULL << (r & 63))) r = j;
        bits[r >> 6] |= 1ULL << (r & 63);
        idx[t++] = r;
      }
      std::fill(bits_.begin(), bits_.end(), 0ULL);
      last_mult_ = 1;
    }
    return over;
  }

  /// Multiplicity kappa(S_i) of the resample drawn last, when the plan has a
  /// threshold (WR with kappa > 0) or is WOR (1); 0 when it was not computed.
  int last_multiplicity() const { return last_mult_; }

  /// Fused draw for a scalar mean (the benchmarked hot path): draws resample i,
  /// checks multiplicities, and accumulates sum_t x[idx_t] in the pass that resets
  /// the counters, so the resample is visited three times instead of four.
  /// Same indices and same accept/reject decision as draw().
  int draw_sum(int i, uint32_t* idx, const double* x, double* sum) {
    if (plan_.mode != ResampleMode::WR || plan_.kappa <= 0 || plan_.kappa >= 65535 || plan_.m >= 65534) {
      const int over = draw(i, idx);
      double s0 = 0, s1 = 0;
      int t = 0;
      for (; t + 1 < plan_.m; t += 2) { s0 += x[idx[t]]; s1 += x[idx[t + 1]]; }
      for (; t < plan_.m; ++t) s0 += x[idx[t]];
      *sum = s0 + s1;
      return over;
    }
    Rng rng = Rng::stream(plan_.seed, static_cast<uint64_t>(i));
    BoundedDraw bd(rng);
    const int m = plan_.m;
    const uint32_t n = static_cast<uint32_t>(plan_.n);
    for (int t = 0; t < m; ++t) idx[t] = bd.below(n);
    // One pass: first-occurrence bits (as in max_multiplicity_bits) and the sum.
    uint64_t* bits = bits_.data();
    dups_.resize(static_cast<size_t>(m) + 1);
    uint32_t* dp = dups_.data();
    int nd = 0;
    double s0 = 0, s1 = 0;
    int t = 0;
    for (; t + 1 < m; t += 2) {
      const uint32_t j0 = idx[t], j1 = idx[t + 1];
      s0 += x[j0];
      s1 += x[j1];
      uint64_t& w0 = bits[j0 >> 6];
      dp[nd] = j0;
      nd += static_cast<int>((w0 >> (j0 & 63)) & 1ULL);
      w0 |= 1ULL << (j0 & 63);
      uint64_t& w1 = bits[j1 >> 6];
      dp[nd] = j1;
      nd += static_cast<int>((w1 >> (j1 & 63)) & 1ULL);
      w1 |= 1ULL << (j1 & 63);
    }
    for (; t < m; ++t) {
      const uint32_t j = idx[t];
      s0 += x[j];
      uint64_t& w = bits[j >> 6];
      dp[nd] = j;
      nd += static_cast<int>((w >> (j & 63)) & 1ULL);
      w |= 1ULL << (j & 63);
    }
    *sum = s0 + s1;
    unsigned mx = 1u;
    uint16_t* cnt = count16_.data();
    for (int k = 0; k < nd; ++k) {
      const unsigned c = static_cast<unsigned>(cnt[dp[k]]) + 1u;
      cnt[dp[k]] = static_cast<uint16_t>(c < 65534u ? c : 65534u);
      if (c + 1u > mx) mx = c + 1u;
    }
    for (int k = 0; k < nd; ++k) cnt[dp[k]] = 0;
    std::fill(bits_.begin(), bits_.end(), 0ULL);
    last_mult_ = static_cast<int>(mx);
    return mx > static_cast<unsigned>(plan_.kappa) ? static_cast<int>(mx) : 0;
  }

  /// Largest multiplicity among m indices: a bitset of n bits (in L1 cache for
  /// n up to ~500000) flags first occurrences; only repeated indices (about
  /// m^2 / 2n of them) touch the 16-bit counters. Leaves all scratch zeroed.
  unsigned max_multiplicity_bits(const uint32_t* idx, int m) {
    uint64_t* bits = bits_.data();
    dups_.resize(static_cast<size_t>(m) + 1);
    uint32_t* dp = dups_.data();
    int nd = 0;
    for (int t = 0; t < m; ++t) {  // branch-free: record always, keep if already seen
      const uint32_t j = idx[t];
      uint64_t& word = bits[j >> 6];
      dp[nd] = j;
      nd += static_cast<int>((word >> (j & 63)) & 1ULL);
      word |= 1ULL << (j & 63);
    }
    dups_.resize(static_cast<size_t>(nd));
    unsigned mx = m > 0 ? 1u : 0u;
    uint16_t* cnt = count16_.data();
    for (uint32_t j : dups_) {
      const unsigned c = static_cast<unsigned>(cnt[j]) + 1u;  // extra occurrences
      cnt[j] = static_cast<uint16_t>(c < 65534u ? c : 65534u);
      if (c + 1u > mx) mx = c + 1u;
    }
    for (uint32_t j : dups_) cnt[j] = 0;
    std::fill(bits_.begin(), bits_.end(), 0ULL);
    return mx;
  }

  const ResamplePlan& plan() const { return plan_; }

 private:
  ResamplePlan plan_;
  std::vector<uint16_t> count16_;
  std::vector<uint64_t> bits_;
  std::vector<uint32_t> dups_;
  std::vector<uint32_t> count32_;
  int last_mult_ = 0;
};

/// @brief Outcome of a pass over all resamples.
struct ResamplePass {
  int failed_at = -1;      ///< first resample whose multiplicity exceeded kappa (0-based), or -1
  int failed_mult = 0;     ///< that multiplicity
  int max_mult = 0;        ///< largest realised multiplicity over the visited resamples (0: not computed)
};

/// @brief Visit resamples 0..B-1 in order, calling visit(i, idx, m). Stops at
/// the first resample that fails the multiplicity check (Algorithm 1 returns
/// bottom; the outcome is the same whichever resample is visited first, since
/// each is drawn from its own stream). `stop` is polled every 64 resamples
/// (Interrupted, stop.h).
template <class Visit>
ResamplePass for_each_resample(const ResamplePlan& plan, Visit&& visit,
                               const StopCallback& stop = nullptr) {
  Resampler rs(plan);
  std::vector<uint32_t> idx(static_cast<size_t>(plan.m));
  ResamplePass pass;
  for (int i = 0; i < plan.B; ++i) {
    poll_stop(stop, i + 1, 64);
    const int over = rs.draw(i, idx.data());
    if (over > 0) {
      pass.failed_at = i;
      pass.failed_mult = over;
      return pass;
    }
    pass.max_mult = std::max(pass.max_mult, rs.last_multiplicity());
    visit(i, idx.data(), plan.m);
  }
  return pass;
}

/// @brief Largest multiplicity of any record in one resample (diagnostics and tests).
inline int max_multiplicity(const uint32_t* idx, int m, std::vector<uint32_t>& scratch) {
  int mx = 0;
  for (int t = 0; t < m; ++t) {
    const int c = static_cast<int>(++scratch[idx[t]]);
    if (c > mx) mx = c;
  }
  for (int t = 0; t < m; ++t) scratch[idx[t]] = 0u;
  return mx;
}

/// @brief Realised multiplicity kappa(S_i) (Section 4.1) of every resample of the
/// plan: the largest number of times any record occurs in S_i (1 without
/// replacement). A function of the indices only, never of the data, so a release
/// may be calibrated to it: the privacy proofs fix a realisation of the indices
/// (Appendix D, F.2), and on that realisation neighbouring data sets differ in at
/// most kappa(S_i) entries of D[S_i]. The multiplicity threshold of the plan is
/// ignored (no resample is rejected). Counts are exact for any m (Resampler::draw
/// switches to 32-bit counters before the 16-bit ones could saturate): an
/// under-count would under-state a sensitivity.
inline std::vector<int> resample_multiplicities(ResamplePlan plan, const StopCallback& stop = nullptr) {
  plan.kappa = plan.m;  // a multiplicity never exceeds m: every resample is counted, none rejected
  std::vector<int> out(static_cast<size_t>(plan.B), 1);
  if (plan.mode == ResampleMode::WOR) return out;
  Resampler rs(plan);
  std::vector<uint32_t> idx(static_cast<size_t>(plan.m));
  for (int i = 0; i < plan.B; ++i) {
    poll_stop(stop, i + 1, 64);
    rs.draw(i, idx.data());
    out[static_cast<size_t>(i)] = rs.last_multiplicity();
  }
  return out;
}

}  // namespace pgbb

#endif  // PGBB_CORE_RESAMPLING_H
