// How a long core loop stops when the user asks it to: one contract for every
// trainer, sampler, accountant search and resampling pass. The loop receives a
// "should stop?" callback (the R glue polls for Ctrl-C in it; the core never sees
// R), polls it at a fixed period, and on `true` throws Interrupted. Nothing
// computed so far is returned: an interrupted run releases nothing. The glue
// catches Interrupted in one place (src/interrupt.h) and raises an R interrupt.
//
// Plain C++17, no R headers.
#ifndef PGBB_CORE_STOP_H
#define PGBB_CORE_STOP_H

#include <cstdint>
#include <functional>
#include <stdexcept>

namespace pgbb {

/// @brief Thrown by a core loop whose stop callback returned true.
class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted by the user") {}
};

/// @brief "Should stop?" hook; an empty function never stops.
using StopCallback = std::function<bool()>;

/// @brief Ask `should_stop` now; throw Interrupted if it says stop.
inline void stop_if_asked(const StopCallback& should_stop) {
  if (should_stop && should_stop()) throw Interrupted();
}

/// @brief Ask `should_stop` when `count` is a multiple of `every` (count > 0).
inline void poll_stop(const StopCallback& should_stop, int64_t count, int64_t every) {
  if (count % every == 0) stop_if_asked(should_stop);
}

}  // namespace pgbb

#endif  // PGBB_CORE_STOP_H
