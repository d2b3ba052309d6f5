// The optimiser's learning-rate schedules (optimizer.h): each checked against
// its closed form written out here, at the ends and in between, and through
// the step an SGD optimiser actually takes.
#include <cmath>
#include <string>

#include "optimizer.h"
#include "test_framework.h"

namespace {

pgbb::OptimizerConfig schedule_config(const std::string& schedule, double floor, int T) {
  pgbb::OptimizerConfig c;
  c.type = "sgd";
  c.schedule = schedule;
  c.learning_rate = 2e-3;
  c.floor = floor;
  c.iterations = T;
  return c;
}

// The step SGD takes at iteration t on w = 0 with gradient 1: -eta_t.
double sgd_step(const pgbb::OptimizerConfig& c, int t) {
  pgbb::Optimizer<double> opt(c, 1, 1);
  double w = 0.0, g = 1.0;
  opt.begin_step(t, t + 1);
  opt.apply(0, &w, &g, 1);
  return -w;
}

}  // namespace

CORE_TEST(harmonic_schedule_runs_from_the_rate_to_its_floor_like_one_over_t) {
  const int T = 1001;
  for (double f : {0.5, 0.1, 0.02, 0.01}) {
    const auto c = schedule_config("harmonic", f, T);
    CHECK_NEAR(pgbb::harmonic_rate(c, 0), 2e-3, 1e-18);
    CHECK_NEAR(pgbb::harmonic_rate(c, T - 1), f * 2e-3, 1e-17);
    double prev = pgbb::harmonic_rate(c, 0);
    for (int t = 1; t < T; ++t) {
      const double eta = pgbb::harmonic_rate(c, t);
      CHECK(eta < prev);
      prev = eta;
    }
    // 1 / eta_t is affine in t: equal increments of t add equal amounts.
    const double step = 1.0 / pgbb::harmonic_rate(c, 100) - 1.0 / pgbb::harmonic_rate(c, 0);
    CHECK_NEAR(1.0 / pgbb::harmonic_rate(c, 900) - 1.0 / pgbb::harmonic_rate(c, 800), step, 1e-9 * step);
    // Midway: eta / (1 + (1/f - 1) / 2).
    CHECK_NEAR(pgbb::harmonic_rate(c, 500), 2e-3 * 2.0 * f / (1.0 + f), 1e-15);
  }
}

CORE_TEST(cosine_schedule_keeps_the_papers_form) {
  const int T = 1001;
  const auto c = schedule_config("cosine", 0.01, T);
  CHECK_NEAR(pgbb::cosine_rate(c, 0), 2e-3, 1e-18);
  CHECK_NEAR(pgbb::cosine_rate(c, T - 1), 2e-5, 1e-18);
  CHECK_NEAR(pgbb::cosine_rate(c, 500), 2e-3 * (0.01 + 0.99 * 0.5), 1e-15);
  // At a quarter of the run the cosine keeps 85% of the decayable part, the
  // harmonic decay to the same floor keeps 1 / (1 + 99 / 4) of the rate.
  CHECK_NEAR(pgbb::cosine_rate(c, 250), 2e-3 * (0.01 + 0.99 * 0.5 * (1 + std::cos(3.14159265358979323846 / 4))), 1e-15);
  CHECK_NEAR(pgbb::harmonic_rate(schedule_config("harmonic", 0.01, T), 250), 2e-3 / (1 + 99.0 / 4), 1e-15);
}

CORE_TEST(the_optimiser_steps_with_the_configured_schedule) {
  const int T = 201;
  for (const char* s : {"cosine", "harmonic"}) {
    const auto c = schedule_config(s, 0.05, T);
    for (int t : {0, 37, 100, 200}) CHECK_NEAR(sgd_step(c, t), pgbb::scheduled_rate(c, t), 1e-18);
  }
  CHECK(pgbb::scheduled_rate(schedule_config("harmonic", 0.05, T), 100) <
        pgbb::scheduled_rate(schedule_config("cosine", 0.05, T), 100));
}

CORE_TEST(the_optimiser_rejects_an_unknown_schedule_and_a_zero_harmonic_floor) {
  CHECK_THROWS(pgbb::Optimizer<double>(schedule_config("linear", 0.1, 10), 1, 1));
  CHECK_THROWS(pgbb::Optimizer<double>(schedule_config("harmonic", 0.0, 10), 1, 1));
  // The cosine may decay to zero.
  pgbb::Optimizer<double> ok(schedule_config("cosine", 0.0, 10), 1, 1);
  CHECK_NEAR(sgd_step(schedule_config("cosine", 0.0, 10), 9), 0.0, 1e-20);
}
