# Case 2: returns to schooling at Census scale (PGBB paper, Section 6
# and SM S3.3): n = 65,023 synthetic rows shaped like the 1980 Census extract of
# Angrist et al. (2006) (men aged 40-49; log weekly wage on years of schooling,
# potential experience = age - schooling - 6, and a black indicator; p = 4 with
# the intercept), one joint generator over tau = 0.1, 0.3, 0.5, 0.7, 0.9, S = 5,
# q = 0.01, K = 5, T = 5000, learning rate 1e-3, epsilon = 1, delta = 1/n, fitted
# through the formula interface pgbb() as a user would.
#
# Alternatives: the non-private uncertainty a user would otherwise compute for
# the same 5 levels (single-threaded, OMP_NUM_THREADS=1 set by run.R):
#  * quantreg: rq(..., tau = levels) (Barrodale-Roberts) and then
#    summary(fit, se = "boot", R = 200), the xy-bootstrap. Each replicate is a
#    full Barrodale-Roberts fit (about 3-4 s of CPU at this n on the benchmark
#    machine, so the full bootstrap is over an hour of CPU). We time the fit and
#    summary(..., R = R_meas), and report fit + (200 / R_meas) x bootstrap; the
#    replicates are independent fits of identical size, so the cost is linear
#    in R.
#  * conquer: conquer(X, y, tau, ci = "bootstrap", B = 200) per level, the
#    multiplier bootstrap of the convolution-smoothed estimator; timed at
#    B = B_meas and scaled to B = 200 likewise (each replicate re-solves the
#    smoothed fit under Exp(1) weights).
cases <- function() rbind(census_vs_baselines(), noise_aware_cost(), runs_on_two_threads())

# The synthetic Census-shaped data, public bounds and the paper's control.
census_setup <- function() {
  set.seed(1980)
  n <- bench_size(65023, 10000)
  iters <- bench_size(5000, 500)
  educ <- pmin(20, pmax(0, round(rnorm(n, 12.5, 3))))
  age <- sample(40:49, n, replace = TRUE)
  exper <- age - educ - 6
  black <- rbinom(n, 1, 0.08)
  logwage <- 5 + 0.07 * educ + 0.01 * exper - 0.2 * black + (0.5 + 0.015 * educ) * rt(n, 5)
  # Public variable ranges (published Census bounds, not the data's ranges).
  list(d = data.frame(logwage = logwage, educ = educ, exper = exper, black = black), n = n, iters = iters,
       bounds = list(educ = c(0, 20), exper = c(0, 49), black = c(0, 1), .response = c(0, 10)),
       # the real-data training of inst/scripts/quantile-app.R (the default pooling, 2 x the paper's step)
       ctrl = pgbb_control(blocks = 5, rate = 0.01, mc = 5, iterations = iters, learning_rate = 2e-3),
       fml = logwage ~ educ + exper + black, taus = c(0.1, 0.3, 0.5, 0.7, 0.9))
}

# The cost of the noise-aware default (runs = 5 trainings sharing the
# T iterations, pooled) against the paper's single training (runs = 1) of the
# same T, both through pgbb(). Target: at most 2x (ratio >= 0.5).
noise_aware_cost <- function() {
  case <- "2b. Census noise-aware default (5 pooled runs) vs one training"
  if (!bench_wanted(case)) return(NULL)
  cs <- census_setup()
  one <- pgbb_control(blocks = 5, rate = 0.01, mc = 5, iterations = cs$iters, learning_rate = 1e-3,
                      paper = TRUE)
  fit_with <- function(ctrl) function()
    suppressWarnings(suppressMessages(pgbb(cs$fml, cs$d, loss = "quantile", tau = cs$taus, epsilon = 1,
                                           bounds = cs$bounds, control = ctrl, progress = FALSE)))
  bench_case(case, fit_with(cs$ctrl), fit_with(one), "the paper's single training (paper = TRUE), same T",
             sprintf("n = %d, p = 4, joint tau (5 levels), S = 5, q = 0.01, K = 5, T = %d in total, eps = 1",
                     cs$n, cs$iters), target_ratio = 0.5)
}

# The noise-aware default on 2 threads (its 5 runs side by side, src/core/runs.h)
# beside the same fit on 1 thread, with seeded noise so that the draws can be
# compared: they must be identical. The ratio column is the CPU ratio; the note
# gives the wall-time speed-up, which is what threads buy.
runs_on_two_threads <- function() {
  case <- "2c. Census noise-aware default: 2 threads vs 1 thread"
  if (!bench_wanted(case)) return(NULL)
  cs <- census_setup()
  draws <- list()
  fit_on <- function(threads) function() {
    old <- options(pgbb.seeded_noise = TRUE)
    on.exit(options(old))
    ctrl <- cs$ctrl
    ctrl$threads <- as.integer(threads)
    set.seed(2)
    f <- suppressWarnings(suppressMessages(pgbb(cs$fml, cs$d, loss = "quantile", tau = cs$taus, epsilon = 1,
                                                 bounds = cs$bounds, control = ctrl, progress = FALSE)))
    draws[[as.character(threads)]] <<- f$draws
  }
  cat(sprintf("  %s ...\n", case))
  t2 <- time_median(fit_on(2))
  t1 <- time_median(fit_on(1))
  same <- identical(draws[["1"]], draws[["2"]])
  bench_row(case, t2, t1, "the same fit on 1 thread",
            sprintf("n = %d, p = 4, joint tau (5 levels), S = 5, q = 0.01, K = 5, T = %d in total, eps = 1",
                    cs$n, cs$iters),
            note = sprintf("wall time 1 thread / 2 threads = %.2f; draws %s for 1 and 2 threads",
                           t1[["elapsed"]] / t2[["elapsed"]], if (same) "bit-identical" else "DIFFER"))
}

census_vs_baselines <- function() {
  if (!bench_wanted("2. Census returns")) return(NULL)
  if (!requireNamespace("quantreg", quietly = TRUE) || !requireNamespace("conquer", quietly = TRUE)) {
    cat("  quantreg or conquer not installed: skipping the Census comparison\n")
    return(NULL)
  }
  cs <- census_setup()
  d <- cs$d; n <- cs$n; iters <- cs$iters; bounds <- cs$bounds; ctrl <- cs$ctrl; fml <- cs$fml
  taus <- cs$taus
  R_meas <- bench_size(2, 1)
  B_meas <- bench_size(4, 1)  # replicate costs vary more (iterative solver)

  cat("  2. Census: PGBB ...\n")
  t_ours <- time_median(function()
    suppressMessages(pgbb(fml, d, loss = "quantile", tau = taus, epsilon = 1, bounds = bounds,
                          control = ctrl, progress = FALSE)))

  cat(sprintf("  2. Census: quantreg fit + xy-bootstrap (R = %d per level, scaled to 200) ...\n", R_meas))
  t_rq <- vapply(seq_len(bench_runs()), function(i) {
    fit <- NULL
    t_fit <- time_once(function() fit <<- quantreg::rq(fml, tau = taus, data = d))
    t_boot <- time_once(function() summary(fit, se = "boot", R = R_meas))
    t_fit + (200 / R_meas) * t_boot
  }, c(elapsed = 0, cpu = 0))
  t_rq <- apply(t_rq, 1, stats::median)

  cat(sprintf("  2. Census: conquer multiplier bootstrap (B = %d per level, scaled to 200) ...\n", B_meas))
  X <- as.matrix(d[, c("educ", "exper", "black")])
  t_cq <- vapply(seq_len(bench_runs()), function(i) {
    t_point <- time_once(function() for (tau in taus) conquer::conquer(X, d$logwage, tau = tau))
    t_all <- time_once(function()
      for (tau in taus) conquer::conquer(X, d$logwage, tau = tau, ci = "bootstrap", B = B_meas))
    # point fits + the replicates scaled to B = 200 (only the replicates scale)
    t_point + (200 / B_meas) * pmax(t_all - t_point, 0)
  }, c(elapsed = 0, cpu = 0))
  t_cq <- apply(t_cq, 1, stats::median)

  setting <- sprintf("n = %d, p = 4, joint tau = 0.1..0.9 (5), S = 5, q = 0.01, K = 5, T = %d, 3 x 256, eps = 1",
                     n, iters)
  rbind(
    bench_row("2. Census returns to schooling vs quantreg", t_ours, t_rq,
              sprintf("rq(tau = 5 levels) + summary(se = \"boot\", R = 200) (xy; R = %d timed, x%g)",
                      R_meas, 200 / R_meas),
              setting, target_ratio = 50),
    bench_row("2. Census returns to schooling vs conquer", t_ours, t_cq,
              sprintf("conquer(ci = \"bootstrap\", B = 200) x 5 levels (B = %d timed, x%g)",
                      B_meas, 200 / B_meas),
              setting))
}
