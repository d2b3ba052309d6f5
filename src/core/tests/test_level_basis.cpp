// Core tests of the level features of a joint generator (trainer.h, tau_features()).
#include <cmath>
#include <vector>

#include "test_framework.h"
#include "trainer.h"

CORE_TEST(level_hats_are_one_hot_at_knots_and_interpolate_between) {
  const std::vector<double> knots{0.1, 0.3, 0.5, 0.7, 0.9};
  std::vector<double> f(pgbb::tau_feature_count(knots.size()));
  CHECK(f.size() == 7u);
  for (size_t l = 0; l < knots.size(); ++l) {
    pgbb::tau_features(knots[l], f.data(), knots);
    CHECK(f[0] == knots[l]);
    CHECK_NEAR(f[1], pgbb::norm_quantile(knots[l]), 1e-15);
    for (size_t j = 0; j < knots.size(); ++j) CHECK(f[2 + j] == (j == l ? 1.0 : 0.0));
  }
  pgbb::tau_features(0.35, f.data(), knots);  // a quarter of the way from 0.3 to 0.5
  CHECK_NEAR(f[3], 0.75, 1e-12);
  CHECK_NEAR(f[4], 0.25, 1e-12);
  CHECK(f[2] == 0.0 && f[5] == 0.0 && f[6] == 0.0);
  pgbb::tau_features(0.05, f.data(), knots);  // beyond the ends: the end hat
  CHECK(f[2] == 1.0 && f[3] == 0.0);
  pgbb::tau_features(0.95, f.data(), knots);
  CHECK(f[6] == 1.0 && f[5] == 0.0);
  // Without knots only the two smooth features are written.
  double two[3] = {-7.0, -7.0, -7.0};
  pgbb::tau_features(0.5, two);
  CHECK(two[0] == 0.5 && two[1] == 0.0 && two[2] == -7.0);
}
