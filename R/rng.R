# Where the randomness of every private release comes from (see ?pgbb_privacy,
# "Randomness").
#
# The C++ engine is ChaCha20 (src/core/rng.h), keyed afresh at every entry point.
# By default the 256-bit key is read from the operating system's entropy source
# inside C++ (src/core/entropy.h) and never enters R: set.seed() has no effect on
# the privacy noise, and nobody who guesses or learns R's seed can regenerate and
# subtract it.
#
# Reproducible runs (tests, simulations, vignettes) opt in with
# options(pgbb.seeded_noise = TRUE): the key is then eight 32-bit words drawn
# from R's generator, so set.seed() before a call fixes every random quantity the
# call uses. Such output must not be published, and every private fit records
# and prints that its noise was seeded.
.rng_seed <- function() if (.seeded_noise()) .r_key() else numeric(0)

# The key of draws that one release repeats: CR-SS counts the multiplicities of
# its resamples (kappa and beta of eq. (6)) before the statistics pass draws the
# same resamples again, so both passes need the same key. .rng_seed() would give
# each C++ entry point its own OS key, and the multiplicities would then describe
# other resamples than those used. The privacy proofs fix a realisation of the
# indices (Lemma D.1, Appendix F.2), which must be independent of the data but
# need not be secret, so this key (OS entropy unless seeded) may pass through R;
# it is never stored. Privacy noise keeps .rng_seed().
.index_key <- function() if (.seeded_noise()) .r_key() else cpp_entropy_words()

# Eight 32-bit key words from R's generator: the key of seeded runs and of
# post-processing (.post_seed()).
.r_key <- function() floor(stats::runif(8L) * 4294967296)

.seeded_noise <- function() {
  opt <- getOption("pgbb.seeded_noise", FALSE)
  if (!(is.logical(opt) && length(opt) == 1L && !is.na(opt)))
    stop("options(pgbb.seeded_noise =) must be TRUE or FALSE.", call. = FALSE)
  opt
}

# The record a private fit carries of where its noise came from.
.noise_source <- function() if (.seeded_noise()) "seeded" else "os_entropy"

.noise_line <- function(source) {
  if (identical(source, "seeded"))
    return("randomness: SEEDED noise (options(pgbb.seeded_noise = TRUE)): reproducible, not for publication")
  "randomness: ChaCha20 keyed from the operating system's entropy (not reproducible by design)"
}

# Post-processing of a release (draws from a trained generator, the t-scaling of
# pooled draws) and the non-private bootstraps use R's generator, so set.seed()
# reproduces them in either mode: no privacy guarantee relies on this randomness,
# and it is drawn after, and independently of, the private noise.
.post_seed <- function() .r_key()
