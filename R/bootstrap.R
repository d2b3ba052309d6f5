#' Exact (non-private) Bayesian bootstraps
#'
#' Reference posteriors that PGBB approximates. `bayesian_bootstrap()` draws
#' \eqn{w \sim \mathrm{Dirichlet}(1_n)} (Rubin 1981); `blocked_bootstrap()` splits the
#' records into `blocks` random blocks and draws \eqn{u \sim \mathrm{Dirichlet}(\gamma 1_S)},
#' with record weights \eqn{u_{\pi(i)}/n_{\pi(i)}} (PGBB paper, Section 2.2.2). Each
#' draw is the exact minimiser of the weighted loss \eqn{\sum_i w_i l(\theta, x_i)}:
#' in closed form for the means (the weighted mean, for `"mean"` and
#' `"exponential"` alike), by damped Newton with a line search for the smooth
#' convex losses (`"huber"` with its scale, the smoothed `"quantile"` loss,
#' `"logistic"`, `"squared"`), and for the unsmoothed check loss
#' (`loss = "quantile", bandwidth = 0`) by `quantreg::rq.wfit()`. The losses are
#' those of [pgbb_fit()], without its gradient clipping (which only matters
#' where it binds). These functions are **not differentially private**: they are
#' references for tests, vignettes and comparisons, and their output must not
#' be published from confidential data.
#'
#' @param x Numeric vector or matrix of data (one row per record): the
#'   covariates of a regression loss, the variable(s) of a mean.
#' @param y Response (regression losses; `NULL` for the means).
#' @param loss One of `"mean"`, `"exponential"`, `"huber"`, `"quantile"`,
#'   `"logistic"`, `"squared"`.
#' @param draws Number of posterior draws.
#' @param blocks Number of blocks `S`.
#' @param gamma Block Dirichlet concentration; defaults to [gamma_star()]`(n, blocks)`
#'   (for `blocks = 2`, where eq. (8) degenerates, it must be given).
#' @param tau Quantile level(s) for `loss = "quantile"` (default 0.5). With
#'   several levels every draw uses the same weights at all levels.
#' @param partition Optional block ids (as from [block_partition()]); drawn afresh if `NULL`.
#' @param ... Unused; any argument given here is an error (a misspelt setting would
#'   otherwise be ignored).
#' @param u Optional `draws` x `blocks` matrix of block weights to use instead of
#'   fresh Dirichlet draws (e.g. the weights at which a generator was evaluated).
#' @param bandwidth,huber_c,huber_kappa Loss settings as in [pgbb_fit()]; each is an error
#'   with a loss that does not read it.
#' @param start Optional starting value of the Newton solver (default: zero
#'   coefficients and, for `"huber"`, scale one).
#' @return An object of class `bootstrap_draws`: a list with `draws` (a `draws` x
#'   `p` matrix, or a `draws` x `p` x levels array for several `tau`), `method`,
#'   `loss`, `n`, `tau`, the number of draws whose solver `failed` to converge,
#'   and for the blocked bootstrap `blocks`, `gamma` and `partition`. It has
#'   `print`, `coef`, `vcov` and `confint` methods.
#' @examples
#' set.seed(1)
#' x <- rnorm(200)
#' bb <- bayesian_bootstrap(x, draws = 500)
#' blk <- blocked_bootstrap(x, draws = 500, blocks = 10)
#' rbind(ordinary = sd(bb$draws), blocked = sd(blk$draws))
#' set.seed(2)
#' z <- cbind(1, runif(200))
#' yy <- drop(z %*% c(1, 2)) + rt(200, 3)
#' hub <- blocked_bootstrap(z, yy, loss = "huber", draws = 200, blocks = 10)
#' confint(hub)
#' @export
blocked_bootstrap <- function(x, y = NULL, loss = "mean", draws = 1000, blocks = 20,
                              gamma = NULL, tau = NULL, partition = NULL, ..., u = NULL,
                              bandwidth = 0.1, huber_c = 1.345, huber_kappa = 0.71,
                              start = NULL) {
  .formula_dots_check(match.call(expand.dots = FALSE)$..., character(0), "blocked_bootstrap",
                      names(formals(sys.function())))
  loss <- .match_boot_loss(loss)
  .refuse_unread_settings(names(match.call())[-1L], loss, "blocked_bootstrap", .boot_setting_readers)
  x <- if (loss %in% c("mean", "exponential")) .as_bootstrap_matrix(x, "x") else .as_design(x, loss)
  n <- nrow(x)
  .check_count(draws, "draws")
  .check_count(blocks, "blocks", min = 2, max = n)
  if (is.null(gamma)) gamma <- gamma_star(n, blocks)
  .check_positive(gamma, "gamma")
  .check_memory(draws * ncol(x), "draws * ncol(x)")
  if (is.null(partition)) {
    # A non-private bootstrap: its partition, like its weights, comes from R's
    # generator, so set.seed() reproduces it (block_partition() uses OS entropy);
    # `blocks` was checked against n above.
    partition <- cpp_block_partition(as.integer(n), as.integer(blocks), .post_seed())
  } else {
    if (length(partition) != n) .arg_fail("partition", sprintf("of length %d (one id per record)", n))
    .check_blocks(partition, blocks, "partition")
  }
  if (!is.null(u)) {
    if (!is.numeric(u) || !is.matrix(u) || nrow(u) != draws || ncol(u) != blocks || anyNA(u) ||
        any(u < 0) || any(abs(rowSums(u) - 1) > 1e-8))
      .arg_fail("u", sprintf("a %d x %d matrix of block weights (rows on the simplex)", draws, blocks))
  }
  extra <- list(blocks = as.integer(blocks), gamma = gamma, partition = as.integer(partition))
  if (loss %in% c("mean", "exponential") && is.null(u)) {
    if (!is.null(y)) .arg_fail("y", sprintf("NULL for loss '%s'", loss))
    if (!is.null(tau)) .arg_fail("tau", sprintf("NULL for loss '%s' (it has no level)", loss))
    if (loss == "exponential" && ncol(x) != 1L) .arg_fail("x", "a single column for loss 'exponential'")
    out <- cpp_bootstrap_mean(x, as.integer(draws), TRUE, as.integer(partition),
                              as.integer(blocks), gamma, .post_seed())
    colnames(out) <- colnames(x)
    return(.new_bootstrap_draws(out, "blocked", loss, n, extra))
  }
  if (is.null(u)) u <- cpp_rdirichlet(as.integer(draws), as.integer(blocks), gamma, .post_seed())
  res <- .exact_draws(x, y, loss, draws, tau, u = u, partition = as.integer(partition),
                      blocks = as.integer(blocks), gamma = gamma, bandwidth = bandwidth,
                      huber_c = huber_c, huber_kappa = huber_kappa, start = start)
  .new_bootstrap_draws(res$draws, "blocked", loss, n, c(extra, list(tau = res$tau, failed = res$failed)))
}

#' @rdname blocked_bootstrap
#' @export
bayesian_bootstrap <- function(x, y = NULL, loss = "mean", draws = 1000, tau = NULL, ...,
                               bandwidth = 0.1, huber_c = 1.345, huber_kappa = 0.71,
                               start = NULL) {
  .formula_dots_check(match.call(expand.dots = FALSE)$..., character(0), "bayesian_bootstrap",
                      names(formals(sys.function())))
  loss <- .match_boot_loss(loss)
  .refuse_unread_settings(names(match.call())[-1L], loss, "bayesian_bootstrap", .boot_setting_readers)
  x <- if (loss %in% c("mean", "exponential")) .as_bootstrap_matrix(x, "x") else .as_design(x, loss)
  .check_count(draws, "draws")
  .check_memory(draws * ncol(x), "draws * ncol(x)")
  if (loss %in% c("mean", "exponential")) {
    if (!is.null(y)) .arg_fail("y", sprintf("NULL for loss '%s'", loss))
    if (!is.null(tau)) .arg_fail("tau", sprintf("NULL for loss '%s' (it has no level)", loss))
    if (loss == "exponential" && ncol(x) != 1L) .arg_fail("x", "a single column for loss 'exponential'")
    out <- cpp_bootstrap_mean(x, as.integer(draws), FALSE, integer(0), 0L, 1, .post_seed())
    colnames(out) <- colnames(x)
    return(.new_bootstrap_draws(out, "ordinary", loss, nrow(x), list()))
  }
  res <- .exact_draws(x, y, loss, draws, tau, u = NULL, partition = integer(0), blocks = 0L,
                      gamma = 1, bandwidth = bandwidth, huber_c = huber_c,
                      huber_kappa = huber_kappa, start = start)
  .new_bootstrap_draws(res$draws, "ordinary", loss, nrow(x), list(tau = res$tau, failed = res$failed))
}

# The bootstraps' loss settings (the mean losses have closed forms, with no
# scale to set).
.boot_setting_readers <- list(huber_c = "huber", huber_kappa = "huber", bandwidth = "quantile")

.match_boot_loss <- function(loss) {
  ok <- c("mean", "exponential", "huber", "quantile", "logistic", "squared")
  if (!is.character(loss) || length(loss) != 1L || !(loss %in% ok))
    .arg_fail("loss", sprintf("one of %s", paste0("\"", ok, "\"", collapse = ", ")))
  loss
}

# Exact weighted minimisers, one per draw (and per level of tau). Blocked when
# u is given (weights u[b, pi(i)] / n_pi(i)), ordinary Dirichlet(1_n) otherwise.
.exact_draws <- function(x, y, loss, draws, tau, u, partition, blocks, gamma, bandwidth,
                         huber_c, huber_kappa, start) {
  n <- nrow(x)
  p <- ncol(x)
  if (loss == "exponential") {  # closed form: the weighted mean of x
    if (!is.null(y)) .arg_fail("y", "NULL for loss 'exponential'")
    W <- record_weights(u, partition)
    out <- W %*% x
    colnames(out) <- colnames(x)
    return(list(draws = out, tau = NULL, failed = 0L))
  }
  if (loss == "mean") {
    if (!is.null(y)) .arg_fail("y", "NULL for loss 'mean'")
    bm <- apply(x, 2L, function(col) tapply(col, partition, mean))
    out <- u %*% matrix(bm, nrow = blocks)
    colnames(out) <- colnames(x)
    return(list(draws = out, tau = NULL, failed = 0L))
  }
  y <- .check_response(y, n, loss)
  tau <- .check_tau(tau, loss)
  if (loss == "quantile") {
    if (!is.numeric(bandwidth) || length(bandwidth) != 1L || is.na(bandwidth) || bandwidth < 0)
      .arg_fail("bandwidth", "a single non-negative number (0: the check loss, solved by quantreg)")
  } else {
    .check_positive(bandwidth, "bandwidth")
  }
  .check_positive(huber_c, "huber_c")
  .check_positive(huber_kappa, "huber_kappa")
  d <- .loss_dim(loss, p)
  names <- .coef_names(loss, .design_names(x))
  if (is.null(start)) start <- c(rep(0, p), if (loss == "huber") 1)
  if (!is.numeric(start) || length(start) != d || anyNA(start) || (loss == "huber" && start[d] <= 0))
    .arg_fail("start", sprintf("a numeric vector of length %d%s", d,
                               if (loss == "huber") " with a positive last entry (the scale)" else ""))
  seed <- .post_seed()
  out <- array(NA_real_, c(draws, d, length(tau)), dimnames = list(NULL, names, .tau_labels(tau)))
  failed <- 0L
  for (i in seq_along(tau)) {
    if (loss == "quantile" && bandwidth == 0) {
      res <- .rq_draws(x, y, tau[i], draws, u, partition, seed)
    } else {
      spec <- .loss_spec(loss, p, huber_c, huber_kappa, max(bandwidth, 1e-300))
      # The same seed at every level: ordinary-bootstrap weights are then the
      # same at every level too.
      res <- cpp_exact_bootstrap(x, y, spec, partition, as.integer(blocks), gamma, as.integer(draws),
                                 tau[i], as.numeric(start),
                                 if (is.null(u)) matrix(0, 0, 0) else u, seed)
    }
    out[, , i] <- res$draws
    failed <- failed + res$failed
  }
  if (failed > 0)
    warning(sprintf("The exact solver did not converge for %d of %d draws.", failed, draws * length(tau)),
            call. = FALSE)
  if (length(tau) == 1L) out <- matrix(out[, , 1L], draws, d, dimnames = list(NULL, names))
  list(draws = out, tau = if (loss == "quantile") tau else NULL, failed = failed)
}

# The check loss (bandwidth 0) through quantreg's weighted fit.
.rq_draws <- function(x, y, tau, draws, u, partition, seed) {
  if (!requireNamespace("quantreg", quietly = TRUE))
    stop("The unsmoothed check loss (bandwidth = 0) needs the 'quantreg' package.", call. = FALSE)
  W <- if (is.null(u)) cpp_rdirichlet(as.integer(draws), length(y), 1, seed) else record_weights(u, partition)
  out <- matrix(NA_real_, draws, ncol(x))
  for (b in seq_len(draws))
    out[b, ] <- quantreg::rq.wfit(x, y, tau = tau, weights = W[b, ], method = "br")$coefficients
  list(draws = out, failed = 0L)
}

.as_bootstrap_matrix <- function(x, arg) {
  if (is.data.frame(x)) x <- as.matrix(x)
  if (!is.numeric(x)) .arg_fail(arg, "a numeric vector or matrix")
  if (!is.matrix(x)) x <- matrix(x, ncol = 1L, dimnames = list(NULL, "mean"))
  if (nrow(x) == 0L) .arg_fail(arg, "non-empty (it has no rows)")
  .check_finite_numeric(x, arg)
  storage.mode(x) <- "double"
  if (is.null(colnames(x))) colnames(x) <- if (ncol(x) == 1L) "mean" else paste0("V", seq_len(ncol(x)))
  .check_column_names(colnames(x), arg)
  x
}

.new_bootstrap_draws <- function(draws, method, loss, n, extra) {
  structure(c(list(draws = draws, method = method, loss = loss, n = n), extra),
            class = "bootstrap_draws")
}

#' @export
print.bootstrap_draws <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("%s Bayesian bootstrap (non-private), loss '%s', n = %d, %d draws\n",
              if (x$method == "blocked") "Blocked" else "Ordinary", x$loss, x$n, dim(x$draws)[1]))
  if (x$method == "blocked")
    cat(sprintf("blocks S = %d, gamma = %.4g\n", x$blocks, x$gamma))
  d <- x$draws
  if (length(dim(d)) == 3L) {
    for (i in seq_len(dim(d)[3])) {
      cat(dimnames(d)[[3]][i], "\n")
      di <- .level_slice(d, i)   # stays a matrix for a single coefficient
      print(cbind(mean = colMeans(di), sd = apply(di, 2L, stats::sd)), digits = digits)
    }
  } else {
    print(cbind(mean = colMeans(d), sd = apply(d, 2L, stats::sd)), digits = digits)
  }
  invisible(x)
}

#' @export
coef.bootstrap_draws <- function(object, ...) {
  .check_no_dots("coef", ...)
  .draws_mean(object$draws)
}

#' @export
vcov.bootstrap_draws <- function(object, ...) {
  .check_no_dots("vcov", ...)
  .draws_cov(object$draws)
}

#' @export
nobs.bootstrap_draws <- function(object, ...) {
  .check_no_dots("nobs", ...)
  object$n
}

#' @export
confint.bootstrap_draws <- function(object, parm, level = 0.95, ...) {
  .check_no_dots("confint", ...)
  .draws_interval(object$draws, if (missing(parm)) NULL else parm, level)
}

#' @export
as.matrix.bootstrap_draws <- function(x, ...) .flat_draws(x$draws)
