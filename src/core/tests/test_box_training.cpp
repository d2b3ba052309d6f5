// Core tests of how training sees the parameter box (box.h, generator.h) and
// of the log-scale score of the Exponential mean (losses.h, kLogScore).
#include <cmath>
#include <vector>

#include "test_framework.h"
#include "trainer.h"

namespace {
// Collects the gradient that backward() hands to the optimiser, without updating.
struct Collect {
  std::vector<double> g;
  void apply(int64_t off, double*, const double* gi, int n) {
    for (int i = 0; i < n; ++i) g[off + i] += gi[i];
  }
  double apply_outer(int64_t off, double* w, const double* dz, double a, int n) {
    double s = 0.0;
    for (int i = 0; i < n; ++i) g[off + i] += dz[i] * a, s += w[i] * dz[i];
    return s;
  }
};

// A generator without hidden layers whose output bias puts theta deep in a
// shoulder of the box (1.5 half-widths from the centre).
pgbb::Generator<double> shoulder_generator(const pgbb::Box& box, int S) {
  std::vector<double> sh, sc;
  pgbb::input_standardisation(S, false, sh, sc);
  pgbb::Generator<double> gen(S, {}, box, sh, sc, 0);
  pgbb::Rng rng(5);
  gen.init(rng);
  for (int j = 0; j < box.dim(); ++j) gen.params()[gen.bias_offset(0) + j] = 1.5;
  return gen;
}
}  // namespace

CORE_TEST(training_backpropagates_through_the_box_shoulders_straight_through) {
  const int S = 4;
  const pgbb::Box box({-1.0, 0.5}, {1.0, 8.0}, {false, true});
  CHECK(box.through_slope(0, 0.3) == 1.0);
  CHECK(box.through_slope(1, 2.5) == 2.5);
  auto gen = shoulder_generator(box, S);
  std::vector<double> u(S, 1.0 / S), th(2), dt{1.0, 1.0};
  gen.reserve(1);
  gen.forward(u.data(), 1, th.data());
  CHECK(th[0] < 1.0 && th[0] > 0.9999);  // pinned near the upper face, inside the box
  CHECK(th[1] < 8.0 && th[1] > 7.99);
  const int64_t b = gen.bias_offset(0);
  // Exact derivative (vjp): 1 - tanh(6)^2, about 2.5e-5.
  std::vector<double> exact(gen.n_params(), 0.0);
  gen.vjp(dt.data(), exact.data());
  CHECK(std::fabs(exact[b]) < 1e-4 * box.half(0) && std::fabs(exact[b + 1]) < 1e-4 * 8.0 * box.half(1));
  // Training's backward pass: the slope of the unclipped map times the
  // output bias scale (the half-width on the working scale).
  Collect c{std::vector<double>(gen.n_params(), 0.0)};
  gen.backward(dt.data(), c);
  CHECK_NEAR(c.g[b], box.half(0), 1e-12);
  CHECK_NEAR(c.g[b + 1], th[1] * box.half(1), 1e-12);
}

CORE_TEST(exponential_mean_score_is_clipped_on_the_log_scale) {
  const pgbb::ExponentialMeanLoss loss;
  static_assert(pgbb::log_score<pgbb::ExponentialMeanLoss>::value, "log-scale score");
  static_assert(!pgbb::log_score<pgbb::HuberLoss>::value, "plain score");
  for (double mu : {0.2, 2.0, 11.0})
    for (double x : {0.0, 1.5, 12.0}) {
      double g, s;
      loss.gradient(&mu, &x, 0.0, 0.5, &g);
      CHECK_NEAR(g, (mu - x) / (mu * mu), 1e-12);
      pgbb::private_score(loss, &mu, &x, 0.0, 0.5, &s);
      CHECK_NEAR(s, 1.0 - x / mu, 1e-12);  // d l / d log mu
      pgbb::score_to_gradient(loss, &mu, &s, 1);
      CHECK_NEAR(s, g, 1e-12);
    }
  // The bound is attained at a corner of [a, b] x [lo, hi] and bounds the
  // private score everywhere in between.
  pgbb::DataBounds db;
  db.x_lower = {0.0};
  db.x_upper = {12.0};
  const pgbb::Box box({0.1}, {12.0}, {true});
  const double C = loss.gradient_bound(db, box, {});
  CHECK_NEAR(C, 12.0 / 0.1 - 1.0, 1e-9);
  double worst = 0.0;
  for (int i = 0; i <= 200; ++i)
    for (int k = 0; k <= 200; ++k) {
      const double x = 12.0 * i / 200.0, mu = 0.1 + 11.9 * k / 200.0;
      worst = std::fmax(worst, std::fabs(1.0 - x / mu));
    }
  CHECK(worst <= C * (1 + 1e-12));
}
