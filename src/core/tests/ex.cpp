#include <cstdio>
#include "../exact_bootstrap.h"
using namespace pgbb;
int main(int argc, char** argv) {
  Rng rng(42);
  int n = argc > 1 ? atoi(argv[1]) : 2000, p = 3;
  std::vector<double> x(n * p), y(n);
  double beta[3] = {1.5, -1.5, 1.0};
  for (int i = 0; i < n; ++i) {
    double eta = 0;
    for (int j = 0; j < p; ++j) { x[i + j * n] = 2 * rng.uniform() - 1; eta += beta[j] * x[i + j * n]; }
    double z = rng.normal(); double c = rng.gamma(1.5) * 2; y[i] = eta + 0.5 * z / std::sqrt(c / 3);
  }
  int S = 20;
  BlockPartition part = block_partition(n, S, rng);
  RowStore<double> rows(x.data(), y.data(), n, p, &part);
  HuberLoss loss{p};
  std::vector<double> w(n), u(S);
  double th[4] = {0, 0, 0, 1};
  NewtonControl ctl;
  std::fill(w.begin(), w.end(), 1.0 / n);
  bool ok = solve_weighted(loss, rows, w.data(), 0.5, th);
  printf("full: ok=%d theta %g %g %g %g\n", ok, th[0], th[1], th[2], th[3]);
  int fails = 0;
  for (int b = 0; b < 300; ++b) {
    rng.dirichlet(gamma_star(n, S), u.data(), S);
    record_weights(u.data(), part, w.data());
    double t2[4]; std::copy(th, th + 4, t2);
    // instrumented
    std::vector<double> g(4), H(16);
    bool ok2 = solve_weighted(loss, rows, w.data(), 0.5, t2);
    if (!ok2) {
      ++fails;
      double f = weighted_objective(loss, rows, w.data(), 0.5, t2, g.data(), H.data());
      if (fails < 4) printf("fail b=%d f=%.17g g=%g %g %g %g theta=%g %g %g %g\n", b, f, g[0], g[1], g[2], g[3], t2[0], t2[1], t2[2], t2[3]);
    }
  }
  printf("fails %d/300\n", fails);
}
