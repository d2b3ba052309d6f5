// Glue helpers shared by the confidence-region glue files (resampling.cpp,
// cr.cpp). Kept apart from glue.h so parallel work on glue.h does not clash.
#ifndef PGBB_CR_GLUE_H
#define PGBB_CR_GLUE_H

#include <Rcpp.h>

#include <functional>

namespace pgbb_cr_glue {

inline void check_interrupt_fn(void*) { R_CheckUserInterrupt(); }

/// "Should stop?" callback for the core: asks R whether the user pressed
/// Ctrl-C without ever longjmp-ing through C++ frames (R_ToplevelExec catches it).
inline std::function<bool()> interrupt_callback() {
  return []() { return R_ToplevelExec(check_interrupt_fn, nullptr) == FALSE; };
}

}  // namespace pgbb_cr_glue

#endif  // PGBB_CR_GLUE_H
