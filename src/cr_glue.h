// Glue helpers shared by the confidence-region glue files (resampling.cpp,
// cr.cpp). Kept apart from glue.h so parallel work on glue.h does not clash.
#ifndef PGBB_CR_GLUE_H
#define PGBB_CR_GLUE_H

#include <Rcpp.h>

#include <functional>

#include "interrupt.h"

namespace pgbb_cr_glue {

/// "Should stop?" callback for the core (see interrupt.h); when it fires, the glue
/// calls pgbb_glue::raise_interrupt() after the pass returns.
inline std::function<bool()> interrupt_callback() { return pgbb_glue::interrupt_callback(); }

}  // namespace pgbb_cr_glue

#endif  // PGBB_CR_GLUE_H
