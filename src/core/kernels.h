// Vector kernels of the training loop: the Adam update, Adam fused with the
// rank-one gradient of one weight column, and axpy.
//
// R builds for the x86-64 baseline (SSE2); where the CPU has AVX the same
// operations run twice as wide, chosen once at run time. Every kernel gives
// the same bits on every path: the element-wise operations (+, *, /, sqrt) are
// correctly rounded in IEEE arithmetic and no fused multiply-add is used, and
// the one reduction (the dot product of adam_outer) keeps a fixed set of
// partial sums (8 for float, 4 for double) that every path forms in the same
// order. So a fit is bit-identical for one key (a seeded run) on any x86-64 CPU.
#ifndef PGBB_CORE_KERNELS_H
#define PGBB_CORE_KERNELS_H

#include <cmath>

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define PGBB_X86_KERNELS 1
#endif

namespace pgbb {
namespace detail {

/// @brief Adam's per-step constants: m = b1 m + (1 - b1) g,
/// v = b2 v + (1 - b2) g^2, w -= a m / (sqrt(c2 v) + eps), where a and c2 carry
/// the bias corrections.
template <class Scalar>
struct AdamCoef {
  Scalar b1, one_b1, b2, one_b2, a, c2, eps;
};

/// One element, in the order every vector path uses.
template <class Scalar>
inline void adam_one(Scalar& w, Scalar& m, Scalar& v, Scalar g, const AdamCoef<Scalar>& c) {
  const Scalar mm = c.b1 * m + c.one_b1 * g;
  const Scalar vv = c.b2 * v + c.one_b2 * (g * g);
  m = mm;
  v = vv;
  w = w - (c.a * mm) / (std::sqrt(c.c2 * vv) + c.eps);
}

/// Number of partial sums of the dot product in adam_outer().
template <class Scalar>
constexpr int dot_lanes() { return sizeof(Scalar) == 4 ? 8 : 4; }

template <class Scalar>
inline Scalar reduce_lanes(const Scalar* s) {
  if (dot_lanes<Scalar>() == 8) return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
  return (s[0] + s[1]) + (s[2] + s[3]);
}

// ---- portable versions (also the reference the vector paths match) --------

template <class Scalar>
inline void adam_portable(Scalar* w, Scalar* m, Scalar* v, const Scalar* g, int n,
                          const AdamCoef<Scalar>& c) {
  for (int i = 0; i < n; ++i) adam_one(w[i], m[i], v[i], g[i], c);
}

template <class Scalar>
inline Scalar adam_outer_portable(Scalar* w, Scalar* m, Scalar* v, const Scalar* dz, Scalar a, int n,
                                  const AdamCoef<Scalar>& c) {
  constexpr int L = dot_lanes<Scalar>();
  Scalar s[L] = {};
  int i = 0;
  for (; i + L <= n; i += L)
    for (int k = 0; k < L; ++k) {
      s[k] = s[k] + w[i + k] * dz[i + k];
      adam_one(w[i + k], m[i + k], v[i + k], dz[i + k] * a, c);
    }
  Scalar t = Scalar(0);
  for (; i < n; ++i) {
    t = t + w[i] * dz[i];
    adam_one(w[i], m[i], v[i], dz[i] * a, c);
  }
  return reduce_lanes(s) + t;
}

template <class Scalar>
inline void axpy_portable(Scalar* y, const Scalar* x, Scalar a, int n) {
  for (int i = 0; i < n; ++i) y[i] = y[i] + a * x[i];
}

#ifdef PGBB_X86_KERNELS
// ---- AVX (8 floats / 4 doubles) ---------------------------------------------

__attribute__((target("avx"))) inline void adam_avx(float* w, float* m, float* v, const float* g, int n,
                                                   const AdamCoef<float>& c) {
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

__attribute__((target("avx"))) inline float adam_outer_avx(float* w, float* m, float* v, const float* dz,
                                                           float a, int n, const AdamCoef<float>& c) {
  const __m256 b1 = _mm256_set1_ps(c.b1), ob1 = _mm256_set1_ps(c.one_b1), b2 = _mm256_set1_ps(c.b2),
               ob2 = _mm256_set1_ps(c.one_b2), aa = _mm256_set1_ps(c.a), c2 = _mm256_set1_ps(c.c2),
               eps = _mm256_set1_ps(c.eps), sa = _mm256_set1_ps(a);
  __m256 acc = _mm256_setzero_ps();
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 d = _mm256_loadu_ps(dz + i), ww = _mm256_loadu_ps(w + i);
    acc = _mm256_add_ps(acc, _mm256_mul_ps(ww, d));
    const __m256 gg = _mm256_mul_ps(d, sa);
    const __m256 mm = _mm256_add_ps(_mm256_mul_ps(b1, _mm256_loadu_ps(m + i)), _mm256_mul_ps(ob1, gg));
    const __m256 vv = _mm256_add_ps(_mm256_mul_ps(b2, _mm256_loadu_ps(v + i)),
                                    _mm256_mul_ps(ob2, _mm256_mul_ps(gg, gg)));
    _mm256_storeu_ps(m + i, mm);
    _mm256_storeu_ps(v + i, vv);
    const __m256 den = _mm256_add_ps(_mm256_sqrt_ps(_mm256_mul_ps(c2, vv)), eps);
    _mm256_storeu_ps(w + i, _mm256_sub_ps(ww, _mm256_div_ps(_mm256_mul_ps(aa, mm), den)));
  }
  float s[8];
  _mm256_storeu_ps(s, acc);
  float t = 0.0f;
  for (; i < n; ++i) {
    t = t + w[i] * dz[i];
    adam_one(w[i], m[i], v[i], dz[i] * a, c);
  }
  return reduce_lanes(s) + t;
}

__attribute__((target("avx"))) inline double adam_outer_avx(double* w, double* m, double* v, const double* dz,
                                                            double a, int n, const AdamCoef<double>& c) {
  const __m256d b1 = _mm256_set1_pd(c.b1), ob1 = _mm256_set1_pd(c.one_b1), b2 = _mm256_set1_pd(c.b2),
                ob2 = _mm256_set1_pd(c.one_b2), aa = _mm256_set1_pd(c.a), c2 = _mm256_set1_pd(c.c2),
                eps = _mm256_set1_pd(c.eps), sa = _mm256_set1_pd(a);
  __m256d acc = _mm256_setzero_pd();
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m256d d = _mm256_loadu_pd(dz + i), ww = _mm256_loadu_pd(w + i);
    acc = _mm256_add_pd(acc, _mm256_mul_pd(ww, d));
    const __m256d gg = _mm256_mul_pd(d, sa);
    const __m256d mm = _mm256_add_pd(_mm256_mul_pd(b1, _mm256_loadu_pd(m + i)), _mm256_mul_pd(ob1, gg));
    const __m256d vv = _mm256_add_pd(_mm256_mul_pd(b2, _mm256_loadu_pd(v + i)),
                                     _mm256_mul_pd(ob2, _mm256_mul_pd(gg, gg)));
    _mm256_storeu_pd(m + i, mm);
    _mm256_storeu_pd(v + i, vv);
    const __m256d den = _mm256_add_pd(_mm256_sqrt_pd(_mm256_mul_pd(c2, vv)), eps);
    _mm256_storeu_pd(w + i, _mm256_sub_pd(ww, _mm256_div_pd(_mm256_mul_pd(aa, mm), den)));
  }
  double s[4];
  _mm256_storeu_pd(s, acc);
  double t = 0.0;
  for (; i < n; ++i) {
    t = t + w[i] * dz[i];
    adam_one(w[i], m[i], v[i], dz[i] * a, c);
  }
  return reduce_lanes(s) + t;
}

__attribute__((target("avx"))) inline void axpy_avx(float* y, const float* x, float a, int n) {
  const __m256 aa = _mm256_set1_ps(a);
  int i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(y + i, _mm256_add_ps(_mm256_loadu_ps(y + i), _mm256_mul_ps(aa, _mm256_loadu_ps(x + i))));
  for (; i < n; ++i) y[i] = y[i] + a * x[i];
}

__attribute__((target("avx"))) inline void axpy_avx(double* y, const double* x, double a, int n) {
  const __m256d aa = _mm256_set1_pd(a);
  int i = 0;
  for (; i + 4 <= n; i += 4)
    _mm256_storeu_pd(y + i, _mm256_add_pd(_mm256_loadu_pd(y + i), _mm256_mul_pd(aa, _mm256_loadu_pd(x + i))));
  for (; i < n; ++i) y[i] = y[i] + a * x[i];
}

// ---- SSE2 (baseline x86-64) -------------------------------------------------

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

inline void adam_sse(double* w, double* m, double* v, const double* g, int n, const AdamCoef<double>& c) {
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

// 8 float lanes as two SSE registers (lanes 0-3 and 4-7), as in the AVX path.
inline float adam_outer_sse(float* w, float* m, float* v, const float* dz, float a, int n,
                            const AdamCoef<float>& c) {
  const __m128 b1 = _mm_set1_ps(c.b1), ob1 = _mm_set1_ps(c.one_b1), b2 = _mm_set1_ps(c.b2),
               ob2 = _mm_set1_ps(c.one_b2), aa = _mm_set1_ps(c.a), c2 = _mm_set1_ps(c.c2),
               eps = _mm_set1_ps(c.eps), sa = _mm_set1_ps(a);
  __m128 acc[2] = {_mm_setzero_ps(), _mm_setzero_ps()};
  int i = 0;
  for (; i + 8 <= n; i += 8)
    for (int h = 0; h < 2; ++h) {
      const int o = i + 4 * h;
      const __m128 d = _mm_loadu_ps(dz + o), ww = _mm_loadu_ps(w + o);
      acc[h] = _mm_add_ps(acc[h], _mm_mul_ps(ww, d));
      const __m128 gg = _mm_mul_ps(d, sa);
      const __m128 mm = _mm_add_ps(_mm_mul_ps(b1, _mm_loadu_ps(m + o)), _mm_mul_ps(ob1, gg));
      const __m128 vv = _mm_add_ps(_mm_mul_ps(b2, _mm_loadu_ps(v + o)), _mm_mul_ps(ob2, _mm_mul_ps(gg, gg)));
      _mm_storeu_ps(m + o, mm);
      _mm_storeu_ps(v + o, vv);
      const __m128 den = _mm_add_ps(_mm_sqrt_ps(_mm_mul_ps(c2, vv)), eps);
      _mm_storeu_ps(w + o, _mm_sub_ps(ww, _mm_div_ps(_mm_mul_ps(aa, mm), den)));
    }
  float s[8];
  _mm_storeu_ps(s, acc[0]);
  _mm_storeu_ps(s + 4, acc[1]);
  float t = 0.0f;
  for (; i < n; ++i) {
    t = t + w[i] * dz[i];
    adam_one(w[i], m[i], v[i], dz[i] * a, c);
  }
  return reduce_lanes(s) + t;
}

inline double adam_outer_sse(double* w, double* m, double* v, const double* dz, double a, int n,
                             const AdamCoef<double>& c) {
  const __m128d b1 = _mm_set1_pd(c.b1), ob1 = _mm_set1_pd(c.one_b1), b2 = _mm_set1_pd(c.b2),
                ob2 = _mm_set1_pd(c.one_b2), aa = _mm_set1_pd(c.a), c2 = _mm_set1_pd(c.c2),
                eps = _mm_set1_pd(c.eps), sa = _mm_set1_pd(a);
  __m128d acc[2] = {_mm_setzero_pd(), _mm_setzero_pd()};
  int i = 0;
  for (; i + 4 <= n; i += 4)
    for (int h = 0; h < 2; ++h) {
      const int o = i + 2 * h;
      const __m128d d = _mm_loadu_pd(dz + o), ww = _mm_loadu_pd(w + o);
      acc[h] = _mm_add_pd(acc[h], _mm_mul_pd(ww, d));
      const __m128d gg = _mm_mul_pd(d, sa);
      const __m128d mm = _mm_add_pd(_mm_mul_pd(b1, _mm_loadu_pd(m + o)), _mm_mul_pd(ob1, gg));
      const __m128d vv = _mm_add_pd(_mm_mul_pd(b2, _mm_loadu_pd(v + o)), _mm_mul_pd(ob2, _mm_mul_pd(gg, gg)));
      _mm_storeu_pd(m + o, mm);
      _mm_storeu_pd(v + o, vv);
      const __m128d den = _mm_add_pd(_mm_sqrt_pd(_mm_mul_pd(c2, vv)), eps);
      _mm_storeu_pd(w + o, _mm_sub_pd(ww, _mm_div_pd(_mm_mul_pd(aa, mm), den)));
    }
  double s[4];
  _mm_storeu_pd(s, acc[0]);
  _mm_storeu_pd(s + 2, acc[1]);
  double t = 0.0;
  for (; i < n; ++i) {
    t = t + w[i] * dz[i];
    adam_one(w[i], m[i], v[i], dz[i] * a, c);
  }
  return reduce_lanes(s) + t;
}

inline bool cpu_has_avx() {
  static const bool has = __builtin_cpu_supports("avx");
  return has;
}
#endif  // PGBB_X86_KERNELS

// ---- dispatch ---------------------------------------------------------------

/// @brief Adam on n contiguous parameters w with gradient g.
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

/// @brief Adam on one weight column w (n entries) whose gradient is the rank-one
/// g = a dz (a single draw: the column's input activation times the layer's
/// back-propagated signal), fused with the back-propagation through the column:
/// returns sum_i w_i dz_i with the weights before the update. One pass over
/// the column instead of three.
template <class Scalar>
inline Scalar adam_outer(Scalar* w, Scalar* m, Scalar* v, const Scalar* dz, Scalar a, int n,
                         const AdamCoef<Scalar>& c) {
#ifdef PGBB_X86_KERNELS
  if (cpu_has_avx()) return adam_outer_avx(w, m, v, dz, a, n, c);
  return adam_outer_sse(w, m, v, dz, a, n, c);
#else
  return adam_outer_portable(w, m, v, dz, a, n, c);
#endif
}

/// @brief y += a x (element-wise, so every path gives the same bits).
template <class Scalar>
inline void axpy(Scalar* y, const Scalar* x, Scalar a, int n) {
#ifdef PGBB_X86_KERNELS
  if (cpu_has_avx()) axpy_avx(y, x, a, n);
  else axpy_portable(y, x, a, n);
#else
  axpy_portable(y, x, a, n);
#endif
}

/// @brief sum_i w_i dz_i with the partial sums of adam_outer().
template <class Scalar>
inline Scalar dot_lanes_sum(const Scalar* w, const Scalar* dz, int n) {
  constexpr int L = dot_lanes<Scalar>();
  Scalar s[L] = {};
  int i = 0;
  for (; i + L <= n; i += L)
    for (int k = 0; k < L; ++k) s[k] = s[k] + w[i + k] * dz[i + k];
  Scalar t = Scalar(0);
  for (; i < n; ++i) t = t + w[i] * dz[i];
  return reduce_lanes(s) + t;
}

}  // namespace detail
}  // namespace pgbb

#endif  // PGBB_CORE_KERNELS_H
