// DP-Bootstrap (Wang, Cheng & Awan 2025), as configured in the PGBB paper, SM
// S3.1-S3.2: B bootstrap replicates of a base statistic, each released with
// Gaussian output perturbation N(0, sigma_e^2 I), sigma_e = sqrt((2 - 2/e) B) Delta / mu,
// so that the B releases are (asymptotically in B) mu-GDP. The noise scale is
// calibrated in R (R/dp-bootstrap.R); this file holds the base statistics and the
// resampling loop.
//  - Algorithm 2: the l2-regularised M-estimator, here ridge Huber regression with
//    joint scale (Avella-Medina et al. 2023 loss), replace-one sensitivity
//    Delta = 2 L / (n lambda) for an L-Lipschitz convex loss plus (lambda / 2)||theta||^2
//    (Chaudhuri et al. 2011), plus twice the certified optimisation error.
//  - Algorithm 3: the mean of data clipped to [a, b], Delta = (b - a) / n.
#ifndef PGBB_CORE_DP_BOOTSTRAP_H
#define PGBB_CORE_DP_BOOTSTRAP_H

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "discrete_gaussian.h"
#include "exact_sum.h"
#include "rng.h"
#include "stop.h"

namespace pgbb {

/// @brief Bootstrap resample as multiplicities: counts[i] = times record i is
/// drawn in n draws with replacement (a Multinomial(n, 1/n) vector).
inline void bootstrap_counts(int64_t n, Rng& rng, std::vector<double>& counts) {
  counts.assign(static_cast<size_t>(n), 0.0);
  for (int64_t i = 0; i < n; ++i) counts[rng.uniform_int(static_cast<uint64_t>(n))] += 1.0;
}

/// @brief Settings of the ridge Huber M-estimator with scale:
/// F(beta, s) = (1/n) sum_i w_i [s rho_c((y_i - x_i'beta) / s) + kappa s / 2]
///              + (lambda / 2) (||beta||^2 + s^2),  s >= scale_floor.
/// The scale is kept above a small public floor: when the data can be fitted
/// exactly (degenerate resamples) the unconstrained minimiser has s = 0, where F is
/// not differentiable. On the convex domain {s >= scale_floor} the minimiser is
/// unique, the loss is still L-Lipschitz, so the replace-one sensitivity of the
/// constrained minimiser is still 2 L / (n lambda) (Chaudhuri et al. 2011's argument
/// holds for minimisation over a convex set).
struct HuberRidge {
  double c = 1.345;          // Huber constant
  double kappa = 0.71;       // scale-consistency constant
  double lambda = 0.01;      // ridge penalty (strong convexity)
  double tol = 1e-8;         // certified distance to the exact minimiser
  double scale_floor = 1e-4; // public lower bound of the scale (units of y)
  int max_iter = 500;

  void validate() const {
    if (!(c > 0.0) || !(kappa > 0.0) || !std::isfinite(c) || !std::isfinite(kappa))
      throw std::invalid_argument("ridge Huber: 'huber_c' and 'huber_kappa' must be positive");
    // With c^2 > kappa the scale derivative is negative for s -> 0+ at any nonzero
    // residual, so for non-degenerate data the minimiser lies above the floor.
    if (!(c * c > kappa))
      throw std::invalid_argument("ridge Huber: need huber_c^2 > huber_kappa (interior scale minimiser)");
    if (!(lambda > 0.0) || !std::isfinite(lambda))
      throw std::invalid_argument("ridge Huber: 'lambda' must be positive and finite");
    if (!(tol > 0.0)) throw std::invalid_argument("ridge Huber: the tolerance must be positive");
    if (!(scale_floor > 0.0) || !std::isfinite(scale_floor))
      throw std::invalid_argument("ridge Huber: the scale floor must be positive");
  }
  /// Lipschitz constant of the per-record loss over ||x|| <= bound_x sqrt(p) (SM S3.2):
  /// |d/dbeta| <= c ||x||, |d/ds| <= (c^2 + kappa) / 2.
  double lipschitz(double bound_x, int p) const {
    const double ds = 0.5 * (c * c + kappa);
    return std::sqrt(c * c * p * bound_x * bound_x + ds * ds);
  }
};

/// @brief Objective, gradient and generalised Hessian of the ridge Huber problem.
inline double huber_ridge_eval(const Eigen::Ref<const Eigen::MatrixXd>& x, const double* y,
                               const std::vector<double>& w, const HuberRidge& hr,
                               const Eigen::VectorXd& theta, Eigen::VectorXd* grad,
                               Eigen::MatrixXd* hess) {
  const int64_t n = x.rows();
  const int p = static_cast<int>(x.cols());
  const double s = theta[p];
  const double nd = static_cast<double>(n);
  double f = 0.0;
  if (grad) grad->setZero(p + 1);
  if (hess) hess->setZero(p + 1, p + 1);
  Eigen::VectorXd xi(p);
  for (int64_t i = 0; i < n; ++i) {
    if (w[i] == 0.0) continue;
    xi = x.row(i).transpose();
    const double r = y[i] - xi.dot(theta.head(p));
    const double zr = r / s;
    const double wi = w[i] / nd;
    if (std::fabs(zr) <= hr.c) {
      f += wi * (0.5 * r * zr + 0.5 * hr.kappa * s);
      if (grad) {
        grad->head(p) -= wi * zr * xi;
        (*grad)[p] += wi * (0.5 * hr.kappa - 0.5 * zr * zr);
      }
      if (hess) {
        hess->topLeftCorner(p, p).noalias() += (wi / s) * xi * xi.transpose();
        hess->col(p).head(p) += (wi * zr / s) * xi;
        (*hess)(p, p) += wi * zr * zr / s;
      }
    } else {
      const double sg = zr > 0 ? 1.0 : -1.0;
      f += wi * (hr.c * std::fabs(r) - 0.5 * hr.c * hr.c * s + 0.5 * hr.kappa * s);
      if (grad) {
        grad->head(p) -= wi * hr.c * sg * xi;
        (*grad)[p] += wi * 0.5 * (hr.kappa - hr.c * hr.c);
      }
    }
  }
  f += 0.5 * hr.lambda * theta.squaredNorm();
  if (grad) *grad += hr.lambda * theta;
  if (hess) {
    hess->row(p).head(p) = hess->col(p).head(p).transpose();
    hess->diagonal().array() += hr.lambda;
  }
  return f;
}

/// @brief Certificate of optimality: the gradient mapping of the problem over
/// {s >= scale_floor} (the scale component is dropped when the floor is active and
/// the gradient pushes against it). For lambda-strongly convex F,
/// ||theta - theta*|| <= ||certificate|| / lambda.
inline Eigen::VectorXd huber_ridge_certificate(const Eigen::VectorXd& theta, const Eigen::VectorXd& grad,
                                               const HuberRidge& hr) {
  Eigen::VectorXd g = grad;
  const int p = static_cast<int>(theta.size()) - 1;
  if (theta[p] <= hr.scale_floor && g[p] > 0.0) g[p] = 0.0;
  return g;
}

/// @brief Minimise the ridge Huber objective by projected damped Newton steps,
/// stopping only when the strong-convexity certificate ||G|| / lambda <= tol holds
/// (G the gradient mapping above), i.e. the returned point is within tol of the
/// exact minimiser; the sensitivity analysis is about the exact minimiser, and R adds
/// 2 tol to Delta. Throws if the certificate is not reached: an uncertified estimate
/// is never released.
inline Eigen::VectorXd huber_ridge_fit(const Eigen::Ref<const Eigen::MatrixXd>& x, const double* y,
                                       const std::vector<double>& w, const HuberRidge& hr,
                                       Eigen::VectorXd start) {
  const int p = static_cast<int>(x.cols());
  if (start.size() != p + 1 || !(start[p] >= hr.scale_floor) || !start.allFinite()) {
    start = Eigen::VectorXd::Zero(p + 1);
    start[p] = 1.0;
  }
  Eigen::VectorXd theta = start, grad(p + 1), gnew(p + 1);
  Eigen::MatrixXd hess(p + 1, p + 1);
  double f = huber_ridge_eval(x, y, w, hr, theta, &grad, &hess);
  auto certified = [&](const Eigen::VectorXd& th, const Eigen::VectorXd& g) {
    return huber_ridge_certificate(th, g, hr).norm() / hr.lambda <= hr.tol;
  };
  for (int it = 0; it < hr.max_iter; ++it) {
    if (certified(theta, grad)) return theta;
    const bool at_floor = theta[p] <= hr.scale_floor && grad[p] > 0.0;
    Eigen::VectorXd dir = Eigen::VectorXd::Zero(p + 1);
    if (at_floor) {
      dir.head(p) = -hess.topLeftCorner(p, p).ldlt().solve(grad.head(p));
    } else {
      dir = -hess.ldlt().solve(grad);
    }
    if (!dir.allFinite() || dir.dot(grad) >= 0.0) {  // fall back to (projected) steepest descent
      dir = -grad;
      if (at_floor) dir[p] = 0.0;
    }
    bool moved = false;
    for (int attempt = 0; attempt < 2 && !moved; ++attempt) {
      double step = 1.0;
      for (int ls = 0; ls < 80; ++ls) {
        Eigen::VectorXd cand = theta + step * dir;
        cand[p] = std::max(cand[p], hr.scale_floor);  // projection onto the domain
        const double fc = huber_ridge_eval(x, y, w, hr, cand, &gnew, nullptr);
        // Armijo decrease along the projected step; or, near the optimum where
        // decreases of F fall below its rounding error (~1e-16 |F|) while the
        // certificate still needs a smaller gradient, a step that keeps F within
        // rounding and shrinks the certificate.
        const bool armijo = fc <= f + 1e-4 * grad.dot(cand - theta);
        const bool flat = fc <= f + 1e-13 * (1.0 + std::fabs(f)) &&
                          huber_ridge_certificate(cand, gnew, hr).norm() <
                              huber_ridge_certificate(theta, grad, hr).norm();
        if ((armijo && fc <= f) || flat) {
          theta = cand;
          f = huber_ridge_eval(x, y, w, hr, theta, &grad, &hess);
          moved = true;
          break;
        }
        step *= 0.5;
      }
      if (!moved) {  // Newton direction failed: retry once along the projected gradient
        dir = -grad;
        if (at_floor) dir[p] = 0.0;
      }
    }
    if (!moved) break;
  }
  if (certified(theta, grad)) return theta;
  throw std::runtime_error(
      "DP-Bootstrap: the ridge Huber fit did not reach its certified tolerance, so no estimate "
      "is released. This happens when a resample is fitted exactly (degenerate data, scale at "
      "its floor) or the problem is badly scaled; increase 'lambda' or 'tol'");
}

/// @brief Algorithm 2 replicates: B bootstrap ridge Huber fits, each plus
/// noise of sd sigma_e in every coordinate, an exact discrete Gaussian on a
/// public grid (discrete_gaussian.h) charged to `sens`, the l2 sensitivity of
/// one fit. A replaced record drawn m times moves a replicate by at most m sens,
/// hence its rounded grid value by at most m sens / gamma + sqrt(p + 1) <=
/// m (sens + sqrt(p + 1) gamma) for m >= 1, and not at all for m = 0: every
/// fit starts from the same public point, so a resample without the record is
/// the same computation on both data sets. (A warm start from the previous
/// replicate would carry the record into it: that fit agrees with its own
/// minimiser only to the tolerance, so its rounded value could move by a grid
/// step, which the accountant does not charge.) The accountant's
/// per-multiplicity bound holds at the charged sensitivity, which the grid
/// noise matches. x (n x p) is already clipped to the public box.
/// Returns B x (p + 1) (coefficients, then the Huber scale).
inline Eigen::MatrixXd dp_bootstrap_huber(const Eigen::Ref<const Eigen::MatrixXd>& x, const double* y,
                                          const HuberRidge& hr, int B, double sigma_e, double sens, Rng& rng,
                                          const StopCallback& should_stop = nullptr) {
  hr.validate();
  if (B < 1) throw std::invalid_argument("DP-Bootstrap: 'B' must be at least 1");
  if (!(sigma_e >= 0.0) || !std::isfinite(sigma_e))
    throw std::invalid_argument("DP-Bootstrap: the noise scale must be finite and non-negative");
  const int64_t n = x.rows();
  const int p = static_cast<int>(x.cols());
  if (n < 1) throw std::invalid_argument("DP-Bootstrap: need at least one record");
  Eigen::MatrixXd out(B, p + 1);
  const GridGaussian noise = GridGaussian::plan(sigma_e, sens, p + 1);
  std::vector<double> counts;
  const Eigen::VectorXd cold;  // huber_ridge_fit()'s public start (0, scale 1)
  for (int b = 0; b < B; ++b) {
    stop_if_asked(should_stop);
    bootstrap_counts(n, rng, counts);
    const Eigen::VectorXd fit = huber_ridge_fit(x, y, counts, hr, cold);
    for (int j = 0; j <= p; ++j) out(b, j) = noise.release(fit[j], rng);
  }
  return out;
}

/// @brief Algorithm 3 replicates: B bootstrap means of x clipped to [lower, upper],
/// each plus noise of sd sigma_e, an exact discrete Gaussian on a public grid
/// charged to the mean's sensitivity (upper - lower) / n (see dp_bootstrap_huber).
inline std::vector<double> dp_bootstrap_mean(const double* x, int64_t n, double lower, double upper,
                                             int B, double sigma_e, Rng& rng,
                                             const StopCallback& should_stop = nullptr) {
  if (n < 1) throw std::invalid_argument("DP-Bootstrap: need at least one record");
  if (B < 1) throw std::invalid_argument("DP-Bootstrap: 'B' must be at least 1");
  if (!(lower < upper)) throw std::invalid_argument("DP-Bootstrap: need lower < upper");
  if (!(sigma_e >= 0.0) || !std::isfinite(sigma_e))
    throw std::invalid_argument("DP-Bootstrap: the noise scale must be finite and non-negative");
  std::vector<double> xc(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) xc[i] = std::min(std::max(x[i], lower), upper);
  std::vector<double> out(static_cast<size_t>(B));
  const double nd = static_cast<double>(n);
  const GridGaussian noise = GridGaussian::plan(sigma_e, (upper - lower) / nd, 1);
  // The resample sum is exact (exact_sum.h): its rounding never depends on other records.
  ExactSum acc(1, nd * std::max(std::fabs(lower), std::fabs(upper)));
  for (int b = 0; b < B; ++b) {
    poll_stop(should_stop, b, 64);
    acc.clear();
    for (int64_t i = 0; i < n; ++i) acc.add(0, xc[rng.uniform_int(static_cast<uint64_t>(n))]);
    double total;
    acc.write(&total);
    out[b] = noise.release(total / nd, rng);
  }
  return out;
}

}  // namespace pgbb

#endif  // PGBB_CORE_DP_BOOTSTRAP_H
