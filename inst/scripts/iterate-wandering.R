# What the wandering of noisy iterates does to a quantile fit: the shift of
# the black coefficient of the 1980 Census quantile regressions (census1980.R's
# model) when the coefficient is perturbed by N(0, s^2) inside the loss.
#
# Noisy training settles where the loss averaged over its iterates' wandering
# is stationary: if theta_t = theta + e_t, the mean of the gradients at theta_t
# vanishes, which is the gradient of E_e[loss(theta + e)], the loss convolved
# with the wandering. For the check loss that spreads each record's residual
# by x'e; along a rare indicator (black, 7.6% of the men) the wandering is
# large and spreads that group's residual distribution, so its tail quantiles
# move outwards. The convolved fit is an ordinary rq fit on the data
# replicated at M quantiles of N(0, s^2) with y shifted by black * e_m (the
# average over e_m of the check loss at theta + e_m).
#   Rscript inst/scripts/iterate-wandering.R --data=/path/to/census80.dta
# Prints the shift against rq at tau = 0.1 and 0.9 for s = 0.1, 0.2, 0.3 (the
# coefficient's own scale). Non-private: it reads the data directly, to
# explain a bias, not to release anything.
script_dir <- local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else system.file("scripts", package = "pgbb")
})
source(file.path(script_dir, "quantile-app.R"))
source(file.path(script_dir, "census1980.R"))    # read_census, census_formula

wandering_shift <- function(data, formula, term, sds, taus = c(0.1, 0.9), M = 20) {
  base <- stats::coef(quantreg::rq(formula, tau = taus, data = data, method = "fn"))[term, ]
  y <- all.vars(formula)[1]
  out <- lapply(sds, function(s) {
    e <- stats::qnorm((seq_len(M) - 0.5) / M) * s
    big <- data[rep(seq_len(nrow(data)), M), , drop = FALSE]
    big[[y]] <- big[[y]] - big[[term]] * rep(e, each = nrow(data))
    fit <- stats::coef(quantreg::rq(formula, tau = taus, data = big, method = "fn"))[term, ]
    data.frame(sd = s, tau = taus, shift = unname(fit - base))
  })
  do.call(rbind, out)
}

if (sys.nframe() == 0L) {
  census <- read_census(script_opt("data", ""))
  print(wandering_shift(census, census_formula, "black", c(0.1, 0.2, 0.3)), digits = 3, row.names = FALSE)
}
