// range_subsets.h: Poisson subsets of a range of 2^k records by count and positions.
#include <cmath>
#include <cstdint>
#include <vector>

#include "range_subsets.h"
#include "test_framework.h"

namespace {

// Binomial(m, q) probability of k from log-gamma in long double: an
// independent computation of what the ratio recursion of the table gives.
long double binom_pmf(int64_t m, double q, int64_t k) {
  const long double lm = static_cast<long double>(m), lk = static_cast<long double>(k);
  return std::exp(std::lgamma(lm + 1.0L) - std::lgamma(lk + 1.0L) - std::lgamma(lm - lk + 1.0L) +
                  lk * std::log(static_cast<long double>(q)) + (lm - lk) * std::log1p(-static_cast<long double>(q)));
}

const double kRates[] = {1e-5, 1e-4, 0.001, 0.01, 0.05, 0.1, 0.125};

}  // namespace

// The accountant is given q; the sampler must include every record with
// probability q. What the drawn counts realise (E[N] / m, as the 53-bit
// uniforms select the table's entries) must equal q to a relative 1e-12: the
// recursion's rounding is a few hundred ulps (about 1e-13 at worst), so
// 1e-12 fails for a wrong recursion or a table cut inside the bulk.
CORE_TEST(range_subsets_include_each_record_with_probability_q) {
  for (int bits : {6, 12, 18, 21})
    for (double q : kRates) {
      const pgbb::RangeSubsets rs(bits, q);
      const long double rate = rs.inclusion_rate();
      CHECK(std::fabs(static_cast<double>((rate - q) / q)) < 1e-12);
    }
}

// The table against the binomial law computed independently: the mass it
// leaves out at both ends is below 2^-70, and its cdf matches the summed
// log-gamma probabilities to 1e-12 (their own error is about 1e-15 here).
CORE_TEST(range_subsets_count_table_is_the_binomial_law) {
  for (int bits : {6, 18}) {
    const int64_t m = int64_t(1) << bits;
    for (double q : kRates) {
      const pgbb::RangeSubsets rs(bits, q);
      long double outside = 0.0L;
      for (int64_t k = 0; k < rs.table_low(); ++k) outside += binom_pmf(m, q, k);
      for (int64_t k = rs.table_high() + 1; k <= m; ++k) {
        const long double p = binom_pmf(m, q, k);
        outside += p;
        if (p < 1e-40L && k > rs.table_high() + 100) break;  // the rest is smaller still
      }
      CHECK(outside < 0x1p-70L);  // the header promises 2^-70; 2^-81.8 at worst here
      long double cdf = 0.0L;
      double worst = 0.0;
      for (int64_t k = rs.table_low(); k <= rs.table_high(); ++k) {
        cdf += binom_pmf(m, q, k);
        // u just above the independent cdf(k) must give a count above k, just below it at most k
        const double u = static_cast<double>(cdf);
        if (u > 1e-9 && u < 1.0 - 1e-9) {
          const double lo = u * (1.0 - 1e-12), hi = u * (1.0 + 1e-12);
          worst = std::fmax(worst, static_cast<double>(rs.draw_count(lo) > k) + static_cast<double>(rs.draw_count(hi) <= k));
        }
      }
      CHECK(worst == 0.0);
    }
  }
}

// Drawn subsets: distinct, inside the range, every bit cleared afterwards,
// the same for the same stream; each position's inclusion rate is q and the
// counts have the binomial mean and variance. With 20,000 ranges of 2^12 at
// q = 0.01 (about 820,000 inclusions), each of the 64 bit positions of a word
// and each of the 64 words is checked against its expectation within 5
// standard errors, as are the count's mean and variance.
CORE_TEST(range_subsets_draw_poisson_subsets) {
  const int bits = 12;
  const int64_t m = int64_t(1) << bits;
  const double q = 0.01;
  const pgbb::RangeSubsets rs(bits, q);
  std::vector<uint64_t> bitmap(static_cast<size_t>(m / 64), 0);
  std::vector<int64_t> out;
  std::vector<double> by_bit(64, 0.0), by_word(64, 0.0);
  const int draws = 20000;
  double sum = 0.0, sum2 = 0.0;
  long bad = 0;
  pgbb::Rng keys(77);
  const int64_t begin = 5 * m;
  for (int d = 0; d < draws; ++d) {
    out.assign(3, -1);  // appended after what is there
    pgbb::Rng r = pgbb::Rng::stream(keys.next_key(), static_cast<uint64_t>(d));
    rs.draw(r, begin, bitmap, out);
    std::vector<char> seen(static_cast<size_t>(m), 0);
    for (size_t i = 3; i < out.size(); ++i) {
      const int64_t pos = out[i] - begin;
      if (pos < 0 || pos >= m || seen[static_cast<size_t>(pos)]) { ++bad; continue; }
      seen[static_cast<size_t>(pos)] = 1;
      by_bit[static_cast<size_t>(pos & 63)] += 1.0;
      by_word[static_cast<size_t>(pos >> 6)] += 1.0;
    }
    for (uint64_t w : bitmap) bad += w != 0;
    const double c = static_cast<double>(out.size() - 3);
    sum += c;
    sum2 += c * c;
  }
  CHECK(bad == 0);
  const double per = static_cast<double>(draws) * 64 * q;  // expected inclusions of one bit position / word
  const double se = std::sqrt(static_cast<double>(draws) * 64 * q * (1 - q));
  for (int j = 0; j < 64; ++j) {
    CHECK(std::fabs(by_bit[static_cast<size_t>(j)] - per) < 5 * se);
    CHECK(std::fabs(by_word[static_cast<size_t>(j)] - per) < 5 * se);
  }
  const double mean = sum / draws, var = sum2 / draws - mean * mean;
  const double bmean = static_cast<double>(m) * q, bvar = bmean * (1 - q);
  CHECK(std::fabs(mean - bmean) < 5 * std::sqrt(bvar / draws));
  // the sample variance's standard error is about bvar sqrt(2 / draws)
  CHECK(std::fabs(var - bvar) < 5 * bvar * std::sqrt(2.0 / draws));

  std::vector<int64_t> a, b;
  pgbb::Rng r1 = pgbb::Rng::stream(9, 3), r2 = pgbb::Rng::stream(9, 3);
  rs.draw(r1, 0, bitmap, a);
  rs.draw(r2, 0, bitmap, b);
  CHECK(a == b && !a.empty());
}

CORE_TEST(range_subsets_reject_bad_settings) {
  CHECK_THROWS(pgbb::RangeSubsets(5, 0.01));
  CHECK_THROWS(pgbb::RangeSubsets(22, 0.01));
  CHECK_THROWS(pgbb::RangeSubsets(18, 0.0));
  CHECK_THROWS(pgbb::RangeSubsets(18, 0.2));
  const pgbb::RangeSubsets rs(8, 0.05);
  std::vector<uint64_t> short_map(2, 0);
  std::vector<int64_t> out;
  pgbb::Rng r(1);
  CHECK_THROWS(rs.draw(r, 0, short_map, out));
}
