// Core tests of the DP-SGLD sampler (dp_sgld.h): validation, the exact form of one
// update (clip, privacy noise on the clipped SUM, omega / q scaling, Langevin noise),
// reflection at a floor, determinism. Statistical properties are tested from R.
#include <cmath>
#include <limits>
#include <vector>

#include "dp_sgld.h"
#include "losses.h"
#include "rng.h"
#include "test_framework.h"

namespace {
pgbb::SgldConfig one_step(double sigma, double omega) {
  pgbb::SgldConfig c;
  c.iterations = 1; c.burn_in = 0; c.thin = 1; c.rate = 1.0; c.step = 1e-3; c.decay = 0.0;
  c.omega = omega; c.clip = 1.0; c.sigma = sigma; c.callback_every = 1;
  return c;
}
}  // namespace

CORE_TEST(dp_sgld_one_update_is_exact) {
  // Ten records far above theta0 = 0: every per-record gradient theta - x = -1000 is
  // clipped to norm C (1 - 1e-12); at q = 1 the subsample draws no randomness.
  const std::vector<double> x(10, 1000.0);
  pgbb::GaussianMeanLoss loss{1, 1.0};
  for (double sigma : {0.0, 3.0}) {
    const pgbb::SgldConfig c = one_step(sigma, 2.0);
    pgbb::Rng r(42), ref(42);
    const auto out = pgbb::run_dp_sgld(loss, x.data(), nullptr, 10, 1, {0.0}, c, r, nullptr);
    CHECK(out.size() == 1u);
    const double z_priv = sigma > 0 ? ref.normal() : 0.0;
    const double z_lang = ref.normal();
    const double sum = -10.0 * (1.0 - 1e-12) + sigma * z_priv;  // privatised clipped sum (a)
    const double expect = -c.step * (c.omega / c.rate) * sum + std::sqrt(2.0 * c.step) * z_lang;  // (b)
    CHECK_NEAR(out[0], expect, 1e-12);
  }
}

CORE_TEST(dp_sgld_schedule_validation_and_kept_draws) {
  const std::vector<double> x{0.1, 0.2, 0.3};
  pgbb::GaussianMeanLoss loss{1, 1.0};
  pgbb::Rng r(1);
  pgbb::SgldConfig c;
  c.iterations = 101; c.burn_in = 50; c.thin = 7; c.rate = 0.5; c.step = 0.01; c.sigma = 1.0;
  CHECK(pgbb::sgld_kept(c) == 7);
  CHECK(pgbb::run_dp_sgld(loss, x.data(), nullptr, 3, 1, {0.0}, c, r, nullptr).size() == 7u);
  auto bad = c; bad.iterations = 0;
  CHECK_THROWS(pgbb::run_dp_sgld(loss, x.data(), nullptr, 3, 1, {0.0}, bad, r, nullptr));
  bad = c; bad.rate = 0.0;
  CHECK_THROWS(pgbb::run_dp_sgld(loss, x.data(), nullptr, 3, 1, {0.0}, bad, r, nullptr));
  bad = c; bad.clip = std::numeric_limits<double>::infinity();  // no clip with privacy noise
  CHECK_THROWS(pgbb::run_dp_sgld(loss, x.data(), nullptr, 3, 1, {0.0}, bad, r, nullptr));
  bad = c; bad.burn_in = 101;
  CHECK_THROWS(pgbb::run_dp_sgld(loss, x.data(), nullptr, 3, 1, {0.0}, bad, r, nullptr));
  CHECK_THROWS(pgbb::run_dp_sgld(loss, x.data(), nullptr, 3, 1, {0.0, 1.0}, c, r, nullptr));
  // The callback can stop the chain.
  CHECK_INTERRUPTED(pgbb::run_dp_sgld(loss, x.data(), nullptr, 3, 1, {0.0}, c, r,
                                      [](int64_t, int64_t) { return true; }));
}

CORE_TEST(dp_sgld_reflects_at_the_floor_and_is_deterministic) {
  // Huber scale coordinate with a floor; a large step pushes it around.
  const int n = 50;
  std::vector<double> x(n * 2), y(n);
  pgbb::Rng d(3);
  for (int i = 0; i < n; ++i) { x[2 * i] = 1.0; x[2 * i + 1] = d.uniform(); y[i] = d.normal(); }
  pgbb::HuberLoss loss{2};
  pgbb::SgldConfig c;
  c.iterations = 2000; c.burn_in = 0; c.thin = 1; c.rate = 0.3; c.step = 0.05; c.sigma = 2.0;
  c.clip = 3.0; c.floor = {-std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(), 0.01};
  pgbb::Rng r1(9), r2(9);
  const auto a = pgbb::run_dp_sgld(loss, x.data(), y.data(), n, 2, {0.0, 0.0, 1.0}, c, r1, nullptr);
  const auto b = pgbb::run_dp_sgld(loss, x.data(), y.data(), n, 2, {0.0, 0.0, 1.0}, c, r2, nullptr);
  CHECK(a == b);
  bool above = true, finite = true;
  for (size_t i = 0; i < a.size(); ++i) {
    finite = finite && std::isfinite(a[i]);
    if (i % 3 == 2) above = above && a[i] >= 0.01;
  }
  CHECK(above);
  CHECK(finite);
}
