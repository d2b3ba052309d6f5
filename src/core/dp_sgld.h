// DP-SGLD baseline of the PGBB paper (Sections 5-6, SM S3.1 and S3.3): stochastic
// gradient Langevin dynamics on the tempered Gibbs posterior
//     pi(theta | data) propto exp(-omega sum_i l(theta; x_i, y_i))          (flat prior)
// of the same losses the PGBB trainer uses (losses.h), privatised at every step.
//
// One update t = 1..T (the privatised quantity is the clipped subsample SUM):
//     B_t       ~ Poisson subsample at rate q (every record independently),
//     S_t       = sum_{i in B_t} clip_C(grad l(theta_t; x_i)) + N(0, sigma^2 I),     (a)
//     theta_t+1 = theta_t - eta_t (omega / q) S_t + sqrt(2 eta_t) xi_t,               (b)
//     eta_t     = eta_0 t^(-1/3),   xi_t ~ N(0, I).
//
// Privacy. Only (a) touches the data; (b) is post-processing of S_t and theta_t. (a) is
// exactly the per-step mechanism of (S19)-(S20) with weight w = 1: a replace-one
// Poisson-subsampled Gaussian whose differing record contributes a vector of norm <= C
// under either data set (S21: ||Delta||, ||Delta'|| <= C, ||Delta - Delta'|| <= 2C).
// The accountant "plain" (accountant.h, kPlain) bounds exactly this pair, with the
// per-record bound C (NOT 2C: the factor 2 of replace-one is inside Birrell's bound)
// and the ABSOLUTE noise sd sigma on the sum. So sigma is calibrated from (C, q, T)
// alone: omega, n and eta only rescale the released sum afterwards and "leave the
// privacy accounting unchanged" (SM S3.3). The Langevin noise xi_t does not depend on
// the data and is not counted as privacy noise (a conservative choice: it would only
// add privacy).
//
// Langevin schedule. eta_t = eta_0 t^(-1/3) is the decreasing step of Li et al. (2019)
// ("the Langevin Gaussian noise decays by t^(-1/3)", SM S3.1: the variance 2 eta_t of
// the injected Langevin noise decays as t^(-1/3)); the default eta_0 n = 20 (SM S3.2)
// is set in R. Coordinates with a positivity constraint (the Huber scale) are kept
// above a public floor by reflection, which leaves a target with a flat prior on the
// half-line invariant in the continuous-time limit.
//
// Plain C++17, no R headers.
#ifndef PGBB_CORE_DP_SGLD_H
#define PGBB_CORE_DP_SGLD_H

#include <cmath>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "exact_sum.h"
#include "losses.h"
#include "rng.h"
#include "stop.h"

namespace pgbb {

/// @brief Settings of one DP-SGLD chain. Every entry is public (none is computed
/// from the data).
struct SgldConfig {
  int64_t iterations = 10000;  ///< T, number of Langevin updates
  double rate = 0.01;          ///< q, Poisson subsampling rate in (0, 1]
  double step = 1e-3;          ///< eta_0
  double decay = 1.0 / 3.0;    ///< eta_t = eta_0 t^(-decay) (Li et al. 2019: 1/3)
  double omega = 1.0;          ///< tempering of the Gibbs posterior
  double clip = 1.0;           ///< C, per-record gradient bound given to the accountant
  double sigma = 0.0;          ///< privacy noise sd on the clipped sum; 0: non-private
  double tau = 0.5;            ///< level of the loss (quantile)
  int64_t burn_in = 5000;      ///< iterations discarded before the first stored draw
  int64_t thin = 1;            ///< keep every thin-th iterate after burn-in
  int callback_every = 1000;   ///< iterations between progress/interrupt callbacks
  /// Per-coordinate lower floor (reflection); -Inf where unconstrained. Empty: none.
  std::vector<double> floor;
};

/// @brief Progress and interrupt hook: called with (iterations done, T); returning
/// true stops the chain (Interrupted, stop.h). Nothing is returned from a stopped chain.
using SgldCallback = std::function<bool(int64_t, int64_t)>;

/// @brief Number of draws a chain stores.
inline int64_t sgld_kept(const SgldConfig& cfg) {
  if (cfg.iterations <= cfg.burn_in) return 0;
  return (cfg.iterations - cfg.burn_in) / cfg.thin;
}

inline void validate_sgld(const SgldConfig& cfg, int d) {
  if (cfg.iterations < 1) throw std::invalid_argument("dp_sgld: 'iterations' must be at least 1");
  if (!(cfg.rate > 0.0 && cfg.rate <= 1.0)) throw std::invalid_argument("dp_sgld: 'rate' must be in (0, 1]");
  if (!(cfg.step > 0.0) || !std::isfinite(cfg.step)) throw std::invalid_argument("dp_sgld: 'step' must be positive");
  if (!(cfg.omega > 0.0) || !std::isfinite(cfg.omega)) throw std::invalid_argument("dp_sgld: 'omega' must be positive");
  // An infinite clip (no clipping) is only meaningful without privacy noise.
  if (!(cfg.clip > 0.0) || (cfg.sigma > 0.0 && !std::isfinite(cfg.clip)))
    throw std::invalid_argument("dp_sgld: 'clip' must be positive (and finite for a private chain)");
  if (!(cfg.sigma >= 0.0) || !std::isfinite(cfg.sigma)) throw std::invalid_argument("dp_sgld: 'sigma' must be finite and >= 0");
  if (cfg.burn_in < 0 || cfg.thin < 1) throw std::invalid_argument("dp_sgld: need burn_in >= 0 and thin >= 1");
  if (sgld_kept(cfg) < 1) throw std::invalid_argument("dp_sgld: 'burn_in' leaves no iterations to keep");
  if (!cfg.floor.empty() && static_cast<int>(cfg.floor.size()) != d)
    throw std::invalid_argument("dp_sgld: 'floor' must have one entry per coordinate");
}

/// @brief Runs one DP-SGLD chain for `loss` on the records (x row-major n x p, y or
/// nullptr) from theta0 and returns the kept iterates, row-major (kept x d).
/// `clipped` counts per-record gradients the clip changed (for the analyst only).
template <class Loss>
std::vector<double> run_dp_sgld(const Loss& loss, const double* x, const double* y, int64_t n, int p,
                                std::vector<double> theta, const SgldConfig& cfg, Rng& rng,
                                const SgldCallback& callback, int64_t* clipped = nullptr) {
  const int d = loss.dim();
  if (static_cast<int>(theta.size()) != d) throw std::invalid_argument("dp_sgld: 'theta0' has the wrong length");
  if (n < 1) throw std::invalid_argument("dp_sgld: no records");
  validate_sgld(cfg, d);
  if (!loss.theta_ok(theta.data())) throw std::invalid_argument("dp_sgld: 'theta0' is outside the loss's domain");
  const int64_t kept = sgld_kept(cfg);
  std::vector<double> out(static_cast<size_t>(kept) * d);
  std::vector<double> g(d), sum(d);
  // Each clipped gradient has norm <= C and a subset has at most n records, so
  // every coordinate of the sum is at most n C: exact fixed-point summation
  // (exact_sum.h) keeps the released sum within the sensitivity C.
  ExactSum exact(d, static_cast<double>(n) * cfg.clip);
  std::vector<int64_t> subset;
  const GeometricGaps gaps(cfg.rate);  // the gaps of rng.poisson_subset(), by table
  const double drift_scale = cfg.omega / cfg.rate;  // unbiased for omega * sum_i grad l_i
  int64_t stored = 0, n_clipped = 0;
  for (int64_t t = 1; t <= cfg.iterations; ++t) {
    exact.clear();
    subset.clear();
    rng.poisson_range(0, n, gaps, subset);
    for (int64_t i : subset) {
      loss.gradient(theta.data(), x + static_cast<size_t>(i) * p, y ? y[i] : 0.0, cfg.tau, g.data());
      if (clip_to_norm(g.data(), d, cfg.clip) != 1.0) ++n_clipped;
      for (int j = 0; j < d; ++j) exact.add(j, g[j]);
    }
    exact.write(sum.data());
    // (a): the only data-dependent release of the step, noise sd sigma (accountant "plain").
    if (cfg.sigma > 0.0)
      for (int j = 0; j < d; ++j) sum[j] += cfg.sigma * rng.normal();
    // (b): Langevin update, post-processing of the privatised sum.
    const double eta = cfg.step * std::pow(static_cast<double>(t), -cfg.decay);
    const double sd = std::sqrt(2.0 * eta);
    for (int j = 0; j < d; ++j) theta[j] += -eta * drift_scale * sum[j] + sd * rng.normal();
    if (!cfg.floor.empty())
      for (int j = 0; j < d; ++j) {
        const double f = cfg.floor[j];
        if (theta[j] < f) {
          theta[j] = 2.0 * f - theta[j];  // reflect; a far overshoot lands at the floor's mirror
          if (theta[j] < f || !std::isfinite(theta[j])) theta[j] = f;
        }
      }
    for (int j = 0; j < d; ++j)
      if (!std::isfinite(theta[j]))
        throw std::runtime_error("dp_sgld: the chain diverged (non-finite iterate); use a smaller 'step'");
    if (t > cfg.burn_in && (t - cfg.burn_in) % cfg.thin == 0 && stored < kept) {
      for (int j = 0; j < d; ++j) out[static_cast<size_t>(stored) * d + j] = theta[j];
      ++stored;
    }
    if (callback && (t % cfg.callback_every == 0 || t == cfg.iterations))
      if (callback(t, cfg.iterations)) throw Interrupted();
  }
  if (clipped) *clipped = n_clipped;
  return out;
}

}  // namespace pgbb

#endif  // PGBB_CORE_DP_SGLD_H
