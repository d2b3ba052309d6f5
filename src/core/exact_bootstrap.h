// Exact (non-private) blocked and ordinary Bayesian bootstraps for the smooth
// convex losses of losses.h: each draw is argmin_theta sum_i w_i l(theta, x_i),
// solved by damped Newton with a backtracking line search. These are the
// references PGBB approximates (Section 2.2; Theorem 3.1 measures the
// generator's distance to theta*_Block). The mean losses have closed forms in
// bayes_bootstrap.h.
#ifndef PGBB_CORE_EXACT_BOOTSTRAP_H
#define PGBB_CORE_EXACT_BOOTSTRAP_H

#include <Eigen/Dense>

#include <cmath>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "blocking.h"
#include "design.h"
#include "losses.h"
#include "rng.h"
#include "stop.h"

namespace pgbb {

/// @brief Newton solver settings.
struct NewtonControl {
  int max_iter = 200;
  /// Stop when the Newton decrement g' H^{-1} g is below tol (1 + |f|): theta is
  /// then within about sqrt(tol) = 1e-7 of the minimiser in the Hessian's norm.
  /// (Asking for less than that makes Newton cycle on the kinks of the Huber
  /// loss, which is C^1 but not C^2, at the rounding level of the objective.)
  double tol = 1e-14;
};

/// @brief Weighted objective sum_i w_i l(theta, x_i) with gradient and Hessian.
template <class Loss>
double weighted_objective(const Loss& loss, const RowStore<double>& rows, const double* w,
                          double tau, const double* theta, double* grad, double* hess) {
  const int d = loss.dim(), p = rows.p();
  std::vector<double> g(d);
  double f = 0.0;
  if (grad) std::fill(grad, grad + d, 0.0);
  if (hess) std::fill(hess, hess + static_cast<size_t>(d) * d, 0.0);
  for (int64_t i = 0; i < rows.n(); ++i) {
    if (w[i] == 0.0) continue;
    const double* r = rows.row(i);
    const double y = RowStore<double>::y(r, p);
    f += w[i] * loss.value(theta, r, y, tau);
    if (grad) {
      loss.gradient(theta, r, y, tau, g.data());
      for (int j = 0; j < d; ++j) grad[j] += w[i] * g[j];
    }
    if (hess) loss.add_hessian(theta, r, y, tau, w[i], hess);
  }
  return f;
}

/// @brief Armijo backtracking along step from th (objective f, predicted
/// decrease `decrease` = -g'step), which also keeps theta in the loss's domain
/// (the Huber scale stays positive). On success trial holds the accepted point
/// and f_new its objective.
template <class Loss>
bool armijo_step(const Loss& loss, const RowStore<double>& rows, const double* w, double tau,
                 const Eigen::Ref<const Eigen::VectorXd>& th, const Eigen::VectorXd& step, double f,
                 double decrease, Eigen::VectorXd& trial, double& f_new) {
  double a = 1.0;
  for (int ls = 0; ls < 60; ++ls) {
    trial = th + a * step;
    if (loss.theta_ok(trial.data())) {
      f_new = weighted_objective(loss, rows, w, tau, trial.data(), nullptr, nullptr);
      if (std::isfinite(f_new) && f_new <= f - 1e-4 * a * decrease) return true;
    }
    a *= 0.5;
  }
  return false;
}

/// @brief argmin_theta sum_i w_i l(theta, x_i) by Newton's method with a
/// Levenberg ridge when the Hessian is not positive definite (Huber: few
/// inliers) and Armijo backtracking, which also keeps theta in the loss's
/// domain (the Huber scale stays positive), and gradient steps where the
/// Hessian gives no descent direction. theta holds the start and receives the
/// solution. Returns true on convergence.
template <class Loss>
bool solve_weighted(const Loss& loss, const RowStore<double>& rows, const double* w, double tau,
                    double* theta, const NewtonControl& ctl = NewtonControl()) {
  using Mat = Eigen::MatrixXd;
  using Vec = Eigen::VectorXd;
  const int d = loss.dim();
  if (!loss.theta_ok(theta)) throw std::invalid_argument("solve_weighted: start outside the loss's domain");
  Vec g(d), step(d), trial(d);
  Mat H(d, d);
  Eigen::Map<Vec> th(theta, d);
  double f = weighted_objective(loss, rows, w, tau, theta, g.data(), H.data());
  for (int it = 0; it < ctl.max_iter; ++it) {
    // Ridge: start tiny (relative to the Hessian's scale) and grow until positive definite.
    const double scale = H.diagonal().cwiseAbs().maxCoeff();
    bool newton = scale > 0.0 && std::isfinite(scale);
    if (newton) {
      double ridge = 0.0;
      Eigen::LLT<Mat> llt;
      for (int tries = 0; tries < 60; ++tries) {
        llt.compute(H + ridge * Mat::Identity(d, d));
        if (llt.info() == Eigen::Success) break;
        ridge = ridge == 0.0 ? 1e-12 * scale : ridge * 10.0;
      }
      newton = llt.info() == Eigen::Success;
      if (newton) step = -llt.solve(g);
    }
    // A Hessian without curvature (a Huber fit whose scale has shrunk below
    // every residual: no inliers, so H = 0) gives no Newton direction; the
    // gradient does, and the line search below sizes it.
    if (!newton) step = -g;
    const double decrement = -g.dot(step);  // g' (H + ridge)^{-1} g, or g'g
#ifdef PGBB_DEBUG_NEWTON
    fprintf(stderr, "it %d f=%.17g dec=%g newton=%d theta0=%g s=%g\n", it, f, decrement, int(newton), theta[0], theta[d-1]);
#endif
    if (!(decrement >= 0) || !std::isfinite(decrement)) return false;
    // Converged when the Newton decrement is small (see NewtonControl) or the
    // Newton step is below 1e-10 of theta's size; the last step is taken.
    if (newton && (decrement < ctl.tol * (1.0 + std::fabs(f)) ||
                   step.cwiseAbs().maxCoeff() < 1e-10 * (1.0 + th.cwiseAbs().maxCoeff()))) {
      trial = th + step;
      if (loss.theta_ok(trial.data())) th = trial;
      return true;
    }
    double f_new = f;
    bool accepted = armijo_step(loss, rows, w, tau, th, step, f, decrement, trial, f_new);
    if (!accepted && newton) {
      // The Newton direction found no decrease. At the minimum up to rounding
      // if the predicted decrease is below 1e-12 of the objective (theta then
      // within about 1e-6 of the minimiser on the scale of the Hessian):
      // Newton can stall like this on the kinks of the Huber loss, which is C^1
      // but not C^2. Otherwise the quadratic model misleads (a Hessian from a
      // handful of inliers), and the gradient is a descent direction.
      if (decrement < 1e-12 * (1.0 + std::fabs(f))) return true;
      step = -g;
      accepted = armijo_step(loss, rows, w, tau, th, step, f, g.squaredNorm(), trial, f_new);
    }
    if (!accepted) return false;
    th = trial;
    f = weighted_objective(loss, rows, w, tau, theta, g.data(), H.data());
  }
  return false;
}

/// @brief Exact bootstrap draws for a smooth convex loss: blocked (u ~
/// Dirichlet(gamma 1_S), w_i = u_{pi(i)} / n_{pi(i)}) when part is given,
/// ordinary (w ~ Dirichlet(1_n)) otherwise. If U is given (draws x S,
/// column-major) its rows are used as the block weights instead of fresh draws
/// (to compare a generator and the exact map at the same u). Each draw starts
/// from the equal-weight solution, itself solved from `start`. out is
/// column-major draws x d; returns the number of draws that did not converge.
template <class Loss>
int exact_bootstrap(const Loss& loss, const RowStore<double>& rows, const BlockPartition* part,
                    double gamma, int draws, double tau, const double* start, const double* U,
                    Rng& rng, double* out, const StopCallback& should_stop = {}) {
  const int d = loss.dim();
  const int64_t n = rows.n();
  std::vector<double> w(static_cast<size_t>(n), 1.0 / static_cast<double>(n));
  std::vector<double> center(start, start + d), theta(d);
  int failed = 0;
  if (!solve_weighted(loss, rows, w.data(), tau, center.data()))
    throw std::runtime_error("exact bootstrap: the Newton solver did not converge on the full data;"
                             " check the loss and the data");
  const int S = part ? static_cast<int>(part->size.size()) : 0;
  std::vector<double> u(static_cast<size_t>(S));
  for (int b = 0; b < draws; ++b) {
    if (part) {
      if (U) {
        for (int s = 0; s < S; ++s) u[s] = U[b + static_cast<size_t>(s) * draws];
      } else {
        rng.dirichlet(gamma, u.data(), S);
      }
      record_weights(u.data(), *part, w.data());
    } else {
      rng.dirichlet(1.0, w.data(), static_cast<int>(n));
    }
    theta = center;
    if (!solve_weighted(loss, rows, w.data(), tau, theta.data())) ++failed;
    for (int j = 0; j < d; ++j) out[b + static_cast<size_t>(j) * draws] = theta[j];
    poll_stop(should_stop, b + 1, 64);
  }
  return failed;
}

}  // namespace pgbb

#endif  // PGBB_CORE_EXACT_BOOTSTRAP_H
