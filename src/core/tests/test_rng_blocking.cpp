// Core tests of the engine, samplers, blocking and exact bootstraps. The
// statistical properties are tested from R against R's distribution functions;
// here the point is memory safety and defined behaviour on edge cases.
#include <algorithm>
#include <numeric>

#include "bayes_bootstrap.h"
#include "blocking.h"
#include "entropy.h"
#include "rng.h"
#include "test_framework.h"

CORE_TEST(rng_reproducible_and_streams_differ) {
  pgbb::Rng a(42), b(42);
  for (int i = 0; i < 1000; ++i) CHECK(a.next_u64() == b.next_u64());
  pgbb::Rng s0 = pgbb::Rng::stream(42, 0), s1 = pgbb::Rng::stream(42, 1);
  CHECK(s0.next_u64() != s1.next_u64());
}

// RFC 8439, section 2.3.2: key 00 01 ... 1f, block counter 1, nonce
// 00:00:00:09:00:00:00:4a:00:00:00:00. The 16 output words are the RFC's
// serialized block read as little-endian words.
CORE_TEST(chacha20_block_matches_rfc8439) {
  uint32_t in[16] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};
  for (int i = 0; i < 8; ++i)
    in[4 + i] = static_cast<uint32_t>(4 * i) | (static_cast<uint32_t>(4 * i + 1) << 8) |
                (static_cast<uint32_t>(4 * i + 2) << 16) | (static_cast<uint32_t>(4 * i + 3) << 24);
  in[12] = 1; in[13] = 0x09000000u; in[14] = 0x4a000000u; in[15] = 0;
  const uint32_t want[16] = {0xe4e7f110u, 0x15593bd1u, 0x1fdd0f50u, 0xc47120a3u,
                             0xc7f4d1c7u, 0x0368c033u, 0x9aaa2204u, 0x4e6cd4c3u,
                             0x466482d2u, 0x09aa9f07u, 0x05d7c214u, 0xa2028bd9u,
                             0xd19c12b5u, 0xb94e16deu, 0xe883d0cbu, 0x4e3c50a2u};
  uint32_t out[16];
  pgbb::chacha_block<20>(in, out);
  for (int i = 0; i < 16; ++i) CHECK(out[i] == want[i]);
}

// ChaCha8 (Strombergson, draft-strombergson-chacha-test-vectors, TC1 with 8
// rounds): all-zero 256-bit key, all-zero 64-bit nonce, blocks 0 and 1. The
// 128 keystream bytes, read as little-endian 64-bit words, are the first
// sixteen draws of Rng(Key{}, 0, k8); with 20 rounds they are not.
CORE_TEST(chacha8_matches_the_published_keystream) {
  const char* hex =
      "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e"
      "984ce172b9216f419f445367456d5619314a42a3da86b001387bfdb80e0cfe42"
      "d2aefa0deaa5c151bf0adb6c01f2a5adc0fd581259f9a2aadcf20f8fd566a26b"
      "5032ec38bbc5da98ee0c6f568b872a65a08abf251deb21bb4b56e5d8821e68aa";
  auto nibble = [](char c) { return static_cast<uint64_t>(c <= '9' ? c - '0' : c - 'a' + 10); };
  pgbb::Rng r8(pgbb::Key{}, 0, pgbb::ChaChaRounds::k8), r20(pgbb::Key{}, 0);
  bool differs = false;
  for (int w = 0; w < 16; ++w) {
    uint64_t want = 0;
    for (int byte = 0; byte < 8; ++byte) {
      const char* h = hex + 16 * w + 2 * byte;
      want |= (nibble(h[0]) << 4 | nibble(h[1])) << (8 * byte);
    }
    CHECK(r8.next_u64() == want);
    differs = differs || r20.next_u64() != want;
  }
  CHECK(differs);
}

// The generator's outputs are the keystream in block order: first output of
// stream 0 of a key is words 0-1 of block 0, and a refill moves to block 1.
CORE_TEST(rng_is_the_chacha20_keystream) {
  const pgbb::Key key = pgbb::key_from_u64(7);
  uint32_t in[16] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};
  for (int i = 0; i < 8; ++i) in[4 + i] = key[i];
  in[12] = 0; in[13] = 0; in[14] = 3; in[15] = 0;  // stream 3 is the nonce
  pgbb::Rng r(key, 3);
  for (uint32_t block = 0; block < 9; ++block) {
    in[12] = block;
    uint32_t out[16];
    pgbb::chacha_block<20>(in, out);
    for (int i = 0; i < 8; ++i) {
      const uint64_t want = static_cast<uint64_t>(out[2 * i]) | (static_cast<uint64_t>(out[2 * i + 1]) << 32);
      CHECK(r.next_u64() == want);
    }
  }
}

namespace {
// ChaCha input state of `key`, nonce (n0, n1), counter words (c0, c1).
void chacha_state(uint32_t in[16], const pgbb::Key& key, uint32_t n0, uint32_t n1, uint32_t c0, uint32_t c1) {
  const uint32_t constants[4] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};
  for (int i = 0; i < 4; ++i) in[i] = constants[i];
  for (int i = 0; i < 8; ++i) in[4 + i] = key[i];
  in[12] = c0; in[13] = c1; in[14] = n0; in[15] = n1;
}

// Whether out[8 b + i] is words 2i, 2i + 1 of the scalar block (Rounds rounds)
// at counter c + b for b < blocks, c the 64-bit counter of `in` (as Rng packs them).
template <int Rounds = 20>
bool matches_scalar_blocks(const uint64_t* out, const uint32_t in[16], int blocks) {
  bool same = true;
  for (int b = 0; b < blocks; ++b) {
    uint32_t one[16], blk[16];
    for (int i = 0; i < 16; ++i) blk[i] = in[i];
    const uint64_t c = ((static_cast<uint64_t>(in[13]) << 32) | in[12]) + static_cast<uint64_t>(b);
    blk[12] = static_cast<uint32_t>(c); blk[13] = static_cast<uint32_t>(c >> 32);
    pgbb::chacha_block<Rounds>(blk, one);
    for (int i = 0; i < 8; ++i)
      same = same && out[8 * b + i] == (static_cast<uint64_t>(one[2 * i]) | (static_cast<uint64_t>(one[2 * i + 1]) << 32));
  }
  return same;
}
}  // namespace

// The four-lane SSE2 keystream is the scalar one, block for block, also when
// the low counter word wraps inside the four blocks, for 20 and for 8 rounds.
CORE_TEST(chacha_four_blocks_match_the_scalar_block) {
#ifdef PGBB_HAVE_CHACHA4
  uint32_t in[16];
  for (uint32_t start : {0u, 17u, 0xFFFFFFFEu, 0xFFFFFFFDu}) {
    chacha_state(in, pgbb::key_from_u64(11), 9, 1, start, 5);
    uint64_t four[32];
    pgbb::chacha_blocks4<20>(in, four);
    CHECK(matches_scalar_blocks<20>(four, in, 4));
    pgbb::chacha_blocks4<8>(in, four);
    CHECK(matches_scalar_blocks<8>(four, in, 4));
    CHECK(!matches_scalar_blocks<20>(four, in, 4));
  }
#endif
  CHECK(true);
}

// The eight-lane AVX2 keystream is the scalar one too (where the CPU has
// AVX2; elsewhere Rng uses the four-lane path), across a counter wrap, and an
// Rng gives the same draws whichever refill it uses.
CORE_TEST(chacha_eight_blocks_match_the_scalar_block) {
  uint32_t in[16];
#ifdef PGBB_HAVE_CHACHA8
  if (pgbb::cpu_has_avx2()) {
    for (uint32_t start : {0u, 29u, 0xFFFFFFFCu, 0xFFFFFFF9u}) {
      chacha_state(in, pgbb::key_from_u64(12), 3, 7, start, 2);
      uint64_t eight[64];
      pgbb::chacha_blocks8<20>(in, eight);
      CHECK(matches_scalar_blocks<20>(eight, in, 8));
      pgbb::chacha_blocks8<8>(in, eight);
      CHECK(matches_scalar_blocks<8>(eight, in, 8));
    }
  }
#endif
  // Rng's draws are the scalar keystream in counter order, block after block,
  // with 20 rounds by default and 8 when asked.
  const pgbb::Key key = pgbb::key_from_u64(13);
  pgbb::Rng rng(key, 4), rng8(key, 4, pgbb::ChaChaRounds::k8);
  chacha_state(in, key, 4, 0, 0, 0);
  uint64_t draws[8 * 40], draws8[8 * 40];
  for (auto& d : draws) d = rng.next_u64();
  for (auto& d : draws8) d = rng8.next_u64();
  CHECK(matches_scalar_blocks<20>(draws, in, 40));
  CHECK(matches_scalar_blocks<8>(draws8, in, 40));
}

CORE_TEST(os_entropy_keys_differ) {
  const pgbb::Key a = pgbb::os_entropy_key(), b = pgbb::os_entropy_key();
  CHECK(a != b);                    // equal with probability 2^-256
  int zero_words = 0;
  for (uint32_t w : a) zero_words += (w == 0);
  CHECK(zero_words < 3);            // an unfilled buffer would be all zeros
  pgbb::Rng ra(a), rb(b);
  CHECK(ra.next_u64() != rb.next_u64());
}

CORE_TEST(key_words_validated) {
  const double ok[8] = {0, 1, 2, 3, 4, 5, 6, 4294967295.0};
  CHECK(pgbb::key_from_words(ok, 8)[7] == 0xffffffffu);
  CHECK_THROWS(pgbb::key_from_words(ok, 2));
  const double big[8] = {4294967296.0, 0, 0, 0, 0, 0, 0, 0};
  CHECK_THROWS(pgbb::key_from_words(big, 8));
  const double frac[8] = {0.5, 0, 0, 0, 0, 0, 0, 0};
  CHECK_THROWS(pgbb::key_from_words(frac, 8));
}

CORE_TEST(samplers_edge_cases) {
  pgbb::Rng r(1);
  for (int i = 0; i < 10000; ++i) {
    const double u = r.uniform();
    CHECK(u > 0.0 && u < 1.0);
  }
  CHECK(r.uniform_int(1) == 0);
  CHECK_THROWS(r.uniform_int(0));
  CHECK_THROWS(r.gamma(0.0));
  CHECK_THROWS(r.gamma(-1.0));
  for (double shape : {1e-4, 0.5, 1.0, 7.5}) CHECK(std::isfinite(r.log_gamma_draw(shape)));
  std::vector<double> u(50);
  r.dirichlet(1e-3, u.data(), 50);
  CHECK_NEAR(std::accumulate(u.begin(), u.end(), 0.0), 1.0, 1e-12);
  CHECK_THROWS(r.dirichlet(1.0, u.data(), 0));
  std::vector<int> p = r.permutation(1);
  CHECK(p.size() == 1 && p[0] == 0);
  CHECK(r.permutation(0).empty());
}

CORE_TEST(poisson_subset_bounds) {
  pgbb::Rng r(2);
  std::vector<int64_t> idx;
  for (double q : {0.0, 1e-9, 0.01, 0.5, 0.999999, 1.0}) {
    r.poisson_subset(1000, q, idx);
    CHECK(std::is_sorted(idx.begin(), idx.end()));
    CHECK(idx.empty() || (idx.front() >= 0 && idx.back() < 1000));
  }
  r.poisson_subset(0, 0.5, idx);
  CHECK(idx.empty());
  CHECK_THROWS(r.poisson_subset(10, 1.5, idx));
  // Large n with a small rate: the hot path at natality scale.
  r.poisson_subset(2000000, 0.01, idx);
  CHECK(idx.size() > 19000 && idx.size() < 21000);
}

CORE_TEST(block_partition_balanced) {
  pgbb::Rng r(3);
  for (int n : {5, 7, 100, 1003}) {
    for (int S : {2, 3, 5}) {
      if (S > n) continue;
      pgbb::BlockPartition part = pgbb::block_partition(n, S, r);
      CHECK(static_cast<int>(part.block.size()) == n);
      const int lo = *std::min_element(part.size.begin(), part.size.end());
      const int hi = *std::max_element(part.size.begin(), part.size.end());
      CHECK(hi - lo <= 1);
      CHECK(lo == n / S);
      CHECK(part.n_min() == n / S);
    }
  }
  CHECK_THROWS(pgbb::block_partition(3, 5, r));
  CHECK_THROWS(pgbb::block_partition(10, 1, r));
  CHECK_THROWS(pgbb::gamma_star(100, 2));
  CHECK_NEAR(pgbb::gamma_star(1e9, 5), 0.6, 1e-8);
}

CORE_TEST(exact_bootstraps_of_a_mean) {
  pgbb::Rng r(4);
  const int n = 60, p = 2, draws = 50;
  std::vector<double> x(n * p);
  for (auto& v : x) v = r.normal();
  std::vector<double> out(draws * p);
  pgbb::bayesian_bootstrap_mean(x.data(), n, p, draws, r, out.data());
  for (double v : out) CHECK(std::isfinite(v));
  pgbb::BlockPartition part = pgbb::block_partition(n, 6, r);
  pgbb::blocked_bootstrap_mean(x.data(), n, p, draws, 0.7, part, r, out.data());
  for (double v : out) CHECK(std::isfinite(v));
  std::vector<double> w(n), u(6, 1.0 / 6);
  pgbb::record_weights(u.data(), part, w.data());
  CHECK_NEAR(std::accumulate(w.begin(), w.end(), 0.0), 1.0, 1e-12);
}
