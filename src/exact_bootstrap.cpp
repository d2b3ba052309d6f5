// Rcpp glue for the exact Bayesian bootstraps of the smooth convex losses
// (src/core/exact_bootstrap.h); the means' closed forms are in blocking.cpp.
#include <RcppEigen.h>

#include <string>
#include <vector>

#include "core/blocking.h"
#include "core/design.h"
#include "core/exact_bootstrap.h"
#include "core/losses.h"
#include "glue.h"
#include "interrupt.h"
#include "loss_glue.h"

// draws x d exact bootstrap draws at level tau: blocked if `partition` has
// length n (1-based block ids), ordinary otherwise; U (draws x S) optionally
// fixes the block weights. Returns list(draws, failed).
// [[Rcpp::export]]
Rcpp::List cpp_exact_bootstrap(Rcpp::NumericMatrix x, Rcpp::NumericVector y, Rcpp::List spec,
                               Rcpp::IntegerVector partition, int blocks, double gamma, int draws,
                               double tau, Rcpp::NumericVector start, Rcpp::NumericMatrix U,
                               Rcpp::NumericVector seed) {
  const pgbb::LossSpec s = pgbb_glue::loss_from(spec);
  const int n = x.nrow(), p = x.ncol();
  const bool blocked = partition.size() == n;
  pgbb::BlockPartition part;
  if (blocked) {
    part.block.resize(n);
    part.size.assign(blocks, 0);
    for (int i = 0; i < n; ++i) {
      part.block[i] = partition[i] - 1;
      ++part.size[partition[i] - 1];
    }
  }
  const pgbb::RowStore<double> rows(x.begin(), y.size() > 0 ? y.begin() : nullptr, n, p,
                                    blocked ? &part : nullptr);
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  const bool fixed_u = U.nrow() == draws && U.ncol() == blocks && blocked;
  return pgbb_glue::interruptible([&](const pgbb::StopCallback& stop) {
    return pgbb::with_loss(s, [&](const auto& loss) {
      const int d = loss.dim();
      if (start.size() != d) Rcpp::stop("internal error: 'start' has the wrong length");
      Rcpp::NumericMatrix out(draws, d);
      const int failed = pgbb::exact_bootstrap(loss, rows, blocked ? &part : nullptr, gamma, draws, tau,
                                               start.begin(), fixed_u ? U.begin() : nullptr, rng,
                                               out.begin(), stop);
      return Rcpp::List::create(Rcpp::Named("draws") = out, Rcpp::Named("failed") = failed);
    });
  });
}
