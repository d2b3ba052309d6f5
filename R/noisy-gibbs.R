#' NoisyGibbs: noise-aware Bayesian inference from privately released sufficient statistics
#'
#' The sufficient statistics are released once by the Gaussian mechanism; a
#' noise-aware sampler then draws the parameters given the release, with the latent
#' true statistics either sampled alongside (Gibbs) or integrated out (the default for
#' linear regression), so the posterior accounts for the privacy noise (Bernstein &
#' Sheldon 2018 for exponential families, 2019 for linear regression). The draws are
#' post-processing of the release: drawing more costs no privacy. This is the
#' NoisyGibbs baseline of the PGBB paper (SM S3.1-S3.2).
#'
#' @section Families and releases:
#' \describe{
#'   \item{`"gaussian"`}{\eqn{X_i \sim N(\mu, \sigma^2)} with known `sigma`; prior
#'     \eqn{\mu \sim N(m_0, s_0^2)}. Released: the sum of the data clipped to
#'     `bounds = c(a, b)`, sensitivity \eqn{b - a} (replace-one).}
#'   \item{`"exponential"`}{\eqn{X_i \sim \mathrm{Exp}(\lambda)}; prior
#'     \eqn{\lambda \sim \mathrm{Gamma}(a_0, b_0)} (shape, rate). Released as for
#'     `"gaussian"`; `bounds` must lie in \eqn{[0, \infty)}. Draws of the rate and of
#'     the mean \eqn{1/\lambda} are returned.}
#'   \item{`"linear"`}{\eqn{y = X\theta + \varepsilon}, \eqn{\varepsilon \sim N(0, \sigma^2)};
#'     normal-inverse-gamma prior \eqn{\sigma^2 \sim IG(a_0, b_0)},
#'     \eqn{\theta \mid \sigma^2 \sim N(m_0, \sigma^2 \Lambda_0^{-1})}. Covariates are
#'     clipped to \eqn{[-B_x, B_x]} per coordinate and the response to \eqn{[-B_y, B_y]}
#'     (`bounds = c(x = B_x, y = B_y)`). Three releases with the budget split
#'     `split` of \eqn{(\epsilon, \delta)} (default \eqn{(1/2, 1/4, 1/4)}): the unique entries
#'     of \eqn{X'X}, \eqn{X'y}, \eqn{y'y} with sensitivity
#'     \eqn{\Delta = 2\sqrt{p(p+1)/2\,B_x^4 + pB_x^2B_y^2 + B_y^4}}; the second covariate
#'     moments with \eqn{\Delta_2 = (2/n)B_x^2\sqrt{p(p+1)/2}}; the fourth moments with
#'     \eqn{\Delta_4 = (2/n)B_x^4\sqrt{\binom{p+3}{4}}}. Include a column of ones in `x`
#'     for an intercept. Draws of \eqn{\theta} and of \eqn{\sigma} are returned.}
#' }
#' The sample size \eqn{n} is treated as public (replace-one neighbouring data sets
#' have the same \eqn{n}). Data outside the declared bounds are clipped; the bounds
#' must come from public knowledge, never from the data.
#'
#' @section Formula interface:
#' `noisy_gibbs(formula, data, epsilon = , bounds = )` (linear regression) builds the design as [pgbb()] does: `bounds` is a named list of
#' public ranges (one per variable, `.response` for the response; `delta` defaults to
#' `min(1e-6, 0.01 / n)`), the covariates are scaled into the unit box with them (so \eqn{B_x = 1}),
#' the response is centred at the midpoint of its declared range (then \eqn{B_y} is
#' its half-width; without an intercept \eqn{B_y = \max|.response|}), and the draws
#' are mapped back to the original units. The prior then applies to the scaled
#' coefficients.
#'
#' @section Calibration:
#' `calibration = "analytic"` (default) uses the smallest noise whose exact Gaussian
#' privacy profile meets \eqn{(\epsilon, \delta)} (Balle & Wang 2018):
#' \eqn{\sigma = \Delta / \mu} with \eqn{\mu} = [gdp_mu]`(epsilon, delta)`. It is a
#' proven guarantee for every \eqn{\epsilon}. `calibration = "classical"` uses
#' \eqn{\sigma = \Delta\sqrt{2\log(1.25/\delta)}/\epsilon} (Dwork & Roth 2014), as in the
#' PGBB paper. Its proof requires \eqn{\epsilon < 1} per release: for a per-release
#' \eqn{\epsilon \ge 1} the classical theorem is **not** a proven \eqn{(\epsilon, \delta)}
#' guarantee. Because the Gaussian mechanism's exact privacy profile is known, every
#' release is checked against it (column `exact_delta` of the ledger's `releases`): at
#' the paper's budgets the classical noise does meet \eqn{(\epsilon, \delta)}, but for
#' large \eqn{\epsilon} (e.g. 16 or more at \eqn{\delta = 10^{-4}}) it does not, and such a
#' release is refused with an error. The classical option exists only to reproduce the
#' paper. The releases of the linear model compose by basic composition to
#' \eqn{(\epsilon, \delta)}.
#'
#' @section Sampler:
#' Exponential families, and `sampler = "gibbs"` for regression: each iteration draws
#' the latent statistic from its conditional (the central-limit normal approximation
#' of its sampling distribution times the Gaussian noise likelihood, truncated to the
#' statistics that some clipped data set could have: \eqn{[na, nb]} for a sum, a
#' positive-definite Gram matrix for regression) and then the parameters from their
#' exact conjugate posterior given that statistic. For regression the normal
#' approximation uses the released (noisy) covariate moments, projected to valid
#' (positive semidefinite) moment matrices.
#'
#' Regression, `sampler = "marginal"` (default): both parts of the Bernstein-Sheldon
#' model are Gaussian (the latent statistic \eqn{s \sim N(n\mu_t, n\Sigma_t)} by the
#' central limit theorem, their equations (2)-(3), and the release
#' \eqn{z \sim N(s, \tau^2 I)}), so \eqn{s} integrates out:
#' \deqn{p(\theta, \sigma^2 \mid z) \propto p(\theta, \sigma^2)\, N(z;\, n\mu_t,\, n\Sigma_t + \tau^2 I).}
#' A random-walk Metropolis chain on \eqn{(\theta, \log\sigma^2)} samples this
#' density. Its Gaussian proposal starts from a Laplace approximation at the starting
#' point and is re-estimated from the chain during burn-in (windows of doubling length,
#' scale tuned towards acceptance 0.234); it is frozen at the end of burn-in, so the
#' kept draws come from one fixed Metropolis kernel. The target is the Gibbs
#' sampler's without the truncation of \eqn{s} to valid Gram matrices, whose
#' probability under the normal approximation is 1 up to a negligible tail at the
#' sample sizes that approximation needs. `details` holds the kept part's
#' `acceptance` and the final `proposal` covariance. Both samplers read only the
#' released statistics.
#'
#' @section Mixing (linear regression):
#' The latent-statistic Gibbs sampler (`sampler = "gibbs"`) mixes slowly when the
#' privacy noise dominates the sampling variability: each iteration moves
#' \eqn{\theta} by about the non-private standard error while the posterior spread is
#' set by the noise, so the autocorrelation time is roughly
#' \eqn{\tau^2 / (n \sigma^2 \lambda)} iterations (\eqn{\tau} the noise sd of the
#' released \eqn{X'y}, \eqn{\lambda} the smallest eigenvalue of \eqn{E[xx']}), and it
#' grows further where the posterior puts \eqn{\sigma^2} near zero. At
#' \eqn{n = 10^4}, \eqn{\epsilon = 1}, \eqn{B_y = 10} this is of the order of
#' \eqn{10^4}-\eqn{10^5} iterations: the SM S3.2 chain of 400000 iterations then holds
#' only about ten effective draws per slope and its intervals under-cover. The
#' marginal sampler moves on the scale of the posterior itself: in the same setting
#' its 400000-iteration chain holds thousands of effective draws per coefficient
#' (5000-9700 of the 20000 kept, three replicates) and a fit takes 1-3 s instead of
#' about 10 s; over the twelve cells of Table S2 (100 replicates each) its 95\%
#' intervals covered 0.90-0.98 of the slopes, against 0.66-0.95 before. The
#' effective sample size of every parameter is stored in `details$ess`, and a
#' warning is given when any is below 100; longer chains cost no privacy
#' (post-processing). A single chain that has not explored its target can
#' over-estimate its own effective sample size, so passing the check is necessary,
#' not sufficient.
#'
#' @section Prior (linear regression):
#' The PGBB paper (Section 5, SM S3.2) specifies NoisyGibbs only as the noise-aware
#' sampler of Bernstein & Sheldon (2019) under a Gaussian linear model; it states no
#' prior. Bernstein & Sheldon's model is conjugate: \eqn{\sigma^2 \sim IG(a_0, b_0)},
#' \eqn{\theta \mid \sigma^2 \sim N(m_0, \sigma^2\Lambda_0^{-1})}; that family is kept
#' (the Gibbs sampler needs it). The hyperparameters are our choice: \eqn{m_0 = 0},
#' \eqn{\Lambda_0 = 0.01 I} (prior sd of each coefficient ten error sds) and
#' \eqn{a_0 = b_0 = 1}, a weak prior on the error variance at the unit scale (prior
#' median of \eqn{\sigma^2} 1.44, mode 0.5, no finite mean). Earlier versions used
#' \eqn{b_0 = 0.01}; it matters at low information. The privacy noise leaves the split
#' of \eqn{Y'Y} between fit (\eqn{\theta'X'X\theta}) and error (\eqn{n\sigma^2})
#' weakly identified, and the conjugate prior's density grows like
#' \eqn{(\sigma^2)^{-(a_0 + 1 + p/2)}} down to \eqn{\sigma^2 \approx b_0}, so
#' \eqn{b_0 = 0.01} pulls \eqn{\sigma} far below the truth and \eqn{|\theta|} outward:
#' at \eqn{n = 10^4}, \eqn{\epsilon = 1}, \eqn{B_y = 10}, contaminated errors (true
#' error sd 1.35), one replicate's posterior mean of \eqn{\sigma} was 0.19 under
#' \eqn{b_0 = 0.01} and 0.69 under \eqn{b_0 = 1}. `prior = list(rate = 0.01)`
#' reproduces the earlier default. Choose `shape` and `rate` from public knowledge of
#' the error scale when it exists.
#'
#' @param x Data: a numeric vector for `"gaussian"` / `"exponential"`; the design
#'   matrix (n x p, named columns) for `"linear"`; or a model formula (the formula
#'   method, see 'Formula interface').
#' @param y Response vector (`"linear"` only).
#' @param loss The model (its negative log-likelihood is the loss):
#'   `"gaussian"`, `"exponential"` or `"linear"`; the formula method fits `"linear"`.
#' @param family Former name of `loss`, still accepted.
#' @param ... Unused (an error names any argument given here).
#' @param epsilon,delta Total privacy budget; `epsilon` > 0, `delta` in (0, 1).
#' @param bounds Public bounds: `c(lower, upper)` for `"gaussian"` / `"exponential"`;
#'   `c(x = B_x, y = B_y)` (or a list) for `"linear"`.
#' @param sigma Known standard deviation of the `"gaussian"` model (an error
#'   with another loss, as are `sampler` and `split` with another than `"linear"`).
#' @param prior Conjugate prior as a named list; missing entries take the defaults:
#'   `"gaussian"`: `mean = (a + b)/2`, `sd = b - a`; `"exponential"`: `shape = 1`,
#'   `rate = (a + b)/2` (one pseudo-observation at the midpoint of the public
#'   interval); `"linear"`: `mean = 0`, `precision = 0.01` (a number, times the
#'   identity, or a p x p matrix), `shape = 1`, `rate = 1` (see 'Prior').
#' @param iterations,burn_in,thin Chain length, burn-in and thinning. Defaults:
#'   4000, 2000, 2 for the exponential families and 400000, 200000, 10 for
#'   `"linear"` (SM S3.2); `burn_in` defaults to half of `iterations`.
#' @param calibration `"analytic"` (default) or `"classical"`; see Calibration.
#' @param sampler Linear regression only: `"marginal"` (default), a Metropolis chain
#'   on \eqn{(\theta, \log\sigma^2)} with the latent statistic integrated out, or
#'   `"gibbs"`, the latent-statistic Gibbs sampler of earlier versions (kept for
#'   reproductions; it mixes slowly at low budgets). See 'Sampler' and 'Mixing'.
#' @param split Budget fractions of the three linear-regression releases (sufficient
#'   statistics, second moments, fourth moments); positive, summing to at most 1.
#'   Unnamed in that order, or named `statistics`, `m2` and `m4` in any order.
#' @return An object of class `c("noisy_gibbs", "private_posterior")` with `draws`
#'   (matrix of kept draws), `interval` (`NULL`: the credible interval is the
#'   quantile interval of the draws, see [confint()][private_posterior]), `ledger` (privacy
#'   ledger), `released` (the noisy statistics: the only output computed from the data)
#'   and `details` (model, prior, schedule, number of rejected latent draws; for
#'   `"linear"` also `ess`, the effective sample size of each column of `draws`).
#' @references Bernstein, G. and Sheldon, D. (2018). Differentially private Bayesian
#'   inference for exponential families. NeurIPS. Bernstein, G. and Sheldon, D. (2019).
#'   Differentially private Bayesian linear regression. NeurIPS. Balle, B. and Wang,
#'   Y.-X. (2018). Improving the Gaussian mechanism for differential privacy. ICML.
#' @examples
#' set.seed(1)
#' x <- rnorm(500, 1.5, 0.5)
#' fit <- noisy_gibbs(x, loss = "gaussian", sigma = 0.5, epsilon = 1, delta = 1 / 500,
#'                    bounds = c(-5, 5))
#' fit
#' X <- matrix(runif(3000, -1, 1), ncol = 3, dimnames = list(NULL, c("x1", "x2", "x3")))
#' y <- drop(X %*% c(1.5, -1.5, 1)) + rnorm(1000, sd = 0.5)
#' lin <- noisy_gibbs(X, y, loss = "linear", epsilon = 4, delta = 1e-3,
#'                    bounds = c(x = 1, y = 6), iterations = 40000)
#' confint(lin)
#' @export
noisy_gibbs <- function(x, ...) UseMethod("noisy_gibbs")

#' @rdname noisy_gibbs
#' @export
noisy_gibbs.default <- function(x, y = NULL, loss = c("gaussian", "exponential", "linear"),
                                epsilon, delta, bounds, sigma = NULL, prior = NULL, iterations = NULL,
                                burn_in = NULL, thin = NULL, calibration = c("analytic", "classical"),
                                split = c(statistics = 1/2, m2 = 1/4, m4 = 1/4), family = NULL,
                                sampler = c("marginal", "gibbs"), ...) {
  cl <- match.call()
  .check_no_dots("noisy_gibbs", ...)
  loss <- .ng_loss(loss, family, missing(loss))
  .refuse_unread_settings(names(cl)[-1L], loss, "noisy_gibbs", .ng_setting_readers)
  if (missing(epsilon)) .arg_fail("epsilon", "given (the total privacy budget)")
  if (missing(delta)) .arg_fail("delta", "given (the total privacy budget)")
  .check_budget(epsilon, delta)
  if (missing(bounds)) .arg_fail("bounds", "given: public bounds are required and never taken from the data")
  calibration <- .check_calibration(calibration)
  linear <- loss == "linear"
  schedule <- .ng_schedule(iterations, burn_in, thin, linear)
  fit <- if (linear) {
    .ng_linear(x, y, epsilon, delta, bounds, prior, schedule, calibration, split,
               match.arg(sampler))
  } else {
    .ng_expfam(x, y, loss, epsilon, delta, bounds, sigma, prior, schedule, calibration)
  }
  fit$call <- .release_call(cl, "noisy_gibbs")
  fit
}

#' @rdname noisy_gibbs
#' @param data For the formula method: the data frame.
#' @export
noisy_gibbs.formula <- function(x, data, ..., loss = "linear", epsilon, delta = NULL, bounds = NULL,
                                prior = NULL, iterations = NULL, burn_in = NULL, thin = NULL,
                                calibration = c("analytic", "classical"),
                                split = c(statistics = 1/2, m2 = 1/4, m4 = 1/4), family = NULL,
                                sampler = c("marginal", "gibbs")) {
  cl <- match.call()
  .check_no_dots("noisy_gibbs", ...)
  loss <- .ng_loss(loss, family, missing(loss))
  .check_baseline_formula(x, if (!missing(data)) data, loss, "linear", "noisy_gibbs",
                          missing(data), missing(epsilon))
  .ng_formula(x, data, epsilon, delta, bounds, cl, prior = prior, iterations = iterations,
              burn_in = burn_in, thin = thin, calibration = calibration, split = split,
              sampler = match.arg(sampler))
}

# The settings that only some of NoisyGibbs's losses read.
.ng_setting_readers <- list(sigma = "gaussian", split = "linear", sampler = "linear")

.ng_loss <- function(loss, family, loss_missing)
  .loss_with_alias(loss, family, "family", loss_missing, c("gaussian", "exponential", "linear"))

.ng_schedule <- function(iterations, burn_in, thin, linear) {
  if (is.null(iterations)) iterations <- if (linear) 400000 else 4000
  .check_count(iterations, "iterations", min = 2, max = 1e9)
  if (is.null(burn_in)) burn_in <- floor(iterations / 2)
  .check_count(burn_in, "burn_in", min = 0, max = iterations - 1)
  if (is.null(thin)) thin <- if (linear) 10 else 2
  .check_count(thin, "thin", min = 1, max = iterations)
  kept <- floor((iterations - burn_in) / thin)
  if (kept < 1)
    .arg_fail("thin", sprintf("small enough to keep at least one draw after burn-in (%s iterations kept)",
                              format(iterations - burn_in)))
  .check_memory(kept * 64, "the number of kept draws")
  c(iterations = iterations, burn_in = burn_in, thin = thin, kept = kept)
}

.ng_data_vector <- function(x) {
  if (is.data.frame(x)) x <- as.matrix(x)
  if (is.matrix(x)) {
    if (ncol(x) != 1L) .arg_fail("x", "a numeric vector (or one-column matrix) for this family")
    x <- x[, 1L]
  }
  if (!is.numeric(x) || length(x) < 1L) .arg_fail("x", "a non-empty numeric vector")
  .check_finite_numeric(x, "x")
  as.numeric(x)
}

.ng_interval_bounds <- function(bounds, family) {
  if (is.list(bounds)) bounds <- unlist(bounds)
  if (!is.numeric(bounds) || length(bounds) != 2L || anyNA(bounds) || any(!is.finite(bounds)) ||
      !(bounds[1] < bounds[2]))
    .arg_fail("bounds", "two finite numbers c(lower, upper) with lower < upper (the public range of the data)")
  # The sensitivity is the width and the default prior variance its square: both
  # must be doubles (c(-1e300, 1e300) gave a NaN prior and a misleading error).
  if (!is.finite((bounds[2] - bounds[1])^2))
    .arg_fail("bounds", "of finite width: (upper - lower)^2 overflows double precision")
  if (family == "exponential" && bounds[1] < 0)
    .arg_fail("bounds", "inside [0, Inf) for the exponential family (c(lower, upper) with lower >= 0)")
  as.numeric(bounds)
}

.ng_prior <- function(prior, defaults, arg = "prior") {
  if (is.null(prior)) return(defaults)
  if (!is.list(prior) || (length(prior) && (is.null(names(prior)) || any(names(prior) == ""))))
    .arg_fail(arg, sprintf("a named list with entries among %s",
                           paste(sprintf("'%s'", names(defaults)), collapse = ", ")))
  bad <- setdiff(names(prior), names(defaults))
  if (length(bad))
    .arg_fail(arg, sprintf("a named list with entries among %s (unknown: %s)",
                           paste(sprintf("'%s'", names(defaults)), collapse = ", "),
                           paste(sprintf("'%s'", bad), collapse = ", ")))
  utils::modifyList(defaults, prior)
}

.check_prior_scalar <- function(v, name, positive) {
  ok <- is.numeric(v) && length(v) == 1L && is.finite(v) && (!positive || v > 0)
  if (!ok) .arg_fail(sprintf("prior$%s", name),
                     if (positive) "a single positive finite number" else "a single finite number")
  as.numeric(v)
}

.ng_expfam <- function(x, y, family, epsilon, delta, bounds, sigma, prior, schedule, calibration) {
  if (!is.null(y)) .arg_fail("y", sprintf("NULL for family \"%s\" (there is no response)", family))
  x <- .ng_data_vector(x)
  n <- length(x)
  ab <- .ng_interval_bounds(bounds, family)
  if (family == "gaussian") {
    if (is.null(sigma)) .arg_fail("sigma", "given for family \"gaussian\" (the known standard deviation)")
    .check_positive(sigma, "sigma")
    pr <- .ng_prior(prior, list(mean = mean(ab), sd = diff(ab)))
    pr$mean <- .check_prior_scalar(pr$mean, "mean", FALSE)
    pr$sd <- .check_prior_scalar(pr$sd, "sd", TRUE)
    prior_a <- pr$mean
    prior_b <- pr$sd^2
  } else {
    if (!is.null(sigma)) .arg_fail("sigma", "NULL for family \"exponential\" (it has no known-sd parameter)")
    pr <- .ng_prior(prior, list(shape = 1, rate = mean(ab)))
    pr$shape <- .check_prior_scalar(pr$shape, "shape", TRUE)
    pr$rate <- .check_prior_scalar(pr$rate, "rate", TRUE)
    prior_a <- pr$shape
    prior_b <- pr$rate
    sigma <- NA_real_
  }
  # Calibration (SM S3.2): one release of the clipped sum, replace-one sensitivity b - a.
  sens <- diff(ab)
  plan <- .gaussian_plan("clipped sum", sens, epsilon, delta, calibration)
  plan$dimension <- 1L
  noise <- plan$noise_sd
  # The sampler works with (released sum) / noise^2, which overflows for absurd budgets.
  if (!is.finite(n * max(abs(ab)) / noise^2))
    .arg_fail("epsilon", sprintf("small enough that the noise scale (%.3g) stays representable", noise))
  # Release: the only access to the data (float-safe grid noise, released sd noise_out).
  noise_out <- c(sum = .discrete_noise(noise, sens)$sd)
  z <- cpp_ng_expfam_release(x, ab[1], ab[2], noise, .rng_seed())
  # Noise-aware Gibbs sampler: post-processing of z. It models the noise as
  # N(0, noise_out^2); the rounding to the grid (at most 1/2048 of a sensitivity
  # unit) is ignored.
  g <- cpp_ng_expfam_gibbs(family, z, noise_out[["sum"]], n, ab[1], ab[2],
                           if (is.na(sigma)) 1 else sigma, prior_a, prior_b,
                           schedule[["iterations"]], schedule[["burn_in"]], schedule[["thin"]],
                           .rng_seed())
  draws <- if (family == "gaussian") cbind(mean = g$theta) else cbind(rate = g$theta, mean = 1 / g$theta)
  ess <- .ng_check_mixing(draws, schedule, family)
  ledger <- list(method = "NoisyGibbs", epsilon = epsilon, delta = delta,
                 mu = .gaussian_mu(sens, noise), calibration = calibration, neighbouring = "replace-one",
                 guarantee = .gaussian_guarantee(epsilon, calibration),
                 noise_scale = c(sum = noise), sensitivity = c(sum = sens), split = c(sum = 1),
                 releases = plan, released_sd = noise_out, noise_law = .discrete_noise_law(noise_out))
  title <- sprintf("NoisyGibbs (Bernstein & Sheldon 2018), %s family, n = %d, bounds [%s, %s]",
                   family, n, format(ab[1]), format(ab[2]))
  .new_private_posterior(draws, ledger, "noisy_gibbs", title,
                         released = list(sum = z),
                         details = list(family = family, n = n, bounds = ab, sigma = sigma,
                                        prior = pr, schedule = schedule, latent = g$latent, ess = ess))
}

.ng_linear_bounds <- function(bounds) {
  if (is.list(bounds)) bounds <- unlist(bounds)
  if (!is.numeric(bounds) || length(bounds) != 2L || is.null(names(bounds)) ||
      !setequal(names(bounds), c("x", "y")) || anyNA(bounds) || any(!is.finite(bounds)) ||
      any(bounds <= 0))
    .arg_fail("bounds", paste0("c(x = B_x, y = B_y) with positive finite public bounds for family \"linear\" ",
                               "(|x_ij| <= B_x, |y_i| <= B_y)"))
  bounds[c("x", "y")]
}

# Sensitivities of SM S3.2 for the three releases (replace-one, l2).
.ng_linear_sensitivity <- function(n, p, bx, by) {
  q <- p * (p + 1) / 2
  c(statistics = 2 * sqrt(q * bx^4 + p * bx^2 * by^2 + by^4),
    m2 = 2 / n * bx^2 * sqrt(q),
    m4 = 2 / n * bx^4 * sqrt(choose(p + 3, 4)))
}

.ng_linear <- function(x, y, epsilon, delta, bounds, prior, schedule, calibration, split,
                       sampler = "marginal") {
  if (is.data.frame(x)) x <- as.matrix(x)
  if (!is.matrix(x) || !is.numeric(x) || nrow(x) < 1L || ncol(x) < 1L)
    .arg_fail("x", "a numeric design matrix (n x p) for family \"linear\"")
  .check_finite_numeric(x, "x")
  if (ncol(x) > 40L) .arg_fail("x", "a design with at most 40 columns")
  n <- nrow(x)
  p <- ncol(x)
  xnames <- .design_names(x)   # not set on x: colnames<- would copy the design
  if (any(xnames == "sigma")) .arg_fail("x", "free of a column named 'sigma' (reserved for the error sd)")
  if (is.null(y)) .arg_fail("y", "given for family \"linear\" (the response)")
  if (!is.numeric(y) || length(y) != n) .arg_fail("y", sprintf("a numeric vector of length %d (nrow(x))", n))
  .check_finite_numeric(y, "y")
  if (!is.double(x)) storage.mode(x) <- "double"   # storage.mode<- copies even a double matrix
  b <- .ng_linear_bounds(bounds)
  if (!is.numeric(split) || length(split) != 3L || anyNA(split) || any(split <= 0) ||
      sum(split) > 1 + 1e-12)
    .arg_fail("split", "three positive budget fractions (statistics, m2, m4) summing to at most 1")
  split <- .ng_split_order(split)
  pr <- .ng_prior(prior, list(mean = 0, precision = 0.01, shape = 1, rate = 1))
  m0 <- pr$mean
  if (!is.numeric(m0) || !length(m0) %in% c(1L, p) || any(!is.finite(m0)))
    .arg_fail("prior$mean", sprintf("a finite number or a vector of length %d", p))
  m0 <- rep_len(as.numeric(m0), p)
  L0 <- pr$precision
  if (is.numeric(L0) && length(L0) == 1L && is.finite(L0) && L0 > 0) {
    L0 <- diag(L0, p)
  } else if (!(is.matrix(L0) && is.numeric(L0) && all(dim(L0) == p) && all(is.finite(L0)) &&
               isSymmetric(unname(L0)) && min(eigen(L0, symmetric = TRUE, only.values = TRUE)$values) > 0)) {
    .arg_fail("prior$precision", sprintf("a positive number or a symmetric positive definite %d x %d matrix", p, p))
  }
  pr$shape <- .check_prior_scalar(pr$shape, "shape", TRUE)
  pr$rate <- .check_prior_scalar(pr$rate, "rate", TRUE)
  pr$mean <- m0
  pr$precision <- L0

  # Calibration: budget split (SM S3.2), one Gaussian mechanism per release.
  sens <- .ng_linear_sensitivity(n, p, b[["x"]], b[["y"]])
  if (any(!is.finite(sens)))
    .arg_fail("bounds", "small enough that the sensitivities (B_x^4, B_y^4, ...) are finite: they overflow double precision")
  eps_i <- epsilon * split
  del_i <- delta * split
  q <- p * (p + 1) / 2
  plan <- .gaussian_plan(c("X'X, X'y, y'y", "second moments m2", "fourth moments m4"), unname(sens),
                         unname(eps_i), unname(del_i), calibration)
  plan$dimension <- as.integer(c(q + p + 1, q, choose(p + 3, 4)))
  noise <- stats::setNames(plan$noise_sd, names(sens))
  # Release: the only access to the data (float-safe grid noise, released sds noise_out).
  noise_out <- stats::setNames(vapply(seq_along(noise), function(i)
    .discrete_noise(noise[[i]], sens[[i]], plan$dimension[i])$sd, 0), names(noise))
  rel <- cpp_ng_linear_release(x, as.numeric(y), b[["x"]], b[["y"]], noise[["statistics"]],
                               noise[["m2"]], noise[["m4"]], as.numeric(sens), .rng_seed())
  # Noise-aware sampler: post-processing of the release, at the released sd.
  sample_fun <- if (sampler == "marginal") cpp_ng_linear_marginal else cpp_ng_linear_gibbs
  g <- sample_fun(rel$s, noise_out[["statistics"]], rel$m2, rel$m4, n, p, m0, L0, pr$shape,
                  pr$rate, schedule[["iterations"]], schedule[["burn_in"]],
                  schedule[["thin"]], .rng_seed())
  if (sampler == "gibbs" && g$stays > 0.1 * schedule[["iterations"]])
    warning(sprintf(paste0("NoisyGibbs (linear): in %.0f%% of the iterations no proposal of the latent ",
                           "statistics was valid (positive definite), so the chain hardly moves and ",
                           "the draws are unreliable: the privacy noise is too large for this n (the ",
                           "released moments may be pure noise). Use a larger budget or sample size."),
                    100 * g$stays / schedule[["iterations"]]), call. = FALSE)
  draws <- cbind(g$theta, sqrt(g$sigma2))
  colnames(draws) <- c(xnames, "sigma")
  ess <- .ng_check_mixing(draws, schedule)
  ledger <- list(method = "NoisyGibbs", epsilon = epsilon, delta = delta,
                 mu = .gaussian_mu(sens, noise), calibration = calibration, neighbouring = "replace-one",
                 guarantee = .gaussian_guarantee(eps_i, calibration),
                 noise_scale = noise, sensitivity = sens, split = split, releases = plan,
                 released_sd = noise_out, noise_law = .discrete_noise_law(noise_out))
  title <- sprintf("NoisyGibbs (Bernstein & Sheldon 2019), linear regression, n = %d, p = %d, B_x = %s, B_y = %s",
                   n, p, format(b[["x"]]), format(b[["y"]]))
  .new_private_posterior(draws, ledger, "noisy_gibbs", title, released = rel,
                         details = list(family = "linear", n = n, p = p, bounds = b, prior = pr,
                                        schedule = schedule, sampler = sampler,
                                        rejections = g$rejections, stays = g$stays,
                                        acceptance = g$acceptance, proposal = g$proposal,
                                        ess = ess))
}

# Effective sample sizes of the kept draws (Geyer's initial monotone sequence,
# .chain_ess() in R/dp-sgld.R), with a warning when any is below `min_ess`.
# Why: the data-augmentation Gibbs sampler mixes at a rate set by the fraction of
# missing information, roughly n sigma^2 lambda_min(E xx') / tau^2 per iteration
# (tau = privacy noise sd of X'y). At small budgets this is ~1e-4 or less, so even the
# SM S3.2 chain (400000 iterations) can hold only a handful of effective draws and
# its quantile intervals are far too narrow (n = 1e4, epsilon = 1, B_y = 10: median ESS
# ~10 per slope, coverage 0.64 for nominal 0.95 over 45 intervals, against 0.80 for a
# 4e6-iteration chain and for an independent sampler of the same posterior; see
# inst/scripts/noisy-gibbs-mixing.R).
# (That is the latent-statistic sampler, sampler = "gibbs"; the default marginal
# sampler keeps thousands of effective draws in the same setting.)
# A single stuck chain over-estimates its own ESS, so the check is a floor, not a
# certificate. Draws are post-processing: a longer chain costs no privacy.
.ng_check_mixing <- function(draws, schedule, family = "linear", min_ess = 100) {
  ess <- apply(draws, 2L, .chain_ess)
  if (min(ess) < min_ess)
    warning(sprintf(paste0("NoisyGibbs (%s): the chain has not mixed: only %.0f effective draws ",
                           "(of %d kept) for '%s'; its credible intervals are too narrow. Rerun with ",
                           "more iterations (e.g. iterations = %.0f); drawing more costs no privacy.%s"),
                    family, min(ess), nrow(draws), names(ess)[which.min(ess)],
                    10 * schedule[["iterations"]],
                    if (family == "gaussian") paste0(" With a known sd 'sigma' far below the privacy noise on ",
                                                     "the mean, the chain moves very slowly.") else ""),
            call. = FALSE)
  ess
}

# Terms of a formula front end's formula (for the offset check), or NULL when they
# cannot be built here (the model frame then reports the problem).
.formula_terms_quiet <- function(formula, data) {
  tryCatch(stats::terms(formula, data = if (is.data.frame(data)) data), error = function(e) NULL)
}

# The budget fractions in the order statistics, m2, m4: a named vector is read
# by its names (in any order), so c(m2 = 0.5, statistics = 0.25, m4 = 0.25)
# gives m2 half the budget; names other than those three are an error, not
# read by position.
.ng_split_order <- function(split) {
  keys <- c("statistics", "m2", "m4")
  nm <- names(split)
  if (is.null(nm)) return(stats::setNames(as.numeric(split), keys))
  if (!setequal(nm, keys) || anyDuplicated(nm))
    .arg_fail("split", sprintf("unnamed (statistics, m2, m4 in that order) or named exactly %s (got %s)",
                               paste0("'", keys, "'", collapse = ", "), paste0("'", nm, "'", collapse = ", ")))
  stats::setNames(as.numeric(split[keys]), keys)
}
