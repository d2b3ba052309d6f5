// Noisy training of the PGBB generator: eq. (4) and Algorithm 1 (SM S1.2), and
// for a grid of levels Section 2.5 and Algorithm 2.
#ifndef PGBB_CORE_TRAINER_H
#define PGBB_CORE_TRAINER_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "blocking.h"
#include "design.h"
#include "exact_sum.h"
#include "generator.h"
#include "losses.h"
#include "normal.h"
#include "optimizer.h"
#include "parallel.h"
#include "range_subsets.h"
#include "rng.h"
#include "stationarity.h"
#include "stop.h"

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define PGBB_HAVE_MXCSR 1
#endif

namespace pgbb {

/// @brief Sets the SSE flush-to-zero and denormals-are-zero flags for its
/// lifetime (restored on exit, exceptions included). Adam's second moments of
/// tiny single-precision gradients fall into the denormal range, where x86
/// arithmetic is up to a hundred times slower; flushing them to zero changes
/// nothing of substance and is deterministic.
class DenormalGuard {
 public:
#ifdef PGBB_HAVE_MXCSR
  DenormalGuard() : old_(_mm_getcsr()) { _mm_setcsr(old_ | 0x8040u); }
  ~DenormalGuard() { _mm_setcsr(old_); }
  /// Restores the caller's flags while user code (the R callback) runs.
  template <class F>
  auto outside(F&& f) {
    _mm_setcsr(old_);
    struct Back { unsigned v; ~Back() { _mm_setcsr(v | 0x8040u); } } back{old_};
    return f();
  }
 private:
  unsigned old_;
#else
  template <class F>
  auto outside(F&& f) { return f(); }
#endif
};

/// @brief Settings of one noisy training run. Every entry is public: none is
/// computed from the data.
struct TrainConfig {
  int iterations = 10000;  ///< T
  int mc = 1;              ///< K, Monte Carlo draws of u per iteration
  double rate = 0.1;       ///< q, Poisson subsampling rate
  double sigma = 0.0;      ///< noise standard deviation (from the accountant); 0: non-private
  double clip = 0.0;       ///< C, the per-record gradient bound the accountant was given
  double gamma = 1.0;      ///< Dirichlet concentration of the block weights
  /// Levels of the loss: one level for an ordinary fit (generator input u);
  /// several for joint training (generator input (u, tau), Algorithm 2).
  std::vector<double> tau_grid{0.5};
  std::vector<double> tau_prob{1.0};  ///< P_tau on tau_grid (joint training)
  /// Per-level release scale r_l in (0, 1] (joint training; empty: all 1, the
  /// level-uniform clip C_* of Algorithm 2). A draw at level tau_l is clipped
  /// at r_l C and perturbed by N(0, (r_l sigma)^2 I): its per-record bound is
  /// r_l C (for the quantile loss max(tau_l, 1 - tau_l) B, SM S3.3), so its
  /// ratio of bound to noise is C / sigma, the only way the clip and the noise
  /// enter the accountant (Proposition 2.2's M_{J,lambda} and R_{J,lambda}
  /// depend on C / sigma alone). The level is drawn independently of the data
  /// (tau ~ P_tau), so each release is, given its level, the mechanism the
  /// accountant composes T K times: the guarantee is the same as with the
  /// uniform clip, and levels whose score is smaller get less noise. Public
  /// constants, computed from the declared bounds only (R: .level_release_scale()).
  std::vector<double> level_scale;
  /// Knots of the level basis (sorted, public): empty for the two smooth level
  /// features only; the tau grid itself for the hat basis (see tau_features()).
  std::vector<double> tau_knots;
  /// Joint fits: products of the block weights with the hats as generator
  /// inputs (complete_generator_input()); the generator must have been built
  /// with that input width.
  bool level_products = false;
  OptimizerConfig optimizer;
  int callback_every = 250;  ///< iterations between progress/interrupt callbacks
  /// Fraction of the iterations during which only the output bias (and, in a
  /// joint fit, the direct path from the level features to the output) is
  /// updated; the rest of phi stays at its initial value. The generator starts
  /// as the constant map to the box centre; the warm-up carries it to the bulk
  /// of the posterior (at every level) before the weights that shape G's
  /// dependence on u move. Without it the whole network shares that early,
  /// large move, and its u-dependence picks up spread that later training
  /// removes only slowly (at the paper's settings, non-private, the trained
  /// generator's SDs were 20-60% too large; with a 5% warm-up, 5-15%).
  /// Post-processing of the noised statistics like any optimiser choice: no
  /// effect on the privacy guarantee.
  double warmup = 0.05;
  /// Tail (Polyak-Ruppert) averaging of the generator's weights: from
  /// iteration floor(average_from * T) on, a running mean of phi after every
  /// kAverageEvery-th step is kept, and the trained generator is that mean
  /// instead of the last iterate. 1 (the default) keeps no mean: the last
  /// iterate, as before.
  /// A function of the iterates only, all of which the accountant already
  /// treats as released (the DP-SGD composition over the T steps of
  /// Algorithm 1 of the PGBB paper, SM S1.2, covers every phi_t), so it is
  /// post-processing: no effect on the privacy guarantee.
  double average_from = 1.0;
  /// Threads for steps 1 and 4 (subsets and clipped gradient sums). The work is cut
  /// into the same units whatever this is (kSubsetRange records per unit, for
  /// each draw k), every unit draws its subset from its own stream and sums
  /// exactly (exact_sum.h), and the units are merged in a fixed order, so the
  /// fit is bit-identical for any number of threads.
  int threads = 1;

  bool joint() const { return tau_grid.size() > 1; }
  /// r_l of level index l (1 without per-level scales).
  double release_scale(size_t l) const { return level_scale.empty() ? 1.0 : level_scale[l]; }
};

/// @brief Progress and interrupt hook: called with (iterations done, T) every
/// callback_every iterations; returning true stops training
/// (Interrupted, stop.h). The R glue polls for user interrupts in it.
using TrainCallback = std::function<bool(int, int)>;

/// @brief Number of smooth level features of a joint fit (tau, Phi^{-1}(tau));
/// a hat basis on the knots adds one feature per knot.
constexpr int kTauFeatures = 2;

/// @brief Number of generator inputs that encode the level, with `n_knots` hats.
inline int tau_feature_count(size_t n_knots) { return kTauFeatures + static_cast<int>(n_knots); }

/// @brief The level features fed to a joint generator G(u, tau): tau itself
/// and Phi^{-1}(tau). Both are fixed public functions of tau. The second makes
/// the dominant effect of the level in a location-scale model, the shift
/// Q_eps(tau) of the intercept, close to linear in the inputs (for Gaussian
/// errors exactly so), so the direct input-to-output path (Generator's
/// n_direct) carries it from the warm-up on; any tau in (0, 1) can be
/// evaluated after training.
///
/// With knots t_1 < ... < t_L (the fit's tau grid), L hat functions follow:
/// h_l is 1 at t_l, 0 at the other knots, linear in between, and the end hats
/// are constant beyond the ends. Through the direct path each level then has a
/// free offset of every coefficient, so the level profile of a coefficient is
/// not tied to the two smooth features while the network learns the rest; a
/// joint fit otherwise learns sharp profiles slowly (on the natality data a
/// near-non-private joint fit left NOSMOKE's profile flat at T = 10,000, where
/// separate single-level fits reached the check-loss fit). A tau between knots
/// interpolates linearly. The knots are the public grid, so this is a choice of
/// architecture, post-processing for the guarantee.
inline void tau_features(double tau, double* out, const std::vector<double>& knots = {}) {
  out[0] = tau;
  out[1] = norm_quantile(tau);
  const size_t L = knots.size();
  double* hat = out + kTauFeatures;
  for (size_t l = 0; l < L; ++l) hat[l] = 0.0;
  if (L == 0) return;
  if (tau <= knots[0]) { hat[0] = 1.0; return; }
  if (tau >= knots[L - 1]) { hat[L - 1] = 1.0; return; }
  size_t l = 0;
  while (tau > knots[l + 1]) ++l;
  const double w = (tau - knots[l]) / (knots[l + 1] - knots[l]);
  hat[l] = 1.0 - w;
  hat[l + 1] = w;
}

/// @brief Width of the generator's input: the S block weights and, for a
/// joint fit, the level features (tau_features(), the direct inputs), preceded
/// with `products` by the S x L products u_s h_l(tau) of the block weights
/// with the L hats (complete_generator_input()).
inline int generator_input_width(int S, bool joint, size_t n_knots, bool products) {
  if (!joint) return S;
  return S + (products ? S * static_cast<int>(n_knots) : 0) + tau_feature_count(n_knots);
}

/// @brief Completes a generator input whose first S entries hold u (layout of
/// generator_input_width()): for a joint fit with `products`, in[S + l S + s]
/// = u_s h_l(tau); then the level features.
///
/// Why the products: the map the generator learns is, to first order,
/// theta(u, tau) = theta(tau) + J(tau) (u - u-bar), and the blocked
/// bootstrap's spread J(tau) differs across levels (for a quantile regression
/// it grows towards the tails). The skip path from the inputs to the output
/// (Generator) is linear, so with u alone it gives every level the same J,
/// and in our fits the last hidden layer's ReLUs all end up inactive, which
/// leaves exactly that: on the 1980 Census, non-private, the education
/// coefficient's draws had the same spread at tau = 0.1 and at 0.5, where the
/// rq standard errors differ 2.4-fold. With the products the skip path holds
/// one linear map of u per knot (J piecewise linear in tau between knots).
/// Fixed public functions of (u, tau): no effect on the privacy guarantee.
inline void complete_generator_input(double* in, int S, bool joint, double tau, const std::vector<double>& knots,
                                     bool products) {
  if (!joint) return;
  const int L = static_cast<int>(knots.size());
  double* feat = in + S + (products ? S * L : 0);
  tau_features(tau, feat, knots);
  if (!products) return;
  const double* hat = feat + kTauFeatures;
  for (int l = 0; l < L; ++l)
    for (int s = 0; s < S; ++s) in[S + l * S + s] = in[s] * hat[l];
}

/// @brief The generator's fixed input map v = (input - shift) * scale (see
/// Generator): S u_s for the block weights and, for joint training,
/// 2 (tau - 1/2) and Phi^{-1}(tau) as is. Public constants only.
inline void input_standardisation(int S, bool joint, std::vector<double>& shift,
                                  std::vector<double>& scale, int n_knots = 0, bool products = false) {
  shift.assign(S, 0.0);
  scale.assign(S, static_cast<double>(S));
  if (joint) {
    if (products) {  // u_s h_l, scaled like u_s
      shift.insert(shift.end(), static_cast<size_t>(S) * n_knots, 0.0);
      scale.insert(scale.end(), static_cast<size_t>(S) * n_knots, static_cast<double>(S));
    }
    shift.push_back(0.5);
    scale.push_back(2.0);
    shift.push_back(0.0);
    scale.push_back(1.0);
    for (int l = 0; l < n_knots; ++l) {  // hats in [0, 1], as they are
      shift.push_back(0.0);
      scale.push_back(1.0);
    }
  }
}

namespace detail {

/// e = x'beta and ||x||^2 of one record (x in float or double, arithmetic in
/// double), with independent partial sums; on x86-64 two lanes at a time.
inline void dot_and_norm(const double* th, const double* x, int p, double* e, double* xx) {
  double b0 = 0.0, b1 = 0.0, n0 = 0.0, n1 = 0.0;
  int j = 0;
  for (; j + 1 < p; j += 2) {
    b0 += th[j] * x[j];
    b1 += th[j + 1] * x[j + 1];
    n0 += x[j] * x[j];
    n1 += x[j + 1] * x[j + 1];
  }
  if (j < p) {
    b0 += th[j] * x[j];
    n0 += x[j] * x[j];
  }
  *e = b0 + b1;
  *xx = n0 + n1;
}

inline void dot_and_norm(const double* th, const float* x, int p, double* e, double* xx) {
#ifdef PGBB_HAVE_MXCSR
  __m128d b = _mm_setzero_pd(), n = _mm_setzero_pd();
  int j = 0;
  for (; j + 1 < p; j += 2) {
    const __m128d v = _mm_cvtps_pd(_mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(x + j))));
    b = _mm_add_pd(b, _mm_mul_pd(_mm_loadu_pd(th + j), v));
    n = _mm_add_pd(n, _mm_mul_pd(v, v));
  }
  double bb[2], nn[2];
  _mm_storeu_pd(bb, b);
  _mm_storeu_pd(nn, n);
  if (j < p) {
    const double v = static_cast<double>(x[j]);
    bb[0] += th[j] * v;
    nn[0] += v * v;
  }
  *e = bb[0] + bb[1];
  *xx = nn[0] + nn[1];
#else
  double b0 = 0.0, b1 = 0.0, n0 = 0.0, n1 = 0.0;
  int j = 0;
  for (; j + 1 < p; j += 2) {
    const double v0 = x[j], v1 = x[j + 1];
    b0 += th[j] * v0;
    b1 += th[j + 1] * v1;
    n0 += v0 * v0;
    n1 += v1 * v1;
  }
  if (j < p) {
    const double v0 = x[j];
    b0 += th[j] * v0;
    n0 += v0 * v0;
  }
  *e = b0 + b1;
  *xx = n0 + n1;
#endif
}

/// Most columns the columnar record pass handles (its buffers live on the stack).
constexpr int kColumnsMax = 32;

#if defined(__GNUC__) && defined(__x86_64__)

/// The first pass of the record loop for float rows, four records at a time:
/// each block of four values of four rows is transposed (one column of four
/// records per vector), widened to double and kept in cols[j * ld + i] for the
/// sum; e = x'beta and ||x||^2 are formed exactly as dot_and_norm() forms them
/// (even and odd columns in two partial sums, added last), one record per
/// lane, so with the same bits. A last group of fewer than four repeats the
/// chunk's last row (its lanes are not used). next: the rows to prefetch, two
/// per group of four (the first half of the next chunk; the caller's clip
/// pass prefetches the second half, see accumulate_subset_body()).
__attribute__((target("avx"))) inline void columns4_dot_and_norm(const float* const* rows, int nc, int p,
                                                                 const double* th, double* cols, int ld,
                                                                 double* xb, double* xx,
                                                                 const float* const* next, int n_next) {
  for (int g = 0; g < nc; g += 4) {
    const float* r[4];
    for (int k = 0; k < 4; ++k) r[k] = rows[std::min(g + k, nc - 1)];
    for (int k = g / 2; k < g / 2 + 2 && k < n_next; ++k) __builtin_prefetch(next[k]);
    __m256d b0 = _mm256_setzero_pd(), b1 = b0, n0 = b0, n1 = b0;
    // A row holds p values, the response and the block (RowStore), padded to a
    // multiple of four: the last block of four stays inside the row.
    for (int j0 = 0; j0 < p; j0 += 4) {
      __m128 a0 = _mm_loadu_ps(r[0] + j0), a1 = _mm_loadu_ps(r[1] + j0);
      __m128 a2 = _mm_loadu_ps(r[2] + j0), a3 = _mm_loadu_ps(r[3] + j0);
      _MM_TRANSPOSE4_PS(a0, a1, a2, a3);
      const __m128 col[4] = {a0, a1, a2, a3};
      const int tmax = std::min(4, p - j0);
      for (int t = 0; t < tmax; ++t) {
        const int j = j0 + t;
        const __m256d v = _mm256_cvtps_pd(col[t]);
        _mm256_store_pd(cols + static_cast<size_t>(j) * ld + g, v);
        const __m256d bv = _mm256_mul_pd(_mm256_set1_pd(th[j]), v), nv = _mm256_mul_pd(v, v);
        if (j & 1) {
          b1 = _mm256_add_pd(b1, bv);
          n1 = _mm256_add_pd(n1, nv);
        } else {
          b0 = _mm256_add_pd(b0, bv);
          n0 = _mm256_add_pd(n0, nv);
        }
      }
    }
    // g + 4 <= kChunk: the unused lanes of a last group land in the buffers' tail.
    _mm256_storeu_pd(xb + g, _mm256_add_pd(b0, b1));
    _mm256_storeu_pd(xx + g, _mm256_add_pd(n0, n1));
  }
}

/// The last pass for the columns of columns4_dot_and_norm(): lanes[4 j + k] +=
/// trunc(coef_i 2^e x_ij) for the records i of lane k, the same terms with the
/// same mask (truncate_on_grid4()) as ExactSum::add_scaled(). Every one is an
/// integer on the grid, so the lane partials and their total are exact: the
/// caller adds them with ExactSum::add_grid(). coef must hold zeros from nc to
/// the next multiple of four. A group with a scaled factor not below
/// ExactSum::kMaxScaledFactor goes through add_scaled() record by record, as
/// add_scaled() itself would.
__attribute__((target("avx"))) inline void columns4_add_truncated(const double* cols, int ld, const double* coef,
                                                                  int nc, int p, const float* const* rows,
                                                                  double* lanes, ExactSum& sum) {
  const __m256d scale = _mm256_set1_pd(sum.grid_scale()), big = _mm256_set1_pd(ExactSum::kMaxScaledFactor),
                sign = _mm256_set1_pd(-0.0);
  for (int g = 0; g < nc; g += 4) {
    // coef holds zeros past nc up to the group's end (the caller's padding).
    const __m256d cs = _mm256_mul_pd(_mm256_loadu_pd(coef + g), scale);
    if (_mm256_movemask_pd(_mm256_cmp_pd(_mm256_andnot_pd(sign, cs), big, _CMP_LT_OQ)) != 0xF) {
      for (int k = 0; k < 4 && g + k < nc; ++k) sum.add_scaled(coef[g + k], rows[g + k], p);
      continue;
    }
    for (int j = 0; j < p; ++j) {
      const __m256d t = truncate_on_grid4(_mm256_mul_pd(cs, _mm256_load_pd(cols + static_cast<size_t>(j) * ld + g)));
      _mm256_store_pd(lanes + 4 * j, _mm256_add_pd(_mm256_load_pd(lanes + 4 * j), t));
    }
  }
}
#endif

}  // namespace detail

/// @brief Step 4 of train(): sum += sum_{j in B} w-bar_j clip_C(grad l(theta; x_j)).
///
/// The clip aims at C (1 - 1e-12), so that rounding in the rescaling and in
/// forming w-bar_j f a x_j (a few ulps) can never leave a norm above C, the
/// sensitivity given to the accountant. The terms are added exactly
/// (exact_sum.h), so the sum carries no rounding error that depends on other
/// records. A NaN or infinite gradient (or one whose squared norm overflows)
/// contributes nothing, which is within the sensitivity bound too.
///
/// Losses with the linear-score form (losses.h) go through the records in
/// chunks of kChunk: first e = x'beta and ||x||^2 of every record of the chunk
/// (independent chains, so the CPU overlaps them instead of waiting on one
/// record's additions), then the scores a and the factors f = min(1, cap /
/// ||(a x, extra)||), then s += w f (a x, extra) from rows still in L1. With
/// AVX and float rows of at most kColumnsMax values the first and last steps
/// take four records at a time, as columns, with the same bits; the x part of
/// the sum is then kept in four exact lane partials per coordinate and added
/// to `sum` at the end (ExactSum::add_grid()). Other losses form each gradient
/// and clip it with clip_to_norm().
template <class Loss, class Scalar, bool kAvx = false>
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline void accumulate_subset_body(const Loss& loss, const RowStore<Scalar>& data,
                                   const std::vector<int64_t>& B, const double* wblock, const double* th,
                                   double tau, double C, double* g, ExactSum& sum) {
  constexpr int kChunk = 32;
  const int p = data.p(), d = loss.dim();
  const size_t nb = B.size();
  const double cap = C * (1.0 - 1e-12);
  // The fused path clips the plain gradient; a log-scale score goes through private_score().
  static_assert(!(log_score<Loss>::value && Loss::kExtra >= 0),
                "a loss with kLogScore must use the generic path (kExtra = -1)");
  if constexpr (Loss::kExtra >= 0) {
    constexpr int m = Loss::kExtra;
#if defined(__GNUC__) && defined(__x86_64__)
    // Float rows four records at a time, as columns
    // (detail::columns4_dot_and_norm(), detail::columns4_add_truncated()):
    // the same operations on every value as the row-wise path, so the same
    // bits, in fewer instructions (no scalar tail of a row's p values).
    constexpr bool kColumnar = kAvx && std::is_same_v<Scalar, float>;
#else
    constexpr bool kColumnar = false;
#endif
    [[maybe_unused]] const bool columnar = kColumnar && p <= detail::kColumnsMax && !sum.plain();
    const Scalar* rows[kChunk];
    double coef[kChunk], xb[kChunk], xx[kChunk], yv[kChunk], extra[kChunk][m > 0 ? m : 1];
#if defined(__GNUC__) && defined(__x86_64__)
    alignas(32) double cols[kColumnar ? detail::kColumnsMax : 1][kColumnar ? kChunk : 1];
    alignas(32) double lanes[kColumnar ? detail::kColumnsMax : 1][4];
    if constexpr (kColumnar)
      if (columnar) std::fill(&lanes[0][0], &lanes[0][0] + 4 * p, 0.0);
#endif
#if defined(__GNUC__)
    for (size_t i = 0; i < std::min<size_t>(kChunk, nb); ++i) __builtin_prefetch(data.row(B[i]));
#endif
    for (size_t c0 = 0; c0 < nb; c0 += kChunk) {
      const int nc = static_cast<int>(std::min<size_t>(kChunk, nb - c0));
      for (int i = 0; i < nc; ++i) rows[i] = data.row(B[c0 + i]);
      // Rows of a subset are scattered over the design, so the rows of the
      // next chunk are prefetched: the first half during the first pass, the
      // second half during the clip pass, one request for every second
      // record. Issued in one burst (one per record of the first pass), the
      // requests outnumber the CPU's outstanding misses and the prefetches
      // themselves stall (about 1.1x slower at the natality scale,
      // bench/README.md).
      const Scalar* next[kChunk];
      int n_next = 0;
      for (; n_next < kChunk && c0 + kChunk + n_next < nb; ++n_next) next[n_next] = data.row(B[c0 + kChunk + n_next]);
      // Three passes over the chunk, each a loop of independent records, so
      // the CPU overlaps the records' latency chains (dot product, division,
      // score, clip) instead of waiting on one record at a time.
      bool done = false;
#if defined(__GNUC__) && defined(__x86_64__)
      if constexpr (kColumnar) {
        if (columnar) {
          detail::columns4_dot_and_norm(rows, nc, p, th, &cols[0][0], kChunk, xb, xx, next, n_next);
          done = true;
        }
      }
#endif
      if (!done)
        for (int i = 0; i < nc; ++i) {
#if defined(__GNUC__)
          if ((i & 1) == 0 && i / 2 < n_next) __builtin_prefetch(next[i / 2]);
#endif
          detail::dot_and_norm(th, rows[i], p, &xb[i], &xx[i]);
        }
      for (int i = 0; i < nc; ++i) yv[i] = static_cast<double>(rows[i][p]);
      if constexpr (kAvx && has_score_avx<Loss>::value) {
        loss.score_avx(xb, yv, tau, coef, nc);  // the same bits as score(), four records at a time
      } else {
        for (int i = 0; i < nc; ++i) coef[i] = loss.score(th, xb[i], yv[i], tau, extra[i]);
      }
      for (int i = 0; i < nc; ++i) {
#if defined(__GNUC__)
        if ((i & 1) == 0 && kChunk / 2 + i / 2 < n_next) __builtin_prefetch(next[kChunk / 2 + i / 2]);
#endif
        const double a = coef[i];
        double norm2 = a * a * xx[i];
        for (int e = 0; e < m; ++e) norm2 += extra[i][e] * extra[i][e];
        const double w = wblock[RowStore<Scalar>::block(rows[i], p)];
        double f = norm2 > cap * cap ? cap / std::sqrt(norm2) : 1.0;  // clip_C
        if (!std::isfinite(norm2)) f = 0.0;
        coef[i] = w * f * a;
        if (!std::isfinite(coef[i])) coef[i] = 0.0, f = 0.0;
        for (int e = 0; e < m; ++e) extra[i][e] *= w * f;
      }
      done = false;
#if defined(__GNUC__) && defined(__x86_64__)
      if constexpr (kColumnar) {
        if (columnar) {
          for (int i = nc; i < kChunk && (i & 3); ++i) coef[i] = 0.0;
          detail::columns4_add_truncated(&cols[0][0], kChunk, coef, nc, p, rows, &lanes[0][0], sum);
          for (int i = 0; i < nc; ++i)
            for (int e = 0; e < m; ++e) sum.add(p + e, extra[i][e]);
          done = true;
        }
      }
#endif
      if (!done)
        for (int i = 0; i < nc; ++i) {
#if defined(__GNUC__) && defined(__x86_64__)
          if constexpr (kAvx) sum.add_scaled_avx(coef[i], rows[i], p); else
#endif
          sum.add_scaled(coef[i], rows[i], p);
          for (int e = 0; e < m; ++e) sum.add(p + e, extra[i][e]);
        }
    }
#if defined(__GNUC__) && defined(__x86_64__)
    if constexpr (kColumnar)
      if (columnar)
        for (int j = 0; j < p; ++j) sum.add_grid(j, (lanes[j][0] + lanes[j][1]) + (lanes[j][2] + lanes[j][3]));
#endif
  } else {
    for (size_t i = 0; i < nb; ++i) {
#if defined(__GNUC__)
      if (i + kChunk < nb) __builtin_prefetch(data.row(B[i + kChunk]));
#endif
      const Scalar* r = data.row(B[i]);
      private_score(loss, th, r, static_cast<double>(r[p]), tau, g);  // losses.h
      clip_to_norm(g, d, C);
      const double w = wblock[RowStore<Scalar>::block(r, p)];
      for (int j = 0; j < d; ++j) sum.add(j, w * g[j]);
    }
  }
}

#if defined(__GNUC__) && defined(__x86_64__)
/// The same body compiled for AVX (chosen at run time): the exact sum's
/// vector kernel then inlines into the record loop. Every operation is the
/// same (the dot products keep their two SSE2 lanes, in VEX form), so both
/// give the same bits.
template <class Loss, class Scalar>
__attribute__((target("avx"))) void accumulate_subset_avx(const Loss& loss, const RowStore<Scalar>& data,
                                                          const std::vector<int64_t>& B, const double* wblock,
                                                          const double* th, double tau, double C, double* g,
                                                          ExactSum& sum) {
  accumulate_subset_body<Loss, Scalar, true>(loss, data, B, wblock, th, tau, C, g, sum);
}
#endif

template <class Loss, class Scalar>
inline void accumulate_subset(const Loss& loss, const RowStore<Scalar>& data,
                              const std::vector<int64_t>& B, const double* wblock, const double* th,
                              double tau, double C, double* g, ExactSum& sum) {
#if defined(__GNUC__) && defined(__x86_64__)
  if (detail::exact_sum_has_avx()) return accumulate_subset_avx(loss, data, B, wblock, th, tau, C, g, sum);
#endif
  accumulate_subset_body(loss, data, B, wblock, th, tau, C, g, sum);
}

/// @brief Stride of the iterates averaged (TrainConfig::average_from). Adam's
/// iterates at the package's learning rates change over hundreds of steps, so
/// averaging every 10th loses next to nothing and costs a tenth: a pass over
/// phi at every step added about half to the training time (3 x 256 network).
constexpr int kAverageEvery = 10;

/// @brief Running mean of the generator's weights over the iterates it is
/// given (TrainConfig::average_from), kept in double precision whatever
/// Scalar is. With n = 0 it keeps nothing and write() leaves phi alone.
template <class Scalar>
class TailAverage {
 public:
  explicit TailAverage(int64_t n) : mean_(static_cast<size_t>(n), 0.0) {}
  /// mean += (phi - mean) / k for the k-th iterate phi.
  void add(const Scalar* phi) {
    if (mean_.empty()) return;
    const double w = 1.0 / static_cast<double>(++count_);
    for (size_t i = 0; i < mean_.size(); ++i) mean_[i] += (static_cast<double>(phi[i]) - mean_[i]) * w;
  }
  /// phi = the mean (if any iterate was added).
  void write(Scalar* phi) const {
    if (count_ == 0) return;
    for (size_t i = 0; i < mean_.size(); ++i) phi[i] = static_cast<Scalar>(mean_[i]);
  }

 private:
  std::vector<double> mean_;
  int64_t count_ = 0;
};

/// @brief Records per unit of work of step 4: the subset of each range of
/// kSubsetRange records is drawn from its own stream, so ranges can be
/// processed in any order and on any thread. A fixed constant: the units, and
/// so the fit, do not depend on the number of threads. A full range at a rate
/// up to RangeSubsets::max_rate() is drawn by count and positions
/// (range_subsets.h), any other (the last, shorter range; larger rates) by
/// geometric skipping (Rng::poisson_range); both are Poisson subsets at rate q.
constexpr int kSubsetBits = 18;
constexpr int64_t kSubsetRange = int64_t(1) << kSubsetBits;

/// @brief Runs T iterations of eq. (4) on gen (Algorithm 1; Algorithm 2 when
/// cfg.joint()). Per iteration t and draw k = 1..K:
///  1. B_t^(k): Poisson subset of the records, rate q, drawn range by range
///     (kSubsetRange) from streams keyed by a fresh key from rng;
///  2. u_t^(k) ~ Dirichlet(gamma 1_S), and tau_t^(k) ~ P_tau when joint;
///  3. theta_k = G(u_k [, tau_k]);
///  4. s_k = sum_{j in B} w-bar_j clip_{rC}(grad l(theta_k; x_j)) + N(0, (r sigma)^2 I_d),
///     w-bar_j = u_{pi(j)} / n_{pi(j)} (Section 2.2.2), r = r_l the release
///     scale of tau_k's level (TrainConfig::level_scale; 1 by default);
///  5. back-propagate s_k / K through G (the noise enters before the generator's
///     Jacobian, eq. (4)) and sum over k;
/// then one optimiser step on the summed gradient. Subset keys, block weights,
/// levels and noise are drawn from rng in a fixed order and none depends on the
/// data, so the same seed gives the same fit bit for bit, for any
/// cfg.threads (steps 1 and 4 run on cfg.threads threads, parallel.h). The
/// partition is fixed for the whole fit (drawn once, independently of the
/// data). With
/// cfg.average_from < 1 the generator returned holds the mean of every
/// kAverageEvery-th iterate phi_t from iteration floor(average_from T) on
/// (TailAverage), not the last one. After setup the loop allocates no memory.
template <class Scalar, class Loss>
void train(const Loss& loss, const RowStore<Scalar>& data, const BlockPartition& part,
           Generator<Scalar>& gen, const TrainConfig& cfg, Rng& rng,
           const TrainCallback& callback = TrainCallback(), TailScores* tail_scores = nullptr) {
  const int S = static_cast<int>(part.size.size());
  const int d = loss.dim();
  const int K = cfg.mc;
  const int64_t n = data.n();
  const bool joint = cfg.joint();
  const int n_level = joint ? tau_feature_count(cfg.tau_knots.size()) : 0;
  const int n_in = generator_input_width(S, joint, cfg.tau_knots.size(), cfg.level_products);
  if (S < 2) throw std::invalid_argument("train: need at least two blocks");
  if (gen.n_out() != d) throw std::invalid_argument("train: generator output does not match the loss");
  if (data.p() != loss.p) throw std::invalid_argument("train: the design does not match the loss");
  if (static_cast<int64_t>(part.block.size()) != n)
    throw std::invalid_argument("train: the partition does not match the design");
  for (size_t l = 0; l + 1 < cfg.tau_knots.size(); ++l)
    if (!(cfg.tau_knots[l] < cfg.tau_knots[l + 1])) throw std::invalid_argument("train: tau knots must increase");
  if (!joint && !cfg.tau_knots.empty()) throw std::invalid_argument("train: tau knots need a joint fit");
  if (gen.n_in() != n_in || gen.n_direct() != n_level)
    throw std::invalid_argument("train: generator input does not match S (and tau)");
  if (cfg.iterations < 1 || K < 1) throw std::invalid_argument("train: 'iterations' and 'mc' must be positive");
  if (!(cfg.rate > 0 && cfg.rate <= 1)) throw std::invalid_argument("train: 'rate' must be in (0, 1]");
  if (!(cfg.sigma >= 0) || !std::isfinite(cfg.sigma)) throw std::invalid_argument("train: 'sigma' must be >= 0");
  if (!(cfg.clip > 0) || !std::isfinite(cfg.clip))
    throw std::invalid_argument("train: the gradient bound C must be positive and finite");
  if (!(cfg.gamma > 0)) throw std::invalid_argument("train: 'gamma' must be positive");
  if (cfg.tau_grid.empty() || cfg.tau_prob.size() != cfg.tau_grid.size())
    throw std::invalid_argument("train: 'tau' grid and its probabilities differ in length");
  for (int s = 0; s < S; ++s)
    if (part.size[s] < 1) throw std::invalid_argument("train: every block must be non-empty");

  // Cumulative P_tau for inverse-cdf sampling of the level.
  std::vector<double> tau_cdf(cfg.tau_prob.size());
  double acc = 0.0;
  for (size_t i = 0; i < cfg.tau_prob.size(); ++i) {
    if (!(cfg.tau_prob[i] >= 0)) throw std::invalid_argument("train: tau probabilities must be >= 0");
    acc += cfg.tau_prob[i];
    tau_cdf[i] = acc;
  }
  if (!(acc > 0)) throw std::invalid_argument("train: tau probabilities must not all be zero");
  for (double& c : tau_cdf) c /= acc;
  if (!cfg.level_scale.empty() && cfg.level_scale.size() != cfg.tau_grid.size())
    throw std::invalid_argument("train: one release scale per level");
  for (double r : cfg.level_scale)
    if (!(r > 0.0 && r <= 1.0)) throw std::invalid_argument("train: release scales must be in (0, 1]");

  // Workspace, allocated once. Step 4's units are (draw k, range r), unit
  // k * n_range + r; each thread has its own index buffer and gradient.
  if (cfg.threads < 1) throw std::invalid_argument("train: 'threads' must be at least 1");
  const int threads = cfg.threads;
  const int64_t n_range = (n + kSubsetRange - 1) / kSubsetRange;
  const int64_t units = static_cast<int64_t>(K) * n_range;
  const double expect = static_cast<double>(std::min(n, kSubsetRange)) * cfg.rate;
  const size_t room = static_cast<size_t>(
      std::fmin(static_cast<double>(std::min(n, kSubsetRange)), expect + 10.0 * std::sqrt(expect) + 64.0));
  // Full ranges are drawn by count only when there is one and q allows it; the
  // count's table then also bounds a subset's size.
  std::optional<RangeSubsets> counted;
  if (n >= kSubsetRange && cfg.rate <= RangeSubsets::max_rate()) counted.emplace(kSubsetBits, cfg.rate);
  const size_t most = counted ? std::max<size_t>(room, static_cast<size_t>(counted->table_high())) : room;
  std::vector<std::vector<int64_t>> subset(threads);
  for (auto& v : subset) v.reserve(most);
  std::vector<std::vector<uint64_t>> bitmap(counted ? threads : 0, std::vector<uint64_t>(kSubsetRange / 64));
  std::vector<std::vector<double>> g(threads, std::vector<double>(d));
  std::vector<Key> subset_key(K);
  const GeometricGaps gaps(cfg.rate);
  std::vector<double> input(static_cast<size_t>(n_in) * K), theta(static_cast<size_t>(d) * K),
      stat(static_cast<size_t>(d) * K), tau(K), scale(K, 1.0), wblock(static_cast<size_t>(S) * K);
  std::vector<double> inv_size(S);
  for (int s = 0; s < S; ++s) inv_size[s] = 1.0 / part.size[s];
  gen.reserve(K);
  Optimizer<Scalar> opt(cfg.optimizer, gen.n_params(), gen.tail_offset());
  const double C = cfg.clip;
  // sum_j w-bar_j <= sum_s u_s = 1 over any subset, so every coordinate of the
  // sum is at most C in magnitude; 2 C leaves room for the rounding of u.
  ExactSum exact(d, 2.0 * C);
  std::vector<ExactSum> partial(static_cast<size_t>(units), exact);
  if (!(cfg.warmup >= 0 && cfg.warmup < 1)) throw std::invalid_argument("train: 'warmup' must be in [0, 1)");
  const int warmup = static_cast<int>(std::floor(cfg.warmup * cfg.iterations));
  if (!(cfg.average_from >= 0 && cfg.average_from <= 1))
    throw std::invalid_argument("train: 'average_from' must be in [0, 1]");
  const int avg_start = static_cast<int>(std::floor(cfg.average_from * cfg.iterations));
  TailAverage<Scalar> average(avg_start < cfg.iterations ? gen.n_params() : 0);
  const int score_start = TailScores::window_start(cfg.iterations);
  if (tail_scores) {
    std::vector<double> release_var(cfg.tau_grid.size());
    for (size_t l = 0; l < release_var.size(); ++l)
      release_var[l] = TailScores::release_variance(cfg.sigma * cfg.release_scale(l), C * cfg.release_scale(l),
                                                    cfg.rate, cfg.gamma, part.size);
    *tail_scores = TailScores(d, std::move(release_var));
  }
  std::vector<int> level(K, 0);
  DenormalGuard denormals;

  for (int t = 0; t < cfg.iterations; ++t) {
    for (int k = 0; k < K; ++k) {
      subset_key[k] = rng.next_key();                              // B_t^(k), drawn in step 4
      double* u = input.data() + static_cast<size_t>(k) * n_in;
      rng.dirichlet(cfg.gamma, u, S);                              // u_t^(k)
      if (joint) {                                                 // tau_t^(k) ~ P_tau
        const double v = rng.uniform();
        size_t i = 0;
        while (i + 1 < tau_cdf.size() && v > tau_cdf[i]) ++i;
        tau[k] = cfg.tau_grid[i];
        level[k] = static_cast<int>(i);
        scale[k] = cfg.release_scale(i);
        complete_generator_input(u, S, true, tau[k], cfg.tau_knots, cfg.level_products);
      } else {
        tau[k] = cfg.tau_grid[0];
        scale[k] = cfg.release_scale(0);
      }
    }
    gen.forward(input.data(), K, theta.data());                    // theta_k = G(u_k [, tau_k])

    for (int k = 0; k < K; ++k) {
      const double* u = input.data() + static_cast<size_t>(k) * n_in;
      double* wk = wblock.data() + static_cast<size_t>(k) * S;
      for (int s = 0; s < S; ++s) wk[s] = u[s] * inv_size[s];      // w-bar = u_pi / n_pi
    }
    parallel_units(units, threads, [&](int64_t unit, int th) {
      const int k = static_cast<int>(unit / n_range);
      const int64_t r = unit % n_range;
      std::vector<int64_t>& b = subset[static_cast<size_t>(th)];
      b.clear();
      Rng stream = Rng::stream(subset_key[k], static_cast<uint64_t>(r));
      const int64_t begin = r * kSubsetRange, end = std::min(n, begin + kSubsetRange);
      if (counted && end - begin == kSubsetRange)
        counted->draw(stream, begin, bitmap[static_cast<size_t>(th)], b);
      else
        stream.poisson_range(begin, end, gaps, b);
      ExactSum& part_sum = partial[static_cast<size_t>(unit)];
      part_sum.clear();
      accumulate_subset(loss, data, b, wblock.data() + static_cast<size_t>(k) * S,
                        theta.data() + static_cast<size_t>(k) * d, tau[k], C * scale[k],
                        g[static_cast<size_t>(th)].data(), part_sum);          // clip_{r C}
    });
    for (int k = 0; k < K; ++k) {
      const double* th = theta.data() + static_cast<size_t>(k) * d;
      double* sk = stat.data() + static_cast<size_t>(k) * d;
      exact.clear();
      for (int64_t r = 0; r < n_range; ++r) exact.merge(partial[static_cast<size_t>(k * n_range + r)]);
      exact.write(sk);
      // Gaussian noise on the statistic (r sigma for a bound of r C), then the
      // 1/K of the Monte Carlo average.
      const double sigma_k = cfg.sigma * scale[k];
      for (int j = 0; j < d; ++j) sk[j] += sigma_k * rng.normal();
      if (tail_scores && t >= score_start) tail_scores->add(level[k], sk);
      for (int j = 0; j < d; ++j) sk[j] /= K;
      score_to_gradient(loss, th, sk, d);  // post-processing (losses.h, kLogScore)
    }

    // Back-propagate (1/K) sum_k s_k through G and take the optimiser step,
    // fused piece by piece (Generator::backward); during the warm-up only
    // the output bias moves.
    const bool warm = t < warmup;
    opt.begin_step(t, warm ? 0 : t - warmup + 1);
    gen.backward(stat.data(), opt, warm);
    if (t >= avg_start && (t - avg_start) % kAverageEvery == 0) average.add(gen.params());

    if (callback && ((t + 1) % cfg.callback_every == 0 || t + 1 == cfg.iterations))
      if (denormals.outside([&] { return callback(t + 1, cfg.iterations); })) throw Interrupted();
  }
  average.write(gen.params());
}

}  // namespace pgbb

#endif  // PGBB_CORE_TRAINER_H
