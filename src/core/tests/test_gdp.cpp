// Core tests of Gaussian differential privacy (gdp.h): the normal CDF/quantile
// in the tails, the privacy profile, the feasible-side root finds and the pure-DP
// conversions, at edge and extreme arguments (zero, subnormal, huge, infinite).
#include <cmath>
#include <limits>
#include <vector>

#include "gdp.h"
#include "test_framework.h"

namespace {
const double kPosInf = std::numeric_limits<double>::infinity();
const double kQNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

CORE_TEST(gdp_normal_cdf_and_quantile_tails) {
  CHECK(std::isnan(pgbb::log_norm_cdf(kQNaN)));
  CHECK(pgbb::log_norm_cdf(kPosInf) == 0.0);
  CHECK(pgbb::log_norm_cdf(-kPosInf) == -kPosInf);
  // Continuity where the erfc branch hands over to the asymptotic series.
  CHECK_NEAR(pgbb::log_norm_cdf(-37.0 + 1e-9), pgbb::log_norm_cdf(-37.0 - 1e-9), 1e-6);
  // Monotone and finite from the far lower tail to the upper tail.
  double prev = -kPosInf;
  for (double x = -1e5; x < 40; x = x < -100 ? x / 1.5 : x + 0.37) {
    const double v = pgbb::log_norm_cdf(x);
    CHECK(std::isfinite(v) && v <= 0.0 && v >= prev);
    prev = v;
  }
  CHECK(pgbb::log_norm_cdf(-1e200) == -kPosInf);  // -x^2/2 overflows: a defined limit
  // Value at x = -50 (R: pnorm(-50, log.p = TRUE)).
  CHECK_NEAR(pgbb::log_norm_cdf(-50.0), -1254.8313611394199, 1e-11);
  // Quantile: exact ends, invalid p, and round trips down to the smallest subnormal.
  CHECK(pgbb::norm_quantile(0.0) == -kPosInf && pgbb::norm_quantile(1.0) == kPosInf);
  CHECK_THROWS(pgbb::norm_quantile(-1e-300));
  CHECK_THROWS(pgbb::norm_quantile(1.0 + 1e-15));
  CHECK_THROWS(pgbb::norm_quantile(kQNaN));
  for (double p : {5e-324, 1e-320, 1e-310, 1e-300, 1e-100, 1e-10, 0.02425, 0.3, 0.5, 0.9, 0.97575, 1 - 1e-12}) {
    const double x = pgbb::norm_quantile(p);
    CHECK(std::isfinite(x));
    // Compare on the log scale of the lower tail (relative accuracy of p).
    const double lp = x < 0 ? pgbb::log_norm_cdf(x) : std::log1p(-pgbb::norm_cdf(-x));
    CHECK_NEAR(lp, std::log(p), 1e-12 * (1 + std::fabs(std::log(p))));
  }
  // Symmetry and a few digits of known values (qnorm in R).
  CHECK_NEAR(pgbb::norm_quantile(0.975), 1.959963984540054, 1e-14);
  CHECK_NEAR(pgbb::norm_quantile(1e-320), -38.269125343032648, 1e-12);
  CHECK_NEAR(pgbb::norm_quantile(0.1), -pgbb::norm_quantile(0.9), 1e-14);
}

CORE_TEST(gdp_profile_edges_and_monotonicity) {
  CHECK_THROWS(pgbb::gdp_log_delta(-1.0, 1.0));
  CHECK_THROWS(pgbb::gdp_log_delta(kQNaN, 1.0));
  CHECK_THROWS(pgbb::gdp_log_delta(1.0, -1.0));
  CHECK_THROWS(pgbb::gdp_log_delta(1.0, kQNaN));
  CHECK(pgbb::gdp_log_delta(0.0, 1.0) == -kPosInf);  // no privacy loss
  CHECK(pgbb::gdp_log_delta(1.0, kPosInf) == -kPosInf);
  CHECK(pgbb::gdp_log_delta(kPosInf, 1.0) == 0.0);   // blatant non-privacy: delta = 1
  // eps = 0: delta = 2 Phi(mu / 2) - 1.
  CHECK_NEAR(pgbb::gdp_delta(1.0, 0.0), 2 * pgbb::norm_cdf(0.5) - 1, 1e-15);
  // Both terms underflow: the log stays finite or is a defined -Inf, never NaN.
  for (double mu : {1e-300, 1e-3, 1.0, 30.0, 1e3, 1e150}) {
    double prev = 0.0;
    for (double eps : {0.0, 1e-3, 1.0, 10.0, 1e3, 1e6, 1e300}) {
      const double ld = pgbb::gdp_log_delta(mu, eps);
      CHECK(!std::isnan(ld) && ld <= 0.0);
      if (eps > 0) CHECK(ld <= prev + 1e-12 * std::fabs(prev) || ld == -kPosInf);  // non-increasing in eps
      prev = ld;
    }
  }
  for (double eps : {0.0, 1.0, 50.0}) {
    double prev = -kPosInf;
    for (double mu : {1e-6, 0.1, 1.0, 5.0, 20.0, 100.0}) {
      const double ld = pgbb::gdp_log_delta(mu, eps);
      CHECK(ld >= prev);  // non-decreasing in mu
      prev = ld;
    }
  }
}

CORE_TEST(gdp_profile_small_mu_without_cancellation) {
  // eps = 0: delta_mu(0) = 2 Phi(mu / 2) - 1 = erf(mu / (2 sqrt 2)), which std::erf gives
  // to full relative accuracy even where Phi(mu/2) - Phi(-mu/2) cancels completely.
  for (double mu : {1e-300, 1e-100, 1e-20, 1e-16, 1e-12, 1e-6, 1e-3, 0.5, 1.0}) {
    const double exact = std::erf(mu / (2 * std::sqrt(2.0)));
    CHECK_NEAR(pgbb::gdp_delta(mu, 0.0) / exact, 1.0, 1e-12);
  }
  // Small mu, eps = t mu: delta = mu (phi(t) - t Phi(-t)) (1 + O(mu)) (first-order expansion).
  for (double t : {0.25, 1.0, 3.0}) {
    const double first = std::exp(-0.5 * t * t) / std::sqrt(2 * M_PI) - t * pgbb::norm_cdf(-t);
    for (double mu : {1e-18, 1e-12, 1e-7}) CHECK_NEAR(pgbb::gdp_delta(mu, t * mu) / (mu * first), 1.0, 1e-10 + 10 * mu);
  }
  // The accurate branch hands over continuously at mu = 1 and eps = 10.
  for (double eps : {0.0, 0.5, 5.0}) CHECK_NEAR(pgbb::gdp_log_delta(1.0, eps), pgbb::gdp_log_delta(1.0 + 1e-12, eps), 1e-9);
  for (double mu : {0.2, 0.9}) CHECK_NEAR(pgbb::gdp_log_delta(mu, 10.0), pgbb::gdp_log_delta(mu, 10.0 + 1e-12), 1e-7);
  // Tiny targets: gdp_mu's answer has true delta (erf form) at most the target.
  for (double delta : {1e-14, 1e-20, 1e-200}) {
    const double mu = pgbb::gdp_mu(0.0, delta);
    CHECK(mu > 0 && std::erf(mu / (2 * std::sqrt(2.0))) <= delta * (1 + 1e-12));
    CHECK(mu >= 2.5 * delta);  // and not needlessly small (mu ~ sqrt(2 pi) delta)
  }
}

CORE_TEST(gdp_root_finds_return_the_feasible_side) {
  CHECK_THROWS(pgbb::gdp_mu(-1.0, 0.1));
  CHECK_THROWS(pgbb::gdp_mu(kPosInf, 0.1));
  CHECK_THROWS(pgbb::gdp_mu(kQNaN, 0.1));
  CHECK_THROWS(pgbb::gdp_mu(1.0, 0.0));
  CHECK_THROWS(pgbb::gdp_mu(1.0, 1.0));
  CHECK_THROWS(pgbb::gdp_epsilon(-1.0, 0.1));
  CHECK_THROWS(pgbb::gdp_epsilon(kPosInf, 0.1));
  CHECK_THROWS(pgbb::gdp_epsilon(1.0, 0.0));
  CHECK_THROWS(pgbb::gdp_epsilon(1.0, kQNaN));
  for (double eps : {0.0, 1e-8, 0.1, 1.0, 8.0, 100.0, 1e6}) {
    for (double delta : {1e-300, 1e-12, 1e-5, 0.5, 0.999999}) {
      const double mu = pgbb::gdp_mu(eps, delta);
      CHECK(mu >= 0.0 && std::isfinite(mu));
      CHECK(pgbb::gdp_delta(mu, eps) <= delta);                              // feasible
      if (mu > 1e-290) CHECK(pgbb::gdp_delta(mu * (1 + 1e-9), eps) > delta);  // and (nearly) the largest
    }
  }
  // eps = 0 in closed form: 2 Phi(mu / 2) - 1 = delta.
  CHECK_NEAR(pgbb::gdp_mu(0.0, 0.2), 2 * pgbb::norm_quantile(0.6), 1e-12);
  for (double mu : {0.0, 1e-300, 1e-3, 0.5, 3.0, 50.0, 1e4}) {
    for (double delta : {1e-300, 1e-10, 0.01, 0.5}) {
      const double eps = pgbb::gdp_epsilon(mu, delta);
      CHECK(eps >= 0.0 && std::isfinite(eps));
      CHECK(pgbb::gdp_delta(mu, eps) <= delta);
      if (eps > 1e-12) CHECK(pgbb::gdp_delta(mu, eps * (1 - 1e-9)) > delta);
    }
  }
  CHECK(pgbb::gdp_epsilon(0.0, 1e-10) == 0.0);
  // Round trip mu -> (eps, delta) -> mu never overstates the budget.
  for (double mu : {0.3, 1.0, 4.0}) {
    const double eps = pgbb::gdp_epsilon(mu, 1e-6);
    CHECK(pgbb::gdp_mu(eps, 1e-6) >= mu * (1 - 1e-9));
  }
}

CORE_TEST(gdp_composition_and_mechanism_scale) {
  CHECK(pgbb::gdp_compose({}) == 0.0);
  CHECK(pgbb::gdp_compose({0.0, 0.0}) == 0.0);
  CHECK_NEAR(pgbb::gdp_compose({3.0, 4.0}), 5.0, 1e-15);
  CHECK_NEAR(pgbb::gdp_compose({1e200, 1e200}), std::sqrt(2.0) * 1e200, 1e186);  // no overflow
  CHECK_NEAR(pgbb::gdp_compose({1e-200, 1e-200}), std::sqrt(2.0) * 1e-200, 1e-214);  // no underflow
  CHECK(pgbb::gdp_compose({1.0, kPosInf}) == kPosInf);
  CHECK_THROWS(pgbb::gdp_compose({1.0, -1.0}));
  CHECK_THROWS(pgbb::gdp_compose({kQNaN}));
  CHECK(pgbb::gdp_compose_delta({}) == 0.0);
  CHECK_NEAR(pgbb::gdp_compose_delta({0.5, 0.5}), 0.75, 1e-15);
  CHECK(pgbb::gdp_compose_delta({1.0, 0.1}) == 1.0);
  CHECK_NEAR(pgbb::gdp_compose_delta({1e-300, 1e-300}), 2e-300, 1e-314);
  CHECK_THROWS(pgbb::gdp_compose_delta({-0.1}));
  CHECK_THROWS(pgbb::gdp_compose_delta({1.1}));
  CHECK_THROWS(pgbb::gdp_compose_delta({kQNaN}));
  CHECK_NEAR(pgbb::gaussian_mechanism_scale(2.0, 0.5), 4.0, 1e-15);
  CHECK(pgbb::gaussian_mechanism_scale(0.0, 1.0) == 0.0);
  CHECK_THROWS(pgbb::gaussian_mechanism_scale(-1.0, 1.0));
  CHECK_THROWS(pgbb::gaussian_mechanism_scale(kPosInf, 1.0));
  CHECK_THROWS(pgbb::gaussian_mechanism_scale(kQNaN, 1.0));
  CHECK_THROWS(pgbb::gaussian_mechanism_scale(1.0, 0.0));
  CHECK_THROWS(pgbb::gaussian_mechanism_scale(1.0, kQNaN));
}

CORE_TEST(gdp_pure_dp_conversions) {
  CHECK_THROWS(pgbb::pure_dp_to_gdp_mu(-1.0));
  CHECK_THROWS(pgbb::pure_dp_to_gdp_mu(kQNaN));
  CHECK_THROWS(pgbb::gdp_mu_to_pure_eps(-1.0));
  CHECK(pgbb::pure_dp_to_gdp_mu(kPosInf) == kPosInf && pgbb::gdp_mu_to_pure_eps(kPosInf) == kPosInf);
  CHECK_NEAR(pgbb::pure_dp_to_gdp_mu(0.0), 0.0, 1e-15);
  double prev = 0.0;
  for (double eps : {1e-10, 0.1, 1.0, 10.0, 100.0, 699.0, 701.0, 1e4, 1e6}) {
    const double mu = pgbb::pure_dp_to_gdp_mu(eps);
    CHECK(std::isfinite(mu) && mu > prev);  // increasing, also across the bisection branch (eps > 700)
    prev = mu;
    // mu is conservative (never too small): converting back gives at least eps.
    CHECK(pgbb::gdp_mu_to_pure_eps(mu) >= eps * (1 - 1e-10));
    CHECK_NEAR(pgbb::gdp_mu_to_pure_eps(mu), eps, 1e-8 * (1 + eps));
  }
  // Closed form: mu = 2 Phi^{-1}(e^eps / (1 + e^eps)).
  CHECK_NEAR(pgbb::pure_dp_to_gdp_mu(1.0), 2 * pgbb::norm_quantile(std::exp(1.0) / (1 + std::exp(1.0))), 1e-13);
}
