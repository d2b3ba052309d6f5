# pgbb_control()'s training length, rate and step: pgbb_iterations(n),
# pgbb_rate(n) and pgbb_learning_rate(n, epsilon), the default rules.

test_that("pgbb_iterations() is the paper's T up to 500,000 records and n / 50 above", {
  n <- c(1, 2000, 65023, 5e5, 5e5 + 1, 5e5 + 50, 1e6, 1.94e6)
  got <- pgbb_iterations(n)
  expect_type(got, "integer")
  expect_identical(got[1:4], rep(10000L, 4))
  # Just above the anchor the rule rounds up, so it never falls below T = 10,000.
  expect_identical(got[5:6], c(10001L, 10001L))
  expect_identical(got[7:8], c(20000L, 38800L))
  expect_false(is.unsorted(pgbb_iterations(round(seq(1, 3e6, length.out = 200)))))
  for (bad in list("100", -1, 0, 2.5, NA, Inf, numeric(0), 1e12)) {
    expect_error(pgbb_iterations(bad), "'n'")
    expect_error(pgbb_rate(bad), "'n'")
  }
})

test_that("pgbb_rate() for a joint quantile fit is SM S3.3's 0.01, between 500 and 5,000 records per step", {
  n <- c(300, 5000, 2e4, 5e4, 6.5e4, 5e5, 1.94e6)
  expect_equal(pgbb_rate(n, joint = TRUE), c(0.1, 0.1, 500 / 2e4, 0.01, 0.01, 0.01, 5000 / 1.94e6))
  big <- round(seq(5e3, 5e6, length.out = 200))
  batch <- pgbb_rate(big, joint = TRUE) * big
  expect_true(all(batch >= 500 - 1e-6 & batch <= 5000 + 1e-6))
  expect_error(pgbb_rate(1000, joint = NA), "'joint'")
})

test_that("pgbb_learning_rate() halves a joint fit's step when the privacy noise is large (n epsilon <= 3e4)", {
  n <- c(1e4, 2e4, 2e4, 2e4, 5e4, 65023, 1.94e6, 1e4)
  eps <- c(1, 1, 1.5, 1.6, 1, 4, 1, Inf)
  got <- mapply(pgbb_learning_rate, n, eps, MoreArgs = list(joint = TRUE))
  expect_equal(got, c(1e-3, 1e-3, 1e-3, 2e-3, 2e-3, 2e-3, 2e-3, 2e-3))
  expect_equal(pgbb_learning_rate(c(1e4, 3e4, 4e4), 1, joint = TRUE), c(1e-3, 1e-3, 2e-3))
  # Other fits keep 1e-3 whatever n and epsilon, one value per n.
  expect_equal(pgbb_learning_rate(n[1:3], 1e6), rep(1e-3, 3))
  # The step never falls as n or epsilon grows.
  grid <- round(seq(1e3, 5e5, length.out = 100))
  expect_false(is.unsorted(pgbb_learning_rate(grid, 1, joint = TRUE)))
  expect_false(is.unsorted(vapply(c(0.1, 0.5, 1, 2, 4, 8, Inf), function(e) pgbb_learning_rate(3e4, e, TRUE), 0)))
  for (bad in list(0, -1, NA, "1", c(1, 2)))
    expect_error(pgbb_learning_rate(1e4, bad, joint = TRUE), "'epsilon'")
  expect_error(pgbb_learning_rate(2.5, 1), "'n'")
  expect_error(pgbb_learning_rate(1e4, 1, joint = NA), "'joint'")
})

test_that("pgbb_rate() is SM S3.2's 0.1 up to 50,000 records, then 5,000 records per step", {
  n <- c(10, 5e4, 5e4 + 1, 2e5, 1.94e6)
  expect_equal(pgbb_rate(n), c(0.1, 0.1, 5000 / (5e4 + 1), 0.025, 5000 / 1.94e6))
  # The expected batch q n never exceeds 5,000 above the anchor.
  big <- round(seq(5e4, 5e6, length.out = 50))
  expect_true(all(abs(pgbb_rate(big) * big - 5000) < 1e-6))
  expect_false(is.unsorted(rev(pgbb_rate(big))))
})

test_that("pgbb_control() leaves T and q to n unless given; paper = TRUE is T = 10,000 at q = 0.1", {
  expect_null(pgbb_control()$iterations)
  expect_null(pgbb_control()$rate)
  expect_null(pgbb_control()$mc)
  expect_identical(pgbb_control(paper = TRUE)$mc, 1L)
  expect_identical(pgbb_control(mc = 3)$mc, 3L)
  expect_identical(pgbb_control(paper = TRUE)$rate, 0.1)
  expect_identical(pgbb_control(rate = 0.02)$rate, 0.02)
  expect_error(pgbb_control(rate = 1.5), "'rate'")
  expect_output(print(pgbb_control()), "pgbb_rate\\(n, joint\\)")
  expect_identical(pgbb_control(iterations = 3000)$iterations, 3000L)
  expect_identical(pgbb_control(paper = TRUE)$iterations, 10000L)
  expect_identical(pgbb_control(paper = TRUE, iterations = 500)$iterations, 500L)
  expect_error(pgbb_control(iterations = 0), "'iterations'")
  expect_error(pgbb_control(iterations = "many"), "'iterations'")
  expect_output(print(pgbb_control()), "pgbb_iterations\\(n\\)")
  expect_output(print(pgbb_control()), "pgbb_learning_rate\\(n, epsilon, joint\\)")
})

# The rules must reach the trainer: the ledger holds the rate and the
# iterations each run trained, which the accountant composed, and the stored
# control names the resolved values. Above both anchors (600,000 records:
# T = 12,000, q = 1 / 120) the mean's fit stays quick.
test_that("pgbb() trains pgbb_iterations(n) iterations at pgbb_rate(n) by default", { quiet_noise({
  set.seed(3)
  b <- list(.response = c(0, 1))
  small <- data.frame(y = runif(300))
  f_small <- pgbb(y ~ 1, small, loss = "mean", epsilon = 1, bounds = b, progress = FALSE,
                  control = pgbb_control(hidden = 4, draws = 20))
  expect_equal(f_small$ledger$iterations * f_small$ledger$runs, 10000)
  expect_equal(f_small$ledger$rate, 0.1)
  big <- data.frame(y = runif(6e5))
  f_big <- pgbb(y ~ 1, big, loss = "mean", epsilon = 1, bounds = b, progress = FALSE,
                control = pgbb_control(hidden = 4, draws = 20, runs = 2))
  expect_equal(f_big$ledger$iterations * f_big$ledger$runs, 12000)
  expect_equal(f_big$ledger$rate, 1 / 120)
  expect_identical(f_big$control$iterations, 12000L)
  expect_equal(f_big$control$rate, 1 / 120)
  expect_equal(c(f_big$ledger$mc, f_big$fit$training$learning_rate), c(1, 1e-3))
  # A joint quantile fit takes SM S3.3's sizes: K = 5, q = 0.01 from 50,000
  # records (here 400 records: 500 per step caps q at 0.1), and its step
  # follows n epsilon: 1e-3 at epsilon = 1, 2e-3 without noise (private =
  # FALSE) or at n epsilon above 3e4.
  d <- data.frame(x = runif(400)); d$y <- d$x + rnorm(400)
  joint_fit <- function(...) pgbb(y ~ x, d, loss = "quantile", tau = c(0.3, 0.7), progress = FALSE,
                                  bounds = list(x = c(0, 1), .response = c(-4, 5)),
                                  control = pgbb_control(hidden = 4, draws = 20, iterations = 50), ...)
  jq <- joint_fit(epsilon = 1)
  expect_equal(c(jq$ledger$mc, jq$ledger$rate, jq$fit$training$learning_rate, jq$ledger$blocks), c(5, 0.1, 1e-3, 5))
  expect_equal(jq$control$learning_rate, 1e-3)
  expect_equal(joint_fit(epsilon = 300)$fit$training$learning_rate, 2e-3)
  expect_equal(suppressMessages(joint_fit(private = FALSE))$fit$training$learning_rate, 2e-3)
  # A finite epsilon with private = FALSE is a contradiction, not a silently non-private fit.
  expect_error(joint_fit(epsilon = 1, private = FALSE), "'private' must be TRUE when a finite 'epsilon'")
  given <- pgbb(y ~ 1, small, loss = "mean", epsilon = 1, bounds = b, progress = FALSE,
                control = pgbb_control(hidden = 4, draws = 20, iterations = 400, rate = 0.3))
  expect_equal(given$ledger$iterations * given$ledger$runs, 400)
  expect_equal(given$ledger$rate, 0.3)
}) })
