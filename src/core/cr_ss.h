// CR-SS: one-shot private confidence regions for estimators with a computable
// beta-smooth sensitivity bound (CR paper, Section 5, Algorithms 3 and 4,
// Lemmas 5.4 and 5.5, Theorem 5.6), for sample quantiles (Section 6.1, Lemma
// 6.1, Appendix G.1) and for the degenerate U-statistic with kernel
// h(x, y) = x y (Section 7.2; the smooth sensitivity bound is derived below).
//
// Plain C++17, no R headers.
#ifndef PGBB_CORE_CR_SS_H
#define PGBB_CORE_CR_SS_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <utility>
#include <stdexcept>
#include <vector>

#include "cr_gs.h"
#include "gdp.h"
#include "resampling.h"
#include "rng.h"

namespace pgbb {

namespace ss_detail {

/// LSD radix sort of unsigned keys below 2^bits (8-bit digits), O(passes * m).
inline void radix_sort_u32(uint32_t* a, uint32_t* tmp, int m, int bits) {
  const int passes = std::max(1, (bits + 7) / 8);
  uint32_t* src = a;
  uint32_t* dst = tmp;
  uint32_t count[256];
  for (int p = 0; p < passes; ++p) {
    const int shift = 8 * p;
    std::fill(count, count + 256, 0u);
    for (int t = 0; t < m; ++t) ++count[(src[t] >> shift) & 255u];
    uint32_t sum = 0;
    for (int k = 0; k < 256; ++k) { const uint32_t c = count[k]; count[k] = sum; sum += c; }
    for (int t = 0; t < m; ++t) dst[count[(src[t] >> shift) & 255u]++] = src[t];
    std::swap(src, dst);
  }
  if (src != a) std::copy(src, src + m, a);
}

inline int bits_for(uint32_t n) {
  int b = 1;
  while (b < 32 && (n - 1) >> b) ++b;
  return b;
}


/// Sorted copy of x and the rank of every record (ties broken by index).
inline void sort_with_ranks(const double* x, int n, std::vector<double>& xs, std::vector<uint32_t>& rank) {
  std::vector<std::pair<double, uint32_t>> pr(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) pr[i] = {x[i], static_cast<uint32_t>(i)};
  std::sort(pr.begin(), pr.end());
  xs.resize(n);
  rank.resize(n);
  for (int r = 0; r < n; ++r) {
    xs[r] = pr[r].first;
    rank[pr[r].second] = static_cast<uint32_t>(r);
  }
}

/// The order statistics at 1-based positions [pl, pr] of m unsorted keys
/// (below 2^bits): one counting pass over the top 8 bits, one pass collecting
/// the buckets that hold the window, and a radix sort of those only. On return
/// win[0..] are sorted and win[0] is the key at position *base + 1.
inline void select_window(const uint32_t* keys, int m, int bits, int pl, int pr, std::vector<uint32_t>& win,
                          std::vector<uint32_t>& tmp, int* base) {
  const int shift = bits > 8 ? bits - 8 : 0;
  uint32_t count[257];
  std::fill(count, count + 257, 0u);
  for (int t = 0; t < m; ++t) ++count[(keys[t] >> shift) + 1];
  for (int b = 1; b < 257; ++b) count[b] += count[b - 1];  // count[b] = #keys in buckets < b
  int bl = 0, br = 255;
  while (bl < 255 && static_cast<int>(count[bl + 1]) < pl) ++bl;   // bucket holding position pl
  br = bl;
  while (br < 255 && static_cast<int>(count[br + 1]) < pr) ++br;   // bucket holding position pr
  *base = static_cast<int>(count[bl]);
  const int k = static_cast<int>(count[br + 1] - count[bl]);
  win.resize(static_cast<size_t>(m) + 1);
  tmp.resize(static_cast<size_t>(k));
  const uint32_t lo = static_cast<uint32_t>(bl), span = static_cast<uint32_t>(br - bl);
  uint32_t* out = win.data();
  int w = 0;
  for (int t = 0; t < m; ++t) {  // branch-free: write always, advance if in range
    const uint32_t key = keys[t];
    out[w] = key;
    w += ((key >> shift) - lo) <= span;  // unsigned wrap-around rejects buckets below lo
  }
  win.resize(static_cast<size_t>(k));
  radix_sort_u32(win.data(), tmp.data(), k, bits);
}

}  // namespace ss_detail

/// @brief 1-based index h = ceil(p N) of the p-th sample quantile x_(h)
/// (Lemma 6.1 with p = 1 - zeta); the 1e-9 guard keeps p N = 0.3 * 10 at 3.
inline int quantile_index(double p, int N) {
  if (!(p > 0 && p < 1)) throw std::invalid_argument("'prob' must be in (0, 1)");
  int h = static_cast<int>(std::ceil(p * N - 1e-9));
  return std::min(std::max(h, 1), N);
}

/// @brief Truncation point of Lemma 6.1: k* = ceil(max(0, (log((u - l)/C) + 3 log N) / beta)),
/// so that e^{-k* beta} (u - l) <= C / N^3.
inline int quantile_kstar(int N, double beta, double width, double C) {
  if (!(beta > 0)) throw std::invalid_argument("smooth sensitivity: 'beta' must be positive");
  if (!(width > 0)) throw std::invalid_argument("smooth sensitivity: bounds must satisfy lower < upper");
  if (!(C > 0)) throw std::invalid_argument("smooth sensitivity: 'C' must be positive");
  const double k = (std::log(width / C) + 3.0 * std::log(static_cast<double>(N))) / beta;
  if (!(k > 0)) return 0;
  if (k > 1e9) throw std::invalid_argument("smooth sensitivity: truncation point k* is too large; increase 'beta' or 'C'");
  return static_cast<int>(std::ceil(k));
}

/// @brief beta-smooth upper bound on the local sensitivity of the order statistic
/// x_(h) of N values in [lo, hi] (Nissim, Raskhodnikova & Smith 2007; Lemma 6.1):
///
///   SS(D) = max( max_{0<=k<=k*} e^{-k beta} A_k(D),  e^{-(k*+1) beta} (hi - lo) ),
///   A_k(D) = max_{0<=t<=k+1} ( x_(h+t) - x_(h+t-k-1) ),  x_(j) = lo (j<1), hi (j>N),
///
/// A_k being the largest local sensitivity within distance k. Why this form and
/// not the paper's "max_{k<=k*} ... + C/N^3": the additive slack is not
/// beta-smooth when every spacing in the window vanishes (ties), whereas this
/// max-form is (for k < k*, e^{-k beta} A_k(D) <= e^beta e^{-(k+1) beta} A_{k+1}(D');
/// the k* term and the floor are bounded by e^beta times the floor), it dominates
/// the exact smooth sensitivity (every term with k > k* is below the floor), and it
/// never exceeds the paper's bound (a max of two non-negatives is at most their sum
/// and the floor is at most C/N^3).
///
/// Computation: A_k terms are the pairs (a, b) with a <= h <= b and
/// b - a - 1 = k, valued e^{-beta(b-a-1)} (x_b - x_a). Pairs inside the window
/// a >= h-k*-1, b <= h+k*+1 with b - a - 1 > k* are below the floor, so the maximum
/// over all window pairs and the floor is exactly SS. For fixed b the best a
/// maximises e^{beta a}(x_b - x_a), whose argmax is non-decreasing in b (the gain of a
/// larger a grows with x_b), so a divide-and-conquer over b with shrinking a-ranges
/// finds it in O(k* log k*) value comparisons (no intersection arithmetic).
/// `v(j)` returns x_(j) for 1 <= j <= N; `wdec[s]` = e^{-beta s} for 0 <= s <= k*+1.
/// With `with_floor = false` the floor term is left out (a maximum over pairs only).
template <class Access>
double order_stat_smooth_sensitivity(const Access& v, int N, int h, double beta, double lo, double hi, int kstar,
                                     const double* wdec, bool with_floor = true) {
  const int aL = std::max(0, h - kstar - 1);
  const int bR = std::min(N + 1, h + kstar + 1);
  auto val = [&](int j) { return j <= 0 ? lo : (j >= N + 1 ? hi : v(j)); };
  // Cache the window's order statistics once.
  std::vector<double> xa(static_cast<size_t>(h - aL + 1)), xb(static_cast<size_t>(bR - h + 1));
  for (int a = aL; a <= h; ++a) xa[a - aL] = val(a);
  for (int b = h; b <= bR; ++b) xb[b - h] = val(b);
  double best = 0.0;
  // Explicit stack for the divide and conquer over b in [bl, br] with a in [al, ar].
  struct Frame { int bl, br, al, ar; };
  std::vector<Frame> stack;
  stack.push_back({h, bR, aL, h});
  while (!stack.empty()) {
    const Frame f = stack.back();
    stack.pop_back();
    if (f.bl > f.br) continue;
    const int mid = f.bl + (f.br - f.bl) / 2;
    const double xm = xb[mid - h];
    int bestA = f.al;
    double bestV = -1.0;
    for (int a = f.al; a <= f.ar; ++a) {
      const double g = wdec[h - a] * (xm - xa[a - aL]);
      if (g >= bestV) { bestV = g; bestA = a; }  // ties -> largest a keeps the argmax monotone
    }
    const double total = bestV * wdec[mid - h];
    if (total > best) best = total;
    stack.push_back({f.bl, mid - 1, f.al, bestA});
    stack.push_back({mid + 1, f.br, bestA, f.ar});
  }
  best *= std::exp(beta);  // e^{-beta (b - a - 1)} = e^beta e^{-beta (h - a)} e^{-beta (b - h)}
  if (!with_floor) return best;
  const double floor_term = wdec[kstar + 1] * (hi - lo);
  return std::max(best, floor_term);
}

/// @brief Precomputed e^{-beta s}, s = 0..kstar+1.
inline std::vector<double> decay_weights(double beta, int kstar) {
  std::vector<double> w(static_cast<size_t>(kstar) + 2);
  for (size_t s = 0; s < w.size(); ++s) w[s] = std::exp(-beta * static_cast<double>(s));
  return w;
}

/// @brief beta-smooth sensitivity bound for the degenerate U-statistic of
/// Section 7.2, U_N = (N choose 2)^{-1} sum_{i<j} x_i x_j on [lo, hi].
///
/// Derivation (the changes of sum x and sum x^2). Write S1 = sum x_i,
/// S2 = sum x_i^2, so U = (S1^2 - S2) / (N (N - 1)). Replacing x_i by y changes S1 by
/// d = y - x_i and S2 by y^2 - x_i^2 = d (2 x_i + d), hence
///     U' - U = (2 S1 d + d^2 - d (2 x_i + d)) / (N (N-1)) = 2 d (S1 - x_i) / (N (N-1)):
/// the S2 change cancels the quadratic part exactly, and
///     LS(D) = 2 / (N (N-1)) * max_i max_y |y - x_i| |O_i|,   O_i = S1 - x_i (sum of the others)
///           <= c * max_i |O_i|,   c = 2 (hi - lo) / (N (N-1)).
/// Distance k. Let x_(1) <= ... <= x_(N). For D'' within Hamming distance k of D and
/// any i, O_i'' is the sum of N - 1 entries of D'' of which at most k were changed
/// (each into [lo, hi]); so
///     L_k <= O_i'' <= U_k,  U_k = k hi + (sum of the N-k-1 largest x),
///                           L_k = k lo + (sum of the N-k-1 smallest x),
/// (the largest O keeps the N-k-1 largest originals and sets the k changed ones to
/// hi; symmetrically for the smallest). Hence LS(D'') <= A_k(D) := c max(U_k, -L_k)
/// for k <= N - 1, and A_k = A_{N-1} = c (N-1) max(hi, -lo) for k >= N - 1.
/// A_0 = c max_i |S1 - x_i| >= LS(D). For neighbours D ~ D' (one value changed), the
/// N-k-1 largest values of D include at most one value not in D', whose
/// contribution is at most hi, so U_k(D) <= U_{k+1}(D'); likewise L_k(D) >= L_{k+1}(D').
/// Therefore A_k(D) <= A_{k+1}(D'), and by Nissim et al. (2007, Lemma 2.3 /
/// Claim 3.2) SS(D) = max_k e^{-k beta} A_k(D) is a beta-smooth upper bound on LS:
///     SS(D) <= max_k e^{-k beta} A_{k+1}(D') = e^beta max_{k>=1} e^{-k beta} A_k(D') <= e^beta SS(D').
/// Computation: U_{k+1} - U_k <= hi - lo and the same for -L, so for k' >= k,
/// e^{-k' beta} A_{k'} <= e^{-k beta} c max_{t>=0} e^{-t beta} (R_k + t (hi - lo)),
/// R_k = max(U_k, -L_k), which ends the scan over k once below the running maximum.
/// `y(j)` returns the j-th smallest value (1-based), `S1` their sum.
template <class Access>
double ustat_product_smooth_sensitivity(const Access& y, int N, double S1, double beta, double lo, double hi) {
  if (N < 2) throw std::invalid_argument("U-statistic smooth sensitivity needs N >= 2");
  if (!(beta > 0)) throw std::invalid_argument("smooth sensitivity: 'beta' must be positive");
  const double w = hi - lo;
  const double c = 2.0 * w / (static_cast<double>(N) * (static_cast<double>(N) - 1.0));
  double small = 0.0, large = 0.0;  // sums of the k+1 smallest / largest values
  double best = 0.0;
  for (int k = 0; k <= N - 1; ++k) {
    small += y(k + 1);
    large += y(N - k);
    const double U = k * hi + (S1 - small);   // sum of the N-k-1 largest = S1 - (k+1 smallest)
    const double L = k * lo + (S1 - large);   // sum of the N-k-1 smallest = S1 - (k+1 largest)
    const double R = std::max(U, -L);
    const double term = std::exp(-beta * k) * c * R;
    if (term > best) best = term;
    // Upper bound on every later term; stop once it cannot beat `best`.
    const double tstar = 1.0 / beta - R / w;
    const double M = tstar <= 0 ? R : (w / beta) * std::exp(-(1.0 - beta * R / w));
    if (std::exp(-beta * k) * c * M <= best) break;
  }
  return best;
}

/// @brief An estimator with a beta-smooth sensitivity bound evaluated on the full
/// data and on resamples (each resample viewed as m distinct records, Lemma 5.5).
class SmoothEstimator {
 public:
  virtual ~SmoothEstimator() = default;
  /// theta(D); *ss = SS_beta(theta; D).
  virtual double full(double* ss) = 0;
  /// theta(D[S]); *ss = SS_beta(theta; D[S]) for a data set of size m.
  virtual double resample(const uint32_t* idx, int m, double* ss) = 0;
  /// Factor f(c) with |theta(E) - theta(E')| <= f(c) SS_beta(theta; E) whenever E
  /// and E' differ in c entries. Generic: the telescoping of Appendix F.1, a path
  /// E = E_0 ~ ... ~ E_c = E' with LS(E_q) <= SS(E_q) <= e^{q beta} SS(E), so
  /// f(c) = sum_{q < c} e^{q beta} = (e^{c beta} - 1) / (e^beta - 1).
  virtual double multi_change_factor(int c, double beta) const {
    return c <= 0 ? 0.0 : std::expm1(c * beta) / std::expm1(beta);
  }
};

/// @brief Sample quantile x_(h), h = ceil(prob N), with the smooth sensitivity of
/// Lemma 6.1 (see order_stat_smooth_sensitivity). The data are sorted once; a
/// resample is represented by the ranks of its records, radix-sorted in O(m).
class QuantileSsEstimator : public SmoothEstimator {
 public:
  QuantileSsEstimator(const double* x, int n, double prob, double beta, double lo, double hi, double C)
      : n_(n), prob_(prob), beta_(beta), lo_(lo), hi_(hi), C_(C) {
    if (n < 1) throw std::invalid_argument("quantile: need at least one record");
    ss_detail::sort_with_ranks(x, n, xs_, rank_);
    bits_ = ss_detail::bits_for(static_cast<uint32_t>(n));
  }
  double full(double* ss) override {
    const int h = quantile_index(prob_, n_);
    const int ks = quantile_kstar(n_, beta_, hi_ - lo_, C_);
    const std::vector<double> w = decay_weights(beta_, ks);
    *ss = order_stat_smooth_sensitivity([&](int j) { return xs_[j - 1]; }, n_, h, beta_, lo_, hi_, ks, w.data());
    return xs_[h - 1];
  }
  /// For an order statistic the path is not needed: changing c entries moves
  /// x_(h) of E only within [x_(h-c), x_(h+c)] (with x_(j) = lo for j < 1 and hi
  /// for j > N, the data being clipped to [lo, hi]), so the change is at most
  /// max(x_(h+c) - x_(h), x_(h) - x_(h-c)) <= A_{c-1}(E), the local sensitivity at
  /// distance c - 1 of the max-form SS. A_{c-1}(E) <= e^{(c-1) beta} SS(E): for
  /// c - 1 <= k* by the definition of SS, and beyond k* because A <= hi - lo <=
  /// e^{(k*+1) beta} SS(E) by its floor. So f(c) = e^{(c-1) beta}, against the
  /// generic (e^{c beta} - 1)/(e^beta - 1), about c times larger for small beta
  /// (checked by brute force in test-cr-ss.R).
  double multi_change_factor(int c, double beta) const override {
    return c <= 0 ? 0.0 : std::exp(static_cast<double>(c - 1) * beta);
  }
  double resample(const uint32_t* idx, int m, double* ss) override {
    if (m != m_cached_) {
      m_cached_ = m;
      kstar_m_ = quantile_kstar(m, beta_, hi_ - lo_, C_);
      wdec_m_ = decay_weights(beta_, kstar_m_);
      r_.resize(m);
      tmp_.resize(m);
    }
    for (int t = 0; t < m; ++t) r_[t] = rank_[idx[t]];
    const int h = quantile_index(prob_, m);
    // Only order statistics in the window [h - k - 1, h + k + 1] are needed. Stage 1
    // uses k1 = min(k*, ceil(8 / beta)) (wide enough that stage 2 is rarely needed:
    // it suffices once S1 >= e^{-8} (hi - lo)); its value S1 (no floor) is a maximum over a
    // subset of the pairs. A pair outside a k-window has b - a - 1 > k, so it is at
    // most e^{-(k+1) beta} (hi - lo); with k2 = min(k*, ceil(log((hi - lo)/S1) / beta))
    // every pair outside the k2-window is <= S1, so the k2-window gives exactly the
    // value of the full k*-window (the floor of the k*-form is added at the end).
    const int k1 = std::min(kstar_m_, static_cast<int>(std::ceil(8.0 / beta_)));
    int k = k1;
    double sk = 0.0;
    for (int stage = 0; stage < 2; ++stage) {
      const int pl = std::max(1, h - k - 1), pr = std::min(m, h + k + 1);
      int base = 0;
      ss_detail::select_window(r_.data(), m, bits_, pl, pr, win_, tmp_, &base);
      const uint32_t* w = win_.data();
      sk = order_stat_smooth_sensitivity([&](int j) { return xs_[w[j - 1 - base]]; }, m, h, beta_, lo_, hi_, k,
                                         wdec_m_.data(), false);
      theta_ = xs_[w[h - 1 - base]];
      if (stage == 1 || k == kstar_m_) break;
      int k2 = kstar_m_;
      if (sk > 0.0) {
        const double need = std::ceil(std::log((hi_ - lo_) / sk) / beta_);
        if (need < static_cast<double>(kstar_m_)) k2 = std::max(0, static_cast<int>(need));
      }
      if (k2 <= k) break;
      k = k2;
    }
    *ss = std::max(sk, wdec_m_[kstar_m_ + 1] * (hi_ - lo_));
    return theta_;
  }

 private:
  int n_;
  double prob_, beta_, lo_, hi_, C_;
  std::vector<double> xs_;
  std::vector<uint32_t> rank_;
  int bits_ = 1;
  int m_cached_ = -1, kstar_m_ = 0;
  std::vector<double> wdec_m_;
  std::vector<uint32_t> r_, tmp_, win_;
  double theta_ = 0.0;
};

/// @brief Degenerate U-statistic with kernel h(x, y) = x y (Section 7.2) and the
/// smooth sensitivity bound derived at ustat_product_smooth_sensitivity.
class UStatProductSsEstimator : public SmoothEstimator {
 public:
  UStatProductSsEstimator(const double* x, int n, double beta, double lo, double hi)
      : n_(n), beta_(beta), lo_(lo), hi_(hi) {
    if (n < 2) throw std::invalid_argument("U-statistic: need at least two records");
    ss_detail::sort_with_ranks(x, n, xs_, rank_);
    bits_ = ss_detail::bits_for(static_cast<uint32_t>(n));
  }
  double full(double* ss) override {
    double s1 = 0, s2 = 0;
    for (double v : xs_) { s1 += v; s2 += v * v; }
    *ss = ustat_product_smooth_sensitivity([&](int j) { return xs_[j - 1]; }, n_, s1, beta_, lo_, hi_);
    const double N = n_;
    return (s1 * s1 - s2) / (N * (N - 1.0));
  }
  double resample(const uint32_t* idx, int m, double* ss) override {
    if (m < 2) throw std::invalid_argument("U-statistic: resamples need at least two records");
    r_.resize(m);
    tmp_.resize(m);
    double s1 = 0, s2 = 0;
    uint32_t rmin = ~0u, rmax = 0u;
    for (int t = 0; t < m; ++t) {
      const uint32_t r = rank_[idx[t]];
      r_[t] = r;
      rmin = std::min(rmin, r);
      rmax = std::max(rmax, r);
      const double v = xs_[r];
      s1 += v; s2 += v * v;
    }
    // The scan over k usually stops at k = 0, which needs only the minimum and
    // the maximum; the resample is sorted only if a larger k is reached.
    bool sorted = false;
    auto y = [&](int j) {
      if (!sorted) {
        if (j == 1) return xs_[rmin];
        if (j == m) return xs_[rmax];
        ss_detail::radix_sort_u32(r_.data(), tmp_.data(), m, bits_);
        sorted = true;
      }
      return xs_[r_[j - 1]];
    };
    *ss = ustat_product_smooth_sensitivity(y, m, s1, beta_, lo_, hi_);
    const double M = m;
    return (s1 * s1 - s2) / (M * (M - 1.0));
  }

 private:
  int n_;
  double beta_, lo_, hi_;
  std::vector<double> xs_;
  std::vector<uint32_t> rank_;
  int bits_ = 1;
  std::vector<uint32_t> r_, tmp_;
};

/// @brief Non-private statistics of CR-SS on one realisation of the resamples.
struct SsStats {
  double theta_hat = 0.0;
  double ss_full = 0.0;          ///< SS_beta(theta; D)
  double ss_resample_max = 0.0;  ///< max_i SS_beta(theta; D[S_i])
  /// max_i f(kappa_i) SS_beta(theta; D[S_i]) for the realised multiplicities
  /// kappa_i (SmoothEstimator::multi_change_factor); 0 when none were given.
  double ss_resample_weighted = 0.0;
  std::vector<double> dist;      ///< |theta*_i - theta_hat|
  std::vector<double> estimates;
  ResamplePass pass;
};

inline SsStats cr_ss_stats(SmoothEstimator& est, const ResamplePlan& plan, bool keep_estimates,
                           const StopCallback& stop = nullptr, const std::vector<int>* mult = nullptr,
                           double beta = 0.0) {
  if (mult && mult->size() != static_cast<size_t>(plan.B))
    throw std::invalid_argument("CR-SS: one multiplicity per resample is needed");
  SsStats st;
  st.theta_hat = est.full(&st.ss_full);
  st.dist.assign(static_cast<size_t>(plan.B), 0.0);
  if (keep_estimates) st.estimates.assign(static_cast<size_t>(plan.B), 0.0);
  st.pass = for_each_resample(
      plan,
      [&](int i, const uint32_t* idx, int m, int kappa_i) {
        // The weights f(kappa_i), and the kappa in beta (eq. (6)), are a
        // sensitivity only for the resamples they were counted on: the same
        // key must have drawn these indices (R's .index_key()).
        if (mult && kappa_i != (*mult)[static_cast<size_t>(i)])
          throw std::logic_error("CR-SS: the multiplicities given were not counted on these resamples");
        double ss = 0.0;
        const double th = est.resample(idx, m, &ss);
        st.dist[i] = std::fabs(th - st.theta_hat);
        if (ss > st.ss_resample_max) st.ss_resample_max = ss;
        if (mult) {
          const double w = est.multi_change_factor((*mult)[static_cast<size_t>(i)], beta) * ss;
          if (w > st.ss_resample_weighted) st.ss_resample_weighted = w;
        }
        if (keep_estimates) st.estimates[i] = th;
      },
      stop);
  return st;
}

/// @brief s(D) of Lemma 5.5 (without the tau_m factor):
/// max_i SS_beta(D[S_i]) (e^{kappa beta} - 1) / (e^beta - 1) + SS_beta(D).
inline double resample_smooth_bound(double ss_resample_max, double ss_full, double beta, int kappa) {
  if (!(beta > 0)) throw std::invalid_argument("'beta' must be positive");
  if (kappa < 1) throw std::invalid_argument("'kappa' must be at least 1");
  const double ratio = std::expm1(kappa * beta) / std::expm1(beta);
  return ss_resample_max * ratio + ss_full;
}

/// @brief Phi^{-1}(1 - delta), rounded up by a relative 1e-12 so the PTR event
/// {Z1 >= -z} keeps probability at least 1 - delta despite rounding.
inline double ptr_quantile(double delta) {
  if (!(delta > 0 && delta < 1)) throw std::invalid_argument("'delta' must be in (0, 1)");
  const double z = -norm_quantile(delta);
  return z + 1e-12 * (1.0 + std::fabs(z));
}

/// @brief PTR-GDP (Algorithm 3): B(D) = SS e^{(beta/mu)(Z1 + Phi^{-1}(1 - delta))},
/// theta~ = theta + (B(D)/mu) Z2; (sqrt(2) mu, delta)-GDP by Lemma 5.4 when SS is a
/// beta-smooth upper bound on the local sensitivity.
///
/// Both Gaussian steps are exact discrete Gaussians on public grids
/// (discrete_gaussian.h), each mu-GDP as in the continuous algorithm:
/// * Step 1 releases L = log SS (sensitivity beta, as SS is beta-smooth; plus
///   2^-40 for the rounding of std::log, whose error is below one ulp of
///   |log SS| <= 745, i.e. 2^-43) as L~ = gamma (round(L / gamma) + Z1) with
///   Z1 ~ N_Z(0, v). Then log B = L~ + gamma (k + 1/2) with
///   k = ceil(sqrt(v) Phi^{-1}(1 - delta)) + 1. Because the discrete Gaussian's
///   normaliser is at least sqrt(2 pi v) and its pmf decreases away from 0,
///   P[Z1 >= k] <= Phibar((k - 1) / sqrt(v)) <= delta, so, with the rounding
///   moving L by at most gamma / 2, P[log B >= log SS] >= 1 - delta: the event
///   Lemma 5.4 conditions on keeps its probability.
/// * Step 2 releases theta with noise scale B / mu at sensitivity B; B is
///   public once step 1 is released, so is its grid.
/// B is computed as exp(log B + 2^-40) (1 + 2^-50): a public function of L~
/// that is never below the real exp(log B) despite the rounding of exp.
struct PtrRelease {
  double bound = 0.0;   ///< B(D), released with theta~ (Lemma 5.4 covers the pair)
  double value = 0.0;
};

inline PtrRelease ptr_gdp(double theta, double ss, double beta, double mu, double delta, Rng& rng) {
  if (!(ss >= 0) || !std::isfinite(ss)) throw std::invalid_argument("PTR-GDP: smooth sensitivity must be finite and >= 0");
  if (!(beta > 0) || !(mu > 0)) throw std::invalid_argument("PTR-GDP: beta and mu must be positive");
  PtrRelease r;
  const double log_sens = beta + std::ldexp(1.0, -40);
  const GridGaussian step1 = GridGaussian::plan(log_sens / mu, log_sens, 1);
  if (ss == 0.0) {  // B = 0 exactly, as in the continuous algorithm: nothing to add
    r.value = theta;
    return r;
  }
  const double log_b = step1.release(std::log(ss), rng);
  const double k = std::ceil(std::sqrt(static_cast<double>(step1.variance)) * ptr_quantile(delta)) + 1.0;
  r.bound = std::exp(log_b + step1.grid * (k + 0.5) + std::ldexp(1.0, -40)) * (1.0 + std::ldexp(1.0, -50));
  if (!std::isfinite(r.bound)) throw std::invalid_argument("PTR-GDP: the released bound overflows");
  r.value = GridGaussian::plan(r.bound / mu, r.bound, 1).release(theta, rng);
  return r;
}

/// @brief Release step of Algorithm 4 (Theorem 5.6): PTR-GDP at (mu/2, delta/2) for
/// the centre with SS_beta(D), and for Q with the kappa beta-smooth bound tau_m s(D),
/// then Q~ = max(Q~, 0). Jointly (mu, delta - delta^2/4)-GDP (Proposition 5.3).
struct SsRelease {
  PtrRelease center;
  PtrRelease radius;
};

inline SsRelease cr_ss_release(double theta_hat, double ss_full, double beta, double Q, double tau_s, int kappa,
                               double mu, double delta, Rng& rng) {
  SsRelease r;
  r.center = ptr_gdp(theta_hat, ss_full, beta, mu / 2.0, delta / 2.0, rng);
  r.radius = ptr_gdp(Q, tau_s, kappa * beta, mu / 2.0, delta / 2.0, rng);
  r.radius.value = std::max(r.radius.value, 0.0);
  return r;
}

}  // namespace pgbb

#endif  // PGBB_CORE_CR_SS_H
