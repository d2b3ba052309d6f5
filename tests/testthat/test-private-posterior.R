# The one result contract (R/private-posterior.R): every private fit answers
# coef / confint / vcov / nobs / as.data.frame / as.matrix / tidy / glance /
# posterior::as_draws_* the same way, checked against the stored draws.

pp_data <- local({
  set.seed(11)
  d <- data.frame(x = runif(400, -1, 1))
  d$y <- 1 + 0.5 * d$x + rnorm(400, sd = 0.5)
  d
})
pp_bounds <- list(x = c(-1, 1), .response = c(-4, 6))

# The five fits are trained once and shared by the tests below (they only read them).
pp_fits <- local({
  cache <- NULL
  function() {
    if (is.null(cache)) cache <<- pp_train()
    cache
  }
})

pp_train <- function() {
  set.seed(12)
  ctl <- pgbb_control(iterations = 60, hidden = c(8, 8), draws = 200, blocks = 10)
  quiet_noise(list(
    pgbb_one = pgbb(y ~ x, pp_data, loss = "huber", epsilon = 4, bounds = pp_bounds, control = ctl,
                    progress = FALSE),
    pgbb_joint = pgbb(y ~ x, pp_data, loss = "quantile", tau = c(0.25, 0.5, 0.75), epsilon = 4,
                      bounds = pp_bounds, control = ctl, progress = FALSE),
    sgld = dp_sgld(y ~ x, pp_data, loss = "quantile", tau = c(0.25, 0.75), epsilon = 4,
                   bounds = pp_bounds, iterations = 300, rate = 0.05, progress = FALSE),
    ng = suppressWarnings(noisy_gibbs(y ~ x, pp_data, family = "linear", epsilon = 4,
                                      bounds = pp_bounds, iterations = 600)),
    dpb = dp_bootstrap(y ~ x, pp_data, method = "ridge_huber", epsilon = 4, bounds = pp_bounds)
  ))
}

test_that("every private fit inherits the contract and gives one table schema", {
  fits <- pp_fits()
  schema <- c("method", "term", "tau", "estimate", "sd", "lower", "upper")
  for (nm in names(fits)) {
    f <- fits[[nm]]
    expect_s3_class(f, "private_posterior")
    df <- as.data.frame(f, level = 0.9)
    expect_identical(names(df)[1:7], schema, label = nm)
    expect_true(all(df$lower <= df$upper), label = nm)
    # the table and confint()/coef() are the same numbers
    ci <- confint(f, level = 0.9)
    est <- coef(f)
    expect_equal(df$lower, as.vector(if (length(dim(ci)) == 3L) ci[, 1, ] else ci[, 1]), label = nm)
    expect_equal(df$upper, as.vector(if (length(dim(ci)) == 3L) ci[, 2, ] else ci[, 2]), label = nm)
    expect_equal(df$estimate, as.vector(est), label = nm)
    expect_equal(nobs(f), 400L, label = nm)
    expect_error(fitted(f), "stores no records", label = nm)
    expect_error(residuals(f), "stores no records", label = nm)
  }
  expect_identical(unique(as.data.frame(fits$pgbb_joint)$tau), c(0.25, 0.5, 0.75))
  expect_true(all(is.na(as.data.frame(fits$ng)$tau)))
  expect_identical(as.data.frame(fits$sgld)$method[1], "DP-SGLD")
  expect_identical(as.data.frame(fits$pgbb_one)$method[1], "PGBB")
})

test_that("quantile intervals are the equal-tailed quantiles of as.matrix(), level by level", {
  fits <- pp_fits()
  for (nm in c("pgbb_one", "pgbb_joint", "sgld", "ng")) {
    f <- fits[[nm]]
    m <- as.matrix(f)
    df <- as.data.frame(f, level = 0.8)
    expect_equal(ncol(m), nrow(df), label = nm)
    # an independent computation: R's default sample quantile of each column
    q <- apply(m, 2, quantile, probs = c(0.1, 0.9), names = FALSE)
    expect_equal(df$lower, unname(q[1, ]), label = nm)
    expect_equal(df$upper, unname(q[2, ]), label = nm)
    expect_equal(df$estimate, unname(colMeans(m)), label = nm)
  }
  # multi-level draws are flattened to one column per term and level
  m <- as.matrix(fits$pgbb_joint)
  expect_equal(dim(m), c(200L, 6L))
  expect_identical(colnames(m)[1:2], c("(Intercept) [0.25]", "x [0.25]"))
  expect_identical(colnames(as.matrix(fits$pgbb_one)), c("(Intercept)", "x", "scale"))  # Huber's scale
})

test_that("vcov is a matrix for one level and an array terms x terms x levels for several", {
  fits <- pp_fits()
  v1 <- vcov(fits$pgbb_one)
  expect_equal(dim(v1), c(3L, 3L))  # intercept, slope, Huber scale
  expect_equal(v1, cov(as.matrix(fits$pgbb_one)))
  vj <- vcov(fits$pgbb_joint)
  expect_equal(dim(vj), c(2L, 2L, 3L))
  expect_equal(vj[, , 2], cov(fits$pgbb_joint$draws[, , 2]), ignore_attr = TRUE)
  expect_equal(dim(vcov(fits$sgld)), c(2L, 2L, 2L))
  expect_error(vcov(fits$ng, 2), "unknown argument")
})

test_that("DP-Bootstrap keeps its own interval in every table", {
  f <- pp_fits()$dpb
  df <- as.data.frame(f)
  ci <- confint(f)
  expect_equal(df$lower, unname(ci[, 1]))
  # its interval is not the draws' quantile interval (it deconvolves the noise)
  q <- apply(as.matrix(f), 2, quantile, probs = 0.025, names = FALSE)
  expect_false(isTRUE(all.equal(df$lower, unname(q))))
})

test_that("tidy() and glance() follow broom's conventions for every fit", {
  skip_if_not_installed("generics")
  fits <- pp_fits()
  for (nm in names(fits)) {
    t <- generics::tidy(fits[[nm]], conf.level = 0.9)
    expect_named(t, c("term", "tau", "estimate", "std.error", "conf.low", "conf.high"))
    expect_equal(t$conf.low, as.data.frame(fits[[nm]], level = 0.9)$lower, label = nm)
    g <- generics::glance(fits[[nm]])
    expect_equal(nrow(g), 1L)
    expect_equal(g$nobs, 400L, label = nm)
    expect_true(is.finite(g$epsilon) && g$epsilon <= 4 + 1e-8, label = nm)
  }
  # pooled trainings: std.error is the total sd sqrt(W + B/R) the intervals use
  t <- generics::tidy(fits$pgbb_one)
  expect_equal(t$std.error, fits$pgbb_one$variability$total)
  expect_equal(generics::glance(fits$pgbb_one)$runs, 5L)
  expect_named(generics::tidy(fits$ng, conf.int = FALSE), c("term", "tau", "estimate", "std.error"))
})

test_that("posterior::as_draws_matrix / as_draws_array hand over the same draws", {
  skip_if_not_installed("posterior")
  fits <- pp_fits()
  for (nm in names(fits)) {
    m <- as.matrix(fits[[nm]])
    dm <- posterior::as_draws_matrix(fits[[nm]])
    expect_equal(posterior::ndraws(dm), nrow(m), label = nm)
    expect_identical(posterior::variables(dm), colnames(m), label = nm)
    expect_equal(unclass(dm)[, 1], m[, 1], ignore_attr = TRUE, label = nm)
    da <- posterior::as_draws_array(fits[[nm]])
    expect_equal(posterior::nchains(da), 1L)
    expect_equal(as.vector(unclass(da)[, 1, ncol(m)]), m[, ncol(m)], label = nm)
  }
})

test_that("posterior_draws() of a fit with stored draws returns them, by level", {
  fits <- pp_fits()
  d <- posterior_draws(fits$ng)
  expect_identical(d, fits$ng$draws)
  expect_equal(nrow(posterior_draws(fits$ng, n = 10)), 10L)
  expect_error(posterior_draws(fits$ng, n = 1e6), "'n'")
  s <- posterior_draws(fits$sgld, tau = 0.75)
  expect_equal(s, fits$sgld$draw_array[, , 2], ignore_attr = TRUE)
  expect_error(posterior_draws(fits$sgld, tau = 0.3), "'tau'")
})

test_that("compare_private_fits() takes every class through the one table", {
  fits <- pp_fits()
  ref <- stats::lm(y ~ x, pp_data)
  tab <- compare_private_fits(fits[c("pgbb_one", "ng", "dpb")], reference = ref)
  expect_equal(unique(tab$method), c("pgbb_one", "ng", "dpb"))
  expect_true(all(tab$width > 0))
})

test_that("confint/coef of a pgbb fit equal the shared draw summaries, one or many levels", { quiet_noise({
  set.seed(5)
  d <- data.frame(x = runif(200, 0, 10)); d$y <- 1 + 0.3 * d$x + rnorm(200)
  ctl <- pgbb_control(iterations = 40, hidden = 8, draws = 60, blocks = 10)
  one <- pgbb(y ~ x, d, loss = "quantile", tau = 0.5, epsilon = 4,
              bounds = list(x = c(0, 10), .response = c(-10, 15)), control = ctl, progress = FALSE)
  many <- pgbb(y ~ x, d, loss = "quantile", tau = c(0.25, 0.75), epsilon = 4,
               bounds = list(x = c(0, 10), .response = c(-10, 15)), control = ctl, progress = FALSE)
  # Independent computation from the stored draws.
  q <- function(v) stats::quantile(v, c(0.05, 0.95), names = FALSE)
  ci1 <- confint(one, level = 0.9)
  expect_identical(dimnames(ci1), list(c("(Intercept)", "x"), c("5 %", "95 %")))
  expect_equal(unname(ci1["x", ]), q(one$draws[, "x", 1]))
  expect_equal(unname(confint(one, "x", level = 0.9)), t(q(one$draws[, "x", 1])))
  expect_equal(unname(coef(one)), unname(colMeans(one$draws[, , 1])))
  ci2 <- confint(many, parm = 2, level = 0.9)
  expect_equal(dim(ci2), c(1L, 2L, 2L))
  expect_equal(unname(ci2[1, , 2]), q(many$draws[, "x", 2]))
  expect_equal(dim(coef(many)), c(2L, 2L))
  expect_error(confint(one, "z"), "'parm'")
}) })

test_that("tidy() reads the fit's level and names its own arguments in errors", {
  f <- quiet_noise(dp_bootstrap(y ~ x, pp_data, method = "ridge_huber", epsilon = 4, bounds = pp_bounds,
                                level = 0.9))
  # tidy() used to give 95% limits for a fit made (and printed) at 90%.
  td <- generics::tidy(f)
  ci <- confint(f)
  expect_equal(td$conf.low, unname(ci[, 1]))
  expect_equal(td$conf.high, unname(ci[, 2]))
  expect_equal(generics::tidy(f, conf.level = 0.5)$conf.low, unname(confint(f, level = 0.5)[, 1]))
  expect_error(generics::tidy(f, conf.level = 1.5), "'conf.level'")
  expect_error(generics::tidy(f, conf.int = "yes"), "'conf.int' must be TRUE or FALSE")
  expect_false("conf.low" %in% names(generics::tidy(f, conf.int = FALSE)))
})

test_that("the S3 methods refuse arguments they would silently drop", {
  fits <- pp_fits()
  expect_error(confint(fits$dpb, levl = 0.5), "unknown argument 'levl'")
  expect_error(summary(fits$ng, levl = 0.8), "unknown argument 'levl'")
  expect_error(summary(fits$ng, level = 2), "'level'")
  expect_error(summary(fits$sgld, levl = 0.8), "unknown argument 'levl'")
  expect_error(summary(fits$sgld, level = 0), "'level'")
  bb <- bayesian_bootstrap(pp_data$y, loss = "mean", draws = 50)
  expect_error(confint(bb, levl = 0.5), "unknown argument 'levl'")
})

test_that("one-training PGBB intervals say that they leave out the privacy noise's error", {
  set.seed(13)
  one <- quiet_noise(pgbb_fit(rnorm(300, 1), loss = "mean", epsilon = 2, box = c(-5, 5), x_bounds = c(-5, 5),
                              blocks = 10, rate = 0.5, iterations = 60, hidden = 8, draws = 100))
  expect_match(paste(capture.output(print(summary(one))), collapse = "\n"), "ONE training")
  expect_warning(confint(one), "ONE training")
  expect_warning(generics::tidy(one), "ONE training")
  # The noise-aware default carries the privacy noise's error: no such warning.
  pooled <- pp_fits()$pgbb_one
  expect_gt(pooled$ledger$runs, 1L)
  expect_no_warning(confint(pooled))
  expect_no_warning(generics::tidy(pooled))
  # Without privacy noise there is no noise error to leave out.
  np <- quiet_noise(pgbb_fit(rnorm(300, 1), loss = "mean", sigma = 0, box = c(-5, 5), x_bounds = c(-5, 5),
                             blocks = 10, rate = 0.5, iterations = 30, hidden = 8, draws = 50))
  expect_no_warning(confint(np))
})

test_that("simulate() refuses to pass coefficient draws off as simulated responses", {
  # stats::simulate() returns responses; the method returned posterior_draws()
  # under that name.
  f <- pp_fits()$pgbb_one
  set.seed(99)
  before <- .Random.seed
  expect_error(simulate(f, nsim = 5, seed = 3), "posterior_draws\\(fit, n\\)")
  expect_identical(.Random.seed, before)
  set.seed(3); d1 <- posterior_draws(f, 5)
  set.seed(3); expect_identical(posterior_draws(f, 5), d1)
})

test_that("the formula baselines keep their formula, and formula() finds it", {
  fits <- pp_fits()
  for (f in fits[c("ng", "dpb", "sgld")]) {
    expect_equal(stats::formula(f), y ~ x, ignore_attr = TRUE)
    expect_identical(as.character(f$call[[1L]]) %in% c("noisy_gibbs", "dp_bootstrap", "dp_sgld"), TRUE)
  }
})

test_that("confint() names its columns as stats does at every level, and 'parm' errors name the bad value", {
  fits <- pp_fits()
  # format(digits = 3) alone gave "5e-02 %" and "1e+02 %" at level 0.999.
  expect_identical(colnames(confint(fits$ng, level = 0.999)), c("0.05 %", "99.95 %"))
  expect_identical(colnames(confint(fits$ng, level = 0.999)),
                   colnames(confint(lm(y ~ x, pp_data), level = 0.999)))
  expect_error(confint(fits$ng, c("x", "z")), "'z' is not a term")
  expect_error(confint(fits$ng, c(1, NA)), "'parm' must be column numbers")
  expect_error(confint(fits$ng, TRUE), "'parm' must be term names")
})

test_that("a pooled fit of few runs warns that vcov() is meaningless when its t tails have no variance", {
  set.seed(21)
  fit <- quiet_noise(pgbb(y ~ x, pp_data, loss = "huber", epsilon = 0.5, bounds = pp_bounds, progress = FALSE,
                          control = pgbb_control(iterations = 40, hidden = 4, draws = 100, runs = 2, blocks = 10)))
  heavy <- fit$variability$df <= 2
  skip_if(!any(heavy), "the two runs happened to agree")
  expect_warning(vcov(fit), "at most 2 degrees of freedom")
  # The point estimate is the pooled centre, inside the fit's own interval.
  ci <- confint(fit, level = 0.9)
  expect_true(all(ci[, 1] <= coef(fit) & coef(fit) <= ci[, 2]))
})

test_that("an interval whose level needs more draws than the fit holds says it is too narrow", {
  f <- pp_fits()$pgbb_one   # 200 stored draws
  # 200 draws put 5 beyond each end of a 95% interval but none beyond a 99.9% one,
  # whose ends are then interpolated between the extremes.
  expect_no_warning(confint(f, level = 0.95))
  expect_warning(ci <- confint(f, level = 0.999), "needs at least 2000 draws .* from 200", class = "pgbb_few_draws")
  m <- as.matrix(f)
  expect_equal(unname(ci[, 2]), unname(apply(m, 2, quantile, 0.9995)))
  # One draw gives a zero-width interval: never silently.
  expect_warning(pgbb:::.draws_interval(m[1, , drop = FALSE], NULL, 0.9), class = "pgbb_few_draws")
})

test_that("every front end labels its quantile levels alike, so their coefficients line up", {
  # pgbb_fit() and the bootstraps once labelled a level "tau=0.25" where pgbb(),
  # dp_sgld() and pgbb_reference() said "0.25", so coef(a)[, "0.25"] worked for one
  # fit and failed for the next.
  fits <- pp_fits()
  X <- cbind("(Intercept)" = 1, x = pp_data$x)
  direct <- quiet_noise(pgbb_fit(X, pp_data$y, loss = "quantile", tau = c(0.25, 0.75), epsilon = 4,
                                 x_bounds = list(lower = c(1, -1), upper = c(1, 1)), y_bounds = c(-4, 6),
                                 box = c(-20, 20), blocks = 10, iterations = 60, hidden = 4, draws = 50,
                                 progress = FALSE))
  bb <- bayesian_bootstrap(X, pp_data$y, loss = "quantile", tau = c(0.25, 0.75), draws = 20)
  ref <- pgbb_reference(y ~ x, pp_data, tau = c(0.25, 0.75))
  want <- c("0.25", "0.75")
  for (f in list(fits$sgld, direct, bb)) {
    expect_identical(colnames(coef(f)), want)
    # (these tiny fits' intervals warn that they are too narrow; only the labels matter here)
    expect_identical(dimnames(suppressWarnings(confint(f)))[[3L]], want)
  }
  expect_identical(colnames(coef(fits$pgbb_joint)), c("0.25", "0.5", "0.75"))
  expect_identical(colnames(ref$coefficients), want)
  expect_identical(colnames(as.matrix(direct))[1:2], c("(Intercept) [0.25]", "x [0.25]"))
  expect_identical(colnames(as.matrix(fits$sgld)), colnames(as.matrix(direct)))
})
