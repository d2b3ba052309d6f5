# One-shot private confidence regions via resampling (CR paper): CR-GS
# (Algorithm 2, Theorem 4.2) and CR-SS (Algorithms 3-4, Theorem 5.6). The
# pipeline is visible and each stage can be called on its own:
#   spec (cr-estimators.R) -> plan (.cr_plan) -> non-private statistics on one
#   realisation of the resamples (.cr_gs_stats / .cr_ss_stats, never returned to
#   the user) -> calibrated noise (release) -> 'private_cr' object.

# Public resampling plan: sizes, mode, rho and the multiplicity factor `kappa`
# that scales the sensitivities, with `check` the threshold of Algorithm 1 (0: no
# check, multiplicities not counted). multiplicity = "bound" is the paper's
# Algorithm 1: kappa = kappa* of eq. (4), resamples rejected above it. "realised"
# sets the threshold to m, which no resample exceeds: the passes count the realised
# multiplicities and reject nothing; kappa is set from them (.cr_realise, cr_gs).
.cr_plan <- function(n, m, B, mode, rho, multiplicity = "bound") {
  if (n < 3) .arg_fail("x", "a data set with at least 3 records")
  m <- if (is.null(m)) as.integer(ceiling(n / log(n))) else .check_count(m, "m", min = 2, max = n)
  # B resample distances are held at once (and B x m indices for R-level estimators).
  B <- .check_count(B, "B", min = 1, max = 1e8)
  rho <- if (is.null(rho)) 1 / n else .check_open_unit(rho, "rho")
  bound <- mode == "wr" && multiplicity == "bound"
  kappa <- if (bound) kappa_star(n, m, B, rho) else 1L   # eq. (4); WOR: kappa* = 1
  check <- if (bound) kappa else if (mode == "wr") m else 0L
  list(n = as.integer(n), m = as.integer(m), B = as.integer(B), mode = mode, rho = rho,
       kappa = as.integer(kappa), check = as.integer(check),
       multiplicity = if (mode == "wr") multiplicity else "none", mult = integer(0))
}

# With replacement, calibrate to the realised multiplicities instead of kappa*.
# The privacy proofs of Theorems 4.2 and 5.6 (Appendix D, F.2) fix one
# realisation of the indices, which are drawn independently of the data, and
# compare neighbouring data sets on it: there, D[S_i] and D'[S_i] differ in at
# most kappa_i = kappa(S_i) entries, the realised multiplicity. A release
# calibrated to kappa_i (a function of the indices only) is therefore private on
# every realisation, hence private (the indices, not released, are
# post-processed away). kappa* of eq. (4) only bounds kappa_i with probability
# 1 - rho; the check that enforces it, and its failure, are then unnecessary.
# Realised: kappa = max_i kappa_i (the smoothness of Lemma 5.5, the sensitivity of
# the quantile in Theorem 4.2) and `mult` the kappa_i, drawn from `seed`, which the
# statistics pass must reuse.
.cr_realise <- function(plan, seed) {
  if (!identical(plan$multiplicity, "realised")) return(plan)
  plan$mult <- cpp_resample_multiplicities(plan$n, plan$m, plan$B, plan$mode, seed)
  plan$kappa <- max(plan$mult)
  plan
}

# Non-private CR-GS statistics theta(D) and d_i = ||theta(D[S_i]) - theta(D)||_2
# on the resamples drawn from `seed`. Returns list(theta_hat, dist) or signals
# the multiplicity failure. Internal: the privacy tests call it on neighbouring
# data sets with the same seed (same indices).
.cr_gs_stats <- function(spec, plan, seed) {
  if (spec$kind == "r") {
    .check_memory(as.numeric(plan$B) * plan$m, "B * m")
    res <- cpp_resample_indices(plan$n, plan$m, plan$B, plan$mode, plan$check, seed)
    if (res$failed_at > 0L) return(list(failed_at = res$failed_at, failed_mult = res$failed_mult))
    theta_hat <- .user_estimate(spec$fun, spec$x)
    est <- vapply(seq_len(plan$B), function(i) {
      th <- .user_estimate(spec$fun, .rows(spec$x, res$indices[i, ]))
      if (length(th) != length(theta_hat)) stop("'estimator$fun' must return vectors of one fixed length.", call. = FALSE)
      sqrt(sum((th - theta_hat)^2))
    }, 0)
    return(list(theta_hat = theta_hat, dist = est, failed_at = 0L, max_mult = res$max_mult))
  }
  keep <- !is.null(spec$transform)
  res <- cpp_cr_gs_stats(spec$x, as.numeric(spec$y), spec$kind, spec$params, spec$bounds$lower,
                         spec$bounds$upper, plan$m, plan$B, plan$mode, plan$check, seed, keep)
  if (res$failed_at > 0L) return(res)
  if (keep) {
    g <- spec$transform
    theta_hat <- as.numeric(g(res$theta_hat))
    if (!length(theta_hat) || anyNA(theta_hat)) stop("'estimator$transform' must return a numeric vector without NA.", call. = FALSE)
    res$dist <- vapply(seq_len(plan$B), function(i) sqrt(sum((as.numeric(g(res$estimates[i, ])) - theta_hat)^2)), 0)
    res$theta_hat <- theta_hat
  }
  res$estimates <- NULL
  res
}

.user_estimate <- function(fun, x) {
  th <- fun(x)
  if (!is.numeric(th) || !length(th) || anyNA(th) || any(!is.finite(th)))
    stop("'estimator$fun' must return a finite numeric vector.", call. = FALSE)
  as.numeric(th)
}

# Smoothness parameter of eq. (6).
.cr_beta <- function(mu, delta, B, rho, kappa) {
  (1 / (2 * kappa)) * min(1, mu / (4 * sqrt(log(B / (delta * rho)))))
}

# Non-private CR-SS statistics: theta(D), SS_beta(D), max_i SS_beta(D[S_i]), d_i.
.cr_ss_stats <- function(spec, plan, beta, seed) {
  if (spec$kind == "r") {
    .check_memory(as.numeric(plan$B) * plan$m, "B * m")
    res <- cpp_resample_indices(plan$n, plan$m, plan$B, plan$mode, plan$check, seed)
    if (res$failed_at > 0L) return(list(failed_at = res$failed_at, failed_mult = res$failed_mult))
    # The weights below are a sensitivity only for the resamples they were counted on.
    if (length(plan$mult) && !identical(res$mult, as.integer(plan$mult)))
      stop("internal error: the multiplicities were not counted on these resamples", call. = FALSE)
    f <- spec$fun; ssf <- spec$smooth_sensitivity
    chk <- function(v, what) {
      if (!is.numeric(v) || length(v) != 1L || !is.finite(v)) stop(sprintf("'estimator$%s' must return one finite number.", what), call. = FALSE)
      if (what == "smooth_sensitivity" && v < 0) stop("'estimator$smooth_sensitivity' must be non-negative.", call. = FALSE)
      v
    }
    theta_hat <- chk(f(spec$x), "fun")
    ss_full <- chk(ssf(spec$x, beta), "smooth_sensitivity")
    d <- numeric(plan$B); ssmax <- 0; ssw <- 0
    for (i in seq_len(plan$B)) {
      xi <- .rows(spec$x, res$indices[i, ])
      d[i] <- abs(chk(f(xi), "fun") - theta_hat)
      ss_i <- chk(ssf(xi, beta), "smooth_sensitivity")
      ssmax <- max(ssmax, ss_i)
      # A user's statistic has only the generic telescoping factor of Appendix F.1.
      if (length(plan$mult)) ssw <- max(ssw, ss_i * .telescoping_factor(plan$mult[i], beta))
    }
    return(list(theta_hat = theta_hat, ss_full = ss_full, ss_resample_max = ssmax, ss_resample_weighted = ssw,
                dist = d, failed_at = 0L))
  }
  params <- spec$params
  params$beta <- beta
  cpp_cr_ss_stats(spec$x, spec$kind, params, plan$m, plan$B, plan$mode, plan$check, seed, FALSE, plan$mult)
}

# s(D) of Lemma 5.5, the kappa beta-smooth bound on the local sensitivity of
# Q / tau_m. Paper (multiplicity = "bound"): max_i SS(D[S_i]) (e^{kappa* beta} - 1) /
# (e^beta - 1) + SS(D). Realised: max_i f(kappa_i) SS(D[S_i]) + SS(D), with f the
# estimator's factor for kappa_i changed entries (SmoothEstimator::multi_change_factor
# in src/core/cr_ss.h; e^{(kappa_i - 1) beta} for a quantile). Both are upper bounds
# on LS(Q / tau_m) on the realised indices (a record occurs c_i <= kappa_i times in
# S_i and f is increasing), and kappa beta-smooth with kappa = max_i kappa_i:
# SS(D[S_i]) <= e^{c_i beta} SS(D'[S_i]) and the weights f(kappa_i) do not depend on
# the data.
.cr_ss_s <- function(st, plan, beta) {
  if (length(plan$mult)) return(st$ss_resample_weighted + st$ss_full)
  st$ss_resample_max * .telescoping_factor(plan$kappa, beta) + st$ss_full
}

# Lemma 5.5's factor for c changed entries, (e^{c beta} - 1) / (e^beta - 1): the
# generic SmoothEstimator::multi_change_factor of src/core/cr_ss.h.
.telescoping_factor <- function(c, beta) expm1(c * beta) / expm1(beta)

# (epsilon, delta)-DP equivalent reported with every release: mu-GDP (or
# (mu, delta)-GDP) implies (epsilon, delta + 1/n)-DP with epsilon = gdp_epsilon(mu, 1/n)
# (Proposition 3.6; the approximate part adds its delta, Proposition 5.1).
# Estimator parameters arrive in `...`: a misspelt name would otherwise be ignored
# silently (or, worse, partially matched by `dots$name`), so every name must be one
# the function documents.
# rho is the failure probability of kappa* (eq. 4); given to a plan that does
# not read it, it would be silently unused.
.refuse_unread_rho <- function(rho, read, fun) {
  if (!is.null(rho)) .check_open_unit(rho, "rho")
  if (!is.null(rho) && !read)
    .arg_fail("rho", sprintf(paste0("left out (NULL) here: %s() reads it only for kappa* of eq. (4), with ",
                                    "mode = \"wr\" and multiplicity = \"bound\"%s"), fun,
                             if (fun == "cr_ss") ", or for the smoothness beta of eq. (6) when 'beta' is not given" else ""))
  invisible(TRUE)
}

.check_dots <- function(dots, allowed, fun) {
  if (length(dots) == 0L) return(invisible(TRUE))
  nm <- names(dots)
  if (is.null(nm) || any(!nzchar(nm)))
    stop(sprintf("every argument of %s() passed in '...' must be named (one of %s).",
                 fun, paste(allowed, collapse = ", ")), call. = FALSE)
  bad <- setdiff(nm, allowed)
  if (length(bad))
    stop(sprintf("unknown argument%s in '...' of %s(): %s. Estimator parameters are %s.",
                 if (length(bad) > 1L) "s" else "", fun,
                 paste0("'", bad, "'", collapse = ", "), paste(allowed, collapse = ", ")),
         call. = FALSE)
  invisible(TRUE)
}

# Sensitivities come from the declared bounds only; when they overflow (bounds so
# wide that the width, its square or a kernel range is not a double) the release
# would be NaN/Inf. That is the user's bounds (or, for a finite sensitivity, a budget
# so small that the noise scale overflows), not something to pass on.
.cr_check_noise_scales <- function(sens, noise, fun) {
  if (any(!is.finite(sens)))
    .arg_fail("bounds", sprintf(paste0("narrow enough that the sensitivity %s() computes from them is finite ",
                                       "(the declared range overflows double precision)"), fun))
  if (any(!is.finite(noise)))
    .arg_fail("mu", sprintf("large enough that the noise scales of %s() are finite", fun))
  invisible(TRUE)
}

# A zero radius is a legitimate release (the noisy quantile was not positive) but a
# zero-width region covers nothing: say so. Only the released radius is used, so the
# note is post-processing and costs no privacy.
# CR-SS: the radius is released by PTR-GDP at mu / 2 with noise sd 2 b / mu, b the
# released smooth bound; CR-GS: with the radius's own Gaussian noise (its sd as released). The released radius is Q + noise; when the noise sd is more
# than a third of it, the radius is uncertain by a third or more and the region can
# be far from its level. Measured on the Table 4(a) median at n = 10,000, mu = 8 (400
# data sets): with replacement and kappa* = 7 (multiplicity = "bound") radius / sd was
# 0-2 and coverage 0.58 at nominal 0.90; with the realised multiplicities (about 5)
# the noise sd fell about 9-fold and coverage was 0.83; without replacement radius / sd
# was 7-10 (3.6-4.8 at n = 2000) and coverage 0.85. Both quantities are released:
# post-processing.
.cr_radius_noise_note <- function(q_tilde, sd, plan, fun) {
  if (!isTRUE(q_tilde > 0) || !isTRUE(3 * sd > q_tilde)) return(invisible(FALSE))
  hint <- switch(plan$multiplicity,
    bound = sprintf(paste0(" With replacement and multiplicity = \"bound\" the radius noise is scaled by kappa* = %d;",
                           " multiplicity = \"realised\" or mode = \"wor\" reduce that."), plan$kappa),
    realised = sprintf(" With replacement the radius noise is scaled by the realised multiplicity %d; mode = \"wor\" avoids that.",
                       plan$kappa),
    "")
  warning(warningCondition(
    sprintf(paste0(
      "%s(): the radius noise (sd %.3g) is more than a third of the released radius (%.3g), so the region's coverage can be ",
      "far below its nominal level.%s A larger 'mu' or more records also help."), fun, sd, q_tilde, hint),
    class = "pgbb_radius_noise"))
  invisible(TRUE)
}

.cr_zero_radius_note <- function(q_tilde, fun) {
  if (isTRUE(q_tilde <= 0))
    warning(sprintf(paste0(
      "%s(): the released radius is 0, a zero-width region that covers nothing. This happens when ",
      "the noisy resampling quantile is not positive: when every resample statistic equals the ",
      "full-data one (e.g. because the declared 'bounds' exclude the data, so that every record is ",
      "clipped to the same value), or when the privacy noise is large relative to the quantile ",
      "(small 'mu' or n)."), fun), call. = FALSE)
  invisible(q_tilde)
}

# `dp`: the (epsilon, delta)-DP target the user gave, which the record reports
# as given; otherwise the equivalent epsilon at the package's default delta.
.privacy_record <- function(mu, delta, n, guarantee, extra = list(), dp = NULL) {
  ref <- .default_delta(n)
  eps <- if (is.null(dp)) gdp_epsilon(mu, ref) else dp[["epsilon"]]
  delta_dp <- if (is.null(dp)) delta + ref else dp[["delta"]]
  c(list(mu = mu, delta = delta, epsilon = eps, delta_dp = delta_dp, guarantee = guarantee,
         randomness = .noise_source()), extra)
}

# The GDP budget of CR-GS: `mu`, or the largest mu whose guarantee implies the
# given (epsilon, delta)-DP (Proposition 3.6; gdp_mu() returns the feasible end).
.cr_mu <- function(mu, epsilon, delta) {
  if (!is.null(mu) && (!is.null(epsilon) || !is.null(delta)))
    .arg_fail("mu", "given alone, or replaced by 'epsilon' and 'delta' (not both)")
  if (is.null(mu)) {
    if (is.null(epsilon) && is.null(delta)) .arg_fail("mu", "given (the GDP privacy budget), or 'epsilon' and 'delta'")
    if (is.null(epsilon)) .arg_fail("epsilon", "given with 'delta' (or give 'mu')")
    if (is.null(delta)) .arg_fail("delta", "given with 'epsilon' (or give 'mu')")
    .check_positive(epsilon, "epsilon")
    .check_open_unit(delta, "delta")
    mu <- gdp_mu(epsilon, delta)
  }
  .check_positive(mu, "mu")
  mu
}

# The region's miscoverage from `level` (the package's usual argument) or the
# papers' `alpha` (default 0.1, a 90% region as in their tables).
.cr_alpha <- function(alpha, level) {
  if (is.null(level)) {
    if (is.null(alpha)) return(0.1)
    .check_open_unit(alpha, "alpha")
    return(alpha)
  }
  .check_open_unit(level, "level")
  if (!is.null(alpha)) {
    .check_open_unit(alpha, "alpha")
    if (abs(alpha - (1 - level)) > 1e-12)
      .arg_fail("level", sprintf("consistent with 'alpha' (level = 1 - alpha), or give one of them; got level = %s and alpha = %s",
                                 format(level), format(alpha)))
  }
  1 - level
}

# A region's radius is an upper quantile of the B resample statistics: with
# fewer than `tails` / alpha of them that quantile is their extreme, and the
# region covers at most about B / (B + 1), below its level (on Uniform(-1, 1),
# n = 500, alpha = 0.1: 0.51 at B = 1, 0.78 at B = 3). Checked once alpha is
# known; B's own type and range are checked by the plan.
.check_resamples_for_alpha <- function(B, alpha, tails = 1) {
  need <- ceiling(tails / alpha - 1e-9)
  if (is.numeric(B) && length(B) == 1L && is.finite(B) && B < need)
    .arg_fail("B", sprintf(paste0("at least %d for a %s%% region (%s / alpha resamples): with fewer, its ",
                                  "quantile is their extreme and the region covers less than its level"),
                           need, format(100 * (1 - alpha)), format(tails)))
  invisible(B)
}

.new_private_cr <- function(center, q_tilde, scale, alpha, plan, method, spec, privacy, noise, call, extra = list()) {
  d <- length(center)
  radius <- q_tilde / scale
  nm <- spec$names
  if (is.null(nm) || length(nm) != d) nm <- if (d == 1) spec$name else paste0("theta", seq_len(d))
  range <- spec$range
  # Post-processing (?cr_gs, 'within_bounds'): the projection onto the public box
  # of the estimand never moves the centre away from a point of the box.
  if (!is.null(range)) center <- pmin(pmax(center, range$lower), range$upper)
  names(center) <- nm
  obj <- c(list(
    center = center, radius = radius, scale = scale, q_tilde = q_tilde, d = d,
    interval = if (d == 1) .cr_limits(center, radius, range)[1L, ] else NULL,
    range = range,
    ball = if (d > 1) list(center = center, radius = radius) else NULL,
    level = 1 - alpha, alpha = alpha, method = method, estimator = spec$name,
    description = spec$description, privacy = privacy, noise = noise,
    n = plan$n, B = plan$B, m = plan$m, mode = plan$mode, kappa = plan$kappa,
    kappa_star = if (identical(plan$multiplicity, "bound")) plan$kappa else NA_integer_,
    multiplicity = plan$multiplicity %||% NA_character_, rho = plan$rho,
    call = .release_call(call)), extra)
  structure(obj, class = "private_cr")
}

# Per coordinate, the limits of a region: centre -/+ radius, cut to the public
# range of the estimand when the region carries one.
.cr_limits <- function(center, radius, range = NULL) {
  lo <- unname(center) - radius
  hi <- unname(center) + radius
  if (!is.null(range)) {
    lo <- pmax(lo, range$lower)
    hi <- pmin(hi, range$upper)
  }
  cbind(lower = lo, upper = hi)
}

#' One-shot private confidence regions for mean-like estimators (CR-GS)
#'
#' Algorithm 2 (CR-GS) of the one-shot confidence-region paper: compute the
#' estimate \eqn{\hat\theta_n} and \eqn{B} resample estimates \eqn{\theta^*_i} on
#' subsamples (`mode = "wor"`) or with-replacement \eqn{m}-out-of-\eqn{n} resamples
#' (`mode = "wr"`, multiplicity-conditioned by Algorithm 1 with
#' \eqn{\kappa_\star} of eq. 4), the scaled quantile
#' \eqn{Q = \tau_m \cdot \mathrm{Quantile}_{1-\alpha}(\|\theta^*_i - \hat\theta_n\|_2)},
#' and release once
#' \deqn{\tilde\theta_n = \hat\theta_n + \nu_n Z_2,\quad \tilde Q = \max(Q + \sigma_m Z_1, 0),}
#' with \eqn{\nu_n = \sqrt2\Delta_n/\mu} and
#' \eqn{\sigma_m = \sqrt2\tau_m(\kappa_\star\Delta_m + \Delta_n)/\mu}. The region is
#' \eqn{\{u : \|u - \tilde\theta_n\|_2 < \tilde Q/\tau_n\}}. The release is
#' \eqn{\mu}-GDP (Theorem 4.2) and asymptotically has coverage \eqn{1 - \alpha}.
#'
#' @section Estimators and their sensitivities:
#' The global sensitivity \eqn{\Delta_N} is computed from the public `bounds`
#' only; records outside the bounds are clipped to them before anything is
#' computed (clipping is part of the estimator, so the confidence region is for the
#' clipped parameter when the bounds cut the support).
#' \describe{
#'   \item{`"mean"`}{Mean of a vector or of the rows of a matrix, \eqn{\Delta_N = \|u - l\|_2/N} for the box \eqn{[l, u]}.}
#'   \item{`list(fun = "mean", transform = g, lipschitz = L)`}{An \eqn{L}-Lipschitz (in \eqn{\ell_2}) transform of a bounded mean, \eqn{\Delta_N = L\|u - l\|_2/N}.}
#'   \item{`"ustat_product"`, `"ustat_variance"`}{U-statistics of order 2 with kernels \eqn{xy} and \eqn{(x-y)^2/2}, \eqn{\Delta_N = 2 b/N} with \eqn{b} the kernel's range on the bounds (Section 4, example 3). `degenerate = TRUE` uses \eqn{\tau_N = N}.}
#'   \item{`"ridge_logistic"`, `"ridge_huber"`}{\eqn{\arg\min (1/N)\sum \ell(\theta; x_i, y_i) + (\lambda/2)\|\theta\|^2} (response `y`, penalty `lambda`, Huber constant `huber_c`): \eqn{\Delta_N = 2G/(\lambda N)} with \eqn{G} the loss's Lipschitz constant (\eqn{\max\|x\|} resp. `huber_c` \eqn{\max\|x\|} over the bounds on the features), plus \eqn{2\,}`tol`\eqn{/\lambda} for the solver's certified accuracy.}
#'   \item{`"sgd_logistic"`, `"sgd_huber"`}{Averaged projected SGD (17) on the ball of radius `radius`, step \eqn{c(t + t_0)^{-a}} with \eqn{t_0} from (18) (`a`, default 2/3; `step_c` default: the largest \eqn{c} with \eqn{\eta_0 \le 1/L}, i.e. \eqn{c = t_0^a/L}); \eqn{\Delta_N = 4G/(\lambda N)} (Lemmas H.1, H.3).}
#'   \item{`list(fun = f, sensitivity = s, tau = t)`}{Any R function `f(x)` of the (clipped) data with a declared global sensitivity `s(N)` (your responsibility) and scale `t(N)` (default \eqn{\sqrt N}).}
#' }
#' @param x Data: a numeric vector, or a matrix / data frame with one record per row.
#' @param estimator A built-in name or a list (see the section on estimators).
#' @param mu Privacy budget: the release is `mu`-GDP. Or give `epsilon` and
#'   `delta` instead: `mu` is then the largest budget whose GDP guarantee implies
#'   \eqn{(\varepsilon, \delta)}-DP, [gdp_mu()] (Proposition 3.6).
#' @param alpha Miscoverage; the region has nominal level `1 - alpha` (default
#'   0.1, the paper's). Or give `level`.
#' @param B Number of resamples; at least `1 / alpha` (the radius is their
#'   upper `alpha` quantile; the paper uses 500).
#' @param m Resample size; default `ceiling(n / log(n))`.
#' @param mode `"wr"` (m-out-of-n with replacement) or `"wor"` (subsampling).
#' @param rho Failure probability of multiplicity-conditioned sampling; default `1/n`.
#'   Used with `mode = "wr"` and `multiplicity = "bound"` only (and, in [cr_ss()], in
#'   the smoothness of eq. 6 when `beta` is not given); an error where it is unused.
#' @param multiplicity With replacement (`mode = "wr"`): how the sensitivities account
#'   for a record occurring several times in a resample. `"realised"` (default) uses
#'   the largest multiplicity \eqn{\kappa = \max_i \kappa(S_i)} of the resamples
#'   actually drawn; `"bound"` is the paper's Algorithm 1: \eqn{\kappa_\star} of eq. (4),
#'   with resamples checked against it (see the section on failure). Both are private
#'   (see the section on multiplicity); ignored without replacement.
#' @param bounds Public bounds on the data (on the features for regressions):
#'   `c(lower, upper)`, `list(lower = , upper = )` or a 2-row matrix.
#' @param ... Estimator parameters: `y`, `lambda`, `huber_c`, `tol`, `radius`, `a`,
#'   `step_c`, `degenerate` (exact names; any other name is an error).
#' @param level Nominal level of the region, `1 - alpha` (give one of the two).
#' @param epsilon,delta An \eqn{(\varepsilon, \delta)}-DP budget in place of `mu`.
#' @param within_bounds For the estimators whose value lies within the declared
#'   `bounds` (the mean without a `transform`; the quantile of [cr_ss()]): `TRUE`
#'   (default) moves the released centre into the bounds and cuts the region to
#'   them; `FALSE` keeps the paper's ball about the released centre. Both are
#'   post-processing of the same release. The cut region contains the estimand
#'   whenever the ball does: moving the centre into the box is the projection onto
#'   it, which brings the centre no farther from any point of the box. It is
#'   narrower where the ball reaches past a bound (a mean or quantile near 0 of
#'   data in \eqn{[0, 1]}), and covers where the noise carried the centre outside.
#'   Measured on the natality births (`data(natality2022)`, 100 subsamples per
#'   cell, `cr_ss()` without replacement): for the 0.9 quantile of cigarettes per
#'   day, which is 0, the lower bound, the cut interval covered 0.66-0.81 against
#'   the ball's 0.22-0.54 (n = 1,000 and 5,000; mu = 0.5 and 1) at 0.27-0.50 times
#'   its width (both warn there that the radius noise dominates); for the share of
#'   smokers (0.055) the two were identical.
#' @return An object of class `"private_cr"`: a list with `center` (private centre),
#'   `radius` (private radius on the parameter scale), `scale` (\eqn{\tau_n}),
#'   `interval` (one-dimensional case) or `ball`, `privacy` (`mu`, `delta`, and the
#'   \eqn{(\varepsilon, \delta)} equivalent `epsilon`, `delta_dp`), `B`, `m`, `mode`,
#'   `kappa` (the multiplicity factor of the sensitivities: realised, \eqn{\kappa_\star}
#'   or 1 without replacement), `kappa_star` (`NA` unless `multiplicity = "bound"`),
#'   `multiplicity`, `noise` (the public noise scales), `range` (the bounds the
#'   region was cut to, or `NULL`) and more. Only private
#'   quantities and public settings are stored. `coef()` gives the private point
#'   estimate (the centre; for [cr_dette_graw()] its private estimate, around which
#'   its interval need not be symmetric), `confint()` the region's interval,
#'   `nobs()` the (public) number of records, and `as.data.frame()` one row per
#'   coordinate in the schema of the private fits.
#' @section Multiplicity: The privacy proofs (Theorem 4.2, Appendix D; Theorem 5.6,
#'   Appendix F.2) fix one realisation of the resample indices, which are drawn
#'   independently of the data, and compare neighbouring data sets on it. On that
#'   realisation a changed record changes at most \eqn{\kappa(S_i)} entries of
#'   \eqn{D[S_i]}, its realised multiplicity, so calibrating the noise to
#'   \eqn{\kappa = \max_i \kappa(S_i)} (a function of the indices only) is private on
#'   every realisation and hence private. \eqn{\kappa_\star} of eq. (4) is a
#'   high-probability bound on the same quantity (typically 5 against 7 at n = 10,000,
#'   m = n/log n, B = 500), so `"realised"` needs no check, never fails and adds less noise;
#'   `"bound"` reproduces the paper.
#' @section Failure: With `mode = "wr"` and `multiplicity = "bound"`, if some record
#'   appears more than `kappa_star` times in some resample (probability at most `rho`),
#'   an error of class `"pgbb_multiplicity_failure"` is signalled. It does not depend
#'   on the data; rerunning costs no extra privacy.
#' @examples
#' set.seed(1)
#' x <- runif(2000, -1, 1)
#' cr_gs(x, "mean", mu = 8, bounds = c(-1, 1))
#' cr_gs(x, "mean", mu = 8, bounds = c(-1, 1), mode = "wor")
#' @seealso [cr_ss()], [cr_dette_graw()], [cr_blbquant()], [gdp_delta()].
#' @export
cr_gs <- function(x, estimator = "mean", mu, alpha = NULL, B = 500, m = NULL, mode = c("wr", "wor"),
                  rho = NULL, bounds, ..., level = NULL, epsilon = NULL, delta = NULL,
                  multiplicity = c("realised", "bound"), within_bounds = TRUE) {
  cl <- match.call()
  dots <- list(...)
  # The SGD step exponent `a` (documented under ...) is a prefix of `alpha`, so R's
  # partial matching binds `a = 0.6` to alpha (a 40% region) unless alpha is also
  # given. Undo that binding: `a` goes to the estimator, alpha keeps its default.
  typed <- names(match.call(function(...) NULL, sys.call(), expand.dots = TRUE, envir = parent.frame()))
  if ("a" %in% typed && !"alpha" %in% typed) {
    dots$a <- alpha
    alpha <- formals(sys.function())$alpha
  }
  .check_dots(dots, c("y", "lambda", "huber_c", "tol", "radius", "a", "step_c", "degenerate"), "cr_gs")
  mode <- .match_arg(mode)
  mu <- .cr_mu(if (missing(mu)) NULL else mu, epsilon, delta)
  alpha <- .cr_alpha(alpha, level)
  .check_resamples_for_alpha(B, alpha)
  if (missing(bounds)) bounds <- NULL
  .check_flag(within_bounds, "within_bounds")
  spec <- .cr_gs_spec(estimator, x, bounds, dots)
  if (!within_bounds) spec$range <- NULL
  .clip_message(spec$clipped %||% 0, "x", "bounds", "cr_gs()")
  multiplicity <- .match_arg(multiplicity)
  # CR-GS reads rho only through kappa* of eq. (4).
  .refuse_unread_rho(rho, mode == "wr" && multiplicity == "bound", "cr_gs")
  plan <- .cr_plan(spec$n, m, B, mode, rho, multiplicity)
  st <- .cr_gs_stats(spec, plan, .rng_seed())
  if (st$failed_at > 0L) .multiplicity_failure(st$failed_at, st$failed_mult, plan$kappa, plan$rho)
  if (identical(plan$multiplicity, "realised")) {
    # The quantile's sensitivity max_i kappa_i Delta_m + Delta_n (see .cr_realise).
    if (!isTRUE(st$max_mult >= 1L)) stop("internal error: the realised multiplicity was not counted", call. = FALSE)
    plan$kappa <- as.integer(st$max_mult)
  }
  tau_m <- spec$tau(plan$m); tau_n <- spec$tau(plan$n)
  Q <- tau_m * cpp_upper_quantile(st$dist, alpha)                       # Algorithm 2, Q_{n,m}
  Dn <- spec$sensitivity(plan$n); Dm <- spec$sensitivity(plan$m)
  nu <- sqrt(2) * Dn / mu                                               # centre: mu/sqrt(2)-GDP
  sigma <- sqrt(2) * tau_m * (plan$kappa * Dm + Dn) / mu                # radius: mu/sqrt(2)-GDP
  .cr_check_noise_scales(c(Dn, Dm), c(nu, sigma), "cr_gs")
  radius_sens <- tau_m * (plan$kappa * Dm + Dn)
  released_sd <- c(center = .discrete_noise(nu, Dn, length(st$theta_hat), "mu")$sd,
                   radius = .discrete_noise(sigma, radius_sens, 1L, "mu")$sd)
  rel <- cpp_cr_gs_release(as.numeric(st$theta_hat), Q, nu, Dn, sigma, radius_sens, .rng_seed())
  .cr_zero_radius_note(rel$q_tilde, "cr_gs")
  .cr_radius_noise_note(rel$q_tilde, released_sd[["radius"]], plan, "cr_gs")
  .new_private_cr(rel$center, rel$q_tilde, tau_n, alpha, plan, "CR-GS", spec,
                  .privacy_record(mu, 0, plan$n, "mu-GDP (Theorem 4.2), non-asymptotic",
                                  list(noise_law = .discrete_noise_law(released_sd)),
                                  dp = if (!is.null(epsilon)) c(epsilon = epsilon, delta = delta)),
                  list(nu_n = nu, sigma_m = sigma, Delta_n = Dn, Delta_m = Dm, tau_m = tau_m,
                       released_sd = released_sd), cl)
}

#' One-shot private confidence regions via smooth sensitivity (CR-SS)
#'
#' Algorithm 4 (CR-SS) of the one-shot confidence-region paper for statistics
#' with a computable \eqn{\beta}-smooth sensitivity bound \eqn{SS_\beta}: the centre
#' is released by PTR-GDP (Algorithm 3) at \eqn{(\mu/2, \delta/2)} with
#' \eqn{SS_\beta(D)}, and the scaled resampling quantile \eqn{Q} by PTR-GDP at
#' \eqn{(\mu/2, \delta/2)} with the \eqn{\kappa_\star\beta}-smooth bound
#' \eqn{\tau_m s(D)}, \eqn{s(D) = \max_i SS_\beta(D[S_i])(e^{\kappa_\star\beta} - 1)/(e^\beta - 1) + SS_\beta(D)}
#' (Lemma 5.5); the release is \eqn{(\mu, \delta)}-GDP (Theorem 5.6). By default
#' \eqn{\beta} follows eq. (6).
#'
#' With replacement and `multiplicity = "realised"` (the default), \eqn{\kappa_\star}
#' is replaced by the realised multiplicities (see [cr_gs()], section Multiplicity):
#' \eqn{\beta} by eq. (6) with \eqn{\kappa = \max_i\kappa(S_i)}, and
#' \eqn{s(D) = \max_i f(\kappa(S_i)) SS_\beta(D[S_i]) + SS_\beta(D)}, \eqn{\kappa\beta}-smooth,
#' where \eqn{f(c)} bounds the change of the statistic when \eqn{c} entries change, in
#' units of its smooth sensitivity: Lemma 5.5's \eqn{(e^{c\beta} - 1)/(e^\beta - 1)} in
#' general, and \eqn{e^{(c-1)\beta}} for a quantile, whose value moves at most to the
#' \eqn{c}-th neighbouring order statistic (derivation in `src/core/cr_ss.h`).
#'
#' @section Estimators:
#' \describe{
#'   \item{`"quantile"`}{The sample quantile \eqn{x_{(h)}}, \eqn{h = \lceil p n\rceil}
#'     (`prob` \eqn{= p}), with the smooth sensitivity of Lemma 6.1 truncated at
#'     \eqn{k^\star} with slack constant `C` (default `upper - lower`), see
#'     [smooth_sensitivity_quantile()]. \eqn{\tau_N = \sqrt N}.}
#'   \item{`"ustat_product"`}{The degenerate U-statistic of Section 7.2 with kernel
#'     \eqn{h(x, y) = xy}, with the smooth sensitivity bound derived in the package
#'     sources (`src/core/cr_ss.h`); \eqn{\tau_N = N} (set `degenerate = FALSE` for
#'     \eqn{\sqrt N}).}
#'   \item{`list(fun = f, smooth_sensitivity = s, tau = t)`}{Any scalar statistic `f(x)`
#'     with a function `s(x, beta)` that you guarantee to be a \eqn{\beta}-smooth upper
#'     bound on its local sensitivity for data sets of any size.}
#' }
#' Records outside `bounds` are clipped to them first.
#' @inheritParams cr_gs
#' @param estimator `"quantile"`, `"ustat_product"` or a list (see the section on estimators).
#' @param prob Quantile level for `estimator = "quantile"` (an error with another
#'   estimator, as are `C` with another than `"quantile"` and `degenerate` with
#'   another than `"ustat_product"`).
#' @param mu Privacy budget: the release is `(mu, delta)`-GDP (Theorem 5.6).
#' @param delta The \eqn{\delta} of \eqn{(\mu, \delta)}-GDP, in (0, 1). With
#'   `epsilon` in place of `mu`, the \eqn{\delta} of the
#'   \eqn{(\varepsilon, \delta)}-DP target instead: half of it goes to the PTR
#'   steps and half to the GDP part, \eqn{\mu} = `gdp_mu(epsilon, delta / 2)`.
#' @param epsilon An \eqn{(\varepsilon, \delta)}-DP budget in place of `mu` (see `delta`).
#' @param tau The quantile level, another name for `prob` (give one of the two).
#' @param bounds Public bounds `c(lower, upper)` on the data.
#' @param ... `beta` (overrides eq. 6), `C` (quantile slack constant), `degenerate`
#'   (exact names; any other name is an error).
#' @return An object of class `"private_cr"` (see [cr_gs()]), with the smoothness
#'   `beta` and the released PTR noise bounds in `noise`.
#' @section When the radius noise dominates:
#' The radius is released with noise sd \eqn{2 b/\mu}, \eqn{b} the released smooth
#' bound. When that sd is more than a third of the released radius, `cr_ss()` warns (class
#' `"pgbb_radius_noise"`): the region's coverage can then be far below `1 - alpha`.
#' With replacement and `multiplicity = "bound"` the smoothness is scaled by
#' \eqn{\kappa_\star} and the resample term by Lemma 5.5's factor, which makes this
#' common at moderate `mu` (the median at n = 10,000 and mu = 8 covered 0.61 at nominal
#' 0.90 in the Table 4 reproduction); the realised multiplicities remove most of that
#' noise (see the vignette's Table 4 for the measured coverage of each setting).
#' @examples
#' set.seed(1)
#' x <- runif(2000, -1, 1)
#' cr_ss(x, "quantile", prob = 0.5, mu = 8, delta = 1e-6, bounds = c(-1, 1), mode = "wor")
#' u <- runif(2000, -0.5, 0.5)
#' cr_ss(u, "ustat_product", mu = 8, delta = 1e-6, bounds = c(-0.5, 0.5), mode = "wor")
#' @export
cr_ss <- function(x, estimator = c("quantile", "ustat_product"), prob = 0.5, mu, delta, alpha = NULL, B = 500,
                  m = NULL, mode = c("wr", "wor"), rho = NULL, bounds, ..., level = NULL, tau = NULL,
                  epsilon = NULL, multiplicity = c("realised", "bound"), within_bounds = TRUE) {
  cl <- match.call()
  mode <- .match_arg(mode)
  multiplicity <- .match_arg(multiplicity)
  if (missing(estimator)) estimator <- "quantile"
  if (is.character(estimator) && (length(estimator) != 1L || !(estimator %in% c("quantile", "ustat_product"))))
    .arg_fail("estimator", "\"quantile\", \"ustat_product\" or a list (see ?cr_ss)")
  if (!is.null(tau)) {
    if (!missing(prob)) .arg_fail("tau", "given alone, or replaced by 'prob' (its other name; not both)")
    prob <- tau
  }
  prob_given <- (!missing(prob) && !is.null(prob)) || !is.null(tau)   # NULL: not given
  budget <- .cr_ss_budget(if (missing(mu)) NULL else mu, if (missing(delta)) NULL else delta, epsilon)
  mu <- budget$mu
  delta <- budget$delta
  alpha <- .cr_alpha(alpha, level)
  .check_resamples_for_alpha(B, alpha)
  if (missing(bounds)) bounds <- NULL
  dots <- list(...)
  .check_dots(dots, c("beta", "C", "degenerate"), "cr_ss")
  # A setting the estimator does not read is an error, not silently unused.
  spec <- .cr_ss_spec(estimator, x, prob, bounds, dots,
                      given = c(if (prob_given) if (is.null(tau)) "prob" else "tau", names(dots)))
  .check_flag(within_bounds, "within_bounds")
  if (!within_bounds) spec$range <- NULL
  .clip_message(spec$clipped %||% 0, "x", "bounds", "cr_ss()")
  # rho enters kappa* of eq. (4) (mode "wr", multiplicity "bound") and the smoothness beta of eq. (6).
  .refuse_unread_rho(rho, (mode == "wr" && multiplicity == "bound") || is.null(dots$beta), "cr_ss")
  plan <- .cr_plan(spec$n, m, B, mode, rho, multiplicity)
  seed <- .index_key()   # one key for the multiplicities and the statistics (see .index_key())
  plan <- .cr_realise(plan, seed)   # realised: kappa = max_i kappa(S_i), before beta is chosen
  # eq. (6), with the realised kappa in place of kappa* when multiplicity = "realised":
  # beta may depend on the indices (not on the data), which the privacy proof fixes.
  beta <- dots$beta %||% .cr_beta(mu, delta, plan$B, plan$rho, plan$kappa)
  if (is.null(dots$beta) && !(is.finite(beta) && beta > 0))
    .arg_fail("delta", "large enough that eq. (6) gives a positive smoothness beta (B / (delta * rho) overflows)")
  .check_positive(beta, "beta")
  st <- .cr_ss_stats(spec, plan, beta, seed)
  if (st$failed_at > 0L) .multiplicity_failure(st$failed_at, st$failed_mult, plan$kappa, plan$rho)
  tau_m <- spec$tau(plan$m); tau_n <- spec$tau(plan$n)
  Q <- tau_m * cpp_upper_quantile(st$dist, alpha)
  s <- .cr_ss_s(st, plan, beta)   # Lemma 5.5
  .cr_check_noise_scales(c(st$ss_full, tau_m * s), c(st$ss_full, tau_m * s) / mu, "cr_ss")
  rel <- cpp_cr_ss_release(st$theta_hat, st$ss_full, beta, Q, tau_m * s, plan$kappa, mu, delta, .rng_seed())
  .cr_zero_radius_note(rel$q_tilde, "cr_ss")
  .cr_radius_noise_note(rel$q_tilde, 2 * rel$radius_bound / mu, plan, "cr_ss")
  .new_private_cr(rel$center, rel$q_tilde, tau_n, alpha, plan, "CR-SS", spec,
                  .privacy_record(mu, delta, plan$n, "(mu, delta)-GDP (Theorem 5.6), non-asymptotic",
                                  list(noise_law = paste0("exact discrete Gaussian on public grids (Canonne, ",
                                                          "Kamath & Steinke 2020) in both PTR steps")),
                                  dp = budget$dp),
                  list(center_bound = rel$center_bound, radius_bound = rel$radius_bound, tau_m = tau_m), cl,
                  extra = list(beta = beta, prob = if (identical(estimator, "quantile")) prob))
}

# The (mu, delta)-GDP budget of CR-SS (Theorem 5.6). Given `mu`, `delta` is the
# delta of (mu, delta)-GDP, as in the paper. Given `epsilon` instead, `delta` is
# the total delta of the (epsilon, delta)-DP target, split in halves: delta / 2
# for the PTR steps and delta / 2 for the mu-GDP part, mu = gdp_mu(epsilon,
# delta / 2) (Proposition 3.6). A (mu, d1)-GDP trade-off is at least G_mu - d1
# (Definition 5.2, eq. 5), and G_mu lies above the (epsilon, d2)-DP line
# 1 - d2 - e^epsilon alpha when d2 = delta_mu(epsilon); so the release is
# (epsilon, d1 + d2)-DP. Any split keeps the target; the even one is simple, not
# an optimum.
.cr_ss_budget <- function(mu, delta, epsilon) {
  if (!is.null(epsilon)) {
    if (!is.null(mu)) .arg_fail("mu", "given alone, or replaced by 'epsilon' and 'delta' (not both)")
    .check_positive(epsilon, "epsilon")
    if (is.null(delta)) .arg_fail("delta", "given with 'epsilon' (the delta of the (epsilon, delta)-DP target)")
    .check_open_unit(delta, "delta")
    return(list(mu = gdp_mu(epsilon, delta / 2), delta = delta / 2, dp = c(epsilon = epsilon, delta = delta)))
  }
  if (is.null(mu)) .arg_fail("mu", "given (the GDP privacy budget), or 'epsilon' and 'delta'")
  .check_positive(mu, "mu")
  if (is.null(delta)) .arg_fail("delta", "given (the delta of (mu, delta)-GDP)")
  .check_open_unit(delta, "delta")
  list(mu = mu, delta = delta, dp = NULL)
}

# ---- methods ---------------------------------------------------------------

.fmt_pct <- function(p) paste(format(100 * p, trim = TRUE, scientific = FALSE, digits = 3), "%")

.fmt_multiplicity <- function(x) {
  switch(x$multiplicity %||% NA_character_,
         realised = sprintf(", kappa = %d (largest realised multiplicity)", x$kappa),
         bound = sprintf(", kappa* = %d (eq. 4)", x$kappa_star),
         "")
}

#' @export
format.private_cr <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  mode <- switch(x$mode, wr = "m-out-of-n with replacement", wor = "subsampling without replacement",
                 blb = "bag of little bootstraps", x$mode)
  p <- x$privacy
  priv <- if (p$delta > 0) sprintf("(%s, %s)-GDP", format(p$mu, digits = digits), format(p$delta, digits = digits))
          else sprintf("%s-GDP", format(p$mu, digits = digits))
  lines <- c(
    sprintf("Private confidence %s (%s, %s)", if (x$d == 1) "interval" else "region", x$method, mode),
    sprintf("  estimator: %s", x$description %||% x$estimator),
    sprintf("  n = %d, m = %d, B = %d%s", x$n, x$m, x$B, .fmt_multiplicity(x)))
  if (x$d == 1) {
    lines <- c(lines, sprintf("  %s interval: [%s, %s]  (centre %s, radius %s%s)", .fmt_pct(x$level),
                              format(x$interval[["lower"]], digits = digits), format(x$interval[["upper"]], digits = digits),
                              format(unname(x$center), digits = digits), format(x$radius, digits = digits),
                              if (is.null(x$range)) "" else sprintf("; within the bounds [%s, %s]",
                                                                   format(x$range$lower, digits = digits),
                                                                   format(x$range$upper, digits = digits))))
  } else {
    lines <- c(lines, sprintf("  %s ball: radius %s around", .fmt_pct(x$level), format(x$radius, digits = digits)),
               paste0("    ", paste(format(names(x$center)), format(x$center, digits = digits), collapse = "\n    ")),
               if (!is.null(x$range)) "    intersected with the declared bounds (confint() gives its box)")
  }
  lines <- c(lines, sprintf("  privacy: %s, i.e. (%s, %s)-DP; %s", priv, format(p$epsilon, digits = digits),
                            format(p$delta_dp, digits = digits), p$guarantee),
             if (!is.null(p$noise_law)) paste0("  noise: ", p$noise_law),
             paste0("  ", .noise_line(p[["randomness"]])))
  lines
}

#' @export
print.private_cr <- function(x, ...) {
  cat(format(x, ...), sep = "\n")
  invisible(x)
}

#' Confidence intervals from a private confidence region
#'
#' For a one-dimensional region, the released interval. For a ball in \eqn{R^d},
#' the intervals centre \eqn{\pm} radius for each coordinate: the ball's bounding
#' box, whose simultaneous coverage is at least that of the ball. The level is the
#' one the region was released at; another level needs a new release (and spends
#' privacy again).
#'
#' @param object A `"private_cr"` object.
#' @param parm Coordinates (names or numbers); default all.
#' @param level Must equal the released level `object$level`.
#' @param ... Unused.
#' @return A matrix with one row per coordinate and columns for the lower and upper limits.
#' @examples
#' set.seed(2)
#' fit <- cr_gs(runif(1000), "mean", mu = 4, bounds = c(0, 1))
#' confint(fit)
#' @export
confint.private_cr <- function(object, parm, level = object$level, ...) {
  .check_no_dots("confint", ...)
  if (!is.numeric(level) || length(level) != 1L || abs(level - object$level) > 1e-12)
    stop(sprintf("'level' must be %s, the level this region was released at; a different level needs a new release (which spends privacy again).",
                 format(object$level)), call. = FALSE)
  cf <- object$center
  pn <- names(cf)
  parm <- .select_terms(if (missing(parm)) NULL else parm, pn)
  a <- (1 - level) / 2
  ci <- .cr_limits(cf, object$radius, object$range)
  dimnames(ci) <- list(pn, .fmt_pct(c(a, 1 - a)))
  ci[parm, , drop = FALSE]
}

#' @export
coef.private_cr <- function(object, ...) {
  .check_no_dots("coef", ...)
  est <- object$estimate %||% object$center
  stats::setNames(as.numeric(est), names(object$center))
}

#' @export
nobs.private_cr <- function(object, ...) {
  .check_no_dots("nobs", ...)
  object$n
}

#' @export
as.data.frame.private_cr <- function(x, row.names = NULL, optional = FALSE, ...) {
  # The private fits' schema first (R/private-posterior.R): method, term, tau
  # (the quantile level of a CR-SS quantile), estimate, sd (NA: a region has
  # no draws), lower, upper; then the region's own settings.
  lim <- .cr_limits(x$center, x$radius, x$range)
  data.frame(method = x$method, term = names(x$center), tau = x$prob %||% NA_real_,
             estimate = unname(stats::coef(x)), sd = NA_real_,
             lower = lim[, "lower"], upper = lim[, "upper"],
             radius = x$radius, level = x$level, mode = x$mode, n = x$n, m = x$m, B = x$B,
             mu = x$privacy$mu, delta = x$privacy$delta, epsilon = x$privacy$epsilon,
             delta_dp = x$privacy$delta_dp, row.names = row.names, stringsAsFactors = FALSE)
}

#' Smooth sensitivity of a sample quantile
#'
#' The \eqn{\beta}-smooth upper bound on the local sensitivity of the order
#' statistic \eqn{x_{(h)}}, \eqn{h = \lceil p n \rceil}, of data clipped to
#' `bounds` \eqn{= (l, u)} (Nissim, Raskhodnikova & Smith 2007; Lemma 6.1 of the
#' one-shot confidence-region paper):
#' \deqn{SS(D) = \max\Big(\max_{0\le k\le k^\star} e^{-k\beta}\max_{0\le t\le k+1}(x_{(h+t)} - x_{(h+t-k-1)}),\ e^{-(k^\star+1)\beta}(u - l)\Big)}
#' with \eqn{x_{(j)} = l} for \eqn{j < 1}, \eqn{u} for \eqn{j > n}, and
#' \eqn{k^\star = \lceil \max(0, (\log((u-l)/C) + 3\log n)/\beta)\rceil}. The floor
#' term replaces the paper's additive slack \eqn{C/n^3}: it is at most that slack,
#' it dominates every term beyond \eqn{k^\star} (so the result is at least the exact
#' smooth sensitivity), and unlike an additive slack it keeps the bound exactly
#' \eqn{\beta}-smooth. Computed in \eqn{O(n\log n + k^\star\log k^\star)}.
#'
#' @param x Numeric data (clipped to `bounds`).
#' @param prob Quantile level \eqn{p} in (0, 1).
#' @param beta Smoothness parameter \eqn{\beta > 0}.
#' @param bounds Public bounds `c(lower, upper)`.
#' @param C Slack constant (default `upper - lower`).
#' @return The smooth sensitivity, with attributes `k_star` and `estimate` (the non-private quantile).
#' @examples
#' set.seed(1)
#' smooth_sensitivity_quantile(runif(1000, -1, 1), 0.5, beta = 0.1, bounds = c(-1, 1))
#' @export
smooth_sensitivity_quantile <- function(x, prob, beta, bounds, C = NULL) {
  .check_finite_numeric(x, "x")
  .check_open_unit(prob, "prob")
  .check_positive(beta, "beta")
  b <- .cr_bounds(bounds, 1L)
  C <- C %||% (b$upper - b$lower)
  .check_positive(C, "C")
  xv <- pmin(pmax(as.numeric(x), b$lower), b$upper)
  r <- cpp_ss_quantile(xv, prob, beta, b$lower, b$upper, C)
  structure(unname(r[["ss"]]), k_star = unname(r[["k_star"]]), estimate = unname(r[["estimate"]]))
}

# Smooth sensitivity of the x*y U-statistic (derivation in src/core/cr_ss.h).
.ss_ustat_product <- function(x, beta, bounds) {
  b <- .cr_bounds(bounds, 1L)
  xv <- pmin(pmax(as.numeric(x), b$lower), b$upper)
  unname(cpp_ss_ustat_product(xv, beta, b$lower, b$upper)[["ss"]])
}
