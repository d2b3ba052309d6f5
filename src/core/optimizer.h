// First-order optimisers for the generator's weights. They see only the
// already-noised gradient of eq. (4), so whatever they do is post-processing of
// the private mechanism (Section 5: "the optimizer operates on the already
// perturbed gradients") and leaves the privacy guarantee unchanged.
#ifndef PGBB_CORE_OPTIMIZER_H
#define PGBB_CORE_OPTIMIZER_H

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels.h"

namespace pgbb {

/// @brief Optimiser settings. Defaults are the paper's (SM S3.2): Adam with a
/// cosine-decayed learning rate from 5e-4 to a floor of 1% of it.
struct OptimizerConfig {
  std::string type = "adam";  ///< "adam" or "sgd"
  /// "cosine" (the paper's) or "harmonic"; see scheduled_rate().
  std::string schedule = "cosine";
  double learning_rate = 5e-4;
  double floor = 0.01;       ///< final rate as a fraction of learning_rate
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  int iterations = 10000;    ///< length T of the schedule
};

/// @brief Cosine decay eta_t = eta (f + (1 - f) (1 + cos(pi t / (T - 1))) / 2),
/// t = 0..T-1: eta at the first step, the floor f eta at the last.
inline double cosine_rate(const OptimizerConfig& c, int t) {
  const double T1 = c.iterations > 1 ? c.iterations - 1 : 1;
  const double frac = 0.5 * (1.0 + std::cos(3.14159265358979323846 * t / T1));
  return c.learning_rate * (c.floor + (1.0 - c.floor) * frac);
}

/// @brief Harmonic decay eta_t = eta / (1 + (1 / f - 1) t / (T - 1)),
/// t = 0..T-1: eta at the first step, f eta at the last (f > 0).
///
/// Why offer it. Under privacy noise the iterates theta_t = G(u) wander
/// around their mean, and the mean settles where the loss *averaged over that
/// wandering* is stationary: the check loss convolved with the wandering of
/// x'theta_t. Along a rare indicator the wandering is large, and convolving
/// spreads that group's residual distribution, so its tail quantiles move
/// outwards by an amount every run shares (inst/scripts/iterate-wandering.R
/// computes it on the Census). The wandering scales with the step, and a rate
/// that decays like 1 / t (Robbins-Monro) shrinks it early, where the cosine
/// keeps a large step until late. The price is the total distance the
/// iterates can travel, which nearly collinear directions need (measurements
/// of both in R's ?pgbb, 'Noise-aware intervals'). A function of the
/// iteration count only: post-processing of the noised gradients like any
/// optimiser choice.
inline double harmonic_rate(const OptimizerConfig& c, int t) {
  const double T1 = c.iterations > 1 ? c.iterations - 1 : 1;
  return c.learning_rate / (1.0 + (1.0 / c.floor - 1.0) * (t / T1));
}

/// @brief The learning rate of iteration t under c.schedule.
inline double scheduled_rate(const OptimizerConfig& c, int t) {
  return c.schedule == "harmonic" ? harmonic_rate(c, t) : cosine_rate(c, t);
}


/// @brief Adam (Kingma & Ba 2015, with bias correction) or plain SGD on a flat
/// parameter vector, with its learning-rate schedule, applied piece by piece as the
/// generator back-propagates (Generator::backward), so the whole gradient is
/// never stored. Moments are kept in the parameters' precision.
///
/// Two clocks: parameters at offsets >= tail_start (the output bias) count
/// their Adam steps from the first iteration, the others from the end of the
/// warm-up (TrainConfig::warmup), during which they are not updated. Without
/// this the first step after the warm-up would see bias corrections for
/// hundreds of steps and moments of one, and be about three times too long.
///
/// The update uses only +, *, / and sqrt, which IEEE arithmetic rounds
/// correctly, and never a fused multiply-add or an approximate reciprocal
/// (square root), so it gives the same bits on every x86-64 CPU whatever the
/// vector width chosen at run time.
template <class Scalar>
class Optimizer {
 public:
  Optimizer(const OptimizerConfig& cfg, int64_t n_params, int64_t tail_start)
      : cfg_(cfg), n_(n_params), tail_(tail_start), adam_(cfg.type == "adam") {
    if (cfg.type != "adam" && cfg.type != "sgd")
      throw std::invalid_argument("optimizer must be \"adam\" or \"sgd\"");
    if (!(cfg.learning_rate > 0) || !std::isfinite(cfg.learning_rate))
      throw std::invalid_argument("'learning_rate' must be positive and finite");
    if (!(cfg.floor >= 0 && cfg.floor <= 1))
      throw std::invalid_argument("the learning-rate floor must be in [0, 1]");
    if (cfg.schedule != "cosine" && cfg.schedule != "harmonic")
      throw std::invalid_argument("the schedule must be \"cosine\" or \"harmonic\"");
    if (cfg.schedule == "harmonic" && !(cfg.floor > 0))
      throw std::invalid_argument("the harmonic schedule needs a learning-rate floor above 0");
    if (!(cfg.beta1 >= 0 && cfg.beta1 < 1 && cfg.beta2 >= 0 && cfg.beta2 < 1 && cfg.eps > 0))
      throw std::invalid_argument("Adam needs 0 <= beta1, beta2 < 1 and eps > 0");
    if (adam_) {
      m_.assign(static_cast<size_t>(n_params), Scalar(0));
      v_.assign(static_cast<size_t>(n_params), Scalar(0));
    }
  }

  /// Prepares the step of iteration t (0-based, for the schedule), the
  /// steps_main-th Adam step of the main parameters (0 during the warm-up).
  void begin_step(int t, int steps_main) {
    eta_ = scheduled_rate(cfg_, t);
    set_group(main_, steps_main);
    set_group(tail_group_, t + 1);
  }

  /// Updates w = phi + off (n entries, all on the same side of tail_start)
  /// with gradient g.
  void apply(int64_t off, Scalar* w, const Scalar* g, int n) {
    if (!adam_) {
      const Scalar e = static_cast<Scalar>(eta_);
      for (int i = 0; i < n; ++i) w[i] = w[i] - e * g[i];
      return;
    }
    detail::adam_update(w, m_.data() + off, v_.data() + off, g, n, off >= tail_ ? tail_group_ : main_);
  }

  /// Updates w = phi + off with the rank-one gradient g = a dz and returns
  /// sum_i w_i dz_i at the weights before the update (see detail::adam_outer).
  Scalar apply_outer(int64_t off, Scalar* w, const Scalar* dz, Scalar a, int n) {
    if (!adam_) {
      const Scalar dot = detail::dot_lanes_sum(w, dz, n);
      const Scalar e = static_cast<Scalar>(eta_);
      for (int i = 0; i < n; ++i) w[i] = w[i] - e * (dz[i] * a);
      return dot;
    }
    return detail::adam_outer(w, m_.data() + off, v_.data() + off, dz, a, n,
                              off >= tail_ ? tail_group_ : main_);
  }

 private:
  void set_group(detail::AdamCoef<Scalar>& c, int k) {
    c.b1 = static_cast<Scalar>(cfg_.beta1);
    c.one_b1 = static_cast<Scalar>(1.0 - cfg_.beta1);
    c.b2 = static_cast<Scalar>(cfg_.beta2);
    c.one_b2 = static_cast<Scalar>(1.0 - cfg_.beta2);
    c.eps = static_cast<Scalar>(cfg_.eps);
    const double kk = k < 1 ? 1.0 : k;
    c.a = static_cast<Scalar>(eta_ / (1.0 - std::pow(cfg_.beta1, kk)));
    c.c2 = static_cast<Scalar>(1.0 / (1.0 - std::pow(cfg_.beta2, kk)));
  }

  OptimizerConfig cfg_;
  int64_t n_, tail_;
  bool adam_;
  double eta_ = 0.0;
  detail::AdamCoef<Scalar> main_{}, tail_group_{};
  std::vector<Scalar> m_, v_;
};

}  // namespace pgbb

#endif  // PGBB_CORE_OPTIMIZER_H
