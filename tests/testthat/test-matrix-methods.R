# pgbb(), dp_sgld() and pgbb_reference() from a covariate matrix: the same model,
# bounds, accounting and result as the formula fit of `.response ~ <columns>`.

matrix_case <- function(n = 1500) {
  set.seed(41)
  d <- data.frame(x = runif(n, 0, 10), z = runif(n))
  d$y <- 1 + 0.3 * d$x - d$z + rt(n, df = 3)
  list(d = d, X = as.matrix(d[c("x", "z")]),
       b = list(x = c(0, 10), z = c(0, 1), .response = c(-20, 25)))
}

test_that("pgbb(X, y) is the formula fit: same draws, ledger and terms, under the generic's name", { quiet_noise({
  m <- matrix_case()
  ctl <- pgbb_control(iterations = 120, hidden = 8, draws = 100)
  set.seed(5); by_formula <- pgbb(y ~ x + z, m$d, loss = "huber", epsilon = 2, bounds = m$b, control = ctl)
  set.seed(5); by_matrix <- pgbb(m$X, m$d$y, loss = "huber", epsilon = 2, bounds = m$b, control = ctl)
  expect_identical(unname(by_matrix$draws), unname(by_formula$draws))
  expect_identical(names(coef(by_matrix)), names(coef(by_formula)))
  expect_identical(by_matrix$ledger$sigma, by_formula$ledger$sigma)
  expect_identical(by_matrix$call[[1L]], as.name("pgbb"))
  expect_identical(by_matrix$call$x, as.name("<value>"))   # m$X is an expression, not a symbol
  # predict() takes a matrix with the fit's columns
  expect_equal(predict(by_matrix, m$X[1:4, ]), predict(by_formula, m$d[1:4, ]))
  # formula = named, as before the generic
  set.seed(5); named <- pgbb(formula = y ~ x + z, data = m$d, loss = "huber", epsilon = 2, bounds = m$b,
                             control = ctl)
  expect_identical(named$draws, by_formula$draws)
  expect_identical(named$call[[1L]], as.name("pgbb"))
}) })

test_that("intercept = FALSE and unnamed columns follow the formula method's conventions", { quiet_noise({
  m <- matrix_case()
  ctl <- pgbb_control(iterations = 60, hidden = 4, draws = 50, runs = 1)
  b <- list(x1 = c(0, 10), x2 = c(0, 1), .response = c(-20, 25))
  fit <- pgbb(unname(m$X), m$d$y, epsilon = 2, bounds = b, control = ctl, intercept = FALSE)
  expect_identical(names(coef(fit)), c("x1", "x2"))
  expect_error(pgbb(unname(m$X), m$d$y, epsilon = 2, bounds = m$b, control = ctl), "no public bound for 'x1'")
}) })

test_that("dp_sgld(X, y) and pgbb_reference(X, y) are their formula fits", { quiet_noise({
  m <- matrix_case()
  set.seed(9); a <- dp_sgld(y ~ x + z, m$d, loss = "huber", epsilon = 2, bounds = m$b, iterations = 400)
  set.seed(9); b <- dp_sgld(m$X, m$d$y, loss = "huber", epsilon = 2, bounds = m$b, iterations = 400)
  expect_identical(unname(b$draws), unname(a$draws))
  expect_identical(b$call[[1L]], as.name("dp_sgld"))
  r1 <- pgbb_reference(y ~ x + z, m$d, loss = "quantile", tau = c(0.25, 0.5))
  r2 <- pgbb_reference(m$X, m$d$y, loss = "quantile", tau = c(0.25, 0.5))
  expect_identical(unname(r2$coefficients), unname(r1$coefficients))
  expect_identical(r2$call[[1L]], as.name("pgbb_reference"))
}) })

test_that("bad matrix input is an error naming the argument", {
  m <- matrix_case(200)
  expect_error(pgbb(m$X, m$d$y[-1], epsilon = 1, bounds = m$b), "'y' must be a numeric vector with one value per row of 'x' \\(200\\)")
  expect_error(pgbb(m$X, as.character(m$d$y), epsilon = 1, bounds = m$b), "'y' must be a numeric vector")
  expect_error(pgbb(m$X, epsilon = 1, bounds = m$b), "'y' must be the response vector")
  expect_error(pgbb(m$X, m$d$y, data = m$d, epsilon = 1, bounds = m$b), "'data' must be left out of pgbb\\(x, y, ...\\)")
  expect_error(pgbb(letters, epsilon = 1), "'x' must be a numeric matrix or a data frame")
  dup <- m$X; colnames(dup) <- c("x", "x")
  expect_error(pgbb(dup, m$d$y, epsilon = 1, bounds = m$b), "'x' must be a matrix or data frame whose columns have unique syntactic names")
  resp <- m$X; colnames(resp) <- c("x", ".response")
  expect_error(dp_sgld(resp, m$d$y, epsilon = 1, bounds = m$b), "other than '.response'")
  expect_error(pgbb_reference(m$X[, 0], m$d$y, intercept = FALSE), "'intercept' must be TRUE when 'x' has no columns")
  expect_error(pgbb(m$X, m$d$y, epsilon = 1, bounds = m$b, intercept = NA), "'intercept'")
})
