// Blocked Bayesian bootstrap primitives (PGBB paper, Section 2.2.2, eq. 8).
#ifndef PGBB_CORE_BLOCKING_H
#define PGBB_CORE_BLOCKING_H

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "rng.h"

namespace pgbb {

/// @brief gamma*(n, S) = (S (n + 1) - 2 n) / (S (n - 1)) of eq. (8): the block
/// Dirichlet concentration that matches the blocked and the ordinary Bayesian
/// bootstrap variances of a mean (Proposition 4.1).
inline double gamma_star(double n, double S) {
  if (!(S >= 3)) throw std::invalid_argument("gamma_star: 'blocks' must be at least 3");
  if (!(n >= S)) throw std::invalid_argument("gamma_star: 'n' must be at least 'blocks'");
  return (S * (n + 1.0) - 2.0 * n) / (S * (n - 1.0));
}

/// @brief A partition of n records into S blocks.
struct BlockPartition {
  std::vector<int> block;  ///< block id in {0, ..., S - 1} of each record
  std::vector<int> size;   ///< number of records in each block
  int n_min() const {
    int m = size.empty() ? 0 : size[0];
    for (int s : size) m = s < m ? s : m;
    return m;
  }
};

/// @brief Uniform random partition pi(i) = ceil(tau(i) S / n) with tau a uniform
/// random permutation of [n] drawn independently of the data (Section 2.2.2).
/// When S does not divide n the block sizes are floor(n/S) or ceil(n/S). Every
/// record's weight is then u_s / n_s <= u_s / floor(n/S), and every per-release
/// divergence bound of the accountant increases with the weight, so accounting
/// with n_S = floor(n/S) (the smallest block) is the conservative choice.
inline BlockPartition block_partition(int n, int S, Rng& rng) {
  if (S < 2) throw std::invalid_argument("block_partition: 'blocks' must be at least 2");
  if (n < S) throw std::invalid_argument("block_partition: 'n' must be at least 'blocks'");
  BlockPartition part;
  part.block.resize(n);
  part.size.assign(S, 0);
  const std::vector<int> perm = rng.permutation(n);  // tau(i) - 1
  for (int i = 0; i < n; ++i) {
    // ceil((tau + 1) S / n) - 1 in exact integer arithmetic.
    const int64_t t = static_cast<int64_t>(perm[i]) + 1;
    const int b = static_cast<int>((t * S + n - 1) / n) - 1;
    part.block[i] = b;
    ++part.size[b];
  }
  return part;
}

/// @brief Per-record weights w-bar_i = u_{pi(i)} / n_{pi(i)} (Section 2.2.2).
inline void record_weights(const double* u, const BlockPartition& part, double* w) {
  const int n = static_cast<int>(part.block.size());
  for (int i = 0; i < n; ++i) {
    const int b = part.block[i];
    w[i] = u[b] / part.size[b];
  }
}

}  // namespace pgbb

#endif  // PGBB_CORE_BLOCKING_H
