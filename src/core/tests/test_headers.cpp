// Every core header in one translation unit: a concept defined twice (two
// inline functions of one name and signature in two headers, which the linker
// would otherwise silently resolve to one of them) is a compile error here.
#include "accountant.h"
#include "bayes_bootstrap.h"
#include "blocking.h"
#include "box.h"
#include "cr_baselines.h"
#include "cr_gs.h"
#include "cr_ss.h"
#include "design.h"
#include "discrete_gaussian.h"
#include "dp_bootstrap.h"
#include "dp_sgld.h"
#include "entropy.h"
#include "exact_bootstrap.h"
#include "exact_sum.h"
#include "gdp.h"
#include "generator.h"
#include "gibbs_schedule.h"
#include "kernels.h"
#include "losses.h"
#include "noisy_gibbs.h"
#include "noisy_gibbs_linear.h"
#include "normal.h"
#include "optimizer.h"
#include "range_subsets.h"
#include "resampling.h"
#include "rng.h"
#include "stop.h"
#include "test_framework.h"
#include "trainer.h"

CORE_TEST(every_core_header_compiles_in_one_translation_unit) {
  // One definition of the normal functions serves the GDP toolkit and the losses.
  CHECK(pgbb::norm_quantile(0.5) == 0.0);
  CHECK_NEAR(pgbb::norm_cdf(pgbb::norm_quantile(0.975)), 0.975, 1e-15);
}
