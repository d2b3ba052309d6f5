# Losses known to the trainer and the exact bootstraps (src/core/losses.h), and
# the public quantities that define them. Internal helpers.

.pgbb_losses <- c("huber", "quantile", "mean", "exponential", "logistic", "squared")

# Losses whose argmin depends on a response y.
.loss_needs_y <- function(loss) loss %in% c("huber", "quantile", "logistic", "squared")

# Dimension of theta: p coefficients, plus the scale for Huber regression.
.loss_dim <- function(loss, p) if (loss == "huber") p + 1L else p

.coef_names <- function(loss, xnames) {
  if (loss != "huber") return(xnames)
  if ("scale" %in% xnames) .arg_fail("x", "without a column named 'scale' (the name of the Huber scale)")
  c(xnames, "scale")
}

# Coordinates that are positive scales (mapped on the log scale by the generator).
.loss_log_coords <- function(loss, d) {
  out <- rep(FALSE, d)
  if (loss == "huber") out[d] <- TRUE
  if (loss == "exponential") out[] <- TRUE
  out
}

.loss_spec <- function(loss, p, huber_c = 1.345, huber_kappa = 0.71, bandwidth = 0.1, scale = 1) {
  list(name = loss, p = as.integer(p), huber_c = as.numeric(huber_c),
       huber_kappa = as.numeric(huber_kappa), bandwidth = as.numeric(bandwidth),
       scale = as.numeric(scale))
}

# Loss settings shown to the user and stored in a fit.
.loss_settings <- function(spec) {
  switch(spec$name,
         huber = list(huber_c = spec$huber_c, huber_kappa = spec$huber_kappa),
         quantile = list(bandwidth = spec$bandwidth),
         mean = list(scale = spec$scale),
         list())
}

.loss_label <- function(loss) {
  switch(loss,
         huber = "Huber regression with scale",
         quantile = "convolution-smoothed quantile regression",
         mean = "Gaussian mean (known scale), clipped score",
         exponential = "Exponential mean, clipped log-scale score",
         logistic = "logistic regression",
         squared = "least squares, clipped score")
}

# The loss-specific settings and the losses that read them. Given with another
# loss a setting would be ignored while the call reads as if it mattered, so it
# is an error (.refuse_unread_settings()).
.loss_setting_readers <- list(huber_c = "huber", huber_kappa = "huber", bandwidth = "quantile",
                              scale = "mean", tau_prob = "quantile", tau_weights = "quantile",
                              tau_basis = "quantile", level_interactions = "quantile",
                              level_noise = "quantile")

# The settings among `nms` that `readers` (setting -> losses that read it) says
# loss `loss` does not read.
.unread_settings <- function(nms, loss, readers = .loss_setting_readers) {
  nms[vapply(nms, function(nm) nm %in% names(readers) && !(loss %in% readers[[nm]]), logical(1))]
}

# `given`: the names of the arguments the caller wrote (names(match.call())).
# An argument whose value in `env` (the caller's frame) is NULL counts as not
# given: NULL is every such setting's "unset".
.refuse_unread_settings <- function(given, loss, fun, readers = .loss_setting_readers, env = parent.frame()) {
  for (nm in .unread_settings(given, loss, readers)) {
    if (exists(nm, envir = env, inherits = FALSE) && is.null(get(nm, envir = env, inherits = FALSE))) next
    stop(sprintf("%s(): '%s' is a setting of loss %s, which loss '%s' does not read; remove it.",
                 fun, nm, paste0("'", readers[[nm]], "'", collapse = " or "), loss), call. = FALSE)
  }
  invisible(TRUE)
}

# A control object may be shared by fits of several losses (one pgbb_control()
# for a Huber and a quantile fit), so its settings that this fit's loss does not
# read are named in a warning rather than refused.
.warn_unread_control <- function(given, loss) {
  unread <- .unread_settings(given, loss)
  if (length(unread))
    warning(sprintf("pgbb(): %s of 'control' %s not read by loss '%s' (%s) and %s no effect on this fit.",
                    paste0("'", unread, "'", collapse = ", "), if (length(unread) > 1L) "are" else "is", loss,
                    paste(vapply(unread, function(nm) sprintf("a setting of loss '%s'", .loss_setting_readers[[nm]]), ""),
                          collapse = "; "),
                    if (length(unread) > 1L) "have" else "has"), call. = FALSE)
  invisible(unread)
}

# A front end's argument list for a loss, without the settings it does not read
# (which the front end fills in from its control for every loss).
.drop_unread_settings <- function(args, loss) {
  args[setdiff(names(args), .unread_settings(names(args), loss))]
}

# Validates the loss-specific settings passed through `...` or named arguments.
.check_loss_settings <- function(huber_c, huber_kappa, bandwidth, scale) {
  .check_positive(huber_c, "huber_c")
  .check_positive(huber_kappa, "huber_kappa")
  .check_positive(bandwidth, "bandwidth")
  .check_positive(scale, "scale")
  invisible(TRUE)
}

# The quantile levels: NULL for losses without a level; for "quantile" a grid
# in (0, 1), the default 0.5.
.check_tau <- function(tau, loss) {
  if (loss != "quantile") {
    if (!is.null(tau)) .arg_fail("tau", sprintf("NULL for loss '%s' (it has no level)", loss))
    return(0.5)
  }
  if (is.null(tau)) return(0.5)
  if (!is.numeric(tau) || length(tau) == 0L || anyNA(tau) || any(tau <= 0 | tau >= 1))
    .arg_fail("tau", "a vector of quantile levels strictly between 0 and 1")
  if (anyDuplicated(tau)) .arg_fail("tau", "a vector of distinct levels")
  sort(as.numeric(tau))
}
