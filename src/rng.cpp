// Rcpp glue for the random number engine and samplers (src/core/rng.h). Used by
// the tests to check the samplers against R's distribution functions.
#include "glue.h"

// [[Rcpp::export]]
Rcpp::NumericVector cpp_rng_sample(std::string kind, int n, Rcpp::NumericVector par,
                                   Rcpp::NumericVector seed) {
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  Rcpp::NumericVector out(n);
  if (kind == "uniform") {
    for (int i = 0; i < n; ++i) out[i] = rng.uniform();
  } else if (kind == "normal") {
    for (int i = 0; i < n; ++i) out[i] = rng.normal();
  } else if (kind == "gamma") {
    for (int i = 0; i < n; ++i) out[i] = rng.gamma(par[0]);
  } else if (kind == "beta") {
    for (int i = 0; i < n; ++i) out[i] = rng.beta(par[0], par[1]);
  } else if (kind == "int") {
    const uint64_t range = static_cast<uint64_t>(par[0]);
    for (int i = 0; i < n; ++i) out[i] = static_cast<double>(rng.uniform_int(range));
  } else if (kind == "permutation") {
    std::vector<int> p = rng.permutation(n);
    for (int i = 0; i < n; ++i) out[i] = p[i] + 1;
  } else {
    Rcpp::stop("unknown sampler '%s'", kind);
  }
  return out;
}

// [[Rcpp::export]]
Rcpp::NumericMatrix cpp_rdirichlet(int k, int S, double gamma, Rcpp::NumericVector seed) {
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  Rcpp::NumericMatrix out(k, S);
  std::vector<double> u(S);
  for (int r = 0; r < k; ++r) {
    rng.dirichlet(gamma, u.data(), S);
    for (int s = 0; s < S; ++s) out(r, s) = u[s];
  }
  return out;
}

// Eight 32-bit words of a fresh key from the operating system's entropy source,
// for draws that must be repeated with one key but need not be secret: the
// resample indices of CR-SS, drawn once to count their multiplicities and again
// for the statistics (R/rng.R, .index_key()).
// [[Rcpp::export]]
Rcpp::NumericVector cpp_entropy_words() {
  const pgbb::Key k = pgbb::os_entropy_key();
  Rcpp::NumericVector out(8);
  for (int i = 0; i < 8; ++i) out[i] = static_cast<double>(k[i]);
  return out;
}
