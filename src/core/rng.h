// Package random number engine and samplers.
//
// Plain C++17, no R headers. Every random quantity that a privacy guarantee relies
// on (block partition, Poisson subsampling, Dirichlet weights, Gaussian noise) is
// drawn here, never from the platform's std:: distributions, whose output is
// implementation-defined.
//
// The engine is the ChaCha20 stream cipher used as a generator (Bernstein 2008;
// the block function of RFC 8439, with the original 64-bit block counter and
// 64-bit nonce). Privacy noise must not be reconstructible by an adversary who
// sees released values: a linear generator such as xoshiro or the Mersenne
// Twister gives up its state from a few hundred outputs, and a seed with fewer
// bits than the state can be searched. ChaCha20 with a 256-bit key read from the
// operating system (entropy.h) is a cryptographically secure generator: its
// outputs say nothing usable about the key or about each other. Reproducible
// runs (tests, simulations) key it from a user-chosen seed instead, which R
// labels as not for publication (R/rng.R). Randomness that no proof needs
// kept secret (the confidence regions' resample indices) may use the 8-round
// variant of the same generator (ChaChaRounds).
#ifndef PGBB_CORE_RNG_H
#define PGBB_CORE_RNG_H

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#endif
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif

namespace pgbb {

/// @brief SplitMix64 step: expands a 64-bit seed of the reproducible path into a
/// 256-bit key. Never used for keys drawn from the operating system.
inline uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// 256-bit ChaCha key as eight little-endian 32-bit words.
using Key = std::array<uint32_t, 8>;

/// Key for the reproducible path only (core tests, seeded runs).
inline Key key_from_u64(uint64_t seed) {
  Key k{};
  uint64_t x = seed;
  for (int i = 0; i < 4; ++i) {
    const uint64_t v = splitmix64(x);
    k[2 * i] = static_cast<uint32_t>(v);
    k[2 * i + 1] = static_cast<uint32_t>(v >> 32);
  }
  return k;
}

/// ChaCha block function (RFC 8439, section 2.3, with Rounds rounds: 20 for
/// ChaCha20, 8 for ChaCha8) over the 16-word input state, then the input added
/// back. Exposed for the published test vectors.
template <int Rounds = 20>
inline void chacha_block(const uint32_t in[16], uint32_t out[16]) {
  static_assert(Rounds > 0 && Rounds % 2 == 0, "ChaCha runs an even number of rounds");
  auto rotl32 = [](uint32_t v, int c) { return (v << c) | (v >> (32 - c)); };
  uint32_t x[16];
  for (int i = 0; i < 16; ++i) x[i] = in[i];
  auto qr = [&](int a, int b, int c, int d) {
    x[a] += x[b]; x[d] ^= x[a]; x[d] = rotl32(x[d], 16);
    x[c] += x[d]; x[b] ^= x[c]; x[b] = rotl32(x[b], 12);
    x[a] += x[b]; x[d] ^= x[a]; x[d] = rotl32(x[d], 8);
    x[c] += x[d]; x[b] ^= x[c]; x[b] = rotl32(x[b], 7);
  };
  for (int i = 0; i < Rounds / 2; ++i) {
    qr(0, 4, 8, 12); qr(1, 5, 9, 13); qr(2, 6, 10, 14); qr(3, 7, 11, 15);
    qr(0, 5, 10, 15); qr(1, 6, 11, 12); qr(2, 7, 8, 13); qr(3, 4, 9, 14);
  }
  for (int i = 0; i < 16; ++i) out[i] = x[i] + in[i];
}

#if defined(__SSE2__) || defined(_M_X64)
/// Four consecutive ChaCha blocks (counters c, c + 1, c + 2, c + 3 of the
/// 64-bit counter in words 12-13) at once, one block per 32-bit SSE2 lane:
/// the same keystream as four calls of chacha_block<Rounds>(), several times
/// faster. out[8 b + i] = words 2i and 2i + 1 of block b, as Rng packs them.
template <int C>
inline __m128i chacha_rotl(__m128i v) {
  return _mm_or_si128(_mm_slli_epi32(v, C), _mm_srli_epi32(v, 32 - C));
}

template <int Rounds = 20>
inline void chacha_blocks4(const uint32_t in[16], uint64_t out[32]) {
  __m128i s[16], x[16];
  for (int i = 0; i < 16; ++i) s[i] = _mm_set1_epi32(static_cast<int>(in[i]));
  const uint64_t c0 = static_cast<uint64_t>(in[12]) | (static_cast<uint64_t>(in[13]) << 32);
  uint32_t lo[4], hi[4];
  for (int b = 0; b < 4; ++b) {
    lo[b] = static_cast<uint32_t>(c0 + b);
    hi[b] = static_cast<uint32_t>((c0 + b) >> 32);
  }
  s[12] = _mm_setr_epi32(static_cast<int>(lo[0]), static_cast<int>(lo[1]), static_cast<int>(lo[2]),
                         static_cast<int>(lo[3]));
  s[13] = _mm_setr_epi32(static_cast<int>(hi[0]), static_cast<int>(hi[1]), static_cast<int>(hi[2]),
                         static_cast<int>(hi[3]));
  for (int i = 0; i < 16; ++i) x[i] = s[i];
  auto qr = [&x](int a, int b, int c, int d) {
    x[a] = _mm_add_epi32(x[a], x[b]); x[d] = chacha_rotl<16>(_mm_xor_si128(x[d], x[a]));
    x[c] = _mm_add_epi32(x[c], x[d]); x[b] = chacha_rotl<12>(_mm_xor_si128(x[b], x[c]));
    x[a] = _mm_add_epi32(x[a], x[b]); x[d] = chacha_rotl<8>(_mm_xor_si128(x[d], x[a]));
    x[c] = _mm_add_epi32(x[c], x[d]); x[b] = chacha_rotl<7>(_mm_xor_si128(x[b], x[c]));
  };
  for (int r = 0; r < Rounds / 2; ++r) {
    qr(0, 4, 8, 12); qr(1, 5, 9, 13); qr(2, 6, 10, 14); qr(3, 7, 11, 15);
    qr(0, 5, 10, 15); qr(1, 6, 11, 12); qr(2, 7, 8, 13); qr(3, 4, 9, 14);
  }
  alignas(16) uint32_t w[16][4];
  for (int i = 0; i < 16; ++i) _mm_store_si128(reinterpret_cast<__m128i*>(w[i]), _mm_add_epi32(x[i], s[i]));
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < 8; ++i)
      out[8 * b + i] = static_cast<uint64_t>(w[2 * i][b]) | (static_cast<uint64_t>(w[2 * i + 1][b]) << 32);
}
#define PGBB_HAVE_CHACHA4 1
#endif

#if defined(__GNUC__) && defined(__x86_64__)
/// Eight consecutive ChaCha blocks at once, one block per 32-bit AVX2 lane
/// (chosen at run time where the CPU has AVX2): the same keystream as
/// chacha_blocks4<Rounds>() twice, packed the same way (out[8 b + i], b = 0..7).
template <int C>
__attribute__((target("avx2"))) inline __m256i chacha_rotl8(__m256i v) {
  return _mm256_or_si256(_mm256_slli_epi32(v, C), _mm256_srli_epi32(v, 32 - C));
}

// The quarter round on eight lanes (a function, not a lambda: a lambda does
// not inherit the enclosing function's target).
__attribute__((target("avx2"))) inline void chacha_qr8(__m256i* x, int a, int b, int c, int d, __m256i r16,
                                                       __m256i r8) {
  x[a] = _mm256_add_epi32(x[a], x[b]); x[d] = _mm256_shuffle_epi8(_mm256_xor_si256(x[d], x[a]), r16);
  x[c] = _mm256_add_epi32(x[c], x[d]); x[b] = chacha_rotl8<12>(_mm256_xor_si256(x[b], x[c]));
  x[a] = _mm256_add_epi32(x[a], x[b]); x[d] = _mm256_shuffle_epi8(_mm256_xor_si256(x[d], x[a]), r8);
  x[c] = _mm256_add_epi32(x[c], x[d]); x[b] = chacha_rotl8<7>(_mm256_xor_si256(x[b], x[c]));
}

template <int Rounds = 20>
__attribute__((target("avx2"))) inline void chacha_blocks8(const uint32_t in[16], uint64_t out[64]) {
  __m256i s[16], x[16];
  for (int i = 0; i < 16; ++i) s[i] = _mm256_set1_epi32(static_cast<int>(in[i]));
  const uint64_t c0 = static_cast<uint64_t>(in[12]) | (static_cast<uint64_t>(in[13]) << 32);
  alignas(32) uint32_t lo[8], hi[8];
  for (int b = 0; b < 8; ++b) {
    lo[b] = static_cast<uint32_t>(c0 + b);
    hi[b] = static_cast<uint32_t>((c0 + b) >> 32);
  }
  s[12] = _mm256_load_si256(reinterpret_cast<const __m256i*>(lo));
  s[13] = _mm256_load_si256(reinterpret_cast<const __m256i*>(hi));
  // Rotations by 16 and 8 bits are byte shuffles within each 32-bit word.
  const __m256i r16 = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
                                       2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
  const __m256i r8 = _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
                                      3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
  for (int i = 0; i < 16; ++i) x[i] = s[i];
  for (int r = 0; r < Rounds / 2; ++r) {
    chacha_qr8(x, 0, 4, 8, 12, r16, r8); chacha_qr8(x, 1, 5, 9, 13, r16, r8);
    chacha_qr8(x, 2, 6, 10, 14, r16, r8); chacha_qr8(x, 3, 7, 11, 15, r16, r8);
    chacha_qr8(x, 0, 5, 10, 15, r16, r8); chacha_qr8(x, 1, 6, 11, 12, r16, r8);
    chacha_qr8(x, 2, 7, 8, 13, r16, r8); chacha_qr8(x, 3, 4, 9, 14, r16, r8);
  }
  alignas(32) uint32_t w[16][8];
  for (int i = 0; i < 16; ++i)
    _mm256_store_si256(reinterpret_cast<__m256i*>(w[i]), _mm256_add_epi32(x[i], s[i]));
  for (int b = 0; b < 8; ++b)
    for (int i = 0; i < 8; ++i)
      out[8 * b + i] = static_cast<uint64_t>(w[2 * i][b]) | (static_cast<uint64_t>(w[2 * i + 1][b]) << 32);
}

inline bool cpu_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}
#define PGBB_HAVE_CHACHA8 1
#endif

class GeometricGaps;

/// @brief Rounds of the ChaCha permutation behind a generator.
///  - ChaCha20: every draw that a privacy proof needs unpredictable (partitions,
///    Poisson subsets, block weights, noise), and the default everywhere.
///  - ChaCha8: only for randomness that the proofs fix and condition on, so
///    that it may as well be public: the resample indices of the one-shot
///    confidence regions (resampling.h). ChaCha8 has no known attack and passes
///    the statistical batteries (the eight-round variant of Bernstein 2008;
///    Aumasson 2019, "Too much crypto"; Go's runtime generator uses it), and
///    costs 8/20 of the rounds.
enum class ChaChaRounds { k20 = 20, k8 = 8 };

/// @brief ChaCha generator (ChaCha20 unless asked otherwise) with the package's samplers.
class Rng {
 public:
  /// Stream `stream` of `key`: the stream number is the ChaCha nonce, so streams
  /// of one key are independent keystreams (a resample, a training, a thread's
  /// share each get their own), and results do not depend on how work is divided.
  explicit Rng(const Key& key, uint64_t stream = 0, ChaChaRounds rounds = ChaChaRounds::k20)
      : rounds_(rounds) {
    state_[0] = 0x61707865u; state_[1] = 0x3320646eu;  // "expand 32-byte k"
    state_[2] = 0x79622d32u; state_[3] = 0x6b206574u;
    for (int i = 0; i < 8; ++i) state_[4 + i] = key[i];
    state_[12] = 0; state_[13] = 0;  // 64-bit block counter
    state_[14] = static_cast<uint32_t>(stream);
    state_[15] = static_cast<uint32_t>(stream >> 32);
  }
  /// Reproducible path: a 64-bit seed expanded to a key (core tests, seeded runs).
  explicit Rng(uint64_t seed = 0x5EEDULL) : Rng(key_from_u64(seed)) {}

  static Rng stream(const Key& key, uint64_t stream, ChaChaRounds rounds = ChaChaRounds::k20) {
    return Rng(key, stream, rounds);
  }
  static Rng stream(uint64_t seed, uint64_t stream) { return Rng(key_from_u64(seed), stream); }

  uint64_t next_u64() {
    if (pos_ == filled_) refill();
    return buffer_[pos_++];
  }

  /// Bulk access for samplers that consume many outputs: the outputs generated
  /// but not yet returned (refilling first if there are none), `*count` of them.
  /// They are the values next_u64() would return next, in order; consume(k)
  /// marks the first k as returned. Nothing else changes the stream.
  const uint64_t* buffered(int* count) {
    if (pos_ == filled_) refill();
    *count = filled_ - pos_;
    return buffer_.data() + pos_;
  }
  void consume(int k) { pos_ += k; }

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

  /// Poisson (independent Bernoulli(q)) subset of {0, ..., n - 1} in `out`
  /// (cleared first), in increasing order.
  void poisson_subset(int64_t n, double q, std::vector<int64_t>& out) {
    out.clear();
    poisson_range(0, n, q, out);
  }

  /// Appends a Poisson (independent Bernoulli(q)) subset of {begin, ...,
  /// end - 1} to `out`, in increasing order. Geometric skipping: the gap
  /// before the next included index is floor(log U / log(1 - q)) ~
  /// Geometric(q), so the cost is O(q (end - begin)) expected draws rather
  /// than one uniform per record. Inclusions are independent across records,
  /// so subsets of disjoint ranges drawn from independent streams are together
  /// a Poisson subset of their union.
  inline void poisson_range(int64_t begin, int64_t end, double q, std::vector<int64_t>& out);

  /// poisson_range() with the gap sampler of a fixed q built once
  /// (GeometricGaps): the same gaps, a table lookup per gap instead of a
  /// logarithm.
  inline void poisson_range(int64_t begin, int64_t end, const GeometricGaps& gaps, std::vector<int64_t>& out);

  /// A fresh 256-bit key drawn from this stream: the key of an independent
  /// generator (Rng::stream(key, j)) for work that runs out of order.
  Key next_key() {
    Key k{};
    for (int i = 0; i < 4; ++i) {
      const uint64_t v = next_u64();
      k[2 * i] = static_cast<uint32_t>(v);
      k[2 * i + 1] = static_cast<uint32_t>(v >> 32);
    }
    return k;
  }

 private:
  // Blocks per refill: 8 with AVX2, else 4. The outputs are the keystream in
  // counter order either way, so the draws do not depend on the CPU.
  static constexpr int kMaxBlocks = 8;

  void advance(int blocks) {
    const uint64_t c = (static_cast<uint64_t>(state_[12]) | (static_cast<uint64_t>(state_[13]) << 32)) +
                       static_cast<uint64_t>(blocks);
    state_[12] = static_cast<uint32_t>(c);
    state_[13] = static_cast<uint32_t>(c >> 32);
    filled_ = 8 * blocks;
    pos_ = 0;
  }

  void refill() {
    if (rounds_ == ChaChaRounds::k8) return refill_with<8>();
    refill_with<20>();
  }

  template <int Rounds>
  void refill_with() {
#ifdef PGBB_HAVE_CHACHA8
    if (cpu_has_avx2()) {
      chacha_blocks8<Rounds>(state_.data(), buffer_.data());
      return advance(8);
    }
#endif
#ifdef PGBB_HAVE_CHACHA4
    chacha_blocks4<Rounds>(state_.data(), buffer_.data());
    return advance(4);
#endif
    uint32_t out[16];
    for (int b = 0; b < 4; ++b) {
      chacha_block<Rounds>(state_.data(), out);
      for (int i = 0; i < 8; ++i)
        buffer_[8 * b + i] = static_cast<uint64_t>(out[2 * i]) | (static_cast<uint64_t>(out[2 * i + 1]) << 32);
      if (++state_[12] == 0) ++state_[13];
    }
    filled_ = 32;
    pos_ = 0;
  }

  ChaChaRounds rounds_ = ChaChaRounds::k20;
  std::array<uint32_t, 16> state_{};
  std::array<uint64_t, 8 * kMaxBlocks> buffer_{};
  int pos_ = 0, filled_ = 0;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

/// @brief Gaps of a Poisson subset at a fixed rate q in (0, 1]: the map
/// U -> G = floor(log U / log(1 - q)) of Rng::poisson_range(), so G ~
/// Geometric(q) (P(G = g) = q (1 - q)^g) and every record is included with
/// probability q. Computed by inversion against the thresholds
/// c_g = (1 - q)^g (G = g exactly when c_{g+1} < U <= c_g) with a guide table
/// on U (Chen & Asau 1974), about one comparison per gap; U at or below the
/// last threshold (probability 2^-20, or (1 - q)^8192 for tiny q) takes the
/// logarithm itself. Both are the same function of U up to the rounding of
/// log and exp (a relative 1e-16 in the threshold), so the inclusion
/// probabilities are exactly q to that precision. `table = false` skips the
/// table (every gap by the logarithm), for a subset drawn once.
class GeometricGaps {
 public:
  explicit GeometricGaps(double q, bool table = true)
      : log1mq_(q < 1.0 ? std::log1p(-q) : 0.0), all_(q == 1.0) {
    if (!(q > 0.0 && q <= 1.0)) throw std::invalid_argument("GeometricGaps: q must be in (0, 1]");
    if (all_ || !table) return;
    const double need = std::ceil(-20.0 * 0.6931471805599453 / log1mq_);  // (1 - q)^L <= 2^-20
    const int L = static_cast<int>(std::max(1.0, std::min(static_cast<double>(kMaxTable), need)));
    c_.resize(static_cast<size_t>(L) + 1);
    for (int g = 0; g <= L; ++g) c_[static_cast<size_t>(g)] = std::exp(static_cast<double>(g) * log1mq_);
    // guide_[b]: the smallest g with c_{g+1} < (b + 1) / kBins, a lower bound
    // on G for every U of bin b (U < (b + 1) / kBins); bins of larger U need
    // smaller g, so one descending pass fills them.
    guide_.resize(kBins);
    int g = 0;
    for (int b = kBins - 1; b >= 0; --b) {
      const double hi = static_cast<double>(b + 1) / kBins;
      while (g < L - 1 && !(c_[static_cast<size_t>(g) + 1] < hi)) ++g;
      guide_[static_cast<size_t>(b)] = g;
    }
  }

  /// A gap G (as a double, so that a huge one can be compared before a cast).
  double draw(Rng& rng) const {
    if (all_) return 0.0;
    const double u = rng.uniform();  // in (0, 1), never 0 or 1
    if (c_.empty() || u <= c_.back()) return std::floor(std::log(u) / log1mq_);
    size_t g = static_cast<size_t>(guide_[static_cast<size_t>(u * kBins)]);
    while (u <= c_[g + 1]) ++g;  // stops below L: c_L < u
    return static_cast<double>(g);
  }

 private:
  static constexpr int kMaxTable = 8192;
  static constexpr int kBins = 4096;
  double log1mq_;
  bool all_;
  std::vector<double> c_;
  std::vector<int> guide_;
};

inline void Rng::poisson_range(int64_t begin, int64_t end, double q, std::vector<int64_t>& out) {
  if (!(q >= 0.0 && q <= 1.0)) throw std::invalid_argument("poisson_subset: q must be in [0, 1]");
  if (q == 0.0 || end <= begin) return;
  poisson_range(begin, end, GeometricGaps(q, false), out);
}

inline void Rng::poisson_range(int64_t begin, int64_t end, const GeometricGaps& gaps, std::vector<int64_t>& out) {
  int64_t i = begin - 1;
  while (i < end) {
    const double gap = gaps.draw(*this);
    if (gap >= static_cast<double>(end - i)) break;  // also guards the cast below
    i += static_cast<int64_t>(gap) + 1;
    if (i >= end) break;
    out.push_back(i);
  }
}

/// Key from the eight 32-bit words that R passes (R/rng.R: read from the
/// operating system by default, drawn from R's generator on the seeded path).
inline Key key_from_words(const double* words, int count) {
  if (count != 8) throw std::invalid_argument("a key needs eight 32-bit words");
  Key k{};
  for (int i = 0; i < 8; ++i) {
    if (!(words[i] >= 0 && words[i] < 4294967296.0) || words[i] != std::floor(words[i]))
      throw std::invalid_argument("key words must be integers in [0, 2^32)");
    k[i] = static_cast<uint32_t>(words[i]);
  }
  return k;
}

}  // namespace pgbb

#endif  // PGBB_CORE_RNG_H
