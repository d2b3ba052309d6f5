// Prototype driver (not part of the package build): Huber regression, trainer vs exact blocked bootstrap.
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include "../trainer.h"
#include "../exact_bootstrap.h"
using namespace pgbb;
template <class Scalar>
void run(int n, int T, int width, double q, int K, double lr, int draws) {
  Rng rng(42);
  int p = 3;
  std::vector<double> x(n * p), y(n);
  double beta[3] = {1.5, -1.5, 1.0};
  for (int i = 0; i < n; ++i) {
    double eta = 0;
    for (int j = 0; j < p; ++j) { x[i + j * n] = 2 * rng.uniform() - 1; eta += beta[j] * x[i + j * n]; }
    // t3 noise
    double z = rng.normal(); double c = rng.gamma(1.5) * 2; y[i] = eta + 0.5 * z / std::sqrt(c / 3);
  }
  int S = 20;
  BlockPartition part = block_partition(n, S, rng);
  RowStore<Scalar> rows(x.data(), y.data(), n, p, &part);
  RowStore<double> rowsd(x.data(), y.data(), n, p, &part);
  HuberLoss loss{p};
  double smax = getenv("SMAX") ? atof(getenv("SMAX")) : 10; Box box({-10, -10, -10, 0.01}, {10, 10, 10, smax}, {false, false, false, getenv("LOGS") != nullptr});
  DataBounds db; db.x_lower.assign(p, -1); db.x_upper.assign(p, 1);
  double gam = gamma_star(n, S);
  std::vector<double> sh, sc;
  input_standardisation(S, false, sh, sc);
  Generator<Scalar> gen(S, std::vector<int>(getenv("NL") ? atoi(getenv("NL")) : 3, width), box, sh, sc);
  gen.init(rng);
  TrainConfig cfg;
  cfg.iterations = T; cfg.mc = K; cfg.rate = q; cfg.sigma = 0; cfg.clip = loss.gradient_bound(db, box, {0.5});
  if (getenv("WARM")) cfg.warmup = atof(getenv("WARM")); cfg.gamma = gam; cfg.optimizer.learning_rate = lr; cfg.optimizer.iterations = T;
  auto t0 = std::chrono::steady_clock::now(); std::clock_t c0 = std::clock();
  cfg.callback_every = 1;
  double ema = getenv("EMA") ? atof(getenv("EMA")) : 0;
  std::vector<Scalar> avg(gen.params(), gen.params() + gen.n_params());
  train(loss, rows, part, gen, cfg, rng, [&](int t, int) {
    if (ema > 0) { for (int64_t i = 0; i < gen.n_params(); ++i) avg[i] = ema * avg[i] + (1 - ema) * gen.params()[i]; }
    return false; });
  if (ema > 0) std::copy(avg.begin(), avg.end(), gen.params());
  auto t1 = std::chrono::steady_clock::now();
  double secs = std::chrono::duration<double>(t1 - t0).count(); double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  if (getenv("NOEXACT")) { printf("T=%d width=%d q=%.2f K=%d: %.3fs elapsed, %.3fs cpu (%.1f us/iter cpu)\n", T, width, q, K, secs, cpu, 1e6 * cpu / T); return; }
  // compare at same u
  std::vector<double> U(draws * S), inp(S * draws), out(4 * draws), ex(draws * 4);
  std::vector<double> u(S);
  for (int b = 0; b < draws; ++b) { rng.dirichlet(gam, u.data(), S); for (int s = 0; s < S; ++s) { U[b + s * draws] = u[s]; inp[s + b * S] = u[s]; } }
  gen.evaluate(inp.data(), draws, out.data());
  double start[4] = {0, 0, 0, 1};
  int failed = exact_bootstrap(loss, rowsd, &part, gam, draws, 0.5, start, U.data(), rng, ex.data());
  printf("T=%d width=%d q=%.2f K=%d lr=%g: %.2fs (%.1f us/iter), failed=%d\n", T, width, q, K, lr, secs, 1e6 * secs / T, failed);
  for (int j = 0; j < 4; ++j) {
    double mg = 0, me = 0, vg = 0, ve = 0, dd = 0;
    for (int b = 0; b < draws; ++b) { mg += out[j + b * 4]; me += ex[b + j * draws]; }
    mg /= draws; me /= draws;
    for (int b = 0; b < draws; ++b) { double a = out[j + b * 4] - mg, e = ex[b + j * draws] - me; vg += a * a; ve += e * e; dd += (a - e) * (a - e); }
    vg = std::sqrt(vg / (draws - 1)); ve = std::sqrt(ve / (draws - 1)); dd = std::sqrt(dd / draws);
    printf("  coef %d: gen mean %.5f sd %.5f | exact mean %.5f sd %.5f | dmean/sd %.3f sdratio %.3f rmse/sd %.3f\n", j, mg, vg, me, ve, (mg - me) / ve, vg / ve, dd / ve);
  }
}
int main(int argc, char** argv) {
  int n = atoi(argv[1]), T = atoi(argv[2]), width = atoi(argv[3]); double q = atof(argv[4]); int K = atoi(argv[5]); double lr = atof(argv[6]);
  bool dbl = argc > 7 && argv[7][0] == 'd';
  if (dbl) run<double>(n, T, width, q, K, lr, 2000); else run<float>(n, T, width, q, K, lr, 2000);
}
