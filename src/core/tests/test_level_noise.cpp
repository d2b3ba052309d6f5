// Core tests of the per-level release scale of joint training
// (TrainConfig::level_scale, trainer.h): a draw at level l is clipped at
// r_l C and noised with r_l sigma, so its bound-to-noise ratio is the C /
// sigma the accountant composes.
#include <cmath>
#include <vector>

#include "test_framework.h"
#include "test_losses.h"
#include "trainer.h"

namespace {
using pgbb_test::ConstantScoreLoss;

struct Setup {
  int64_t n = 60;
  int p = 2, S = 4;
  std::vector<double> x, y;
  pgbb::BlockPartition part;
  Setup() : x(static_cast<size_t>(n) * p), y(static_cast<size_t>(n), 0.0) {
    pgbb::Rng rng(3);
    for (int64_t i = 0; i < n; ++i) {
      x[static_cast<size_t>(i)] = 1.0;
      x[static_cast<size_t>(i + n)] = 2.0 * rng.uniform() - 1.0;
    }
    part = pgbb::block_partition(n, S, rng);
  }
};

// Parameters after training a linear joint generator with plain SGD from a
// fixed start, minus the start: linear in the released statistics.
std::vector<double> displacement(const ConstantScoreLoss& loss, double sigma, std::vector<double> scale,
                                 std::vector<double> tau_prob) {
  Setup s;
  const pgbb::RowStore<double> rows(s.x.data(), s.y.data(), s.n, s.p, &s.part);
  std::vector<double> sh, sc;
  pgbb::input_standardisation(s.S, true, sh, sc);
  const pgbb::Box box(std::vector<double>(s.p, -50.0), std::vector<double>(s.p, 50.0));
  pgbb::Generator<double> gen(s.S + pgbb::kTauFeatures, {}, box, sh, sc, pgbb::kTauFeatures);
  pgbb::Rng init(9);
  gen.init(init);
  const std::vector<double> start(gen.params(), gen.params() + gen.n_params());
  pgbb::TrainConfig cfg;
  cfg.iterations = 40;
  cfg.mc = 3;
  cfg.rate = 0.5;
  cfg.sigma = sigma;
  cfg.clip = 2.0;
  cfg.gamma = 1.0;
  cfg.tau_grid = {0.3, 0.5};
  cfg.tau_prob = std::move(tau_prob);
  cfg.level_scale = std::move(scale);
  cfg.warmup = 0.0;
  cfg.optimizer.type = "sgd";
  cfg.optimizer.learning_rate = 1e-3;
  cfg.optimizer.floor = 1.0;
  cfg.optimizer.iterations = cfg.iterations;
  pgbb::Rng rng(17);
  pgbb::train(loss, rows, s.part, gen, cfg, rng);
  std::vector<double> d(start.size());
  for (size_t i = 0; i < d.size(); ++i) d[i] = gen.params()[i] - start[i];
  return d;
}

// max_i |a_i - r b_i| / max_i |b_i|
double scaled_gap(const std::vector<double>& a, const std::vector<double>& b, double r) {
  double gap = 0.0, size = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    gap = std::fmax(gap, std::fabs(a[i] - r * b[i]));
    size = std::fmax(size, std::fabs(b[i]));
  }
  return size > 0 ? gap / size : 1.0;
}
}  // namespace

CORE_TEST(level_release_scale_multiplies_the_noise_of_its_level) {
  const ConstantScoreLoss pure_noise{2, 0.0};
  // Only level 0 (tau = 0.3) is drawn; its scale is 0.5. The statistics are
  // the same normals times 0.5, so SGD's displacement is exactly half.
  const auto uniform = displacement(pure_noise, 1.0, {}, {1.0, 0.0});
  const auto scaled = displacement(pure_noise, 1.0, {0.5, 1.0}, {1.0, 0.0});
  CHECK(scaled_gap(scaled, uniform, 0.5) < 1e-9);
  CHECK(scaled_gap(scaled, uniform, 1.0) > 0.1);   // the comparison can fail
  // A level with scale 1 is untouched.
  const auto other = displacement(pure_noise, 1.0, {0.5, 1.0}, {0.0, 1.0});
  const auto other_uniform = displacement(pure_noise, 1.0, {}, {0.0, 1.0});
  CHECK(scaled_gap(other, other_uniform, 1.0) < 1e-12);
}

CORE_TEST(level_release_scale_multiplies_the_clip_of_its_level) {
  // Every record's gradient 1e6 x is clipped; without noise each record adds
  // exactly its clip bound along x, r C at a level with scale r.
  const ConstantScoreLoss saturated{2, 1e6};
  const auto uniform = displacement(saturated, 0.0, {}, {1.0, 0.0});
  const auto scaled = displacement(saturated, 0.0, {0.25, 1.0}, {1.0, 0.0});
  CHECK(scaled_gap(scaled, uniform, 0.25) < 1e-9);
  CHECK(scaled_gap(scaled, uniform, 1.0) > 0.1);
}

CORE_TEST(level_release_scale_is_checked) {
  const ConstantScoreLoss loss{2, 0.0};
  CHECK_THROWS(displacement(loss, 1.0, {0.5}, {1.0, 1.0}));        // one scale per level
  CHECK_THROWS(displacement(loss, 1.0, {0.0, 1.0}, {1.0, 1.0}));   // in (0, 1]
  CHECK_THROWS(displacement(loss, 1.0, {1.5, 1.0}, {1.0, 1.0}));
}
