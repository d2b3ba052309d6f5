# Renyi-DP accountant of the PGBB paper (Proposition 2.2, SM S1.4, S1.5, S2.2, S2.3):
# per-release log-moment bound, composition, RDP -> (epsilon, delta) conversions and
# noise calibration. The numerics live in src/core/accountant.h.

# Integer orders lambda >= 2 (a vector); returned as integers. Distinct where
# the orders are searched (`distinct`): an order given twice is a curve
# concatenated instead of composed (summed), and the conversion, a minimum over
# the orders, would then under-state epsilon. pgbb_rdp() only evaluates at them.
.check_orders <- function(x, arg, distinct = TRUE) {
  if (!is.numeric(x) || length(x) == 0L || anyNA(x) || any(!is.finite(x)) ||
      any(x != round(x)) || any(x < 2) || any(x > 4096))
    .arg_fail(arg, "a vector of whole numbers between 2 and 4096 (Renyi orders)")
  if (distinct && anyDuplicated(x))
    .arg_fail(arg, sprintf(paste0("distinct Renyi orders (%s given more than once): to compose two curves, ",
                                  "add their values at each order"), paste(unique(x[duplicated(x)]), collapse = ", ")))
  as.integer(x)
}

.check_positive_vector <- function(x, arg) {
  if (!is.numeric(x) || length(x) == 0L || anyNA(x) || any(!(x > 0)) || any(!is.finite(x)))
    .arg_fail(arg, "a vector of positive finite numbers")
  as.numeric(x)
}

.check_unit_vector <- function(x, arg) {
  if (!is.numeric(x) || length(x) == 0L || anyNA(x) || any(x <= 0) || any(x >= 1))
    .arg_fail(arg, "a vector of numbers strictly between 0 and 1")
  as.numeric(x)
}

# Validates the public inputs shared by every accountant entry point and returns the
# list the C++ glue reads. `n`, `blocks`, `gamma` and `alpha` are only looked at when
# the chosen accountant uses them (lazy evaluation lets callers of "plain" omit them);
# given to an accountant that does not read them, they are an error, not ignored.
.accountant_setup <- function(accountant, n, blocks, gamma, alpha, clip, rate, J, m) {
  unread <- c(n = accountant == "plain" && !missing(n),
              blocks = accountant == "plain" && !missing(blocks),
              gamma = accountant != "dirichlet" && !is.null(gamma),
              alpha = accountant != "dirichlet" && !identical(alpha, 0))
  if (any(unread))
    .arg_fail(names(unread)[unread][1L], sprintf("left out for accountant = \"%s\", which does not read it%s",
                                                 accountant, if (accountant == "plain") "" else
                                                   " (it uses the worst-case weight 1 / n_S, not the Dirichlet law)"))
  .check_positive(clip, "clip")
  .check_open_unit(rate, "rate")
  .check_count(J, "J", min = 0, max = 1000)
  .check_count(m, "m", min = 3, max = 100)
  setup <- list(kind = accountant, n = 1, blocks = 1, gamma = 1, alpha = 0,
                clip = as.numeric(clip), rate = as.numeric(rate),
                J = as.integer(J), m = as.integer(m))
  if (accountant != "plain") {
    if (missing(n) || missing(blocks))
      stop(sprintf("'n' and 'blocks' are required by accountant = \"%s\".", accountant),
           call. = FALSE)
    .check_count(blocks, "blocks", min = 2)
    .check_count(n, "n", min = blocks)
    setup$n <- as.numeric(n)
    setup$blocks <- as.numeric(blocks)
  }
  if (accountant == "dirichlet") {
    if (is.null(gamma)) {
      if (blocks < 3)
        stop("'gamma' must be given when 'blocks' is 2 (gamma_star() needs at least 3 blocks).",
             call. = FALSE)
      gamma <- gamma_star(n, blocks)
    }
    .check_positive(gamma, "gamma")
    .check_nonneg(alpha, "alpha")
    setup$gamma <- as.numeric(gamma)
    setup$alpha <- as.numeric(alpha)
  }
  setup
}

# The inputs pgbb_epsilon() and pgbb_sigma() share: delta, the training length
# (iterations * mc releases are composed), the orders and the accountant setup.
# Missing `n` / `blocks` pass through to .accountant_setup() as missing.
.accountant_query <- function(delta, n, blocks, gamma, clip, rate, iterations, mc, J, m, alpha,
                              accountant, orders) {
  .check_open_unit(delta, "delta")
  .check_count(iterations, "iterations")
  .check_count(mc, "mc")
  orders <- .check_orders(orders, "orders")
  list(setup = .accountant_setup(accountant, n, blocks, gamma, alpha, clip, rate, J, m),
       orders = orders, releases = as.numeric(iterations) * mc, delta = as.numeric(delta))
}

#' Per-release Renyi log-moment bound of PGBB's noisy training
#'
#' Upper bound \eqn{A_{J,\lambda,m}(q)} of eq. (S33) of the PGBB paper on the order-\eqn{\lambda}
#' log-moment \eqn{\log E_Q[(dP/dQ)^\lambda] = (\lambda - 1) D_\lambda(P \| Q)} of ONE release of
#' the noisy update (4) (Proposition 2.2). Conditionally on the changed record's weight
#' \eqn{\bar w}, a release is the replace-one Poisson-subsampled Gaussian mechanism, bounded by
#' Birrell et al. (2024, Thm C.9), eqs. (S22)-(S26); the bound is integrated over
#' \eqn{n_S \bar w \sim \mathrm{Beta}(\gamma, (S-1)\gamma + \alpha)} by the Beta-moment Taylor blocks
#' (S28)-(S32) truncated at order `J`, with tails dominated through \eqn{\bar w \le 1/n_S}.
#'
#' Accountants:
#' * `"dirichlet"` (default): the Dirichlet-aware bound of Proposition 2.2 / (S33).
#' * `"worst-case"`: ignores the Dirichlet law and uses the deterministic weight
#'   \eqn{\bar{w} = 1/n_S} (the comparison of Remark 2.2).
#' * `"plain"`: the replace-one Poisson-subsampled Gaussian with per-record sensitivity `clip`
#'   and weight 1 (Birrell et al.'s bound, used for the DP-SGLD baseline); it reads no
#'   `n`, `blocks`, `gamma` or `alpha`, and giving them is an error.
#'
#' The block size is \eqn{n_S = \lfloor n / S \rfloor}, the smallest block when `blocks` does
#' not divide `n`; the bound increases with the weight, so this is conservative.
#'
#' The alternating sums of the paper ((S23), (S30)) are never evaluated as written: they are
#' rewritten exactly as sums of non-negative terms and computed in log space, and a rigorous
#' rounding margin is added, so the value returned is an upper bound of the paper's bound
#' (not merely an approximation of it), finite or `Inf`, never `NaN` or negative.
#'
#' One reading differs from the printed formula, in the safe direction: the Dirichlet-integrated
#' moment bound \eqn{\bar M^{Dir}_{J,k}} of (S30) is capped by the worst-case value
#' \eqn{M_k(1/n_S)} (both bound \eqn{E[M_k(\bar w)]} from above, since \eqn{M_k} increases with
#' the weight). As printed, (S30) exceeds the worst case at large \eqn{k}, which made the
#' Dirichlet-aware bound larger than the worst-case one at high orders; the cap leaves the
#' bound at the orders that matter in practice unchanged (and the paper's calibrated
#' noise scales with it).
#'
#' @param lambda Integer Renyi orders (>= 2); the function is vectorised over `lambda`.
#' @param n Number of records (public).
#' @param blocks Number of blocks `S` (`2 <= blocks <= n`).
#' @param gamma Block Dirichlet concentration; `NULL` (default) means [gamma_star()]`(n, blocks)`.
#' @param clip Bound `C` on the norm of every per-record gradient (public; data are clipped to it).
#' @param sigma Standard deviation of the Gaussian noise added to the weighted gradient.
#' @param rate Poisson subsampling rate `q`, strictly between 0 and 1.
#' @param J Beta-moment truncation order of (S28)-(S29) (default 32).
#' @param m Taylor truncation order of (S22), at least 3 (default 5).
#' @param alpha Pseudo-sample concentration \eqn{\alpha \ge 0} of SM S2.3.2 (default 0).
#' @param accountant One of `"dirichlet"`, `"worst-case"`, `"plain"`.
#' @return Numeric vector of \eqn{A(\lambda)}, one per element of `lambda`. The RDP of the
#'   single release at order \eqn{\lambda} is \eqn{A(\lambda)/(\lambda-1)}; after `T` iterations
#'   with `K` Monte Carlo releases each it is \eqn{T K A(\lambda)/(\lambda-1)} (S34).
#' @references Birrell, J., Ebrahimi, R., Behnia, R. and Pacheco, J. (2024). Differentially
#'   private stochastic gradient descent with fixed-size minibatches. NeurIPS.
#' @seealso [pgbb_epsilon()], [pgbb_sigma()], [rdp_epsilon()].
#' @examples
#' pgbb_rdp(2:6, n = 10000, blocks = 20, clip = 1, sigma = 0.01, rate = 0.1)
#' pgbb_rdp(2:6, n = 10000, blocks = 20, clip = 1, sigma = 0.01, rate = 0.1,
#'          accountant = "worst-case")
#' @export
pgbb_rdp <- function(lambda, n, blocks, gamma = NULL, clip, sigma, rate, J = 32, m = 5,
                     alpha = 0, accountant = c("dirichlet", "worst-case", "plain")) {
  accountant <- .match_arg(accountant)
  orders <- .check_orders(lambda, "lambda", distinct = FALSE)
  .check_positive(sigma, "sigma")
  setup <- .accountant_setup(accountant, n, blocks, gamma, alpha, clip, rate, J, m)
  u <- sort(unique(orders))
  a <- cpp_accountant_log_moments(setup, u, as.numeric(sigma))[, 1]
  a[match(orders, u)]
}

#' Certified privacy of PGBB's noisy training
#'
#' `pgbb_epsilon()` returns the smallest \eqn{\epsilon} such that `iterations` x `mc`
#' releases at noise `sigma` are \eqn{(\epsilon, \delta)}-DP under replace-one adjacency:
#' the per-release bound [pgbb_rdp()] is composed (S34) and converted to
#' \eqn{(\epsilon, \delta)} at every order in `orders`, keeping the best (SM S1.4).
#' `pgbb_sigma()` inverts it: the smallest noise scale (to relative tolerance `tol`) whose
#' certified \eqn{\epsilon} is at most the target, by bracketing and bisection on
#' \eqn{\log\sigma}, returning the FEASIBLE endpoint (SM S1.5), so the returned `sigma`
#' always satisfies the target.
#'
#' Conversions: `"asoodeh"` (default) is the conversion (S1) of Asoodeh et al. (2021) with
#' both branches (\eqn{\lambda\delta < 1} and \eqn{\ge 1}); `"mironov"` is
#' \eqn{\epsilon = \gamma(\lambda) + \log(1/\delta)/(\lambda-1)} (Mironov 2017), the
#' transparent form of Proposition 2.2. Asoodeh's is never larger.
#'
#' @inheritParams pgbb_rdp
#' @param sigma Noise standard deviation(s); `pgbb_epsilon()` is vectorised over `sigma`.
#' @param delta Target \eqn{\delta}, strictly between 0 and 1 (the paper uses `1/n`).
#' @param iterations Number of training iterations `T`.
#' @param mc Number of Monte Carlo releases `K` per iteration (default 1).
#' @param conversion `"asoodeh"` or `"mironov"`.
#' @param orders Integer Renyi orders to optimise over (default `2:256`).
#' @return `pgbb_epsilon()`: numeric vector of \eqn{\epsilon} (one per `sigma`) with attribute
#'   `"order"`, the optimal order.
#' @seealso [pgbb_rdp()], [privacy_curve()], [sigma_closed_form()].
#' @examples
#' ch <- sqrt(1.345^2 * 3 + ((1.345^2 + 0.71) / 2)^2)   # Huber clip, p = 3
#' s <- pgbb_sigma(1, 1e-4, n = 10000, blocks = 20, clip = ch, rate = 0.1,
#'                 iterations = 10000)
#' s
#' pgbb_epsilon(s, 1e-4, n = 10000, blocks = 20, clip = ch, rate = 0.1,
#'              iterations = 10000)
#' @export
pgbb_epsilon <- function(sigma, delta, n, blocks, gamma = NULL, clip, rate, iterations,
                         mc = 1, J = 32, m = 5, alpha = 0,
                         accountant = c("dirichlet", "worst-case", "plain"),
                         conversion = c("asoodeh", "mironov"), orders = 2:256) {
  accountant <- .match_arg(accountant)
  conversion <- .match_arg(conversion)
  sigma <- .check_positive_vector(sigma, "sigma")
  q <- .accountant_query(delta, n, blocks, gamma, clip, rate, iterations, mc, J, m, alpha,
                         accountant, orders)
  res <- cpp_accountant_epsilon(q$setup, q$orders, sigma, q$releases, q$delta, conversion)
  structure(res$epsilon, order = res$order)
}

#' @rdname pgbb_epsilon
#' @param epsilon Target \eqn{\epsilon > 0}.
#' @param tol Relative tolerance of the bisection on \eqn{\sigma} (default `1e-6`).
#' @return `pgbb_sigma()`: the noise scale, with attributes `"epsilon"` (the \eqn{\epsilon}
#'   certified at that scale, at most the target) and `"order"`.
#' @export
pgbb_sigma <- function(epsilon, delta, n, blocks, gamma = NULL, clip, rate, iterations,
                       mc = 1, J = 32, m = 5, alpha = 0,
                       accountant = c("dirichlet", "worst-case", "plain"),
                       conversion = c("asoodeh", "mironov"), orders = 2:256, tol = 1e-6) {
  accountant <- .match_arg(accountant)
  conversion <- .match_arg(conversion)
  .check_positive(epsilon, "epsilon")
  .check_open_unit(tol, "tol")
  q <- .accountant_query(delta, n, blocks, gamma, clip, rate, iterations, mc, J, m, alpha,
                         accountant, orders)
  res <- cpp_accountant_sigma(q$setup, q$orders, q$releases, as.numeric(epsilon), q$delta,
                              conversion, as.numeric(tol))
  structure(res$sigma, epsilon = res$epsilon, order = res$order)
}

#' Privacy curve of PGBB's noisy training
#'
#' The curve \eqn{(\epsilon, \delta_\star(\epsilon))} of Proposition 2.2 at a fixed noise
#' scale (the paper's Figure 1): for every \eqn{\epsilon} in `epsilon`, the smallest
#' \eqn{\delta} certified over `orders`. The default conversion is `"mironov"`, which gives
#' exactly \eqn{\delta_\star(\epsilon) = \inf_\lambda \exp\{T K A(\lambda) - (\lambda-1)\epsilon\}}
#' as plotted in Figure 1; `"asoodeh"` gives the sharper curve of (S1).
#'
#' @inheritParams pgbb_epsilon
#' @param epsilon Grid of \eqn{\epsilon} values (positive).
#' @param sigma Noise standard deviation (a single number).
#' @param conversion `"mironov"` (default, Figure 1's \eqn{\delta_\star}) or `"asoodeh"`.
#' @return A data frame with columns `epsilon`, `delta` and `order` (the optimal order).
#' @examples
#' cv <- privacy_curve(seq(0.5, 4, by = 0.5), sigma = 0.02, n = 10000, blocks = 20,
#'                     clip = 1, rate = 0.1, iterations = 10000)
#' cv
#' @export
privacy_curve <- function(epsilon, sigma, n, blocks, gamma = NULL, clip, rate, iterations,
                          mc = 1, J = 32, m = 5, alpha = 0,
                          accountant = c("dirichlet", "worst-case", "plain"),
                          conversion = c("mironov", "asoodeh"), orders = 2:256) {
  accountant <- .match_arg(accountant)
  conversion <- .match_arg(conversion)
  epsilon <- .check_positive_vector(epsilon, "epsilon")
  .check_positive(sigma, "sigma")
  .check_count(iterations, "iterations")
  .check_count(mc, "mc")
  orders <- .check_orders(orders, "orders")
  setup <- .accountant_setup(accountant, n, blocks, gamma, alpha, clip, rate, J, m)
  res <- cpp_accountant_curve(setup, orders, as.numeric(sigma), as.numeric(iterations) * mc,
                              epsilon, conversion)
  data.frame(epsilon = epsilon, delta = res$delta, order = res$order)
}

#' Convert Renyi-DP guarantees to (epsilon, delta)-DP
#'
#' Converts a vector of RDP values \eqn{\gamma(\lambda)} on a grid of integer orders to
#' \eqn{(\epsilon, \delta)}-DP, minimising over the orders (SM S1.4). RDP composes by
#' addition at each order, so a pipeline of several mechanisms (for example a baseline fit
#' at several quantile levels, SM S3.3) is converted by summing their RDP vectors on a shared
#' order grid first; a PGBB training run contributes
#' `iterations * mc * pgbb_rdp(orders, ...) / (orders - 1)` (S34).
#'
#' @param rdp Total RDP \eqn{\gamma(\lambda)} at each order (non-negative; `Inf` allowed).
#' @param orders Integer orders (>= 2), the same length as `rdp`.
#' @param delta Target \eqn{\delta} value(s) in (0, 1).
#' @param epsilon Target \eqn{\epsilon} value(s) > 0.
#' @param conversion `"asoodeh"` (default; Asoodeh et al. 2021, (S1)) or `"mironov"`.
#' @return `rdp_epsilon()`: \eqn{\epsilon} for each `delta`; `rdp_delta()`: \eqn{\delta} for
#'   each `epsilon`; both with attribute `"order"` (the optimal order for each).
#' @examples
#' orders <- 2:256
#' # two mechanisms composed: a PGBB run and a Gaussian mechanism (RDP lambda / (2 s^2))
#' a <- pgbb_rdp(orders, n = 10000, blocks = 20, clip = 1, sigma = 0.02, rate = 0.1)
#' rdp <- 10000 * a / (orders - 1) + orders / (2 * 20^2)
#' rdp_epsilon(rdp, orders, delta = 1e-4)
#' rdp_delta(rdp, orders, epsilon = 2)
#' @export
rdp_epsilon <- function(rdp, orders, delta, conversion = c("asoodeh", "mironov")) {
  conversion <- .match_arg(conversion)
  args <- .check_rdp(rdp, orders)
  delta <- .check_unit_vector(delta, "delta")
  res <- cpp_rdp_convert(args$rdp, args$orders, delta, "epsilon", conversion)
  structure(res$value, order = res$order)
}

#' @rdname rdp_epsilon
#' @export
rdp_delta <- function(rdp, orders, epsilon, conversion = c("asoodeh", "mironov")) {
  conversion <- .match_arg(conversion)
  args <- .check_rdp(rdp, orders)
  epsilon <- .check_positive_vector(epsilon, "epsilon")
  res <- cpp_rdp_convert(args$rdp, args$orders, epsilon, "delta", conversion)
  structure(res$value, order = res$order)
}

.check_rdp <- function(rdp, orders) {
  orders <- .check_orders(orders, "orders")
  if (!is.numeric(rdp) || length(rdp) != length(orders) || anyNA(rdp) || any(rdp < 0))
    .arg_fail("rdp", "a vector of non-negative numbers (Inf allowed), one per order")
  list(rdp = as.numeric(rdp), orders = orders)
}

#' Leading-order noise scale of Theorem 2.1 (an approximation, NOT a guarantee)
#'
#' The closed-form noise scale of Theorem 2.1 / (S45)-(S51) of the PGBB paper. It drops the
#' higher-order terms of the accountant and is valid only asymptotically (Theorem 2.1's
#' regime: \eqn{\sqrt{\log(1/\delta)/(2TK\kappa)} \ll 1}, \eqn{C/(\sigma n_S) \ll 1},
#' \eqn{q\log(1/\delta)/((1-q)\epsilon) = O(1)}). **It is not a privacy guarantee and must
#' not be used to set the noise of a release**: use [pgbb_sigma()], whose output is
#' certified by the non-asymptotic accountant.
#'
#' With \eqn{c(\sigma) = 2TKq^2C^2\kappa/(\sigma^2 n_S^2)} (S46), \eqn{L = \log(1/\delta)} and
#' \eqn{\kappa = \gamma(\gamma+1)/((S\gamma+\alpha)(S\gamma+\alpha+1))} (\eqn{\kappa = 1} for the
#' worst-case accountant, and \eqn{n_S = 1} for `"plain"`):
#' * `form = "mironov"` solves the reduced Mironov objective (S48), \eqn{c + 2\sqrt{cL} = \epsilon};
#' * `form = "theorem"` is the display (5) / (S51), \eqn{Cq\sqrt{TKL\kappa}/(n_S\epsilon)}, whose
#'   "\eqn{\gtrsim}" drops constants (it is about \eqn{2\sqrt 2} times smaller).
#' The ratio of the Dirichlet-aware to the worst-case scale is \eqn{\sqrt{\kappa_{S,\gamma}}}
#' (Remark 2.2).
#'
#' @inheritParams pgbb_sigma
#' @param form `"mironov"` (default) or `"theorem"`.
#' @return The approximate noise scale (a number).
#' @examples
#' sigma_closed_form(1, 1e-4, n = 10000, blocks = 20, clip = 1, rate = 0.1,
#'                   iterations = 10000)
#' @export
sigma_closed_form <- function(epsilon, delta, n, blocks, gamma = NULL, clip, rate, iterations,
                              mc = 1, alpha = 0,
                              accountant = c("dirichlet", "worst-case", "plain"),
                              form = c("mironov", "theorem")) {
  accountant <- .match_arg(accountant)
  form <- .match_arg(form)
  .check_positive(epsilon, "epsilon")
  .check_open_unit(delta, "delta")
  .check_count(iterations, "iterations")
  .check_count(mc, "mc")
  setup <- .accountant_setup(accountant, n, blocks, gamma, alpha, clip, rate, 0, 3)
  cpp_sigma_leading_order(setup, as.numeric(iterations) * mc, as.numeric(epsilon),
                          as.numeric(delta), form == "mironov")
}
