# What a released object carries: no records, no row names
# or indices of records, no environment that reaches the data, whatever the
# way the function was called. Each fit is made inside a function on data with
# a canary value and canary row names, serialised, and searched for both.

canary_value <- 0.618033988749894   # inside every declared range: never clipped
canary_rows <- sprintf("patient_%03d", 1:400)

canary_data <- function(n = 400) {
  set.seed(18)
  d <- data.frame(x = runif(n), z = runif(n))
  d$x[17] <- canary_value
  d$y <- 1 + d$x - d$z + rnorm(n, sd = 0.3)
  rownames(d) <- sprintf("patient_%03d", seq_len(n))
  d
}

serialised_holds <- function(obj) {
  raw <- serialize(obj, NULL)
  bits <- writeBin(canary_value, raw(), endian = "big")   # XDR serialisation is big-endian
  has_value <- length(grepRaw(bits, raw, fixed = TRUE)) > 0L
  has_rows <- length(grepRaw(charToRaw("patient_0"), raw, fixed = TRUE)) > 0L
  c(value = has_value, rownames = has_rows)
}

expect_no_record <- function(obj, label) {
  h <- serialised_holds(obj)
  expect_false(h[["value"]], label = paste(label, "holds the canary value"))
  expect_false(h[["rownames"]], label = paste(label, "holds record row names"))
}

test_that("the canary search finds a record when one is there", {
  d <- canary_data()
  expect_true(serialised_holds(d)[["value"]])
  expect_true(serialised_holds(d)[["rownames"]])
  expect_true(serialised_holds(list(call = as.call(list(as.name("f"), d$x))))[["value"]])
})

test_that("pgbb and pgbb_fit objects made inside a function hold no record", { quiet_noise({
  b <- list(x = c(0, 1), z = c(0, 1), .response = c(-3, 4))
  ctl <- pgbb_control(iterations = 60, hidden = 4, draws = 50)
  fit_in_function <- function() {
    d <- canary_data()
    pgbb(y ~ x + z, d, epsilon = 1, bounds = b, control = ctl)
  }
  fit <- fit_in_function()
  expect_no_record(fit, "pgbb()")
  expect_identical(environment(fit$terms), globalenv())
  expect_null(fit$na.action)
  # Called through do.call(), the data themselves enter the call.
  d <- canary_data()
  via_do_call <- do.call(pgbb, list(formula = y ~ x + z, data = d, epsilon = 1, bounds = b, control = ctl))
  expect_no_record(via_do_call, "pgbb() through do.call()")
  expect_identical(via_do_call$call$data, as.name("<value>"))
  m <- as.matrix(d[c("x", "z")])
  pf <- do.call(pgbb_fit, list(x = m, y = d$y, loss = "quantile", sigma = 0.01, box = c(-20, 20),
                                x_bounds = c(0, 1), y_bounds = c(-3, 4), iterations = 20, hidden = 4,
                                draws = 20))
  expect_no_record(pf, "pgbb_fit() through do.call()")
  expect_identical(pf$call[[1L]], as.name("pgbb_fit"))   # not the closure do.call() put there
  expect_identical(via_do_call$call[[1L]], as.name("pgbb"))
  # predict() still works from the cleaned terms.
  expect_length(predict(fit, d[1:3, ]), 3L)
  # The stored object does not grow with n: the release is the generator and its draws.
  big <- function(n) {
    dd <- canary_data(n)
    length(serialize(pgbb(y ~ x + z, dd, epsilon = 1, bounds = b, control = ctl), NULL))
  }
  expect_lt(big(4000) / big(400), 1.05)
}) })

test_that("a subset given as a value does not enter the stored call", {
  # do.call() puts the evaluated subset (one flag per record) into the call;
  # .release_call() used to keep logical vectors of up to 16 values.
  flags <- c(TRUE, FALSE, TRUE, TRUE)
  cl <- pgbb:::.release_call(as.call(list(as.name("pgbb_reference"), quote(y ~ x), data = as.name("d"),
                                          subset = flags)))
  expect_identical(cl$subset, as.name("<value>"))
  idx <- pgbb:::.release_call(as.call(list(as.name("pgbb_reference"), quote(y ~ x), subset = c(2L, 5L))))
  expect_identical(idx$subset, as.name("<value>"))
  # A function written in the call keeps its formals, so the call still prints
  # (a placeholder in place of the formals made print() fail), and a long
  # default value is released like any other value.
  fn <- pgbb:::.release_call(quote(cr_gs(x, estimator = list(fun = function(z) mean(z), dim = 1))))
  expect_identical(fn$estimator$fun, quote(function(z) mean(z)))
  expect_error(capture.output(print(fn)), NA)
  long <- quote(f(function(z, w = 1) z))
  long[[2L]][[2L]]$w <- seq(0.5, 20, 0.5)
  expect_identical(pgbb:::.release_call(long)[[2L]][[2L]]$w, as.name("<value>"))
  # An expression evaluated in the data holds no record and documents the fit.
  typed <- pgbb:::.release_call(quote(pgbb_reference(y ~ x, data = d, subset = x > 0.5)))
  expect_identical(typed$subset, quote(x > 0.5))
})

test_that("the matrix methods' objects hold no record, row names or data in the call", { quiet_noise({
  d <- canary_data()
  b <- list(x = c(0, 1), z = c(0, 1), .response = c(-3, 4))
  m <- as.matrix(d[c("x", "z")])   # carries the canary row names
  ctl <- pgbb_control(iterations = 40, hidden = 4, draws = 30)
  objs <- list(
    pgbb = pgbb(m, d$y, epsilon = 1, bounds = b, control = ctl),
    pgbb_do_call = do.call(pgbb, list(m, d$y, epsilon = 1, bounds = b, control = ctl)),
    dp_sgld = do.call(dp_sgld, list(m, d$y, epsilon = 1, bounds = b, iterations = 50)),
    pgbb_reference = do.call(pgbb_reference, list(m, d$y)))
  for (nm in names(objs)) {
    expect_no_record(objs[[nm]], nm)
    expect_identical(objs[[nm]]$call[[1L]], as.name(if (nm == "pgbb_do_call") "pgbb" else nm))
  }
  expect_identical(environment(objs$pgbb$terms), globalenv())
}) })

test_that("the baselines' and confidence regions' objects hold no record", { quiet_noise({
  d <- canary_data()
  b <- list(x = c(0, 1), z = c(0, 1), .response = c(-3, 4))
  x <- d$x
  objs <- list(
    dp_sgld = do.call(dp_sgld, list(formula = y ~ x + z, data = d, epsilon = 1, bounds = b, iterations = 50)),
    noisy_gibbs = suppressWarnings(do.call(noisy_gibbs, list(x = x, family = "gaussian", sigma = 1, epsilon = 1,
                                                             delta = 1e-3, bounds = c(0, 1), iterations = 50))),
    noisy_gibbs_formula = suppressWarnings(do.call(noisy_gibbs, list(y ~ x + z, d, family = "linear", epsilon = 1,
                                                                     bounds = b, iterations = 50))),
    dp_bootstrap = do.call(dp_bootstrap, list(x = x, method = "mean", epsilon = 1, delta = 1e-3,
                                              bounds = c(0, 1))),
    dp_bootstrap_formula = do.call(dp_bootstrap, list(y ~ x + z, d, epsilon = 1, bounds = b, B = 5)),
    cr_gs = quiet_zero_radius(do.call(cr_gs, list(x = x, mu = 1, bounds = c(0, 1), B = 20))),
    cr_ss = quiet_zero_radius(do.call(cr_ss, list(x = x, mu = 1, delta = 1e-6, bounds = c(0, 1), B = 20))),
    cr_gs_literal = quiet_zero_radius(eval(call("cr_gs", as.call(c(as.name("c"), as.list(x[1:40]))),
                                                mu = 1, bounds = c(0, 1), B = 20))))
  for (nm in names(objs)) expect_no_record(objs[[nm]], nm)
}) })

test_that("a private fit refuses missing values instead of dropping records (its n is public)", {
  d <- canary_data()
  d$x[3] <- NA
  b <- list(x = c(0, 1), z = c(0, 1), .response = c(-3, 4))
  ctl <- pgbb_control(iterations = 20, hidden = 4, draws = 20, runs = 1)
  expect_error(pgbb(y ~ x + z, d, epsilon = 1, bounds = b, control = ctl),
               "'data' must be free of missing values .* n, which the guarantee treats as public")
  expect_error(pgbb(y ~ x + z, d, epsilon = 1, bounds = b, control = ctl, na.action = na.omit),
               "'na.action' must be left unset for a private fit")
  expect_error(dp_sgld(y ~ x + z, d, epsilon = 1, bounds = b, iterations = 20), "free of missing values")
  d$x[3] <- 0.5
  expect_error(pgbb(y ~ x + z, d, epsilon = 1, bounds = b, control = ctl, subset = z > 0.5),
               "'subset' must be left unset for a private fit")
  expect_error(dp_sgld(y ~ x + z, d, epsilon = 1, bounds = b, iterations = 20, subset = z > 0.5),
               "'subset' must be left unset")
  d$x[3] <- NA
  # A non-private fit may drop them, as lm() does.
  fit <- suppressMessages(pgbb(y ~ x + z, d, private = FALSE, bounds = b, control = ctl))
  expect_identical(nobs(fit), 399L)
})

test_that("the default delta is min(1e-6, 0.01 / n), far below 1/n, in every front end", {
  # A record published at random is (0, 1/n)-DP: the default must be well below 1/n.
  expect_equal(pgbb:::.default_delta(300), 1e-6)
  expect_equal(pgbb:::.default_delta(2e6), 5e-9)
  for (n in c(10, 1e4, 1e5, 1e7)) expect_lte(pgbb:::.default_delta(n), 0.01 / n)
  set.seed(8)
  n <- 400
  d <- data.frame(x = runif(n), y = runif(n))
  b <- list(x = c(0, 1), .response = c(0, 1))
  ctrl <- pgbb_control(iterations = 100, runs = 2, hidden = c(8, 8), draws = 20)
  f <- quiet_noise(pgbb(y ~ x, d, loss = "huber", epsilon = 1, bounds = b, control = ctrl))
  expect_equal(f$fit$ledger$delta, 1e-6)
  g <- dp_sgld(y ~ x, d, loss = "huber", epsilon = 1, bounds = b, iterations = 50, progress = FALSE)
  expect_equal(g$ledger$delta, 1e-6)
  cr <- cr_gs(d$x, "mean", mu = 1, bounds = c(0, 1), B = 20)
  expect_equal(cr$privacy$delta_dp, 1e-6)  # the (epsilon, delta) shown for a mu-GDP release
  # An explicit delta (the papers' 1 / n) is kept.
  f2 <- quiet_noise(pgbb(y ~ x, d, loss = "huber", epsilon = 1, delta = 1 / n, bounds = b, control = ctrl))
  expect_equal(f2$fit$ledger$delta, 1 / n)
})

test_that("predict() uses the formula's constants the fit used, and the fit keeps nothing else", { quiet_noise({
  set.seed(61)
  d <- data.frame(x = runif(200, 0, 10))
  d$y <- 1 + 0.5 * d$x + rnorm(200)
  fitter <- function(d) {
    shift <- 5
    big <- d$x                       # a frame that holds data: must not be kept
    pgbb(y ~ I(x - shift), d, epsilon = 2, bounds = list(`I(x - shift)` = c(-5, 5), .response = c(-5, 12)),
         control = pgbb_control(iterations = 30, hidden = 4, draws = 50, blocks = 10, runs = 2))
  }
  shift <- 0                         # predict() used to evaluate I(x - shift) with this one
  f <- fitter(d)
  nd <- data.frame(x = c(0, 10))
  expect_equal(unname(predict(f, nd)), unname(coef(f)[1] + coef(f)[2] * (nd$x - 5)))
  env <- environment(f$terms)
  expect_identical(ls(env, all.names = TRUE), "shift")
  expect_identical(parent.env(env), globalenv())
  expect_no_record(f, "pgbb() with a formula constant")
  # Without constants the terms live in the global environment, as before.
  plain <- pgbb(y ~ x, d, epsilon = 2, bounds = list(x = c(0, 10), .response = c(-5, 12)),
                control = pgbb_control(iterations = 30, hidden = 4, draws = 50, blocks = 10, runs = 2))
  expect_identical(environment(plain$terms), globalenv())
}) })
