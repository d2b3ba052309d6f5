// The certified ridge Huber settings of DP-Bootstrap, shared by its glue and
// the test hooks.
#ifndef PGBB_DP_BOOTSTRAP_GLUE_H
#define PGBB_DP_BOOTSTRAP_GLUE_H

#include <Rcpp.h>

#include "core/dp_bootstrap.h"

namespace pgbb_glue {

inline pgbb::HuberRidge huber_from(double c, double kappa, double lambda, double tol) {
  pgbb::HuberRidge hr;
  hr.c = c;
  hr.kappa = kappa;
  hr.lambda = lambda;
  hr.tol = tol;
  hr.validate();
  return hr;
}

}  // namespace pgbb_glue

#endif  // PGBB_DP_BOOTSTRAP_GLUE_H
