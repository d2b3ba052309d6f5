// Exact discrete Gaussian noise on a public grid, for every release that
// publishes a noisy statistic directly (CR-GS, CR-SS / PTR, NoisyGibbs,
// DP-Bootstrap).
//
// Why: a double-precision Gaussian added to a statistic leaks the statistic
// through the low-order bits of the sum (Mironov 2012; Jin et al. 2022). Here
// the statistic is rounded to a public grid gamma (a power of two) and integer
// noise Z ~ N_Z(0, v) is added in grid units, so the released value
// gamma (round(x / gamma) + Z) is an exact multiple of gamma computed without
// any rounding. Z is sampled exactly with integer arithmetic by Algorithms 1-3
// of Canonne, Kamath & Steinke (2020), "The discrete Gaussian for differential
// privacy" (CKS).
//
// The privacy accounting of the continuous mechanism carries over, with the
// rounding charged to the sensitivity:
// * Rounding: two neighbouring statistics x, x' with ||x - x'||_2 <= Delta give
//   integer vectors with ||round(x/gamma) - round(x'/gamma)||_2 <= Delta/gamma
//   + sqrt(dim) (each coordinate moves by at most 1/2 + 1/2 more). GridGaussian
//   keeps the continuous ratio sigma / Delta at the charged sensitivity
//   Delta + sqrt(dim) gamma, so every Renyi / GDP bound stated for
//   (Delta, sigma) holds for the rounded statistic (Delta is always an upper
//   bound, so a smaller integer shift is covered).
// * Renyi DP: for an integer shift d, D_alpha(N_Z(0, v) || N_Z(d, v)) <=
//   alpha d^2 / (2 v) (CKS, Proposition 5 and Theorem 14 for products). For the
//   mixtures of shifts of DP-Bootstrap's accountant the bound is term by term
//   (joint convexity), so it carries over unchanged.
// * mu-GDP: the tradeoff curve of N_Z(0, v) against N_Z(d, v) has vertices
//   (P[Z >= t], P[Z < t - d]) over integer thresholds t; it lies above G_mu iff
//   every vertex does (G_mu is convex). Numerically (tests/testthat/
//   test-discrete-gaussian.R, an independent computation from the pmf over
//   |t| <= 60 sd, s = sqrt(v) from 4 to 40 and shifts up to 2 s) the worst
//   vertex needs mu = (d / s)(1 + c / s^2) with c about 1/24 (1.000026 at
//   s = 40, 1.0026 at s = 4), flat across the bulk and falling slowly in the
//   tails. The plan therefore inflates the sd by the factor 1 + 1 / s0^2
//   (s0 >= 1024 here, so by less than 1e-6), which covers that term 24 times
//   over; the test also shows that without it the bound fails.
// * Truncation: the sampler rejects discrete Laplace proposals beyond 2^40 grid
//   units (at least 2^18 sd), so its law is the discrete Gaussian conditioned on
//   |Z| < 2^40, at total variation below exp(-2^35) from it; that is the only
//   inexactness, far below any delta a release states.
#ifndef PGBB_CORE_DISCRETE_GAUSSIAN_H
#define PGBB_CORE_DISCRETE_GAUSSIAN_H

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "rng.h"

namespace pgbb {

using u128 = unsigned __int128;

/// @brief Uniform integer on {0, ..., n - 1}, n up to 2^128 - 1 (bitmask rejection).
inline u128 uniform_below(Rng& rng, u128 n) {
  if (n == 0) throw std::invalid_argument("uniform_below: n must be positive");
  if (n <= static_cast<u128>(std::numeric_limits<uint64_t>::max()))
    return rng.uniform_int(static_cast<uint64_t>(n));
  const u128 top = n - 1;
  u128 mask = top;
  for (int s = 1; s < 128; s <<= 1) mask |= mask >> s;
  u128 v;
  do {
    v = ((static_cast<u128>(rng.next_u64()) << 64) | rng.next_u64()) & mask;
  } while (v > top);
  return v;
}

/// @brief Bernoulli(num / den), 0 <= num <= den, exactly.
inline bool bernoulli_ratio(Rng& rng, u128 num, u128 den) { return uniform_below(rng, den) < num; }

/// @brief Bernoulli(exp(-num / den)) exactly (CKS Algorithm 1). num < 2^127,
/// 0 < den < 2^90.
inline bool bernoulli_exp(Rng& rng, u128 num, u128 den) {
  if (den == 0) throw std::invalid_argument("bernoulli_exp: den must be positive");
  if (num > den) {
    // exp(-g) = exp(-1)^floor(g) exp(-(g - floor(g))): independent factors.
    const u128 whole = num / den;
    for (u128 i = 0; i < whole; ++i)
      if (!bernoulli_exp(rng, 1, 1)) return false;
    return bernoulli_exp(rng, num % den, den);
  }
  // g = num / den in [0, 1]: K = first k with Bernoulli(g / k) = 0; accept iff K odd.
  uint64_t k = 1;
  while (bernoulli_ratio(rng, num, den * k)) {
    ++k;
    if (k > (uint64_t{1} << 36)) throw std::runtime_error("bernoulli_exp: counter overflow");
  }
  return (k & 1u) == 1u;
}

/// @brief Largest proposal magnitude the samplers accept (grid units); see the
/// truncation note at the top of the file.
constexpr int64_t kDiscreteNoiseCap = int64_t{1} << 40;

/// @brief Discrete Laplace with scale t (pmf proportional to exp(-|x| / t)),
/// t >= 1 an integer (CKS Algorithm 2 with s = 1), conditioned on |x| < 2^40.
inline int64_t discrete_laplace(Rng& rng, uint64_t t) {
  if (t < 1 || t > (uint64_t{1} << 30)) throw std::invalid_argument("discrete_laplace: t must be in [1, 2^30]");
  for (;;) {
    const uint64_t u = rng.uniform_int(t);
    if (!bernoulli_exp(rng, u, t)) continue;
    uint64_t v = 0;
    while (bernoulli_exp(rng, 1, 1)) {
      ++v;
      if (v > static_cast<uint64_t>(kDiscreteNoiseCap) / t) break;
    }
    const u128 x = static_cast<u128>(u) + static_cast<u128>(t) * v;
    if (x >= static_cast<u128>(kDiscreteNoiseCap)) continue;  // the truncation
    const bool negative = rng.uniform_int(2) == 1;
    if (negative && x == 0) continue;
    const int64_t xi = static_cast<int64_t>(x);
    return negative ? -xi : xi;
  }
}

/// @brief floor(sqrt(v)) exactly.
inline uint64_t isqrt_floor(uint64_t v) {
  uint64_t r = static_cast<uint64_t>(std::sqrt(static_cast<double>(v)));
  while (r > 0 && static_cast<u128>(r) * r > v) --r;
  while (static_cast<u128>(r + 1) * (r + 1) <= v) ++r;
  return r;
}

/// @brief Largest variance (grid units^2) the exact sampler handles: keeps
/// every intermediate of CKS Algorithm 3 inside 128 bits.
constexpr uint64_t kDiscreteVarianceMax = uint64_t{1} << 44;

/// @brief Discrete Gaussian N_Z(0, v) (pmf proportional to exp(-x^2 / (2 v)))
/// with integer variance parameter 1 <= v <= 2^44 (CKS Algorithm 3).
inline int64_t discrete_gaussian(Rng& rng, uint64_t v) {
  if (v < 1 || v > kDiscreteVarianceMax)
    throw std::invalid_argument("discrete_gaussian: the variance must be in [1, 2^44]");
  const uint64_t t = isqrt_floor(v) + 1;  // floor(sigma) + 1
  // Accept Y w.p. exp(-(|Y| - v/t)^2 / (2 v)) = exp(-(|Y| t - v)^2 / (2 v t^2)).
  const u128 den = static_cast<u128>(2) * v * t * t;
  for (;;) {
    const int64_t y = discrete_laplace(rng, t);
    const u128 ay = static_cast<u128>(y < 0 ? -y : y);
    const u128 a = ay * t, b = v;
    const u128 diff = a > b ? a - b : b - a;
    if (bernoulli_exp(rng, diff * diff, den)) return y;
  }
}

/// @brief Noise plan of one Gaussian-mechanism release on a public grid: the
/// mechanism the caller calibrated (continuous sd sigma for L2 sensitivity
/// `sensitivity` of a `dim`-vector) made float-safe at the same privacy.
struct GridGaussian {
  double grid = 0.0;      ///< gamma, a power of two; 0: no noise (sigma = 0)
  uint64_t variance = 0;  ///< v of N_Z(0, v), in grid units squared

  /// Released noise standard deviation in the statistic's units, gamma sqrt(v)
  /// (slightly above sigma: the rounding charge and the GDP margin).
  double sd() const { return grid * std::sqrt(static_cast<double>(variance)); }

  /// Grid 2^(floor(log2 scale) - 10) with scale = min(sensitivity / sqrt(dim),
  /// sigma), but never finer than 2^-64 sensitivity (so that any statistic
  /// within 2^62 sensitivities of zero has its grid value in 128 bits), and
  /// coarsened if needed so that sd / gamma <= 2^21. The sd is at least 1024
  /// grid units: below that (mu above about 2^54) the noise is raised, which
  /// only strengthens the guarantee. Every input is public, so is the plan.
  /// A zero sensitivity (a statistic that does not depend on the data) is
  /// released exactly.
  static GridGaussian plan(double sigma, double sensitivity, int dim) {
    if (!(sigma >= 0.0) || !std::isfinite(sigma))
      throw std::invalid_argument("discrete Gaussian: the noise scale must be finite and non-negative");
    if (!(sensitivity >= 0.0) || !std::isfinite(sensitivity))
      throw std::invalid_argument("discrete Gaussian: the sensitivity must be finite and non-negative");
    if (dim < 1) throw std::invalid_argument("discrete Gaussian: the dimension must be at least 1");
    GridGaussian g;
    if (sigma == 0.0 || sensitivity == 0.0) return g;
    if (!(sensitivity >= 1e-280)) throw std::invalid_argument("discrete Gaussian: the sensitivity is below 1e-280");
    // sqrt(dim) rounded up, so the charge is never understated.
    const double root_dim = std::nextafter(std::sqrt(static_cast<double>(dim)), INFINITY);
    const double scale = std::fmax(std::fmin(sensitivity / root_dim, sigma), 1e-290);
    g.grid = std::fmax(std::ldexp(1.0, std::ilogb(scale) - 10), std::ldexp(1.0, std::ilogb(sensitivity) - 64));
    const double margin = 1.0 + 1e-12;  // covers the rounding of the doubles below
    auto units = [&](double grid) {     // s0: sigma at the charged sensitivity, in grid units
      return sigma * (sensitivity + root_dim * grid) / sensitivity / grid * margin;
    };
    // Coarser grids approach sd / gamma = sqrt(dim) sigma / sensitivity from above.
    const double most = std::ldexp(1.0, 21);
    while (units(g.grid) > most && g.grid < sensitivity) g.grid *= 2.0;
    if (!(units(g.grid) <= most))
      throw std::invalid_argument(
          "discrete Gaussian: sqrt(dim) sigma / sensitivity exceeds 2^20 (mu below 1e-6 sqrt(dim)), beyond the exact sampler");
    const double s0 = std::fmax(units(g.grid), 1024.0);
    const double s = s0 * (1.0 + 1.0 / (s0 * s0));  // the GDP margin (header note)
    const double var = std::ceil(s * s * margin);
    if (!(var <= static_cast<double>(kDiscreteVarianceMax)))
      throw std::logic_error("discrete Gaussian: internal error, variance beyond the sampler");
    g.variance = static_cast<uint64_t>(var);
    return g;
  }

  /// gamma (round(x / gamma) + Z), computed exactly in 128-bit integers and
  /// then converted to the nearest double (post-processing of the exact
  /// release). x / gamma is first clamped to +-2^100, a 1-Lipschitz public map
  /// that no statistic within 2^36 sensitivities of zero reaches.
  double release(double x, Rng& rng) const {
    if (std::isnan(x)) throw std::invalid_argument("discrete Gaussian: the statistic is NaN");
    if (grid == 0.0) return x;
    const double lim = std::ldexp(1.0, 100);
    const double k = std::nearbyint(std::fmin(std::fmax(x / grid, -lim), lim));
    const __int128 units = static_cast<__int128>(k) + discrete_gaussian(rng, variance);
    return static_cast<double>(units) * grid;
  }

  void release(std::vector<double>& x, Rng& rng) const {
    for (double& v : x) v = release(v, rng);
  }
};

}  // namespace pgbb

#endif  // PGBB_CORE_DISCRETE_GAUSSIAN_H
