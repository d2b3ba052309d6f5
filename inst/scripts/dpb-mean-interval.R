# dp_bootstrap(loss = "mean"): the default normal interval against the paper's
# percentile interval of the deconvolved bootstrap distribution (Algorithm 3), on
# the same released replicates. Bernoulli(0.02, 0.1, 0.5) data on the public range
# [0, 1] and Exponential(1) data on [0, 12]; n = 1,000 and 10,000; epsilon 0.5, 1
# and 4 with delta = 1 / n; 60 data sets per cell (data set r of cell i from
# set.seed(1000 i + r)). Per cell: coverage of the true mean, mean width, and the
# share of intervals holding their own estimate. About 25 minutes on one core.
# Usage, from the package root with pgbb installed:
#   Rscript inst/scripts/dpb-mean-interval.R [reps] [out]
suppressPackageStartupMessages(library(pgbb))
options(pgbb.seeded_noise = TRUE)
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) > 0) as.integer(args[1]) else 60L
out <- if (length(args) > 1) args[2] else "inst/extdata/dpb-rerun/mean-interval.csv"
cells <- expand.grid(data = c("bern0.02", "bern0.1", "bern0.5", "exp1"), n = c(1000, 10000),
                     eps = c(0.5, 1, 4), stringsAsFactors = FALSE)
draw <- function(kind, n) {
  if (kind == "exp1") return(list(x = rexp(n), truth = 1, bounds = c(0, 12)))
  p <- as.numeric(sub("bern", "", kind))
  list(x = rbinom(n, 1, p), truth = p, bounds = c(0, 1))
}
inside <- function(ci, v) ci[1] <= v && v <= ci[2]
for (i in seq_len(nrow(cells))) {
  cl <- cells[i, ]
  res <- t(vapply(seq_len(reps), function(r) {
    set.seed(1000 * i + r)
    d <- draw(cl$data, cl$n)
    s <- sample.int(1e9, 1)
    fit <- function(interval) {
      set.seed(s)  # the same released replicates for both intervals
      dp_bootstrap(d$x, loss = "mean", epsilon = cl$eps, delta = 1 / cl$n, bounds = d$bounds, interval = interval)
    }
    f <- fit("normal"); g <- fit("percentile")
    stopifnot(identical(f$draws, g$draws))
    a <- as.numeric(confint(f)); b <- as.numeric(confint(g)); est <- unname(coef(f))
    c(cov_normal = inside(a, d$truth), width_normal = diff(a), own_normal = inside(a, est),
      cov_percentile = inside(b, d$truth), width_percentile = diff(b), own_percentile = inside(b, est))
  }, numeric(6)))
  row <- data.frame(cl, t(colMeans(res)), reps = reps)
  utils::write.table(row, out, append = i > 1, col.names = i == 1, row.names = FALSE, sep = ",")
}
