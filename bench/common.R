# Shared helpers for the benchmarks. Timings live here, never in tests.

# Median elapsed seconds over `reps` runs of f().
time_median <- function(f, reps = 3L) {
  t <- vapply(seq_len(reps), function(i) {
    gc(FALSE)
    system.time(f())[["elapsed"]]
  }, numeric(1))
  stats::median(t)
}

# One benchmark case: ours vs the alternative a user would otherwise run, timed
# side by side in the same process.
bench_case <- function(case, ours, alternative = NULL, alt_name = NA_character_,
                       settings = "", target = NA_real_, reps = 3L) {
  t_ours <- time_median(ours, reps)
  t_alt <- if (is.null(alternative)) NA_real_ else time_median(alternative, reps)
  data.frame(case = case, ours_s = t_ours, alternative = alt_name, alt_s = t_alt,
             ratio = t_alt / t_ours, target_s = target,
             met = if (is.na(target)) NA else t_ours <= target,
             settings = settings, stringsAsFactors = FALSE)
}

machine_info <- function() {
  cpu <- tryCatch({
    l <- grep("^model name", readLines("/proc/cpuinfo"), value = TRUE)[1]
    trimws(sub("^model name\\s*:", "", l))
  }, error = function(e) NA_character_)
  cxx <- tryCatch(system2("g++", "--version", stdout = TRUE)[1], error = function(e) NA_character_)
  sprintf("CPU: %s; cores: %d; %s; compiler: %s", cpu, parallel::detectCores(),
          R.version.string, cxx)
}

print_bench_table <- function(tab) {
  fmt <- function(x) ifelse(is.na(x), "-", formatC(x, format = "g", digits = 3))
  out <- data.frame(case = tab$case, ours_s = fmt(tab$ours_s), alternative = tab$alternative,
                    alt_s = fmt(tab$alt_s), ratio = fmt(tab$ratio), target_s = fmt(tab$target_s),
                    met = ifelse(is.na(tab$met), "-", ifelse(tab$met, "yes", "NO")),
                    settings = tab$settings)
  print(out, row.names = FALSE, right = FALSE)
}
