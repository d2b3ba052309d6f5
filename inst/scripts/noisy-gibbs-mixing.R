# NoisyGibbs (linear) at low information: is under-coverage a sampler bug or slow
# mixing? For each replicate (n = 1e4, three Uniform[-1, 1] covariates, Gaussian
# errors sd 0.87, epsilon = 1, delta = 1/n, B_y = 10, as in simulations.R) it fits
# noisy_gibbs() with the SM S3.2 chain (400000 iterations), reruns the sampler on the
# same release for --long iterations, and runs an independent random-walk Metropolis
# sampler of the CLT-marginal posterior
#   p(theta, sigma^2 | z) propto prior x N(z; n mu_t, n Sigma_t + tau^2 I)
# (the latent statistic integrated out). It prints the coverage of the true slopes
# by each sampler's 95% interval, interval widths and effective sample sizes.
# This is the diagnosis of the latent-statistic sampler under the earlier default
# prior (sampler = "gibbs", IG rate 0.01), kept as it was; the marginal sampler
# (now the default) is measured by inst/scripts/noisy-gibbs-ess.R.
# Usage: Rscript inst/scripts/noisy-gibbs-mixing.R --reps=15 --long=4e6 --seed=5000
suppressPackageStartupMessages(library(pgbb))
# A reproduction: seeded noise, so set.seed() reproduces every number (not for publication).
options(pgbb.seeded_noise = TRUE)
args <- commandArgs(trailingOnly = TRUE)
opt <- function(name, default) {
  hit <- grep(paste0("^--", name, "="), args, value = TRUE)
  if (length(hit) == 0L) default else as.numeric(sub(paste0("^--", name, "="), "", hit[1]))
}
reps <- opt("reps", 15); long <- opt("long", 4e6); seed <- opt("seed", 5000)
# Reference: RWM on the CLT-marginal posterior p(theta, s2 | z) ∝ prior * N(z; n mu, n Sigma + tau^2 I)
make_logpost <- function(z, tau, m2, m4, n, p, m0 = rep(0, p), L0 = diag(0.01, p), a0 = 1, b0 = 0.01) {
  pairs <- do.call(rbind, lapply(1:p, function(j) cbind(j, j:p))); q <- nrow(pairs)
  pidx <- matrix(0, p, p); for (a in 1:q) { pidx[pairs[a,1], pairs[a,2]] <- a; pidx[pairs[a,2], pairs[a,1]] <- a }
  quads <- as.matrix(expand.grid(1:p,1:p,1:p,1:p)); quads <- quads[apply(quads,1,function(r) all(diff(r)>=0)),,drop=FALSE]
  quads <- quads[do.call(order, as.data.frame(quads)),,drop=FALSE]
  key <- apply(quads, 1, paste, collapse=",")
  q4 <- function(v) m4[match(paste(sort(v), collapse=","), key)]
  psd <- function(A) { e <- eigen(A, symmetric = TRUE); e$vectors %*% diag(pmax(e$values, 0), nrow(A)) %*% t(e$vectors) }
  E2raw <- matrix(m2[pidx], p, p); E2 <- psd(E2raw)
  mu_u <- E2[pairs]
  M4 <- matrix(0, q, q); for (a in 1:q) for (b in 1:q) M4[a,b] <- q4(c(pairs[a,], pairs[b,]))
  Cu <- psd(M4 - tcrossprod(mu_u))
  d <- q + p + 1
  function(par) {
    th <- par[1:p]; s2 <- exp(par[p+1])
    L <- matrix(0, d, q); L[1:q,1:q] <- diag(q)
    for (k in 1:p) for (j in 1:p) { L[q+k, pidx[k,j]] <- L[q+k, pidx[k,j]] + th[j]; L[d, pidx[k,j]] <- L[d, pidx[k,j]] + th[k]*th[j] }
    e2t <- drop(E2 %*% th)
    mt <- n * c(mu_u, e2t, sum(th * e2t) + s2)
    C <- L %*% Cu %*% t(L)
    C[q+1:p, q+1:p] <- C[q+1:p, q+1:p] + s2 * E2
    C[q+1:p, d] <- C[q+1:p, d] + 2*s2*e2t; C[d, q+1:p] <- C[d, q+1:p] + 2*s2*e2t
    C[d, d] <- C[d, d] + 4*s2*sum(th*e2t) + 2*s2^2
    R <- chol(n * C + diag(tau^2, d))
    r <- backsolve(R, z - mt, transpose = TRUE)
    -sum(log(diag(R))) - 0.5*sum(r^2) + sum(dnorm(th, m0, sqrt(s2/diag(L0)), log=TRUE)) - (a0+1)*log(s2) - b0/s2 + par[p+1]
  }
}
rwm <- function(lp, start, step, T = 30000, burn = 5000) {
  cur <- start; l <- lp(cur); out <- matrix(NA_real_, T, length(start)); acc <- 0
  for (t in 1:T) { pr <- cur + rnorm(length(cur)) * step; lpp <- tryCatch(lp(pr), error = function(e) -Inf)
    if (log(runif(1)) < lpp - l) { cur <- pr; l <- lpp; acc <- acc + 1 }; out[t,] <- cur }
  attr(out, "acc") <- acc / T
  out <- out[-(1:burn),]; attr(out, "acc") <- acc / T; out
}
beta <- c(1.5, -1.5, 1); n <- 10000; L0 <- diag(0.01, 3)
ess1 <- pgbb:::.ess_geyer
res <- list()
for (r in seq_len(reps)) {
  set.seed(seed + r)
  X <- matrix(runif(3 * n, -1, 1), n, 3, dimnames = list(NULL, c("x1","x2","x3")))
  y <- drop(X %*% beta) + rnorm(n, 0, 0.87)
  f <- suppressWarnings(noisy_gibbs(X, y, loss = "linear", epsilon = 1, delta = 1/n,
                                    bounds = c(x = 1, y = 10), iterations = 400000,
                                    sampler = "gibbs", prior = list(rate = 0.01)))
  rel <- f$released; tau <- f$ledger$noise_scale[["statistics"]]
  ci400 <- confint(f)[1:3, ]
  g <- pgbb:::cpp_ng_linear_gibbs(rel$s, tau, rel$m2, rel$m4, n, 3, rep(0,3), L0, 1, 0.01, long, long / 4, 100, pgbb:::.rng_seed())
  cilong <- t(apply(g$theta, 2, quantile, c(.025, .975)))
  lp <- make_logpost(rel$s, tau, rel$m2, rel$m4, n, 3)
  st <- c(coef(f)[1:3], log(coef(f)[["sigma"]]^2 + 0.01))
  rr <- rwm(lp, st, c(0.12, 0.12, 0.12, 0.5), T = 30000, burn = 5000)
  ciref <- t(apply(rr[, 1:3], 2, quantile, c(.025, .975)))
  cov <- function(ci) as.numeric(ci[, 1] <= beta & beta <= ci[, 2])
  ess400 <- c(apply(f$draws[, 1:3], 2, ess1), ess1(f$draws[, 4]^2))
  res[[r]] <- data.frame(rep = r, coef = 1:3, cov400 = cov(ci400), covlong = cov(cilong), covref = cov(ciref),
    w400 = ci400[,2]-ci400[,1], wlong = cilong[,2]-cilong[,1], wref = ciref[,2]-ciref[,1],
    sig400 = coef(f)[["sigma"]], sigref = mean(exp(rr[,4]/2)), ess400_theta = ess400[1:3], ess400_s2 = ess400[4])
  cat(".")
}

res <- do.call(rbind, res)
cat("\nCoverage of the true slopes (", nrow(res), " intervals):\n", sep = "")
print(round(colMeans(res[, c("cov400", "covlong", "covref")]), 3))
cat("Mean 95% interval width:\n")
print(round(colMeans(res[, c("w400", "wlong", "wref")]), 3))
cat("ESS of the 400000-iteration chain (Geyer), median over replicates: theta",
    round(stats::median(res$ess400_theta)), " sigma^2", round(stats::median(res$ess400_s2)), "\n")
