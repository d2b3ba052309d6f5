# print and summary of "pgbb_fit" objects; coef, confint, vcov, nobs and the
# tables come from the private_posterior contract (R/private-posterior.R). For
# a generator trained over a grid of levels, per-level results stack along the
# last dimension: coef() is a parameters x levels matrix, vcov() a parameters x
# parameters x levels array and confint() a parameters x 2 x levels array.

#' @export
print.pgbb_fit <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("PGBB fit: %s, n = %d%s\n", .loss_label(x$loss), x$n,
              if (is.null(x$tau)) "" else sprintf(", tau = %s", paste(format(x$tau), collapse = ", "))))
  cat(format(x$ledger, digits = digits), sep = "\n")
  cat(sprintf("generator: %s hidden, %s; %d stored draws\n",
              if (length(x$training$hidden)) paste(x$training$hidden, collapse = " x ") else "no",
              x$training$optimizer, dim(x$draws)[1]))
  .cat_status_lines(x, x$stationarity)
  cat("Posterior means:\n")
  print(stats::coef(x), digits = digits)
  invisible(x)
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
#'   (the table of every private fit, [private_posterior]: columns `method`,
#'   `term`, `tau`, `estimate`, `sd`, `lower`, `upper`, and `within`, `between`,
#'   `total` for pooled trainings) and the ledger.
#' @export
summary.pgbb_fit <- function(object, level = 0.95, ...) {
  .check_no_dots("summary.pgbb_fit", ...)
  .check_open_unit(level, "level")
  coefs <- .pp_frame(object, level)
  structure(list(coefficients = coefs, level = level, ledger = object$ledger, loss = object$loss,
                 n = object$n, draws = dim(object$draws)[1], stationarity = object$stationarity),
            class = "summary.pgbb_fit")
}

#' @export
print.summary.pgbb_fit <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("PGBB fit: %s, n = %d, %d draws\n", .loss_label(x$loss), x$n, x$draws))
  cat(format(x$ledger, digits = digits), sep = "\n")
  .cat_status_lines(x, x$stationarity)
  cat(sprintf("Posterior summaries (%s%% equal-tailed credible intervals):\n",
              format(100 * x$level)))
  tab <- x$coefficients
  tab$method <- NULL
  if (all(is.na(tab$tau))) tab$tau <- NULL
  print(tab, digits = digits, row.names = FALSE)
  invisible(x)
}

#' @export
as.data.frame.summary.pgbb_fit <- function(x, ...) x$coefficients
