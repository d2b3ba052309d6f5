# Baselines: the GDP m-out-of-n bootstrap of Dette & Graw and BLBQuant.

test_that("Dette-Graw: m_DG, budget split and the basic bootstrap interval", {
  set.seed(31)
  n <- 2000; x <- runif(n, -1, 1)
  fit <- cr_dette_graw(x, "mean", mu = 8, B = 500, bounds = c(-1, 1))
  expect_equal(fit$m, round(log(1 - 1 / 500) / log(1 - 1 / n)))
  expect_equal(fit$noise$mu_center, 8 / sqrt(2))
  # mu_tot = mu_B (m / n) sqrt(B) = mu / sqrt(2) (the paper's summary of their composition).
  expect_equal(fit$noise$mu_bootstrap * fit$m / n * sqrt(500), 8 / sqrt(2))
  expect_equal(fit$noise$sd_center, (2 / n) / (8 / sqrt(2)))
  expect_match(fit$privacy$guarantee, "asymptotic")
  # Reproduce the interval in R from the same seeds (noise switched off by a huge mu).
  set.seed(32); f2 <- cr_dette_graw(x, "mean", mu = 1e12, B = 300, m = 50, bounds = c(-1, 1))
  set.seed(32); s1 <- pgbb:::.rng_seed()
  idx <- pgbb:::cpp_resample_indices(n, 50, 300, "wr", 0L, s1)$indices
  Tb <- sqrt(50) * (apply(idx, 1, function(s) mean(x[s])) - mean(x))
  q <- quantile(Tb, c(0.05, 0.95), type = 1, names = FALSE)
  expect_equal(unname(f2$interval), mean(x) - rev(q) / sqrt(n), tolerance = 1e-9)
})

test_that("BLBQuant: GDP budget of the two pure-DP mechanisms and a sensible radius", {
  set.seed(33)
  n <- 3000; x <- runif(n, -1, 1)
  fit <- cr_blbquant(x, "mean", mu = 8, bounds = c(-1, 1))
  e <- fit$noise$epsilon_center
  expect_lte(pgbb:::.pure_dp_to_gdp(e), 8 / sqrt(2))
  expect_lte(gdp_compose(pgbb:::.pure_dp_to_gdp(e), pgbb:::.pure_dp_to_gdp(fit$noise$epsilon_search)), 8)
  expect_equal(fit$blocks, ceiling(10 * log(n) / e))
  # With a huge budget the search stops at the first grid radius where the median
  # block's bootstrap coverage exceeds 0.9: close to the 90% quantile of |mean* - mean|,
  # 1.645 sd(x) / sqrt(n), up to the BLB and grid error (blocks of n/s records): 25%.
  big <- cr_blbquant(x, "mean", mu = 200, bounds = c(-1, 1), B = 200)
  expect_equal(big$radius, qnorm(0.95) * sqrt(1 / 3) / sqrt(n), tolerance = 0.25)
  expect_equal(unname(big$center), mean(x), tolerance = 1e-3)
  q <- cr_blbquant(x, "quantile", mu = 200, bounds = c(-1, 1), B = 200)
  # Median of U(-1,1): sd = 1 / (2 f sqrt(n)) = 1 / sqrt(n).
  expect_equal(q$radius, qnorm(0.95) / sqrt(n), tolerance = 0.3)
  expect_match(fit$privacy$guarantee, "pure")
  set.seed(1); a <- cr_blbquant(x, "mean", mu = 8, bounds = c(-1, 1), B = 20)
  set.seed(1); b <- cr_blbquant(x, "mean", mu = 8, bounds = c(-1, 1), B = 20)
  expect_identical(a$interval, b$interval)
})

test_that("baselines validate arguments", {
  x <- runif(100)
  expect_error(cr_dette_graw(x, "mean", bounds = c(0, 1)), "'mu'")
  expect_error(cr_blbquant(x, "mean", mu = 1), "'bounds'")
  expect_error(cr_blbquant(x, "mean", mu = 1, bounds = c(0, 1), blocks = 1), "'blocks'")
  expect_error(cr_dette_graw(cbind(x, x), "mean", mu = 1, bounds = c(0, 1)), "'x'")
})
