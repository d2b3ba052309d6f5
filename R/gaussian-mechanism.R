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
#    Its proof assumes eps < 1, so for eps >= 1 the theorem proves nothing. Since
#    the release is exactly (Delta / sigma)-GDP, its true delta at eps is known in
#    closed form; every release is checked against it (.gaussian_plan): for the
#    paper's budgets (eps <= 4 at delta = 1/n, split or not) the classical sigma
#    does meet (eps, delta), but for large eps it does not (at eps = 16, delta = 1e-4
#    the true delta is 34 times the target; at eps = 64 it is ~1), and such a
#    release is refused. The classical option exists only to reproduce the paper.

.calibrations <- c("analytic", "classical")

# Noise sd of one release. `sensitivity`, `epsilon`, `delta` may be vectors
# (one entry per release); the result has the same length.
.gaussian_sigma <- function(sensitivity, epsilon, delta, calibration) {
  calibration <- .match_arg(calibration, .calibrations)
  if (calibration == "classical")
    return(sensitivity * sqrt(2 * log(1.25 / delta)) / epsilon)
  sensitivity / gdp_mu(epsilon, delta)
}

# Noise plan of one or more releases (one row each): sigma, and the exact delta
# the release achieves at its epsilon, delta_mu(eps) with mu = Delta / sigma (exact
# for the Gaussian mechanism). A classical-calibrated release whose exact delta
# exceeds its target is refused: it would not be (eps, delta)-DP.
.gaussian_plan <- function(release, sensitivity, epsilon, delta, calibration) {
  sigma <- .gaussian_sigma(sensitivity, epsilon, delta, calibration)
  achieved <- gdp_delta(sensitivity / sigma, epsilon)
  bad <- achieved > delta * (1 + 1e-9)
  if (any(bad))
    stop(sprintf(paste0("calibration = \"classical\" does not give (epsilon, delta)-DP for the release '%s': ",
                        "at epsilon = %s its exact delta is %s > %s (the classical formula is only proven ",
                        "for epsilon < 1). Use calibration = \"analytic\"."),
                 release[bad][1], format(epsilon[bad][1], digits = 4), format(achieved[bad][1], digits = 3),
                 format(delta[bad][1], digits = 3)), call. = FALSE)
  data.frame(release = release, dimension = NA_integer_, sensitivity = sensitivity, epsilon = epsilon,
             delta = delta, noise_sd = sigma, exact_delta = achieved, stringsAsFactors = FALSE)
}

# Every Gaussian mechanism with sensitivity Delta_i and noise sd sigma_i is exactly
# (Delta_i / sigma_i)-GDP, and GDP composes as the root sum of squares (Dong et al.
# 2022), so the whole set of releases is exactly mu-GDP with this mu: a statement
# that is never weaker than basic composition of the per-release (eps_i, delta_i).
.gaussian_mu <- function(sensitivity, sigma) sqrt(sum((sensitivity / sigma)^2))

# Human-readable statement of what the calibration proves, for the ledger.
.gaussian_guarantee <- function(epsilon_parts, calibration) {
  comp <- if (length(epsilon_parts) > 1L)
    "; basic composition over the releases (and exactly mu-GDP, see mu)" else ""
  if (calibration == "analytic")
    return(paste0("(epsilon, delta)-DP: analytic Gaussian mechanism (exact GDP profile)", comp))
  if (all(epsilon_parts < 1))
    return(paste0("(epsilon, delta)-DP: classical Gaussian mechanism (epsilon < 1 per release)", comp))
  paste0("(epsilon, delta)-DP, verified per release by the exact Gaussian privacy profile (exact_delta <= delta); ",
         "the classical theorem itself covers only epsilon < 1", comp)
}

.check_calibration <- function(calibration) {
  .match_arg(calibration, .calibrations)
}

# epsilon must be a positive finite number and delta in (0, 1): a release is never
# made with an infinite budget (the zero-noise path exists only inside the samplers,
# for tests).
.check_budget <- function(epsilon, delta) {
  .check_positive(epsilon, "epsilon")
  .check_open_unit(delta, "delta")
  invisible(TRUE)
}

# Float-safe releases (src/core/discrete_gaussian.h). Every noisy statistic the
# package publishes directly (CR-GS, CR-SS / PTR, NoisyGibbs, DP-Bootstrap) is
# rounded to a public grid (a power of two) and gets exact discrete Gaussian noise
# (Canonne, Kamath & Steinke 2020) at the calibrated noise-to-sensitivity ratio,
# with the rounding charged to the sensitivity, so every stated guarantee holds
# for the released values. The released noise sd is a little above sigma (at
# most 0.2%); samplers and intervals that model the noise use it. Inputs are
# public, so is the plan. `arg` names the argument to blame when the noise is
# beyond the sampler's range (sigma / sensitivity above about 2^20 / sqrt(dim)).
.discrete_noise <- function(sigma, sensitivity, dim = 1L, arg = "epsilon") {
  tryCatch(cpp_grid_gaussian_plan(sigma, sensitivity, as.integer(dim)), error = function(e)
    .arg_fail(arg, sprintf(paste0("large enough that the noise sd (%.3g) is at most about 2^20 / sqrt(%d) times ",
                                  "the sensitivity (%.3g), the range of the exact discrete Gaussian sampler"),
                           sigma, as.integer(dim), sensitivity)))
}

.discrete_noise_law <- function(sd) {
  paste0("exact discrete Gaussian on a public grid (Canonne, Kamath & Steinke 2020); released noise sd ",
         paste(sprintf("%s = %s", names(sd), format(signif(sd, 4))), collapse = ", "))
}
