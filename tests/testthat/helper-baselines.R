# Independent references for the baselines' privacy tests: nothing here calls the
# package's own GDP code, so a bug there cannot hide a bug in the calibration.

# Exact delta(eps) of the Gaussian mechanism N(f, sigma^2) with l2-sensitivity Delta,
# by brute-force integration of the hockey-stick divergence
#   delta = int max(0, p(x) - e^eps q(x)) dx,  p = N(Delta, sigma^2), q = N(0, sigma^2)
# (the worst pair of neighbours differs by Delta along one direction; orthogonal
# directions integrate out). The integrand is positive exactly for x > x0 with
# x0 = sigma^2 eps / Delta + Delta / 2; the integral is split at the modes.
hockey_stick_delta <- function(Delta, sigma, eps) {
  x0 <- sigma^2 * eps / Delta + Delta / 2
  f <- function(x) pmax(0, dnorm(x, Delta, sigma) - exp(eps) * dnorm(x, 0, sigma))
  brk <- sort(unique(c(x0, max(x0, Delta), max(x0, Delta) + 10 * sigma)))
  tot <- 0
  for (k in seq_len(length(brk) - 1L))
    tot <- tot + integrate(f, brk[k], brk[k + 1L], rel.tol = 1e-12, abs.tol = 0,
                           subdivisions = 1000L)$value
  tot + integrate(f, brk[length(brk)], Inf, rel.tol = 1e-12, abs.tol = 0)$value
}

# Exact GDP profile written from its closed form in the test (pnorm on the log scale)
# and the largest mu with delta_mu(eps) <= delta by uniroot on log mu.
ref_gdp_delta <- function(mu, eps) {
  a <- pnorm(-eps / mu + mu / 2, log.p = TRUE)
  b <- eps + pnorm(-eps / mu - mu / 2, log.p = TRUE)
  exp(a) * (-expm1(b - a))
}
ref_gdp_mu <- function(eps, delta) {
  g <- function(lm) log(ref_gdp_delta(exp(lm), eps)) - log(delta)
  exp(uniroot(g, c(log(1e-2), log(1e2)), tol = 1e-13)$root)
}
