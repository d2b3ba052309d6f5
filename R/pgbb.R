#' Private Generative Bayesian Bootstrap regression
#'
#' Fits a private posterior for quantile, Huber, mean or logistic regression by
#' the PGBB: a generator of blocked Bayesian-bootstrap draws trained with
#' Poisson subsampling and Gaussian noise (PGBB paper, eq. 4 and Algorithm 1;
#' Algorithm 2 for a grid of quantile levels), with the noise calibrated by the
#' Dirichlet-aware Renyi accountant ([pgbb_sigma()]) so that the whole training,
#' and therefore every posterior draw, is \eqn{(\epsilon, \delta)}-DP.
#'
#' @section Public bounds:
#' A private fit needs the public range of every variable used by the model,
#' declared in `bounds` as a named list of `c(lower, upper)` pairs: one per
#' numeric variable in the formula (by its name in `data`, e.g. `education`;
#' `log(x)`, `sqrt(x)` and similar monotone transforms of a bounded variable are
#' bounded automatically), or per model-matrix column (e.g. `` `I(x^2)` ``), and
#' `.response` for the response. Factor dummies and the intercept are bounded
#' automatically; interactions get the interval product of their parts. A missing
#' bound is an error that names it. **Nothing is derived from the data**: the
#' columns are scaled into the unit box with these ranges (SM S3.3), values
#' outside are clipped to them (the count is reported in a message for the
#' analyst; it is not part of the release), and coefficients are mapped back to
#' the original units, a linear map of the draws (post-processing).
#'
#' A bound may also be declared on a linear combination of numeric columns,
#' named by the expression: `` `educ + exper` = c(34, 43) `` says that
#' schooling plus potential experience (age - 6) lies in \eqn{[34, 43]} for
#' men aged 40-49. Such public knowledge of how the variables are defined
#' confines the design to a narrower region than the box of the columns' own
#' ranges, whose corners (20 years of school and 43 of experience) no record
#' can reach. The design is then coded on the combination in place of the
#' column whose exchange most shrinks the region the coded box spans
#' (\eqn{\prod_j (u_j - l_j) / |\det R|} for coordinates \eqn{R x} with
#' ranges \eqn{[l_j, u_j]}), records beyond the combination's range are
#' clipped to it (and counted under its name), and the coefficients are
#' mapped back exactly; a linear bound that narrows nothing is not used, with
#' a warning. The noise is the same in every direction of the coded design,
#' so noise the box spent on unreachable corners is saved: on the 1980
#' Census extract (\eqn{\epsilon = 1}, 40 releases of the reproduction's
#' training) the education interval narrowed from 3.02 to 1.89 %/yr and its
#' mean error from 0.46 to 0.24, with coverage of `rq` 0.96 and 0.99; at
#' \eqn{\epsilon = 4}, 1.06 to 0.99 %/yr, MAE 0.14 to 0.10 (coverage 0.99
#' both). Every front end that takes `bounds` with a formula reads them.
#'
#' For Huber and quantile fits the trainer also sees the response coded as
#' \eqn{(y - m) / 10^k}, with \eqn{m} the midpoint of its public range (when
#' the model has an intercept) and \eqn{10^k} the power of 10 that brings the
#' range's width into \eqn{(2, 20]}; the quantile `bandwidth` stays in the
#' response's units. The trainer's steps are in the units of the coefficients,
#' so without this coding a response in grams instead of kilograms gave
#' intervals ten times too narrow. The coding comes from the bounds only and is
#' undone exactly on the draws; it leaves the clip and the noise unchanged.
#'
#' @section Parameter box:
#' The generator's output is confined to a public box (Section 3). With the
#' response range \eqn{[c, d]}, width \eqn{w = d - c}, and `k = control$box_scale`
#' (default 2; 0.1 for `loss = "mean"`, see below), the default box on the scaled design is: intercept in
#' \eqn{[c - k w, d + k w]}, every slope in \eqn{[-(1 + k) w, (1 + k) w]} (a
#' linear function of unit-box covariates that stays inside \eqn{[c, d]} on the
#' box has its intercept in \eqn{[c, d]} and its slopes in \eqn{[-w, w]}; the
#' margin leaves room for misspecification), and for the Huber scale
#' \eqn{(0, (1 + k) w]}. Without an intercept the fit passes through 0, so \eqn{w}
#' in the slopes' and the scale's upper limits becomes \eqn{\max(w, |c|, |d|)}. For `loss = "mean"` the box is the response range
#' widened by `k w` on both sides. The mean of the clipped response lies in
#' its bounds, so no misspecification needs room there, and the gradient bound
#' (and with it the noise) grows with the box as \eqn{1 + k}: its default
#' \eqn{k = 0.1} is the smallest round value that keeps the bounds inside the
#' identity part of the output map. On the share of smokers in the natality
#' births (`data(natality2022)`, 40 subsamples per cell, package defaults
#' otherwise, coverage of the full-sample share at least 0.975 in every
#' cell for both k) the interval width fell from 0.64 to 0.28 and the mean
#' absolute error from 0.14 to 0.05 at n = 500, \eqn{\epsilon = 0.25}, and from
#' 0.16 to 0.11 and 0.021 to 0.008 at n = 2,000, \eqn{\epsilon = 1}; on the mean
#' birth weight (bounds 0-7,000 g) from 5,570 to 3,390 g (MAE 769 to 409 g)
#' and from 1,305 to 707 g (MAE 133 to 51 g). The draws are then moved into the
#' response's bounds, where the mean of the clipped response lies
#' (post-processing: each draw beyond a bound becomes that bound, and so does
#' the estimate, the pooled draws' mean, if it lies beyond one; an interval is
#' cut to them). The intercept of an intercept-only quantile or Huber fit
#' (`y ~ 1`), a quantile or M-estimate of the clipped response, lies in the
#' bounds too and is moved likewise, but its box keeps k = 2. A quantile's
#' gradient bound does not depend on the box; the box sets the size of the
#' generator's output steps (its output bias moves in units of the
#' half-width), and the two failures of noisy training pull k opposite ways.
#' On `data(natality2022)` (`y ~ 1`, tau = 0.1, 0.5, 0.9, 20 subsamples per
#' cell, n = 500 and 2,000, \eqn{\epsilon} = 0.25 and 1, coverage of the
#' full-sample quantile), k = 0.1 shrank the wandering that pushes tail
#' quantiles outwards: birth weight's 0.1 and 0.9 quantiles moved by -617
#' and +700 g with k = 2 at n = 500, \eqn{\epsilon = 0.25}, by +127 and
#' -10 g with 0.1, and the tails' MAE fell from 68-730 g to 41-315 g over the
#' four cells. But in that least-informed cell the smaller steps left the
#' runs short of quantiles far from the box centre: coverage at the three
#' levels fell from 0.95, 0.95, 0.90 to 0.80, 0.95, 0.95 for birth weight,
#' from 0.90, 0.70, 0.95 to 0.45, 0.45, 1 for WeightGain (bounds 0-98) and
#' from 1, 0.90, 1 to 0.65, 0.95, 0.75 for Age (12-50); k = 0.5 did the
#' same (0.50, 0.45, 1 and 0.70, 0.90, 0.85). An interval that misses is
#' worse than a wide one, so the default stays 2. In the other nine cells
#' of the three variables (n = 2,000 or \eqn{\epsilon = 1}) k = 0.1 lowered
#' the tails' MAE in every cell, by up to 3.6 times, with coverage 0.80-1 as
#' with k = 2: `box_scale = 0.1` is worth a try where \eqn{n \epsilon} is
#' not small. For
#' `"logistic"`, every coefficient in
#' \eqn{[-10 k, 10 k]} on the logit scale. Supply `control$box` to override it.
#' The output map squashes the outer 5% of the box on each side; when more than
#' 1% of a coefficient's draws land there the fit warns (the shares are in
#' `fit$fit$box_share`), because its interval may then be set by the box. A
#' location's draws beyond its bounds are moved onto them, so the warning is
#' given for a location only where the shoulders reach into the bounds (a box
#' narrower than the default).
#'
#' @param x A model formula (the formula method), or a numeric matrix or data
#'   frame of covariates (the matrix method, with `y`): `pgbb(X, y, ...)` fits
#'   `.response ~ <the columns of X>` (plus an intercept unless
#'   `intercept = FALSE`), so its bounds name the columns of `X` (unnamed
#'   columns are `x1`, `x2`, ...) and `.response`, and its result is the
#'   formula fit's.
#' @param formula A model formula, as for [stats::lm()]. For `loss = "mean"` use `y ~ 1`.
#'   A private fit accepts only terms that use each record alone with public
#'   constants (see [pgbb_privacy], 'Public inputs'): `factor(g, levels = 1:3)`,
#'   not `factor(g)`.
#' @param data A data frame.
#' @param y The response vector of the matrix method, one value per row of `x`.
#' @param intercept Whether the matrix method's model has an intercept.
#' @param loss `"quantile"` (convolution-smoothed check loss, SM S3.3), `"huber"`
#'   (Huber regression with scale, Section 5.1), `"mean"` (clipped Gaussian
#'   likelihood for a mean, Section 5.2) or `"logistic"`.
#' @param tau Quantile level(s) for `loss = "quantile"`. Several levels train one
#'   joint generator \eqn{G(u, \tau)} under one budget (Section 2.5); they may be
#'   given in any order, and every output keeps that order, labelled by level.
#'   Giving `tau` with another loss is an error.
#' @param epsilon Privacy budget \eqn{\epsilon > 0}; `Inf` fits the non-private
#'   generative blocked bootstrap (as `private = FALSE`).
#' @param delta Privacy parameter \eqn{\delta}; default `min(1e-6, 0.01 / n)`, two orders below 1/n (see [pgbb_privacy], "Default delta"); the paper uses `1 / n`.
#' @param bounds Named list of public bounds (see 'Public bounds').
#' @param ... For the matrix method, the arguments of the formula method
#'   (`loss`, `tau`, `epsilon`, `bounds`, `control`, ...). For a non-private
#'   formula fit, `subset` and `na.action`, passed on to
#'   [stats::model.frame()]. A private fit refuses both, and missing values:
#'   its n is public (see [pgbb_privacy]), so subset the data and remove
#'   incomplete records beforehand, by a public rule. Any other argument is an error that names it (settings of the
#'   trainer belong in `control = pgbb_control()`); case weights and `offset()`
#'   terms are not supported by the private fit and are errors too.
#' @param control A [pgbb_control()] object.
#' @param private `FALSE` for the non-private generative blocked bootstrap. Only
#'   then may `bounds` be omitted: the ranges are taken from the data (with a
#'   message), which is acceptable only because nothing is released privately.
#' @param progress Show a progress bar (default: when interactive).
#' @section Noise-aware intervals:
#' One training is one noisy realisation of the generator: its draws spread
#' over the Dirichlet block weights (the sampling uncertainty) but not over the
#' error that the gradient noise left in the generator, so where the privacy
#' noise dominates, one training's interval is too narrow and its centre
#' wanders. The default training ([pgbb_control()]) is built to include that
#' error:
#' - **Five pooled runs** (`runs = 5`) share the `iterations` under the one
#'   budget (the accountant composes all `R T K` releases) and are pooled
#'   (post-processing): a draw is the mean of the run means plus the runs'
#'   averaged deviation plus a draw of the pooled centre's noise error,
#'   Gaussian with the between-run covariance `B / R` mapped to a t on the
#'   Satterthwaite degrees of freedom. Its squared standard error is
#'   `W + B / R`, the `total` that `tidy()` reports as `std.error`.
#'   `fit$variability` and `summary()` give the within, between and total
#'   spread per coefficient, and a warning names the coefficients whose
#'   between-run spread exceeds the within-run spread.
#' - **One partition** (`share_partition = TRUE`): the runs target the same
#'   partition-conditional posterior, so averaging their deviations at common
#'   block weights keeps the sampling spread and divides the spread each run's
#'   noise adds by `R` (the guarantee holds for every fixed partition, so the
#'   accounting is unchanged). One partition's spread rests on `blocks - 1`
#'   degrees of freedom (a blocked draw is the estimate plus a Dirichlet
#'   combination of the `S` block sums), so the averaged deviations are drawn
#'   as a t on `blocks - 1` (on a mean, n = 2,000, 2,000 data sets: one
#'   partition's 95% interval covered 0.865 at S = 5 and 0.934 at S = 20
#'   without the t, 0.950 and 0.948 with it).
#' - **Tail averaging at up to twice the paper's step** (`learning_rate = 1e-3`,
#'   and 2e-3 for a joint quantile fit, twice SM S3.3's 1e-3, unless
#'   `n * epsilon <= 30000`: [pgbb_learning_rate()];
#'   `lr_floor = 0.1`, `average_from = 0.5`): each run's generator is the
#'   mean of its second half. The average removes most of the noise a larger
#'   step leaves, and the larger step converges along weakly identified
#'   directions that the paper's decay to 1% leaves short of the optimum, an
#'   error shared by every run that no pooling can see.
#' - **Each quantile level at its own bound** (`level_noise = "scaled"`, see
#'   [pgbb_fit()]): less noise at the central levels, the same guarantee.
#' - **Each level with its own spread** (`level_interactions = TRUE`, see
#'   [pgbb_fit()]): the generator also takes the products of the block
#'   weights with the level hats. Without them every trained generator gave
#'   all levels the same spread, too small at the tails, where a quantile
#'   regression's sampling error is largest. Non-private (`epsilon = Inf`, 10
#'   fits) on the Census, education and black at `tau = 0.1` were covered at
#'   0.70 and 0.70 with intervals as wide as at the median; with the products
#'   at 1.00 and 0.90, the intervals 1.7 and 1.9 times wider there and nearly
#'   unchanged at the central levels. Private, black at `tau = 0.1` went from
#'   0.80 to 0.85 (`epsilon = 1`) and from 0.72 to 0.95 (4).
#' - **A small generator** (`hidden = c(32, 32)`, see [pgbb_control()]): the
#'   input reaches every layer directly, so hidden units carry only the
#'   curvature of u -> theta*(u), and the paper's 3 x 256 networks trained on
#'   these data end with their last hidden layer inactive. Two layers of 32
#'   gave the same intervals at about a quarter of the time (one Census
#'   release 0.65 s against 2.6-2.9 s, one natality release 1.2 s against
#'   4.5-5.2 s).
#'
#' Measured against the non-private `quantreg::rq` fit (95% intervals,
#' coverage over every level; `inst/scripts/schedule-study.R`, results in
#' `inst/extdata/schedule-study-*.csv`; the real-data scripts set SM S3.3's
#' sizes, which are `pgbb()`'s defaults for a joint quantile fit: S = 5, q =
#' 0.01, K = 5 and twice the paper's 1e-3, 2e-3):
#' - 1980 Census (65,023 men; 20 releases at each `epsilon`), education at
#'   `epsilon = 1`: MAE 0.44 %/yr, width 3.09, coverage 0.95 (with the
#'   paper's 3 x 256 generator 0.44, 3.05, 0.94; without the level products,
#'   40 releases: 0.47, 2.94, 0.95; the paper's single training: 1.01, 0.72,
#'   0.30 over 10 releases; the paper reports 0.52, 1.29, 0.70); at 4: 0.15,
#'   1.19, 0.97 (3 x 256: 0.15, 1.16, 0.97; without the products 0.17, 1.02,
#'   0.94; paper's setting 0.38, 0.35, 0.34). Experience and black: coverage
#'   0.97-0.98.
#' - Natality (50,000 births of 2022; 20 releases), `epsilon = 4`: coverage
#'   of BLACK, MARRIED, BOY and NOSMOKE 0.99, 1.00, 1.00 and 0.94 (widths 75,
#'   64, 48 and 495 g), CIGAR 0.93 (3 x 256: 0.99, 1.00, 1.00, 0.92 and 0.94,
#'   the same widths within 1%; without the level products 0.99, 0.99, 1.00,
#'   0.95 and 0.92, widths 47, 43, 34 and 437 g); the paper's single
#'   training covers 0.30-0.66 of them. The default before tail averaging
#'   (fresh partitions, the paper's schedule) covered NOSMOKE 0.82 and CIGAR
#'   0.82.
#' - Larger budgets (10 releases each, `epsilon` = 8 and 16): Census
#'   education MAE 0.15 and 0.15, width 1.03 and 0.97, coverage 0.96 (the width
#'   hardly shrinks beyond 4: the sampling error and the optimiser's error
#'   remain); natality BLACK, MARRIED and BOY 0.98-1.00, NOSMOKE 0.94 and
#'   0.96, CIGAR 0.92 and 0.88 (widths 312 / 281 and 172 / 151 g).
#' - Table S2 with an intercept (`vignette("simulations")`): coverage of the
#'   truth and widths against the paper's in every cell.
#'
#' The comparisons of the next two paragraphs were measured with the
#' generator without level products (tag `default_additive` in the study).
#' The trade-off measured: the larger step costs the Census, where the noise
#' and not the optimiser sets the width (educ width 2.64 at the paper's step
#' with the same pooling, 2.94 at twice it), and the Table S2 widths (0.78-0.85
#' to 0.96-1.04 times the paper's in the cells screened), and it is what
#' lifts the natality NOSMOKE coverage from 0.86 to 0.95. Averaging from a
#' quarter of the run instead of half narrowed the Census (2.55) but lowered
#' the coverage of black (0.84) and NOSMOKE (0.91); ten runs sharing the same
#' iterations stopped each natality run short of the optimum (NOSMOKE
#' coverage 0.34-0.44); ten runs of the same length (twice the iterations)
#' narrowed the Census (2.45) at coverage 0.88-0.92, and seven (1.4 times
#' the iterations; `default_runs7`) to 2.61 at coverage 0.93 for education
#' but 0.85 for black, and covered natality NOSMOKE and CIGAR at 0.88 at
#' `epsilon = 4` (20 releases). With the level products and the 2 x 32
#' generator, ten runs of the same length (`default_runs10_T2`, 20 releases)
#' met the Census targets (educ at `epsilon = 1`: width 2.59, MAE 0.46,
#' coverage 0.93) but covered black at 0.84 there (the default 0.97; at
#' `tau = 0.1` 0.45 against 0.90) and
#' natality NOSMOKE at 0.70 and 0.89 (`epsilon` 1 and 4; the default 0.93
#' and 0.94), CIGAR at 0.84 at 4: more runs mean more noise per step at a
#' fixed budget, and the weakly identified direction needs the opposite.
#' `pgbb_control(paper = TRUE)` is the paper's single
#' training (Algorithms 1-2), whose print says that its intervals leave the
#' noise error out.
#'
#' Coverage over every level hides the weakest one: on the Census, black at
#' `tau = 0.1` was covered at 0.80 (`epsilon = 1`) and 0.72 (4) without the
#' level products (40 releases each; 0.85 and 0.95 with them and the 3 x 256
#' generator, 0.90 and 0.90 with the default 2 x 32, 20 releases),
#' at 0.50 and 0.55 by seven runs. There the smoothed
#' loss targets a coefficient below rq's even without noise (by 0.019 with
#' the Census bandwidth of 0.1, computed on the data; 0.021 measured at
#' `epsilon = Inf`, against an interval 0.04 wide), and the privacy noise
#' adds to that shift (0.027 at `epsilon = 4`, 0.088 at 1, 0.138 with seven
#' runs), the same in every run, so no pooling sees it. Half the bandwidth
#' (`default_h05`) left it at 0.026 and 0.087.
#'
#' **Why the noise shifts extreme levels of a rare indicator.** Noisy training
#' settles where the loss averaged over its iterates' wandering is stationary,
#' that is at the minimiser of the check loss convolved with the wandering of
#' \eqn{x'\theta_t}. Along a rare indicator (black: 7.6% of the men) the
#' wandering is large, and the convolution spreads that group's residual
#' distribution, so its tail quantiles move outwards: down at `tau = 0.1`, up
#' at 0.9. Traced in one Census release at `epsilon = 1`, the black
#' coefficient at `tau = 0.1` wandered with a standard deviation of about 0.2
#' in the second half of every run; rq on the data with that coefficient
#' perturbed by N(0, 0.2^2) inside the loss moves by -0.065 at 0.1 and +0.063
#' at 0.9 (`inst/scripts/iterate-wandering.R`), the size of the shifts
#' measured (-0.088 and +0.036, the first including the bandwidth's -0.02).
#' The wandering scales with the step size, which is why a larger step, more
#' runs (more noise per step) and the joint fit (other levels' noise moves
#' the shared weights) made it worse, while averaging the iterates, which
#' does not move their centre, did not help.
#'
#' **A harmonic schedule** (`pgbb_control(schedule = "harmonic")`, the step
#' decayed like 1 / t to `lr_floor`) shrinks the wandering early. On the
#' Census (40 releases per budget, `default_harmonic`: decay to 2% of the
#' default's step) it is better everywhere: education at `epsilon = 1` MAE
#' 0.35 %/yr, width 2.23, coverage 0.975 (default 0.47, 2.94, 0.95); at 4
#' 0.14, 0.95, 0.97; black at `tau = 0.1` shifted by -0.039 and covered at
#' 0.875 (`epsilon = 1`), -0.022 and 0.85 (4); black at 0.9 +0.007. But the
#' smaller steps also travel less, and on the natality births, whose
#' NOSMOKE, CIGAR and intercept are nearly collinear, the runs stop short of
#' the optimum together: coverage of rq 0.31 (NOSMOKE) and 0.19 (CIGAR) at
#' `epsilon = 4` and 0.68 and 0.46 at 1 (20 releases each), with intervals
#' that look narrow (201 and 99 g at 4, against the default's 437 and 260).
#' Twice the step decayed to 10% (`default_harmonic_lr4`) is close to the
#' default on both (Census education 0.41, 2.69, 0.945 and black at 0.1
#' -0.077, 0.775 at `epsilon = 1`; natality NOSMOKE and CIGAR 0.89 and 0.90,
#' 370 and 211 g wide, at 4, and 0.92 and 0.91 at 1). So the default keeps the cosine: its failure
#' (the tail shift of a rare indicator) is the milder one, and a shared
#' optimiser error is invisible to every interval. The harmonic schedule
#' suits a design without nearly collinear columns, where it gave the
#' narrowest honest intervals measured; check it against a larger
#' `iterations` first. Read intervals at extreme levels of a rare indicator
#' with the shift above in mind.
#'
#' **An extreme level next to an atom** is that shift at its worst, and no
#' setting measured removes it. `data(natality2022)`'s CigPerDay is 0 for 95%
#' of the mothers (bounds 0-60), so its 0.9 quantile is 0; above 0 the check
#' loss's slope is about 0.05-0.1 per record, against 0.9 below. On
#' subsamples of 1,000 births at `epsilon = 0.5`, `pgbb(y ~ 1, tau = c(0.5,
#' 0.9))` covered 0 at the median in all of 20 releases (1.4 wide) but at
#' 0.9 in 0.4 of them, 21 wide and off by 11.5 on average: the wandering
#' settles well above the atom. A five times larger step made it worse (off
#' by 37, coverage 0.5), five times the iterations did not help (off by 14,
#' 0.4), a box of k = 0.1 (smaller steps, see 'Parameter box') neither (off
#' by 12.9, 0; 10 releases each), and runs started across the bounds instead
#' of at their midpoint raised the coverage only to 0.6 (intervals 27 wide,
#' off by 13). Larger budgets shrink the shift without closing it: one release at
#' `epsilon = 2` and 8 gave 2.6 and 1.1, with intervals \eqn{[1.0, 3.8]} and
#' \eqn{[0.45, 1.5]}. The gradient test reads these fits as settled (|z| of 0.5-3.3
#' in the releases traced, against its limit of 10); in the one printed, the
#' noise warning named the level. Do not publish a PGBB quantile at a level
#' next to a large atom of the response.
#'
#' **Fewer, larger steps, and the design's conditioning.** A Poisson rate of
#' 0.05 for a fifth or two fifths of the iterations (`q5_T02`, `q5_T04` in
#' the schedule study: the same or twice the passes over the data; 20
#' releases each) narrows the Census too: education at `epsilon = 1` 2.52
#' and 2.54 %/yr wide, coverage 0.96 and 0.98, MAE 0.38 and 0.36; black at
#' `tau = 0.1` shifted by -0.037 and -0.054 and covered at 0.90 and 0.80.
#' On the natality births (`epsilon = 4`) NOSMOKE and CIGAR are then covered
#' at 0.31 and 0.10 (`q5_T02`), 0.40 and 0.31 (`q5_T04`): with fewer steps
#' every run stops short along the nearly collinear NOSMOKE, CIGAR and
#' intercept, as with the harmonic schedule. That is the design's
#' conditioning: in an oracle experiment outside the package (the coded
#' design whitened by its own Gram matrix, which a private fit may not use,
#' each whitened column scaled into the unit box; 10 releases), the harmonic
#' schedule covered NOSMOKE and CIGAR at 0.94 and 0.88, but 481 and 250 g
#' wide, no narrower than the default's 437 and 260, while the whitened
#' Census education intervals widened to 3.4-4.3 %/yr. Whitening trades the
#' optimiser's shortfall for noise rather than removing it: a whitened column
#' reaches far beyond its data at the box's corners, so scaling it into the
#' unit box shrinks its spread and enlarges its noise error. The default
#' keeps the centred coding and the larger step.
#'
#' @section Choosing bounds, epsilon, n and iterations:
#' - **Bounds** are public knowledge about the variables (a questionnaire's
#'   codes, a measurement's physical range, a published definition), never
#'   ranges seen in the data. They set the clip and so the noise: a bound twice
#'   as wide as needed doubles the noise on that column's coefficient, a bound
#'   too narrow clips records (a message counts them, not privately) and the
#'   fit then targets the clipped data. Code a categorical variable as a
#'   factor: its dummies are mutually exclusive, so it costs one unit of the
#'   norm bound whatever its number of levels.
#' - **epsilon and n** trade against each other: the gradient noise is fixed by
#'   the budget while the signal grows with n, so the noise error of a
#'   coefficient falls roughly like 1 / (n epsilon). On the 50,000 real 2022
#'   births (`data(natality2022)`, 14 coefficients, five quantile levels) the
#'   95% intervals of the indicator covariates are 85-1,900 g wide at
#'   epsilon = 1 and 33-440 g at 4 (coverage of rq 0.92-1 over 10 releases); at
#'   the paper's 1.94 million records (a resampled scale study), 4-213 g at
#'   epsilon = 1 (7-76 g averaged over the five levels). The warning about a dominating noise names the coefficients
#'   where a larger budget, more records or more iterations per training would
#'   narrow the intervals.
#' - **iterations** is the total over the `runs` pooled trainings. More
#'   iterations mean more noise per step (the accountant composes every step),
#'   but too few leave each training short of the optimum, an error shared by
#'   the runs that the interval does not contain. Weakly identified
#'   directions are where it shows: on the natality births, 95% of mothers do
#'   not smoke and CIGAR is 0 for them, so the intercept, NOSMOKE and CIGAR are
#'   nearly collinear in the coded design (smallest Gram eigenvalue 0.0057,
#'   largest 6.4). Without any noise (`epsilon = Inf`), five runs of 2,000
#'   iterations at the paper's schedule missed rq by 16-82 g for NOSMOKE, and
#'   their intervals covered it at 0.14 of the levels (CIGAR 0.00), while one
#'   training of 10,000 was off by -28 to 20 g. The default's larger step and
#'   tail average are the remedy measured above; the noise warning names the
#'   optimiser's error beside the privacy noise and more iterations per
#'   training among the remedies. That error does not shrink with n while the
#'   intervals do, so the default `T` grows with the (public) number of
#'   records above 500,000 and the default rate falls above 50,000, which
#'   keeps the work linear in n ([pgbb_iterations()] and [pgbb_rate()], with
#'   their measurements on the natality births up to 1.94 million). Check a new application against a
#'   larger `iterations` before publishing.
#' - **The optimiser's schedule** is part of the mechanism's public
#'   description but not of its guarantee: the optimiser sees only the noised
#'   statistics, so any schedule is post-processing. The settings compared
#'   above are in `inst/scripts/schedule-study.R` (`--configs`), with each
#'   configuration's exact meaning.
#' - **threads** (`pgbb_control(threads = )`) only change the speed: the fit
#'   is bit-identical for any number. The default's runs train side by side,
#'   and their generators are evaluated side by side: on 2 idle cores the
#'   Census-scale fit (65,023 records, T = 5,000) took 1.9 s against 2.9 s on
#'   one, and at the paper's natality scale (1.94 million records, T =
#'   10,000) 33 s against 55 s. A single training (`runs = 1`) shares only its subset
#'   pass: 34 s against 48 s at the natality scale, and nothing below about
#'   260,000 records with `mc = 1` (`bench/README.md`).
#'
#' @section Data too small:
#' A private fit needs at least 2 records per block (n >= 2 S); otherwise
#' `pgbb()` stops and says so. `fitted()` and `residuals()` are errors: a fit
#' keeps no records; use `predict(fit, newdata)`.
#'
#' @return An object of class `pgbb`, with methods `print`, `summary`, `coef`,
#'   `confint`, `vcov`, `nobs`, `predict`, `plot`,
#'   [posterior_draws()] and `generics::tidy`.
#' @seealso [pgbb_reference()] for the non-private fit, [pgbb_privacy] for the
#'   privacy model.
#' @examples
#' set.seed(1)
#' d <- data.frame(x = runif(2000, 0, 10))
#' d$y <- 1 + 0.3 * d$x + rt(2000, df = 3)
#' fit <- pgbb(y ~ x, d, loss = "huber", epsilon = 2,
#'             bounds = list(x = c(0, 10), .response = c(-20, 25)),
#'             control = pgbb_control(draws = 500))
#' fit
#' confint(fit)
#' # The same model from a covariate matrix: bounds name its columns.
#' X <- cbind(x = d$x)
#' pgbb(X, d$y, loss = "huber", epsilon = 2,
#'      bounds = list(x = c(0, 10), .response = c(-20, 25)),
#'      control = pgbb_control(draws = 500))
#' @export
pgbb <- function(x, ...) UseMethod("pgbb")

#' @rdname pgbb
#' @export
pgbb.default <- function(x, y, ..., intercept = TRUE)
  .fit_matrix(pgbb.formula, "pgbb", match.call(), x, y, intercept, ...)

#' @rdname pgbb
#' @export
pgbb.formula <- function(formula, data, loss = c("quantile", "huber", "mean", "logistic"), tau = 0.5,
                         epsilon, delta = NULL, bounds, ..., control = pgbb_control(),
                         private = TRUE, progress = interactive()) {
  cl <- match.call()
  cl[[1L]] <- as.name("pgbb")
  .formula_dots_check(match.call(expand.dots = FALSE)$..., .formula_dots, "pgbb",
                      names(formals(sys.function())), control_fun = "pgbb_control")
  loss <- .match_arg(loss)
  if (!inherits(control, "pgbb_control")) .arg_fail("control", "an object made by pgbb_control()")
  .warn_unread_control(attr(control, "given"), loss)
  .check_flag(private, "private")
  .check_flag(progress, "progress")
  if (missing(epsilon)) {
    if (private) stop("'epsilon' is missing: give the privacy budget, or private = FALSE.",
                      call. = FALSE)
    epsilon <- Inf
  }
  .check_positive(epsilon, "epsilon", allow_inf = TRUE)
  # A finite budget with private = FALSE would be printed nowhere and spent on
  # nothing: the fit would be non-private while the call reads as private.
  if (!private && is.finite(epsilon))
    .arg_fail("private", sprintf(paste0("TRUE when a finite 'epsilon' (%s) is given: private = FALSE fits without ",
                                        "any privacy noise; drop 'epsilon' (or set it to Inf) for a non-private fit"),
                                 format(epsilon)))
  if (!is.finite(epsilon)) private <- FALSE
  tau <- .check_tau_for_loss(tau, loss, missing(tau))
  if (missing(bounds)) bounds <- NULL
  if (private && is.null(bounds))
    stop("'bounds' is missing: a private fit needs the public range of every variable, ",
         "e.g. bounds = list(x = c(0, 10), .response = c(0, 1)).", call. = FALSE)
  if (is.null(bounds)) bounds <- list()
  .check_bounds_list(bounds)

  frame <- .pgbb_model_frame(cl, formula, data, parent.frame(), private)
  .check_model_for_loss(frame, loss, "pgbb")
  design <- .response_coding(.pgbb_design(frame, bounds, loss, private, control$coding), loss)
  n <- nrow(design$Z)
  if (!is.null(delta)) .check_delta(delta) else delta <- .default_delta(n)
  .clip_message(design$clipped, "data", "bounds", "pgbb()")

  control <- .resolve_control(control, n, joint = loss == "quantile" && length(tau) > 1L,
                              epsilon = if (private) epsilon else Inf)
  blocks <- control$blocks
  .check_enough_records(n, blocks, private)
  box <- control$box %||% .default_box(loss, design, control$box_scale %||% .default_box_scale(loss))
  fit <- .pgbb_train(design, loss, tau, if (private) epsilon else NULL, delta, blocks, box,
                     control, private, progress)
  .new_pgbb(fit, cl, frame, design, loss, tau, control, private)
}

# A delta so small that 1 / delta or log(1 / delta) overflows gives no usable
# guarantee and NaN noise; 1e-100 is far below any delta used in practice.
.check_delta <- function(delta) {
  .check_open_unit(delta, "delta")
  if (delta < 1e-100) .arg_fail("delta", "at least 1e-100 (and usually about 1 / n or smaller)")
  invisible(delta)
}

# Each block must hold a few records: the accountant's block size floor(n / S)
# is the number of records that share one Dirichlet weight, and a blocked
# bootstrap with one-record blocks is no longer the paper's method.
.min_block_size <- 2L

# A non-private fit may use one-record blocks (S = n is the ordinary Bayesian
# bootstrap), but not more blocks than records.
.check_enough_records <- function(n, blocks, private, hint = "control = pgbb_control(blocks = )") {
  need <- if (private) .min_block_size * blocks else blocks
  if (n < need)
    stop(sprintf(paste0("'data' is too small for a %sfit with these settings: n = %d record(s) ",
                        "in S = %d blocks leaves fewer than %d record(s) per block. Use more data, or ",
                        "fewer blocks (%s)."),
                 if (private) "private " else "", n, blocks, if (private) .min_block_size else 1L, hint),
         call. = FALSE)
  invisible(TRUE)
}

.check_tau_levels <- function(tau) {
  if (!is.numeric(tau) || length(tau) == 0L || anyNA(tau) || any(tau <= 0 | tau >= 1))
    .arg_fail("tau", "a vector of quantile levels strictly between 0 and 1")
  if (anyDuplicated(tau)) .arg_fail("tau", "free of duplicated levels")
  invisible(tau)
}

# Model frame exactly as lm() builds it (the mf[[1]] <- quote(stats::model.frame) idiom).
# A private fit's n is part of the public setting (delta = 1/n, gamma*(n, S) and
# the block size enter the guarantee, and print shows n): dropping incomplete
# records would make it depend on the data, so a private fit refuses them.
.pgbb_model_frame <- function(cl, formula, data, env, private = FALSE, drop_unused = FALSE) {
  if (missing(data) || !is.data.frame(data)) .arg_fail("data", "a data frame")
  if (nrow(data) == 0L) .arg_fail("data", "non-empty (it has no rows)")
  if (private && "subset" %in% names(cl))
    .arg_fail("subset", paste0("left unset for a private fit: the number of records a subset keeps depends on ",
                               "the data, and n is public. Subset the data beforehand and treat its n as public"))
  if (private && "na.action" %in% names(cl))
    .arg_fail("na.action", paste0("left unset for a private fit: its n must be public, so incomplete records ",
                                  "are an error (remove them beforehand by a public rule, or impute them publicly)"))
  if (private) .check_recordwise_terms(stats::terms(stats::as.formula(formula), data = data), names(data))
  mf <- cl[c(1L, match(c("formula", "data", "subset", "na.action"), names(cl), 0L))]
  # Levels are public; dropping them would depend on the data. Only the
  # non-private reference drops them (`drop_unused`), as lm() and rq() do: the
  # coefficient of a level with no records is not estimable there.
  mf$drop.unused.levels <- drop_unused
  if (private) mf$na.action <- quote(stats::na.pass)
  mf[[1L]] <- quote(stats::model.frame)
  mf <- eval(mf, env)
  if (private && anyNA(mf))
    .arg_fail("data", paste0("free of missing values in the model variables for a private fit: dropping ",
                             "incomplete records would make n, which the guarantee treats as public, depend on ",
                             "the data. Remove them beforehand by a public rule (e.g. stats::na.omit(data) ",
                             "before the analysis, and report n as public), or impute them publicly"))
  mt <- attr(mf, "terms")
  # The terms' environment is the caller's frame, which may hold the data: a fit
  # keeps terms for predict() only, in an environment that holds just the
  # formula's constants (.formula_constants()).
  environment(mt) <- .formula_constants(formula, data)
  y <- stats::model.response(mf)
  if (is.null(y)) .arg_fail("formula", "a two-sided formula with a response")
  if (!is.numeric(y) || is.matrix(y))
    .arg_fail("formula", "a model with a single numeric response (factors: use loss = \"logistic\" with a 0/1 response)")
  X <- stats::model.matrix(mt, mf)
  if (nrow(X) == 0L) .arg_fail("data", "left with at least one complete record after 'subset' and 'na.action'")
  if (any(!is.finite(X)) || any(!is.finite(y)))
    .arg_fail("data", "free of infinite values in the model variables")
  list(mf = mf, mt = mt, X = X, y = as.numeric(y), data_names = names(data))
}

# The constants a formula names besides the data's columns (the `shift` of
# I(x - shift)), copied into a small environment whose parent is the global
# one, so that predict() evaluates the terms with the values the fit used
# rather than whatever the global environment holds then. Only short atomic
# values are kept (at most 16 and fewer than the records): anything longer is
# a variable, which predict() takes from `newdata`; no frame that may hold the
# data is kept. Without constants the global environment itself.
.formula_constants <- function(formula, data) {
  fenv <- environment(formula) %||% globalenv()
  out <- new.env(parent = globalenv())
  for (v in setdiff(all.vars(formula), names(data))) {
    val <- tryCatch(get(v, envir = fenv), error = function(e) NULL)
    if (is.atomic(val) && length(val) >= 1L && length(val) <= 16L &&
        (length(val) == 1L || length(val) < nrow(data)) && all(names(attributes(val)) %in% "names"))
      assign(v, val, envir = out)
  }
  if (length(ls(out, all.names = TRUE))) out else globalenv()
}

# A column that does not vary is aliased with the intercept: nothing in the data
# pins its coefficient, which the generator then outputs with a narrow interval
# around an arbitrary value (lm() reports NA). Said to the analyst, like the
# clip counts: the check reads the data, so the warning is not part of the
# release and nothing is stored.
.warn_constant_columns <- function(X) {
  if (nrow(X) < 2L) return(invisible(integer(0)))  # too few records: the size check says so
  cols <- which(attr(X, "assign") != 0L)
  flat <- cols[vapply(cols, function(j) { v <- X[, j]; all(v == v[1L]) }, logical(1))]
  if (length(flat))
    warning(sprintf(paste0(
      "the column(s) %s take one value in the data (after clipping to their bounds): with the intercept their ",
      "coefficients are not ",
      "identified, and their estimates and intervals mean nothing (lm() would report NA). Drop them, or fit ",
      "without the intercept. (This check reads the confidential data; it is shown to you and not stored.)"),
      paste(sprintf("'%s'", colnames(X)[flat]), collapse = ", ")), call. = FALSE)
  invisible(flat)
}

# Unit-box design from public bounds (R/design.R). A non-private fit without
# any bounds takes its ranges from the data (.data_ranges()); no other path does.
.pgbb_design <- function(frame, bounds, loss, private, coding = "centred") {
  X <- frame$X
  y <- frame$y
  intercept <- attr(frame$mt, "intercept") == 1L
  if (loss == "logistic" && !all(y %in% c(0, 1)))
    .arg_fail("formula", "a 0/1 response for loss = \"logistic\"")
  if (length(bounds) == 0L && !private) {
    r <- .data_ranges(X, y, loss)
    cb <- r$cb
    yb <- r$yb
    message("pgbb: private = FALSE and no 'bounds': the covariate and response ranges were taken ",
            "from the data. This is fine only because nothing is released privately; a private ",
            "fit needs declared public bounds.")
  } else {
    yb <- if (loss == "logistic") c(0, 1) else bounds[[".response"]]
    if (is.null(yb)) stop("no public bound for the response: declare bounds$.response = c(lower, upper).",
                          call. = FALSE)
    yb <- .check_bound_pair(yb, ".response")
    cb <- .column_bounds(X, frame$mt, frame$mf, bounds)   # a missing bound is named first
    .check_bounds_known(bounds, frame)
  }
  groups <- .exclusive_groups(X, frame$mt, frame$mf)
  coords <- .linear_coordinates(cb, .linear_bounds(bounds, frame), groups)
  maps <- .unit_maps(coords$bounds, intercept, coding, groups)
  if (!is.null(coords$rows)) maps[c("rows", "bounds")] <- coords[c("rows", "bounds")]
  sc <- .scale_to_unit(X, cb, maps)
  # On the clipped design: a column whose every value lies beyond one bound is
  # constant after clipping, as unidentified as a constant column.
  if (intercept) .warn_constant_columns(sc$Z)
  y_clipped <- sum(y < yb[1] | y > yb[2])
  y <- pmin(pmax(y, yb[1]), yb[2])
  list(Z = sc$Z, y = y, cb = cb, maps = maps, y_bounds = yb, clipped = c(sc$clipped, .response = y_clipped),
       # the structure's norm bound, only where it beats the box's (R/design.R)
       x_norm = if (length(groups)) .design_norm(cb, maps, groups),
       intercept = intercept, coefnames = colnames(X), bounds_from_data = length(bounds) == 0L && !private)
}

# Ranges of the model-matrix columns and of the response, taken from the data:
# only for a non-private fit (nothing released privately), where the generator
# still needs a unit-box design and a parameter box. A constant column gets a
# unit-width range around its value so that its map stays defined.
.data_ranges <- function(X, y, loss) {
  cb <- matrix(NA_real_, 2L, ncol(X), dimnames = list(c("lower", "upper"), colnames(X)))
  for (j in which(attr(X, "assign") != 0L)) {
    r <- range(X[, j])
    cb[, j] <- if (r[1] < r[2]) r else r + c(-0.5, 0.5)
  }
  yb <- if (loss == "logistic") c(0, 1) else range(y)
  if (!(yb[1] < yb[2])) yb <- yb + c(-0.5, 0.5)
  list(cb = cb, yb = yb)
}

# The default multiplier k of the box (?pgbb_control, 'box_scale'): the
# mean's estimand lies within the response's bounds, and 0.1 is the smallest
# round k that keeps them inside the identity part of the output map (the
# central 90% of [c - k w, d + k w] contains [c, d] when 0.05 (1 + 2 k) <= k).
# The intercept of y ~ 1 keeps k = 2 (?pgbb, 'Parameter box', measured).
.default_box_scale <- function(loss) if (loss == "mean") 0.1 else 2

# Public parameter box on the scaled design (documented in ?pgbb).
.default_box <- function(loss, design, k) {
  yb <- design$y_bounds
  w <- yb[2] - yb[1]
  p <- ncol(design$Z)
  is_int <- !design$maps$scaled & design$intercept
  if (loss == "mean") {
    .check_box_finite(yb[1] - k * w, yb[2] + k * w)
    return(list(lower = yb[1] - k * w, upper = yb[2] + k * w))
  }
  if (loss == "logistic") return(list(lower = rep(-10 * k, p), upper = rep(10 * k, p)))
  # Without an intercept the fit passes through 0, so a slope must reach the
  # response's magnitude, not only its width: with y in [90, 130] and one
  # covariate on [0, 1], least squares gives a slope of about 1.5 x 100.
  s <- if (design$intercept) w else max(w, abs(yb))
  lower <- ifelse(is_int, yb[1] - k * w, -(1 + k) * s)
  upper <- ifelse(is_int, yb[2] + k * w, (1 + k) * s)
  if (loss == "huber") { lower <- c(lower, 1e-3 * w); upper <- c(upper, (1 + k) * s) }
  .check_box_finite(lower, upper)
  list(lower = lower, upper = upper)
}

# The default box is a multiple of the response range; a range so wide that the
# box overflows double precision would give NaN draws.
.check_box_finite <- function(lower, upper) {
  if (any(!is.finite(c(lower, upper))) || any(!is.finite(upper - lower)))
    .arg_fail("bounds$.response", paste0(
      "a range whose width times (1 + box_scale) is a finite number (declare the response's ",
      "real public range; bounds of the order of 1e300 overflow)"))
  invisible(TRUE)
}

# Train the generator on the unit-box design with pgbb_fit(). For the mean the
# response itself is scaled into [0, 1] with its public range, so the clipped
# Gaussian score (bounded by 8, SM S3.2) never binds on that scale and the
# blocked-bootstrap target stays the plain weighted mean.
.pgbb_train <- function(design, loss, tau, epsilon, delta, blocks, box, control, private,
                        progress) {
  n <- nrow(design$Z)
  gamma <- control$gamma %||% gamma_star(n, blocks)
  box_m <- cbind(box$lower, box$upper)
  common <- list(delta = delta, box = box_m, blocks = blocks, gamma = gamma, rate = control$rate,
                 iterations = control$iterations, mc = control$mc, hidden = control$hidden,
                 optimizer = control$optimizer, learning_rate = control$learning_rate,
                 lr_floor = control$lr_floor, schedule = control$schedule %||% "cosine",
                 average_from = control$average_from %||% 1,
                 draws = control$draws, accountant = control$accountant,
                 conversion = control$conversion, J = control$J, m = control$m,
                 alpha = control$alpha, orders = control$orders, runs = control$runs %||% 1L,
                 tau_basis = control$tau_basis %||% "grid", warmup = control$warmup %||% 0.05,
                 level_interactions = control$level_interactions %||% TRUE,
                 share_partition = isTRUE(control$share_partition),
                 clip = control$clip, precision = control$precision %||% "float",
                 threads = control$threads, level_noise = control$level_noise %||% "scaled",
                 keep_runs = TRUE, progress = progress)
  if (private) common$epsilon <- epsilon else common$sigma <- 0
  if (loss == "mean") {
    yb <- design$y_bounds
    z <- (design$y - yb[1]) / (yb[2] - yb[1])
    args <- c(list(x = matrix(z, ncol = 1L, dimnames = list(NULL, "mean")), loss = "mean",
                   x_bounds = c(0, 1)), common)
    args$box <- matrix(c((box$lower - yb[1]) / (yb[2] - yb[1]), (box$upper - yb[1]) / (yb[2] - yb[1])), 1L)
  } else {
    ur <- .unit_ranges(design$cb, design$maps)
    xb <- cbind(ur$lower, ur$upper)
    u <- design$y_unit
    args <- c(list(x = design$Z, y = (design$y - design$y_shift) / u, loss = loss, x_bounds = xb,
                   x_norm = design$x_norm, tau = tau, huber_c = control$huber_c,
                   huber_kappa = control$huber_kappa, bandwidth = control$bandwidth / u,
                   tau_prob = if (loss == "quantile" && !is.null(control$tau_weights))
                     .check_tau_prob(control$tau_weights, tau, "tau_weights")), common)
    args$box <- .coded_box(box_m, design)
    if (loss != "quantile") args$tau <- NULL
  }
  args <- .drop_unread_settings(args, loss)
  # pgbb() warns about a dominating noise in the original units (.new_pgbb()).
  # A location's draws beyond its bounds are moved onto them
  # (.location_release()), so the squashing in the box's shoulders changes
  # nothing released when both shoulders lie beyond the bounds (the default
  # box ensures it); only then is the shoulder warning muffled. The location
  # is the box's first row (a Huber fit's scale follows it), compared in the
  # original units: the coding is affine, so it keeps the comparison.
  quiet_shoulders <- !is.null(.location_terms(design, loss)) &&
    .shoulders_beyond(box_m[1L, , drop = FALSE], design$y_bounds)
  withCallingHandlers(do.call(pgbb_fit, args),
                      pgbb_noise_dominates = function(w) invokeRestart("muffleWarning"),
                      pgbb_box_shoulders = function(w) if (quiet_shoulders) invokeRestart("muffleWarning"))
}

# Whether the outer 5% of a one-row box on each side (its soft clip's
# shoulders, .box_shoulder_share()) lies wholly beyond the interval `bounds`.
.shoulders_beyond <- function(box, bounds) {
  edge <- 0.05 * (box[1L, 2L] - box[1L, 1L])
  box[1L, 1L] + edge <= bounds[1L] && box[1L, 2L] - edge >= bounds[2L]
}

# Draws of the trained generator (scaled design) -> array [draw, term, level] in
# the original units: a fixed linear map (post-processing).
.to_original_units <- function(draws, design, loss) {
  if (is.null(dim(draws)) || length(dim(draws)) == 2L) {
    draws <- array(draws, c(NROW(draws), NCOL(draws), 1L),
                   list(NULL, colnames(draws), if (loss == "quantile") NULL else "estimate"))
  }
  if (loss == "mean") {
    yb <- design$y_bounds
    draws[] <- yb[1] + (yb[2] - yb[1]) * draws
    dimnames(draws)[[2L]] <- "mean"
    return(draws)
  }
  p <- length(design$coefnames)
  A <- .unscale_matrix(design$maps, design$coefnames)
  u <- design$y_unit %||% 1   # fits saved before the response coding have none
  int <- .intercept_column(design)
  for (k in seq_len(dim(draws)[3L])) {
    g <- matrix(draws[, seq_len(p), k], nrow = dim(draws)[1L])
    draws[, seq_len(p), k] <- (u * g) %*% t(A)
    if (length(int)) draws[, int, k] <- draws[, int, k] + (design$y_shift %||% 0)
    if (loss == "huber") draws[, p + 1L, k] <- u * draws[, p + 1L, k]
  }
  dimnames(draws)[[2L]][seq_len(p)] <- design$coefnames
  draws
}

.new_pgbb <- function(fit, cl, frame, design, loss, tau, control, private) {
  # The runs' draws that pgbb_fit() pooled on the coded design, mapped to the
  # original units and pooled there (R/pooling.R): no generator is evaluated
  # twice, and nothing but the pooling draws further randomness.
  ev <- .pgbb_draws(fit, design, loss, n = nrow(fit$draws), tau = if (isTRUE(fit$joint)) tau,
                    labels = tau, per_run = fit$run_draws)
  fit$run_draws <- NULL
  if (ev$variability$runs[1L] > 1L) .warn_noise_dominates(ev$variability, private = private)
  structure(list(call = .release_call(cl, "pgbb"), loss = loss, tau = tau, n = nrow(design$Z),
                 coefnames = dimnames(ev$draws)[[2L]], draws = ev$draws, estimate = ev$estimate,
                 range = ev$range, ledger = fit$ledger,
                 variability = ev$variability,
                 private = private, fit = fit, design = design[c("cb", "maps", "y_bounds", "y_shift", "y_unit", "intercept", "coefnames",
                                                 "bounds_from_data")],
                 terms = frame$mt, xlevels = stats::.getXlevels(frame$mt, frame$mf),
                 contrasts = attr(frame$X, "contrasts"), control = control),
            class = c("pgbb", "private_posterior"))
}

# Draws in the original units [draw, term, level] and their variability table:
# every run's draws mapped by the fixed linear map of .to_original_units(), then
# pooled (post-processing). `labels` name the level slices.
.pgbb_draws <- function(inner, design, loss, n, tau, labels, per_run = NULL) {
  if (is.null(per_run)) per_run <- .run_draws(inner, n, .draw_levels(inner, tau))
  lab <- if (loss == "quantile") .tau_labels(labels) else "estimate"
  mapped <- lapply(per_run, function(a) {
    o <- .to_original_units(a, design, loss)
    dimnames(o)[[3L]] <- lab
    o
  })
  pooled <- .pool_runs(mapped, shared = isTRUE(inner$shared_partition), blocks = inner$ledger$blocks)
  # The variability table describes the draws before they are moved.
  if (!is.null(loc <- .location_terms(design, loss)))
    pooled[c("draws", "estimate", "range")] <- .location_release(pooled$draws, design$y_bounds, loc)
  pooled
}

#' @rdname posterior_draws
#' @param array For a `pgbb` fit: return an array `[draw, term, level]` even for
#'   a single level.
#' @export
posterior_draws.pgbb <- function(fit, n = 2000, tau = NULL, array = FALSE, ...) {
  .check_no_dots("posterior_draws.pgbb", ...)
  .check_flag(array, "array")
  if (!is.null(tau)) .check_tau_levels(tau)
  if (!is.null(tau) && !isTRUE(fit$fit$joint) &&
      !isTRUE(all.equal(as.numeric(tau), as.numeric(fit$tau))))
    .arg_fail("tau", "one of the levels the generator was trained at (a single-level fit)")
  .check_count(n, "n", max = 1e8)
  joint <- isTRUE(fit$fit$joint)
  out <- .pgbb_draws(fit$fit, fit$design, fit$loss, n, tau = if (joint) tau %||% fit$tau,
                     labels = tau %||% fit$tau)$draws
  if (array) out else .drop_level(out)
}
