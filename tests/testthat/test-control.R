# pgbb_control()'s training length: pgbb_iterations(n), the default rule.

test_that("pgbb_iterations() is the paper's T up to 500,000 records and n / 50 above", {
  n <- c(1, 2000, 65023, 5e5, 5e5 + 1, 5e5 + 50, 1e6, 1.94e6)
  got <- pgbb_iterations(n)
  expect_type(got, "integer")
  expect_identical(got[1:4], rep(10000L, 4))
  # Just above the anchor the rule rounds up, so it never falls below T = 10,000.
  expect_identical(got[5:6], c(10001L, 10001L))
  expect_identical(got[7:8], c(20000L, 38800L))
  expect_false(is.unsorted(pgbb_iterations(round(seq(1, 3e6, length.out = 200)))))
  for (bad in list("100", -1, 0, 2.5, NA, Inf, numeric(0), 1e12))
    expect_error(pgbb_iterations(bad), "'n'")
})

test_that("pgbb_control() leaves the training length to n unless given; paper = TRUE is T = 10,000", {
  expect_null(pgbb_control()$iterations)
  expect_identical(pgbb_control(iterations = 3000)$iterations, 3000L)
  expect_identical(pgbb_control(paper = TRUE)$iterations, 10000L)
  expect_identical(pgbb_control(paper = TRUE, iterations = 500)$iterations, 500L)
  expect_error(pgbb_control(iterations = 0), "'iterations'")
  expect_error(pgbb_control(iterations = "many"), "'iterations'")
  expect_output(print(pgbb_control()), "pgbb_iterations\\(n\\)")
})

# The rule must reach the trainer: the ledger counts the iterations each run
# trained.
# Above the anchor (here 600,000 records, T = 12,000) a tiny subsampling rate
# keeps the fit fast; the ledger's T is what the accountant composed, and the
# stored control names the resolved T.
test_that("pgbb() trains pgbb_iterations(n) iterations by default", { quiet_noise({
  set.seed(3)
  b <- list(.response = c(0, 1))
  small <- data.frame(y = runif(300))
  f_small <- pgbb(y ~ 1, small, loss = "mean", epsilon = 1, bounds = b, progress = FALSE,
                  control = pgbb_control(hidden = 4, draws = 20))
  expect_equal(f_small$ledger$iterations * f_small$ledger$runs, 10000)
  big <- data.frame(y = runif(6e5))
  f_big <- pgbb(y ~ 1, big, loss = "mean", epsilon = 1, bounds = b, progress = FALSE,
                control = pgbb_control(hidden = 4, draws = 20, rate = 1e-4, runs = 2))
  expect_equal(f_big$ledger$iterations * f_big$ledger$runs, 12000)
  expect_identical(f_big$control$iterations, 12000L)
  given <- pgbb(y ~ 1, small, loss = "mean", epsilon = 1, bounds = b, progress = FALSE,
                control = pgbb_control(hidden = 4, draws = 20, iterations = 400))
  expect_equal(given$ledger$iterations * given$ledger$runs, 400)
}) })
