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
#include "core/runs.h"
#include "core/trainer.h"
#include "glue.h"
#include "interrupt.h"
#include "loss_glue.h"
#include "trainer_glue.h"

namespace {

using namespace pgbb_glue;

// Trains one generator per key (R/pooling.R's runs) on `threads` threads and
// returns the list of their trained weights. Everything R is done here, on the
// calling thread: the workers see only plain C++ (core/runs.h). The list has
// attribute "tail_scores": per run, the sums of its released statistics over
// the second half of training (levels x d), their null variances and counts
// (core/stationarity.h).
template <class Scalar>
Rcpp::List train_impl(const Rcpp::NumericMatrix& x, const Rcpp::NumericVector& y,
                      const pgbb::LossSpec& spec, const Rcpp::List& generator,
                      const std::vector<pgbb::BlockPartition>& parts, const pgbb::TrainConfig& cfg,
                      const Rcpp::List& seeds, int threads, const Rcpp::RObject& progress) {
  const int R = seeds.size();
  std::vector<pgbb::Generator<Scalar>> gens;
  std::vector<pgbb::Key> keys;
  gens.reserve(R);
  for (int r = 0; r < R; ++r) {
    gens.push_back(generator_from<Scalar>(generator));
    keys.push_back(pgbb_glue::seed_from(Rcpp::NumericVector(seeds[r])));
  }
  std::unique_ptr<Rcpp::Function> tick;
  if (!Rf_isNull(progress)) tick.reset(new Rcpp::Function(progress));
  std::vector<pgbb::TailScores> scores;
  pgbb_glue::interruptible([&](const pgbb::StopCallback& stop) {
    const pgbb::RunsMonitor monitor = [&](int64_t done, int64_t total) {
      if (stop()) return true;
      if (tick) (*tick)(static_cast<double>(done), static_cast<double>(total));
      return false;
    };
    return pgbb::with_loss(spec, [&](const auto& loss) {
      pgbb::train_runs(loss, x.begin(), y.size() > 0 ? y.begin() : nullptr, x.nrow(), x.ncol(), parts, gens,
                       keys, cfg, threads, monitor, &scores);
      return 0;
    });
  });
  Rcpp::List out(R);
  Rcpp::List tail(R);
  for (int r = 0; r < R; ++r) {
    out[r] = save_weights(gens[static_cast<size_t>(r)]);
    const pgbb::TailScores& ts = scores[static_cast<size_t>(r)];
    Rcpp::NumericMatrix sum(ts.levels(), ts.dim());
    Rcpp::NumericVector var(ts.levels()), count(ts.levels());
    for (int l = 0; l < ts.levels(); ++l) {
      for (int j = 0; j < ts.dim(); ++j) sum(l, j) = ts.sum(l, j);
      var[l] = ts.variance(l);
      count[l] = static_cast<double>(ts.count(l));
    }
    tail[r] = Rcpp::List::create(Rcpp::Named("sum") = sum, Rcpp::Named("variance") = var,
                                 Rcpp::Named("count") = count);
  }
  out.attr("tail_scores") = tail;
  return out;
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



// Noisy training (Algorithms 1 and 2) of one generator per seed, each on its
// partition (`partitions` of length 1: one partition shared by every run), on
// `threads` threads in all; returns the list of the runs' trained weights.
// [[Rcpp::export]]
Rcpp::List cpp_pgbb_train(Rcpp::NumericMatrix x, Rcpp::NumericVector y, Rcpp::List spec,
                          Rcpp::List generator, Rcpp::List partitions, int blocks,
                          Rcpp::List settings, Rcpp::List seeds, Rcpp::RObject progress) {
  const pgbb::LossSpec s = pgbb_glue::loss_from(spec);
  if (seeds.size() < 1 || (partitions.size() != 1 && partitions.size() != seeds.size()))
    Rcpp::stop("internal error: one partition, or one per seed");
  std::vector<pgbb::BlockPartition> parts;
  for (R_xlen_t i = 0; i < partitions.size(); ++i) {
    parts.push_back(partition_from(Rcpp::IntegerVector(partitions[i]), blocks));
    if (static_cast<int>(parts.back().block.size()) != x.nrow()) Rcpp::stop("internal error: partition length");
  }
  pgbb::TrainConfig cfg;
  cfg.iterations = Rcpp::as<int>(settings["iterations"]);
  cfg.mc = Rcpp::as<int>(settings["mc"]);
  cfg.rate = Rcpp::as<double>(settings["rate"]);
  cfg.sigma = Rcpp::as<double>(settings["sigma"]);
  cfg.clip = Rcpp::as<double>(settings["clip"]);
  cfg.gamma = Rcpp::as<double>(settings["gamma"]);
  cfg.tau_grid = Rcpp::as<std::vector<double>>(settings["tau"]);
  cfg.tau_prob = Rcpp::as<std::vector<double>>(settings["tau_prob"]);
  cfg.level_scale = Rcpp::as<std::vector<double>>(settings["level_scale"]);
  cfg.tau_knots = tau_knots_of(generator);
  cfg.level_products = level_products_of(generator);
  cfg.warmup = Rcpp::as<double>(settings["warmup"]);
  cfg.average_from = Rcpp::as<double>(settings["average_from"]);
  cfg.callback_every = Rcpp::as<int>(settings["callback_every"]);
  const int threads = Rcpp::as<int>(settings["threads"]);
  cfg.optimizer.type = Rcpp::as<std::string>(settings["optimizer"]);
  cfg.optimizer.learning_rate = Rcpp::as<double>(settings["learning_rate"]);
  cfg.optimizer.floor = Rcpp::as<double>(settings["lr_floor"]);
  cfg.optimizer.schedule = Rcpp::as<std::string>(settings["schedule"]);
  cfg.optimizer.iterations = cfg.iterations;
  const std::string precision = Rcpp::as<std::string>(settings["precision"]);
  if (precision == "float") return train_impl<float>(x, y, s, generator, parts, cfg, seeds, threads, progress);
  if (precision == "double") return train_impl<double>(x, y, s, generator, parts, cfg, seeds, threads, progress);
  Rcpp::stop("internal error: unknown precision");
}

// Evaluates the stored generators of a fit's runs (`layer_sets`, one weight
// list per run) at the same block weights U (m x S) and, for a joint
// generator, the level tau (length 1), the runs on `threads` threads: returns
// one m x d matrix per run. Each run's values do not depend on the threads.
// [[Rcpp::export]]
Rcpp::List cpp_generator_eval(Rcpp::List generator, Rcpp::List layer_sets, Rcpp::NumericMatrix U,
                              Rcpp::NumericVector tau, int threads) {
  const int R = layer_sets.size();
  std::vector<pgbb::Generator<double>> gens;
  gens.reserve(R);
  for (int r = 0; r < R; ++r) {
    gens.push_back(generator_from<double>(generator));
    load_weights(gens.back(), Rcpp::List(layer_sets[r]));
  }
  if (R < 1) Rcpp::stop("internal error: no generator to evaluate");
  const int m = U.nrow(), S = U.ncol(), k = gens[0].n_in(), d = gens[0].n_out();
  const bool joint = gens[0].n_direct() > 0;
  const std::vector<double> knots = tau_knots_of(generator);
  const bool products = level_products_of(generator);
  if (pgbb::generator_input_width(S, joint, knots.size(), products) != k || (joint && tau.size() != 1) ||
      (!joint && tau.size() != 0))
    Rcpp::stop("internal error: generator input has the wrong width");
  // Column-major n_in x m for the core.
  std::vector<double> in(static_cast<size_t>(m) * k);
  for (int i = 0; i < m; ++i) {
    double* col = in.data() + static_cast<size_t>(i) * k;
    for (int j = 0; j < S; ++j) col[j] = U(i, j);
    pgbb::complete_generator_input(col, S, joint, joint ? tau[0] : 0.0, knots, products);
  }
  std::vector<std::vector<double>> out(static_cast<size_t>(R), std::vector<double>(static_cast<size_t>(m) * d));
  pgbb::evaluate_runs(gens, in.data(), m, out, threads);
  Rcpp::List res(R);
  for (int r = 0; r < R; ++r) {
    Rcpp::NumericMatrix o(m, d);
    const std::vector<double>& v = out[static_cast<size_t>(r)];
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < d; ++j) o(i, j) = v[j + static_cast<size_t>(i) * d];
    res[r] = o;
  }
  return res;
}


