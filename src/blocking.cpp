// Rcpp glue for blocking and the exact Bayesian bootstrap of a mean.
#include "core/bayes_bootstrap.h"
#include "core/blocking.h"
#include "glue.h"

// [[Rcpp::export]]
Rcpp::IntegerVector cpp_block_partition(int n, int S, Rcpp::NumericVector seed) {
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  const pgbb::BlockPartition part = pgbb::block_partition(n, S, rng);
  Rcpp::IntegerVector out(n);
  for (int i = 0; i < n; ++i) out[i] = part.block[i] + 1;
  return out;
}

// Rebuild a partition from R's 1-based block ids (validated in R).
static pgbb::BlockPartition partition_from(const Rcpp::IntegerVector& blocks, int S) {
  pgbb::BlockPartition part;
  part.block.resize(blocks.size());
  part.size.assign(S, 0);
  for (R_xlen_t i = 0; i < blocks.size(); ++i) {
    part.block[i] = blocks[i] - 1;
    ++part.size[blocks[i] - 1];
  }
  return part;
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
