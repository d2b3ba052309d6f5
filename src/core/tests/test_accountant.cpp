// Core tests of the Renyi-DP accountant (accountant.h): memory safety and
// defined behaviour at extreme arguments (A(lambda) is finite or +Inf, never NaN
// or negative), monotonicity in sigma, the orderings between the three kinds,
// closed-form lower bounds, the conversions and the calibration round trip. The
// upper-bound property itself is tested from R against quadrature / high
// precision; here the point is that no input drives the numerics undefined.
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "accountant.h"
#include "test_framework.h"

namespace {

const double kPosInf = std::numeric_limits<double>::infinity();
const double kQNaN = std::numeric_limits<double>::quiet_NaN();

pgbb::AccountantSetup setup_of(pgbb::AccountantKind kind, double n = 10000, double blocks = 20) {
  pgbb::AccountantSetup s;
  s.kind = kind;
  s.n = n;
  s.blocks = blocks;
  s.gamma = kind == pgbb::AccountantKind::kDirichlet ? (blocks * (n + 1) - 2 * n) / (blocks * (n - 1)) : 1.0;
  s.clip = 1.0;
  s.rate = 0.1;
  return s;
}

std::vector<int> range_orders(int lo, int hi) {
  std::vector<int> o(static_cast<size_t>(hi - lo + 1));
  std::iota(o.begin(), o.end(), lo);
  return o;
}

bool valid_moment(double a) { return !std::isnan(a) && a >= 0.0; }

const pgbb::AccountantKind kKinds[] = {pgbb::AccountantKind::kDirichlet, pgbb::AccountantKind::kWorstCase,
                                       pgbb::AccountantKind::kPlain};

}  // namespace

CORE_TEST(accountant_log_space_helpers) {
  using namespace pgbb::acct;
  LogSum empty;
  CHECK(empty.value() == -kPosInf && empty.count() == 0);
  LogSum s;
  s.add(-kPosInf);  // exp(-Inf) = 0 contributes nothing
  CHECK(s.value() == -kPosInf);
  s.add(0.0);
  s.add(0.0);
  CHECK_NEAR(s.value(), std::log(2.0), 1e-15);
  s.add(kQNaN);  // a NaN term is an unknown non-negative quantity: +Inf is the only safe bound
  CHECK(s.value() == kPosInf);
  LogSum big;
  big.add(1e300);
  big.add(1e300);
  CHECK_NEAR(big.value(), 1e300, 1e285);  // no overflow of exp
  CHECK_NEAR(log_add(-1000.0, -1000.0), -1000.0 + std::log(2.0), 1e-12);
  CHECK(log1p_exp(kQNaN) == kPosInf && log1p_exp(kPosInf) == kPosInf);
  CHECK_NEAR(log1p_exp(1000.0), 1000.0, 1e-12);
  CHECK_NEAR(log1p_exp(-1000.0), 0.0, 1e-300);
  CHECK(log1p_exp(-1000.0) >= 0.0);
  CHECK(log_expm1(0.0) == -kPosInf && log_expm1(kPosInf) == kPosInf);
  CHECK_NEAR(log_expm1(1e-300), std::log(1e-300), 1e-12);
  CHECK_NEAR(log_expm1(800.0), 800.0, 1e-12);
  CHECK(log_sinh(0.0) == -kPosInf && log_sinh(kPosInf) == kPosInf);
  CHECK_NEAR(log_sinh(800.0), 800.0 - std::log(2.0), 1e-12);
  CHECK_NEAR(log_sinh(0.5), std::log(std::sinh(0.5)), 1e-15);
}

CORE_TEST(accountant_series_tail_bounds) {
  using pgbb::acct::log_series_tail_upper;
  // Reference tails sum_{i>=first} y^i/i! by direct summation of the positive terms in
  // long double (no cancellation; 400 terms are far past the peak for y <= 20).
  auto exp_tail = [](double y, int first) {
    long double t = 1, sum = 0;
    for (int i = 1; i <= first; ++i) t *= static_cast<long double>(y) / i;
    for (int i = first; i < first + 400; ++i) { sum += t; t *= static_cast<long double>(y) / (i + 1); }
    return static_cast<double>(sum);
  };
  for (double y : {0.5, 3.0, 5.0, 20.0}) {
    for (int first : {1, 3, 8}) {
      const double exact = exp_tail(y, first);
      const double ub = log_series_tail_upper(y, first, 1);
      CHECK(ub >= std::log(exact) - 1e-12);  // an upper bound (up to rounding of the reference)
      CHECK_NEAR(ub, std::log(exact), 1e-9);  // and a tight one
    }
  }
  // sinh tail: sum over odd i >= 3 of y^i / i! = sinh(y) - y.
  for (double y : {0.5, 3.0, 10.0}) {
    const double ub = log_series_tail_upper(y, 3, 2);
    CHECK_NEAR(ub, std::log(std::sinh(y) - y), 1e-9);
  }
  // Far past the series' peak the complement branch is used; compare with e^y.
  CHECK_NEAR(log_series_tail_upper(1000.0, 3, 1), 1000.0, 1e-9);
  CHECK_NEAR(log_series_tail_upper(1000.0, 5, 2), 1000.0 - std::log(2.0), 1e-9);
  // Degenerate arguments: defined values only.
  CHECK(log_series_tail_upper(0.0, 3, 1) == -kPosInf);
  CHECK(log_series_tail_upper(-1.0, 3, 1) == -kPosInf);
  CHECK(log_series_tail_upper(kQNaN, 3, 1) == kPosInf);
  CHECK(log_series_tail_upper(kPosInf, 3, 1) == kPosInf);
  CHECK(std::isfinite(log_series_tail_upper(1e-300, 1, 1)));
  CHECK(std::isfinite(log_series_tail_upper(1e300, 3, 1)));
}

CORE_TEST(accountant_rejects_invalid_setups) {
  using pgbb::AccountantKind;
  auto make = [](pgbb::AccountantSetup s, std::vector<int> o) { pgbb::LogMomentAccountant acc(s, o); };
  const pgbb::AccountantSetup ok = setup_of(AccountantKind::kDirichlet);
  make(ok, {2, 3});
  CHECK_THROWS(make(ok, {}));
  CHECK_THROWS(make(ok, {1}));
  CHECK_THROWS(make(ok, {2, 4097}));
  CHECK_THROWS(make(ok, {-5}));
  pgbb::AccountantSetup s = ok;
  for (double clip : {0.0, -1.0, kPosInf, kQNaN}) { s = ok; s.clip = clip; CHECK_THROWS(make(s, {2})); }
  for (double rate : {0.0, 1.0, -0.1, 1.5, kQNaN}) { s = ok; s.rate = rate; CHECK_THROWS(make(s, {2})); }
  s = ok; s.J = -1; CHECK_THROWS(make(s, {2}));
  s = ok; s.J = 1001; CHECK_THROWS(make(s, {2}));
  s = ok; s.m = 2; CHECK_THROWS(make(s, {2}));
  s = ok; s.m = 101; CHECK_THROWS(make(s, {2}));
  for (double b : {1.0, 0.0, 2.5, kQNaN}) { s = ok; s.blocks = b; CHECK_THROWS(make(s, {2})); }
  for (double n : {19.0, 100.5, kPosInf, kQNaN}) { s = ok; s.n = n; CHECK_THROWS(make(s, {2})); }
  for (double g : {0.0, -1.0, kPosInf, kQNaN}) { s = ok; s.gamma = g; CHECK_THROWS(make(s, {2})); }
  for (double a : {-1.0, kPosInf, kQNaN}) { s = ok; s.alpha = a; CHECK_THROWS(make(s, {2})); }
  // gamma / alpha are not read by the deterministic kinds; n / blocks not by "plain".
  s = setup_of(AccountantKind::kWorstCase); s.gamma = kQNaN; s.alpha = -1; make(s, {2});
  s = setup_of(AccountantKind::kPlain); s.n = kQNaN; s.blocks = 0; make(s, {2});
  // n = S (blocks of one record) and S = 2 are valid edge cases.
  s = setup_of(AccountantKind::kDirichlet, 20, 20); make(s, {2, 64});
  s = setup_of(AccountantKind::kWorstCase, 2, 2); make(s, {2});
  // sigma must be positive.
  pgbb::LogMomentAccountant acc(ok, {2, 8});
  for (double sg : {0.0, -1.0, kQNaN}) CHECK_THROWS(acc.log_moments(sg));
}

CORE_TEST(accountant_never_nan_at_extreme_arguments) {
  const std::vector<int> orders = {2, 3, 4, 7, 16, 33, 64, 128, 256};
  for (pgbb::AccountantKind kind : kKinds) {
    for (double rate : {1e-9, 0.1, 0.999}) {
      for (double blocks : {2.0, 20.0}) {
        pgbb::AccountantSetup s = setup_of(kind, 10000, blocks);
        if (kind == pgbb::AccountantKind::kDirichlet && blocks == 2.0) s.gamma = 0.5;
        s.rate = rate;
        pgbb::LogMomentAccountant acc(s, orders);
        for (double sigma : {1e-300, 1e-8, 1e-4, 0.01, 1.0, 1e4, 1e300, kPosInf}) {
          const std::vector<double> a = acc.log_moments(sigma);
          CHECK(a.size() == orders.size());
          for (double v : a) CHECK(valid_moment(v));
          if (sigma == 1e300 || sigma == kPosInf) for (double v : a) CHECK(v <= 1e-12);  // no privacy loss
        }
        // Exposed pieces: right sizes, no NaN anywhere.
        const auto pc = acc.pieces(0.05);
        CHECK(static_cast<int>(pc.log_theta.size()) == orders.back() + 1);
        CHECK(pc.log_mbar.size() == pc.log_bbar.size());
        for (double v : pc.log_mbar) CHECK(!std::isnan(v));
        for (double v : pc.log_bbar) CHECK(!std::isnan(v));
        for (double v : pc.log_theta) CHECK(!std::isnan(v));
        CHECK(!std::isnan(pc.log_phi) && pc.margin >= 0.0 && std::isfinite(pc.margin));
      }
    }
  }
  // Extreme truncation orders and settings.
  pgbb::AccountantSetup s = setup_of(pgbb::AccountantKind::kDirichlet, 1e9, 3);
  s.J = 0; s.m = 3; s.alpha = 1e6;
  for (double v : pgbb::LogMomentAccountant(s, {2, 50}).log_moments(1e-3)) CHECK(valid_moment(v));
  s.J = 1000; s.m = 100; s.alpha = 0; s.clip = 1e300;
  for (double v : pgbb::LogMomentAccountant(s, {2, 9}).log_moments(1.0)) CHECK(valid_moment(v));
  // Huge order (the largest accepted) next to the smallest, both kinds.
  for (pgbb::AccountantKind kind : {pgbb::AccountantKind::kDirichlet, pgbb::AccountantKind::kPlain}) {
    pgbb::LogMomentAccountant big(setup_of(kind), {2, pgbb::acct::kMaxOrder});
    for (double sigma : {1e-3, 5.0}) {
      const std::vector<double> a = big.log_moments(sigma);
      for (double v : a) CHECK(valid_moment(v));
    }
  }
}

CORE_TEST(accountant_monotone_in_sigma_and_ordered_by_kind) {
  const std::vector<int> orders = range_orders(2, 40);
  pgbb::LogMomentAccountant dir(setup_of(pgbb::AccountantKind::kDirichlet), orders);
  pgbb::LogMomentAccountant wc(setup_of(pgbb::AccountantKind::kWorstCase), orders);
  // n = blocks: the worst-case weight 1/n_S is 1, i.e. exactly the "plain" pair.
  pgbb::LogMomentAccountant wc1(setup_of(pgbb::AccountantKind::kWorstCase, 20, 20), orders);
  pgbb::LogMomentAccountant plain(setup_of(pgbb::AccountantKind::kPlain), orders);
  std::vector<double> prev_d, prev_w;
  // Sigma on the scale where the per-record weight 1/500 matters: x = C^2/(2 sigma^2 n_S^2).
  for (double sigma : {1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 0.1}) {
    const std::vector<double> d = dir.log_moments(sigma), w = wc.log_moments(sigma);
    const std::vector<double> w1 = wc1.log_moments(sigma * 500), pl = plain.log_moments(sigma * 500);
    for (size_t i = 0; i < orders.size(); ++i) {
      // Dirichlet-aware <= worst-case (its M-bar is capped by the worst-case value and its
      // Beta moments are <= 1); the tolerance covers the two rounding margins (~1e-10).
      CHECK(d[i] <= w[i] * (1 + 1e-9) + 1e-300);
      CHECK_NEAR(w1[i], pl[i], 1e-12 * (1 + pl[i]));
      // Non-increasing in sigma.
      if (!prev_d.empty()) {
        CHECK(d[i] <= prev_d[i] * (1 + 1e-9) + 1e-300);
        CHECK(w[i] <= prev_w[i] * (1 + 1e-9) + 1e-300);
      }
    }
    prev_d = d;
    prev_w = w;
  }
  // Second moment: kappa of SM S2.3.2 for Dirichlet, 1 otherwise.
  const double g = dir.setup().gamma, S = 20;
  CHECK_NEAR(dir.second_moment(), g * (g + 1) / ((S * g) * (S * g + 1)), 1e-14);
  CHECK(wc.second_moment() == 1.0 && plain.second_moment() == 1.0);
  CHECK(dir.n_s() == 500.0 && plain.n_s() == 1.0);
  // n not divisible by S: the smallest block floor(n / S) is used.
  CHECK(pgbb::LogMomentAccountant(setup_of(pgbb::AccountantKind::kWorstCase, 10019, 20), {2}).n_s() == 500.0);
}

CORE_TEST(accountant_above_closed_form_lower_bound) {
  // Replace-one neighbours include a record whose clipped gradient is 0 being replaced
  // by one with gradient norm C, so every release is at least as distinguishable as the
  // pair P = (1 - q) N(0, s^2) + q N(wC, s^2) vs Q = N(0, s^2), whose order-2 log-moment
  // is exactly log(1 + q^2 (exp(w^2 C^2 / s^2) - 1)). A valid upper bound is above it.
  for (double q : {0.01, 0.1, 0.5}) {
    pgbb::AccountantSetup pl = setup_of(pgbb::AccountantKind::kPlain);
    pl.rate = q;
    pgbb::AccountantSetup wc = setup_of(pgbb::AccountantKind::kWorstCase);
    wc.rate = q;
    pgbb::LogMomentAccountant ap(pl, {2}), aw(wc, {2});
    for (double sigma : {0.3, 1.0, 3.0, 10.0}) {
      const double lb = std::log1p(q * q * std::expm1(1.0 / (sigma * sigma)));
      CHECK(ap.log_moments(sigma)[0] >= lb);
      const double sw = sigma / 500;  // worst case: w = 1 / n_S
      CHECK(aw.log_moments(sw)[0] >= lb);
    }
  }
}

CORE_TEST(accountant_conversions) {
  using pgbb::Conversion;
  CHECK(pgbb::compose_rdp(kQNaN, 2, 10) == kPosInf);
  CHECK(pgbb::compose_rdp(kPosInf, 2, 10) == kPosInf);
  CHECK(pgbb::compose_rdp(0.0, 2, 10) == 0.0);
  CHECK(pgbb::compose_rdp(-1.0, 2, 10) == 0.0);
  CHECK(pgbb::compose_rdp(0.5, 3, 10) >= 2.5);
  for (Conversion conv : {Conversion::kAsoodeh, Conversion::kMironov}) {
    CHECK(pgbb::epsilon_at_order(kQNaN, 2, 1e-5, conv) == kPosInf);
    CHECK(pgbb::epsilon_at_order(kPosInf, 2, 1e-5, conv) == kPosInf);
    CHECK(pgbb::delta_at_order(kQNaN, 2, 1.0, conv) == 1.0);
    CHECK(pgbb::delta_at_order(kPosInf, 2, 1.0, conv) == 1.0);
    for (int lambda : {2, 3, 10, 100, 4096}) {
      for (double rdp : {0.0, 1e-12, 1e-3, 0.5, 10.0, 1e5}) {
        for (double delta : {1e-300, 1e-10, 1e-5, 0.1, 0.6, 0.999}) {
          const double eps = pgbb::epsilon_at_order(rdp, lambda, delta, conv);
          CHECK(!std::isnan(eps) && eps >= 0.0);
          // Round trip: at the certified epsilon the certified delta is the target
          // (the conversions are inverse to each other; both round outward).
          if (std::isfinite(eps) && eps > 0) {
            const double d = pgbb::delta_at_order(rdp, lambda, eps, conv);
            CHECK(d >= 0.0 && d <= 1.0);
            // Both directions round outward by a few ulps of the log-quantities
            // (lambda - 1)(rdp + eps): that much relative slack in delta is expected.
            const double slack = 64 * std::numeric_limits<double>::epsilon() *
                                 ((lambda - 1.0) * (rdp + eps) + 2 * std::log(lambda) + 8);
            CHECK(d <= delta * (1 + 1e-9 + slack) + 1e-300);
          }
          if (conv == Conversion::kAsoodeh)  // Asoodeh's conversion is never worse than Mironov's
            CHECK(eps <= pgbb::epsilon_at_order(rdp, lambda, delta, Conversion::kMironov) * (1 + 1e-12) + 1e-15);
        }
      }
    }
    // Empty order grids: defined, trivially valid values.
    CHECK(pgbb::best_epsilon({}, {}, 1e-5, conv).value == kPosInf);
    CHECK(pgbb::best_delta({}, {}, 1.0, conv).value == 1.0);
  }
  // Mironov in closed form.
  CHECK_NEAR(pgbb::epsilon_at_order(0.1, 11, 1e-5, Conversion::kMironov), 0.1 + std::log(1e5) / 10, 1e-13);
  // best_* pick the minimum over the grid.
  const pgbb::OrderOptimum o = pgbb::best_epsilon({5.0, 0.1, 0.2}, {2, 20, 40}, 1e-5, Conversion::kMironov);
  CHECK(o.order == 40 || o.order == 20);
  CHECK(o.value <= pgbb::epsilon_at_order(0.1, 20, 1e-5, Conversion::kMironov));
}

CORE_TEST(accountant_calibration_round_trip) {
  using pgbb::Conversion;
  const std::vector<int> orders = range_orders(2, 64);
  pgbb::LogMomentAccountant acc(setup_of(pgbb::AccountantKind::kDirichlet), orders);
  const double tol = 1e-6;
  for (Conversion conv : {Conversion::kAsoodeh, Conversion::kMironov}) {
    for (double eps : {0.5, 2.0, 8.0}) {
      const pgbb::Calibration c = pgbb::calibrate_sigma(acc, 1000, eps, 1e-4, conv, tol);
      CHECK(c.sigma > 0 && std::isfinite(c.sigma));
      CHECK(c.epsilon <= eps);
      // The certified epsilon at the returned sigma is recomputed independently...
      const pgbb::OrderOptimum at = pgbb::epsilon_of_sigma(acc, c.sigma, 1000, 1e-4, conv);
      CHECK(at.value <= eps && at.value == c.epsilon && at.order == c.order);
      // ...and a noise scale smaller by more than the tolerance is infeasible (bisection
      // brackets the threshold; epsilon(sigma) is non-increasing).
      CHECK(pgbb::epsilon_of_sigma(acc, c.sigma * (1 - 2 * tol), 1000, 1e-4, conv).value > eps);
    }
  }
  // Extreme but valid requests stay finite.
  const pgbb::Calibration tiny = pgbb::calibrate_sigma(acc, 1e9, 1e-3, 1e-10, Conversion::kAsoodeh, 1e-3);
  CHECK(std::isfinite(tiny.sigma) && tiny.epsilon <= 1e-3);
  const pgbb::Calibration loose = pgbb::calibrate_sigma(acc, 1, 500, 0.5, Conversion::kAsoodeh, 1e-3);
  CHECK(std::isfinite(loose.sigma) && loose.sigma > 0 && loose.epsilon <= 500);
  // Leading-order scale: positive and finite (an approximation only, never the guarantee).
  for (bool wc : {true, false}) {
    const double s = pgbb::sigma_leading_order(acc, 1000, 1.0, 1e-4, wc);
    CHECK(s > 0 && std::isfinite(s));
  }
  // Invalid targets.
  CHECK_THROWS(pgbb::calibrate_sigma(acc, 10, 0.0, 1e-5, Conversion::kAsoodeh, tol));
  CHECK_THROWS(pgbb::calibrate_sigma(acc, 10, kPosInf, 1e-5, Conversion::kAsoodeh, tol));
  CHECK_THROWS(pgbb::calibrate_sigma(acc, 10, kQNaN, 1e-5, Conversion::kAsoodeh, tol));
  CHECK_THROWS(pgbb::calibrate_sigma(acc, 10, 1.0, 0.0, Conversion::kAsoodeh, tol));
  CHECK_THROWS(pgbb::calibrate_sigma(acc, 10, 1.0, 1.0, Conversion::kAsoodeh, tol));
  CHECK_THROWS(pgbb::calibrate_sigma(acc, 10, 1.0, 1e-5, Conversion::kAsoodeh, 0.0));
  CHECK_THROWS(pgbb::calibrate_sigma(acc, 10, 1.0, 1e-5, Conversion::kAsoodeh, 1.0));
  // Below the zero-loss floor of the conversion (Mironov at order 2: log(1/delta)).
  pgbb::LogMomentAccountant two(setup_of(pgbb::AccountantKind::kDirichlet), {2});
  CHECK_THROWS(pgbb::calibrate_sigma(two, 10, 1.0, 1e-10, Conversion::kMironov, tol));
  // The interrupt callback aborts with an exception, not a silent result.
  CHECK_INTERRUPTED(pgbb::calibrate_sigma(acc, 10, 1.0, 1e-5, Conversion::kAsoodeh, tol, [] { return true; }));
}
