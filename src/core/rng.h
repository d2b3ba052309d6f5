// Package random number engine and samplers.
//
// Plain C++17, no R headers. Every random quantity that a privacy guarantee relies
// on (block partition, Poisson subsampling, Dirichlet weights, Gaussian noise) is
// drawn here, never from the platform's std:: distributions, whose output is
// implementation-defined. An engine is seeded once per R entry point from two
// 32-bit words that the R side draws from R's own generator (see R/rng.R), so
// set.seed() before a call gives bit-identical results on every platform.
#ifndef PGBB_CORE_RNG_H
#define PGBB_CORE_RNG_H

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace pgbb {

/// @brief SplitMix64 step: used to expand a 64-bit seed into engine state and to
/// derive independent per-stream seeds (the approach ranger and dqrng use).
inline uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// @brief xoshiro256++ engine (Blackman & Vigna 2021) with the package's samplers.
class Rng {
 public:
  explicit Rng(uint64_t seed = 0x5EEDULL) { reseed(seed); }

  void reseed(uint64_t seed) {
    uint64_t x = seed;
    for (auto& s : s_) s = splitmix64(x);
    has_spare_ = false;
  }

  /// Independent stream number `stream` of the same seed: a unit of parallel work
  /// (a resample, a thread's share) gets its own engine, so results do not depend
  /// on how work is divided among threads.
  static Rng stream(uint64_t seed, uint64_t stream) {
    uint64_t x = seed ^ (0xD1B54A32D192ED03ULL * (stream + 1));
    return Rng(splitmix64(x));
  }

  uint64_t next_u64() {
    const uint64_t result = rotl(s_[0] + s_[3], 23) + s_[0];
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  /// Uniform on the open interval (0, 1) with 53 random bits: never exactly 0 or
  /// 1, so log(u) and log(1 - u) are always finite.
  double uniform() { return (static_cast<double>(next_u64() >> 11) + 0.5) * 0x1.0p-53; }

  /// Uniform integer on {0, ..., range - 1} without modulo bias (bitmask rejection).
  uint64_t uniform_int(uint64_t range) {
    if (range == 0) throw std::invalid_argument("uniform_int: range must be positive");
    const uint64_t top = range - 1;
    uint64_t mask = top;
    mask |= mask >> 1; mask |= mask >> 2; mask |= mask >> 4;
    mask |= mask >> 8; mask |= mask >> 16; mask |= mask >> 32;
    uint64_t v;
    do { v = next_u64() & mask; } while (v > top);
    return v;
  }

  /// Standard normal by the Marsaglia polar method.
  double normal() {
    if (has_spare_) { has_spare_ = false; return spare_; }
    double u, v, s;
    do {
      u = 2.0 * uniform() - 1.0;
      v = 2.0 * uniform() - 1.0;
      s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double f = std::sqrt(-2.0 * std::log(s) / s);
    spare_ = v * f;
    has_spare_ = true;
    return u * f;
  }

  /// log of a Gamma(shape, 1) draw (Marsaglia & Tsang 2000). Working on the log
  /// scale keeps tiny shapes (where G = G(shape + 1) U^(1/shape) underflows to 0)
  /// usable for Beta and Dirichlet draws.
  double log_gamma_draw(double shape) {
    if (!(shape > 0.0) || !std::isfinite(shape))
      throw std::invalid_argument("gamma sampler: shape must be positive and finite");
    if (shape < 1.0) {
      // Marsaglia & Tsang's boost: G(a) = G(a + 1) * U^(1 / a).
      const double lg = log_gamma_draw(shape + 1.0);
      return lg + std::log(uniform()) / shape;
    }
    const double d = shape - 1.0 / 3.0;
    const double c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
      double x, v;
      do {
        x = normal();
        v = 1.0 + c * x;
      } while (v <= 0.0);
      v = v * v * v;
      const double u = uniform();
      const double x2 = x * x;
      if (u < 1.0 - 0.0331 * x2 * x2 || std::log(u) < 0.5 * x2 + d * (1.0 - v + std::log(v)))
        return std::log(d) + std::log(v);
    }
  }

  double gamma(double shape) { return std::exp(log_gamma_draw(shape)); }

  /// Beta(a, b) as Ga / (Ga + Gb), computed on the log scale.
  double beta(double a, double b) {
    const double la = log_gamma_draw(a), lb = log_gamma_draw(b);
    const double m = la > lb ? la : lb;
    const double ea = std::exp(la - m), eb = std::exp(lb - m);
    return ea / (ea + eb);
  }

  /// Dirichlet(concentration * 1_S) into out[0..S-1] (normalised Gamma draws with
  /// log-sum-exp, so the result sums to one even when every Gamma draw underflows).
  void dirichlet(double concentration, double* out, int S) {
    if (S < 1) throw std::invalid_argument("dirichlet: need at least one component");
    double m = -std::numeric_limits<double>::infinity();
    for (int s = 0; s < S; ++s) {
      out[s] = log_gamma_draw(concentration);
      if (out[s] > m) m = out[s];
    }
    double total = 0.0;
    for (int s = 0; s < S; ++s) {
      out[s] = std::exp(out[s] - m);
      total += out[s];
    }
    for (int s = 0; s < S; ++s) out[s] /= total;
  }

  /// Uniformly random permutation of {0, ..., n - 1} (Fisher-Yates).
  std::vector<int> permutation(int n) {
    std::vector<int> p(n);
    for (int i = 0; i < n; ++i) p[i] = i;
    for (int i = n - 1; i > 0; --i) {
      const int j = static_cast<int>(uniform_int(static_cast<uint64_t>(i) + 1));
      std::swap(p[i], p[j]);
    }
    return p;
  }

  /// Poisson (independent Bernoulli(q)) subset of {0, ..., n - 1}, appended to
  /// `out` in increasing order. Geometric skipping: the gap before the next
  /// included index is floor(log U / log(1 - q)) ~ Geometric(q), so the cost is
  /// O(q n) expected draws rather than one uniform per record.
  void poisson_subset(int64_t n, double q, std::vector<int64_t>& out) {
    out.clear();
    if (!(q >= 0.0 && q <= 1.0)) throw std::invalid_argument("poisson_subset: q must be in [0, 1]");
    if (q == 0.0 || n <= 0) return;
    if (q == 1.0) {
      out.reserve(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) out.push_back(i);
      return;
    }
    const double log1mq = std::log1p(-q);
    int64_t i = -1;
    for (;;) {
      const double gap = std::floor(std::log(uniform()) / log1mq);
      if (gap >= static_cast<double>(n - i)) break;  // also guards the cast below
      i += static_cast<int64_t>(gap) + 1;
      if (i >= n) break;
      out.push_back(i);
    }
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
  double spare_ = 0.0;
  bool has_spare_ = false;
};

/// Combine the two 32-bit words drawn by R (R/rng.R) into one 64-bit seed.
inline uint64_t seed_from_words(double hi, double lo) {
  if (!(hi >= 0 && hi < 4294967296.0 && lo >= 0 && lo < 4294967296.0))
    throw std::invalid_argument("seed words must be in [0, 2^32)");
  return (static_cast<uint64_t>(hi) << 32) | static_cast<uint64_t>(lo);
}

}  // namespace pgbb

#endif  // PGBB_CORE_RNG_H
