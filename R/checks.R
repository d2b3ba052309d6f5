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
.check_no_dots <- function(.fun, ...) {
  # Names only: evaluating the arguments (list(...)) would fail first on one
  # meant for the data, such as subset = x > 0.5, with "object 'x' not found".
  if (!...length()) return(invisible(TRUE))
  nms <- ...names()
  nm <- if (is.null(nms) || is.na(nms[1L]) || nms[1L] == "") "(unnamed)" else nms[1L]
  stop(sprintf("%s(): unknown argument '%s'; it is not used by this method.", .fun, nm), call. = FALSE)
}

# What a formula front end's `...` passes on to model.frame().
.formula_dots <- c("subset", "na.action")

# The `...` of a formula front end: model.frame()'s `subset` and `na.action` and
# the documented settings only. Anything else (a misspelt argument, `weights`,
# `offset`) is an error: it must never vanish into `...` and leave a fit that ran
# as if it had not been given.
# `dots` is the unevaluated `...` (match.call(expand.dots = FALSE)$...), `known`
# every argument name of `fun` and `control_fun` the function whose settings
# belong in `control =` (both for the "did you mean" hint).
.formula_dots_check <- function(dots, allowed, fun, known = character(0), control_fun = NULL) {
  if (!length(dots)) return(invisible(TRUE))
  dn <- names(dots)
  if (is.null(dn) || any(!nzchar(dn)))
    stop(if (length(allowed)) sprintf("every argument of %s() passed in '...' must be named (one of %s).", fun,
                                      paste(allowed, collapse = ", "))
         else sprintf("%s() got an unnamed argument in '...', which is unused: name every argument.", fun),
         call. = FALSE)
  for (w in intersect(dn, c("weights", "offset")))
    stop(sprintf(paste0("%s() does not support %s: every record enters the fit with weight one ",
                        "and no offset. Remove '%s'%s."),
                 fun, if (w == "weights") "case weights ('weights')" else "an offset ('offset')", w,
                 if (w == "offset") " (and any offset() term in the formula)" else ""), call. = FALSE)
  bad <- setdiff(dn, allowed)
  if (length(bad)) {
    ctrl <- if (is.null(control_fun)) character(0) else names(formals(get(control_fun, mode = "function")))
    cand <- setdiff(unique(c(allowed, known, ctrl)), "...")
    hint <- vapply(bad, function(b) {
      if (b %in% ctrl) return(sprintf(" (a setting of %s(): use control = %s(%s = ...))", control_fun, control_fun, b))
      if (!length(cand)) return("")
      dist <- utils::adist(b, cand, ignore.case = TRUE)[1, ]
      j <- which.min(dist)
      tol <- if (nchar(b) < 6L) 2L else nchar(b) %/% 3L   # edits allowed for a "did you mean"
      if (dist[j] > tol) return("")
      if (cand[j] %in% ctrl) sprintf(" (did you mean %s(%s = ...)?)", control_fun, cand[j])
      else sprintf(" (did you mean '%s'?)", cand[j])
    }, "")
    stop(sprintf("unknown argument%s in '...' of %s(): %s. '...' takes only %s.",
                 if (length(bad) > 1L) "s" else "", fun, paste0("'", bad, "'", hint, collapse = ", "),
                 if (length(allowed)) paste(allowed, collapse = ", ") else "nothing (it is unused)"),
         call. = FALSE)
  }
  invisible(TRUE)
}

# An offset() term is dropped by model.matrix(): the fit would silently be of the
# model without it.
.formula_offset_check <- function(mt, fun) {
  if (!is.null(attr(mt, "offset")))
    stop(sprintf(paste0("'formula' has an offset() term, which %s() does not support: it would be dropped ",
                        "and the model fitted without the offset. Remove the offset() term ",
                        "(e.g. subtract it from the response)."), fun), call. = FALSE)
  invisible(TRUE)
}

# `tau` is a quantile level: given with another loss it would be ignored.
# Returns the levels for loss = "quantile" and NULL otherwise.
.check_tau_for_loss <- function(tau, loss, tau_missing) {
  if (loss == "quantile") return(.check_tau_levels(tau))
  if (!tau_missing)
    .arg_fail("tau", sprintf("left unset for loss = \"%s\" (only loss = \"quantile\" has levels)", loss))
  invisible(NULL)
}

# The model a formula front end fits must be the one the formula states: an
# offset() would be dropped by model.matrix(), and a mean has no covariates.
.check_model_for_loss <- function(frame, loss, fun) {
  .formula_offset_check(frame$mt, fun)
  if (loss == "mean" && (ncol(frame$X) != 1L || attr(frame$mt, "intercept") != 1L))
    .arg_fail("formula", paste0("an intercept-only formula such as y ~ 1 for loss = \"mean\" (a mean has ",
                                "no covariates; they would be ignored)"))
  invisible(TRUE)
}

# `loss`, or its former name (`alias_name`, still accepted; both at once must
# agree), checked against `choices`; the error names the argument the user gave.
.loss_with_alias <- function(loss, alias, alias_name, loss_missing, choices) {
  arg <- "loss"
  if (!is.null(alias)) {
    if (!loss_missing && !identical(loss, alias))
      .arg_fail(alias_name, "left out when 'loss' is given (it is the former name of 'loss')")
    loss <- alias
    arg <- alias_name
  } else if (loss_missing) {
    loss <- loss[1L]   # the method's default (its first choice)
  }
  # A vector (loss = c("linear", "gaussian")) would silently fit its first entry.
  if (!is.character(loss) || length(loss) != 1L || !loss %in% choices) {
    q <- sprintf("\"%s\"", choices)
    .arg_fail(arg, paste("one of", paste(q[-length(q)], collapse = ", "), "or", q[length(q)]))
  }
  loss
}

# A single fraction in [0, 1] (or [0, 1) with `below_one`): the one check of
# lr_floor, warmup and average_from, shared by pgbb_control() and pgbb_fit().
.check_fraction <- function(x, arg, below_one = FALSE) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || x < 0 || x > 1 || (below_one && x >= 1))
    .arg_fail(arg, sprintf("a single number between 0 and 1 (in [0, 1%s)", if (below_one) ")" else "]"))
  invisible(x)
}

# Threads of the trainer's subset pass. NULL: the option pgbb.threads, or else
# 1. Any value gives the same fit (src/core/parallel.h), so the default only
# sets the speed: one thread, because the pass synchronises its threads at
# every iteration and, on a machine whose cores are already busy (several fits
# or replicates at once), waiting threads made a fit twice as slow as one
# thread; at large n on idle cores, more threads are faster (?pgbb_fit).
.check_threads <- function(threads) {
  if (is.null(threads)) threads <- getOption("pgbb.threads", 1L)
  .check_count(threads, "threads", min = 1, max = 1024)
  as.integer(threads)
}
