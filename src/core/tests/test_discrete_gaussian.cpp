// Core tests of the exact discrete Gaussian (discrete_gaussian.h): the laws of
// the three CKS samplers against their exact pmfs, the overflow-safe extremes,
// and the public-grid release (exact multiples, rounding charge, margins).
#include <cmath>
#include <map>
#include <vector>

#include "discrete_gaussian.h"
#include "rng.h"
#include "test_framework.h"

namespace {
// Pearson chi-square of counts against probabilities (cells with expected count
// >= 5; the rest pooled into one cell). Returns the statistic and the df.
std::pair<double, int> chi_square(const std::map<int64_t, double>& counts, const std::map<int64_t, double>& prob,
                                  double total) {
  double stat = 0.0, pooled_obs = 0.0, pooled_exp = 0.0;
  int cells = 0;
  for (const auto& kv : prob) {
    const double e = kv.second * total;
    const auto it = counts.find(kv.first);
    const double o = it == counts.end() ? 0.0 : it->second;
    if (e >= 5.0) {
      stat += (o - e) * (o - e) / e;
      ++cells;
    } else {
      pooled_obs += o;
      pooled_exp += e;
    }
  }
  double outside = 0.0;  // counts in values absent from `prob` (must be none)
  for (const auto& kv : counts)
    if (prob.find(kv.first) == prob.end()) outside += kv.second;
  pooled_obs += outside;
  if (pooled_exp > 0.0) {
    stat += (pooled_obs - pooled_exp) * (pooled_obs - pooled_exp) / pooled_exp;
    ++cells;
  }
  return {stat, cells - 1};
}

// Upper 0.999 point of chi-square(df) by the Wilson-Hilferty approximation: a
// 1-in-1000 false alarm per check at a fixed seed (so the suite is deterministic).
double chi_square_limit(int df) {
  const double z = 3.090232;
  const double a = 2.0 / (9.0 * df);
  return df * std::pow(1.0 - a + z * std::sqrt(a), 3.0);
}

std::map<int64_t, double> discrete_gaussian_pmf(double v, int64_t half_width) {
  std::map<int64_t, double> p;
  double total = 0.0;
  for (int64_t k = -half_width; k <= half_width; ++k) total += std::exp(-double(k) * k / (2.0 * v));
  for (int64_t k = -half_width; k <= half_width; ++k) p[k] = std::exp(-double(k) * k / (2.0 * v)) / total;
  return p;
}
}  // namespace

// P[Bernoulli(exp(-g))] for g below, at and above 1 (the two branches of CKS
// Algorithm 1), within 4.5 binomial standard errors at a fixed seed.
CORE_TEST(bernoulli_exp_has_the_exact_probability) {
  pgbb::Rng rng(11);
  const int n = 200000;
  const std::vector<std::pair<uint64_t, uint64_t>> cases{{0, 1}, {3, 10}, {1, 1}, {5, 2}, {7, 1}, {123456789, 98765432}};
  for (const auto& c : cases) {
    int hits = 0;
    for (int i = 0; i < n; ++i) hits += pgbb::bernoulli_exp(rng, c.first, c.second);
    const double p = std::exp(-double(c.first) / double(c.second));
    const double se = std::sqrt(p * (1 - p) / n);
    CHECK(std::fabs(hits / double(n) - p) <= 4.5 * se + 1e-12);
  }
}

CORE_TEST(uniform_below_is_uniform_beyond_64_bits) {
  pgbb::Rng rng(12);
  const pgbb::u128 n = (static_cast<pgbb::u128>(3) << 64);  // 3 * 2^64: three equal thirds
  int third[3] = {0, 0, 0};
  const int draws = 60000;
  for (int i = 0; i < draws; ++i) {
    const pgbb::u128 v = pgbb::uniform_below(rng, n);
    CHECK(v < n);
    ++third[static_cast<int>(v >> 64)];
  }
  std::map<int64_t, double> counts{{0, double(third[0])}, {1, double(third[1])}, {2, double(third[2])}};
  std::map<int64_t, double> prob{{0, 1.0 / 3}, {1, 1.0 / 3}, {2, 1.0 / 3}};
  const auto cs = chi_square(counts, prob, draws);
  CHECK(cs.first <= chi_square_limit(cs.second));
}

CORE_TEST(discrete_laplace_matches_its_pmf) {
  pgbb::Rng rng(13);
  for (uint64_t t : {1u, 3u, 8u}) {
    const int draws = 100000;
    std::map<int64_t, double> counts;
    for (int i = 0; i < draws; ++i) counts[pgbb::discrete_laplace(rng, t)] += 1.0;
    std::map<int64_t, double> prob;
    const double r = std::exp(-1.0 / t), norm = (1 - r) / (1 + r);
    for (int64_t k = -60 * int64_t(t); k <= 60 * int64_t(t); ++k) prob[k] = norm * std::pow(r, std::fabs(double(k)));
    const auto cs = chi_square(counts, prob, draws);
    CHECK(cs.first <= chi_square_limit(cs.second));
  }
}

// The law of CKS Algorithm 3 against the exact pmf, for small variances (where
// the discrete Gaussian differs most from a rounded normal) and a large one.
CORE_TEST(discrete_gaussian_matches_its_pmf) {
  pgbb::Rng rng(14);
  for (uint64_t v : {1u, 2u, 7u, 50u, 2000u}) {
    const int draws = 120000;
    std::map<int64_t, double> counts;
    double sum = 0.0, sq = 0.0;
    for (int i = 0; i < draws; ++i) {
      const int64_t z = pgbb::discrete_gaussian(rng, v);
      counts[z] += 1.0;
      sum += double(z);
      sq += double(z) * z;
    }
    const int64_t hw = static_cast<int64_t>(std::ceil(12.0 * std::sqrt(double(v))));
    const auto prob = discrete_gaussian_pmf(double(v), hw);
    const auto cs = chi_square(counts, prob, draws);
    CHECK(cs.first <= chi_square_limit(cs.second));
    // Tails: P[|Z| >= 3 sqrt(v)] within 4.5 binomial standard errors of the exact value.
    double tail = 0.0, obs = 0.0;
    const double cut = 3.0 * std::sqrt(double(v));
    for (const auto& kv : prob) if (std::fabs(double(kv.first)) >= cut) tail += kv.second;
    for (const auto& kv : counts) if (std::fabs(double(kv.first)) >= cut) obs += kv.second;
    CHECK(std::fabs(obs / draws - tail) <= 4.5 * std::sqrt(tail * (1 - tail) / draws) + 1e-9);
    // The mean is zero: 5 standard errors.
    CHECK(std::fabs(sum / draws) <= 5.0 * std::sqrt(double(v) / draws));
  }
}

// At the largest variance every 128-bit intermediate is near its limit; draws
// must still complete with the right scale (5% on the sd from 4000 draws is
// over 6 standard errors).
CORE_TEST(discrete_gaussian_at_the_largest_variance) {
  pgbb::Rng rng(15);
  const uint64_t v = pgbb::kDiscreteVarianceMax;
  double sq = 0.0;
  const int draws = 4000;
  for (int i = 0; i < draws; ++i) {
    const double z = double(pgbb::discrete_gaussian(rng, v));
    sq += z * z;
  }
  CHECK(std::fabs(std::sqrt(sq / draws) / std::sqrt(double(v)) - 1.0) < 0.05);
  CHECK_THROWS(pgbb::discrete_gaussian(rng, v + 1));
  CHECK_THROWS(pgbb::discrete_gaussian(rng, 0));
}

CORE_TEST(grid_plan_is_public_and_charges_the_rounding) {
  for (double sigma : {1e-6, 0.37, 2.0, 1234.5}) {
    for (double sens : {1e-3, 0.5, 3.0}) {
      for (int dim : {1, 4, 25}) {
        if (sens > 0 && sigma * std::sqrt(double(dim)) / sens > std::ldexp(1.0, 22)) {
          CHECK_THROWS(pgbb::GridGaussian::plan(sigma, sens, dim));  // mu below the sampler's range
          continue;
        }
        if (sens > 0 && sigma * std::sqrt(double(dim)) / sens > std::ldexp(1.0, 20)) continue;
        const pgbb::GridGaussian g = pgbb::GridGaussian::plan(sigma, sens, dim);
        int e = 0;
        CHECK(std::frexp(g.grid, &e) == 0.5);  // a power of two
        const double s_units = std::sqrt(double(g.variance));
        CHECK(s_units >= 1024.0 && s_units <= std::ldexp(1.0, 22));
        // The noise per unit of charged sensitivity is at least the continuous
        // mechanism's: sd / (sens + sqrt(dim) grid) >= sigma / sens.
        CHECK(g.sd() / (sens + std::sqrt(double(dim)) * g.grid) >= sigma / sens);
        CHECK(g.sd() >= sigma);
        // ... and not much more (the charge is at most 1/1024 of sens, the margin 1e-6).
        const double ratio = std::fmin(sens / std::sqrt(double(dim)), sigma);
        if (g.grid == std::ldexp(1.0, std::ilogb(ratio) - 10)) CHECK(g.sd() <= sigma * (1.0 + 2e-3));
      }
    }
  }
  // Absurd budgets (mu about 1e300): the grid stays at 2^-64 sensitivity, the
  // noise is raised to 1024 grid units, and the statistic is still released
  // (nearly exactly) rather than clamped away.
  {
    const pgbb::GridGaussian tiny = pgbb::GridGaussian::plan(1e-300, 0.5, 1);
    CHECK(tiny.sd() >= 1e-300 && tiny.sd() < 1e-15);
    pgbb::Rng t(19);
    CHECK(std::fabs(tiny.release(0.25, t) - 0.25) < 1e-12);
    CHECK(std::fabs(tiny.release(-3e6, t) + 3e6) < 1e-6);
  }
  // A statistic that does not depend on the data (sensitivity 0) is released as is.
  {
    pgbb::Rng t(20);
    CHECK(pgbb::GridGaussian::plan(2.0, 0.0, 3).release(0.1, t) == 0.1);
  }
  const pgbb::GridGaussian none = pgbb::GridGaussian::plan(0.0, 1.0, 1);
  pgbb::Rng rng(16);
  CHECK(none.release(0.123456789, rng) == 0.123456789);
  CHECK_THROWS(pgbb::GridGaussian::plan(-1.0, 1.0, 1));
  CHECK_THROWS(pgbb::GridGaussian::plan(1.0, std::nan(""), 1));
  CHECK_THROWS(pgbb::GridGaussian::plan(1.0, 1.0, 0));
}

// Every released value is an exact multiple of the grid, the rounding is to the
// nearest grid point, and the noise has the planned sd.
CORE_TEST(grid_release_is_an_exact_multiple_of_the_grid) {
  pgbb::Rng rng(17);
  const pgbb::GridGaussian g = pgbb::GridGaussian::plan(0.25, 0.1, 1);
  double sq = 0.0;
  const int draws = 20000;
  const double x = 3.14159265358979;
  for (int i = 0; i < draws; ++i) {
    const double r = g.release(x, rng);
    const double units = r / g.grid;
    CHECK(units == std::floor(units));
    sq += (r - std::nearbyint(x / g.grid) * g.grid) * (r - std::nearbyint(x / g.grid) * g.grid);
  }
  CHECK(std::fabs(std::sqrt(sq / draws) / g.sd() - 1.0) < 0.03);  // 4 standard errors
  // Statistics that differ below the grid release the same law: the rounding
  // hides the low-order bits that a floating-point Gaussian would leak.
  pgbb::Rng a(18), b(18);
  CHECK(g.release(x, a) == g.release(x + 0.2 * g.grid, b));
  CHECK_THROWS(g.release(std::nan(""), rng));
}
