// Shared helpers for the Rcpp glue files: seeding from R and turning core
// exceptions into R errors. Included by src/*.cpp only, never by src/core/.
#ifndef PGBB_GLUE_H
#define PGBB_GLUE_H

#include <Rcpp.h>

#include "core/blocking.h"
#include "core/entropy.h"
#include "core/rng.h"

namespace pgbb_glue {

/// The key of one R entry point (R/rng.R, .rng_seed()): an empty vector means
/// a fresh key from the operating system, drawn here so that it never enters R's
/// memory; eight words are the key of a seeded, reproducible run.
inline pgbb::Key seed_from(const Rcpp::NumericVector& seed) {
  try {
    if (seed.size() == 0) return pgbb::os_entropy_key();
    return pgbb::key_from_words(seed.begin(), static_cast<int>(seed.size()));
  } catch (const std::exception& e) {
    Rcpp::stop("random number key: %s", e.what());
  }
}

inline pgbb::Rng rng_from(const Rcpp::NumericVector& seed) { return pgbb::Rng(seed_from(seed)); }

/// A block partition from R's 1-based block ids (validated in R; an id out of
/// range is an internal error, never an out-of-bounds write).
inline pgbb::BlockPartition partition_from(const Rcpp::IntegerVector& blocks, int S) {
  pgbb::BlockPartition part;
  part.block.resize(blocks.size());
  part.size.assign(S, 0);
  for (R_xlen_t i = 0; i < blocks.size(); ++i) {
    const int b = blocks[i] - 1;
    if (b < 0 || b >= S) Rcpp::stop("internal error: block id out of range");
    part.block[i] = b;
    ++part.size[b];
  }
  return part;
}

}  // namespace pgbb_glue

#endif  // PGBB_GLUE_H
