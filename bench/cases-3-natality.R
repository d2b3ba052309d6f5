# Case 3: natality scale (PGBB paper, Section 6 and SM S3.3):
# n = 1,940,000 synthetic birth records, p = 14 (intercept, 8 indicators and 5
# covariates scaled into [0, 1]), birthweight in kg with the smoothing bandwidth
# h = 0.1 kg of the real application (inst/scripts/birthweight.R: a fifth of the
# residual sd, so the smoothed score is evaluated for most records; in grams
# with h = 0.1 g it would be a step almost everywhere), one joint generator over
# tau = 0.1, 0.3, 0.5, 0.7, 0.9, S = 5, q = 0.01, K = 5, T = 10000, 3 x 256,
# epsilon = 1, delta = 1/n, fitted with the matrix interface pgbb_fit()
# (calibration + training + 2000 draws per level). Target: under 60 s.
#
# Each run is a fresh child Rscript (bench/natality-child.R) that reads the
# data, resets its peak-RSS counter (/proc/self/clear_refs), fits, and reports
# the fit's time and its peak resident memory (VmHWM) above the resident memory
# just before the fit (which holds the data). That extra peak is compared with
# the size of one copy of the design matrix (n x p doubles): the issue asks for
# no more than one extra copy.
#
# Alternative (only with BENCH_NATALITY_ALT=1, as it costs about a minute of CPU
# per run; context, not a like-for-like): the non-private point fits a user
# would otherwise compute at this n, conquer() at the same 5 levels (no
# uncertainty; the paper's multiplier bootstrap with B = 500 re-solves each of
# them 500 times, hours at this n).
# The ratios of the alternating pairs (1 thread then 2 threads, back to back):
# the host's speed drifts between pairs more than within one, so their median
# is the steadier estimate of the speed-up than the ratio of the two medians.
paired_note <- function(r) {
  sprintf("paired ratios %s (median %.2f)", paste(sprintf("%.2f", r), collapse = ", "), stats::median(r))
}

cases <- function() {
  case <- "3. Natality scale: PGBB joint-tau fit"
  if (!bench_wanted(case)) return(NULL)
  set.seed(2)
  n <- bench_size(1940000, 194000)
  iters <- bench_size(10000, 1000)
  p <- 14
  cat("  3. Natality: generating data ...\n")
  xn <- cbind(1, matrix(rbinom(n * 8, 1, 0.3), n, 8), matrix(runif(n * 5), n, 5))
  colnames(xn) <- c("(Intercept)", paste0("d", 1:8), paste0("c", 1:5))
  beta <- c(3300, -150, 60, -40, 20, -90, 10, 30, -20, 120, -60, 40, 80, -30)
  yn <- (drop(xn %*% beta) + 450 * rt(n, 5)) / 1000   # kg
  data_file <- tempfile(fileext = ".rds")
  on.exit(unlink(data_file), add = TRUE)
  saveRDS(list(x = xn, y = yn), data_file, compress = FALSE)
  here <- if (file.exists("bench/common.R")) "bench" else "."
  rscript <- file.path(R.home("bin"), "Rscript")
  cat("  3. Natality: PGBB fits in child processes ...\n")
  weights <- list()
  child <- function(threads, runs = 1L) {
    out <- system2(rscript, c("--vanilla", file.path(here, "natality-child.R"), data_file, iters,
                              file.path(here, "common.R"), threads, runs),
                   stdout = TRUE, env = c(sprintf("R_LIBS=%s", paste(.libPaths(), collapse = ":")),
                                          "OMP_NUM_THREADS=1"))
    line <- grep("^RESULT ", out, value = TRUE)
    if (!length(line)) stop("natality child failed:\n", paste(out, collapse = "\n"))
    weights[[as.character(runs)]] <<- c(weights[[as.character(runs)]],
                                        sub("^WEIGHTS ", "", grep("^WEIGHTS ", out, value = TRUE)))
    as.numeric(strsplit(line, " ")[[1]][-1])
  }
  # 1 and 2 threads alternate, so that both see the same machine load.
  both <- lapply(seq_len(bench_runs()), function(i) list(one = child(1L), two = child(2L)))
  res <- vapply(both, function(b) b$one, numeric(6))
  res2 <- vapply(both, function(b) b$two, numeric(6))
  med <- apply(res, 1, stats::median)
  med2 <- apply(res2, 1, stats::median)
  t_ours <- c(elapsed = med[1], cpu = med[2])
  extra <- med[4] - med[3]
  mem_note <- if (is.na(extra)) "peak memory: not measurable here (no /proc/self/clear_refs)" else
    sprintf("peak RSS %.0f MB above the %.0f MB before the fit = %.2f design copies (one copy = %.0f MB)",
            extra / 2^20, med[3] / 2^20, extra / med[5], med[5] / 2^20)

  t_alt <- NULL
  if (identical(Sys.getenv("BENCH_NATALITY_ALT"), "1") && requireNamespace("conquer", quietly = TRUE)) {
    cat("  3. Natality: conquer point fits ...\n")
    X <- xn[, -1]
    t_alt <- time_median(function()
      for (tau in c(0.1, 0.3, 0.5, 0.7, 0.9)) conquer::conquer(X, yn, tau = tau))
  }
  # The generator differs between rows: one training uses the paper's 3 x 256,
  # the noise-aware default pgbb_control()'s (natality-child.R).
  settings_with <- function(generator)
    sprintf("n = %d, p = %d, joint tau = 0.1..0.9 (5), S = 5, q = 0.01, K = 5, T = %d, %s, eps = 1",
            n, p, iters, generator)
  settings <- settings_with("256 x 256 x 256")
  # Row 3b: the same fit on 2 threads beside 1 thread ("alternative"); the
  # ratio column is then the CPU ratio, the note gives the wall-time speed-up.
  same <- length(unique(weights[["1"]])) == 1L
  # Row 3c: the noise-aware default (5 runs sharing T on one partition), whose
  # runs train side by side on 2 threads, against the same fit on 1 thread.
  both5 <- lapply(seq_len(bench_runs()), function(i) list(one = child(1L, 5L), two = child(2L, 5L)))
  res5 <- vapply(both5, function(b) b$one, numeric(6))
  res5_2 <- vapply(both5, function(b) b$two, numeric(6))
  med5 <- apply(res5, 1, stats::median)
  med5_2 <- apply(res5_2, 1, stats::median)
  same5 <- length(unique(weights[["5"]])) == 1L
  rbind(bench_row(case, t_ours, t_alt,
                  if (is.null(t_alt)) NA_character_ else "non-private conquer() point fits at the 5 levels (no uncertainty)",
                  settings, target = 60, note = mem_note),
        bench_row("3b. Natality scale: 2 threads vs 1 thread", c(elapsed = med2[1], cpu = med2[2]),
                  t_ours, "the same fit on 1 thread", settings,
                  note = sprintf("wall time 1 thread / 2 threads = %.2f (target >= 1.7); %s; weights %s for 1 and 2 threads",
                                 med[1] / med2[1], paired_note(res[1, ] / res2[1, ]),
                                 if (same) "bit-identical" else "DIFFER")),
        bench_row("3c. Natality scale, noise-aware default (5 runs): 2 threads vs 1", c(elapsed = med5_2[1], cpu = med5_2[2]),
                  c(elapsed = med5[1], cpu = med5[2]), "the same fit on 1 thread",
                  sprintf("%s; 5 runs of T / 5 on one partition, tail averaging, Adam 2e-3, pgbb_control()'s generator",
                          settings_with(paste(pgbb_control()$hidden, collapse = " x "))),
                  note = sprintf(paste0("wall time 1 thread / 2 threads = %.2f; %s; one training (3 x 256) / this, ",
                                        "both on 1 thread = %.2f, and with this on 2 = %.2f; weights %s for 1 and 2 threads"),
                                 med5[1] / med5_2[1],
                                 paired_note(res5[1, ] / res5_2[1, ]),
                                 med[1] / med5[1], med[1] / med5_2[1], if (same5) "bit-identical" else "DIFFER")))
}
