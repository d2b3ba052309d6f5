// The PGBB generator G_phi(u) or G_phi(u, tau): a ReLU multilayer perceptron
// with the input re-concatenated to every later layer (SM S3.2, after Shin et
// al. 2021) and its output squashed into the public parameter box (Section 3).
#ifndef PGBB_CORE_GENERATOR_H
#define PGBB_CORE_GENERATOR_H

#include <Eigen/Dense>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "box.h"
#include "kernels.h"
#include "rng.h"

namespace pgbb {

/// @brief Multilayer perceptron G: R^{n_in} -> box in R^d, batched over K inputs.
///
/// Layer l = 0..L (L = number of hidden layers) maps its input a_l to
/// W_l a_l + b_l; a_0 is the standardised input v, and for l >= 1
/// a_l = (ReLU(W_{l-1} a_{l-1} + b_{l-1}), v): the input is concatenated to the
/// input of every later layer, the output layer included, which gives the
/// network a direct linear path from the block weights to theta (the blocked
/// bootstrap map u -> theta*(u) is close to linear for large blocks). The
/// output z = W_L a_L + b_L is mapped into the box by Box::map.
///
/// Inputs pass through a fixed affine map v = (input - shift) * scale of
/// public constants (see input_standardisation() in trainer.h): S u for the
/// block weights, whose coordinates then have mean 1 instead of 1 / S, and
/// 2 (tau - 1/2) for the level. A fixed reparametrisation of the input does
/// not touch the privacy analysis. (Centring u as well, to mean 0, made the
/// first layer's ReLU units switch on and off across draws of u and left the
/// trained generator's spread several times too large in our measurements.)
///
/// The output bias is multiplied by the box half-width (in the working scale),
/// so that in Adam's sign-like early steps it alone can carry the output
/// across the box in about 1 / learning_rate steps; see TrainConfig::warmup.
///
/// Scalar is float or double (weights and activations). The flat parameter
/// vector phi holds, per layer, W_l (column-major, out_l x in_l) then b_l.
template <class Scalar>
class Generator {
 public:
  using Mat = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  using Vec = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
  using MatMap = Eigen::Map<Mat>;
  using CMatMap = Eigen::Map<const Mat>;
  using VecMap = Eigen::Map<Vec>;
  using CVecMap = Eigen::Map<const Vec>;

  /// n_direct: number of trailing inputs (the level features of a joint fit)
  /// whose direct path to the output is, like the output bias, in units of
  /// the box half-width and trained from the first iteration (warm-up).
  Generator(int n_in, std::vector<int> hidden, Box box, std::vector<double> in_shift,
            std::vector<double> in_scale, int n_direct = 0)
      : n_in_(n_in), n_direct_(n_direct), hidden_(std::move(hidden)), box_(std::move(box)),
        shift_(std::move(in_shift)), scale_(std::move(in_scale)) {
    if (n_in_ < 1) throw std::invalid_argument("generator: need at least one input");
    if (n_direct_ < 0 || n_direct_ >= n_in_)
      throw std::invalid_argument("generator: 'n_direct' must be in [0, n_in)");
    if (static_cast<int>(shift_.size()) != n_in_ || static_cast<int>(scale_.size()) != n_in_)
      throw std::invalid_argument("generator: input standardisation has the wrong length");
    for (int h : hidden_)
      if (h < 1) throw std::invalid_argument("generator: every hidden width must be at least 1");
    d_ = box_.dim();
    const int L = static_cast<int>(hidden_.size());
    offset_.resize(L + 2);
    offset_[0] = 0;
    for (int l = 0; l <= L; ++l)
      offset_[l + 1] = offset_[l] + static_cast<int64_t>(layer_out(l)) * (layer_in(l) + 1);
    phi_.assign(static_cast<size_t>(offset_[L + 1]), Scalar(0));
    bias_scale_.resize(d_);
    for (int j = 0; j < d_; ++j) bias_scale_[j] = static_cast<Scalar>(box_.half(j));
  }

  int n_in() const { return n_in_; }
  int n_direct() const { return n_direct_; }
  /// Offset in phi of the parameters trained from the first iteration: the
  /// output layer's columns of the direct inputs and the output bias, which
  /// are contiguous at the end of phi.
  int64_t tail_offset() const {
    const int L = n_hidden();
    return weight_offset(L) + static_cast<int64_t>(layer_in(L) - n_direct_) * d_;
  }
  int n_out() const { return d_; }
  int n_hidden() const { return static_cast<int>(hidden_.size()); }
  const std::vector<int>& hidden() const { return hidden_; }
  const Box& box() const { return box_; }
  /// Input width of layer l: n_in for l = 0, hidden_{l-1} + n_in after.
  int layer_in(int l) const { return l == 0 ? n_in_ : hidden_[l - 1] + n_in_; }
  /// Output width of layer l: hidden_l, or d for the output layer l = L.
  int layer_out(int l) const { return l < n_hidden() ? hidden_[l] : d_; }
  int64_t n_params() const { return offset_.back(); }
  int64_t weight_offset(int l) const { return offset_[l]; }
  int64_t bias_offset(int l) const {
    return offset_[l] + static_cast<int64_t>(layer_out(l)) * layer_in(l);
  }
  Scalar* params() { return phi_.data(); }
  const Scalar* params() const { return phi_.data(); }

  /// He (Kaiming) normal initialisation N(0, 2 / fan_in) of the ReLU layers,
  /// drawn from the package engine (its key fixes phi_0); all biases and
  /// the output layer's weights start at zero, so G starts as the constant map
  /// to the centre of the box. Why zero and not Glorot for the output layer:
  /// the blocked-bootstrap map u -> theta*(u) varies by a posterior SD, tiny
  /// next to the O(1) spread across u of a randomly initialised output, and
  /// training then spends most of its iterations removing that spread (we
  /// measured generator SDs several times the exact ones after T = 10000 at
  /// the paper's settings with Glorot output weights). The gradient still
  /// reaches every layer once the output weights move away from zero.
  void init(Rng& rng) {
    const int L = n_hidden();
    for (int l = 0; l <= L; ++l) {
      const int in = layer_in(l), out = layer_out(l);
      const double sd = l < L ? std::sqrt(2.0 / in) : 0.0;
      Scalar* w = phi_.data() + weight_offset(l);
      if (sd > 0)
        for (int64_t i = 0; i < static_cast<int64_t>(in) * out; ++i) w[i] = static_cast<Scalar>(sd * rng.normal());
      else
        for (int64_t i = 0; i < static_cast<int64_t>(in) * out; ++i) w[i] = Scalar(0);
      Scalar* b = phi_.data() + bias_offset(l);
      for (int i = 0; i < out; ++i) b[i] = Scalar(0);
    }
  }

  /// Allocates the workspace for batches of up to K inputs (never in the hot loop).
  void reserve(int K) {
    if (K <= kmax_) return;
    const int L = n_hidden();
    acts_.assign(L + 1, Mat());
    int max_in = 0, max_out = d_;
    for (int l = 0; l <= L; ++l) {
      acts_[l].resize(layer_in(l), K);
      max_in = std::max(max_in, layer_in(l));
      max_out = std::max(max_out, layer_out(l));
    }
    z_.resize(d_, K);
    slope_.resize(d_, K);
    through_.resize(d_, K);
    dz_.resize(max_out, K);
    da_.resize(max_in, K);
    gbuf_.resize(max_out);
    tail_.resize(d_);
    kmax_ = K;
  }

  /// theta = G(input) for K inputs; input is n_in x K and theta d x K, both
  /// column-major double. Keeps the activations for a following vjp().
  void forward(const double* input, int K, double* theta) {
    if (K > kmax_) reserve(K);
    k_ = K;
    const int L = n_hidden();
    // Standardised input into a_0 and into the tail rows of every a_l, l >= 1.
    for (int l = 0; l <= L; ++l) {
      const int top = l == 0 ? 0 : hidden_[l - 1];
      for (int k = 0; k < K; ++k)
        for (int i = 0; i < n_in_; ++i)
          acts_[l](top + i, k) =
              static_cast<Scalar>((input[i + static_cast<size_t>(k) * n_in_] - shift_[i]) * scale_[i]);
    }
    // Layer by layer: y = b + sum_j a_j W(:, j), skipping the exact zeros of
    // the ReLU units (about half of them), which changes nothing: each column
    // is an element-wise axpy, so the sum is formed in the same order, with
    // the same bits, on every vector path (detail::axpy).
    for (int l = 0; l < L; ++l) {
      const int in = layer_in(l), out = layer_out(l);
      const Scalar* W = phi_.data() + weight_offset(l);
      const Scalar* b = phi_.data() + bias_offset(l);
      for (int k = 0; k < K; ++k) {
        Scalar* y = acts_[l + 1].col(k).data();
        const Scalar* a = acts_[l].col(k).data();
        for (int i = 0; i < out; ++i) y[i] = b[i];
        for (int j = 0; j < in; ++j)
          if (a[j] != Scalar(0)) detail::axpy(y, W + static_cast<int64_t>(j) * out, a[j], out);
        for (int i = 0; i < out; ++i) y[i] = y[i] > Scalar(0) ? y[i] : Scalar(0);
      }
    }
    // Output: z = W_main a_main + half * (W_direct a_direct + b).
    const int in_main = layer_in(L) - n_direct_;
    const Scalar* W = phi_.data() + weight_offset(L);
    const Scalar* b = phi_.data() + bias_offset(L);
    for (int k = 0; k < K; ++k) {
      Scalar* z = z_.col(k).data();
      const Scalar* a = acts_[L].col(k).data();
      for (int i = 0; i < d_; ++i) z[i] = Scalar(0);
      // d is small: plain element-wise loops (same operations as axpy).
      for (int j = 0; j < in_main; ++j) {
        if (a[j] == Scalar(0)) continue;
        const Scalar* w = W + static_cast<int64_t>(j) * d_;
        for (int i = 0; i < d_; ++i) z[i] = z[i] + a[j] * w[i];
      }
      for (int i = 0; i < d_; ++i) tail_[i] = b[i];
      for (int j = in_main; j < in_main + n_direct_; ++j) {
        const Scalar* w = W + static_cast<int64_t>(j) * d_;
        for (int i = 0; i < d_; ++i) tail_[i] = tail_[i] + a[j] * w[i];
      }
      for (int i = 0; i < d_; ++i) z[i] = z[i] + tail_[i] * bias_scale_[i];
    }
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < d_; ++j) {
        double th, sl;
        box_.map_and_slope(j, static_cast<double>(z_(j, k)), &th, &sl);
        theta[j + static_cast<size_t>(k) * d_] = th;
        slope_(j, k) = static_cast<Scalar>(sl);
        through_(j, k) = static_cast<Scalar>(box_.through_slope(j, th));
      }
  }

  /// Back-propagation for the batch of the last forward(), fused with the
  /// parameter update. dtheta is d x K column-major double (for noisy
  /// training, the noised statistics s_k of eq. (4) divided by K). For every
  /// contiguous piece of phi (one column of a weight matrix, or a bias
  /// vector) the updater gets the gradient g of sum_k <dtheta_k, G(input_k)>
  /// with respect to that piece:
  ///   up.apply(offset, w, g, n)              (w = phi + offset, n entries)
  ///   up.apply_outer(offset, w, dz, a, n)    g = a dz, a single draw (K = 1);
  ///                                          returns sum_i w_i dz_i with the
  ///                                          weights before the update
  /// and may change w in place: the signal back-propagated through a piece is
  /// taken before its update, so it sees the old weights. One pass over each
  /// weight matrix then both back-propagates and updates, and the gradient is
  /// never stored whole. With output_bias_only, only the tail (output bias and
  /// direct columns, see tail_offset()) is handed over (warm-up, see
  /// TrainConfig::warmup). Through the box map it uses the straight-through
  /// slope of training (Box::through_slope()), or with exact_slope the
  /// derivative of the map (vjp()).
  template <class Updater>
  void backward(const double* dtheta, Updater& up, bool output_bias_only = false, bool exact_slope = false) {
    const int K = k_;
    const int L = n_hidden();
    auto dz = dz_.topLeftCorner(d_, K);
    const Mat& slope = exact_slope ? slope_ : through_;
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < d_; ++j)
        dz(j, k) = static_cast<Scalar>(dtheta[j + static_cast<size_t>(k) * d_]) * slope(j, k);
    for (int l = L; l >= 0; --l) {
      const int in = layer_in(l), out = layer_out(l);
      MatMap W(phi_.data() + weight_offset(l), out, in);
      auto dzl = dz_.topLeftCorner(out, K);
      auto gcol = gbuf_.head(out);
      // Bias: d/db = sum_k dz (times the half-width at the output).
      gcol = dzl.rowwise().sum();
      if (l == L) gcol = gcol.cwiseProduct(bias_scale_);
      up.apply(bias_offset(l), phi_.data() + bias_offset(l), gcol.data(), out);
      const int hprev = l == 0 ? 0 : hidden_[l - 1];
      const int first_direct = l == L ? in - n_direct_ : in;
      // The output layer's direct columns (in half-width units), then the rest.
      for (int j = in - 1; j >= first_direct; --j) {
        auto wj = W.col(j);
        if (K == 1) gcol = dzl.col(0) * acts_[l](j, 0);
        else gcol.noalias() = dzl * acts_[l].row(j).head(K).transpose();
        gcol = gcol.cwiseProduct(bias_scale_);
        up.apply(weight_offset(l) + static_cast<int64_t>(j) * out, wj.data(), gcol.data(), out);
      }
      if (output_bias_only) return;
      for (int j = 0; j < first_direct; ++j) {
        auto wj = W.col(j);
        const int64_t off = weight_offset(l) + static_cast<int64_t>(j) * out;
        if (K == 1) {
          // d/dW(:, j) = a_l(j) dz, fused with da(j) = W(:, j)' dz.
          const Scalar dot = up.apply_outer(off, wj.data(), dzl.col(0).data(), acts_[l](j, 0), out);
          if (j < hprev) da_(j, 0) = dot;
          continue;
        }
        // Back-propagate through column j of W before it changes; only the
        // first hprev inputs of layer l depend on phi (the rest is the input).
        if (j < hprev) da_.row(j).head(K).noalias() = wj.transpose() * dzl;
        // d/dW(:, j) = sum_k dz_k a_l(j, k).
        gcol.noalias() = dzl * acts_[l].row(j).head(K).transpose();
        up.apply(off, wj.data(), gcol.data(), out);
      }
      if (l == 0) break;
      // Through the ReLU of layer l - 1.
      auto dzn = dz_.topLeftCorner(hprev, K);
      dzn = (acts_[l].topLeftCorner(hprev, K).array() > Scalar(0)).select(da_.topLeftCorner(hprev, K), Scalar(0));
    }
  }

  /// Vector-Jacobian product: adds sum_k dtheta_k' d G(input_k) / d phi to
  /// grad (length n_params()) for the batch of the last forward().
  void vjp(const double* dtheta, Scalar* grad) {
    struct Accumulate {
      Scalar* grad;
      void apply(int64_t off, Scalar*, const Scalar* g, int n) {
        for (int i = 0; i < n; ++i) grad[off + i] += g[i];
      }
      Scalar apply_outer(int64_t off, Scalar* w, const Scalar* dz, Scalar a, int n) {
        for (int i = 0; i < n; ++i) grad[off + i] += dz[i] * a;
        return detail::dot_lanes_sum(w, dz, n);
      }
    } acc{grad};
    backward(dtheta, acc, false, true);
  }

  /// Evaluates G at many inputs in batches (for posterior draws); input is
  /// n_in x m, out is d x m, column-major.
  void evaluate(const double* input, int64_t m, double* out, int batch = 256) {
    reserve(batch);
    for (int64_t s = 0; s < m; s += batch) {
      const int K = static_cast<int>(std::min<int64_t>(batch, m - s));
      forward(input + s * n_in_, K, out + s * d_);
    }
  }

 private:
  int n_in_, n_direct_ = 0, d_ = 0;
  std::vector<int> hidden_;
  Box box_;
  std::vector<double> shift_, scale_;
  std::vector<int64_t> offset_;
  std::vector<Scalar> phi_;
  Vec bias_scale_;  ///< output bias in units of the box half-width
  // Workspace (sized by reserve()).
  int kmax_ = 0, k_ = 0;

  std::vector<Mat> acts_;
  Mat z_, slope_, through_, dz_, da_;
  Vec gbuf_, tail_;
};

}  // namespace pgbb

#endif  // PGBB_CORE_GENERATOR_H
