// Core tests of the NoisyGibbs and DP-Bootstrap cores beyond test_baselines.cpp:
// the truncated normal in the far tails (every call terminates and stays inside),
// the samplers at n = 1, with one kept draw, with tiny and huge noise and with
// released values far outside the public range; input validation; the stop
// callbacks; degenerate bootstrap resamples.
#include <cmath>
#include <limits>
#include <vector>

#include "dp_bootstrap.h"
#include "noisy_gibbs.h"
#include "noisy_gibbs_linear.h"
#include "test_framework.h"

namespace {
const double kPosInf = std::numeric_limits<double>::infinity();
const double kQNaN = std::numeric_limits<double>::quiet_NaN();

pgbb::GibbsSchedule sched(int64_t it, int64_t burn, int64_t thin) {
  pgbb::GibbsSchedule s;
  s.iterations = it; s.burn_in = burn; s.thin = thin;
  return s;
}
}  // namespace

CORE_TEST(truncated_normal_far_tails_terminate) {
  pgbb::Rng r(30);
  // Intervals where a*a overflows, where a + sqrt(a^2 + 4) loses 4, and tiny windows;
  // before the fix the first and the mirrored last ones looped forever.
  const double cases[][2] = {{1e200, kPosInf}, {1e155, 2e155},  {-2e155, -1e155}, {-kPosInf, -1e200},
                             {1e10, 1e10 + 1},  {37.0, 37.0001}, {-1e-300, 1e-300}, {8.0, kPosInf},
                             {-1e300, -1e299},  {1e137, 1e154},  {0.0, 1e-12},      {-kPosInf, kPosInf}};
  for (const auto& c : cases) {
    for (int i = 0; i < 50; ++i) {
      const double z = pgbb::truncated_std_normal(r, c[0], c[1]);
      CHECK(z >= c[0] && z <= c[1] && !std::isnan(z));
    }
  }
  // Far-tail mean: E[Z | Z > a] = a + 1/a - 2/a^3 + ... for large a.
  double s = 0;
  for (int i = 0; i < 20000; ++i) s += pgbb::truncated_std_normal(r, 50.0, kPosInf) - 50.0;
  CHECK_NEAR(s / 20000, 1.0 / 50 - 2.0 / 125000, 6.0 / 50 / std::sqrt(20000.0));  // sd ~ 1/a
  CHECK_THROWS(pgbb::truncated_std_normal(r, kQNaN, 1.0));
  CHECK_THROWS(pgbb::truncated_std_normal(r, 2.0, 1.0));
  CHECK_THROWS(pgbb::truncated_normal(r, 0.0, kPosInf, -1.0, 1.0));
  CHECK_THROWS(pgbb::truncated_normal(r, 0.0, kQNaN, -1.0, 1.0));
  // Tiny sd with the mean outside the window: draws pinned at the nearer end.
  for (int i = 0; i < 20; ++i) {
    const double v = pgbb::truncated_normal(r, 10.0, 1e-150, 0.0, 9.0);
    CHECK(v <= 9.0 && v >= 9.0 - 1e-140);
  }
}

CORE_TEST(noisy_gibbs_expfam_edges) {
  pgbb::Rng r(31);
  pgbb::ExpFamilyModel g;  // Gaussian, known sd 1
  pgbb::ExpFamilyModel e;
  e.family = pgbb::ExpFamily::Exponential;
  // One kept draw, n = 1.
  pgbb::ExpFamilyDraws d = pgbb::noisy_gibbs_expfam(g, 0.3, 1.0, 1, -1, 1, sched(1, 0, 1), r);
  CHECK(d.theta.size() == 1u && d.latent.size() == 1u && std::isfinite(d.theta[0]));
  // Noise tiny relative to the range, released value outside [n a, n b] (after clipping
  // a sum at the bound plus rounding): the latent draw is pinned at the bound. (z /
  // noise^2 must stay finite: the conditional's mean is not representable otherwise.)
  for (double noise : {1e-100, 1e-10, 1e3, 1e150}) {
    for (double z : {-1e6, -50.0, 0.0, 50.0 + 1e-9, 1e6}) {
      for (const pgbb::ExpFamilyModel* m : {&g, &e}) {
        const double lo = m->family == pgbb::ExpFamily::Exponential ? 0.0 : -1.0;
        d = pgbb::noisy_gibbs_expfam(*m, z, noise, 50, lo, 1.0, sched(40, 10, 3), r);
        CHECK(static_cast<int64_t>(d.theta.size()) == sched(40, 10, 3).kept());
        for (double s : d.latent) CHECK(s >= 50 * lo && s <= 50.0);
        for (double t : d.theta) CHECK(std::isfinite(t));
        if (m->family == pgbb::ExpFamily::Exponential) for (double t : d.theta) CHECK(t > 0);
      }
    }
  }
  // Zero noise at the edge of the valid range.
  d = pgbb::noisy_gibbs_expfam(e, 0.0, 0.0, 10, 0.0, 1.0, sched(10, 0, 1), r);
  for (double t : d.theta) CHECK(std::isfinite(t) && t > 0);
  // Invalid inputs, each an exception.
  CHECK_THROWS(pgbb::noisy_gibbs_expfam(g, 0.0, 1.0, 0, -1, 1, sched(10, 0, 1), r));
  CHECK_THROWS(pgbb::noisy_gibbs_expfam(g, 0.0, 1.0, 5, 1, 1, sched(10, 0, 1), r));
  CHECK_THROWS(pgbb::noisy_gibbs_expfam(g, 0.0, 1.0, 5, -kPosInf, 1, sched(10, 0, 1), r));
  CHECK_THROWS(pgbb::noisy_gibbs_expfam(g, kQNaN, 1.0, 5, -1, 1, sched(10, 0, 1), r));
  CHECK_THROWS(pgbb::noisy_gibbs_expfam(g, kPosInf, 1.0, 5, -1, 1, sched(10, 0, 1), r));
  CHECK_THROWS(pgbb::noisy_gibbs_expfam(g, 0.0, kQNaN, 5, -1, 1, sched(10, 0, 1), r));
  CHECK_THROWS(pgbb::noisy_gibbs_expfam(g, 0.0, kPosInf, 5, -1, 1, sched(10, 0, 1), r));
  CHECK_THROWS(pgbb::noisy_gibbs_expfam(g, 0.0, 1.0, 5, -1, 1, sched(0, 0, 1), r));
  CHECK_THROWS(pgbb::noisy_gibbs_expfam(g, 0.0, 1.0, 5, -1, 1, sched(10, -1, 1), r));
  CHECK_THROWS(pgbb::noisy_gibbs_expfam(g, 0.0, 1.0, 5, -1, 1, sched(10, 0, 0), r));
  pgbb::ExpFamilyModel bad = g;
  bad.known_sd = 0;
  CHECK_THROWS(pgbb::noisy_gibbs_expfam(bad, 0.0, 1.0, 5, -1, 1, sched(10, 0, 1), r));
  bad = g;
  bad.prior_var = kPosInf;
  CHECK_THROWS(pgbb::noisy_gibbs_expfam(bad, 0.0, 1.0, 5, -1, 1, sched(10, 0, 1), r));
  bad = e;
  bad.prior_rate = 0;
  CHECK_THROWS(pgbb::noisy_gibbs_expfam(bad, 0.0, 1.0, 5, 0, 1, sched(10, 0, 1), r));
  // The stop callback (polled every 1000 iterations) ends the chain with an exception.
  CHECK_THROWS(pgbb::noisy_gibbs_expfam(g, 0.0, 1.0, 5, -1, 1, sched(5000, 0, 1), r, [] { return true; }));
  // Release helpers.
  const double x[] = {-5.0, 0.5, 7.0};
  CHECK(pgbb::clipped_sum(x, 3, -1.0, 1.0) == 0.5);
  CHECK(pgbb::clipped_sum(x, 0, -1.0, 1.0) == 0.0);
  std::vector<double> v = {1.0, 2.0};
  pgbb::gaussian_release(v, 0.0, 1.0, r);
  CHECK(v == std::vector<double>({1.0, 2.0}));
  CHECK_THROWS(pgbb::gaussian_release(v, -1.0, 1.0, r));
  CHECK_THROWS(pgbb::gaussian_release(v, kPosInf, 1.0, r));
  CHECK_THROWS(pgbb::gaussian_release(v, kQNaN, 1.0, r));
}

CORE_TEST(noisy_gibbs_linear_edges) {
  CHECK_THROWS(pgbb::MomentIndex(0));
  CHECK_THROWS(pgbb::MomentIndex(41));
  const pgbb::MomentIndex big(40);  // the largest supported design
  CHECK(big.q() == 820 && big.q4() == 123410 && big.d() == 861);
  CHECK(big.quad(39, 0, 39, 0) == big.quad(0, 0, 39, 39));
  const double x1[] = {0.5};
  const double y1[] = {2.0};
  CHECK_THROWS(pgbb::linear_statistics(x1, y1, 0, 1, 1.0, 1.0));
  CHECK_THROWS(pgbb::linear_statistics(x1, y1, 1, 1, 0.0, 1.0));
  CHECK_THROWS(pgbb::linear_statistics(x1, y1, 1, 1, 1.0, kPosInf));
  CHECK_THROWS(pgbb::linear_statistics(x1, y1, 1, 0, 1.0, 1.0));
  // n = 1, p = 1, response clipped.
  pgbb::LinearStatistics st = pgbb::linear_statistics(x1, y1, 1, 1, 1.0, 1.5);
  CHECK(st.s.size() == 3 && st.s[0] == 0.25 && st.s[1] == 0.75 && st.s[2] == 2.25);
  pgbb::NigPrior pr;
  pr.mean = Eigen::VectorXd::Zero(1);
  pr.precision = Eigen::MatrixXd::Identity(1, 1);
  pgbb::Rng r(32);
  // Exact statistics of one record, zero noise: valid (the prior makes it proper).
  pgbb::LinearDraws d = pgbb::noisy_gibbs_linear(st.s, 0.0, st.m2, st.m4, 1, 1, pr, sched(20, 0, 1), r);
  CHECK(d.theta.rows() == 20 && d.theta.allFinite() && (d.sigma2.array() > 0).all());
  // Noisy, one kept draw, huge noise.
  d = pgbb::noisy_gibbs_linear(st.s, 1e6, st.m2, st.m4, 1, 1, pr, sched(3, 2, 1), r);
  CHECK(d.theta.rows() == 1 && d.theta.allFinite());
  // Zero noise with statistics no data set has (negative y'y): refused.
  Eigen::VectorXd bad_s = st.s;
  bad_s[2] = -100.0;  // y'y far below what any data set gives: improper posterior
  CHECK_THROWS(pgbb::noisy_gibbs_linear(bad_s, 0.0, st.m2, st.m4, 1, 1, pr, sched(5, 0, 1), r));
  Eigen::VectorXd nan_s = st.s;
  nan_s[0] = kQNaN;
  CHECK_THROWS(pgbb::noisy_gibbs_linear(nan_s, 1.0, st.m2, st.m4, 1, 1, pr, sched(5, 0, 1), r));
  CHECK_THROWS(pgbb::noisy_gibbs_linear(st.s, 1.0, st.m2, Eigen::VectorXd::Zero(2), 1, 1, pr, sched(5, 0, 1), r));
  CHECK_THROWS(pgbb::noisy_gibbs_linear(st.s, 1.0, st.m2, st.m4, 0, 1, pr, sched(5, 0, 1), r));
  pgbb::NigPrior wrong = pr;
  wrong.mean = Eigen::VectorXd::Zero(2);
  CHECK_THROWS(pgbb::noisy_gibbs_linear(st.s, 1.0, st.m2, st.m4, 1, 1, wrong, sched(5, 0, 1), r));
  wrong = pr;
  wrong.shape = 0;
  CHECK_THROWS(pgbb::noisy_gibbs_linear(st.s, 1.0, st.m2, st.m4, 1, 1, wrong, sched(5, 0, 1), r));
  wrong = pr;
  wrong.precision(0, 0) = kQNaN;
  CHECK_THROWS(pgbb::noisy_gibbs_linear(st.s, 1.0, st.m2, st.m4, 1, 1, wrong, sched(5, 0, 1), r));
  // Released moments that are pure noise (indefinite): projected, chain stays finite.
  Eigen::VectorXd m2 = st.m2, m4 = st.m4;
  m2[0] = -3.0;
  m4[0] = -7.0;
  d = pgbb::noisy_gibbs_linear(st.s, 5.0, m2, m4, 1, 1, pr, sched(50, 0, 1), r, nullptr, 2);
  CHECK(d.theta.allFinite() && (d.sigma2.array() > 0).all());
}

CORE_TEST(dp_bootstrap_degenerate_resamples) {
  pgbb::Rng r(33);
  std::vector<double> counts;
  pgbb::bootstrap_counts(1, r, counts);
  CHECK(counts.size() == 1u && counts[0] == 1.0);
  pgbb::bootstrap_counts(0, r, counts);
  CHECK(counts.empty());
  // Mean: one record, B = 1, all data outside the bounds, huge and zero noise.
  const double x[] = {50.0};
  std::vector<double> v = pgbb::dp_bootstrap_mean(x, 1, -1.0, 1.0, 1, 0.0, r);
  CHECK(v.size() == 1u && v[0] == 1.0);
  v = pgbb::dp_bootstrap_mean(x, 1, -1.0, 1.0, 5, 1e5, r);
  for (double m : v) CHECK(std::isfinite(m));
  // Noise beyond the exact sampler's range (sigma / sensitivity > 2^21) is refused.
  CHECK_THROWS(pgbb::dp_bootstrap_mean(x, 1, -1.0, 1.0, 5, 1e300, r));
  CHECK_THROWS(pgbb::dp_bootstrap_mean(x, 1, -1.0, 1.0, 0, 0.0, r));
  CHECK_THROWS(pgbb::dp_bootstrap_mean(x, 1, -1.0, 1.0, 5, kPosInf, r));
  CHECK_THROWS(pgbb::dp_bootstrap_mean(x, 1, -1.0, 1.0, 5, kQNaN, r));
  CHECK_THROWS(pgbb::dp_bootstrap_mean(x, 1, kQNaN, 1.0, 5, 0.0, r));
  std::vector<double> many(200, 0.3);
  CHECK_THROWS(pgbb::dp_bootstrap_mean(many.data(), 200, 0.0, 1.0, 500, 0.1, r, [] { return true; }));
  // Ridge Huber on one record (fitted exactly: the scale at its floor), B = 1.
  Eigen::MatrixXd X1(1, 2);
  X1 << 0.5, -1.0;
  const double y1[] = {0.25};
  pgbb::HuberRidge hr;
  hr.lambda = 0.1;
  Eigen::MatrixXd rep = pgbb::dp_bootstrap_huber(X1, y1, hr, 1, 0.0, 0.5, r);
  CHECK(rep.rows() == 1 && rep.cols() == 3 && rep.allFinite() && rep(0, 2) >= hr.scale_floor);
  // All-zero weights: only the ridge term remains; the certified minimiser is (0, 0, floor).
  const std::vector<double> w0(1, 0.0);
  const Eigen::VectorXd th = pgbb::huber_ridge_fit(X1, y1, w0, hr, Eigen::VectorXd::Constant(7, kQNaN));
  CHECK(th.size() == 3 && std::fabs(th[0]) <= hr.tol && std::fabs(th[1]) <= hr.tol && th[2] == hr.scale_floor);
  // Extreme responses with bounded covariates: still certified (the loss is Lipschitz).
  Eigen::MatrixXd X(6, 1);
  X << 1, -1, 0.5, -0.5, 0.2, 0.0;
  const double y[] = {1e8, -1e8, 3.0, 1e-8, 0.0, 5.0};
  rep = pgbb::dp_bootstrap_huber(X, y, hr, 4, 1.0, 0.5, r);
  CHECK(rep.allFinite());
  pgbb::HuberRidge bad = hr;
  bad.scale_floor = 0.0;
  CHECK_THROWS(pgbb::dp_bootstrap_huber(X, y, bad, 2, 1.0, 0.5, r));
  bad = hr;
  bad.tol = kQNaN;
  CHECK_THROWS(pgbb::dp_bootstrap_huber(X, y, bad, 2, 1.0, 0.5, r));
  CHECK_THROWS(pgbb::dp_bootstrap_huber(X, y, hr, 2, -1.0, 0.5, r));
  CHECK_THROWS(pgbb::dp_bootstrap_huber(Eigen::MatrixXd(0, 1), y, hr, 2, 1.0, 0.5, r));
  CHECK_THROWS(pgbb::dp_bootstrap_huber(X, y, hr, 50, 1.0, 0.5, r, [] { return true; }));
  CHECK(hr.lipschitz(1.0, 3) > 0 && std::isfinite(hr.lipschitz(1.0, 3)));
}
