// Baselines of the CR paper's experiments (Section 7, Tables 3 and 4):
// BLBQuant of Chadha, Duchi & Kuditipudi (2024), as summarised in the CR paper
// (Sections 1, 1.2, 7, Appendix C) and in their public description: bags of
// little bootstraps on a data-independent partition, every bootstrap replicate
// computed with the private estimator, and an AboveThreshold search over a grid
// of symmetric candidate intervals whose query is the number of blocks whose
// bootstrap coverage exceeds 1 - alpha. (The GDP m-out-of-n bootstrap of Dette &
// Graw is assembled in R from the resampling core.)
//
// Plain C++17, no R headers.
#ifndef PGBB_CORE_CR_BASELINES_H
#define PGBB_CORE_CR_BASELINES_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "blocking.h"
#include "resampling.h"
#include "rng.h"

namespace pgbb {

/// @brief Laplace(0, b) by inversion.
inline double laplace(Rng& rng, double b) {
  const double u = rng.uniform() - 0.5;
  return -b * (u < 0 ? -1.0 : 1.0) * std::log1p(-2.0 * std::fabs(u));
}

/// @brief Private estimators used by BLBQuant, on a weighted sample (weight =
/// multiplicity; a plain data set has unit weights). All are pure eps-DP for the
/// full data (replace-one neighbours) with the stated sensitivities:
/// mean and the x*y U-statistic by the Laplace mechanism (sensitivity `sens`),
/// the quantile x_(h), h = ceil(p N), by the exponential mechanism over the
/// intervals between consecutive order statistics with utility minus the number
/// of records to change (sensitivity 1; Lebesgue base measure on [lo, hi]).
enum class BlbKind { Mean, Quantile, UStatProduct };

struct BlbSpec {
  BlbKind kind = BlbKind::Mean;
  double prob = 0.5;
  double lo = 0.0, hi = 1.0;
  double eps = 1.0;   ///< budget of the point estimator (replicates use the same law)
  double sens = 0.0;  ///< Laplace sensitivity (mean, U-statistic) for sample size n
};

/// Weighted sample: sorted distinct values v[0..k-1] with multiplicities w (sum N).
struct WeightedSample {
  std::vector<double> v;
  std::vector<double> w;
  double N = 0;
};

inline double blb_nonprivate(const BlbSpec& sp, const WeightedSample& s) {
  if (sp.kind == BlbKind::Mean) {
    double a = 0;
    for (size_t i = 0; i < s.v.size(); ++i) a += s.w[i] * s.v[i];
    return a / s.N;
  }
  if (sp.kind == BlbKind::UStatProduct) {
    double s1 = 0, s2 = 0;
    for (size_t i = 0; i < s.v.size(); ++i) { s1 += s.w[i] * s.v[i]; s2 += s.w[i] * s.v[i] * s.v[i]; }
    return (s1 * s1 - s2) / (s.N * (s.N - 1.0));
  }
  const double h = std::max(1.0, std::ceil(sp.prob * s.N - 1e-9));
  double c = 0;
  for (size_t i = 0; i < s.v.size(); ++i) { c += s.w[i]; if (c >= h) return s.v[i]; }
  return s.v.back();
}

/// Exponential mechanism for the quantile on a weighted sorted sample.
inline double blb_private_quantile(const BlbSpec& sp, const WeightedSample& s, Rng& rng) {
  const double h = std::max(1.0, std::ceil(sp.prob * s.N - 1e-9));
  // Intervals between consecutive distinct values (and the two ends); an interval
  // above c points (c = records at or below its left end) needs max(h - c, c - h + 1)
  // changes for the h-th order statistic to land in it (0 length intervals between
  // equal values are skipped: zero Lebesgue mass).
  double best = -std::numeric_limits<double>::infinity();
  double lo_b = sp.lo, hi_b = sp.lo;
  double c = 0;
  const size_t k = s.v.size();
  for (size_t i = 0; i <= k; ++i) {
    const double left = i == 0 ? sp.lo : s.v[i - 1];
    const double right = i == k ? sp.hi : s.v[i];
    if (i > 0) c += s.w[i - 1];
    const double len = right - left;
    if (!(len > 0)) continue;
    const double dist = c < h ? h - c : c - h + 1.0;
    const double score = std::log(len) - 0.5 * sp.eps * dist - std::log(-std::log(rng.uniform()));  // + Gumbel
    if (score > best) { best = score; lo_b = left; hi_b = right; }
  }
  return lo_b + (hi_b - lo_b) * rng.uniform();
}

inline double blb_private(const BlbSpec& sp, const WeightedSample& s, Rng& rng) {
  if (sp.kind == BlbKind::Quantile) return blb_private_quantile(sp, s, rng);
  return blb_nonprivate(sp, s) + laplace(rng, sp.sens / sp.eps);
}

/// @brief BLBQuant's search (AboveThreshold, Dwork & Roth 2014, Algorithm 1):
/// the threshold noise is drawn once (the form whose eps-DP proof holds), each
/// query gets fresh noise; query k is c_k = #{blocks j : coverage_j(A_k) > 1 - alpha},
/// which changes by at most 1 when one record changes (it lives in one block).
/// Returns the first k (1-based) with c_k + Lap(4/eps) >= s/2 + Lap(2/eps), or 0.
struct BlbQuantResult {
  double center = 0.0;
  int k = 0;          ///< selected grid index (0: none, the caller uses the largest radius)
  int blocks = 0;
};

/// x: clipped data; `tau` scales the roots tau (theta_j - theta*_jr); grid radius
/// k * step on the parameter scale, k = 1..K. eps_center / eps_search are the two
/// pure-DP budgets. N_mc replicates per block, each a size-n bootstrap of the block.
inline BlbQuantResult blbquant(const std::vector<double>& x, BlbSpec sp, double eps_search, int s, int n_mc,
                               double alpha, double step, int K, const Key& seed) {
  const int n = static_cast<int>(x.size());
  if (s < 2 || s > n) throw std::invalid_argument("BLBQuant: number of blocks must be between 2 and n");
  if (n_mc < 1 || K < 1 || !(step > 0)) throw std::invalid_argument("BLBQuant: invalid grid or replicate count");
  BlbQuantResult res;
  res.blocks = s;
  // Released centre: the private estimator on the full data (eps_center-DP).
  {
    Rng rng = Rng::stream(seed, kNoiseStream);
    WeightedSample all;
    all.v = x;
    std::sort(all.v.begin(), all.v.end());
    all.w.assign(all.v.size(), 1.0);
    all.N = n;
    res.center = blb_private(sp, all, rng);
  }
  // Data-independent uniform partition into s blocks (Section 2.2.2-style, blocking.h).
  Rng prng = Rng::stream(seed, kNoiseStream + 1);
  const BlockPartition part = block_partition(n, s, prng);
  std::vector<std::vector<double>> blocks(static_cast<size_t>(s));
  for (int i = 0; i < n; ++i) blocks[part.block[i]].push_back(x[i]);
  // Sorted |roots| per block.
  std::vector<std::vector<double>> roots(static_cast<size_t>(s));
  for (int j = 0; j < s; ++j) {
    std::vector<double>& bj = blocks[j];
    std::sort(bj.begin(), bj.end());
    const int b = static_cast<int>(bj.size());
    WeightedSample ws;
    ws.v = bj;
    ws.w.assign(b, 1.0);
    ws.N = b;
    const double theta_j = blb_nonprivate(sp, ws);
    std::vector<double> cnt(static_cast<size_t>(b));
    roots[j].resize(n_mc);
    for (int r = 0; r < n_mc; ++r) {
      Rng rng = Rng::stream(seed, kPermutationStreamBase + static_cast<uint64_t>(j) * 1000003ULL + r);
      BoundedDraw bd(rng);
      std::fill(cnt.begin(), cnt.end(), 0.0);
      for (int t = 0; t < n; ++t) cnt[bd.below(static_cast<uint32_t>(b))] += 1.0;  // Multinomial(n; 1/b)
      WeightedSample rs;
      rs.v.reserve(b);
      rs.w.reserve(b);
      for (int i = 0; i < b; ++i) if (cnt[i] > 0) { rs.v.push_back(bj[i]); rs.w.push_back(cnt[i]); }
      rs.N = n;
      roots[j][r] = std::fabs(blb_private(sp, rs, rng) - theta_j);
    }
    std::sort(roots[j].begin(), roots[j].end());
  }
  // AboveThreshold over the grid of symmetric intervals.
  Rng arng = Rng::stream(seed, kNoiseStream + 2);
  const double threshold = 0.5 * s + laplace(arng, 2.0 / eps_search);
  std::vector<int> ptr(static_cast<size_t>(s), 0);
  for (int k = 1; k <= K; ++k) {
    const double rad = k * step;
    int c = 0;
    for (int j = 0; j < s; ++j) {
      while (ptr[j] < n_mc && roots[j][ptr[j]] <= rad) ++ptr[j];
      if (static_cast<double>(ptr[j]) / n_mc > 1.0 - alpha) ++c;
    }
    if (c + laplace(arng, 4.0 / eps_search) >= threshold) { res.k = k; return res; }
  }
  return res;
}

}  // namespace pgbb

#endif  // PGBB_CORE_CR_BASELINES_H
