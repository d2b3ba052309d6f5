#' Privacy model of pgbb: adjacency, guarantees, and what is not protected
#'
#' @description
#' Every private function in pgbb releases output that is differentially private
#' with respect to **replace-one adjacency**: two data sets are neighbours if they
#' have the same number of records `n` and differ in exactly one record (any of
#' its values may change arbitrarily). The number of records `n` is treated as
#' public. This is the adjacency of both papers (PGBB paper, Definition 2.1; CR
#' paper, Section 3) and of Birrell et al. (2024) for Poisson-subsampled
#' Gaussian noise. Under add/remove-one adjacency (where `n` itself is private)
#' the guarantees differ and are not what pgbb reports.
#'
#' @section What is released and what each guarantee covers:
#' \describe{
#'   \item{PGBB ([pgbb()], [pgbb_fit()])}{The whole sequence of generator
#'     parameters is \eqn{(\epsilon, \delta)}-DP by the Dirichlet-aware Renyi
#'     accountant ([pgbb_epsilon()], Proposition 2.2 and SM S2.2), so the trained
#'     generator, every posterior draw from it, and every summary of those draws
#'     are private by post-processing (Proposition 2.1). Drawing more posterior
#'     samples costs no privacy. The guarantee holds for any fixed block
#'     partition, and the partition, the Poisson subsamples, the Dirichlet weights
#'     and the Gaussian noise are all drawn independently of the data.}
#'   \item{One-shot confidence regions (`cr_gs()`, `cr_ss()`)}{The released
#'     centre and radius are \eqn{\mu}-GDP (CR-GS) or \eqn{(\mu, \delta)}-GDP
#'     (CR-SS with propose-test-release), reported also as \eqn{(\epsilon, \delta)}.}
#'   \item{Baselines}{Each baseline reports its own ledger, calibrated by the
#'     same machinery (Renyi accounting for DP-SGLD, the Gaussian mechanism for
#'     NoisyGibbs, Renyi accounting at the given number of replicates for
#'     DP-Bootstrap, or with `calibration = "asymptotic"` the paper's Gaussian-DP limit).}
#'   \item{Non-private references}{[bayesian_bootstrap()], [blocked_bootstrap()]
#'     and the non-private reference fits are **not private**; they exist for
#'     validation and must not be published from confidential data.}
#' }
#'
#' @section Public inputs:
#' Sensitivities, clipping bounds, covariate and response ranges, the parameter
#' box and every tuning setting are public inputs that the analyst declares
#' without looking at the confidential data. pgbb never derives any of them from
#' the data: values outside declared bounds are clipped (the number of clipped
#' values is reported to the analyst in a message and is not part of the
#' release); per-record gradients are additionally clipped to their declared
#' bound. In a joint quantile fit each draw's level is drawn independently of
#' the data, and a draw at level \eqn{\tau} is clipped at its own public bound
#' \eqn{r_\tau C} and noised with \eqn{r_\tau \sigma}, so every release has
#' the bound-to-noise ratio \eqn{C / \sigma} the accountant composes
#' (`level_noise`, [pgbb_fit()]). Factor levels are treated as public (declare them with `factor(...,
#' levels =)`); character variables and bases computed from the data (`poly()`,
#' `ns()`, `bs()`, `scale()`) are refused by the formula interface.
#'
#' The sensitivity argument needs each record's model variables to depend on
#' that record alone, and the set of columns not to depend on the data at all.
#' A private formula fit therefore accepts a term only when it is built from
#' record-wise functions (arithmetic, comparisons, `I()`, `log()`, `exp()`,
#' `sqrt()`, `abs()`, `pmin()`/`pmax()`, `ifelse()`, rounding, trigonometric
#' functions, `as.numeric()` and the like) and constants, from `factor()` or
#' `ordered()` with constant `levels`, and from `relevel()`; `%in%` needs a
#' constant set. Anything else (`factor(g)` without levels, `as.factor()`,
#' `cut()`, `scale()`, `I(x - mean(x))`, ...) is an error naming the term:
#' `factor(g)` takes its categories from the data, so a neighbour with a new
#' value would add a column to the release, and `I(x - mean(x))` moves every
#' row when one record changes. Create such variables beforehand with public
#' constants.
#'
#' @section A public n, and what a fitted object holds:
#' Because `n` is public, the private formula interfaces ([pgbb()], [dp_sgld()]
#' and the formula forms of [noisy_gibbs()] and [dp_bootstrap()]) refuse
#' records with missing values in the model variables, `na.action` and
#' `subset`: dropping records would make `n`, and with it the default `delta`,
#' `gamma*(n, S)` and the accountant's block size, depend on the data. Subset
#' and remove incomplete records beforehand, by a public rule, and treat the
#' resulting `n` as public.
#' A fitted object holds the release (generator parameters, draws, noisy
#' statistics), its privacy ledger and public settings only: its model terms
#' are evaluated in the global environment (not the caller's frame, which may
#' hold the data), it keeps no `na.action` (record indices and row names), and
#' its stored call has every value that was passed in directly (through
#' [do.call()], or a typed data vector) replaced by `<value>`.
#'
#' @section Default delta:
#' Where `delta` is not given, every front end uses
#' \eqn{\delta = \min(10^{-6}, 0.01/n)}. Publishing one record chosen at random
#' is \eqn{(0, 1/n)}-DP, so \eqn{\delta = 1/n} (the papers' choice) admits a
#' mechanism that reveals a record outright with probability \eqn{1/n}; the
#' default is two orders of magnitude below it and at most one in a million.
#' The displayed \eqn{(\epsilon, \delta)} of a GDP release ([cr_gs()], [cr_ss()])
#' uses the same rule. The paper reproductions (`inst/scripts/`, the vignettes)
#' pass `delta = 1 / n` explicitly.
#'
#' @section Randomness:
#' Every random quantity a guarantee relies on (Gaussian noise, Poisson
#' subsets, block partitions, DP-SGLD and NoisyGibbs noise) comes from the
#' package's ChaCha20 generator (RFC 8439's block function, used as a stream;
#' src/core/rng.h). The resampling indices of [cr_gs()] and [cr_ss()] come from
#' the same generator with 8 rounds (ChaCha8, no known attack), keyed the same
#' way: their proofs hold for every fixed realisation of the indices, so the
#' indices need to be independent of the data, not secret. [cr_ss()] draws
#' them twice from one key (once to count their multiplicities, which set
#' \eqn{\kappa} and \eqn{\beta}, once for its statistics), so that key passes
#' through R as eight words (OS entropy unless seeded) and is not stored.
#' Apart from that key, by default each call keys the generator with 256 bits
#' read inside C++ from the operating system (`getrandom()`, `/dev/urandom`, or
#' RtlGenRandom on Windows); the key never enters R and is never stored. ChaCha20
#' is a cryptographic generator: released values reveal nothing usable about
#' its key or its other outputs, unlike a linear generator (xoshiro, the
#' Mersenne Twister) whose state follows from a few hundred outputs. The cost
#' was within this machine's timing noise on the paper's regression setting
#' (median 1.93 s per fit against 1.81-1.93 s for the former xoshiro engine).
#' The PGBB trainer draws each iteration's Poisson subsets range by range, from
#' ChaCha20 streams whose 256-bit keys are fresh outputs of the fit's own
#' stream (so they are as secret as its key), which lets the subset pass run
#' on several threads with the same result. A range of \eqn{2^{18}} records
#' (at rates up to 1/8) gets its subset as a Binomial\eqn{(2^{18}, q)} count,
#' by inversion of the binomial cdf, and that many distinct positions drawn
#' uniformly: the law of independent Bernoulli\eqn{(q)} inclusions, with an
#' inclusion probability equal to \eqn{q} to a relative \eqn{10^{-12}}
#' (checked in the core tests; src/core/range_subsets.h). Shorter ranges, and
#' higher rates, use geometric skipping.
#'
#' `options(pgbb.seeded_noise = TRUE)` is the opt-in for reproducible runs
#' (tests, simulations, vignettes): the key is then drawn from R's generator,
#' so [set.seed()] fixes every result. Every private fit records
#' `randomness = "seeded"` (or `"os_entropy"`) in its ledger and prints
#' "SEEDED noise ... not for publication". Draws from a trained generator
#' ([posterior_draws()], the pooled intervals) and the non-private bootstraps
#' are post-processing and follow [set.seed()] in either mode.
#'
#' @section Float-safe scalar releases:
#' Every noisy statistic published directly (the CR-GS and CR-SS centres and
#' radii, both PTR steps of CR-SS, NoisyGibbs's noisy statistics and the
#' DP-Bootstrap replicates) is rounded to a public grid \eqn{\gamma} (a power of
#' two, from the public noise scale and sensitivity) and released as
#' \eqn{\gamma(\mathrm{round}(x/\gamma) + Z)} with \eqn{Z} an exact discrete
#' Gaussian, sampled with integer arithmetic by Canonne, Kamath & Steinke's
#' (2020) rejection sampler from a discrete Laplace (src/core/discrete_gaussian.h).
#' A released value is an exact multiple of \eqn{\gamma}, so two statistics that
#' differ by less than the grid publish the same law: no low-order bits exist to
#' leak. The rounding moves a \eqn{d}-vector by at most \eqn{\sqrt d\,\gamma} and is
#' charged to the sensitivity at the calibrated noise-to-sensitivity ratio (the
#' grid is at most 1/1024 of the sensitivity per coordinate, so the charge costs
#' at most 0.1\% of the noise sd), and the noise sd is raised by a factor
#' \eqn{1 + 1/s^2} (\eqn{s \ge 1024} grid units) that covers the discrete
#' Gaussian's excess over the continuous tradeoff curve, measured at about
#' \eqn{1 + 1/(24 s^2)}. Hence every stated guarantee (GDP, Renyi, the
#' DP-Bootstrap accountant) holds for the released values as for the continuous
#' mechanism. PTR's bound releases \eqn{\log SS} the same way, with an offset
#' that keeps \eqn{P[B \ge SS] \ge 1 - \delta} under the discrete law. The
#' samplers and intervals that model the noise (NoisyGibbs, DP-Bootstrap's
#' deconvolution and interval) use the released sd; print shows it. The sampler
#' rejects proposals beyond \eqn{2^{40}} grid units (at least \eqn{2^{18}}
#' standard deviations), a total-variation change below \eqn{e^{-2^{35}}}; noise
#' above about \eqn{2^{20}/\sqrt d} times the sensitivity (\eqn{\mu} below about \eqn{10^{-6}\sqrt d})
#' is refused with an error; below \eqn{2^{-54}} times the sensitivity (\eqn{\mu}
#' above about \eqn{2^{54}}) it is raised to that floor.
#'
#' @section What is not protected:
#' \itemize{
#'   \item **Seeded runs.** With `options(pgbb.seeded_noise = TRUE)` (see
#'     "Randomness") the noise is a function of R's seed, which carries at most
#'     32 bits when set by [set.seed()]: anyone who guesses it can recompute and
#'     remove the noise. Such output is labelled and must not be published.
#'   \item **Floating-point side channels in PGBB and DP-SGLD.** Their
#'     training noise is a double-precision Gaussian (Marsaglia's polar method),
#'     whose law is not exactly Gaussian; the low-order bits of a value released
#'     directly could leak information (Mironov 2012; Jin et al. 2022). The
#'     clipped sums that this noise is added to are exact (fixed-point
#'     summation, src/core/exact_sum.h), so one record moves a sum by at most its
#'     clip bound, and the noisy sums are never released: the release is the
#'     generator (or the thinned chain) after thousands of nonlinear updates,
#'     where the attacks on low-order bits of one noisy value do not apply. A
#'     DP-SGLD chain of consecutive iterates is the closest to a direct release;
#'     thin it before publication.
#'   \item **The one-shot paper's baselines** [cr_dette_graw()] (Gaussian) and
#'     [cr_blbquant()] (Laplace) add double-precision noise as their papers
#'     specify; they are there to reproduce the comparisons, not for publication.
#'   \item **Timing and memory.** Running time depends on the subsample sizes
#'     and on the data (e.g. iteration counts of solvers); an adversary who
#'     observes the computation, rather than its output, is outside the model.
#'   \item **The analyst's view.** Messages and warnings printed during a fit
#'     (e.g. how many values were clipped) are for the analyst and are not
#'     private.
#' }
#'
#' @section Accountant validity:
#' The accountant's per-release bound is an upper bound on the Renyi moment for
#' every integer order (tested against numerical integration of the exact
#' divergence of the subsampled Gaussian pair, integrated over the Beta law of
#' the block weight). When `blocks` does not divide `n`, the smallest block size
#' `floor(n / blocks)` is used, which bounds every record's weight from above.
#'
#' @references
#' Birrell, J., Ebrahimi, R., Katsoulakis, M. and Rey-Bellet, L. (2024).
#' Differentially private stochastic gradient descent with fixed-size minibatches.
#'
#' Dong, J., Roth, A. and Su, W. J. (2022). Gaussian differential privacy. JRSS-B.
#'
#' Mironov, I. (2012). On significance of the least significant bits for
#' differential privacy. CCS.
#'
#' Mironov, I. (2017). Renyi differential privacy. CSF.
#'
#' Asoodeh, S., Liao, J., Calmon, F. and Kosut, O. (2021). Three variants of
#' differential privacy: lossless conversion and applications. IEEE JSAIT.
#' @name pgbb_privacy
NULL

# The call as stored in every fitted object: argument expressions only. A call
# can carry the data themselves (do.call() puts the values into it, and a
# typed literal c(...) is data too) or an environment (a formula object passed
# as a value); all of these become the placeholder `<value>`, so that a
# released object never holds record-level data. Symbols, small constants and
# short expressions are kept, so the call still documents the public settings.
.release_call <- function(call, fun = "<function>") {
  placeholder <- as.name("<value>")
  # do.call() with a function object puts the closure itself here.
  if (!is.name(call[[1L]]) && !is.call(call[[1L]])) call[[1L]] <- as.name(fun)
  data_args <- c("x", "y", "data", "partition", "newdata")
  nms <- names(call) %||% rep("", length(call))
  for (i in seq_along(call)[-1L]) {
    a <- call[[i]]
    if (is.null(a)) next
    # A value given for `subset` (do.call()) selects records: it is data too.
    value <- nms[i] %in% data_args && !is.name(a) || nms[i] == "subset" && is.atomic(a)
    call[[i]] <- if (value) placeholder else .release_expr(a, placeholder)
  }
  call
}

.release_expr <- function(a, placeholder) {
  if (is.name(a)) return(a)
  if (is.atomic(a)) return(if (length(a) <= 16L && is.null(attributes(a))) a else placeholder)
  if (is.call(a)) {
    if (inherits(a, "formula")) attributes(a) <- NULL   # a formula value: keep its expression only
    if (length(a) > 17L) return(placeholder)           # e.g. a typed data vector c(...)
    for (j in seq_along(a)) if (!is.null(a[[j]])) a[[j]] <- .release_expr(a[[j]], placeholder)
    return(a)
  }
  # The formals of a function written in the call (estimator = list(fun =
  # function(z) ...)): a placeholder there would leave a call that cannot be
  # printed, so their defaults are released one by one.
  if (is.pairlist(a)) {
    for (j in seq_along(a))
      if (!identical(a[[j]], quote(expr = )) && !is.null(a[[j]])) a[[j]] <- .release_expr(a[[j]], placeholder)
    return(a)
  }
  placeholder   # lists, data frames, functions, environments
}

# The default delta of every front end: min(1e-6, 1 / (100 n)). Releasing one
# record chosen at random is (0, 1/n)-DP, so delta = 1/n (the papers' choice)
# allows a mechanism that publishes a record outright with probability 1/n; the
# default is two orders of magnitude below that, and never above one in a
# million. n is the public record count. Paper reproductions pass 1/n.
.default_delta <- function(n) min(1e-6, 0.01 / n)
