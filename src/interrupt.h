// User interrupts for long core loops. The core gets a "should stop?" callback and
// never sees R; the callback polls R without letting R longjmp through C++ frames
// (R_ToplevelExec runs the check in its own context and reports whether it was
// interrupted). Once the C++ frames have unwound, the glue re-raises the interrupt
// as a genuine R interrupt (Rcpp turns InterruptedException into Rf_onintr()), so
// Ctrl-C in any pgbb function behaves as in base R: a condition of class
// "interrupt" (tryCatch(interrupt = ) sees it; no "Error:" message), never a
// half-built result. Included by src/*.cpp only, never by src/core/.
#ifndef PGBB_INTERRUPT_H
#define PGBB_INTERRUPT_H

#include <Rcpp.h>

#include <exception>
#include <functional>
#include <utility>

namespace pgbb_glue {

inline void check_interrupt_fn(void*) { R_CheckUserInterrupt(); }

/// True when the user pressed Ctrl-C / Esc since the last poll.
inline bool user_interrupted() { return R_ToplevelExec(check_interrupt_fn, nullptr) == FALSE; }

inline std::function<bool()> interrupt_callback() { return [] { return user_interrupted(); }; }

/// Raise the user's interrupt in R (after the core has unwound).
[[noreturn]] inline void raise_interrupt() { throw Rcpp::internal::InterruptedException(); }

/// A polling callback that remembers whether it fired, so the glue can tell an
/// interrupt from a genuine error the core threw.
class InterruptPoll {
 public:
  std::function<bool()> callback() {
    return [this] {
      if (!fired_ && user_interrupted()) fired_ = true;
      return fired_;
    };
  }
  bool fired() const { return fired_; }

 private:
  bool fired_ = false;
};

/// Runs body(stop) with a fresh poll; if the core stopped by throwing because the
/// user interrupted, raises the interrupt in R instead of an error.
template <class Body>
auto interruptible(Body&& body) -> decltype(body(std::function<bool()>())) {
  InterruptPoll poll;
  try {
    return std::forward<Body>(body)(poll.callback());
  } catch (const std::exception&) {
    if (poll.fired()) raise_interrupt();
    throw;
  }
}

}  // namespace pgbb_glue

#endif  // PGBB_INTERRUPT_H
