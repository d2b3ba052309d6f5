// Core tests of the threaded subset pass (parallel.h, trainer.h), of the
// runs trained side by side (runs.h, supervised_units) and of the range-wise
// Poisson samplers they rely on (rng.h, range_subsets.h): a training is bit-identical for every
// thread count, so are the runs of a fit, and subsets drawn range by range
// from independent streams include each record with probability q.
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "parallel.h"
#include "runs.h"
#include "test_framework.h"
#include "trainer.h"

namespace {

// A training at a size with several units of work: n spans three ranges of
// kSubsetRange records and K = 2 draws, so 6 units per iteration.
// y = b0 + x_1 + ... + x_{p-1} + N(0, 1) with x_j ~ U[-1, 1]; x (n x p,
// column-major) has the intercept column first.
void linear_design(int64_t n, int p, double b0, uint64_t seed, std::vector<double>& x, std::vector<double>& y) {
  pgbb::Rng data_rng(seed);
  x.assign(static_cast<size_t>(n) * p, 0.0);
  y.assign(static_cast<size_t>(n), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    x[static_cast<size_t>(i)] = 1.0;
    double eta = b0;
    for (int j = 1; j < p; ++j) {
      const double v = 2.0 * data_rng.uniform() - 1.0;
      x[static_cast<size_t>(i + j * n)] = v;
      eta += v;
    }
    y[static_cast<size_t>(i)] = eta + data_rng.normal();
  }
}

std::vector<float> train_with_threads(int threads, bool joint, double sigma) {
  using namespace pgbb;
  const int64_t n = 2 * kSubsetRange + 777;
  const int p = 3, S = 5;
  std::vector<double> x, y;
  linear_design(n, p, 0.5, 41, x, y);
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

CORE_TEST(supervised_units_run_every_unit_once_and_report_failures) {
  for (int workers : {1, 2, 4}) {
    std::vector<int> hits(40, 0);
    int polls = 0;
    pgbb::supervised_units(40, workers, [&](int64_t u, const std::atomic<bool>&) { hits[static_cast<size_t>(u)] += 1; },
                           [&] { ++polls; return false; });
    bool once = true;
    for (int h : hits) once = once && h == 1;
    CHECK(once);
    CHECK(polls >= 1);  // at least the final poll, on the calling thread
  }
  // the exception of the lowest failing unit reaches the caller, whatever the order
  for (int workers : {1, 3}) {
    bool low_first = false;
    try {
      pgbb::supervised_units(10, workers, [&](int64_t u, const std::atomic<bool>&) {
        if (u == 7) throw std::runtime_error("seven");
        if (u == 3) throw std::invalid_argument("three");
      }, [] { return false; });
    } catch (const std::invalid_argument& e) {
      low_first = std::string(e.what()) == "three";
    } catch (const std::exception&) {
    }
    CHECK(low_first);
  }
  // a stop asked by the supervisor reaches running units and ends in Interrupted
  std::atomic<int> started{0}, saw_stop{0};
  CHECK_INTERRUPTED(pgbb::supervised_units(4, 2, [&](int64_t, const std::atomic<bool>& stop) {
    started += 1;
    while (!stop.load()) std::this_thread::yield();
    saw_stop += 1;
  }, [&] { return started.load() >= 1; }, std::chrono::milliseconds(1)));
  CHECK(saw_stop.load() >= 1);
  CHECK(started.load() <= 2);  // the units not yet begun were skipped
  // a stop asked at the first poll ends in Interrupted even if every unit has
  // already run (how far the worker got by then is a race)
  CHECK_INTERRUPTED(pgbb::supervised_units(3, 1, [&](int64_t, const std::atomic<bool>&) {}, [] { return true; }));
  // an exception from the supervisor stops the units and is rethrown
  CHECK_THROWS(pgbb::supervised_units(2, 2, [&](int64_t, const std::atomic<bool>& stop) {
    while (!stop.load()) std::this_thread::yield();
  }, []() -> bool { throw std::runtime_error("progress failed"); }, std::chrono::milliseconds(1)));
}

namespace {

struct RunsProblem {
  int64_t n = 3000;
  int p = 3, S = 5;
  std::vector<double> x, y;
  RunsProblem() { linear_design(n, p, 0.25, 77, x, y); }
  pgbb::Generator<float> generator() const {
    std::vector<double> sh, sc;
    pgbb::input_standardisation(S, false, sh, sc);
    return pgbb::Generator<float>(S, {8}, pgbb::Box(std::vector<double>(p, -5.0), std::vector<double>(p, 5.0)),
                                  sh, sc, 0);
  }
  pgbb::TrainConfig config() const {
    pgbb::TrainConfig cfg;
    cfg.iterations = 40;
    cfg.mc = 2;
    cfg.rate = 0.05;
    cfg.sigma = 0.5;
    cfg.clip = 2.0;
    cfg.callback_every = 5;
    cfg.optimizer.iterations = cfg.iterations;
    return cfg;
  }
};

// Weights of R runs trained side by side on `threads` threads (one partition
// shared, or one each).
std::vector<std::vector<float>> runs_with_threads(const RunsProblem& pr, int R, int threads, bool shared) {
  pgbb::Rng rng(5);
  std::vector<pgbb::BlockPartition> parts;
  for (int r = 0; r < (shared ? 1 : R); ++r) parts.push_back(pgbb::block_partition(pr.n, pr.S, rng));
  std::vector<pgbb::Key> keys;
  std::vector<pgbb::Generator<float>> gens;
  for (int r = 0; r < R; ++r) {
    keys.push_back(rng.next_key());
    gens.push_back(pr.generator());
  }
  pgbb::train_runs(pgbb::QuantileLoss{pr.p, 0.3}, pr.x.data(), pr.y.data(), pr.n, pr.p, parts, gens, keys,
                   pr.config(), threads);
  std::vector<std::vector<float>> out;
  for (auto& g : gens) out.emplace_back(g.params(), g.params() + g.n_params());
  return out;
}

}  // namespace

CORE_TEST(runs_side_by_side_are_bit_identical_for_any_thread_count) {
  const RunsProblem pr;
  for (bool shared : {true, false}) {
    const auto one = runs_with_threads(pr, 5, 1, shared);
    CHECK(runs_with_threads(pr, 5, 2, shared) == one);
    CHECK(runs_with_threads(pr, 5, 3, shared) == one);
    CHECK(runs_with_threads(pr, 5, 8, shared) == one);
    CHECK(!(one[0] == one[1]));  // the runs differ: each has its own key
  }
  // Run r equals a plain train() from its key: initial weights from stream 0,
  // the training's draws from stream 1 (what the fits before runs.h did).
  pgbb::Rng rng(5);
  pgbb::BlockPartition part = pgbb::block_partition(pr.n, pr.S, rng);
  const pgbb::Key k0 = rng.next_key(), k1 = rng.next_key();
  const auto together = runs_with_threads(pr, 2, 2, true);
  pgbb::RowStore<float> rows(pr.x.data(), pr.y.data(), pr.n, pr.p, &part);
  for (int r = 0; r < 2; ++r) {
    pgbb::Generator<float> gen = pr.generator();
    pgbb::Rng init = pgbb::Rng::stream(r == 0 ? k0 : k1, 0), train = pgbb::Rng::stream(r == 0 ? k0 : k1, 1);
    gen.init(init);
    pgbb::train(pgbb::QuantileLoss{pr.p, 0.3}, rows, part, gen, pr.config(), train);
    CHECK(std::vector<float>(gen.params(), gen.params() + gen.n_params()) == together[static_cast<size_t>(r)]);
  }
}

CORE_TEST(runs_side_by_side_report_progress_and_stop_when_asked) {
  const RunsProblem pr;
  pgbb::Rng rng(6);
  std::vector<pgbb::BlockPartition> parts{pgbb::block_partition(pr.n, pr.S, rng)};
  std::vector<pgbb::Key> keys{rng.next_key(), rng.next_key(), rng.next_key()};
  std::vector<pgbb::Generator<float>> gens{pr.generator(), pr.generator(), pr.generator()};
  int64_t last = -1, total_seen = 0;
  bool monotone = true;
  pgbb::train_runs(pgbb::QuantileLoss{pr.p, 0.3}, pr.x.data(), pr.y.data(), pr.n, pr.p, parts, gens, keys,
                   pr.config(), 2, [&](int64_t done, int64_t total) {
                     monotone = monotone && done >= last;
                     last = done;
                     total_seen = total;
                     return false;
                   });
  CHECK(monotone);
  CHECK(total_seen == 3 * 40);
  CHECK(last == 3 * 40);  // the final report, after every run has ended
  CHECK_INTERRUPTED(pgbb::train_runs(pgbb::QuantileLoss{pr.p, 0.3}, pr.x.data(), pr.y.data(), pr.n, pr.p, parts,
                                     gens, keys, pr.config(), 2, [](int64_t, int64_t) { return true; }));
  CHECK(pgbb::run_subset_threads(4, 5, 2) == 2);  // the last run of 5 on 2 threads gets both
  CHECK(pgbb::run_subset_threads(0, 5, 2) == 1);
  CHECK(pgbb::run_subset_threads(0, 1, 4) == 4);  // one run: every thread to its subset pass
  CHECK(pgbb::run_subset_threads(1, 2, 6) == 3);
}

// The runs' generators evaluated side by side give each run's own values,
// whatever the number of threads.
CORE_TEST(evaluate_runs_matches_each_generator_for_any_thread_count) {
  const RunsProblem pr;
  pgbb::Rng rng(8);
  std::vector<pgbb::Generator<double>> gens;
  std::vector<double> sh, sc;
  pgbb::input_standardisation(pr.S, false, sh, sc);
  for (int r = 0; r < 3; ++r) {
    gens.emplace_back(pr.S, std::vector<int>{8, 8},
                      pgbb::Box(std::vector<double>(pr.p, -5.0), std::vector<double>(pr.p, 5.0)), sh, sc, 0);
    gens.back().init(rng);
    // init() starts every generator at the box centre; spread the weights so
    // that the runs differ
    for (int64_t i = 0; i < gens.back().n_params(); ++i) gens.back().params()[i] = 0.3 * rng.normal();
  }
  const int64_t m = 600;  // more than one batch of 256
  std::vector<double> in(static_cast<size_t>(m) * pr.S);
  for (int64_t i = 0; i < m; ++i) rng.dirichlet(1.0, in.data() + i * pr.S, pr.S);
  std::vector<std::vector<double>> alone;
  for (auto& g : gens) {
    alone.emplace_back(static_cast<size_t>(m) * pr.p);
    g.evaluate(in.data(), m, alone.back().data());
  }
  CHECK(!(alone[0] == alone[1]));
  for (int threads : {1, 2, 5}) {
    std::vector<std::vector<double>> out(3, std::vector<double>(static_cast<size_t>(m) * pr.p));
    pgbb::evaluate_runs(gens, in.data(), m, out, threads);
    CHECK(out == alone);
  }
  std::vector<std::vector<double>> wrong(2, std::vector<double>(static_cast<size_t>(m) * pr.p));
  CHECK_THROWS(pgbb::evaluate_runs(gens, in.data(), m, wrong, 2));
}
