// Rcpp glue for the PGBB trainer (src/core/trainer.h), the generator
// (src/core/generator.h) and the losses (src/core/losses.h).
#include <RcppEigen.h>

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/blocking.h"
#include "core/box.h"
#include "core/design.h"
#include "core/generator.h"
#include "core/losses.h"
#include "core/trainer.h"
#include "glue.h"
#include "interrupt.h"
#include "loss_glue.h"

namespace {

pgbb::Box box_from(const Rcpp::List& box) {
  const std::vector<double> lo = Rcpp::as<std::vector<double>>(box["lower"]);
  const std::vector<double> hi = Rcpp::as<std::vector<double>>(box["upper"]);
  const Rcpp::LogicalVector lg = box["log"];
  std::vector<bool> l(lg.size());
  for (R_xlen_t i = 0; i < lg.size(); ++i) l[i] = lg[i] == TRUE;
  return pgbb::Box(lo, hi, l);
}

pgbb::DataBounds bounds_from(const Rcpp::List& b) {
  pgbb::DataBounds out;
  if (!Rf_isNull(b["x_lower"])) {
    out.x_lower = Rcpp::as<std::vector<double>>(b["x_lower"]);
    out.x_upper = Rcpp::as<std::vector<double>>(b["x_upper"]);
  }
  if (b.containsElementNamed("x_norm") && !Rf_isNull(b["x_norm"])) out.x_norm = Rcpp::as<double>(b["x_norm"]);
  if (!Rf_isNull(b["y_lower"])) {
    out.has_y = true;
    out.y_lower = Rcpp::as<double>(b["y_lower"]);
    out.y_upper = Rcpp::as<double>(b["y_upper"]);
  }
  return out;
}

pgbb::BlockPartition partition_from(const Rcpp::IntegerVector& blocks, int S) {
  pgbb::BlockPartition part;
  part.block.resize(blocks.size());
  part.size.assign(S, 0);
  for (R_xlen_t i = 0; i < blocks.size(); ++i) {
    const int b = blocks[i] - 1;
    if (b < 0 || b >= S) Rcpp::stop("internal error: block id out of range");
    part.block[i] = b;
    ++part.size[b];
  }
  return part;
}

// The generator's architecture as stored in a fit: everything needed to
// rebuild it in a new session.
template <class Scalar>
pgbb::Generator<Scalar> generator_from(const Rcpp::List& g) {
  const int n_in = Rcpp::as<int>(g["n_in"]);
  const std::vector<int> hidden = Rcpp::as<std::vector<int>>(g["hidden"]);
  pgbb::Generator<Scalar> gen(n_in, hidden, box_from(g["box"]),
                              Rcpp::as<std::vector<double>>(g["in_shift"]),
                              Rcpp::as<std::vector<double>>(g["in_scale"]),
                              Rcpp::as<int>(g["n_direct"]));
  return gen;
}

// Knots of the level basis stored with a generator (none in fits made before
// the hat basis existed, and in non-joint fits).
inline std::vector<double> tau_knots_of(const Rcpp::List& g) {
  if (!g.containsElementNamed("tau_knots")) return {};
  return Rcpp::as<std::vector<double>>(g["tau_knots"]);
}

template <class Scalar>
void load_weights(pgbb::Generator<Scalar>& gen, const Rcpp::List& layers) {
  const int L = gen.n_hidden();
  if (layers.size() != L + 1) Rcpp::stop("stored generator: wrong number of layers");
  for (int l = 0; l <= L; ++l) {
    const Rcpp::List layer = layers[l];
    const Rcpp::NumericMatrix W = layer["W"];
    const Rcpp::NumericVector b = layer["b"];
    if (W.nrow() != gen.layer_out(l) || W.ncol() != gen.layer_in(l) || b.size() != gen.layer_out(l))
      Rcpp::stop("stored generator: layer %d has the wrong shape", l + 1);
    Scalar* w = gen.params() + gen.weight_offset(l);
    for (R_xlen_t i = 0; i < W.size(); ++i) w[i] = static_cast<Scalar>(W[i]);
    Scalar* bb = gen.params() + gen.bias_offset(l);
    for (R_xlen_t i = 0; i < b.size(); ++i) bb[i] = static_cast<Scalar>(b[i]);
  }
}

template <class Scalar>
Rcpp::List save_weights(const pgbb::Generator<Scalar>& gen) {
  const int L = gen.n_hidden();
  Rcpp::List layers(L + 1);
  for (int l = 0; l <= L; ++l) {
    Rcpp::NumericMatrix W(gen.layer_out(l), gen.layer_in(l));
    const Scalar* w = gen.params() + gen.weight_offset(l);
    for (R_xlen_t i = 0; i < W.size(); ++i) W[i] = static_cast<double>(w[i]);
    Rcpp::NumericVector b(gen.layer_out(l));
    const Scalar* bb = gen.params() + gen.bias_offset(l);
    for (R_xlen_t i = 0; i < b.size(); ++i) b[i] = static_cast<double>(bb[i]);
    layers[l] = Rcpp::List::create(Rcpp::Named("W") = W, Rcpp::Named("b") = b);
  }
  return layers;
}

template <class Scalar>
Rcpp::List train_impl(const Rcpp::NumericMatrix& x, const Rcpp::NumericVector& y,
                      const pgbb::LossSpec& spec, const Rcpp::List& generator,
                      const pgbb::BlockPartition& part, const pgbb::TrainConfig& cfg,
                      const Rcpp::NumericVector& seed, const Rcpp::RObject& progress) {
  const int n = x.nrow(), p = x.ncol();
  const pgbb::RowStore<Scalar> rows(x.begin(), y.size() > 0 ? y.begin() : nullptr, n, p, &part);
  pgbb::Generator<Scalar> gen = generator_from<Scalar>(generator);
  const pgbb::Key s = pgbb_glue::seed_from(seed);
  // Independent streams for the initial weights and for the training draws.
  pgbb::Rng init_rng = pgbb::Rng::stream(s, 0);
  pgbb::Rng train_rng = pgbb::Rng::stream(s, 1);
  gen.init(init_rng);
  const bool has_progress = !Rf_isNull(progress);
  Rcpp::Function* tick = nullptr;
  std::unique_ptr<Rcpp::Function> holder;
  if (has_progress) {
    holder.reset(new Rcpp::Function(progress));
    tick = holder.get();
  }
  pgbb_glue::interruptible([&](const pgbb::StopCallback& stop) {
    const pgbb::TrainCallback cb = [&](int done, int total) {
      if (stop()) return true;
      if (tick) (*tick)(done, total);
      return false;
    };
    return pgbb::with_loss(spec, [&](const auto& loss) {
      pgbb::train(loss, rows, part, gen, cfg, train_rng, cb);
      return 0;
    });
  });
  return save_weights(gen);
}

}  // namespace

// A clipped copy of x (n x p) and the number of values changed. When no value
// lies outside the bounds, clipping is the identity and x itself is returned:
// at natality scale (n = 1.94M, p = 14) the copy would be 217 MB, and a fit
// makes at most one extra copy of the design.
// [[Rcpp::export]]
Rcpp::List cpp_clip_columns(Rcpp::NumericMatrix x, Rcpp::NumericVector lower, Rcpp::NumericVector upper) {
  if (lower.size() != x.ncol() || upper.size() != x.ncol()) Rcpp::stop("internal error: bounds length");
  if (pgbb::count_outside_bounds(x.begin(), x.nrow(), x.ncol(), lower.begin(), upper.begin()) == 0)
    return Rcpp::List::create(Rcpp::Named("x") = x, Rcpp::Named("clipped") = 0.0);
  Rcpp::NumericMatrix out = Rcpp::clone(x);
  const int64_t changed = pgbb::clip_to_bounds(out.begin(), out.nrow(), out.ncol(), lower.begin(), upper.begin());
  return Rcpp::List::create(Rcpp::Named("x") = out, Rcpp::Named("clipped") = static_cast<double>(changed));
}

// [[Rcpp::export]]
double cpp_loss_bound(Rcpp::List spec, Rcpp::List bounds, Rcpp::List box, Rcpp::NumericVector taus) {
  const pgbb::LossSpec s = pgbb_glue::loss_from(spec);
  const pgbb::DataBounds b = bounds_from(bounds);
  const pgbb::Box bx = box_from(box);
  const std::vector<double> t = Rcpp::as<std::vector<double>>(taus);
  return pgbb::with_loss(s, [&](const auto& loss) { return loss.gradient_bound(b, bx, t); });
}

// Loss value, gradient and Hessian of every record at one theta (for tests).
// [[Rcpp::export]]
Rcpp::List cpp_loss_eval(Rcpp::List spec, Rcpp::NumericVector theta, Rcpp::NumericMatrix x,
                         Rcpp::NumericVector y, double tau) {
  const pgbb::LossSpec s = pgbb_glue::loss_from(spec);
  const int n = x.nrow(), p = x.ncol();
  if (p != s.p) Rcpp::stop("internal error: 'x' has the wrong number of columns");
  const pgbb::RowStore<double> rows(x.begin(), y.size() > 0 ? y.begin() : nullptr, n, p, nullptr);
  return pgbb::with_loss(s, [&](const auto& loss) {
    const int d = loss.dim();
    if (theta.size() != d) Rcpp::stop("internal error: 'theta' has the wrong length");
    Rcpp::NumericVector value(n);
    Rcpp::NumericMatrix grad(n, d), hess(d, d), pscore(n, d);
    std::vector<double> g(d);
    for (int i = 0; i < n; ++i) {
      const double* r = rows.row(i);
      const double yi = pgbb::RowStore<double>::y(r, p);
      value[i] = loss.value(theta.begin(), r, yi, tau);
      loss.gradient(theta.begin(), r, yi, tau, g.data());
      for (int j = 0; j < d; ++j) grad(i, j) = g[j];
      pgbb::private_score(loss, theta.begin(), r, yi, tau, g.data());
      for (int j = 0; j < d; ++j) pscore(i, j) = g[j];
      loss.add_hessian(theta.begin(), r, yi, tau, 1.0, hess.begin());
    }
    // The linear-score form used by the trainer's hot loop, where the loss has one.
    Rcpp::NumericMatrix sgrad(n, d);
    using L = std::decay_t<decltype(loss)>;
    if constexpr (L::kExtra >= 0) {
      double extra[L::kExtra > 0 ? L::kExtra : 1];
      for (int i = 0; i < n; ++i) {
        const double* r = rows.row(i);
        double e = 0.0;
        for (int j = 0; j < p; ++j) e += theta[j] * r[j];
        const double a = loss.score(theta.begin(), e, pgbb::RowStore<double>::y(r, p), tau, extra);
        for (int j = 0; j < p; ++j) sgrad(i, j) = a * r[j];
        for (int j = 0; j < L::kExtra; ++j) sgrad(i, p + j) = extra[j];
      }
    } else {
      sgrad = grad;
    }
    return Rcpp::List::create(Rcpp::Named("value") = value, Rcpp::Named("gradient") = grad,
                              Rcpp::Named("hessian") = hess, Rcpp::Named("score_gradient") = sgrad,
                              Rcpp::Named("private_score") = pscore);
  });
}

// The clipped, weighted statistic of eq. (4) before noise, sum_i w_i
// clip_C(grad l(theta; x_i)), computed by the trainer's own hot-loop code
// (for tests of the clipping guard). `precision` selects the row storage.
// [[Rcpp::export]]
Rcpp::NumericVector cpp_statistic(Rcpp::List spec, Rcpp::NumericVector theta, Rcpp::NumericMatrix x,
                                  Rcpp::NumericVector y, double tau, double clip, Rcpp::NumericVector w,
                                  std::string precision) {
  const pgbb::LossSpec s = pgbb_glue::loss_from(spec);
  const int n = x.nrow(), p = x.ncol();
  if (w.size() != n) Rcpp::stop("internal error: 'w' has the wrong length");
  // Every record its own block, with weight w_i.
  pgbb::BlockPartition part;
  part.block.resize(n);
  part.size.assign(n, 1);
  std::vector<int64_t> subset(n);
  for (int i = 0; i < n; ++i) part.block[i] = i, subset[i] = i;
  auto run = [&](auto tag) {
    using Scalar = decltype(tag);
    const pgbb::RowStore<Scalar> rows(x.begin(), y.size() > 0 ? y.begin() : nullptr, n, p, &part);
    return pgbb::with_loss(s, [&](const auto& loss) {
      const int d = loss.dim();
      if (theta.size() != d) Rcpp::stop("internal error: 'theta' has the wrong length");
      Rcpp::NumericVector out(d);
      std::vector<double> g(d);
      double total = 0.0;  // public bound for the exact sum: sum_j |w_j| C
      for (double v : w) total += std::fabs(v);
      pgbb::ExactSum sum(d, std::max(total, 1e-300) * clip * 2.0);
      pgbb::accumulate_subset(loss, rows, subset, w.begin(), theta.begin(), tau, clip, g.data(), sum);
      sum.write(out.begin());
      return out;
    });
  };
  if (precision == "float") return run(float(0));
  return run(double(0));
}

// Noisy training (Algorithms 1 and 2); returns the trained weights.
// [[Rcpp::export]]
Rcpp::List cpp_pgbb_train(Rcpp::NumericMatrix x, Rcpp::NumericVector y, Rcpp::List spec,
                          Rcpp::List generator, Rcpp::IntegerVector partition, int blocks,
                          Rcpp::List settings, Rcpp::NumericVector seed, Rcpp::RObject progress) {
  const pgbb::LossSpec s = pgbb_glue::loss_from(spec);
  const pgbb::BlockPartition part = partition_from(partition, blocks);
  if (static_cast<int>(part.block.size()) != x.nrow()) Rcpp::stop("internal error: partition length");
  pgbb::TrainConfig cfg;
  cfg.iterations = Rcpp::as<int>(settings["iterations"]);
  cfg.mc = Rcpp::as<int>(settings["mc"]);
  cfg.rate = Rcpp::as<double>(settings["rate"]);
  cfg.sigma = Rcpp::as<double>(settings["sigma"]);
  cfg.clip = Rcpp::as<double>(settings["clip"]);
  cfg.gamma = Rcpp::as<double>(settings["gamma"]);
  cfg.tau_grid = Rcpp::as<std::vector<double>>(settings["tau"]);
  cfg.tau_prob = Rcpp::as<std::vector<double>>(settings["tau_prob"]);
  cfg.tau_knots = tau_knots_of(generator);
  cfg.warmup = Rcpp::as<double>(settings["warmup"]);
  cfg.average_from = Rcpp::as<double>(settings["average_from"]);
  cfg.callback_every = Rcpp::as<int>(settings["callback_every"]);
  cfg.optimizer.type = Rcpp::as<std::string>(settings["optimizer"]);
  cfg.optimizer.learning_rate = Rcpp::as<double>(settings["learning_rate"]);
  cfg.optimizer.floor = Rcpp::as<double>(settings["lr_floor"]);
  cfg.optimizer.iterations = cfg.iterations;
  const std::string precision = Rcpp::as<std::string>(settings["precision"]);
  if (precision == "float") return train_impl<float>(x, y, s, generator, part, cfg, seed, progress);
  if (precision == "double") return train_impl<double>(x, y, s, generator, part, cfg, seed, progress);
  Rcpp::stop("internal error: unknown precision");
}

// Evaluates a stored generator at block weights U (m x S) and, for a joint
// generator, the level tau (length 1): returns m x d.
// [[Rcpp::export]]
Rcpp::NumericMatrix cpp_generator_eval(Rcpp::List generator, Rcpp::List layers, Rcpp::NumericMatrix U,
                                       Rcpp::NumericVector tau) {
  pgbb::Generator<double> gen = generator_from<double>(generator);
  load_weights(gen, layers);
  const int m = U.nrow(), S = U.ncol(), k = gen.n_in(), d = gen.n_out();
  const bool joint = gen.n_direct() > 0;
  const std::vector<double> knots = tau_knots_of(generator);
  const int n_level = joint ? pgbb::tau_feature_count(knots.size()) : 0;
  if (S + n_level != k || (joint && tau.size() != 1) || (!joint && tau.size() != 0))
    Rcpp::stop("internal error: generator input has the wrong width");
  std::vector<double> feat(static_cast<size_t>(n_level), 0.0);
  if (joint) pgbb::tau_features(tau[0], feat.data(), knots);
  // Column-major n_in x m for the core.
  std::vector<double> in(static_cast<size_t>(m) * k), out(static_cast<size_t>(m) * d);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < S; ++j) in[j + static_cast<size_t>(i) * k] = U(i, j);
    for (int j = S; j < k; ++j) in[j + static_cast<size_t>(i) * k] = feat[j - S];
  }
  gen.evaluate(in.data(), m, out.data());
  Rcpp::NumericMatrix res(m, d);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < d; ++j) res(i, j) = out[j + static_cast<size_t>(i) * d];
  return res;
}

// G and the vector-Jacobian product sum_k <dtheta_k, G(input_k)> in the
// weights, for the finite-difference tests: returns theta (K x d) and the
// gradient as a list of layers shaped like the weights.
// [[Rcpp::export]]
Rcpp::List cpp_generator_vjp(Rcpp::List generator, Rcpp::List layers, Rcpp::NumericMatrix input,
                             Rcpp::NumericMatrix dtheta) {
  pgbb::Generator<double> gen = generator_from<double>(generator);
  load_weights(gen, layers);
  const int K = input.nrow(), k = input.ncol(), d = gen.n_out();
  if (k != gen.n_in() || dtheta.nrow() != K || dtheta.ncol() != d)
    Rcpp::stop("internal error: shapes of 'input' and 'dtheta'");
  std::vector<double> in(static_cast<size_t>(K) * k), th(static_cast<size_t>(K) * d),
      dt(static_cast<size_t>(K) * d);
  for (int i = 0; i < K; ++i) {
    for (int j = 0; j < k; ++j) in[j + static_cast<size_t>(i) * k] = input(i, j);
    for (int j = 0; j < d; ++j) dt[j + static_cast<size_t>(i) * d] = dtheta(i, j);
  }
  gen.forward(in.data(), K, th.data());
  pgbb::Generator<double> grad = generator_from<double>(generator);  // same shapes, zero weights
  gen.vjp(dt.data(), grad.params());
  Rcpp::NumericMatrix theta(K, d);
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < d; ++j) theta(i, j) = th[j + static_cast<size_t>(i) * d];
  return Rcpp::List::create(Rcpp::Named("theta") = theta, Rcpp::Named("gradient") = save_weights(grad));
}

// Initial weights of a generator (for tests and for the shape of a fit).
// [[Rcpp::export]]
Rcpp::List cpp_generator_init(Rcpp::List generator, Rcpp::NumericVector seed) {
  pgbb::Generator<double> gen = generator_from<double>(generator);
  pgbb::Rng rng = pgbb::Rng::stream(pgbb_glue::seed_from(seed), 0);
  gen.init(rng);
  return save_weights(gen);
}
