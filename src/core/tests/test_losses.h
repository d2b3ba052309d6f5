// Losses shared by the core tests that train a generator on a known score.
#ifndef PGBB_CORE_TESTS_TEST_LOSSES_H
#define PGBB_CORE_TESTS_TEST_LOSSES_H

namespace pgbb_test {

// A loss of the linear-score form whose score is the constant `a` for every
// record: a = 0 makes the released statistic pure noise, a huge `a` makes
// every record's gradient a x exceed any clip, so each contributes exactly
// the clip bound in the direction of x.
struct ConstantScoreLoss {
  int p;
  double a = 0.0;
  static constexpr int kExtra = 0;
  int dim() const { return p; }
  double score(const double*, double, double, double, double*) const { return a; }
};

}  // namespace pgbb_test

#endif  // PGBB_CORE_TESTS_TEST_LOSSES_H
