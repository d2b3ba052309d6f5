#' Exact (non-private) Bayesian bootstraps
#'
#' Reference posteriors that PGBB approximates. `bayesian_bootstrap()` draws
#' \eqn{w \sim \mathrm{Dirichlet}(1_n)} (Rubin 1981); `blocked_bootstrap()` splits the
#' records into `blocks` random blocks and draws \eqn{u \sim \mathrm{Dirichlet}(\gamma 1_S)},
#' with record weights \eqn{u_{\pi(i)}/n_{\pi(i)}} (PGBB paper, Section 2.2.2). Each
#' draw is the exact minimiser of the weighted loss. These functions are **not
#' differentially private**: they are references for tests, vignettes and
#' comparisons, and their output must not be published from confidential data.
#'
#' @param x Numeric vector or matrix of data (one row per record).
#' @param y Response (unused for `loss = "mean"`).
#' @param loss The loss whose weighted minimiser is drawn. Currently `"mean"`.
#' @param draws Number of posterior draws.
#' @param blocks Number of blocks `S`.
#' @param gamma Block Dirichlet concentration; defaults to [gamma_star()]`(n, blocks)`
#'   (for `blocks = 2`, where eq. (8) degenerates, it must be given).
#' @param tau Quantile level (for quantile losses).
#' @param partition Optional block ids (as from [block_partition()]); drawn afresh if `NULL`.
#' @param ... Reserved for loss-specific options.
#' @return An object of class `bootstrap_draws`: a list with `draws` (a `draws` x
#'   `p` matrix), `method`, `loss`, `n`, and for the blocked bootstrap `blocks`,
#'   `gamma` and `partition`. It has `print`, `coef`, `vcov` and `confint` methods.
#' @examples
#' set.seed(1)
#' x <- rnorm(200)
#' bb <- bayesian_bootstrap(x, draws = 500)
#' blk <- blocked_bootstrap(x, draws = 500, blocks = 10)
#' rbind(ordinary = sd(bb$draws), blocked = sd(blk$draws))
#' @export
blocked_bootstrap <- function(x, y = NULL, loss = "mean", draws = 1000, blocks = 20,
                              gamma = NULL, tau = NULL, partition = NULL, ...) {
  x <- .as_bootstrap_matrix(x, "x")
  n <- nrow(x)
  loss <- .match_arg(loss, "mean")
  .check_count(draws, "draws")
  .check_count(blocks, "blocks", min = 2, max = n)
  if (is.null(gamma)) gamma <- gamma_star(n, blocks)
  .check_positive(gamma, "gamma")
  .check_memory(draws * ncol(x), "draws * ncol(x)")
  if (is.null(partition)) {
    partition <- block_partition(n, blocks)
  } else {
    if (length(partition) != n) .arg_fail("partition", sprintf("of length %d (one id per record)", n))
    .check_blocks(partition, blocks, "partition")
  }
  out <- cpp_bootstrap_mean(x, as.integer(draws), TRUE, as.integer(partition),
                            as.integer(blocks), gamma, .rng_seed())
  colnames(out) <- colnames(x)
  .new_bootstrap_draws(out, "blocked", loss, n,
                       list(blocks = as.integer(blocks), gamma = gamma,
                            partition = as.integer(partition)))
}

#' @rdname blocked_bootstrap
#' @export
bayesian_bootstrap <- function(x, y = NULL, loss = "mean", draws = 1000, tau = NULL, ...) {
  x <- .as_bootstrap_matrix(x, "x")
  loss <- .match_arg(loss, "mean")
  .check_count(draws, "draws")
  .check_memory(draws * ncol(x), "draws * ncol(x)")
  out <- cpp_bootstrap_mean(x, as.integer(draws), FALSE, integer(0), 0L, 1, .rng_seed())
  colnames(out) <- colnames(x)
  .new_bootstrap_draws(out, "ordinary", loss, nrow(x), list())
}

.as_bootstrap_matrix <- function(x, arg) {
  if (is.data.frame(x)) x <- as.matrix(x)
  if (!is.numeric(x)) .arg_fail(arg, "a numeric vector or matrix")
  if (!is.matrix(x)) x <- matrix(x, ncol = 1L, dimnames = list(NULL, "mean"))
  if (nrow(x) == 0L) .arg_fail(arg, "non-empty (it has no rows)")
  .check_finite_numeric(x, arg)
  storage.mode(x) <- "double"
  if (is.null(colnames(x))) colnames(x) <- if (ncol(x) == 1L) "mean" else paste0("V", seq_len(ncol(x)))
  x
}

.new_bootstrap_draws <- function(draws, method, loss, n, extra) {
  structure(c(list(draws = draws, method = method, loss = loss, n = n), extra),
            class = "bootstrap_draws")
}

#' @export
print.bootstrap_draws <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("%s Bayesian bootstrap (non-private), loss '%s', n = %d, %d draws\n",
              if (x$method == "blocked") "Blocked" else "Ordinary", x$loss, x$n, nrow(x$draws)))
  if (x$method == "blocked")
    cat(sprintf("blocks S = %d, gamma = %.4g\n", x$blocks, x$gamma))
  tab <- cbind(mean = colMeans(x$draws), sd = apply(x$draws, 2L, stats::sd))
  print(tab, digits = digits)
  invisible(x)
}

#' @export
coef.bootstrap_draws <- function(object, ...) colMeans(object$draws)

#' @export
vcov.bootstrap_draws <- function(object, ...) stats::cov(object$draws)

#' @export
confint.bootstrap_draws <- function(object, parm, level = 0.95, ...) {
  .check_open_unit(level, "level")
  d <- object$draws
  if (!missing(parm)) d <- d[, parm, drop = FALSE]
  a <- (1 - level) / 2
  out <- t(apply(d, 2L, stats::quantile, probs = c(a, 1 - a), names = FALSE))
  colnames(out) <- sprintf("%s %%", format(100 * c(a, 1 - a), trim = TRUE, digits = 3))
  out
}
