// Standalone tests of the trainer's C++ core (no R): the generator's
// vector-Jacobian product, the clipping guard, determinism, and that the
// training loop allocates no memory once set up. Built by the Makefile here,
// also under AddressSanitizer/UBSan (`make sanitize`).
#define EIGEN_RUNTIME_NO_MALLOC
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <vector>

#include "../exact_bootstrap.h"
#include "../trainer.h"

// Count heap allocations through operator new while armed.
static std::atomic<bool> g_armed{false};
static std::atomic<long> g_allocs{0};
void* operator new(std::size_t n) {
  if (g_armed) ++g_allocs;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

static int failures = 0;
#define CHECK(cond, ...)                                  \
  do {                                                    \
    if (!(cond)) {                                        \
      ++failures;                                         \
      std::printf("FAIL %s:%d: ", __FILE__, __LINE__);    \
      std::printf(__VA_ARGS__);                           \
      std::printf("\n");                                  \
    }                                                     \
  } while (0)

using namespace pgbb;

static void test_vjp(bool joint) {
  Rng rng(1);
  const int S = 5, K = 3;
  const int nt = joint ? kTauFeatures : 0;
  Box box({-2, 0.1}, {2, 4}, {false, true});
  std::vector<double> sh, sc;
  input_standardisation(S, joint, sh, sc);
  Generator<double> gen(S + nt, {7, 6}, box, sh, sc, nt);
  gen.init(rng);
  for (int64_t i = 0; i < gen.n_params(); ++i) gen.params()[i] += 0.3 * rng.normal();
  std::vector<double> in((S + nt) * K), th(2 * K), dt(2 * K);
  for (int k = 0; k < K; ++k) {
    rng.dirichlet(1.0, &in[k * (S + nt)], S);
    if (joint) tau_features(0.2 + 0.25 * k, &in[k * (S + nt) + S]);
  }
  for (auto& v : dt) v = rng.normal();
  gen.forward(in.data(), K, th.data());
  std::vector<double> grad(gen.n_params(), 0.0);
  gen.vjp(dt.data(), grad.data());
  double err = 0, scale = 0;
  for (int64_t i = 0; i < gen.n_params(); ++i) {
    const double h = 1e-6, old = gen.params()[i];
    double f[2];
    for (int sgn = 0; sgn < 2; ++sgn) {
      gen.params()[i] = old + (sgn ? -h : h);
      gen.forward(in.data(), K, th.data());
      f[sgn] = 0;
      for (int j = 0; j < 2 * K; ++j) f[sgn] += dt[j] * th[j];
    }
    gen.params()[i] = old;
    const double fd = (f[0] - f[1]) / (2 * h);
    err = std::fmax(err, std::fabs(fd - grad[i]));
    scale = std::fmax(scale, std::fabs(fd));
  }
  CHECK(err < 1e-6 * scale, "VJP error %g (scale %g), joint %d", err, scale, joint);
}

struct Data {
  int64_t n;
  int p;
  std::vector<double> x, y;
  BlockPartition part;
};

static Data make_data(int64_t n, int p, int S, Rng& rng) {
  Data d{n, p, std::vector<double>(n * p), std::vector<double>(n), {}};
  for (int64_t i = 0; i < n; ++i) {
    double e = 0;
    for (int j = 0; j < p; ++j) {
      d.x[i + j * n] = 2 * rng.uniform() - 1;
      e += d.x[i + j * n];
    }
    d.y[i] = e + rng.normal();
  }
  d.part = block_partition(static_cast<int>(n), S, rng);
  return d;
}

template <class Scalar, class Loss>
static std::vector<Scalar> train_once(const Loss& loss, const Data& d, int K, bool joint, uint64_t seed,
                                      long* allocs) {
  Rng rng(seed);
  const int S = static_cast<int>(d.part.size.size());
  const int nt = joint ? kTauFeatures : 0;
  std::vector<double> lo(loss.dim(), -5), hi(loss.dim(), 5);
  std::vector<bool> lg(loss.dim(), false);
  if (loss.dim() > d.p) lo.back() = 0.05, lg.back() = true;
  Box box(lo, hi, lg);
  std::vector<double> sh, sc;
  input_standardisation(S, joint, sh, sc);
  Generator<Scalar> gen(S + nt, {16, 16}, box, sh, sc, nt);
  gen.init(rng);
  RowStore<Scalar> rows(d.x.data(), d.y.data(), d.n, d.p, &d.part);
  TrainConfig cfg;
  cfg.iterations = 60;
  cfg.mc = K;
  cfg.rate = 0.3;
  cfg.sigma = 0.05;
  cfg.clip = 1.0;
  cfg.gamma = 1.0;
  cfg.callback_every = 1;
  cfg.optimizer.iterations = cfg.iterations;
  if (joint) {
    cfg.tau_grid = {0.1, 0.5, 0.9};
    cfg.tau_prob = {1, 1, 1};
  }
  // Arm the counters after the first iteration, when everything is set up.
  train(loss, rows, d.part, gen, cfg, rng, [&](int t, int T) {
    if (t == 1) {
      g_allocs = 0;
      g_armed = true;
      Eigen::internal::set_is_malloc_allowed(false);
    }
    if (t == T) {
      g_armed = false;
      Eigen::internal::set_is_malloc_allowed(true);
    }
    return false;
  });
  *allocs = g_allocs;
  return std::vector<Scalar>(gen.params(), gen.params() + gen.n_params());
}

template <class Scalar>
static void test_training() {
  Rng rng(2);
  Data d = make_data(500, 3, 5, rng);
  long a = -1;
  for (int K : {1, 3}) {
    auto p1 = train_once<Scalar>(HuberLoss{3}, d, K, false, 7, &a);
    CHECK(a == 0, "Huber K=%d: %ld allocations in the training loop", K, a);
    auto p2 = train_once<Scalar>(HuberLoss{3}, d, K, false, 7, &a);
    CHECK(p1 == p2, "Huber K=%d: not deterministic", K);
    auto p3 = train_once<Scalar>(HuberLoss{3}, d, K, false, 8, &a);
    CHECK(p1 != p3, "Huber K=%d: seed ignored", K);
    train_once<Scalar>(QuantileLoss{3, 0.1}, d, K, true, 7, &a);
    CHECK(a == 0, "joint quantile K=%d: %ld allocations", K, a);
    train_once<Scalar>(GaussianMeanLoss{3, 1.0}, d, K, false, 7, &a);
    CHECK(a == 0, "mean K=%d: %ld allocations", K, a);
  }
}

// Every record's contribution to the statistic has norm at most C, whatever
// the data, for the fused linear-score path and the generic path alike.
template <class Loss>
static void test_clip(const Loss& loss, bool extreme_y) {
  Rng rng(3);
  const int n = 200, p = 3;
  std::vector<double> x(n * p), y(n), theta(loss.dim(), 0.5);
  for (auto& v : x) v = 40 * (2 * rng.uniform() - 1);
  for (auto& v : y) v = extreme_y ? 1e8 * rng.normal() : rng.normal();
  BlockPartition part;
  part.block.resize(n);
  part.size.assign(n, 1);
  std::vector<int64_t> all(n);
  for (int i = 0; i < n; ++i) part.block[i] = i, all[i] = i;
  RowStore<float> rows(x.data(), y.data(), n, p, &part);
  std::vector<double> w(n, 0.0), g(loss.dim()), s(loss.dim());
  const double C = 0.7;
  for (int i = 0; i < n; ++i) {
    std::fill(w.begin(), w.end(), 0.0);
    w[i] = 1.0;
    ExactSum sum(loss.dim(), 2.0 * C);
    accumulate_subset(loss, rows, all, w.data(), theta.data(), 0.3, C, g.data(), sum);
    sum.write(s.data());
    double nn = 0;
    for (double v : s) nn += v * v;
    CHECK(std::sqrt(nn) <= C, "record %d: norm %.17g > C", i, std::sqrt(nn));
  }
}

int main() {
  test_vjp(false);
  test_vjp(true);
  test_training<float>();
  test_training<double>();
  test_clip(HuberLoss{3}, true);
  test_clip(QuantileLoss{3, 0.1}, true);
  test_clip(SquaredLoss{3}, true);
  test_clip(LogisticLoss{3}, false);
  test_clip(GaussianMeanLoss{3, 0.1}, false);
  std::printf("%s (%d failures)\n", failures ? "FAILED" : "all core tests passed", failures);
  return failures ? 1 : 0;
}
