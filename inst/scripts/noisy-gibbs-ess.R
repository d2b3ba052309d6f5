# NoisyGibbs (linear): effective sample size per coefficient and time per fit of the
# marginal sampler (default) against the latent-statistic Gibbs sampler, at the
# PGBB paper's chain length (SM S3.2: 400k iterations, 200k burn-in, thinning 10)
# on the Table S2 case n = 1e4, epsilon = 1, contaminated errors, B_y = 10, with the
# data of simulations.R's first cell (seeds 2026 + 1000 + r). Issue 21.
# Usage: Rscript inst/scripts/noisy-gibbs-ess.R --reps=3 [--out=file.csv]
suppressPackageStartupMessages(library(pgbb))
options(pgbb.seeded_noise = TRUE, pgbb.threads = 1L)
args <- commandArgs(trailingOnly = TRUE)
opt <- function(name, default) {
  hit <- grep(paste0("^--", name, "="), args, value = TRUE)
  if (length(hit) == 0L) default else sub(paste0("^--", name, "="), "", hit[1])
}
reps <- as.numeric(opt("reps", 3)); out <- opt("out", "")
beta <- c(x1 = 1.5, x2 = -1.5, x3 = 1); n <- 10000
configs <- list(marginal = list(sampler = "marginal", prior = NULL),
                gibbs_rate1 = list(sampler = "gibbs", prior = NULL),
                gibbs_old = list(sampler = "gibbs", prior = list(rate = 0.01)))
res <- list()
for (r in seq_len(reps)) for (nm in names(configs)) {
  set.seed(2026 + 1000 + r)
  X <- matrix(runif(3 * n, -1, 1), n, 3, dimnames = list(NULL, names(beta)))
  e <- ifelse(runif(n) < 0.9, rnorm(n, 0, 0.5), rnorm(n, 0, 8 * 0.5))
  y <- drop(X %*% beta) + e
  t0 <- proc.time()[["elapsed"]]
  f <- suppressWarnings(noisy_gibbs(X, y, loss = "linear", epsilon = 1, delta = 1 / n,
                                    bounds = c(x = 1, y = 10), sampler = configs[[nm]]$sampler,
                                    prior = configs[[nm]]$prior))
  sec <- proc.time()[["elapsed"]] - t0
  ci <- confint(f)[names(beta), ]
  res[[length(res) + 1]] <- data.frame(rep = r, config = nm, term = c(names(beta), "sigma"),
    ess = unname(f$details$ess), estimate = unname(coef(f)),
    covered = c(ci[, 1] <= beta & beta <= ci[, 2], NA), seconds = sec)
  cat(nm, r, round(sec, 1), "s, ESS", round(f$details$ess), "\n")
}
res <- do.call(rbind, res)
cat("\nMedian ESS over replicates (20000 kept draws) and median seconds per fit:\n")
print(aggregate(cbind(ess, seconds) ~ config + term, res, stats::median))
if (nzchar(out)) utils::write.csv(res, out, row.names = FALSE)
