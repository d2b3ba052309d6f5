// A "should stop?" callback for long core loops: polls R for a user interrupt
// without letting R longjmp through C++ frames (R_ToplevelExec runs the check in
// its own context and reports whether it was interrupted). Included by src/*.cpp
// only, never by src/core/.
#ifndef PGBB_INTERRUPT_H
#define PGBB_INTERRUPT_H

#include <Rinternals.h>

#include <functional>

namespace pgbb_glue {

inline void check_interrupt_fn(void*) { R_CheckUserInterrupt(); }

/// True when the user pressed Ctrl-C / Esc since the last poll.
inline bool user_interrupted() { return R_ToplevelExec(check_interrupt_fn, nullptr) == FALSE; }

inline std::function<bool()> interrupt_callback() { return [] { return user_interrupted(); }; }

}  // namespace pgbb_glue

#endif  // PGBB_INTERRUPT_H
