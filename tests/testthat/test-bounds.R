# R/bounds.R: one message about clipped values, with per-variable counts, from
# every front end; the count is shown to the analyst and never stored.

bnd_data <- local({
  set.seed(21)
  d <- data.frame(x = runif(200), z = runif(200))
  d$y <- d$x - d$z + rnorm(200, sd = 0.3)
  d$x[1:3] <- c(-1, 2, 5)      # 3 covariate values outside [0, 1]
  d$y[4:5] <- c(-50, 50)       # 2 responses outside [-3, 3]
  d
})
bnd_bounds <- list(x = c(0, 1), z = c(0, 1), .response = c(-3, 3))
bnd_pattern <- function(caller)
  sprintf("^%s: 5 value\\(s\\) of 'data' lay outside the declared 'bounds' and were clipped to them \\(x: 3, \\.response: 2\\)\\. This count comes from the confidential data and is not differentially private",
          caller)

test_that("the message gives the total and the per-variable counts, in one wording", {
  expect_message(pgbb:::.clip_message(c(x = 3L, z = 0L, .response = 2L), "data", "bounds", "f()"),
                 "^f\\(\\): 5 value\\(s\\) of 'data' lay outside the declared 'bounds' and were clipped to them \\(x: 3, \\.response: 2\\)")
  expect_message(pgbb:::.clip_message(4, "x", "bounds", "g()"),
                 "^g\\(\\): 4 value\\(s\\) of 'x' lay outside the declared 'bounds' and were clipped to them\\. ")
  expect_silent(pgbb:::.clip_message(c(x = 0L, .response = 0L), "data", "bounds", "f()"))
})

test_that("every formula front end reports the same counts the same way", {
  ctl <- pgbb_control(iterations = 20, hidden = 4, draws = 20, blocks = 5, runs = 2)
  expect_message(quiet_noise(pgbb(y ~ x + z, bnd_data, loss = "huber", epsilon = 4, bounds = bnd_bounds,
                                  control = ctl, progress = FALSE)), bnd_pattern("pgbb\\(\\)"))
  expect_message(dp_sgld(y ~ x + z, bnd_data, loss = "huber", epsilon = 4, bounds = bnd_bounds,
                         iterations = 50, progress = FALSE), bnd_pattern("dp_sgld\\(\\)"))
  expect_message(suppressWarnings(noisy_gibbs(y ~ x + z, bnd_data, epsilon = 4, bounds = bnd_bounds,
                                              iterations = 200)), bnd_pattern("noisy_gibbs\\(\\)"))
  expect_message(dp_bootstrap(y ~ x + z, bnd_data, epsilon = 4, bounds = bnd_bounds),
                 bnd_pattern("dp_bootstrap\\(\\)"))
})

test_that("the count is not part of the fit", {
  ctl <- pgbb_control(iterations = 20, hidden = 4, draws = 20, blocks = 5, runs = 2)
  fit <- suppressMessages(quiet_noise(pgbb(y ~ x + z, bnd_data, loss = "huber", epsilon = 4,
                                           bounds = bnd_bounds, control = ctl, progress = FALSE)))
  flat <- names(unlist(unclass(fit)[setdiff(names(fit), c("call", "terms"))]))
  expect_false(any(grepl("clipped", flat)))
})
