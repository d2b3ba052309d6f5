# Shared helpers for the benchmarks. Timings live here, never in tests.
#
# Every timing is the median over BENCH_RUNS runs (default 3) of both the
# elapsed (wall) time and the CPU time (user + system, including waited-for
# child processes). The machine these run on is shared, so the elapsed time
# includes waiting for a core; the CPU time is what the computation itself
# costs on one core, and it is what targets and ratios are judged on (all our
# code and all alternatives run single-threaded; see machine_info()).

bench_runs <- function() max(1L, as.integer(Sys.getenv("BENCH_RUNS", "3")))

# BENCH_QUICK=1: smaller sizes, to smoke-test the runner in a minute or two.
bench_quick <- function() identical(Sys.getenv("BENCH_QUICK"), "1")

# Size for the full suite, or for BENCH_QUICK=1.
bench_size <- function(full, quick) if (bench_quick()) quick else full

# Whether a case is selected by run.R's --only=<pattern> (a regular expression
# matched against the case name, case-insensitively).
bench_wanted <- function(case) {
  pat <- getOption("pgbb.bench.only")
  is.null(pat) || grepl(pat, case, ignore.case = TRUE)
}

# One timing: c(elapsed, cpu) in seconds, of `inner` calls of f() divided by
# `inner` (for calls of a few milliseconds, below the clock's resolution).
time_once <- function(f, inner = 1L) {
  gc(FALSE)
  t <- system.time(for (i in seq_len(inner)) f()) / inner
  cpu <- sum(t[c("user.self", "sys.self")]) +
    sum(t[intersect(c("user.child", "sys.child"), names(t))], na.rm = TRUE)
  c(elapsed = t[["elapsed"]], cpu = cpu)
}

# Median elapsed and CPU seconds over `reps` runs of f() (after one untimed
# warm-up run if `warmup`, for sub-second cases where first-call costs such as
# lazy loading would otherwise dominate).
time_median <- function(f, reps = bench_runs(), warmup = FALSE, inner = 1L) {
  if (warmup) f()
  t <- vapply(seq_len(reps), function(i) time_once(f, inner), c(elapsed = 0, cpu = 0))
  apply(t, 1, stats::median)
}

# One table row from timings already measured (c(elapsed, cpu) vectors).
# target: seconds of CPU time for `ours`; target_ratio: minimum speed-up over
# the alternative (CPU time). note: extra text after the settings.
bench_row <- function(case, ours, alt = NULL, alt_name = NA_character_, settings = "",
                      target = NA_real_, target_ratio = NA_real_, note = "") {
  if (is.null(alt)) alt <- c(elapsed = NA_real_, cpu = NA_real_)
  ratio <- alt[["cpu"]] / ours[["cpu"]]
  met <- NA
  tgt <- "-"
  if (!is.na(target)) {
    tgt <- sprintf("< %g s", target)
    met <- ours[["cpu"]] < target
  } else if (!is.na(target_ratio)) {
    tgt <- sprintf(">= %gx", target_ratio)
    met <- ratio >= target_ratio
  }
  # Judged on CPU time (one core's work); say so when wall time misses.
  met_txt <- if (is.na(met)) "-" else if (!met) "NO" else if (!is.na(target) &&
    ours[["elapsed"]] >= target) "yes (CPU; wall no)" else "yes"
  data.frame(case = case, ours_wall_s = ours[["elapsed"]], ours_cpu_s = ours[["cpu"]],
             alternative = alt_name, alt_wall_s = alt[["elapsed"]], alt_cpu_s = alt[["cpu"]],
             ratio = ratio, target = tgt, met = met_txt,
             settings = if (nzchar(note)) paste0(settings, "; ", note) else settings,
             stringsAsFactors = FALSE)
}

# One benchmark case: ours vs the alternative a user would otherwise run, timed
# side by side in the same process. `note` may be a function of the median
# c(elapsed, cpu) of `ours` returning text (e.g. a per-iteration cost).
# inner: calls per timing (the time is divided by it), for millisecond calls.
# alt_scale multiplies the alternative's times (for an alternative measured at
# a fraction of its size; the name must then say so). Returns NULL when the
# case is not selected by --only.
bench_case <- function(case, ours, alternative = NULL, alt_name = NA_character_,
                       settings = "", target = NA_real_, reps = bench_runs(),
                       target_ratio = NA_real_, note = "", warmup = FALSE, alt_scale = 1,
                       inner = 1L) {
  if (!bench_wanted(case)) return(NULL)
  cat(sprintf("  %s ...\n", case))
  t_ours <- time_median(ours, reps, warmup, inner)
  t_alt <- if (is.null(alternative)) NULL else alt_scale * time_median(alternative, reps, warmup, inner)
  if (is.function(note)) note <- note(t_ours)
  bench_row(case, t_ours, t_alt, alt_name, settings, target, target_ratio, note)
}

# Peak resident memory of this process so far (VmHWM, bytes), and the current
# resident memory (VmRSS). Linux only; NA elsewhere.
proc_mem <- function() {
  st <- tryCatch(readLines("/proc/self/status"), error = function(e) character(0))
  get <- function(key) {
    l <- grep(paste0("^", key, ":"), st, value = TRUE)
    if (!length(l)) return(NA_real_)
    1024 * as.numeric(sub("^[^:]+:\\s*([0-9]+).*$", "\\1", l[1]))
  }
  c(hwm = get("VmHWM"), rss = get("VmRSS"))
}

# Resets VmHWM to the current RSS (Linux >= 4.0), so a later VmHWM is the peak
# of what ran after this call. Returns FALSE if the kernel refused.
reset_peak_rss <- function() {
  tryCatch({
    cat("5", file = "/proc/self/clear_refs")
    TRUE
  }, error = function(e) FALSE, warning = function(w) FALSE)
}

load_average <- function() {
  tryCatch(paste(strsplit(readLines("/proc/loadavg", warn = FALSE), " ")[[1]][1:3], collapse = " "),
           error = function(e) "?")
}

machine_info <- function() {
  cpu <- tryCatch({
    l <- grep("^model name", readLines("/proc/cpuinfo"), value = TRUE)[1]
    trimws(sub("^model name\\s*:", "", l))
  }, error = function(e) NA_character_)
  # The compiler R builds packages with (R CMD config CXX17), and its version.
  r_bin <- file.path(R.home("bin"), "R")
  cxx <- tryCatch(system2(r_bin, c("CMD", "config", "CXX17"), stdout = TRUE, stderr = FALSE)[1],
                  error = function(e) "g++", warning = function(w) "g++")
  cxx_prog <- strsplit(trimws(cxx), "\\s+")[[1]][1]
  cxx_ver <- tryCatch(system2(cxx_prog, "--version", stdout = TRUE, stderr = FALSE)[1],
                      error = function(e) NA_character_, warning = function(w) NA_character_)
  flags <- tryCatch(system2(r_bin, c("CMD", "config", "CXX17FLAGS"), stdout = TRUE, stderr = FALSE)[1],
                    error = function(e) "", warning = function(w) "")
  flags <- paste(grep("^-(O|march|mtune|ffast)", strsplit(flags, "\\s+")[[1]], value = TRUE),
                 collapse = " ")
  blas <- tryCatch(basename(extSoftVersion()[["BLAS"]]), error = function(e) "?")
  sprintf(paste0("CPU: %s; cores: %d (logical); %s; compiler: %s (%s; flags %s); BLAS: %s; ",
                 "load average at start: %s"),
          cpu, parallel::detectCores(), R.version.string, cxx_ver, cxx, flags,
          if (nzchar(blas)) blas else "R's reference BLAS", load_average())
}

print_bench_table <- function(tab) {
  fmt <- function(x) ifelse(is.na(x), "-", formatC(x, format = "g", digits = 3))
  out <- data.frame(case = tab$case,
                    `ours CPU s` = fmt(tab$ours_cpu_s), `ours wall s` = fmt(tab$ours_wall_s),
                    alternative = ifelse(is.na(tab$alternative), "-", tab$alternative),
                    `alt CPU s` = fmt(tab$alt_cpu_s), `alt wall s` = fmt(tab$alt_wall_s),
                    `ratio (CPU)` = fmt(tab$ratio), target = tab$target, met = tab$met,
                    settings = tab$settings, check.names = FALSE)
  if (requireNamespace("knitr", quietly = TRUE)) {
    cat(knitr::kable(out, format = "pipe", align = c("l", rep("r", 2), "l", rep("r", 3), "l", "l", "l")),
        sep = "\n")
  } else {
    print(out, row.names = FALSE, right = FALSE)
  }
  invisible(out)
}
