// Rcpp glue for the Renyi-DP accountant (src/core/accountant.h). Arguments are
// validated in R/accountant.R; the core re-checks them and throws on violation.
#include "core/accountant.h"
#include "glue.h"
#include "interrupt.h"
#include "accountant_glue.h"

using pgbb_glue::setup_from;

namespace {


pgbb::Conversion conversion_from(const std::string& c) {
  if (c == "asoodeh") return pgbb::Conversion::kAsoodeh;
  if (c == "mironov") return pgbb::Conversion::kMironov;
  Rcpp::stop("internal error: unknown conversion '%s'", c);
}

std::vector<int> orders_from(const Rcpp::IntegerVector& orders) {
  return std::vector<int>(orders.begin(), orders.end());
}

}  // namespace

// [[Rcpp::export]]
Rcpp::NumericMatrix cpp_accountant_log_moments(Rcpp::List setup, Rcpp::IntegerVector orders,
                                               Rcpp::NumericVector sigma) {
  const pgbb::LogMomentAccountant acc(setup_from(setup), orders_from(orders));
  Rcpp::NumericMatrix out(orders.size(), sigma.size());
  for (R_xlen_t j = 0; j < sigma.size(); ++j) {
    const std::vector<double> a = acc.log_moments(sigma[j]);
    for (R_xlen_t i = 0; i < orders.size(); ++i) out(i, j) = a[i];
  }
  return out;
}

// [[Rcpp::export]]
Rcpp::List cpp_accountant_epsilon(Rcpp::List setup, Rcpp::IntegerVector orders,
                                  Rcpp::NumericVector sigma, double releases, double delta,
                                  std::string conversion) {
  const pgbb::LogMomentAccountant acc(setup_from(setup), orders_from(orders));
  const pgbb::Conversion conv = conversion_from(conversion);
  Rcpp::NumericVector eps(sigma.size());
  Rcpp::IntegerVector ord(sigma.size());
  for (R_xlen_t j = 0; j < sigma.size(); ++j) {
    const pgbb::OrderOptimum o = pgbb::epsilon_of_sigma(acc, sigma[j], releases, delta, conv);
    eps[j] = o.value;
    ord[j] = o.order;
  }
  return Rcpp::List::create(Rcpp::Named("epsilon") = eps, Rcpp::Named("order") = ord);
}

// [[Rcpp::export]]
Rcpp::List cpp_accountant_sigma(Rcpp::List setup, Rcpp::IntegerVector orders, double releases,
                                double epsilon, double delta, std::string conversion, double tol) {
  const pgbb::LogMomentAccountant acc(setup_from(setup), orders_from(orders));
  const pgbb::Conversion conv = conversion_from(conversion);
  const pgbb::Calibration c = pgbb_glue::interruptible([&](const pgbb::StopCallback& stop) {
    return pgbb::calibrate_sigma(acc, releases, epsilon, delta, conv, tol, stop);
  });
  return Rcpp::List::create(Rcpp::Named("sigma") = c.sigma, Rcpp::Named("epsilon") = c.epsilon,
                            Rcpp::Named("order") = c.order,
                            Rcpp::Named("evaluations") = c.evaluations);
}

// [[Rcpp::export]]
Rcpp::List cpp_accountant_curve(Rcpp::List setup, Rcpp::IntegerVector orders, double sigma,
                                double releases, Rcpp::NumericVector epsilon,
                                std::string conversion) {
  const pgbb::LogMomentAccountant acc(setup_from(setup), orders_from(orders));
  const pgbb::Conversion conv = conversion_from(conversion);
  const std::vector<double> a = acc.log_moments(sigma);
  std::vector<double> rdp(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) rdp[i] = pgbb::compose_rdp(a[i], orders[i], releases);
  Rcpp::NumericVector delta(epsilon.size());
  Rcpp::IntegerVector ord(epsilon.size());
  for (R_xlen_t j = 0; j < epsilon.size(); ++j) {
    const pgbb::OrderOptimum o = pgbb::best_delta(rdp, acc.orders(), epsilon[j], conv);
    delta[j] = o.value;
    ord[j] = o.order;
  }
  return Rcpp::List::create(Rcpp::Named("delta") = delta, Rcpp::Named("order") = ord);
}

// [[Rcpp::export]]
Rcpp::List cpp_rdp_convert(Rcpp::NumericVector rdp, Rcpp::IntegerVector orders,
                           Rcpp::NumericVector target, std::string to, std::string conversion) {
  const pgbb::Conversion conv = conversion_from(conversion);
  const std::vector<double> r(rdp.begin(), rdp.end());
  const std::vector<int> o = orders_from(orders);
  Rcpp::NumericVector value(target.size());
  Rcpp::IntegerVector ord(target.size());
  for (R_xlen_t j = 0; j < target.size(); ++j) {
    const pgbb::OrderOptimum opt = (to == "epsilon") ? pgbb::best_epsilon(r, o, target[j], conv)
                                                     : pgbb::best_delta(r, o, target[j], conv);
    value[j] = opt.value;
    ord[j] = opt.order;
  }
  return Rcpp::List::create(Rcpp::Named("value") = value, Rcpp::Named("order") = ord);
}

// [[Rcpp::export]]
double cpp_sigma_leading_order(Rcpp::List setup, double releases, double epsilon, double delta,
                               bool with_constants) {
  const pgbb::LogMomentAccountant acc(setup_from(setup), std::vector<int>{2});
  return pgbb::sigma_leading_order(acc, releases, epsilon, delta, with_constants);
}

