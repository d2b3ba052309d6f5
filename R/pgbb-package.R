#' pgbb: Private Generative Bayesian Bootstrap and One-Shot Private Confidence Regions
#'
#' Differentially private uncertainty quantification. The Private Generative
#' Bayesian Bootstrap (PGBB) trains a generator of blocked Bayesian-bootstrap
#' draws with noisy gradients, accounted for by a Dirichlet-aware Renyi-DP
#' accountant; one-shot private confidence regions add noise once to a
#' resampling quantile.
#'
#' Randomness: the privacy noise comes from the package's ChaCha20 generator,
#' keyed from the operating system's entropy at every call, so `set.seed()` does
#' not reproduce it; `options(pgbb.seeded_noise = TRUE)` is the labelled opt-in
#' for reproducible (not publishable) runs. See [pgbb_privacy], "Randomness".
#'
#' @keywords internal
#' @useDynLib pgbb, .registration = TRUE
#' @importFrom Rcpp sourceCpp
#' @importFrom stats coef confint vcov nobs predict simulate fitted residuals
#' @importFrom graphics plot
#' @aliases pgbb-package
"_PACKAGE"
