# Estimator specifications for the one-shot confidence regions. A spec holds the
# clipped data, the public sensitivity function N -> Delta_N (CR-GS) or the name
# of the smooth-sensitivity construction (CR-SS), and the scale tau_N. Every
# sensitivity here is a function of the bounds the user declares and of sizes,
# never of the data (privacy is security: see the package documentation).

`%||%` <- function(a, b) if (is.null(a)) b else a

# Bounds: c(lower, upper) (recycled over columns), list(lower =, upper =), or a
# 2 x d matrix with the lower bounds in row 1.
.cr_bounds <- function(bounds, d, arg = "bounds", strict = TRUE) {
  what <- sprintf("c(lower, upper), list(lower = , upper = ) with vectors of length 1 or %d, or a 2 x %d matrix", d, d)
  if (is.null(bounds)) .arg_fail(arg, paste0("given (public bounds on the data): ", what))
  if (is.list(bounds) && !is.data.frame(bounds)) {
    lo <- bounds$lower; hi <- bounds$upper
  } else if (is.matrix(bounds)) {
    if (nrow(bounds) != 2L || ncol(bounds) != d) .arg_fail(arg, what)
    lo <- bounds[1, ]; hi <- bounds[2, ]
  } else if (is.numeric(bounds) && length(bounds) == 2L) {
    lo <- bounds[1]; hi <- bounds[2]
  } else .arg_fail(arg, what)
  if (!is.numeric(lo) || !is.numeric(hi) || !(length(lo) %in% c(1L, d)) || !(length(hi) %in% c(1L, d)))
    .arg_fail(arg, what)
  lo <- rep_len(as.numeric(lo), d); hi <- rep_len(as.numeric(hi), d)
  if (anyNA(lo) || anyNA(hi) || any(!is.finite(lo)) || any(!is.finite(hi)) ||
      (strict && any(lo >= hi)) || any(lo > hi))
    .arg_fail(arg, if (strict) "finite with lower < upper in every coordinate" else
      "finite with lower <= upper in every coordinate")
  # Every sensitivity is a multiple of the width (or of its square): a width that
  # overflows (e.g. c(-1e308, 1e308)) would give an infinite noise scale and NaN.
  if (any(!is.finite(hi - lo)))
    .arg_fail(arg, "of finite width: upper - lower overflows double precision")
  list(lower = lo, upper = hi)
}

# Number of entries of the data matrix X outside the box b (what clipping moves).
# Computed from the confidential data: for the analyst's message only, never stored.
.cr_count_outside <- function(X, b) {
  X <- as.matrix(X)
  if (!is.double(X)) storage.mode(X) <- "double"
  cpp_count_outside(X, rep_len(as.numeric(b$lower), ncol(X)), rep_len(as.numeric(b$upper), ncol(X)))
}

# Data outside the public bounds are clipped to them (the sensitivity is only
# valid on the bounded domain); clipping is a per-record map, so it keeps
# neighbouring data sets neighbouring.
.clip_matrix <- function(x, b) {
  for (k in seq_len(ncol(x))) x[, k] <- pmin(pmax(x[, k], b$lower[k]), b$upper[k])
  x
}

.as_data_matrix <- function(x, arg = "x") {
  if (is.data.frame(x)) x <- as.matrix(x)
  .check_finite_numeric(x, arg)
  if (!is.matrix(x)) x <- matrix(as.numeric(x), ncol = 1L)
  storage.mode(x) <- "double"
  x
}

# Largest l2 norm of a point of the box [lower, upper].
.box_max_norm <- function(b) sqrt(sum(pmax(b$lower^2, b$upper^2)))

.tau_sqrt <- function(N) sqrt(N)
.tau_linear <- function(N) as.numeric(N)

.cr_gs_builtins <- c("mean", "ustat_product", "ustat_variance", "ridge_logistic", "ridge_huber",
                     "sgd_logistic", "sgd_huber")

.binary_labels <- function(y) {
  if (is.factor(y)) {
    if (nlevels(y) != 2L) .arg_fail("y", "a binary response (two levels) for logistic regression")
    y <- as.integer(y) - 1L
  }
  if (is.logical(y)) y <- as.integer(y)
  if (!is.numeric(y) || anyNA(y) || !all(y %in% c(-1, 0, 1)) || (any(y == -1) && any(y == 0)))
    .arg_fail("y", "a binary response coded 0/1, -1/+1, logical or a two-level factor")
  ifelse(y == 0, -1, as.numeric(y))
}

# CR-GS spec for a built-in name.
# The settings in cr_gs()'s `...` that each built-in estimator reads; any other
# is an error rather than silently unused.
.cr_gs_builtin_settings <- function(name) {
  if (name == "mean") return(character(0))
  if (startsWith(name, "ustat")) return("degenerate")
  common <- c("y", "lambda", if (grepl("huber", name)) "huber_c")
  if (startsWith(name, "ridge")) c(common, "tol") else c(common, "radius", "a", "step_c")
}

.cr_gs_builtin_spec <- function(name, x, bounds, dots) {
  settings <- .cr_gs_builtin_settings(name)
  given <- names(dots)[!vapply(dots, is.null, logical(1))]   # y = NULL is the same as no y
  extra <- setdiff(given, settings)
  if (length(extra))
    .arg_fail(extra[1L], sprintf("left out for estimator \"%s\", which does not use it (its settings: %s)", name,
                                 if (length(settings)) paste(sprintf("'%s'", settings), collapse = ", ") else "none"))
  if (!is.null(dots$degenerate)) .check_flag(dots$degenerate, "degenerate")
  X <- .as_data_matrix(x)
  n <- nrow(X); d <- ncol(X)
  # A constant column (an intercept) may have lower == upper.
  b <- .cr_bounds(bounds, d, strict = !(name %in% c("ridge_logistic", "ridge_huber", "sgd_logistic", "sgd_huber")))
  # X is clipped to b inside the C++ glue while it is copied (one pass).
  spec <- list(name = name, kind = name, x = X, y = numeric(0), n = n, params = list(shift = 0),
               tau = .tau_sqrt, transform = NULL, degenerate = FALSE, bounds = b,
               clipped = .cr_count_outside(X, b))
  diam <- sqrt(sum((b$upper - b$lower)^2))
  if (name == "mean") {
    # Section 4, example 1: ||theta(D) - theta(D')|| <= ||upper - lower||_2 / N.
    spec$d <- d
    spec$sensitivity <- function(N) diam / N
    spec$description <- if (d == 1) "bounded mean" else sprintf("bounded mean in R^%d", d)
    spec$names <- if (d == 1) "mean" else (colnames(x) %||% paste0("mean", seq_len(d)))
    spec$range <- b   # the mean of data clipped to the box lies in it
  } else if (name %in% c("ustat_product", "ustat_variance")) {
    if (d != 1) .arg_fail("x", "a numeric vector for a U-statistic")
    lo <- b$lower; hi <- b$upper
    # Kernel range b_n (diameter of h over [lo, hi]^2); Delta_N = r b_n / N with r = 2.
    krange <- if (name == "ustat_product") {
      corners <- c(lo * lo, lo * hi, hi * hi)
      max(corners) - min(corners)
    } else (hi - lo)^2 / 2
    spec$params$shift <- (lo + hi) / 2
    spec$d <- 1L
    spec$sensitivity <- function(N) 2 * krange / N
    spec$degenerate <- isTRUE(dots$degenerate)
    if (spec$degenerate) spec$tau <- .tau_linear
    spec$description <- if (name == "ustat_product") "U-statistic, kernel x*y" else "U-statistic, kernel (x-y)^2/2"
    spec$names <- name
  } else {
    # Ridge M-estimators (Section 4, example 2) and averaged SGD (Appendix H.1).
    loss <- sub("^(ridge|sgd)_", "", name)
    y <- dots$y
    if (is.null(y)) .arg_fail("y", sprintf("given (the response) for estimator \"%s\"", name))
    if (length(y) != n) .arg_fail("y", "of the same length as the number of rows of 'x'")
    y <- if (loss == "logistic") .binary_labels(y) else {
      .check_finite_numeric(y, "y"); as.numeric(y)
    }
    lambda <- dots$lambda
    if (is.null(lambda)) .arg_fail("lambda", "given (the ridge penalty, a public constant)")
    .check_positive(lambda, "lambda")
    huber_c <- dots$huber_c %||% 1.345
    .check_positive(huber_c, "huber_c")
    xmax <- .box_max_norm(b)
    G_loss <- if (loss == "logistic") xmax else huber_c * xmax         # ||grad_theta l|| <= G
    L_loss <- if (loss == "logistic") xmax^2 / 4 else xmax^2           # Hessian bound
    spec$y <- y
    spec$d <- d
    spec$names <- colnames(x) %||% paste0("theta", seq_len(d))
    if (startsWith(name, "ridge")) {
      tol <- dots$tol %||% (1e-9 * max(G_loss, 1e-12))
      .check_positive(tol, "tol")
      spec$params <- list(lambda = lambda, huber_c = huber_c, tol = tol, smooth = L_loss + lambda)
      # 2 G / (lambda N) for the exact minimiser (Chaudhuri et al. 2011, Lemma 7) plus
      # 2 tol / lambda for the solver's certified distance to it (cr_gs.h).
      spec$sensitivity <- function(N) 2 * G_loss / (lambda * N) + 2 * tol / lambda
      spec$description <- sprintf("ridge %s regression (lambda = %g)", loss, lambda)
    } else {
      radius <- dots$radius
      if (is.null(radius)) .arg_fail("radius", "given (radius of the public l2 ball K for projected SGD)")
      .check_positive(radius, "radius")
      a <- dots$a %||% (2 / 3)
      if (!is.numeric(a) || length(a) != 1L || !(a > 0.5 && a < 1)) .arg_fail("a", "a single number in (1/2, 1)")
      G <- G_loss + lambda * radius                  # (16): gradient bound on K incl. the ridge term
      L <- L_loss + lambda                           # (16): Hessian bound incl. the ridge term
      if (is.null(dots$step_c)) {
        sch <- cpp_sgd_default_schedule(a, L, lambda)  # (18) with the largest admissible c
        step_c <- sch[["c"]]; t0 <- sch[["t0"]]
      } else {
        step_c <- dots$step_c
        .check_positive(step_c, "step_c")
        t0 <- cpp_sgd_t0(step_c, a, L, lambda)         # (18) for the given c
      }
      spec$params <- list(lambda = lambda, huber_c = huber_c, radius = radius, c = step_c, a = a, t0 = t0)
      spec$sensitivity <- function(N) 4 * G / (lambda * N)   # Lemma H.1
      spec$description <- sprintf("averaged SGD, %s loss (lambda = %g, t0 = %g)", loss, lambda, t0)
    }
  }
  spec
}

# CR-GS spec from the user's 'estimator' argument.
.cr_gs_spec <- function(estimator, x, bounds, dots) {
  if (is.character(estimator)) {
    if (length(estimator) != 1L || !(estimator %in% .cr_gs_builtins))
      .arg_fail("estimator", paste0("one of \"", paste(.cr_gs_builtins, collapse = "\", \""),
                                    "\" or a list (see ?cr_gs)"))
    return(.cr_gs_builtin_spec(estimator, x, bounds, dots))
  }
  if (!is.list(estimator) || is.null(estimator$fun))
    .arg_fail("estimator", "a built-in name or a list with element 'fun' (see ?cr_gs)")
  fun <- estimator$fun
  if (is.character(fun)) {
    spec <- .cr_gs_spec(fun, x, bounds, dots)
    if (!is.null(estimator$transform)) {
      if (fun != "mean") .arg_fail("estimator", "a 'transform' only with fun = \"mean\"")
      g <- estimator$transform
      if (!is.function(g)) .arg_fail("estimator$transform", "a function of the mean vector")
      L <- estimator$lipschitz
      if (is.null(L)) .arg_fail("estimator$lipschitz", "given (the l2 Lipschitz constant of 'transform')")
      .check_positive(L, "estimator$lipschitz")
      base <- spec$sensitivity
      spec$sensitivity <- function(N) L * base(N)   # Section 4, example 1: Delta(g o theta) <= L Delta(theta)
      spec$transform <- g
      spec$range <- NULL   # g(mean) has no declared range
      spec$description <- sprintf("%g-Lipschitz transform of a bounded mean", L)
      spec$name <- estimator$name %||% "transformed mean"
      spec$names <- NULL
    }
    if (!is.null(estimator$sensitivity)) {
      # A declared sensitivity may only enlarge the package's own bound.
      f <- estimator$sensitivity
      if (!is.function(f)) .arg_fail("estimator$sensitivity", "a function of the sample size N")
      own <- spec$sensitivity
      nn <- spec$n
      for (N in unique(c(2L, nn, max(2L, ceiling(nn / log(nn)))))) if (f(N) < own(N))
        .arg_fail("estimator$sensitivity", sprintf("at least the bound implied by 'bounds' (%g at N = %d)", own(N), N))
      spec$sensitivity <- function(N) max(f(N), own(N))
    }
    if (!is.null(estimator$tau)) spec$tau <- .check_scale_fun(estimator$tau)
    return(spec)
  }
  if (!is.function(fun)) .arg_fail("estimator$fun", "a function or the name of a built-in estimator")
  given <- names(dots)[!vapply(dots, is.null, logical(1))]
  if (length(given))
    .arg_fail(given[1L], "left out for a user estimator: the settings in '...' are those of the built-in estimators")
  sens <- estimator$sensitivity
  if (!is.function(sens)) .arg_fail("estimator$sensitivity", "a function N -> l2 global sensitivity on data sets of size N")
  X <- if (is.data.frame(x)) x else .as_data_matrix(x)
  clipped <- 0
  if (!is.null(bounds)) {
    X <- .as_data_matrix(X)
    b <- .cr_bounds(bounds, ncol(X))
    clipped <- .cr_count_outside(X, b)
    X <- .clip_matrix(X, b)
  }
  n <- NROW(X)
  list(name = estimator$name %||% "user estimator", kind = "r", fun = fun, x = X, y = numeric(0), n = n,
       sensitivity = function(N) { s <- sens(N); .check_sens_value(s); s },
       tau = if (is.null(estimator$tau)) .tau_sqrt else .check_scale_fun(estimator$tau),
       transform = NULL, d = NA_integer_, description = "user-supplied estimator", names = NULL,
       bounds = bounds, clipped = clipped)
}

.check_scale_fun <- function(tau) {
  if (!is.function(tau)) .arg_fail("estimator$tau", "a function N -> scale tau_N")
  function(N) { v <- tau(N); if (!is.numeric(v) || length(v) != 1L || !(v > 0)) .arg_fail("estimator$tau", "a function returning one positive number"); v }
}

.check_sens_value <- function(s) {
  if (!is.numeric(s) || length(s) != 1L || is.na(s) || !is.finite(s) || s < 0)
    .arg_fail("estimator$sensitivity", "a function returning one finite non-negative number")
}

# Rows of a (clipped) data object for R-level estimators.
.rows <- function(X, idx) if (is.matrix(X) && ncol(X) == 1L) X[idx, 1] else if (is.matrix(X) || is.data.frame(X)) X[idx, , drop = FALSE] else X[idx]

# CR-SS spec.
# The settings each CR-SS estimator reads (prob is cr_ss()'s argument, the others
# are in its `...`); "user" is an estimator given as a list.
.cr_ss_settings <- list(quantile = c("prob", "tau", "C", "beta"), ustat_product = c("degenerate", "beta"),
                        user = "beta")

.cr_ss_spec <- function(estimator, x, prob, bounds, dots, given = names(dots)) {
  kind <- if (is.character(estimator)) estimator else "user"
  extra <- setdiff(given, .cr_ss_settings[[kind]])
  if (length(extra))
    .arg_fail(extra[1L], sprintf("left out for %s, which does not use it",
                                 if (kind == "user") "a user estimator" else sprintf("estimator \"%s\"", kind)))
  if (is.character(estimator)) {
    X <- .as_data_matrix(x)
    if (ncol(X) != 1L) .arg_fail("x", sprintf("a numeric vector for estimator \"%s\"", estimator))
    b <- .cr_bounds(bounds, 1L)
    xv <- X[, 1]   # clipped to b inside the C++ glue
    spec <- list(name = estimator, kind = estimator, x = xv, n = length(xv), d = 1L, bounds = b,
                 params = list(lower = b$lower, upper = b$upper), clipped = .cr_count_outside(X, b))
    if (estimator == "quantile") {
      .check_open_unit(prob, "prob")
      C <- dots$C %||% (b$upper - b$lower)
      .check_positive(C, "C")
      spec$params$prob <- prob
      spec$params$C <- C
      spec$tau <- .tau_sqrt
      spec$description <- sprintf("sample quantile (prob = %g)", prob)
      spec$range <- b   # a quantile of data clipped to [lower, upper] lies in it
      spec$names <- sprintf("quantile(%g)", prob)
    } else {
      deg <- dots$degenerate %||% TRUE
      .check_flag(deg, "degenerate")
      spec$tau <- if (isTRUE(deg)) .tau_linear else .tau_sqrt
      spec$description <- "degenerate U-statistic, kernel x*y"
      spec$names <- "ustat_product"
      if (spec$n < 2L) .arg_fail("x", "of length at least 2")
    }
    return(spec)
  }
  if (!is.list(estimator) || !is.function(estimator$fun) || !is.function(estimator$smooth_sensitivity))
    .arg_fail("estimator", "\"quantile\", \"ustat_product\" or a list with functions 'fun' and 'smooth_sensitivity' (see ?cr_ss)")
  clipped <- 0
  X <- x
  if (!is.null(bounds)) {
    X <- .as_data_matrix(x)
    b <- .cr_bounds(bounds, ncol(X))
    clipped <- .cr_count_outside(X, b)
    X <- .clip_matrix(X, b)
  }
  if (is.matrix(X) && ncol(X) == 1L) X <- X[, 1]
  list(name = estimator$name %||% "user estimator", kind = "r", fun = estimator$fun,
       smooth_sensitivity = estimator$smooth_sensitivity, x = X, n = NROW(X), d = 1L,
       tau = if (is.null(estimator$tau)) .tau_sqrt else .check_scale_fun(estimator$tau),
       description = "user-supplied estimator with a declared beta-smooth sensitivity", names = NULL,
       bounds = bounds, params = list(), clipped = clipped)
}
