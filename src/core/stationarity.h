// A stationarity check of a PGBB training from its own released statistics.
// Plain C++17, no R headers.
//
// Every iteration of train() (trainer.h) releases, per draw k, the noised sum
// s_k = sum_{j in B} w-bar_j clip(grad l(theta_k; x_j)) + N(0, (r sigma)^2 I)
// (eq. (4)). The generator's output layer has a bias b, whose gradient is the
// mean of the s_k (after score_to_gradient(), which only rescales a log-scale
// coordinate by a positive factor). So where the optimiser has reached a
// stationary point the s_k average to zero up to their noise, and a mean of
// the released s_k over the second half of training that is many noise
// standard deviations from zero says the generator was still being pulled
// one way when training stopped: its draws are not centred where the data
// put them, whatever their spread. The mean is a function of released
// statistics only, so it costs no privacy budget (post-processing).
#ifndef PGBB_CORE_STATIONARITY_H
#define PGBB_CORE_STATIONARITY_H

#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace pgbb {

/// @brief Sums of the released statistics s_k over the second half of a
/// training, per level of the tau grid (one level when not joint), with the
/// null variance of those sums (each release at level l contributes the same
/// release_variance()).
///
/// The null variance of one coordinate of one release, given that the
/// generator sits at a stationary point, has two parts:
///  - the Gaussian noise, (r sigma)^2;
///  - the Poisson subsample, at most q (1 - q) (r C)^2 sum_s u_s^2 / n_s,
///    since |clip(.)_j| <= r C and w-bar_j = u_s / n_s; its mean over the
///    Dirichlet(gamma 1_S) weights is q (1 - q) (r C)^2 E[u_s^2] sum_s 1 / n_s
///    with E[u_s^2] = (gamma + 1) / (S (S gamma + 1)).
/// Both use public settings only (q, C, sigma, gamma, the block sizes, which
/// depend on n alone). The generator's own fluctuation around the stationary
/// point is left out: over a window much longer than the optimiser's
/// relaxation time its share of the mean is small (measured in the R tests).
class TailScores {
 public:
  TailScores() = default;
  /// release_var[l]: the null variance of one release at level l.
  TailScores(int d, std::vector<double> release_var)
      : d_(d), sum_(release_var.size() * static_cast<size_t>(d), 0.0), release_var_(std::move(release_var)),
        count_(release_var_.size(), 0) {}

  int levels() const { return static_cast<int>(count_.size()); }
  int dim() const { return d_; }

  /// First iteration of the window: the second half of T iterations.
  static int window_start(int iterations) { return iterations / 2; }

  /// Null variance of one coordinate of one release (see the class comment).
  static double release_variance(double sigma, double clip, double rate, double gamma,
                                 const std::vector<int>& block_size) {
    const double S = static_cast<double>(block_size.size());
    double inv = 0.0;
    for (int m : block_size) inv += 1.0 / static_cast<double>(m);
    const double u2 = (gamma + 1.0) / (S * (S * gamma + 1.0));
    return sigma * sigma + rate * (1.0 - rate) * clip * clip * u2 * inv;
  }

  /// Adds one release s (length d) at level l.
  void add(int l, const double* s) {
    if (l < 0 || l >= levels()) throw std::invalid_argument("TailScores: level out of range");
    double* row = sum_.data() + static_cast<size_t>(l) * d_;
    for (int j = 0; j < d_; ++j) row[j] += s[j];
    ++count_[static_cast<size_t>(l)];
  }

  /// Sum of the releases at level l, coordinate j.
  double sum(int l, int j) const { return sum_[static_cast<size_t>(l) * d_ + j]; }
  /// Null variance of that sum (the same for every coordinate).
  double variance(int l) const {
    return static_cast<double>(count_[static_cast<size_t>(l)]) * release_var_[static_cast<size_t>(l)];
  }
  int64_t count(int l) const { return count_[static_cast<size_t>(l)]; }

 private:
  int d_ = 0;
  std::vector<double> sum_;
  std::vector<double> release_var_;
  std::vector<int64_t> count_;
};

}  // namespace pgbb

#endif  // PGBB_CORE_STATIONARITY_H
