// User interrupts for long core loops (the core side of the contract is
// src/core/stop.h). The core gets a "should stop?" callback and never sees R; the
// callback polls R without letting R longjmp through C++ frames (R_ToplevelExec
// runs the check in its own context and reports whether it was interrupted). The
// core then throws pgbb::Interrupted, and once its frames have unwound,
// interruptible() re-raises it as a genuine R interrupt (Rcpp turns
// InterruptedException into Rf_onintr()), so Ctrl-C in any pgbb function behaves
// as in base R: a condition of class "interrupt" (tryCatch(interrupt = ) sees it;
// no "Error:" message), never a half-built result. Included by src/*.cpp only.
#ifndef PGBB_INTERRUPT_H
#define PGBB_INTERRUPT_H

#include <Rcpp.h>

#include <utility>

#include "core/stop.h"

namespace pgbb_glue {

inline void check_interrupt_fn(void*) { R_CheckUserInterrupt(); }

/// True when the user pressed Ctrl-C / Esc since the last poll.
inline bool user_interrupted() { return R_ToplevelExec(check_interrupt_fn, nullptr) == FALSE; }

/// Runs body(stop), `stop` polling R for a user interrupt; a core loop that
/// stopped (pgbb::Interrupted) becomes an R interrupt. Every other exception
/// passes through unchanged.
template <class Body>
auto interruptible(Body&& body) -> decltype(body(pgbb::StopCallback())) {
  try {
    return std::forward<Body>(body)(pgbb::StopCallback(user_interrupted));
  } catch (const pgbb::Interrupted&) {
    throw Rcpp::internal::InterruptedException();
  }
}

}  // namespace pgbb_glue

#endif  // PGBB_INTERRUPT_H
