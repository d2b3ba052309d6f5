#' pgbb: Private Generative Bayesian Bootstrap and One-Shot Private Confidence Regions
#'
#' Differentially private uncertainty quantification. The Private Generative
#' Bayesian Bootstrap (PGBB) trains a generator of blocked Bayesian-bootstrap
#' draws with noisy gradients, accounted for by a Dirichlet-aware Renyi-DP
#' accountant; one-shot private confidence regions add noise once to a
#' resampling quantile.
#'
#' Randomness: every function that draws random numbers seeds the package's own
#' engine (xoshiro256++) from R's generator, so `set.seed()` before a call gives
#' identical results.
#'
#' @keywords internal
#' @useDynLib pgbb, .registration = TRUE
#' @importFrom Rcpp sourceCpp
#' @importFrom stats coef confint vcov nobs predict simulate fitted residuals
#' @importFrom graphics plot
#' @aliases pgbb-package
"_PACKAGE"
