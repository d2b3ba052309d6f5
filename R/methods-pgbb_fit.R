# Methods for "pgbb_fit" objects (print, summary, coef, confint, vcov, nobs).
# For a generator trained over a grid of levels, per-level results stack
# along the last dimension: coef() is a parameters x levels matrix, vcov() a
# parameters x parameters x levels array and confint() a parameters x 2 x
# levels array.

#' @export
print.pgbb_fit <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("PGBB fit: %s, n = %d%s\n", .loss_label(x$loss), x$n,
              if (is.null(x$tau)) "" else sprintf(", tau = %s", paste(format(x$tau), collapse = ", "))))
  cat(format(x$ledger, digits = digits), sep = "\n")
  cat(sprintf("generator: %s hidden, %s; %d stored draws\n",
              if (length(x$training$hidden)) paste(x$training$hidden, collapse = " x ") else "no",
              x$training$optimizer, dim(x$draws)[1]))
  cat(.uncertainty_line(x), "\n", sep = "")
  cat("Posterior means:\n")
  print(stats::coef(x), digits = digits)
  invisible(x)
}

#' @export
coef.pgbb_fit <- function(object, ...) {
  .check_no_dots("coef.pgbb_fit", ...)
  .draws_mean(object$draws)
}

#' @export
vcov.pgbb_fit <- function(object, ...) {
  .check_no_dots("vcov.pgbb_fit", ...)
  .draws_cov(object$draws)
}

#' @importFrom stats nobs
#' @export
nobs.pgbb_fit <- function(object, ...) object$n

#' @export
fitted.pgbb_fit <- function(object, ...) .no_records_stop("fitted")

#' @export
residuals.pgbb_fit <- function(object, ...) .no_records_stop("residuals")

#' Credible intervals from a PGBB fit
#'
#' Equal-tailed posterior quantile intervals from the stored draws.
#'
#' @param object A `pgbb_fit`.
#' @param parm Parameters (names or indices); all by default.
#' @param level Credible level.
#' @param ... Unused.
#' @return A matrix with one row per parameter and columns for the lower and
#'   upper limits; for a grid of levels, an array parameters x 2 x levels.
#' @export
confint.pgbb_fit <- function(object, parm, level = 0.95, ...) {
  .check_no_dots("confint.pgbb_fit", ...)
  .draws_interval(object$draws, if (missing(parm)) NULL else parm, level)
}

#' Summarise a PGBB fit
#'
#' Posterior mean, standard deviation and equal-tailed credible interval of
#' every parameter (at every level for a joint quantile fit), with the privacy
#' ledger.
#'
#' @param object A `pgbb_fit`.
#' @param level Credible level.
#' @param ... Unused.
#' @return An object of class `summary.pgbb_fit` with a `coefficients` table
#'   (columns `term`, `tau`, `estimate`, `sd`, `lower`, `upper`) and the ledger.
#' @export
summary.pgbb_fit <- function(object, level = 0.95, ...) {
  .check_no_dots("summary.pgbb_fit", ...)
  .check_open_unit(level, "level")
  d <- object$draws
  a <- (1 - level) / 2
  tab <- function(m, tau) {
    data.frame(term = colnames(m), tau = if (is.null(tau)) NA_real_ else tau,
               estimate = colMeans(m), sd = apply(m, 2L, stats::sd),
               lower = apply(m, 2L, stats::quantile, probs = a, names = FALSE),
               upper = apply(m, 2L, stats::quantile, probs = 1 - a, names = FALSE),
               row.names = NULL, stringsAsFactors = FALSE)
  }
  coefs <- if (length(dim(d)) == 3L) {
    do.call(rbind, lapply(seq_len(dim(d)[3]), function(i) tab(d[, , i], object$tau[i])))
  } else tab(d, object$tau)
  structure(list(coefficients = coefs, level = level, ledger = object$ledger, loss = object$loss,
                 n = object$n, draws = dim(d)[1]), class = "summary.pgbb_fit")
}

#' @export
print.summary.pgbb_fit <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("PGBB fit: %s, n = %d, %d draws\n", .loss_label(x$loss), x$n, x$draws))
  cat(format(x$ledger, digits = digits), sep = "\n")
  cat(sprintf("Posterior summaries (%s%% equal-tailed credible intervals):\n",
              format(100 * x$level)))
  tab <- x$coefficients
  if (all(is.na(tab$tau))) tab$tau <- NULL
  print(tab, digits = digits, row.names = FALSE)
  invisible(x)
}

#' @export
as.data.frame.summary.pgbb_fit <- function(x, ...) x$coefficients
