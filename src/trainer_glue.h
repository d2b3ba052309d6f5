// Conversions between the R lists of a fit (its box, bounds and
// stored generator) and the core's types, shared by the trainer glue and the
// test hooks. Included by src/*.cpp only, never by src/core/.
#ifndef PGBB_TRAINER_GLUE_H
#define PGBB_TRAINER_GLUE_H

#include <Rcpp.h>

#include <vector>

#include "core/blocking.h"
#include "core/box.h"
#include "core/design.h"
#include "core/generator.h"

namespace pgbb_glue {


inline pgbb::Box box_from(const Rcpp::List& box) {
  const std::vector<double> lo = Rcpp::as<std::vector<double>>(box["lower"]);
  const std::vector<double> hi = Rcpp::as<std::vector<double>>(box["upper"]);
  const Rcpp::LogicalVector lg = box["log"];
  std::vector<bool> l(lg.size());
  for (R_xlen_t i = 0; i < lg.size(); ++i) l[i] = lg[i] == TRUE;
  return pgbb::Box(lo, hi, l);
}

inline pgbb::DataBounds bounds_from(const Rcpp::List& b) {
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

// The generator's architecture as stored in a fit: everything needed to
// rebuild it in a new session.
template <class Scalar>
inline pgbb::Generator<Scalar> generator_from(const Rcpp::List& g) {
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

// Whether a joint generator takes the products of the block weights with the
// level hats as inputs (fits made before they existed do not).
inline bool level_products_of(const Rcpp::List& g) {
  return g.containsElementNamed("level_products") && Rcpp::as<bool>(g["level_products"]);
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

}  // namespace pgbb_glue

#endif  // PGBB_TRAINER_GLUE_H
