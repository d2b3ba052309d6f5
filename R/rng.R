# The package's C++ engine is seeded afresh at every entry point from R's own
# generator: two uniform draws give two 32-bit words. set.seed() before a call
# therefore fixes every random quantity the call uses, and the call advances
# R's stream, so consecutive calls differ.
.rng_seed <- function() {
  floor(stats::runif(2L) * 4294967296)
}
