# Returns to schooling on the PGBB paper's own data: the 1980 U.S. Census extract
# of Angrist, Chernozhukov & Fernandez-Val (2006), 65,023 U.S.-born black and
# white men aged 40-49 (Section 6, Table 1, Table S8 "1980" rows). The extract
# is not part of pgbb; give the path of its Stata file:
#   Rscript inst/scripts/census1980.R --data=/path/to/census80.dta --reps=10
# Variables used: logwk (log weekly wage), educ (years of schooling), exper
# (potential experience, age - educ - 6), black (0/1). Same options and outputs as
# returns-to-schooling.R, with the label "schooling-census1980".
script_dir <- local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else system.file("scripts", package = "pgbb")
})
source(file.path(script_dir, "quantile-app.R"))
suppressPackageStartupMessages(library(pgbb))
# A reproduction: seeded noise, so set.seed() reproduces every number (not for publication).
options(pgbb.seeded_noise = TRUE)
# The model, its public bounds and the levels, also used by schedule-study.R.
census_formula <- logwk ~ educ + exper + black
census_vars <- c("logwk", "educ", "exper", "black")
# Public bounds, from the Census design and the extract's definition, never from
# the data: men aged 40-49; years of schooling are coded 0-20 in the 1980 Census
# (highest grade completed), so potential experience age - educ - 6 lies in
# [40 - 20 - 6, 49 - 0 - 6] = [14, 43]; the log weekly wage is bounded above by
# the 1980 earnings top-code ($75,000 a year, worked in at least one week) and
# below by $1 a week: [0, log(75000)]. A wide response range costs precision
# (the design is scaled by it), but it is what is public. The same definition
# gives educ + exper = age - 6 in [34, 43], a linear bound (?pgbb, 'Public
# bounds'): the box of the two ranges has corners no man aged 40-49 can reach
# (20 years of school and 43 of experience), and coding the design on the
# narrower region stops noise being spent there. `--linear=0` drops it (the
# paper's reading of the bounds).
census_bounds <- list(educ = c(0, 20), exper = c(14, 43), black = c(0, 1),
                      `educ + exper` = c(34, 43), .response = c(0, log(75000)))
census_taus <- c(0.1, 0.3, 0.5, 0.7, 0.9)
# census_bounds with or without the linear bound (the paper's reading).
census_bounds_with <- function(linear) {
  if (linear) census_bounds else census_bounds[names(census_bounds) != "educ + exper"]
}

# The extract at `path`, with the model's variables only.
read_census <- function(path) {
  if (!nzchar(path) || !file.exists(path))
    stop("give the path of the 1980 Census extract: --data=/path/to/census80.dta")
  if (!requireNamespace("foreign", quietly = TRUE)) stop("this script needs the foreign package.")
  foreign::read.dta(path)[, census_vars]
}

if (sys.nframe() == 0L) {
  census <- read_census(script_opt("data", ""))

  reps <- script_opt("reps", 10)
  eps_grid <- script_opt("eps", c(1, 4))
  iterations <- script_opt("iterations", 5000)
  sgld_iterations <- script_opt("sgld_iterations", 200000)
  methods <- script_opt("methods", c("PGBB", "DP-SGLD"))
  out <- script_opt("out", "inst/extdata")
  seed <- script_opt("seed", 1980)
  dir.create(out, showWarnings = FALSE, recursive = TRUE)

  # SM S3.3's settings, T = 5000, with real_data_control()'s training
  # (quantile-app.R; --paper=1 for the paper's single training).
  control <- real_data_control(iterations)
  # Without the linear bound for the paper's setting (--paper=1) or with --linear=0.
  bounds <- census_bounds_with(script_opt("linear", 1) == 1 && script_opt("paper", 0) != 1)
  t0 <- proc.time()[["elapsed"]]
  runs <- run_quantile_app(census_formula, census, bounds, census_taus, eps_grid, reps, control,
                           sgld = list(omega = c(1, 0.1), iterations = sgld_iterations, rate = 0.01),
                           seed = seed, label = "schooling-census1980", out = out, methods = methods)
  elapsed <- proc.time()[["elapsed"]] - t0
  tab <- merge_with_table(quantile_table(runs, scale = c(educ = 100)), out, "schooling-census1980", methods)
  utils::write.csv(tab, file.path(out, "schooling-census1980-table.csv"), row.names = FALSE)
  utils::write.csv(variability(runs), file.path(out, "schooling-census1980-variability.csv"),
                   row.names = FALSE)

  paper_1980 <- data.frame(
    term = rep(c("educ", "exper", "black"), each = 3),
    method = rep(c("PGBB", "DP-SGLD (omega=1)", "DP-SGLD (omega=0.1)"), 3),
    paper_MAE_1 = c(0.52, 0.98, 1.05, 0.0038, 0.0073, 0.0077, 0.023, 0.082, 0.087),
    paper_Cov_1 = c(0.70, 1, 1, 0.62, 1, 1, 0.90, 1, 1),
    paper_Width_1 = c(1.29, 10.91, 11.11, 0.0074, 0.0787, 0.0804, 0.090, 1.083, 1.140),
    paper_MAE_4 = c(0.17, 0.30, 0.37, 0.0012, 0.0021, 0.0027, 0.013, 0.012, 0.017),
    paper_Cov_4 = c(0.84, 1, 1, 0.80, 1, 1, 0.84, 1, 1),
    paper_Width_4 = c(0.77, 3.16, 4.30, 0.0050, 0.0228, 0.0302, 0.049, 0.279, 0.389))
  ours <- stats::reshape(tab[, c("term", "method", "eps", "MAE", "Cov", "Width")],
                         idvar = c("term", "method"), timevar = "eps", direction = "wide", sep = "_")
  cmp <- merge(paper_1980, ours, by = c("term", "method"), all = TRUE)
  cat("\nTable S8, 1980 rows: the paper's numbers (paper_*) beside ours\n")
  print(cmp, digits = 3, row.names = FALSE)
  print(quantile_table_wide(tab), row.names = FALSE, right = FALSE)
  cat(sprintf("\nTotal run time: %.0f s (%d runs per method and budget).\n", elapsed, reps))
}
