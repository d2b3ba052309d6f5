# Which ridge penalty reproduces the PGBB paper's DP-Bootstrap rows of Table S2?
# A grid of lambda at four cells of the contaminated-normal regression of Section 5.1
# (same data law, bounds c(x = 1), delta = 1 / n, B = 20, calibration = "asymptotic" as in
# inst/scripts/simulations.R; replicate i uses set.seed(7000 + i), so every lambda sees the
# same data sets). Writes inst/extdata/dpb-rerun/lambda-grid.csv (100 replicates: about
# 15 minutes on one core). Usage, from the package root with pgbb installed:
#   Rscript inst/scripts/dpb-lambda-grid.R 0.01,0.015,0.0175,0.02,0.025,0.03,0.0447,0.1 100
# A third argument picks cells (1: n = 10k, eps = 1; 2: 40k, 4; 3: 40k, 1; 4: 10k, 4).
suppressPackageStartupMessages(library(pgbb))
options(pgbb.seeded_noise = TRUE)
args <- commandArgs(trailingOnly = TRUE)
lams <- as.numeric(strsplit(args[1], ",")[[1]])
reps <- as.integer(args[2])
out <- if (length(args) > 3) args[4] else "inst/extdata/dpb-rerun/lambda-grid.csv"
cells <- list(c(n = 10000, eps = 1), c(n = 40000, eps = 4), c(n = 40000, eps = 1), c(n = 10000, eps = 4))
if (length(args) > 2) cells <- cells[as.integer(strsplit(args[3], ",")[[1]])]
beta <- c(x1 = 1.5, x2 = -1.5, x3 = 1)
sim <- function(n) {  # Section 5.1: Uniform[-1, 1]^3 design, 0.9 N(0, 0.5^2) + 0.1 N(0, 4^2) errors
  X <- matrix(runif(3 * n, -1, 1), n, 3, dimnames = list(NULL, names(beta)))
  e <- ifelse(runif(n) < 0.9, rnorm(n, 0, 0.5), rnorm(n, 0, 4))
  list(X = X, y = drop(X %*% beta) + e)
}
res <- NULL
for (cl in cells) for (lam in lams) {
  t0 <- proc.time()[[3]]
  r <- t(sapply(seq_len(reps), function(i) {
    set.seed(7000 + i)
    d <- sim(cl[["n"]])
    f <- dp_bootstrap(d$X, d$y, loss = "ridge_huber", epsilon = cl[["eps"]], delta = 1 / cl[["n"]],
                      bounds = c(x = 1), calibration = "asymptotic", lambda = lam)
    ci <- confint(f, level = 0.95)[names(beta), ]
    # Table S2's metrics, averaged over the 3 coefficients within a replicate.
    c(MAE = mean(abs(coef(f)[names(beta)] - beta)), Cov = mean(ci[, 1] <= beta & beta <= ci[, 2]),
      Width = mean(ci[, 2] - ci[, 1]))
  }))
  row <- data.frame(n = cl[["n"]], eps = cl[["eps"]], lambda = lam, t(colMeans(r)), reps = reps,
                    sec = proc.time()[[3]] - t0)
  print(row, row.names = FALSE)
  res <- rbind(res, row)
}
utils::write.csv(res, out, row.names = FALSE)
