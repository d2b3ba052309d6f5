# Bad input: a table of the mistakes users make, fed to every
# exported function (pgbb(), pgbb_fit() and posterior_draws() are tested with their
# own code). Each case must end in an R error whose message names the argument to fix:
# no crash, no internal or C++ library message (std::bad_alloc, "internal error"), no
# stray warning, and no half-built object (an error means nothing is returned).
# Every case is cheap: validation happens before any heavy computation.

# ---- fixtures ---------------------------------------------------------------
bad_input_env <- local({
  set.seed(10)
  env <- new.env()
  env$x <- runif(60)
  env$X <- matrix(runif(120, -1, 1), ncol = 2, dimnames = list(NULL, c("a", "b")))
  env$yy <- drop(env$X %*% c(1, -1)) + rnorm(60, sd = 0.3)
  env$yb <- rep(0:1, 30)
  env$df <- data.frame(u = runif(20), v = runif(20))
  env$mech <- function(d) sum(d) + stats::rnorm(1)
  # A formula front end's inputs: 600 records, declared bounds, a tiny trainer.
  env$d <- data.frame(x = runif(600, 0, 2), z = runif(600))
  env$d$y <- 1 + 0.5 * env$d$x + rnorm(600)
  env$b <- list(x = c(0, 2), z = c(0, 1), .response = c(-5, 8))
  env$ctl <- pgbb_control(iterations = 20, hidden = 4, draws = 20)
  env
})

# One case: the call, the argument its error must name, and a regular expression
# the message must match. `warning`: a warning that is expected alongside.
bad <- function(call, arg, error, warning = NULL)
  list(call = substitute(call), arg = arg, error = error, warning = warning)

bad_input_cases <- list(
  # ---- NA / NaN / Inf / empty / character / factor data ----
  bad(cr_gs(c(x[-1], NA), mu = 1, bounds = c(0, 1)), "x", "free of NA, NaN and infinite"),
  bad(cr_gs(c(x[-1], NaN), mu = 1, bounds = c(0, 1)), "x", "free of NA, NaN and infinite"),
  bad(cr_gs(c(x[-1], Inf), mu = 1, bounds = c(0, 1)), "x", "free of NA, NaN and infinite"),
  bad(cr_gs(numeric(0), mu = 1, bounds = c(0, 1)), "x", "non-empty"),
  bad(cr_gs(as.character(x), mu = 1, bounds = c(0, 1)), "x", "numeric"),
  bad(cr_gs(factor(x > 0.5), mu = 1, bounds = c(0, 1)), "x", "numeric"),
  bad(cr_gs(x[1:2], mu = 1, bounds = c(0, 1)), "x", "at least 3 records"),
  bad(cr_ss(c(NA, x), mu = 1, delta = 1e-6, bounds = c(0, 1)), "x", "free of NA"),
  bad(cr_ss(letters, mu = 1, delta = 1e-6, bounds = c(0, 1)), "x", "numeric"),
  bad(cr_ss(X, mu = 1, delta = 1e-6, bounds = c(0, 1)), "x", "numeric vector"),
  bad(cr_ss(0.5, "ustat_product", mu = 1, delta = 1e-6, bounds = c(0, 1)), "x", "at least"),
  bad(cr_dette_graw(c(x, -Inf), mu = 1, bounds = c(0, 1)), "x", "free of NA"),
  bad(cr_dette_graw(x[1:3], mu = 1, bounds = c(0, 1)), "x", "at least 4"),
  bad(cr_blbquant(factor(x > 0.5), mu = 1, bounds = c(0, 1)), "x", "numeric"),
  bad(cr_blbquant(X, mu = 1, bounds = c(0, 1)), "x", "numeric vector"),
  bad(noisy_gibbs(c(x, NA), family = "gaussian", sigma = 1, epsilon = 1, delta = 1e-3, bounds = c(0, 1)), "x", "free of NA"),
  bad(noisy_gibbs(numeric(0), family = "gaussian", sigma = 1, epsilon = 1, delta = 1e-3, bounds = c(0, 1)), "x", "non-empty"),
  bad(noisy_gibbs(data.frame(a = letters), family = "gaussian", sigma = 1, epsilon = 1, delta = 1e-3, bounds = c(0, 1)), "x", "numeric"),
  bad(noisy_gibbs(rbind(X, c(NaN, 0)), c(yy, 0), family = "linear", epsilon = 1, delta = 1e-3, bounds = c(x = 1, y = 3)), "x", "free of NA"),
  bad(noisy_gibbs(X, c(yy[-1], Inf), family = "linear", epsilon = 1, delta = 1e-3, bounds = c(x = 1, y = 3)), "y", "free of NA"),
  bad(noisy_gibbs(X, as.character(yy), family = "linear", epsilon = 1, delta = 1e-3, bounds = c(x = 1, y = 3)), "y", "numeric vector"),
  bad(dp_bootstrap(c(x, NaN), method = "mean", epsilon = 1, delta = 1e-3, bounds = c(0, 1)), "x", "free of NA"),
  bad(dp_bootstrap(rbind(X, c(Inf, 0)), c(yy, 0), epsilon = 1, delta = 1e-3, bounds = c(x = 1)), "x", "free of NA"),
  bad(dp_bootstrap(X, c(yy[-1], NA), epsilon = 1, delta = 1e-3, bounds = c(x = 1)), "y", "free of NA"),
  bad(dp_bootstrap(X[1, , drop = FALSE], yy[1], epsilon = 1, delta = 1e-3, bounds = c(x = 1)), "x", "n >= 2"),
  bad(bayesian_bootstrap(c(1, NA, 3)), "x", "free of NA"),
  bad(bayesian_bootstrap(numeric(0)), "x", "non-empty"),
  bad(bayesian_bootstrap(letters), "x", "numeric"),
  bad(blocked_bootstrap(factor(letters), blocks = 3), "x", "numeric"),
  bad(smooth_sensitivity_quantile(c(x, NA), 0.5, 0.1, c(0, 1)), "x", "free of NA"),
  bad(smooth_sensitivity_quantile(numeric(0), 0.5, 0.1, c(0, 1)), "x", "non-empty"),
  bad(pgbb_reference(v ~ u, as.list(df), loss = "mean"), "data", "data frame"),
  bad(pgbb_reference(v ~ u, df[0, ], loss = "mean"), "data", "non-empty"),
  bad(pgbb_reference(v ~ u, transform(df, v = letters[1:20]), loss = "huber"), "formula", "numeric response"),
  bad(pgbb_reference(v ~ u, transform(df, u = Inf), loss = "mean"), "data", "infinite"),
  bad(pgbb_reference(v ~ w, df, loss = "mean"), "w", "not found"),

  # ---- mismatched dimensions ----
  bad(cr_gs(X, "ridge_logistic", y = yb[1:10], lambda = 1, mu = 1, bounds = c(-1, 1)), "y", "same length"),
  bad(cr_gs(X, "ridge_logistic", y = yy, lambda = 1, mu = 1, bounds = c(-1, 1)), "y", "binary response"),
  bad(cr_gs(X, "mean", mu = 1, bounds = matrix(c(0, 1, 0, 1, 0, 1), 2)), "bounds", "2 x 2 matrix"),
  bad(cr_gs(X, "mean", mu = 1, bounds = list(lower = c(0, 0, 0), upper = 1)), "bounds", "length 1 or 2"),
  bad(cr_gs(X, "ustat_product", mu = 1, bounds = c(-1, 1)), "x", "numeric vector"),
  bad(noisy_gibbs(X, yy[1:10], family = "linear", epsilon = 1, delta = 1e-3, bounds = c(x = 1, y = 3)), "y", "length 60"),
  bad(noisy_gibbs(X, yy, family = "linear", epsilon = 1, delta = 1e-3, bounds = c(x = 1, y = 3), prior = list(mean = c(0, 0, 0))), "prior$mean", "length 2"),
  bad(noisy_gibbs(X, yy, family = "linear", epsilon = 1, delta = 1e-3, bounds = c(x = 1, y = 3), prior = list(precision = diag(-1, 2))), "prior$precision", "positive definite"),
  bad(noisy_gibbs(X, yy, family = "linear", epsilon = 1, delta = 1e-3, bounds = c(x = 1, y = 3), prior = list(slope = 1)), "prior", "unknown: 'slope'"),
  bad(noisy_gibbs(matrix(0, 5, 41), rep(0, 5), family = "linear", epsilon = 1, delta = 1e-3, bounds = c(x = 1, y = 3)), "x", "at most 40 columns"),
  bad(noisy_gibbs(x, yy, family = "gaussian", sigma = 1, epsilon = 1, delta = 1e-3, bounds = c(0, 1)), "y", "NULL for family"),
  bad(dp_bootstrap(X, yy[-1], epsilon = 1, delta = 1e-3, bounds = c(x = 1)), "y", "length 60"),
  bad(dp_bootstrap(x, yy, method = "mean", epsilon = 1, delta = 1e-3, bounds = c(0, 1)), "y", "NULL for method"),
  bad(record_weights(c(0.5, 0.5), c(1, 3)), "blocks", "block ids in 1..2"),
  bad(record_weights(c(0.5, 0.5), c(1, 1)), "blocks", "non-empty"),
  bad(blocked_bootstrap(x, blocks = 3, partition = rep(1:3, 5)), "partition", "length 60"),
  bad(rdp_epsilon(c(0.1, 0.2), orders = 2:4, delta = 1e-5), "rdp", "one per order"),
  bad(gdp_compose(1, 2, delta = 1e-6), "delta", "one per mu"),

  # ---- n < S, S < 2 ----
  bad(block_partition(10, 11), "n", "between 11"),
  bad(block_partition(10, 1), "blocks", "at least 2"),
  bad(blocked_bootstrap(x, blocks = 61), "blocks", "between 2 and 60"),
  bad(blocked_bootstrap(x, blocks = 1), "blocks", "between 2 and 60"),
  bad(gamma_star(2, 5), "n", "at least 5"),
  bad(gamma_star(100, 2), "blocks", "at least 3"),
  bad(pgbb_rdp(2, n = 5, blocks = 10, clip = 1, sigma = 1, rate = 0.1), "n", "at least 10"),
  bad(pgbb_rdp(2, n = 1000, blocks = 1, clip = 1, sigma = 1, rate = 0.1), "blocks", "at least 2"),
  bad(pgbb_rdp(2, n = 1000, blocks = 2, clip = 1, sigma = 1, rate = 0.1), "gamma", "must be given"),
  bad(pgbb_control(blocks = 2), "blocks", "at least 3"),
  bad(rblock_weights(3, 1, 1), "blocks", "at least 2"),
  bad(cr_blbquant(x, mu = 1, bounds = c(0, 1), blocks = 1), "blocks", "between 2 and 30"),
  bad(cr_blbquant(x, mu = 1, bounds = c(0, 1), blocks = 31), "blocks", "between 2 and 30"),

  # ---- tau / prob / levels outside (0, 1) ----
  bad(cr_ss(x, prob = 1.2, mu = 1, delta = 1e-6, bounds = c(0, 1)), "prob", "strictly between 0 and 1"),
  bad(cr_ss(x, prob = 0, mu = 1, delta = 1e-6, bounds = c(0, 1)), "prob", "strictly between 0 and 1"),
  bad(cr_dette_graw(x, "quantile", prob = -0.1, mu = 1, bounds = c(0, 1)), "prob", "strictly between 0 and 1"),
  bad(cr_blbquant(x, "quantile", prob = 1, mu = 1, bounds = c(0, 1)), "prob", "strictly between 0 and 1"),
  bad(smooth_sensitivity_quantile(x, NA, 0.1, c(0, 1)), "prob", "strictly between 0 and 1"),
  bad(pgbb_reference(v ~ u, df, loss = "quantile", tau = 1.5), "tau", "strictly between 0 and 1"),
  bad(pgbb_reference(v ~ u, df, loss = "quantile", tau = c(0.5, 0.5)), "tau", "duplicated"),
  bad(cr_gs(x, mu = 1, bounds = c(0, 1), alpha = 1), "alpha", "strictly between 0 and 1"),
  bad(dp_bootstrap(x, method = "mean", epsilon = 1, delta = 1e-3, bounds = c(0, 1), level = 1), "level", "strictly between"),
  bad(pgbb_reference(v ~ u, df, loss = "mean", level = 0), "level", "strictly between"),
  bad(audit_privacy(mech, 0, 1, level = 2), "level", "strictly between"),

  # ---- epsilon / mu <= 0, NA, missing, absurd ----
  bad(noisy_gibbs(x, family = "gaussian", sigma = 1, epsilon = 0, delta = 1e-3, bounds = c(0, 1)), "epsilon", "positive finite"),
  bad(noisy_gibbs(x, family = "gaussian", sigma = 1, epsilon = NA, delta = 1e-3, bounds = c(0, 1)), "epsilon", "positive finite"),
  bad(noisy_gibbs(x, family = "gaussian", sigma = 1, delta = 1e-3, bounds = c(0, 1)), "epsilon", "must be given"),
  bad(noisy_gibbs(rep(1, 50), family = "gaussian", sigma = 1, epsilon = 1e308, delta = 0.5, bounds = c(0, 1e-3)), "epsilon", "representable"),
  bad(dp_bootstrap(x, method = "mean", epsilon = -1, delta = 1e-3, bounds = c(0, 1)), "epsilon", "positive finite"),
  bad(dp_bootstrap(x, method = "mean", epsilon = Inf, delta = 1e-3, bounds = c(0, 1)), "epsilon", "positive finite"),
  bad(pgbb_sigma(0, 1e-3, n = 1000, blocks = 10, clip = 1, rate = 0.1, iterations = 10), "epsilon", "positive finite"),
  bad(pgbb_sigma(NA, 1e-3, n = 1000, blocks = 10, clip = 1, rate = 0.1, iterations = 10), "epsilon", "positive finite"),
  bad(pgbb_sigma(1, 1e-3, n = 1000, blocks = 10, clip = 1, rate = 0.1, iterations = 10, orders = 2, conversion = "mironov"), "epsilon", "is below"),
  bad(privacy_curve(c(1, -1), sigma = 1, n = 1000, blocks = 10, clip = 1, rate = 0.1, iterations = 10), "epsilon", "positive finite"),
  bad(sigma_closed_form(0, 1e-3, n = 1000, blocks = 10, clip = 1, rate = 0.1, iterations = 10), "epsilon", "positive finite"),
  bad(rdp_delta(c(0.1, 0.2), orders = 2:3, epsilon = 0), "epsilon", "positive finite"),
  bad(gdp_delta(1, NA), "epsilon", "non-negative"),
  bad(gdp_mu(-1, 0.1), "epsilon", "non-negative"),
  bad(gdp_mu(Inf, 0.1), "epsilon", "finite"),
  bad(cr_gs(x, mu = 0, bounds = c(0, 1)), "mu", "positive finite"),
  bad(cr_gs(x, mu = NA, bounds = c(0, 1)), "mu", "positive finite"),
  bad(cr_gs(x, bounds = c(0, 1)), "mu", "must be given"),
  bad(cr_ss(x, mu = -1, delta = 1e-6, bounds = c(0, 1)), "mu", "positive finite"),
  bad(cr_dette_graw(x, mu = Inf, bounds = c(0, 1)), "mu", "positive finite"),
  bad(cr_blbquant(x, mu = 1e300, bounds = c(0, 1)), "mu", "pure-DP equivalent"),
  bad(gdp_epsilon(-1, 0.1), "mu", "non-negative"),
  bad(gdp_noise_scale(1, 0), "mu", "positive"),
  bad(pgbb_epsilon(-1, delta = 1e-3, n = 1000, blocks = 10, clip = 1, rate = 0.1, iterations = 10), "sigma", "positive finite"),
  bad(pgbb_rdp(2, n = 1000, blocks = 10, clip = 1, sigma = 0, rate = 0.1), "sigma", "positive finite"),

  # ---- delta outside (0, 1) ----
  bad(noisy_gibbs(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 0, bounds = c(0, 1)), "delta", "strictly between 0 and 1"),
  bad(noisy_gibbs(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 1, bounds = c(0, 1)), "delta", "strictly between 0 and 1"),
  bad(dp_bootstrap(x, method = "mean", epsilon = 1, delta = NA, bounds = c(0, 1)), "delta", "strictly between 0 and 1"),
  bad(cr_ss(x, mu = 1, delta = 1.5, bounds = c(0, 1)), "delta", "strictly between 0 and 1"),
  bad(cr_ss(x, mu = 1, bounds = c(0, 1)), "delta", "must be given"),
  bad(cr_ss(x, mu = 1, delta = 1e-320, bounds = c(0, 1), B = 20), "delta", "positive smoothness beta"),
  bad(pgbb_epsilon(1, delta = 2, n = 1000, blocks = 10, clip = 1, rate = 0.1, iterations = 10), "delta", "strictly between 0 and 1"),
  bad(pgbb_sigma(1, NA, n = 1000, blocks = 10, clip = 1, rate = 0.1, iterations = 10), "delta", "strictly between 0 and 1"),
  bad(gdp_mu(1, 1), "delta", "strictly between 0 and 1"),
  bad(gdp_epsilon(1, 0), "delta", "strictly between 0 and 1"),
  bad(rdp_epsilon(0.1, orders = 2, delta = 0), "delta", "strictly between 0 and 1"),
  bad(audit_privacy(mech, 0, 1, delta = 0), "delta", "strictly between 0 and 1"),

  # ---- rate outside (0, 1) ----
  bad(pgbb_rdp(2, n = 1000, blocks = 10, clip = 1, sigma = 1, rate = 1), "rate", "strictly between 0 and 1"),
  bad(pgbb_rdp(2, n = 1000, blocks = 10, clip = 1, sigma = 1, rate = 0), "rate", "strictly between 0 and 1"),
  bad(pgbb_control(rate = -0.1), "rate", "strictly between 0 and 1"),
  bad(sigma_closed_form(1, 1e-3, n = 1000, blocks = 10, clip = 1, rate = NA, iterations = 10), "rate", "strictly between 0 and 1"),
  bad(cr_gs(x, mu = 1, bounds = c(0, 1), rho = 2), "rho", "strictly between 0 and 1"),
  bad(kappa_star(100, 10, 10, 0), "rho", "strictly between 0 and 1"),

  # ---- zero (or fractional) iterations, draws, resamples ----
  bad(noisy_gibbs(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 1e-3, bounds = c(0, 1), iterations = 0), "iterations", "whole number"),
  bad(noisy_gibbs(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 1e-3, bounds = c(0, 1), iterations = 100, burn_in = 100), "burn_in", "between 0 and 99"),
  bad(noisy_gibbs(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 1e-3, bounds = c(0, 1), thin = 0), "thin", "whole number"),
  bad(pgbb_epsilon(1, delta = 1e-3, n = 1000, blocks = 10, clip = 1, rate = 0.1, iterations = 0), "iterations", "whole number"),
  bad(pgbb_sigma(1, 1e-3, n = 1000, blocks = 10, clip = 1, rate = 0.1, iterations = 2.5), "iterations", "whole number"),
  bad(pgbb_control(iterations = 0), "iterations", "whole number"),
  bad(pgbb_control(mc = 0), "mc", "whole number"),
  bad(pgbb_control(warmup = 1), "warmup", "\\[0, 1\\)"),
  bad(pgbb_control(clip = -1), "clip", "positive"),
  bad(pgbb_control(precision = "half"), "precision", "float"),
  bad(bayesian_bootstrap(x, draws = 0), "draws", "whole number"),
  bad(cr_gs(x, mu = 1, bounds = c(0, 1), B = 0), "B", "at least 10 for a 90% region"),
  # Fewer resamples than 1 / alpha: the quantile is their maximum and the region under-covers.
  bad(cr_gs(x, mu = 1, bounds = c(0, 1), B = 3), "B", "at least 10 for a 90% region"),
  bad(cr_gs(x, mu = 1, bounds = c(0, 1), B = 15, level = 0.95), "B", "at least 20 for a 95% region"),
  bad(cr_ss(x, mu = 1, delta = 1e-6, bounds = c(0, 1), B = 9), "B", "at least 10"),
  bad(cr_dette_graw(x, mu = 1, bounds = c(0, 1), B = 19), "B", "at least 20 .*2 / alpha"),
  bad(cr_dette_graw(x, mu = 1, bounds = c(0, 1), B = 1), "B", "at least 20"),
  bad(cr_gs(x, mu = 1, bounds = c(0, 1), B = 20.5), "B", "whole number"),
  bad(dp_bootstrap(x, method = "mean", epsilon = 1, delta = 1e-3, bounds = c(0, 1), B = 1), "B", "whole number"),
  bad(audit_privacy(mech, 0, 1, runs = 5), "runs", "whole number"),
  bad(rblock_weights(0, 5, 1), "k", "whole number"),
  bad(resample_indices(10, 5, 0), "B", "whole number"),

  # ---- missing, reversed, non-finite, degenerate bounds ----
  bad(cr_gs(x, mu = 1), "bounds", "must be given"),
  bad(cr_gs(x, mu = 1, bounds = c(1, 0)), "bounds", "lower < upper"),
  bad(cr_gs(x, mu = 1, bounds = c(0, Inf)), "bounds", "finite"),
  bad(cr_gs(x, mu = 1, bounds = c(NA, 1)), "bounds", "finite"),
  bad(cr_gs(x, mu = 1, bounds = c(0.5, 0.5)), "bounds", "lower < upper"),
  bad(cr_ss(x, mu = 1, delta = 1e-6), "bounds", "must be given"),
  bad(cr_dette_graw(x, mu = 1, bounds = c(1, 0)), "bounds", "lower < upper"),
  bad(cr_blbquant(x, mu = 1, bounds = c(-Inf, 1)), "bounds", "finite"),
  bad(noisy_gibbs(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 1e-3), "bounds", "must be given"),
  bad(noisy_gibbs(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 1e-3, bounds = c(1, 0)), "bounds", "lower < upper"),
  bad(noisy_gibbs(x, family = "exponential", epsilon = 1, delta = 1e-3, bounds = c(-1, 1)), "bounds", "\\[0, Inf\\)"),
  bad(noisy_gibbs(X, yy, family = "linear", epsilon = 1, delta = 1e-3, bounds = c(1, 3)), "bounds", "c\\(x = B_x, y = B_y\\)"),
  bad(noisy_gibbs(X, yy, family = "linear", epsilon = 1, delta = 1e-3, bounds = c(x = -1, y = 3)), "bounds", "positive finite"),
  bad(dp_bootstrap(x, method = "mean", epsilon = 1, delta = 1e-3, bounds = c(1, 0)), "bounds", "a < b"),
  bad(dp_bootstrap(X, yy, epsilon = 1, delta = 1e-3, bounds = c(y = 1)), "bounds", "c\\(x = B_x\\)"),
  bad(dp_bootstrap(x, method = "mean", epsilon = 1, delta = 1e-3), "bounds", "must be given"),
  bad(smooth_sensitivity_quantile(x, 0.5, 0.1, c(1, 1)), "bounds", "lower < upper"),
  bad(pgbb_control(box = list(lower = 1, upper = 0)), "box", "lower' < 'upper"),
  bad(pgbb_control(box = list(lower = -1, upper = 1, lowr = -2)), "box", "exactly the entries 'lower' and 'upper'"),
  bad(pgbb_control(box = list(lower = -1, upper = 1), box_scale = 0.1), "box_scale", "left out when 'box' is given"),

  # ---- other settings users get wrong ----
  bad(cr_gs(x, mu = 1, bounds = c(0, 1), m = 1), "m", "between 2 and 60"),
  bad(cr_gs(x, mu = 1, bounds = c(0, 1), m = 61), "m", "between 2 and 60"),
  bad(cr_gs(x, mu = 1, bounds = c(0, 1), mode = "boot"), "mode", "one of \"wr\", \"wor\""),
  bad(cr_gs(x, "median", mu = 1, bounds = c(0, 1)), "estimator", "one of"),
  bad(cr_gs(X, "ridge_huber", y = yy, mu = 1, bounds = c(-1, 1)), "lambda", "must be given"),
  bad(cr_gs(X, "ridge_huber", y = yy, lambda = -1, mu = 1, bounds = c(-1, 1)), "lambda", "positive finite"),
  bad(cr_gs(X, "sgd_logistic", y = yb, lambda = 1, mu = 1, bounds = c(-1, 1)), "radius", "must be given"),
  bad(cr_gs(X, "sgd_logistic", y = yb, lambda = 1, radius = 1, a = 0.4, mu = 1, bounds = c(-1, 1)), "a", "in \\(1/2, 1\\)"),
  bad(cr_gs(X, "sgd_logistic", y = yb, lambda = 1e-20, radius = 1, mu = 1, bounds = c(-1, 1)), "lambda", "increase 'lambda'"),
  bad(cr_gs(x, list(fun = "mean", transform = sqrt), mu = 1, bounds = c(0, 1)), "estimator$lipschitz", "must be given"),
  bad(cr_gs(x, list(fun = mean), mu = 1, bounds = c(0, 1)), "estimator$sensitivity", "a function"),
  bad(cr_gs(x, list(fun = "mean", sensitivity = function(N) 1e-9), mu = 1, bounds = c(0, 1)), "estimator$sensitivity", "at least the bound"),
  bad(cr_gs(x, list(fun = "mean", tau = 3), mu = 1, bounds = c(0, 1)), "estimator$tau", "a function"),
  bad(cr_ss(x, mu = 1, delta = 1e-6, bounds = c(0, 1), beta = -1), "beta", "positive finite"),
  bad(cr_ss(x, mu = 1, delta = 1e-6, bounds = c(0, 1), C = 0), "C", "positive finite"),
  bad(cr_ss(x, mu = 1, delta = 1e-6, bounds = c(0, 1), beta = 1e-14, B = 20), "beta", "increase 'beta' or 'C'"),
  bad(cr_ss(x, "mad", mu = 1, delta = 1e-6, bounds = c(0, 1)), "estimator", "\"quantile\", \"ustat_product\" or a list"),
  bad(cr_dette_graw(x, "median", mu = 1, bounds = c(0, 1)), "estimator", "one of \"mean\""),
  bad(cr_blbquant(x, mu = 1, bounds = c(0, 1), grid_step = 0), "grid_step", "positive finite"),
  bad(cr_blbquant(x, mu = 1, bounds = c(0, 1), grid_step = 1e-300), "grid_step", "reach the public diameter"),
  bad(noisy_gibbs(x, family = "poisson", epsilon = 1, delta = 1e-3, bounds = c(0, 1)), "family", "one of"),
  bad(noisy_gibbs(x, family = "gaussian", epsilon = 1, delta = 1e-3, bounds = c(0, 1)), "sigma", "must be given"),
  bad(noisy_gibbs(x, family = "exponential", sigma = 1, epsilon = 1, delta = 1e-3, bounds = c(0, 1)), "sigma", "loss 'exponential' does not read"),
  bad(noisy_gibbs(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 1e-3, bounds = c(0, 1), prior = list(sd = -1)), "prior$sd", "positive finite"),
  bad(noisy_gibbs(X, yy, family = "linear", epsilon = 1, delta = 1e-3, bounds = c(x = 1, y = 3), split = c(1, 1, 1)), "split", "summing to at most 1"),
  bad(noisy_gibbs(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 1e-3, bounds = c(0, 1), calibration = "exact"), "calibration", "one of"),
  bad(noisy_gibbs(x, family = "gaussian", sigma = 1, epsilon = 64, delta = 1e-4, bounds = c(0, 1), calibration = "classical"), "calibration", "does not give"),
  bad(dp_bootstrap(x, method = "median", epsilon = 1, delta = 1e-3, bounds = c(0, 1)), "method", "one of"),
  bad(dp_bootstrap(X, yy, epsilon = 1, delta = 1e-3, bounds = c(x = 1), huber_c = 0.5), "huber_c", "huber_kappa"),
  bad(dp_bootstrap(X, yy, epsilon = 1, delta = 1e-3, bounds = c(x = 1), lambda = 0), "lambda", "positive finite"),
  bad(dp_bootstrap(x, method = "mean", epsilon = 1, delta = 1e-3, bounds = c(0, 1), lambda = 1), "lambda", "loss 'mean' does not read"),
  bad(dp_bootstrap(x, method = "mean", epsilon = 1, delta = 1e-3, bounds = c(0, 1), deconvolution = list(grid = 5)), "deconvolution$grid", "between 20"),
  bad(dp_bootstrap(x, method = "mean", epsilon = 1, delta = 1e-3, bounds = c(0, 1), deconvolution = list(bins = 5)), "deconvolution", "named list"),
  bad(dp_bootstrap(X, yy, epsilon = 1, delta = 1e-3, bounds = c(x = 1), tol = 0), "tol", "positive finite"),
  bad(pgbb_rdp(1, n = 1000, blocks = 10, clip = 1, sigma = 1, rate = 0.1), "lambda", "between 2 and 4096"),
  bad(pgbb_rdp(2, n = 1000, blocks = 10, clip = 1, sigma = 1, rate = 0.1, J = 5000), "J", "between 0 and 1000"),
  bad(pgbb_rdp(2, n = 1000, blocks = 10, clip = 1, sigma = 1, rate = 0.1, m = 2), "m", "between 3 and 100"),
  bad(pgbb_rdp(2, n = 1000, blocks = 10, clip = 1, sigma = 1, rate = 0.1, alpha = -1), "alpha", "non-negative"),
  bad(pgbb_rdp(2, n = 1000, blocks = 10, gamma = 0, clip = 1, sigma = 1, rate = 0.1), "gamma", "positive finite"),
  bad(pgbb_rdp(2, n = 1000, blocks = 10, clip = -1, sigma = 1, rate = 0.1), "clip", "positive finite"),
  bad(pgbb_rdp(2, blocks = 10, clip = 1, sigma = 1, rate = 0.1), "n", "are required"),
  bad(pgbb_rdp(2, n = 1000, blocks = 10, clip = 1, sigma = 1, rate = 0.1, accountant = "rdp"), "accountant", "one of \"dirichlet\""),
  bad(pgbb_epsilon(1, 1e-3, n = 1000, blocks = 10, clip = 1, rate = 0.1, iterations = 10, orders = 1:3), "orders", "between 2 and 4096"),
  bad(pgbb_epsilon(1, 1e-3, n = 1000, blocks = 10, clip = 1, rate = 0.1, iterations = 10, conversion = "zcdp"), "conversion", "one of"),
  bad(pgbb_sigma(1, 1e-3, n = 1000, blocks = 10, clip = 1, rate = 0.1, iterations = 10, tol = 0), "tol", "strictly between"),
  bad(sigma_closed_form(1, 1e-3, n = 1000, blocks = 10, clip = 1, rate = 0.1, iterations = 10, form = "exact"), "form", "one of"),
  bad(rdp_epsilon(c(0.1, -2), orders = 2:3, delta = 1e-5), "rdp", "non-negative"),
  bad(gdp_noise_scale(-1, 1), "sensitivity", "non-negative"),
  bad(gdp_compose(), "...", "at least one"),
  bad(gdp_compose(1, -1), "...", "non-negative"),
  bad(gdp_delta(1, 1, log = NA), "log", "TRUE or FALSE"),
  bad(kappa_star(1, 1, 10, 0.1), "n", "whole number"),
  bad(kappa_star(100, 200, 10, 0.1), "m", "between 1 and 100"),
  bad(resample_indices(10, 11, 5), "m", "between 1 and 10"),
  bad(resample_indices(10, 5, 5, "wor", kappa = 2), "kappa", "NULL for mode"),
  bad(resample_indices(10, 5, 5, "wr", kappa = 0), "kappa", "at least 1"),
  bad(resample_indices(10, 5, 5, "bootstrap"), "mode", "one of"),
  bad(rblock_weights(5, 5, -1), "gamma", "positive finite"),
  bad(record_weights(c(0.5, NA), c(1, 2)), "u", "non-negative finite"),
  bad(blocked_bootstrap(x, blocks = 3, gamma = 0), "gamma", "positive finite"),
  bad(bayesian_bootstrap(x, loss = "median"), "loss", "one of \"mean\""),
  # "quantile" is a supported loss since the exact bootstraps were merged; without y it
  # must name 'y'.
  bad(bayesian_bootstrap(x, loss = "quantile"), "y", "must be given"),
  bad(pgbb_control(hidden = 0), "hidden", "whole numbers between 1 and 1e5"),
  bad(pgbb_control(lr_floor = 2), "lr_floor", "between 0 and 1"),
  bad(pgbb_control(schedule = "linear"), "schedule", "one of \"cosine\", \"harmonic\""),
  bad(pgbb_control(lr_floor = 0, schedule = "harmonic"), "lr_floor", "above 0 for the harmonic schedule"),
  bad(pgbb_control(learning_rate = 0), "learning_rate", "positive finite"),
  bad(pgbb_control(orders = 1), "orders", "between 2 and 4096"),
  bad(pgbb_control(tau_weights = -1), "tau_weights", "positive finite"),
  # A level of weight 0 is never trained, yet it would get draws.
  bad(pgbb_control(tau_weights = c(0, 1)), "tau_weights", "weight 0 would never be trained"),
  bad(pgbb_control(tau_weights = c(Inf, 1)), "tau_weights", "positive finite"),
  bad(pgbb_fit(cbind(1, x), x, loss = "quantile", tau = c(0.2, 0.8), tau_prob = c(0, 1), sigma = 0,
               iterations = 20), "tau_prob", "weight 0 would never be trained"),
  # Concatenated instead of composed: the minimum over the orders would under-state epsilon.
  bad(rdp_epsilon(c(0.1, 0.2, 0.3, 0.4), orders = c(2, 3, 2, 3), delta = 1e-5), "orders", "distinct Renyi orders \\(2, 3"),
  bad(pgbb_control(orders = c(2, 2, 3)), "orders", "distinct"),
  bad(pgbb_control(optimizer = "lbfgs"), "optimizer", "one of \"adam\", \"sgd\""),
  bad(pgbb_reference(v ~ u, df, loss = "l1"), "loss", "one of"),
  bad(audit_privacy(1, 0, 1), "mechanism", "a function"),
  bad(audit_privacy(mech, 0, 1, statistic = 2), "statistic", "a function"),
  bad(audit_privacy(mech, 0, 1, claimed = -1), "claimed", "positive finite"),
  bad(audit_privacy(function(d) NA, 0, 1, runs = 20), "statistic", "single number"),

  # ---- absurdly large requests (memory / time) ----
  bad(resample_indices(1e6, 1e6, 1e4), "B * m", "more than this function allocates"),
  bad(resample_indices(2, 2, 1e10), "B", "between 1 and 2147483647"),
  bad(rblock_weights(1e6, 1e4, 1), "k * blocks", "more than this function allocates"),
  bad(bayesian_bootstrap(x, draws = 1e10), "draws * ncol(x)", "more than this function allocates"),
  bad(blocked_bootstrap(x, draws = 1e10, blocks = 3), "draws * ncol(x)", "more than this function allocates"),
  bad(cr_gs(x, mu = 1, bounds = c(0, 1), B = 2e9), "B", "between 1 and 1e\\+08"),
  bad(cr_ss(x, mu = 1, delta = 1e-6, bounds = c(0, 1), B = 1e9), "B", "between 1 and 1e\\+08"),
  bad(cr_gs(x, list(fun = mean, sensitivity = function(N) 1 / N), mu = 1, bounds = c(0, 1), B = 1e8, m = 59), "B * m", "more than this function allocates"),
  bad(cr_dette_graw(x, mu = 1, bounds = c(0, 1), B = 1e10), "B", "between 2 and 1e\\+08"),
  bad(cr_blbquant(x, mu = 1, bounds = c(0, 1), B = 1e9), "B", "between 1 and 1e\\+06"),
  bad(dp_bootstrap(x, method = "mean", epsilon = 1, delta = 1e-3, bounds = c(0, 1), B = 1e7), "B", "between 2 and 1e\\+06"),
  # ---- DP-SGLD, formula baselines and the comparison table ----
  bad(dp_sgld(v ~ u, df, epsilon = 1, bounds = list(u = c(0, 1), .response = c(0, 1)), rate = 2), "rate", "between 0 and 1"),
  bad(dp_sgld(v ~ u, df, epsilon = 1), "bounds", "given"),
  bad(dp_sgld(v ~ u, df, epsilon = NA, bounds = list(u = c(0, 1), .response = c(0, 1))), "epsilon", "positive"),
  bad(dp_sgld(v ~ u, df, epsilon = 1, bounds = list(u = c(0, 1), .response = c(0, 1)), iterations = 1e12), "iterations", "whole number"),
  bad(dp_sgld(v ~ u, df, epsilon = 1, bounds = list(u = c(0, 1), .response = c(0, 1)), thin = 0), "thin", "whole number"),
  bad(noisy_gibbs(v ~ u, df, family = "linear", epsilon = 1), "bounds", "named list"),
  bad(dp_bootstrap(v ~ u, df, method = "mean", epsilon = 1), "x", "formula only"),
  bad(compare_private_fits(list(), truth = c(a = 1)), "fits", "named list"),
  bad(compare_private_fits(list(a = 1), truth = c(a = 1)), "fits$a", "fitted object"),
  bad(compare_private_fits(list(a = 1), truth = c(a = 1), level = 2), "level", "between 0 and 1"),
  bad(compare_private_fits(list(a = 1), truth = c(a = 1), reference = lm(yy ~ X)), "reference", "left out when 'truth'"),
  bad(compare_private_fits(list(a = 1), truth = matrix(NA_real_, 1, 1, dimnames = list("x", "0.5"))), "truth", "free of NA"),
  bad(noisy_gibbs(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 1e-3, bounds = c(0, 1), iterations = 1e12), "iterations", "between 2 and 1e\\+09"),
  bad(audit_privacy(mech, 0, 1, runs = 1e10), "runs", "between 20 and 1e\\+08"),
  bad(pgbb_rdp(1e5, n = 1000, blocks = 10, clip = 1, sigma = 1, rate = 0.1), "lambda", "between 2 and 4096"),
  # ---- inputs that would give a plausible wrong answer without a word ----
  bad(pgbb(y ~ x, d, weights = rep(1, 600), epsilon = 1, bounds = b, control = ctl), "weights", "does not support case weights"),
  bad(pgbb(y ~ x + offset(z), d, epsilon = 1, bounds = b, control = ctl), "formula", "offset"),
  bad(pgbb(y ~ x, d, iterations = 50, epsilon = 1, bounds = b), "iterations", "use control = pgbb_control\\(iterations"),
  bad(pgbb(y ~ x, d, taus = 0.9, epsilon = 1, bounds = b), "taus", "did you mean 'tau'"),
  bad(pgbb(y ~ x, d, tau = c(0.2, 0.8), epsilon = 1, bounds = b,
           control = pgbb_control(iterations = 20, tau_weights = c(1, 1, 1))), "tau_weights", "2 positive finite"),
  bad(pgbb(y ~ x, d, iteration = 9, epsilon = 1, bounds = b), "iteration", "did you mean pgbb_control\\(iterations"),
  bad(pgbb(y ~ x, d, method = "br", epsilon = 1, bounds = b), "method", "unknown argument"),
  bad(pgbb(y ~ x, d, loss = "mean", epsilon = 1, bounds = b), "formula", "y ~ 1"),
  bad(pgbb(y ~ x, d, loss = "huber", tau = 0.3, epsilon = 1, bounds = b), "tau", "only loss = \"quantile\""),
  bad(pgbb(y ~ x, d, epsilon = 1, bounds = list(x = c(-1e300, 1e300), .response = c(-5, 8))), "x", "at most 1e150"),
  bad(pgbb(y ~ x, d, epsilon = 1, bounds = list(x = c(0, 2), .response = c(-1e300, 1e300))), ".response", "at most 1e150"),
  bad(pgbb(y ~ x, d, epsilon = 1, delta = 1e-300, bounds = b), "delta", "at least 1e-100"),
  bad(pgbb(y ~ x, d, epsilon = 1e-300, bounds = b, control = ctl), "epsilon", "too small for these settings"),
  bad(pgbb(y ~ x, d[1, ], epsilon = 1, bounds = b), "data", "too small for a private fit"),
  bad(pgbb(y ~ x, d[1:5, ], epsilon = 1, bounds = b), "data", "too small for a private fit"),
  bad(pgbb(y ~ x, d[1:25, ], epsilon = 1, bounds = b), "data", "fewer than 2 record"),
  bad(pgbb_fit(as.matrix(d["x"]), d$y, loss = "quantile", epsilon = 1, delta = 1e-300, box = c(-9, 9), x_bounds = c(0, 2), y_bounds = c(-5, 8)), "delta", "at least 1e-100"),
  bad(pgbb_fit(as.matrix(d["x"])[1:30, , drop = FALSE], d$y[1:30], loss = "quantile", epsilon = 1, box = c(-9, 9), x_bounds = c(0, 2), y_bounds = c(-5, 8)), "data", "too small"),
  bad(dp_sgld(y ~ x, d, loss = "huber", tau = 0.3, epsilon = 1, bounds = b), "tau", "only loss = \"quantile\""),
  bad(pgbb_reference(y ~ x, d, loss = "mean", tau = 0.3), "tau", "only loss = \"quantile\""),
  bad(pgbb_control(iterations = 1e12), "iterations", "between 1 and 2147483647"),
  bad(pgbb_iterations(0), "n", "whole numbers of records"),
  bad(pgbb_rate(c(1000, 2.5)), "n", "whole numbers of records"),
  bad(pgbb_learning_rate(1000, epsilon = -1, joint = TRUE), "epsilon", "a single positive number"),
  bad(pgbb_control(draws = 1e10), "draws", "between 1 and 1e\\+07"),
  bad(pgbb_control(mc = 1e9), "mc", "between 1 and 10000"),
  bad(pgbb_control(hidden = 1e12), "hidden", "between 1 and 1e5"),
  bad(pgbb_control(orders = 2:1e5), "orders", "between 2 and 4096"),
  # ---- a setting that the chosen loss, estimator or plan does not read ----
  # (each ran before and was silently ignored)
  bad(pgbb_fit(as.matrix(d["x"]), d$y, loss = "quantile", epsilon = 1, box = c(-9, 9), x_bounds = c(0, 2),
               y_bounds = c(-5, 8), huber_kappa = 0.5), "huber_kappa", "loss 'quantile' does not read"),
  bad(pgbb_fit(as.matrix(d["x"]), d$y, loss = "huber", epsilon = 1, box = rbind(c(-9, 9), c(0.1, 9)),
               x_bounds = c(0, 2), level_noise = "uniform"), "level_noise", "loss 'huber' does not read"),
  bad(dp_sgld(y ~ x, d, loss = "quantile", epsilon = 1, bounds = b, huber_c = 2), "huber_c", "loss 'quantile' does not read"),
  bad(dp_sgld(y ~ x, d, loss = "huber", epsilon = 1, bounds = b, bandwidth = 0.3), "bandwidth", "loss 'huber' does not read"),
  bad(bayesian_bootstrap(X, yy, loss = "squared", huber_c = 2), "huber_c", "loss 'squared' does not read"),
  bad(blocked_bootstrap(X, yy, loss = "huber", blocks = 3, bandwidth = 0.2), "bandwidth", "loss 'huber' does not read"),
  bad(blocked_bootstrap(x, blocks = 3, scale = 2), "scale", "unknown argument"),
  bad(noisy_gibbs(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 1e-3, bounds = c(0, 1), sampler = "gibbs"),
      "sampler", "loss 'gaussian' does not read"),
  bad(noisy_gibbs(X, yy, family = "linear", sigma = 1, epsilon = 1, delta = 1e-3, bounds = c(x = 1, y = 3)),
      "sigma", "loss 'linear' does not read"),
  bad(noisy_gibbs(x, loss = c("exponential", "gaussian"), epsilon = 1, delta = 1e-3, bounds = c(0, 1)), "loss", "one of"),
  bad(noisy_gibbs(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 1e-3, bounds = c(0, 1),
                  calibration = c("classical", "analytic")), "calibration", "one of"),
  bad(dp_bootstrap(x, method = "mean", epsilon = 1, delta = 1e-3, bounds = c(0, 1), tol = 1e-6), "tol", "loss 'mean' does not read"),
  bad(dp_bootstrap(X, yy, epsilon = 1, delta = 1e-3, bounds = c(x = 1), deconvolution = list(c0 = 0.1)),
      "deconvolution", "loss 'ridge_huber' does not read"),
  bad(dp_bootstrap(x, method = "mean", epsilon = 1, delta = 1e-3, bounds = c(0, 1), calibration = c("asymptotic", "rdp")),
      "calibration", "one of"),
  bad(cr_ss(x, "ustat_product", prob = 0.3, mu = 1, delta = 1e-6, bounds = c(0, 1)), "prob", "does not use it"),
  bad(cr_ss(x, c("ustat_product", "quantile"), mu = 1, delta = 1e-6, bounds = c(0, 1)), "estimator", "\"quantile\""),
  bad(cr_ss(x, "quantile", degenerate = FALSE, mu = 1, delta = 1e-6, bounds = c(0, 1)), "degenerate", "does not use it"),
  bad(cr_ss(x, "ustat_product", C = 2, mu = 1, delta = 1e-6, bounds = c(0, 1)), "C", "does not use it"),
  bad(cr_ss(x, rho = 0.01, beta = 0.1, mu = 1, delta = 1e-6, bounds = c(0, 1)), "rho", "reads it only"),
  bad(cr_gs(x, rho = 0.01, mu = 1, bounds = c(0, 1)), "rho", "reads it only for kappa\\*"),
  bad(cr_gs(x, rho = 0.01, mode = "wor", multiplicity = "bound", mu = 1, bounds = c(0, 1)), "rho", "reads it only"),
  bad(cr_gs(x, list(fun = mean, sensitivity = function(N) 1 / N), tol = 1e-6, mu = 1, bounds = c(0, 1)), "tol",
      "user estimator"),
  bad(pgbb_reference(y ~ x, d, loss = "quantile", huber_c = 2), "huber_c", "loss 'quantile' does not read"),
  bad(pgbb_reference(y ~ x, d, loss = "huber", bootstrap = 100), "bootstrap", "loss 'huber' does not read"),
  bad(pgbb_reference(y ~ x, d, loss = "huber", huber_c = -1), "huber_c", "positive"),
  bad(pgbb_reference(y ~ x, d, loss = "mean"), "formula", "y ~ 1"),
  bad(pgbb_reference(y ~ x, d, tau = 0.0005), "tau", "farther from 0 and 1"),
  bad(pgbb_sigma(1, 1e-5, n = 1000, clip = 1, rate = 0.1, iterations = 10, accountant = "plain"), "n",
      "accountant = \"plain\", which does not read it"),
  bad(pgbb_epsilon(1, 1e-5, n = 1000, blocks = 10, gamma = 2, clip = 1, rate = 0.1, iterations = 10,
                   accountant = "worst-case"), "gamma", "worst-case weight"),
  bad(pgbb_rdp(2, clip = 1, sigma = 1, rate = 0.1, alpha = 1, accountant = "plain"), "alpha", "does not read it"),
  bad(gdp_mu(c(1, 2), c(1e-5, 1e-6, 1e-7)), "delta", "of length 1 or of the length of 'epsilon'"),
  bad(gdp_delta(c(1, 2, 3), c(1, 2)), "epsilon", "of length 1"),
  bad(gdp_epsilon(c(1, 2), c(1e-5, 1e-6, 1e-7)), "delta", "of length 1"),
  bad(gdp_noise_scale(c(1, 2, 3), c(1, 2)), "mu", "of length 1"),
  bad(cr_blbquant(x, prob = "a", mu = 1, bounds = c(0, 1)), "prob", "estimator \"mean\", which does not use it"),
  bad(cr_dette_graw(x, "ustat_product", prob = 0.2, mu = 1, bounds = c(0, 1)), "prob", "does not use it"),
  bad(pgbb(X, yy, formula = yy ~ a, epsilon = 1, bounds = list(a = c(-1, 1), b = c(-1, 1), .response = c(-3, 3))),
      "formula", "left out of pgbb\\(x, y, ...\\)"),
  bad(dp_sgld(X, yy, data = df, epsilon = 1, bounds = list(a = c(-1, 1), b = c(-1, 1), .response = c(-3, 3))),
      "data", "left out of dp_sgld\\(x, y, ...\\)")
)

run_bad_case <- function(case) {
  warns <- character(0)
  err <- NULL
  value <- withCallingHandlers(
    tryCatch(eval(case$call, bad_input_env), error = function(e) { err <<- e; NULL }),
    warning = function(w) { warns <<- c(warns, conditionMessage(w)); invokeRestart("muffleWarning") })
  list(error = err, warnings = warns, value = value)
}

test_that("the bad-input table is large and every case names an argument", {
  expect_gte(length(bad_input_cases), 40)
  for (case in bad_input_cases) {
    expect_true(is.call(case$call))
    expect_true(is.character(case$arg) && nzchar(case$arg))
  }
  # Every exported function except the three built elsewhere appears in the table.
  exported <- setdiff(getNamespaceExports("pgbb"), c("pgbb", "pgbb_fit", "posterior_draws"))
  called <- unique(vapply(bad_input_cases, function(cs) as.character(cs$call[[1L]]), ""))
  expect_setequal(intersect(exported, called), exported)
})

test_that("every bad input gives a clear R error naming the argument, and nothing else", {
  for (case in bad_input_cases) {
    lab <- paste(deparse(case$call, width.cutoff = 500L), collapse = " ")
    res <- run_bad_case(case)
    expect_false(is.null(res$error), label = paste("an error from", lab))
    if (is.null(res$error)) next
    msg <- conditionMessage(res$error)
    # Named in quotes ('delta') or as a setting (calibration = "classical").
    names_arg <- grepl(sprintf("'%s'", case$arg), msg, fixed = TRUE) ||
      grepl(sprintf("%s = ", case$arg), msg, fixed = TRUE)
    expect_true(names_arg,
                label = sprintf("%s: message names '%s' (got: %s)", lab, case$arg, msg))
    expect_match(msg, case$error, label = lab)
    # Library or internal messages are not clear errors.
    expect_false(grepl("std::|bad_alloc|max_size|internal error|NAs introduced", msg),
                 label = sprintf("%s: not an internal message (%s)", lab, msg))
    if (is.null(case$warning)) {
      expect_identical(res$warnings, character(0), label = paste("warnings from", lab))
    } else {
      expect_true(any(grepl(case$warning, res$warnings)), label = paste("expected warning from", lab))
    }
  }
})

# ---- documented behaviour of inputs that are not errors ---------------------

test_that("data outside the declared bounds are clipped: same release as the clipped data", {
  x <- bad_input_env$x
  x_out <- c(x[-(1:3)], -50, 2.5, 1e6)   # three records outside [0, 1]
  x_clip <- pmin(pmax(x_out, 0), 1)
  strip <- function(o) { o$call <- NULL; o }
  same <- function(f) {
    set.seed(3); a <- strip(quiet_zero_radius(f(x_out)))
    set.seed(3); b <- strip(quiet_zero_radius(f(x_clip)))
    expect_identical(a, b)
  }
  same(function(d) cr_gs(d, mu = 2, bounds = c(0, 1), B = 50))
  same(function(d) cr_ss(d, mu = 2, delta = 1e-6, bounds = c(0, 1), B = 50, mode = "wor"))
  same(function(d) cr_dette_graw(d, mu = 2, bounds = c(0, 1), B = 50))
  same(function(d) cr_blbquant(d, mu = 2, bounds = c(0, 1), B = 10))
  same(function(d) noisy_gibbs(d, family = "gaussian", sigma = 1, epsilon = 1, delta = 1e-3,
                               bounds = c(0, 1), iterations = 200))
  same(function(d) dp_bootstrap(d, method = "mean", epsilon = 1, delta = 1e-3, bounds = c(0, 1), B = 30))
  expect_identical(smooth_sensitivity_quantile(x_out, 0.5, 0.1, c(0, 1)),
                   smooth_sensitivity_quantile(x_clip, 0.5, 0.1, c(0, 1)))
})

test_that("choice arguments still match partially and take their defaults", {
  set.seed(1)
  a <- resample_indices(10, 4, 2, "wo")
  expect_true(all(apply(a, 1, function(r) !anyDuplicated(r))))
  expect_identical(pgbb_control(optimizer = "s")$optimizer, "sgd")
  expect_identical(pgbb_control()$accountant, "dirichlet")
  v <- pgbb_rdp(2, n = 1000, blocks = 10, clip = 1, sigma = 1, rate = 0.1, accountant = "worst")
  expect_identical(v, pgbb_rdp(2, n = 1000, blocks = 10, clip = 1, sigma = 1, rate = 0.1,
                               accountant = "worst-case"))
})

test_that("a user-supplied scale tau_N is accepted (it was shadowed by the quantile-level check)", {
  set.seed(2)
  x <- bad_input_env$x
  f <- cr_gs(x, list(fun = "mean", tau = function(N) sqrt(N)), mu = 2, bounds = c(0, 1), B = 40)
  expect_s3_class(f, "private_cr")
  expect_equal(f$scale, sqrt(length(x)))
  g <- quiet_zero_radius(cr_gs(x, list(fun = function(d) mean(d), sensitivity = function(N) 1 / N,
                                       tau = function(N) N), mu = 2, bounds = c(0, 1), B = 40))
  expect_equal(g$scale, length(x))
  h <- quiet_zero_radius(cr_ss(x, list(fun = stats::median, smooth_sensitivity = function(d, beta) 1,
                                       tau = function(N) sqrt(N)), mu = 2, delta = 1e-6, bounds = c(0, 1),
                                B = 40, mode = "wor"))
  expect_s3_class(h, "private_cr")
})

test_that("non-private bootstraps keep their column names (a shadowed helper dropped them)", {
  set.seed(4)
  expect_identical(colnames(bayesian_bootstrap(rnorm(30), draws = 5)$draws), "mean")
  expect_identical(colnames(blocked_bootstrap(rnorm(30), draws = 5, blocks = 3)$draws), "mean")
})

test_that("extreme but valid budgets give valid answers, not errors", {
  # gdp_mu for a tiny target: the true delta of the returned mu (at eps = 0,
  # 2 Phi(mu / 2) - 1 = mu dnorm(0) (1 + O(mu^2))) must not exceed the target.
  for (d in c(1e-14, 1e-20, 1e-200)) {
    mu <- gdp_mu(0, d)
    expect_gt(mu, 0)
    expect_lte(mu * stats::dnorm(0), d * (1 + 1e-9))
  }
  expect_identical(gdp_epsilon(1e300, 0.1), Inf)   # no finite equivalent: Inf, not an error
  set.seed(5)
  x <- bad_input_env$x
  f <- cr_gs(x, mu = 1e300, bounds = c(0, 1), B = 30)
  expect_identical(f$privacy$epsilon, Inf)
  g <- cr_blbquant(x, mu = 1e-8, bounds = c(0, 1), B = 5)
  expect_s3_class(g, "private_cr")
  expect_lte(gdp_mu(0, 1e-20) / 1e-20, sqrt(2 * pi) * (1 + 1e-9))
})

test_that("non-private reference drops incomplete records as lm() does", {
  d <- data.frame(u = 1:6, v = c(1, 2, NA, 4, 5, 7))
  r <- pgbb_reference(v ~ 1, d, loss = "mean")
  expect_identical(r$n, 5L)
})

test_that("no internal helper is defined twice across R/ (the later file silently wins)", {
  root <- pgbb_source_root()
  skip_if(is.null(root), "package sources not available")
  files <- list.files(file.path(root, "R"), pattern = "[.]R$", full.names = TRUE)
  defs <- unlist(lapply(files, function(f) {
    ex <- parse(f, keep.source = FALSE)
    nm <- vapply(ex, function(e) {
      if (is.call(e) && (identical(e[[1L]], as.name("<-")) || identical(e[[1L]], as.name("="))) &&
          is.name(e[[2L]]) && is.call(e[[3L]]) && identical(e[[3L]][[1L]], as.name("function")))
        as.character(e[[2L]]) else NA_character_
    }, "")
    stats::setNames(nm[!is.na(nm)], rep(basename(f), sum(!is.na(nm))))
  }))
  # Identical copies (e.g. `%||%`) are harmless; different bodies under one name are not.
  bodies <- unlist(lapply(files, function(f) {
    ex <- parse(f, keep.source = FALSE)
    ok <- vapply(ex, function(e) is.call(e) && (identical(e[[1L]], as.name("<-")) || identical(e[[1L]], as.name("="))) &&
                   is.name(e[[2L]]) && is.call(e[[3L]]) && identical(e[[3L]][[1L]], as.name("function")), TRUE)
    vapply(ex[ok], function(e) paste(deparse(e[[3L]]), collapse = "\n"), "")
  }))
  dup <- unique(defs[duplicated(defs)])
  dup <- dup[vapply(dup, function(d) length(unique(bodies[defs == d])) > 1L, TRUE)]
  expect_identical(dup, character(0),
                   label = paste("defined more than once:", paste(sprintf("%s (%s)", dup,
                     vapply(dup, function(d) paste(names(defs)[defs == d], collapse = ", "), "")), collapse = "; ")))
})

test_that("cr_gs gives the SGD step exponent 'a' to the estimator, not to 'alpha' (partial matching)", {
  env <- bad_input_env
  fit <- function(...) { set.seed(8); quiet_zero_radius(cr_gs(env$X, "sgd_logistic", y = env$yb, lambda = 1,
                                                              radius = 2, mu = 2, bounds = c(-1, 1), B = 20, ...)) }
  a6 <- fit(a = 0.6)
  a9 <- fit(a = 0.9)
  expect_equal(a6$level, 0.9)                       # alpha keeps its default
  expect_false(identical(a6$description, a9$description))  # t0 of (18) depends on a
  both <- fit(a = 0.6, alpha = 0.2)
  expect_equal(both$level, 0.8)
  expect_identical(both$description, a6$description)
})

test_that("bounds on a categorical covariate or its dummies are refused: they would not be read", {
  set.seed(4)
  d <- data.frame(x = runif(300), g = factor(sample(c("a", "b", "c"), 300, TRUE)), l = runif(300) > 0.5)
  d$y <- d$x + rnorm(300)
  b <- list(x = c(0, 1), .response = c(-5, 6))
  ctl <- pgbb_control(iterations = 20, draws = 20, runs = 1)
  for (extra in list(list(g = c(0, 100)), list(gb = c(-3, 3)), list(l = c(0, 1)), list(lTRUE = c(0, 1)))) {
    expect_error(pgbb(y ~ x + g + l, d, epsilon = 1, bounds = c(b, extra), control = ctl),
                 sprintf("^'bounds' must be numeric ranges only: '%s' is categorical", names(extra)))
  }
  # A data column the model does not use may still carry bounds (one list, several formulas).
  fit <- suppressWarnings(pgbb(y ~ x + g, d, epsilon = 1, bounds = c(b, list(l = c(0, 1))), control = ctl))
  expect_s3_class(fit, "pgbb")
})
