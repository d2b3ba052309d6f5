#' Block Dirichlet concentration gamma*
#'
#' The concentration of eq. (8) of the PGBB paper,
#' \deqn{\gamma^\star(n, S) = \frac{S(n+1) - 2n}{S(n-1)},}{gamma*(n, S) = (S (n + 1) - 2 n) / (S (n - 1)),}
#' for which blocked Bayesian-bootstrap weights \eqn{u \sim \mathrm{Dirichlet}(\gamma 1_S)}
#' give the weighted mean the same posterior variance as the ordinary Bayesian
#' bootstrap (Proposition 4.1). It depends only on the public `n` and `blocks`.
#'
#' @param n Number of records (public).
#' @param blocks Number of blocks `S`, with `3 <= blocks <= n` (eq. 8 needs `S >= 3`; for `S = 2` give `gamma` yourself).
#' @return A positive number.
#' @examples
#' gamma_star(10000, 20)
#' @export
gamma_star <- function(n, blocks) {
  .check_count(blocks, "blocks", min = 3)
  .check_count(n, "n", min = blocks)
  (blocks * (n + 1) - 2 * n) / (blocks * (n - 1))
}

#' Uniform random partition into blocks
#'
#' Splits records `1..n` into `blocks` groups by a uniformly random permutation
#' \eqn{\tau} and \eqn{\pi(i) = \lceil \tau(i) S / n \rceil}{pi(i) = ceiling(tau(i) S / n)}
#' (PGBB paper, Section 2.2.2). The partition never looks at the data. When `blocks`
#' does not divide `n`, block sizes are `floor(n / blocks)` or `ceiling(n / blocks)`;
#' the privacy accountant then uses the smallest size `floor(n / blocks)`, which
#' bounds every record's weight from above and so keeps the guarantee valid.
#'
#' The partition is part of a private fit's randomness, so it is drawn like the
#' privacy noise: from the operating system's entropy, unaffected by
#' [set.seed()], unless reproducible runs are opted into with
#' `options(pgbb.seeded_noise = TRUE)` (see [pgbb_privacy], 'Randomness').
#'
#' @param n Number of records.
#' @param blocks Number of blocks `S`, `2 <= blocks <= n`.
#' @return Integer vector of length `n` with block ids in `1..blocks`.
#' @examples
#' table(block_partition(10, 3))
#' @export
block_partition <- function(n, blocks) {
  .check_count(blocks, "blocks", min = 2)
  .check_count(n, "n", min = blocks, max = .Machine$integer.max)
  cpp_block_partition(as.integer(n), as.integer(blocks), .rng_seed())
}

#' Random block weights
#'
#' Draws `k` vectors \eqn{u \sim \mathrm{Dirichlet}(\gamma 1_S)}, the block weights of the
#' blocked Bayesian bootstrap (PGBB paper, Section 2.2.2). Drawn from the
#' operating system's entropy, as a private fit draws its weights;
#' `options(pgbb.seeded_noise = TRUE)` makes them follow [set.seed()].
#'
#' @param k Number of draws.
#' @param blocks Number of blocks `S`.
#' @param gamma Dirichlet concentration (for example [gamma_star()]).
#' @return A `k` x `blocks` matrix whose rows sum to one.
#' @examples
#' rowSums(rblock_weights(3, 5, gamma_star(100, 5)))
#' @export
rblock_weights <- function(k, blocks, gamma) {
  .check_count(k, "k", min = 1)
  .check_count(blocks, "blocks", min = 2)
  .check_positive(gamma, "gamma")
  .check_memory(k * blocks, "k * blocks")
  cpp_rdirichlet(as.integer(k), as.integer(blocks), gamma, .rng_seed())
}

#' Per-record weights from block weights
#'
#' \eqn{\bar w_i = u_{\pi(i)} / n_{\pi(i)}}{w_i = u[pi(i)] / n[pi(i)]}, where
#' \eqn{n_s} is the size of block \eqn{s} (PGBB paper, Section 2.2.2).
#'
#' @param u Block weights: a vector of length `S` (or a matrix with one row per draw).
#' @param blocks Block ids in `1..S`, as returned by [block_partition()].
#' @return A vector of length `length(blocks)` (or a matrix with one row per draw).
#' @examples
#' set.seed(1)
#' b <- block_partition(6, 3)
#' record_weights(c(0.5, 0.3, 0.2), b)
#' @export
record_weights <- function(u, blocks) {
  if (!is.numeric(u) || anyNA(u) || any(u < 0) || any(!is.finite(u)))
    .arg_fail("u", "a vector or matrix of non-negative finite block weights")
  S <- if (is.matrix(u)) ncol(u) else length(u)
  .check_blocks(blocks, S)
  if (is.matrix(u)) {
    out <- t(apply(u, 1L, cpp_record_weights, blocks = as.integer(blocks)))
    if (ncol(u) > 0 && length(blocks) == 1L) out <- t(out)
    return(out)
  }
  cpp_record_weights(as.numeric(u), as.integer(blocks))
}

.check_blocks <- function(blocks, S, arg = "blocks") {
  if (!is.numeric(blocks) || length(blocks) == 0L || anyNA(blocks) ||
      any(blocks != round(blocks)) || any(blocks < 1) || any(blocks > S))
    .arg_fail(arg, sprintf("a vector of block ids in 1..%d", S))
  if (length(unique(blocks)) != S)
    .arg_fail(arg, sprintf("a partition in which every one of the %d blocks is non-empty", S))
  invisible(blocks)
}

# Refuse requests whose result alone would not fit comfortably in memory, before
# any C++ allocation is attempted. The cap, 2^28 values (2 GiB as doubles), is far
# above every documented use (the largest defaults, e.g. 2000 posterior draws of a
# few hundred parameters or B * m resample indices for B = 500, need well under
# 1e8) yet keeps one result, plus the working copies R makes of it, within the
# memory of an ordinary workstation; the former cap, 2^31 - 1 doubles (~17 GB),
# let a typo exhaust the machine before the error came.
.check_memory <- function(cells, what, limit = 2^28) {
  if (cells > limit)
    stop(sprintf(paste0("'%s' asks for %.3g values, more than this function allocates ",
                        "(at most %.3g values, %s as doubles); reduce it."),
                 what, cells, limit, format(structure(8 * limit, class = "object_size"),
                                            units = "auto", standard = "IEC")),
         call. = FALSE)
  invisible(TRUE)
}
