#' Fit a private generative Bayesian bootstrap (PGBB) generator
#'
#' The matrix-level PGBB fitter. It splits the `n` records into `blocks`
#' random blocks (drawn independently of the data), then trains a neural
#' generator \eqn{G(u)} of blocked Bayesian-bootstrap draws by the noisy
#' gradient scheme of eq. (4) of the PGBB paper (Algorithm 1; Algorithm 2 and
#' Section 2.5 when `tau` is a grid): at every iteration and Monte Carlo draw a
#' Poisson subset of the records (rate `rate`), block weights
#' \eqn{u \sim \mathrm{Dirichlet}(\gamma 1_S)}, the per-record gradients of the
#' loss clipped to norm `clip`, weighted by \eqn{u_{\pi(j)}/n_{\pi(j)}}, summed,
#' and perturbed by \eqn{N(0, \sigma^2 I)}. The noise scale \eqn{\sigma} comes
#' from the privacy accountant ([pgbb_sigma()]) for the requested
#' \eqn{(\epsilon, \delta)} with exactly the settings used in training. After
#' training, any number of posterior draws ([posterior_draws()]) costs no
#' further privacy (post-processing).
#'
#' @section Public inputs: Everything that the privacy guarantee depends on is
#'   declared, never estimated: the covariate ranges `x_bounds` (and `y_bounds`
#'   where the loss needs them), the parameter `box`, `n`, and all tuning
#'   settings. Data outside the declared ranges is clipped to them; the number
#'   of clipped values is reported in a message to you, the analyst, and is not
#'   part of the result (it is not private). The gradient bound `clip` defaults
#'   to the loss's bound over the declared ranges (below); every per-record
#'   gradient is additionally clipped to norm `clip` before it enters the
#'   statistic, so the guarantee holds whatever the data.
#'
#' @section Losses and their default gradient bounds:
#' \describe{
#'   \item{`"huber"`}{Huber regression with a scale, \eqn{\theta = (\beta, s)},
#'     \eqn{l = s \rho_c((y - x'\beta)/s) + \kappa s / 2} (Section 5.1), with
#'     bound \eqn{C_H = \sqrt{c^2 B^2 + ((c^2 + \kappa)/2)^2}}, where
#'     \eqn{B = \sqrt{\sum_j \max(l_j^2, u_j^2)}} bounds \eqn{\|x\|} over
#'     `x_bounds` (\eqn{B = B_x \sqrt{p}} for the box \eqn{[-B_x, B_x]^p} of SM
#'     S3.2). The last row of `box` is the scale's range and must be positive.}
#'   \item{`"quantile"`}{Convolution-smoothed quantile loss with a Gaussian kernel of
#'     bandwidth `bandwidth` (Section 6); bound \eqn{\max(\tau, 1 - \tau) B}, and for a
#'     grid of levels the level-uniform \eqn{\max_\tau \max(\tau, 1-\tau) B}.}
#'   \item{`"mean"`}{Gaussian mean with known `scale`, clipped score (Section 5.2):
#'     default `clip = 8` (or the exact bound over `x_bounds` and `box` if smaller).}
#'   \item{`"exponential"`}{Exponential mean \eqn{\mu}, \eqn{l = \log\mu + x/\mu}; the
#'     score is clipped and privatised on the log scale, \eqn{\partial l/\partial\log\mu =
#'     1 - x/\mu} (the paper does not name the parametrisation; the score in \eqn{\mu},
#'     \eqn{(\mu - x)/\mu^2}, fades as \eqn{1/\mu} and let the privacy noise push fits at
#'     n = 500 to the face of the box). Default `clip = 8` likewise, or the exact bound
#'     \eqn{\max |1 - x/\mu|} over `x_bounds` and `box` if smaller.}
#'   \item{`"logistic"`}{Logistic regression with \eqn{y \in \{0, 1\}}; bound \eqn{B}.}
#'   \item{`"squared"`}{Least squares with clipped score; the default bound needs `y_bounds`.}
#' }
#'
#' @section The generator: A ReLU network with `hidden` widths whose input,
#'   the block weights \eqn{S u} (and \eqn{2(\tau - 1/2)} for a grid of
#'   levels), is also fed to every later layer (SM S3.2). Its output is mapped
#'   into `box` by a soft clip: the identity on the central 90% of each
#'   coordinate's range, with smooth tanh shoulders in the outer 5% on each
#'   side (positive scales on the log scale), so every draw lies inside the
#'   box; training back-propagates through the shoulders with the slope of
#'   the unclipped map (straight-through), so a draw that the privacy noise
#'   pushed against a face still gets the loss's full gradient back towards
#'   the interior instead of sticking there. Posterior mass near a face is
#'   pulled inwards, so choose a generous box. Training uses Adam with a
#'   decaying learning rate (to `lr_floor` times `learning_rate`, see
#'   `schedule`) or plain SGD, after a warm-up (`warmup`, a fraction of `iterations`) in which
#'   only the output bias moves, from the box centre towards the data.
#'
#' @section Accuracy of the generator: The trained generator approximates the
#'   exact blocked bootstrap (compare with [blocked_bootstrap()] on the same
#'   `partition`). Its error has the parts of Theorem 3.1: optimisation,
#'   amortisation, and the noise of the stochastic gradients, which includes
#'   the Poisson subsampling (rate `q`) as well as the privacy noise. Without
#'   privacy noise and with `rate = 1`, a 3 x 64 generator trained for 3000
#'   iterations reproduces the exact blocked bootstrap of a Huber regression
#'   (n = 2000, S = 20) to within 0.04 posterior SD in the means and 1% in the
#'   SDs; at `rate = 0.1` the subsampling noise inflates the SDs by 5-40% at
#'   that n. Private fits add the privacy noise on top, which is the point.
#'
#' @param x Numeric matrix of covariates (one row per record); for the mean
#'   losses, the variable(s) whose mean is estimated.
#' @param y Response vector (regression losses; `NULL` for the mean losses).
#' @param loss One of `"huber"`, `"quantile"`, `"mean"`, `"exponential"`,
#'   `"logistic"`, `"squared"`.
#' @param epsilon Privacy budget \eqn{\epsilon > 0}. Give exactly one of
#'   `epsilon` and `sigma`.
#' @param delta Privacy parameter \eqn{\delta}; defaults to `min(1e-6, 0.01 / n)` (see [pgbb_privacy]); the paper uses `1/n`.
#' @param sigma Noise standard deviation to use directly instead of
#'   `epsilon`; `sigma = 0` fits the non-private generative blocked bootstrap.
#' @param box The public parameter box: a vector `c(lower, upper)` for every
#'   coordinate, or a `d` x 2 matrix (for `"huber"`, `d = p + 1` and the last
#'   row bounds the scale).
#' @param tau Quantile level(s) for `loss = "quantile"` (default 0.5); several
#'   levels train one joint generator \eqn{G(u, \tau)} under one budget. Any
#'   order: the fit keeps it (`tau_prob` follows the same order), and the
#'   generator is trained on the sorted grid, so the order changes no result.
#' @param blocks Number of blocks `S`.
#' @param gamma Dirichlet concentration of the block weights; default
#'   [gamma_star()]`(n, blocks)`.
#' @param rate Poisson subsampling rate `q`: in (0, 1) for a private fit (the
#'   accountant's amplification needs q < 1), in (0, 1] with `sigma = 0`.
#' @param iterations Number of training iterations `T` in all: each of the
#'   `runs` trainings takes `floor(T / runs)` of them, so the privacy cost and the
#'   compute do not depend on `runs`.
#' @param runs Number of independent trainings `R` (default 1, Algorithms 1-2),
#'   each with a fresh partition, subsampling and noise; the accountant counts
#'   all their releases. With `R > 1` the draws are pooled into noise-aware
#'   draws (see [pgbb()], 'Noise-aware intervals').
#' @param threads Threads for the training, `NULL` (default) for
#'   `getOption("pgbb.threads", 1)`. With `runs > 1` the runs train side by
#'   side, `min(threads, runs)` at a time; threads left over go to the subset
#'   pass of a run (the Poisson subsets and the clipped gradient sums, steps 1
#'   and 4 of Algorithm 1), whose work is cut into the same units for any
#'   number of threads (262,144 records per unit, for each of the `mc` draws)
#'   and summed exactly. Each run depends only on its own keys and partition,
#'   so the fit is bit-identical for every value, and the privacy guarantee
#'   does not depend on it. Progress and interrupts are handled on R's thread
#'   throughout. More threads pay off on idle cores (see `bench/README.md`);
#'   on cores busy with other work (several fits at once) they slow a fit
#'   down, hence the default of one.
#' @param share_partition `TRUE`: the `runs` trainings share one random
#'   partition (fresh subsampling and noise each) and the pooled draws average
#'   the runs' deviations at common block weights, which keeps the blocked
#'   bootstrap's sampling spread and divides by `runs` the spread each run's
#'   gradient noise adds (see [pgbb()], 'Noise-aware intervals'). One
#'   partition's spread rests on `blocks - 1` degrees of freedom, so the
#'   averaged deviations are drawn as a t on that many (a per-draw scale
#'   factor: post-processing). The guarantee is the same: it holds for every
#'   fixed partition. Default `FALSE` (a fresh partition per run).
#' @param mc Monte Carlo draws `K` of the block weights per iteration.
#' @param hidden Widths of the hidden layers.
#' @param optimizer `"adam"` or `"sgd"`.
#' @param learning_rate Initial learning rate.
#' @param clip Per-record gradient bound `C` (see the section on losses); `NULL`
#'   for the loss's default.
#' @param ... Further arguments for the accountant ([pgbb_sigma()],
#'   [pgbb_epsilon()]), such as `orders`.
#' @param x_bounds Public range of every covariate: `c(lower, upper)` for all
#'   columns or a `p` x 2 matrix. Required by the regression losses.
#' @param y_bounds Public range `c(lower, upper)` of the response (optional;
#'   needed for the default bound of `"squared"`).
#' @param x_norm Optional public bound on \eqn{\|x\|} tighter than the one
#'   `x_bounds` implies, from the design's structure (e.g. mutually exclusive
#'   indicators: [pgbb()] passes the exact maximum over its coded design).
#'   The default gradient bound uses the smaller of the two. A record whose
#'   norm exceeds it has its gradient clipped to `clip` like any other, so the
#'   guarantee holds either way; a bound that is too small only biases the fit.
#' @param tau_prob Sampling probabilities of the levels in `tau` during joint
#'   training, positive (normalised to sum to 1); default proportional to
#'   \eqn{1/(\tau(1-\tau))} (Section 6).
#' @param bandwidth Smoothing bandwidth `h` of the quantile loss.
#' @param huber_c,huber_kappa Huber constants `c` and \eqn{\kappa}.
#' @param scale Known standard deviation of the Gaussian mean model.
#'   Each loss setting (`bandwidth`, `huber_c`, `huber_kappa`, `scale`, and the
#'   quantile levels' `tau_prob`, `tau_basis`, `level_interactions`,
#'   `level_noise`) is an error when given with a loss that does not read it.
#' @param draws Number of posterior draws stored in the fit (per level).
#' @param lr_floor Final learning rate as a fraction of `learning_rate`.
#' @param schedule Learning-rate decay from `learning_rate` to `lr_floor`
#'   times it over the `iterations`: `"cosine"` (default here, the paper's,
#'   SM S3.2) or `"harmonic"`, \eqn{\eta_t = \eta / (1 + (1/f - 1) t / (T - 1))},
#'   a Robbins-Monro-like decay that keeps the wandering of the noisy
#'   iterates near the error of the estimate (measured in [pgbb()], 'Noise-aware
#'   intervals'; [pgbb_control()]'s default stays the cosine). Post-processing: no
#'   privacy cost.
#' @param warmup Fraction of the iterations that update only the output bias.
#' @param tau_basis Level features of a joint generator \eqn{G(u, \tau)}: `"grid"`
#'   (default) adds to \eqn{(\tau, \Phi^{-1}(\tau))} one hat function per level of
#'   the (public) grid, so every level has free offsets of the coefficients on the
#'   direct path and sharp level profiles are learned as fast as separate fits
#'   would (levels between grid points interpolate linearly); `"smooth"` keeps
#'   the two smooth features only (the setting of earlier versions). A choice of
#'   architecture: no effect on the privacy guarantee.
#' @param level_interactions For a joint fit with `tau_basis = "grid"`: also
#'   feed the generator the products \eqn{u_s h_l(\tau)} of the block weights
#'   with the level hats (default `TRUE`), so that its linear path from the
#'   block weights to the output differs between levels and the draws' spread
#'   (the blocked bootstrap's) can grow towards the tails as the sampling error
#'   of a quantile regression does. Without them the trained generators gave
#'   every level the same spread: on the 1980 Census, non-private, the 95\%
#'   intervals of `educ` and `black` at \eqn{\tau = 0.1} were as wide as at
#'   the median and covered the rq fit in 7 of 10 fits (10 of 10 and 9 of 10
#'   with the products). `FALSE` is the generator of earlier versions and of
#'   `pgbb_control(paper = TRUE)`. A choice of architecture: no effect on the
#'   privacy guarantee.
#' @param level_noise For a joint fit over several levels, how the clip and
#'   the noise of a draw depend on its level: `"scaled"` (default) clips a
#'   draw at level \eqn{\tau} at its own bound \eqn{C_\tau = \max(\tau, 1 -
#'   \tau) B} (at most `clip`) and adds noise \eqn{\sigma C_\tau / C_*}, so
#'   that every release has the bound-to-noise ratio \eqn{C_* / \sigma} the
#'   accountant is given; `"uniform"` clips and noises every level at the
#'   level-uniform \eqn{C_*} (Algorithm 2, the paper's setting). The
#'   accountant depends on the clip and the noise only through their ratio,
#'   and the level is drawn independently of the data, so both have the same
#'   guarantee; `"scaled"` adds less noise at the central levels (at
#'   \eqn{\tau = 0.5} on a grid reaching 0.1 or 0.9, 0.56 times as much).
#'   The per-level scales \eqn{C_\tau / C_*} are in `fit$ledger$level_scale`.
#' @param average_from Tail averaging of the generator's weights: the trained
#'   generator is the mean of the weights (every 10th iterate) over the
#'   iterations after the first `average_from` fraction of each run
#'   (Polyak-Ruppert averaging), instead of the last iterate. The default 1 averages nothing. Averaging the iterates is
#'   post-processing of the released DP-SGD iterates of Algorithm 1, so it has no
#'   privacy cost.
#' @param accountant,conversion,J,m,alpha Accountant settings passed to
#'   [pgbb_sigma()] and recorded in the ledger.
#' @param precision `"float"` (default) or `"double"` storage and arithmetic
#'   for the network weights, Adam's moments and the stored design rows during
#'   training. Single precision halves the memory the weight update sweeps
#'   through each iteration (the update is memory-bound) and doubles the SIMD
#'   width: about 1.6-2 times faster, with the same results to three decimals
#'   in our comparisons with the exact bootstrap. Loss gradients, clipping and
#'   noise are always computed in double precision, and posterior draws are
#'   evaluated in double precision. Use `"double"` for responses or
#'   covariates whose declared range needs more than 7 significant digits.
#' @param partition Optional block ids (as from [block_partition()]), allowed
#'   only for non-private fits (`sigma = 0`), e.g. to compare with
#'   [blocked_bootstrap()] on the same blocks. Private fits always draw their own
#'   partition independently of the data.
#' @param keep_runs `TRUE` keeps each run's own draws (the ones `draws` pools)
#'   in `run_draws`: a list of `runs` arrays `[draw, parameter, level]`, all at
#'   the same block weights, for diagnostics of the run-to-run spread (and for
#'   [pgbb()], which pools them again in the original units). Default `FALSE`.
#' @param progress Show a progress bar.
#' @return An object of class `pgbb_fit`: a list with `coefnames` (the parameter names),
#'   `draws` (a `draws` x `d` matrix, or a `draws` x `d` x `length(tau)` array
#'   for a grid of levels), `ledger` (the privacy ledger: `epsilon`, `delta`,
#'   `sigma`, `accountant`, `conversion`, `order`, `iterations`, `mc`, `rate`,
#'   `blocks`, `gamma`, `clip`, `n`, `alpha`, `J`, `m`), the loss and its
#'   settings, the levels, the box and bounds, and the `generator` (weights as
#'   plain R matrices, so a saved and reloaded fit still produces draws), and
#'   `box_share`: per coordinate (and level), the share of the draws in the
#'   outer 5% of the box on either side. Above 1% the fit warns, since an
#'   interval end may then be set by the box rather than the data. And
#'   `stationarity`: per level (rows) and coefficient of the coded design, the
#'   mean of the released noisy gradients over the second half of the
#'   trainings, divided by the standard deviation their noise and subsampling
#'   would give it if the generator had settled (a function of released values
#'   only, so it costs no privacy budget). Settled fits stay near or below 1
#'   (the optimiser cancels part of its own noise); beyond 10 in absolute
#'   value the fit warns (class `pgbb_unsettled`): training stopped while the
#'   data still pulled the generator one way, an error the intervals do not
#'   include. The check is one-sided: a small value does not prove that
#'   training converged. Along directions the loss barely curves (an intercept
#'   against a binary covariate that is 1 for most records) the pull is weak
#'   while the distance to the optimum is large: on the natality births with 10
#'   runs of 1,000 iterations the intercept sat 3-5 total sds from `rq` at
#'   \eqn{\epsilon = 4} with every value below 1. It has
#'   `print`, `summary`, `coef`, `confint`, `vcov` and [posterior_draws()]
#'   methods. The fit contains no record-level data, no partition (for private
#'   fits) and no random seed.
#'
#' @note The privacy noise is keyed from the operating system, so a fit cannot
#'   be reproduced by default. With `options(pgbb.seeded_noise = TRUE)`,
#'   `set.seed()` before `pgbb_fit()` reproduces the fit bit for bit (on the
#'   same build and CPU family); such a fit is labelled and is not for
#'   publication (see [pgbb_privacy], "Randomness").
#' @references PGBB paper: eq. (4), Algorithms 1 and 2 (SM S1.2), Sections 2.5,
#'   5 and 6, SM S3.2-S3.3.
#' @examples
#' set.seed(1)
#' n <- 500
#' x <- cbind(1, runif(n, -1, 1))
#' y <- drop(x %*% c(1, 2)) + rt(n, 3) / 2
#' fit <- pgbb_fit(x, y, loss = "huber", sigma = 0, box = rbind(c(-5, 5), c(-5, 5), c(0.01, 5)),
#'                 x_bounds = c(-1, 1), blocks = 10, rate = 1, iterations = 300,
#'                 hidden = c(16, 16), learning_rate = 3e-3, draws = 200)
#' fit
#' @export
pgbb_fit <- function(x, y = NULL, loss, epsilon = NULL, delta = NULL, sigma = NULL, box,
                     tau = NULL, blocks = 20, gamma = gamma_star(n, blocks), rate = 0.1,
                     iterations = 10000, mc = 1, hidden = c(256, 256, 256), optimizer = "adam",
                     learning_rate = 5e-4, clip = NULL, ..., x_bounds = NULL, y_bounds = NULL,
                     x_norm = NULL, tau_prob = NULL, bandwidth = 0.1, huber_c = 1.345, huber_kappa = 0.71,
                     scale = 1, draws = 2000, lr_floor = 0.01, schedule = c("cosine", "harmonic"),
                     warmup = 0.05, average_from = 1,
                     accountant = "dirichlet", conversion = "asoodeh", J = 32, m = 5, alpha = 0,
                     precision = c("float", "double"), partition = NULL, runs = 1,
                     share_partition = FALSE,
                     tau_basis = c("grid", "smooth"), level_interactions = TRUE,
                     level_noise = c("scaled", "uniform"),
                     threads = NULL, keep_runs = FALSE, progress = interactive()) {
  matched <- match.call()
  call <- .release_call(matched, "pgbb_fit")
  given <- names(matched)[-1L]
  if (missing(loss)) .arg_fail("loss", sprintf("one of %s", paste0("\"", .pgbb_losses, "\"", collapse = ", ")))
  if (!is.character(loss) || length(loss) != 1L || !(loss %in% .pgbb_losses))
    .arg_fail("loss", sprintf("one of %s", paste0("\"", .pgbb_losses, "\"", collapse = ", ")))
  .refuse_unread_settings(given, loss, "pgbb_fit")
  precision <- .match_arg(precision)
  tau_basis <- .match_arg(tau_basis)
  .check_flag(level_interactions, "level_interactions")
  level_noise <- .match_arg(level_noise)

  # Data ------------------------------------------------------------------
  x <- .as_design(x, loss)
  n <- nrow(x)
  p <- ncol(x)
  y <- .check_response(y, n, loss)
  .check_loss_settings(huber_c, huber_kappa, bandwidth, scale)
  # The levels stay in the user's order in the fit (every output is labelled by
  # its own level); the trainer gets them sorted, with their sampling weights
  # permuted alike, so a grid in any order trains the same generator.
  tau_user <- if (loss == "quantile" && !is.null(tau)) as.numeric(tau) else NULL
  tau <- .check_tau(tau, loss)
  joint <- length(tau) > 1L
  tau_prob <- .check_tau_prob(tau_prob, tau_user %||% tau)   # in the user's order
  level_order <- if (is.null(tau_user)) seq_along(tau) else order(tau_user)

  # Tuning ----------------------------------------------------------------
  .check_count(blocks, "blocks", min = 2, max = n)
  .check_positive(gamma, "gamma")
  .check_rate(rate)
  .check_count(iterations, "iterations", max = .Machine$integer.max)
  .check_count(mc, "mc", max = 1e4)
  hidden <- .check_hidden(hidden)
  if (!is.character(optimizer) || length(optimizer) != 1L || !(optimizer %in% c("adam", "sgd")))
    .arg_fail("optimizer", "\"adam\" or \"sgd\"")
  .check_positive(learning_rate, "learning_rate")
  .check_fraction(lr_floor, "lr_floor")
  schedule <- .match_arg(schedule)
  if (schedule == "harmonic" && lr_floor == 0) .arg_fail("lr_floor", "above 0 for the harmonic schedule")
  .check_fraction(warmup, "warmup", below_one = TRUE)
  .check_fraction(average_from, "average_from")
  .check_count(draws, "draws", max = 1e7)
  .check_count(runs, "runs", max = 1000)
  .check_flag(share_partition, "share_partition")
  threads <- .check_threads(threads)
  if (runs > iterations)
    .arg_fail("runs", sprintf("at most 'iterations' (%s): every run needs at least one iteration", format(iterations)))
  iterations <- floor(iterations / runs)   # per run
  .check_flag(keep_runs, "keep_runs")
  .check_flag(progress, "progress")

  # Public bounds ---------------------------------------------------------
  d <- .loss_dim(loss, p)
  xnames <- .design_names(x)
  coefnames <- .coef_names(loss, xnames)
  box <- .parse_box(box, d, coefnames, .loss_log_coords(loss, d), loss)
  if (is.null(x_bounds)) {
    if (.loss_needs_y(loss))
      .arg_fail("x_bounds", paste0(
        "given for loss '", loss, "': the public range of every covariate, c(lower, upper) ",
        "or a ", p, " x 2 matrix (the gradient bound depends on it; it is never derived from the data)"))
    xr <- NULL
  } else {
    xr <- .parse_ranges(x_bounds, p, "x_bounds", names = xnames)
    cl <- .clip_columns(x, xr)
    x <- cl$x
    .clip_message(cl$clipped, "x", "x_bounds", "pgbb_fit()")
  }
  yr <- NULL
  if (!is.null(y_bounds)) {
    if (!.loss_needs_y(loss)) .arg_fail("y_bounds", sprintf("NULL for loss '%s' (it has no response)", loss))
    yr <- .parse_ranges(y_bounds, 1L, "y_bounds")
    cl <- .clip_columns(matrix(y), yr)
    y <- drop(cl$x)
    .clip_message(cl$clipped, "y", "y_bounds", "pgbb_fit()")
  }
  spec <- .loss_spec(loss, p, huber_c, huber_kappa, bandwidth, scale)
  if (!is.null(x_norm)) {
    if (is.null(xr)) .arg_fail("x_norm", "NULL unless 'x_bounds' is given")
    .check_positive(x_norm, "x_norm")
  }
  bounds <- list(x_lower = xr$lower, x_upper = xr$upper, y_lower = yr$lower, y_upper = yr$upper,
                 x_norm = x_norm)
  natural <- cpp_loss_bound(spec, bounds, box, tau)
  clip <- .choose_clip(clip, natural, loss)
  level_scale <- .level_release_scale(level_noise, spec, bounds, box, tau, clip)

  # Privacy ---------------------------------------------------------------
  if (is.null(delta)) delta <- .default_delta(n)
  .check_delta(delta)
  if (is.null(epsilon) == is.null(sigma))
    stop("Give exactly one of 'epsilon' (a privacy budget) and 'sigma' (a noise scale).", call. = FALSE)
  if (!is.null(epsilon)) .check_positive(epsilon, "epsilon", allow_inf = TRUE)
  if (!is.null(sigma)) .check_nonneg(sigma, "sigma")
  nonprivate <- (!is.null(sigma) && sigma == 0) || (!is.null(epsilon) && is.infinite(epsilon))
  .check_enough_records(n, blocks, !nonprivate, hint = "'blocks'")
  if (!is.null(partition)) {
    if (!nonprivate)
      .arg_fail("partition", paste0("NULL for a private fit: the partition must be drawn independently ",
                                    "of the data (Section 2.2.2); give it only with sigma = 0"))
    if (length(partition) != n) .arg_fail("partition", sprintf("of length %d (one id per record)", n))
    .check_blocks(partition, blocks, "partition")
  }
  # The trainer has no pseudo-samples (Section 2.2, alpha = 0): accounting
  # with alpha > 0 would give too little noise for what is trained.
  if (!identical(as.numeric(alpha), 0))
    .arg_fail("alpha", "0: pseudo-samples (alpha > 0, SM S2.3.2) are not implemented by the trainer")
  ledger <- .privacy_ledger(epsilon, delta, sigma, n = n, blocks = blocks, gamma = gamma, clip = clip,
                            rate = rate, iterations = iterations, mc = mc, J = J, m = m,
                            alpha = alpha, accountant = accountant, conversion = conversion,
                            runs = runs, ...)
  if (joint) ledger$level_scale <- stats::setNames(level_scale, format(tau))
  ledger$signal_to_noise <- .signal_to_noise(ledger)
  .warn_uninformative(ledger)

  # Training --------------------------------------------------------------
  # `runs` independent trainings (noise-aware intervals, R/pooling.R), each with
  # its own subsampling and noise (runs = 1 is Algorithm 1/2), trained side by
  # side on `threads` threads (src/core/runs.h).
  generator <- .generator_spec(blocks, joint, hidden, box, if (tau_basis == "grid") tau else numeric(0),
                               products = level_interactions)
  settings <- list(iterations = as.integer(iterations), mc = as.integer(mc), rate = as.numeric(rate),
                   sigma = ledger$sigma, clip = clip, gamma = as.numeric(gamma), tau = tau,
                   tau_prob = tau_prob[level_order], level_scale = level_scale,
                   warmup = as.numeric(warmup),
                   average_from = as.numeric(average_from),
                   callback_every = as.integer(max(1, min(250, ceiling(iterations / 100)))),
                   optimizer = optimizer, learning_rate = as.numeric(learning_rate),
                   lr_floor = as.numeric(lr_floor), schedule = schedule, precision = precision,
                   threads = threads)
  # A shared partition (`share_partition`, or one given) is drawn once; the
  # guarantee holds conditionally on every fixed partition (PGBB paper, Section
  # 2.1), so R trainings on one partition compose exactly as R on fresh ones.
  # Keys are drawn run after run (a partition key, unused when the partition
  # is shared, then a training key), all before any run trains, so a seeded
  # fit does not depend on how many runs train at once.
  shared <- !is.null(partition) || share_partition
  if (share_partition && is.null(partition))
    partition <- cpp_block_partition(as.integer(n), as.integer(blocks), .rng_seed())
  partitions <- if (shared) list(as.integer(partition)) else vector("list", runs)
  train_seeds <- vector("list", runs)
  for (r in seq_len(runs)) {
    part_seed <- .rng_seed()
    if (!shared) partitions[[r]] <- cpp_block_partition(as.integer(n), as.integer(blocks), part_seed)
    train_seeds[[r]] <- .rng_seed()
  }
  tick <- if (progress) .progress_start(as.numeric(iterations) * runs,
                                        if (runs > 1L) sprintf("PGBB: %d trainings", runs) else "PGBB training")
  layer_sets <- cpp_pgbb_train(x, if (is.null(y)) numeric(0) else y, spec, generator, partitions,
                               as.integer(blocks), settings, train_seeds,
                               if (progress) function(done, total) tick(done) else NULL)
  stationarity <- .tail_score_z(attr(layer_sets, "tail_scores"), coefnames, if (joint) tau else NULL)
  partition <- partitions[[length(partitions)]]
  generator$layers <- layer_sets[[1L]]
  generator$more_layers <- layer_sets[-1L]

  fit <- structure(list(
    call = call,
    loss = loss,
    loss_settings = .loss_settings(spec),
    coefnames = coefnames,
    n = n, p = p, d = d,
    tau = if (loss == "quantile") tau_user %||% tau else NULL,
    tau_prob = if (joint) tau_prob else NULL,
    joint = joint,
    shared_partition = shared && runs > 1L,
    box = .box_matrix(box, coefnames),
    x_bounds = if (is.null(xr)) NULL else .box_matrix(xr, xnames),
    y_bounds = if (is.null(yr)) NULL else c(lower = yr$lower, upper = yr$upper),
    x_norm = x_norm,
    ledger = ledger,
    training = list(hidden = hidden, optimizer = optimizer, learning_rate = learning_rate,
                    lr_floor = lr_floor, schedule = schedule, warmup = warmup, average_from = average_from,
                    precision = precision, tau_basis = if (joint) tau_basis else NULL,
                    level_interactions = if (joint) isTRUE(generator$level_products) else NULL,
                    level_noise = if (joint) level_noise else NULL),
    generator = generator,
    # The partition is independent of the data; it is kept only for
    # non-private fits (comparisons with blocked_bootstrap()).
    partition = if (ledger$sigma == 0) as.integer(partition) else NULL,
    stationarity = stationarity,
    draws = NULL), class = c("pgbb_fit", "private_posterior"))
  ev <- .pgbb_fit_draws(fit, n = draws, threads = threads)
  fit$draws <- ev$draws
  if (keep_runs) fit$run_draws <- ev$runs
  fit$variability <- ev$variability
  .check_trained_finite(fit$draws, ledger$sigma)
  fit$box_share <- .box_shoulder_share(.stack_runs(ev$runs), fit$box, .loss_log_coords(loss, d))
  .warn_box_shoulders(fit$box_share)
  .warn_noise_dominates(fit$variability, private = ledger$sigma > 0)
  .warn_unsettled(stationarity, iterations)
  fit
}

# The most any data can steer one training, against its noise, from public
# settings only: every clipped, weighted per-record gradient has norm at most C
# and the weights of a Poisson subset sum to q in expectation (sum_j w-bar_j = 1,
# Section 2.2.2), so one iteration's statistic is at most q C, while the noise
# on its Monte Carlo average has sd sigma / sqrt(K) per coordinate. Over T
# iterations the largest consistent signal is q C T and the noise sd
# sigma sqrt(T / K): their ratio q C sqrt(T K) / sigma. (A joint fit's levels
# clip at r C and add r sigma: the same ratio.) NA for a non-private fit.
.signal_to_noise <- function(ledger) {
  if (!(ledger$sigma > 0)) return(NA_real_)
  ledger$rate * ledger$clip * sqrt(as.numeric(ledger$iterations) * ledger$mc) / ledger$sigma
}

# Below 1, even data whose every record pulled the same way with a full clip
# could not move a training by more than its own noise: the generator ends
# where its initialisation and the noise put it, and the pooled interval,
# however wide, is centred there rather than at the data's answer. Measured
# (Huber regression, n = 2,000, slope 2, intercept 1): epsilon = 0.1 gave a
# ratio of 4.6 and intervals that covered; epsilon = 0.01 and 1e-4 gave 0.07
# and 0.005 and slope intervals such as [-0.97, 1.53] and [-2.6, 1.7]. The
# ratio is public, so the warning is too.
.warn_uninformative <- function(ledger, limit = 1) {
  r <- ledger$signal_to_noise
  if (is.null(r) || is.na(r) || r >= limit) return(invisible(FALSE))
  warning(warningCondition(
    sprintf(paste0(
      "at this budget the privacy noise swamps any signal: over one training of %s iterations the noise on the ",
      "gradient (sd sigma sqrt(T / K)) is %.3g times the most the data could contribute (q C T), so the fit ",
      "reflects the generator's starting point and the noise, not the data. Its intervals may miss the truth ",
      "even where they are wide. A larger 'epsilon' or more records are needed (the ratio is in ",
      "$ledger$signal_to_noise; at least 1 is needed, and much more for useful intervals)."),
      format(ledger$iterations), 1 / r),
    class = "pgbb_uninformative"))
  invisible(TRUE)
}

# A generator whose weights overflowed (a noise scale far beyond the
# precision's range) returns NaN; such a fit must not be returned as a result.
.check_trained_finite <- function(draws, sigma) {
  if (anyNA(draws) || any(!is.finite(draws)))
    stop(sprintf(paste0("training diverged: the generator's draws are not finite (noise scale sigma = %s). ",
                        "The privacy settings call for more noise than the trainer can represent: ",
                        "raise 'epsilon' or 'delta', or train on more data."), format(sigma, digits = 4)),
         call. = FALSE)
  invisible(TRUE)
}

# Share of the draws, per coordinate (and level), that lie in the soft clip's
# shoulders: the outer 5% of the box on either side (on the log scale for
# positive scales; src/core/box.h). There the map compresses the generator's
# output, so the box, not the data, shapes that part of the posterior. It is
# computed from the released draws only (post-processing, no privacy cost).
.box_shoulder_share <- function(draws, box, log_coords) {
  d <- nrow(box)
  lo <- box[, 1]; hi <- box[, 2]
  lo[log_coords] <- log(lo[log_coords]); hi[log_coords] <- log(hi[log_coords])
  edge <- 0.05 * (hi - lo)
  levels <- if (length(dim(draws)) == 3L) dim(draws)[3L] else 1L
  x <- array(draws, c(NROW(draws), d, levels))
  share <- matrix(NA_real_, d, levels,
                  dimnames = list(rownames(box), if (levels > 1L) dimnames(draws)[[3L]]))
  for (j in seq_len(d)) {
    v <- matrix(x[, j, ], ncol = levels)
    if (log_coords[j]) v <- log(v)
    share[j, ] <- colMeans(v < lo[j] + edge[j] | v > hi[j] - edge[j])
  }
  share
}

# A 95% interval has 2.5% of the draws in each tail, so once 1% of the draws
# sit in a shoulder an interval end can be set by the box rather than by the
# data: warn instead of returning a silently box-shaped interval.
.warn_box_shoulders <- function(share, limit = 0.01) {
  worst <- apply(share, 1L, max)
  bad <- which(worst > limit)
  if (length(bad) == 0L) return(invisible(FALSE))
  warning(warningCondition(sprintf(paste0(
    "%.0f%% of the posterior draws of %s lie in the outer 5%% of the parameter box, where the ",
    "generator's output is squashed to stay inside it: the intervals there reflect the box, not ",
    "the data. Declare a wider public box ('box' of pgbb_fit(); 'box' or 'box_scale' of ",
    "pgbb_control() for pgbb()). The shares are in $box_share."),
    100 * max(worst[bad]), paste0("'", names(worst)[bad], "'", collapse = ", ")),
    class = "pgbb_box_shoulders"))
  invisible(TRUE)
}

# x as a numeric matrix (its names: .design_names()).
.as_design <- function(x, loss) {
  if (is.data.frame(x)) x <- as.matrix(x)
  if (!is.numeric(x)) .arg_fail("x", "a numeric matrix (one row per record)")
  if (!is.matrix(x)) x <- matrix(x, ncol = 1L, dimnames = list(NULL, if (loss %in% c("mean", "exponential")) "mean" else "x"))
  if (nrow(x) < 2L) .arg_fail("x", "a matrix with at least two rows")
  if (ncol(x) < 1L) .arg_fail("x", "a matrix with at least one column")
  .check_finite_numeric(x, "x")
  # storage.mode<- duplicates x even when it is already double (a full copy of
  # the design at natality scale), so convert only when needed.
  if (!is.double(x)) storage.mode(x) <- "double"
  if (loss == "exponential" && ncol(x) != 1L) .arg_fail("x", "a single column for loss 'exponential'")
  x
}

# The design's column names, x1, x2, ... where it has none. They are not set on
# x itself: colnames<- duplicates the matrix (a full copy of the design at
# natality scale).
.design_names <- function(x) {
  nm <- colnames(x)
  if (is.null(nm)) return(paste0("x", seq_len(ncol(x))))
  .check_column_names(nm, "x")
}

# Column names label the coefficients, and every method selects them by name:
# a duplicated name would give the second column the first one's interval, and
# an empty one breaks the selection.
.check_column_names <- function(nm, arg) {
  if (anyNA(nm) || any(nm == "") || anyDuplicated(nm))
    .arg_fail(arg, paste0("a matrix whose column names are unique and non-empty (or that has none); ",
                          "they label the coefficients"))
  nm
}

.check_response <- function(y, n, loss) {
  if (!.loss_needs_y(loss)) {
    if (!is.null(y)) .arg_fail("y", sprintf("NULL for loss '%s' (the data are in 'x')", loss))
    return(NULL)
  }
  if (is.null(y)) .arg_fail("y", sprintf("given for loss '%s'", loss))
  if (is.logical(y)) y <- as.numeric(y)
  if (!is.numeric(y) || is.matrix(y) && ncol(y) != 1L || length(y) != n)
    .arg_fail("y", sprintf("a numeric vector of length %d (one value per row of 'x')", n))
  y <- as.numeric(y)
  .check_finite_numeric(y, "y")
  if (loss == "logistic" && !all(y %in% c(0, 1))) .arg_fail("y", "0 or 1 for loss 'logistic'")
  y
}

# A level of weight 0 is never sampled, so never trained, yet the generator
# would still give it draws: weights must be positive. `arg`: the name the
# caller's user typed (pgbb() takes them as pgbb_control()'s tau_weights).
.check_tau_prob <- function(tau_prob, tau, arg = "tau_prob") {
  if (is.null(tau_prob)) {
    w <- 1 / (tau * (1 - tau))  # Section 6: p_k proportional to 1 / (tau_k (1 - tau_k))
    return(w / sum(w))
  }
  if (!is.numeric(tau_prob) || length(tau_prob) != length(tau) || anyNA(tau_prob) ||
      any(!is.finite(tau_prob)) || any(tau_prob <= 0))
    .arg_fail(arg, sprintf(paste0("%d positive finite sampling weights, one per level of 'tau' (a level of ",
                                  "weight 0 would never be trained)"), length(tau)))
  tau_prob / sum(tau_prob)
}

.check_rate <- function(rate) {
  if (!is.numeric(rate) || length(rate) != 1L || is.na(rate) || rate <= 0 || rate > 1)
    .arg_fail("rate", "a single number in (0, 1]")
  invisible(rate)
}

.check_hidden <- function(hidden) {
  if (is.null(hidden) || length(hidden) == 0L) return(integer(0))
  if (!is.numeric(hidden) || anyNA(hidden) || any(hidden != round(hidden)) || any(hidden < 1) ||
      any(hidden > 1e5))
    .arg_fail("hidden", "a vector of hidden-layer widths (whole numbers between 1 and 1e5)")
  as.integer(hidden)
}

# Release scales r_l of a joint fit's levels (TrainConfig::level_scale): the
# level's own gradient bound, at most `clip`, over `clip`. A draw at level l is
# clipped at r_l C and noised with r_l sigma, so every release has the ratio
# C / sigma that the accountant composes (trainer.h). Public: the bounds, the
# box and the grid only. All 1 for "uniform" (Algorithm 2) and one level.
.level_release_scale <- function(level_noise, spec, bounds, box, tau, clip) {
  if (level_noise == "uniform" || length(tau) < 2L) return(rep(1, length(tau)))
  own <- vapply(tau, function(t) cpp_loss_bound(spec, bounds, box, t), 0)
  pmin(own, clip) / clip
}

# The per-record gradient bound C: the user's `clip`, or the loss's default.
.choose_clip <- function(clip, natural, loss) {
  if (!is.null(clip)) {
    .check_positive(clip, "clip")
    return(as.numeric(clip))
  }
  if (loss %in% c("mean", "exponential")) return(min(8, natural))  # SM S3.2: clip at C = 8
  if (!is.finite(natural))
    .arg_fail("clip", sprintf(paste0("given for loss '%s' without 'y_bounds': its gradient is ",
                                     "bounded only through the public response range"), loss))
  natural
}

# The generator's architecture (everything but the weights): input S u and,
# for a joint fit, with `products` the S L products u_s h_l(tau) of the block
# weights with the hats, then the level features (tau, qnorm(tau)) followed by
# one hat per knot (src/core/trainer.h, complete_generator_input()); knots = the
# sorted public tau grid for tau_basis = "grid", none for "smooth".
.generator_spec <- function(blocks, joint, hidden, box, knots = numeric(0), products = FALSE) {
  S <- as.integer(blocks)
  L <- if (joint) length(knots) else 0L
  nt <- if (joint) 2L + L else 0L
  P <- if (isTRUE(products) && L > 0L) S * L else 0L
  list(version = 3L, n_in = S + P + nt, n_direct = nt, hidden = as.integer(hidden),
       # input map v = (input - shift) * scale
       in_shift = c(rep(0, S + P), if (joint) c(0.5, 0, rep(0, L))),
       in_scale = c(rep(S, S + P), if (joint) c(2, 1, rep(1, L))),
       tau_knots = if (L > 0) as.numeric(knots) else numeric(0),
       level_products = P > 0L,
       box = box)
}

# Standardised mean of the released statistics over the second half of the
# trainings (src/core/stationarity.h): per level (rows; one row when not
# joint) and coefficient of the coded design, the sum over the runs' windows
# divided by the sd it would have at a stationary point. Post-processing of
# released values. NA where that sd is 0 (no noise and no subsampling).
.tail_score_z <- function(tail, coefnames, tau) {
  sums <- Reduce(`+`, lapply(tail, `[[`, "sum"))
  var <- Reduce(`+`, lapply(tail, `[[`, "variance"))
  z <- sums / sqrt(var)
  z[var == 0, ] <- NA_real_
  z <- z[, seq_along(coefnames), drop = FALSE]
  dimnames(z) <- list(if (is.null(tau)) NULL else format(tau), coefnames)
  z
}

# A training that stopped while its released gradients still pulled one way
# (|z| of .tail_score_z() beyond the limit) left its generator short of where
# the data put it, and nothing in the pooled interval measures that. The null
# sd leaves out how the optimiser cancels its own noise (the gradients' sum
# telescopes into the parameters' displacement), so settled fits sit well
# inside it. Measured: the real-data fits of the vignettes' settings (Census
# extract, CPS 1988, the 50,000 births; epsilon 1 and 4; pooled and the
# paper's single training; 36 fits) gave max |z| of 0.13-2.1; y ~ 0 + x
# (n = 2,000, epsilon = 1) gave 1.5-4.6 at 1,000-1,500 iterations, where
# the intervals covered lm's slope, and 24-58 at 500-800, where most missed it
# (slopes 6-15 against 16.8). 10 sits between the two.
.unsettled_limit <- 10

# Labels of the coefficients (and levels) beyond the limit.
.unsettled_terms <- function(z, limit = .unsettled_limit) {
  if (is.null(z)) return(character(0))
  hit <- which(!is.na(z) & abs(z) > limit, arr.ind = TRUE)
  lab <- colnames(z)[hit[, 2L]]
  if (!is.null(rownames(z)) && length(lab)) lab <- paste0(lab, " (tau = ", trimws(rownames(z)[hit[, 1L]]), ")")
  lab
}

.shown_terms <- function(lab, most = 8L) {
  if (length(lab) > most) lab <- c(lab[seq_len(most)], sprintf("and %d more", length(lab) - most))
  paste(lab, collapse = ", ")
}

.warn_unsettled <- function(z, iterations, limit = .unsettled_limit) {
  lab <- .unsettled_terms(z, limit)
  if (!length(lab)) return(invisible(character(0)))
  warning(warningCondition(
    sprintf(paste0(
      "the training had not settled for %s: over the second half of the trainings their released gradients ",
      "still pulled one way (standardised mean gradient up to %.3g in absolute value, against about 1 for a ",
      "settled fit; $fit$stationarity, or $stationarity of pgbb_fit()). The draws are centred where training ",
      "stopped, not where the data put the estimate, and the intervals do not include that error. More ",
      "iterations (%s per training now) or a larger learning rate would help."),
      .shown_terms(lab), max(abs(z), na.rm = TRUE), format(iterations)),
    class = "pgbb_unsettled"))
  invisible(lab)
}

# The line print() and summary() show under the intervals' line; nothing for a
# fit with no stationarity to test (no noise and no subsampling) or an object
# that carries no check.
.settled_line <- function(z, limit = .unsettled_limit) {
  if (is.null(z) || all(is.na(z))) return(character(0))
  lab <- .unsettled_terms(z, limit)
  big <- max(abs(z), na.rm = TRUE)
  if (!length(lab))
    return(sprintf(paste0("settled:   yes (largest standardised mean gradient over the second half of ",
                          "training %.2g; above %g: not settled; blind to a weak gradient's shared shift, ?pgbb)"),
                   big, limit))
  sprintf(paste0("settled:   NO for %s (standardised mean gradient up to %.3g, above %g): the draws are centred ",
                 "where training stopped, an error the intervals do not include"), .shown_terms(lab), big, limit)
}
