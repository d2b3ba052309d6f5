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
#'   levels, an array `n` x parameters x levels.
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
  .check_count(n, "n", max = 1e8)
  g <- fit$generator
  S <- fit$ledger$blocks
  if (fit$joint) {
    if (is.null(tau)) tau <- fit$tau
    rng <- range(fit$tau)
    if (!is.numeric(tau) || length(tau) == 0L || anyNA(tau) || any(tau < rng[1] | tau > rng[2]))
      .arg_fail("tau", sprintf("inside the trained range [%g, %g]", rng[1], rng[2]))
  } else if (!is.null(tau)) {
    if (is.null(fit$tau) || !isTRUE(all.equal(as.numeric(tau), fit$tau)))
      .arg_fail("tau", if (is.null(fit$tau)) "NULL (this loss has no level)" else
        sprintf("NULL or %g (the generator was trained at that level only)", fit$tau))
    tau <- NULL
  }
  .check_memory(n * fit$d * max(1, length(tau)), "n * parameters * levels")
  U <- cpp_rdirichlet(as.integer(n), as.integer(S), fit$ledger$gamma, .rng_seed())
  if (!fit$joint) {
    out <- cpp_generator_eval(g, g$layers, U, numeric(0))
    colnames(out) <- fit$coefnames
    return(out)
  }
  out <- array(NA_real_, c(n, fit$d, length(tau)),
               dimnames = list(NULL, fit$coefnames, .tau_labels(tau)))
  for (i in seq_along(tau)) out[, , i] <- cpp_generator_eval(g, g$layers, U, tau[i])
  if (length(tau) == 1L) out <- out[, , 1L, drop = TRUE]
  if (is.null(dim(out))) out <- matrix(out, ncol = fit$d, dimnames = list(NULL, fit$coefnames))
  out
}

.tau_labels <- function(tau) paste0("tau=", format(tau, trim = TRUE))
