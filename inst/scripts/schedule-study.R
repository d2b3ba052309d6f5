# How the optimiser's schedule and the split of the training budget move the
# noise-aware intervals of pgbb() on the real data: the 50,000 natality births
# (data(natality2022), the birthweight.R model and bounds) and the paper's 1980
# Census extract (census1980.R's model and bounds). Each configuration is a set
# of pgbb_control() settings on top of the application's paper settings; every
# fit is compared with the non-private quantreg::rq fit at the five levels.
# It also runs the configurations with epsilon = Inf (no privacy noise), which
# separates the optimiser's error from the privacy noise.
#   Rscript inst/scripts/schedule-study.R --app=natality --eps=4,1 --reps=10
#   Rscript inst/scripts/schedule-study.R --app=census --data=/path/to/census80.dta
#   Rscript inst/scripts/schedule-study.R --app=tables2 --noise=contaminated --n=10000 --eps=1 --reps=20
# Options: --app (natality, census, tables2) --eps --reps --seed (first seed; fit r uses
#   seed + r - 1) --configs (names from `configs` below) --out (directory)
#   --iterations (the application's T: paper 10,000 natality, 5,000 Census).
# Appends one row per term and level and fit to schedule-study-<app>.csv (columns
# term, tau, err, w, cov, tag, eps, seed, secs: error and interval width in
# grams for natality, %/yr for educ and the coefficient's unit otherwise, and
# whether the 95% interval covers rq), so runs can be added in batches; then
# prints the summary over fits (schedule_summary()).
script_dir <- local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else system.file("scripts", package = "pgbb")
})
source(file.path(script_dir, "quantile-app.R"))
suppressPackageStartupMessages(library(pgbb))
# A reproduction: seeded noise, so set.seed() reproduces every number (not for publication).
options(pgbb.seeded_noise = TRUE)

# Settings on top of each application's paper settings (S = 5, q = 0.01, K = 5,
# Adam 1e-3, 5 pooled runs sharing T).
configs <- list(
  base = list(),                                              # the pgbb_control() defaults
  tail_average = list(lr_floor = 0.1, average_from = 0.5),    # floor 10%, mean of the second half
  tail_average_lr2 = list(learning_rate = 2e-3, lr_floor = 0.1, average_from = 0.5),
  tail_average_lr2_runs10 = list(learning_rate = 2e-3, lr_floor = 0.1, average_from = 0.5,
                                runs = 10, iterations_factor = 2),
  single = list(runs = 1),                                     # the paper's one training of T
  one_draw = list(mc = 1, iterations_factor = 5),              # K = 1, 5 T: same releases and sigma
  one_draw_shared = list(mc = 1, iterations_factor = 5, share_partition = TRUE),
  long_runs = list(iterations_factor = 5),                     # 5 runs of T each: sigma for 5 T K releases
  shared = list(share_partition = TRUE),                       # the runs on one partition
  shared_tail_average = list(share_partition = TRUE, lr_floor = 0.1, average_from = 0.5),
  shared_runs10 = list(share_partition = TRUE, runs = 10))

`%||%` <- function(a, b) if (is.null(a)) b else a

# Per-term summary over fits: mean absolute error, mean width, coverage of rq.
schedule_summary <- function(d) {
  d <- d[d$term != "(Intercept)", , drop = FALSE]
  a <- stats::aggregate(cbind(MAE = abs(err), Width = w, Cov = cov) ~ tag + eps + term, d, mean)
  n <- stats::aggregate(seed ~ tag + eps, d, function(s) length(unique(s)))
  names(n)[3] <- "fits"
  merge(n, a)
}

if (sys.nframe() == 0L) {
  app <- script_opt("app", "natality")
  eps_grid <- script_opt("eps", c(4, 1))
  reps <- script_opt("reps", 10)
  seed0 <- script_opt("seed", 1)
  which <- script_opt("configs", names(configs))
  out <- script_opt("out", "inst/extdata")
  if (!all(which %in% names(configs))) stop("--configs: names among ", paste(names(configs), collapse = ", "))
  if (app == "natality") {
    source(file.path(script_dir, "birthweight.R"))   # natality_frame, natality_bounds, ...
    data("natality2022", package = "pgbb")
    d <- natality_frame(natality2022)
    formula <- natality_formula; bounds <- natality_bounds; taus <- natality_taus
    paper <- list(iterations = 10000); unit <- function(term) 1000
  } else if (app == "census") {
    path <- script_opt("data", "")
    if (!nzchar(path) || !file.exists(path)) stop("give the Census extract: --data=/path/to/census80.dta")
    d <- foreign::read.dta(path)[, c("logwk", "educ", "exper", "black")]
    formula <- logwk ~ educ + exper + black
    bounds <- list(educ = c(0, 20), exper = c(14, 43), black = c(0, 1), .response = c(0, log(75000)))
    taus <- c(0.1, 0.3, 0.5, 0.7, 0.9)
    paper <- list(iterations = 5000); unit <- function(term) ifelse(term == "educ", 100, 1)
  } else if (app == "tables2") {
    # Table S2's regression (Section 5.1) through pgbb(y ~ x1 + x2 + x3), with an
    # intercept as a user writes it, at the simulations.R settings; one cell per
    # run of the script (--noise, --n), replicate r on the data of seed 2026 + r.
    # err, w and cov are against the true slopes.
    noise <- script_opt("noise", "contaminated"); n <- script_opt("n", 10000)
    beta_star <- c(x1 = 1.5, x2 = -1.5, x3 = 1.0)
    bounds <- list(x1 = c(-1, 1), x2 = c(-1, 1), x3 = c(-1, 1), .response = c(-10, 10))
  } else stop("--app: natality, census or tables2")
  if (app == "tables2") {
    file <- file.path(out, "schedule-study-tables2.csv")
    for (tag in which) for (eps in eps_grid) for (r in seq_len(reps)) {
      cfg <- configs[[tag]]
      cfg$iterations_factor <- NULL
      ctl <- do.call(pgbb_control, utils::modifyList(
        list(blocks = 20, rate = 0.1, iterations = 10000, mc = 1, learning_rate = 5e-4, draws = 2000), cfg))
      set.seed(2026 + r)
      X <- matrix(stats::runif(3 * n, -1, 1), n, 3, dimnames = list(NULL, names(beta_star)))
      e <- if (noise == "student_t") 0.5 * stats::rt(n, df = 3) else
        ifelse(stats::runif(n) < 0.9, stats::rnorm(n, 0, 0.5), stats::rnorm(n, 0, 4))
      d <- data.frame(X, y = drop(X %*% beta_star) + e)
      t0 <- proc.time()[["elapsed"]]
      fit <- suppressMessages(suppressWarnings(pgbb::pgbb(
        y ~ x1 + x2 + x3, data = d, loss = "huber", epsilon = eps, delta = 1 / n, bounds = bounds,
        control = ctl), classes = "pgbb_noise_dominates"))
      ci <- stats::confint(fit)[names(beta_star), , drop = FALSE]
      row <- data.frame(term = names(beta_star), tau = NA, err = stats::coef(fit)[names(beta_star)] - beta_star,
                        w = ci[, 2] - ci[, 1], cov = ci[, 1] <= beta_star & beta_star <= ci[, 2],
                        tag = tag, eps = eps, seed = r, secs = proc.time()[["elapsed"]] - t0,
                        cell = paste(noise, n))
      utils::write.table(row, file, sep = ",", append = file.exists(file), col.names = !file.exists(file),
                         row.names = FALSE)
      message(format(Sys.time(), "%H:%M:%S "), "Table S2 ", noise, " ", n, ": ", tag, ", eps = ", eps,
              ", replicate ", r, " of ", reps)
    }
    d <- utils::read.csv(file)
    print(stats::aggregate(cbind(MAE = abs(err), Width = w, Cov = cov) ~ tag + cell + eps, d, mean),
          digits = 3, row.names = FALSE)
    quit(save = "no")
  }
  # The non-private rq fit (coefficients only: its intervals are not used here).
  cf <- stats::coef(quantreg::rq(formula, tau = taus, data = d))
  refd <- data.frame(term = rep(rownames(cf), length(taus)), tau = rep(taus, each = nrow(cf)),
                     reference = as.vector(cf))
  paper$iterations <- script_opt("iterations", paper$iterations)   # --iterations: T (toy runs)
  file <- file.path(out, sprintf("schedule-study-%s.csv", app))
  for (tag in which) for (eps in eps_grid) for (r in seq_len(reps)) {
    cfg <- configs[[tag]]
    its <- paper$iterations * (cfg$iterations_factor %||% 1)
    cfg$iterations_factor <- NULL
    ctl <- do.call(pgbb_control, utils::modifyList(
      list(blocks = 5, rate = 0.01, mc = 5, iterations = its, learning_rate = 1e-3, draws = 2000), cfg))
    seed <- seed0 + r - 1
    set.seed(seed)
    t0 <- proc.time()[["elapsed"]]
    fit <- suppressWarnings(pgbb::pgbb(formula, data = d, loss = "quantile", tau = taus, epsilon = eps,
                                       delta = 1 / nrow(d), bounds = bounds, control = ctl),
                            classes = "pgbb_noise_dominates")
    secs <- proc.time()[["elapsed"]] - t0
    f <- merge(as.data.frame(fit), refd, by = c("term", "tau"))
    s <- unit(f$term)
    row <- data.frame(term = f$term, tau = f$tau, err = s * (f$estimate - f$reference),
                      w = s * (f$upper - f$lower), cov = f$lower <= f$reference & f$reference <= f$upper,
                      tag = tag, eps = eps, seed = seed, secs = secs)
    utils::write.table(row, file, sep = ",", append = file.exists(file), col.names = !file.exists(file),
                       row.names = FALSE)
    message(format(Sys.time(), "%H:%M:%S "), app, ": ", tag, ", eps = ", eps, ", fit ", r, " of ", reps)
  }
  print(schedule_summary(utils::read.csv(file)), digits = 3, row.names = FALSE)
}
