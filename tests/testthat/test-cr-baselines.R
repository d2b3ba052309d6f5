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

test_that("Dette-Graw, U-statistic: sensitivity and the matched / composition noise scales", {
  # The sensitivity 2b/N (b the kernel range) checked by brute force: on [-1/2, 1/2]
  # b = 1/2, and replacing one of N records moves U_N by at most 1/N, attained when
  # the other records sit at one end and the replaced one moves across the box.
  U <- function(v) (sum(v)^2 - sum(v^2)) / (length(v) * (length(v) - 1))
  for (N in c(4, 10, 57)) {
    set.seed(N); v <- runif(N, -0.5, 0.5)
    moves <- vapply(seq_len(N), function(i) max(abs(U(replace(v, i, 0.5)) - U(replace(v, i, -0.5)))), 0)
    expect_lte(max(moves), 1 / N + 1e-15)
    e <- rep(0.5, N)
    expect_equal(abs(U(e) - U(replace(e, 1, -0.5))), 1 / N)
  }
  set.seed(41)
  n <- 2000; B <- 500; mu1 <- 8 / sqrt(2)
  x <- runif(n, -0.5, 0.5)
  m <- round(log(1 - 1 / B) / log(1 - 1 / n))
  mt <- cr_dette_graw(x, "ustat_product", mu = 8, B = B, bounds = c(-0.5, 0.5))
  cp <- cr_dette_graw(x, "ustat_product", mu = 8, B = B, bounds = c(-0.5, 0.5), bootstrap_noise = "composition")
  expect_identical(mt$noise$bootstrap_noise, "matched")   # the default for the U-statistic
  expect_identical(cp$noise$bootstrap_noise, "composition")
  expect_equal(mt$noise$sd_center, 1 / (n * mu1))
  # Composition: mu_B = mu1 n / (m sqrt B) on sensitivity 1/m.
  expect_equal(cp$noise$sd_bootstrap, sqrt(B) / (n * mu1))
  expect_equal(cp$noise$mu_bootstrap_block, mu1)
  # Matched: m sd_B = n sd_center, i.e. sd_B = 1/(m mu1): each estimate at mu1, and the
  # block composes to mu1 (m/n) sqrt(B), about mu1 / sqrt(B) at m = n/B.
  expect_equal(mt$noise$sd_bootstrap, 1 / (m * mu1))
  expect_equal(mt$noise$mu_bootstrap, mu1)
  expect_equal(mt$noise$mu_bootstrap_block, mu1 * m / n * sqrt(B))
  expect_lt(mt$noise$mu_bootstrap_block, mu1 / 20)
  # A large user m: the matched noise would be below the composition noise, which is
  # then kept, so the block never spends more than mu1.
  big <- cr_dette_graw(x, "ustat_product", mu = 8, B = B, m = n / 2, bounds = c(-0.5, 0.5),
                       bootstrap_noise = "matched")
  expect_equal(big$noise$sd_bootstrap, sqrt(B) / (n * mu1))
  expect_equal(big$noise$mu_bootstrap_block, mu1)
  # "auto" leaves the mean on the composition rule (Tables 3 and 4(a) unchanged).
  f <- cr_dette_graw(runif(n, -1, 1), "mean", mu = 8, B = B, bounds = c(-1, 1))
  expect_identical(f$noise$bootstrap_noise, "composition")
  expect_error(cr_dette_graw(x, "ustat_product", mu = 8, bounds = c(-0.5, 0.5), bootstrap_noise = "paper"),
               "'bootstrap_noise'")
})

test_that("Dette-Graw, U-statistic: matched noise is calibrated, composition noise undercovers", {
  skip_on_cran()
  # Table 4(b)'s setting at n = 2000 (mu = 8, B = 500, nominal 0.9), 200 seeded data
  # sets. A prototype over 200 other data sets gave 0.885 (matched) and 0.69
  # (composition); with a binomial sd of 0.022 and 0.033 at 200 data sets, the bands
  # below are more than 3 sd wide on the side that matters.
  n <- 2000; reps <- 200
  cover <- function(rule) {
    set.seed(4242)
    mean(vapply(seq_len(reps), function(r) {
      x <- runif(n, -0.5, 0.5)
      iv <- cr_dette_graw(x, "ustat_product", mu = 8, B = 500, bounds = c(-0.5, 0.5), bootstrap_noise = rule)$interval
      iv[["lower"]] <= 0 && 0 <= iv[["upper"]]
    }, TRUE))
  }
  cm <- cover("matched")
  expect_gte(cm, 0.82)
  expect_lte(cm, 0.97)
  expect_lt(cover("composition"), 0.80)
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

test_that("BLBQuant warns when its blocks are fewer than its radius search needs", {
  withr::local_options(pgbb.seeded_noise = TRUE)
  set.seed(3)
  x <- runif(200, -1, 1)
  # n = 200 at mu = 0.1: the rule asks for 940 blocks, the cap allows 100, and
  # over 20 data sets the intervals covered the mean in 2 (.blb_warn_few_blocks()).
  expect_warning(f <- cr_blbquant(x, "mean", mu = 0.1, bounds = c(-1, 1), B = 10),
                 class = "pgbb_unreliable_interval")
  expect_equal(f$blocks, 100)
  expect_warning(cr_blbquant(x, "mean", mu = 8, bounds = c(-1, 1), B = 10, blocks = 5),
                 "5 blocks, fewer than")
  # At the rule's own count the search is reliable and nothing is said.
  expect_no_warning(cr_blbquant(runif(3000, -1, 1), "mean", mu = 8, bounds = c(-1, 1), B = 10))
})

test_that("baselines validate arguments", {
  x <- runif(100)
  expect_error(cr_dette_graw(x, "mean", bounds = c(0, 1)), "'mu'")
  expect_error(cr_blbquant(x, "mean", mu = 1), "'bounds'")
  expect_error(cr_blbquant(x, "mean", mu = 1, bounds = c(0, 1), blocks = 1), "'blocks'")
  expect_error(cr_dette_graw(cbind(x, x), "mean", mu = 1, bounds = c(0, 1)), "'x'")
})

test_that("a region's coef() is its private point estimate and its table row agrees", {
  set.seed(41)
  x <- runif(500)
  dg <- cr_dette_graw(x, "quantile", prob = 0.9, mu = 2, bounds = c(0, 1), B = 50)
  # coef() fell through to stats' default (NULL); the table gave Dette-Graw's
  # interval midpoint as its estimate and NA as its level.
  expect_identical(unname(coef(dg)), dg$estimate)
  tab <- as.data.frame(dg)
  expect_identical(tab$estimate, dg$estimate)
  expect_identical(tab$tau, 0.9)
  expect_identical(nobs(dg), 500L)
  bq <- cr_blbquant(x, "quantile", prob = 0.25, mu = 2, bounds = c(0, 1), B = 20)
  expect_identical(as.data.frame(bq)$tau, 0.25)
  gs <- cr_gs(x, "mean", mu = 2, bounds = c(0, 1), B = 50)
  expect_identical(coef(gs), gs$center)
  expect_error(coef(gs, level = 0.5), "unknown argument 'level'")
})

test_that("the baselines take prob = NULL as not given with the estimators that have no level", {
  set.seed(42)
  x <- runif(300)
  # The CR tables script passes prob = if (est == "quantile") 0.5; NULL reached the C++ glue.
  expect_s3_class(cr_blbquant(x, "mean", prob = NULL, mu = 2, bounds = c(0, 1), B = 10), "private_cr")
  expect_s3_class(cr_dette_graw(x, "mean", prob = NULL, mu = 2, bounds = c(0, 1), B = 20), "private_cr")
  expect_error(cr_dette_graw(x, "quantile", prob = NULL, mu = 2, bounds = c(0, 1), B = 20), "'prob'")
})

test_that("the baselines' mean and quantile are kept within the bounds; within_bounds = FALSE is the paper's interval", {
  # Every record at the lower bound 0, so the estimand (mean or quantile) is 0 and
  # a symmetric centre noise carries the private estimate below 0 in about half
  # the releases: in at least one of 12 with probability 1 - 2^-12. Same seed,
  # same release: the two settings differ only in the post-processing.
  x <- rep(0, 200)
  quiet <- function(expr) suppressWarnings(quiet_radius_noise(quiet_zero_radius(expr)),
                                           classes = "pgbb_unreliable_interval")
  covers <- function(f) f$interval[["lower"]] <= 0 && 0 <= f$interval[["upper"]]
  clamp <- function(v) pmin(pmax(v, 0), 1)
  for (est in c("mean", "quantile")) {
    below_dg <- below_bq <- logical(12)
    for (s in 1:12) {
      set.seed(s); dg <- quiet(cr_dette_graw(x, est, mu = 1, B = 40, bounds = c(0, 1)))
      set.seed(s); dg0 <- quiet(cr_dette_graw(x, est, mu = 1, B = 40, bounds = c(0, 1), within_bounds = FALSE))
      below_dg[s] <- dg0$estimate < 0
      expect_null(dg0$range)
      expect_equal(dg$estimate, clamp(dg0$estimate))
      expect_equal(unname(dg$interval), clamp(unname(dg0$interval)))
      expect_equal(unname(confint(dg)[1, ]), unname(dg$interval))
      expect_equal(c(as.data.frame(dg)$lower, as.data.frame(dg)$upper), unname(dg$interval))
      if (covers(dg0)) expect_true(covers(dg))
      set.seed(s); bq <- quiet(cr_blbquant(x, est, mu = 1, B = 10, bounds = c(0, 1)))
      set.seed(s); bq0 <- quiet(cr_blbquant(x, est, mu = 1, B = 10, bounds = c(0, 1), within_bounds = FALSE))
      below_bq[s] <- bq0$center < 0
      expect_equal(bq$radius, bq0$radius)
      expect_equal(unname(bq$center), clamp(unname(bq0$center)))
      expect_equal(unname(bq$interval), c(max(0, unname(bq$center) - bq$radius), min(1, unname(bq$center) + bq$radius)))
      if (covers(bq0)) expect_true(covers(bq))
      if (below_bq[s]) expect_true(covers(bq))   # the centre moves to the estimand itself
    }
    expect_true(any(below_dg))
    # BLBQuant's quantile comes from the exponential mechanism on the bounds, so
    # only its mean (Laplace) can leave them.
    if (est == "mean") expect_true(any(below_bq)) else expect_false(any(below_bq))
  }
  expect_error(cr_dette_graw(x, "mean", mu = 1, bounds = c(0, 1), within_bounds = NA), "'within_bounds'")
  expect_error(cr_blbquant(x, "mean", mu = 1, bounds = c(0, 1), within_bounds = "no"), "'within_bounds'")
  # The U-statistic's value is not bounded by the data's bounds: nothing is cut.
  set.seed(5)
  u <- cr_dette_graw(runif(300, -0.5, 0.5), "ustat_product", mu = 4, B = 40, bounds = c(-0.5, 0.5))
  expect_null(u$range)
})
