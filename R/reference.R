#' Non-private reference fit
#'
#' The ordinary (non-private) estimator that a private fit targets, for
#' side-by-side tables: [quantreg::rq()] for `loss = "quantile"` (with its
#' standard errors from `summary.rq`, `se = "nid"`), or, when `n` exceeds
#' `large_n`, the convolution-smoothed estimator of [conquer::conquer()] with its
#' multiplier-bootstrap intervals (as the PGBB paper does for natality, SM S3.3)
#' or, with `bootstrap = 0`, sandwich intervals;
#' the Huber-with-scale M-estimator (Section 5.1) with sandwich standard errors;
#' the sample mean; or logistic regression by [stats::glm()].
#'
#' **Not private**: use it to validate, never to publish from confidential data.
#'
#' @inheritParams pgbb
#' @param x A model formula (the formula method), or a numeric matrix or data
#'   frame of covariates (the matrix method, with `y`; it fits
#'   `.response ~ <the columns of x>` as [pgbb()]'s matrix method does).
#' @param y,intercept The response vector of the matrix method and whether its
#'   model has an intercept.
#' @param tau Quantile level(s) for `loss = "quantile"`, in any order (each
#'   column is labelled by its level); giving `tau` with another loss is an error.
#' @param ... For the matrix method, the arguments of the formula method. For
#'   the formula method, `subset` and `na.action`, passed on to [stats::model.frame()]; any
#'   other argument, case weights and `offset()` terms are errors.
#' @param level Confidence level of the reported intervals.
#' @param huber_c,huber_kappa Huber constants (as in [pgbb_control()]); like
#'   `large_n` and `bootstrap` for the other losses, an error with another loss.
#' @param large_n Above this many records the quantile reference uses `conquer` (for a
#'   model with an intercept and a covariate, which conquer needs; quantreg otherwise).
#' @param bootstrap Multiplier-bootstrap replicates of the `conquer` reference
#'   (default 500, the paper's \eqn{B}); its intervals are the percentile ones.
#'   `0` gives Wald intervals from the estimator's sandwich covariance
#'   \eqn{H^{-1} \Sigma H^{-1} / n}, \eqn{H = n^{-1}\sum_i K_h(r_i) x_i x_i^\top}
#'   (Gaussian kernel at conquer's bandwidth \eqn{h}) and
#'   \eqn{\Sigma = n^{-1}\sum_i \{\Phi(-r_i/h) - \tau\}^2 x_i x_i^\top}: one pass
#'   over the data instead of \eqn{B} refits. At a million records conquer's
#'   bootstrap refits can take minutes each at some levels (measured on the
#'   resampled natality births: 15-22 s per replicate at n = 194,000 for
#'   tau = 0.3 and 0.5, 0.3 s for tau = 0.1 and 0.7).
#' @return An object of class `pgbb_reference` with `coefficients` (a vector, or a
#'   matrix terms x tau), `intervals` (a matrix, or an array `[term, limit, tau]`),
#'   `method` and `call`.
#' @examples
#' if (requireNamespace("quantreg", quietly = TRUE)) {
#'   set.seed(1)
#'   d <- data.frame(x = runif(300))
#'   d$y <- 1 + 2 * d$x + rnorm(300)
#'   pgbb_reference(y ~ x, d, loss = "quantile", tau = c(0.25, 0.5, 0.75))
#' }
#' @export
pgbb_reference <- function(x, ...) UseMethod("pgbb_reference")

#' @rdname pgbb_reference
#' @export
pgbb_reference.default <- function(x, y, ..., intercept = TRUE)
  .fit_matrix(pgbb_reference.formula, "pgbb_reference", match.call(), x, y, intercept, ...)

#' @rdname pgbb_reference
#' @export
pgbb_reference.formula <- function(formula, data, loss = c("quantile", "huber", "mean", "logistic"),
                                   tau = 0.5, level = 0.95, ..., huber_c = 1.345, huber_kappa = 0.71,
                                   large_n = 1e5, bootstrap = 500) {
  cl <- match.call()
  cl[[1L]] <- as.name("pgbb_reference")
  # `...` goes to model.frame() (subset, na.action) and nowhere else: a misspelt
  # setting, `weights` or `offset` would otherwise be ignored silently.
  .formula_dots_check(match.call(expand.dots = FALSE)$..., .formula_dots, "pgbb_reference",
                      names(formals(sys.function())))
  loss <- .match_arg(loss)
  .refuse_unread_settings(names(cl)[-1L], loss, "pgbb_reference", .reference_setting_readers)
  tau <- .check_tau_for_loss(tau, loss, missing(tau))
  .check_open_unit(level, "level")
  if (loss == "huber") {
    .check_positive(huber_c, "huber_c")
    .check_positive(huber_kappa, "huber_kappa")
  }
  frame <- .pgbb_model_frame(cl, formula, data, parent.frame(), drop_unused = TRUE)
  .check_model_for_loss(frame, loss, "pgbb_reference")
  X <- frame$X; y <- frame$y
  res <- switch(loss,
    quantile = .reference_quantile(X, y, tau, level, large_n, bootstrap,
                                   intercept = attr(frame$mt, "intercept") == 1L),
    huber = .reference_huber(X, y, level, huber_c, huber_kappa),
    mean = .reference_mean(y, level),
    logistic = .reference_logistic(X, y, level))
  structure(c(res, list(loss = loss, tau = tau, level = level,
                        n = length(y), call = .release_call(cl, "pgbb_reference"))),
            class = "pgbb_reference")
}

# The settings that only one of the references reads.
.reference_setting_readers <- list(huber_c = "huber", huber_kappa = "huber", large_n = "quantile",
                                   bootstrap = "quantile")

.reference_quantile <- function(X, y, tau, level, large_n, bootstrap = 500, intercept = TRUE) {
  p <- ncol(X)
  labs <- as.character(tau)
  coefs <- matrix(NA_real_, p, length(tau), dimnames = list(colnames(X), labs))
  ints <- array(NA_real_, c(p, 2L, length(tau)), list(colnames(X), .ci_colnames(level), labs))
  .check_count(bootstrap, "bootstrap", min = 0, max = 1e5)
  # conquer always fits an intercept and needs a covariate, so a model without
  # either goes to quantreg at any n (slower, exact).
  use_conquer <- length(y) > large_n && intercept && ncol(X) > 1L
  if (!use_conquer && bootstrap == 0)
    .arg_fail("bootstrap", "at least 1 (0, sandwich intervals, applies to the conquer reference above 'large_n')")
  pkg <- if (use_conquer) "conquer" else "quantreg"
  if (!requireNamespace(pkg, quietly = TRUE))
    stop(sprintf("the quantile reference needs the '%s' package.", pkg), call. = FALSE)
  z <- stats::qnorm(1 - (1 - level) / 2)
  for (k in seq_along(tau)) {
    if (use_conquer) {
      Xc <- X[, -1L, drop = FALSE]
      if (bootstrap > 0) {
        # conquer's ci = "bootstrap" is its multiplier bootstrap (SM S3.3 of the paper).
        f <- conquer::conquer(Xc, y, tau = tau[k], ci = "bootstrap", alpha = 1 - level, B = bootstrap)
        coefs[, k] <- f$coeff
        ints[, , k] <- f$perCI
      } else {
        f <- conquer::conquer(Xc, y, tau = tau[k])
        coefs[, k] <- f$coeff
        se <- .conquer_sandwich_se(X, y, coefs[, k], tau[k], f$bandwidth)
        ints[, , k] <- cbind(coefs[, k] - z * se, coefs[, k] + z * se)
      }
    } else {
      f <- withCallingHandlers(quantreg::rq(y ~ X - 1, tau = tau[k]), warning = function(w)
        if (grepl("nonunique", conditionMessage(w))) invokeRestart("muffleWarning"))
      coefs[, k] <- f$coefficients
      # quantreg's own error ("singular matrix in 'backsolve'") names nothing the
      # user can change; the level and the records in its tail are the cause.
      s <- tryCatch(suppressWarnings(summary(f, se = "nid")), error = function(e)
        .arg_fail("tau", sprintf(paste0("a level whose tail holds enough records for quantreg's 'nid' standard ",
                                        "errors (at tau = %s they failed: %s); use a level farther from 0 and 1, ",
                                        "more records, or a response that varies"), format(tau[k]), conditionMessage(e))))
      se <- s$coefficients[, 2L]
      ints[, , k] <- cbind(coefs[, k] - z * se, coefs[, k] + z * se)
    }
  }
  list(coefficients = coefs, intervals = ints,
       method = if (use_conquer && bootstrap > 0) "conquer (smoothed quantile regression, multiplier bootstrap)"
                else if (use_conquer) "conquer (smoothed quantile regression, sandwich standard errors)"
                else "quantreg::rq (Barrodale-Roberts), nid standard errors")
}

# Standard errors of the Gaussian-kernel smoothed quantile estimator from its
# sandwich covariance H^{-1} Sigma H^{-1} / n (see ?pgbb_reference).
.conquer_sandwich_se <- function(X, y, beta, tau, h) {
  r <- drop(y - X %*% beta)
  H <- crossprod(X * (stats::dnorm(r / h) / h), X)
  S <- crossprod(X * (stats::pnorm(-r / h) - tau))
  Hi <- solve(H)
  sqrt(diag(Hi %*% S %*% Hi))
}

# Huber regression with scale (Section 5.1): minimise mean of
# s rho_c((y - x'b) / s) + kappa s / 2 over (b, s > 0), a jointly convex problem.
# Solved on standardised covariates (centred when the model has an intercept),
# whose coefficients and covariance map back linearly: on the raw columns a
# covariate far from 0 (x in [1e6, 1e6 + 1]) made the Hessian numerically
# singular and every interval NA. (A non-private reference: the scaling may
# read the data.)
.reference_huber <- function(X, y, level, c, kappa) {
  p <- ncol(X)
  T <- .standardising_map(X)
  res <- .reference_huber_fit(X %*% T$inv, y, level, c, kappa)
  th <- res$theta
  M <- rbind(cbind(T$inv, 0), c(rep(0, p), 1))   # (b, s) = M (b', s)
  est <- drop(M %*% th)
  cv <- M %*% res$cov %*% t(M)
  if (anyNA(cv))
    warning(paste0("pgbb_reference(): the Huber fit's Hessian is singular (a covariate constant or aliased ",
                   "with others, or every residual outside [-c s, c s]), so its intervals are NA."), call. = FALSE)
  names(est) <- c(colnames(X), "scale")
  se <- sqrt(pmax(diag(cv), 0))
  zq <- stats::qnorm(1 - (1 - level) / 2)
  ints <- cbind(est - zq * se, est + zq * se)
  dimnames(ints) <- list(names(est), .ci_colnames(level))
  list(coefficients = est, intervals = ints, method = "Huber M-estimator with scale, sandwich SE")
}

# Z = X %*% inv with each non-constant column of X standardised, centred when a
# constant column (the intercept) is there to absorb the centre; b = inv %*% b'
# maps coefficients on Z back to X.
.standardising_map <- function(X) {
  p <- ncol(X)
  const <- apply(X, 2L, function(v) all(v == v[1L]))
  int <- which(const & X[1L, ] != 0)[1L]
  inv <- diag(p)
  for (j in which(!const)) {
    s <- stats::sd(X[, j])
    inv[j, j] <- 1 / s
    if (!is.na(int)) inv[int, j] <- -mean(X[, j]) / s / X[1L, int]
  }
  list(inv = inv)
}

.reference_huber_fit <- function(X, y, level, c, kappa) {
  p <- ncol(X)
  obj <- function(th) {
    b <- th[seq_len(p)]; s <- exp(th[p + 1L])
    z <- (y - X %*% b) / s
    rho <- ifelse(abs(z) <= c, z^2 / 2, c * abs(z) - c^2 / 2)
    mean(s * rho + kappa * s / 2)
  }
  grad <- function(th) {
    b <- th[seq_len(p)]; s <- exp(th[p + 1L])
    z <- drop((y - X %*% b) / s)
    psi <- pmax(pmin(z, c), -c)
    gs <- ifelse(abs(z) <= c, (kappa - z^2) / 2, (kappa - c^2) / 2)
    c(-colMeans(psi * X), mean(gs) * s)
  }
  start <- c(stats::lm.fit(X, y)$coefficients, log(stats::mad(y) + 1e-8))
  start[is.na(start)] <- 0
  opt <- stats::optim(start, obj, grad, method = "BFGS",
                      control = list(maxit = 1000, reltol = 1e-12))
  th <- c(opt$par[seq_len(p)], exp(opt$par[p + 1L]))
  names(th) <- c(colnames(X), "scale")
  # Sandwich covariance H^-1 V H^-1 / n of the M-estimator in (b, s).
  n <- length(y)
  b <- th[seq_len(p)]; s <- th[p + 1L]
  z <- drop((y - X %*% b) / s)
  inside <- abs(z) <= c
  psi <- pmax(pmin(z, c), -c)
  G <- cbind(-psi * X, ifelse(inside, (kappa - z^2) / 2, (kappa - c^2) / 2))
  V <- crossprod(G) / n
  Vv <- cbind(X, z) * sqrt(inside / s)
  H <- crossprod(Vv) / n
  cv <- tryCatch(solve(H, t(solve(H, V))) / n, error = function(e) matrix(NA_real_, p + 1L, p + 1L))
  list(theta = unname(th), cov = cv)
}

.reference_mean <- function(y, level) {
  n <- length(y)
  est <- c(mean = mean(y))
  h <- stats::qt(1 - (1 - level) / 2, df = max(n - 1, 1)) * stats::sd(y) / sqrt(n)
  ints <- matrix(c(est - h, est + h), 1L, dimnames = list("mean", .ci_colnames(level)))
  list(coefficients = est, intervals = ints, method = "sample mean, t interval")
}

.reference_logistic <- function(X, y, level) {
  f <- stats::glm.fit(X, y, family = stats::binomial())
  est <- f$coefficients
  se <- sqrt(diag(chol2inv(f$qr$qr[seq_len(ncol(X)), seq_len(ncol(X)), drop = FALSE])))
  se <- se[order(f$qr$pivot)]
  zq <- stats::qnorm(1 - (1 - level) / 2)
  ints <- cbind(est - zq * se, est + zq * se)
  dimnames(ints) <- list(names(est), .ci_colnames(level))
  list(coefficients = est, intervals = ints, method = "logistic regression (glm), Wald intervals")
}

#' @export
print.pgbb_reference <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("Non-private reference (%s), n = %d. NOT differentially private.\n", x$method, x$n))
  print(x$coefficients, digits = digits)
  invisible(x)
}

#' @export
coef.pgbb_reference <- function(object, ...) {
  .check_no_dots("coef", ...)
  cf <- object$coefficients
  # One level: a named vector, as every private fit's coef() (?private_posterior).
  if (is.matrix(cf) && ncol(cf) == 1L) return(stats::setNames(cf[, 1L], rownames(cf)))
  cf
}

#' @export
nobs.pgbb_reference <- function(object, ...) {
  .check_no_dots("nobs", ...)
  object$n
}

#' @export
confint.pgbb_reference <- function(object, parm, level = NULL, ...) {
  .check_no_dots("confint", ...)
  # The intervals were computed at the fit's level (some by a bootstrap): any
  # other level needs a new reference fit, not a silently different answer.
  if (!is.null(level) && (!is.numeric(level) || length(level) != 1L || is.na(level) ||
                          abs(level - object$level) > 1e-12))
    .arg_fail("level", sprintf(paste0("NULL or %s, the level this reference was fitted at; for another level ",
                                      "call pgbb_reference(..., level = )"), format(object$level)))
  ints <- object$intervals
  # One level: a terms x 2 matrix, as every private fit's confint().
  if (length(dim(ints)) == 3L && dim(ints)[3L] == 1L) ints <- matrix(ints, dim(ints)[1L], 2L, dimnames = dimnames(ints)[1:2])
  if (missing(parm)) return(ints)
  parm <- .select_terms(parm, dimnames(ints)[[1L]])
  if (length(dim(ints)) == 3L) ints[parm, , , drop = FALSE] else ints[parm, , drop = FALSE]
}

# The non-private reference in the table of the private fits (R/private-posterior.R):
# method, term, tau, estimate, sd (NA: the reference reports intervals only),
# lower, upper, at the level it was fitted at.
#' @export
as.data.frame.pgbb_reference <- function(x, row.names = NULL, optional = FALSE, ...) {
  .check_no_dots("as.data.frame", ...)
  cf <- as.matrix(x$coefficients)
  iv <- .as_limits_array(x$intervals)
  taus <- if (x$loss == "quantile") as.numeric(x$tau) else NA_real_
  out <- data.frame(method = paste("non-private", x$method), term = rep(rownames(cf), times = ncol(cf)),
                    tau = rep(rep_len(taus, ncol(cf)), each = nrow(cf)), estimate = as.vector(cf),
                    sd = NA_real_, lower = as.vector(iv[, 1L, ]), upper = as.vector(iv[, 2L, ]),
                    stringsAsFactors = FALSE)
  if (!is.null(row.names)) rownames(out) <- row.names
  out
}
