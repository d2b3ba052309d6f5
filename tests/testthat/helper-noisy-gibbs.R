# Shared by test-noisy-gibbs.R and test-noisy-gibbs-marginal.R.

# CLT-marginal log posterior p(theta, log sigma^2 | z) of the linear model for any p,
# built from the released moments without the package: the reference the Gibbs chain
# and the marginal sampler are checked against.
clt_logpost <- function(z, tau, m2, m4, n, p, m0, lam0, a0, b0) {
  pairs <- do.call(rbind, lapply(seq_len(p), function(j) cbind(j, j:p)))
  q <- nrow(pairs)
  pidx <- matrix(0L, p, p)
  for (a in seq_len(q)) pidx[pairs[a, 1], pairs[a, 2]] <- pidx[pairs[a, 2], pairs[a, 1]] <- a
  quads <- as.matrix(expand.grid(rep(list(seq_len(p)), 4)))
  quads <- quads[apply(quads, 1, function(r) all(diff(r) >= 0)), , drop = FALSE]
  key <- apply(quads[do.call(order, as.data.frame(quads)), , drop = FALSE], 1, paste, collapse = ",")
  psd <- function(A) { e <- eigen(A, symmetric = TRUE); e$vectors %*% diag(pmax(e$values, 0), nrow(A)) %*% t(e$vectors) }
  E2 <- psd(matrix(m2[pidx], p, p))
  mu_u <- E2[pairs]
  M4 <- matrix(0, q, q)
  for (a in seq_len(q)) for (b in seq_len(q))
    M4[a, b] <- m4[match(paste(sort(c(pairs[a, ], pairs[b, ])), collapse = ","), key)]
  Cu <- psd(M4 - tcrossprod(mu_u))
  d <- q + p + 1
  function(par) {
    th <- par[seq_len(p)]; s2 <- exp(par[p + 1])
    L <- matrix(0, d, q); L[seq_len(q), seq_len(q)] <- diag(q)
    for (k in seq_len(p)) for (j in seq_len(p)) {
      L[q + k, pidx[k, j]] <- L[q + k, pidx[k, j]] + th[j]
      L[d, pidx[k, j]] <- L[d, pidx[k, j]] + th[k] * th[j]
    }
    e2t <- drop(E2 %*% th)
    C <- L %*% Cu %*% t(L)
    C[q + seq_len(p), q + seq_len(p)] <- C[q + seq_len(p), q + seq_len(p)] + s2 * E2
    C[q + seq_len(p), d] <- C[q + seq_len(p), d] + 2 * s2 * e2t
    C[d, q + seq_len(p)] <- C[d, q + seq_len(p)] + 2 * s2 * e2t
    C[d, d] <- C[d, d] + 4 * s2 * sum(th * e2t) + 2 * s2^2
    R <- chol(n * C + diag(tau^2, d))
    r <- backsolve(R, z - n * c(mu_u, e2t, sum(th * e2t) + s2), transpose = TRUE)
    -sum(log(diag(R))) - 0.5 * sum(r^2) + sum(dnorm(th, m0, sqrt(s2 / lam0), log = TRUE)) -
      (a0 + 1) * log(s2) - b0 / s2 + par[p + 1]
  }
}

# A noisy release of the linear statistics of y = x1 - 0.5 x2 + N(0, 0.5^2) on
# n = 2000 records (noise sd tau on the statistic block), with the prior of the
# Gibbs tests in test-noisy-gibbs.R. Draws from R's RNG in a fixed order, so set.seed() first.
noisy_linear_release <- function(tau, n = 2000, p = 2) {
  X <- matrix(runif(n * p, -1, 1), n, p)
  y <- drop(X %*% c(1, -0.5)) + rnorm(n, sd = 0.5)
  st <- pgbb:::cpp_ng_linear_statistics(X, y, 1, 4)
  list(n = n, p = p, tau = tau, z = st$s + rnorm(6, 0, tau), m2 = st$m2 + rnorm(3, 0, 0.002),
       m4 = st$m4 + rnorm(5, 0, 0.004), m0 = c(0, 0), lam0 = 0.01, a0 = 1, b0 = 0.01)
}

release_gibbs <- function(r, iterations, burn_in, thin) {
  pgbb:::cpp_ng_linear_gibbs(r$z, r$tau, r$m2, r$m4, r$n, r$p, r$m0, diag(r$lam0, r$p), r$a0, r$b0,
                             iterations, burn_in, thin, pgbb:::.rng_seed())
}

release_logpost <- function(r) clt_logpost(r$z, r$tau, r$m2, r$m4, r$n, r$p, r$m0, r$lam0, r$a0, r$b0)
