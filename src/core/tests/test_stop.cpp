// The one stop contract (stop.h): every long core loop that receives a stop
// callback ends with pgbb::Interrupted, at the polling period it documents,
// and returns nothing. Siblings of the resampling, CR, accountant, DP-SGLD and
// linear NoisyGibbs cases in their own files.
#include <vector>

#include "dp_bootstrap.h"
#include "noisy_gibbs.h"
#include "stop.h"
#include "test_framework.h"

CORE_TEST(poll_stop_asks_only_at_its_period) {
  int asked = 0;
  const pgbb::StopCallback never = [&] { ++asked; return false; };
  for (int64_t i = 1; i <= 1000; ++i) pgbb::poll_stop(never, i, 64);
  CHECK(asked == 1000 / 64);
  pgbb::poll_stop(nullptr, 64, 64);  // an empty callback never stops
  CHECK_INTERRUPTED(pgbb::poll_stop([] { return true; }, 128, 64));
  pgbb::poll_stop([] { return true; }, 127, 64);  // off-period: not asked
  CHECK_INTERRUPTED(pgbb::stop_if_asked([] { return true; }));
}

CORE_TEST(noisy_gibbs_expfam_and_dp_bootstrap_stop_with_interrupted) {
  pgbb::Rng r(11);
  pgbb::ExpFamilyModel m;
  m.family = pgbb::ExpFamily::Gaussian;
  m.known_sd = 0.5; m.prior_mean = 0.0; m.prior_var = 4.0;
  pgbb::GibbsSchedule sch; sch.iterations = 5000; sch.burn_in = 0; sch.thin = 1;
  int asked = 0;
  CHECK_INTERRUPTED(pgbb::noisy_gibbs_expfam(m, 10.0, 1.0, 100, -5, 5, sch, r, [&] { return ++asked >= 2; }));
  CHECK(asked == 2);  // polled every kGibbsPollEvery iterations, stopped at the second poll
  std::vector<double> x(200, 0.3);
  asked = 0;
  CHECK_INTERRUPTED(pgbb::dp_bootstrap_mean(x.data(), 200, 0.0, 1.0, 500, 0.1, r, [&] { return ++asked >= 3; }));
  CHECK(asked == 3);
  // A callback that never fires changes nothing: the run completes.
  const std::vector<double> full = pgbb::dp_bootstrap_mean(x.data(), 200, 0.0, 1.0, 100, 0.1, r, [] { return false; });
  CHECK(full.size() == 100u);
}
