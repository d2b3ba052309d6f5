# The formula front end never returns a plausible wrong answer without a word:
# levels in any order are labelled by their own fit, the
# non-private path without bounds fits the data, and options of other
# packages' methods are errors, not silently ignored. The bad-input table in
# test-bad-input.R holds the cases that must be errors.

front_end_data <- function(n = 600, seed = 15) {
  set.seed(seed)
  d <- data.frame(x = runif(n, 0, 2), z = runif(n))
  d$y <- 1 + 0.5 * d$x - 0.5 * d$z + rnorm(n)
  d
}
front_end_bounds <- list(x = c(0, 2), z = c(0, 1), .response = c(-5, 8))
tiny_control <- pgbb_control(iterations = 60, hidden = c(8, 8), draws = 100)

test_that("quantile levels in any order are each labelled by their own fit (pgbb)", { quiet_noise({
  d <- front_end_data()
  fits <- lapply(list(c(0.1, 0.5, 0.9), c(0.9, 0.1, 0.5), c(0.5, 0.9, 0.1)), function(tau) {
    set.seed(99)
    pgbb(y ~ x + z, d, tau = tau, epsilon = 2, bounds = front_end_bounds, control = tiny_control)
  })
  ref <- fits[[1L]]
  for (f in fits[-1L]) {
    expect_identical(dimnames(f$draws)[[3L]], as.character(f$tau))
    # Same seed, same sorted training grid and weights: the same generator, so each
    # level's draws are identical whatever order the levels were given in.
    for (lv in c("0.1", "0.5", "0.9")) expect_identical(f$draws[, , lv], ref$draws[, , lv])
    expect_equal(coef(f)[, c("0.1", "0.5", "0.9")], coef(ref))
    td <- generics::tidy(f)
    tr <- generics::tidy(ref)
    expect_equal(td[order(td$tau, td$term), "estimate"], tr[order(tr$tau, tr$term), "estimate"])
    p <- predict(f, d[1:3, ])
    expect_equal(p[c("0.1", "0.5", "0.9")], predict(ref, d[1:3, ]))
    set.seed(5); pd <- posterior_draws(f, 50, array = TRUE)
    set.seed(5); pr <- posterior_draws(ref, 50, array = TRUE)
    expect_identical(dimnames(pd)[[3L]], as.character(f$tau))
    for (lv in c("0.1", "0.5", "0.9")) expect_identical(pd[, , lv], pr[, , lv])
    s <- as.data.frame(summary(f))
    expect_equal(s$estimate[s$tau == 0.9 & s$term == "(Intercept)"], coef(ref)["(Intercept)", "0.9"])
  }
  # The fit labelled 0.9 is the upper conditional quantile (the bug put the 0.1 fit there).
  cf <- coef(fits[[2L]])
  expect_gt(cf["(Intercept)", "0.9"], cf["(Intercept)", "0.1"])
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_invisible(plot(fits[[2L]]))
}) })

test_that("pgbb_fit keeps the user's level order and permutes tau_prob with it", {
  set.seed(3)
  x <- matrix(runif(400), ncol = 1, dimnames = list(NULL, "x"))
  y <- drop(x) + rnorm(400)
  run <- function(tau, tau_prob) {
    set.seed(4)
    pgbb_fit(x, y, loss = "quantile", tau = tau, tau_prob = tau_prob, sigma = 0, box = c(-9, 9),
             x_bounds = c(0, 1), y_bounds = c(-5, 6), blocks = 10, rate = 1, iterations = 40,
             hidden = 4, draws = 30, progress = FALSE)
  }
  a <- run(c(0.2, 0.8), c(0.9, 0.1))
  b <- run(c(0.8, 0.2), c(0.1, 0.9))   # the same weights, given in the same level order
  expect_identical(b$tau, c(0.8, 0.2))
  expect_identical(b$tau_prob, c(0.1, 0.9))
  expect_identical(a$generator$layers, b$generator$layers)
  expect_identical(b$draws[, , "0.8"], a$draws[, , "0.8"])
  expect_identical(dimnames(b$draws)[[3L]], c("0.8", "0.2"))
  # Weights that do not follow their levels train a different generator.
  c2 <- run(c(0.8, 0.2), c(0.9, 0.1))
  expect_false(identical(a$generator$layers, c2$generator$layers))
})

test_that("a non-private fit without bounds fits the data, with the ranges taken from it", { quiet_noise({
  skip_if_not_slow()
  d <- front_end_data(n = 2000)
  set.seed(7)
  expect_message(
    fit <- pgbb(y ~ x + z, d, private = FALSE, tau = 0.5,
                control = pgbb_control(iterations = 3000, hidden = c(32, 32), draws = 500)),
    "taken from the data")
  ref <- coef(quantreg::rq(y ~ x + z, tau = 0.5, data = d))
  # The non-private generative blocked bootstrap centres on the smoothed quantile fit;
  # rq's standard errors here are about 0.07 (slopes) and 0.06 (intercept), and the
  # bug gave 3.5 for every coefficient. 0.1 is well inside two standard errors.
  expect_lt(max(abs(coef(fit) - ref)), 0.1)
  expect_output(print(fit), "taken from the data")
  expect_true(fit$design$bounds_from_data)
  # Without an intercept every column is scaled (the bug clipped all of them to 1).
  set.seed(7)
  fit0 <- suppressMessages(pgbb(y ~ 0 + x + z, d, private = FALSE, loss = "huber",
                                control = pgbb_control(iterations = 3000, hidden = c(32, 32), draws = 500)))
  ref0 <- stats::coef(stats::lm(y ~ 0 + x + z, d))
  expect_lt(max(abs(coef(fit0)[1:2] - ref0)), 0.1)
}) })

test_that("a private fit still refuses to take bounds from the data", { quiet_noise({
  d <- front_end_data()
  expect_error(pgbb(y ~ x, d, epsilon = 1, control = tiny_control), "'bounds' is missing")
  expect_error(pgbb(y ~ x, d, epsilon = 1, bounds = list(.response = c(-5, 8)), control = tiny_control),
               "no public bound for 'x'")
}) })

test_that("methods refuse arguments they would ignore, and fitted/residuals say why they are absent", { quiet_noise({
  d <- front_end_data()
  set.seed(1)
  fit <- pgbb(y ~ x + z, d, epsilon = 2, bounds = front_end_bounds, control = tiny_control)
  expect_error(summary(fit, se = "nid"), "summary.pgbb\\(\\): unknown argument 'se'")
  expect_error(predict(fit, d[1:2, ], se.fit = TRUE), "unknown argument 'se.fit'")
  expect_error(confint(fit, levle = 0.9), "unknown argument 'levle'")
  expect_error(coef(fit, complete = TRUE), "unknown argument 'complete'")
  expect_error(vcov(fit, 2), "unknown argument '\\(unnamed\\)'")
  expect_error(posterior_draws(fit, 10, seed = 1), "unknown argument 'seed'")
  expect_error(posterior_draws(fit, 10, array = NA), "'array' must be TRUE or FALSE")
  expect_error(generics::tidy(fit, exponentiate = TRUE), "unknown argument 'exponentiate'")
  expect_error(fitted(fit), "stores no records.*predict\\(fit, newdata")
  expect_error(residuals(fit), "stores no records")
  expect_error(resid(fit), "stores no records")
  # The options the methods do have still work.
  expect_equal(dim(confint(fit, level = 0.9)), c(3L, 2L))
  expect_length(predict(fit, d[1:2, ]), 2L)
  # Rows outside the public bounds the data were clipped to: predictions there
  # extrapolate, and predict() says so, per column.
  expect_warning(p <- predict(fit, data.frame(x = c(1, 3, 2.5), z = c(0.5, -1, 0.2))),
                 "x: 2 rows outside \\[0, 2\\]; z: 1 row outside \\[0, 1\\]")
  expect_length(p, 3L)
  expect_no_warning(predict(fit, data.frame(x = c(0, 2), z = c(1, 0))))
}) })

test_that("predict() at a fitted level uses the stored draws, and a mean fit predicts its mean", { quiet_noise({
  d <- front_end_data()
  set.seed(2)
  fit <- pgbb(y ~ x + z, d, tau = c(0.25, 0.5), epsilon = 2, bounds = front_end_bounds, control = tiny_control)
  nd <- d[1:3, ]
  # predict(tau = 0.5) took fresh draws: a different answer at every call, and
  # not that of predict(fit)[["0.5"]], coef() or confint().
  p1 <- predict(fit, nd, tau = 0.5, interval = "credible")
  expect_identical(p1, predict(fit, nd, tau = 0.5, interval = "credible"))
  expect_identical(p1, predict(fit, nd, interval = "credible")[["0.5"]])
  m <- pgbb(y ~ 1, d, loss = "mean", epsilon = 2, bounds = list(.response = c(-5, 8)),
            control = tiny_control)
  expect_equal(unname(predict(m, nd)), rep(unname(coef(m)), 3))
}) })

test_that("a generator that overflowed is an error, not a fit of NaN draws", {
  expect_error(pgbb:::.check_trained_finite(matrix(c(1, NaN), 1), 1e93), "training diverged")
  expect_error(pgbb:::.check_trained_finite(matrix(c(1, Inf), 1), 1), "not finite")
  expect_true(pgbb:::.check_trained_finite(matrix(1:4, 2), 1))
})

test_that("the too-small-budget error says what would help, for either conversion", {
  args <- list(delta = 1e-5, n = 1000, blocks = 10, clip = 1, rate = 0.1, iterations = 10)
  e1 <- tryCatch(do.call(pgbb_sigma, c(list(epsilon = 1e-300), args)), error = conditionMessage)
  expect_match(e1, "too small for these settings")
  expect_match(e1, "Raise 'epsilon' or 'delta'")
  # The default conversion is already "asoodeh": do not suggest it.
  expect_no_match(e1, "conversion = \"asoodeh\"")
  e2 <- tryCatch(do.call(pgbb_sigma, c(list(epsilon = 0.5, conversion = "mironov", orders = 2:3), args)),
                 error = conditionMessage)
  expect_match(e2, "conversion = \"asoodeh\"")
})

test_that("pgbb_control() sets the trainer's clip, warm-up and precision for pgbb()", { quiet_noise({
  set.seed(8)
  d <- data.frame(x = runif(300)); d$y <- d$x + rnorm(300)
  b <- list(x = c(0, 1), .response = c(-4, 5))
  ctl <- pgbb_control(iterations = 30, hidden = 4, draws = 20, blocks = 5, runs = 2,
                      clip = 0.5, warmup = 0, precision = "double")
  fit <- pgbb(y ~ x, d, loss = "huber", epsilon = 4, bounds = b, control = ctl, progress = FALSE)
  expect_equal(fit$fit$ledger$clip, 0.5)
  expect_identical(fit$fit$training$precision, "double")
  expect_equal(fit$fit$training$warmup, 0)
  # the defaults are pgbb_fit()'s: the loss's own clip, float, 5% warm-up
  def <- pgbb(y ~ x, d, loss = "huber", epsilon = 4, bounds = b,
              control = pgbb_control(iterations = 30, hidden = 4, draws = 20, blocks = 5, runs = 2),
              progress = FALSE)
  expect_gt(def$fit$ledger$clip, 0.5)
  expect_identical(def$fit$training$precision, "float")
  expect_equal(def$fit$training$warmup, 0.05)
}) })

# The noise-aware training is the default (five runs on one partition, tail
# averaging at the step pgbb_learning_rate() gives, each level at its own bound), and
# paper = TRUE is the paper's single training; an explicit argument wins.
test_that("pgbb_control()'s defaults are the noise-aware training; paper = TRUE is Algorithms 1-2", { quiet_noise({
  def <- pgbb_control()
  expect_identical(def$runs, 5L)
  expect_true(def$share_partition)
  expect_null(def$learning_rate)   # resolved by pgbb() through pgbb_learning_rate()
  expect_equal(c(def$lr_floor, def$average_from), c(0.1, 0.5))
  expect_identical(def$schedule, "cosine")
  expect_identical(pgbb_control(schedule = "harm")$schedule, "harmonic")
  expect_identical(c(def$level_noise, def$coding), c("scaled", "centred"))
  pap <- pgbb_control(paper = TRUE)
  expect_identical(pap$runs, 1L)
  expect_false(pap$share_partition)
  expect_equal(c(pap$learning_rate, pap$lr_floor, pap$average_from), c(5e-4, 0.01, 1))
  expect_identical(c(pap$level_noise, pap$coding, pap$schedule), c("uniform", "unit", "cosine"))
  expect_true(def$level_interactions)
  expect_false(pap$level_interactions)
  expect_identical(def$hidden, c(32L, 32L))
  expect_identical(pap$hidden, c(256L, 256L, 256L))
  expect_identical(pgbb_control(paper = TRUE, hidden = 8)$hidden, 8L)
  expect_error(pgbb_control(level_interactions = "yes"), "'level_interactions'")
  mixed <- pgbb_control(paper = TRUE, runs = 3, learning_rate = 1e-3)
  expect_identical(mixed$runs, 3L)
  expect_equal(mixed$learning_rate, 1e-3)
  expect_equal(mixed$lr_floor, 0.01)
  expect_error(pgbb_control(paper = NA), "'paper'")
  # The settings reach the trainer.
  set.seed(10)
  d <- data.frame(x = runif(300)); d$y <- d$x + rnorm(300)
  b <- list(x = c(0, 1), .response = c(-4, 5))
  f_def <- pgbb(y ~ x, d, loss = "quantile", tau = c(0.3, 0.5), epsilon = 4, bounds = b, progress = FALSE,
                control = pgbb_control(iterations = 40, hidden = 4, draws = 20, blocks = 5))
  f_pap <- pgbb(y ~ x, d, loss = "quantile", tau = c(0.3, 0.5), epsilon = 4, bounds = b, progress = FALSE,
                control = pgbb_control(iterations = 40, hidden = 4, draws = 20, blocks = 5, paper = TRUE))
  expect_true(f_def$fit$shared_partition)
  expect_identical(f_def$fit$ledger$runs, 5L)
  expect_equal(unname(f_def$fit$ledger$level_scale), c(0.7, 0.5) / 0.7)
  # A joint quantile fit of 300 records at epsilon 4: n epsilon = 1,200 is where
  # the privacy noise dominates, so SM S3.3's step of 1e-3 (test-control.R
  # checks the rule itself and the 2e-3 above n epsilon = 30,000).
  expect_equal(f_def$fit$training[c("learning_rate", "lr_floor", "schedule", "average_from")],
               list(learning_rate = 1e-3, lr_floor = 0.1, schedule = "cosine", average_from = 0.5))
  expect_true(f_def$fit$generator$level_products)
  expect_true(f_def$fit$training$level_interactions)
  expect_false(f_pap$fit$generator$level_products)
  expect_false(f_pap$fit$shared_partition)
  expect_identical(f_pap$fit$ledger$runs, 1L)
  expect_equal(unname(f_pap$fit$ledger$level_scale), c(1, 1))
  expect_identical(f_pap$design$maps$coding, "unit")
  expect_equal(f_pap$fit$training[c("learning_rate", "lr_floor", "schedule", "average_from")],
               list(learning_rate = 5e-4, lr_floor = 0.01, schedule = "cosine", average_from = 1))
}) })

test_that("pgbb_control(hidden = integer(0)) is pgbb_fit()'s affine generator, checked by the same rule", { quiet_noise({
  set.seed(9)
  d <- data.frame(x = runif(300)); d$y <- d$x + rnorm(300)
  ctl <- pgbb_control(iterations = 30, hidden = integer(0), draws = 20, blocks = 5, runs = 2)
  expect_identical(ctl$hidden, integer(0))
  expect_output(print(ctl), "none \\(affine generator\\)")
  fit <- pgbb(y ~ x, d, loss = "huber", epsilon = 4, bounds = list(x = c(0, 1), .response = c(-4, 5)),
              control = ctl, progress = FALSE)
  expect_identical(fit$fit$training$hidden, integer(0))
  expect_length(fit$fit$generator$layers, 1L)     # one affine layer: no hidden layer
  expect_error(pgbb_control(hidden = 2.5), "'hidden'")
}) })

test_that("a column aliased with the intercept is named in a warning", {
  set.seed(71)
  x <- runif(300, 0, 10)
  y <- 1 + 0.5 * x + rnorm(300)
  X <- cbind(one = 1, x = x)
  b <- list(one = c(0, 2), x = c(0, 10), .response = c(-5, 12))
  ctl <- pgbb_control(iterations = 30, hidden = 4, draws = 50, blocks = 10)
  # Before, the coefficient of 'one' came out with a narrow interval and no word.
  expect_warning(quiet_noise(pgbb(X, y, epsilon = 5, bounds = b, control = ctl)), "'one' take one value")
  expect_no_warning(quiet_noise(pgbb(X, y, epsilon = 5, bounds = b, control = ctl, intercept = FALSE)))
  expect_no_warning(quiet_noise(pgbb(X[, "x", drop = FALSE], y, epsilon = 5, bounds = b[-1], control = ctl)))
  # A column every value of which lies above its declared bound is constant once
  # clipped: the same non-identification, which only the clip count hinted at.
  Z <- cbind(x = x, w = runif(300, 20, 30))
  bz <- list(x = c(0, 10), w = c(0, 10), .response = c(-5, 12))
  expect_warning(suppressMessages(quiet_noise(pgbb(Z, y, epsilon = 5, bounds = bz, control = ctl))),
                 "'w' take one value in the data \\(after clipping")
})

test_that("control settings the fit's loss does not read are named in a warning", {
  d <- front_end_data()
  # A control may be shared by a Huber and a quantile fit; before, the settings
  # the loss does not read vanished without a word.
  ctl <- pgbb_control(iterations = 20, hidden = 4, draws = 20, huber_c = 2, bandwidth = 0.2)
  set.seed(3)
  expect_warning(quiet_noise(pgbb(y ~ x, d, epsilon = 2, bounds = front_end_bounds, control = ctl)),
                 "'huber_c' of 'control' is not read by loss 'quantile'")
  expect_warning(quiet_noise(pgbb(y ~ x, d, loss = "huber", epsilon = 2, bounds = front_end_bounds, control = ctl)),
                 "'bandwidth' of 'control' is not read by loss 'huber'")
  warns <- character(0)
  withCallingHandlers(quiet_noise(pgbb(y ~ x, d, loss = "huber", epsilon = 2, bounds = front_end_bounds,
                                       control = pgbb_control(iterations = 20, hidden = 4, draws = 20, huber_c = 2))),
                      warning = function(w) { warns <<- c(warns, conditionMessage(w)); invokeRestart("muffleWarning") })
  expect_false(any(grepl("of 'control'", warns)))
})

test_that("without an intercept the default box lets a slope reach the response's magnitude", { quiet_noise({
  set.seed(2)
  n <- 1000
  d <- data.frame(x = runif(n, 1, 10)); d$y <- 100 + 2 * d$x + rnorm(n)
  b <- list(x = c(0, 10), .response = c(90, 130))
  # The fit through 0 has slope ~16.8 (x coded on [0, 1]: 168), beyond the
  # width-based box +-(1 + k) 40 = 120, where every draw sat at the face.
  f <- pgbb(y ~ 0 + x, d, loss = "huber", epsilon = Inf, bounds = b, progress = FALSE,
            control = pgbb_control(iterations = 2000, runs = 2, hidden = c(8, 8), draws = 200))
  ref <- coef(lm(y ~ 0 + x, d))
  # Non-private and converged: the Huber slope is within 2% of least squares here
  # (symmetric errors; the misfit is the missing intercept, the same for both).
  expect_equal(unname(coef(f)["x"]), unname(ref), tolerance = 0.02)
  box <- pgbb:::.default_box("huber", list(y_bounds = c(90, 130), Z = matrix(0, 1, 1), intercept = FALSE,
                                           maps = list(scaled = TRUE)), 2)
  expect_equal(box$upper, c(3 * 130, 3 * 130))
  with_int <- pgbb:::.default_box("huber", list(y_bounds = c(90, 130), Z = matrix(0, 1, 2), intercept = TRUE,
                                                maps = list(scaled = c(FALSE, TRUE))), 2)
  expect_equal(with_int$upper, c(130 + 80, 3 * 40, 3 * 40))
})})

test_that("predict() of a logistic fit gives log-odds by default and probabilities with type = 'response'", { quiet_noise({
  set.seed(46)
  n <- 600
  d <- data.frame(x = runif(n, -1, 1)); d$b <- rbinom(n, 1, plogis(-0.5 + 1.5 * d$x))
  f <- pgbb(b ~ x, d, loss = "logistic", epsilon = Inf, bounds = list(x = c(-1, 1)), progress = FALSE,
            control = pgbb_control(iterations = 300, runs = 2, hidden = c(8, 8), draws = 200))
  nd <- data.frame(x = c(-0.5, 0, 0.5))
  link <- predict(f, nd, interval = "credible")
  prob <- predict(f, nd, interval = "credible", type = "response")
  # An independent computation: the probability of every draw, then its mean and
  # sample quantiles. Up to the quantiles' interpolation, the ends are the log-odds
  # ends mapped by plogis (quantiles commute with an increasing map).
  eta <- cbind(1, nd$x) %*% t(f$draws[, c("(Intercept)", "x"), 1])
  expect_equal(unname(prob[, "fit"]), unname(rowMeans(plogis(eta))), tolerance = 1e-12)
  expect_equal(unname(prob[, "lower"]), unname(apply(plogis(eta), 1, quantile, 0.025)), tolerance = 1e-12)
  expect_equal(unname(prob[, "upper"]), unname(apply(plogis(eta), 1, quantile, 0.975)), tolerance = 1e-12)
  expect_equal(prob[, c("lower", "upper")], plogis(link[, c("lower", "upper")]), tolerance = 1e-3)
  expect_true(all(prob >= 0 & prob <= 1))
  expect_error(predict(f, nd, type = "prob"), "'type'")
  h <- pgbb(b ~ x, d, loss = "huber", epsilon = Inf, bounds = list(x = c(-1, 1), .response = c(0, 1)),
            progress = FALSE, control = pgbb_control(iterations = 100, runs = 2, hidden = 4, draws = 100))
  expect_identical(predict(h, nd, type = "response"), predict(h, nd))
})})

test_that("a mean's draws, estimate and interval stay within the response's bounds", { quiet_noise({
  # Every record at the lower bound 0, so the mean is 0. The training box is
  # [-0.1, 1.1] (.default_box(), k = 0.1) and the pooled noise error a t, so without the
  # move some draws fall below 0: the coded-scale draws of pgbb_fit(), pooled
  # from the same runs, show it (asserted below, so the test can fail).
  d <- data.frame(y = rep(0, 500))
  left <- FALSE
  for (s in 1:3) {
    set.seed(s)
    g <- pgbb(y ~ 1, data = d, loss = "mean", epsilon = 0.5, delta = 1e-4, bounds = list(.response = c(0, 1)),
              control = pgbb_control(iterations = 600), progress = FALSE)
    left <- left || any(g$fit$draws < 0)
    expect_true(all(g$draws >= 0 & g$draws <= 1))
    expect_true(coef(g) >= 0 && coef(g) <= 1)
    ci <- confint(g)
    expect_true(ci[1, 1] >= 0 && ci[1, 2] <= 1)
    expect_true(all(posterior_draws(g, n = 300) >= 0))
    nl <- summary(g, type = "normal")$coefficients[[1L]]
    expect_true(nl[1, "lower"] >= 0 && nl[1, "upper"] <= 1)
  }
  expect_true(left)
})})

test_that(".location_release() moves the draws and the estimate, the estimate after averaging", {
  # Most draws beyond the upper bound: the mean of the draws as released (1.125)
  # moves to 1, while the mean of the moved draws (0.625) would be pulled
  # towards the middle; the draws themselves go to the nearest bound.
  a <- array(c(-1, 0.5, 2, 3), c(4, 1, 1), list(NULL, "mean", "estimate"))
  r <- pgbb:::.location_release(a, c(0, 1))
  expect_identical(r$draws, array(c(0, 0.5, 1, 1), c(4, 1, 1), dimnames(a)))
  expect_identical(r$estimate, c(mean = 1))
  expect_identical(r$range, matrix(c(0, 1), 1, 2, dimnames = list("mean", c("lower", "upper"))))
  # Within the bounds nothing moves.
  inside <- array(c(0.2, 0.4, 0.9), c(3, 1, 1), list(NULL, "mean", "estimate"))
  expect_identical(pgbb:::.location_release(inside, c(0, 1))$draws, inside)
  expect_equal(pgbb:::.location_release(inside, c(0, 1))$estimate, c(mean = 0.5))
  # Several levels: one estimate per level; limits are cut term by term.
  b <- array(c(-3, -1, 0.5, 0.7), c(2, 1, 2), list(NULL, "mean", c("0.25", "0.75")))
  expect_equal(pgbb:::.location_release(b, c(0, 1))$estimate,
               matrix(c(0, 0.6), 1, 2, dimnames = list("mean", c("0.25", "0.75"))), tolerance = 1e-15)
  ci <- array(c(-0.5, 2, 0.1, 0.3), c(1, 2, 2), list("mean", c("2.5 %", "97.5 %"), NULL))
  expect_identical(unname(pgbb:::.limits_within(ci, r$range)[1, , ]), matrix(c(0, 1, 0.1, 0.3), 2))
  expect_identical(pgbb:::.limits_within(ci, NULL), ci)
})

test_that("the mean's default box is its bounds widened by 0.1 of their width; other fits keep k = 2", {
  # The box sets the gradient bound, so a mean trained in the k = 2 box had three
  # times the noise the k = 0.1 box needs (?pgbb_control, 'box_scale').
  set.seed(5)
  d <- data.frame(y = rbinom(300, 1, 0.3), x = runif(300))
  ctl <- pgbb_control(iterations = 40, runs = 2, hidden = 4, draws = 50)
  m <- quiet_noise(pgbb(y ~ 1, d, loss = "mean", epsilon = 1, bounds = list(.response = c(0, 1)),
                        control = ctl, progress = FALSE))
  expect_equal(as.vector(m$fit$box), c(-0.1, 1.1))
  wide <- quiet_noise(pgbb(y ~ 1, d, loss = "mean", epsilon = 1, bounds = list(.response = c(0, 1)),
                           control = pgbb_control(iterations = 40, runs = 2, hidden = 4, draws = 50,
                                                  box_scale = 2), progress = FALSE))
  expect_equal(as.vector(wide$fit$box), c(-2, 3))
  expect_equal(wide$fit$ledger$clip / m$fit$ledger$clip, 3 / 1.1)
  q <- quiet_noise(pgbb(y ~ x, d, loss = "quantile", epsilon = 1, bounds = list(x = c(0, 1), .response = c(0, 1)),
                        control = ctl, progress = FALSE))
  q2 <- quiet_noise(pgbb(y ~ x, d, loss = "quantile", epsilon = 1, bounds = list(x = c(0, 1), .response = c(0, 1)),
                         control = pgbb_control(iterations = 40, runs = 2, hidden = 4, draws = 50, box_scale = 2),
                         progress = FALSE))
  expect_identical(q$fit$box, q2$fit$box)
  # The intercept of y ~ 1 keeps k = 2 (?pgbb, 'Parameter box'). Bounds
  # [10, 30] (width 20, a unit of 1) are coded about their midpoint 20 as
  # [-10, 10], the k = 2 box [-30, 70] as [-50, 50], whose shoulders lie
  # beyond them (so its shoulder warning is muffled); k = 0.1 gives [8, 32],
  # coded [-12, 12].
  d$z <- 10 + 20 * d$x
  for (loss in c("quantile", "huber")) {
    loc <- quiet_noise(pgbb(z ~ 1, d, loss = loss, epsilon = 1, bounds = list(.response = c(10, 30)),
                            control = ctl, progress = FALSE))
    expect_equal(as.vector(loc$fit$box[1L, ]), c(-50, 50))
    expect_equal(loc$design$y_bounds, c(10, 30))
    expect_true(pgbb:::.shoulders_beyond(matrix(c(-30, 70), 1), loc$design$y_bounds))
    tight <- quiet_noise(pgbb(z ~ 1, d, loss = loss, epsilon = 1, bounds = list(.response = c(10, 30)),
                              control = pgbb_control(iterations = 40, runs = 2, hidden = 4, draws = 50,
                                                     box_scale = 0.1), progress = FALSE))
    expect_equal(as.vector(tight$fit$box[1L, ]), c(-12, 12))
  }
  expect_output(print(pgbb_control()), "0.1 for loss")
  expect_error(pgbb_control(box_scale = 0), "box_scale")
})

test_that("a mean's box-shoulder warning is muffled only where the shoulders lie beyond the bounds", {
  # A share near the lower bound at a small epsilon: many draws fall below 0,
  # into the lower shoulder of the default box [-0.1, 1.1] (asserted on
  # $box_share, so the test can fail). They are moved onto 0 when released,
  # whatever the squash did to them, so the warning would be noise there.
  set.seed(8)
  d <- data.frame(y = rbinom(500, 1, 0.05))
  ctl <- pgbb_control(iterations = 2000, hidden = c(8, 8), draws = 400)
  f <- withCallingHandlers(
    pgbb(y ~ 1, d, loss = "mean", epsilon = 0.25, bounds = list(.response = c(0, 1)), control = ctl,
         progress = FALSE),
    warning = function(w) if (!inherits(w, "pgbb_box_shoulders")) invokeRestart("muffleWarning"))
  expect_gt(max(f$fit$box_share), 0.01)
  # With k = 0.02 the shoulders reach into [0, 1]: there the squash shapes
  # released draws, and the warning stands.
  expect_warning(
    withCallingHandlers(
      pgbb(y ~ 1, d, loss = "mean", epsilon = 0.25, bounds = list(.response = c(0, 1)),
           control = pgbb_control(iterations = 2000, hidden = c(8, 8), draws = 400, box_scale = 0.02),
           progress = FALSE),
      warning = function(w) if (!inherits(w, "pgbb_box_shoulders")) invokeRestart("muffleWarning")),
    class = "pgbb_box_shoulders")
  expect_true(pgbb:::.shoulders_beyond(matrix(c(-0.1, 1.1), 1), c(0, 1)))
  expect_false(pgbb:::.shoulders_beyond(matrix(c(-0.02, 1.02), 1), c(0, 1)))
})

test_that("an intercept-only quantile or Huber fit keeps its intercept within the response's bounds", {
  # Most records at the lower bound 0, so the median is 0 and about a quarter
  # of the median's draws fall below it without the move (the same seeded fit
  # with the move disabled shows it: asserted, so the test can fail). A Huber
  # fit's scale is no location and is left alone; a fit with a slope has no
  # range.
  set.seed(21)
  d <- data.frame(y = c(rep(0, 480), runif(20)), x = runif(500))
  ctl <- pgbb_control(iterations = 3000, hidden = c(8, 8), draws = 400)
  b <- list(.response = c(0, 1), x = c(0, 1))
  set.seed(1)
  q <- quiet_noise(pgbb(y ~ 1, d, tau = c(0.5, 0.9), epsilon = 4, bounds = b, control = ctl, progress = FALSE))
  set.seed(1)
  raw <- with_pgbb_binding(".location_release",
                           function(draws, bounds, terms) list(draws = draws, estimate = NULL, range = NULL),
    quiet_noise(pgbb(y ~ 1, d, tau = c(0.5, 0.9), epsilon = 4, bounds = b, control = ctl, progress = FALSE)))
  expect_true(any(raw$draws < 0))
  expect_identical(q$draws, pmin(pmax(raw$draws, 0), 1))
  expect_true(all(q$draws >= 0 & q$draws <= 1))
  expect_true(all(coef(q) >= 0 & coef(q) <= 1))
  expect_true(all(suppressWarnings(confint(q)) >= 0))
  expect_identical(rownames(q$range), "(Intercept)")
  h <- quiet_noise(pgbb(y ~ 1, d, loss = "huber", epsilon = 4, bounds = b, control = ctl, progress = FALSE))
  expect_identical(rownames(h$range), "(Intercept)")
  expect_true(all(h$draws[, "(Intercept)", ] >= 0))
  expect_false(any(h$draws[, "scale", ] == 0))
  s <- quiet_noise(pgbb(y ~ x, d, tau = 0.5, epsilon = 4, bounds = b, control = ctl, progress = FALSE))
  expect_null(s$range)
})
