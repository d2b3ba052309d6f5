// Core tests of the BLBQuant baseline (cr_baselines.h): the Laplace sampler, the
// weighted estimators against direct computations, the exponential-mechanism
// quantile staying in its public range (also when the range is degenerate), and
// the full search on small and extreme inputs.
#include <algorithm>
#include <cmath>
#include <vector>

#include "cr_baselines.h"
#include "test_framework.h"

CORE_TEST(blb_laplace_and_weighted_estimators) {
  pgbb::Rng rng(20);
  double abs_sum = 0, sum = 0;
  const int reps = 40000;
  for (int i = 0; i < reps; ++i) {
    const double v = pgbb::laplace(rng, 2.0);
    CHECK(std::isfinite(v));
    abs_sum += std::fabs(v);
    sum += v;
  }
  // E|L| = b = 2, sd(|L|) = 2; E L = 0, sd(L) = 2 sqrt 2: 6 standard errors.
  CHECK_NEAR(abs_sum / reps, 2.0, 6 * 2.0 / std::sqrt(static_cast<double>(reps)));
  CHECK_NEAR(sum / reps, 0.0, 6 * 2.83 / std::sqrt(static_cast<double>(reps)));
  CHECK(pgbb::laplace(rng, 0.0) == 0.0);
  // Weighted sample {-1 x2, 0.5 x1, 3 x3} (N = 6) against the expanded data.
  pgbb::WeightedSample ws;
  ws.v = {-1.0, 0.5, 3.0};
  ws.w = {2.0, 1.0, 3.0};
  ws.N = 6;
  const std::vector<double> expanded = {-1, -1, 0.5, 3, 3, 3};
  pgbb::BlbSpec sp;
  sp.kind = pgbb::BlbKind::Mean;
  CHECK_NEAR(pgbb::blb_nonprivate(sp, ws), (-2 + 0.5 + 9) / 6.0, 1e-15);
  sp.kind = pgbb::BlbKind::UStatProduct;
  double pr = 0;
  for (int i = 0; i < 6; ++i)
    for (int j = i + 1; j < 6; ++j) pr += expanded[i] * expanded[j];
  CHECK_NEAR(pgbb::blb_nonprivate(sp, ws), pr / 15.0, 1e-14);
  sp.kind = pgbb::BlbKind::Quantile;
  for (double p : {0.01, 0.34, 0.5, 0.51, 0.99}) {
    sp.prob = p;
    const int h = std::max(1, static_cast<int>(std::ceil(p * 6 - 1e-9)));
    CHECK(pgbb::blb_nonprivate(sp, ws) == expanded[h - 1]);
  }
}

CORE_TEST(blb_private_quantile_in_range) {
  pgbb::Rng rng(21);
  pgbb::BlbSpec sp;
  sp.kind = pgbb::BlbKind::Quantile;
  sp.lo = -2; sp.hi = 5;
  pgbb::WeightedSample ws;
  ws.v = {-2.0, 0.0, 0.0, 5.0};  // values at both bounds and a tie (zero-length interval)
  ws.w = {1, 1, 1, 1};
  ws.N = 4;
  for (double eps : {1e-6, 1.0, 1e6}) {
    sp.eps = eps;
    for (double p : {0.1, 0.5, 0.9}) {
      sp.prob = p;
      for (int i = 0; i < 200; ++i) {
        const double v = pgbb::blb_private(sp, ws, rng);
        CHECK(v >= sp.lo && v <= sp.hi);
      }
    }
  }
  // Huge epsilon: the mechanism concentrates on the interval holding the quantile.
  sp.eps = 1e6;
  sp.prob = 0.5;
  ws.v = {-1.0, 1.0, 2.0, 3.0};
  double v = pgbb::blb_private(sp, ws, rng);
  CHECK(v >= -1.0 && v <= 2.0);
  // Degenerate public range (lo == hi) and all data at it: no interval has mass; the
  // mechanism returns the single possible value instead of reading out of range.
  sp.lo = sp.hi = 1.0;
  ws.v = {1.0, 1.0};
  ws.w = {1, 1};
  ws.N = 2;
  CHECK(pgbb::blb_private(sp, ws, rng) == 1.0);
  // Mean and U-statistic: estimate plus Laplace(sens / eps); zero sensitivity is exact.
  sp.kind = pgbb::BlbKind::Mean;
  sp.sens = 0.0;
  sp.eps = 1.0;
  CHECK(pgbb::blb_private(sp, ws, rng) == 1.0);
}

CORE_TEST(blbquant_search_edges) {
  std::vector<double> x(60);
  pgbb::Rng rng(22);
  for (auto& v : x) v = rng.uniform();
  pgbb::BlbSpec sp;
  sp.kind = pgbb::BlbKind::Mean;
  sp.lo = 0; sp.hi = 1; sp.eps = 1.0; sp.sens = 1.0 / 60;
  CHECK_THROWS(pgbb::blbquant(x, sp, 1.0, 1, 10, 0.1, 0.01, 100, pgbb::key_from_u64(1)));    // s < 2
  CHECK_THROWS(pgbb::blbquant(x, sp, 1.0, 61, 10, 0.1, 0.01, 100, pgbb::key_from_u64(1)));   // s > n
  CHECK_THROWS(pgbb::blbquant(x, sp, 1.0, 5, 0, 0.1, 0.01, 100, pgbb::key_from_u64(1)));     // no replicates
  CHECK_THROWS(pgbb::blbquant(x, sp, 1.0, 5, 10, 0.1, 0.0, 100, pgbb::key_from_u64(1)));     // step 0
  CHECK_THROWS(pgbb::blbquant(x, sp, 1.0, 5, 10, 0.1, 0.01, 0, pgbb::key_from_u64(1)));      // empty grid
  CHECK_THROWS(pgbb::blbquant(std::vector<double>{}, sp, 1.0, 2, 10, 0.1, 0.01, 10, pgbb::key_from_u64(1)));
  for (pgbb::BlbKind kind : {pgbb::BlbKind::Mean, pgbb::BlbKind::Quantile, pgbb::BlbKind::UStatProduct}) {
    sp.kind = kind;
    sp.sens = kind == pgbb::BlbKind::Quantile ? 1.0 : 2.0 / 60;
    for (int s : {2, 30}) {  // 30 blocks of two records: the smallest blocks R allows (s <= n / 2)
      for (double eps : {1e-3, 1.0, 1e3}) {
        sp.eps = eps;
        const pgbb::BlbQuantResult a = pgbb::blbquant(x, sp, eps, s, 20, 0.1, 0.02, 50, pgbb::key_from_u64(5));
        const pgbb::BlbQuantResult b = pgbb::blbquant(x, sp, eps, s, 20, 0.1, 0.02, 50, pgbb::key_from_u64(5));
        CHECK(a.k >= 0 && a.k <= 50 && a.blocks == s && std::isfinite(a.center));
        CHECK(a.k == b.k && a.center == b.center);  // fully determined by the seed
        if (kind == pgbb::BlbKind::Quantile) CHECK(a.center >= 0.0 && a.center <= 1.0);
      }
    }
  }
}
