// Core test of the tabulated normal cdf of the smoothed quantile score
// (NormalCdfTable, losses.h): its error against erfc, its range, and the
// score's bound.
#include <cmath>

#include "losses.h"
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
