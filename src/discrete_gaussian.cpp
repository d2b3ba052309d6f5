// Rcpp glue for the exact discrete Gaussian on a public grid
// (src/core/discrete_gaussian.h): the plan every scalar release uses, and
// draws for the tests of its law.
#include "core/discrete_gaussian.h"
#include "glue.h"

// [[Rcpp::export]]
Rcpp::List cpp_grid_gaussian_plan(double sigma, double sensitivity, int dim) {
  const pgbb::GridGaussian g = pgbb::GridGaussian::plan(sigma, sensitivity, dim);
  return Rcpp::List::create(Rcpp::Named("grid") = g.grid,
                            Rcpp::Named("variance") = static_cast<double>(g.variance),
                            Rcpp::Named("sd") = g.sd());
}

// [[Rcpp::export]]
Rcpp::NumericVector cpp_grid_gaussian_release(Rcpp::NumericVector x, double sigma, double sensitivity,
                                              Rcpp::NumericVector seed) {
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  const pgbb::GridGaussian g = pgbb::GridGaussian::plan(sigma, sensitivity, x.size());
  std::vector<double> v(x.begin(), x.end());
  g.release(v, rng);
  return Rcpp::wrap(v);
}

// [[Rcpp::export]]
Rcpp::NumericVector cpp_discrete_gaussian(int n, double variance, Rcpp::NumericVector seed) {
  if (!(variance >= 1 && variance <= static_cast<double>(pgbb::kDiscreteVarianceMax) &&
        variance == std::floor(variance)))
    Rcpp::stop("'variance' must be an integer in [1, 2^44]");
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  Rcpp::NumericVector out(n);
  for (int i = 0; i < n; ++i) out[i] = static_cast<double>(pgbb::discrete_gaussian(rng, static_cast<uint64_t>(variance)));
  return out;
}
