# Birthweight quantiles (PGBB paper, Section 6, Table 1 "Natality" rows, Table S9,
# Figures 5(b), 6 and S2) on 50,000 real U.S. births from the 2022 natality file
# (`data(natality2022)`, shipped with pgbb). The paper used the 2024 file
# (n about 1.94 million); inst/scripts/birthweight-scale.R runs the paper's scale
# by resampling these births. Writes birthweight-{runs,reference,table,
# variability,timing}.csv to --out.
#   Rscript inst/scripts/birthweight.R --reps=10 --eps=1,4,16
# Options: --reps (paper 10) --eps --iterations (PGBB T, paper 10000)
#   --sgld_iterations (paper 200000) --sgld_reps (default --reps)
#   --methods=PGBB,DP-SGLD --out --seed --first (first run number, to add runs in batches)
#   --paper=1 (the paper's single training) --runs, --share_partition (the
#   pooling) --learning_rate (see real_data_control() in quantile-app.R)
script_dir <- local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else system.file("scripts", package = "pgbb")
})
source(file.path(script_dir, "quantile-app.R"))
suppressPackageStartupMessages(library(pgbb))
# A reproduction: seeded noise, so set.seed() reproduces every number (not for publication).
options(pgbb.seeded_noise = TRUE)

# The paper's covariates (Abrevaya 2001; Table S9) from natality2022's columns.
# Education and Precare are unlabelled 0-3 codes in the source. Education is
# taken as ordered (0 below high school, the baseline; 1 high school; 2 some
# college; 3 college). Precare 0 is taken as care from the first trimester (the
# baseline), 2 and 3 as the second and third trimester and 1 as no prenatal
# care: the shares of the four codes (76%, 2%, 17%, 5%) match the published
# national 2022 shares of those categories, and only that ordering does.
# The same function is used by the vignette and the scale study.
natality_frame <- function(b) {
  data.frame(
    bwkg = b$BirthWeight / 1000,        # response in kg (coefficients reported in grams)
    BLACK = b$Black,
    NOSMOKE = 1 - b$Smoker,
    MARRIED = b$Married,
    BOY = b$Boy,
    AGE = b$Age,                        # years (the paper's AGE_s is rescaled)
    CIGAR = b$CigPerDay,                # the source's 0-6 code (the paper's CIGAR_s is rescaled)
    HSGRAD = as.integer(b$Education == 1),
    SOMECOLL = as.integer(b$Education == 2),
    COLLGRAD = as.integer(b$Education == 3),
    WTGAIN = b$WeightGain,              # pounds (the paper's WTGAIN_s is rescaled)
    NATAL2 = as.integer(b$Precare == 2),
    NATAL3 = as.integer(b$Precare == 3),
    NOVISIT = as.integer(b$Precare == 1))
}
# Public bounds from the variables' published definitions, never from the data:
# birthweight is recorded in 227-8165 g (NCHS); the extract's inclusion range of
# mother's age is 18-45 years; CigPerDay is coded 0-6; weight gain 0-98 lb
# (NCHS, 99 = unknown); indicators lie in [0, 1] by definition.
natality_indicators <- c("BLACK", "NOSMOKE", "MARRIED", "BOY", "HSGRAD", "SOMECOLL", "COLLGRAD",
                         "NATAL2", "NATAL3", "NOVISIT")
natality_bounds <- c(list(AGE = c(18, 45), CIGAR = c(0, 6), WTGAIN = c(0, 98), .response = c(0.227, 8.165)),
                     sapply(natality_indicators, function(v) c(0, 1), simplify = FALSE))
natality_formula <- bwkg ~ BLACK + NOSMOKE + MARRIED + BOY + AGE + CIGAR + HSGRAD + SOMECOLL +
  COLLGRAD + WTGAIN + NATAL2 + NATAL3 + NOVISIT
natality_taus <- c(0.1, 0.3, 0.5, 0.7, 0.9)
# SM S3.3: S = 5, q = 0.01, K = 5, T = 10000, h = 0.1 (here in kg, the
# response's unit: 100 g, about a fifth of the residual sd, as h = 0.1 is for
# the log wage of the Census application), gamma = gamma*(n, S); the training
# of real_data_control() (quantile-app.R).
natality_control <- function(iterations = 10000) real_data_control(iterations)

# Table S9 of the paper (grams; NCHS 2024, n ~ 1.94M; AGE_s, CIGAR_s, WTGAIN_s rescaled).
paper_s9 <- data.frame(
  term = rep(c("BLACK", "NOSMOKE", "MARRIED", "BOY", "AGE", "CIGAR", "HSGRAD", "SOMECOLL",
               "COLLGRAD", "WTGAIN", "NATAL2", "NATAL3", "NOVISIT"), each = 3),
  method = rep(c("PGBB", "DP-SGLD (omega=1)", "DP-SGLD (omega=0.1)"), 13),
  paper_MAE_1 = c(2.0, 0.7, 0.8, 16.5, 21.2, 22.8, 2.5, 0.5, 0.7, 1.1, 0.4, 0.5, 8.3, 3.6, 4.5,
                  98.3, 125.0, 130.0, 6.3, 2.5, 3.0, 6.6, 2.5, 2.9, 7.1, 2.6, 2.8, 7.5, 3.1, 3.1,
                  2.2, 0.9, 1.1, 4.4, 2.1, 2.6, 13.5, 6.9, 9.3),
  paper_Cov_1 = c(0.98, 1, 1, 0.82, 0.98, 1, 1, 1, 1, 1, 1, 1, 0.88, 1, 1, 0.56, 0.82, 0.84,
                  0.90, 1, 1, 0.94, 1, 1, 0.92, 1, 1, 0.98, 1, 1, 1, 1, 1, 0.96, 1, 1, 0.86, 1, 1),
  paper_Width_1 = c(17.5, 47.1, 57.6, 58.7, 109.4, 137.6, 16.1, 43.6, 53.3, 12.9, 34.0, 41.3,
                    33.5, 94.8, 117.5, 204.2, 371.8, 463.6, 33.4, 73.8, 89.2, 33.1, 75.3, 92.1,
                    33.5, 77.3, 94.7, 55.8, 102.9, 127.8, 16.9, 48.0, 58.5, 31.6, 87.8, 106.3,
                    55.7, 140.5, 173.5),
  paper_MAE_4 = c(1.0, 0.3, 0.6, 6.4, 6.5, 11.8, 0.9, 0.3, 0.6, 0.7, 0.2, 0.3, 2.9, 1.4, 2.8,
                  43.8, 37.3, 68.9, 2.7, 0.9, 1.8, 2.5, 0.9, 1.5, 2.5, 0.9, 1.4, 3.3, 1.1, 2.2,
                  1.2, 0.4, 0.5, 2.0, 0.8, 1.5, 5.3, 2.7, 5.3),
  paper_Cov_4 = c(1, 1, 1, 0.96, 1, 1, 1, 1, 1, 1, 1, 1, 0.94, 1, 1, 0.82, 0.84, 0.92, 0.98, 1, 1,
                  0.96, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0.98, 1, 1),
  paper_Width_4 = c(11.2, 17.2, 37.0, 38.1, 40.7, 91.2, 10.7, 15.9, 34.4, 8.4, 12.5, 26.5, 20.5,
                    34.6, 75.0, 168.3, 136.8, 332.1, 18.7, 26.3, 57.5, 18.3, 27.1, 58.5, 19.8,
                    27.8, 60.5, 29.3, 37.6, 83.8, 11.2, 17.4, 38.2, 18.1, 31.1, 67.8, 30.0, 50.6,
                    107.1))

if (sys.nframe() == 0L) {
  data("natality2022", package = "pgbb")
  births <- natality_frame(natality2022)
  reps <- script_opt("reps", 10)
  eps_grid <- script_opt("eps", c(1, 4, 16))
  iterations <- script_opt("iterations", 10000)
  sgld_iterations <- script_opt("sgld_iterations", 200000)
  sgld_reps <- script_opt("sgld_reps", reps)
  methods <- script_opt("methods", c("PGBB", "DP-SGLD"))
  out <- script_opt("out", "inst/extdata")
  seed <- script_opt("seed", 2024)
  first <- script_opt("first", 1)
  dir.create(out, showWarnings = FALSE, recursive = TRUE)
  t0 <- proc.time()[["elapsed"]]
  if ("PGBB" %in% methods)
    run_quantile_app(natality_formula, births, natality_bounds, natality_taus, eps_grid, reps,
                     natality_control(iterations),
                     seed = seed, label = "birthweight", out = out,
                     methods = "PGBB", first = first)
  if ("DP-SGLD" %in% methods)
    run_quantile_app(natality_formula, births, natality_bounds, natality_taus, eps_grid, sgld_reps,
                     natality_control(iterations),
                     sgld = list(omega = c(1, 0.1), iterations = sgld_iterations, rate = 0.01),
                     seed = seed, label = "birthweight", out = out, methods = "DP-SGLD", first = first)
  elapsed <- proc.time()[["elapsed"]] - t0
  runs <- utils::read.csv(file.path(out, "birthweight-runs.csv"))
  # Grams, as in Table S9.
  terms <- c("(Intercept)", all.vars(natality_formula)[-1])
  tab <- quantile_table(runs, scale = stats::setNames(rep(1000, length(terms)), terms))
  utils::write.csv(tab, file.path(out, "birthweight-table.csv"), row.names = FALSE)
  v <- variability(runs)
  v[c("ref_se", "within", "between", "total")] <- 1000 * v[c("ref_se", "within", "between", "total")]
  utils::write.csv(v, file.path(out, "birthweight-variability.csv"), row.names = FALSE)
  ours <- stats::reshape(tab[tab$eps %in% c(1, 4), c("term", "method", "eps", "MAE", "Cov", "Width")],
                         idvar = c("term", "method"), timevar = "eps", direction = "wide", sep = "_")
  cmp <- merge(paper_s9, ours, by = c("term", "method"), all = TRUE)
  cat("\nTable S9: the paper's numbers (paper_*, NCHS 2024, n ~ 1.94M; AGE_s, CIGAR_s, WTGAIN_s rescaled)",
      "beside ours (natality 2022, n =", nrow(births), "; AGE per year, CIGAR per code unit, WTGAIN per lb)\n")
  print(cmp, digits = 3, row.names = FALSE)
  print(quantile_table_wide(tab), row.names = FALSE, right = FALSE)
  cat(sprintf("\nTotal run time: %.0f s.\n", elapsed))
}
