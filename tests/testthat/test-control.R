# pgbb_control()'s training length and rate: pgbb_iterations(n) and
# pgbb_rate(n), the default rules.

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
  expect_identical(pgbb_control(paper = TRUE)$rate, 0.1)
  expect_identical(pgbb_control(rate = 0.02)$rate, 0.02)
  expect_error(pgbb_control(rate = 1.5), "'rate'")
  expect_output(print(pgbb_control()), "pgbb_rate\\(n\\)")
  expect_identical(pgbb_control(iterations = 3000)$iterations, 3000L)
  expect_identical(pgbb_control(paper = TRUE)$iterations, 10000L)
  expect_identical(pgbb_control(paper = TRUE, iterations = 500)$iterations, 500L)
  expect_error(pgbb_control(iterations = 0), "'iterations'")
  expect_error(pgbb_control(iterations = "many"), "'iterations'")
  expect_output(print(pgbb_control()), "pgbb_iterations\\(n\\)")
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
  given <- pgbb(y ~ 1, small, loss = "mean", epsilon = 1, bounds = b, progress = FALSE,
                control = pgbb_control(hidden = 4, draws = 20, iterations = 400, rate = 0.3))
  expect_equal(given$ledger$iterations * given$ledger$runs, 400)
  expect_equal(given$ledger$rate, 0.3)
}) })
