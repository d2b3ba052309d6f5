#' Empirical privacy audit
#'
#' Runs a mechanism many times on two neighbouring data sets, builds a
#' threshold test that tries to tell the two apart from the released output, and
#' returns a Clopper-Pearson lower confidence bound on the privacy loss
#' \eqn{\epsilon} at the given \eqn{\delta} (the standard DP-auditing recipe of
#' Jagielski, Ullman and Oprea 2020; Nasr et al. 2021). If the mechanism is
#' \eqn{(\epsilon, \delta)}-DP, the returned bound exceeds the claimed
#' \eqn{\epsilon} with probability at most `1 - level`. A bound far below the
#' claim does not prove privacy (the test may be weak); a bound above it proves a
#' violation (up to the confidence level).
#'
#' The runs are split in two halves: the first chooses the threshold and the
#' direction of the test, the second, independent half estimates the two error
#' rates, so the choice does not bias the bound.
#'
#' @param mechanism A function of one argument (a data set) returning the released
#'   output (anything `statistic` accepts). It must draw its randomness from R's
#'   generator: pgbb's functions do so only under `options(pgbb.seeded_noise = TRUE)`
#'   (their default noise comes from the operating system's entropy, which no seed
#'   reproduces).
#' @param data,data_prime Two neighbouring data sets (for replace-one adjacency:
#'   same size, one record changed, e.g. a canary moved to a public bound).
#' @param runs Number of runs on each data set (split into two halves).
#' @param delta The claimed \eqn{\delta}.
#' @param level Confidence level of the lower bound (default 0.95).
#' @param statistic Function mapping one output to a number used by the test.
#'   Default: the mean of the output's numeric values.
#' @param claimed Optional claimed \eqn{\epsilon}, reported beside the bound.
#' @param seed Optional seed passed to [set.seed()] before the runs.
#' @return An object of class `privacy_audit`: a list with `epsilon_lower`,
#'   `claimed`, `delta`, `level`, `threshold`, `direction`, the estimated rates
#'   (`tpr`, `fpr`) and `runs`.
#' @examples
#' # A Gaussian mechanism calibrated for epsilon = 0.5 and its 10x too-small-noise twin.
#' sens <- 1; eps <- 0.5; dlt <- 1e-5
#' sd_ok <- sens * sqrt(2 * log(1.25 / dlt)) / eps
#' good <- function(d) sum(d) + rnorm(1, sd = sd_ok)
#' bad <- function(d) sum(d) + rnorm(1, sd = sd_ok / 10)
#' d0 <- c(rep(0, 9), 0); d1 <- c(rep(0, 9), 1)
#' audit_privacy(good, d0, d1, runs = 2000, delta = dlt, claimed = eps, seed = 1)
#' audit_privacy(bad, d0, d1, runs = 2000, delta = dlt, claimed = eps, seed = 1)
#' @export
audit_privacy <- function(mechanism, data, data_prime, runs = 1000, delta = 1e-5,
                          level = 0.95, statistic = NULL, claimed = NULL, seed = NULL) {
  if (!is.function(mechanism)) .arg_fail("mechanism", "a function of one data set")
  .check_count(runs, "runs", min = 20, max = 1e8)
  .check_open_unit(delta, "delta")
  .check_open_unit(level, "level")
  if (!is.null(claimed)) .check_positive(claimed, "claimed")
  if (is.null(statistic)) statistic <- function(out) mean(as.numeric(unlist(out)))
  if (!is.function(statistic)) .arg_fail("statistic", "a function of one output")
  if (!is.null(seed)) set.seed(seed)

  score <- function(d) {
    vapply(seq_len(runs), function(i) {
      s <- statistic(mechanism(d))
      if (!is.numeric(s) || length(s) != 1L || is.na(s))
        stop("'statistic' must return a single number for every output.", call. = FALSE)
      s
    }, numeric(1))
  }
  s1 <- score(data)
  s0 <- score(data_prime)
  half <- seq_len(runs %/% 2)
  pick <- .audit_threshold(s1[half], s0[half], delta)
  rest1 <- s1[-half]; rest0 <- s0[-half]
  hit1 <- sum(pick$direction * (rest1 - pick$threshold) > 0)
  hit0 <- sum(pick$direction * (rest0 - pick$threshold) > 0)
  m1 <- length(rest1); m0 <- length(rest0)
  # Two one-sided Clopper-Pearson bounds, each at (1 - level) / 2 (Bonferroni).
  a <- (1 - level) / 2
  tpr_lo <- if (hit1 == 0) 0 else stats::qbeta(a, hit1, m1 - hit1 + 1)
  fpr_hi <- if (hit0 == m0) 1 else stats::qbeta(1 - a, hit0 + 1, m0 - hit0)
  eps_lo <- if (tpr_lo - delta > 0) log((tpr_lo - delta) / fpr_hi) else 0
  structure(list(epsilon_lower = max(0, eps_lo), claimed = claimed, delta = delta,
                 level = level, threshold = pick$threshold, direction = pick$direction,
                 tpr = hit1 / m1, fpr = hit0 / m0, runs = runs),
            class = "privacy_audit")
}

# Threshold and direction maximising the empirical epsilon on the selection half.
.audit_threshold <- function(s1, s0, delta) {
  cand <- stats::quantile(c(s1, s0), probs = seq(0.01, 0.99, by = 0.01), names = FALSE)
  best <- list(value = -Inf, threshold = cand[1], direction = 1)
  for (dir in c(1, -1)) {
    for (t in cand) {
      tpr <- mean(dir * (s1 - t) > 0)
      fpr <- max(mean(dir * (s0 - t) > 0), 1 / length(s0))
      v <- log(max(tpr - delta, 1e-12) / fpr)
      if (v > best$value) best <- list(value = v, threshold = t, direction = dir)
    }
  }
  best
}

#' @export
print.privacy_audit <- function(x, digits = 3, ...) {
  cat("Empirical privacy audit (Clopper-Pearson, two-half threshold test)\n")
  cat(sprintf("  runs per data set: %d; delta = %.3g; confidence level %.2f\n",
              x$runs, x$delta, x$level))
  cat(sprintf("  test: output %s %.4g  (TPR %.3f, FPR %.3f on the held-out half)\n",
              if (x$direction > 0) ">" else "<", x$threshold, x$tpr, x$fpr))
  cat(sprintf("  epsilon lower bound: %s", format(x$epsilon_lower, digits = digits)))
  if (!is.null(x$claimed))
    cat(sprintf("  (claimed %s: %s)", format(x$claimed, digits = digits),
                if (x$epsilon_lower > x$claimed) "VIOLATED" else "consistent"))
  cat("\n")
  invisible(x)
}
