// Core tests of CR-GS (cr_gs.h): the resample estimators against direct
// computations on the materialised resample, the ridge solver's certificate on
// degenerate data, the SGD schedule (18) and its failure paths, the projected
// averaged SGD staying in its ball, the order-statistic quantile, the fused
// scalar-mean path, and the release on zero noise. Edge cases: n = 2, m = 2,
// d = 1 and d > 1, tied records, extreme values.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "cr_gs.h"
#include "test_framework.h"

namespace {
const double kPosInf = std::numeric_limits<double>::infinity();
const double kQNaN = std::numeric_limits<double>::quiet_NaN();

pgbb::ResamplePlan gs_plan(int n, int m, int B, pgbb::ResampleMode mode, int kappa = 0) {
  pgbb::ResamplePlan p;
  p.n = n; p.m = m; p.B = B; p.mode = mode; p.kappa = kappa; p.seed = pgbb::key_from_u64(2024);
  return p;
}

// Brute-force order-2 U-statistic with kernel h on values v.
template <class H>
double ustat_brute(const std::vector<double>& v, H h) {
  double s = 0;
  const int N = static_cast<int>(v.size());
  for (int i = 0; i < N; ++i)
    for (int j = i + 1; j < N; ++j) s += h(v[i], v[j]);
  return s / (0.5 * N * (N - 1.0));
}
}  // namespace

CORE_TEST(cr_gs_mean_and_ustat_match_direct_computation) {
  pgbb::Rng rng(1);
  for (int d : {1, 3}) {
    for (int n : {2, 3, 50}) {
      std::vector<double> x(static_cast<size_t>(n) * d);
      for (auto& v : x) v = 4 * rng.uniform() - 2;
      pgbb::MeanEstimator me(pgbb::DataView{x.data(), n, d});
      std::vector<double> full(d), res(d);
      me.full(full.data());
      for (int k = 0; k < d; ++k) {
        double s = 0;
        for (int i = 0; i < n; ++i) s += x[static_cast<size_t>(i) * d + k];
        CHECK_NEAR(full[k], s / n, 1e-14);
      }
      for (int m : {1, 2, 5, 7}) {
        std::vector<uint32_t> idx(m);
        for (auto& v : idx) v = static_cast<uint32_t>(rng.uniform_int(n));
        me.resample(idx.data(), m, 0, res.data());
        for (int k = 0; k < d; ++k) {
          double s = 0;
          for (uint32_t v : idx) s += x[static_cast<size_t>(v) * d + k];
          CHECK_NEAR(res[k], s / m, 1e-14);
        }
      }
    }
  }
  // U-statistics of order 2 (closed forms vs the double sum), with ties and a shift.
  std::vector<double> x = {0.3, -1.0, 0.3, 2.5, 0.0, 0.3};
  const int n = static_cast<int>(x.size());
  pgbb::DataView dv{x.data(), n, 1};
  pgbb::UStat2Estimator prod(dv, pgbb::UStat2Estimator::Kernel::Product, 0.0);
  pgbb::UStat2Estimator var(dv, pgbb::UStat2Estimator::Kernel::Variance, 0.75);
  double u = 0;
  prod.full(&u);
  CHECK_NEAR(u, ustat_brute(x, [](double a, double b) { return a * b; }), 1e-14);
  var.full(&u);
  CHECK_NEAR(u, ustat_brute(x, [](double a, double b) { return 0.5 * (a - b) * (a - b); }), 1e-14);
  const uint32_t idx[] = {2, 0, 5, 3};  // tied values in a resample
  std::vector<double> sub = {x[2], x[0], x[5], x[3]};
  prod.resample(idx, 4, 0, &u);
  CHECK_NEAR(u, ustat_brute(sub, [](double a, double b) { return a * b; }), 1e-14);
  var.resample(idx, 3, 0, &u);  // first three: all equal -> variance 0
  CHECK(std::fabs(u) < 1e-15);
  CHECK_THROWS(prod.resample(idx, 1, 0, &u));
  CHECK_THROWS(pgbb::UStat2Estimator(pgbb::DataView{x.data(), 1, 1}, pgbb::UStat2Estimator::Kernel::Product, 0));
  CHECK_THROWS(pgbb::UStat2Estimator(pgbb::DataView{x.data(), 3, 2}, pgbb::UStat2Estimator::Kernel::Product, 0));
}

CORE_TEST(cr_gs_ridge_certified_on_edge_data) {
  CHECK_THROWS(pgbb::loss_type_from("hinge"));
  for (pgbb::LossType type : {pgbb::LossType::Logistic, pgbb::LossType::Huber}) {
    const double tol = 1e-9;
    // Separable labels (logistic has no finite unpenalised minimiser), tied rows, one
    // record, extreme feature values: the ridge term keeps every problem strongly convex.
    std::vector<double> X = {1.0, 0.5, 1.0, -0.5, 1.0, 0.5, 1.0, 2.0, 1.0, -2.0};  // 5 x 2 row-major
    std::vector<double> y = {1, -1, 1, 1, -1};
    if (type == pgbb::LossType::Huber) y = {3.0, -1.0, 3.0, 1e6, -1e6};
    const double L = 2.0 * 2.0 + 1.0 + 0.1;
    pgbb::RidgeEstimator est(pgbb::DataView{X.data(), 5, 2}, y.data(), type, 0.1, 1.345, tol, L);
    std::vector<double> th(2);
    est.full(th.data());
    CHECK(est.last_gradient_norm() <= tol && std::isfinite(th[0]) && std::isfinite(th[1]));
    const uint32_t one[] = {3};
    est.resample(one, 1, 0, th.data());
    CHECK(est.last_gradient_norm() <= tol);
    const uint32_t tied[] = {0, 2, 0, 2};
    est.resample(tied, 4, 0, th.data());
    CHECK(est.last_gradient_norm() <= tol);
    // lambda / tol must be positive.
    CHECK_THROWS(pgbb::RidgeEstimator(pgbb::DataView{X.data(), 5, 2}, y.data(), type, 0.0, 1.345, tol, L));
    CHECK_THROWS(pgbb::RidgeEstimator(pgbb::DataView{X.data(), 5, 2}, y.data(), type, 0.1, 1.345, 0.0, L));
    CHECK_THROWS(pgbb::RidgeEstimator(pgbb::DataView{X.data(), 5, 2}, y.data(), type, kQNaN, 1.345, tol, L));
  }
  // An unreachable tolerance is a loud failure, never a silently uncertified estimate.
  std::vector<double> X = {0.3, -0.7, 0.9, 0.1, -0.2, 0.4};
  std::vector<double> y = {1, -1, 1};
  pgbb::RidgeEstimator hopeless(pgbb::DataView{X.data(), 3, 2}, y.data(), pgbb::LossType::Logistic, 0.5, 1.345,
                                1e-300, 1.0);
  std::vector<double> th(2);
  CHECK_THROWS(hopeless.full(th.data()));
}

CORE_TEST(cr_gs_sgd_schedule_and_projection) {
  for (double a : {0.5, 1.0, 0.2, kQNaN}) CHECK_THROWS(pgbb::sgd_t0(1.0, a, 1.0, 0.1));
  CHECK_THROWS(pgbb::sgd_t0(0.0, 0.6, 1.0, 0.1));
  CHECK_THROWS(pgbb::sgd_t0(1.0, 0.6, 0.0, 0.1));
  CHECK_THROWS(pgbb::sgd_t0(1.0, 0.6, 1.0, 0.0));
  CHECK_THROWS(pgbb::sgd_t0(1e-20, 0.6, 1.0, 1e-20));  // no t0 below 1e15: an error, not a hang
  CHECK_THROWS(pgbb::sgd_default_schedule(0.6, 1.0, 1e-20));  // was an endless bisection
  CHECK_THROWS(pgbb::sgd_default_schedule(1.0, 1.0, 0.1));
  CHECK_THROWS(pgbb::sgd_default_schedule(0.6, -1.0, 0.1));
  for (double a : {0.51, 2.0 / 3, 0.99}) {
    for (double L : {0.25, 1.0, 50.0}) {
      for (double lambda : {1e-6, 0.01, 1.0, 100.0}) {
        // t0 of (18) for a given c: both conditions hold at t0 and t0 is the smallest integer.
        for (double c : {1e-3, 0.1, 1.0}) {
          double t0 = 0;
          try { t0 = pgbb::sgd_t0(c, a, L, lambda); } catch (const std::invalid_argument&) { continue; }
          auto ok = [&](double t) {
            return c * std::pow(t, -a) <= 1.0 / L && (std::pow(t + 1.0, a) - std::pow(t, a)) / c <= lambda / 2.0;
          };
          CHECK(t0 >= 1 && t0 == std::floor(t0) && ok(t0));
          if (t0 > 1) CHECK(!ok(t0 - 1));
        }
        const std::pair<double, double> sch = pgbb::sgd_default_schedule(a, L, lambda);
        const double t0 = sch.first, c = sch.second;
        CHECK(t0 >= 1 && c > 0);
        CHECK(c * std::pow(t0, -a) <= 1.0 / L);                                  // eta_0 <= 1/L
        // ((t0 + 1)^a - t0^a) / c <= lambda / 2, the difference written without cancellation.
        CHECK(std::pow(t0, a) * std::expm1(a * std::log1p(1.0 / t0)) / c <= lambda / 2.0 * (1 + 1e-9));
      }
    }
  }
  // Averaged projected SGD: every iterate is in the ball of radius R, hence the average.
  pgbb::Rng rng(8);
  const int n = 40, d = 3;
  std::vector<double> X(n * d), y(n);
  for (auto& v : X) v = 2 * rng.uniform() - 1;
  for (auto& v : y) v = rng.uniform() < 0.5 ? -1.0 : 1.0;
  for (double R : {1e-3, 0.5, 100.0}) {
    const std::pair<double, double> sch = pgbb::sgd_default_schedule(2.0 / 3, 3.0 / 4 + 0.1, 0.1);
    pgbb::SgdEstimator sgd(pgbb::DataView{X.data(), n, d}, y.data(), pgbb::LossType::Logistic, 0.1, 1.345, R,
                           sch.second, 2.0 / 3, sch.first, pgbb::key_from_u64(99));
    std::vector<double> w(d), w2(d);
    sgd.full(w.data());
    double nrm = 0;
    for (double v : w) nrm += v * v;
    CHECK(std::sqrt(nrm) <= R * (1 + 1e-12));
    const uint32_t idx[] = {5, 5, 0};
    sgd.resample(idx, 3, 4, w.data());
    sgd.resample(idx, 3, 4, w2.data());
    CHECK(w == w2);  // the permutation of resample i is fixed by (seed, i)
    sgd.resample(idx, 1, 0, w.data());  // one record
    for (double v : w) CHECK(std::isfinite(v));
  }
}

CORE_TEST(cr_gs_upper_quantile_and_release) {
  CHECK_THROWS(pgbb::upper_quantile({}, 0.1));
  CHECK_THROWS(pgbb::upper_quantile({1.0}, 0.0));
  CHECK_THROWS(pgbb::upper_quantile({1.0}, 1.0));
  CHECK_THROWS(pgbb::upper_quantile({1.0}, kQNaN));
  CHECK(pgbb::upper_quantile({4.0}, 0.5) == 4.0);
  std::vector<double> v = {9, 1, 8, 2, 7, 3, 6, 4, 5, 10};
  CHECK(pgbb::upper_quantile(v, 0.1) == 9.0);   // k = ceil(10 * 0.9) = 9
  CHECK(pgbb::upper_quantile(v, 0.3) == 7.0);   // 0.7 * 10 = 7 exactly (guarded against 7.0000000001)
  CHECK(pgbb::upper_quantile(v, 0.999) == 1.0);
  CHECK(pgbb::upper_quantile(std::vector<double>(7, 2.5), 0.2) == 2.5);
  // Release: noise scales must be finite and non-negative; zero noise returns the statistic.
  pgbb::Rng rng(3);
  CHECK_THROWS(pgbb::cr_gs_release({0.0}, 1.0, -1.0, 1.0, 1.0, 1.0, rng));
  CHECK_THROWS(pgbb::cr_gs_release({0.0}, 1.0, 1.0, 1.0, kPosInf, 1.0, rng));
  CHECK_THROWS(pgbb::cr_gs_release({0.0}, 1.0, kQNaN, 1.0, 1.0, 1.0, rng));
  pgbb::GsRelease r = pgbb::cr_gs_release({1.5, -2.0}, 0.7, 0.0, 1.0, 0.0, 1.0, rng);
  CHECK(r.center == std::vector<double>({1.5, -2.0}) && r.q_tilde == 0.7);
  r = pgbb::cr_gs_release({}, -3.0, 1.0, 1.0, 0.0, 1.0, rng);  // a negative radius is floored at 0
  CHECK(r.center.empty() && r.q_tilde == 0.0);
}

CORE_TEST(cr_gs_stats_paths_agree) {
  pgbb::Rng rng(4);
  const int n = 300;
  std::vector<double> x(n);
  for (auto& v : x) v = rng.uniform();
  for (pgbb::ResampleMode mode : {pgbb::ResampleMode::WR, pgbb::ResampleMode::WOR}) {
    for (int m : {2, 17, n}) {
      const int kappa = mode == pgbb::ResampleMode::WR ? 50 : 0;
      pgbb::MeanEstimator me(pgbb::DataView{x.data(), n, 1});
      // Fused scalar-mean path vs the generic path (keep_estimates) on the same indices.
      const pgbb::GsStats fused = pgbb::cr_gs_stats(me, gs_plan(n, m, 70, mode, kappa), false);
      const pgbb::GsStats plain = pgbb::cr_gs_stats(me, gs_plan(n, m, 70, mode, kappa), true);
      CHECK(fused.pass.failed_at == -1 && plain.pass.failed_at == -1);
      CHECK(plain.estimates.size() == 70u && fused.estimates.empty());
      for (int i = 0; i < 70; ++i) {
        CHECK_NEAR(fused.dist[i], plain.dist[i], 1e-12);
        CHECK_NEAR(plain.dist[i], std::fabs(plain.estimates[i] - plain.theta_hat[0]), 1e-15);
      }
    }
  }
  // Failure (kappa = 1 at m = n, WR) on both paths: reported, nothing visited after it.
  pgbb::MeanEstimator me(pgbb::DataView{x.data(), n, 1});
  for (bool keep : {false, true}) {
    const pgbb::GsStats st = pgbb::cr_gs_stats(me, gs_plan(n, n, 10, pgbb::ResampleMode::WR, 1), keep);
    CHECK(st.pass.failed_at == 0 && st.pass.failed_mult >= 2);
    CHECK_INTERRUPTED(pgbb::cr_gs_stats(me, gs_plan(n, 5, 200, pgbb::ResampleMode::WR, 5), keep,
                                        [] { return true; }));
  }
}
