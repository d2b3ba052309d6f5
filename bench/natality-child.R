# Child process of bench/cases-3-natality.R (not a case file): one natality-scale
# PGBB fit in a fresh R process, so that its peak resident memory (VmHWM) is its
# own. Usage: Rscript bench/natality-child.R <data.rds> <iterations> <common.R> [threads] [runs]
# runs = 1 (default): one training (Algorithm 2, the paper's 3 x 256 generator);
# runs > 1: the noise-aware training of pgbb()'s default (runs on one
# partition, tail averaging, twice the paper's step as in
# inst/scripts/quantile-app.R, pgbb_control()'s 2 x 32 generator) sharing the
# iterations.
# Prints one line: RESULT elapsed cpu rss_before peak_rss design_bytes reset_ok,
# and one: WEIGHTS <md5 of the trained weights> (equal for every thread count).
suppressPackageStartupMessages(library(pgbb))
a <- commandArgs(TRUE)
source(a[3])
dat <- readRDS(a[1])
iters <- as.integer(a[2])
threads <- if (length(a) >= 4L) as.integer(a[4]) else 1L
runs <- if (length(a) >= 5L) as.integer(a[5]) else 1L
training <- if (runs > 1L) list(runs = runs, share_partition = TRUE, average_from = 0.5, lr_floor = 0.1,
                                learning_rate = 2e-3, hidden = pgbb_control()$hidden) else
  list(learning_rate = 1e-3, hidden = c(256, 256, 256))
xn <- dat$x
yn <- dat$y
rm(dat)
invisible(gc(FALSE)); invisible(gc(FALSE))
design_bytes <- as.numeric(object.size(xn))
# VmHWM from here on is the peak of the fit alone (reset to the current RSS).
reset_ok <- reset_peak_rss()
before <- proc_mem()
taus <- c(0.1, 0.3, 0.5, 0.7, 0.9)
fit <- NULL
set.seed(3)   # the same noise for every thread count: the weights must agree
options(pgbb.seeded_noise = TRUE)
t <- time_once(function()
  fit <<- do.call(pgbb_fit, c(list(xn, yn, loss = "quantile", tau = taus, epsilon = 1, delta = 1 / nrow(xn),
                                   box = c(-6, 6), x_bounds = c(0, 1), bandwidth = 0.1, blocks = 5, rate = 0.01,
                                   iterations = iters, mc = 5, draws = 2000,
                                   threads = threads, progress = FALSE), training)))
after <- proc_mem()
cat(sprintf("RESULT %.3f %.3f %.0f %.0f %.0f %d\n", t[["elapsed"]], t[["cpu"]], before[["rss"]],
            if (reset_ok) after[["hwm"]] else NA_real_, design_bytes, as.integer(reset_ok)))
w <- tempfile()
saveRDS(fit$generator[c("layers", "more_layers")], w, compress = FALSE)
cat("WEIGHTS", unname(tools::md5sum(w)), "\n")
