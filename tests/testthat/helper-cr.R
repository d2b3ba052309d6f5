# Helpers for the confidence-region tests: the non-private pre-noise statistics
# on a fixed realisation of the resample indices (the privacy proofs of the CR
# paper, Lemma D.1 and Appendix F.2, fix the indices and compare neighbours).

gs_spec <- function(x, est, bounds, ...) pgbb:::.cr_gs_spec(est, x, bounds, list(...))
ss_spec <- function(x, est, bounds, prob = 0.5, ...) pgbb:::.cr_ss_spec(est, x, prob, bounds, list(...))

gs_Q <- function(spec, plan, seed, alpha = 0.1) {
  st <- pgbb:::.cr_gs_stats(spec, plan, seed)
  list(theta = st$theta_hat, Q = spec$tau(plan$m) * pgbb:::cpp_upper_quantile(st$dist, alpha), st = st)
}

# Records ordered by how often they appear across the resamples of `seed`
# (the most adversarial records to move come first).
busiest_records <- function(plan, seed, k = 3) {
  idx <- pgbb:::cpp_resample_indices(plan$n, plan$m, plan$B, plan$mode, plan$check, seed)$indices
  head(order(-tabulate(idx, plan$n)), k)
}

fixed_seed <- function() fixed_key(123456789)  # fixed_key(): helper-pgbb.R

# Small-B, small-mu test releases often have a radius of 0 (the privacy noise
# exceeds the resampling quantile), which cr_*() rightly warns about; the tests
# that only check routing or determinism muffle that one warning and no other.
# Coverage studies of CR-SS with replacement are where the radius noise dominates
# (the point of the pgbb_radius_noise warning); they muffle it, and only it.
quiet_radius_noise <- function(expr) {
  withCallingHandlers(expr, pgbb_radius_noise = function(w) invokeRestart("muffleWarning"))
}

quiet_zero_radius <- function(expr) {
  withCallingHandlers(expr, warning = function(w) {
    if (grepl("the released radius is 0", conditionMessage(w), fixed = TRUE)) invokeRestart("muffleWarning")
  })
}
