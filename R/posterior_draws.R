#' Fresh posterior draws from a trained PGBB generator
#'
#' Evaluates the trained generator at fresh block weights
#' \eqn{u \sim \mathrm{Dirichlet}(\gamma 1_S)}. This uses only the released
#' generator, so it is post-processing: any number of draws costs no further
#' privacy (Remark 2.1 of the PGBB paper).
#'
#' @param fit A fitted model, e.g. from [pgbb_fit()].
#' @param n Number of draws.
#' @param tau For a generator trained jointly over a grid of levels, the
#'   level(s) at which to draw: any values inside the trained range (default:
#'   the training grid). The same block weights are used at every level, so
#'   draw `b` across levels is one draw of the whole quantile process.
#' @param ... Unused.
#' @return A matrix with `n` rows and one column per parameter; for several
#'   levels, an array `n` x parameters x levels. For a fit of several
#'   independent runs a draw is a noise-aware pooled draw: the mean of the run
#'   means, plus the deviation at fresh weights (for runs on one shared partition,
#'   the average of every run's deviation at the same weights, scaled to a t on the
#'   partition's degrees of freedom; otherwise one run's), plus a draw of the
#'   pooled centre's noise error (see [pgbb()], 'Noise-aware intervals').
#' @examples
#' set.seed(1)
#' x <- rnorm(300, 1)
#' fit <- pgbb_fit(x, loss = "mean", sigma = 0, box = c(-5, 5), x_bounds = c(-5, 5),
#'                 blocks = 10, rate = 1, iterations = 300, hidden = 16,
#'                 learning_rate = 3e-3, draws = 100)
#' summary(posterior_draws(fit, 500))
#' @export
posterior_draws <- function(fit, n = 2000, tau = NULL, ...) UseMethod("posterior_draws")

#' @rdname posterior_draws
#' @export
posterior_draws.pgbb_fit <- function(fit, n = 2000, tau = NULL, ...) {
  .check_no_dots("posterior_draws.pgbb_fit", ...)
  .pgbb_fit_draws(fit, n, tau)$draws
}

# The levels to draw at: the training grid by default; any level inside the
# trained range for a joint generator; only the trained level otherwise.
.draw_levels <- function(fit, tau) {
  if (fit$joint) {
    if (is.null(tau)) tau <- fit$tau
    rng <- range(fit$tau)
    if (!is.numeric(tau) || length(tau) == 0L || anyNA(tau) || any(tau < rng[1] | tau > rng[2]))
      .arg_fail("tau", sprintf("inside the trained range [%g, %g]", rng[1], rng[2]))
    return(tau)
  }
  if (!is.null(tau) && (is.null(fit$tau) || !isTRUE(all.equal(as.numeric(tau), fit$tau))))
    .arg_fail("tau", if (is.null(fit$tau)) "NULL (this loss has no level)" else
      sprintf("NULL or %g (the generator was trained at that level only)", fit$tau))
  NULL
}

# Every run's generator at one set of fresh block weights: a list of `runs`
# arrays [draw, parameter, level] (one level slice when not joint). The runs
# are evaluated side by side on `threads` threads (identical for any number).
.run_draws <- function(fit, n, tau, threads = .check_threads(NULL)) {
  g <- fit$generator
  S <- fit$ledger$blocks
  U <- cpp_rdirichlet(as.integer(n), as.integer(S), fit$ledger$gamma, .post_seed())
  levels <- if (fit$joint) tau else NA_real_
  lab <- if (fit$joint) .tau_labels(tau) else NULL
  layer_sets <- c(list(g$layers), g$more_layers)
  out <- rep(list(array(NA_real_, c(n, fit$d, length(levels)), dimnames = list(NULL, fit$coefnames, lab))),
             length(layer_sets))
  for (i in seq_along(levels)) {
    at <- cpp_generator_eval(g, layer_sets, U, if (fit$joint) levels[i] else numeric(0), threads)
    for (r in seq_along(layer_sets)) out[[r]][, , i] <- at[[r]]
  }
  out
}

# Posterior draws of a pgbb_fit: with one run the generator's draws (their
# spread is the blocked bootstrap's only); with several, the noise-aware pooled
# draws of R/pooling.R. Returns the draws in the documented shape, the per-run
# draws and the variability decomposition.
.pgbb_fit_draws <- function(fit, n, tau = NULL, threads = .check_threads(NULL)) {
  .check_count(n, "n", max = 1e8)
  tau <- .draw_levels(fit, tau)
  runs <- length(fit$generator$more_layers) + 1L
  .check_memory(n * fit$d * max(1, length(tau)) * (runs + 1), "n * parameters * levels * runs")
  per_run <- .run_draws(fit, n, tau, threads)
  pooled <- .pool_runs(per_run, shared = isTRUE(fit$shared_partition), blocks = fit$ledger$blocks)
  list(draws = .drop_level(pooled$draws), runs = per_run, variability = pooled$variability)
}

# The one label of a quantile level in every fit's draws, coefficients and
# intervals (the level slices of [draw, term, level] arrays): "0.1", "0.25".
.tau_labels <- function(tau) as.character(tau)

# A level label without a "tau=" prefix (a reference's "tau= 0.25", as
# quantreg labels its levels): "0.1" stays "0.1", "tau= 0.1" becomes "0.1".
.tau_label_value <- function(label) sub("^\\s*tau\\s*=\\s*", "", label)
