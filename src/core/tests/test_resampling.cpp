// Core tests of resampling.h: Lambert W0, kappa_star (eq. 4), WR / WOR index
// draws (always in range, WOR distinct), the multiplicity check of Algorithm 1
// on both counter widths and its failure path, the fused scalar-mean path, and
// the stop callback. Edge cases: n = 2, m = 1, m = n, saturating counters.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "resampling.h"
#include "test_framework.h"

namespace {
const double kPosInf = std::numeric_limits<double>::infinity();

pgbb::ResamplePlan plan_of(int n, int m, int B, pgbb::ResampleMode mode, int kappa = 0, uint64_t seed = 77) {
  pgbb::ResamplePlan p;
  p.n = n; p.m = m; p.B = B; p.mode = mode; p.kappa = kappa; p.seed = pgbb::key_from_u64(seed);
  return p;
}
}  // namespace

CORE_TEST(resampling_lambert_w0) {
  const double e = std::exp(1.0);
  CHECK(std::isnan(pgbb::lambert_w0(std::numeric_limits<double>::quiet_NaN())));
  CHECK_THROWS(pgbb::lambert_w0(-0.5));
  CHECK(pgbb::lambert_w0(-1.0 / e) == -1.0 || std::fabs(pgbb::lambert_w0(-1.0 / e) + 1.0) < 1e-7);
  CHECK(pgbb::lambert_w0(0.0) == 0.0);
  CHECK(pgbb::lambert_w0(kPosInf) == kPosInf);
  for (double x : {-1.0 / e + 1e-12, -0.35, -0.3, -0.29, -1e-10, 1e-300, 0.5, 1.0, e, e + 1e-9, 10.0, 1e10, 1e300,
                   std::numeric_limits<double>::max()}) {
    const double w = pgbb::lambert_w0(x);
    CHECK(std::isfinite(w) && w >= -1.0);
    // w e^w = x, checked as w + log w = log x on the large side (e^w overflows there).
    if (x > e) CHECK_NEAR(w + std::log(w), std::log(x), 1e-13 * std::log(x));
    else if (x > -0.36) CHECK_NEAR(w * std::exp(w), x, 1e-13 * std::fabs(x) + 1e-300);
    else CHECK_NEAR(w * std::exp(w), x, 1e-7);  // near the branch point W is ill-conditioned
  }
  CHECK_NEAR(pgbb::lambert_w0(1.0), 0.56714329040978387, 1e-15);  // omega constant
}

CORE_TEST(resampling_kappa_star) {
  CHECK_THROWS(pgbb::kappa_star(1, 1, 10, 0.1));
  CHECK_THROWS(pgbb::kappa_star(10, 0, 10, 0.1));
  CHECK_THROWS(pgbb::kappa_star(10, 11, 10, 0.1));
  CHECK_THROWS(pgbb::kappa_star(10, 5, 0, 0.1));
  CHECK_THROWS(pgbb::kappa_star(10, 5, 10, 0.0));
  CHECK_THROWS(pgbb::kappa_star(10, 5, 10, 1.0));
  CHECK_THROWS(pgbb::kappa_star(10, 5, 10, std::numeric_limits<double>::quiet_NaN()));
  const double big = 2147483647.0;
  const double cases[][4] = {{2, 1, 1, 0.5},   {2, 2, 1, 0.5},     {10, 10, 1000, 1e-6}, {2000, 264, 500, 5e-4},
                             {1e6, 1e5, 1e4, 1e-6}, {big, big, big, 1e-300}, {big, 1, big, 0.999}, {100, 3, 1, 0.9}};
  for (const auto& c : cases) {
    const double n = c[0], m = c[1], B = c[2], rho = c[3];
    const int k = pgbb::kappa_star(n, m, B, rho);
    CHECK(k >= 1 && k <= m);
    // Defining inequality of the failure bound (Proposition 4.1): (k+1) log((k+1) n/(e m)) >= log(B n / rho),
    // unless kappa is capped at m (then no multiplicity can exceed it).
    const double A = std::log(B) + std::log(n) - std::log(rho);
    auto g = [&](double kk) { return (kk + 1) * (std::log(kk + 1) + std::log(n) - std::log(m) - 1); };
    CHECK(k == static_cast<int>(m) || g(k) >= A);
    // Minimal up to rounding: one less would violate it.
    if (k > 1 && k < m) CHECK(g(k - 1) < A * (1 + 1e-12));
  }
}

CORE_TEST(resampling_indices_in_range_and_deterministic) {
  CHECK_THROWS(pgbb::resample_mode_from("boot"));
  CHECK(pgbb::resample_mode_from("wr") == pgbb::ResampleMode::WR);
  for (auto bad : {plan_of(1, 1, 1, pgbb::ResampleMode::WR), plan_of(5, 0, 1, pgbb::ResampleMode::WR),
                   plan_of(5, 6, 1, pgbb::ResampleMode::WOR), plan_of(5, 2, 0, pgbb::ResampleMode::WR)})
    CHECK_THROWS(pgbb::Resampler r(bad));
  const int shapes[][2] = {{2, 1}, {2, 2}, {3, 3}, {17, 5}, {64, 64}, {65, 64}, {1000, 31}, {5000, 5000}};
  for (const auto& sh : shapes) {
    const int n = sh[0], m = sh[1];
    for (pgbb::ResampleMode mode : {pgbb::ResampleMode::WR, pgbb::ResampleMode::WOR}) {
      pgbb::Resampler a(plan_of(n, m, 20, mode)), b(plan_of(n, m, 20, mode));
      std::vector<uint32_t> ia(m), ib(m), seen(n);
      for (int i = 0; i < 20; ++i) {
        a.draw(i, ia.data());
        b.draw(i, ib.data());
        CHECK(ia == ib);  // resample i depends on (seed, i) only
        for (uint32_t v : ia) CHECK(v < static_cast<uint32_t>(n));
        if (mode == pgbb::ResampleMode::WOR) {
          std::vector<uint32_t> s = ia;
          std::sort(s.begin(), s.end());
          CHECK(std::adjacent_find(s.begin(), s.end()) == s.end());  // distinct
          if (m == n) for (int t = 0; t < n; ++t) CHECK(s[t] == static_cast<uint32_t>(t));  // a permutation
        }
        CHECK(pgbb::max_multiplicity(ia.data(), m, seen) >= 1);
        for (uint32_t c : seen) CHECK(c == 0u);  // scratch left clean
      }
      // Visiting order does not matter: drawing resample 7 first gives the same indices.
      pgbb::Resampler c(plan_of(n, m, 20, mode));
      std::vector<uint32_t> i7(m), again(m);
      c.draw(7, i7.data());
      a.draw(7, again.data());
      CHECK(i7 == again);
    }
  }
}

// Resample i is drawn from stream i of the plan's key by the 8-round ChaCha
// (kIndexRounds): WR as m bounded draws, WOR by Floyd's algorithm, both from
// that stream alone.
CORE_TEST(resampling_indices_come_from_the_chacha8_stream) {
  const int n = 1000, m = 77;
  for (pgbb::ResampleMode mode : {pgbb::ResampleMode::WR, pgbb::ResampleMode::WOR}) {
    const pgbb::ResamplePlan plan = plan_of(n, m, 5, mode);
    pgbb::Resampler rs(plan);
    std::vector<uint32_t> got(m), want(m), want20(m);
    std::vector<uint8_t> taken(n, 0);
    for (int i = 0; i < 5; ++i) {
      rs.draw(i, got.data());
      pgbb::Rng r8 = pgbb::Rng::stream(plan.seed, static_cast<uint64_t>(i), pgbb::ChaChaRounds::k8);
      pgbb::Rng r20 = pgbb::Rng::stream(plan.seed, static_cast<uint64_t>(i));
      pgbb::BoundedDraw b8(r8), b20(r20);
      if (mode == pgbb::ResampleMode::WR) {
        b8.fill(want.data(), m, n);
        b20.fill(want20.data(), m, n);
      } else {
        b8.floyd(want.data(), m, n, taken.data());
        std::fill(taken.begin(), taken.end(), uint8_t{0});
        b20.floyd(want20.data(), m, n, taken.data());
        std::fill(taken.begin(), taken.end(), uint8_t{0});
      }
      CHECK(got == want);
      CHECK(got != want20);
    }
  }
}

CORE_TEST(resampling_multiplicity_check_both_counter_widths) {
  // The byte-counter path must agree with a plain count, and a second
  // Resampler must draw the same resample and decision.
  for (int kappa : {1, 2, 3, 50}) {
    pgbb::Resampler r(plan_of(40, 40, 64, pgbb::ResampleMode::WR, kappa));
    pgbb::Resampler r2(plan_of(40, 40, 64, pgbb::ResampleMode::WR, kappa));
    std::vector<uint32_t> idx(40), idx2(40), scratch(40);
    for (int i = 0; i < 64; ++i) {
      const int over = r.draw(i, idx.data());
      const int mx = pgbb::max_multiplicity(idx.data(), 40, scratch);
      CHECK(over == (mx > kappa ? mx : 0));
      CHECK(static_cast<int>(r.max_multiplicity_of(idx.data(), 40)) == mx);
      const int over2 = r2.draw(i, idx2.data());
      CHECK(over2 == over && idx2 == idx && r2.last_multiplicity() == r.last_multiplicity());
    }
  }
  // Byte counters would wrap at 256; a count that reaches 255 is recounted with
  // 32-bit counters, so multiplicities are exact at any size (an under-count
  // would under-state a sensitivity). Uniform draws never get near that (m <= n),
  // so the counters are fed directly.
  {
    const int n = 70000;
    pgbb::Resampler r(plan_of(n, n, 2, pgbb::ResampleMode::WR, 100));
    std::vector<uint32_t> same(n, 0u), distinct(n);
    for (int t = 0; t < n; ++t) distinct[t] = static_cast<uint32_t>(t);
    CHECK(r.max_multiplicity_of(same.data(), n) == static_cast<unsigned>(n));
    CHECK(r.max_multiplicity_of(distinct.data(), n) == 1u);  // scratch was reset
    for (int k : {3, 254, 255, 256, 511, 512, 65535, 65536})
      CHECK(r.max_multiplicity_of(same.data(), k) == static_cast<unsigned>(k));
    CHECK(r.max_multiplicity_of(distinct.data(), 10) == 1u);
    CHECK(r.max_multiplicity_of(same.data(), 0) == 0u);
    // A small resample against n resets its counters one by one: still clean.
    std::vector<uint32_t> few = {5u, 9u, 5u, 5u};
    CHECK(r.max_multiplicity_of(few.data(), 4) == 3u);
    CHECK(r.max_multiplicity_of(few.data() + 1, 1) == 1u);
    for (int kappa : {65534, 65535, 200000}) {
      pgbb::Resampler w(plan_of(n, n, 2, pgbb::ResampleMode::WR, kappa));
      std::vector<uint32_t> idx(n), scratch(n);
      for (int i = 0; i < 2; ++i) {
        CHECK(w.draw(i, idx.data()) == 0);
        CHECK(pgbb::max_multiplicity(idx.data(), n, scratch) < 20);
      }
    }
  }
}

CORE_TEST(resampling_realised_multiplicities) {
  // resample_multiplicities() and Resampler::last_multiplicity() count every
  // resample exactly (a plain count is the reference), on every counter path, and
  // for_each_resample and a thresholded draw() report the maximum.
  for (int m : {5, 40, 70000}) {
    const int n = m == 70000 ? 70000 : 60;
    const int B = m == 70000 ? 2 : 50;
    const pgbb::ResamplePlan plan = plan_of(n, m, B, pgbb::ResampleMode::WR, 0);
    const std::vector<int> k = pgbb::resample_multiplicities(plan);
    pgbb::Resampler r(plan);
    std::vector<uint32_t> idx(m), scratch(n);
    int mx = 0;
    for (int i = 0; i < B; ++i) {
      r.draw(i, idx.data());
      const int c = pgbb::max_multiplicity(idx.data(), m, scratch);
      CHECK(k[i] == c);
      mx = std::max(mx, c);
    }
    pgbb::ResamplePlan counted = plan;
    counted.kappa = m;  // never exceeded: counts without rejecting
    const pgbb::ResamplePass pass = pgbb::for_each_resample(counted, [](int, const uint32_t*, int) {});
    CHECK(pass.failed_at < 0 && pass.max_mult == mx);
    pgbb::Resampler f(counted);
    int fm = 0;
    for (int i = 0; i < B; ++i) {
      CHECK(f.draw(i, idx.data()) == 0);
      fm = std::max(fm, f.last_multiplicity());
    }
    CHECK(fm == mx);
  }
  const std::vector<int> wor = pgbb::resample_multiplicities(plan_of(30, 10, 4, pgbb::ResampleMode::WOR, 0));
  CHECK(wor == std::vector<int>(4, 1));
}

CORE_TEST(resampling_bulk_bounded_draws_match_below) {
  // fill() and floyd() read the engine's buffer directly; they must return what
  // the one-at-a-time below() returns and leave the engine at the same position
  // (callers keep drawing from it), whatever the bound (2^31 + 1 rejects about
  // half of all halves, exercising the exact fallback), the length and whether a
  // half word is pending.
  const uint32_t bounds[] = {1u, 2u, 3u, 7u, 50000u, 2147483649u, 4294967295u};
  for (uint32_t s : bounds) {
    for (int m : {0, 1, 2, 3, 63, 64, 65, 129, 1000}) {
      for (bool pending : {false, true}) {
        pgbb::Rng ra(11), rb(11);
        pgbb::BoundedDraw a(ra), b(rb);
        if (pending) CHECK(a.below(s) == b.below(s));
        std::vector<uint32_t> got(static_cast<size_t>(m)), want(static_cast<size_t>(m));
        a.fill(got.data(), m, s);
        for (int t = 0; t < m; ++t) want[t] = b.below(s);
        CHECK(got == want);
        CHECK(a.below(s) == b.below(s));  // the pending half agrees
        CHECK(ra.next_u64() == rb.next_u64());
      }
    }
  }
  for (uint32_t n : {1u, 2u, 10u, 1000u, 70000u}) {
    for (int m : {1, 2, 3, 10, 500}) {
      if (static_cast<uint32_t>(m) > n) continue;
      std::vector<uint8_t> taken(n, 0);
      pgbb::Rng ra(5), rb(5);
      pgbb::BoundedDraw a(ra), b(rb);
      std::vector<uint32_t> got(static_cast<size_t>(m)), want;
      a.floyd(got.data(), m, n, taken.data());
      std::vector<bool> seen(n, false);
      for (uint32_t j = n - static_cast<uint32_t>(m); j < n; ++j) {
        uint32_t r = b.below(j + 1);
        if (seen[r]) r = j;
        seen[r] = true;
        want.push_back(r);
      }
      CHECK(got == want);
      int flags = 0;
      for (uint8_t f : taken) flags += f;
      CHECK(flags == m);
      CHECK(ra.next_u64() == rb.next_u64());
    }
  }
}

CORE_TEST(resampling_failure_and_interrupt_paths) {
  // n = m = 10, kappa = 1: a with-replacement resample with all 10 records distinct has
  // probability 10!/10^10 < 4e-4, so the first resample fails (Algorithm 1 returns bottom).
  int visited = 0;
  pgbb::ResamplePass p = pgbb::for_each_resample(plan_of(10, 10, 5, pgbb::ResampleMode::WR, 1),
                                                 [&](int, const uint32_t*, int) { ++visited; });
  CHECK(p.failed_at == 0 && p.failed_mult >= 2 && visited == 0);
  // No threshold: every resample is visited in order.
  std::vector<int> order;
  p = pgbb::for_each_resample(plan_of(10, 10, 5, pgbb::ResampleMode::WR, 0),
                              [&](int i, const uint32_t* idx, int m) {
                                order.push_back(i);
                                for (int t = 0; t < m; ++t) CHECK(idx[t] < 10u);
                              });
  CHECK(p.failed_at == -1 && order == std::vector<int>({0, 1, 2, 3, 4}));
  // The stop callback is polled every 64 resamples and ends the pass with Interrupted.
  visited = 0;
  CHECK_INTERRUPTED(pgbb::for_each_resample(plan_of(100, 10, 1000, pgbb::ResampleMode::WOR),
                                            [&](int, const uint32_t*, int) { ++visited; }, [] { return true; }));
  CHECK(visited == 63);
  // B = 1, m = 1, n = 2.
  visited = 0;
  p = pgbb::for_each_resample(plan_of(2, 1, 1, pgbb::ResampleMode::WR, 1),
                              [&](int, const uint32_t* idx, int m) { ++visited; CHECK(m == 1 && idx[0] < 2u); });
  CHECK(visited == 1 && p.failed_at == -1);
  // Bounded draws: below(1) is always 0, and large ranges stay in range.
  pgbb::Rng rng(5);
  pgbb::BoundedDraw bd(rng);
  for (int i = 0; i < 1000; ++i) {
    CHECK(bd.below(1) == 0u);
    CHECK(bd.below(4294967295u) < 4294967295u);
    CHECK(bd.below(3) < 3u);
  }
}
