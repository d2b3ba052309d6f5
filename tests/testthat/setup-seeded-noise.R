# The suite opts in to seeded noise so that set.seed() makes every test
# deterministic (see R/rng.R). Releases from real data must not do this; the
# tests of the default, OS-keyed engine (test-rng.R) switch the option off.
local({
  old <- options(pgbb.seeded_noise = TRUE)
  withr::defer(options(old), teardown_env())
})
