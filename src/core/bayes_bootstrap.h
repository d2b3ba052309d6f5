// Exact (non-private) Bayesian bootstrap references: the ordinary Bayesian
// bootstrap, w ~ Dirichlet(1_n) (Rubin 1981), and the blocked Bayesian bootstrap,
// u ~ Dirichlet(gamma 1_S) with w-bar_i = u_{pi(i)} / n_{pi(i)} (PGBB paper,
// Section 2.2.2). For the mean both have closed forms, so each draw is exact.
#ifndef PGBB_CORE_BAYES_BOOTSTRAP_H
#define PGBB_CORE_BAYES_BOOTSTRAP_H

#include <stdexcept>
#include <vector>

#include "blocking.h"
#include "rng.h"

namespace pgbb {

/// @brief Draws of the weighted mean sum_i w_i x_i with w ~ Dirichlet(1_n).
/// x is column-major n x p; out is column-major draws x p.
inline void bayesian_bootstrap_mean(const double* x, int n, int p, int draws, Rng& rng,
                                    double* out) {
  if (n < 1) throw std::invalid_argument("bayesian_bootstrap: need at least one record");
  std::vector<double> w(n);
  for (int b = 0; b < draws; ++b) {
    rng.dirichlet(1.0, w.data(), n);
    for (int j = 0; j < p; ++j) {
      const double* xj = x + static_cast<size_t>(j) * n;
      double acc = 0.0;
      for (int i = 0; i < n; ++i) acc += w[i] * xj[i];
      out[b + static_cast<size_t>(j) * draws] = acc;
    }
  }
}

/// @brief Draws of the blocked weighted mean sum_s u_s xbar_s, u ~ Dirichlet(gamma 1_S),
/// on a given partition: the mean depends on the data only through the block means,
/// so this is the exact blocked-bootstrap posterior of the mean.
inline void blocked_bootstrap_mean(const double* x, int n, int p, int draws, double gamma,
                                   const BlockPartition& part, Rng& rng, double* out) {
  const int S = static_cast<int>(part.size.size());
  if (static_cast<int>(part.block.size()) != n)
    throw std::invalid_argument("blocked_bootstrap: partition does not match the data");
  std::vector<double> block_mean(static_cast<size_t>(S) * p, 0.0);
  for (int j = 0; j < p; ++j) {
    const double* xj = x + static_cast<size_t>(j) * n;
    double* mj = block_mean.data() + static_cast<size_t>(j) * S;
    for (int i = 0; i < n; ++i) mj[part.block[i]] += xj[i];
    for (int s = 0; s < S; ++s) mj[s] /= part.size[s];
  }
  std::vector<double> u(S);
  for (int b = 0; b < draws; ++b) {
    rng.dirichlet(gamma, u.data(), S);
    for (int j = 0; j < p; ++j) {
      const double* mj = block_mean.data() + static_cast<size_t>(j) * S;
      double acc = 0.0;
      for (int s = 0; s < S; ++s) acc += u[s] * mj[s];
      out[b + static_cast<size_t>(j) * draws] = acc;
    }
  }
}

}  // namespace pgbb

#endif  // PGBB_CORE_BAYES_BOOTSTRAP_H
