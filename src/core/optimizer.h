// First-order optimisers for the generator's weights. They see only the
// already-noised gradient of eq. (4), so whatever they do is post-processing of
// the private mechanism (Section 5: "the optimizer operates on the already
// perturbed gradients") and leaves the privacy guarantee unchanged.
#ifndef PGBB_CORE_OPTIMIZER_H
#define PGBB_CORE_OPTIMIZER_H

#include <cmath>
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define PGBB_X86_KERNELS 1
#endif
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace pgbb {

/// @brief Optimiser settings. Defaults are the paper's (SM S3.2): Adam with a
/// cosine-decayed learning rate from 5e-4 to a floor of 1% of it.
struct OptimizerConfig {
  std::string type = "adam";  ///< "adam" or "sgd"
  double learning_rate = 5e-4;
  double floor = 0.01;       ///< final rate as a fraction of learning_rate
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  int iterations = 10000;    ///< length T of the cosine schedule
};

/// @brief Cosine decay eta_t = eta (f + (1 - f) (1 + cos(pi t / (T - 1))) / 2),
/// t = 0..T-1: eta at the first step, the floor f eta at the last.
inline double cosine_rate(const OptimizerConfig& c, int t) {
  const double T1 = c.iterations > 1 ? c.iterations - 1 : 1;
  const double frac = 0.5 * (1.0 + std::cos(3.14159265358979323846 * t / T1));
  return c.learning_rate * (c.floor + (1.0 - c.floor) * frac);
}

namespace detail {

/// Adam's per-step constants: m = b1 m + (1 - b1) g, v = b2 v + (1 - b2) g^2,
/// w -= a m / (sqrt(c2 v) + eps), where a and c2 carry the bias corrections.
template <class Scalar>
struct AdamCoef {
  Scalar b1, one_b1, b2, one_b2, a, c2, eps;
};

/// One element; the vector kernels below do exactly these operations in this
/// order (no fused multiply-add), so every path gives the same bits.
template <class Scalar>
inline void adam_one(Scalar& w, Scalar& m, Scalar& v, Scalar g, const AdamCoef<Scalar>& c) {
  const Scalar mm = c.b1 * m + c.one_b1 * g;
  const Scalar vv = c.b2 * v + c.one_b2 * (g * g);
  m = mm;
  v = vv;
  w = w - (c.a * mm) / (std::sqrt(c.c2 * vv) + c.eps);
}

template <class Scalar>
inline void adam_portable(Scalar* w, Scalar* m, Scalar* v, const Scalar* g, int n,
                          const AdamCoef<Scalar>& c) {
  for (int i = 0; i < n; ++i) adam_one(w[i], m[i], v[i], g[i], c);
}

#ifdef PGBB_X86_KERNELS
// The update is bound by the divide/square-root unit (one sqrt and one divide
// per weight, 147k weights per step at 3 x 256). R builds for the x86-64
// baseline (SSE2); where the CPU has AVX the same correctly rounded operations
// run 8 (float) or 4 (double) wide. Selected once at run time.
__attribute__((target("avx"))) inline void adam_avx(float* w, float* m, float* v, const float* g,
                                                   int n, const AdamCoef<float>& c) {
  const __m256 b1 = _mm256_set1_ps(c.b1), ob1 = _mm256_set1_ps(c.one_b1), b2 = _mm256_set1_ps(c.b2),
               ob2 = _mm256_set1_ps(c.one_b2), a = _mm256_set1_ps(c.a), c2 = _mm256_set1_ps(c.c2),
               eps = _mm256_set1_ps(c.eps);
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 gg = _mm256_loadu_ps(g + i);
    const __m256 mm = _mm256_add_ps(_mm256_mul_ps(b1, _mm256_loadu_ps(m + i)), _mm256_mul_ps(ob1, gg));
    const __m256 vv = _mm256_add_ps(_mm256_mul_ps(b2, _mm256_loadu_ps(v + i)),
                                    _mm256_mul_ps(ob2, _mm256_mul_ps(gg, gg)));
    _mm256_storeu_ps(m + i, mm);
    _mm256_storeu_ps(v + i, vv);
    const __m256 den = _mm256_add_ps(_mm256_sqrt_ps(_mm256_mul_ps(c2, vv)), eps);
    _mm256_storeu_ps(w + i, _mm256_sub_ps(_mm256_loadu_ps(w + i), _mm256_div_ps(_mm256_mul_ps(a, mm), den)));
  }
  for (; i < n; ++i) adam_one(w[i], m[i], v[i], g[i], c);
}

__attribute__((target("avx"))) inline void adam_avx(double* w, double* m, double* v, const double* g,
                                                   int n, const AdamCoef<double>& c) {
  const __m256d b1 = _mm256_set1_pd(c.b1), ob1 = _mm256_set1_pd(c.one_b1), b2 = _mm256_set1_pd(c.b2),
                ob2 = _mm256_set1_pd(c.one_b2), a = _mm256_set1_pd(c.a), c2 = _mm256_set1_pd(c.c2),
                eps = _mm256_set1_pd(c.eps);
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m256d gg = _mm256_loadu_pd(g + i);
    const __m256d mm = _mm256_add_pd(_mm256_mul_pd(b1, _mm256_loadu_pd(m + i)), _mm256_mul_pd(ob1, gg));
    const __m256d vv = _mm256_add_pd(_mm256_mul_pd(b2, _mm256_loadu_pd(v + i)),
                                     _mm256_mul_pd(ob2, _mm256_mul_pd(gg, gg)));
    _mm256_storeu_pd(m + i, mm);
    _mm256_storeu_pd(v + i, vv);
    const __m256d den = _mm256_add_pd(_mm256_sqrt_pd(_mm256_mul_pd(c2, vv)), eps);
    _mm256_storeu_pd(w + i, _mm256_sub_pd(_mm256_loadu_pd(w + i), _mm256_div_pd(_mm256_mul_pd(a, mm), den)));
  }
  for (; i < n; ++i) adam_one(w[i], m[i], v[i], g[i], c);
}

inline void adam_sse(float* w, float* m, float* v, const float* g, int n, const AdamCoef<float>& c) {
  const __m128 b1 = _mm_set1_ps(c.b1), ob1 = _mm_set1_ps(c.one_b1), b2 = _mm_set1_ps(c.b2),
               ob2 = _mm_set1_ps(c.one_b2), a = _mm_set1_ps(c.a), c2 = _mm_set1_ps(c.c2),
               eps = _mm_set1_ps(c.eps);
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m128 gg = _mm_loadu_ps(g + i);
    const __m128 mm = _mm_add_ps(_mm_mul_ps(b1, _mm_loadu_ps(m + i)), _mm_mul_ps(ob1, gg));
    const __m128 vv = _mm_add_ps(_mm_mul_ps(b2, _mm_loadu_ps(v + i)), _mm_mul_ps(ob2, _mm_mul_ps(gg, gg)));
    _mm_storeu_ps(m + i, mm);
    _mm_storeu_ps(v + i, vv);
    const __m128 den = _mm_add_ps(_mm_sqrt_ps(_mm_mul_ps(c2, vv)), eps);
    _mm_storeu_ps(w + i, _mm_sub_ps(_mm_loadu_ps(w + i), _mm_div_ps(_mm_mul_ps(a, mm), den)));
  }
  for (; i < n; ++i) adam_one(w[i], m[i], v[i], g[i], c);
}

inline void adam_sse(double* w, double* m, double* v, const double* g, int n,
                     const AdamCoef<double>& c) {
  const __m128d b1 = _mm_set1_pd(c.b1), ob1 = _mm_set1_pd(c.one_b1), b2 = _mm_set1_pd(c.b2),
                ob2 = _mm_set1_pd(c.one_b2), a = _mm_set1_pd(c.a), c2 = _mm_set1_pd(c.c2),
                eps = _mm_set1_pd(c.eps);
  int i = 0;
  for (; i + 2 <= n; i += 2) {
    const __m128d gg = _mm_loadu_pd(g + i);
    const __m128d mm = _mm_add_pd(_mm_mul_pd(b1, _mm_loadu_pd(m + i)), _mm_mul_pd(ob1, gg));
    const __m128d vv = _mm_add_pd(_mm_mul_pd(b2, _mm_loadu_pd(v + i)), _mm_mul_pd(ob2, _mm_mul_pd(gg, gg)));
    _mm_storeu_pd(m + i, mm);
    _mm_storeu_pd(v + i, vv);
    const __m128d den = _mm_add_pd(_mm_sqrt_pd(_mm_mul_pd(c2, vv)), eps);
    _mm_storeu_pd(w + i, _mm_sub_pd(_mm_loadu_pd(w + i), _mm_div_pd(_mm_mul_pd(a, mm), den)));
  }
  for (; i < n; ++i) adam_one(w[i], m[i], v[i], g[i], c);
}

inline bool cpu_has_avx() {
  static const bool has = __builtin_cpu_supports("avx");
  return has;
}
#endif

/// Adam on n contiguous parameters, on the widest correctly rounded vector unit.
template <class Scalar>
inline void adam_update(Scalar* w, Scalar* m, Scalar* v, const Scalar* g, int n,
                        const AdamCoef<Scalar>& c) {
#ifdef PGBB_X86_KERNELS
  if (cpu_has_avx()) adam_avx(w, m, v, g, n, c);
  else adam_sse(w, m, v, g, n, c);
#else
  adam_portable(w, m, v, g, n, c);
#endif
}

}  // namespace detail

/// @brief Adam (Kingma & Ba 2015, with bias correction) or plain SGD on a flat
/// parameter vector, with the cosine schedule, applied piece by piece as the
/// generator back-propagates (Generator::backward), so the whole gradient is
/// never stored. Moments are kept in the parameters' precision.
///
/// Two clocks: parameters at offsets >= tail_start (the output bias) count
/// their Adam steps from the first iteration, the others from the end of the
/// warm-up (TrainConfig::warmup), during which they are not updated. Without
/// this the first step after the warm-up would see bias corrections for
/// hundreds of steps and moments of one, and be about three times too long.
///
/// The update uses only +, *, / and sqrt, which IEEE arithmetic rounds
/// correctly, and never a fused multiply-add or an approximate reciprocal
/// (square root), so it gives the same bits on every x86-64 CPU whatever the
/// vector width chosen at run time.
template <class Scalar>
class Optimizer {
 public:
  Optimizer(const OptimizerConfig& cfg, int64_t n_params, int64_t tail_start)
      : cfg_(cfg), n_(n_params), tail_(tail_start), adam_(cfg.type == "adam") {
    if (cfg.type != "adam" && cfg.type != "sgd")
      throw std::invalid_argument("optimizer must be \"adam\" or \"sgd\"");
    if (!(cfg.learning_rate > 0) || !std::isfinite(cfg.learning_rate))
      throw std::invalid_argument("'learning_rate' must be positive and finite");
    if (!(cfg.floor >= 0 && cfg.floor <= 1))
      throw std::invalid_argument("the learning-rate floor must be in [0, 1]");
    if (!(cfg.beta1 >= 0 && cfg.beta1 < 1 && cfg.beta2 >= 0 && cfg.beta2 < 1 && cfg.eps > 0))
      throw std::invalid_argument("Adam needs 0 <= beta1, beta2 < 1 and eps > 0");
    if (adam_) {
      m_.assign(static_cast<size_t>(n_params), Scalar(0));
      v_.assign(static_cast<size_t>(n_params), Scalar(0));
    }
  }

  /// Prepares the step of iteration t (0-based, for the schedule), the
  /// steps_main-th Adam step of the main parameters (0 during the warm-up).
  void begin_step(int t, int steps_main) {
    eta_ = cosine_rate(cfg_, t);
    set_group(main_, steps_main);
    set_group(tail_group_, t + 1);
  }

  /// Updates w = phi + off (n entries, all on the same side of tail_start)
  /// with gradient g.
  void apply(int64_t off, Scalar* w, const Scalar* g, int n) {
    if (!adam_) {
      const Scalar e = static_cast<Scalar>(eta_);
      for (int i = 0; i < n; ++i) w[i] = w[i] - e * g[i];
      return;
    }
    detail::adam_update(w, m_.data() + off, v_.data() + off, g, n, off >= tail_ ? tail_group_ : main_);
  }

 private:
  void set_group(detail::AdamCoef<Scalar>& c, int k) {
    c.b1 = static_cast<Scalar>(cfg_.beta1);
    c.one_b1 = static_cast<Scalar>(1.0 - cfg_.beta1);
    c.b2 = static_cast<Scalar>(cfg_.beta2);
    c.one_b2 = static_cast<Scalar>(1.0 - cfg_.beta2);
    c.eps = static_cast<Scalar>(cfg_.eps);
    const double kk = k < 1 ? 1.0 : k;
    c.a = static_cast<Scalar>(eta_ / (1.0 - std::pow(cfg_.beta1, kk)));
    c.c2 = static_cast<Scalar>(1.0 / (1.0 - std::pow(cfg_.beta2, kk)));
  }

  OptimizerConfig cfg_;
  int64_t n_, tail_;
  bool adam_;
  double eta_ = 0.0;
  detail::AdamCoef<Scalar> main_{}, tail_group_{};
  std::vector<Scalar> m_, v_;
};

}  // namespace pgbb

#endif  // PGBB_CORE_OPTIMIZER_H
