# Shared helpers for the tests.

# Slow statistical tests run in the project's own test command (tools/test.sh sets
# PGBB_SLOW_TESTS=true) and are skipped under R CMD check / CRAN.
skip_if_not_slow <- function() {
  if (!identical(tolower(Sys.getenv("PGBB_SLOW_TESTS")), "true"))
    testthat::skip("slow test: set PGBB_SLOW_TESTS=true to run")
}

rng_sample <- function(kind, n, par = numeric(0)) {
  pgbb:::cpp_rng_sample(kind, n, as.numeric(par), pgbb:::.rng_seed())
}

# Tiny test fits (a few hundred iterations split over five runs) are dominated
# by their privacy noise and stop before their released gradients settle, which
# pgbb() rightly warns about; tests that are not about those two warnings muffle
# them, and only them.
quiet_noise <- function(expr) {
  withCallingHandlers(expr,
                      pgbb_noise_dominates = function(w) invokeRestart("muffleWarning"),
                      pgbb_unsettled = function(w) invokeRestart("muffleWarning"))
}

# A fixed engine key (eight 32-bit words, R/rng.R) for calls into the C++ glue
# that must not depend on R's stream.
fixed_key <- function(k) as.numeric(k + 0:7)

# One stored generator (weights `layers`) at block weights U and level tau
# (numeric(0) when not joint): cpp_generator_eval() evaluates a fit's runs
# together, here a single one, on one thread.
eval_generator <- function(generator, layers, U, tau) {
  pgbb:::cpp_generator_eval(generator, list(layers), U, tau, 1L)[[1L]]
}

# Temporarily replaces an internal function of the installed package (what
# testthat::local_mocked_bindings does in testthat >= 3.1.7), restoring it on exit.
with_pgbb_binding <- function(name, value, code) {
  ns <- asNamespace("pgbb")
  old <- get(name, envir = ns, inherits = FALSE)
  unlockBinding(name, ns)
  assign(name, value, envir = ns)
  on.exit({
    assign(name, old, envir = ns)
    lockBinding(name, ns)
  }, add = TRUE)
  force(code)
}
