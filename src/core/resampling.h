// Resampling for the one-shot confidence regions (CR paper, Section 4.1):
// without-replacement subsamples (WOR) and with-replacement m-out-of-n
// resamples (WR), the multiplicity bound kappa_star of eq. (4) (Proposition
// 4.1) and multiplicity-conditioned sampling (Algorithm 1).
//
// Plain C++17, no R headers. Resample i is always drawn from its own engine
// Rng::stream(seed, i, kIndexRounds), so the indices never depend on the data,
// on the order in which resamples are visited, or on how work is split among
// threads. The privacy proofs (Lemma D.1, Appendix F.2) fix a realisation of
// the indices and compare neighbouring data sets on it; the tests do exactly
// that. So the guarantee holds even for an adversary who knows the indices:
// they must be independent of the data and uniformly drawn, not secret, and
// the 8-round ChaCha draws them (kIndexRounds; rng.h).
#ifndef PGBB_CORE_RESAMPLING_H
#define PGBB_CORE_RESAMPLING_H

#include <cmath>
#include <cstdint>
#include <algorithm>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
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
/// multiply-shift method on 32-bit halves of each 64-bit output (low half
/// first; two draws per engine step; rejection keeps it exactly uniform).
/// below() and fill() consume the engine identically: fill(out, m, s) returns
/// what m calls of below(s) would.
class BoundedDraw {
 public:
  explicit BoundedDraw(Rng& rng) : rng_(rng) {}

  // Forced inline: these run millions of times per release, and out of line
  // (a call through the PLT in the shared library) they cost about 40% of the
  // resampling pass.
  __attribute__((always_inline)) uint32_t below(uint32_t s) {
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

  /// Floyd's algorithm for a uniformly random m-subset of {0..n-1} (in the
  /// order drawn): for j = n - m, ..., n - 1, r = below(j + 1), replaced by j if
  /// taken[r] is set; taken[] (n flags, zero on entry) is left set for the
  /// m results. Same engine use as m calls of below(), through the fast path of
  /// fill(): a half whose bound could reject goes to below().
  void floyd(uint32_t* out, int m, uint32_t n, uint8_t* taken) {
    uint32_t j = n - static_cast<uint32_t>(m);
    int t = 0;
    auto take = [&](uint32_t r) {
      if (taken[r]) r = j;
      taken[r] = 1;
      out[t++] = r;
      ++j;
    };
    while (t < m) {
      if (has_ || m - t < 2) { take(below(j + 1)); continue; }
      int avail = 0;
      const uint64_t* w = rng_.buffered(&avail);
      const int words = std::min(avail, (m - t) / 2);
      int k = 0;
      for (; k < words; ++k) {
        const uint64_t p0 = (w[k] & 0xffffffffULL) * (j + 1), p1 = (w[k] >> 32) * (j + 2);
        if (static_cast<uint32_t>(p0) < j + 1 || static_cast<uint32_t>(p1) < j + 2) break;
        take(static_cast<uint32_t>(p0 >> 32));
        take(static_cast<uint32_t>(p1 >> 32));
      }
      rng_.consume(k);
      if (k < words) take(below(j + 1));
    }
  }

  /// m draws below s into out[0..m-1]. Reads whole engine outputs straight
  /// from its buffer; a word with a half that would be rejected (probability
  /// below 2 s / 2^32) is left to below(), so the rejections, and hence every
  /// value and the engine's position afterwards, are those of below().
  void fill(uint32_t* out, int m, uint32_t s) {
    const uint32_t reject_below = static_cast<uint32_t>(-s) % s;  // low < this: rejected
    int t = 0;
    while (t < m) {
      if (has_ || m - t < 2) { out[t++] = below(s); continue; }
      int avail = 0;
      const uint64_t* w = rng_.buffered(&avail);
      const int words = std::min(avail, (m - t) / 2);
      int j = 0;
      for (; j < words; ++j) {
        const uint64_t p0 = (w[j] & 0xffffffffULL) * s, p1 = (w[j] >> 32) * s;
        if (static_cast<uint32_t>(p0) < reject_below || static_cast<uint32_t>(p1) < reject_below) break;
        out[t] = static_cast<uint32_t>(p0 >> 32);
        out[t + 1] = static_cast<uint32_t>(p1 >> 32);
        t += 2;
      }
      rng_.consume(j);
      if (j < words) out[t++] = below(s);  // the word with a rejection, through the exact path
    }
  }

 private:
  __attribute__((always_inline)) uint32_t next32() {
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
  Key seed{};         ///< resample i uses Rng::stream(seed, i, kIndexRounds)

  void validate() const {
    if (n < 2) throw std::invalid_argument("resampling: 'n' must be at least 2");
    if (m < 1 || m > n) throw std::invalid_argument("resampling: 'm' must be between 1 and n");
    if (B < 1) throw std::invalid_argument("resampling: 'B' must be at least 1");
  }
};

/// Rounds of the generator of the resample indices: ChaCha8 (see the file
/// comment). The keystream is about half of a CR-GS release's time, and
/// ChaCha8 computes it with 8 of ChaCha20's 20 rounds.
constexpr ChaChaRounds kIndexRounds = ChaChaRounds::k8;

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
    count8_.assign(static_cast<size_t>(plan_.n), 0);
  }

  /// Resample i into idx[0..m-1]. Returns the largest multiplicity seen if it
  /// exceeds kappa (WR with a threshold; the resample is then rejected, Algorithm
  /// 1), else 0.
  int draw(int i, uint32_t* idx) {
    last_mult_ = 0;
    Rng rng = Rng::stream(plan_.seed, static_cast<uint64_t>(i), kIndexRounds);
    BoundedDraw bd(rng);
    const int m = plan_.m;
    const uint32_t n = static_cast<uint32_t>(plan_.n);
    if (plan_.mode == ResampleMode::WOR) {
      floyd(bd, idx);
      last_mult_ = 1;
      return 0;
    }
    bd.fill(idx, m, n);
    if (plan_.kappa <= 0) return 0;
    const unsigned mx = max_multiplicity_of(idx, m);
    last_mult_ = static_cast<int>(mx);
    return mx > static_cast<unsigned>(plan_.kappa) ? static_cast<int>(mx) : 0;
  }

  /// Multiplicity kappa(S_i) of the resample drawn last, when the plan has a
  /// threshold (WR with kappa > 0) or is WOR (1); 0 when it was not computed.
  int last_multiplicity() const { return last_mult_; }

  /// Largest multiplicity among m indices, exact for any m. One byte counter per
  /// record (n bytes, mostly in L1/L2 cache); a count that reaches 255 could
  /// wrap, so such a resample is recounted with 32-bit counters: an under-count
  /// would under-state a sensitivity. Leaves all scratch zeroed.
  unsigned max_multiplicity_of(const uint32_t* idx, int m) {
    uint8_t* cnt = count8_.data();
    unsigned mx = 0;
    for (int t = 0; t < m; ++t) {
      const unsigned c = ++cnt[idx[t]];
      mx = c > mx ? c : mx;
    }
    return finish_count(idx, m, mx);
  }

  const ResamplePlan& plan() const { return plan_; }

 private:
  // Resets the byte counters after a pass that saw maximum `mx` (a byte count
  // passes through 255 before it can wrap, so mx < 255 means no counter
  // wrapped) and returns the exact maximum.
  unsigned finish_count(const uint32_t* idx, int m, unsigned mx) {
    reset_counts(idx, m);
    if (mx < 255u) return mx;
    if (count32_.empty()) count32_.assign(static_cast<size_t>(plan_.n), 0u);
    uint32_t* c32 = count32_.data();
    uint32_t exact = 0u;
    for (int t = 0; t < m; ++t) {
      const uint32_t c = ++c32[idx[t]];
      exact = c > exact ? c : exact;
    }
    for (int t = 0; t < m; ++t) c32[idx[t]] = 0u;
    return exact;
  }

  // Zeroing all n counters is one memset, which streams tens of bytes per
  // cycle; m scattered byte stores cost a few cycles each. The memset wins
  // unless the resample is tiny against n (n = 50000, m = 4622: count and reset
  // took 2.5 ms with the memset against 4.2 ms with the scattered stores, over
  // 500 resamples).
  void reset_counts(const uint32_t* idx, int m) {
    if (static_cast<int64_t>(plan_.n) <= 64 * static_cast<int64_t>(m)) {
      std::fill(count8_.begin(), count8_.end(), uint8_t{0});
    } else {
      uint8_t* cnt = count8_.data();
      for (int t = 0; t < m; ++t) cnt[idx[t]] = 0;
    }
  }

  // Floyd's algorithm: a uniformly random m-subset in O(m). Step j (from n - m
  // to n - 1) draws r below j + 1 and takes j instead if r is already taken.
  // The byte counters serve as the membership flags.
  void floyd(BoundedDraw& bd, uint32_t* idx) {
    const int m = plan_.m;
    uint8_t* taken = count8_.data();
    bd.floyd(idx, m, static_cast<uint32_t>(plan_.n), taken);
    reset_counts(idx, m);
  }

  ResamplePlan plan_;
  std::vector<uint8_t> count8_;
  std::vector<uint32_t> count32_;
  int last_mult_ = 0;
};

/// @brief Outcome of a pass over all resamples.
struct ResamplePass {
  int failed_at = -1;      ///< first resample whose multiplicity exceeded kappa (0-based), or -1
  int failed_mult = 0;     ///< that multiplicity
  int max_mult = 0;        ///< largest realised multiplicity over the visited resamples (0: not computed)
};

/// @brief Visit resamples 0..B-1 in order, calling visit(i, idx, m), or
/// visit(i, idx, m, kappa_i) for a visitor that takes the resample's realised
/// multiplicity too (0 where the plan does not count it: WR without a
/// threshold). Stops at the first resample that fails the multiplicity check
/// (Algorithm 1 returns bottom; the outcome is the same whichever resample is
/// visited first, since each is drawn from its own stream). `stop` is polled
/// every 64 resamples (Interrupted, stop.h).
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
    if constexpr (std::is_invocable_v<Visit, int, const uint32_t*, int, int>)
      visit(i, idx.data(), plan.m, rs.last_multiplicity());
    else
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
/// ignored (no resample is rejected). Counts are exact for any m (a resample whose byte
/// counter reaches 255 is recounted in 32 bits, Resampler::max_multiplicity_of):
/// an under-count would under-state a sensitivity.
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
