# Gaussian differential privacy (Dong, Roth & Su 2022), as used by the one-shot
# confidence-region paper: Section 3.1.1, Propositions 3.6, 3.7 and 5.3.

.check_nonneg_vec <- function(x, arg, allow_inf = TRUE) {
  if (!is.numeric(x) || length(x) == 0L || anyNA(x) || any(x < 0) || (!allow_inf && any(!is.finite(x))))
    .arg_fail(arg, if (allow_inf) "a non-empty vector of non-negative numbers" else
      "a non-empty vector of non-negative finite numbers")
  invisible(as.numeric(x))
}

.check_unit_vec <- function(x, arg) {
  if (!is.numeric(x) || length(x) == 0L || anyNA(x) || any(x <= 0 | x >= 1))
    .arg_fail(arg, "a non-empty vector of numbers strictly between 0 and 1")
  invisible(as.numeric(x))
}

#' Gaussian differential privacy: conversions, composition and noise scale
#'
#' A mechanism is \eqn{\mu}-GDP when distinguishing its outputs on neighbouring
#' data sets is no easier than distinguishing \eqn{N(0, 1)} from \eqn{N(\mu, 1)}.
#' \itemize{
#'   \item `gdp_delta(mu, epsilon)` is the privacy profile of Proposition 3.6 of
#'   the one-shot confidence-region paper: \eqn{\mu}-GDP holds if and only if
#'   \eqn{(\varepsilon, \delta_\mu(\varepsilon))}-DP holds for every \eqn{\varepsilon \ge 0}, with
#'   \deqn{\delta_\mu(\varepsilon) = \Phi(-\varepsilon/\mu + \mu/2) - e^{\varepsilon}\Phi(-\varepsilon/\mu - \mu/2).}{delta_mu(eps) = Phi(-eps/mu + mu/2) - exp(eps) Phi(-eps/mu - mu/2).}
#'   It is computed on the log scale, so it stays accurate (and `log = TRUE` stays
#'   finite) when both terms underflow.
#'   \item `gdp_mu(epsilon, delta)` is the largest \eqn{\mu} with
#'   \eqn{\delta_\mu(\varepsilon) \le \delta}{delta_mu(eps) <= delta} (Dong et al. 2022, Corollary 2.13),
#'   found by bisection on \eqn{\log\mu}; the returned value is the feasible
#'   endpoint, so it never overstates the privacy budget.
#'   \item `gdp_epsilon(mu, delta)` is the smallest \eqn{\varepsilon \ge 0} with
#'   \eqn{\delta_\mu(\varepsilon) \le \delta}{delta_mu(eps) <= delta}: the
#'   \eqn{(\varepsilon, \delta)}-DP equivalent of \eqn{\mu}-GDP (feasible endpoint, rounded up).
#'   \item `gdp_compose(...)` composes mechanisms: \eqn{\mu = \sqrt{\sum_i \mu_i^2}}
#'   (eq. 3); with `delta`, approximate \eqn{(\mu_i, \delta_i)}-GDP mechanisms compose to
#'   \eqn{(\sqrt{\sum_i \mu_i^2}, 1 - \prod_i (1 - \delta_i))}-GDP (Proposition 5.3).
#'   \item `gdp_noise_scale(sensitivity, mu)` is the standard deviation
#'   \eqn{\Delta/\mu} of the Gaussian mechanism that is \eqn{\mu}-GDP for a statistic of
#'   \eqn{\ell_2}-sensitivity \eqn{\Delta} (Proposition 3.7).
#' }
#'
#' @param mu GDP parameter(s) \eqn{\mu \ge 0}.
#' @param epsilon Privacy parameter(s) \eqn{\varepsilon \ge 0}.
#' @param delta Target \eqn{\delta} in (0, 1) for `gdp_mu()` / `gdp_epsilon()`; for
#'   `gdp_compose()`, optional \eqn{\delta_i} of approximate-GDP mechanisms (one per
#'   \eqn{\mu_i}).
#' @param log If `TRUE`, `gdp_delta()` returns \eqn{\log\delta}.
#' @param ... GDP parameters \eqn{\mu_i} of the mechanisms to compose (numbers or vectors).
#' @param sensitivity \eqn{\ell_2}-sensitivity \eqn{\Delta \ge 0} of the released statistic.
#' @return `gdp_delta()`, `gdp_mu()`, `gdp_epsilon()`, `gdp_noise_scale()`: numeric
#'   vectors (an argument of length 1 is recycled; other lengths must agree). `gdp_compose()`: the composed \eqn{\mu},
#'   or, when `delta` is given, a named vector `c(mu = , delta = )`.
#' @examples
#' gdp_delta(1, 1)
#' gdp_mu(epsilon = 1, delta = 1e-5)
#' gdp_epsilon(mu = 0.5, delta = 1e-6)
#' gdp_compose(1, 1, 1)
#' gdp_compose(c(2, 2), delta = c(1e-6, 1e-6))
#' gdp_noise_scale(sensitivity = 2 / 1000, mu = 1)
#' @name gdp
NULL

#' @rdname gdp
#' @export
gdp_delta <- function(mu, epsilon, log = FALSE) {
  .check_nonneg_vec(mu, "mu")
  .check_nonneg_vec(epsilon, "epsilon")
  .check_flag(log, "log")
  .check_recycling(mu, epsilon, "mu", "epsilon")
  cpp_gdp_delta(as.numeric(mu), as.numeric(epsilon), log)
}

#' @rdname gdp
#' @export
gdp_mu <- function(epsilon, delta) {
  .check_nonneg_vec(epsilon, "epsilon", allow_inf = FALSE)
  .check_unit_vec(delta, "delta")
  .check_recycling(epsilon, delta, "epsilon", "delta")
  cpp_gdp_mu(as.numeric(epsilon), as.numeric(delta))
}

#' @rdname gdp
#' @export
gdp_epsilon <- function(mu, delta) {
  .check_nonneg_vec(mu, "mu", allow_inf = FALSE)
  .check_unit_vec(delta, "delta")
  .check_recycling(mu, delta, "mu", "delta")
  cpp_gdp_epsilon(as.numeric(mu), as.numeric(delta))
}

#' @rdname gdp
#' @export
gdp_compose <- function(..., delta = NULL) {
  mu <- unlist(list(...), use.names = FALSE)
  if (is.null(mu)) .arg_fail("...", "at least one GDP parameter mu")
  .check_nonneg_vec(mu, "...")
  if (is.null(delta)) return(cpp_gdp_compose(as.numeric(mu), numeric(0))[["mu"]])
  if (!is.numeric(delta) || length(delta) != length(mu) || anyNA(delta) || any(delta < 0 | delta >= 1))
    .arg_fail("delta", "a vector of numbers in [0, 1), one per mu")
  cpp_gdp_compose(as.numeric(mu), as.numeric(delta))
}

#' @rdname gdp
#' @export
gdp_noise_scale <- function(sensitivity, mu) {
  .check_nonneg_vec(sensitivity, "sensitivity", allow_inf = FALSE)
  if (!is.numeric(mu) || length(mu) == 0L || anyNA(mu) || any(mu <= 0))
    .arg_fail("mu", "a vector of positive numbers")
  .check_recycling(sensitivity, mu, "sensitivity", "mu")
  sensitivity / mu
}

# Two vectorised arguments recycle only when their lengths are equal or one is
# 1: gdp_mu(c(1, 2), c(1e-5, 1e-6, 1e-7)) would otherwise pair values by
# position modulo the lengths, without a word.
.check_recycling <- function(a, b, a_name, b_name) {
  if (length(a) != length(b) && length(a) != 1L && length(b) != 1L)
    .arg_fail(b_name, sprintf("of length 1 or of the length of '%s' (%d), not %d", a_name, length(a), length(b)))
  invisible(TRUE)
}

# Pure eps-DP <-> GDP (used to put the pure-DP BLBQuant baseline on the GDP scale).
.pure_dp_to_gdp <- function(epsilon) cpp_pure_dp_gdp(as.numeric(epsilon), TRUE)
.gdp_to_pure_dp <- function(mu) cpp_pure_dp_gdp(as.numeric(mu), FALSE)
