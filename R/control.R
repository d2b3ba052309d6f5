#' Tuning knobs of a PGBB fit
#'
#' Collects and validates the settings that [pgbb()] passes to [pgbb_fit()], under
#' the same names. The sizes (blocks, rate, iterations, network, bandwidth,
#' accountant) follow the PGBB paper (Section 5, SM S3.2-S3.3); how the budget
#' is spent and the intervals are formed is the package's own, measured on the
#' paper's real data and simulations (see [pgbb()], 'Noise-aware intervals'):
#' five pooled trainings on one partition, tail averaging at up to twice the
#' paper's step, each quantile level clipped at its own bound, and a generator whose
#' spread may differ between levels. `paper = TRUE`
#' restores the paper's single training (Algorithms 1 and 2) for
#' reproductions. A loss setting that the fit's loss does not read (`huber_c`
#' for a quantile fit, `bandwidth` or `tau_weights` for a Huber fit) is named
#' in a warning by [pgbb()] (a control may be shared by fits of several losses). None of the settings may be chosen by looking at the
#' confidential data: every one is part of the public description of the
#' mechanism. The 1980 Census measurements quoted below were made with the
#' columns' own bounds; the linear bound on schooling plus experience (see
#' [pgbb()], 'Public bounds') narrows those intervals further.
#'
#' @param blocks Number of blocks `S`. Default `NULL`: 20 (SM S3.2), or 5 for a
#'   joint fit over several quantile levels (SM S3.3). Fewer blocks give a smaller
#'   per-record weight in the accountant (less noise), but the blocked bootstrap
#'   approximates the ordinary one with error of order `S^(-1/2)` (Theorem 4.1).
#' @param gamma Block Dirichlet concentration. Default `NULL`: [gamma_star()]`(n, blocks)`
#'   (eq. 8), which matches the ordinary Bayesian-bootstrap variance (Proposition 4.1).
#' @param rate Poisson subsampling rate `q`. Default `NULL`: [pgbb_rate()]`(n)`,
#'   the 0.1 of SM S3.2 up to 50,000 records and 5,000 expected records per
#'   step above; for a joint fit over several quantile levels SM S3.3's 0.01,
#'   with at least 500 and at most 5,000 expected records per step
#'   (`paper = TRUE`: 0.1 whatever n). Smaller rates amplify privacy (less
#'   noise per step) but each step sees fewer records.
#' @param iterations Training iterations `T` in all runs together. Default
#'   `NULL`: [pgbb_iterations()]`(n)`, 10,000 up to n = 500,000 records and
#'   one iteration per 50 records above (`paper = TRUE`: the paper's 10,000).
#'   Privacy cost grows with `T`; too few iterations leave the generator
#'   under-trained, an error that every run shares, so the interval does not
#'   contain it. It matters most at large n, where the statistical error
#'   shrinks like n^(-1/2) and the privacy noise like 1/n while the
#'   optimiser's error after a fixed `T` does not shrink at all; see
#'   [pgbb_iterations()] for the rule and its measurements.
#' @param mc Monte Carlo weight draws `K` per iteration. Default `NULL`: 1
#'   (SM S3.2), or 5 for a joint fit over several quantile levels (SM S3.3;
#'   `paper = TRUE`: 1). Each is a separate release in the accountant (`T K`
#'   releases), but averaging over `K` reduces the gradient noise. On the
#'   natality births resampled to 1.94 million records (`epsilon = 1`,
#'   `vignette("birthweight")`), `pgbb()` with every default covered 69, 67
#'   and 65 of 70 coefficient-levels (seeds 1940, 1 and 2; 35-37 s each);
#'   with `K = 1` and a step of 1e-3, the sizes of SM S3.2, 52 and 49 (seeds
#'   1940 and 1) at the same `T` and `q`, and 30 with T = 10,000 and q = 0.1.
#'   On the 50,000 real births (10 releases at each `epsilon`,
#'   `inst/scripts/schedule-study.R`, `--configs=pure_default,pure_sm32`),
#'   every default covered rq at 0.97 and 0.98 of the coefficient-levels at
#'   `epsilon` = 1 and 4 (NOSMOKE 0.96 and 0.96, CIGAR 0.96 and 0.98), where
#'   the SM S3.2 sizes covered 0.92 and 0.80 (NOSMOKE 0.72 and 0.26, CIGAR
#'   0.58 and 0.14). On the 1980 Census they covered 0.94 and 0.97, against
#'   0.96 and 0.97; education's interval at `epsilon = 1` is 2.98 %/yr wide
#'   against 2.68, and black at tau = 0.1 was covered in 5 of 10 releases
#'   against 9 (the shift of a rare indicator's extreme level, see [pgbb()]).
#' @param hidden Hidden-layer widths of the generator (default two layers of 32;
#'   the paper's three layers of 256 with `paper = TRUE`; `integer(0)`: no hidden
#'   layer, a generator affine in its inputs). The input also reaches every
#'   later layer directly (SM S3.2), so the network needs hidden units only for
#'   the part of the map u -> theta*(u) that is not affine. On the 1980 Census
#'   and the natality births (10 releases each, `epsilon` = 1 and 4), 2 x 32
#'   gave the intervals of 3 x 256 (education at `epsilon = 1`: MAE 0.45
#'   against 0.46 %/yr, width 2.95 against 2.91; natality widths within 1%) at
#'   a quarter of the time, and the trained 3 x 256 networks end with every
#'   unit of their last hidden layer inactive. In Table S2's regression with an
#'   intercept (twelve cells of 100 replicates, `vignette("simulations")`) it
#'   covered the truth in 0.98-1.00 of the replicates (3 x 256: 0.97-1.00),
#'   with MAE 0.65-0.87 times the paper's and intervals 1.03-1.11 times as wide
#'   as 3 x 256's (1.01-1.12 times the paper's).
#'   The hidden layers are kept for small samples, where the map is visibly
#'   curved: for a logistic regression on 300 records in 10 blocks, without a
#'   hidden layer the draws' SDs were 9% short of the exact blocked bootstrap's
#'   and their 2.5% quantile 0.44 SD off; 2 x 32 was within 2% and 0.04 SD.
#' @param optimizer `"adam"` (default) or `"sgd"`, with the learning rate decayed by `schedule`.
#' @param learning_rate Initial learning rate. Default `NULL`:
#'   [pgbb_learning_rate()]`(n, epsilon)`, 1e-3, twice the paper's 5e-4 of SM
#'   S3.2, or for a joint fit over several quantile levels 2e-3, twice SM
#'   S3.3's 1e-3, except at `n * epsilon <= 30000`, where the privacy noise
#'   dominates and it is 1e-3 (`paper = TRUE`: 5e-4). The tail average
#'   removes most of the extra noise a larger step leaves, and a larger step
#'   converges faster along weakly identified directions; see [pgbb()],
#'   'Noise-aware intervals'.
#' @param lr_floor Final learning rate of the schedule as a fraction of
#'   the initial one (default 0.1; the paper's 0.01 with `paper = TRUE`).
#'   A higher floor keeps the iterates wandering late, which the tails of a
#'   rare indicator turn into a shared shift: a constant step (`lr_floor =
#'   1`) lowered the coverage of `rq` for black on the 1980 Census
#'   (\eqn{\epsilon = 1}, 40 releases) from 0.965 to 0.765, and 0.5 to 0.86,
#'   with the education interval no narrower (3.11 and 2.95 %/yr against
#'   3.02).
#' @param schedule Learning-rate decay: `"cosine"` (default; the paper's, SM
#'   S3.2) or `"harmonic"`, \eqn{\eta_t = \eta / (1 + (1/f - 1) t / (T - 1))}
#'   with `f = lr_floor`, which lowers the step early as a Robbins-Monro rate
#'   does. The smaller late steps shrink the wandering of the noisy iterates,
#'   which the extreme quantiles of a rare indicator absorb as a shift that
#'   every run shares, but they also leave nearly collinear directions short
#'   of the optimum; see [pgbb()], 'Noise-aware intervals', for both effects
#'   measured on the real data.
#' @param bandwidth Bandwidth `h` of the convolution-smoothed quantile loss, in
#'   units of the response (default 0.1, SM S3.3).
#' @param huber_c,huber_kappa Huber constant and scale-consistency constant
#'   (defaults 1.345 and 0.71, SM S3.2).
#' @param draws Number of posterior draws stored in the fit (default 2000); more
#'   can be drawn later with [posterior_draws()] at no privacy cost.
#' @param J,m Truncation orders of the accountant (defaults 32 and 5, Proposition 2.2).
#' @param alpha Pseudo-sample concentration of SM S2.3.2 (default 0).
#' @param accountant `"dirichlet"` (default) or `"worst-case"` (Remark 2.2).
#' @param conversion RDP-to-DP conversion: `"asoodeh"` (default, sharper) or `"mironov"`.
#' @param orders Integer Renyi orders searched by the conversion (default `2:256`).
#' @param tau_weights Sampling weights of the quantile levels in a joint fit,
#'   positive (a level never sampled would never be trained).
#'   Default `NULL`: proportional to `1 / (tau (1 - tau))` (Section 2.5).
#' @param box Optional public parameter box on the scaled design, a list with
#'   `lower` and `upper`; by default it is derived from the declared bounds (see [pgbb()]).
#' @param box_scale Multiplier `k` of the response range used for the default
#'   box (see [pgbb()]). Default `NULL`: 2, or 0.1 for `loss = "mean"`, whose
#'   estimand lies within the response's bounds, so that a wider box would only
#'   raise the gradient bound (and the noise) by the factor `1 + k`. 0.1 keeps the
#'   bounds inside the identity part of the generator's output map, the central
#'   90% of the box. The share of smokers in the natality births (40 subsamples
#'   each, `epsilon` 0.25 and 1, n = 500 and 2,000): see [pgbb()]. The
#'   intercept of `y ~ 1` in a quantile or Huber fit keeps 2: a smaller box
#'   also means smaller steps, which left runs short at small `n epsilon`
#'   (measured in [pgbb()], 'Parameter box').
#' @param runs Number of independent trainings `R` (default 5; 1 with `paper = TRUE`) that share the
#'   `iterations` (each trains `floor(iterations / runs)`), each with its own
#'   subsampling and noise (and partition, unless `share_partition`); the
#'   accountant counts all their releases,
#'   so the noise scale is that of one training of `iterations` steps. Their
#'   pooled draws give noise-aware intervals: the within-run spread plus the
#'   noise error of the pooled centre, `W + B / R` with a t reference (see
#'   [pgbb()], 'Noise-aware intervals'). `runs = 1` is the paper's single
#'   training, whose intervals leave the training-noise error out. More runs give
#'   a smaller t quantile but shorter trainings, whose shared distance from the
#'   optimum no interval contains; 5 is the measured choice. With 10 runs of the
#'   same `iterations` the 1980 Census education interval (\eqn{\epsilon = 1})
#'   narrowed from 3.0 to 2.5 %/yr at the same coverage of `rq` (0.96), but on the natality
#'   births (`T = 10000`, \eqn{\epsilon = 4}) the coverage of `rq` fell to
#'   0.34-0.44 for three coefficients, and the stationarity check of [pgbb()] did
#'   not flag it. With 10 runs and half the step (`learning_rate = 1e-3`) the
#'   Census education interval was 2.2 %/yr wide at \eqn{\epsilon = 1} (coverage
#'   1.00, MAE 0.39; 10 releases) and 0.90 at \eqn{\epsilon = 4} (coverage 0.96),
#'   while the natality coverage of the intercept, NOSMOKE and CIGAR fell to
#'   0.20-0.30: those rare indicators make directions the loss barely curves,
#'   along which short runs at a small step stop short together. Which data have
#'   such directions depends on the private shares, so the default stays at the
#'   setting that covers on both. Choosing `runs` or the step by how releases of
#'   the same data cover would itself use the private data; for data known in
#'   advance to have no rare indicators, more runs and a smaller step are the
#'   lever for narrower intervals (the reproduction scripts take `--runs` and
#'   `--learning_rate`). Ten runs of the default length, `iterations` doubled
#'   (twice the compute and a larger noise scale), gave 2.6 %/yr on the Census
#'   (coverage 0.96, MAE 0.50) but lowered the natality coverage at
#'   \eqn{\epsilon = 1} to 0.68-0.76 for the intercept, NOSMOKE, NATAL3 and
#'   NOVISIT (default 0.90-0.96), and at \eqn{\epsilon = 4} to 0.78-0.80 for
#'   NATAL3 and NOVISIT (default 0.94).
#' @param tau_basis Level features of the joint quantile generator, `"grid"`
#'   (default) or `"smooth"` (see [pgbb_fit()]).
#' @param level_interactions Products of the block weights with the level hats
#'   as generator inputs, so that each level's draws have their own spread
#'   (default `TRUE`; `FALSE` with `paper = TRUE`; see [pgbb_fit()]).
#' @param coding How a model with an intercept codes its covariates from their
#'   public ranges: `"centred"` (default) maps each onto \eqn{[-1, 1]} (midpoint and
#'   half-width), `"unit"` onto \eqn{[0, 1]}, the unit box of SM S3.3 (the paper's
#'   setting). Both bound every \eqn{|z_j|} by 1, so the clip and the noise are the
#'   same; centring removes the correlation of every column with the intercept,
#'   which otherwise magnifies the error the gradient noise leaves in the slopes.
#'   A factor (or logical) main effect with treatment contrasts is coded as one
#'   group: its dummies are mutually exclusive, so under `"centred"` they are
#'   centred at \eqn{1/k} and scaled so that the factor adds exactly 1 to the
#'   public bound on \eqn{\|z\|^2}, like one binary covariate, whatever its
#'   number of levels \eqn{k} (with `"unit"` the 0/1 dummies add 1 as well). The
#'   clip follows from that exact maximum over the coded design, so a factor
#'   with many levels no longer inflates the noise of every other coefficient.
#'   Measured on the natality births (eps = 4, 6 releases; education and
#'   prenatal care as 4-level factors instead of 0/1 columns): clip 3.37 ->
#'   2.85, widths of the other coefficients 5-13% narrower, of the factor's
#'   own dummies 11-22% wider.
#' @param level_noise `"scaled"` (default) or `"uniform"`: how the clip and
#'   the noise of a joint fit's draws depend on their level, as in
#'   [pgbb_fit()]. `"scaled"` gives each level its own bound and the noise in
#'   proportion (the same guarantee, less noise at the central levels);
#'   `"uniform"` is the paper's level-uniform clip (Algorithm 2).
#' @param average_from Fraction of each run's iterations after which the
#'   generator's weights are averaged (tail or Polyak-Ruppert averaging, over
#'   every 10th iterate); the trained generator is that average. Default 0.5:
#'   the mean of the second half of every run; 1 is the last iterate (the
#'   paper's). Post-processing of the released iterates: no privacy cost.
#'   Averaging from earlier narrows the intervals where the noise sets them
#'   and biases coefficients that are still moving. Measured at the default
#'   step with the same seeds (coverage of `rq`; 1980 Census at
#'   \eqn{\epsilon = 1}, 40 releases; natality births, 12 releases):
#'   from 0.25, the Census education interval narrowed from 3.02 to 2.59 %/yr
#'   (coverage 0.96 and 0.965, black 0.965 and 0.915), but on the natality
#'   births at \eqn{\epsilon = 4} the intercept, CIGAR and NOSMOKE fell from
#'   0.93, 0.92 and 0.90 to 0.87, 0.83 and 0.85, and at
#'   \eqn{\epsilon = 1} the intercept and NOVISIT from 0.92 and 0.93 to 0.85
#'   and 0.83; from 0.35, Census 2.77 and CIGAR 0.87 (at the paper's step,
#'   from 0.25, NOSMOKE fell to 0.64). Choosing the start per coefficient
#'   from the released trajectory (from 0.25 where each run's means averaged
#'   from 0.25 and from 0.5 differ, on average over the five runs, by less
#'   than two standard errors, else from 0.5) left the natality intercept, CIGAR and
#'   NOSMOKE at 0.88, 0.85 and 0.87: with five runs the test misses slow
#'   drifts. So the window starts halfway.
#' @param warmup Fraction of the iterations that update only the output bias
#'   (default 0.05), as in [pgbb_fit()].
#' @param clip Per-record gradient bound `C`, a public number; `NULL` (default)
#'   for the loss's bound, computed from the declared bounds and the coded
#'   design (see [pgbb_fit()]). A smaller `C` lowers the noise and clips more
#'   records' gradients (a bias); it must not be chosen by looking at the data.
#' @param precision `"float"` (default) or `"double"` arithmetic of the
#'   generator's weights during training, as in [pgbb_fit()].
#' @param share_partition `TRUE` (default): the `runs` trainings share one
#'   random partition and the pooled draws average their deviations at common
#'   block weights, drawn as a t on `blocks - 1` degrees of freedom (see
#'   [pgbb_fit()]); `FALSE` draws a fresh partition per run.
#' @param paper `TRUE` for the paper's own setting: one training
#'   (`runs = 1`, Algorithms 1 and 2) of `iterations = 10000` at
#'   `rate = 0.1` whatever n (SM S3.2), the unit-box coding of SM S3.3
#'   (`coding = "unit"`), Adam from 5e-4 decayed to 1% with the last iterate
#'   (`learning_rate = 5e-4, lr_floor = 0.01, schedule = "cosine", average_from = 1`), the
#'   level-uniform clip (`level_noise = "uniform"`), a generator fed the block
#'   weights and levels without their products (`level_interactions = FALSE`),
#'   three hidden layers of 256 (`hidden = c(256, 256, 256)`, SM S3.2) and
#'   fresh partitions.
#'   Arguments given explicitly still win. Its intervals leave the training
#'   noise out (the print says so); use it to reproduce the paper's tables. These
#'   are SM S3.2's simulation settings: the real-data joint quantile fits of SM S3.3
#'   also need `blocks = 5, rate = 0.01, mc = 5, learning_rate = 1e-3`, which the
#'   reproduction scripts give (`inst/scripts/quantile-app.R`).
#' @param threads Threads for the training (the runs side by side, then the
#'   subset pass), as in [pgbb_fit()]:
#'   `NULL` (default) for `getOption("pgbb.threads", 1)`. Every value gives the
#'   same fit bit for bit.
#' @return An object of class `pgbb_control`.
#' @examples
#' pgbb_control(iterations = 2000, rate = 0.05)
#' @export
pgbb_control <- function(blocks = NULL, gamma = NULL, rate = NULL, iterations = NULL, mc = NULL,
                         hidden = c(32, 32), optimizer = c("adam", "sgd"),
                         learning_rate = NULL, lr_floor = 0.1, schedule = c("cosine", "harmonic"),
                         bandwidth = 0.1,
                         huber_c = 1.345, huber_kappa = 0.71, draws = 2000, J = 32, m = 5,
                         alpha = 0, accountant = c("dirichlet", "worst-case"),
                         conversion = c("asoodeh", "mironov"), orders = 2:256,
                         tau_weights = NULL, box = NULL, box_scale = NULL,
                         coding = c("centred", "unit"), runs = 5, tau_basis = c("grid", "smooth"),
                         level_interactions = TRUE, average_from = 0.5, warmup = 0.05, clip = NULL,
                         precision = c("float", "double"), share_partition = TRUE, threads = NULL,
                         level_noise = c("scaled", "uniform"), paper = FALSE) {
  .check_flag(paper, "paper")
  # The settings the user wrote: pgbb() refuses a loss setting its loss does not read.
  given <- names(match.call())[-1L]
  if (paper) {
    for (nm in setdiff(names(.paper_setting), given)) assign(nm, .paper_setting[[nm]])
  }
  if (!is.null(blocks)) .check_count(blocks, "blocks", min = 3)
  if (!is.null(gamma)) .check_positive(gamma, "gamma")
  if (!is.null(rate)) .check_open_unit(rate, "rate")
  # The same ranges as pgbb_fit(), which receives these settings.
  if (!is.null(iterations)) iterations <- .check_count(iterations, "iterations", max = .Machine$integer.max)
  if (!is.null(mc)) mc <- .check_count(mc, "mc", max = 1e4)
  hidden <- .check_hidden(hidden)   # pgbb_fit()'s check: empty is a linear generator
  optimizer <- .match_arg(optimizer)
  if (!is.null(learning_rate)) .check_positive(learning_rate, "learning_rate")
  .check_fraction(lr_floor, "lr_floor")
  schedule <- .match_arg(schedule)
  if (schedule == "harmonic" && lr_floor == 0) .arg_fail("lr_floor", "above 0 for the harmonic schedule")
  .check_positive(bandwidth, "bandwidth")
  .check_positive(huber_c, "huber_c")
  .check_positive(huber_kappa, "huber_kappa")
  .check_count(draws, "draws", max = 1e7)
  .check_count(J, "J", min = 0, max = 1e4)
  .check_count(m, "m", min = 3, max = 1e4)
  .check_nonneg(alpha, "alpha")
  accountant <- .match_arg(accountant)
  conversion <- .match_arg(conversion)
  orders <- .check_orders(orders, "orders")
  if (!is.null(tau_weights) && (!is.numeric(tau_weights) || anyNA(tau_weights) ||
                                any(!is.finite(tau_weights)) || any(tau_weights <= 0)))
    .arg_fail("tau_weights", "a vector of positive finite numbers (a level of weight 0 would never be trained)")
  if (!is.null(box) && (!is.list(box) || is.null(box$lower) || is.null(box$upper) ||
                        length(box$lower) != length(box$upper) ||
                        any(!is.finite(c(box$lower, box$upper))) ||
                        any(box$lower >= box$upper)))
    .arg_fail("box", "a list with finite 'lower' < 'upper' vectors")
  if (!is.null(box) && !setequal(names(box), c("lower", "upper")))
    .arg_fail("box", sprintf("a list with exactly the entries 'lower' and 'upper' (got %s)",
                             paste0("'", names(box), "'", collapse = ", ")))
  if (!is.null(box_scale)) .check_positive(box_scale, "box_scale")
  # box_scale only sizes the default box, which a given box replaces.
  if (!is.null(box) && !is.null(box_scale))
    .arg_fail("box_scale", "left out when 'box' is given (it scales the default box only)")
  coding <- .match_arg(coding)
  .check_count(runs, "runs", max = 1000)
  tau_basis <- .match_arg(tau_basis)
  .check_flag(level_interactions, "level_interactions")
  .check_fraction(average_from, "average_from")
  .check_fraction(warmup, "warmup", below_one = TRUE)
  if (!is.null(clip)) .check_positive(clip, "clip")
  precision <- .match_arg(precision)
  .check_flag(share_partition, "share_partition")
  level_noise <- .match_arg(level_noise)
  if (!is.null(threads)) threads <- .check_threads(threads)   # NULL stays: pgbb_fit() reads the option
  given <- given[!vapply(given, function(nm) is.null(get(nm)), logical(1))]   # NULL: unset
  structure(list(blocks = blocks, gamma = gamma, rate = rate, iterations = iterations,
                 mc = mc, hidden = as.integer(hidden), optimizer = optimizer,
                 learning_rate = learning_rate, lr_floor = lr_floor, schedule = schedule,
                 bandwidth = bandwidth,
                 huber_c = huber_c, huber_kappa = huber_kappa, draws = as.integer(draws),
                 J = as.integer(J), m = as.integer(m), alpha = alpha, accountant = accountant,
                 conversion = conversion, orders = as.integer(orders),
                 tau_weights = tau_weights, box = box, box_scale = box_scale,
                 coding = coding, runs = as.integer(runs), tau_basis = tau_basis,
                 level_interactions = level_interactions, average_from = average_from, warmup = warmup, clip = clip,
                 precision = precision, share_partition = share_partition,
                 threads = threads, level_noise = level_noise, paper = paper),
            class = "pgbb_control", given = given)
}

#' Default training length, subsampling rate and step for n records
#'
#' The total number of iterations `T` over the pooled trainings, the
#' Poisson subsampling rate `q` and the initial Adam step that [pgbb()] uses
#' when [pgbb_control()] leaves them `NULL` (the defaults). `pgbb_iterations(n)` is the paper's
#' 10,000 (SM S3.2-S3.3) up to 500,000 records and one iteration per 50
#' records above, `max(10000, ceiling(n / 50))`. `pgbb_rate(n)` is the 0.1 of
#' SM S3.2 up to 50,000 records and 5,000 expected records per step above,
#' `min(0.1, 5000 / n)`; for a joint fit over several quantile levels
#' (`joint = TRUE`) it is SM S3.3's 0.01 kept between 500 and 5,000 expected
#' records per step (and at most 0.1), `min(0.1, max(0.01, 500 / n), 5000 / n)`:
#' 0.01 from 50,000 to 500,000 records, as on the paper's real data.
#'
#' The error that the optimiser leaves after a fixed number of iterations does
#' not shrink with n, while the statistical error shrinks like n^(-1/2) and the
#' Dirichlet-aware privacy noise like 1/n. Every pooled training stops at about
#' the same distance from the optimum, so that error is shared by the runs and
#' is not in the noise-aware interval (see [pgbb()], 'Noise-aware
#' intervals'): past some n a fixed `T` gives intervals that are narrow around
#' the wrong centre. The tail-averaged iterates' error falls like `T^(-1/2)`
#' or faster, so a `T` proportional to n keeps it below the statistical error
#' at every n above the anchor. A step's batch needs only to be large enough
#' for its sampling noise to be small beside the signal, not to grow with n:
#' the capped rate keeps the work of a step, and so of the fit, linear in n
#' (it would grow like n^2 at a fixed rate), and a smaller rate amplifies
#' privacy.
#'
#' Measured on the natality births (`vignette("birthweight")`: the 50,000 real
#' 2022 births resampled to n records, `epsilon = 1`, the 70 coefficient-levels
#' of the Table S9 model against conquer's non-private fit, one release per
#' seed, listed in the order of the seeds 1940, 1 and 2, at the paper's q =
#' 0.01). With T = 10,000 whatever n, the releases
#' covered 70 and 70 of 70 at n = 200,000, 67 and 70 at 500,000, 67 and 67 at
#' 700,000, 60, 62 and 66 at 1 million and 56 and 59 at 1.94 million
#' (nominal: 66.5). With `pgbb_iterations()` the same seeds covered 68, 69 and
#' 70 at 700,000 (T = 14,000), 68, 69 and 68 at 1 million (T = 20,000) and 69,
#' 67 and 68 at 1.94 million (T = 38,800); at 1.94 million, T = 30,000 covered
#' 67, 65 and 68. The lowest level's NOSMOKE, the slowest coefficient, was 156 g
#' from the reference with T = 10,000 and 46 g with the rule (interval
#' half-widths 33 and 106 g). At 1.94 million the rule's T took 124 s on one
#' core at q = 0.01, against 33 s for T = 10,000; at q = 0.0025 (4,850 records
#' per step, about `pgbb_rate()`'s 5,000) it took 33-39 s and covered 68, 66
#' and 65 of 70 in the same releases.
#'
#' `pgbb_learning_rate(n, epsilon)` is 1e-3 (twice SM S3.2's 5e-4), and for a
#' joint quantile fit 2e-3 (twice SM S3.3's 1e-3) unless `n * epsilon <=
#' 30000`, where it is SM S3.3's 1e-3. The step trades two errors: a larger
#' one brings weakly identified directions (natality's NOSMOKE and CIGAR) to
#' the optimum within `T` iterations, a smaller one leaves less of the privacy
#' noise in the iterates, which is most of the error when the noise is large
#' beside the data (the gradient noise is fixed by `epsilon` while the signal
#' grows with n). Measured with every other setting at its default on random
#' subsamples of the real data (`inst/scripts/schedule-study.R --subsample`;
#' each release on its own subsample against `quantreg::rq` on it; 10 releases
#' per cell; `inst/extdata/schedule-study-*-n*.csv`), 1e-3 against 2e-3:
#' - natality, 10,000 to 30,000 births at `n * epsilon` from 10,000 to 30,000:
#'   intervals of the coefficients other than NOSMOKE and CIGAR 0.56-0.64
#'   times as wide, MAE 0.55-0.56 times; NOSMOKE and CIGAR 0.53-0.56 times as
#'   wide, covered 0.92-0.94 against 0.91-0.93; all coefficient-levels
#'   0.925-0.957 against 0.926-0.957;
#' - Census 1980, 10,000 and 20,000 men at `epsilon = 1`: education 0.73 and
#'   0.82 times as wide (12.4 against 16.8 and 6.9 against 8.5 %/yr), MAE
#'   2.11 against 2.96 and 1.17 against 1.43; all coefficient-levels covered
#'   0.993 and 0.947 against 0.980 and 0.940;
#' - above: from `n * epsilon` = 40,000 to 120,000 (natality) 1e-3 still
#'   narrows the intervals (0.66-0.83 times as wide), but NOSMOKE and CIGAR are
#'   covered 0.90-0.92 against 0.95-0.97, and at 200,000 (50,000 births,
#'   `epsilon = 4`) 0.83 against 0.97; hence 2e-3 there. 1e-3 for twice the
#'   iterations (`pure_lr1_T2`) restored that coverage (0.94-0.98) but not the
#'   width: 0.82-0.95 times 2e-3's on 10,000 and 20,000 births at `epsilon =
#'   4`, 1.11 times on the 50,000, and Census education at `epsilon = 1` 3.08
#'   %/yr against 2.98, at twice the compute (more iterations, more noise per
#'   step).
#' The same subsamples settle the joint rate below 50,000 records: q = 0.1
#' instead of `pgbb_rate()`'s 500 expected records per step gave the same
#' MAE, width and coverage (natality at 10,000 births, `epsilon = 1`: MAE
#' 158 g and width 1,018 g for BLACK, MARRIED and BOY under both) at 1.5-2.7
#' times the run time (5-6.5 times on the full 50,000 births and 65,023 men).
#'
#' `n` is public under the package's replace-one adjacency ([pgbb_privacy]), so
#' rules in n cost no privacy, and `epsilon` is the release's public budget. The accountant composes every iteration at its
#' rate: more iterations mean more noise per step, which at these n is small
#' beside the sampling spread.
#'
#' @param n Number of records (public).
#' @param joint `TRUE` for a joint fit over several quantile levels.
#' @param epsilon The release's privacy budget (public; `Inf` without noise).
#' @return `pgbb_iterations()`: the number of iterations, an integer;
#'   `pgbb_rate()`: the rate, a number in (0, 0.1];
#'   `pgbb_learning_rate()`: the initial step, one per n.
#' @seealso [pgbb_control()], `vignette("birthweight")` (the n-sweep).
#' @examples
#' pgbb_iterations(c(5e4, 1e6, 1.94e6))
#' pgbb_rate(c(5e4, 1e6, 1.94e6))
#' pgbb_rate(c(5e4, 1e6, 1.94e6), joint = TRUE)
#' pgbb_learning_rate(c(1e4, 5e4, 1.94e6), epsilon = 1, joint = TRUE)
#' @export
pgbb_iterations <- function(n) {
  .check_record_counts(n)
  as.integer(pmax(10000, ceiling(n / 50)))
}

#' @rdname pgbb_iterations
#' @export
pgbb_rate <- function(n, joint = FALSE) {
  .check_record_counts(n)
  .check_flag(joint, "joint")
  if (joint) pmin(0.1, pmax(0.01, 500 / n), 5000 / n) else pmin(0.1, 5000 / n)
}

#' @rdname pgbb_iterations
#' @export
pgbb_learning_rate <- function(n, epsilon, joint = FALSE) {
  .check_record_counts(n)
  .check_positive(epsilon, "epsilon", allow_inf = TRUE)
  .check_flag(joint, "joint")
  if (joint) ifelse(n * epsilon <= 3e4, 1e-3, 2e-3) else rep(1e-3, length(n))
}

# pgbb_control()'s NULL sizes resolved for a fit of n records (public) at
# budget epsilon (public): a joint fit over several quantile levels takes SM
# S3.3's blocks and draws per step, every other fit SM S3.2's; T, q and the
# step follow the rules in n (and epsilon). Settings given explicitly are kept.
.resolve_control <- function(control, n, joint, epsilon) {
  control$blocks <- control$blocks %||% if (joint) 5L else 20L
  control$iterations <- control$iterations %||% pgbb_iterations(n)
  control$rate <- control$rate %||% pgbb_rate(n, joint)
  control$mc <- control$mc %||% if (joint) 5L else 1L
  control$learning_rate <- control$learning_rate %||% pgbb_learning_rate(n, epsilon, joint)
  control
}

# `n` of pgbb_iterations() and pgbb_rate(): whole numbers of records. Above 50
# times the integer range the rule's T is no longer an integer.
.check_record_counts <- function(n) {
  if (!is.numeric(n) || !length(n) || anyNA(n) || any(!is.finite(n)) || any(n < 1) || any(n != round(n)) ||
      any(n > 50 * .Machine$integer.max))
    .arg_fail("n", "whole numbers of records, between 1 and 50 times .Machine$integer.max")
  invisible(n)
}

# The PGBB paper's own training (Algorithms 1 and 2 as SM S3.2-S3.3 run them),
# which pgbb_control(paper = TRUE) restores.
.paper_setting <- list(rate = 0.1, iterations = 10000L, mc = 1L, runs = 1L, share_partition = FALSE, coding = "unit", hidden = c(256, 256, 256),
                       learning_rate = 5e-4,
                       lr_floor = 0.01, schedule = "cosine", average_from = 1, level_noise = "uniform",
                       level_interactions = FALSE)

#' @export
print.pgbb_control <- function(x, ...) {
  cat("PGBB control settings\n")
  show <- x
  show$blocks <- if (is.null(x$blocks)) "default (20; 5 for a joint quantile fit)" else x$blocks
  show$gamma <- if (is.null(x$gamma)) "gamma*(n, blocks)" else x$gamma
  show$iterations <- if (is.null(x$iterations)) "pgbb_iterations(n): max(10000, n / 50)" else x$iterations
  show$rate <- if (is.null(x$rate)) "pgbb_rate(n, joint)" else x$rate
  show$mc <- if (is.null(x$mc)) "default (1; 5 for a joint quantile fit)" else x$mc
  show$learning_rate <- if (is.null(x$learning_rate)) "pgbb_learning_rate(n, epsilon, joint)" else
    x$learning_rate
  show$orders <- sprintf("%d..%d (%d orders)", min(x$orders), max(x$orders), length(x$orders))
  show$hidden <- if (length(x$hidden)) paste(x$hidden, collapse = " x ") else "none (affine generator)"
  show$tau_weights <- if (is.null(x$tau_weights)) "1 / (tau (1 - tau))" else
    paste(format(x$tau_weights, digits = 3), collapse = ", ")
  show$box <- if (is.null(x$box)) "derived from the public bounds" else "user-supplied"
  show$box_scale <- if (is.null(x$box_scale)) "2 (0.1 for loss = \"mean\")" else x$box_scale
  show$clip <- if (is.null(x$clip)) "the loss's bound over the declared box" else x$clip
  show$threads <- if (is.null(x$threads)) "getOption(\"pgbb.threads\", 1)" else x$threads
  vals <- vapply(show, function(v) paste(format(v), collapse = " "), "")
  print(noquote(cbind(value = vals)))
  invisible(x)
}
