# The generator of src/core/generator.h: its vector-Jacobian product against
# finite differences, and the map into the public parameter box.

gen_spec <- function(S, hidden, lower, upper, log = rep(FALSE, length(lower)), joint = FALSE) {
  nt <- if (joint) 2L else 0L
  list(version = 1L, n_in = S + nt, n_direct = nt, hidden = as.integer(hidden),
       in_shift = c(rep(0, S), if (joint) c(0.5, 0)), in_scale = c(rep(S, S), if (joint) c(2, 1)),
       box = list(lower = lower, upper = upper, log = log))
}

# Initial weights (output layer zero) plus noise, so every path is exercised.
random_layers <- function(g, sd = 0.3) {
  L <- pgbb:::cpp_generator_init(g, fixed_key(7))
  lapply(L, function(l) list(W = l$W + matrix(rnorm(length(l$W), sd = sd), nrow(l$W)),
                             b = l$b + rnorm(length(l$b), sd = sd)))
}

fd_check <- function(g, L, input, dt, h = 1e-6) {
  r <- pgbb:::cpp_generator_vjp(g, L, input, dt)
  f <- function(L) sum(dt * pgbb:::cpp_generator_vjp(g, L, input, dt)$theta)
  err <- 0
  scale <- 0
  for (l in seq_along(L)) for (nm in c("W", "b")) for (i in seq_along(L[[l]][[nm]])) {
    Lp <- L; Lp[[l]][[nm]][i] <- Lp[[l]][[nm]][i] + h
    Lm <- L; Lm[[l]][[nm]][i] <- Lm[[l]][[nm]][i] - h
    fd <- (f(Lp) - f(Lm)) / (2 * h)
    err <- max(err, abs(fd - r$gradient[[l]][[nm]][i]))
    scale <- max(scale, abs(fd))
  }
  list(err = err, scale = scale)
}

test_that("the generator's vector-Jacobian product matches finite differences", {
  set.seed(41)
  S <- 5
  # A box whose soft-clip shoulders and log-scale coordinate are both in play.
  g <- gen_spec(S, c(6, 5), lower = c(-1.5, 0.05), upper = c(1.5, 3), log = c(FALSE, TRUE))
  L <- random_layers(g)
  K <- 4
  input <- rblock_weights(K, S, 1)
  dt <- matrix(rnorm(K * 2), K, 2)
  th <- pgbb:::cpp_generator_vjp(g, L, input, dt)$theta
  r <- fd_check(g, L, input, dt)
  # Central differences at h = 1e-6: error O(h^2) plus rounding O(1e-16 / h),
  # about 1e-9 here; ReLU kinks are at distance >> h from these inputs with
  # probability one. 1e-6 relative to the largest entry leaves a wide margin.
  expect_lt(r$err, 1e-6 * r$scale)
  # the joint generator, with its direct level path in half-width units
  gj <- gen_spec(S, c(7, 4), lower = c(-3, -2, 0.1), upper = c(3, 4, 5), log = c(FALSE, FALSE, TRUE),
                 joint = TRUE)
  Lj <- random_layers(gj)
  tau <- c(0.2, 0.5, 0.7, 0.9)
  inj <- cbind(rblock_weights(4, S, 1), tau, qnorm(tau))
  dtj <- matrix(rnorm(12), 4, 3)
  rj <- fd_check(gj, Lj, inj, dtj)
  expect_lt(rj$err, 1e-6 * rj$scale)
  # a single draw (K = 1 takes matrix-vector paths) and no hidden layer
  g0 <- gen_spec(S, integer(0), lower = -2, upper = 2)
  r0 <- fd_check(g0, random_layers(g0), input[1, , drop = FALSE], matrix(1.3))
  expect_lt(r0$err, 1e-6 * r0$scale)
})

test_that("every generator output lies in the box, whatever the weights", {
  set.seed(42)
  S <- 4
  g <- gen_spec(S, c(8, 8), lower = c(-1, 2, 0.01), upper = c(1, 2.5, 0.02), log = c(FALSE, FALSE, TRUE))
  for (sd in c(0.1, 3, 100)) {
    L <- random_layers(g, sd = sd)
    th <- eval_generator(g, L, rblock_weights(500, S, 0.5), numeric(0))
    expect_true(all(th[, 1] >= -1 & th[, 1] <= 1))
    expect_true(all(th[, 2] >= 2 & th[, 2] <= 2.5))
    expect_true(all(th[, 3] >= 0.01 & th[, 3] <= 0.02))
  }
})

test_that("the soft clip is the identity on the central 90% of the box", {
  # With no hidden layer and zero weights, G = mid + half * b (output bias in
  # half-width units): b = v / half gives theta = mid + v while |v| <= 0.9 half.
  S <- 3
  g <- gen_spec(S, integer(0), lower = -2, upper = 6)  # mid 2, half 4
  L <- pgbb:::cpp_generator_init(g, fixed_key(1))
  u <- rblock_weights(3, S, 1)
  for (v in c(-3.5, -1, 0, 2.2, 3.6)) {
    L[[1]]$b <- v / 4
    expect_equal(eval_generator(g, L, u, numeric(0))[, 1], rep(2 + v, 3))
  }
  # beyond, strictly inside and increasing
  vals <- vapply(c(3.7, 4, 10, 1e3), function(v) {
    L[[1]]$b <- v / 4
    eval_generator(g, L, u[1, , drop = FALSE], numeric(0))[1, 1]
  }, 1)
  expect_true(all(diff(vals) >= 0) && all(vals > 5.6 & vals <= 6))
})
