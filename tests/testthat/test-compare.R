# compare_private_fits() (R/compare.R): the paper's MAE / coverage / width table.

cmp_data <- local({
  set.seed(21)
  d <- data.frame(x = runif(1500, 0, 10))
  d$y <- 1 + 0.3 * d$x + rnorm(1500)
  d
})
cmp_b <- list(x = c(0, 10), .response = c(-5, 10))

# A stand-in private_posterior with known draws, so the table can be checked by hand.
fake_fit <- function(center, spread) {
  draws <- cbind("(Intercept)" = center[1] + spread * c(-1, 0, 1), x = center[2] + spread * c(-1, 0, 1))
  pgbb:::.new_private_posterior(draws, list(method = "fake", epsilon = 1, delta = 1e-3,
                                            calibration = "none", guarantee = "none",
                                            noise_scale = c(a = 1), sensitivity = c(a = 1)),
                                "fake_fit", "fake")
}

test_that("MAE, coverage and width are computed over repeated fits", {
  truth <- c("(Intercept)" = 1, x = 0.3)
  fits <- list(A = list(fake_fit(c(1.2, 0.3), 0.1), fake_fit(c(0.9, 0.5), 0.1)))
  tab <- compare_private_fits(fits, truth = truth, level = 0.5)
  expect_s3_class(tab, "private_comparison")
  expect_named(tab, c("method", "term", "tau", "MAE", "coverage", "width", "n_fits"))
  i <- tab$term == "(Intercept)"
  expect_equal(tab$MAE[i], mean(c(0.2, 0.1)))
  expect_equal(tab$n_fits[i], 2L)
  # 50% quantile interval (R's default sample quantile, the one every fit uses)
  # of c(-1, 0, 1) * 0.1 + centre.
  w <- diff(stats::quantile(c(-1, 0, 1), c(0.25, 0.75), names = FALSE)) * 0.1
  expect_equal(tab$width, rep(w, 2))
  expect_equal(tab$coverage[i], 0)          # 1.2 +- 0.05 and 0.9 +- 0.05 miss 1
  expect_equal(tab$coverage[!i], 0.5)       # 0.3 covered once
  expect_true(all(is.na(tab$tau)))
  expect_output(print(tab), "compared with the truth")
})

test_that("a reference fit plays the truth; quantile levels are matched", {
  sq <- dp_sgld(y ~ x, cmp_data, tau = c(0.25, 0.5), epsilon = 16, bounds = cmp_b,
                iterations = 600, rate = 0.05, progress = FALSE)
  ref <- pgbb_reference(y ~ x, cmp_data, tau = c(0.25, 0.5))
  tab <- compare_private_fits(list(SGLD = sq), reference = ref)
  expect_equal(sort(unique(tab$tau)), c(0.25, 0.5))
  cf <- coef(sq)
  rc <- coef(ref)
  expect_equal(tab$MAE[tab$term == "x" & tab$tau == 0.5], abs(cf["x", "0.5"] - rc["x", 2]))
  if (requireNamespace("quantreg", quietly = TRUE)) {
    rq_ref <- quantreg::rq(y ~ x, tau = c(0.25, 0.5), data = cmp_data)
    tab2 <- compare_private_fits(list(SGLD = sq), reference = rq_ref)
    expect_equal(tab2$MAE, tab$MAE, tolerance = 1e-6)
  }
  # A truth matrix terms x tau works the same way.
  tab3 <- compare_private_fits(list(SGLD = sq), truth = rc)
  expect_equal(tab3$MAE, tab$MAE)
  # A one-level reference (whose coef() is a vector) keeps its level: it is not
  # taken as the truth at every level of a fit of two.
  ref1 <- pgbb_reference(y ~ x, cmp_data, tau = 0.5)
  expect_error(compare_private_fits(list(SGLD = sq), reference = ref1), "missing tau = 0.25")
})

test_that("several methods side by side, including the formula baselines", {
  hub <- dp_sgld(y ~ x, cmp_data, loss = "huber", epsilon = 16, bounds = cmp_b, iterations = 600,
                 rate = 0.05, progress = FALSE)
  dpb <- dp_bootstrap(y ~ x, cmp_data, method = "ridge_huber", epsilon = 16, bounds = cmp_b)
  ng <- noisy_gibbs(y ~ x, cmp_data, family = "linear", epsilon = 16, bounds = cmp_b,
                    iterations = 2000)
  tab <- compare_private_fits(list(SGLD = hub, DPB = dpb, NG = ng),
                              reference = stats::lm(y ~ x, cmp_data))
  expect_equal(unique(tab$method), c("SGLD", "DPB", "NG"))
  expect_true(all(tab$term %in% c("(Intercept)", "x")))  # scale / sigma are not in the truth
  expect_true(all(tab$width > 0))
})

test_that("mismatched terms and bad arguments are clear errors naming the argument", {
  f <- fake_fit(c(1, 0.3), 0.1)
  expect_error(compare_private_fits(list(A = f), truth = c(z = 1)), "'truth'")
  expect_error(compare_private_fits(list(A = f), truth = c(x = 1, z = 2)), "'truth'.*lacks 'z'")
  expect_error(compare_private_fits(list(A = f), reference = "lm"), "'reference'")
  expect_error(compare_private_fits(list(A = f)), "'truth'")
  expect_error(compare_private_fits(list(f), truth = c(x = 1)), "'fits'")
  expect_error(compare_private_fits(f, truth = c(x = 1)), "'fits'")
  m <- matrix(1:4, 2, dimnames = list(c("(Intercept)", "x"), c("0.1", "0.9")))
  expect_error(compare_private_fits(list(A = f), truth = m), "'truth'")
})

test_that("pgbb fits enter the table like the baselines", { quiet_noise({
  skip_if_not_slow()
  set.seed(41)
  fit <- pgbb(y ~ x, cmp_data, loss = "quantile", tau = c(0.25, 0.5), epsilon = 4, bounds = cmp_b,
              control = pgbb_control(iterations = 200, hidden = c(16, 16), draws = 200))
  sq <- dp_sgld(y ~ x, cmp_data, tau = c(0.25, 0.5), epsilon = 4, bounds = cmp_b,
                iterations = 600, rate = 0.05, progress = FALSE)
  tab <- compare_private_fits(list(PGBB = fit, SGLD = sq),
                              reference = pgbb_reference(y ~ x, cmp_data, tau = c(0.25, 0.5)))
  expect_equal(nrow(tab), 8L)
  expect_equal(tab$n_fits, rep(1L, 8))
  expect_true(all(tab$coverage %in% c(0, 1)))
}) })
