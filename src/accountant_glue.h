// The accountant settings list built in R (R/accountant.R) -> the core's
// AccountantSetup, shared by the accountant glue and the test hooks.
#ifndef PGBB_ACCOUNTANT_GLUE_H
#define PGBB_ACCOUNTANT_GLUE_H

#include <Rcpp.h>

#include <string>

#include "core/accountant.h"

namespace pgbb_glue {

inline pgbb::AccountantSetup setup_from(const Rcpp::List& s) {
  pgbb::AccountantSetup out;
  const std::string kind = Rcpp::as<std::string>(s["kind"]);
  if (kind == "dirichlet") out.kind = pgbb::AccountantKind::kDirichlet;
  else if (kind == "worst-case") out.kind = pgbb::AccountantKind::kWorstCase;
  else if (kind == "plain") out.kind = pgbb::AccountantKind::kPlain;
  else Rcpp::stop("internal error: unknown accountant '%s'", kind);
  out.n = Rcpp::as<double>(s["n"]);
  out.blocks = Rcpp::as<double>(s["blocks"]);
  out.gamma = Rcpp::as<double>(s["gamma"]);
  out.alpha = Rcpp::as<double>(s["alpha"]);
  out.clip = Rcpp::as<double>(s["clip"]);
  out.rate = Rcpp::as<double>(s["rate"]);
  out.J = Rcpp::as<int>(s["J"]);
  out.m = Rcpp::as<int>(s["m"]);
  return out;
}

}  // namespace pgbb_glue

#endif  // PGBB_ACCOUNTANT_GLUE_H
