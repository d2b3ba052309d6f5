# No data-derived bounds. Privacy parameters (clipping bounds,
# scalings, sensitivities, noise scales, smoothness, block counts, budgets) must be
# functions of public inputs only. Two kinds of checks:
#  1. Behavioural: for every private entry point, neighbouring data sets that differ
#     in one extreme record (a canary far outside the declared bounds, or at a bound)
#     produce identical privacy parameters in the returned object; and a canary far
#     outside the bounds gives exactly the release of the canary clipped to the bound
#     (same seed), i.e. the data are clipped, never rescaled by what they contain.
#  2. Source level: no code path calls range/min/max/quantile/sd/var/mad/IQR/median
#     (R) or sorts / takes extreme elements (C++) except the uses on an explicit,
#     commented allow-list, each with the reason it sets no privacy parameter.

strip_call <- function(o) { o$call <- NULL; o }

# Runs f on the base data and on two neighbours (canary far outside / at the bound),
# with the same seed. Returns the three results.
neighbours <- function(f, base, far, at, seed = 11) {
  out <- lapply(list(base = base, far = far, at = at), function(d) { set.seed(seed); f(d) })
  out
}

# Public parameters of a private_cr release (everything but the released values and
# data-dependent noise bounds that the mechanism itself privatises).
cr_public <- function(o) {
  o[c("scale", "d", "level", "alpha", "method", "estimator", "description", "privacy",
      "n", "B", "m", "mode", "kappa", "kappa_star", "multiplicity", "rho", "beta", "blocks")]
}

test_that("CR-GS: neighbours differing in an extreme record get identical sensitivities and noise", {
  set.seed(1)
  n <- 120
  x <- runif(n)
  far <- replace(x, 7, 1e6); at <- replace(x, 7, 1)
  X <- matrix(runif(2 * n, -1, 1), ncol = 2)
  Xfar <- X; Xfar[7, ] <- c(-1e6, 3e5); Xat <- X; Xat[7, ] <- c(-1, 1)
  yb <- rep(0:1, n / 2)
  yy <- drop(X %*% c(1, -1)) + rnorm(n, sd = 0.3)
  cases <- list(
    mean = list(function(d) cr_gs(d, "mean", mu = 2, bounds = c(0, 1), B = 40), x, far, at),
    mean_wor = list(function(d) cr_gs(d, "mean", mu = 2, bounds = c(0, 1), B = 40, mode = "wor"), x, far, at),
    mean_2d = list(function(d) cr_gs(d, "mean", mu = 2, bounds = c(-1, 1), B = 40), X, Xfar, Xat),
    ustat_product = list(function(d) cr_gs(d, "ustat_product", mu = 2, bounds = c(0, 1), B = 40), x, far, at),
    ustat_variance = list(function(d) cr_gs(d, "ustat_variance", mu = 2, bounds = c(0, 1), B = 40, degenerate = TRUE), x, far, at),
    transform = list(function(d) cr_gs(d, list(fun = "mean", transform = function(m) 2 * m, lipschitz = 2),
                                       mu = 2, bounds = c(0, 1), B = 40), x, far, at),
    user_fun = list(function(d) cr_gs(d, list(fun = function(v) mean(v), sensitivity = function(N) 1 / N),
                                      mu = 2, bounds = c(0, 1), B = 40), x, far, at),
    ridge_logistic = list(function(d) cr_gs(d, "ridge_logistic", y = yb, lambda = 0.5, mu = 2, bounds = c(-1, 1), B = 20),
                          X, Xfar, Xat),
    ridge_huber = list(function(d) cr_gs(d, "ridge_huber", y = yy, lambda = 0.5, mu = 2, bounds = c(-1, 1), B = 20),
                       X, Xfar, Xat),
    sgd_huber = list(function(d) cr_gs(d, "sgd_huber", y = yy, lambda = 0.5, radius = 3, mu = 2, bounds = c(-1, 1), B = 20),
                     X, Xfar, Xat))
  for (nm in names(cases)) {
    cs <- cases[[nm]]
    r <- quiet_zero_radius(neighbours(cs[[1]], cs[[2]], cs[[3]], cs[[4]]))
    for (o in r) expect_s3_class(o, "private_cr")
    expect_identical(r$far$noise, r$base$noise, label = paste(nm, "noise scales (far canary)"))
    expect_identical(r$at$noise, r$base$noise, label = paste(nm, "noise scales (canary at the bound)"))
    expect_identical(cr_public(r$far), cr_public(r$base), label = paste(nm, "public parameters"))
    # The far canary is clipped to the bound: the whole release is the same.
    if (nm != "user_fun") expect_identical(strip_call(r$far), strip_call(r$at), label = paste(nm, "far == at bound"))
  }
  # The response of the Huber fits needs no bound (the loss is Lipschitz in it): an
  # extreme response changes no privacy parameter either.
  r <- quiet_zero_radius(
    neighbours(function(d) cr_gs(X, "ridge_huber", y = d, lambda = 0.5, mu = 2, bounds = c(-1, 1), B = 20),
               yy, replace(yy, 3, 1e8), replace(yy, 3, -1e8)))
  expect_identical(r$far$noise, r$base$noise)
  expect_identical(r$at$noise, r$base$noise)
})

test_that("CR-SS: smoothness, truncation and scale do not depend on the data", {
  set.seed(2)
  n <- 150
  x <- runif(n, -1, 1)
  far <- replace(x, 5, -1e9); at <- replace(x, 5, -1)
  for (est in c("quantile", "ustat_product")) {
    for (mode in c("wr", "wor")) {
      r <- neighbours(function(d) cr_ss(d, est, mu = 2, delta = 1e-6, bounds = c(-1, 1), B = 40, mode = mode),
                      x, far, at)
      expect_identical(cr_public(r$far), cr_public(r$base), label = paste(est, mode))
      expect_identical(r$far$noise$tau_m, r$base$noise$tau_m)
      expect_identical(r$at$beta, r$base$beta)
      expect_identical(strip_call(r$far), strip_call(r$at), label = paste(est, mode, "far == at bound"))
    }
  }
  # The smooth sensitivity is data-dependent by design (released through PTR, Lemma 5.4),
  # but its truncation point k* depends on n, beta, the bounds and C only.
  a <- smooth_sensitivity_quantile(x, 0.5, 0.05, c(-1, 1))
  b <- smooth_sensitivity_quantile(far, 0.5, 0.05, c(-1, 1))
  expect_identical(attr(a, "k_star"), attr(b, "k_star"))
  expect_identical(b, smooth_sensitivity_quantile(at, 0.5, 0.05, c(-1, 1)))
})

test_that("Dette-Graw and BLBQuant baselines: budgets, noise scales and block counts are public", {
  set.seed(3)
  n <- 200
  x <- runif(n)
  far <- replace(x, 1, 1e12); at <- replace(x, 1, 1)
  for (est in c("mean", "quantile", "ustat_product")) {
    r <- neighbours(function(d) cr_dette_graw(d, est, mu = 2, bounds = c(0, 1), B = 50), x, far, at)
    expect_identical(r$far$noise, r$base$noise, label = paste("Dette-Graw", est))
    expect_identical(cr_public(r$far), cr_public(r$base))
    expect_identical(strip_call(r$far), strip_call(r$at))
    r <- neighbours(function(d) cr_blbquant(d, est, mu = 2, bounds = c(0, 1), B = 10), x, far, at)
    pub <- function(o) o$noise[c("epsilon_center", "epsilon_search", "grid_step")]   # grid_index is the release
    expect_identical(pub(r$far), pub(r$base), label = paste("BLBQuant", est))
    expect_identical(cr_public(r$far), cr_public(r$base))
    expect_identical(strip_call(r$far), strip_call(r$at))
  }
})

test_that("NoisyGibbs: the ledger (sensitivities, noise, split) and the prior come from the bounds", {
  set.seed(4)
  n <- 100
  x <- rexp(n)
  far <- replace(x, 9, 1e7); at <- replace(x, 9, 12)
  ng_public <- function(o) list(ledger = o$ledger, bounds = o$details$bounds, prior = o$details$prior,
                                schedule = o$details$schedule, n = o$details$n)
  for (fam in c("gaussian", "exponential")) {
    f <- function(d) noisy_gibbs(d, family = fam, sigma = if (fam == "gaussian") 1, epsilon = 1, delta = 1e-3,
                                 bounds = c(0, 12), iterations = 400)
    r <- neighbours(f, x, far, at)
    expect_identical(ng_public(r$far), ng_public(r$base), label = fam)
    expect_identical(ng_public(r$at), ng_public(r$base), label = fam)
    expect_identical(strip_call(r$far), strip_call(r$at), label = paste(fam, "far == at bound"))
  }
  X <- cbind(1, matrix(runif(2 * n, -1, 1), ncol = 2, dimnames = list(NULL, c("u", "v"))))
  colnames(X)[1] <- "one"
  y <- drop(X %*% c(0.5, 1, -1)) + rnorm(n, sd = 0.3)
  Xfar <- X; Xfar[2, 2:3] <- c(1e9, -1e9); Xat <- X; Xat[2, 2:3] <- c(1, -1)
  f <- function(d) noisy_gibbs(d, y, family = "linear", epsilon = 2, delta = 1e-3, bounds = c(x = 1, y = 4),
                               iterations = 300)
  r <- suppressWarnings(neighbours(f, X, Xfar, Xat))
  expect_identical(ng_public(r$far), ng_public(r$base))
  expect_identical(strip_call(r$far), strip_call(r$at))
  r <- suppressWarnings(neighbours(function(d) noisy_gibbs(X, d, family = "linear", epsilon = 2, delta = 1e-3,
                                                           bounds = c(x = 1, y = 4), iterations = 300),
                                   y, replace(y, 4, -1e9), replace(y, 4, -4)))
  expect_identical(ng_public(r$far), ng_public(r$base))
  expect_identical(strip_call(r$far), strip_call(r$at))
})

test_that("DP-Bootstrap: sensitivity, penalty and output-noise scale are public", {
  set.seed(5)
  n <- 150
  x <- runif(n, 0, 12)
  far <- replace(x, 2, -1e8); at <- replace(x, 2, 0)
  r <- neighbours(function(d) dp_bootstrap(d, method = "mean", epsilon = 1, delta = 1e-3, bounds = c(0, 12), B = 40),
                  x, far, at)
  dpb_public <- function(o) list(ledger = o$ledger, d = o$details[setdiff(names(o$details), c("deconvolution", "sampling_sd"))])
  expect_identical(dpb_public(r$far), dpb_public(r$base))
  expect_identical(strip_call(r$far), strip_call(r$at))
  X <- matrix(runif(2 * n, -1, 1), ncol = 2, dimnames = list(NULL, c("u", "v")))
  y <- drop(X %*% c(1, -1)) + rnorm(n, sd = 0.5)
  Xfar <- X; Xfar[3, ] <- c(50, -70); Xat <- X; Xat[3, ] <- c(1, -1)
  r <- neighbours(function(d) dp_bootstrap(d, y, epsilon = 2, delta = 1e-3, bounds = c(x = 1), B = 5), X, Xfar, Xat)
  expect_identical(dpb_public(r$far), dpb_public(r$base))
  expect_identical(strip_call(r$far), strip_call(r$at))
  # The default penalty is a constant (Wang et al.'s c = 0.01, lambda = 2 c): no data, not even n.
  expect_identical(r$base$details$lambda, 0.02)
})

test_that("the accountant takes public inputs only", {
  # Every accountant / calibration entry point: no argument through which data could
  # enter, so sigma, epsilon and delta are functions of public settings.
  data_args <- c("x", "y", "data", "formula", "newdata", "object")
  for (f in list(pgbb_rdp, pgbb_epsilon, pgbb_sigma, privacy_curve, sigma_closed_form, rdp_epsilon,
                 rdp_delta, gdp_delta, gdp_mu, gdp_epsilon, gdp_compose, gdp_noise_scale, kappa_star,
                 gamma_star, pgbb_control))
    expect_false(any(names(formals(f)) %in% data_args))
  # And it is a deterministic function of them (no hidden state, no randomness).
  a <- pgbb_sigma(1, 1e-4, n = 5000, blocks = 20, clip = 1, rate = 0.1, iterations = 200, orders = 2:32)
  set.seed(99); runif(3)
  b <- pgbb_sigma(1, 1e-4, n = 5000, blocks = 20, clip = 1, rate = 0.1, iterations = 200, orders = 2:32)
  expect_identical(a, b)
})

test_that("PGBB design: unit-box scaling and parameter box depend on the declared bounds only", {
  ns <- asNamespace("pgbb")
  # A test of the privacy rule must fail, not skip, when the design builder changes.
  expect_true(exists(".pgbb_design", ns) && exists(".default_box", ns))
  set.seed(6)
  d <- data.frame(x = runif(80, 0, 10), g = factor(sample(c("a", "b"), 80, TRUE), levels = c("a", "b")))
  d$y <- 1 + 0.3 * d$x + rnorm(80)
  far <- d; far$x[5] <- 1e9; far$y[6] <- -1e9
  at <- d; at$x[5] <- 10; at$y[6] <- -20
  bounds <- list(x = c(0, 10), .response = c(-20, 25))
  design <- function(dd, coding) {
    cl <- call("pgbb_reference", y ~ x + g, dd)
    names(cl) <- c("", "formula", "data")
    fr <- ns$.pgbb_model_frame(cl, y ~ x + g, dd, environment())
    ns$.pgbb_design(fr, bounds, "huber", TRUE, coding)
  }
  for (coding in c("centred", "unit")) {
    a <- design(d, coding); b <- design(far, coding); cc <- design(at, coding)
    for (k in c("cb", "maps", "y_bounds", "intercept", "coefnames")) {
      expect_identical(b[[k]], a[[k]], label = k)
      expect_identical(cc[[k]], a[[k]], label = k)
    }
    expect_identical(ns$.default_box("huber", b, 2), ns$.default_box("huber", a, 2))
    # Far canaries are clipped into the box: the scaled design equals the at-bound one.
    expect_identical(b$Z, cc$Z)
    expect_identical(b$y, cc$y)
    expect_true(all(abs(b$Z) <= 1))
  }
})

# ---- source level -----------------------------------------------------------

# Calls that summarise data. In R the statistical functions themselves; in C++ sorts,
# selections and extreme elements, and std::min / std::max on a subscripted value
# other than the clipping idiom std::min(std::max(v, lower), upper).
r_summary_pattern <- "(^|[^._a-zA-Z0-9$])(range|min|max|quantile|sd|var|mad|IQR|median|fivenum)[[:space:]]*\\("
cpp_summary_pattern <- "(min|max|minmax)_element|nth_element|std::sort|partial_sort"
cpp_minmax_subscript <- "std::(min|max)[[:space:]]*\\([^;]*\\["
cpp_clip_idiom <- "std::min\\(std::max\\([^,]+, [^()]+\\), [^()]+\\)"

# Allow-list: file ("*" for any), a fixed piece of the (comment- and string-stripped)
# line, and why the use sets no privacy parameter from the data. Every match must be
# listed; a listed entry that no longer matches anything fails too, so the list stays
# an honest inventory. Add an entry only with a reason a reviewer can check.
allow <- function(file, code, why) list(file = file, code = code, why = why)
source_allow_list <- list(
  # -- R: printing --
  allow("*", "digits = max(3L, getOption(", "print precision of a method"),
  allow("control.R", "min(x$orders), max(x$orders)", "printing the public order grid"),
  allow("bootstrap.R", "max(bandwidth, 1e-300)", "the user's public smoothing bandwidth, kept positive"),
  allow("pgbb_fit.R", "callback_every = as.integer(max(1, min(250, ceiling(iterations / 100))))", "interrupt/progress polling interval from the public iteration count"),
  allow("pgbb_fit.R", "return(min(8, natural))", "default clip: min(8, the loss bound over the public ranges and box)"),
  allow("posterior_draws.R", "rng <- range(fit$tau)", "the public training grid of quantile levels"),
  allow("posterior_draws.R", ".check_memory(n * fit$d * max(1, length(tau))", "size of the requested draws (public request)"),
  allow("privacy.R", ".default_delta <- function(n) min(1e-6, 0.01 / n)", "default delta from the public record count n and constants"),
  allow("dp-bootstrap.R", "top <- max(lt)", "log-sum-exp in the finite-B accountant: lt is a function of n, B, sigma and the public sensitivity only"),
  allow("dp-bootstrap.R", "(1 + 1e-10) * B * max(top + log(sum(exp(lt - top))), 0)", "finite-B accountant (public quantities only), floored at 0"),
  # -- R: functions of public inputs only --
  allow("cr-baselines.R", "max(corners) - min(corners)", "kernel range from the public bounds lo, hi"),
  allow("cr-estimators.R", "max(corners) - min(corners)", "kernel range from the public bounds lo, hi"),
  allow("cr-baselines.R", "as.integer(max(2, round(log(1 - 1 / B) / log(1 - 1 / n))))", "m of Dette & Graw from public B, n"),
  allow("cr-baselines.R", "max(sd_boot, sp$tau(n) / sp$tau(m) * sd_center)", "Dette-Graw bootstrap noise: the larger of two scales set by public n, m, B, mu and bounds"),
  allow("cr-baselines.R", "min(floor(n / 2), max(2, .blb_blocks_rule(n, eps_i)))", "number of blocks from public n and budget"),
  allow("cr-baselines.R", "clamp <- function(v) min(max(v, sp$lower), sp$upper)", "post-processing: a released estimate and interval moved into the public bounds"),
  allow("cr-estimators.R", "max(G_loss, 1e-12)", "solver tolerance from the public Lipschitz constant"),
  allow("cr-estimators.R", "max(2L, ceiling(nn / log(nn)))", "sample sizes at which a declared sensitivity is checked (n is public)"),
  allow("cr-estimators.R", "max(f(N), own(N))", "sensitivity as a function of the size N only"),
  allow("cr.R", "min(1, mu / (4 * sqrt(log(B / (delta * rho)))))", "beta of eq. (6) from public mu, delta, B, rho, kappa"),
  allow("design.R", "range(.contrast_matrix(f, cm), 0, 1)", "contrast matrix of the declared (public) factor levels"),
  allow("design.R", "c(min(p), max(p))", "interval product of public bounds"),
  allow("design.R", "width[g$cols] <- sqrt(max(rowSums((g$rows - 1 / k)^2)))",
        "largest coded norm over the declared levels' contrast rows (public)"),
  allow("design.R", "total <- total + max(rowSums(z^2))",
        "largest coded norm over the declared levels' contrast rows (public)"),
  allow("dp-bootstrap.R", "min(degree, grid_size - 1L)", "public deconvolution settings"),
  allow("noisy-gibbs.R", "max(abs(ab))", "public bounds (representability check of the noise)"),
  allow("noisy-gibbs.R", "min(eigen(L0", "positive definiteness of the user's prior precision (public)"),
  allow("resampling.R", "min(kappa, m)", "public threshold and size"),
  # -- R: post-processing of released (already private) values --
  allow("cr-baselines.R", "stats::quantile(Tb", "quantiles of the released noisy bootstrap estimates (Dette-Graw)"),
  allow("dp-bootstrap.R", "max(ab[1], min(v))", "deconvolution grid of the released noisy replicates"),
  allow("dp-bootstrap.R", "min(ab[2], max(v))", "deconvolution grid of the released noisy replicates"),
  allow("dp-bootstrap.R", "sd = stats::sd(v)", "summary of the released replicates (no-noise path)"),
  allow("dp-bootstrap.R", "eta - max(eta)", "normalisation of the deconvolution density (post-processing)"),
  allow("dp-bootstrap.R", "max(stats::var(v) - sigma^2", "start of the deconvolution from the released replicates"),
  allow("methods-pgbb.R", "range(lo, hi", "plot limits of intervals of released draws"),
  allow("dp-sgld.R", "M <- max(1L, length(tau))", "number of public quantile levels"),
  allow("dp-sgld.R", "every <- as.integer(max(1, min(5000, ceiling(iterations", "callback interval from the public chain length"),
  allow("dp-sgld.R", "n / max(tau_int, 1 / n)", "effective sample size of the released (private) chain: post-processing"),
  allow("pgbb_fit.R", "max(worst[bad])", "box-shoulder warning: share of the released draws near a face of the public box (post-processing)"),
  allow("dp-sgld.R", "min(ess) >= min_ess", "DP-SGLD mixing check on the ESS of the released draws: post-processing"),
  allow("dp-sgld.R", "which(ess == min(ess)", "DP-SGLD mixing check on the ESS of the released draws: post-processing"),
  allow("dp-sgld.R", "min(ess), as.integer(kept)", "DP-SGLD mixing check on the ESS of the released draws: post-processing"),
  allow("noisy-gibbs.R", "min(ess)", "mixing check on the ESS of the posterior draws: post-processing of the release"),
  allow("dp-bootstrap.R", "min(dec_sd, sd_bound)", "the deconvolved sd of the released replicates (post-processing) capped at the public (b - a) / (2 sqrt n)"),
  allow("pgbb.R", "max(w, abs(yb))", "default box from the public response bounds"),
  allow("checks.R", "!is.finite(min(x)) || !is.finite(max(x))", "input validation: an error for NA/Inf, never a privacy parameter"),
  allow("formula-adapters.R", "max(abs(yb))", "response bound B_y from the DECLARED public range bounds$.response, not from the data"),
  # -- R: the mechanism's own statistic, privatised by the mechanism --
  allow("cr.R", "plan$kappa <- max(plan$mult)", "the realised multiplicity: a function of the resample indices only, drawn independently of the data (see .cr_realise)"),
  allow("cr.R", "ssw <- max(ssw, ss_i * .telescoping_factor(plan$mult[i], beta))", "max_i f(kappa_i) SS_beta(D[S_i]) of the realised s(D): data-dependent by design, released only through PTR-GDP, valid because it is kappa beta-smooth (tested exhaustively in test-cr-ss.R)"),
  allow("cr.R", "ssmax <- max(ssmax", "max_i SS_beta(D[S_i]) of Lemma 5.5: data-dependent by design, released only through PTR-GDP (Lemma 5.4, Theorem 5.6), valid because it is kappa* beta-smooth"),
  # -- R: not private (documented as such) --
  allow("audit.R", "max(0, eps_lo)", "audit_privacy: statistics of a mechanism's released outputs"),
  allow("audit.R", "stats::quantile(c(s1, s0)", "audit_privacy: thresholds on released outputs"),
  allow("audit.R", "max(mean(dir * (s0 - t) > 0)", "audit_privacy: empirical rates on released outputs"),
  allow("audit.R", "log(max(tpr - delta, 1e-12)", "audit_privacy: empirical epsilon on released outputs"),
  allow("pgbb.R", "r <- range(X[, j])", ".data_ranges(): the non-private generative bootstrap without bounds only, called under length(bounds) == 0L && !private (a private fit without bounds is an error)"),
  allow("pgbb.R", "else range(y)", ".data_ranges(): the response range of the same non-private path"),
  allow("reference.R", "stats::mad(y)", "pgbb_reference(): the non-private reference fit"),
  allow("reference.R", "stats::sd(y)", "pgbb_reference(): the non-private reference fit"),
  allow("reference.R", "stats::sd(X[, j])", "pgbb_reference(): the non-private reference fit's standardised covariates"),
  # -- C++: no data involved --
  allow("accountant.h", "", "the accountant sees only public settings and sigma (AccountantSetup), never data"),
  allow("range_subsets.h", "std::min(grid, std::floor(static_cast<long double>(cdf_[i]) * grid",
        "the 53-bit uniform's grid against the binomial cdf table, a function of the public q and range size only"),
  allow("noisy_gibbs_linear.h", "std::sort(a, a + 4)", "sorting the four indices of a moment, not data"),
  allow("dp_bootstrap.h", "std::max(cand[p], hr.scale_floor)", "projection of the solver iterate onto the public domain s >= floor"),
  allow("noisy_gibbs_linear.h", "std::max(std::fabs(z[d - 1]), 1.0)", "chain start from the released statistic z (post-processing)"),
  allow("noisy_gibbs_marginal.h", "std::max(1.0, std::fabs(u[i]))", "finite-difference step at the chain's parameter value (Laplace proposal), not data"),
  # -- C++: the estimators themselves (the statistic that is privatised) --
  allow("cr_gs.h", "std::nth_element", "upper_quantile(): the resampling quantile Q of Algorithm 2, privatised with a sensitivity from the bounds"),
  allow("cr_ss.h", "std::sort(pr.begin(), pr.end())", "order statistics for the quantile estimator and its smooth sensitivity (data-dependent by design, released through PTR)"),
  allow("cr_ss.h", "std::max(sk, wdec_m_[kstar_m_ + 1] * (hi_ - lo_))", "floor term e^{-(k*+1) beta}(u - l) of the smooth sensitivity: public"),
  allow("cr_baselines.h", "std::sort(all.v.begin(), all.v.end())", "BLBQuant centre: exponential mechanism over order statistics (sensitivity 1 whatever the data)"),
  allow("cr_baselines.h", "std::sort(bj.begin(), bj.end())", "BLBQuant block estimates; released only through the AboveThreshold count (sensitivity 1)"),
  allow("cr_baselines.h", "std::sort(roots[j].begin(), roots[j].end())", "BLBQuant bootstrap roots; released only through the AboveThreshold count (sensitivity 1)"),
  allow("pgbb_fit.R", ".shown_terms(lab), max(abs(z), na.rm = TRUE), format(iterations)),", "largest stationarity z of the released noised gradients (post-processing), shown in a warning"),
  allow("dp-bootstrap.R", "est <- min(max(mean(v), ab[1L]), ab[2L])", "the released noisy mean moved into the public range [a, b] (post-processing)"),
  allow("pgbb_fit.R", "big <- max(abs(z), na.rm = TRUE)", "largest stationarity z of the released noised gradients (post-processing), shown by print()")
)

strip_r_line <- function(l) {
  l <- gsub('"([^"\\\\]|\\\\.)*"', '""', l)
  l <- gsub("'([^'\\\\]|\\\\.)*'", "''", l)
  sub("#.*$", "", l)
}
strip_cpp_line <- function(l) sub("//.*$", "", gsub('"([^"\\\\]|\\\\.)*"', '""', l))

source_summary_hits <- function(root) {
  rf <- list.files(file.path(root, "R"), pattern = "[.]R$", full.names = TRUE)
  rf <- rf[basename(rf) != "RcppExports.R"]
  cf <- c(list.files(file.path(root, "src"), pattern = "[.](h|cpp)$", full.names = TRUE),
          list.files(file.path(root, "src", "core"), pattern = "[.]h$", full.names = TRUE))
  cf <- cf[basename(cf) != "RcppExports.cpp"]
  hits <- list()
  for (f in rf) {
    l <- readLines(f, warn = FALSE)
    s <- strip_r_line(l)
    for (k in grep(r_summary_pattern, s)) hits[[length(hits) + 1L]] <- list(file = basename(f), line = k, code = s[k])
  }
  for (f in cf) {
    l <- readLines(f, warn = FALSE)
    s <- strip_cpp_line(l)
    idx <- which(grepl(cpp_summary_pattern, s) | (grepl(cpp_minmax_subscript, s) & !grepl(cpp_clip_idiom, s)))
    for (k in idx) hits[[length(hits) + 1L]] <- list(file = basename(f), line = k, code = s[k])
  }
  hits
}

test_that("no code path summarises the data to set a privacy parameter (allow-list audited)", {
  root <- pgbb_source_root()
  skip_if(is.null(root), "package sources not available")
  for (a in source_allow_list) expect_true(nzchar(a$why))
  hits <- source_summary_hits(root)
  expect_gt(length(hits), 0)   # the scan itself works
  used <- logical(length(source_allow_list))
  for (h in hits) {
    ok <- vapply(source_allow_list, function(a) (a$file == "*" || a$file == h$file) &&
                   grepl(a$code, h$code, fixed = TRUE), TRUE)
    used <- used | ok
    expect_true(any(ok), label = sprintf("%s:%d is on the allow-list (%s)", h$file, h$line, trimws(h$code)))
  }
  stale <- vapply(source_allow_list[!used], function(a) sprintf("%s: %s", a$file, a$code), "")
  expect_identical(stale, character(0), label = "allow-list entries that match nothing (remove or update them)")
})

test_that("the source scan catches a data-derived bound", {
  # A planted offender in a scratch copy must be reported.
  root <- pgbb_source_root()
  skip_if(is.null(root), "package sources not available")
  tmp <- tempfile("pgbb-src")
  dir.create(file.path(tmp, "R"), recursive = TRUE)
  dir.create(file.path(tmp, "src", "core"), recursive = TRUE)
  writeLines(c("leaky <- function(x, mu) {", "  b <- range(x)  # data-derived bounds", "  diff(b) / mu", "}"),
             file.path(tmp, "R", "leaky.R"))
  writeLines(c("double clip(const double* x, int n) {", "  return *std::max_element(x, x + n);", "}"),
             file.path(tmp, "src", "core", "leaky.h"))
  hits <- source_summary_hits(tmp)
  expect_setequal(vapply(hits, `[[`, "", "file"), c("leaky.R", "leaky.h"))
  ok <- vapply(hits, function(h) any(vapply(source_allow_list, function(a)
    (a$file == "*" || a$file == h$file) && grepl(a$code, h$code, fixed = TRUE), TRUE)), TRUE)
  expect_false(any(ok))
  unlink(tmp, recursive = TRUE)
})
