# Public bounds: the covariate and response ranges and the parameter box.
# Everything here is declared by the user and never computed from the data;
# data outside the declared ranges is clipped to them.

# A per-column range: a length-2 vector (recycled to every column) or a k x 2
# matrix (lower, upper). Returns list(lower, upper). A matrix whose rows are all
# named is matched to `names` (the columns' or parameters' names) by name, so
# rows given in another order cannot bound the wrong column; a partly named one
# is positional, each name at its own position. Row names that fit neither are
# an error, not ignored.
.parse_ranges <- function(b, k, arg, allow_equal = TRUE, what = "column", names = NULL) {
  if (is.list(b) && !is.data.frame(b) && all(c("lower", "upper") %in% names(b)))
    b <- cbind(b$lower, b$upper)
  if (is.data.frame(b)) b <- as.matrix(b)
  if (is.numeric(b) && !is.matrix(b) && length(b) == 2L) b <- matrix(b, k, 2L, byrow = TRUE)
  if (!is.numeric(b) || !is.matrix(b) || nrow(b) != k || ncol(b) != 2L)
    .arg_fail(arg, sprintf("a vector c(lower, upper) or a %d x 2 matrix with one row per %s", k, what))
  rn <- rownames(b)
  if (!is.null(rn) && k > 1L && !all(nzchar(rn))) {
    # Some rows named: positional, and each name must be its position's.
    if (!is.null(names) && all(!nzchar(rn) | rn == names)) rn <- NULL
  }
  if (!is.null(rn) && k > 1L) {
    if (is.null(names) || anyDuplicated(rn) || !setequal(rn, names))
      .arg_fail(arg, sprintf(paste0("a matrix whose row names, if it has any, are the %s names %s (rows are ",
                                    "matched by name); got %s"), what,
                             if (is.null(names)) "(there are none to match)" else paste(sprintf("'%s'", names), collapse = ", "),
                             paste(sprintf("'%s'", rn), collapse = ", ")))
    b <- b[match(names, rn), , drop = FALSE]
  }
  if (anyNA(b) || any(!is.finite(b)))
    .arg_fail(arg, "finite (every bound is a public number)")
  bad <- if (allow_equal) b[, 1] > b[, 2] else b[, 1] >= b[, 2]
  if (any(bad))
    .arg_fail(arg, sprintf("ordered, lower %s upper in every row (row %d is not)",
                           if (allow_equal) "<=" else "<", which(bad)[1]))
  list(lower = as.numeric(b[, 1]), upper = as.numeric(b[, 2]))
}

# Clips the columns of x into [lower_j, upper_j]; returns the clipped matrix and
# the number of values changed. The count is a statistic of the confidential
# data: it may be shown to the analyst but must never be stored in a release.
.clip_columns <- function(x, r) {
  out <- cpp_clip_columns(x, r$lower, r$upper)
  # Nothing outside the bounds: x is returned as it is (no copy of a large design).
  if (out$clipped == 0) return(list(x = x, clipped = 0))
  dimnames(out$x) <- dimnames(x)
  out
}

# The one message of every front end about clipped values. `counts` is one
# number or a named vector of per-variable counts (shown when named).
.clip_message <- function(counts, arg, bounds_arg, caller) {
  total <- sum(counts)
  if (total > 0) {
    nz <- counts[counts > 0]
    by <- if (is.null(names(nz))) "" else
      sprintf(" (%s)", paste(sprintf("%s: %d", names(nz), as.integer(nz)), collapse = ", "))
    message(sprintf(paste0(
      "%s: %d value(s) of '%s' lay outside the declared '%s' and were clipped to them%s. ",
      "This count comes from the confidential data and is not differentially private: ",
      "it is shown to you and is not stored in the result (it is not part of the private release)."),
      caller, as.integer(total), arg, bounds_arg, by))
  }
  invisible(total)
}

# The public parameter box, one row per coordinate of theta. Positive scale
# coordinates (Huber's s, the Exponential mean) need a positive lower end.
.parse_box <- function(box, d, names, log_coords, loss) {
  if (missing(box) || is.null(box))
    .arg_fail("box", sprintf(paste0(
      "given: the public parameter box, a vector c(lower, upper) or a %d x 2 matrix ",
      "(one row per parameter: %s); it is never derived from the data"), d,
      paste(names, collapse = ", ")))
  r <- .parse_ranges(box, d, "box", allow_equal = FALSE, what = "parameter", names = names)
  if (any(log_coords & !(r$lower > 0))) {
    j <- which(log_coords & !(r$lower > 0))[1]
    .arg_fail("box", sprintf(paste0(
      "positive at its lower end for the scale parameter '%s' of loss '%s' (row %d), ",
      "e.g. a %d x 2 matrix whose last row is c(0.01, 10)"), names[j], loss, j, d))
  }
  list(lower = r$lower, upper = r$upper, log = as.logical(log_coords))
}

.box_matrix <- function(box, names) {
  m <- cbind(lower = box$lower, upper = box$upper)
  rownames(m) <- names
  m
}
