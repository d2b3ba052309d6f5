// The length, burn-in and thinning of a Markov chain, shared by the NoisyGibbs
// samplers (exponential family and linear regression).
//
// Plain C++17, no R headers.
#ifndef PGBB_CORE_GIBBS_SCHEDULE_H
#define PGBB_CORE_GIBBS_SCHEDULE_H

#include <cstdint>
#include <stdexcept>

namespace pgbb {

/// @brief Length, burn-in and thinning of a Gibbs chain. Kept draws are the
/// iterations t = burn_in + thin, burn_in + 2 thin, ..., <= iterations.
struct GibbsSchedule {
  int64_t iterations = 4000;
  int64_t burn_in = 2000;
  int64_t thin = 2;

  void validate() const {
    if (iterations < 1) throw std::invalid_argument("Gibbs schedule: 'iterations' must be at least 1");
    if (burn_in < 0 || burn_in >= iterations)
      throw std::invalid_argument("Gibbs schedule: 'burn_in' must be in [0, iterations)");
    if (thin < 1) throw std::invalid_argument("Gibbs schedule: 'thin' must be at least 1");
    if (kept() < 1) throw std::invalid_argument("Gibbs schedule keeps no draws: lower 'burn_in' or 'thin'");
  }
  int64_t kept() const { return (iterations - burn_in) / thin; }
  bool keep(int64_t t) const { return t > burn_in && (t - burn_in) % thin == 0; }  // t is 1-based
};

}  // namespace pgbb

#endif  // PGBB_CORE_GIBBS_SCHEDULE_H
