# Grid of Dette-Graw variants for Table 4(b) (degenerate U-statistic x*y on
# Uniform[-1/2, 1/2], mu = 8, B = 500, nominal 0.9): a plain-R prototype of
# cr_dette_graw()'s computation (same m_DG, mu / sqrt(2) per block, WR resamples),
# varying one reading at a time:
#   c    sensitivity c / N (c = 1 is the true replace-one bound 2b/N, b = 1/2);
#   muB  budget of each bootstrap estimate: comp = mu1 n / (m sqrt B) (Dette-Graw's
#        composition, the "composition" rule), per = mu1 (with c = 1 this is the
#        "matched" rule), wang = mu1 / sqrt((2 - 2/e) B), sqrtnm = mu1 sqrt(n / m);
#   a    rate tau_N = N^a (1: degenerate, 0.5: root-n, 0.8: no reading, see below);
#   iv   basic, percentile or symmetric (|T|) interval; cen: pivot centred at the
#        private (priv) or non-private (np) estimate; lev: quantile levels lev/2, 1 - lev/2.
# Usage: Rscript dg-variant-grid.R 2000,10000,50000 200 [small]
# Output: dg-variant-grid*.csv beside the script (len4 = 10^4 x mean width; cov.p,
# len.p the paper's numbers). The run behind dg-variant-grid.csv: n = 2000, 10000,
# 50000, 200 data sets each; dg-variant-grid-small.csv: all six n, 400 data sets,
# basic interval, private centre, levels 0.05 / 0.95.
args <- commandArgs(trailingOnly = TRUE)
ns <- as.integer(strsplit(args[1], ",")[[1]]); reps <- as.integer(args[2])
small <- length(args) > 2 && args[3] == "small"
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
B <- 500; mu <- 8; mu1 <- mu / sqrt(2); b <- 0.5
ustat <- function(s1, s2, N) (s1^2 - s2) / (N * (N - 1))
res <- list()
for (n in ns) {
  m <- as.integer(max(2, round(log(1 - 1/B) / log(1 - 1/n))))
  set.seed(2000 + n)
  D <- lapply(seq_len(reps), function(r) {
    x <- runif(n, -0.5, 0.5)
    X <- matrix(x[sample.int(n, B * m, replace = TRUE)], B, m)
    list(th = ustat(sum(x), sum(x^2), n), us = ustat(rowSums(X), rowSums(X^2), m), z0 = rnorm(1), zb = rnorm(B))
  })
  comp <- mu1 * n / (m * sqrt(B))
  grid <- expand.grid(c = c(0.5, 1, 2, 4), muB = c("comp", "per", "wang", "sqrtnm"),
                      a = c(0.5, 0.8, 1), iv = c("basic", "perc", "sym"), cen = c("priv", "np"),
                      lev = c(0.1, 0.05), stringsAsFactors = FALSE)
  if (small) grid <- grid[grid$c <= 2 & grid$muB %in% c("comp", "per") & grid$iv == "basic" &
                          grid$cen == "priv" & grid$lev == 0.1, ]
  for (g in seq_len(nrow(grid))) {
    G <- grid[g, ]
    sens <- function(N) G$c / N
    muB <- switch(G$muB, comp = comp, per = mu1, wang = mu1 / sqrt((2 - 2 / exp(1)) * B), sqrtnm = mu1 * sqrt(n / m))
    tau <- function(N) N^G$a
    al <- G$lev
    cv <- ln <- numeric(reps)
    for (r in seq_len(reps)) {
      o <- D[[r]]
      tt <- o$th + sens(n) / mu1 * o$z0
      bt <- o$us + sens(m) / muB * o$zb
      Tb <- tau(m) * (bt - if (G$cen == "priv") tt else o$th)
      if (G$iv == "sym") {
        q <- quantile(abs(Tb), 1 - al, type = 1, names = FALSE); lo <- tt - q / tau(n); hi <- tt + q / tau(n)
      } else {
        q <- quantile(Tb, c(al/2, 1 - al/2), type = 1, names = FALSE)
        if (G$iv == "basic") { lo <- tt - q[2] / tau(n); hi <- tt - q[1] / tau(n) } else { lo <- tt + q[1] / tau(n); hi <- tt + q[2] / tau(n) }
      }
      cv[r] <- lo <= 0 && 0 <= hi; ln[r] <- hi - lo
    }
    res[[length(res) + 1]] <- cbind(G, n = n, m = m, cov = mean(cv), len4 = 1e4 * mean(ln))
  }
}
res <- do.call(rbind, res)
paper <- data.frame(n = c(2000, 5000, 10000, 20000, 40000, 50000), cov.p = c(1, .99, 1, .99, .98, 1),
                    len.p = c(7.37, 2.65, 1.23, 0.58, 0.27, 0.21))
res <- merge(res, paper, by = "n")
out <- res[order(res$c, res$muB, res$a, res$iv, res$cen, res$lev, res$n), ]
out$len4 <- signif(out$len4, 4)
write.csv(out, file.path(here, if (small) "dg-variant-grid-small.csv" else "dg-variant-grid.csv"), row.names = FALSE)
key <- c("c", "muB", "a", "iv", "cen", "lev")
res$lr <- abs(log(res$len4 / res$len.p))
agg <- aggregate(cbind(lr, covdev = abs(cov - cov.p)) ~ c + muB + a + iv + cen + lev, data = res, FUN = max)
agg$score <- agg$lr + 2 * agg$covdev
agg <- agg[order(agg$score), ]
options(width = 220)
top <- head(agg, 25)
print(top, row.names = FALSE)
# Detail of the top 8.
for (k in seq_len(8)) {
  s <- merge(res, top[k, key], by = key)
  cat(sprintf("%s: %s\n", paste(top[k, key], collapse = "/"),
              paste(sprintf("n=%d cov %.2f (%.2f) len %.2f (%.2f)", s$n, s$cov, s$cov.p, s$len4, s$len.p), collapse = "; ")))
}
