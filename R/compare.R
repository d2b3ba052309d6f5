#' Compare private fits: MAE, coverage and interval width per coefficient
#'
#' Puts several private methods side by side in the format of the PGBB paper's
#' Table 1 and Tables S2, S8-S9: for every method, coefficient and quantile level,
#' the mean absolute error of the point estimate, the share of intervals that
#' contain the truth, and the mean interval width, over repeated fits. Everything
#' here is post-processing of released fits.
#'
#' When `truth` is `NULL`, the coefficients of the non-private `reference` fit play
#' the role of the truth, as in the paper's real-data tables (coverage is then the
#' share of intervals containing the non-private estimate).
#'
#' @param fits A named list, one element per method: a fitted object ([pgbb()],
#'   [pgbb_fit()], [dp_sgld()], [noisy_gibbs()], [dp_bootstrap()], or any
#'   `private_posterior`), or a list of repeated fits of one method.
#' @param truth `NULL`, a named vector of true coefficients (used at every level),
#'   or a matrix terms x tau (column names the levels, e.g. `"0.25"` or `"tau= 0.25"`).
#' @param reference `NULL` or a non-private fit whose coefficients are the truth when
#'   `truth` is `NULL` (giving both is an error): [pgbb_reference()], `quantreg::rq()` (one or several `tau`),
#'   [stats::lm()], [stats::glm()], or anything with a `coef()` method.
#' @param level Interval level (default 0.95).
#' @return A data frame of class `private_comparison` with columns `method`, `term`,
#'   `tau` (`NA` for losses without a level), `MAE`, `coverage`, `width` and `n_fits`;
#'   only coefficients present in the truth are compared.
#' @seealso [dp_sgld()], [pgbb()].
#' @examples
#' set.seed(1)
#' d <- data.frame(x = runif(2000, 0, 10))
#' d$y <- 1 + 0.3 * d$x + rnorm(2000)
#' b <- list(x = c(0, 10), .response = c(-5, 10))
#' sg <- lapply(1:2, function(i) dp_sgld(y ~ x, d, loss = "huber", epsilon = 4, bounds = b,
#'                                       iterations = 1000, rate = 0.05))
#' compare_private_fits(list("DP-SGLD" = sg), truth = c("(Intercept)" = 1, x = 0.3))
#' @export
compare_private_fits <- function(fits, truth = NULL, reference = NULL, level = 0.95) {
  .check_open_unit(level, "level")
  if (!is.list(fits) || length(fits) == 0L || inherits(fits, "private_posterior"))
    .arg_fail("fits", "a named list of fits (or of lists of repeated fits), one element per method")
  nm <- names(fits)
  if (is.null(nm) || any(is.na(nm) | nm == "") || anyDuplicated(nm))
    .arg_fail("fits", "a list with distinct, non-empty names (the method labels)")
  if (!is.null(truth) && !is.null(reference))
    .arg_fail("reference", "left out when 'truth' is given (the truth is compared against; the reference would be unused)")
  if (is.null(truth) && is.null(reference))
    stop("give 'truth' (the true coefficients) or 'reference' (a non-private fit).", call. = FALSE)
  tt <- if (!is.null(truth)) .truth_table(truth, "truth") else .reference_table(reference)
  targ <- if (!is.null(truth)) "truth" else "reference"
  out <- list()
  for (m in nm) {
    reps <- if (.is_fit(fits[[m]])) list(fits[[m]]) else fits[[m]]
    if (!is.list(reps) || length(reps) == 0L || !all(vapply(reps, .is_fit, NA)))
      .arg_fail(sprintf("fits$%s", m), "a fitted object or a list of fitted objects of one method")
    tabs <- lapply(seq_along(reps), function(r) {
      tab <- .fit_table(reps[[r]], level)
      .match_truth(tab, tt, m, targ)
    })
    all <- do.call(rbind, tabs)
    key <- paste(all$term, all$tau, sep = "\r")
    keys <- unique(key)
    agg <- lapply(keys, function(k) {
      s <- all[key == k, , drop = FALSE]
      data.frame(method = m, term = s$term[1L], tau = s$tau[1L],
                 MAE = mean(abs(s$estimate - s$truth)),
                 coverage = mean(s$lower <= s$truth & s$truth <= s$upper),
                 width = mean(s$upper - s$lower), n_fits = nrow(s), stringsAsFactors = FALSE)
    })
    out[[m]] <- do.call(rbind, agg)
  }
  res <- do.call(rbind, out)
  rownames(res) <- NULL
  structure(res, class = c("private_comparison", "data.frame"), level = level, against = targ)
}

.is_fit <- function(x) inherits(x, "private_posterior")

#' @export
print.private_comparison <- function(x, digits = 3L, ...) {
  cat(sprintf("Private fits compared with the %s (%g%% intervals)\n", attr(x, "against"),
              100 * attr(x, "level")))
  df <- as.data.frame(unclass(x), stringsAsFactors = FALSE)
  if (all(is.na(df$tau))) df$tau <- NULL
  print(df, digits = digits, row.names = FALSE)
  invisible(x)
}

# One fit -> data.frame(term, tau, estimate, lower, upper) at `level`: the
# table of the private_posterior contract, whatever the method.
.fit_table <- function(fit, level) {
  as.data.frame(fit, level = level)[, c("term", "tau", "estimate", "lower", "upper")]
}

# Truth as data.frame(term, tau, truth); tau NA means "every level".
.truth_table <- function(truth, arg) {
  if (is.matrix(truth)) {
    if (!is.numeric(truth) || is.null(rownames(truth)) || is.null(colnames(truth)))
      .arg_fail(arg, "a named numeric vector or a matrix terms x tau with row and column names")
    taus <- suppressWarnings(as.numeric(.tau_label_value(colnames(truth))))
    if (anyNA(taus))
      .arg_fail(arg, "a matrix whose column names are quantile levels (e.g. \"0.25\" or \"tau= 0.25\")")
    if (anyNA(truth) || any(!is.finite(truth))) .arg_fail(arg, "free of NA and infinite values")
    return(data.frame(term = rep(rownames(truth), ncol(truth)), tau = rep(taus, each = nrow(truth)),
                      truth = as.numeric(truth), stringsAsFactors = FALSE))
  }
  if (!is.numeric(truth) || length(truth) == 0L || is.null(names(truth)) || any(names(truth) == ""))
    .arg_fail(arg, "a named numeric vector or a matrix terms x tau with row and column names")
  if (anyNA(truth) || any(!is.finite(truth))) .arg_fail(arg, "free of NA and infinite values")
  data.frame(term = names(truth), tau = NA_real_, truth = as.numeric(truth), stringsAsFactors = FALSE)
}

.reference_table <- function(reference) {
  cf <- tryCatch(stats::coef(reference), error = function(e) NULL)
  if (is.null(cf) || !is.numeric(cf))
    .arg_fail("reference", "a non-private fit with coefficients (pgbb_reference(), quantreg::rq(), lm(), glm())")
  if (is.matrix(cf) && ncol(cf) == 1L && !is.null(reference$tau)) {
    cf <- matrix(cf, ncol = 1L, dimnames = list(rownames(cf), as.character(reference$tau)))
  } else if (!is.matrix(cf) && (inherits(reference, "rq") ||
                                 (inherits(reference, "pgbb_reference") && !is.null(reference$tau)))) {
    # one level (coef() of a one-level fit is a vector): compared at that level only
    cf <- matrix(cf, ncol = 1L, dimnames = list(names(cf), as.character(reference$tau)))
  }
  .truth_table(cf, "reference")
}

# Attach the truth to a fit's table; only terms in the truth are compared.
.match_truth <- function(tab, tt, method, arg) {
  if (!any(tab$term %in% tt$term))
    .arg_fail(arg, sprintf("named like the coefficients of fits$%s (%s); it has %s", method,
                           paste(sprintf("'%s'", unique(tab$term)), collapse = ", "),
                           paste(sprintf("'%s'", unique(tt$term)), collapse = ", ")))
  miss <- setdiff(unique(tt$term), tab$term)
  if (length(miss))
    .arg_fail(arg, sprintf("limited to coefficients that fits$%s has (it lacks %s)", method,
                           paste(sprintf("'%s'", miss), collapse = ", ")))
  tab <- tab[tab$term %in% tt$term, , drop = FALSE]
  if (all(is.na(tt$tau))) {
    tab$truth <- tt$truth[match(tab$term, tt$term)]
    return(tab)
  }
  if (anyNA(tab$tau))
    .arg_fail(arg, sprintf("a named vector for fits$%s, which has no quantile levels", method))
  key_t <- paste(tt$term, signif(tt$tau, 10))
  key_f <- paste(tab$term, signif(as.numeric(tab$tau), 10))
  i <- match(key_f, key_t)
  if (anyNA(i))
    .arg_fail(arg, sprintf("given at every quantile level of fits$%s (missing tau = %s)", method,
                           paste(unique(tab$tau[is.na(i)]), collapse = ", ")))
  tab$truth <- tt$truth[i]
  tab
}
