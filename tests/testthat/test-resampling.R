# Resampling (CR paper Section 4.1): Lambert W, kappa_star of eq. (4) and
# multiplicity-conditioned sampling (Algorithm 1).

test_that("Lambert W0 solves w exp(w) = x", {
  x <- c(-exp(-1) + 1e-12, -0.3, -0.1, 1e-300, 1e-8, 0.5, 1, exp(1), 10, 1e3, 1e10, 1e100, 1e300)
  w <- vapply(x, pgbb:::cpp_lambert_w0, 0)
  # Newton on w + log w = log x (x > 0) or on w e^w = x, written here in R.
  ref <- vapply(x, function(xx) {
    if (xx > 1) { w <- log(xx); for (i in 1:100) w <- w - (w + log(w) - log(xx)) / (1 + 1 / w); w }
    else uniroot(function(w) w * exp(w) - xx, c(-1, 2), tol = 1e-15)$root
  }, 0)
  expect_equal(w, ref, tolerance = 1e-10)
  expect_equal(pgbb:::cpp_lambert_w0(0), 0)
  expect_equal(pgbb:::cpp_lambert_w0(exp(1)), 1, tolerance = 1e-14)
  expect_error(pgbb:::cpp_lambert_w0(-1), "-1/e")
})

test_that("kappa_star matches eq. (4) via an R Newton solve", {
  for (n in c(100, 2000, 50000)) for (B in c(10, 500)) for (rho in c(1 / n, 0.05)) {
    m <- ceiling(n / log(n))
    A <- log(B * n / rho)
    # k0 solves k log(k n / (e m)) = A; Newton in R from a large start (convex, increasing).
    g <- function(k) k * (log(k) + log(n / m) - 1) - A
    k <- A
    for (i in 1:200) k <- k - g(k) / (log(k) + log(n / m))
    ref <- min(m, ceiling(k) - 1)
    expect_equal(kappa_star(n, m, B, rho), ref, info = sprintf("n=%d B=%d", n, B))
  }
  expect_equal(kappa_star(100, 1, 10, 0.1), 1)
})

test_that("kappa_star bounds the failure probability (Proposition 4.1)", {
  # Exact union bound B n P(Bin(m, 1/n) > kappa) must be <= rho.
  for (n in c(50, 500, 5000)) {
    m <- ceiling(n / log(n)); B <- 200; rho <- 0.01
    k <- kappa_star(n, m, B, rho)
    expect_lte(B * n * pbinom(k, m, 1 / n, lower.tail = FALSE), rho)
  }
})

test_that("WOR subsamples are m distinct indices, uniformly spread", {
  set.seed(3)
  S <- resample_indices(20, 7, 4000, "wor")
  expect_equal(dim(S), c(4000L, 7L))
  expect_true(all(apply(S, 1, function(s) length(unique(s)) == 7)))
  expect_true(all(S >= 1 & S <= 20))
  # Each index is in a subsample with probability 7/20: chi-square over the 20 counts.
  expect_gt(chisq.test(tabulate(S, 20))$p.value, 1e-3)
  # Pairs: P(i and j both in) = 7*6 / (20*19); check one pair at 5 sd.
  both <- mean(apply(S, 1, function(s) all(c(1, 2) %in% s)))
  p <- 7 * 6 / (20 * 19)
  expect_lt(abs(both - p) / sqrt(p * (1 - p) / 4000), 5)
})

test_that("WR resamples are iid uniform and multiplicity-conditioned sampling fails only above kappa", {
  set.seed(4)
  S <- resample_indices(30, 10, 3000, "wr")
  expect_gt(chisq.test(tabulate(S, 30))$p.value, 1e-3)
  mult <- apply(S, 1, function(s) max(tabulate(s, 30)))
  expect_true(any(mult >= 3))
  # Same seed with a threshold: fails exactly when some resample exceeds it, at the first one.
  k <- 2L
  set.seed(4)
  err <- tryCatch(resample_indices(30, 10, 3000, "wr", kappa = k), pgbb_multiplicity_failure = function(e) e)
  expect_s3_class(err, "pgbb_multiplicity_failure")
  expect_equal(err$resample, which(mult > k)[1])
  expect_equal(err$multiplicity, mult[which(mult > k)[1]])
  # A threshold never exceeded returns the same indices as without a threshold.
  set.seed(4)
  S2 <- resample_indices(30, 10, 3000, "wr", kappa = max(mult))
  expect_identical(S2, S)
})

test_that("indices are reproducible under set.seed and independent of B (per-resample streams)", {
  set.seed(9); a <- resample_indices(100, 10, 20, "wr")
  set.seed(9); b <- resample_indices(100, 10, 50, "wr")
  expect_identical(a, b[1:20, ])
  set.seed(9); c2 <- resample_indices(100, 10, 20, "wor")
  set.seed(9); d2 <- resample_indices(100, 10, 35, "wor")
  expect_identical(c2, d2[1:20, ])
  expect_false(identical(resample_indices(100, 10, 20, "wr"), a))
})

test_that("argument checks", {
  expect_error(resample_indices(10, 11, 2), "'m'")
  expect_error(resample_indices(10, 5, 2, "wor", kappa = 2), "'kappa'")
  expect_error(kappa_star(10, 5, 3, 1), "'rho'")
})

test_that("requests beyond 2^28 values are refused with a clear message; below it they pass", {
  expect_error(resample_indices(2^15, 2^14, 2^14 + 1), "more than this function allocates.*2 GiB")
  expect_error(rblock_weights(2^27, 3, 1), "'k \\* blocks'.*at most 2.68e\\+08 values")
  expect_error(pgbb:::.check_memory(2^28 + 1, "x"), "'x' asks for 2.68e\\+08 values")
  expect_true(pgbb:::.check_memory(2^28, "x"))
})
