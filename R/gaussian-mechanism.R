# Noise calibration of the Gaussian mechanism for the baselines (NoisyGibbs,
# DP-Bootstrap). Two calibrations of a release of l2-sensitivity Delta at (eps, delta):
#
#  - "analytic" (default): the smallest sigma whose exact privacy profile satisfies
#    delta(eps) <= delta (Balle & Wang 2018). N(f, sigma^2) with sensitivity Delta is
#    exactly (Delta / sigma)-GDP, and mu-GDP has the exact profile
#    delta_mu(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2); hence
#    sigma = Delta / gdp_mu(eps, delta), where gdp_mu() returns the largest feasible
#    mu (so sigma never understates the noise). Valid for every eps > 0.
#
#  - "classical": sigma = Delta sqrt(2 log(1.25 / delta)) / eps (Dwork & Roth 2014,
#    Theorem A.1), which is what the PGBB paper used for NoisyGibbs (SM S3.1-S3.2).
#    Its proof assumes eps < 1. For eps >= 1 it is NOT a proven (eps, delta)
#    guarantee (for large eps it can even be too small); it is kept only to
#    reproduce the paper, and the ledger and a warning say so.

.calibrations <- c("analytic", "classical")

# Noise sd of one release. `sensitivity`, `epsilon`, `delta` may be vectors
# (one entry per release); the result has the same length.
.gaussian_sigma <- function(sensitivity, epsilon, delta, calibration) {
  calibration <- match.arg(calibration, .calibrations)
  if (calibration == "classical")
    return(sensitivity * sqrt(2 * log(1.25 / delta)) / epsilon)
  sensitivity / gdp_mu(epsilon, delta)
}

# Human-readable statement of what the calibration proves, for the ledger.
.gaussian_guarantee <- function(epsilon_parts, calibration) {
  if (calibration == "analytic")
    return("proven (epsilon, delta)-DP: analytic Gaussian mechanism (exact GDP profile), basic composition over the releases")
  if (all(epsilon_parts < 1))
    return("proven (epsilon, delta)-DP: classical Gaussian mechanism (every release has epsilon < 1), basic composition over the releases")
  "NOT a proven guarantee: classical Gaussian-mechanism calibration used with a per-release epsilon >= 1, outside the range of its proof (kept to reproduce the PGBB paper; use calibration = \"analytic\")"
}

.warn_classical <- function(epsilon_parts, calibration) {
  if (calibration == "classical" && any(epsilon_parts >= 1))
    warning(sprintf(paste0("calibration = \"classical\" with a per-release epsilon of %s >= 1: the ",
                           "classical Gaussian mechanism is only proven for epsilon < 1, so this release ",
                           "has no proven (epsilon, delta) guarantee. Use calibration = \"analytic\"."),
                    format(max(epsilon_parts), digits = 3)), call. = FALSE)
}

.check_calibration <- function(calibration) {
  if (!is.character(calibration) || length(calibration) < 1L || !calibration[1] %in% .calibrations)
    .arg_fail("calibration", "one of \"analytic\" or \"classical\"")
  calibration[1]
}

# epsilon must be a positive finite number and delta in (0, 1): a release is never
# made with an infinite budget (the zero-noise path exists only inside the samplers,
# for tests).
.check_budget <- function(epsilon, delta) {
  .check_positive(epsilon, "epsilon")
  .check_open_unit(delta, "delta")
  invisible(TRUE)
}
