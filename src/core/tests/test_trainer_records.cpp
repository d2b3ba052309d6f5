// Core tests of the trainer's record pass (trainer.h, step 4 of train()): the
// columnar path that reads float rows four at a time must release the same
// bits as the row-wise reference, for every loss with a linear score, every
// number of columns it takes and every subset length, including the records
// whose score is not finite and the factors that fall back to add_scaled().
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "rng.h"
#include "test_framework.h"
#include "trainer.h"

namespace {

// n records in S blocks, round robin.
pgbb::BlockPartition round_robin(int n, int S) {
  pgbb::BlockPartition part;
  part.block.resize(n);
  part.size.assign(S, 0);
  for (int i = 0; i < n; ++i) part.block[i] = i % S, ++part.size[i % S];
  return part;
}

template <class Loss>
bool same_bits_as_row_wise(const Loss& loss, int p, int nb, uint64_t seed, bool extremes) {
  pgbb::Rng rng(seed);
  const int n = 257, S = 5, d = loss.dim();
  std::vector<double> x(static_cast<size_t>(n) * p), y(n), theta(d);
  for (auto& v : x) v = 2 * rng.uniform() - 1;
  for (auto& v : y) v = 3 * rng.normal();
  for (auto& v : theta) v = rng.normal();
  if (extremes) {
    y[3] = std::numeric_limits<double>::quiet_NaN();  // a score that is not finite
    y[5] = 1e30;
    x[7] = 1e30;  // a term not below 2^53 on the grid: masked out
  }
  const pgbb::BlockPartition part = round_robin(n, S);
  pgbb::RowStore<float> rows(x.data(), y.data(), n, p, &part);
  std::vector<int64_t> subset(static_cast<size_t>(nb));
  for (auto& i : subset) i = static_cast<int64_t>(rng.uniform_int(n));
  std::vector<double> w(S);
  for (auto& v : w) v = rng.uniform() * S;
  // A weight so large that w f a times the grid's scale is not below 2^1000:
  // that record's group goes through add_scaled() record by record.
  const double C = 0.8, bound = nb * S * C;
  if (extremes) w[1] = 1e300;
  // A weight that puts every scaled term of its block at or above 2^53
  // (masked out) while the factor itself stays below 2^1000 (the vector
  // path). A weight that left some terms just below 2^53 would break the
  // ExactSum contract (partial sums below 2^53), which the trainer's weights
  // and clip keep.
  if (extremes) w[2] = 1e200;
  std::vector<double> g(d), a(d), b(d);
  pgbb::ExactSum fast(d, bound), ref(d, bound);
  pgbb::accumulate_subset(loss, rows, subset, w.data(), theta.data(), 0.3, C, g.data(), fast);
  pgbb::accumulate_subset_body<Loss, float, false>(loss, rows, subset, w.data(), theta.data(), 0.3, C, g.data(), ref);
  fast.write(a.data());
  ref.write(b.data());
  for (int k = 0; k < d; ++k)
    if (!(a[k] == b[k] || (std::isnan(a[k]) && std::isnan(b[k])))) return false;
  return true;
}

}  // namespace

CORE_TEST(record_pass_columnar_matches_row_wise_bits) {
  // p from one column to past the columnar path's 32 (which then falls back);
  // subsets shorter than a group of four, than a chunk of 32, and longer.
  const int ps[] = {1, 2, 3, 4, 5, 7, 8, 13, 14, 15, 16, 17, 30, 31, 32, 33};
  const int nbs[] = {1, 3, 4, 31, 32, 33, 130, 1000};
  uint64_t seed = 1;
  for (int p : ps)
    for (int nb : nbs)
      for (bool extremes : {false, true}) {
        CHECK(same_bits_as_row_wise(pgbb::QuantileLoss{p, 0.1}, p, nb, seed++, extremes));
        CHECK(same_bits_as_row_wise(pgbb::HuberLoss{p}, p, nb, seed++, extremes));
        CHECK(same_bits_as_row_wise(pgbb::SquaredLoss{p}, p, nb, seed++, extremes));
      }
}

// The record pass keeps its partial sums in lanes and adds them to the exact
// sum at the end: splitting a subset across calls (as the threaded units do)
// gives the same total as one call.
CORE_TEST(record_pass_lanes_merge_exactly) {
  pgbb::Rng rng(9);
  const int n = 300, p = 14, S = 5;
  std::vector<double> x(static_cast<size_t>(n) * p), y(n), theta(p);
  for (auto& v : x) v = 2 * rng.uniform() - 1;
  for (auto& v : y) v = rng.normal();
  for (auto& v : theta) v = 0.1 * rng.normal();
  const pgbb::BlockPartition part = round_robin(n, S);
  pgbb::RowStore<float> rows(x.data(), y.data(), n, p, &part);
  std::vector<int64_t> all(n);
  for (int i = 0; i < n; ++i) all[i] = i;
  const std::vector<int64_t> first(all.begin(), all.begin() + 137), rest(all.begin() + 137, all.end());
  std::vector<double> w(S, 1.0), g(p), one(p), two(p);
  const pgbb::QuantileLoss loss{p, 0.1};
  pgbb::ExactSum whole(p, n * 1.0), split(p, n * 1.0);
  pgbb::accumulate_subset(loss, rows, all, w.data(), theta.data(), 0.5, 1.0, g.data(), whole);
  pgbb::accumulate_subset(loss, rows, first, w.data(), theta.data(), 0.5, 1.0, g.data(), split);
  pgbb::accumulate_subset(loss, rows, rest, w.data(), theta.data(), 0.5, 1.0, g.data(), split);
  whole.write(one.data());
  split.write(two.data());
  for (int k = 0; k < p; ++k) CHECK(one[k] == two[k]);
}
