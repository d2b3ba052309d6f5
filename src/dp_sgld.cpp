// Rcpp glue for the DP-SGLD baseline (src/core/dp_sgld.h).
#include <Rcpp.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "core/dp_sgld.h"
#include "core/losses.h"
#include "glue.h"
#include "interrupt.h"
#include "loss_glue.h"

// One chain per call; `stream` selects an independent stream of the seeded engine
// (one per quantile level), so a level's chain does not depend on the others.
// Returns the kept iterates (kept x d).
// [[Rcpp::export]]
Rcpp::NumericMatrix cpp_dp_sgld(Rcpp::NumericMatrix x, Rcpp::NumericVector y, Rcpp::List spec,
                                Rcpp::NumericVector theta0, Rcpp::List settings,
                                Rcpp::NumericVector seed, double stream, Rcpp::RObject progress) {
  const pgbb::LossSpec s = pgbb_glue::loss_from(spec);
  pgbb::SgldConfig cfg;
  cfg.iterations = static_cast<int64_t>(Rcpp::as<double>(settings["iterations"]));
  cfg.rate = Rcpp::as<double>(settings["rate"]);
  cfg.step = Rcpp::as<double>(settings["step"]);
  cfg.decay = Rcpp::as<double>(settings["decay"]);
  cfg.omega = Rcpp::as<double>(settings["omega"]);
  cfg.clip = Rcpp::as<double>(settings["clip"]);
  cfg.sigma = Rcpp::as<double>(settings["sigma"]);
  cfg.tau = Rcpp::as<double>(settings["tau"]);
  cfg.burn_in = static_cast<int64_t>(Rcpp::as<double>(settings["burn_in"]));
  cfg.thin = static_cast<int64_t>(Rcpp::as<double>(settings["thin"]));
  cfg.callback_every = Rcpp::as<int>(settings["callback_every"]);
  cfg.floor = Rcpp::as<std::vector<double>>(settings["floor"]);

  const int64_t n = x.nrow();
  const int p = x.ncol();
  if (y.size() > 0 && y.size() != n) Rcpp::stop("internal error: 'y' length");
  // Row-major copy: the hot loop reads one record at a time.
  std::vector<double> rows(static_cast<size_t>(n) * p);
  for (int j = 0; j < p; ++j)
    for (int64_t i = 0; i < n; ++i) rows[static_cast<size_t>(i) * p + j] = x(i, j);

  std::unique_ptr<Rcpp::Function> tick;
  if (!Rf_isNull(progress)) tick.reset(new Rcpp::Function(progress));
  pgbb::Rng rng = pgbb::Rng::stream(pgbb_glue::seed_from(seed), static_cast<uint64_t>(stream));
  std::vector<double> th = Rcpp::as<std::vector<double>>(theta0);
  const std::vector<double> out = pgbb_glue::interruptible([&](const pgbb::StopCallback& stop) {
    const pgbb::SgldCallback cb = [&](int64_t done, int64_t total) {
      if (stop()) return true;
      if (tick) (*tick)(static_cast<double>(done), static_cast<double>(total));
      return false;
    };
    return pgbb::with_loss(s, [&](const auto& loss) {
      return pgbb::run_dp_sgld(loss, rows.data(), y.size() > 0 ? y.begin() : nullptr, n, p, th, cfg,
                               rng, cb);
    });
  });
  const int d = static_cast<int>(th.size());
  const int64_t kept = static_cast<int64_t>(out.size()) / d;
  Rcpp::NumericMatrix res(kept, d);
  for (int64_t i = 0; i < kept; ++i)
    for (int j = 0; j < d; ++j) res(i, j) = out[static_cast<size_t>(i) * d + j];
  return res;
}
