#include <cstdio>
#include "../generator.h"
using namespace pgbb;
int main(int argc, char**) {
  Rng rng(1);
  int S = 5, K = argc > 1 ? 1 : 3, d = 2;
  Box box({-3, 0.1}, {3, 4});
  std::vector<double> sh(S, 0.2), sc(S, 3.0);
  Generator<double> gen(S, {7, 6}, box, sh, sc);
  gen.init(rng);
  // random biases too
  for (int64_t i = 0; i < gen.n_params(); ++i) gen.params()[i] += 0.1 * rng.normal();
  std::vector<double> in(S * K), th(d * K), s(d * K);
  for (auto& v : in) v = rng.uniform();
  for (auto& v : s) v = rng.normal();
  gen.forward(in.data(), K, th.data());
  std::vector<double> grad(gen.n_params(), 0.0);
  gen.vjp(s.data(), grad.data());
  double maxerr = 0, maxg = 0;
  for (int64_t i = 0; i < gen.n_params(); ++i) {
    double h = 1e-6, old = gen.params()[i];
    gen.params()[i] = old + h; gen.forward(in.data(), K, th.data());
    double fp = 0; for (int j = 0; j < d * K; ++j) fp += s[j] * th[j];
    gen.params()[i] = old - h; gen.forward(in.data(), K, th.data());
    double fm = 0; for (int j = 0; j < d * K; ++j) fm += s[j] * th[j];
    gen.params()[i] = old;
    double fd = (fp - fm) / (2 * h);
    maxerr = std::max(maxerr, std::fabs(fd - grad[i])); maxg = std::max(maxg, std::fabs(grad[i]));
  }
  printf("n_params %ld maxerr %g maxgrad %g\n", (long)gen.n_params(), maxerr, maxg);
}
