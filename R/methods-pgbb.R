# Methods for "pgbb" fits. Everything here is post-processing of released draws
# (PGBB paper, Proposition 2.1): no method touches the data or spends privacy.
#
# A pgbb object holds `draws`, an array [draw, term, level] in original units (a
# single slice, named "estimate", for losses without levels), `tau`,
# `coefnames` and the privacy `ledger`. It is a private_posterior
# (R/private-posterior.R), which gives it coef, confint, vcov, nobs,
# as.data.frame, as.matrix, tidy, glance and posterior::as_draws_*; only what
# needs the model (print, summary, predict, plot; simulate refuses) lives here.

# How the intervals were built, said on every print: a single training's
# intervals leave out the error its gradient noise left in the generator.
.uncertainty_line <- function(x) {
  R <- x$ledger$runs %||% 1L
  if (x$ledger$sigma == 0) return("intervals: non-private generative blocked bootstrap")
  if (R > 1L)
    return(sprintf(paste0("intervals: noise-aware, %d independent trainings pooled (within-run spread plus ",
                          "the noise error of the pooled centre, W + B/R, t reference)"), R))
  paste0("intervals: ONE training (runs = 1): they do NOT include the error the privacy noise left in ",
         "the generator and can be far too narrow, and their sampling spread rests on one partition's ",
         x$ledger$blocks - 1L, " degrees of freedom (blocks - 1); use several runs (pgbb_control(runs = ), ",
         "or 'runs' of pgbb_fit())")
}

# The status lines under the ledger in print() and summary() of pgbb and
# pgbb_fit objects: how the intervals were built and whether training settled
# (.settled_line(), R/pgbb_fit.R).
.cat_status_lines <- function(x, stationarity) {
  cat(paste0(c(.uncertainty_line(x), .settled_line(stationarity)), "\n"), sep = "")
}

# confint() and tidy() return bare numbers, with no room for the label that
# print() and summary() show: a private one-training fit says so by a warning.
.warn_one_training <- function(x) {
  if (!inherits(x, c("pgbb", "pgbb_fit"))) return(invisible(FALSE))
  if (!isTRUE(x$ledger$sigma > 0) || (x$ledger$runs %||% 1L) > 1L) return(invisible(FALSE))
  warning(paste0("these intervals come from ONE training (runs = 1): they do NOT include the error the privacy ",
                 "noise left in the generator and can be far too narrow; use several runs ",
                 "(pgbb_control(runs = ), or 'runs' of pgbb_fit())"), call. = FALSE)
  invisible(TRUE)
}

#' @export
print.pgbb <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("Call:\n")
  print(x$call)
  cat(sprintf("\nPGBB %s regression, n = %d%s\n", x$loss, x$n,
              if (!is.null(x$tau)) sprintf(", tau = %s", paste(format(x$tau), collapse = ", ")) else ""))
  print(x$ledger)
  if (isTRUE(x$design$bounds_from_data))
    cat("bounds:    taken from the data (a non-private fit; a private one needs declared bounds)\n")
  .cat_status_lines(x, x$fit$stationarity)
  cat("\nPosterior means:\n")
  print(coef(x), digits = digits)
  invisible(x)
}

#' Summarise a PGBB posterior
#'
#' @param object A `pgbb` fit.
#' @param level Credible level.
#' @param type `"quantile"` (equal-tailed posterior quantiles, default) or
#'   `"normal"` (mean +/- z sd).
#' @param ... Unused.
#' @return An object of class `summary.pgbb`: a list of coefficient tables, one
#'   per quantile level, with columns `estimate`, `sd`, `lower`, `upper` and,
#'   for a fit of several runs, `within` (the within-run sd: the mean over the runs,
#'   or, for runs on one shared partition, the sd of their averaged deviation from
#'   their means, in which each run's own noise spread is divided by the runs), `between`
#'   (the sd of the run means) and `total` (\eqn{\sqrt{W + B/R}}); use
#'   `as.data.frame()` for one long table with columns
#'   `method, term, tau, estimate, sd, lower, upper` (and those three), the
#'   table of every private fit ([private_posterior]).
#'   With `type = "normal"` and several runs the limits are
#'   `estimate +/- t_df total`, with the Satterthwaite degrees of freedom.
#' @export
summary.pgbb <- function(object, level = 0.95, type = c("quantile", "normal"), ...) {
  .check_no_dots("summary.pgbb", ...)
  .check_open_unit(level, "level")
  type <- .match_arg(type)
  table <- .pp_frame(object, level, type)
  labs <- dimnames(object$draws)[[3L]]
  tabs <- lapply(seq_along(labs), function(k) .level_table(table, k, length(object$coefnames)))
  names(tabs) <- labs
  structure(list(call = object$call, loss = object$loss, tau = object$tau, n = object$n,
                 level = level, type = type, coefficients = tabs, table = table, ledger = object$ledger,
                 stationarity = object$fit$stationarity),
            class = "summary.pgbb")
}

# The rows of level slice k of a .pp_frame() table as a terms x statistics matrix.
.level_table <- function(table, k, p) {
  rows <- table[(k - 1L) * p + seq_len(p), , drop = FALSE]
  cols <- intersect(c("estimate", "sd", "lower", "upper", "within", "between", "total"), names(table))
  m <- as.matrix(rows[cols])
  rownames(m) <- rows$term
  m
}

#' @export
print.summary.pgbb <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("Call:\n")
  print(x$call)
  cat("\n")
  print(x$ledger)
  .cat_status_lines(x, x$stationarity)
  what <- if (x$type == "quantile") "equal-tailed posterior quantiles" else "normal approximation"
  for (k in seq_along(x$coefficients)) {
    cat(sprintf("\n%s%s (%g%% credible intervals, %s):\n",
                if (!is.null(x$tau)) "tau: [1] " else "",
                if (!is.null(x$tau)) names(x$coefficients)[k] else "Coefficients",
                100 * x$level, what))
    print(x$coefficients[[k]], digits = digits)
  }
  invisible(x)
}

#' @export
as.data.frame.summary.pgbb <- function(x, row.names = NULL, optional = FALSE, ...) {
  out <- x$table
  if (!is.null(row.names)) rownames(out) <- row.names
  out
}

#' Predictions with credible intervals from a PGBB fit
#'
#' Conditional quantiles (or means) \eqn{x'\beta} for new covariates, computed
#' from the posterior draws (post-processing: no privacy cost). For a logistic
#' fit \eqn{x'\beta} is the log-odds; `type = "response"` gives probabilities.
#'
#' @param object A `pgbb` fit.
#' @param newdata A data frame with the model's covariates (for a fit of the
#'   matrix method, a matrix with its columns).
#' @param tau Quantile levels to predict at (by default all of the fit's levels). At
#'   the fit's own levels the stored draws are used (the same answer as coef() and
#'   confint()); other levels of a joint fit take fresh draws of its generator.
#' @param interval `"none"` or `"credible"`.
#' @param type `"link"` (default: \eqn{x'\beta}) or `"response"`, as in
#'   [stats::predict.glm()]: for a logistic fit the probability
#'   \eqn{1/(1 + e^{-x'\beta})}, computed draw by draw, so the interval ends are the
#'   ends of the log-odds interval mapped to probabilities and the point prediction
#'   is the mean probability over the draws. For the other losses both are \eqn{x'\beta}.
#' @param level Credible level.
#' @param ... Unused.
#' @return With one level, a vector (`interval = "none"`) or a matrix with
#'   columns `fit, lower, upper`; with several, a list of those, named by level.
#' @export
predict.pgbb <- function(object, newdata, tau = NULL, interval = c("none", "credible"),
                         level = 0.95, type = c("link", "response"), ...) {
  .check_no_dots("predict.pgbb", ...)
  interval <- .match_arg(interval)
  type <- .match_arg(type)
  inverse_link <- if (type == "response" && identical(object$loss, "logistic")) stats::plogis else identity
  .check_open_unit(level, "level")
  if (!missing(newdata) && is.matrix(newdata)) newdata <- .matrix_frame(newdata, "newdata")
  if (missing(newdata) || !is.data.frame(newdata)) .arg_fail("newdata", "a data frame (or a covariate matrix)")
  tt <- stats::delete.response(object$terms)
  mf <- stats::model.frame(tt, newdata, xlev = object$xlevels, na.action = stats::na.pass)
  X <- stats::model.matrix(tt, mf, contrasts.arg = object$contrasts)
  beta_names <- object$design$coefnames
  if (!identical(colnames(X), beta_names))
    .arg_fail("newdata", "conformable with the fit (same variables and factor levels)")
  .warn_outside_bounds(X, object$design$cb, object$design$maps)
  draws <- if (is.null(tau)) object$draws else .draws_at_levels(object, tau)
  # A mean fit's one draw column is "mean"; its design is the intercept.
  cols <- if (object$loss == "mean") 1L else beta_names
  a <- (1 - level) / 2
  res <- lapply(seq_len(dim(draws)[3L]), function(k) {
    d <- matrix(draws[, cols, k], nrow = dim(draws)[1L])
    pred <- inverse_link(X %*% t(d))  # rows: new observations, columns: draws
    fit <- rowMeans(pred)
    if (interval == "none") return(fit)
    cbind(fit = fit, lower = apply(pred, 1L, stats::quantile, probs = a, names = FALSE),
          upper = apply(pred, 1L, stats::quantile, probs = 1 - a, names = FALSE))
  })
  names(res) <- dimnames(draws)[[3L]]
  if (length(res) == 1L) res[[1L]] else res
}

# The fit's draws at the levels `tau`: its stored draws where it was trained at
# them (so predict(fit, nd, tau = 0.5) agrees with predict(fit, nd)[["0.5"]],
# coef() and confint()), fresh draws of the joint generator otherwise.
.draws_at_levels <- function(object, tau) {
  .check_tau_levels(tau)
  stored <- suppressWarnings(as.numeric(dimnames(object$draws)[[3L]]))
  k <- vapply(tau, function(t) {
    i <- which(abs(stored - t) < 1e-12)
    if (length(i)) i[1L] else NA_integer_
  }, integer(1))
  if (!anyNA(k)) return(object$draws[, , k, drop = FALSE])
  posterior_draws(object, n = dim(object$draws)[1L], tau = tau, array = TRUE)
}

# The fit saw every model column clipped to its bounds (cb: lower and upper
# rows, NA for the intercept), and every linear bound it coded on (maps$rows)
# clipped to its range, so a prediction at a row outside them extrapolates the
# fitted model beyond where any record could have informed it.
.warn_outside_bounds <- function(X, cb, maps = NULL) {
  lv <- .linear_values(X, maps)
  X <- cbind(X, lv$values)
  cb <- cbind(cb, lv$bounds)
  colnames(cb) <- colnames(X)
  cols <- colnames(cb)[!is.na(cb["lower", ])]
  out <- vapply(cols, function(j) {
    v <- X[, j]
    tol <- 1e-9 * (cb["upper", j] - cb["lower", j])   # rounding in a linear bound's sum
    sum(!is.na(v) & (v < cb["lower", j] - tol | v > cb["upper", j] + tol))
  }, numeric(1))
  out <- out[out > 0]
  if (length(out))
    warning(sprintf(paste0("predict(): %s of 'newdata' outside the fit's bounds (%s); the fit clipped its data to ",
                           "the bounds, so these predictions extrapolate the model."),
                    if (length(out) == 1L) "a column" else "columns",
                    paste(sprintf("%s: %d row%s outside [%s, %s]", names(out), out, ifelse(out == 1, "", "s"),
                                  format(cb["lower", names(out)], trim = TRUE),
                                  format(cb["upper", names(out)], trim = TRUE)),
                          collapse = "; ")), call. = FALSE)
  invisible(out)
}

# stats::simulate() returns simulated responses. A pgbb fit keeps no records
# (no covariates to simulate at) and, for a quantile or Huber fit, no error
# distribution to simulate from; returning coefficient draws under that name
# would mislead any code that calls simulate() generically.
#' @export
simulate.pgbb <- function(object, nsim = 1, seed = NULL, ...) {
  stop(paste0("simulate() returns simulated responses, and a pgbb fit has neither the records nor an error ",
              "distribution to simulate them from. For draws of the coefficients use posterior_draws(fit, n) ",
              "(after set.seed() for reproducible draws); for predictions, predict(fit, newdata)."), call. = FALSE)
}

#' Plot PGBB coefficient processes
#'
#' One panel per coefficient. For a quantile fit over several levels: the
#' posterior mean across the levels with a shaded credible band (the look of
#' `plot(summary(rq(..., tau = 1:9/10)))`); for any other fit (or one level):
#' the point estimate with its interval bar, without a level axis. A
#' non-private reference can be overlaid; the first panel carries the legend and
#' every panel states the level. Base graphics.
#'
#' @param x A `pgbb` fit.
#' @param reference Optional [pgbb_reference()] fit (or a coefficient matrix
#'   terms x tau) to overlay.
#' @param level Credible level of the bands.
#' @param parm Coefficients to plot (default all).
#' @param ... Passed to [graphics::plot()].
#' @return `x`, invisibly.
#' @export
plot.pgbb <- function(x, reference = NULL, level = 0.9, parm = NULL, ...) {
  s <- summary(x, level = level)
  terms <- parm %||% x$coefnames
  bad <- setdiff(terms, x$coefnames)
  if (length(bad)) .arg_fail("parm", paste0("names coefficients the fit does not have: ",
                                            paste(bad, collapse = ", ")))
  taus <- x$tau %||% 0.5
  ord <- order(taus)  # draw the process left to right whatever the order of the fit's levels
  s$coefficients <- s$coefficients[ord]
  taus <- taus[ord]
  ref <- if (inherits(reference, "pgbb_reference")) reference$coefficients else reference
  if (!is.null(ref)) ref <- as.matrix(ref)
  process <- !is.null(x$tau) && length(taus) > 1L
  band <- sprintf("%g%% interval", 100 * level)
  old <- graphics::par(mfrow = grDevices::n2mfrow(length(terms)), mar = c(4, 4, 2.5, 1))
  on.exit(graphics::par(old))
  for (k in seq_along(terms)) {
    term <- terms[k]
    est <- vapply(s$coefficients, function(t) t[term, "estimate"], 0)
    lo <- vapply(s$coefficients, function(t) t[term, "lower"], 0)
    hi <- vapply(s$coefficients, function(t) t[term, "upper"], 0)
    has_ref <- !is.null(ref) && term %in% rownames(ref)
    r <- if (has_ref) ref[term, .reference_columns(ref, taus, ord)]
    yl <- range(lo, hi, r)
    if (process) {
      graphics::plot(taus, est, type = "n", ylim = yl, xlab = expression(tau), ylab = band,
                     main = term, ...)
      graphics::polygon(c(taus, rev(taus)), c(lo, rev(hi)), col = "grey85", border = NA)
      graphics::lines(taus, est, type = "b", pch = 19, cex = 0.7)
      if (has_ref) graphics::lines(taus, r, col = "red", lty = 2, type = "b", pch = 4)
    } else {
      at <- seq_along(taus)
      graphics::plot(at, est, type = "n", ylim = yl, xlim = c(0.5, length(at) + 0.5), xaxt = "n",
                     xlab = if (!is.null(x$tau)) paste("tau =", format(taus)) else "", ylab = band,
                     main = term, ...)
      graphics::arrows(at, lo, at, hi, angle = 90, code = 3, length = 0.05)
      graphics::points(at, est, pch = 19)
      if (has_ref) graphics::points(at, r, col = "red", pch = 4, cex = 1.3)
    }
    if (k == 1L)
      graphics::legend("topleft", bty = "n", cex = 0.75,
                       legend = c("posterior mean", band, if (!is.null(ref)) "non-private reference"),
                       pch = c(19, if (process) 15 else NA, if (!is.null(ref)) 4),
                       pt.cex = c(0.7, if (process) 1.5 else NA, if (!is.null(ref)) 1),
                       lty = c(0, if (process) 0 else 1, if (!is.null(ref)) 2),
                       col = c("black", if (process) "grey85" else "black", if (!is.null(ref)) "red"))
  }
  invisible(x)
}

# Columns of a reference coefficient matrix for the (sorted) levels `taus`: by
# their labels when these name the levels ("0.1", "tau= 0.1"), else in the
# fit's own level order `ord`.
.reference_columns <- function(ref, taus, ord) {
  lab <- suppressWarnings(as.numeric(.tau_label_value(colnames(ref) %||% character(0))))
  j <- match(signif(taus, 10), signif(lab, 10))
  if (anyNA(j)) ord[seq_along(taus)] else j
}
