# The natality application at the PGBB paper's scale (Section 6: n about 1.94M
# births, 2024 file): a SCALE STUDY, not the paper's data. It builds 1.94M
# records by resampling the 50,000 real 2022 births of `data(natality2022)` with
# replacement, fits the joint-tau PGBB at the paper's sizes (S = 5, q = 0.01,
# K = 5, h = 0.1, gamma*; the training of natality_control(), birthweight.R)
# with pgbb()'s default T for n records (pgbb_iterations(), 38,800 at 1.94M),
# and the non-private reference
# of SM S3.3 (convolution-smoothed quantile regression, conquer). Reports wall
# and CPU time, peak memory, and the intervals beside Table S9's widths. Writes
# birthweight-scale-{fit,timing}.csv to --out.
#   Rscript inst/scripts/birthweight-scale.R --n=1940000 --eps=1
# Options: --n --eps --iterations --rate --bootstrap --out --seed --tag
# --rate is the subsampling rate (default the paper's 0.01; real_data_control()).
# --iterations is the total over the 5 pooled trainings, by default
# pgbb_iterations(n). The cached results (inst/extdata) are --tag=-default (the
# default), --iterations=50000 (no tag: the paper's T = 10,000 per training)
# and --iterations=10000 --tag=-T10000 (the paper's T shared by the 5 runs,
# 2,000 each, pgbb()'s default before pgbb_iterations(): too few at this n;
# see the vignette). --tag is appended to the output file names.
# --bootstrap=0 (default) gives the reference sandwich intervals; the paper's
# multiplier bootstrap is --bootstrap=500. At this n conquer's bootstrap refits
# stall at some levels (15-22 s per replicate at n = 194,000 for tau = 0.3 and
# 0.5, against 0.3 s at tau = 0.1 and 0.7; a B = 50 run at 1.94M did not finish
# in 45 min), so B = 500 would take days. The reference estimate, which the
# coverage column is computed against, is the same either way.
# One OpenMP thread for conquer (set before its runtime loads); BLAS threads are
# fixed when R starts: on a shared machine also run with OPENBLAS_NUM_THREADS=1.
Sys.setenv(OMP_NUM_THREADS = "1")
script_dir <- local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else system.file("scripts", package = "pgbb")
})
source(file.path(script_dir, "quantile-app.R"))
local({
  # natality_frame(), natality_bounds, natality_formula, natality_taus, natality_control(), paper_s9
  src <- parse(file.path(script_dir, "birthweight.R"))
  keep <- vapply(src, function(e) !identical(e[[1]], as.name("if")), TRUE)
  for (e in src[keep]) eval(e, globalenv())
})
suppressPackageStartupMessages(library(pgbb))
options(pgbb.seeded_noise = TRUE)  # a reproduction: seeded noise, not for publication

# Peak resident memory of this process so far (Linux), in MB.
peak_mb <- function() {
  f <- "/proc/self/status"
  if (!file.exists(f)) return(NA_real_)
  l <- grep("^VmHWM:", readLines(f), value = TRUE)
  if (!length(l)) NA_real_ else as.numeric(gsub("[^0-9]", "", l)) / 1024
}
timed <- function(expr) {
  t0 <- proc.time()
  val <- force(expr)
  t <- proc.time() - t0
  list(value = val, wall = t[["elapsed"]], cpu = t[["user.self"]] + t[["sys.self"]])
}

n_big <- script_opt("n", 1940000)
eps <- script_opt("eps", 1)
iterations <- script_opt("iterations", NA_real_)   # NA: pgbb_iterations(n)
boot_B <- script_opt("bootstrap", 0)
out <- script_opt("out", "inst/extdata")
seed <- script_opt("seed", 1940)
tag <- script_opt("tag", "")
dir.create(out, showWarnings = FALSE, recursive = TRUE)

data("natality2022", package = "pgbb")
set.seed(seed)
births <- natality_frame(natality2022[sample.int(nrow(natality2022), n_big, replace = TRUE), ])
rownames(births) <- NULL
mem0 <- peak_mb()
message(format(Sys.time(), "%H:%M:%S "), "scale study: n = ", n_big, " (resampled from 50,000 real births)")

fit <- timed(pgbb(natality_formula, data = births, loss = "quantile", tau = natality_taus, epsilon = eps,
                  delta = 1 / n_big, bounds = natality_bounds, control = natality_control(if (is.na(iterations)) NULL else iterations)))
mem_fit <- peak_mb()
message(format(Sys.time(), "%H:%M:%S "), sprintf("PGBB: %.0f s wall, %.0f s CPU", fit$wall, fit$cpu))
# The reference is conquer's at every n of the study (large_n below n), so a
# small --n gives the same kind of reference as the full scale.
ref <- timed(pgbb_reference(natality_formula, data = births, loss = "quantile", tau = natality_taus,
                            large_n = min(1e5, n_big - 1), bootstrap = boot_B))
message(format(Sys.time(), "%H:%M:%S "), sprintf("conquer reference (%s): %.0f s wall", ref$value$method, ref$wall))

cf <- coef(fit$value)
ci <- confint(fit$value, level = 0.95)
res <- do.call(rbind, lapply(seq_along(natality_taus), function(k)
  data.frame(term = rownames(cf), tau = natality_taus[k], eps = eps, n = n_big, seed = seed,
             estimate = 1000 * cf[, k], lower = 1000 * ci[, 1, k], upper = 1000 * ci[, 2, k],
             reference = 1000 * ref$value$coefficients[, k],
             ref_lower = 1000 * ref$value$intervals[, 1, k], ref_upper = 1000 * ref$value$intervals[, 2, k])))
res$covers <- res$lower <= res$reference & res$reference <= res$upper
utils::write.csv(res, file.path(out, paste0("birthweight-scale-fit", tag, ".csv")), row.names = FALSE)
led <- fit$value$ledger
timing <- data.frame(n = n_big, eps = eps, seed = seed, iterations = led$iterations * led$runs, runs = led$runs,
                     pgbb_wall = fit$wall, pgbb_cpu = fit$cpu, reference_wall = ref$wall,
                     reference_bootstrap = boot_B, peak_mb_data = mem0, peak_mb_after_fit = mem_fit,
                     peak_mb_end = peak_mb())
utils::write.csv(timing, file.path(out, paste0("birthweight-scale-timing", tag, ".csv")), row.names = FALSE)

s <- aggregate(cbind(width = upper - lower, ae = abs(estimate - reference), covers) ~ term, res, mean)
s <- merge(s, paper_s9[paper_s9$method == "PGBB", c("term", "paper_Width_1", "paper_MAE_1", "paper_Cov_1")],
           all.x = TRUE)
cat(sprintf("\nScale study (n = %d resampled births; not the paper's data), eps = %g, PGBB over tau:\n", n_big, eps))
print(s, digits = 3, row.names = FALSE)
print(timing, row.names = FALSE)
