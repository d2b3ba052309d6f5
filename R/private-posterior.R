# The "private_posterior" class: what every private fit in the package returns
# (NoisyGibbs and DP-Bootstrap here; PGBB fits and DP-SGLD are meant to share it),
# so one table can put all methods side by side.
#
# Contract (checked by .validate_private_posterior()):
#   draws     numeric matrix, one column per parameter (named); posterior draws, or
#             for DP-Bootstrap the released noisy bootstrap replicates.
#   interval  NULL, or a p x 2 matrix (rows = parameters, cols lower/upper) holding
#             the method's own reported interval at `level`.
#   level     confidence / credible level of `interval` (default 0.95).
#   estimate  optional named point estimate (else the column means of `draws`).
#   se        optional named standard errors (else the column sds of `draws`).
#   ledger    list: method, epsilon, delta, mu (the GDP parameter of the whole release,
#             NA if the method has none),
#             calibration, guarantee, noise_scale (named), sensitivity (named),
#             split (named fractions of the budget), neighbouring, and optionally
#             a data frame `releases` (one row per noisy release: release, dimension,
#             sensitivity, epsilon, delta, noise_sd, exact_delta = the delta the
#             release achieves at its epsilon by the exact Gaussian profile).
#             For float-safe releases also `released_sd` (named: the sd of the grid
#             noise actually added) and `noise_law` (one line for print()).
#   title     one-line description for print().
# Subclasses override confint() when their interval is not a quantile of draws.

.new_private_posterior <- function(draws, ledger, class, title, interval = NULL, level = 0.95,
                                   estimate = NULL, se = NULL, ...) {
  ledger$randomness <- ledger[["randomness"]] %||% .noise_source()
  obj <- structure(c(list(draws = draws, interval = interval, level = level, estimate = estimate,
                          se = se, ledger = ledger, title = title), list(...)),
                   class = c(class, "private_posterior"))
  .validate_private_posterior(obj)
}

.validate_private_posterior <- function(x) {
  d <- x$draws
  if (!is.matrix(d) || !is.numeric(d) || is.null(colnames(d)) || nrow(d) < 1L)
    stop("internal error: 'draws' must be a numeric matrix with named columns", call. = FALSE)
  if (!is.null(x$interval) && (!is.matrix(x$interval) || nrow(x$interval) != ncol(d) ||
                               ncol(x$interval) != 2L))
    stop("internal error: 'interval' must be a p x 2 matrix", call. = FALSE)
  need <- c("method", "epsilon", "delta", "calibration", "guarantee", "noise_scale", "sensitivity")
  miss <- setdiff(need, names(x$ledger))
  if (length(miss))
    stop(sprintf("internal error: the privacy ledger lacks %s", paste(miss, collapse = ", ")),
         call. = FALSE)
  x
}

.pp_terms <- function(object, parm) {
  terms <- colnames(object$draws)
  if (missing(parm) || is.null(parm)) return(terms)
  if (is.numeric(parm)) {
    if (any(parm < 1 | parm > length(terms) | parm != round(parm)))
      .arg_fail("parm", sprintf("column numbers between 1 and %d", length(terms)))
    return(terms[parm])
  }
  if (!is.character(parm) || !all(parm %in% terms))
    .arg_fail("parm", sprintf("a subset of %s", paste(sprintf("'%s'", terms), collapse = ", ")))
  parm
}

.ci_colnames <- function(level) {
  a <- (1 - level) / 2
  sprintf("%s %%", format(100 * c(a, 1 - a), trim = TRUE, digits = 3))
}

#' Summaries of private posterior fits
#'
#' Methods shared by every private fit of the package ([noisy_gibbs()],
#' [dp_bootstrap()], and later PGBB and DP-SGLD fits), so that fits can be put side
#' by side. All of them are post-processing of the private release and cost no
#' privacy.
#'
#' `coef()` is the point estimate (the mean of the draws unless the method has its
#' own estimate). `confint()` is the equal-tailed quantile interval of the draws
#' (the credible interval of a Bayesian method); methods with their own interval
#' (DP-Bootstrap) override it. `as.data.frame()` returns one row per parameter
#' with columns `method`, `term`, `estimate`, `sd`, `lower`, `upper`.
#'
#' @param object,x A fit inheriting from `private_posterior`.
#' @param parm Parameters (names or column numbers); all by default.
#' @param level Interval level (default: the level the fit was made at, 0.95).
#' @param digits Significant digits to print.
#' @param row.names,optional Ignored (for compatibility with [as.data.frame()]).
#' @param ... Unused.
#' @return `coef()`: named numeric vector. `confint()`: matrix with one row per
#'   parameter and columns of lower and upper limits. `as.data.frame()`: data frame.
#'   `summary()`: object of class `summary.private_posterior` (the table and the
#'   privacy ledger). `print()` returns its argument invisibly.
#' @examples
#' set.seed(1)
#' fit <- noisy_gibbs(rnorm(500, 1.5, 0.5), family = "gaussian", sigma = 0.5,
#'                    epsilon = 1, delta = 1e-3, bounds = c(-5, 5))
#' coef(fit)
#' confint(fit)
#' as.data.frame(fit)
#' summary(fit)
#' @name private_posterior
NULL

#' @rdname private_posterior
#' @export
coef.private_posterior <- function(object, ...) {
  if (!is.null(object$estimate)) return(object$estimate)
  colMeans(object$draws)
}

.pp_sd <- function(object) {
  if (!is.null(object$se)) return(object$se)
  if (nrow(object$draws) < 2L) return(stats::setNames(rep(NA_real_, ncol(object$draws)),
                                                      colnames(object$draws)))
  apply(object$draws, 2L, stats::sd)
}

#' @rdname private_posterior
#' @export
confint.private_posterior <- function(object, parm, level = NULL, ...) {
  if (is.null(level)) level <- object$level
  .check_open_unit(level, "level")
  terms <- .pp_terms(object, if (missing(parm)) NULL else parm)
  a <- (1 - level) / 2
  out <- t(apply(object$draws[, terms, drop = FALSE], 2L, stats::quantile,
                 probs = c(a, 1 - a), names = FALSE, type = 8))
  dimnames(out) <- list(terms, .ci_colnames(level))
  out
}

#' @rdname private_posterior
#' @export
as.data.frame.private_posterior <- function(x, row.names = NULL, optional = FALSE, ...,
                                            level = NULL) {
  ci <- stats::confint(x, level = level)
  est <- stats::coef(x)
  sdv <- .pp_sd(x)
  terms <- rownames(ci)
  data.frame(method = rep(x$ledger$method, length(terms)), term = terms,
             estimate = unname(est[terms]), sd = unname(sdv[terms]),
             lower = unname(ci[, 1L]), upper = unname(ci[, 2L]), stringsAsFactors = FALSE)
}

.format_ledger <- function(ledger, digits = 4L) {
  f <- function(v) format(signif(v, digits))
  lines <- c(sprintf("Privacy ledger: %s", ledger$method),
             sprintf("  budget: epsilon = %s, delta = %s%s (%s neighbouring data sets)",
                     f(ledger$epsilon), f(ledger$delta),
                     if (!is.null(ledger$mu) && is.finite(ledger$mu)) sprintf(", mu = %s (GDP)", f(ledger$mu)) else "",
                     if (is.null(ledger$neighbouring)) "replace-one" else ledger$neighbouring),
             sprintf("  calibration: %s", ledger$calibration),
             sprintf("  guarantee: %s", ledger$guarantee))
  if (!is.null(ledger$releases)) {
    r <- ledger$releases
    tab <- vapply(seq_len(nrow(r)), function(i)
      sprintf("    %-22s dim %-4d sensitivity %-11s epsilon %-9s delta %-10s noise sd %-10s%s",
              r$release[i], as.integer(r$dimension[i]), f(r$sensitivity[i]), f(r$epsilon[i]),
              f(r$delta[i]), f(r$noise_sd[i]),
              if (is.null(r$exact_delta)) "" else sprintf(" exact delta %s", f(r$exact_delta[i]))), "")
    lines <- c(lines, "  releases:", tab)
  } else {
    lines <- c(lines, sprintf("  sensitivity: %s; noise sd: %s",
                              paste(sprintf("%s = %s", names(ledger$sensitivity), f(ledger$sensitivity)), collapse = ", "),
                              paste(sprintf("%s = %s", names(ledger$noise_scale), f(ledger$noise_scale)), collapse = ", ")))
  }
  if (!is.null(ledger$note)) lines <- c(lines, paste0("  note: ", ledger$note))
  if (!is.null(ledger$noise_law)) lines <- c(lines, paste0("  noise: ", ledger$noise_law))
  c(lines, paste0("  ", .noise_line(ledger[["randomness"]])))
}

.pp_table <- function(x, level = NULL) {
  df <- as.data.frame(x, level = level)
  tab <- as.matrix(df[, c("estimate", "sd", "lower", "upper")])
  lev <- if (is.null(level)) x$level else level
  colnames(tab) <- c("estimate", "sd", .ci_colnames(lev))
  rownames(tab) <- df$term
  tab
}

#' @rdname private_posterior
#' @export
print.private_posterior <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(x$title, "\n", sep = "")
  cat(paste(.format_ledger(x$ledger), collapse = "\n"), "\n\n", sep = "")
  print(.pp_table(x), digits = digits)
  invisible(x)
}

#' @rdname private_posterior
#' @export
summary.private_posterior <- function(object, level = NULL, ...) {
  structure(list(title = object$title, table = .pp_table(object, level), ledger = object$ledger,
                 draws = nrow(object$draws), details = object$details),
            class = "summary.private_posterior")
}

#' @rdname private_posterior
#' @export
print.summary.private_posterior <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(x$title, "\n", sep = "")
  cat(sprintf("%d stored draws\n\n", x$draws))
  print(x$table, digits = digits)
  cat("\n", paste(.format_ledger(x$ledger), collapse = "\n"), "\n", sep = "")
  invisible(x)
}
