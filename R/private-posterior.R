# The "private_posterior" class: the one result contract of the package. Every
# private fit inherits it (pgbb, pgbb_fit, dp_sgld, noisy_gibbs, dp_bootstrap),
# so coef / confint / vcov / nobs / as.data.frame / as.matrix / tidy / glance /
# posterior::as_draws_* are written once, here, and one table can put all
# methods side by side. Every method is post-processing of the release (PGBB
# paper, Proposition 2.1): none touches the data or spends privacy.
#
# What a subclass stores (read through the accessors below, never directly):
#   draws     numeric matrix, one column per parameter (named), or an array
#             [draw, term, level]; `draw_array` holds the array when `draws` is
#             a flattened matrix (DP-SGLD). Posterior draws, or for DP-Bootstrap
#             the released noisy bootstrap replicates.
#   tau       the quantile levels of the level slices (NULL: no levels).
#   variability  optional table of the within / between / total spread of
#             pooled trainings (R/pooling.R), rows ordered term-fastest by level.
#   ess       optional terms x levels matrix of effective sample sizes (MCMC).
#   interval  NULL, or a p x 2 matrix (rows = parameters, cols lower/upper) holding
#             the method's own reported interval at `level`.
#   level     confidence / credible level of `interval` (default 0.95).
#   estimate  optional named point estimate (else the means of the draws).
#   range     optional terms x 2 matrix (columns lower, upper; rows named by
#             term) of public bounds the estimand lies in (the mean of a
#             response clipped to its bounds): the front end has moved the
#             draws and the estimate into it (.location_release()), and
#             normal-approximation limits are cut to it.
#   se        optional named standard errors (else the sds of the draws).
#   n         (or details$n) the number of records.
#   ledger    the privacy ledger; `ledger$method` names the method. For the
#             baselines (checked by .validate_private_posterior()): method,
#             epsilon, delta, mu (the GDP parameter of the whole release, NA if
#             the method has none), calibration, guarantee, noise_scale (named),
#             sensitivity (named), split (named fractions of the budget),
#             neighbouring, and optionally a data frame `releases` (one row per
#             noisy release: release, dimension, sensitivity, epsilon, delta,
#             noise_sd, exact_delta = the delta the release achieves at its
#             epsilon by the exact Gaussian profile). For float-safe releases also
#             `released_sd` (named: the sd of the grid noise actually added) and
#             `noise_law` (one line for print()).
#   title     one-line description for print() (the baselines).
# Subclasses override confint() when their interval is not a quantile of draws
# (DP-Bootstrap); every table below then uses the override.

.new_private_posterior <- function(draws, ledger, class, title, interval = NULL, level = 0.95,
                                   estimate = NULL, se = NULL, range = NULL, ...) {
  ledger$randomness <- ledger[["randomness"]] %||% .noise_source()
  obj <- structure(c(list(draws = draws, interval = interval, level = level, estimate = estimate,
                          se = se, range = range, ledger = ledger, title = title), list(...)),
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

## ---- Accessors: the draws as [draw, term, level], levels, labels ---------------

.pp_array <- function(x) .as_level_array(x$draw_array %||% x$draws)

.as_level_array <- function(d) {
  if (length(dim(d)) == 3L) return(d)
  array(d, c(nrow(d), ncol(d), 1L), list(NULL, colnames(d), NULL))
}

.pp_coefnames <- function(x) dimnames(.pp_array(x))[[2L]]

# The quantile level of every level slice (NA for a loss without levels).
.pp_tau <- function(x) {
  L <- dim(.pp_array(x))[3L]
  if (is.null(x$tau) || length(x$tau) != L) rep(NA_real_, L) else as.numeric(x$tau)
}

.pp_method <- function(x) x$ledger$method %||% class(x)[1L]

.pp_terms <- function(object, parm) .select_terms(parm, .pp_coefnames(object))

# `parm` of confint() and friends (names or column numbers) as term names.
.select_terms <- function(parm, terms) {
  if (missing(parm) || is.null(parm)) return(terms)
  if (is.numeric(parm)) {
    if (anyNA(parm) || any(parm < 1 | parm > length(terms) | parm != round(parm)))
      .arg_fail("parm", sprintf("column numbers between 1 and %d", length(terms)))
    return(terms[parm])
  }
  if (!is.character(parm) || anyNA(parm))
    .arg_fail("parm", sprintf("term names (a subset of %s) or their numbers", paste(sprintf("'%s'", terms), collapse = ", ")))
  bad <- setdiff(parm, terms)
  if (length(bad))
    .arg_fail("parm", sprintf("a subset of %s; %s is not a term", paste(sprintf("'%s'", terms), collapse = ", "),
                              paste(sprintf("'%s'", bad), collapse = ", ")))
  parm
}

# The interval columns as stats::confint() names them ("2.5 %", "97.5 %"; never
# in scientific notation, "0.05 %" at level 0.999).
.ci_colnames <- function(level) {
  a <- (1 - level) / 2
  .fmt_pct(c(a, 1 - a))
}

## ---- Summaries of draws, written once ---------------------------------------

# The release of a location parameter whose estimand lies in the public
# `bounds` (the mean of a response clipped to them), when the draws need not:
# the privacy noise, a parameter box wider than the bounds (.default_box()) or
# the t tails of pooled runs put draws beyond them. Each draw is moved to the
# nearest bound, and so is the estimate, the mean of the draws as released:
# post-processing both. The estimate is moved after averaging, not averaged
# after moving, because moving a point onto an interval never takes it further
# from any point of the interval, so the moved estimate is never further from
# the estimand than the unmoved mean; the mean of moved draws has no such
# guarantee and is pulled towards the middle of the range when most draws lie
# beyond one bound (dp_sgld(loss = "mean") for the share of smokers in the
# natality births, n = 2,000, eps = 1, 40 subsamples: 87% of the draws beyond
# [0, 1]; mean absolute error 0.035 moved after averaging, 0.388 averaged
# after moving). A type-7 sample quantile of the moved draws is the old one
# moved likewise, except where it interpolates between a moved and an unmoved
# draw, where it moves less than one gap between adjacent draws further in:
# an interval keeps every point of the bounds it held beyond that gap.
# Only the `terms` named are moved (all by default; a Huber fit's scale is
# not a location). Returns the moved draws (same shape), the estimate (named
# vector for one level, else terms x levels) and the `range` of the contract.
.location_release <- function(draws, bounds, terms = NULL) {
  a <- .as_level_array(draws)
  all_terms <- dimnames(a)[[2L]]
  terms <- terms %||% all_terms
  j <- match(terms, all_terms)
  est <- apply(a, c(2L, 3L), mean)
  est[j, ] <- pmin(pmax(est[j, ], bounds[1L]), bounds[2L])
  a[, j, ] <- pmin(pmax(a[, j, ], bounds[1L]), bounds[2L])
  list(draws = if (length(dim(draws)) == 3L) a else array(a, dim(draws), dimnames(draws)),
       estimate = if (ncol(est) == 1L) stats::setNames(est[, 1L], all_terms) else est,
       range = matrix(bounds, length(terms), 2L, byrow = TRUE, dimnames = list(terms, c("lower", "upper"))))
}

# The terms of a fit that estimate a location of the response, which lies
# within the response's public bounds because the data are clipped to them:
# the mean, and the intercept of an intercept-only quantile or Huber fit (a
# quantile, or the root of a monotone score, of data in [a, b] lies in
# [a, b]). NULL when there are none (a slope has no such range).
.location_terms <- function(design, loss) {
  if (loss == "mean") return("mean")
  if (loss %in% c("quantile", "huber") && isTRUE(design$intercept) && length(design$coefnames) == 1L)
    return("(Intercept)")
  NULL
}

# Limits (terms x 2 x levels) cut to a fit's `range`, if it has one.
.limits_within <- function(ci, range) {
  if (is.null(range)) return(ci)
  for (term in intersect(rownames(range), dimnames(ci)[[1L]]))
    ci[term, , ] <- pmin(pmax(ci[term, , ], range[term, 1L]), range[term, 2L])
  ci
}

# Summaries of a draws matrix (draws x parameters) or array (draws x
# parameters x levels); also used by the non-private bootstrap draws.
.draws_mean <- function(d) {
  if (length(dim(d)) == 3L) apply(d, c(2L, 3L), mean) else colMeans(d)
}

.draws_cov <- function(d) {
  d <- .as_level_array(d)
  out <- array(NA_real_, c(dim(d)[2], dim(d)[2], dim(d)[3]),
               dimnames = list(dimnames(d)[[2]], dimnames(d)[[2]], dimnames(d)[[3]]))
  for (i in seq_len(dim(d)[3])) out[, , i] <- stats::cov(.level_slice(d, i))
  if (dim(d)[3] != 1L) return(out)
  matrix(out[, , 1L], dim(d)[2], dimnames = dimnames(d)[c(2L, 2L)])
}

# One level as a draws x parameters matrix, also for a single parameter (d[, , i]
# alone would drop to a vector).
.level_slice <- function(d, i) matrix(d[, , i], nrow = dim(d)[1L], dimnames = dimnames(d)[1:2])

# The equal-tailed interval of draws (columns), the one definition every class
# uses: R's default sample quantile (type 7).
# With fewer draws than 1 / a, the a-quantile falls inside the range of the
# draws' extremes, so the interval is narrower than its level by construction
# (one draw gives a zero-width interval): warn, naming the remedy, which costs
# no privacy.
.equal_tailed <- function(m, level) {
  a <- (1 - level) / 2
  if (nrow(m) * a < 1)
    warning(warningCondition(
      sprintf(paste0("a %s interval needs at least %d draws to have one beyond each end; ",
                     "these come from %d, so they are too narrow. Take more draws (for a PGBB fit ",
                     "pgbb_control(draws = ) or posterior_draws(), which cost no privacy)."),
              .fmt_pct(level), ceiling(1 / a), nrow(m)),
      class = "pgbb_few_draws"))
  out <- t(apply(m, 2L, stats::quantile, probs = c(a, 1 - a), names = FALSE))
  dimnames(out) <- list(colnames(m), .ci_colnames(level))
  out
}

# Equal-tailed intervals of the terms `parm` (names or numbers; NULL: all): a
# parameters x 2 matrix, or parameters x 2 x levels.
.draws_interval <- function(d, parm, level) {
  .check_open_unit(level, "level")
  d <- .as_level_array(d)
  terms <- .select_terms(parm, dimnames(d)[[2L]])
  out <- array(NA_real_, c(length(terms), 2L, dim(d)[3]),
               dimnames = list(terms, .ci_colnames(level), dimnames(d)[[3]]))
  for (i in seq_len(dim(d)[3])) out[, , i] <- .equal_tailed(.level_slice(d, i)[, terms, drop = FALSE], level)
  .drop_level(out)
}

# An array [., ., level] (draws or limits) as its one level slice when it has
# one level, the array otherwise.
.drop_level <- function(a) if (dim(a)[3L] == 1L) .level_slice(a, 1L) else a

# A terms x 2 interval matrix (one level) or array, as terms x 2 x levels.
.as_limits_array <- function(ci) {
  if (length(dim(ci)) == 3L) return(ci)
  array(ci, c(nrow(ci), 2L, 1L), list(rownames(ci), colnames(ci), NULL))
}

# draws x (term, level) columns named "term" (one level) or "term [label]".
.flat_draws <- function(d) {
  d <- .as_level_array(d)
  labs <- dimnames(d)[[3L]]
  terms <- dimnames(d)[[2L]]
  m <- matrix(d, nrow = dim(d)[1L])
  colnames(m) <- if (dim(d)[3L] == 1L) terms else
    sprintf("%s [%s]", rep(terms, times = dim(d)[3L]),
            rep(labs %||% paste0("level", seq_len(dim(d)[3L])), each = length(terms)))
  m
}

## ---- The one table: method, term, tau, estimate, sd, lower, upper -------------

# Long table of a fit at `level`: one row per term and level. `type = "normal"`
# gives estimate +- a normal (one training) or t (pooled trainings, on the
# Satterthwaite degrees of freedom) quantile times the total sd. Pooled
# trainings add their `within`, `between` and `total` spread; MCMC fits their
# effective sample size `ess`.
.pp_frame <- function(x, level, type = "quantile") {
  a3 <- .pp_array(x)
  terms <- .pp_coefnames(x)
  p <- length(terms)
  L <- dim(a3)[3L]
  est <- matrix(stats::coef(x), p, L)
  sdv <- matrix(.pp_sd(x), p, L)
  ci <- .as_limits_array(stats::confint(x, level = level))
  v <- .pp_variability(x, p, L)
  if (type == "normal") {
    q <- if (is.null(v)) stats::qnorm(1 - (1 - level) / 2) else stats::qt(1 - (1 - level) / 2, df = v$df)
    s <- if (is.null(v)) sdv else v$total
    ci[, 1L, ] <- est - q * s
    ci[, 2L, ] <- est + q * s
    ci <- .limits_within(ci, x$range)
  }
  out <- data.frame(method = .pp_method(x), term = rep(terms, times = L),
                    tau = rep(.pp_tau(x), each = p), estimate = as.vector(est), sd = as.vector(sdv),
                    lower = as.vector(ci[, 1L, ]), upper = as.vector(ci[, 2L, ]), stringsAsFactors = FALSE)
  if (!is.null(v)) {
    out$within <- as.vector(v$within); out$between <- as.vector(v$between); out$total <- as.vector(v$total)
  }
  if (is.matrix(x$ess) && length(x$ess) == p * L) out$ess <- as.vector(x$ess)
  rownames(out) <- NULL
  out
}

.pp_sd <- function(object) {
  if (!is.null(object$se)) return(object$se)
  a3 <- .pp_array(object)
  if (dim(a3)[1L] < 2L) return(array(NA_real_, dim(a3)[2:3]))
  apply(a3, c(2L, 3L), stats::sd)
}

# The variability of pooled trainings as terms x levels matrices (NULL for
# one training or a method without runs).
.pp_variability <- function(x, p, L) {
  v <- x$variability
  if (is.null(v) || v$runs[1L] < 2L || nrow(v) != p * L) return(NULL)
  lapply(v[c("within", "between", "total", "df")], matrix, p, L)
}

## ---- Methods shared by every private fit --------------------------------------

#' Summaries of private fits: one contract for every method
#'
#' Methods shared by every private fit of the package ([pgbb()], [pgbb_fit()],
#' [dp_sgld()], [noisy_gibbs()], [dp_bootstrap()]), so that fits can be put side
#' by side. All of them are post-processing of the private release and cost no
#' privacy.
#'
#' `coef()` is the point estimate (the mean of the draws unless the method has its
#' own estimate): a named vector, or a terms x levels matrix for a fit at several
#' quantile levels. `confint()` is the equal-tailed quantile interval of the draws
#' (the credible interval of a Bayesian method; R's default sample quantile);
#' methods with their own interval (DP-Bootstrap) override it. It is a terms x 2
#' matrix, or a terms x 2 x levels array. `vcov()` is the covariance of the draws
#' (terms x terms, or terms x terms x levels). It is not always the variance the
#' interval is built on: pooled PGBB draws carry the t reference's tails, so their
#' variance exceeds `total^2 = W + B/R` by about `df / (df - 2)`, and DP-Bootstrap's
#' replicates carry the output noise that its interval deconvolves or adds
#' separately; `std.error` of `tidy()` and `total` of `as.data.frame()` are the
#' intervals' own scale (`sd` is the draws' sd, which for pooled runs has the t
#' tails' variance and, at 2 or fewer degrees of freedom, none). For a one-training PGBB fit (`runs = 1`), `confint()` and
#' `tidy()` warn that the intervals leave out the error of the privacy noise.
#' `as.data.frame()` returns one row
#' per term and level with columns `method`, `term`, `tau` (`NA` without
#' levels), `estimate`, `sd`, `lower`, `upper`, plus `within`, `between` and
#' `total` for pooled PGBB trainings and `ess` for MCMC samplers. `as.matrix()`
#' is the draws, one column per term (and level: `"term [level]"`).
#' `tidy()` and `glance()` follow the `broom` conventions (for pooled trainings
#' `std.error` is the total sd `sqrt(W + B/R)` the intervals are built on), and
#' `posterior::as_draws_matrix()` / `as_draws_array()` hand the draws to the
#' `posterior` package (one chain).
#'
#' @param object,x A fit inheriting from `private_posterior`.
#' @param parm Parameters (names or column numbers); all by default.
#' @param level Interval level (default: the level the fit was made at, 0.95).
#' @param digits Significant digits to print.
#' @param row.names,optional As in [base::as.data.frame()].
#' @param conf.int,conf.level For `tidy()`: add the interval at this level
#'   (default: the level the fit was made at, 0.95).
#' @param ... Unused.
#' @return `coef()`: named numeric vector or matrix. `confint()`: matrix or array
#'   of lower and upper limits. `as.data.frame()`, `tidy()`, `glance()`: data
#'   frames. `summary()`: object of class `summary.private_posterior` (the table
#'   and the privacy ledger). `print()` returns its argument invisibly.
#' @examples
#' set.seed(1)
#' fit <- noisy_gibbs(rnorm(500, 1.5, 0.5), loss = "gaussian", sigma = 0.5,
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
  .check_no_dots("coef", ...)
  if (!is.null(object$estimate)) return(object$estimate)
  m <- .draws_mean(.pp_array(object))
  if (ncol(m) == 1L) return(stats::setNames(m[, 1L], rownames(m)))
  m
}

#' @rdname private_posterior
#' @export
confint.private_posterior <- function(object, parm, level = NULL, ...) {
  .check_no_dots("confint", ...)
  if (is.null(level)) level <- object$level %||% 0.95
  .check_open_unit(level, "level")
  .warn_one_training(object)
  .draws_interval(.pp_array(object), if (missing(parm)) NULL else parm, level)
}

#' @rdname private_posterior
#' @export
vcov.private_posterior <- function(object, ...) {
  .check_no_dots("vcov", ...)
  v <- object$variability
  heavy <- if (is.null(v)) logical(0) else !is.na(v$df) & v$df <= 2
  if (any(heavy))
    warning(sprintf(paste0("vcov(): the pooled draws of %s have t tails on at most 2 degrees of freedom (few ",
                           "trainings, between-run spread dominating), so their variance is infinite and this ",
                           "covariance estimate is meaningless; use confint(), or more runs."),
                    paste(unique(v$term[heavy]), collapse = ", ")), call. = FALSE)
  .draws_cov(.pp_array(object))
}

#' @rdname private_posterior
#' @export
nobs.private_posterior <- function(object, ...) {
  .check_no_dots("nobs", ...)
  object$n %||% object$details$n
}

# A fit keeps no records (it is a release), so there is nothing to compute
# fitted values or residuals from; say how to get them instead of returning NULL.
#' @rdname private_posterior
#' @export
fitted.private_posterior <- function(object, ...) .no_records_stop("fitted")

#' @rdname private_posterior
#' @export
residuals.private_posterior <- function(object, ...) .no_records_stop("residuals")

.no_records_stop <- function(what) {
  stop(sprintf(paste0("%s() is not available for a private fit: the fit stores no records (it is a private ",
                      "release). Use predict(fit, newdata = <your data>) for fitted values%s."), what,
               if (what == "residuals") ", and subtract them from the response yourself" else ""),
       call. = FALSE)
}

#' @rdname private_posterior
#' @export
as.data.frame.private_posterior <- function(x, row.names = NULL, optional = FALSE, ...,
                                            level = NULL) {
  .check_no_dots("as.data.frame", ...)
  if (is.null(level)) level <- x$level %||% 0.95
  .check_open_unit(level, "level")
  out <- .pp_frame(x, level)
  if (!is.null(row.names)) rownames(out) <- row.names
  out
}

#' @rdname private_posterior
#' @export
as.matrix.private_posterior <- function(x, ...) {
  .check_no_dots("as.matrix", ...)
  .flat_draws(.pp_array(x))
}

#' @rdname private_posterior
#' @exportS3Method generics::tidy
tidy.private_posterior <- function(x, conf.int = TRUE, conf.level = NULL, ...) {
  .check_no_dots("tidy", ...)
  if (!is.logical(conf.int) || length(conf.int) != 1L || is.na(conf.int)) .arg_fail("conf.int", "TRUE or FALSE")
  if (is.null(conf.level)) conf.level <- x$level %||% 0.95
  .check_open_unit(conf.level, "conf.level")
  .warn_one_training(x)
  s <- .pp_frame(x, conf.level)
  out <- data.frame(term = s$term, tau = s$tau, estimate = s$estimate,
                    std.error = if (is.null(s$total)) s$sd else s$total, stringsAsFactors = FALSE)
  if (conf.int) { out$conf.low <- s$lower; out$conf.high <- s$upper }
  out
}

#' @rdname private_posterior
#' @exportS3Method generics::glance
glance.private_posterior <- function(x, ...) {
  .check_no_dots("glance", ...)
  l <- x$ledger
  data.frame(method = .pp_method(x), nobs = as.integer(stats::nobs(x) %||% NA_integer_),
             epsilon = as.numeric(l$epsilon %||% NA_real_), delta = as.numeric(l$delta %||% NA_real_),
             runs = as.integer(l$runs %||% 1L), draws = dim(.pp_array(x))[1L],
             levels = dim(.pp_array(x))[3L], stringsAsFactors = FALSE)
}

#' @rdname private_posterior
#' @exportS3Method posterior::as_draws_matrix
as_draws_matrix.private_posterior <- function(x, ...) {
  .check_no_dots("as_draws_matrix", ...)
  posterior::as_draws_matrix(as.matrix(x))
}

#' @rdname private_posterior
#' @exportS3Method posterior::as_draws_array
as_draws_array.private_posterior <- function(x, ...) {
  .check_no_dots("as_draws_array", ...)
  m <- as.matrix(x)
  posterior::as_draws_array(array(m, c(nrow(m), 1L, ncol(m)), list(NULL, NULL, colnames(m))))
}

#' @rdname posterior_draws
#' @export
posterior_draws.private_posterior <- function(fit, n = NULL, tau = NULL, ...) {
  .check_no_dots("posterior_draws", ...)
  a3 <- .pp_array(fit)
  if (!is.null(n)) {
    .check_count(n, "n", max = dim(a3)[1L])
    a3 <- a3[seq_len(n), , , drop = FALSE]
  }
  if (!is.null(tau)) {
    k <- match(signif(as.numeric(tau), 10), signif(.pp_tau(fit), 10))
    if (!is.numeric(tau) || anyNA(k)) .arg_fail("tau", "NULL or levels the fit was made at")
    a3 <- a3[, , k, drop = FALSE]
  }
  .drop_level(a3)
}

# A non-private fit (epsilon = Inf) has no budget, and a gradient it does not
# clip has no sensitivity: the ledger says so instead of printing the unused
# delta and an infinite sensitivity as if they were a guarantee's terms.
.format_ledger <- function(ledger, digits = 4L) {
  f <- function(v) format(signif(v, digits))
  f_sens <- function(v) ifelse(is.infinite(v), "none (not clipped)", f(v))
  budget <- if (!isTRUE(is.finite(ledger$epsilon))) "  budget: none (epsilon = Inf: a non-private fit)" else
    sprintf("  budget: epsilon = %s, delta = %s%s (%s neighbouring data sets)",
            f(ledger$epsilon), f(ledger$delta),
            if (!is.null(ledger$mu) && is.finite(ledger$mu)) sprintf(", mu = %s (GDP)", f(ledger$mu)) else "",
            if (is.null(ledger$neighbouring)) "replace-one" else ledger$neighbouring)
  lines <- c(sprintf("Privacy ledger: %s", ledger$method), budget,
             sprintf("  calibration: %s", ledger$calibration),
             sprintf("  guarantee: %s", ledger$guarantee))
  if (!is.null(ledger$releases)) {
    r <- ledger$releases
    tab <- vapply(seq_len(nrow(r)), function(i)
      sprintf("    %-22s dim %-4d sensitivity %-11s epsilon %-9s delta %-10s noise sd %-10s%s",
              r$release[i], as.integer(r$dimension[i]), f_sens(r$sensitivity[i]), f(r$epsilon[i]),
              f(r$delta[i]), f(r$noise_sd[i]),
              if (is.null(r$exact_delta)) "" else sprintf(" exact delta %s", f(r$exact_delta[i]))), "")
    lines <- c(lines, "  releases:", tab)
  } else {
    lines <- c(lines, sprintf("  sensitivity: %s; noise sd: %s",
                              paste(sprintf("%s = %s", names(ledger$sensitivity), f_sens(ledger$sensitivity)), collapse = ", "),
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
  .check_no_dots("summary", ...)
  if (!is.null(level)) .check_open_unit(level, "level")
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
