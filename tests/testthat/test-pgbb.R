# The formula interface pgbb(): formula handling, public bounds, methods, and
# agreement with the non-private reference. Fits here are small (few
# iterations, narrow networks) so the file runs in seconds; their statistical
# accuracy is tested in test-pgbb-fit.R and in the slow tests below.

quick <- pgbb_control(iterations = 200, hidden = c(16, 16), draws = 200, blocks = 10,
                      rate = 0.2, learning_rate = 3e-3)

make_data <- function(n = 600, seed = 1) {
  set.seed(seed)
  d <- data.frame(x = runif(n, 0, 10), z = runif(n, -1, 1),
                  g = factor(sample(c("a", "b", "c"), n, TRUE), levels = c("a", "b", "c")))
  d$y <- 1 + 0.3 * d$x - 0.5 * d$z + 0.4 * (d$g == "b") + rt(n, df = 4)
  d
}
b_all <- list(x = c(0, 10), z = c(-1, 1), .response = c(-15, 20))

test_that("pgbb() fits with factors, interactions, transforms and returns the documented shapes", { quiet_noise({
  d <- make_data()
  set.seed(2)
  fit <- pgbb(y ~ x * z + g + log1p(x), d, loss = "huber", epsilon = 2, bounds = b_all,
              control = quick)
  expect_s3_class(fit, "pgbb")
  cn <- c("(Intercept)", "x", "z", "gb", "gc", "log1p(x)", "x:z", "scale")
  expect_identical(names(coef(fit)), cn)
  expect_equal(dim(confint(fit)), c(8L, 2L))
  expect_identical(colnames(confint(fit, level = 0.9)), c("5 %", "95 %"))
  expect_equal(dim(vcov(fit)), c(8L, 8L))
  expect_equal(nobs(fit), 600L)
  s <- as.data.frame(summary(fit))
  # Five runs by default: the within / between / total decomposition comes with it.
  expect_named(s, c("method", "term", "tau", "estimate", "sd", "lower", "upper", "within", "between", "total"))
  expect_true(all(s$lower <= s$estimate & s$estimate <= s$upper))
  expect_true(fit$ledger$epsilon <= 2 && fit$ledger$sigma > 0)
  p <- predict(fit, newdata = d[1:3, ], interval = "credible")
  expect_equal(dim(p), c(3L, 3L))
  expect_error(predict(fit, newdata = d[1:3, c("x", "g")]), "z")
}) })

test_that("a tau grid gives one joint generator and per-level summaries", { quiet_noise({
  d <- make_data()
  set.seed(3)
  fit <- pgbb(y ~ x + z, d, loss = "quantile", tau = c(0.25, 0.5, 0.75), epsilon = 4,
              bounds = b_all, control = quick)
  expect_equal(dim(coef(fit)), c(3L, 3L))
  ci <- confint(fit)
  expect_equal(dim(ci), c(3L, 2L, 3L))
  expect_identical(dimnames(ci)[[3L]], c("0.25", "0.5", "0.75"))
  expect_equal(nrow(as.data.frame(summary(fit))), 9L)
  dr <- posterior_draws(fit, n = 50, tau = 0.4)
  expect_equal(dim(dr), c(50L, 3L))
  expect_length(predict(fit, newdata = d[1:4, ]), 3L)
  # Draws cost no privacy: the ledger is unchanged by drawing.
  led <- fit$ledger
  invisible(posterior_draws(fit, n = 10))
  expect_identical(fit$ledger, led)
}) })

test_that("a missing bound is an error naming the variable; nothing is taken from the data", { quiet_noise({
  d <- make_data()
  expect_error(pgbb(y ~ x + z, d, loss = "huber", epsilon = 1,
                    bounds = list(x = c(0, 10), .response = c(-15, 20)), control = quick), "'z'")
  expect_error(pgbb(y ~ x, d, loss = "huber", epsilon = 1, bounds = list(x = c(0, 10)),
                    control = quick), "response")
  expect_error(pgbb(y ~ x, d, loss = "huber", epsilon = 1, control = quick), "'bounds'")
  expect_error(pgbb(y ~ x, d, loss = "quantile", tau = 1.2, epsilon = 1, bounds = b_all), "'tau'")
  expect_error(pgbb(y ~ x, d, loss = "huber", bounds = b_all), "'epsilon'")
  expect_error(pgbb(y ~ x, d, loss = "huber", epsilon = -1, bounds = b_all), "'epsilon'")
  expect_error(pgbb(y ~ x, d, loss = "huber", epsilon = 1, delta = 2, bounds = b_all,
                    control = quick), "'delta'")
  expect_error(pgbb(y ~ x, as.list(d), loss = "huber", epsilon = 1, bounds = b_all), "'data'")
}) })

test_that("values outside the declared bounds are clipped, with a message to the analyst", { quiet_noise({
  d <- make_data()
  d$x[1:3] <- c(-5, 50, 11)
  set.seed(4)
  expect_message(pgbb(y ~ x, d, loss = "huber", epsilon = 1, bounds = b_all, control = quick),
                 "3 value\\(s\\) of 'data' lay outside the declared 'bounds'.*\\(x: 3\\)")
}) })

test_that("neighbouring data sets differing in one extreme record get identical public settings", { quiet_noise({
  d1 <- make_data()
  d2 <- d1
  d2$x[10] <- 1e6
  d2$y[10] <- -1e6
  fits <- lapply(list(d1, d2), function(d) {
    set.seed(5)
    suppressMessages(pgbb(y ~ x + z, d, loss = "quantile", tau = 0.5, epsilon = 1,
                          bounds = b_all, control = quick))
  })
  expect_identical(fits[[1]]$design$cb, fits[[2]]$design$cb)
  expect_identical(fits[[1]]$design$maps, fits[[2]]$design$maps)
  expect_identical(fits[[1]]$fit$box, fits[[2]]$fit$box)
  l1 <- unclass(fits[[1]]$ledger); l2 <- unclass(fits[[2]]$ledger)
  expect_identical(l1, l2)
}) })

test_that("subset, na.action, no intercept and a one-covariate model work", { quiet_noise({
  d <- make_data()
  set.seed(6)
  # subset and na.action are for non-private fits (a private fit's n is public).
  fit <- pgbb(y ~ x, d, loss = "huber", private = FALSE, bounds = b_all, control = quick,
              subset = z > 0)
  expect_equal(nobs(fit), sum(d$z > 0))
  # A private fit's n is public: incomplete records are an error, not dropped
  # (test-release.R); a non-private fit drops them as lm() does.
  d$x[5] <- NA
  expect_error(pgbb(y ~ x, d, loss = "huber", epsilon = 1, bounds = b_all, control = quick),
               "free of missing values")
  fit0 <- pgbb(y ~ x - 1, d, loss = "huber", private = FALSE, bounds = b_all, control = quick,
               na.action = na.omit)
  expect_identical(names(coef(fit0)), c("x", "scale"))
  expect_identical(nobs(fit0), nrow(d) - 1L)
  d$x[5] <- 1
  fm <- pgbb(y ~ 1, d, loss = "mean", epsilon = 1, bounds = b_all, control = quick)
  expect_identical(names(coef(fm)), "mean")
  expect_true(coef(fm) > -15 && coef(fm) < 20)
}) })

test_that("set.seed() reproduces a fit, and saveRDS/readRDS keeps its draws", { quiet_noise({
  d <- make_data(300)
  set.seed(7); a <- pgbb(y ~ x, d, loss = "huber", epsilon = 1, bounds = b_all, control = quick)
  set.seed(7); b <- pgbb(y ~ x, d, loss = "huber", epsilon = 1, bounds = b_all, control = quick)
  expect_identical(a$draws, b$draws)
  f <- tempfile(fileext = ".rds")
  saveRDS(a, f)
  a2 <- readRDS(f)
  set.seed(8); d1 <- posterior_draws(a, 20)
  set.seed(8); d2 <- posterior_draws(a2, 20)
  expect_identical(d1, d2)
}) })

# The snapshots freeze the layout and labels of print() and summary(), not the
# trained numbers (which change with any kernel or RNG change and are tested by
# value elsewhere): every number is masked and runs of blanks are collapsed.
mask_numbers <- function(lines) {
  lines <- gsub("-?[0-9]+(\\.[0-9]+)?(e[-+]?[0-9]+)?", "#", lines)
  gsub(" +", " ", lines)
}

test_that("print and summary output is stable", { quiet_noise({
  d <- make_data(400)
  set.seed(9)
  # Five runs of 200 iterations each (the default runs = 5 shares the iterations).
  fit <- suppressWarnings(pgbb(y ~ x + g, d, loss = "quantile", tau = c(0.25, 0.75), epsilon = 1,
                               bounds = b_all, control = modifyList(quick, list(iterations = 1000L))))
  expect_snapshot(print(fit, digits = 3), transform = mask_numbers)
  expect_snapshot(print(summary(fit, level = 0.9), digits = 3), transform = mask_numbers)
  # The masked numbers are there: the summary table has one row per coefficient
  # and level, with finite values.
  tab <- as.data.frame(summary(fit, level = 0.9))
  expect_equal(nrow(tab), 8L)
  expect_true(all(is.finite(as.matrix(tab[, c("estimate", "lower", "upper")]))))
}) })

test_that("plot and tidy work", { quiet_noise({
  d <- make_data(300)
  set.seed(10)
  fit <- pgbb(y ~ x, d, loss = "quantile", tau = c(0.25, 0.5, 0.75), epsilon = 2,
              bounds = b_all, control = quick)
  # The plot is recorded on a null device: its display list holds the drawing
  # calls, so an empty plot (or a plot without the reference) is told apart.
  grDevices::pdf(NULL)
  grDevices::dev.control("enable")
  expect_invisible(plot(fit))
  alone <- length(grDevices::recordPlot()[[1]])
  expect_invisible(plot(fit, reference = pgbb_reference(y ~ x, d, tau = c(0.25, 0.5, 0.75))))
  with_ref <- length(grDevices::recordPlot()[[1]])
  grDevices::dev.off()
  expect_gt(alone, 4)
  expect_gt(with_ref, alone)
  expect_error(plot(fit, parm = "nope"), "parm")
  # A non-quantile fit has no level axis: one interval bar per panel.
  hub <- pgbb(y ~ x, d, loss = "huber", epsilon = 2, bounds = b_all, control = quick)
  grDevices::pdf(NULL)
  grDevices::dev.control("enable")
  expect_invisible(plot(hub))
  calls <- vapply(grDevices::recordPlot()[[1]], function(e) paste(e[[2]][[1]]$name, ""), "")
  grDevices::dev.off()
  expect_true(any(grepl("arrows", calls)))
  expect_false(any(grepl("polygon", calls)))
  skip_if_not_installed("generics")
  td <- generics::tidy(fit)
  expect_named(td, c("term", "tau", "estimate", "std.error", "conf.low", "conf.high"))
  # pooled trainings: the standard error is the total sqrt(W + B / R)
  s <- as.data.frame(summary(fit))
  expect_equal(td$std.error, s$total)
  expect_equal(td$std.error^2, s$within^2 + s$between^2 / fit$variability$runs, tolerance = 1e-8)
}) })

test_that("as.data.frame() of a fit is its summary table, at the level asked for", { quiet_noise({
  d <- make_data(300)
  set.seed(11)
  fit <- pgbb(y ~ x, d, loss = "quantile", tau = c(0.25, 0.75), epsilon = 2, bounds = b_all, control = quick)
  df <- as.data.frame(fit, level = 0.8)
  expect_identical(df, as.data.frame(summary(fit, level = 0.8)))
  expect_equal(nrow(df), 4L)
  expect_equal(df$tau, rep(c(0.25, 0.75), each = 2))
  ci <- confint(fit, level = 0.8)
  expect_equal(df$lower, c(ci[, 1, 1], ci[, 1, 2]), ignore_attr = TRUE)
  expect_error(as.data.frame(fit, level = 2), "level")
}) })

test_that("at epsilon = Inf the coefficients match the non-private rq fit (slow)", { quiet_noise({
  skip_if_not_slow()
  set.seed(11)
  n <- 3000
  d <- data.frame(x = runif(n, 0, 10), z = runif(n, -1, 1))
  d$y <- 2 + 0.5 * d$x - 1 * d$z + rnorm(n)
  taus <- c(0.25, 0.5, 0.75)
  fit <- pgbb(y ~ x + z, d, loss = "quantile", tau = taus, epsilon = Inf,
              bounds = list(x = c(0, 10), z = c(-1, 1), .response = c(-5, 12)),
              control = pgbb_control(iterations = 3000, hidden = c(64, 64), draws = 1000,
                                     rate = 0.2, learning_rate = 2e-3, blocks = 10))
  expect_identical(fit$ledger$sigma, 0)
  ref <- pgbb_reference(y ~ x + z, d, tau = taus)
  s <- summary(fit)
  for (k in seq_along(taus)) {
    tab <- s$coefficients[[k]]
    # The blocked bootstrap is centred at the (smoothed) ERM, within a fraction of
    # a posterior SD of rq; 2 SD allows for the smoothing bias (h = 0.1 against
    # a residual scale of 1), the random partition and the generator's error.
    expect_true(all(abs(tab[, "estimate"] - ref$coefficients[, k]) < 2 * tab[, "sd"]),
                info = sprintf("tau = %g", taus[k]))
    # With S = 10 blocks the blocked-bootstrap SD behaves like an estimate with 9
    # degrees of freedom (the 99.9% range of sqrt(chi2_9 / 9) is [0.34, 1.77]),
    # so posterior SDs are only of the order of rq's standard errors.
    rq_se <- (ref$intervals[, 2, k] - ref$intervals[, 1, k]) / (2 * qnorm(0.975))
    expect_true(all(tab[, "sd"] / rq_se > 0.3 & tab[, "sd"] / rq_se < 3), info = sprintf("tau = %g", taus[k]))
  }
}) })
