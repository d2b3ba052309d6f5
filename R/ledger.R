# The privacy ledger of a PGBB fit: the noise scale from the accountant and
# every setting the guarantee depends on.

# `runs` independent trainings of `iterations` steps each are runs * iterations * mc
# subsampled Gaussian releases: each run draws its own partition independently of
# the data, the per-release RDP bound holds for every partition, and RDP adds
# over all releases, so the accountant sees the total count.
.privacy_ledger <- function(epsilon, delta, sigma, n, blocks, gamma, clip, rate, iterations, mc,
                            J, m, alpha, accountant, conversion, runs = 1L, ...) {
  extra <- list(...)
  if (length(extra)) {
    # Only further accountant settings may pass through (e.g. 'orders');
    # anything else is a typo that must not be ignored silently.
    known <- c("epsilon", "delta", "n", "blocks", "gamma", "clip", "rate", "iterations", "mc", "J", "m",
               "alpha", "accountant", "conversion", "...")
    allowed <- setdiff(names(formals(pgbb_sigma)), known)
    nms <- names(extra)
    if (is.null(nms) || any(nms == "") || any(!nms %in% allowed))
      stop(sprintf("pgbb_fit(): unused argument(s) %s (further accountant settings: %s).",
                   paste0("'", if (is.null(nms)) "(unnamed)" else ifelse(nms == "", "(unnamed)", nms), "'",
                          collapse = ", "),
                   paste(allowed, collapse = ", ")),
           call. = FALSE)
  }
  args <- c(list(delta = delta, n = n, blocks = blocks, gamma = gamma, clip = clip, rate = rate,
                 iterations = as.numeric(iterations) * runs, mc = mc, J = J, m = m, alpha = alpha,
                 accountant = accountant, conversion = conversion), extra)
  # The worst-case accountant does not read the Dirichlet law (the trainer still
  # draws its weights with this gamma).
  if (accountant != "dirichlet") args$gamma <- args$alpha <- NULL
  target <- NA_real_
  order <- NA_real_
  if (!is.null(epsilon) && is.infinite(epsilon)) {
    target <- epsilon
    sigma <- 0
    achieved <- Inf
  } else if (!is.null(epsilon)) {
    # One accountant run: the calibration certifies the epsilon of the sigma it
    # returns (Prop. 2.2 with the conversion), at the order that attains it.
    target <- epsilon
    cal <- do.call(pgbb_sigma, c(list(epsilon = epsilon), args))
    sigma <- as.numeric(cal)
    if (length(sigma) != 1L || !is.finite(sigma) || sigma <= 0)
      stop("internal error: the accountant returned an invalid noise scale.", call. = FALSE)
    achieved <- as.numeric(attr(cal, "epsilon"))
    order <- attr(cal, "order") %||% NA_real_
    if (!(achieved <= target * (1 + 1e-9)))
      stop(sprintf("internal error: the accountant's sigma gives epsilon = %.6g above the target %.6g.",
                   achieved, target), call. = FALSE)
  } else {
    sigma <- as.numeric(sigma)
    if (sigma == 0) {
      achieved <- Inf
    } else {
      achieved <- do.call(pgbb_epsilon, c(list(sigma = sigma), args))
      order <- attr(achieved, "order") %||% NA_real_
      achieved <- as.numeric(achieved)
    }
  }
  structure(list(method = "PGBB", epsilon = achieved, target_epsilon = target, delta = delta, sigma = sigma,
                 accountant = accountant, conversion = conversion, order = as.numeric(order),
                 iterations = as.integer(iterations), runs = as.integer(runs), mc = as.integer(mc),
                 rate = rate,
                 blocks = as.integer(blocks), gamma = gamma, clip = clip, n = as.integer(n),
                 alpha = alpha, J = J, m = m, extra = extra, randomness = .noise_source()),
            class = "pgbb_ledger")
}

#' @export
format.pgbb_ledger <- function(x, digits = 4L, ...) {
  f <- function(v) format(v, digits = digits)
  privacy <- if (x$sigma == 0) "none (sigma = 0: non-private blocked bootstrap)" else
    sprintf("(epsilon = %s, delta = %s)-DP%s", if (is.na(x$epsilon)) "NA (no accountant)" else f(x$epsilon),
            f(x$delta), if (is.na(x$order)) "" else sprintf(", Renyi order %s", f(x$order)))
  c(sprintf("privacy:   %s", privacy),
    sprintf("noise:     sigma = %s, clip C = %s; accountant %s, conversion %s", f(x$sigma), f(x$clip),
            x$accountant, x$conversion),
    .level_scale_line(x$level_scale),
    sprintf("training:  %sT = %d, K = %d, q = %s, S = %d, gamma = %s, n = %d",
            if ((x$runs %||% 1L) > 1L) sprintf("%d independent runs of ", x$runs) else "",
            x$iterations, x$mc, f(x$rate), x$blocks, f(x$gamma), x$n),
    .noise_line(x[["randomness"]]))
}

# A joint fit whose levels have their own bounds (level_noise = "scaled"):
# the factor r of the clip and of sigma at each level; nothing when all are 1.
.level_scale_line <- function(r) {
  if (is.null(r) || all(r == 1)) return(NULL)
  sprintf("           at level tau = %s: clip r C and noise r sigma, r = %s (same accounting)",
          paste(names(r), collapse = ", "), paste(format(r, digits = 3), collapse = ", "))
}

#' @export
print.pgbb_ledger <- function(x, ...) {
  cat(format(x, ...), sep = "\n")
  invisible(x)
}
