// CR-GS: one-shot private confidence regions for mean-like estimators via
// global sensitivity (CR paper, Section 4, Algorithm 2, Theorem 4.2, Lemma D.1;
// averaged SGD: Appendix H.1, Lemmas H.1 and H.3).
//
// Plain C++17 + Eigen, no R headers. Resample estimates are computed from the
// index list of each resample (running sums, or one reused m-row buffer for the
// M-estimators); the B resampled data sets are never materialised together.
// Sensitivities are NOT computed here: they are functions of public bounds only
// and are supplied by the caller (R/cr-estimators.R).
#ifndef PGBB_CORE_CR_GS_H
#define PGBB_CORE_CR_GS_H

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "resampling.h"
#include "discrete_gaussian.h"
#include "rng.h"

namespace pgbb {

/// @brief Row-major view of an n x d data matrix (one record per row). The glue
/// copies R's column-major matrix once into this layout so that a resample's
/// gathers touch contiguous memory.
struct DataView {
  const double* x = nullptr;
  int n = 0;
  int d = 1;
  const double* row(uint32_t i) const { return x + static_cast<size_t>(i) * d; }
};

/// @brief An estimator theta evaluated on the full data and on resamples D[S_i].
class ResampleEstimator {
 public:
  virtual ~ResampleEstimator() = default;
  virtual int dim() const = 0;
  /// theta(D) into out[0..dim-1].
  virtual void full(double* out) = 0;
  /// theta(D[S_i]) for resample number i with indices idx[0..m-1] (0-based; a
  /// with-replacement resample may repeat an index, each copy counts).
  virtual void resample(const uint32_t* idx, int m, int i, double* out) = 0;
};

/// @brief Bounded mean, scalar or vector (Section 4, example 1).
class MeanEstimator : public ResampleEstimator {
 public:
  explicit MeanEstimator(DataView data) : data_(data) {}
  int dim() const override { return data_.d; }
  const DataView& data() const { return data_; }
  void full(double* out) override {
    const int d = data_.d;
    std::fill(out, out + d, 0.0);
    for (int i = 0; i < data_.n; ++i) {
      const double* r = data_.row(static_cast<uint32_t>(i));
      for (int k = 0; k < d; ++k) out[k] += r[k];
    }
    for (int k = 0; k < d; ++k) out[k] /= data_.n;
  }
  void resample(const uint32_t* idx, int m, int, double* out) override {
    const int d = data_.d;
    if (d == 1) {
      // Hot path (benchmarked): four partial sums break the add dependency chain.
      const double* x = data_.x;
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      int t = 0;
      for (; t + 3 < m; t += 4) {
        s0 += x[idx[t]]; s1 += x[idx[t + 1]]; s2 += x[idx[t + 2]]; s3 += x[idx[t + 3]];
      }
      for (; t < m; ++t) s0 += x[idx[t]];
      out[0] = ((s0 + s1) + (s2 + s3)) / m;
      return;
    }
    std::fill(out, out + d, 0.0);
    for (int t = 0; t < m; ++t) {
      const double* r = data_.row(idx[t]);
      for (int k = 0; k < d; ++k) out[k] += r[k];
    }
    for (int k = 0; k < d; ++k) out[k] /= m;
  }

 private:
  DataView data_;
};

/// @brief Order-2 U-statistics with closed forms in sum x and sum x^2
/// (Section 4, example 3): kernel "product" h(x, y) = x y, and "variance"
/// h(x, y) = (x - y)^2 / 2 (the unbiased sample variance). For "variance" the
/// data are shifted by a public constant first (the kernel is shift invariant),
/// which avoids cancellation in S2 - S1^2 / N.
class UStat2Estimator : public ResampleEstimator {
 public:
  enum class Kernel { Product, Variance };
  UStat2Estimator(DataView data, Kernel kernel, double shift) : data_(data), kernel_(kernel), shift_(shift) {
    if (data.d != 1) throw std::invalid_argument("U-statistic estimators need a numeric vector");
    if (data.n < 2) throw std::invalid_argument("U-statistics of order 2 need at least 2 records");
  }
  int dim() const override { return 1; }
  void full(double* out) override {
    double s1 = 0, s2 = 0;
    for (int i = 0; i < data_.n; ++i) {
      const double v = value(data_.x[i]);
      s1 += v; s2 += v * v;
    }
    out[0] = finish(s1, s2, data_.n);
  }
  void resample(const uint32_t* idx, int m, int, double* out) override {
    if (m < 2) throw std::invalid_argument("U-statistics of order 2 need resamples of size at least 2");
    double s1 = 0, s2 = 0;
    for (int t = 0; t < m; ++t) {
      const double v = value(data_.x[idx[t]]);
      s1 += v; s2 += v * v;
    }
    out[0] = finish(s1, s2, m);
  }

 private:
  double value(double v) const { return kernel_ == Kernel::Variance ? v - shift_ : v; }
  double finish(double s1, double s2, int N) const {
    const double Nd = N;
    if (kernel_ == Kernel::Product) return (s1 * s1 - s2) / (Nd * (Nd - 1.0));
    return (s2 - s1 * s1 / Nd) / (Nd - 1.0);
  }
  DataView data_;
  Kernel kernel_;
  double shift_;
};

/// @brief Loss of the l2-regularised M-estimators and of averaged SGD.
enum class LossType { Logistic, Huber };

inline LossType loss_type_from(const std::string& s) {
  if (s == "logistic") return LossType::Logistic;
  if (s == "huber") return LossType::Huber;
  throw std::invalid_argument("loss must be \"logistic\" or \"huber\"");
}

namespace loss_detail {
// log(1 + exp(-z)) without overflow.
inline double log1pexp_neg(double z) { return z > 0 ? std::log1p(std::exp(-z)) : -z + std::log1p(std::exp(z)); }
inline double sigmoid(double z) {
  if (z >= 0) { const double e = std::exp(-z); return 1.0 / (1.0 + e); }
  const double e = std::exp(z);
  return e / (1.0 + e);
}
// Loss value, derivative in the linear predictor eta = x'theta, and curvature.
// logistic: y in {-1, +1}, l = log(1 + exp(-y eta)); huber: l = H_c(y - eta).
inline void loss_terms(LossType type, double eta, double y, double c, double* val, double* d1, double* d2) {
  if (type == LossType::Logistic) {
    const double z = y * eta;
    *val = log1pexp_neg(z);
    const double s = sigmoid(-z);  // = 1 - sigmoid(z)
    *d1 = -y * s;
    *d2 = s * (1.0 - s);
  } else {
    const double r = y - eta;
    if (std::fabs(r) <= c) { *val = 0.5 * r * r; *d1 = -r; *d2 = 1.0; }
    else { *val = c * std::fabs(r) - 0.5 * c * c; *d1 = r > 0 ? -c : c; *d2 = 0.0; }
  }
}
}  // namespace loss_detail

/// @brief l2-regularised M-estimator argmin (1/N) sum l(theta; x_i, y_i) +
/// (lambda/2) ||theta||^2 for a G-Lipschitz loss (Section 4, example 2;
/// sensitivity 2G / (lambda N), Chaudhuri et al. 2011, Lemma 7).
///
/// The sensitivity bound is for the exact minimiser. The solver (damped Newton
/// with Armijo backtracking, gradient steps as a fallback) stops only when
/// ||grad F|| <= tol, and by lambda-strong convexity the computed point is then
/// within tol / lambda of the minimiser; the caller adds 2 tol / lambda to the
/// sensitivity, so the bound holds for what is actually computed.
class RidgeEstimator : public ResampleEstimator {
 public:
  RidgeEstimator(DataView X, const double* y, LossType type, double lambda, double huber_c, double tol,
                 double smooth_bound)
      : X_(X), y_(y), type_(type), lambda_(lambda), c_(huber_c), tol_(tol), smooth_(smooth_bound) {
    if (!(lambda > 0)) throw std::invalid_argument("ridge M-estimator: 'lambda' must be positive");
    if (!(tol > 0)) throw std::invalid_argument("ridge M-estimator: tolerance must be positive");
    rows_.resize(static_cast<size_t>(X.n));
    for (int i = 0; i < X.n; ++i) rows_[i] = static_cast<uint32_t>(i);
  }
  int dim() const override { return X_.d; }
  void full(double* out) override { solve(rows_.data(), X_.n, out); }
  void resample(const uint32_t* idx, int m, int, double* out) override { solve(idx, m, out); }

  /// Final gradient norm of the last solve (tests check it is below tol).
  double last_gradient_norm() const { return last_grad_; }

 private:
  double objective(const uint32_t* idx, int N, const Eigen::VectorXd& th) const {
    double f = 0, v, d1, d2;
    for (int t = 0; t < N; ++t) {
      const double* r = X_.row(idx[t]);
      double eta = 0;
      for (int k = 0; k < X_.d; ++k) eta += r[k] * th[k];
      loss_detail::loss_terms(type_, eta, y_[idx[t]], c_, &v, &d1, &d2);
      f += v;
    }
    return f / N + 0.5 * lambda_ * th.squaredNorm();
  }
  void grad_hess(const uint32_t* idx, int N, const Eigen::VectorXd& th, Eigen::VectorXd& g,
                 Eigen::MatrixXd& H) const {
    const int d = X_.d;
    g.setZero(d);
    H.setZero(d, d);
    double v, d1, d2;
    for (int t = 0; t < N; ++t) {
      const double* r = X_.row(idx[t]);
      double eta = 0;
      for (int k = 0; k < d; ++k) eta += r[k] * th[k];
      loss_detail::loss_terms(type_, eta, y_[idx[t]], c_, &v, &d1, &d2);
      for (int k = 0; k < d; ++k) {
        g[k] += d1 * r[k];
        if (d2 != 0.0)
          for (int l = 0; l <= k; ++l) H(k, l) += d2 * r[k] * r[l];
      }
    }
    g /= N;
    g += lambda_ * th;
    H /= N;
    for (int k = 0; k < d; ++k) {
      for (int l = 0; l < k; ++l) H(l, k) = H(k, l);
      H(k, k) += lambda_;
    }
  }
  void solve(const uint32_t* idx, int N, double* out) {
    const int d = X_.d;
    Eigen::VectorXd th = Eigen::VectorXd::Zero(d), g(d), p(d), cand(d);
    Eigen::MatrixXd H(d, d);
    double f = objective(idx, N, th);
    // Newton phase; each accepted step decreases F.
    for (int it = 0; it < 200; ++it) {
      grad_hess(idx, N, th, g, H);
      if (g.norm() <= tol_) break;
      p = H.ldlt().solve(-g);
      double slope = g.dot(p);
      if (!(slope < 0) || !p.allFinite()) { p = -g; slope = -g.squaredNorm(); }
      double step = 1.0, fc = f;
      bool ok = false;
      for (int ls = 0; ls < 60; ++ls) {
        cand = th + step * p;
        fc = objective(idx, N, cand);
        if (fc <= f + 1e-4 * step * slope) { ok = true; break; }
        step *= 0.5;
      }
      if (!ok) {
        // Near the optimum the decrease of F falls below its rounding error and
        // Armijo cannot see it; accept the full Newton step if it halves the
        // gradient norm (the quantity the stopping rule certifies), else hand over
        // to gradient steps.
        cand = th + p;
        Eigen::VectorXd gc(d);
        Eigen::MatrixXd Hc(d, d);
        grad_hess(idx, N, cand, gc, Hc);
        if (!(gc.norm() < 0.5 * g.norm())) break;
        fc = objective(idx, N, cand);
      }
      th = cand;
      f = fc;
    }
    // Gradient fallback with step 1 / L_F (F is L_F-smooth); linear convergence
    // by strong convexity. Runs only if Newton stopped above the tolerance.
    grad_hess(idx, N, th, g, H);
    const double step = 1.0 / smooth_;
    for (long it = 0; it < 200000L && g.norm() > tol_; ++it) {
      th -= step * g;
      grad_hess(idx, N, th, g, H);
    }
    last_grad_ = g.norm();
    // The sensitivity charged includes 2 tol / lambda only for a certified solve;
    // an uncertified estimate is never used (a loud failure rather than a silently
    // invalid privacy bound; for these smooth strongly convex objectives damped
    // Newton does not get here).
    if (!(last_grad_ <= tol_))
      throw std::runtime_error("ridge M-estimator: the solver did not reach the gradient tolerance; increase 'tol' or 'lambda'");
    for (int k = 0; k < d; ++k) out[k] = th[k];
  }

  DataView X_;
  const double* y_;
  LossType type_;
  double lambda_, c_, tol_, smooth_;
  std::vector<uint32_t> rows_;
  double last_grad_ = 0.0;
};

/// @brief Step schedule (18): eta_t = c (t + t0)^(-a) with the smallest integer
/// t0 >= 1 such that eta_t <= 1/L and 1/eta_{t+1} - 1/eta_t <= lambda/2 for all
/// t >= 0. The increment ((t+1+t0)^a - (t+t0)^a) / c decreases in t (a < 1), so
/// checking t = 0 suffices; eta_t <= eta_0 = c t0^(-a) <= 1/L needs c t0^(-a) <= 1/L.
inline double sgd_t0(double c, double a, double L, double lambda) {
  if (!(a > 0.5 && a < 1.0)) throw std::invalid_argument("SGD schedule: 'a' must be in (1/2, 1)");
  if (!(c > 0) || !(L > 0) || !(lambda > 0)) throw std::invalid_argument("SGD schedule: c, L, lambda must be positive");
  auto ok = [&](double t0) {
    return c * std::pow(t0, -a) <= 1.0 / L && (std::pow(t0 + 1.0, a) - std::pow(t0, a)) / c <= lambda / 2.0;
  };
  double hi = 1.0;
  while (!ok(hi)) {
    hi *= 2.0;
    if (hi > 1e15) throw std::invalid_argument("SGD schedule: no t0 satisfies (18); increase 'step_c' or 'lambda', or decrease 'a'");
  }
  double lo = hi / 2.0;
  if (hi == 1.0) return 1.0;
  while (hi - lo > 1.0) {
    const double mid = std::floor(0.5 * (lo + hi));
    if (ok(mid)) hi = mid; else lo = mid;
  }
  return hi;
}

/// @brief Default schedule (18) when the user fixes only a: the largest constant
/// c allowed by eta_0 <= 1/L is c = t0^a / L, and with it the increment condition
/// at t = 0 reads L ((1 + 1/t0)^a - 1) <= lambda / 2 (decreasing in t0), so t0 is
/// the smallest integer meeting it (about 2 a L / lambda). Returns {t0, c}.
inline std::pair<double, double> sgd_default_schedule(double a, double L, double lambda) {
  if (!(a > 0.5 && a < 1.0)) throw std::invalid_argument("SGD schedule: 'a' must be in (1/2, 1)");
  if (!(L > 0) || !(lambda > 0)) throw std::invalid_argument("SGD schedule: L and lambda must be positive");
  auto ok = [&](double t0) { return L * std::expm1(a * std::log1p(1.0 / t0)) <= lambda / 2.0; };
  double hi = 1.0;
  while (!ok(hi)) {
    hi *= 2.0;
    // Same cap as sgd_t0: beyond it the bisection below cannot resolve integers
    // (it would never end) and the steps are vanishingly small anyway.
    if (hi > 1e15) throw std::invalid_argument("SGD schedule: no t0 satisfies (18) (lambda is too small relative to the smoothness L); increase 'lambda'");
  }
  double lo = hi / 2.0;
  if (hi > 1.0) {
    while (hi - lo > 1.0) {
      const double mid = std::floor(0.5 * (lo + hi));
      if (ok(mid)) hi = mid; else lo = mid;
    }
  }
  // c slightly below t0^a / L so that eta_0 <= 1/L survives rounding.
  const double c = std::pow(hi, a) / L * (1.0 - 1e-12);
  return {hi, c};
}

/// @brief Averaged projected SGD (17) with one pass in an independent uniform
/// permutation of the input positions, per-sample loss l(w; x, y) + (lambda/2)
/// ||w||^2, K the public l2 ball of radius R, w0 = 0 (Appendix H.1). For every
/// fixed permutation its sensitivity is 4 G / (lambda N) (Lemma H.1), with G the
/// gradient bound on K. The permutation of resample i comes from stream
/// kPermutationStreamBase + i of the plan's seed (data independent, as Lemma H.3
/// requires); the full-data pass uses its own stream.
class SgdEstimator : public ResampleEstimator {
 public:
  SgdEstimator(DataView X, const double* y, LossType type, double lambda, double huber_c, double radius,
               double c, double a, double t0, const Key& seed)
      : X_(X), y_(y), type_(type), lambda_(lambda), hc_(huber_c), radius_(radius), c_(c), a_(a), t0_(t0),
        seed_(seed) {
    rows_.resize(static_cast<size_t>(X.n));
    for (int i = 0; i < X.n; ++i) rows_[i] = static_cast<uint32_t>(i);
  }
  int dim() const override { return X_.d; }
  void full(double* out) override { run(rows_.data(), X_.n, kPermutationStreamBase + (1ULL << 39), out); }
  void resample(const uint32_t* idx, int m, int i, double* out) override {
    run(idx, m, kPermutationStreamBase + static_cast<uint64_t>(i), out);
  }

 private:
  void run(const uint32_t* idx, int N, uint64_t stream, double* out) {
    const int d = X_.d;
    perm_.resize(static_cast<size_t>(N));
    for (int t = 0; t < N; ++t) perm_[t] = idx[t];
    Rng rng = Rng::stream(seed_, stream);
    BoundedDraw bd(rng);
    for (int t = N - 1; t > 0; --t) std::swap(perm_[t], perm_[bd.below(static_cast<uint32_t>(t) + 1)]);
    w_.assign(d, 0.0);
    avg_.assign(d, 0.0);
    double v, d1, d2;
    for (int t = 1; t <= N; ++t) {
      const uint32_t j = perm_[t - 1];
      const double* r = X_.row(j);
      double eta = 0;
      for (int k = 0; k < d; ++k) eta += r[k] * w_[k];
      loss_detail::loss_terms(type_, eta, y_[j], hc_, &v, &d1, &d2);
      const double step = c_ * std::pow(static_cast<double>(t) + t0_, -a_);
      double nrm = 0;
      for (int k = 0; k < d; ++k) {
        w_[k] -= step * (d1 * r[k] + lambda_ * w_[k]);
        nrm += w_[k] * w_[k];
      }
      nrm = std::sqrt(nrm);
      if (nrm > radius_) {  // projection onto K
        const double f = radius_ / nrm;
        for (int k = 0; k < d; ++k) w_[k] *= f;
      }
      for (int k = 0; k < d; ++k) avg_[k] += w_[k];
    }
    for (int k = 0; k < d; ++k) out[k] = avg_[k] / N;
  }

  DataView X_;
  const double* y_;
  LossType type_;
  double lambda_, hc_, radius_, c_, a_, t0_;
  Key seed_;
  std::vector<uint32_t> rows_, perm_;
  std::vector<double> w_, avg_;
};

/// @brief Empirical (1 - alpha) quantile as the order statistic Y_(k),
/// k = ceil(B (1 - alpha)) (Algorithm 2, Lemma C.1). Any order statistic is
/// 1-Lipschitz in the sup-norm of its inputs (Proposition A.2).
inline double upper_quantile(std::vector<double> v, double alpha) {
  if (v.empty()) throw std::invalid_argument("quantile of an empty set");
  if (!(alpha > 0 && alpha < 1)) throw std::invalid_argument("'alpha' must be in (0, 1)");
  const int B = static_cast<int>(v.size());
  int k = static_cast<int>(std::ceil(B * (1.0 - alpha) - 1e-9));
  k = std::min(std::max(k, 1), B);
  std::nth_element(v.begin(), v.begin() + (k - 1), v.end());
  return v[k - 1];
}

/// @brief Non-private statistics of CR-GS on one realisation of the resamples:
/// theta(D), the B distances ||theta*_i - theta(D)||_2 and (optionally) the
/// resample estimates. Never released; the caller privatises the quantile.
struct GsStats {
  std::vector<double> theta_hat;
  std::vector<double> dist;
  std::vector<double> estimates;  ///< B x dim, row-major, if requested
  ResamplePass pass;
};

inline GsStats cr_gs_stats(ResampleEstimator& est, const ResamplePlan& plan, bool keep_estimates,
                           const StopCallback& stop = nullptr) {
  const int d = est.dim();
  GsStats st;
  st.theta_hat.assign(d, 0.0);
  est.full(st.theta_hat.data());
  st.dist.assign(static_cast<size_t>(plan.B), 0.0);
  if (keep_estimates) st.estimates.assign(static_cast<size_t>(plan.B) * d, 0.0);
  std::vector<double> th(d);
  st.pass = for_each_resample(
      plan,
      [&](int i, const uint32_t* idx, int m) {
        est.resample(idx, m, i, th.data());
        double s = 0;
        for (int k = 0; k < d; ++k) {
          const double e = th[k] - st.theta_hat[k];
          s += e * e;
        }
        st.dist[i] = std::sqrt(s);
        if (keep_estimates) std::copy(th.begin(), th.end(), st.estimates.begin() + static_cast<size_t>(i) * d);
      },
      stop);
  return st;
}

/// @brief Release step of Algorithm 2: theta~ = theta^ + nu_n Z2 and
/// Q~ = max(Q + sigma_m Z1, 0), with nu_n = sqrt(2) Delta_n / mu and
/// sigma_m = sqrt(2) tau_m (kappa* Delta_m + Delta_n) / mu computed by the caller
/// from public quantities (Lemma D.1: each half is mu/sqrt(2)-GDP, eq. 3 composes).
/// Both releases are exact discrete Gaussians on public grids (discrete_gaussian.h)
/// at the same noise-to-sensitivity ratios: `center_sens` = Delta_n (l2, over the
/// d coordinates) and `radius_sens` = tau_m (kappa* Delta_m + Delta_n).
struct GsRelease {
  std::vector<double> center;
  double q_tilde = 0.0;
};

inline GsRelease cr_gs_release(const std::vector<double>& theta_hat, double Q, double nu, double center_sens,
                               double sigma, double radius_sens, Rng& rng) {
  if (!(nu >= 0) || !(sigma >= 0) || !std::isfinite(nu) || !std::isfinite(sigma))
    throw std::invalid_argument("CR-GS release: noise scales must be finite and non-negative");
  GsRelease r;
  const GridGaussian radius_noise = GridGaussian::plan(sigma, radius_sens, 1);
  const GridGaussian center_noise = GridGaussian::plan(nu, center_sens, std::max(1, static_cast<int>(theta_hat.size())));
  r.q_tilde = std::max(radius_noise.release(Q, rng), 0.0);
  r.center = theta_hat;
  center_noise.release(r.center, rng);
  return r;
}

}  // namespace pgbb

#endif  // PGBB_CORE_CR_GS_H
