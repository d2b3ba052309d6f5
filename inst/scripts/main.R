# Main job (README command 1). Until the modelling API lands this demonstrates
# what exists: the blocked Bayesian bootstrap that PGBB privatises, on the
# March 1988 CPS wages (AER::CPS1988), beside the ordinary Bayesian bootstrap.
suppressPackageStartupMessages(library(pgbb))
data("CPS1988", package = "AER")
y <- log(CPS1988$wage)
set.seed(2026)
n <- length(y)
S <- 20
cat(sprintf("CPS 1988: n = %d, S = %d blocks, gamma* = %.5f\n", n, S, gamma_star(n, S)))
blk <- blocked_bootstrap(y, draws = 4000, blocks = S)
bb <- bayesian_bootstrap(y, draws = 4000)
ci <- rbind(blocked = confint(blk), ordinary = confint(bb))
rownames(ci) <- c("blocked BB (gamma*)", "ordinary BB")
cat("95% intervals for mean log weekly wage (non-private references):\n")
print(round(ci, 4))
