// Rcpp glue for resampling (src/core/resampling.h).
#include "core/resampling.h"
#include "interrupt.h"
#include "glue.h"

// [[Rcpp::export]]
int cpp_kappa_star(double n, double m, double B, double rho) { return pgbb::kappa_star(n, m, B, rho); }

// Indices of all B resamples (1-based, one row per resample). Materialises B x m
// integers: meant for users and for R-level estimators, not for the C++ paths.
// [[Rcpp::export]]
Rcpp::List cpp_resample_indices(int n, int m, int B, std::string mode, int kappa,
                                Rcpp::NumericVector seed) {
  pgbb::ResamplePlan plan;
  plan.n = n; plan.m = m; plan.B = B;
  plan.mode = pgbb::resample_mode_from(mode);
  plan.kappa = kappa;
  plan.seed = pgbb_glue::seed_from(seed);
  Rcpp::IntegerMatrix out(B, m);
  Rcpp::IntegerVector mult(B);
  const pgbb::ResamplePass pass = pgbb_glue::interruptible([&](const pgbb::StopCallback& stop) {
    return pgbb::for_each_resample(
        plan,
        [&](int i, const uint32_t* idx, int mm, int kappa_i) {
          for (int t = 0; t < mm; ++t) out(i, t) = static_cast<int>(idx[t]) + 1;
          mult[i] = kappa_i;
        },
        stop);
  });
  return Rcpp::List::create(Rcpp::Named("indices") = out, Rcpp::Named("mult") = mult,
                            Rcpp::Named("failed_at") = pass.failed_at + 1,
                            Rcpp::Named("failed_mult") = pass.failed_mult,
                            Rcpp::Named("max_mult") = pass.max_mult);
}

// Realised multiplicity kappa(S_i) of each of the B resamples drawn from `seed`
// (the indices only; see resample_multiplicities in src/core/resampling.h).
// [[Rcpp::export]]
Rcpp::IntegerVector cpp_resample_multiplicities(int n, int m, int B, std::string mode, Rcpp::NumericVector seed) {
  pgbb::ResamplePlan plan;
  plan.n = n; plan.m = m; plan.B = B;
  plan.mode = pgbb::resample_mode_from(mode);
  plan.seed = pgbb_glue::seed_from(seed);
  const std::vector<int> k = pgbb_glue::interruptible(
      [&](const pgbb::StopCallback& stop) { return pgbb::resample_multiplicities(plan, stop); });
  return Rcpp::wrap(k);
}
