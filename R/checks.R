# Argument validation shared by the user-facing functions. Every check names the
# argument the user typed, so an error tells them what to fix.

.arg_fail <- function(arg, what) {
  stop(sprintf("'%s' must be %s.", arg, what), call. = FALSE)
}

.check_count <- function(x, arg, min = 1, max = Inf) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || !is.finite(x) ||
      x != round(x) || x < min || x > max) {
    range <- if (is.finite(max)) sprintf("between %s and %s", format(min), format(max))
             else sprintf("at least %s", format(min))
    .arg_fail(arg, sprintf("a single whole number %s", range))
  }
  # Beyond the integer range as.integer() gives NA (and a warning): such counts stay
  # doubles; callers that need an integer cap 'max'.
  invisible(if (x <= .Machine$integer.max) as.integer(x) else x)
}

.check_positive <- function(x, arg, allow_inf = FALSE) {
  ok <- is.numeric(x) && length(x) == 1L && !is.na(x) && x > 0 &&
    (allow_inf || is.finite(x))
  if (!ok) .arg_fail(arg, if (allow_inf) "a single positive number" else
    "a single positive finite number")
  invisible(as.numeric(x))
}

.check_nonneg <- function(x, arg) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || !is.finite(x) || x < 0)
    .arg_fail(arg, "a single non-negative finite number")
  invisible(as.numeric(x))
}

.check_open_unit <- function(x, arg) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || x <= 0 || x >= 1)
    .arg_fail(arg, "a single number strictly between 0 and 1")
  invisible(as.numeric(x))
}

.check_finite_numeric <- function(x, arg) {
  if (!is.numeric(x) || length(x) == 0L)
    .arg_fail(arg, "a non-empty numeric vector or matrix")
  # min/max instead of any(!is.finite(x)): no temporary as large as x (after
  # anyNA, a non-finite value is +-Inf, which is the min or the max).
  if (anyNA(x) || !is.finite(min(x)) || !is.finite(max(x)))
    .arg_fail(arg, "free of NA, NaN and infinite values")
  invisible(x)
}

.check_flag <- function(x, arg) {
  if (!is.logical(x) || length(x) != 1L || is.na(x)) .arg_fail(arg, "TRUE or FALSE")
  invisible(x)
}

# match.arg() for the user-facing functions: same partial matching and defaults, but
# an error that names the argument ("'mode' must be one of ...") instead of match.arg's
# "'arg' should be one of ...".
.match_arg <- function(arg, choices) {
  name <- deparse(substitute(arg))
  if (missing(choices)) {
    sysP <- sys.parent()
    choices <- eval(formals(sys.function(sysP))[[name]], envir = sys.frame(sysP))
  }
  if (is.null(arg)) return(choices[1L])
  if (identical(arg, choices)) return(arg[1L])
  i <- if (is.character(arg) && length(arg) == 1L && !is.na(arg)) pmatch(arg, choices) else NA_integer_
  if (is.na(i)) .arg_fail(name, paste0("one of ", paste0("\"", choices, "\"", collapse = ", ")))
  choices[i]
}

# S3 methods take `...` because their generics do; an argument that lands there
# is a typo or an option of another package's method (summary.rq's `se`,
# predict.glm's `type`) that would otherwise be ignored without a word.
.check_no_dots <- function(fun, ...) {
  extra <- list(...)
  if (!length(extra)) return(invisible(TRUE))
  nms <- names(extra)
  nm <- if (is.null(nms) || nms[1L] == "") "(unnamed)" else nms[1L]
  stop(sprintf("%s(): unknown argument '%s'; it is not used by this method.", fun, nm), call. = FALSE)
}
