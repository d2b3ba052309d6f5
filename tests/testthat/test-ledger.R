# The privacy ledger (R/ledger.R): one accountant run per fit, and what it
# records is what an independent evaluation of the accountant certifies.

ledger_args <- list(delta = 1e-5, n = 5000, blocks = 10, gamma = 0.8, clip = 1, rate = 0.05,
                    iterations = 400, mc = 2, J = 32, m = 5, alpha = 0,
                    accountant = "dirichlet", conversion = "asoodeh", runs = 5L)

count_calls <- function(fun, expr) {
  counter <- new.env()
  counter$n <- 0L
  suppressMessages(trace(fun, tracer = bquote(assign("n", get("n", envir = .(counter)) + 1L,
                                                     envir = .(counter))),
                         where = asNamespace("pgbb"), print = FALSE))
  on.exit(suppressMessages(untrace(fun, where = asNamespace("pgbb"))))
  force(expr)
  counter$n
}

test_that("a calibrated ledger runs the accountant once and records a certified epsilon", {
  calls_sigma <- 0L
  calls_eps <- count_calls("pgbb_epsilon", {
    calls_sigma <- count_calls("pgbb_sigma", {
      led <- do.call(pgbb:::.privacy_ledger, c(list(epsilon = 1, sigma = NULL), ledger_args))
    })
  })
  expect_identical(calls_sigma, 1L)
  expect_identical(calls_eps, 0L)
  # The recorded epsilon and order are those of an independent evaluation at
  # the recorded sigma, over all 5 x 400 x 2 releases, and within the target.
  again <- pgbb_epsilon(sigma = led$sigma, delta = 1e-5, n = 5000, blocks = 10, gamma = 0.8, clip = 1,
                        rate = 0.05, iterations = 2000, mc = 2, J = 32, m = 5, alpha = 0,
                        accountant = "dirichlet", conversion = "asoodeh")
  # The calibration's certificate may sit above the direct evaluation by the
  # root-finder's numerical slack (measured 5e-10 relative), never below it.
  expect_gte(led$epsilon, as.numeric(again))
  expect_equal(led$epsilon, as.numeric(again), tolerance = 1e-8)
  expect_equal(led$order, attr(again, "order"))
  expect_lte(led$epsilon, 1)
  expect_gt(led$epsilon, 0.9)  # the calibration spends the budget, it does not waste it
})

test_that("a ledger at a given sigma evaluates the accountant; epsilon = Inf means no noise", {
  led <- do.call(pgbb:::.privacy_ledger, c(list(epsilon = NULL, sigma = 2), ledger_args))
  expect_equal(led$sigma, 2)
  expect_true(is.na(led$target_epsilon))
  expect_true(is.finite(led$epsilon) && led$epsilon > 0)
  free <- do.call(pgbb:::.privacy_ledger, c(list(epsilon = Inf, sigma = NULL), ledger_args))
  expect_identical(free$sigma, 0)
  expect_identical(free$epsilon, Inf)
  expect_error(do.call(pgbb:::.privacy_ledger, c(list(epsilon = 1, sigma = NULL, ordres = 2:5), ledger_args)),
               "ordres")
})
