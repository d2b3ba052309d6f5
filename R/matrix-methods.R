# Matrix methods of the formula front ends. pgbb(x, y), dp_sgld(x, y) and
# pgbb_reference(x, y) fit `.response ~ <the columns of x>` through their formula
# methods, so that a matrix fit has the same bounds (a named list: one pair per
# column of x, `.response` for y), the same design, the same privacy accounting
# and the same result class as the formula fit; only the stored call differs.

# Columns of a covariate matrix as a data frame with the names the bounds use:
# the matrix's own column names, or x1, x2, ... when it has none.
.matrix_frame <- function(x, arg = "x") {
  if (is.data.frame(x)) {
    d <- x
  } else {
    if (!is.matrix(x) || !(is.numeric(x) || is.logical(x)))
      .arg_fail(arg, "a numeric matrix or a data frame of covariates (or a formula, see the formula method)")
    if (is.null(colnames(x)) && ncol(x) > 0L) colnames(x) <- paste0("x", seq_len(ncol(x)))
    d <- as.data.frame(x, stringsAsFactors = FALSE)
  }
  nm <- names(d)
  if (anyDuplicated(nm) || any(nm != make.names(nm)) || ".response" %in% nm)
    .arg_fail(arg, "a matrix or data frame whose columns have unique syntactic names other than '.response' (the names its bounds use)")
  rownames(d) <- NULL   # row names can identify records; a fit never needs them
  d
}

# The formula and data frame that a matrix method passes to its formula method.
# `dot_names` are the names of its `...`, unevaluated (a `subset` is evaluated
# in the data by model.frame()).
.matrix_model <- function(x, y, intercept, dot_names, caller) {
  taken <- intersect(dot_names, c("formula", "data"))
  if (length(taken))
    .arg_fail(taken[1L], sprintf("left out of %s(x, y, ...): the matrix method builds the model from 'x' and 'y'",
                                 caller))
  .check_flag(intercept, "intercept")
  d <- .matrix_frame(x)
  if (missing(y) || is.null(y)) .arg_fail("y", "the response vector (or give a formula as the first argument)")
  if (is.matrix(y) && ncol(y) == 1L) y <- drop(y)
  if (!(is.numeric(y) || is.logical(y)) || !is.null(dim(y)) || length(y) != nrow(d))
    .arg_fail("y", sprintf("a numeric vector with one value per row of 'x' (%d)", nrow(d)))
  if (ncol(d) == 0L && !intercept)
    .arg_fail("intercept", "TRUE when 'x' has no columns (the model would have no coefficient)")
  d$.response <- as.numeric(y)
  rhs <- if (ncol(d) > 1L) names(d)[names(d) != ".response"] else "1"
  # No environment that could reach the caller's data: every variable is in `d`.
  f <- stats::reformulate(rhs, response = ".response", intercept = intercept, env = baseenv())
  list(formula = f, data = d)
}

# The whole of a matrix method `fun`(x, y, ..., intercept): the model from `x`
# and `y`, fitted by `formula_method` with the same `...`, storing the matrix
# method's own call `cl` (its match.call()) under the generic's name.
# The formals start with a dot: a user's argument in `...` (formula = , say)
# would otherwise partially match one of them and shift the others.
.fit_matrix <- function(.method, .fun, .cl, .x, .y, .intercept, ...) {
  m <- .matrix_model(.x, .y, .intercept, setdiff(names(.cl)[-1L], c("x", "y", "intercept")), .fun)
  fit <- .method(m$formula, m$data, ...)
  .cl[[1L]] <- as.name(.fun)
  fit$call <- .release_call(.cl, .fun)
  fit
}
