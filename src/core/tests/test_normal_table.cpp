// Core test of the tabulated normal cdf of the smoothed quantile score
// (NormalCdfTable, losses.h): its error against erfc, its range, and the
// score's bound.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "losses.h"
#include "rng.h"
#include "test_framework.h"

CORE_TEST(normal_cdf_table_is_within_its_interpolation_bound) {
  const auto& table = pgbb::detail::normal_cdf_table();
  double worst = 0.0;
  for (int i = 0; i <= 2000000; ++i) {           // every 9e-6 over [-9, 9], off the knots too
    const double z = -9.0 + 18.0 * i / 2000000.0 + 1e-7;
    const double v = table(z);
    worst = std::fmax(worst, std::fabs(v - pgbb::norm_cdf(z)));
    CHECK(v >= 0.0 && v <= 1.0);
  }
  // The cubic Hermite bound h^4 max|Phi''''| / 384 with h = 1/64 is 8.5e-11;
  // linear interpolation on the same knots would be off by up to 1.2e-5.
  CHECK(worst < 8.6e-11);
  CHECK(worst > 0.0);                             // it is an approximation, and this measures it
  CHECK(table(-9.5) == 0.0 && table(9.5) == 1.0 && table(-1e300) == 0.0 && table(1e300) == 1.0);
  CHECK(std::isnan(table(std::nan(""))));
  // The score (1 - tau) - Phi stays in [-tau, 1 - tau], the clip's assumption.
  const pgbb::QuantileLoss loss{1, 0.1};
  for (double tau : {0.1, 0.5, 0.9})
    for (double r : {-50.0, -0.3, 0.0, 0.2, 50.0}) {
      const double a = loss.score(nullptr, 0.0, r, tau, nullptr);
      CHECK(a >= -tau && a <= 1.0 - tau);
    }
}

#ifdef PGBB_CDF_TABLE_AVX
CORE_TEST(normal_cdf_table_four_lanes_give_the_same_bits) {
  // eval4() and QuantileLoss::score_avx() are the trainer's AVX path; they must
  // give exactly operator() / score() on every lane, or fits would depend on
  // the CPU. Values: a dense sweep (knots, between knots, the clamp at +-9),
  // the edges themselves, signed zeros, infinities, NaN and huge values, in
  // every lane position (the list is rotated).
  if (!__builtin_cpu_supports("avx")) return;
  const auto& table = pgbb::detail::normal_cdf_table();
  std::vector<double> z;
  for (int i = -700000; i <= 700000; ++i) z.push_back(i * 1.3e-5);
  for (double e : {9.0, -9.0, std::nextafter(9.0, 0.0), std::nextafter(-9.0, 0.0), std::nextafter(9.0, 10.0),
                   std::nextafter(-9.0, -10.0), 0.0, -0.0, 1.0 / 64, -1.0 / 64, 8.984375, -8.984375, 1e300,
                   -1e300, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                   std::nan(""), 5e-324, -5e-324})
    z.push_back(e);
  const auto same = [](double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
  };
  int mismatches = 0;
  for (int shift = 0; shift < 4; ++shift) {
    std::rotate(z.begin(), z.begin() + 1, z.end());
    std::vector<double> out(z.size());
    size_t i = 0;
    for (; i + 3 < z.size(); i += 4) table.eval4(z.data() + i, out.data() + i);
    for (; i < z.size(); ++i) out[i] = table(z[i]);
    for (size_t j = 0; j < z.size(); ++j) mismatches += !same(out[j], table(z[j]));
  }
  CHECK(mismatches == 0);
  // The score: residuals in kg and in g (h = 0.1 either way), any count of records.
  const pgbb::QuantileLoss loss{3, 0.1};
  pgbb::Rng rng(3);
  for (int n : {0, 1, 3, 4, 5, 32}) {
    for (double scale : {0.5, 500.0}) {
      std::vector<double> xb(n), y(n), got(n);
      for (int i = 0; i < n; ++i) { xb[i] = scale * rng.normal(); y[i] = scale * rng.normal(); }
      if (n > 2) y[2] = std::nan("");
      for (double tau : {0.1, 0.5, 0.9}) {
        loss.score_avx(xb.data(), y.data(), tau, got.data(), n);
        for (int i = 0; i < n; ++i) CHECK(same(got[i], loss.score(nullptr, xb[i], y[i], tau, nullptr)));
      }
    }
  }
}
#endif
