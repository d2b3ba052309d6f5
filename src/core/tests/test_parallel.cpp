// Core tests of the threaded subset pass (parallel.h, trainer.h) and of the
// range-wise Poisson sampler it relies on (rng.h): a training is bit-identical
// for every thread count, and subsets drawn range by range from independent
// streams include each record with probability q.
#include <cmath>
#include <vector>

#include "parallel.h"
#include "test_framework.h"
#include "trainer.h"

namespace {

// A training at a size with several units of work: n spans three ranges of
// kSubsetRange records and K = 2 draws, so 6 units per iteration.
std::vector<float> train_with_threads(int threads, bool joint, double sigma) {
  using namespace pgbb;
  const int64_t n = 2 * kSubsetRange + 777;
  const int p = 3, S = 5;
  Rng data_rng(41);
  std::vector<double> x(static_cast<size_t>(n) * p), y(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    x[static_cast<size_t>(i)] = 1.0;
    double eta = 0.5;
    for (int j = 1; j < p; ++j) {
      const double v = 2.0 * data_rng.uniform() - 1.0;
      x[static_cast<size_t>(i + j * n)] = v;
      eta += v;
    }
    y[static_cast<size_t>(i)] = eta + data_rng.normal();
  }
  Rng rng(42);
  BlockPartition part = block_partition(n, S, rng);
  RowStore<float> rows(x.data(), y.data(), n, p, &part);
  const int nt = joint ? kTauFeatures : 0;
  std::vector<double> sh, sc;
  input_standardisation(S, joint, sh, sc);
  Box box(std::vector<double>(p, -5.0), std::vector<double>(p, 5.0));
  Generator<float> gen(S + nt, {8}, box, sh, sc, nt);
  gen.init(rng);
  TrainConfig cfg;
  cfg.iterations = 15;
  cfg.mc = 2;
  cfg.rate = 0.002;
  cfg.sigma = sigma;
  cfg.clip = 2.0;
  cfg.optimizer.iterations = cfg.iterations;
  cfg.threads = threads;
  if (joint) {
    cfg.tau_grid = {0.25, 0.5, 0.75};
    cfg.tau_prob = {1, 1, 1};
  }
  QuantileLoss loss{p, 0.1};
  train(loss, rows, part, gen, cfg, rng);
  return std::vector<float>(gen.params(), gen.params() + gen.n_params());
}

}  // namespace

CORE_TEST(training_is_bit_identical_for_any_thread_count) {
  for (bool joint : {false, true}) {
    const std::vector<float> one = train_with_threads(1, joint, 0.5);
    CHECK(train_with_threads(2, joint, 0.5) == one);
    CHECK(train_with_threads(3, joint, 0.5) == one);
    CHECK(train_with_threads(8, joint, 0.5) == one);
  }
  // Without noise (sigma = 0) the sums still merge exactly: also identical.
  CHECK(train_with_threads(2, false, 0.0) == train_with_threads(1, false, 0.0));
  // and the comparison can fail: another noise level trains other weights
  CHECK(!(train_with_threads(1, false, 0.25) == train_with_threads(1, false, 0.5)));
}

CORE_TEST(parallel_units_runs_every_unit_once) {
  for (int threads : {1, 2, 5}) {
    // each unit writes only its own slots (no check runs on a worker thread)
    std::vector<int> hits(1000, 0), thread_of(1000, -1);
    pgbb::parallel_units(1000, threads, [&](int64_t u, int th) {
      hits[static_cast<size_t>(u)] += 1;
      thread_of[static_cast<size_t>(u)] = th;
    });
    bool once = true, in_range = true;
    for (int h : hits) once = once && h == 1;
    for (int th : thread_of) in_range = in_range && th >= 0 && th < threads;
    CHECK(once);
    CHECK(in_range);
  }
}

// Subsets of consecutive ranges, each from its own stream, include every record
// with probability q: the inclusion counts of 1,000 draws of 3 ranges are
// binomial(1000, q) per record; their mean over the 3 x 500 records must be
// within 4 standard errors of q, and the first, last and range-edge records
// must be reachable.
CORE_TEST(range_wise_poisson_subsets_include_each_record_with_probability_q) {
  const double q = 0.05;
  const int64_t range = 500, ranges = 3, n = range * ranges;
  std::vector<int> count(static_cast<size_t>(n), 0);
  pgbb::Rng master(9);
  std::vector<int64_t> out;
  const int draws = 1000;
  for (int t = 0; t < draws; ++t) {
    const pgbb::Key key = master.next_key();
    out.clear();
    for (int64_t r = 0; r < ranges; ++r)
      pgbb::Rng::stream(key, static_cast<uint64_t>(r)).poisson_range(r * range, (r + 1) * range, q, out);
    bool increasing = true;
    for (size_t i = 1; i < out.size(); ++i) increasing = increasing && out[i] > out[i - 1];
    CHECK(increasing);
    for (int64_t i : out) count[static_cast<size_t>(i)] += 1;
  }
  double total = 0.0;
  for (int c : count) total += c;
  const double mean = total / (static_cast<double>(draws) * n);
  const double se = std::sqrt(q * (1 - q) / (static_cast<double>(draws) * n));
  CHECK(std::fabs(mean - q) < 4.0 * se);
  for (int64_t i : {int64_t(0), range - 1, range, 2 * range, n - 1}) CHECK(count[static_cast<size_t>(i)] > 0);
  // per range: each range's share matches q too (no range is starved)
  for (int64_t r = 0; r < ranges; ++r) {
    double c = 0.0;
    for (int64_t i = r * range; i < (r + 1) * range; ++i) c += count[static_cast<size_t>(i)];
    const double m = c / (static_cast<double>(draws) * range);
    CHECK(std::fabs(m - q) < 4.0 * std::sqrt(q * (1 - q) / (static_cast<double>(draws) * range)));
  }
}

// The table sampler of the gaps is the logarithm's map U -> floor(log U /
// log(1 - q)), computed another way: fed the same uniforms it gives the same
// gaps (a threshold within rounding of some U could differ; none does here).
CORE_TEST(geometric_gap_table_matches_the_logarithm) {
  for (double q : {0.9, 0.5, 0.1, 0.01, 0.001, 1e-5}) {
    const pgbb::GeometricGaps gaps(q), no_table(q, false);
    pgbb::Rng a(123), b(123), c(123);
    const double log1mq = std::log1p(-q);
    long differ = 0;
    double mean = 0.0;
    const int draws = 400000;
    for (int i = 0; i < draws; ++i) {
      const double g = gaps.draw(a);
      const double f = std::floor(std::log(b.uniform()) / log1mq);
      differ += (g != f) + (no_table.draw(c) != f);
      mean += g;
    }
    CHECK(differ == 0);
    // mean gap (1 - q) / q, within 5 standard errors (sd sqrt(1 - q) / q)
    mean /= draws;
    CHECK(std::fabs(mean - (1 - q) / q) < 5.0 * std::sqrt(1 - q) / q / std::sqrt(static_cast<double>(draws)));
  }
  pgbb::Rng r(5);
  CHECK(pgbb::GeometricGaps(1.0).draw(r) == 0.0);
  CHECK_THROWS(pgbb::GeometricGaps(0.0));
  CHECK_THROWS(pgbb::GeometricGaps(1.5));
}
