// NoisyGibbs for linear regression, marginal sampler: a random-walk Metropolis
// chain on (theta, log sigma^2) whose target has the latent sufficient statistic
// integrated out.
//
// Bernstein & Sheldon (2019) model the true statistic s = (vech X'X, X'y, y'y)
// by its central-limit normal approximation, s | theta, sigma^2 ~ N(n mu_t, n Sigma_t)
// (their equations (2)-(3), with the released noisy moments m2, m4 standing in for
// the covariate moments eta_ij, eta_ijkl; SM S3.2 of the PGBB paper), and the
// release by z | s ~ N(s, tau^2 I). Both are Gaussian, so s integrates out in
// closed form:
//   p(theta, sigma^2 | z)  propto  prior(theta, sigma^2) N(z; n mu_t, n Sigma_t + tau^2 I).
// The latent-statistic Gibbs sampler (noisy_gibbs_linear.h) targets the same
// posterior except for the truncation of s to valid Gram matrices, whose
// probability under N(n mu_t, n Sigma_t) is 1 up to a negligible tail for sigma^2 > 0
// at the sample sizes the CLT model needs anyway. Why a marginal chain: the Gibbs
// sampler's theta-moves are of the size of the non-private standard error while the
// posterior spread is set by the privacy noise, so at low budgets it needs 1e4-1e5
// iterations per effective draw (issue 21); the marginal chain moves on the scale of
// the posterior itself.
//
// Proposal: Gaussian random walk N(0, c^2 S) on u = (theta, log sigma^2). S starts
// from a Laplace approximation (the inverse negative Hessian of the log target at the
// starting point, by finite differences); during burn-in S is re-estimated from the
// chain's own history in windows of doubling length (Haario et al. 2001) and c is
// tuned towards acceptance 0.234 (Roberts et al. 1997). Both are frozen when burn-in
// ends, so the kept draws come from one time-homogeneous Metropolis kernel, which
// leaves the target invariant; adaptation only chooses that kernel. The sampler reads
// only the released statistics (post-processing).
//
// Plain C++17 + Eigen, no R headers.
#ifndef PGBB_CORE_NOISY_GIBBS_MARGINAL_H
#define PGBB_CORE_NOISY_GIBBS_MARGINAL_H

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "noisy_gibbs_linear.h"

namespace pgbb {

/// @brief Log of the marginal posterior density of u = (theta, log sigma^2) (up to a
/// constant), including the Jacobian sigma^2 of the log transform.
class LinearMarginalTarget {
 public:
  LinearMarginalTarget(const Eigen::VectorXd& z, double noise_sd, const Eigen::VectorXd& m2,
                       const Eigen::VectorXd& m4, int64_t n, int p, const NigPrior& prior)
      : model_(m2, m4, p), z_(z), tau2_(noise_sd * noise_sd), n_(static_cast<double>(n)),
        prior_(prior) {}

  double operator()(const Eigen::VectorXd& u) {
    const int p = model_.index().p();
    const double v = u[p];
    const double sigma2 = std::exp(v);
    if (!std::isfinite(v) || !(sigma2 > 0.0) || !std::isfinite(sigma2) || !u.allFinite())
      return -std::numeric_limits<double>::infinity();
    const Eigen::VectorXd theta = u.head(p);
    model_.moments(theta, sigma2, mean_t_, cov_t_);
    cov_t_ *= n_;
    cov_t_.diagonal().array() += tau2_;
    Eigen::LLT<Eigen::MatrixXd> llt(cov_t_);
    if (llt.info() != Eigen::Success) return -std::numeric_limits<double>::infinity();
    const Eigen::VectorXd r = llt.matrixL().solve(z_ - n_ * mean_t_);
    const double logdet = 2.0 * llt.matrixLLT().diagonal().array().log().sum();
    // Normal-inverse-gamma prior: theta | sigma^2 ~ N(m0, sigma^2 Lambda0^{-1}),
    // sigma^2 ~ IG(a0, b0); plus v for d sigma^2 = sigma^2 dv.
    const Eigen::VectorXd dm = theta - prior_.mean;
    const double lp_theta = -0.5 * p * v - 0.5 * dm.dot(prior_.precision * dm) / sigma2;
    const double lp_s2 = -(prior_.shape + 1.0) * v - prior_.rate / sigma2;
    const double out = -0.5 * logdet - 0.5 * r.squaredNorm() + lp_theta + lp_s2 + v;
    return std::isfinite(out) ? out : -std::numeric_limits<double>::infinity();
  }
  LinearMomentModel& model() { return model_; }

 private:
  LinearMomentModel model_;
  Eigen::VectorXd z_;
  double tau2_, n_;
  NigPrior prior_;
  Eigen::VectorXd mean_t_;
  Eigen::MatrixXd cov_t_;
};

/// @brief Kept draws of the marginal chain and its proposal diagnostics.
struct MarginalDraws {
  Eigen::MatrixXd theta;        // kept x p
  Eigen::VectorXd sigma2;       // kept
  double acceptance = 0.0;      // acceptance rate over the kept part of the chain
  double scale = 0.0;           // final proposal scale c
  Eigen::MatrixXd proposal;     // final proposal covariance c^2 S, on (theta, log sigma^2)
};

namespace detail {

/// Symmetric positive-definite repair: eigenvalues floored at `floor_rel` times the
/// largest (and at an absolute 1e-300), so a near-singular estimate still gives a
/// proper random-walk covariance.
inline Eigen::MatrixXd spd_floor(const Eigen::MatrixXd& a, double floor_rel) {
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(0.5 * (a + a.transpose()));
  if (es.info() != Eigen::Success) return Eigen::MatrixXd::Identity(a.rows(), a.cols()) * 1e-4;
  Eigen::VectorXd ev = es.eigenvalues();
  const double top = std::max(ev.cwiseAbs().maxCoeff(), 1e-300);
  ev = ev.cwiseMax(floor_rel * top);
  return es.eigenvectors() * ev.asDiagonal() * es.eigenvectors().transpose();
}

/// Laplace-type starting covariance: inverse of the negative finite-difference
/// Hessian of f at u (eigenvalues of the Hessian that are not negative, where u is
/// not near a mode, are replaced by the largest curvature found, i.e. a small step).
template <class F>
inline Eigen::MatrixXd laplace_covariance(F& f, const Eigen::VectorXd& u) {
  const int dim = static_cast<int>(u.size());
  Eigen::MatrixXd h(dim, dim);
  Eigen::VectorXd step(dim);
  for (int i = 0; i < dim; ++i) step[i] = 1e-4 * std::max(1.0, std::fabs(u[i]));
  for (int i = 0; i < dim; ++i)
    for (int j = i; j < dim; ++j) {
      Eigen::VectorXd a = u, b = u, c = u, e = u;
      a[i] += step[i]; a[j] += step[j];
      b[i] += step[i]; b[j] -= step[j];
      c[i] -= step[i]; c[j] += step[j];
      e[i] -= step[i]; e[j] -= step[j];
      const double hij = (f(a) - f(b) - f(c) + f(e)) / (4.0 * step[i] * step[j]);
      h(i, j) = h(j, i) = hij;
    }
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(-h);
  Eigen::VectorXd ev = es.eigenvalues();
  if (es.info() != Eigen::Success || !ev.allFinite() || !(ev.maxCoeff() > 0.0))
    return Eigen::MatrixXd::Identity(dim, dim) * 1e-4;
  const double top = ev.maxCoeff();
  for (int i = 0; i < dim; ++i)
    if (!(ev[i] > 1e-10 * top)) ev[i] = top;
  return es.eigenvectors() * ev.cwiseInverse().asDiagonal() * es.eigenvectors().transpose();
}

}  // namespace detail

/// @brief Marginal random-walk Metropolis sampler of p(theta, sigma^2 | z) (see the
/// file comment). `start` is (theta, sigma^2) to begin from (e.g. the conjugate
/// posterior mean given a valid Gram matrix built from the release).
inline MarginalDraws noisy_marginal_linear(const Eigen::VectorXd& z, double noise_sd,
                                           const Eigen::VectorXd& m2, const Eigen::VectorXd& m4,
                                           int64_t n, int p, const NigPrior& prior,
                                           const GibbsSchedule& schedule, Rng& rng,
                                           const StopCallback& should_stop = nullptr) {
  schedule.validate();
  const MomentIndex ix(p);
  detail::check_linear_release(z, m2, m4, n, ix);
  if (!(noise_sd > 0.0) || !std::isfinite(noise_sd))
    throw std::invalid_argument("NoisyGibbs (linear, marginal): the noise scale must be positive and finite");
  detail::check_nig_prior(prior, p);
  const int dim = p + 1;
  const double nd = static_cast<double>(n);
  LinearMarginalTarget target(z, noise_sd, m2, m4, n, p, prior);

  // Start as the Gibbs sampler does: the conjugate posterior mean given a valid
  // Gram matrix built from the release.
  Eigen::VectorXd theta(p);
  double sigma2 = 1.0;
  if (!detail::nig_draw(detail::start_statistic(z, ix, nd, target.model().eta2()), ix, nd, prior,
                        rng, theta, sigma2, false))
    throw std::runtime_error("NoisyGibbs (linear): could not initialise the chain");
  Eigen::VectorXd u(dim);
  u.head(p) = theta;
  u[p] = std::log(sigma2);
  double lp = target(u);
  if (!std::isfinite(lp)) {  // e.g. sigma2 far out: retry at the prior's scale
    u[p] = std::log(prior.rate / (prior.shape + 1.0));
    lp = target(u);
    if (!std::isfinite(lp)) throw std::runtime_error("NoisyGibbs (linear): the starting point has zero density");
  }

  Eigen::MatrixXd cov = detail::spd_floor(detail::laplace_covariance(target, u), 1e-12);
  double log_c = std::log(2.38 / std::sqrt(static_cast<double>(dim)));
  auto factor = [&](const Eigen::MatrixXd& c) {
    Eigen::LLT<Eigen::MatrixXd> llt(c);
    if (llt.info() != Eigen::Success) return Eigen::MatrixXd(Eigen::MatrixXd::Identity(dim, dim) * 1e-2);
    return Eigen::MatrixXd(llt.matrixL());
  };
  Eigen::MatrixXd chol = factor(cov);

  // Adaptation windows during burn-in: lengths 500, 1000, 2000, ... (the last one
  // runs to the end of burn-in). At a window's end S becomes the window's sample
  // covariance (if it has moved enough to estimate one) and log c moves by
  // (acceptance - 0.234) scaled as in Robbins-Monro.
  int64_t win_start = 1, win_len = 500;
  Eigen::VectorXd wsum = Eigen::VectorXd::Zero(dim);
  Eigen::MatrixXd wsq = Eigen::MatrixXd::Zero(dim, dim);
  int64_t wacc = 0, kept_acc = 0, window_id = 0;

  MarginalDraws out;
  const int64_t kept = schedule.kept();
  out.theta.resize(kept, p);
  out.sigma2.resize(kept);
  Eigen::VectorXd xi(dim), prop(dim);
  int64_t kept_i = 0;
  for (int64_t t = 1; t <= schedule.iterations; ++t) {
    poll_stop(should_stop, t, kGibbsPollEvery);
    for (int i = 0; i < dim; ++i) xi[i] = rng.normal();
    prop = u + std::exp(log_c) * (chol * xi);
    const double lp_prop = target(prop);
    const bool accept = std::isfinite(lp_prop) && std::log(rng.uniform()) < lp_prop - lp;
    if (accept) {
      u = prop;
      lp = lp_prop;
    }
    if (t <= schedule.burn_in) {
      wacc += accept;
      wsum += u;
      wsq.noalias() += u * u.transpose();
      const int64_t len = t - win_start + 1;
      const bool last = (t == schedule.burn_in);
      if ((len >= win_len && schedule.burn_in - t >= win_len) || last) {
        const double rate = static_cast<double>(wacc) / static_cast<double>(len);
        ++window_id;
        log_c += (rate - 0.234) / std::sqrt(static_cast<double>(window_id));
        if (wacc >= 20 && len >= 4 * dim) {
          const Eigen::VectorXd mean = wsum / static_cast<double>(len);
          Eigen::MatrixXd c = wsq / static_cast<double>(len) - mean * mean.transpose();
          c *= static_cast<double>(len) / static_cast<double>(len - 1);
          if (c.allFinite() && c.diagonal().minCoeff() > 0.0) {
            cov = detail::spd_floor(c, 1e-10);
            chol = factor(cov);
            // The sample covariance is the target's; start again from the optimal
            // 2.38 / sqrt(dim) scale and keep tuning from there.
            log_c = std::log(2.38 / std::sqrt(static_cast<double>(dim)));
            window_id = 0;
          }
        }
        win_start = t + 1;
        win_len *= 2;
        wacc = 0;
        wsum.setZero();
        wsq.setZero();
      }
    } else {
      kept_acc += accept;
    }
    if (schedule.keep(t)) {
      out.theta.row(kept_i) = u.head(p).transpose();
      out.sigma2[kept_i] = std::exp(u[p]);
      ++kept_i;
    }
  }
  out.acceptance = static_cast<double>(kept_acc) /
                   static_cast<double>(schedule.iterations - schedule.burn_in);
  out.scale = std::exp(log_c);
  out.proposal = out.scale * out.scale * cov;
  return out;
}

}  // namespace pgbb

#endif  // PGBB_CORE_NOISY_GIBBS_MARGINAL_H
