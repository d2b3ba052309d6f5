# Benchmark cases of the DP-SGLD baseline for bench/run.R (bench_case() comes from
# bench/common.R), at the PGBB paper's settings (SM S3.2, S3.3) or scaled-down chains.
cases <- function() {
  set.seed(2024)
  # CPS1988-size quantile regression (n = 28155, p = 4), 5 levels (SM S3.3).
  n <- 28155
  cps <- data.frame(educ = sample(0:18, n, TRUE), exper = sample(0:63, n, TRUE),
                    black = rbinom(n, 1, 0.1))
  cps$lw <- 5 + 0.08 * cps$educ + 0.03 * cps$exper - 0.2 * cps$black + rnorm(n, 0, 0.6)
  b_cps <- list(educ = c(0, 18), exper = c(0, 63), black = c(0, 1), .response = c(0, 10))
  taus <- c(0.1, 0.3, 0.5, 0.7, 0.9)
  # Huber regression of Section 5.1 (n = 10000, p = 3, q = 0.1, T = 20000).
  m <- 10000
  reg <- as.data.frame(matrix(runif(m * 3, -1, 1), m, 3, dimnames = list(NULL, paste0("x", 1:3))))
  reg$y <- drop(as.matrix(reg) %*% c(1.5, -1.5, 1)) + 0.5 * rt(m, 3)
  b_reg <- list(x1 = c(-1, 1), x2 = c(-1, 1), x3 = c(-1, 1), .response = c(-20, 20))
  # Gaussian mean of Section 5.2 (n = 5000, T = 40000).
  g <- data.frame(y = rnorm(5000, 1.5, 0.5))
  rbind(
    bench_case("DP-SGLD quantile, CPS1988 size, 5 tau", function()
      dp_sgld(lw ~ educ + exper + black, cps, tau = taus, epsilon = 1, bounds = b_cps,
              iterations = 5000, rate = 0.01, progress = FALSE),
      settings = "n = 28155, p = 4, 5 levels x T = 5000, q = 0.01"),
    bench_case("DP-SGLD Huber regression", function()
      dp_sgld(y ~ x1 + x2 + x3, reg, loss = "huber", epsilon = 1, bounds = b_reg,
              iterations = 20000, rate = 0.1, progress = FALSE),
      settings = "n = 10000, p = 3, T = 20000, q = 0.1"),
    bench_case("DP-SGLD Gaussian mean", function()
      dp_sgld(y ~ 1, g, loss = "mean", epsilon = 1, bounds = list(.response = c(-5, 5)),
              scale = 0.5, iterations = 40000, rate = 0.2, progress = FALSE),
      settings = "n = 5000, T = 40000, q = 0.2")
  )
}
