# Resampling for the one-shot confidence regions (CR paper, Section 4.1):
# m-out-of-n resamples with replacement (WR), subsamples without replacement
# (WOR), the multiplicity bound kappa_star (eq. 4, Proposition 4.1) and
# multiplicity-conditioned sampling (Algorithm 1).

#' Multiplicity bound for m-out-of-n resampling
#'
#' The threshold \eqn{\kappa_\star}{kappa*} of eq. (4) of the one-shot
#' confidence-region paper (Proposition 4.1):
#' \deqn{\kappa_\star = \min\{m, \lceil A / W_0(nA/(me)) \rceil - 1\},\quad A = \log(Bn/\rho),}{kappa* = min(m, ceiling(A / W0(n A / (m e))) - 1), A = log(B n / rho),}
#' with \eqn{W_0} the principal branch of the Lambert W function. With \eqn{B}
#' independent resamples of \eqn{m} indices drawn with replacement from \eqn{n},
#' the probability that some index appears more than \eqn{\kappa_\star} times in
#' some resample is at most \eqn{\rho}. It depends only on public sizes.
#'
#' @param n Number of records (at least 2).
#' @param m Resample size, `1 <= m <= n`.
#' @param B Number of resamples.
#' @param rho Failure probability in (0, 1); `1 / n` in the paper's experiments.
#' @return An integer \eqn{\kappa_\star \ge 1}.
#' @examples
#' n <- 2000
#' kappa_star(n, m = ceiling(n / log(n)), B = 500, rho = 1 / n)
#' @export
kappa_star <- function(n, m, B, rho) {
  .check_count(n, "n", min = 2, max = .Machine$integer.max)
  .check_count(m, "m", min = 1, max = n)
  .check_count(B, "B", min = 1, max = .Machine$integer.max)
  .check_open_unit(rho, "rho")
  cpp_kappa_star(n, m, B, rho)
}

#' Resample indices for subsampling and m-out-of-n resampling
#'
#' Draws \eqn{B} resamples of size \eqn{m} from records `1..n`: without replacement
#' (`mode = "wor"`, each a uniformly random \eqn{m}-subset) or with replacement
#' (`mode = "wr"`, \eqn{m} independent uniform indices). With `kappa`, WR sampling
#' is multiplicity-conditioned (Algorithm 1 of the one-shot confidence-region
#' paper): if any index appears more than `kappa` times in any resample the draw
#' fails and an error of class `"pgbb_multiplicity_failure"` is signalled, which the
#' caller can catch with `tryCatch(..., pgbb_multiplicity_failure = function(e) ...)`.
#' The failure event does not depend on any data, so a failed draw reveals nothing
#' and a fresh draw costs no privacy.
#'
#' Each resample \eqn{i} comes from its own stream (ChaCha nonce \eqn{i}) of
#' one key, so the indices do not depend on the order in which resamples are
#' generated. The key comes from the operating system, or from R's generator
#' under `options(pgbb.seeded_noise = TRUE)`, when `set.seed()` reproduces them.
#' The indices are drawn by ChaCha8, the 8-round variant of the ChaCha20 that
#' draws all privacy noise: the guarantees of [cr_gs()] and [cr_ss()] hold for
#' every fixed realisation of the indices (their proofs condition on it), so the
#' indices must be independent of the data, not secret.
#'
#' @param n Number of records.
#' @param m Resample size, `1 <= m <= n`.
#' @param B Number of resamples.
#' @param mode `"wr"` (with replacement) or `"wor"` (without replacement).
#' @param kappa `NULL` (no check) or the multiplicity threshold for WR sampling,
#'   typically [kappa_star()].
#' @return A `B` x `m` integer matrix of 1-based record indices, one resample per row.
#' @examples
#' set.seed(1)
#' resample_indices(10, 4, 3, "wor")
#' set.seed(1)
#' S <- resample_indices(1000, 100, 50, "wr", kappa = kappa_star(1000, 100, 50, 1e-3))
#' max(apply(S, 1, function(s) max(tabulate(s))))
#' @export
resample_indices <- function(n, m, B, mode = c("wr", "wor"), kappa = NULL) {
  .check_count(n, "n", min = 2, max = .Machine$integer.max)
  .check_count(m, "m", min = 1, max = n)
  .check_count(B, "B", min = 1, max = .Machine$integer.max)
  mode <- .match_arg(mode)
  if (!is.null(kappa)) {
    .check_count(kappa, "kappa", min = 1)
    if (mode == "wor") .arg_fail("kappa", "NULL for mode = \"wor\" (every multiplicity is 1)")
  }
  .check_memory(as.numeric(B) * m, "B * m")
  res <- cpp_resample_indices(as.integer(n), as.integer(m), as.integer(B), mode,
                              if (is.null(kappa)) 0L else as.integer(min(kappa, m)), .rng_seed())
  if (res$failed_at > 0L) .multiplicity_failure(res$failed_at, res$failed_mult, kappa)
  res$indices
}

# Signal Algorithm 1's bottom as a classed condition the caller can catch.
.multiplicity_failure <- function(resample, multiplicity, kappa, rho = NULL) {
  msg <- sprintf(paste0(
    "multiplicity-conditioned sampling failed (Algorithm 1): a record appears %d times ",
    "in resample %d, above the threshold kappa = %d%s. The failure does not depend on ",
    "the data, so nothing is revealed and a fresh draw costs no privacy."),
    as.integer(multiplicity), as.integer(resample), as.integer(kappa),
    if (is.null(rho)) "" else sprintf(" (probability at most rho = %.3g)", rho))
  stop(errorCondition(msg, class = "pgbb_multiplicity_failure", resample = as.integer(resample),
                      multiplicity = as.integer(multiplicity), kappa = as.integer(kappa)))
}
