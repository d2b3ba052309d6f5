// NoisyGibbs for exponential families (Bernstein & Sheldon 2018): the sum of a
// clipped sufficient statistic is released once by the Gaussian mechanism, and a
// noise-aware Gibbs sampler alternates between the parameter and the latent
// (true) statistic. PGBB paper, SM S3.1-S3.2: t(x) = x, data clipped to a public
// [a, b], replace-one sensitivity b - a, 4k iterations, half burn-in, thinning 2.
//
// The release (data -> noisy statistic) and the sampler (noisy statistic ->
// draws) are separate functions: only the release touches the data; the sampler
// is post-processing of the released value and may be run on any noise scale,
// including zero (the test path that checks the conditionals against the
// closed-form posterior).
#ifndef PGBB_CORE_NOISY_GIBBS_H
#define PGBB_CORE_NOISY_GIBBS_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "discrete_gaussian.h"
#include "exact_sum.h"
#include "gibbs_schedule.h"
#include "normal.h"
#include "rng.h"
#include "stop.h"

namespace pgbb {

/// Iterations between polls of the stop callback (stop.h).
constexpr int64_t kGibbsPollEvery = 1000;

/// @brief Draw from N(0, 1) truncated to [lo, hi] (lo < hi, either may be infinite).
/// Exact for every interval: plain rejection when the interval holds enough mass,
/// otherwise Robert's (1995) exponential or uniform proposals in the tail. The
/// interval only needs to be non-empty; the cost is bounded in expectation.
inline double truncated_std_normal(Rng& rng, double lo, double hi) {
  if (!(lo < hi)) throw std::invalid_argument("truncated normal: empty interval");
  if (lo < 0.0 && hi > 0.0 && norm_cdf(hi) - norm_cdf(lo) > 0.25) {
    for (;;) {
      const double z = rng.normal();
      if (z >= lo && z <= hi) return z;
    }
  }
  if (lo < 0.0 && hi > 0.0) {
    // Narrow interval around 0 (mass <= 0.25): uniform proposal, ratio exp(-z^2/2) <= 1.
    for (;;) {
      const double z = lo + (hi - lo) * rng.uniform();
      if (rng.uniform() <= std::exp(-0.5 * z * z)) return z;
    }
  }
  // One-sided: work on [a, b] with 0 <= a, mirroring an interval below zero.
  const bool mirror = hi <= 0.0;
  const double a = mirror ? -hi : lo, b = mirror ? -lo : hi;
  // 0 <= a < b: tail interval. Written without a * a, which overflows (and then
  // a * a - a sqrt(a^2 + 4) is NaN and the acceptance probability 0: an endless
  // loop) for a above ~1e154: sqrt(a^2 + 4) = hypot(a, 2) and
  // (a^2 - a sqrt(a^2 + 4)) / 4 = -a / (a + sqrt(a^2 + 4)).
  const double root = a + std::hypot(a, 2.0);
  const double rate = 0.5 * root;
  const double uniform_width = 2.0 * std::sqrt(std::exp(1.0)) / root * std::exp(-a / root);
  if (std::isfinite(b) && b - a <= uniform_width) {
    for (;;) {
      const double z = a + (b - a) * rng.uniform();
      if (rng.uniform() <= std::exp(0.5 * (a - z) * (a + z))) return mirror ? -z : z;
    }
  }
  for (;;) {
    const double z = a - std::log(rng.uniform()) / rate;
    if (z > b) continue;
    const double d = z - rate;
    if (rng.uniform() <= std::exp(-0.5 * d * d)) return mirror ? -z : z;
  }
}

/// @brief N(mean, sd^2) truncated to [lo, hi]; sd must be positive.
inline double truncated_normal(Rng& rng, double mean, double sd, double lo, double hi) {
  if (!(sd > 0.0) || !std::isfinite(sd)) throw std::invalid_argument("truncated normal: sd must be positive");
  return mean + sd * truncated_std_normal(rng, (lo - mean) / sd, (hi - mean) / sd);
}

/// @brief Exponential-family models of SM S3.2 (sufficient statistic t(x) = x).
enum class ExpFamily { Gaussian, Exponential };

/// @brief Conjugate prior and model constants.
/// Gaussian (known sd): mean ~ N(prior_mean, prior_var). Exponential: rate ~
/// Gamma(prior_shape, prior_rate).
struct ExpFamilyModel {
  ExpFamily family = ExpFamily::Gaussian;
  double known_sd = 1.0;     // Gaussian only
  double prior_mean = 0.0;   // Gaussian only
  double prior_var = 1.0;    // Gaussian only
  double prior_shape = 1.0;  // Exponential only
  double prior_rate = 1.0;   // Exponential only

  void validate() const {
    if (family == ExpFamily::Gaussian) {
      if (!(known_sd > 0.0) || !std::isfinite(known_sd))
        throw std::invalid_argument("NoisyGibbs: the known sd must be positive and finite");
      if (!std::isfinite(prior_mean) || !(prior_var > 0.0) || !std::isfinite(prior_var))
        throw std::invalid_argument("NoisyGibbs: the normal prior needs a finite mean and a positive variance");
    } else {
      if (!(prior_shape > 0.0) || !(prior_rate > 0.0) || !std::isfinite(prior_shape) ||
          !std::isfinite(prior_rate))
        throw std::invalid_argument("NoisyGibbs: the gamma prior needs a positive shape and rate");
    }
  }
};

/// @brief Sum of the data clipped to [lower, upper]: the statistic whose
/// replace-one sensitivity is upper - lower (one record moves by at most that).
/// Summed exactly (exact_sum.h), so no rounding depends on the other records.
inline double clipped_sum(const double* x, int64_t n, double lower, double upper) {
  ExactSum s(1, static_cast<double>(n < 1 ? 1 : n) * std::max(std::fabs(lower), std::fabs(upper)));
  for (int64_t i = 0; i < n; ++i) s.add(0, std::min(std::max(x[i], lower), upper));
  double out = 0.0;  // s.write() sets it; the compiler cannot see that
  s.write(&out);
  return out;
}

/// @brief Gaussian-mechanism release of a vector statistic with l2 sensitivity
/// `sensitivity`: value + noise of sd sigma, as an exact discrete Gaussian on a
/// public grid (discrete_gaussian.h) at the same privacy. Returns the released
/// noise sd (slightly above sigma), the scale the noise-aware sampler must use.
/// The noise comes from the package engine only, never from data-dependent draws.
inline double gaussian_release(std::vector<double>& value, double sigma, double sensitivity, Rng& rng) {
  if (!(sigma >= 0.0) || !std::isfinite(sigma))
    throw std::invalid_argument("Gaussian mechanism: the noise scale must be finite and non-negative");
  if (value.empty()) return sigma;
  const GridGaussian g = GridGaussian::plan(sigma, sensitivity, static_cast<int>(value.size()));
  g.release(value, rng);
  return g.sd();
}

/// @brief Output of the exponential-family sampler.
struct ExpFamilyDraws {
  std::vector<double> theta;   // mean (Gaussian) or rate (Exponential), one per kept draw
  std::vector<double> latent;  // the latent true sum s at the kept draws
};

/// @brief Noise-aware Gibbs sampler of Bernstein & Sheldon (2018) for a scalar
/// sufficient statistic. Given the released z = s + N(0, noise_sd^2):
///  (1) theta | s: the exact conjugate posterior (it depends on the data only through s);
///  (2) s | theta, z  propto  N(s; n E[t], n Var[t]) N(z; s, noise_sd^2): the CLT
///      normal approximation of p(s | theta) times the Gaussian noise likelihood, a
///      normal, truncated to [n lower, n upper], the public range of the clipped sum
///      (the true s lies there, and for the Exponential it keeps the rate's
///      posterior proper).
/// noise_sd = 0 is the exact-statistic path: s = z throughout and (1) is then an
/// i.i.d. draw from the closed-form posterior.
inline ExpFamilyDraws noisy_gibbs_expfam(const ExpFamilyModel& model, double z, double noise_sd,
                                         int64_t n, double lower, double upper,
                                         const GibbsSchedule& schedule, Rng& rng,
                                         const StopCallback& should_stop = nullptr) {
  model.validate();
  schedule.validate();
  if (n < 1) throw std::invalid_argument("NoisyGibbs: need at least one record");
  if (!(lower < upper) || !std::isfinite(lower) || !std::isfinite(upper))
    throw std::invalid_argument("NoisyGibbs: the public interval needs finite lower < upper");
  if (model.family == ExpFamily::Exponential && lower < 0.0)
    throw std::invalid_argument("NoisyGibbs (exponential): the public interval must lie in [0, Inf)");
  if (!std::isfinite(z)) throw std::invalid_argument("NoisyGibbs: the released statistic must be finite");
  if (!(noise_sd >= 0.0) || !std::isfinite(noise_sd))
    throw std::invalid_argument("NoisyGibbs: the noise scale must be finite and non-negative");

  const double nd = static_cast<double>(n);
  const double s_lo = nd * lower, s_hi = nd * upper;
  double s;
  if (noise_sd == 0.0) {
    if (z < s_lo || z > s_hi)
      throw std::invalid_argument("NoisyGibbs: with zero noise the statistic must lie in [n lower, n upper]");
    s = z;
  } else {
    s = std::min(std::max(z, s_lo), s_hi);
  }
  // For the Exponential the sum is strictly positive almost surely; s = 0 with a
  // zero prior rate is excluded by prior_rate > 0, so the Gamma rate is positive.

  ExpFamilyDraws out;
  out.theta.reserve(static_cast<size_t>(schedule.kept()));
  out.latent.reserve(static_cast<size_t>(schedule.kept()));
  const double noise_var = noise_sd * noise_sd;
  double theta = 0.0;
  for (int64_t t = 1; t <= schedule.iterations; ++t) {
    poll_stop(should_stop, t, kGibbsPollEvery);
    // (1) theta | s, conjugate.
    if (model.family == ExpFamily::Gaussian) {
      const double s2 = model.known_sd * model.known_sd;
      const double prec = 1.0 / model.prior_var + nd / s2;
      const double mean = (model.prior_mean / model.prior_var + s / s2) / prec;
      theta = mean + rng.normal() / std::sqrt(prec);
    } else {
      theta = rng.gamma(model.prior_shape + nd) / (model.prior_rate + s);
    }
    // (2) s | theta, z: N(n mu, n v) prior (CLT) times the Gaussian noise likelihood.
    if (noise_sd > 0.0) {
      double mu, v;
      if (model.family == ExpFamily::Gaussian) {
        mu = theta;
        v = model.known_sd * model.known_sd;
      } else {
        mu = 1.0 / theta;
        v = 1.0 / (theta * theta);
      }
      const double prior_var_s = nd * v;
      const double post_var = 1.0 / (1.0 / prior_var_s + 1.0 / noise_var);
      const double post_mean = post_var * (nd * mu / prior_var_s + z / noise_var);
      // mean + sd * z can round past the range by an ulp of the mean (tiny sd, mean far
      // outside); the clamp keeps s in [n lower, n upper], where the Gamma rate is positive.
      s = std::min(std::max(truncated_normal(rng, post_mean, std::sqrt(post_var), s_lo, s_hi), s_lo), s_hi);
    }
    if (schedule.keep(t)) {
      out.theta.push_back(theta);
      out.latent.push_back(s);
    }
  }
  return out;
}

}  // namespace pgbb

#endif  // PGBB_CORE_NOISY_GIBBS_H
