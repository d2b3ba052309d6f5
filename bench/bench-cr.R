# Benchmark of the one-shot confidence regions: n = 50000, B = 500,
# m = ceiling(n / log n), one core, median of 3 runs (plus a warm-up), beside the
# runtimes the CR paper reports in Tables 3 and 4 at n = 50000.
# Run with the installed package:  Rscript bench/bench-cr.R
suppressPackageStartupMessages(library(pgbb))
set.seed(2026)
n <- 50000; B <- 500
x_unif <- runif(n, -1, 1)
x_bern <- rbinom(n, 1, 0.05)
u <- runif(n, -0.5, 0.5)

# Median of `reps` runs of elapsed (wall) time and of CPU time (user + system).
# On a shared machine the wall time includes waiting for a core; the CPU time is
# what the single-threaded computation itself costs.
time_ms <- function(expr_fun, reps = 3) {
  expr_fun()  # warm-up
  t <- vapply(seq_len(reps), function(i) {
    st <- system.time(expr_fun())
    c(st[["elapsed"]], st[["user.self"]] + st[["sys.self"]])
  }, c(0, 0))
  1000 * apply(t, 1, median)
}

rows <- list(
  list("CR-GS mean, Uniform[-1,1] (WR)", function() cr_gs(x_unif, "mean", mu = 8, B = B, mode = "wr", bounds = c(-1, 1)), 10, 156.44),
  list("CR-GS mean, Uniform[-1,1] (WOR)", function() cr_gs(x_unif, "mean", mu = 8, B = B, mode = "wor", bounds = c(-1, 1)), 10, 73.65),
  list("CR-GS mean, Bernoulli(0.05) (WR)", function() cr_gs(x_bern, "mean", mu = 8, B = B, mode = "wr", bounds = c(0, 1)), 10, 156.78),
  list("CR-GS mean, Bernoulli(0.05) (WOR)", function() cr_gs(x_bern, "mean", mu = 8, B = B, mode = "wor", bounds = c(0, 1)), 10, 73.74),
  list("CR-SS median (WR)", function() cr_ss(x_unif, "quantile", prob = 0.5, mu = 8, delta = 1e-6, B = B, mode = "wr", bounds = c(-1, 1)), 50, 465.20),
  list("CR-SS median (WOR)", function() cr_ss(x_unif, "quantile", prob = 0.5, mu = 8, delta = 1e-6, B = B, mode = "wor", bounds = c(-1, 1)), 50, 414.23),
  list("CR-SS U-statistic x*y (WR)", function() cr_ss(u, "ustat_product", mu = 8, delta = 1e-6, B = B, mode = "wr", bounds = c(-0.5, 0.5)), NA, 155.00),
  list("CR-SS U-statistic x*y (WOR)", function() cr_ss(u, "ustat_product", mu = 8, delta = 1e-6, B = B, mode = "wor", bounds = c(-0.5, 0.5)), NA, 108.17),
  list("Dette-Graw mean (baseline)", function() cr_dette_graw(x_unif, "mean", mu = 8, B = B, bounds = c(-1, 1)), NA, 1.85),
  list("BLBQuant mean (baseline)", function() cr_blbquant(x_unif, "mean", mu = 8, bounds = c(-1, 1)), NA, 817.64)
)
out <- do.call(rbind, lapply(rows, function(r) {
  ms <- tryCatch(time_ms(r[[2]]), error = function(e) c(NA_real_, NA_real_))
  data.frame(task = r[[1]], wall_ms = round(ms[1], 1), cpu_ms = round(ms[2], 1), target_ms = r[[3]],
             paper_ms = r[[4]], meets_target_cpu = if (is.na(r[[3]])) NA else ms[2] < r[[3]])
}))
cat(sprintf("n = %d, B = %d, m = %d, single thread; load average %s\n", n, B, ceiling(n / log(n)),
            paste(tryCatch(readLines("/proc/loadavg", warn = FALSE), error = function(e) "?"))))
print(out, row.names = FALSE)
