// Shared helpers for the Rcpp glue files: seeding from R and turning core
// exceptions into R errors. Included by src/*.cpp only, never by src/core/.
#ifndef PGBB_GLUE_H
#define PGBB_GLUE_H

#include <Rcpp.h>

#include "core/rng.h"

namespace pgbb_glue {

/// Engine seeded from the two 32-bit words drawn in R by .rng_seed().
inline pgbb::Rng rng_from(const Rcpp::NumericVector& seed) {
  if (seed.size() != 2) Rcpp::stop("internal error: 'seed' must hold two words");
  return pgbb::Rng(pgbb::seed_from_words(seed[0], seed[1]));
}

inline uint64_t seed_from(const Rcpp::NumericVector& seed) {
  if (seed.size() != 2) Rcpp::stop("internal error: 'seed' must hold two words");
  return pgbb::seed_from_words(seed[0], seed[1]);
}

}  // namespace pgbb_glue

#endif  // PGBB_GLUE_H
