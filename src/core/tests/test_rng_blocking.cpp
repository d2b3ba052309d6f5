// Core tests of the engine, samplers, blocking and exact bootstraps. The
// statistical properties are tested from R against R's distribution functions;
// here the point is memory safety and defined behaviour on edge cases.
#include <algorithm>
#include <numeric>

#include "bayes_bootstrap.h"
#include "blocking.h"
#include "rng.h"
#include "test_framework.h"

CORE_TEST(rng_reproducible_and_streams_differ) {
  pgbb::Rng a(42), b(42);
  for (int i = 0; i < 1000; ++i) CHECK(a.next_u64() == b.next_u64());
  pgbb::Rng s0 = pgbb::Rng::stream(42, 0), s1 = pgbb::Rng::stream(42, 1);
  CHECK(s0.next_u64() != s1.next_u64());
}

CORE_TEST(samplers_edge_cases) {
  pgbb::Rng r(1);
  for (int i = 0; i < 10000; ++i) {
    const double u = r.uniform();
    CHECK(u > 0.0 && u < 1.0);
  }
  CHECK(r.uniform_int(1) == 0);
  CHECK_THROWS(r.uniform_int(0));
  CHECK_THROWS(r.gamma(0.0));
  CHECK_THROWS(r.gamma(-1.0));
  for (double shape : {1e-4, 0.5, 1.0, 7.5}) CHECK(std::isfinite(r.log_gamma_draw(shape)));
  std::vector<double> u(50);
  r.dirichlet(1e-3, u.data(), 50);
  CHECK_NEAR(std::accumulate(u.begin(), u.end(), 0.0), 1.0, 1e-12);
  CHECK_THROWS(r.dirichlet(1.0, u.data(), 0));
  std::vector<int> p = r.permutation(1);
  CHECK(p.size() == 1 && p[0] == 0);
  CHECK(r.permutation(0).empty());
}

CORE_TEST(poisson_subset_bounds) {
  pgbb::Rng r(2);
  std::vector<int64_t> idx;
  for (double q : {0.0, 1e-9, 0.01, 0.5, 0.999999, 1.0}) {
    r.poisson_subset(1000, q, idx);
    CHECK(std::is_sorted(idx.begin(), idx.end()));
    CHECK(idx.empty() || (idx.front() >= 0 && idx.back() < 1000));
  }
  r.poisson_subset(0, 0.5, idx);
  CHECK(idx.empty());
  CHECK_THROWS(r.poisson_subset(10, 1.5, idx));
  // Large n with a small rate: the hot path at natality scale.
  r.poisson_subset(2000000, 0.01, idx);
  CHECK(idx.size() > 19000 && idx.size() < 21000);
}

CORE_TEST(block_partition_balanced) {
  pgbb::Rng r(3);
  for (int n : {5, 7, 100, 1003}) {
    for (int S : {2, 3, 5}) {
      if (S > n) continue;
      pgbb::BlockPartition part = pgbb::block_partition(n, S, r);
      CHECK(static_cast<int>(part.block.size()) == n);
      const int lo = *std::min_element(part.size.begin(), part.size.end());
      const int hi = *std::max_element(part.size.begin(), part.size.end());
      CHECK(hi - lo <= 1);
      CHECK(lo == n / S);
      CHECK(part.n_min() == n / S);
    }
  }
  CHECK_THROWS(pgbb::block_partition(3, 5, r));
  CHECK_THROWS(pgbb::block_partition(10, 1, r));
  CHECK_THROWS(pgbb::gamma_star(100, 2));
  CHECK_NEAR(pgbb::gamma_star(1e9, 5), 0.6, 1e-8);
}

CORE_TEST(exact_bootstraps_of_a_mean) {
  pgbb::Rng r(4);
  const int n = 60, p = 2, draws = 50;
  std::vector<double> x(n * p);
  for (auto& v : x) v = r.normal();
  std::vector<double> out(draws * p);
  pgbb::bayesian_bootstrap_mean(x.data(), n, p, draws, r, out.data());
  for (double v : out) CHECK(std::isfinite(v));
  pgbb::BlockPartition part = pgbb::block_partition(n, 6, r);
  pgbb::blocked_bootstrap_mean(x.data(), n, p, draws, 0.7, part, r, out.data());
  for (double v : out) CHECK(std::isfinite(v));
  std::vector<double> w(n), u(6, 1.0 / 6);
  pgbb::record_weights(u.data(), part, w.data());
  CHECK_NEAR(std::accumulate(w.begin(), w.end(), 0.0), 1.0, 1e-12);
}
