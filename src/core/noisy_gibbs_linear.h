// NoisyGibbs for linear regression (Bernstein & Sheldon 2019), as configured in
// the PGBB paper, SM S3.2.
//
// Release: with covariates clipped to [-B_x, B_x] per coordinate and the response
// to [-B_y, B_y], three Gaussian-mechanism releases
//   s   = (unique entries of X'X, X'y, y'y)                sensitivity Delta
//   m2  = unique second moments (1/n) sum x_j x_k          sensitivity Delta_2
//   m4  = unique fourth moments (1/n) sum x_j x_k x_l x_m  sensitivity Delta_4
// (sensitivities and budget split are computed in R; see R/noisy-gibbs.R).
//
// Sampler (the noise-aware Gibbs sampler of Bernstein & Sheldon 2019): the
// parameters (theta, sigma^2) and the latent true statistic s alternate:
//  (1) (theta, sigma^2) | s: the exact normal-inverse-gamma posterior, since the
//      Gaussian linear model's likelihood depends on the data only through s;
//  (2) s | theta, sigma^2, z  propto  N(s; n mu_t, n Sigma_t) N(z; s, tau^2 I): the
//      CLT approximation of p(s | theta, sigma^2) whose mean and covariance are
//      written in the covariate moments eta_ij, eta_ijkl (their equations (2)-(3)),
//      here the released noisy m2, m4; truncated to the set V where s is the
//      statistic of some data set (the Gram matrix [X'X X'y; y'X y'y] positive
//      definite). The truncated conditional is sampled by up to `max_tries`
//      proposals from the untruncated one, taking the first inside V and keeping
//      the current s if none is: the kernel is (1 - p_fail) pi + p_fail delta_s with
//      p_fail independent of s, so it leaves the truncated conditional pi invariant
//      (a valid Metropolis-within-Gibbs step; with one try it is the independence
//      sampler whose acceptance ratio is 1_V(s')).
#ifndef PGBB_CORE_NOISY_GIBBS_LINEAR_H
#define PGBB_CORE_NOISY_GIBBS_LINEAR_H

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "exact_sum.h"
#include "noisy_gibbs.h"
#include "rng.h"

namespace pgbb {

/// @brief Index bookkeeping for the unique entries of x x' (q = p(p+1)/2, pairs
/// j <= k in row order) and of the fourth-order products (C(p+3, 4) tuples
/// j <= k <= l <= m in lexicographic order).
class MomentIndex {
 public:
  explicit MomentIndex(int p) : p_(p) {
    if (p < 1) throw std::invalid_argument("NoisyGibbs (linear): need at least one covariate");
    if (p > 40) throw std::invalid_argument("NoisyGibbs (linear): at most 40 covariates are supported");
    pair_.assign(static_cast<size_t>(p) * p, -1);
    int idx = 0;
    for (int j = 0; j < p; ++j)
      for (int k = j; k < p; ++k) {
        pair_[j * p + k] = pair_[k * p + j] = idx++;
        pairs_.push_back({j, k});
      }
    q_ = idx;
    quad_.assign(static_cast<size_t>(p) * p * p * p, -1);
    idx = 0;
    for (int j = 0; j < p; ++j)
      for (int k = j; k < p; ++k)
        for (int l = k; l < p; ++l)
          for (int m = l; m < p; ++m) quad_[((j * p + k) * p + l) * p + m] = idx++;
    q4_ = idx;
  }
  int p() const { return p_; }
  int q() const { return q_; }             // number of unique second moments
  int q4() const { return q4_; }           // number of unique fourth moments
  int d() const { return q_ + p_ + 1; }    // length of s = (vech X'X, X'y, y'y)
  int pair(int j, int k) const { return pair_[j * p_ + k]; }
  int quad(int j, int k, int l, int m) const {
    int a[4] = {j, k, l, m};
    std::sort(a, a + 4);
    return quad_[((a[0] * p_ + a[1]) * p_ + a[2]) * p_ + a[3]];
  }
  const std::vector<std::pair<int, int>>& pairs() const { return pairs_; }

 private:
  int p_, q_ = 0, q4_ = 0;
  std::vector<int> pair_, quad_;
  std::vector<std::pair<int, int>> pairs_;
};

/// @brief The exact (pre-noise) statistics of the clipped data.
struct LinearStatistics {
  Eigen::VectorXd s;   // (vech X'X, X'y, y'y), length d
  Eigen::VectorXd m2;  // length q, means
  Eigen::VectorXd m4;  // length q4, means
};

/// @brief Clip covariates to [-bound_x, bound_x] and the response to
/// [-bound_y, bound_y] (public bounds), then compute s, m2 and m4. x is
/// column-major n x p.
inline LinearStatistics linear_statistics(const double* x, const double* y, int64_t n, int p,
                                          double bound_x, double bound_y) {
  if (n < 1) throw std::invalid_argument("NoisyGibbs (linear): need at least one record");
  if (!(bound_x > 0.0) || !(bound_y > 0.0) || !std::isfinite(bound_x) || !std::isfinite(bound_y))
    throw std::invalid_argument("NoisyGibbs (linear): the bounds must be positive and finite");
  const MomentIndex ix(p);
  LinearStatistics st;
  st.s = Eigen::VectorXd::Zero(ix.d());
  st.m4 = Eigen::VectorXd::Zero(ix.q4());
  // Every sum is exact (exact_sum.h), one accumulator per group of products
  // with its own public bound, so no rounding depends on the other records.
  const double nd0 = static_cast<double>(n), bx2 = bound_x * bound_x;
  ExactSum sxx(ix.q(), nd0 * bx2), sxy(p, nd0 * bound_x * bound_y), syy(1, nd0 * bound_y * bound_y),
      s4(ix.q4() > 0 ? ix.q4() : 1, nd0 * bx2 * bx2);
  std::vector<double> xi(p);
  for (int64_t i = 0; i < n; ++i) {
    for (int j = 0; j < p; ++j)
      xi[j] = std::min(std::max(x[i + static_cast<int64_t>(j) * n], -bound_x), bound_x);
    const double yi = std::min(std::max(y[i], -bound_y), bound_y);
    for (int j = 0; j < p; ++j) {
      for (int k = j; k < p; ++k) {
        const double xjk = xi[j] * xi[k];
        sxx.add(ix.pair(j, k), xjk);
        for (int l = k; l < p; ++l) {
          const double xjkl = xjk * xi[l];
          for (int m = l; m < p; ++m) s4.add(ix.quad(j, k, l, m), xjkl * xi[m]);
        }
      }
      sxy.add(j, xi[j] * yi);
    }
    syy.add(0, yi * yi);
  }
  sxx.write(st.s.data());
  sxy.write(st.s.data() + ix.q());
  syy.write(st.s.data() + ix.d() - 1);
  if (ix.q4() > 0) s4.write(st.m4.data());
  const double nd = static_cast<double>(n);
  st.m2 = st.s.head(ix.q()) / nd;
  st.m4 /= nd;
  return st;
}

/// @brief Normal-inverse-gamma prior: sigma^2 ~ InvGamma(shape, rate),
/// theta | sigma^2 ~ N(mean, sigma^2 precision^{-1}).
struct NigPrior {
  Eigen::VectorXd mean;
  Eigen::MatrixXd precision;
  double shape = 1.0;
  double rate = 1.0;
};

/// @brief Kept draws: theta (kept x p, column-major) and sigma^2.
struct LinearDraws {
  Eigen::MatrixXd theta;
  Eigen::VectorXd sigma2;
  int64_t rejections = 0;  // latent proposals rejected for leaving the valid set
  int64_t stays = 0;       // iterations where every proposal was rejected (s kept)
};

namespace detail {

/// Symmetric PSD projection (negative eigenvalues set to zero) and a square root
/// factor R with R R' equal to the projection.
inline void psd_project(const Eigen::MatrixXd& a, Eigen::MatrixXd& proj, Eigen::MatrixXd& root) {
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(0.5 * (a + a.transpose()));
  if (es.info() != Eigen::Success)
    throw std::runtime_error("NoisyGibbs (linear): eigen-decomposition of a moment matrix failed");
  const Eigen::VectorXd ev = es.eigenvalues().cwiseMax(0.0);
  root = es.eigenvectors() * ev.cwiseSqrt().asDiagonal();
  proj = root * root.transpose();
}

/// The Gram matrix G = [X'X X'y; y'X y'y] built from s.
inline Eigen::MatrixXd gram_from_s(const Eigen::VectorXd& s, const MomentIndex& ix) {
  const int p = ix.p();
  Eigen::MatrixXd g(p + 1, p + 1);
  for (int j = 0; j < p; ++j) {
    for (int k = 0; k < p; ++k) g(j, k) = s[ix.pair(j, k)];
    g(j, p) = g(p, j) = s[ix.q() + j];
  }
  g(p, p) = s[ix.d() - 1];
  return g;
}

/// Draw (theta, sigma^2) from the normal-inverse-gamma posterior given s. Returns
/// false if s does not define a proper posterior (never for a valid s).
inline bool nig_draw(const Eigen::VectorXd& s, const MomentIndex& ix, double n, const NigPrior& prior,
                     Rng& rng, Eigen::VectorXd& theta, double& sigma2, bool draw = true) {
  const int p = ix.p();
  Eigen::MatrixXd lam = prior.precision;
  Eigen::VectorXd xy(p);
  for (int j = 0; j < p; ++j) {
    for (int k = 0; k < p; ++k) lam(j, k) += s[ix.pair(j, k)];
    xy[j] = s[ix.q() + j];
  }
  Eigen::LLT<Eigen::MatrixXd> llt(lam);
  if (llt.info() != Eigen::Success) return false;
  const Eigen::VectorXd mn = llt.solve(prior.precision * prior.mean + xy);
  const double an = prior.shape + 0.5 * n;
  const double bn = prior.rate + 0.5 * (s[ix.d() - 1] + prior.mean.dot(prior.precision * prior.mean) -
                                        mn.dot(lam * mn));
  if (!(bn > 0.0) || !std::isfinite(bn)) return false;
  if (!draw) {  // posterior mode-ish start: mean of theta, mean of sigma^2 (an > 1) or bn / an
    theta = mn;
    sigma2 = bn / (an > 1.0 ? an - 1.0 : an);
    return true;
  }
  sigma2 = bn / rng.gamma(an);
  Eigen::VectorXd xi(p);
  for (int j = 0; j < p; ++j) xi[j] = rng.normal();
  // theta = mn + sigma L^{-T} xi has covariance sigma^2 (L L')^{-1} = sigma^2 lam^{-1}.
  theta = mn + std::sqrt(sigma2) * llt.matrixU().solve(xi);
  return true;
}

/// Starting statistic of both linear samplers: X'X from the moment release n eta2
/// (sensitivity O(1/n), far less noisy than the X'X block of z), X'y and y'y from z,
/// with y'y raised if needed so that the Gram matrix is positive definite. Only the
/// starting point (post-processing of the release): it shortens burn-in, the chains'
/// targets do not depend on it.
inline Eigen::VectorXd start_statistic(const Eigen::VectorXd& z, const MomentIndex& ix, double nd,
                                       const Eigen::MatrixXd& eta2) {
  const int p = ix.p(), q = ix.q(), d = ix.d();
  Eigen::VectorXd s0 = z;
  Eigen::MatrixXd xx = nd * eta2;
  xx.diagonal().array() += 1e-8 * (1.0 + xx.diagonal().maxCoeff());
  for (int a = 0; a < q; ++a) s0[a] = xx(ix.pairs()[a].first, ix.pairs()[a].second);
  const Eigen::VectorXd xy = z.segment(q, p);
  const double fitted = xy.dot(xx.ldlt().solve(xy));
  const double floor_yy = fitted + 0.05 * std::max(std::fabs(z[d - 1]), 1.0);
  if (!(s0[d - 1] > floor_yy)) s0[d - 1] = floor_yy;
  return s0;
}

/// Checks of the released statistics shared by the Gibbs and the marginal sampler.
inline void check_linear_release(const Eigen::VectorXd& z, const Eigen::VectorXd& m2, const Eigen::VectorXd& m4,
                                 int64_t n, const MomentIndex& ix) {
  if (z.size() != ix.d() || m2.size() != ix.q() || m4.size() != ix.q4())
    throw std::invalid_argument("NoisyGibbs (linear): released statistics have the wrong length");
  if (!z.allFinite() || !m2.allFinite() || !m4.allFinite())
    throw std::invalid_argument("NoisyGibbs (linear): released statistics must be finite");
  if (n < 1) throw std::invalid_argument("NoisyGibbs (linear): need at least one record");
}

/// Checks of the normal-inverse-gamma prior shared by both samplers.
inline void check_nig_prior(const NigPrior& prior, int p) {
  if (prior.mean.size() != p || prior.precision.rows() != p || prior.precision.cols() != p)
    throw std::invalid_argument("NoisyGibbs (linear): the prior has the wrong dimension");
  if (Eigen::LLT<Eigen::MatrixXd>(prior.precision).info() != Eigen::Success)
    throw std::invalid_argument("NoisyGibbs (linear): the prior precision must be positive definite");
  if (!(prior.shape > 0.0) || !(prior.rate > 0.0))
    throw std::invalid_argument("NoisyGibbs (linear): the inverse-gamma prior needs positive shape and rate");
}

}  // namespace detail

/// @brief The CLT moment model of s given (theta, sigma^2), built once from the
/// released moments (m2, m4), both projected onto the PSD cone once (post-processing;
/// it makes every Sigma_t a proper covariance): t = (u, A(theta) u + x eps, w(theta)'u + 2 eps x'theta + eps^2),
/// u = vech(x x'), so Sigma_t = L(theta) Cov(u) L(theta)' + E(theta, sigma^2). Shared
/// by the Gibbs sampler (which also needs the square roots r2 of eta2 and lr of
/// L Cov(u) L' to draw s) and the marginal sampler (noisy_gibbs_marginal.h).
class LinearMomentModel {
 public:
  LinearMomentModel(const Eigen::VectorXd& m2, const Eigen::VectorXd& m4, int p) : ix_(p) {
    const int q = ix_.q();
    Eigen::MatrixXd eta2_raw(p, p);
    for (int j = 0; j < p; ++j)
      for (int k = 0; k < p; ++k) eta2_raw(j, k) = m2[ix_.pair(j, k)];
    detail::psd_project(eta2_raw, eta2_, r2_);
    mu_u_.resize(q);
    for (int a = 0; a < q; ++a) mu_u_[a] = eta2_(ix_.pairs()[a].first, ix_.pairs()[a].second);
    Eigen::MatrixXd cov_u(q, q);
    for (int a = 0; a < q; ++a)
      for (int b = 0; b < q; ++b) {
        const auto& pa = ix_.pairs()[a];
        const auto& pb = ix_.pairs()[b];
        cov_u(a, b) = m4[ix_.quad(pa.first, pa.second, pb.first, pb.second)] - mu_u_[a] * mu_u_[b];
      }
    Eigen::MatrixXd cov_u_psd;
    detail::psd_project(cov_u, cov_u_psd, r_u_);
    lmat_ = Eigen::MatrixXd::Zero(ix_.d(), q);
    lmat_.topRows(q).setIdentity();
  }
  const MomentIndex& index() const { return ix_; }
  const Eigen::MatrixXd& eta2() const { return eta2_; }
  const Eigen::MatrixXd& r2() const { return r2_; }   // r2 r2' = eta2
  const Eigen::MatrixXd& lr() const { return lr_; }   // L(theta) R_u of the last moments() call

  /// mu_t and Sigma_t at (theta, sigma^2) (per record: the statistic's mean is n mu_t, covariance n Sigma_t).
  void moments(const Eigen::VectorXd& theta, double sigma2, Eigen::VectorXd& mean_t,
               Eigen::MatrixXd& cov_t) {
    const int p = ix_.p(), q = ix_.q(), d = ix_.d();
    // L(theta): rows q..q+p-1 give x x' theta, the last row theta' x x' theta.
    lmat_.bottomRows(p + 1).setZero();
    for (int k = 0; k < p; ++k)
      for (int j = 0; j < p; ++j) {
        lmat_(q + k, ix_.pair(k, j)) += theta[j];
        lmat_(d - 1, ix_.pair(k, j)) += theta[k] * theta[j];
      }
    const Eigen::VectorXd e2t = eta2_ * theta;
    mean_t.resize(d);
    mean_t.head(q) = mu_u_;
    mean_t.segment(q, p) = e2t;
    mean_t[d - 1] = theta.dot(e2t) + sigma2;
    lr_ = lmat_ * r_u_;
    cov_t.noalias() = lr_ * lr_.transpose();
    cov_t.block(q, q, p, p) += sigma2 * eta2_;
    cov_t.block(q, d - 1, p, 1) += 2.0 * sigma2 * e2t;
    cov_t.block(d - 1, q, 1, p) += 2.0 * sigma2 * e2t.transpose();
    cov_t(d - 1, d - 1) += 4.0 * sigma2 * theta.dot(e2t) + 2.0 * sigma2 * sigma2;
  }

 private:
  MomentIndex ix_;
  Eigen::MatrixXd eta2_, r2_, r_u_, lmat_, lr_;
  Eigen::VectorXd mu_u_;
};

/// @brief Noise-aware Gibbs sampler for Bayesian linear regression from the
/// released (z, m2, m4). `noise_sd` is the Gaussian noise scale of z (tau); zero
/// selects the exact-statistic path (s = z, i.i.d. conjugate draws), used to test
/// the conditionals against the closed-form posterior.
///
/// The CLT covariance n Sigma_t is assembled from the moment model
///   t = (u, A(theta) u + x eps, w(theta)'u + 2 eps x'theta + eps^2),  u = vech(x x'),
/// so Sigma_t = L(theta) Cov(u) L(theta)' + E(theta, sigma^2), with Cov(u) =
/// M4 - m2 m2' and E the covariance of the error terms (the cross terms vanish
/// since eps is independent of x with E eps = E eps^3 = 0). The noisy moments can
/// make Cov(u) or the second-moment matrix indefinite; both are projected onto the
/// PSD cone once (post-processing), which makes every Sigma_t a proper covariance.
inline LinearDraws noisy_gibbs_linear(const Eigen::VectorXd& z, double noise_sd,
                                      const Eigen::VectorXd& m2, const Eigen::VectorXd& m4,
                                      int64_t n, int p, const NigPrior& prior,
                                      const GibbsSchedule& schedule, Rng& rng,
                                      const StopCallback& should_stop = nullptr,
                                      int max_tries = 100) {
  schedule.validate();
  const MomentIndex ix(p);
  const int q = ix.q(), d = ix.d();
  detail::check_linear_release(z, m2, m4, n, ix);
  if (!(noise_sd >= 0.0) || !std::isfinite(noise_sd))
    throw std::invalid_argument("NoisyGibbs (linear): the noise scale must be finite and non-negative");
  detail::check_nig_prior(prior, p);
  if (max_tries < 1) throw std::invalid_argument("NoisyGibbs (linear): max_tries must be at least 1");
  const double nd = static_cast<double>(n), sqn = std::sqrt(nd);

  // Moment model from the released moments (post-processing only).
  LinearMomentModel model(m2, m4, p);
  const Eigen::MatrixXd& eta2 = model.eta2();
  const Eigen::MatrixXd& r2 = model.r2();

  LinearDraws out;
  const int64_t kept = schedule.kept();
  out.theta.resize(kept, p);
  out.sigma2.resize(kept);

  // Start: the posterior mean given the released s, made a valid Gram matrix.
  Eigen::VectorXd s = z;
  Eigen::VectorXd theta(p);
  double sigma2 = 1.0;
  if (noise_sd == 0.0) {
    if (!detail::nig_draw(s, ix, nd, prior, rng, theta, sigma2, false))
      throw std::invalid_argument("NoisyGibbs (linear): with zero noise the statistics must be valid");
  } else {
    const Eigen::VectorXd s0 = detail::start_statistic(z, ix, nd, eta2);
    if (!detail::nig_draw(s0, ix, nd, prior, rng, theta, sigma2, false))
      throw std::runtime_error("NoisyGibbs (linear): could not initialise the chain");
    s = s0;
  }

  Eigen::MatrixXd cmat(d, d), kmat(d, d);
  Eigen::VectorXd mean_t(d), s0(d), xi_q(q), g_p(p), eps_part(d);
  const double tau2 = noise_sd * noise_sd;
  int64_t kept_i = 0;
  for (int64_t t = 1; t <= schedule.iterations; ++t) {
    poll_stop(should_stop, t, kGibbsPollEvery);
    if (noise_sd > 0.0) {
      // C = n (L Cov(u) L' + E), mean n mu_t.
      model.moments(theta, sigma2, mean_t, cmat);
      mean_t *= nd;
      cmat *= nd;
      const Eigen::MatrixXd& lr = model.lr();
      Eigen::MatrixXd cz = cmat;
      cz.diagonal().array() += tau2;
      Eigen::LLT<Eigen::MatrixXd> llt(cz);
      if (llt.info() != Eigen::Success)
        throw std::runtime_error("NoisyGibbs (linear): the latent-statistic update is numerically singular");
      kmat = llt.solve(cmat).transpose();  // C (C + tau^2 I)^{-1}, C and cz symmetric
      const double sd = std::sqrt(sigma2);
      bool accepted = false;
      for (int tries = 0; tries < max_tries && !accepted; ++tries) {
        // Matheron's rule: s0 ~ N(n mu_t, C), w ~ N(0, tau^2 I), then
        // s' = s0 + C (C + tau^2 I)^{-1} (z - s0 - w) ~ N(s | z) exactly.
        for (int a = 0; a < q; ++a) xi_q[a] = rng.normal();
        for (int j = 0; j < p; ++j) g_p[j] = rng.normal();
        const double h = rng.normal();
        eps_part.setZero();
        const Eigen::VectorXd rg = r2 * g_p;
        eps_part.segment(q, p) = sd * rg;
        eps_part[d - 1] = 2.0 * sd * theta.dot(rg) + std::sqrt(2.0) * sigma2 * h;
        s0 = mean_t + sqn * (lr * xi_q + eps_part);
        Eigen::VectorXd resid = z - s0;
        for (int a = 0; a < d; ++a) resid[a] -= noise_sd * rng.normal();
        const Eigen::VectorXd prop = s0 + kmat * resid;
        Eigen::LLT<Eigen::MatrixXd> gram(detail::gram_from_s(prop, ix));
        if (gram.info() == Eigen::Success) {
          s = prop;
          accepted = true;
        } else {
          ++out.rejections;
        }
      }
      if (!accepted) ++out.stays;
    }
    if (!detail::nig_draw(s, ix, nd, prior, rng, theta, sigma2))
      throw std::runtime_error("NoisyGibbs (linear): improper conditional posterior; "
                               "check that the prior precision is positive definite");
    if (schedule.keep(t)) {
      out.theta.row(kept_i) = theta.transpose();
      out.sigma2[kept_i] = sigma2;
      ++kept_i;
    }
  }
  return out;
}

}  // namespace pgbb

#endif  // PGBB_CORE_NOISY_GIBBS_LINEAR_H
