# Formula methods of the matrix baselines: noisy_gibbs(loss = "linear") and
# dp_bootstrap(loss = "ridge_huber") accept `formula, data` with pgbb()-style
# bounds (a named list of public ranges, `.response` for the response). The design
# is built by the pgbb front end (R/pgbb.R, R/design.R): covariates scaled into the
# unit box with the DECLARED ranges, so |z_ij| <= 1 and the matrix method runs with
# B_x = 1; the response is clipped to its declared range. Nothing is derived from the
# data. Coefficient draws are mapped back to the original units by the fixed linear
# map of .unscale_matrix() (post-processing).

.formula_design <- function(formula, data, bounds, caller) {
  if (missing(bounds) || is.null(bounds) || !is.list(bounds))
    .arg_fail("bounds", paste0("a named list of public ranges for the formula interface, e.g. ",
                               "bounds = list(x = c(0, 10), .response = c(-5, 5))"))
  .check_bounds_list(bounds)
  cl <- as.call(list(as.name(caller), formula = formula, data = data))
  frame <- .pgbb_model_frame(cl, formula, data, parent.frame(), private = TRUE)
  design <- .pgbb_design(frame, bounds, "huber", private = TRUE)
  .clip_message(design$clipped, "data", "bounds", paste0(caller, "()"))
  # With an intercept the response is centred at the midpoint of its public range,
  # which halves its bound (B_y = half-width) and is undone on the intercept.
  yb <- design$y_bounds
  design$y_shift <- if (design$intercept) mean(yb) else 0
  design$y_bound <- if (design$intercept) diff(yb) / 2 else max(abs(yb))
  if (!(design$y_bound > 0)) .arg_fail("bounds", "a response range of positive width (.response = c(lower, upper))")
  colnames(design$Z) <- design$coefnames
  design$A <- .unscale_matrix(design$maps, design$coefnames)
  design
}

# The checks of every formula method of a matrix baseline, before the design.
.check_baseline_formula <- function(formula, data, loss, supported, caller, data_missing, epsilon_missing) {
  if (loss != supported) .arg_fail("x", sprintf("a formula only for loss = \"%s\"", supported))
  if (data_missing) .arg_fail("data", "the data frame of the formula's variables")
  .formula_offset_check(.formula_terms_quiet(formula, data), caller)
  if (epsilon_missing) .arg_fail("epsilon", "given (the total privacy budget)")
  invisible(TRUE)
}

# Draws on the scaled, centred design -> original units (first p columns).
.formula_map_draws <- function(draws, design) {
  p <- length(design$coefnames)
  draws[, seq_len(p)] <- draws[, seq_len(p), drop = FALSE] %*% t(design$A)
  int <- .intercept_column(design)
  if (length(int)) draws[, int] <- draws[, int] + design$y_shift
  draws
}

.ng_formula <- function(formula, data, epsilon, delta, bounds, call, ...) {
  design <- .formula_design(formula, data, bounds, "noisy_gibbs")
  n <- nrow(design$Z)
  if (is.null(delta)) delta <- .default_delta(n)
  fit <- noisy_gibbs(design$Z, design$y - design$y_shift, loss = "linear", epsilon = epsilon,
                     delta = delta, bounds = c(x = 1, y = design$y_bound), ...)
  fit$draws <- .formula_map_draws(fit$draws, design)
  fit$details$formula <- list(A = design$A, y_shift = design$y_shift, y_bound = design$y_bound,
                              column_bounds = design$cb)
  fit$title <- paste0(fit$title, " (formula interface: unit-box design, results in original units)")
  fit$call <- .formula_release_call(call, "noisy_gibbs")
  fit
}

.dpb_formula <- function(formula, data, epsilon, delta, bounds, level, call, ...) {
  design <- .formula_design(formula, data, bounds, "dp_bootstrap")
  n <- nrow(design$Z)
  if (is.null(delta)) delta <- .default_delta(n)
  fit <- dp_bootstrap(design$Z, design$y - design$y_shift, loss = "ridge_huber", epsilon = epsilon,
                      delta = delta, bounds = c(x = 1), level = level, ...)
  p <- length(design$coefnames)
  fit$draws <- .formula_map_draws(fit$draws, design)
  # The output noise N(0, sigma_e^2 I) becomes N(0, sigma_e^2 A A') on the original
  # scale: the per-coordinate noise sd enters the Algorithm 2 interval.
  sig <- rep(fit$details$sigma_e, ncol(fit$draws))
  sig[seq_len(p)] <- fit$details$sigma_e * sqrt(rowSums(design$A^2))
  fit$details$sigma_e <- sig
  iv <- .dpb_huber_interval(fit$draws, sig, level)
  fit$estimate <- iv$estimate
  fit$se <- iv$se
  fit$interval <- iv$interval
  fit$details$sampling_sd <- iv$sampling_sd
  fit$details$formula <- list(A = design$A, y_shift = design$y_shift, column_bounds = design$cb)
  fit$title <- paste0(fit$title, " (formula interface: unit-box design, results in original units)")
  fit$call <- .formula_release_call(call, "dp_bootstrap")
  fit
}

# The stored call of a formula method whose formula argument is the generic's
# `x`: under the generic's name, with the formula as `formula =`, so that
# formula(fit) finds it (and .release_call(), which blanks a value given for
# `x` as data, keeps it).
.formula_release_call <- function(call, generic) {
  nms <- names(call)
  nms[nms == "x"] <- "formula"
  names(call) <- nms
  call[[1L]] <- as.name(generic)
  .release_call(call, generic)
}
