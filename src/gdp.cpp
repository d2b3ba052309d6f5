// Rcpp glue for Gaussian differential privacy (src/core/gdp.h).
#include "core/gdp.h"
#include "glue.h"

// [[Rcpp::export]]
Rcpp::NumericVector cpp_gdp_delta(Rcpp::NumericVector mu, Rcpp::NumericVector eps, bool log_scale) {
  const R_xlen_t n = std::max(mu.size(), eps.size());
  Rcpp::NumericVector out(n);
  for (R_xlen_t i = 0; i < n; ++i) {
    const double l = pgbb::gdp_log_delta(mu[i % mu.size()], eps[i % eps.size()]);
    out[i] = log_scale ? l : std::exp(l);
  }
  return out;
}

// [[Rcpp::export]]
Rcpp::NumericVector cpp_gdp_mu(Rcpp::NumericVector eps, Rcpp::NumericVector delta) {
  const R_xlen_t n = std::max(eps.size(), delta.size());
  Rcpp::NumericVector out(n);
  for (R_xlen_t i = 0; i < n; ++i) out[i] = pgbb::gdp_mu(eps[i % eps.size()], delta[i % delta.size()]);
  return out;
}

// [[Rcpp::export]]
Rcpp::NumericVector cpp_gdp_epsilon(Rcpp::NumericVector mu, Rcpp::NumericVector delta) {
  const R_xlen_t n = std::max(mu.size(), delta.size());
  Rcpp::NumericVector out(n);
  for (R_xlen_t i = 0; i < n; ++i) out[i] = pgbb::gdp_epsilon(mu[i % mu.size()], delta[i % delta.size()]);
  return out;
}

// [[Rcpp::export]]
Rcpp::NumericVector cpp_gdp_compose(Rcpp::NumericVector mu, Rcpp::NumericVector delta) {
  const double m = pgbb::gdp_compose(std::vector<double>(mu.begin(), mu.end()));
  const double d = pgbb::gdp_compose_delta(std::vector<double>(delta.begin(), delta.end()));
  return Rcpp::NumericVector::create(Rcpp::Named("mu") = m, Rcpp::Named("delta") = d);
}



// [[Rcpp::export]]
Rcpp::NumericVector cpp_pure_dp_gdp(Rcpp::NumericVector x, bool to_mu) {
  Rcpp::NumericVector out(x.size());
  for (R_xlen_t i = 0; i < x.size(); ++i)
    out[i] = to_mu ? pgbb::pure_dp_to_gdp_mu(x[i]) : pgbb::gdp_mu_to_pure_eps(x[i]);
  return out;
}
