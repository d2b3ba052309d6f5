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

// The generator input of a joint fit: u, then (with products) u_s h_l(tau)
// level by level, then the level features; the input map scales the products
// like u. Without products (or without knots) the layout is u then features.
CORE_TEST(level_products_layout_and_standardisation) {
  const std::vector<double> knots{0.1, 0.5, 0.9};
  const int S = 4, L = 3, nf = pgbb::tau_feature_count(knots.size());
  CHECK(pgbb::generator_input_width(S, true, knots.size(), true) == S + S * L + nf);
  CHECK(pgbb::generator_input_width(S, true, knots.size(), false) == S + nf);
  CHECK(pgbb::generator_input_width(S, false, knots.size(), true) == S);
  CHECK(pgbb::generator_input_width(S, true, 0, true) == S + 2);  // smooth basis: no hats, no products
  const double u[4] = {0.1, 0.2, 0.3, 0.4};
  std::vector<double> in(static_cast<size_t>(S + S * L + nf), -1.0), f(static_cast<size_t>(nf));
  for (double tau : {0.1, 0.3, 0.9, 0.7}) {
    for (int s = 0; s < S; ++s) in[s] = u[s];
    pgbb::complete_generator_input(in.data(), S, true, tau, knots, true);
    pgbb::tau_features(tau, f.data(), knots);
    for (int s = 0; s < S; ++s) CHECK(in[s] == u[s]);
    for (int l = 0; l < L; ++l)
      for (int s = 0; s < S; ++s) CHECK(in[S + l * S + s] == u[s] * f[2 + l]);
    for (int j = 0; j < nf; ++j) CHECK(in[S + S * L + j] == f[j]);
  }
  // The last level, 0.7, lies halfway between the knots 0.5 and 0.9: half of u
  // in each of their blocks, none in the first.
  for (int s = 0; s < S; ++s) {
    CHECK(in[S + s] == 0.0);
    CHECK_NEAR(in[2 * S + s], 0.5 * u[s], 1e-15);
    CHECK_NEAR(in[3 * S + s], 0.5 * u[s], 1e-15);
  }
  std::vector<double> plain(static_cast<size_t>(S + nf), -1.0);
  for (int s = 0; s < S; ++s) plain[s] = u[s];
  pgbb::complete_generator_input(plain.data(), S, true, 0.3, knots, false);
  pgbb::tau_features(0.3, f.data(), knots);
  for (int j = 0; j < nf; ++j) CHECK(plain[S + j] == f[j]);
  std::vector<double> sh, sc;
  pgbb::input_standardisation(S, true, sh, sc, L, true);
  CHECK(sh.size() == static_cast<size_t>(S + S * L + nf) && sc.size() == sh.size());
  for (int j = 0; j < S + S * L; ++j) CHECK(sh[j] == 0.0 && sc[j] == S);
  CHECK(sh[S + S * L] == 0.5 && sc[S + S * L] == 2.0);
  pgbb::input_standardisation(S, true, sh, sc, L, false);
  CHECK(sh.size() == static_cast<size_t>(S + nf));
}
