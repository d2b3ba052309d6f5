test_that("gamma_star implements eq. (8) and checks its arguments", {
  n <- 10000; S <- 20
  expect_equal(gamma_star(n, S), (S * (n + 1) - 2 * n) / (S * (n - 1)))
  # gamma* = (S - 2) / S + O(1/n) and is increasing in S.
  expect_equal(gamma_star(1e8, 5), 3 / 5, tolerance = 1e-6)
  expect_true(all(diff(sapply(3:50, gamma_star, n = 1000)) > 0))
  expect_error(gamma_star(100, 2), "'blocks'")
  expect_error(gamma_star(10, 20), "'n'")
  expect_error(gamma_star(NA, 5), "'n'")
})

test_that("block_partition gives balanced blocks, uniformly at random", {
  set.seed(21)
  for (nS in list(c(100, 20), c(103, 20), c(7, 3), c(5, 5))) {
    b <- block_partition(nS[1], nS[2])
    expect_length(b, nS[1])
    sizes <- tabulate(b, nS[2])
    expect_true(all(sizes %in% c(floor(nS[1] / nS[2]), ceiling(nS[1] / nS[2]))))
    expect_equal(sum(sizes), nS[1])
  }
  # Record 1's block is uniform over the S blocks, and so is record n's.
  reps <- 4000
  first <- last <- integer(reps)
  for (r in seq_len(reps)) {
    b <- block_partition(23, 4)
    first[r] <- b[1]; last[r] <- b[23]
  }
  p_expected <- tabulate(block_partition(23, 4), 4) / 23  # sizes are the same in every draw
  expect_gt(chisq.test(table(factor(first, 1:4)), p = p_expected)$p.value, 1e-3)
  expect_gt(chisq.test(table(factor(last, 1:4)), p = p_expected)$p.value, 1e-3)
  expect_error(block_partition(3, 5), "'n'")
  expect_error(block_partition(10, 1), "'blocks'")
})

test_that("record_weights divides each block weight among its records", {
  set.seed(22)
  b <- block_partition(10, 3)
  u <- c(0.5, 0.3, 0.2)
  w <- record_weights(u, b)
  expect_equal(sum(w), 1)
  expect_equal(w, u[b] / tabulate(b, 3)[b])
  U <- rblock_weights(4, 3, 1)
  W <- record_weights(U, b)
  expect_equal(dim(W), c(4L, 10L))
  expect_equal(rowSums(W), rep(1, 4))
  expect_error(record_weights(c(0.5, 0.5), b), "'blocks'")
  expect_error(record_weights(c(NA, 0.5, 0.5), b), "'u'")
})

test_that("rblock_weights validates its arguments", {
  expect_error(rblock_weights(0, 5, 1), "'k'")
  expect_error(rblock_weights(10, 5, -1), "'gamma'")
  expect_error(rblock_weights(1e6, 1e5, 1), "k \\* blocks")
})

# Proposition 4.1: at gamma = gamma*(n, S) the blocked bootstrap of a mean has,
# averaged over the random partition, the ordinary Bayesian bootstrap's
# variance. For the mean both variances are known in closed form:
#   ordinary: s2 / (n + 1),  s2 = mean((x - mean(x))^2),
#   blocked, given the partition: mean((m_s - mean(x))^2) / (S gamma + 1),
# with m_s the block means.
blocked_var_given_partition <- function(x, b, S, gamma) {
  m <- tapply(x, b, mean)
  mean((m - mean(x))^2) / (S * gamma + 1)
}

test_that("the exact bootstraps of a mean have their closed-form variances", {
  set.seed(23)
  n <- 300; S <- 10
  x <- rexp(n)
  s2 <- mean((x - mean(x))^2)
  bb <- bayesian_bootstrap(x, draws = 20000)
  # sd of a variance estimate from 20000 draws of a near-normal variable is
  # about sqrt(2 / 20000) = 1% of the variance; 6% is six standard errors.
  expect_equal(var(bb$draws[, 1]), s2 / (n + 1), tolerance = 0.06)
  expect_equal(mean(bb$draws), mean(x), tolerance = 1e-3)
  blk <- blocked_bootstrap(x, draws = 20000, blocks = S)
  expect_equal(var(blk$draws[, 1]),
               blocked_var_given_partition(x, blk$partition, S, gamma_star(n, S)),
               tolerance = 0.06)
})

test_that("gamma* matches the ordinary posterior variance; gamma = 1 under-disperses", {
  skip_if_not_slow()
  set.seed(24)
  n <- 200; S <- 5
  x <- rt(n, df = 5)
  s2 <- mean((x - mean(x))^2)
  reps <- 3000
  v_star <- v_one <- numeric(reps)
  for (r in seq_len(reps)) {
    b <- block_partition(n, S)
    v_star[r] <- blocked_var_given_partition(x, b, S, gamma_star(n, S))
    v_one[r] <- blocked_var_given_partition(x, b, S, 1)
  }
  # The partition-to-partition relative sd of v_star is about sqrt(2 / (S - 1)) = 0.71,
  # so its mean over 3000 partitions has relative sd 0.013; 5% is about four sd.
  expect_equal(mean(v_star), s2 / (n + 1), tolerance = 0.05)
  # gamma = 1 shrinks the variance by (S - 1)(n + 1) / ((S + 1)(n - 1)) = 0.67 here
  # (the under-dispersion of Figure 2(b)).
  ratio_one <- mean(v_one) / (s2 / (n + 1))
  expect_equal(ratio_one, (S - 1) * (n + 1) / ((S + 1) * (n - 1)), tolerance = 0.05)
  expect_lt(ratio_one, 0.8)
  # The same comparison through the samplers themselves, pooling draws over partitions.
  pooled <- replicate(200, var(blocked_bootstrap(x, draws = 400, blocks = S)$draws[, 1]))
  expect_equal(mean(pooled), s2 / (n + 1), tolerance = 0.12)  # rel. sd about 0.05
})

test_that("bootstrap functions validate input and are reproducible", {
  expect_error(bayesian_bootstrap(c(1, NA, 3)), "'x'")
  expect_error(bayesian_bootstrap(numeric(0)), "'x'")
  expect_error(bayesian_bootstrap(letters), "'x'")
  expect_error(blocked_bootstrap(1:10, blocks = 20), "'blocks'")
  expect_error(blocked_bootstrap(1:10, blocks = 3, partition = rep(1, 10)), "'partition'")
  set.seed(5); a <- blocked_bootstrap(1:50, draws = 10, blocks = 5)
  set.seed(5); b <- blocked_bootstrap(1:50, draws = 10, blocks = 5)
  expect_identical(a, b)
  ci <- confint(a, level = 0.9)
  expect_equal(dim(ci), c(1L, 2L))
  expect_true(ci[1, 1] <= ci[1, 2])
})
