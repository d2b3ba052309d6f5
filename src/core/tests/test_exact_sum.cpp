// Core tests of the exact fixed-point sum (exact_sum.h): exactness, order
// independence, and the sensitivity property that floating-point summation lacks.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "exact_sum.h"
#include "rng.h"
#include "test_framework.h"

namespace {
double exact_total(const std::vector<double>& t, double bound) {
  pgbb::ExactSum s(1, bound);
  for (double v : t) s.add(0, v);
  double out = 0.0;
  s.write(&out);
  return out;
}
}  // namespace

// Floating-point summation can move the released sum by more than the changed
// record's own contribution: 1 + 0.6 ulp rounds up to 1 + 1 ulp. The exact sum
// moves by the record's truncated contribution, never more.
CORE_TEST(exact_sum_respects_the_changed_record) {
  const double tiny = 0.6 * 0x1p-52;
  volatile double one = 1.0;
  const double fl_gap = (one + tiny) - one;
  CHECK(fl_gap > tiny);  // the floating-point violation this guards against
  const double gap = exact_total({1.0, tiny}, 2.0) - exact_total({1.0, 0.0}, 2.0);
  CHECK(gap >= 0.0 && gap <= tiny);
  pgbb::Rng rng(3);
  for (int rep = 0; rep < 200; ++rep) {
    std::vector<double> t(500);
    for (auto& v : t) v = (rng.uniform() - 0.5) * 2e-3;  // sum_j |t_j| <= 0.5
    const double before = exact_total(t, 1.0);
    const int j = static_cast<int>(rng.uniform_int(t.size()));
    const double old = t[j];
    t[j] = (rng.uniform() - 0.5) * 2e-3;
    const double after = exact_total(t, 1.0);
    // The change is the difference of the two truncated terms, each within one
    // grid step of its term (so the two together within two) and never larger.
    const double grid = pgbb::ExactSum(1, 1.0).resolution();
    CHECK(std::fabs((after - before) - (t[j] - old)) <= 2 * grid);
    CHECK(std::fabs(after - before) <= std::fabs(t[j]) + std::fabs(old));
  }
}

CORE_TEST(exact_sum_is_order_independent_and_exact) {
  pgbb::Rng rng(4);
  std::vector<double> t(2000);
  for (auto& v : t) v = (rng.uniform() - 0.5) * 1e-3;
  const double a = exact_total(t, 1.0);
  std::reverse(t.begin(), t.end());
  CHECK(exact_total(t, 1.0) == a);
  std::vector<int> p = rng.permutation(static_cast<int>(t.size()));
  std::vector<double> u(t.size());
  for (size_t i = 0; i < t.size(); ++i) u[i] = t[p[i]];
  CHECK(exact_total(u, 1.0) == a);
  // Grid values are summed without any rounding.
  const double g = pgbb::ExactSum(1, 1.0).resolution();
  CHECK(exact_total({3 * g, 5 * g, -2 * g}, 1.0) == 6 * g);
  // Truncation toward zero never increases a magnitude.
  CHECK(std::fabs(exact_total({-2.5 * g}, 1.0)) <= 2.5 * g);
  CHECK(exact_total({0.99 * g}, 1.0) == 0.0);
}

CORE_TEST(exact_sum_ignores_non_finite_and_checks_arguments) {
  pgbb::ExactSum s(2, 1.0);
  s.add(0, std::nan(""));
  s.add(1, INFINITY);
  s.add(0, 0.25);
  double out[2];
  s.write(out);
  CHECK(out[0] == 0.25 && out[1] == 0.0);
  CHECK_THROWS(pgbb::ExactSum(0, 1.0));
  CHECK_THROWS(pgbb::ExactSum(1, 0.0));
  CHECK_THROWS(pgbb::ExactSum(1, std::nan("")));
  // No clip (non-private runs): plain summation, and non-finite values pass through.
  pgbb::ExactSum u(1, INFINITY);
  u.add(0, 1e300);
  u.add(0, 0.5);
  double v;
  u.write(&v);
  CHECK(v == 1e300);
}

// add_truncated_portable() is the reference the vector kernel (and through
// truncate_on_grid4() the trainer's columnar pass) must match bit for bit:
// terms of either sign, exact integers, values just below and at 2^53, huge
// and non-finite terms, and every length (the scalar tail).
CORE_TEST(exact_sum_vector_kernel_matches_portable_reference) {
#ifdef PGBB_EXACT_SUM_AVX
  if (!pgbb::detail::exact_sum_has_avx()) return;
  pgbb::Rng rng(12);
  const double special[] = {0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 0x1p53, -0x1p53, std::nextafter(0x1p53, 0.0),
                            -std::nextafter(0x1p53, 0.0), 1e300, -1e300, std::numeric_limits<double>::infinity(),
                            std::numeric_limits<double>::quiet_NaN()};
  int mismatches = 0;
  for (int p = 1; p <= 19; ++p)
    for (int rep = 0; rep < 200; ++rep) {
      std::vector<float> xf(p);
      std::vector<double> xd(p);
      for (int j = 0; j < p; ++j) {
        xd[j] = rep % 4 == 0 ? special[rng.uniform_int(sizeof special / sizeof special[0])] : 2 * rng.uniform() - 1;
        xf[j] = static_cast<float>(2 * rng.uniform() - 1);
      }
      const double cs = rep % 3 == 0 ? 1.0 : std::ldexp(rng.normal(), static_cast<int>(rng.uniform_int(60)));
      std::vector<double> a(p, 3.0), b(p, 3.0), c(p, 3.0), e(p, 3.0);
      pgbb::detail::add_truncated_avx(a.data(), cs, xd.data(), p);
      pgbb::detail::add_truncated_portable(b.data(), cs, xd.data(), p);
      pgbb::detail::add_truncated_avx(c.data(), cs, xf.data(), p);
      pgbb::detail::add_truncated_portable(e.data(), cs, xf.data(), p);
      for (int j = 0; j < p; ++j) {
        mismatches += std::memcmp(&a[j], &b[j], sizeof(double)) != 0;
        mismatches += std::memcmp(&c[j], &e[j], sizeof(double)) != 0;
      }
    }
  CHECK(mismatches == 0);
#endif
}
