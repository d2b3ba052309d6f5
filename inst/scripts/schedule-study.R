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
#   --iterations (the application's T: paper 10,000 natality, 5,000 Census)
#   --subsample (N: each fit on its own simple random sample of N records, against rq on
#   that sample; the rows go to schedule-study-<app>-n<N>.csv).
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

# Settings on top of each application's paper sizes (S = 5, q = 0.01, K = 5,
# Adam 1e-3; Table S2: S = 20, q = 0.1, K = 1, Adam 5e-4) and of
# `earlier_defaults`, the pgbb_control() defaults under which the rows before
# 2026-12-02 were measured (5 runs sharing T, fresh partitions, cosine decay to
# 1%, the last iterate, Algorithm 2's level-uniform clip, a 3 x 256 generator
# without the products of block weights and level hats), so that every tag
# keeps its meaning whatever the package's defaults. "scaled_" configurations
# clip each level at its own bound (level_noise = "scaled"); "default" is the
# training of pgbb_control()'s defaults since then, at twice the paper's step
# (real_data_control() in quantile-app.R for the real data, pgbb_control()'s
# 1e-3 for Table S2); "default_runs7" is seven runs of the default's run
# length and "default_h05" the default at half the bandwidth;
# "default_harmonic" replaces the default's cosine decay by the harmonic one
# to 2% of the step, and "default_harmonic_lr4" by the harmonic one to 10% of
# twice the default's step (pgbb_control(schedule = )). lr_factor multiplies
# the paper's step and iterations_factor its T.
earlier_defaults <- list(runs = 5, share_partition = FALSE, lr_floor = 0.01, average_from = 1,
                         level_noise = "uniform", coding = "centred", schedule = "cosine",
                         level_interactions = FALSE, hidden = c(256, 256, 256))
tail_avg <- list(lr_floor = 0.1, average_from = 0.5)                 # floor 10%, mean of the second half
default_training <- c(list(level_noise = "scaled", share_partition = TRUE, lr_factor = 2), tail_avg)
# One setting of a configuration changed: vary(base, lr_floor = 0.01).
vary <- function(base, ...) utils::modifyList(base, list(...))
# The default training with the products of the block weights and the level
# hats, on the 3 x 256 generator (default_h256) and on pgbb_control()'s 2 x 32.
default_h256_training <- vary(default_training, level_interactions = TRUE)
default_now <- vary(default_h256_training, hidden = c(32, 32))
configs <- list(
  base = list(),                                                   # earlier_defaults
  # pgbb_control()'s defaults since 2026-12-05 (the 2 x 32 generator).
  default = default_now,
  # Ten runs of the default's run length (twice its iterations and compute; the
  # accountant's sigma is that of 10 runs): a t_9 reference instead of t_4.
  default_runs10_T2 = vary(default_now, runs = 10, iterations_factor = 2),
  # More blocks than SM S3.3's S = 5: the runs share one partition, whose
  # sampling spread rests on S - 1 degrees of freedom (a t_4 at S = 5), so
  # more blocks would narrow the within-run part. Measured (10 releases each):
  # wider, because the Dirichlet-aware noise grows with S (Census educ width
  # 3.01 and 4.81 %/yr at S = 10 and 20 against 3.09 at eps = 1; 1.88 and
  # 3.63 against 1.19 at eps = 4; natality NOSMOKE at eps = 4: 699 and 2,181 g
  # against 495 g, coverage 1.00 and 0.86), so S = 5 stays.
  default_S10 = vary(default_now, blocks = 10),
  default_S20 = vary(default_now, blocks = 20),
  # "pure_" configurations are pgbb_control() itself, nothing from the
  # application's paper settings (control_for()): what pgbb() does when a user
  # sets nothing. pure_default is the package's defaults since 2026-12-06
  # (rules in n, SM S3.3's K = 5 and 2e-3 for a joint quantile fit);
  # pure_sm32 the defaults before (T = 10,000, q = 0.1, K = 1, 1e-3);
  # pure_lr1 the present defaults at SM S3.3's own step. Every pure_default row
  # was measured before pgbb_learning_rate() (2026-12-06), at 2e-3; since then
  # the default is pure_lr1 at n epsilon <= 30,000 (the --subsample rows that
  # chose it) and pure_default above.
  pure_default = list(),
  pure_sm32 = list(iterations = 10000, rate = 0.1, mc = 1, learning_rate = 1e-3),
  pure_lr1 = list(learning_rate = 1e-3),
  # SM S3.3's step for twice pgbb_iterations() (10,000 at these n): as far
  # travelled as 2e-3 over T, with half the step's wandering but the noise of
  # twice the releases. Measured (10 releases each, 2026-12-06): not better
  # than the rule at twice the compute. Census at eps = 1 education 3.08 %/yr
  # wide (pure_lr1 2.67, pure_default 2.98); natality at eps = 4 NOSMOKE and
  # CIGAR covered 0.98 / 0.96 like pure_default but 1.11 times as wide; on
  # 10,000 and 20,000 births at eps = 4 0.82-0.95 times pure_default's widths
  # at its coverage (0.94-0.96).
  pure_lr1_T2 = list(learning_rate = 1e-3, iterations = 20000),
  # The present defaults at other Poisson rates (q = 0.1 as in SM S3.2), with
  # K = 5 and with K = 1: the joint rule's 500 records per step below 50,000
  # records (pgbb_rate()) against 10% of the records.
  pure_q10 = list(rate = 0.1),
  pure_q10_k1 = list(rate = 0.1, mc = 1),
  # The same with the 3 x 256 generator: the "default" rows measured on
  # 2026-12-04 and 2026-12-05 before the smaller generator carry this tag;
  # the configurations after it vary one setting of default_h256.
  default_h256 = default_h256_training,
  default_h256_affine = vary(default_h256_training, hidden = integer(0)),
  default_h256_runs10 = vary(default_h256_training, runs = 10),
  default_h256_cos01_avg75 = vary(default_h256_training, lr_floor = 0.01, average_from = 0.75),
  default_h256_cos01_avg80 = vary(default_h256_training, lr_floor = 0.01, average_from = 0.8),
  default_h256_cos01_avg90 = vary(default_h256_training, lr_floor = 0.01, average_from = 0.9),
  default_h256_cos01_avg75_lr4 = vary(default_h256_training, lr_floor = 0.01, average_from = 0.75, lr_factor = 4),
  default_h256_harm005_lr8 = vary(default_h256_training, schedule = "harmonic", lr_floor = 0.005, lr_factor = 8),
  default_h256_harm005_lr8_avg75 = vary(default_h256_training, schedule = "harmonic", lr_floor = 0.005,
                                        lr_factor = 8, average_from = 0.75),
  default_h256_harm01_lr8 = vary(default_h256_training, schedule = "harmonic", lr_floor = 0.01, lr_factor = 8),
  default_h256_harm0025_lr16 = vary(default_h256_training, schedule = "harmonic", lr_floor = 0.0025,
                                    lr_factor = 16),
  # The default training with the generator of earlier versions, whose inputs
  # lack the products of the block weights and the level hats (as every other
  # configuration here): the "default" rows measured before 2026-12-05 carry
  # this tag.
  default_additive = default_training,
  default_runs10 = vary(default_training, runs = 10, iterations_factor = 2),  # 10 runs of the same length
  default_runs7 = vary(default_training, runs = 7, iterations_factor = 1.4),  # 7 runs of the same length
  default_h05 = vary(default_training, bandwidth = 0.05),       # half the paper's bandwidth
  default_harmonic = vary(default_training, schedule = "harmonic", lr_floor = 0.02),
  default_harmonic_lr4 = vary(default_training, schedule = "harmonic", lr_factor = 4),
  # Fewer, larger steps: Poisson rate 0.05 or 0.02 for a fifth, two fifths or
  # half of the iterations (the same or twice the expected passes over the data).
  q5_T02 = vary(default_training, rate = 0.05, iterations_factor = 0.2),
  q5_T02_lr4 = vary(default_training, rate = 0.05, iterations_factor = 0.2, lr_factor = 4),
  q5_T04 = vary(default_training, rate = 0.05, iterations_factor = 0.4),
  q2_T05 = vary(default_training, rate = 0.02, iterations_factor = 0.5),
  # Twice the iterations (five runs of twice the length), at the default's step and at half of it.
  default_T2 = vary(default_training, iterations_factor = 2),
  default_T2_lr1 = vary(default_training, iterations_factor = 2, lr_factor = 1),
  paper = list(runs = 1, coding = "unit"),                         # Algorithms 1-2 as the paper runs them
  single = list(runs = 1),                                         # one training of T, centred coding
  tail_average = tail_avg,
  tail_average_lr2 = c(list(lr_factor = 2), tail_avg),
  tail_average_lr2_runs10 = c(list(lr_factor = 2, runs = 10, iterations_factor = 2), tail_avg),
  one_draw = list(mc = 1, iterations_factor = 5),                  # K = 1, 5 T: same releases and sigma
  one_draw_shared = list(mc = 1, iterations_factor = 5, share_partition = TRUE),
  long_runs = list(iterations_factor = 5),                         # 5 runs of T each: sigma for 5 T K releases
  shared = list(share_partition = TRUE),                           # the runs on one partition
  shared_tail_average = c(list(share_partition = TRUE), tail_avg),
  shared_runs10 = list(share_partition = TRUE, runs = 10),
  scaled = list(level_noise = "scaled"),
  scaled_shared_tail_average = c(list(level_noise = "scaled", share_partition = TRUE), tail_avg),
  scaled_shared_tail_average_runs10 = c(list(level_noise = "scaled", share_partition = TRUE, runs = 10), tail_avg),
  scaled_shared_tail_average_lr2_runs10 = c(list(level_noise = "scaled", share_partition = TRUE, lr_factor = 2,
                                                 runs = 10), tail_avg),
  scaled_shared_tail_average25 = list(level_noise = "scaled", share_partition = TRUE, lr_floor = 0.1,
                                      average_from = 0.25),
  scaled_shared_tail_average25_lr2 = list(level_noise = "scaled", share_partition = TRUE, lr_factor = 2,
                                          lr_floor = 0.1, average_from = 0.25),
  scaled_shared_tail_average25_lr2_runs10 = list(level_noise = "scaled", share_partition = TRUE, lr_factor = 2,
                                                 lr_floor = 0.1, average_from = 0.25, runs = 10),
  scaled_one_draw = list(level_noise = "scaled", mc = 1, iterations_factor = 5),
  scaled_one_draw_tail_average = c(list(level_noise = "scaled", mc = 1, iterations_factor = 5), tail_avg),
  scaled_one_draw_shared_tail_average = c(list(level_noise = "scaled", mc = 1, iterations_factor = 5,
                                               share_partition = TRUE), tail_avg))

# pgbb_control() of configuration `tag` on top of the application's paper
# sizes `paper` and earlier_defaults.
control_for <- function(tag, paper) {
  cfg <- configs[[tag]]
  if (startsWith(tag, "pure_")) return(do.call(pgbb_control, cfg))
  factor <- if (is.null(cfg$iterations_factor)) 1 else cfg$iterations_factor
  lr_factor <- if (is.null(cfg$lr_factor)) 1 else cfg$lr_factor
  cfg$iterations_factor <- NULL
  cfg$lr_factor <- NULL
  paper$iterations <- paper$iterations * factor
  paper$learning_rate <- paper$learning_rate * lr_factor
  do.call(pgbb_control, utils::modifyList(utils::modifyList(paper, earlier_defaults), cfg))
}

# Appends rows to the study's CSV (so runs can be added in batches).
append_rows <- function(rows, file)
  utils::write.table(rows, file, sep = ",", append = file.exists(file), col.names = !file.exists(file),
                     row.names = FALSE)

# Per-term summary over fits: mean absolute error, mean width, coverage of rq.
schedule_summary <- function(d) {
  d <- d[d$term != "(Intercept)", , drop = FALSE]
  a <- stats::aggregate(cbind(MAE = abs(err), Width = w, Cov = cov) ~ tag + eps + term, d, mean)
  n <- stats::aggregate(seed ~ tag + eps, d, function(s) length(unique(s)))
  names(n)[3] <- "fits"
  merge(n, a)
}

# A real-data application: `app` holds the data, formula, bounds, levels, paper
# settings and the unit of each term's reported error; fit r uses seed seed0 + r - 1.
run_quantile_study <- function(app, which, eps_grid, reps, seed0, file) {
  full <- app$data
  # The non-private rq fit (coefficients only: its intervals are not used here).
  reference <- function(data) {
    cf <- stats::coef(quantreg::rq(app$formula, tau = app$taus, data = data))
    data.frame(term = rep(rownames(cf), length(app$taus)), tau = rep(app$taus, each = nrow(cf)),
               reference = as.vector(cf))
  }
  if (is.null(app$subsample)) refd <- reference(full)
  for (tag in which) for (eps in eps_grid) for (r in seq_len(reps)) {
    seed <- seed0 + r - 1
    if (!is.null(app$subsample)) {
      # Fit r's data set: a simple random sample of the records (its own seed,
      # the same for every configuration), and rq on that sample.
      set.seed(1e6 + seed)
      app$data <- full[sort(sample.int(nrow(full), app$subsample)), , drop = FALSE]
      refd <- reference(app$data)
    }
    set.seed(seed)
    t0 <- proc.time()[["elapsed"]]
    fit <- suppressWarnings(pgbb::pgbb(app$formula, data = app$data, loss = "quantile", tau = app$taus,
                                       epsilon = eps, delta = 1 / nrow(app$data), bounds = app$bounds,
                                       control = control_for(tag, app$paper)),
                            classes = "pgbb_noise_dominates")
    secs <- proc.time()[["elapsed"]] - t0
    f <- merge(as.data.frame(fit), refd, by = c("term", "tau"))
    s <- app$unit(f$term)
    append_rows(data.frame(term = f$term, tau = f$tau, err = s * (f$estimate - f$reference),
                           w = s * (f$upper - f$lower), cov = f$lower <= f$reference & f$reference <= f$upper,
                           tag = tag, eps = eps, seed = seed, secs = secs), file)
    message(format(Sys.time(), "%H:%M:%S "), app$name, ": ", tag, ", eps = ", eps, ", fit ", r, " of ", reps)
  }
  print(schedule_summary(utils::read.csv(file)), digits = 3, row.names = FALSE)
}

# Table S2's regression (Section 5.1) through pgbb(y ~ x1 + x2 + x3), with an
# intercept as a user writes it, at the simulations.R settings; one cell
# (noise, n) per call, replicate r on the data of seed 2026 + r (the data of
# simulations.R's sim_regression_data(), whose script cannot be sourced). err,
# w and cov are against the true slopes.
run_tables2_study <- function(noise, n, which, eps_grid, reps, file) {
  beta_star <- c(x1 = 1.5, x2 = -1.5, x3 = 1.0)
  bounds <- list(x1 = c(-1, 1), x2 = c(-1, 1), x3 = c(-1, 1), .response = c(-10, 10))
  paper <- list(blocks = 20, rate = 0.1, iterations = 10000, mc = 1, learning_rate = 5e-4, draws = 2000)
  for (tag in which) for (eps in eps_grid) for (r in seq_len(reps)) {
    set.seed(2026 + r)
    X <- matrix(stats::runif(3 * n, -1, 1), n, 3, dimnames = list(NULL, names(beta_star)))
    e <- if (noise == "student_t") 0.5 * stats::rt(n, df = 3) else
      ifelse(stats::runif(n) < 0.9, stats::rnorm(n, 0, 0.5), stats::rnorm(n, 0, 4))
    d <- data.frame(X, y = drop(X %*% beta_star) + e)
    t0 <- proc.time()[["elapsed"]]
    fit <- suppressMessages(suppressWarnings(pgbb::pgbb(
      y ~ x1 + x2 + x3, data = d, loss = "huber", epsilon = eps, delta = 1 / n, bounds = bounds,
      control = control_for(tag, paper)), classes = "pgbb_noise_dominates"))
    ci <- stats::confint(fit)[names(beta_star), , drop = FALSE]
    append_rows(data.frame(term = names(beta_star), tau = NA, err = stats::coef(fit)[names(beta_star)] - beta_star,
                           w = ci[, 2] - ci[, 1], cov = ci[, 1] <= beta_star & beta_star <= ci[, 2],
                           tag = tag, eps = eps, seed = r, secs = proc.time()[["elapsed"]] - t0,
                           cell = paste(noise, n)), file)
    message(format(Sys.time(), "%H:%M:%S "), "Table S2 ", noise, " ", n, ": ", tag, ", eps = ", eps,
            ", replicate ", r, " of ", reps)
  }
  print(stats::aggregate(cbind(MAE = abs(err), Width = w, Cov = cov) ~ tag + cell + eps, utils::read.csv(file), mean),
        digits = 3, row.names = FALSE)
}

if (sys.nframe() == 0L) {
  app <- script_opt("app", "natality")
  eps_grid <- script_opt("eps", c(4, 1))
  reps <- script_opt("reps", 10)
  which <- script_opt("configs", names(configs))
  out <- script_opt("out", "inst/extdata")
  if (!all(which %in% names(configs))) stop("--configs: names among ", paste(names(configs), collapse = ", "))
  subsample <- script_opt("subsample", NA_real_)
  subsample <- if (is.na(subsample)) NULL else as.integer(subsample)
  file <- file.path(out, sprintf("schedule-study-%s%s.csv", app, if (is.null(subsample)) "" else paste0("-n", subsample)))
  # The applications' paper settings (S = 5, q = 0.01, K = 5, Adam 1e-3); --iterations: T (toy runs).
  real_paper <- function(T) list(blocks = 5, rate = 0.01, mc = 5, iterations = script_opt("iterations", T),
                                 learning_rate = 1e-3, draws = 2000)
  if (app == "natality") {
    source(file.path(script_dir, "birthweight.R"))   # natality_frame, natality_bounds, ...
    data("natality2022", package = "pgbb")
    run_quantile_study(list(name = app, data = natality_frame(natality2022), formula = natality_formula,
                            bounds = natality_bounds, taus = natality_taus, paper = real_paper(10000),
                            unit = function(term) 1000, subsample = subsample),
                       which, eps_grid, reps, script_opt("seed", 1), file)
  } else if (app == "census") {
    source(file.path(script_dir, "census1980.R"))    # read_census, census_bounds, ...
    # The study compares trainings on the columns' own ranges (its cached
    # results were made so); --linear=1 adds census1980.R's linear bound.
    bounds <- census_bounds_with(script_opt("linear", 0) == 1)
    run_quantile_study(list(name = app, data = read_census(script_opt("data", "")), formula = census_formula,
                            bounds = bounds, taus = census_taus, paper = real_paper(5000),
                            unit = function(term) ifelse(term == "educ", 100, 1), subsample = subsample),
                       which, eps_grid, reps, script_opt("seed", 1), file)
  } else if (app == "tables2") {
    run_tables2_study(script_opt("noise", "contaminated"), script_opt("n", 10000), which, eps_grid, reps, file)
  } else stop("--app: natality, census or tables2")
}
