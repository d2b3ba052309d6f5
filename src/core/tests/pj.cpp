// Prototype: joint quantile generator vs exact blocked bootstrap at each tau.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include "../trainer.h"
#include "../exact_bootstrap.h"
using namespace pgbb;
int main(int argc, char** argv) {
  int n = atoi(argv[1]), T = atoi(argv[2]), width = atoi(argv[3]); double q = atof(argv[4]); int K = atoi(argv[5]); double lr = atof(argv[6]);
  int draws = 1000;
  Rng rng(7);
  int p = 3;
  std::vector<double> x(n * p), y(n);
  double beta[3] = {1, 1.5, -1};
  for (int i = 0; i < n; ++i) {
    x[i] = 1; double eta = beta[0];
    for (int j = 1; j < p; ++j) { x[i + j * n] = 2 * rng.uniform() - 1; eta += beta[j] * x[i + j * n]; }
    double z = rng.normal(); double c = rng.gamma(1.5) * 2; y[i] = eta + 0.5 * z / std::sqrt(c / 3);
  }
  int S = 20;
  BlockPartition part = block_partition(n, S, rng);
  RowStore<float> rows(x.data(), y.data(), n, p, &part);
  RowStore<double> rowsd(x.data(), y.data(), n, p, &part);
  QuantileLoss loss{p, 0.1};
  Box box({-10, -10, -10}, {10, 10, 10});
  DataBounds db; db.x_lower.assign(p, -1); db.x_upper.assign(p, 1);
  std::vector<double> taus = {0.1, 0.3, 0.5, 0.7, 0.9}, probs;
  for (double t : taus) probs.push_back(getenv("UNIF") ? 1.0 : 1 / (t * (1 - t)));
  double gam = gamma_star(n, S);
  std::vector<double> sh, sc;
  input_standardisation(S, true, sh, sc);
  if (getenv("NOQ")) sc[S + 1] = 0.0;  // kill qnorm feature
  Generator<float> gen(S + 2, std::vector<int>(3, width), box, sh, sc, getenv("NODIRECT") ? 0 : 2);
  gen.init(rng);
  TrainConfig cfg;
  cfg.iterations = T; cfg.mc = K; cfg.rate = q; cfg.sigma = 0; cfg.clip = loss.gradient_bound(db, box, taus);
  cfg.gamma = gam; cfg.optimizer.learning_rate = lr; cfg.optimizer.iterations = T; cfg.tau_grid = taus; cfg.tau_prob = probs;
  if (getenv("WARM")) cfg.warmup = atof(getenv("WARM")); if (getenv("FLOOR")) cfg.optimizer.floor = atof(getenv("FLOOR"));
  std::clock_t c0 = std::clock();
  train(loss, rows, part, gen, cfg, rng);
  printf("T=%d width=%d q=%.2f K=%d lr=%g: %.2fs cpu\n", T, width, q, K, lr, double(std::clock() - c0) / CLOCKS_PER_SEC);
  std::vector<double> U(draws * S), inp((S + 2) * draws), out(3 * draws), ex(draws * 3), u(S);
  for (int b = 0; b < draws; ++b) { rng.dirichlet(gam, u.data(), S); for (int s = 0; s < S; ++s) { U[b + s * draws] = u[s]; inp[s + b * (S + 2)] = u[s]; } }
  double start[3] = {0, 0, 0};
  for (double tau : taus) {
    for (int b = 0; b < draws; ++b) tau_features(tau, &inp[S + b * (S + 2)]);
    gen.evaluate(inp.data(), draws, out.data());
    exact_bootstrap(loss, rowsd, &part, gam, draws, tau, start, U.data(), rng, ex.data());
    printf("tau %.1f:", tau);
    for (int j = 0; j < 3; ++j) {
      double mg = 0, me = 0, vg = 0, ve = 0, dd = 0;
      for (int b = 0; b < draws; ++b) { mg += out[j + b * 3]; me += ex[b + j * draws]; }
      mg /= draws; me /= draws;
      for (int b = 0; b < draws; ++b) { double a = out[j + b * 3] - mg, e = ex[b + j * draws] - me; vg += a * a; ve += e * e; dd += (a - e) * (a - e); }
      vg = std::sqrt(vg / (draws - 1)); ve = std::sqrt(ve / (draws - 1)); dd = std::sqrt(dd / draws);
      printf("  [%6.3f %5.3f %5.3f]", (mg - me) / ve, vg / ve, dd / ve);
    }
    printf("\n");
  }
}
