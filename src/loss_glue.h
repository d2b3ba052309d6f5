// The loss specification list built in R (.loss_spec()) -> pgbb::LossSpec,
// shared by the trainer and the exact-bootstrap glue.
#ifndef PGBB_LOSS_GLUE_H
#define PGBB_LOSS_GLUE_H

#include <Rcpp.h>

#include <string>

#include "core/losses.h"

namespace pgbb_glue {

inline pgbb::LossSpec loss_from(const Rcpp::List& spec) {
  pgbb::LossSpec s;
  s.name = Rcpp::as<std::string>(spec["name"]);
  s.p = Rcpp::as<int>(spec["p"]);
  s.huber_c = Rcpp::as<double>(spec["huber_c"]);
  s.huber_kappa = Rcpp::as<double>(spec["huber_kappa"]);
  s.bandwidth = Rcpp::as<double>(spec["bandwidth"]);
  s.scale = Rcpp::as<double>(spec["scale"]);
  return s;
}

}  // namespace pgbb_glue

#endif  // PGBB_LOSS_GLUE_H
