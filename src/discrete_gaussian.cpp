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


