# audit_privacy(): it must stay below the claim for a correctly calibrated
# mechanism and must catch a broken one, otherwise it proves nothing.

gauss_mech <- function(sd) function(d) sum(d) + rnorm(1, sd = sd)
eps <- 0.5; dlt <- 1e-5
# Classical Gaussian mechanism (Dwork & Roth 2014, Thm A.1; valid for eps < 1),
# replace-one sensitivity 1 for records in [0, 1].
sd_ok <- sqrt(2 * log(1.25 / dlt)) / eps
d0 <- rep(0, 10)
d1 <- c(rep(0, 9), 1)  # the canary moved to the public bound

test_that("a correctly calibrated Gaussian mechanism passes the audit", {
  a <- audit_privacy(gauss_mech(sd_ok), d0, d1, runs = 4000, delta = dlt, claimed = eps, seed = 10)
  expect_s3_class(a, "privacy_audit")
  expect_lt(a$epsilon_lower, eps)
  expect_output(print(a), "consistent")
})

test_that("noise 10x too small is detected as a violation", {
  a <- audit_privacy(gauss_mech(sd_ok / 10), d0, d1, runs = 4000, delta = dlt, claimed = eps,
                     seed = 11)
  # With sd = 0.97 the mechanism is about 1-GDP, i.e. roughly (4, 1e-5)-DP; the
  # best threshold test at FPR 1% has TPR about 10%, and 2000 held-out runs give
  # a Clopper-Pearson bound near 1.5 > 0.5.
  expect_gt(a$epsilon_lower, eps)
  expect_output(print(a), "VIOLATED")
})

test_that("a deterministic release is maximally distinguishable", {
  a <- audit_privacy(function(d) sum(d), d0, d1, runs = 200, delta = dlt, seed = 1)
  expect_gt(a$epsilon_lower, 3)  # log of about (100 runs) / (CP bound on 0 of 100)
})

test_that("audit_privacy validates its arguments", {
  expect_error(audit_privacy("f", d0, d1), "'mechanism'")
  expect_error(audit_privacy(sum, d0, d1, runs = 5), "'runs'")
  expect_error(audit_privacy(sum, d0, d1, delta = 2), "'delta'")
  expect_error(audit_privacy(function(d) NA_real_, d0, d1, runs = 20), "'statistic'")
})
