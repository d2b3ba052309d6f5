# Benchmark cases of the NoisyGibbs and DP-Bootstrap baselines for bench/run.R
# (bench_case() comes from bench/common.R), at the PGBB paper's settings (SM S3.2).
cases <- function() {
  set.seed(2024)
  n <- 10000; p <- 3
  X <- matrix(runif(n * p, -1, 1), n, p, dimnames = list(NULL, paste0("x", 1:p)))
  y <- drop(X %*% c(1.5, -1.5, 1)) + 0.5 * rt(n, 3)
  x_exp <- rexp(5000, 0.5)
  rbind(
    bench_case("NoisyGibbs linear regression", function()
      noisy_gibbs(X, y, loss = "linear", epsilon = 1, delta = 1 / n, bounds = c(x = 1, y = 6)),
      settings = "n = 10000, p = 3, 400k iterations, 200k burn-in, thin 10"),
    bench_case("NoisyGibbs exponential rate", function()
      noisy_gibbs(x_exp, loss = "exponential", epsilon = 1, delta = 1 / 5000, bounds = c(0, 12)),
      settings = "n = 5000, 4k iterations"),
    bench_case("DP-Bootstrap ridge Huber (Alg. 2)", function()
      dp_bootstrap(X, y, loss = "ridge_huber", epsilon = 1, delta = 1 / n, bounds = c(x = 1)),
      settings = "n = 10000, p = 3, B = 20"),
    bench_case("DP-Bootstrap mean + deconvolution (Alg. 3)", function()
      dp_bootstrap(x_exp, loss = "mean", epsilon = 1, delta = 1 / 5000, bounds = c(0, 12)),
      settings = "n = 5000, B = 1000")
  )
}
