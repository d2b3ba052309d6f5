# From a formula and *public* bounds to the unit-box design that the trainer
# sees (PGBB paper, SM S3.3: "covariates are scaled into the unit box ... using
# only each variable's publicly known range"). Privacy rule: nothing here may
# look at the data to choose a range, a scale or a clip; the data are only
# clipped into the declared ranges, and the number of clipped values is reported
# to the analyst (it is not part of the release).

# Term variables whose basis is computed from the data (orthogonal polynomials,
# spline knots at data quantiles, standardisation) would leak the data through
# the scaling itself, so they are refused.
# Compared with .fun_name(), so a namespace prefix (splines::ns) is no way round.
.data_dependent_bases <- c("poly", "ns", "bs", "scale", "cut")

# The name of the function a call calls, without its namespace (base::cut -> "cut");
# "" for anything else, so that a qualified name cannot slip past a list.
.fun_name <- function(expr) {
  if (!is.call(expr)) return("")
  f <- expr[[1L]]
  if (is.call(f) && length(f) == 3L && as.character(f[[1L]]) %in% c("::", ":::")) f <- f[[3L]]
  if (is.name(f) || is.character(f)) as.character(f) else ""
}

# A private fit's sensitivity argument needs every model variable of a record
# to be a function of that record alone and every category set to be public.
# A formula term can break both silently: scale(x) or I(x - mean(x)) mixes the
# other records into each row (changing one record moves every row, far beyond
# one record's gradient bound C), and factor(g) or cut(x, 3) takes its category
# set from the data (a neighbour with a new value gains a column: the release
# changes shape, which no noise hides). R cannot tell such functions apart, so
# a private fit accepts a term only if it is built from these record-wise
# functions and constants ...
.recordwise_functions <- c(
  "+", "-", "*", "/", "^", "%%", "%/%", "(", "I", "<", ">", "<=", ">=", "==", "!=", "&", "|", "!",
  "xor", "ifelse", "pmin", "pmax", "abs", "sign", "sqrt", "exp", "expm1", "log", "log2", "log10",
  "log1p", "floor", "ceiling", "round", "signif", "trunc", "sin", "cos", "tan", "asin", "acos", "atan",
  "sinh", "cosh", "tanh", "as.numeric", "as.double", "as.integer", "as.logical")
# ... and from factor()/ordered() with declared levels and relevel(), whose
# other arguments (levels, labels, exclude, ref), like the right side of %in%
# and the arguments of c() and `:`, must be constants: these functions may call
# nothing but the constant builders below, and name no data column.
.category_functions <- c("factor", "ordered", "relevel")
.constant_builders <- c("c", ":", "-", "seq", "seq_len", "seq.int", "rev", "as.character", "as.integer",
                        "as.numeric", "paste", "paste0", "sprintf")

# Refuses (naming the term) every model variable of a private fit that is not
# provably record-wise with a public category set (see above). `mt` the
# terms, `data_names` the data's column names. offset() terms are left to the
# front ends, which refuse them with their own message.
.check_recordwise_terms <- function(mt, data_names) {
  vars <- as.list(attr(mt, "variables"))[-1L]
  env <- environment(mt) %||% globalenv()
  for (v in vars) {
    if (.fun_name(v) == "offset") next
    bad <- .first_unverified_call(v, data_names) %||% .first_masked_call(v, env)
    if (is.null(bad)) next
    term <- paste(deparse(v, width.cutoff = 500L), collapse = " ")
    stop(sprintf(paste0(
      "'formula' has the term '%s', which calls %s: a private fit cannot verify that it uses each record ",
      "alone with public constants (functions such as scale(), mean(), poly() or cut() take values from the ",
      "whole data, and factor() without 'levels' takes its categories from the data, which changes the ",
      "release's columns). Create the variable in the data beforehand with public constants (a factor with ",
      "its public levels: factor(g, levels = ...)) and declare its bounds."), term, bad), call. = FALSE)
  }
  invisible(TRUE)
}

# The first call in `expr` that the record-wise rule does not admit, as text
# ("cut()", or "factor() without 'levels'"), or NULL when the whole expression
# is admitted.
.first_unverified_call <- function(expr, data_names) {
  if (!is.call(expr)) return(NULL)
  f <- .fun_name(expr)
  args <- as.list(expr)[-1L]
  if (f %in% .recordwise_functions) {
    for (a in args) if (!is.null(bad <- .first_unverified_call(a, data_names))) return(bad)
    return(NULL)
  }
  if (f %in% c("c", ":", "%in%")) {
    # Elementwise on their first argument only when the rest is constant.
    constant <- if (f == "%in%") args[-1L] else args
    for (a in constant) if (!.is_public_constant(a, data_names)) return(sprintf("%s() with a data value", f))
    if (f == "%in%") return(.first_unverified_call(args[[1L]], data_names))
    return(NULL)
  }
  if (f %in% .category_functions) {
    nm <- names(args) %||% rep("", length(args))
    if (f != "relevel" && !("levels" %in% nm || (length(args) >= 2L && nm[2L] == "")))
      return(sprintf("%s() without 'levels'", f))
    first <- which(nm %in% c("", "x"))[1L]
    if (is.na(first)) return(sprintf("%s() without its variable", f))
    for (a in args[-first]) if (!.is_public_constant(a, data_names))
      return(sprintf("%s() with levels or labels that are not constants", f))
    return(.first_unverified_call(args[[first]], data_names))
  }
  sprintf("%s()", if (nzchar(f)) f else paste(deparse(expr[[1L]]), collapse = ""))
}

# The lists above admit functions by name, and model.frame() calls whatever that
# name means where the formula was written: a user's `sqrt <- function(v) v -
# mean(v)` would pass as base's. The first call in `expr` to an admitted name
# that does not resolve to R's own function (base's, or stats' relevel()), as
# text, or NULL. A namespace prefix must be base's or stats' (`other::sqrt` is
# refused).
.first_masked_call <- function(expr, env) {
  if (!is.call(expr)) return(NULL)
  f <- expr[[1L]]
  name <- .fun_name(expr)
  if (name %in% c(.recordwise_functions, .category_functions, .constant_builders)) {
    own <- get0(name, envir = asNamespace("stats"), mode = "function")  # stats, then base
    qualified <- is.call(f) && length(f) == 3L && as.character(f[[1L]]) %in% c("::", ":::")
    if (qualified && !(as.character(f[[2L]]) %in% c("base", "stats")))
      return(sprintf("%s::%s()", as.character(f[[2L]]), name))
    fun <- if (qualified) own else get0(name, envir = env, mode = "function")
    if (!identical(fun, own))
      return(sprintf("%s(), which is not R's own %s() where the formula was written", name, name))
  }
  for (a in as.list(expr)[-1L]) if (!is.null(bad <- .first_masked_call(a, env))) return(bad)
  NULL
}

# A literal, a symbol that is not a data column (a constant the analyst
# defined beforehand), or a constant builder applied to such.
.is_public_constant <- function(expr, data_names) {
  if (is.name(expr)) return(!(as.character(expr) %in% data_names))
  if (is.atomic(expr)) return(TRUE)
  if (!is.call(expr) || !(.fun_name(expr) %in% .constant_builders)) return(FALSE)
  all(vapply(as.list(expr)[-1L], .is_public_constant, logical(1), data_names = data_names))
}

# Functions whose image of an interval is the interval of the images of its
# endpoints (monotone on their domain), so a declared bound on `v` gives a bound
# on `f(v)` without any data.
.monotone_transforms <- list(log = log, log2 = log2, log10 = log10, log1p = log1p,
                             sqrt = sqrt, exp = exp, expm1 = expm1)

.check_bound_pair <- function(b, name) {
  if (!is.numeric(b) || length(b) != 2L || anyNA(b) || any(!is.finite(b)))
    stop(sprintf("bounds for '%s' must be two finite numbers c(lower, upper).", name),
         call. = FALSE)
  if (!(b[1] < b[2]))
    stop(sprintf("bounds for '%s' must satisfy lower < upper (got %s, %s).", name,
                 format(b[1]), format(b[2])), call. = FALSE)
  # The unit-box map divides by the width and the default box multiplies it:
  # both must stay finite and representable.
  if (!is.finite(b[2] - b[1]) || any(abs(b) > 1e150))
    stop(sprintf(paste0("bounds for '%s' must be at most 1e150 in absolute value (got %s, %s): ",
                        "declare the variable's real public range."), name,
                 format(b[1]), format(b[2])), call. = FALSE)
  as.numeric(b)
}

.check_bounds_list <- function(bounds) {
  if (!is.list(bounds) || (length(bounds) > 0L && (is.null(names(bounds)) ||
                                                   any(names(bounds) == ""))))
    stop("'bounds' must be a named list of c(lower, upper) pairs, e.g. ",
         "list(education = c(0, 20), .response = c(0, 10)).", call. = FALSE)
  dup <- unique(names(bounds)[duplicated(names(bounds))])
  if (length(dup))
    .arg_fail("bounds", sprintf("a list with one entry per name (%s given more than once; only the first would be read)",
                                paste0("'", dup, "'", collapse = ", ")))
  for (nm in names(bounds)) .check_bound_pair(bounds[[nm]], nm)
  invisible(bounds)
}

# A bounds entry is read by name (a model-matrix column, a term variable, the
# variable inside a monotone transform, or .response), so a misspelt one (`z:x`
# for the column `x:z`) would be skipped silently and a wider derived bound used.
# Entries naming a column of `data` are allowed (one list may serve several
# formulas); any other name is an error.
.check_bounds_known <- function(bounds, frame) {
  vars <- rownames(attr(frame$mt, "factors")) %||% character(0)
  inner <- unlist(lapply(vars, function(v) {
    e <- tryCatch(str2lang(v), error = function(e) NULL)
    if (is.call(e)) all.vars(e) else character(0)
  }))
  known <- c(".response", colnames(frame$X), vars, inner, frame$data_names)
  stray <- setdiff(names(bounds), known)
  stray <- stray[!vapply(stray, .is_linear_name, logical(1))]   # read by .linear_bounds()
  if (length(stray))
    .arg_fail("bounds", sprintf(paste0("entries that name a variable of 'data', a term or column of the model, ",
                                       "or a linear combination of its columns; ",
                                       "%s name none (the model's columns: %s)"),
                                paste0("'", stray, "'", collapse = ", "),
                                paste(colnames(frame$X), collapse = ", ")))
  unread <- intersect(names(bounds), .categorical_names(frame))
  if (length(unread))
    .arg_fail("bounds", sprintf(paste0("numeric ranges only: %s %s categorical in this model (its 0/1 dummies are ",
                                       "coded from its levels), so a range there would not be read"),
                                paste0("'", unread, "'", collapse = ", "), if (length(unread) > 1L) "are" else "is"))
  invisible(TRUE)
}

# Linear bounds. A `bounds` entry named by a linear combination of numeric
# model columns, e.g. `educ + exper` = c(34, 43), declares the public range of
# that combination: public knowledge of how the variables are defined (here
# experience = age - education - 6, age 40-49), which confines the design to a
# narrower region than the box of the columns' own ranges. The coding
# (.linear_coordinates()) may use such a combination as a coordinate in place
# of a column, which shrinks the coded box to that region; the coefficients
# are mapped back exactly (.unscale_matrix()).

# TRUE for a name that is an arithmetic expression (the candidates for a linear bound).
.is_linear_name <- function(nm) {
  e <- tryCatch(str2lang(nm), error = function(e) NULL)
  is.call(e) && .fun_name(e) %in% c("+", "-", "*", "/", "(")
}

# The linear form of an expression in the columns `cols`: list(a, const) with
# a named coefficient vector, or a character error message.
.linear_form <- function(e, cols) {
  zero <- stats::setNames(numeric(length(cols)), cols)
  if (is.numeric(e) && length(e) == 1L && is.finite(e)) return(list(a = zero, const = e))
  if (is.symbol(e)) {
    nm <- as.character(e)
    if (!nm %in% cols) return(sprintf("'%s' is not a numeric column of the model", nm))
    zero[nm] <- 1
    return(list(a = zero, const = 0))
  }
  if (!is.call(e)) return("it is not an expression in the model's columns")
  f <- .fun_name(e)
  parts <- lapply(as.list(e)[-1L], .linear_form, cols = cols)
  bad <- Find(is.character, parts)
  if (!is.null(bad)) return(bad)
  is_const <- function(x) all(x$a == 0)
  comb <- function(x, y, s) list(a = x$a + s * y$a, const = x$const + s * y$const)
  scale <- function(x, k) list(a = k * x$a, const = k * x$const)
  n <- length(parts)
  if (f == "(" && n == 1L) return(parts[[1L]])
  if (f == "+" && n == 1L) return(parts[[1L]])
  if (f == "-" && n == 1L) return(scale(parts[[1L]], -1))
  if (f == "+" && n == 2L) return(comb(parts[[1L]], parts[[2L]], 1))
  if (f == "-" && n == 2L) return(comb(parts[[1L]], parts[[2L]], -1))
  if (f == "*" && n == 2L) {
    if (is_const(parts[[1L]])) return(scale(parts[[2L]], parts[[1L]]$const))
    if (is_const(parts[[2L]])) return(scale(parts[[1L]], parts[[2L]]$const))
    return("a product of two columns is not linear")
  }
  if (f == "/" && n == 2L && is_const(parts[[2L]]) && parts[[2L]]$const != 0)
    return(scale(parts[[1L]], 1 / parts[[2L]]$const))
  sprintf("'%s' is not linear (only +, -, and * or / by numbers)", deparse(e))
}

# The linear bounds of `bounds` on the model's columns: a list of
# list(name, a, range), `a` a coefficient vector over colnames(frame$X) and
# `range` the declared range of a'x (the constant moved across).
.linear_bounds <- function(bounds, frame) {
  X <- frame$X
  asg <- attr(X, "assign")
  eligible <- setdiff(colnames(X)[asg != 0L], .categorical_names(frame))
  out <- list()
  for (nm in names(bounds)) {
    if (nm %in% colnames(X) || !.is_linear_name(nm)) next
    vars <- all.vars(str2lang(nm))
    # As for a variable's own bound: one list may serve several formulas, so a
    # combination of data columns that this model does not use as columns is
    # not read here.
    if (length(vars) && all(vars %in% frame$data_names) && !all(vars %in% eligible)) next
    form <- .linear_form(str2lang(nm), eligible)
    if (is.character(form))
      .arg_fail("bounds", sprintf(paste0("an entry named by a linear combination of the model's numeric columns (%s) ",
                                         "or by a variable; '%s' is neither: %s"),
                                  paste(eligible, collapse = ", "), nm, form))
    if (all(form$a == 0)) .arg_fail("bounds", sprintf("a linear bound that involves a column; '%s' involves none", nm))
    a <- stats::setNames(numeric(ncol(X)), colnames(X))
    a[eligible] <- form$a
    out[[length(out) + 1L]] <- list(name = nm, a = a, range = .check_bound_pair(bounds[[nm]], nm) - form$const)
  }
  out
}

# The coordinates of the coding: rows of R (z = R x before centring and
# scaling), each a column (a row of the identity) or a declared linear bound,
# and their public ranges. A linear bound replaces a column when that shrinks
# the volume of the parallelepiped the coordinates' ranges span,
# prod_j (u_j - l_j) / |det R|, the public region the coded box covers: the
# noise is isotropic in the coded space, so a region the data cannot reach is
# noise spent on nothing. Greedy, best exchange first; public inputs only.
# Columns of exclusive indicator groups and the intercept keep their rows.
.linear_coordinates <- function(cb, lin, groups = list()) {
  p <- ncol(cb)
  R <- diag(p)
  dimnames(R) <- list(colnames(cb), colnames(cb))
  bnd <- cb
  free <- setdiff(which(!is.na(cb[1L, ])), unlist(lapply(groups, `[[`, "cols")))
  log_volume <- function(R, bnd) {
    d <- abs(det(R[free, free, drop = FALSE]))
    if (!(d > 1e-10)) return(Inf)
    sum(log(bnd[2L, free] - bnd[1L, free])) - log(d)
  }
  used <- rep(NA_integer_, length(lin))
  current <- log_volume(R, bnd)
  repeat {
    best <- list(v = current - 1e-9)
    for (c in which(is.na(used))) for (j in setdiff(free, used)) {
      if (lin[[c]]$a[j] == 0) next
      R2 <- R; R2[j, ] <- lin[[c]]$a
      b2 <- bnd; b2[, j] <- lin[[c]]$range
      v <- log_volume(R2, b2)
      if (v < best$v) best <- list(v = v, c = c, j = j, R = R2, b = b2)
    }
    if (is.null(best$c)) break
    R <- best$R; bnd <- best$b; current <- best$v
    used[best$c] <- best$j
    rownames(R)[best$j] <- lin[[best$c]]$name
  }
  unused <- vapply(lin[is.na(used)], `[[`, "", "name")
  if (length(unused))
    warning(sprintf(paste0("bounds: the linear bound(s) %s do not narrow the region that the columns' bounds ",
                           "and the other linear bounds span, so they were not used (and nothing was clipped to them)."),
                    paste0("'", unused, "'", collapse = ", ")), call. = FALSE)
  list(rows = if (any(!is.na(used))) R, bounds = bnd)
}

# The model's categorical (factor, character or logical) covariates and the
# names of the dummy columns of their main effects: their coding comes from
# the levels, never from `bounds`.
.categorical_names <- function(frame) {
  dc <- attr(frame$mt, "dataClasses")
  if (is.null(dc)) return(character(0))
  resp <- if (attr(frame$mt, "response") > 0L) names(dc)[1L] else character(0)
  cat_vars <- setdiff(names(dc)[dc %in% c("factor", "ordered", "character", "logical")], resp)
  asg <- attr(frame$X, "assign")
  labs <- attr(frame$mt, "term.labels")
  dummies <- if (is.null(asg)) character(0) else
    colnames(frame$X)[asg > 0L & labs[pmax(asg, 1L)] %in% cat_vars]
  c(cat_vars, dummies)
}

# Public interval of one numeric term variable, from `bounds`.
.variable_bound <- function(var, bounds) {
  if (!is.null(bounds[[var]])) return(.check_bound_pair(bounds[[var]], var))
  expr <- tryCatch(str2lang(var), error = function(e) NULL)
  if (is.call(expr) && length(expr) == 2L && is.symbol(expr[[2L]])) {
    fname <- deparse(expr[[1L]])
    inner <- as.character(expr[[2L]])
    f <- .monotone_transforms[[fname]]
    if (!is.null(f) && !is.null(bounds[[inner]])) {
      b <- .check_bound_pair(bounds[[inner]], inner)
      v <- suppressWarnings(f(b))
      if (all(is.finite(v)) && v[1] < v[2]) return(v)
      stop(sprintf("the declared bounds of '%s' are outside the domain of %s(); declare bounds for '%s' directly.",
                   inner, fname, var), call. = FALSE)
    }
  }
  stop(sprintf(paste0("no public bound for '%s'. Declare it in 'bounds', e.g. ",
                      "bounds = list(`%s` = c(lower, upper)); bounds are never taken from the data."),
               var, var), call. = FALSE)
}

# The contrast matrix of a categorical variable, built from its declared levels
# (not from the data values): `cm` as model.matrix() records it (a matrix, a
# function or its name); a logical has levels FALSE, TRUE.
.contrast_matrix <- function(f, cm) {
  lev <- if (is.logical(f)) c("FALSE", "TRUE") else levels(f)
  if (is.character(cm)) cm <- get(cm, mode = "function")
  if (is.function(cm)) cm <- cm(lev)
  as.matrix(cm)
}

# Public range of the entries a categorical variable contributes to model-matrix
# columns: its contrast matrix or 0/1 indicators.
.contrast_range <- function(f, cm) {
  if (is.logical(f)) return(c(0, 1))
  range(.contrast_matrix(f, cm), 0, 1)
}

# Interval product [a] * [b].
.interval_product <- function(a, b) {
  p <- c(a[1] * b[1], a[1] * b[2], a[2] * b[1], a[2] * b[2])
  c(min(p), max(p))
}

# Public [lower, upper] of every model-matrix column. Intercept: NA (not scaled).
# Columns of a term are products of the term's variables (numeric variables with
# their declared bounds, factors through their contrast matrices, whose entries
# are public), so interval arithmetic gives a valid public range for each.
.column_bounds <- function(X, mt, mf, bounds) {
  factors <- attr(mt, "factors")
  assign <- attr(X, "assign")
  contr <- attr(X, "contrasts")
  vars <- rownames(factors)
  var_kind <- vapply(vars, function(v) {
    val <- mf[[v]]
    if (is.matrix(val)) "matrix"
    else if (is.factor(val) || is.character(val) || is.logical(val)) "categorical"
    else "numeric"
  }, "")
  for (v in vars) {
    head <- tryCatch(.fun_name(str2lang(v)), error = function(e) "")
    if (is.character(mf[[v]]))
      stop(sprintf(paste0("'%s' is a character variable: its categories would be taken from the data. ",
                          "Make it a factor whose levels are the public category set."), v), call. = FALSE)
    if (var_kind[[v]] == "matrix" || head %in% .data_dependent_bases)
      stop(sprintf(paste0("the term '%s' builds its basis from the data (a privacy leak through the ",
                          "scaling); create the columns yourself with public constants and declare their bounds."),
                   v), call. = FALSE)
  }
  out <- matrix(NA_real_, 2L, ncol(X), dimnames = list(c("lower", "upper"), colnames(X)))
  for (j in seq_len(ncol(X))) {
    cn <- colnames(X)[j]
    if (assign[j] == 0L) next
    if (!is.null(bounds[[cn]])) { out[, j] <- .check_bound_pair(bounds[[cn]], cn); next }
    term_vars <- vars[factors[, assign[j]] > 0]
    iv <- c(1, 1)
    for (v in term_vars) {
      piece <- if (var_kind[[v]] == "categorical") .contrast_range(mf[[v]], contr[[v]])
               else .variable_bound(v, bounds)
      iv <- .interval_product(iv, piece)
    }
    if (!(iv[1] < iv[2]))
      stop(sprintf("the public range of column '%s' is a single point; drop it or declare its bounds.", cn),
           call. = FALSE)
    out[, j] <- iv
  }
  out
}

# The columns of every main-effect categorical term whose rows are mutually
# exclusive indicators (a treatment-coded factor, or its full dummy set when
# the model has no intercept; a logical). Such a term contributes one of only
# k public rows, one per declared level, so its share of ||z||^2 is the
# largest over those rows, not the sum of its columns' maxima: a k-level
# factor adds at most 1 (in 0/1 coding) where the box bound adds k - 1.
# Returns a list of list(cols, rows), rows a k x length(cols) 0/1 matrix.
.exclusive_groups <- function(X, mt, mf) {
  factors <- attr(mt, "factors")
  if (!length(factors)) return(list())
  assign <- attr(X, "assign")
  contr <- attr(X, "contrasts")
  order <- attr(mt, "order")
  out <- list()
  for (a in seq_along(order)) {
    if (order[a] != 1L) next
    v <- rownames(factors)[factors[, a] > 0]
    f <- mf[[v]]
    if (!(is.factor(f) || is.logical(f))) next
    cols <- which(assign == a)
    cm <- .contrast_matrix(f, contr[[v]])
    if (ncol(cm) != length(cols)) cm <- diag(nrow(cm))  # full dummies (no intercept)
    if (ncol(cm) != length(cols) || !all(cm %in% c(0, 1)) || any(rowSums(cm) > 1)) next
    out[[length(out) + 1L]] <- list(cols = cols, rows = unname(cm))
  }
  out
}

# Affine maps z_j = (x_j - shift_j) / width_j into the unit box, from the
# declared ranges only. With an intercept, `coding = "centred"` (the default)
# maps [lo_j, hi_j] onto [-1, 1] (shift = midpoint, width = half-width), and
# `coding = "unit"` onto [0, 1] (shift = lo_j, width = hi_j - lo_j; the unit box
# of SM S3.3). Both give |z_j| <= 1, so the gradient bound (B_x = 1 per
# column), the clip and the noise are the same; they differ in conditioning.
# The error that gradient noise leaves in an M-estimate is H^{-1} times the
# noise, and on [0, 1] every column is strongly correlated with the intercept,
# which inflates H^{-1} along that direction (about 2.2x the slope noise error
# for one uniform column). Without an intercept a shift would add
# an intercept the model does not have, so columns are only divided by
# max(|lower|, |upper|) and land in [-1, 1].
# A centre nearer the bulk of the data than the midpoint would decorrelate a
# skewed column from the intercept further, but keeping |z_j| <= 1 then needs
# the larger of its two distances to the bounds as the width, which shrinks
# the column's spread. Measured with the columns' own means as centres (an
# oracle: those means are private), 10 releases each: wider intervals on
# both real applications (1980 Census education at epsilon = 1, 3.75 against
# 3.00 %/yr; natality NOSMOKE at epsilon = 4, 887 against 437 g) and no gain
# in coverage, so the midpoint stays.
#
# Exclusive indicator groups (.exclusive_groups(), centred coding): each
# column is centred at 1/k, the share of a level when the k levels are equally
# common (a public choice; the actual shares are private), and all are divided
# by the common width w with w^2 = max over the k rows of ||row - 1/k||^2, so
# the group adds exactly 1 to the norm bound (.design_norm()), like one binary
# indicator, whatever k. For k = 2 this is the midpoint coding above. Centring
# each of the k - 1 dummies at its midpoint instead would add k - 1.
.design_codings <- c("centred", "unit")

.unit_maps <- function(cb, intercept, coding = "centred", groups = list()) {
  coding <- match.arg(coding, .design_codings)
  scaled <- !is.na(cb[1L, ])
  lo <- cb[1L, ]; hi <- cb[2L, ]
  if (intercept && coding == "centred") {
    shift <- ifelse(scaled, (lo + hi) / 2, 0)
    width <- ifelse(scaled, (hi - lo) / 2, 1)
    for (g in groups) {
      k <- nrow(g$rows)
      shift[g$cols] <- 1 / k
      width[g$cols] <- sqrt(max(rowSums((g$rows - 1 / k)^2)))
    }
  } else if (intercept) {
    shift <- ifelse(scaled, lo, 0)
    width <- ifelse(scaled, hi - lo, 1)
  } else {
    shift <- rep(0, length(scaled))
    width <- ifelse(scaled, pmax(abs(lo), abs(hi)), 1)
  }
  list(shift = unname(shift), width = unname(width), scaled = scaled, coding = coding)
}

# The exact public maximum of ||z|| over the coded design: the box bound
# sqrt(sum_j max(l_j^2, u_j^2)) of the scaled ranges, except that an exclusive
# indicator group contributes the largest squared norm of its k coded rows.
# A public constant: the trainers take it as the covariate norm bound B, from
# which the losses' gradient bounds (the clip) follow.
.design_norm <- function(cb, maps, groups = list()) {
  ur <- .unit_ranges(cb, maps)
  col_max <- pmax(ur$lower^2, ur$upper^2)
  in_group <- unlist(lapply(groups, `[[`, "cols"))
  total <- sum(col_max[setdiff(seq_along(col_max), in_group)])
  for (g in groups) {
    z <- sweep(g$rows, 2L, maps$shift[g$cols]) / rep(maps$width[g$cols], each = nrow(g$rows))
    total <- total + max(rowSums(z^2))
  }
  sqrt(total)
}

# The response as the trainer sees it, (y - y_shift) / y_unit, from its public
# bounds only. The trainer's steps (Adam's learning rate) and the quantile
# bandwidth are in the units of the parameters it trains, so without this a
# response in grams instead of kilograms moves every coefficient 1000 times
# slower: measured on one data set (n = 400, epsilon = Inf, Huber), slope
# intervals 10 times too narrow, covering the truth in 1 of 20 fits, against 20
# of 20 in kilograms. y_unit is the power of 10 that brings the range's width
# into (2, 20], the widths the defaults were measured at (log wages, birthweight
# in kg, the paper's simulations: unit 1 there, so their fits are unchanged);
# y_shift, the range's midpoint, is absorbed by the intercept and keeps float
# precision for a response far from 0 (only with an intercept: without one a
# shift would change the model). Huber's gradient and the smoothed quantile
# score are unit-free (with the bandwidth divided by y_unit too), so the clip,
# the noise and the guarantee are unchanged; the draws are mapped back exactly
# (.to_original_units()). Logistic and mean fits have their own scales.
.response_coding <- function(design, loss) {
  design$y_shift <- 0
  design$y_unit <- 1
  if (!loss %in% c("huber", "quantile")) return(design)
  yb <- design$y_bounds
  design$y_unit <- 10^ceiling(log10((yb[2] - yb[1]) / 20))
  if (design$intercept) design$y_shift <- (yb[1] + yb[2]) / 2
  design
}

# The public parameter box (rows: the design's coefficients, then Huber's scale)
# in the trainer's response coding (.response_coding()).
.coded_box <- function(box_m, design) {
  int <- .intercept_column(design)
  if (length(int)) box_m[int, ] <- box_m[int, ] - design$y_shift
  box_m / design$y_unit
}

# The design's intercept column (the first unscaled one of a model with an
# intercept), or integer(0).
.intercept_column <- function(design) utils::head(which(!design$maps$scaled & design$intercept), 1L)

# Public per-column range of the scaled design, as the trainers' `x_bounds`:
# the image of [lo_j, hi_j] under the map, and [1, 1] for the intercept.
.unit_ranges <- function(cb, maps) {
  if (!is.null(maps$rows)) cb <- maps$bounds   # the coordinates' ranges (.linear_coordinates())
  lower <- ifelse(maps$scaled, (cb[1L, ] - maps$shift) / maps$width, 1)
  upper <- ifelse(maps$scaled, (cb[2L, ] - maps$shift) / maps$width, 1)
  list(lower = unname(lower), upper = unname(upper))
}

# Clip columns into their public ranges, then scale into the unit box. A
# coordinate that is a linear bound (maps$rows) is computed from the clipped
# columns and clipped into its own range, so every coded record lies in the
# coded box, whose norm bound the clip rests on.
# `clipped` counts the clipped values per column and per linear bound (for
# the analyst's message).
.scale_to_unit <- function(X, cb, maps) {
  clipped <- stats::setNames(integer(ncol(X)), colnames(X))
  Z <- X
  for (j in which(maps$scaled)) {
    lo <- cb[1L, j]; hi <- cb[2L, j]
    x <- X[, j]
    clipped[j] <- sum(x < lo | x > hi)
    Z[, j] <- pmin(pmax(x, lo), hi)
  }
  lv <- .linear_values(Z, maps)
  for (k in seq_len(ncol(lv$values))) {
    lo <- lv$bounds[1L, k]; hi <- lv$bounds[2L, k]
    tol <- 1e-9 * (hi - lo)   # rounding in the sum is not a clipped record
    s <- lv$values[, k]
    clipped[colnames(lv$values)[k]] <- sum(s < lo - tol | s > hi + tol)
    Z[, lv$rows[k]] <- pmin(pmax(s, lo), hi)
  }
  for (j in which(maps$scaled)) Z[, j] <- (Z[, j] - maps$shift[j]) / maps$width[j]
  list(Z = Z, clipped = clipped)
}

# The values of the linear bounds a coding uses (maps$rows) at the rows of X:
# `values` (one column per bound, named by it), their declared ranges
# `bounds`, and the coordinates `rows` they take. Empty without linear bounds.
.linear_values <- function(X, maps) {
  if (is.null(maps$rows)) return(list(values = matrix(0, nrow(X), 0L), bounds = matrix(0, 2L, 0L), rows = integer(0)))
  lin <- which(rownames(maps$rows) != colnames(maps$rows))
  values <- unclass(X) %*% t(maps$rows[lin, , drop = FALSE])
  colnames(values) <- rownames(maps$rows)[lin]
  list(values = values, bounds = maps$bounds[, lin, drop = FALSE], rows = lin)
}

# Map coefficient draws on the scaled design back to original units: with
# z_j = (r_j'x - shift_j) / width_j (r_j the j-th row of maps$rows, a row of
# the identity unless coordinate j is a linear bound), x'beta = z'g gives
# beta_k = sum_j r_jk g_j / width_j and beta_0 = g_0 - sum_j g_j shift_j /
# width_j. A linear map of the draws: post-processing, no privacy cost.
.unscale_matrix <- function(maps, names) {
  p <- length(maps$width)
  A <- t(maps$rows %||% diag(p)) %*% diag(1 / maps$width, p)
  dimnames(A) <- list(names, names)
  int <- which(!maps$scaled)
  if (length(int)) A[int[1L], ] <- A[int[1L], ] - maps$shift / maps$width * maps$scaled
  A[int, int] <- 1
  A  # beta = A %*% g, g the coefficients on the scaled design
}
