// Rcpp glue for the one-shot confidence regions (src/core/cr_gs.h, cr_ss.h).
// Convert, call the core, wrap. The "stats" functions return the NON-private
// pre-noise statistics; they are internal and only the R front end (which adds
// the calibrated noise) and the privacy tests call them.
#include <memory>

#include "core/cr_baselines.h"
#include "core/cr_gs.h"
#include "core/cr_ss.h"
#include "core/design.h"
#include "interrupt.h"
#include "glue.h"

namespace {

// Row-major copy of an R matrix (one record per row), made once per call, with
// every coordinate clipped to its public bounds (the sensitivity is only valid on
// the bounded domain; clipping is a per-record map).
std::vector<double> row_major(const Rcpp::NumericMatrix& x, const Rcpp::NumericVector& lower,
                              const Rcpp::NumericVector& upper) {
  const int n = x.nrow(), d = x.ncol();
  if (lower.size() != d || upper.size() != d) Rcpp::stop("internal error: bounds have the wrong length");
  std::vector<double> out(static_cast<size_t>(n) * d);
  for (int k = 0; k < d; ++k) {
    const double lo = lower[k], hi = upper[k];
    const double* col = &x(0, k);
    for (int i = 0; i < n; ++i) out[static_cast<size_t>(i) * d + k] = std::min(std::max(col[i], lo), hi);
  }
  return out;
}

pgbb::ResamplePlan make_plan(int n, int m, int B, const std::string& mode, int kappa, const Rcpp::NumericVector& seed) {
  pgbb::ResamplePlan plan;
  plan.n = n; plan.m = m; plan.B = B;
  plan.mode = pgbb::resample_mode_from(mode);
  plan.kappa = plan.mode == pgbb::ResampleMode::WR ? kappa : 0;
  plan.seed = pgbb_glue::seed_from(seed);
  return plan;
}

double num(const Rcpp::List& p, const char* name) {
  if (!p.containsElementNamed(name)) Rcpp::stop("internal error: missing estimator parameter '%s'", name);
  return Rcpp::as<double>(p[name]);
}

}  // namespace

// Entries of x outside their column's public bounds (what the glue's copy clips).
// [[Rcpp::export]]
double cpp_count_outside(Rcpp::NumericMatrix x, Rcpp::NumericVector lower, Rcpp::NumericVector upper) {
  if (lower.size() != x.ncol() || upper.size() != x.ncol()) Rcpp::stop("internal error: bounds have the wrong length");
  return static_cast<double>(pgbb::count_outside_bounds(x.begin(), x.nrow(), x.ncol(), lower.begin(), upper.begin()));
}

// [[Rcpp::export]]
Rcpp::List cpp_cr_gs_stats(Rcpp::NumericMatrix x, Rcpp::NumericVector y, std::string kind, Rcpp::List params,
                           Rcpp::NumericVector lower, Rcpp::NumericVector upper,
                           int m, int B, std::string mode, int kappa, Rcpp::NumericVector seed,
                           bool keep_estimates) {
  const std::vector<double> xr = row_major(x, lower, upper);
  pgbb::DataView dv{xr.data(), x.nrow(), x.ncol()};
  const pgbb::ResamplePlan plan = make_plan(x.nrow(), m, B, mode, kappa, seed);
  std::unique_ptr<pgbb::ResampleEstimator> est;
  if (kind == "mean") {
    est.reset(new pgbb::MeanEstimator(dv));
  } else if (kind == "ustat_product" || kind == "ustat_variance") {
    est.reset(new pgbb::UStat2Estimator(
        dv, kind == "ustat_product" ? pgbb::UStat2Estimator::Kernel::Product : pgbb::UStat2Estimator::Kernel::Variance,
        num(params, "shift")));
  } else if (kind == "ridge_logistic" || kind == "ridge_huber") {
    if (y.size() != x.nrow()) Rcpp::stop("internal error: 'y' has the wrong length");
    est.reset(new pgbb::RidgeEstimator(dv, y.begin(), kind == "ridge_logistic" ? pgbb::LossType::Logistic : pgbb::LossType::Huber,
                                       num(params, "lambda"), num(params, "huber_c"), num(params, "tol"),
                                       num(params, "smooth")));
  } else if (kind == "sgd_logistic" || kind == "sgd_huber") {
    if (y.size() != x.nrow()) Rcpp::stop("internal error: 'y' has the wrong length");
    est.reset(new pgbb::SgdEstimator(dv, y.begin(), kind == "sgd_logistic" ? pgbb::LossType::Logistic : pgbb::LossType::Huber,
                                     num(params, "lambda"), num(params, "huber_c"), num(params, "radius"),
                                     num(params, "c"), num(params, "a"), num(params, "t0"), plan.seed));
  } else {
    Rcpp::stop("internal error: unknown CR-GS estimator '%s'", kind);
  }
  const pgbb::GsStats st = pgbb_glue::interruptible(
      [&](const pgbb::StopCallback& stop) { return pgbb::cr_gs_stats(*est, plan, keep_estimates, stop); });
  const int d = est->dim();
  Rcpp::NumericMatrix ests(keep_estimates ? B : 0, keep_estimates ? d : 0);
  if (keep_estimates)
    for (int i = 0; i < B; ++i)
      for (int k = 0; k < d; ++k) ests(i, k) = st.estimates[static_cast<size_t>(i) * d + k];
  return Rcpp::List::create(Rcpp::Named("theta_hat") = Rcpp::wrap(st.theta_hat),
                            Rcpp::Named("dist") = Rcpp::wrap(st.dist),
                            Rcpp::Named("estimates") = ests,
                            Rcpp::Named("failed_at") = st.pass.failed_at + 1,
                            Rcpp::Named("failed_mult") = st.pass.failed_mult,
                            Rcpp::Named("max_mult") = st.pass.max_mult);
}

// [[Rcpp::export]]
double cpp_upper_quantile(Rcpp::NumericVector v, double alpha) {
  return pgbb::upper_quantile(std::vector<double>(v.begin(), v.end()), alpha);
}

// [[Rcpp::export]]
Rcpp::List cpp_cr_gs_release(Rcpp::NumericVector theta_hat, double Q, double nu, double center_sens,
                             double sigma, double radius_sens, Rcpp::NumericVector seed) {
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  const pgbb::GsRelease r = pgbb::cr_gs_release(std::vector<double>(theta_hat.begin(), theta_hat.end()), Q,
                                                nu, center_sens, sigma, radius_sens, rng);
  return Rcpp::List::create(Rcpp::Named("center") = Rcpp::wrap(r.center), Rcpp::Named("q_tilde") = r.q_tilde);
}

// `mult`: the realised multiplicity of each resample (cpp_resample_multiplicities
// on the same seed), or empty for the paper's kappa* bound alone.
// [[Rcpp::export]]
Rcpp::List cpp_cr_ss_stats(Rcpp::NumericVector x, std::string kind, Rcpp::List params, int m, int B,
                           std::string mode, int kappa, Rcpp::NumericVector seed, bool keep_estimates,
                           Rcpp::IntegerVector mult) {
  const int n = x.size();
  const pgbb::ResamplePlan plan = make_plan(n, m, B, mode, kappa, seed);
  // Clip to the public bounds (see row_major).
  const double lo = num(params, "lower"), hi = num(params, "upper");
  std::vector<double> xc(x.begin(), x.end());
  for (double& v : xc) v = std::min(std::max(v, lo), hi);
  std::unique_ptr<pgbb::SmoothEstimator> est;
  if (kind == "quantile") {
    est.reset(new pgbb::QuantileSsEstimator(xc.data(), n, num(params, "prob"), num(params, "beta"),
                                            num(params, "lower"), num(params, "upper"), num(params, "C")));
  } else if (kind == "ustat_product") {
    est.reset(new pgbb::UStatProductSsEstimator(xc.data(), n, num(params, "beta"), num(params, "lower"),
                                                num(params, "upper")));
  } else {
    Rcpp::stop("internal error: unknown CR-SS estimator '%s'", kind);
  }
  const std::vector<int> mv(mult.begin(), mult.end());
  const bool weighted = mult.size() > 0;
  const double beta = num(params, "beta");
  const pgbb::SsStats st = pgbb_glue::interruptible([&](const pgbb::StopCallback& stop) {
    return pgbb::cr_ss_stats(*est, plan, keep_estimates, stop, weighted ? &mv : nullptr, beta);
  });
  return Rcpp::List::create(Rcpp::Named("theta_hat") = st.theta_hat, Rcpp::Named("ss_full") = st.ss_full,
                            Rcpp::Named("ss_resample_max") = st.ss_resample_max,
                            Rcpp::Named("ss_resample_weighted") = st.ss_resample_weighted,
                            Rcpp::Named("dist") = Rcpp::wrap(st.dist),
                            Rcpp::Named("estimates") = Rcpp::wrap(st.estimates),
                            Rcpp::Named("failed_at") = st.pass.failed_at + 1,
                            Rcpp::Named("failed_mult") = st.pass.failed_mult);
}

// [[Rcpp::export]]
Rcpp::List cpp_cr_ss_release(double theta_hat, double ss_full, double beta, double Q, double tau_s, int kappa,
                             double mu, double delta, Rcpp::NumericVector seed) {
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  const pgbb::SsRelease r = pgbb::cr_ss_release(theta_hat, ss_full, beta, Q, tau_s, kappa, mu, delta, rng);
  return Rcpp::List::create(Rcpp::Named("center") = r.center.value, Rcpp::Named("center_bound") = r.center.bound,
                            Rcpp::Named("q_tilde") = r.radius.value, Rcpp::Named("radius_bound") = r.radius.bound);
}


// [[Rcpp::export]]
Rcpp::NumericVector cpp_ss_quantile(Rcpp::NumericVector x, double prob, double beta, double lower, double upper,
                                    double C) {
  pgbb::QuantileSsEstimator est(x.begin(), x.size(), prob, beta, lower, upper, C);
  double ss = 0.0;
  const double th = est.full(&ss);
  const int ks = pgbb::quantile_kstar(x.size(), beta, upper - lower, C);
  return Rcpp::NumericVector::create(Rcpp::Named("ss") = ss, Rcpp::Named("estimate") = th,
                                     Rcpp::Named("k_star") = ks);
}

// [[Rcpp::export]]
Rcpp::NumericVector cpp_ss_ustat_product(Rcpp::NumericVector x, double beta, double lower, double upper) {
  pgbb::UStatProductSsEstimator est(x.begin(), x.size(), beta, lower, upper);
  double ss = 0.0;
  const double th = est.full(&ss);
  return Rcpp::NumericVector::create(Rcpp::Named("ss") = ss, Rcpp::Named("estimate") = th);
}

// [[Rcpp::export]]
double cpp_sgd_t0(double c, double a, double L, double lambda) { return pgbb::sgd_t0(c, a, L, lambda); }

// [[Rcpp::export]]
Rcpp::NumericVector cpp_sgd_default_schedule(double a, double L, double lambda) {
  const std::pair<double, double> r = pgbb::sgd_default_schedule(a, L, lambda);
  return Rcpp::NumericVector::create(Rcpp::Named("t0") = r.first, Rcpp::Named("c") = r.second);
}

// [[Rcpp::export]]
Rcpp::NumericVector cpp_std_normals(int k, Rcpp::NumericVector seed) {
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  Rcpp::NumericVector out(k);
  for (int i = 0; i < k; ++i) out[i] = rng.normal();
  return out;
}

// [[Rcpp::export]]
Rcpp::List cpp_blbquant(Rcpp::NumericVector x, std::string kind, double prob, double lower, double upper,
                        double eps_center, double sens, double eps_search, int blocks, int n_mc, double alpha,
                        double step, int K, Rcpp::NumericVector seed) {
  pgbb::BlbSpec sp;
  sp.kind = kind == "mean" ? pgbb::BlbKind::Mean
          : kind == "quantile" ? pgbb::BlbKind::Quantile
          : kind == "ustat_product" ? pgbb::BlbKind::UStatProduct
          : throw std::invalid_argument("BLBQuant: unknown estimator");
  sp.prob = prob; sp.lo = lower; sp.hi = upper; sp.eps = eps_center; sp.sens = sens;
  std::vector<double> xc(x.begin(), x.end());
  for (double& v : xc) v = std::min(std::max(v, lower), upper);
  const pgbb::BlbQuantResult r =
      pgbb::blbquant(xc, sp, eps_search, blocks, n_mc, alpha, step, K, pgbb_glue::seed_from(seed));
  return Rcpp::List::create(Rcpp::Named("center") = r.center, Rcpp::Named("k") = r.k,
                            Rcpp::Named("blocks") = r.blocks);
}
