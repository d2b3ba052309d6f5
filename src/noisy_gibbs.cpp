// Rcpp glue for NoisyGibbs (exponential families and linear regression):
// convert, call the core, wrap. Calibration and validation live in R/noisy-gibbs.R.
#include <RcppEigen.h>

#include "core/noisy_gibbs.h"
#include "core/noisy_gibbs_linear.h"
#include "core/noisy_gibbs_marginal.h"
#include "glue.h"
#include "interrupt.h"

static pgbb::GibbsSchedule schedule_from(double iterations, double burn_in, double thin) {
  pgbb::GibbsSchedule sch;
  sch.iterations = static_cast<int64_t>(iterations);
  sch.burn_in = static_cast<int64_t>(burn_in);
  sch.thin = static_cast<int64_t>(thin);
  sch.validate();
  return sch;
}

// Clipped sum plus grid Gaussian noise of sd sigma (sensitivity upper - lower):
// the only data access of the exponential-family release.
// [[Rcpp::export]]
double cpp_ng_expfam_release(Rcpp::NumericVector x, double lower, double upper, double sigma,
                             Rcpp::NumericVector seed) {
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  std::vector<double> v{pgbb::clipped_sum(x.begin(), x.size(), lower, upper)};
  pgbb::gaussian_release(v, sigma, upper - lower, rng);
  return v[0];
}

// [[Rcpp::export]]
Rcpp::List cpp_ng_expfam_gibbs(std::string family, double z, double noise_sd, double n,
                               double lower, double upper, double known_sd, double prior_a,
                               double prior_b, double iterations, double burn_in, double thin,
                               Rcpp::NumericVector seed) {
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  pgbb::ExpFamilyModel model;
  if (family == "gaussian") {
    model.family = pgbb::ExpFamily::Gaussian;
    model.known_sd = known_sd;
    model.prior_mean = prior_a;
    model.prior_var = prior_b;
  } else if (family == "exponential") {
    model.family = pgbb::ExpFamily::Exponential;
    model.prior_shape = prior_a;
    model.prior_rate = prior_b;
  } else {
    Rcpp::stop("internal error: unknown family");
  }
  const pgbb::ExpFamilyDraws d = pgbb_glue::interruptible([&](const pgbb::StopCallback& stop) {
    return pgbb::noisy_gibbs_expfam(model, z, noise_sd, static_cast<int64_t>(n), lower, upper,
                                    schedule_from(iterations, burn_in, thin), rng, stop);
  });
  return Rcpp::List::create(Rcpp::Named("theta") = Rcpp::wrap(d.theta),
                            Rcpp::Named("latent") = Rcpp::wrap(d.latent));
}


// The three Gaussian-mechanism releases of SM S3.2 (the only data access);
// sens: their l2 sensitivities, in the same order.
// [[Rcpp::export]]
Rcpp::List cpp_ng_linear_release(Rcpp::NumericMatrix x, Rcpp::NumericVector y, double bound_x,
                                 double bound_y, double sigma_s, double sigma_2, double sigma_4,
                                 Rcpp::NumericVector sens, Rcpp::NumericVector seed) {
  if (sens.size() != 3) Rcpp::stop("internal error: three sensitivities expected");
  if (y.size() != x.nrow()) Rcpp::stop("internal error: x and y lengths differ");
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  const pgbb::LinearStatistics st =
      pgbb::linear_statistics(x.begin(), y.begin(), x.nrow(), x.ncol(), bound_x, bound_y);
  std::vector<double> s(st.s.data(), st.s.data() + st.s.size());
  std::vector<double> m2(st.m2.data(), st.m2.data() + st.m2.size());
  std::vector<double> m4(st.m4.data(), st.m4.data() + st.m4.size());
  pgbb::gaussian_release(s, sigma_s, sens[0], rng);
  pgbb::gaussian_release(m2, sigma_2, sens[1], rng);
  pgbb::gaussian_release(m4, sigma_4, sens[2], rng);
  return Rcpp::List::create(Rcpp::Named("s") = s, Rcpp::Named("m2") = m2, Rcpp::Named("m4") = m4);
}

// The normal-inverse-gamma prior of both linear samplers.
pgbb::NigPrior nig_prior(const Eigen::VectorXd& mean, const Eigen::MatrixXd& precision, double shape, double rate) {
  pgbb::NigPrior prior;
  prior.mean = mean;
  prior.precision = precision;
  prior.shape = shape;
  prior.rate = rate;
  return prior;
}

// [[Rcpp::export]]
Rcpp::List cpp_ng_linear_gibbs(Eigen::VectorXd z, double noise_sd, Eigen::VectorXd m2,
                               Eigen::VectorXd m4, double n, int p, Eigen::VectorXd prior_mean,
                               Eigen::MatrixXd prior_precision, double prior_shape,
                               double prior_rate, double iterations, double burn_in, double thin,
                               Rcpp::NumericVector seed) {
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  const pgbb::NigPrior prior = nig_prior(prior_mean, prior_precision, prior_shape, prior_rate);
  const pgbb::LinearDraws d = pgbb_glue::interruptible([&](const pgbb::StopCallback& stop) {
    return pgbb::noisy_gibbs_linear(z, noise_sd, m2, m4, static_cast<int64_t>(n), p, prior,
                                    schedule_from(iterations, burn_in, thin), rng, stop);
  });
  return Rcpp::List::create(Rcpp::Named("theta") = Rcpp::wrap(d.theta),
                            Rcpp::Named("sigma2") = Rcpp::wrap(d.sigma2),
                            Rcpp::Named("rejections") = static_cast<double>(d.rejections),
                            Rcpp::Named("stays") = static_cast<double>(d.stays));
}

// The marginal sampler of the linear model (core/noisy_gibbs_marginal.h): the same
// inputs as cpp_ng_linear_gibbs, post-processing of the release only.
// [[Rcpp::export]]
Rcpp::List cpp_ng_linear_marginal(Eigen::VectorXd z, double noise_sd, Eigen::VectorXd m2,
                                  Eigen::VectorXd m4, double n, int p, Eigen::VectorXd prior_mean,
                                  Eigen::MatrixXd prior_precision, double prior_shape,
                                  double prior_rate, double iterations, double burn_in, double thin,
                                  Rcpp::NumericVector seed) {
  pgbb::Rng rng = pgbb_glue::rng_from(seed);
  const pgbb::NigPrior prior = nig_prior(prior_mean, prior_precision, prior_shape, prior_rate);
  const pgbb::MarginalDraws d = pgbb_glue::interruptible([&](const pgbb::StopCallback& stop) {
    return pgbb::noisy_marginal_linear(z, noise_sd, m2, m4, static_cast<int64_t>(n), p, prior,
                                       schedule_from(iterations, burn_in, thin), rng, stop);
  });
  return Rcpp::List::create(Rcpp::Named("theta") = Rcpp::wrap(d.theta),
                            Rcpp::Named("sigma2") = Rcpp::wrap(d.sigma2),
                            Rcpp::Named("acceptance") = d.acceptance,
                            Rcpp::Named("scale") = d.scale,
                            Rcpp::Named("proposal") = Rcpp::wrap(d.proposal));
}
