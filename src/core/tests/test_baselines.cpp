// Core tests of the NoisyGibbs and DP-Bootstrap baselines: memory safety and
// defined behaviour on edge cases, plus exact checks that need no statistics
// (statistical properties are tested from R against closed forms).
#include <cmath>
#include <vector>

#include "dp_bootstrap.h"
#include "noisy_gibbs.h"
#include "noisy_gibbs_linear.h"
#include "rng.h"
#include "test_framework.h"

CORE_TEST(truncated_normal_stays_inside_and_matches_mean) {
  pgbb::Rng r(11);
  const double inf = std::numeric_limits<double>::infinity();
  // (lo, hi) covering: wide around 0, narrow around 0, far right tail, far left
  // tail, narrow tail window, one-sided infinite.
  const double cases[][2] = {{-3, 3}, {-0.01, 0.02}, {6, 6.5}, {-9, -8}, {4, 4.001}, {2, inf}, {-inf, -1}};
  for (const auto& c : cases) {
    double sum = 0.0;
    const int reps = 20000;
    for (int i = 0; i < reps; ++i) {
      const double z = pgbb::truncated_std_normal(r, c[0], c[1]);
      CHECK(z >= c[0] && z <= c[1]);
      sum += z;
    }
    // Exact mean of the truncated standard normal: (phi(lo) - phi(hi)) / (Phi(hi) - Phi(lo)),
    // in the tails via the ratio to avoid underflow.
    auto phi = [](double v) { return std::isfinite(v) ? std::exp(-0.5 * v * v) / std::sqrt(2 * M_PI) : 0.0; };
    double mass = pgbb::norm_cdf(c[1]) - pgbb::norm_cdf(c[0]);
    if (c[0] > 0) mass = pgbb::norm_cdf(-c[0]) - pgbb::norm_cdf(-c[1]);
    const double exact = (phi(c[0]) - phi(c[1])) / mass;
    // sd of a truncated normal is at most 1; 6 standard errors.
    CHECK_NEAR(sum / reps, exact, 6.0 / std::sqrt(static_cast<double>(reps)));
  }
  CHECK_THROWS(pgbb::truncated_std_normal(r, 1.0, 1.0));
  CHECK_THROWS(pgbb::truncated_normal(r, 0.0, 0.0, -1.0, 1.0));
}

CORE_TEST(gibbs_schedule_validation) {
  pgbb::GibbsSchedule s;
  s.iterations = 10; s.burn_in = 5; s.thin = 2;
  CHECK(s.kept() == 2);
  int kept = 0;
  for (int64_t t = 1; t <= s.iterations; ++t) kept += s.keep(t);
  CHECK(kept == 2);
  s.burn_in = 10;
  CHECK_THROWS(s.validate());
  s.burn_in = 9; s.thin = 2;
  CHECK_THROWS(s.validate());  // keeps no draw
}

CORE_TEST(expfam_zero_noise_is_conjugate) {
  // With noise_sd = 0 the latent is pinned at z and every draw is from the
  // closed-form conjugate posterior; check the sample mean against it.
  pgbb::Rng r(5);
  pgbb::ExpFamilyModel m;
  m.family = pgbb::ExpFamily::Gaussian;
  m.known_sd = 0.5; m.prior_mean = 0.0; m.prior_var = 4.0;
  pgbb::GibbsSchedule sch; sch.iterations = 20000; sch.burn_in = 0; sch.thin = 1;
  const int n = 100;
  const double z = 150.0;
  pgbb::ExpFamilyDraws d = pgbb::noisy_gibbs_expfam(m, z, 0.0, n, -5, 5, sch, r);
  CHECK(static_cast<int64_t>(d.theta.size()) == sch.kept());
  double mean = 0.0;
  for (double t : d.theta) mean += t;
  mean /= d.theta.size();
  const double prec = 1.0 / 4.0 + n / 0.25;
  CHECK_NEAR(mean, (z / 0.25) / prec, 6.0 / std::sqrt(prec * 20000));
  for (double s : d.latent) CHECK(s == z);
  // Exponential: the rate is Gamma(a + n, b + s).
  m.family = pgbb::ExpFamily::Exponential;
  m.prior_shape = 2.0; m.prior_rate = 1.0;
  d = pgbb::noisy_gibbs_expfam(m, 180.0, 0.0, n, 0, 12, sch, r);
  mean = 0.0;
  for (double t : d.theta) mean += t;
  mean /= d.theta.size();
  const double a = 2.0 + n, b = 1.0 + 180.0;
  CHECK_NEAR(mean, a / b, 6.0 * std::sqrt(a) / b / std::sqrt(20000.0));
  // Invalid inputs.
  CHECK_THROWS(pgbb::noisy_gibbs_expfam(m, 180.0, 0.0, n, -1, 12, sch, r));   // exponential needs lower >= 0
  CHECK_THROWS(pgbb::noisy_gibbs_expfam(m, 5000.0, 0.0, n, 0, 12, sch, r));   // zero noise, s outside [0, 12 n]
  CHECK_THROWS(pgbb::noisy_gibbs_expfam(m, 180.0, -1.0, n, 0, 12, sch, r));
}

CORE_TEST(expfam_noisy_latent_within_public_range) {
  pgbb::Rng r(6);
  pgbb::ExpFamilyModel m;
  m.family = pgbb::ExpFamily::Exponential;
  pgbb::GibbsSchedule sch; sch.iterations = 2000; sch.burn_in = 0; sch.thin = 1;
  // A released value far outside [0, n b] (huge noise): latent stays in range.
  pgbb::ExpFamilyDraws d = pgbb::noisy_gibbs_expfam(m, -500.0, 300.0, 50, 0, 12, sch, r);
  for (double s : d.latent) CHECK(s >= 0.0 && s <= 600.0);
  for (double t : d.theta) CHECK(std::isfinite(t) && t > 0.0);
}

CORE_TEST(linear_statistics_exact_and_clipped) {
  // Two records, p = 2, with one coordinate and the response outside the bounds.
  const double x[] = {0.5, 3.0, -0.2, 0.1};  // column-major: x1 = (0.5, 3), x2 = (-0.2, 0.1)
  const double y[] = {1.0, -9.0};
  pgbb::LinearStatistics st = pgbb::linear_statistics(x, y, 2, 2, 1.0, 2.0);
  // Clipped: x1 = (0.5, 1), y = (1, -2). The sums are exact on a grid of
  // n b^2 2^-51 (exact_sum.h; at most 3.6e-15 here, b = 2 for y y): two terms,
  // each truncated by less than one step.
  const double tol = 8e-15;
  CHECK_NEAR(st.s[0], 0.25 + 1.0, tol);          // x1 x1
  CHECK_NEAR(st.s[1], -0.1 + 0.1, tol);          // x1 x2
  CHECK_NEAR(st.s[2], 0.04 + 0.01, tol);         // x2 x2
  CHECK_NEAR(st.s[3], 0.5 - 2.0, tol);           // x1 y
  CHECK_NEAR(st.s[4], -0.2 - 0.2, tol);          // x2 y
  CHECK_NEAR(st.s[5], 1.0 + 4.0, tol);           // y y
  CHECK(st.m4.size() == 5);                        // choose(2 + 3, 4)
  CHECK_NEAR(st.m4[0], (0.0625 + 1.0) / 2, 1e-15); // x1^4
  CHECK_NEAR(st.m4[4], (0.0016 + 0.0001) / 2, 1e-15);  // x2^4
  pgbb::MomentIndex ix(3);
  CHECK(ix.q() == 6 && ix.q4() == 15 && ix.d() == 10);
  CHECK(ix.quad(2, 0, 1, 0) == ix.quad(0, 0, 1, 2));
}

CORE_TEST(linear_gibbs_zero_noise_and_errors) {
  pgbb::Rng r(9);
  const int n = 200, p = 2;
  std::vector<double> x(n * p), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 1.0;
    x[i + n] = 2 * r.uniform() - 1;
    y[i] = 0.5 + 2.0 * x[i + n] + 0.3 * r.normal();
  }
  pgbb::LinearStatistics st = pgbb::linear_statistics(x.data(), y.data(), n, p, 1.0, 5.0);
  pgbb::NigPrior pr;
  pr.mean = Eigen::VectorXd::Zero(p);
  pr.precision = Eigen::MatrixXd::Identity(p, p) * 0.01;
  pgbb::GibbsSchedule sch; sch.iterations = 500; sch.burn_in = 100; sch.thin = 4;
  pgbb::LinearDraws d = pgbb::noisy_gibbs_linear(st.s, 0.0, st.m2, st.m4, n, p, pr, sch, r);
  CHECK(d.theta.rows() == sch.kept() && d.theta.cols() == p);
  CHECK(d.theta.allFinite() && d.sigma2.allFinite() && (d.sigma2.array() > 0).all());
  // Noisy path with an intercept column (zero CLT variance for its X'X entry).
  Eigen::VectorXd z = st.s;
  for (int a = 0; a < z.size(); ++a) z[a] += 2.0 * r.normal();
  d = pgbb::noisy_gibbs_linear(z, 2.0, st.m2, st.m4, n, p, pr, sch, r);
  CHECK(d.theta.allFinite() && (d.sigma2.array() > 0).all());
  // Wrong lengths, bad prior.
  CHECK_THROWS(pgbb::noisy_gibbs_linear(z.head(3), 2.0, st.m2, st.m4, n, p, pr, sch, r));
  pgbb::NigPrior bad = pr;
  bad.precision(0, 0) = -1.0;
  CHECK_THROWS(pgbb::noisy_gibbs_linear(z, 2.0, st.m2, st.m4, n, p, bad, sch, r));
  CHECK_THROWS(pgbb::noisy_gibbs_linear(z, -1.0, st.m2, st.m4, n, p, pr, sch, r));
  // Released statistics far outside the valid set: proposals are often rejected,
  // the chain then keeps its (valid) latent value and stays finite.
  Eigen::VectorXd wild = st.s;
  wild.head(3).setConstant(-1e4);
  d = pgbb::noisy_gibbs_linear(wild, 5.0, st.m2, st.m4, n, p, pr, sch, r, nullptr, 3);
  CHECK(d.rejections > 0);
  CHECK(d.theta.allFinite() && (d.sigma2.array() > 0).all());
  CHECK_THROWS(pgbb::noisy_gibbs_linear(z, 2.0, st.m2, st.m4, n, p, pr, sch, r, nullptr, 0));
  // The stop callback ends the chain with an exception.
  pgbb::GibbsSchedule longer; longer.iterations = 5000; longer.burn_in = 0; longer.thin = 1;
  CHECK_INTERRUPTED(pgbb::noisy_gibbs_linear(z, 2.0, st.m2, st.m4, n, p, pr, longer, r, [] { return true; }));
}

CORE_TEST(huber_ridge_certified_minimiser) {
  pgbb::Rng r(3);
  const int n = 500, p = 2;
  Eigen::MatrixXd x(n, p);
  std::vector<double> y(n), w(n, 1.0);
  for (int i = 0; i < n; ++i) {
    x(i, 0) = 2 * r.uniform() - 1;
    x(i, 1) = 2 * r.uniform() - 1;
    y[i] = x(i, 0) - 2 * x(i, 1) + (r.uniform() < 0.1 ? 20.0 : 0.5) * r.normal();
  }
  pgbb::HuberRidge hr;
  hr.lambda = 0.05;
  hr.tol = 1e-9;
  Eigen::VectorXd th = pgbb::huber_ridge_fit(x, y.data(), w, hr, Eigen::VectorXd());
  Eigen::VectorXd g(p + 1);
  pgbb::huber_ridge_eval(x, y.data(), w, hr, th, &g, nullptr);
  CHECK(g.norm() / hr.lambda <= hr.tol);
  CHECK(th[p] > 0.0);
  // Strong convexity: no perturbation lowers the objective.
  const double f0 = pgbb::huber_ridge_eval(x, y.data(), w, hr, th, nullptr, nullptr);
  for (int k = 0; k < 50; ++k) {
    Eigen::VectorXd d(p + 1);
    for (int j = 0; j <= p; ++j) d[j] = 1e-3 * r.normal();
    if (th[p] + d[p] <= 0) continue;
    CHECK(pgbb::huber_ridge_eval(x, y.data(), w, hr, th + d, nullptr, nullptr) >= f0);
  }
  // Identical records are fitted exactly: the scale sits at its floor and the
  // constrained certificate (gradient mapping) still certifies the minimiser.
  Eigen::MatrixXd xs(20, 2);
  xs.col(0).setConstant(0.5);
  xs.col(1).setConstant(-0.2);
  std::vector<double> ys(20, 0.7), ws(20, 1.0);
  pgbb::HuberRidge hs;
  hs.lambda = 0.1;
  Eigen::VectorXd ts = pgbb::huber_ridge_fit(xs, ys.data(), ws, hs, Eigen::VectorXd());
  CHECK(ts[2] == hs.scale_floor);
  Eigen::VectorXd gs(3);
  pgbb::huber_ridge_eval(xs, ys.data(), ws, hs, ts, &gs, nullptr);
  CHECK(pgbb::huber_ridge_certificate(ts, gs, hs).norm() / hs.lambda <= hs.tol);
  hr.validate();
  pgbb::HuberRidge bad = hr;
  bad.c = 0.5;  // c^2 < kappa
  CHECK_THROWS(bad.validate());
  bad = hr;
  bad.lambda = 0.0;
  CHECK_THROWS(bad.validate());
  CHECK_THROWS(pgbb::dp_bootstrap_huber(x, y.data(), hr, 0, 1.0, 0.5, r));
  Eigen::MatrixXd rep = pgbb::dp_bootstrap_huber(x, y.data(), hr, 3, 0.1, 0.5, r);
  CHECK(rep.rows() == 3 && rep.cols() == p + 1 && rep.allFinite());
}

// The accountant charges nothing to a replicate whose resample misses the
// replaced record, so that replicate must be a function of its own resample
// alone: started from the previous replicate's fit (which saw the record), it
// agreed with its own minimiser only to the tolerance. With sigma_e = 0 the
// release consumes no randomness, so every replicate can be recomputed from a
// cold start on the resample its counts draw; they must agree bit for bit.
CORE_TEST(dp_bootstrap_huber_replicates_depend_on_their_resample_only) {
  pgbb::Rng r(11);
  const int n = 300, p = 2;
  Eigen::MatrixXd x(n, p);
  std::vector<double> y(n);
  for (int i = 0; i < n; ++i) {
    x(i, 0) = 2 * r.uniform() - 1;
    x(i, 1) = 2 * r.uniform() - 1;
    y[i] = 0.5 * x(i, 0) + x(i, 1) + (r.uniform() < 0.1 ? 10.0 : 1.0) * r.normal();
  }
  pgbb::HuberRidge hr;
  hr.lambda = 0.02;
  hr.tol = 1e-6;  // loose, so a warm start would stop at another point than a cold one
  const int B = 4;
  pgbb::Rng released(99), replay(99);
  const Eigen::MatrixXd rep = pgbb::dp_bootstrap_huber(x, y.data(), hr, B, 0.0, 0.5, released);
  std::vector<double> counts;
  for (int b = 0; b < B; ++b) {
    pgbb::bootstrap_counts(n, replay, counts);
    const Eigen::VectorXd cold = pgbb::huber_ridge_fit(x, y.data(), counts, hr, Eigen::VectorXd());
    for (int j = 0; j <= p; ++j) CHECK(rep(b, j) == cold[j]);
  }
}

CORE_TEST(dp_bootstrap_mean_edges) {
  pgbb::Rng r(4);
  std::vector<double> x = {-100.0, 0.0, 100.0};
  std::vector<double> v = pgbb::dp_bootstrap_mean(x.data(), 3, -1.0, 1.0, 50, 0.0, r);
  for (double m : v) CHECK(m >= -1.0 && m <= 1.0);  // means of clipped data, no noise
  CHECK_THROWS(pgbb::dp_bootstrap_mean(x.data(), 0, -1.0, 1.0, 5, 0.0, r));
  CHECK_THROWS(pgbb::dp_bootstrap_mean(x.data(), 3, 1.0, 1.0, 5, 0.0, r));
  CHECK_THROWS(pgbb::dp_bootstrap_mean(x.data(), 3, -1.0, 1.0, 5, -1.0, r));
  std::vector<double> counts;
  pgbb::bootstrap_counts(1000, r, counts);
  double total = 0.0;
  for (double c : counts) total += c;
  CHECK(total == 1000.0);
}
