// Core tests of the stationarity check (stationarity.h): the null variance of
// a release against a simulation of the mechanism, and the sums train()
// collects over the second half of a training.
#include <cmath>
#include <vector>

#include "stationarity.h"
#include "test_framework.h"
#include "test_losses.h"
#include "trainer.h"

namespace {

// Variance of sum_{j in B} w-bar_j v_j over Poisson(q) subsets B and
// Dirichlet(gamma 1_S) weights w-bar_j = u_pi(j) / n_pi(j), simulated.
double simulated_subset_variance(const std::vector<double>& v, const pgbb::BlockPartition& part, double q,
                                 double gamma, int reps, pgbb::Rng& rng) {
  const int S = static_cast<int>(part.size.size());
  std::vector<double> u(static_cast<size_t>(S));
  std::vector<int64_t> b;
  double mean = 0.0, m2 = 0.0;
  for (int r = 0; r < reps; ++r) {
    rng.dirichlet(gamma, u.data(), S);
    rng.poisson_subset(static_cast<int64_t>(v.size()), q, b);
    double s = 0.0;
    for (int64_t j : b) {
      const int blk = part.block[static_cast<size_t>(j)];
      s += u[static_cast<size_t>(blk)] / part.size[static_cast<size_t>(blk)] * v[static_cast<size_t>(j)];
    }
    const double d = s - mean;
    mean += d / (r + 1);
    m2 += d * (s - mean);
  }
  return m2 / (reps - 1);
}

using pgbb_test::ConstantScoreLoss;

struct Trained {
  std::vector<double> params;
  pgbb::TailScores scores;
};

Trained train_small(double a, double sigma, bool collect, int iterations = 41) {
  const int64_t n = 200;
  const int p = 2, S = 4;
  std::vector<double> x(static_cast<size_t>(n) * p), y(static_cast<size_t>(n), 0.0);
  pgbb::Rng data_rng(5);
  for (int64_t i = 0; i < n; ++i) {
    x[static_cast<size_t>(i)] = 1.0;
    x[static_cast<size_t>(i + n)] = 2.0 * data_rng.uniform() - 1.0;
  }
  const pgbb::BlockPartition part = pgbb::block_partition(static_cast<int>(n), S, data_rng);
  const pgbb::RowStore<double> rows(x.data(), y.data(), n, p, &part);
  std::vector<double> sh, sc;
  pgbb::input_standardisation(S, true, sh, sc);
  const pgbb::Box box(std::vector<double>(p, -50.0), std::vector<double>(p, 50.0));
  pgbb::Generator<double> gen(S + pgbb::kTauFeatures, {8}, box, sh, sc, pgbb::kTauFeatures);
  pgbb::Rng init(9);
  gen.init(init);
  pgbb::TrainConfig cfg;
  cfg.iterations = iterations;
  cfg.mc = 3;
  cfg.rate = 0.3;
  cfg.sigma = sigma;
  cfg.clip = 2.0;
  cfg.gamma = 1.0;
  cfg.tau_grid = {0.3, 0.5};
  cfg.tau_prob = {1.0, 1.0};
  cfg.level_scale = {0.5, 1.0};
  cfg.optimizer.iterations = cfg.iterations;
  pgbb::Rng rng(17);
  Trained out;
  pgbb::train(ConstantScoreLoss{p, a}, rows, part, gen, cfg, rng, pgbb::TrainCallback(),
              collect ? &out.scores : nullptr);
  out.params.assign(gen.params(), gen.params() + gen.n_params());
  return out;
}

}  // namespace

CORE_TEST(stationarity_release_variance_matches_the_mechanism) {
  // Every record at the clip bound (v_j = C): the subset sum's mean q C
  // sum_s u_s = q C does not depend on u, so its variance is the mean
  // conditional variance the formula gives, exactly.
  pgbb::Rng rng(11);
  const int n = 300, S = 5;
  const double q = 0.2, C = 1.5, gamma = 0.7;
  const pgbb::BlockPartition part = pgbb::block_partition(n, S, rng);
  const double formula = pgbb::TailScores::release_variance(0.0, C, q, gamma, part.size);
  const double sim = simulated_subset_variance(std::vector<double>(n, C), part, q, gamma, 200000, rng);
  // 200,000 replicates: the variance estimate's relative sd is about
  // sqrt(2 / 200000) times a kurtosis factor below 3, under 1%; 4% is 4 sd.
  CHECK_NEAR(sim / formula, 1.0, 0.04);
  // Scores anywhere in [-C, C] vary less than the bound.
  std::vector<double> v(n);
  for (double& e : v) e = C * (2.0 * rng.uniform() - 1.0);
  CHECK(simulated_subset_variance(v, part, q, gamma, 50000, rng) < formula);
  // The noise adds sigma^2.
  CHECK_NEAR(pgbb::TailScores::release_variance(0.3, C, q, gamma, part.size) - formula, 0.09, 1e-12);
}

CORE_TEST(stationarity_collecting_leaves_the_training_unchanged) {
  const Trained plain = train_small(0.4, 0.7, false);
  const Trained watched = train_small(0.4, 0.7, true);
  CHECK(plain.params == watched.params);
  // Window: iterations 20..40 of 41, K = 3 releases each, split over two levels.
  CHECK(watched.scores.levels() == 2 && watched.scores.dim() == 2);
  CHECK(watched.scores.count(0) + watched.scores.count(1) == 3 * (41 - 41 / 2));
  CHECK(watched.scores.count(0) > 0 && watched.scores.count(1) > 0);
}

CORE_TEST(stationarity_separates_noise_from_a_steady_pull) {
  // Pure noise (score 0): each level's sum is N(0, variance) exactly.
  const Trained noise = train_small(0.0, 1.0, true, 2001);
  for (int l = 0; l < 2; ++l)
    for (int j = 0; j < 2; ++j) {
      const double z = noise.scores.sum(l, j) / std::sqrt(noise.scores.variance(l));
      CHECK(std::fabs(z) < 4.0);  // four sd: a false failure has probability 6e-5 per check
    }
  // Every record pulled along x with the full clip, little noise: the intercept
  // coordinate's sum grows like the count while its null sd grows like its root.
  const Trained pull = train_small(1e6, 0.2, true, 2001);
  for (int l = 0; l < 2; ++l) CHECK(pull.scores.sum(l, 0) / std::sqrt(pull.scores.variance(l)) > 20.0);
}
