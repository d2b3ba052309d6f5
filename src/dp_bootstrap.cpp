// Rcpp glue for DP-Bootstrap (Algorithms 2 and 3 of Wang et al. 2025): convert,
// call the core, wrap. Calibration, validation and intervals live in R/dp-bootstrap.R.
#include <RcppEigen.h>

#include "core/dp_bootstrap.h"
#include "glue.h"
#include "interrupt.h"
#include "dp_bootstrap_glue.h"

using pgbb_glue::huber_from;



// Algorithm 2 replicates; x must already be clipped to the public box.
// [[Rcpp::export]]
Eigen::MatrixXd cpp_dpb_huber(Eigen::MatrixXd x, Eigen::VectorXd y, double c, double kappa,
                              double lambda, double tol, int B, double sigma_e, double sens,
                              Rcpp::NumericVector seed) {
  if (y.size() != x.rows()) Rcpp::stop("internal error: lengths differ");
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  const pgbb::HuberRidge hr = huber_from(c, kappa, lambda, tol);
  return pgbb_glue::interruptible([&](const pgbb::StopCallback& stop) {
    return pgbb::dp_bootstrap_huber(x, y.data(), hr, B, sigma_e, sens, rng, stop);
  });
}

// Algorithm 3 replicates (clipping to [lower, upper] happens in the core).
// [[Rcpp::export]]
Rcpp::NumericVector cpp_dpb_mean(Rcpp::NumericVector x, double lower, double upper, int B,
                                 double sigma_e, Rcpp::NumericVector seed) {
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  return Rcpp::wrap(pgbb_glue::interruptible([&](const pgbb::StopCallback& stop) {
    return pgbb::dp_bootstrap_mean(x.begin(), x.size(), lower, upper, B, sigma_e, rng, stop);
  }));
}
