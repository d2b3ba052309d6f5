// Entry points that exist only so that the R tests (tests/testthat) can reach
// core internals: intermediate quantities of the accountant, single draws of
// the noise samplers, the generator's initial weights and vector-Jacobian
// product, per-record losses and clipped statistics, and the normal
// functions. No exported R function calls them; the user-facing glue is in
// the other src/*.cpp files.
#include <RcppEigen.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "accountant_glue.h"
#include "core/accountant.h"
#include "core/cr_ss.h"
#include "core/discrete_gaussian.h"
#include "core/dp_bootstrap.h"
#include "core/gdp.h"
#include "core/noisy_gibbs_linear.h"
#include "core/resampling.h"
#include "core/trainer.h"
#include "dp_bootstrap_glue.h"
#include "glue.h"
#include "loss_glue.h"
#include "trainer_glue.h"

using namespace pgbb_glue;

// [[Rcpp::export]]
double cpp_lambert_w0(double x) { return pgbb::lambert_w0(x); }

// Intermediate quantities for the tests (logs): M-bar_k and B-bar_k of (S30)-(S31),
// phi of (S29), Theta'(r), and the accountant's n_S and E[(n_S wbar)^2].
// [[Rcpp::export]]
Rcpp::List cpp_accountant_pieces(Rcpp::List setup, int max_order, double sigma) {
  const pgbb::LogMomentAccountant acc(setup_from(setup), std::vector<int>{max_order});
  const pgbb::LogMomentAccountant::Pieces pc = acc.pieces(sigma);
  return Rcpp::List::create(
      Rcpp::Named("x") = pc.x, Rcpp::Named("log_mbar") = Rcpp::wrap(pc.log_mbar),
      Rcpp::Named("log_bbar") = Rcpp::wrap(pc.log_bbar), Rcpp::Named("log_phi") = pc.log_phi,
      Rcpp::Named("log_theta") = Rcpp::wrap(pc.log_theta), Rcpp::Named("margin") = pc.margin,
      Rcpp::Named("n_s") = acc.n_s(), Rcpp::Named("second_moment") = acc.second_moment());
}


// [[Rcpp::export]]
Rcpp::NumericVector cpp_discrete_gaussian(int n, double variance, Rcpp::NumericVector seed) {
  if (!(variance >= 1 && variance <= static_cast<double>(pgbb::kDiscreteVarianceMax) &&
        variance == std::floor(variance)))
    Rcpp::stop("'variance' must be an integer in [1, 2^44]");
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  Rcpp::NumericVector out(n);
  for (int i = 0; i < n; ++i) out[i] = static_cast<double>(pgbb::discrete_gaussian(rng, static_cast<uint64_t>(variance)));
  return out;
}


// [[Rcpp::export]]
Rcpp::NumericVector cpp_grid_gaussian_release(Rcpp::NumericVector x, double sigma, double sensitivity,
                                              Rcpp::NumericVector seed) {
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  const pgbb::GridGaussian g = pgbb::GridGaussian::plan(sigma, sensitivity, x.size());
  std::vector<double> v(x.begin(), x.end());
  g.release(v, rng);
  return Rcpp::wrap(v);
}


// One certified ridge Huber fit with record weights (non-private; for tests).
// [[Rcpp::export]]
Eigen::VectorXd cpp_dpb_huber_fit(Eigen::MatrixXd x, Eigen::VectorXd y, Rcpp::NumericVector w,
                                  double c, double kappa, double lambda, double tol) {
  if (y.size() != x.rows() || w.size() != x.rows()) Rcpp::stop("internal error: lengths differ");
  const std::vector<double> wv(w.begin(), w.end());
  return pgbb::huber_ridge_fit(x, y.data(), wv, huber_from(c, kappa, lambda, tol), Eigen::VectorXd());
}


// Initial weights of a generator (for tests and for the shape of a fit).
// [[Rcpp::export]]
Rcpp::List cpp_generator_init(Rcpp::List generator, Rcpp::NumericVector seed) {
  pgbb::Generator<double> gen = generator_from<double>(generator);
  pgbb::Rng rng = pgbb::Rng::stream(pgbb_glue::seed_from(seed), 0);
  gen.init(rng);
  return save_weights(gen);
}


// G and the vector-Jacobian product sum_k <dtheta_k, G(input_k)> in the
// weights, for the finite-difference tests: returns theta (K x d) and the
// gradient as a list of layers shaped like the weights.
// [[Rcpp::export]]
Rcpp::List cpp_generator_vjp(Rcpp::List generator, Rcpp::List layers, Rcpp::NumericMatrix input,
                             Rcpp::NumericMatrix dtheta) {
  pgbb::Generator<double> gen = generator_from<double>(generator);
  load_weights(gen, layers);
  const int K = input.nrow(), k = input.ncol(), d = gen.n_out();
  if (k != gen.n_in() || dtheta.nrow() != K || dtheta.ncol() != d)
    Rcpp::stop("internal error: shapes of 'input' and 'dtheta'");
  std::vector<double> in(static_cast<size_t>(K) * k), th(static_cast<size_t>(K) * d),
      dt(static_cast<size_t>(K) * d);
  for (int i = 0; i < K; ++i) {
    for (int j = 0; j < k; ++j) in[j + static_cast<size_t>(i) * k] = input(i, j);
    for (int j = 0; j < d; ++j) dt[j + static_cast<size_t>(i) * d] = dtheta(i, j);
  }
  gen.forward(in.data(), K, th.data());
  pgbb::Generator<double> grad = generator_from<double>(generator);  // same shapes, zero weights
  gen.vjp(dt.data(), grad.params());
  Rcpp::NumericMatrix theta(K, d);
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < d; ++j) theta(i, j) = th[j + static_cast<size_t>(i) * d];
  return Rcpp::List::create(Rcpp::Named("theta") = theta, Rcpp::Named("gradient") = save_weights(grad));
}


// [[Rcpp::export]]
Rcpp::NumericVector cpp_log_norm_cdf(Rcpp::NumericVector x) {
  Rcpp::NumericVector out(x.size());
  for (R_xlen_t i = 0; i < x.size(); ++i) out[i] = pgbb::log_norm_cdf(x[i]);
  return out;
}


// [[Rcpp::export]]
Rcpp::NumericVector cpp_norm_quantile(Rcpp::NumericVector p) {
  Rcpp::NumericVector out(p.size());
  for (R_xlen_t i = 0; i < p.size(); ++i) out[i] = pgbb::norm_quantile(p[i]);
  return out;
}


// Loss value, gradient and Hessian of every record at one theta (for tests).
// [[Rcpp::export]]
Rcpp::List cpp_loss_eval(Rcpp::List spec, Rcpp::NumericVector theta, Rcpp::NumericMatrix x,
                         Rcpp::NumericVector y, double tau) {
  const pgbb::LossSpec s = pgbb_glue::loss_from(spec);
  const int n = x.nrow(), p = x.ncol();
  if (p != s.p) Rcpp::stop("internal error: 'x' has the wrong number of columns");
  const pgbb::RowStore<double> rows(x.begin(), y.size() > 0 ? y.begin() : nullptr, n, p, nullptr);
  return pgbb::with_loss(s, [&](const auto& loss) {
    const int d = loss.dim();
    if (theta.size() != d) Rcpp::stop("internal error: 'theta' has the wrong length");
    Rcpp::NumericVector value(n);
    Rcpp::NumericMatrix grad(n, d), hess(d, d), pscore(n, d);
    std::vector<double> g(d);
    for (int i = 0; i < n; ++i) {
      const double* r = rows.row(i);
      const double yi = pgbb::RowStore<double>::y(r, p);
      value[i] = loss.value(theta.begin(), r, yi, tau);
      loss.gradient(theta.begin(), r, yi, tau, g.data());
      for (int j = 0; j < d; ++j) grad(i, j) = g[j];
      pgbb::private_score(loss, theta.begin(), r, yi, tau, g.data());
      for (int j = 0; j < d; ++j) pscore(i, j) = g[j];
      loss.add_hessian(theta.begin(), r, yi, tau, 1.0, hess.begin());
    }
    // The linear-score form used by the trainer's hot loop, where the loss has one.
    Rcpp::NumericMatrix sgrad(n, d);
    using L = std::decay_t<decltype(loss)>;
    if constexpr (L::kExtra >= 0) {
      double extra[L::kExtra > 0 ? L::kExtra : 1];
      for (int i = 0; i < n; ++i) {
        const double* r = rows.row(i);
        double e = 0.0;
        for (int j = 0; j < p; ++j) e += theta[j] * r[j];
        const double a = loss.score(theta.begin(), e, pgbb::RowStore<double>::y(r, p), tau, extra);
        for (int j = 0; j < p; ++j) sgrad(i, j) = a * r[j];
        for (int j = 0; j < L::kExtra; ++j) sgrad(i, p + j) = extra[j];
      }
    } else {
      sgrad = grad;
    }
    return Rcpp::List::create(Rcpp::Named("value") = value, Rcpp::Named("gradient") = grad,
                              Rcpp::Named("hessian") = hess, Rcpp::Named("score_gradient") = sgrad,
                              Rcpp::Named("private_score") = pscore);
  });
}


// Exact statistics of the clipped data (no noise): for the release and for tests.
// [[Rcpp::export]]
Rcpp::List cpp_ng_linear_statistics(Rcpp::NumericMatrix x, Rcpp::NumericVector y, double bound_x,
                                    double bound_y) {
  if (y.size() != x.nrow()) Rcpp::stop("internal error: x and y lengths differ");
  const pgbb::LinearStatistics st =
      pgbb::linear_statistics(x.begin(), y.begin(), x.nrow(), x.ncol(), bound_x, bound_y);
  return Rcpp::List::create(Rcpp::Named("s") = Rcpp::wrap(st.s), Rcpp::Named("m2") = Rcpp::wrap(st.m2),
                            Rcpp::Named("m4") = Rcpp::wrap(st.m4));
}


// [[Rcpp::export]]
Rcpp::IntegerVector cpp_poisson_subset(double n, double q, Rcpp::NumericVector seed) {
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  std::vector<int64_t> idx;
  rng.poisson_subset(static_cast<int64_t>(n), q, idx);
  Rcpp::IntegerVector out(idx.size());
  for (size_t i = 0; i < idx.size(); ++i) out[i] = static_cast<int>(idx[i] + 1);
  return out;
}


// [[Rcpp::export]]
Rcpp::List cpp_ptr_gdp(double theta, double ss, double beta, double mu, double delta, Rcpp::NumericVector seed) {
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  const pgbb::PtrRelease r = pgbb::ptr_gdp(theta, ss, beta, mu, delta, rng);
  return Rcpp::List::create(Rcpp::Named("value") = r.value, Rcpp::Named("bound") = r.bound);
}


// The clipped, weighted statistic of eq. (4) before noise, sum_i w_i
// clip_C(grad l(theta; x_i)), computed by the trainer's own hot-loop code
// (for tests of the clipping guard). `precision` selects the row storage.
// [[Rcpp::export]]
Rcpp::NumericVector cpp_statistic(Rcpp::List spec, Rcpp::NumericVector theta, Rcpp::NumericMatrix x,
                                  Rcpp::NumericVector y, double tau, double clip, Rcpp::NumericVector w,
                                  std::string precision) {
  const pgbb::LossSpec s = pgbb_glue::loss_from(spec);
  const int n = x.nrow(), p = x.ncol();
  if (w.size() != n) Rcpp::stop("internal error: 'w' has the wrong length");
  // Every record its own block, with weight w_i.
  pgbb::BlockPartition part;
  part.block.resize(n);
  part.size.assign(n, 1);
  std::vector<int64_t> subset(n);
  for (int i = 0; i < n; ++i) part.block[i] = i, subset[i] = i;
  auto run = [&](auto tag) {
    using Scalar = decltype(tag);
    const pgbb::RowStore<Scalar> rows(x.begin(), y.size() > 0 ? y.begin() : nullptr, n, p, &part);
    return pgbb::with_loss(s, [&](const auto& loss) {
      const int d = loss.dim();
      if (theta.size() != d) Rcpp::stop("internal error: 'theta' has the wrong length");
      Rcpp::NumericVector out(d);
      std::vector<double> g(d);
      double total = 0.0;  // public bound for the exact sum: sum_j |w_j| C
      for (double v : w) total += std::fabs(v);
      pgbb::ExactSum sum(d, std::max(total, 1e-300) * clip * 2.0);
      pgbb::accumulate_subset(loss, rows, subset, w.begin(), theta.begin(), tau, clip, g.data(), sum);
      sum.write(out.begin());
      return out;
    });
  };
  if (precision == "float") return run(float(0));
  return run(double(0));
}
