# Smooth sensitivity bounds (Nissim et al. 2007; CR paper Lemma 6.1 and the
# U-statistic bound derived in src/core/cr_ss.h), against slow R references and
# brute-forced local sensitivities on small data sets.

# Direct transcription of the max-form truncated bound (loops over k and t).
ss_quantile_ref <- function(x, p, beta, lo, hi, C = hi - lo, truncate = TRUE) {
  n <- length(x); xs <- sort(x); h <- ceiling(p * n - 1e-9)
  ks <- ceiling(max(0, (log((hi - lo) / C) + 3 * log(n)) / beta))
  v <- function(j) ifelse(j < 1, lo, ifelse(j > n, hi, xs[pmin(pmax(j, 1), n)]))
  K <- if (truncate) ks else n + 1
  best <- if (truncate) exp(-(ks + 1) * beta) * (hi - lo) else 0
  for (k in 0:K) {
    t <- 0:(k + 1)
    best <- max(best, exp(-k * beta) * max(v(h + t) - v(h + t - k - 1)))
  }
  best
}

qstat <- function(x, p) sort(x)[ceiling(p * length(x) - 1e-9)]

# Local sensitivity of the order statistic: it is monotone in every record, so
# moving one record to a bound realises the largest change.
ls_quantile <- function(x, p, lo, hi) {
  q <- qstat(x, p)
  max(vapply(seq_along(x), function(i) {
    max(abs(qstat(replace(x, i, lo), p) - q), abs(qstat(replace(x, i, hi), p) - q))
  }, 0))
}

test_that("quantile smooth sensitivity equals its slow transcription", {
  set.seed(10)
  for (n in c(5, 17, 60, 300)) for (p in c(0.1, 0.5, 0.93)) for (beta in c(0.05, 0.3, 1.5)) {
    x <- round(runif(n, -1, 1), if (n > 50) 6 else 1)   # ties included
    ss <- smooth_sensitivity_quantile(x, p, beta, c(-1, 1))
    expect_equal(as.numeric(ss), ss_quantile_ref(x, p, beta, -1, 1), tolerance = 1e-13)
    expect_equal(attr(ss, "estimate"), qstat(x, p))
    # Dominates the exact (untruncated) smooth sensitivity, stays within the paper's bound.
    expect_gte(as.numeric(ss) * (1 + 1e-12), ss_quantile_ref(x, p, beta, -1, 1, truncate = FALSE))
    ks <- attr(ss, "k_star"); h <- ceiling(p * n - 1e-9); xs <- c(rep(-1, ks + 2), sort(x), rep(1, ks + 2))
    paper <- xs[h + ks + 1 + ks + 2] - xs[h - ks - 1 + ks + 2] + 2 / n^3
    expect_lte(as.numeric(ss), paper * (1 + 1e-12))
  }
})

test_that("quantile smooth sensitivity dominates brute-forced local sensitivities within distance k", {
  set.seed(11)
  grid_vals <- function(x, lo, hi) sort(unique(c(lo, hi, x, (head(sort(x), -1) + tail(sort(x), -1)) / 2)))
  for (rep in 1:5) {
    n <- sample(4:5, 1); p <- sample(c(0.3, 0.5, 0.8), 1); beta <- sample(c(0.2, 0.7), 1)
    x <- round(runif(n, -1, 1), 1)
    ss <- as.numeric(smooth_sensitivity_quantile(x, p, beta, c(-1, 1)))
    expect_gte(ss, ls_quantile(x, p, -1, 1))
    g <- grid_vals(x, -1, 1)
    brute <- 0
    for (k in 1:2) for (S in combn(n, k, simplify = FALSE)) {
      vals <- as.matrix(expand.grid(rep(list(g), k)))
      for (r in seq_len(nrow(vals))) {
        x2 <- x; x2[S] <- vals[r, ]
        brute <- max(brute, exp(-k * beta) * ls_quantile(x2, p, -1, 1))
      }
    }
    expect_gte(ss * (1 + 1e-12), brute)
  }
})

test_that("quantile smooth sensitivity is beta-smooth over neighbours (incl. ties and bounds)", {
  set.seed(12)
  worst <- 0
  for (rep in 1:300) {
    n <- sample(c(3, 8, 40, 200), 1); p <- runif(1, 0.05, 0.95); beta <- exp(runif(1, log(0.01), log(2)))
    x <- if (rep %% 3 == 0) sample(c(-1, 0, 0.5, 1), n, TRUE) else runif(n, -1, 1)
    x2 <- x; j <- sample(n, 1)
    x2[j] <- sample(c(-1, 1, runif(1, -1, 1), x[sample(n, 1)]), 1)
    a <- as.numeric(smooth_sensitivity_quantile(x, p, beta, c(-1, 1)))
    b <- as.numeric(smooth_sensitivity_quantile(x2, p, beta, c(-1, 1)))
    expect_lte(a, exp(beta) * b * (1 + 1e-12))
    expect_lte(b, exp(beta) * a * (1 + 1e-12))
    worst <- max(worst, log(a / b) / beta, log(b / a) / beta)
  }
  expect_lte(worst, 1 + 1e-9)
})

# ---- U-statistic with kernel x*y ------------------------------------------------

ustat <- function(x) { n <- length(x); (sum(x)^2 - sum(x^2)) / (n * (n - 1)) }
# Exact local sensitivity: U is linear in each record, so the largest change of one
# record is at a bound.
ls_ustat <- function(x, lo, hi) {
  u <- ustat(x)
  max(vapply(seq_along(x), function(i) max(abs(ustat(replace(x, i, lo)) - u), abs(ustat(replace(x, i, hi)) - u)), 0))
}

test_that("U-statistic smooth sensitivity dominates LS within distance k (vertex enumeration)", {
  # The distance-k local sensitivity max over D'' is attained with the changed
  # records at the bounds (LS(D'') is convex in each changed record separately),
  # so enumerating {lo, hi}^k is exact.
  set.seed(13)
  for (rep in 1:8) {
    n <- sample(3:7, 1); lo <- -0.5; hi <- sample(c(0.5, 1.5), 1); beta <- sample(c(0.1, 0.5, 2), 1)
    x <- runif(n, lo, hi)
    ss <- pgbb:::.ss_ustat_product(x, beta, c(lo, hi))
    expect_gte(ss * (1 + 1e-12), ls_ustat(x, lo, hi))
    brute <- 0
    for (k in 1:min(3, n)) for (S in combn(n, k, simplify = FALSE)) {
      V <- as.matrix(expand.grid(rep(list(c(lo, hi)), k)))
      for (r in seq_len(nrow(V))) {
        x2 <- x; x2[S] <- V[r, ]
        brute <- max(brute, exp(-k * beta) * ls_ustat(x2, lo, hi))
      }
    }
    expect_gte(ss * (1 + 1e-12), brute)
  }
})

test_that("U-statistic smooth sensitivity matches its definition and is beta-smooth", {
  set.seed(14)
  ref <- function(x, beta, lo, hi) {
    N <- length(x); y <- sort(x); S1 <- sum(y); w <- hi - lo; cc <- 2 * w / (N * (N - 1))
    k <- 0:(N - 1)
    U <- k * hi + (S1 - cumsum(y)[k + 1]); L <- k * lo + (S1 - cumsum(rev(y))[k + 1])
    max(exp(-k * beta) * cc * pmax(U, -L))
  }
  for (rep in 1:200) {
    N <- sample(c(2, 3, 10, 100, 1000), 1); beta <- exp(runif(1, log(0.01), log(3)))
    lo <- -0.5; hi <- sample(c(0.5, 2), 1)
    x <- runif(N, lo, hi)
    if (rep %% 4 == 0) x[] <- hi
    a <- pgbb:::.ss_ustat_product(x, beta, c(lo, hi))
    expect_equal(a, ref(x, beta, lo, hi), tolerance = 1e-12)
    x2 <- x; x2[sample(N, 1)] <- sample(c(lo, hi, runif(1, lo, hi)), 1)
    b <- pgbb:::.ss_ustat_product(x2, beta, c(lo, hi))
    expect_lte(a, exp(beta) * b * (1 + 1e-12))
    expect_lte(b, exp(beta) * a * (1 + 1e-12))
  }
})

test_that("PTR-GDP bound exceeds SS with probability 1 - delta (Algorithm 3)", {
  # B = SS exp((beta/mu)(Z1 + Phi^-1(1 - delta))) < SS iff Z1 < -Phi^-1(1 - delta).
  delta <- 0.1
  b <- vapply(1:5000, function(i) pgbb:::cpp_ptr_gdp(0, 1, 0.2, 1, delta, fixed_key(i))$bound, 0)
  frac <- mean(b < 1)
  expect_lt(abs(frac - delta) / sqrt(delta * (1 - delta) / 5000), 5)
  expect_equal(median(log(b)), 0.2 * qnorm(1 - delta), tolerance = 0.05)
})

test_that("PTR-GDP's discrete step 1 fails with probability at most delta (exact pmf)", {
  # ptr_gdp() (src/core/cr_ss.h) releases L~ = gamma (round(L / gamma) + Z1),
  # Z1 ~ N_Z(0, v), and log B = L~ + gamma (k + 1/2), k = ceil(sqrt(v) z) + 1,
  # z = Phi^-1(1 - delta) rounded up. Rounding moves L by at most gamma / 2, so
  # log B < log SS needs Z1 <= -k - 1 < -k. Its probability is computed here
  # from the discrete Gaussian's pmf summed over +-40 sd (the mass beyond is
  # below 1e-300), independently of the Gaussian-tail argument in the code.
  worst <- 0
  for (beta in c(0.2, 0.01)) for (mu in c(0.5, 1, 8)) for (delta in c(0.1, 1e-3, 1e-6)) {
    sens <- beta + 2^-40
    v <- pgbb:::cpp_grid_gaussian_plan(sens / mu, sens, 1L)$variance
    z <- -qnorm(delta)
    z <- z + 1e-12 * (1 + abs(z))
    k <- ceiling(sqrt(v) * z) + 1
    j <- seq(-ceiling(40 * sqrt(v)) - k, ceiling(40 * sqrt(v)) + k)
    lw <- -j^2 / (2 * v)
    w <- exp(lw - max(lw))
    fail <- sum(w[j < -k]) / sum(w)
    expect_lte(fail, delta)
    worst <- max(worst, fail / delta)
  }
  # The bound is not vacuous: the worst case uses most of delta.
  expect_gt(worst, 0.3)
})
