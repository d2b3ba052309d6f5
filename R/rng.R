# The package's C++ engine is seeded afresh at every entry point. By default the
# two 32-bit seed words come from R's own generator, so set.seed() before a call
# fixes every random quantity the call uses (and the call advances R's stream).
#
# Reproducibility and secrecy pull in opposite directions: anyone who knows the
# seed can recompute, and subtract, the privacy noise. For a release from
# confidential data, set options(pgbb.secure_rng = TRUE): the seed words are then
# read from the operating system's entropy source (/dev/urandom) and R's seed
# plays no part (see ?pgbb_privacy).
.rng_seed <- function() {
  if (isTRUE(getOption("pgbb.secure_rng", FALSE))) return(.os_entropy_words())
  floor(stats::runif(2L) * 4294967296)
}

.os_entropy_words <- function() {
  src <- "/dev/urandom"
  if (!file.exists(src))
    stop("options(pgbb.secure_rng = TRUE) needs /dev/urandom, which this system lacks.",
         call. = FALSE)
  con <- file(src, "rb", raw = TRUE)
  on.exit(close(con))
  bytes <- as.integer(readBin(con, "raw", 8L))
  c(sum(bytes[1:4] * 256^(0:3)), sum(bytes[5:8] * 256^(0:3)))
}
