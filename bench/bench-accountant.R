# Benchmark of the privacy accountant (run with the installed package):
#   Rscript bench/bench-accountant.R
# Times pgbb_sigma() at the paper's regression setting (n = 10000, S = 20, q = 0.1,
# T = 10000, K = 1, orders 2..256, J = 32, m = 5, gamma = gamma*, Huber clip C_H for
# p = 3 and B_x = 1), median of 3 runs on one core. Target: under 0.2 s.
suppressPackageStartupMessages(library(pgbb))

huber_clip <- sqrt(1.345^2 * 3 + ((1.345^2 + 0.71) / 2)^2)
median_time <- function(expr_fun, reps = 3) {
  times <- vapply(seq_len(reps), function(i) system.time(expr_fun())[["elapsed"]], 0)
  stats::median(times)
}

cases <- list(
  list(label = "pgbb_sigma  dirichlet  eps=1 (target < 0.2 s)", fun = function()
    pgbb_sigma(1, 1e-4, n = 10000, blocks = 20, clip = huber_clip, rate = 0.1,
               iterations = 10000)),
  list(label = "pgbb_sigma  dirichlet  eps=4", fun = function()
    pgbb_sigma(4, 1e-4, n = 10000, blocks = 20, clip = huber_clip, rate = 0.1,
               iterations = 10000)),
  list(label = "pgbb_sigma  worst-case eps=1", fun = function()
    pgbb_sigma(1, 1e-4, n = 10000, blocks = 20, clip = huber_clip, rate = 0.1,
               iterations = 10000, accountant = "worst-case")),
  list(label = "pgbb_sigma  plain      eps=1 (DP-SGLD)", fun = function()
    pgbb_sigma(1, 1e-4, clip = huber_clip, rate = 0.1, iterations = 10000,
               accountant = "plain")),
  list(label = "pgbb_epsilon dirichlet (one sigma)", fun = function()
    pgbb_epsilon(0.0266, 1e-4, n = 10000, blocks = 20, clip = huber_clip, rate = 0.1,
                 iterations = 10000)),
  list(label = "privacy_curve 40 epsilons", fun = function()
    privacy_curve(seq(0.1, 4, by = 0.1), sigma = 0.0266, n = 10000, blocks = 20,
                  clip = huber_clip, rate = 0.1, iterations = 10000))
)

res <- data.frame(case = vapply(cases, `[[`, "", "label"),
                  median_seconds = vapply(cases, function(cs) median_time(cs$fun), 0))
print(res, row.names = FALSE, digits = 3)
s <- pgbb_sigma(1, 1e-4, n = 10000, blocks = 20, clip = huber_clip, rate = 0.1,
                iterations = 10000)
cat(sprintf("\nsigma* = %.6g (certified epsilon %.7f at order %d)\n", s, attr(s, "epsilon"),
            attr(s, "order")))
cat(sprintf("target met: %s\n", res$median_seconds[1] < 0.2))
