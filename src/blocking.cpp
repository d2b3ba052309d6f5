// Rcpp glue for blocking and the exact Bayesian bootstrap of a mean.
#include "core/bayes_bootstrap.h"
#include "core/blocking.h"
#include "glue.h"

using pgbb_glue::partition_from;

// [[Rcpp::export]]
Rcpp::IntegerVector cpp_block_partition(int n, int S, Rcpp::NumericVector seed) {
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  const pgbb::BlockPartition part = pgbb::block_partition(n, S, rng);
  Rcpp::IntegerVector out(n);
  for (int i = 0; i < n; ++i) out[i] = part.block[i] + 1;
  return out;
}

// [[Rcpp::export]]
Rcpp::NumericVector cpp_record_weights(Rcpp::NumericVector u, Rcpp::IntegerVector blocks) {
  const pgbb::BlockPartition part = partition_from(blocks, u.size());
  Rcpp::NumericVector w(blocks.size());
  pgbb::record_weights(u.begin(), part, w.begin());
  return w;
}

// [[Rcpp::export]]
Rcpp::NumericMatrix cpp_bootstrap_mean(Rcpp::NumericMatrix x, int draws, bool blocked,
                                       Rcpp::IntegerVector blocks, int S, double gamma,
                                       Rcpp::NumericVector seed) {
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  const int n = x.nrow(), p = x.ncol();
  Rcpp::NumericMatrix out(draws, p);
  if (blocked) {
    const pgbb::BlockPartition part = partition_from(blocks, S);
    pgbb::blocked_bootstrap_mean(x.begin(), n, p, draws, gamma, part, rng, out.begin());
  } else {
    pgbb::bayesian_bootstrap_mean(x.begin(), n, p, draws, rng, out.begin());
  }
  return out;
}
