# Case 7: how the training time grows with n and with p (issue 20). The
# natality-scale joint quantile fit of case 3 (S = 5, q = 0.01, K = 5, 3 x 256,
# sigma fixed so that no calibration is timed) at T = 300 iterations:
#  7a. n = 10,000 to 2,000,000 at p = 14; the row reports the exponent b of
#      CPU time ~ (q n)^b fitted over the sizes (1 = linear in the expected
#      subset size), after subtracting the time at the smallest n;
#  7b. p = 4 to 32 at n = 200,000; the row reports the exponent in p.
# One thread, one timing per size (BENCH_RUNS does not apply: the fitted
# exponent pools the sizes).
cases <- function() {
  case_n <- "7a. Training time against n (p = 14)"
  case_p <- "7b. Training time against p (n = 200,000)"
  if (!bench_wanted(case_n) && !bench_wanted(case_p)) return(NULL)
  iters <- bench_size(300, 60)
  fit_time <- function(n, p) {
    set.seed(7)
    x <- cbind(1, matrix(runif(n * (p - 1)), n, p - 1))
    y <- drop(x %*% c(3300, rep(c(-50, 40), length.out = p - 1))) + 450 * rt(n, 5)
    time_once(function()
      pgbb_fit(x, y, loss = "quantile", tau = c(0.1, 0.3, 0.5, 0.7, 0.9), sigma = 1,
               box = c(-6000, 6000), x_bounds = c(0, 1), blocks = 5, rate = 0.01, iterations = iters,
               mc = 5, hidden = c(256, 256, 256), draws = 10, threads = 1, progress = FALSE))
  }
  exponent <- function(size, t) {
    extra <- t - t[1]   # what grows with the size, above the fixed cost at the smallest
    keep <- extra > 0
    stats::coef(stats::lm(log(extra[keep]) ~ log(size[keep])))[[2]]
  }
  rows <- list()
  if (bench_wanted(case_n)) {
    ns <- bench_size(c(1e4, 1e5, 5e5, 1e6, 2e6), c(1e4, 5e4, 2e5))
    cat("  7a. n =", format(ns, big.mark = ",", scientific = FALSE), "...\n")
    t <- vapply(ns, function(n) fit_time(n, 14), c(elapsed = 0, cpu = 0))
    b <- exponent(0.01 * ns, t["cpu", ])
    rows$n <- bench_row(case_n, t[, length(ns)], NULL, NA_character_,
                        sprintf("joint tau (5), S = 5, q = 0.01, K = 5, T = %d, 3 x 256; CPU s at n = %s: %s",
                                iters, paste(format(ns, big.mark = ",", scientific = FALSE), collapse = " / "),
                                paste(sprintf("%.2f", t["cpu", ]), collapse = " / ")),
                        note = sprintf("fitted exponent of (CPU - CPU at the smallest n) in q n: %.2f", b))
  }
  if (bench_wanted(case_p)) {
    ps <- c(4, 8, 16, 32)
    n <- bench_size(2e5, 5e4)
    cat("  7b. p =", ps, "...\n")
    t <- vapply(ps, function(p) fit_time(n, p), c(elapsed = 0, cpu = 0))
    b <- stats::coef(stats::lm(log(t["cpu", ]) ~ log(ps)))[[2]]
    rows$p <- bench_row(case_p, t[, length(ps)], NULL, NA_character_,
                        sprintf("n = %d, joint tau (5), S = 5, q = 0.01, K = 5, T = %d, 3 x 256; CPU s at p = %s: %s",
                                n, iters, paste(ps, collapse = " / "),
                                paste(sprintf("%.2f", t["cpu", ]), collapse = " / ")),
                        note = sprintf("fitted exponent of CPU time in p: %.2f", b))
  }
  do.call(rbind, unname(rows))
}
