# Avoiding copies of a large design (the natality scale) must not change what
# is clipped or checked.

test_that("clipping to the declared bounds returns x itself only when nothing is outside", {
  set.seed(1)
  x <- matrix(runif(40, -1, 1), 10, 4, dimnames = list(NULL, paste0("v", 1:4)))
  inside <- pgbb:::.clip_columns(x, list(lower = rep(-1, 4), upper = rep(1, 4)))
  expect_identical(inside$x, x)
  expect_equal(inside$clipped, 0)
  # The same object, not an equal copy: tracemem() reports an object's address.
  if (capabilities("profmem")) {
    expect_identical(tracemem(inside$x), tracemem(x))
    untracemem(x)
    clipped <- pgbb:::.clip_columns(x, list(lower = rep(-1, 4), upper = c(1, 0, 1, 1)))
    expect_false(identical(tracemem(clipped$x), tracemem(x)))  # a real copy is told apart
    untracemem(x)
  }

  x2 <- x
  x2[3, 2] <- 5
  x2[7, 4] <- -3
  before <- x2
  out <- pgbb:::.clip_columns(x2, list(lower = rep(-1, 4), upper = c(1, 2, 1, 1)))
  expect_equal(out$clipped, 2)
  expect_equal(unname(out$x[3, 2]), 2)
  expect_equal(unname(out$x[7, 4]), -1)
  expect_equal(out$x[-c(3, 7), ], x2[-c(3, 7), ])
  expect_identical(dimnames(out$x), dimnames(x2))
  expect_identical(x2, before)  # the caller's matrix is never modified in place
})

test_that("the finiteness check still catches every non-finite value", {
  x <- matrix(runif(20), 5, 4)
  expect_silent(pgbb:::.check_finite_numeric(x, "x"))
  for (bad in list(Inf, -Inf, NaN, NA)) {
    xb <- x
    xb[4, 3] <- bad
    expect_error(pgbb:::.check_finite_numeric(xb, "x"), "'x'")
  }
  expect_error(pgbb:::.check_finite_numeric(c(1L, NA), "x"), "'x'")
  expect_silent(pgbb:::.check_finite_numeric(1:3, "x"))
})

test_that("pgbb_fit() on an integer design gives the same fit as on the same values as doubles", {
  set.seed(3)
  xi <- matrix(sample(0:1, 400, TRUE), 200, 2)
  y <- rnorm(200)
  args <- list(y = y, loss = "huber", sigma = 0, box = rbind(c(-5, 5), c(-5, 5), c(0.01, 5)),
               x_bounds = c(0, 1), blocks = 5, rate = 1, iterations = 30, hidden = 8, draws = 20,
               progress = FALSE)
  set.seed(4); f1 <- do.call(pgbb_fit, c(list(x = xi), args))
  set.seed(4); f2 <- do.call(pgbb_fit, c(list(x = xi + 0), args))
  expect_equal(f1$draws, f2$draws)
})

test_that("pgbb_fit() neither copies a design without column names nor loses its names", {
  skip_if_not(capabilities("profmem"))
  set.seed(5)
  x <- cbind(1, matrix(runif(400), 200, 2))   # no column names
  y <- rnorm(200)
  args <- list(y = y, loss = "huber", sigma = 0, box = rbind(c(-5, 5), c(-5, 5), c(-5, 5), c(0.01, 5)),
               x_bounds = c(0, 1), blocks = 5, rate = 1, iterations = 5, hidden = 4, draws = 10,
               progress = FALSE)
  # tracemem() prints a line for every duplication of x; colnames<- on the
  # caller's matrix was one (a full copy of the design at natality scale).
  tracemem(x)
  on.exit(untracemem(x), add = TRUE)
  out <- utils::capture.output(fit <- do.call(pgbb_fit, c(list(x = x), args)))
  untracemem(x)
  expect_false(any(grepl("tracemem[", out, fixed = TRUE)))
  expect_identical(colnames(fit$draws), c("x1", "x2", "x3", "scale"))
  # The same names as a fit of the same matrix with them set by the user.
  xn <- x
  colnames(xn) <- c("x1", "x2", "x3")
  expect_identical(colnames(do.call(pgbb_fit, c(list(x = xn), args))$draws), colnames(fit$draws))
})

test_that("the NoisyGibbs and DP-Bootstrap baselines do not copy a design without column names", {
  skip_if_not(capabilities("profmem"))
  set.seed(6)
  n <- 300
  x <- matrix(runif(2 * n, -1, 1), n, 2)   # double, no column names
  y <- drop(x %*% c(1, -1)) + rnorm(n)
  traced <- function(expr) {
    tracemem(x)
    on.exit(untracemem(x))
    utils::capture.output(value <- suppressWarnings(expr))
  }
  # colnames<- and an unconditional storage.mode<- on the caller's matrix
  # each printed a tracemem line here.
  out <- traced(ng <- noisy_gibbs(x, y, loss = "linear", epsilon = 1, delta = 1 / n,
                                  bounds = c(x = 1, y = 10)))
  expect_false(any(grepl("tracemem[", out, fixed = TRUE)))
  expect_identical(colnames(ng$draws), c("x1", "x2", "sigma"))
  out <- traced(db <- dp_bootstrap(x, y, loss = "ridge_huber", epsilon = 1, delta = 1 / n,
                                   bounds = c(x = 1), B = 5))
  expect_false(any(grepl("tracemem[", out, fixed = TRUE)))
  expect_identical(colnames(db$draws), c("x1", "x2", "scale"))
})
