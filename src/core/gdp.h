// Gaussian differential privacy (Dong, Roth & Su 2022) as used by the one-shot
// confidence-region paper (Section 3.1.1, Propositions 3.6, 3.7, 5.3).
//
// Plain C++17, no R headers. Every conversion here is used for a privacy
// guarantee, so each root-find returns the endpoint on the feasible (private)
// side of the bracket, never the midpoint.
#ifndef PGBB_CORE_GDP_H
#define PGBB_CORE_GDP_H

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "normal.h"

namespace pgbb {

namespace gdp_detail {
using normal_detail::kLogSqrt2Pi;
using normal_detail::kSqrt2;

/// log of the N(0, 1) mass of [c - h, c + h] for 0 < h <= 1/2 and |c| h <= 5, without
/// the cancellation of Phi(c + h) - Phi(c - h) (which loses every digit once the mass
/// is below ~1e-16 Phi(c + h)). The mass is phi(c) int_{-h}^{h} e^{-cs - s^2/2} ds, and
/// e^{-cs - s^2/2} = sum_k He_k(-c) s^k / k! (Hermite generating function), so the
/// integral is 2h sum_{k even} u_k / (k + 1) with u_k = He_k(c) h^k / k!, obtained from
/// He_{k+1} = c He_k - k He_{k-1} as u_{k+1} = (c h u_k - h^2 u_{k-1}) / (k + 1). Even
/// Hermite polynomials are even, so the summed terms are positive once |c| exceeds their
/// roots and small before; 120 terms are far past (|c| h)^k / k! < 1e-80.
inline double log_interval_mass(double c, double h) {
  double um = 0.0, u = 1.0, sum = 1.0;  // u_{k-1}, u_k at k = 0; sum of u_k / (k + 1), k even
  for (int k = 0; k < 120; ++k) {
    const double un = (c * h * u - h * h * um) / (k + 1);
    um = u;
    u = un;
    if ((k + 1) % 2 == 0) sum += u / (k + 2);
  }
  return -0.5 * c * c - kLogSqrt2Pi + std::log(2.0 * h) + std::log(sum);
}
}  // namespace gdp_detail

/// @brief delta_mu(epsilon) of Proposition 3.6,
///   Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2),
/// on the log scale: log delta = log Phi(a) + log1p(-exp(eps + log Phi(b) - log Phi(a))),
/// which stays finite when both terms underflow (large eps / mu).
inline double gdp_log_delta(double mu, double eps) {
  if (!(mu >= 0.0)) throw std::invalid_argument("gdp_delta: 'mu' must be non-negative");
  if (!(eps >= 0.0)) throw std::invalid_argument("gdp_delta: 'epsilon' must be non-negative");
  const double ninf = -std::numeric_limits<double>::infinity();
  if (mu == 0.0) return ninf;
  if (std::isinf(eps)) return ninf;
  if (std::isinf(mu)) return 0.0;
  const double a = -eps / mu + 0.5 * mu, b = -eps / mu - 0.5 * mu;
  const double la = log_norm_cdf(a);
  double lr = eps + log_norm_cdf(b) - la;  // log of e^eps Phi(b) / Phi(a), always < 0
  if (mu <= 1.0 && eps <= 10.0) {
    // log Phi(b) - log Phi(a) cancels when the interval [b, a] holds little of the mass
    // below a (small mu): write it log1p(-(Phi(a) - Phi(b)) / Phi(a)) with the interval
    // mass computed directly. Without this, delta_mu(eps) came out as 0 for mu below
    // ~1e-16 and gdp_mu() returned a mu whose true delta was orders above the target.
    const double ratio = std::exp(gdp_detail::log_interval_mass(-eps / mu, 0.5 * mu) - la);
    if (ratio < 0.5) lr = eps + std::log1p(-ratio);
  }
  if (!(lr < 0.0)) return ninf;     // only reachable through rounding when delta ~ 0
  // log(1 - e^lr) without cancellation for lr near 0.
  return la + (lr > -0.6931471805599453 ? std::log(-std::expm1(lr)) : std::log1p(-std::exp(lr)));
}

inline double gdp_delta(double mu, double eps) { return std::exp(gdp_log_delta(mu, eps)); }

/// @brief Largest mu with delta_mu(eps) <= delta (Dong et al. 2022, Cor. 2.13):
/// delta_mu(eps) increases in mu, so bisect on log mu and return the lower
/// (feasible) endpoint.
inline double gdp_mu(double eps, double delta) {
  if (!(eps >= 0.0) || std::isinf(eps)) throw std::invalid_argument("gdp_mu: 'epsilon' must be finite and non-negative");
  if (!(delta > 0.0 && delta < 1.0)) throw std::invalid_argument("gdp_mu: 'delta' must be in (0, 1)");
  // Feasibility is judged on delta itself (what gdp_delta() reports), not on
  // its logarithm, so a returned mu always passes gdp_delta(mu, eps) <= delta.
  auto feasible = [&](double m) { return gdp_delta(m, eps) <= delta; };
  double lo = 1.0, hi = 1.0;
  while (!feasible(lo)) {
    hi = lo;
    lo *= 0.5;
    if (lo < 1e-300) return 0.0;
  }
  while (feasible(hi)) {
    lo = hi;
    hi *= 2.0;
    if (hi > 1e300) throw std::runtime_error("gdp_mu: no finite upper bracket");
  }
  for (int it = 0; it < 200 && hi - lo > 4.0 * std::numeric_limits<double>::epsilon() * hi; ++it) {
    const double mid = std::sqrt(lo * hi);
    const double m2 = (mid > lo && mid < hi) ? mid : 0.5 * (lo + hi);
    if (!(m2 > lo && m2 < hi)) break;
    if (feasible(m2)) lo = m2; else hi = m2;
  }
  return lo;
}

/// @brief Smallest eps >= 0 with delta_mu(eps) <= delta: the (eps, delta)-DP
/// equivalent of mu-GDP (Proposition 3.6). delta_mu(eps) decreases in eps;
/// bisection returns the upper (feasible) endpoint.
inline double gdp_epsilon(double mu, double delta) {
  if (!(mu >= 0.0) || std::isinf(mu)) throw std::invalid_argument("gdp_epsilon: 'mu' must be finite and non-negative");
  if (!(delta > 0.0 && delta < 1.0)) throw std::invalid_argument("gdp_epsilon: 'delta' must be in (0, 1)");
  auto feasible = [&](double e) { return gdp_delta(mu, e) <= delta; };
  if (feasible(0.0)) return 0.0;
  double lo = 0.0, hi = 1.0;
  while (!feasible(hi)) {
    lo = hi;
    hi *= 2.0;
    // mu above ~1e150 needs eps ~ mu^2 / 2 beyond the double range: +Inf is then the
    // (trivially valid) answer, not an error after a release has been computed.
    if (hi > 1e300) return std::numeric_limits<double>::infinity();
  }
  for (int it = 0; it < 400 && hi - lo > 4.0 * std::numeric_limits<double>::epsilon() * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (!(mid > lo && mid < hi)) break;
    if (feasible(mid)) hi = mid; else lo = mid;
  }
  return hi;
}

/// @brief mu of the composition of mu_i-GDP mechanisms, eq. (3).
inline double gdp_compose(const std::vector<double>& mu) {
  double s = 0.0, mx = 0.0;
  for (double v : mu) {
    if (!(v >= 0.0)) throw std::invalid_argument("gdp_compose: every mu must be non-negative");
    mx = v > mx ? v : mx;
  }
  if (std::isinf(mx)) return mx;
  if (mx == 0.0) return 0.0;
  for (double v : mu) s += (v / mx) * (v / mx);  // scaled to avoid overflow
  return mx * std::sqrt(s);
}

/// @brief delta of the composition of (mu_i, delta_i)-GDP mechanisms,
/// 1 - prod(1 - delta_i) (Proposition 5.3), computed as -expm1(sum log1p(-delta_i)).
inline double gdp_compose_delta(const std::vector<double>& delta) {
  double s = 0.0;
  for (double d : delta) {
    if (!(d >= 0.0 && d <= 1.0)) throw std::invalid_argument("gdp_compose: every delta must be in [0, 1]");
    s += std::log1p(-d);
  }
  return -std::expm1(s);
}

/// @brief Noise standard deviation Delta / mu of the Gaussian mechanism (Proposition 3.7).
inline double gaussian_mechanism_scale(double sensitivity, double mu) {
  if (!(sensitivity >= 0.0) || std::isinf(sensitivity))
    throw std::invalid_argument("gaussian mechanism: sensitivity must be finite and non-negative");
  if (!(mu > 0.0)) throw std::invalid_argument("gaussian mechanism: 'mu' must be positive");
  return sensitivity / mu;
}

/// @brief mu-GDP implied by pure eps-DP: mu = 2 Phi^{-1}(e^eps / (1 + e^eps)).
/// The trade-off function of eps-DP is the piecewise-linear chord through
/// (0, 1), (a, a), (1, 0) with a = 1 / (1 + e^eps); G_mu is convex, symmetric and
/// passes through (a, a) exactly for this mu, so G_mu <= f_{eps,0} (the chord
/// lies above a convex function between its points): this mu is the smallest
/// valid one (Dong et al. 2022). Used to express pure-DP baselines in GDP.
inline double pure_dp_to_gdp_mu(double eps) {
  if (!(eps >= 0.0)) throw std::invalid_argument("pure_dp_to_gdp_mu: 'epsilon' must be non-negative");
  if (std::isinf(eps)) return eps;
  // Phi^{-1}(1 - a) = -Phi^{-1}(a), a = 1 / (1 + e^eps) computed without cancellation.
  const double log_a = -(eps > 0 ? eps + std::log1p(std::exp(-eps)) : std::log1p(std::exp(eps)));
  if (eps < 1.0) {
    // Near eps = 0, a = 1/2 - O(eps) and Phi^{-1}(a) loses digits relative to mu (1e-9
    // at eps = 1e-8, all of them below 1e-16). Solve instead erf(mu / (2 sqrt 2)) =
    // 2 Phi(mu/2) - 1 = 1 - 2a = tanh(eps / 2) by Newton from that start; erf and tanh
    // keep full relative accuracy at small arguments.
    const double t = std::tanh(0.5 * eps);
    double y = -norm_quantile(std::exp(log_a)) / gdp_detail::kSqrt2;  // mu / (2 sqrt 2)
    for (int it = 0; it < 4; ++it) y -= (std::erf(y) - t) * 0.88622692545275801365 * std::exp(y * y);  // sqrt(pi)/2
    return 2.0 * gdp_detail::kSqrt2 * y;
  }
  if (log_a > -700.0) return -2.0 * norm_quantile(std::exp(log_a));
  // a underflows: solve log Phi(z) = log a by bisection (log Phi is increasing),
  // keeping the endpoint with log Phi(z) <= log a, i.e. the larger mu (conservative).
  double lo = -1e6, hi = -37.0;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (log_norm_cdf(mid) <= log_a) lo = mid; else hi = mid;
  }
  return -2.0 * lo;
}

/// @brief Largest eps such that eps-DP implies mu-GDP (inverse of the above):
/// eps = log Phi(mu / 2) - log Phi(-mu / 2).
inline double gdp_mu_to_pure_eps(double mu) {
  if (!(mu >= 0.0)) throw std::invalid_argument("gdp_mu_to_pure_eps: 'mu' must be non-negative");
  if (std::isinf(mu)) return mu;
  // Small mu: log Phi(mu/2) - log Phi(-mu/2) cancels; write it
  // log1p((Phi(mu/2) - Phi(-mu/2)) / Phi(-mu/2)) with the difference erf(mu / (2 sqrt 2)).
  if (mu < 1.0) return std::log1p(std::erf(0.5 * mu / gdp_detail::kSqrt2) / norm_cdf(-0.5 * mu));
  return log_norm_cdf(0.5 * mu) - log_norm_cdf(-0.5 * mu);
}

}  // namespace pgbb

#endif  // PGBB_CORE_GDP_H
