// Deterministic work sharing over threads (OpenMP when the build has it).
//
// Plain C++17, no R headers. A loop over a fixed list of work units, each of
// which writes only its own output; the caller combines the outputs in unit
// order afterwards. Which thread runs which unit then cannot change a result,
// so a fit is bit-identical for any thread count. Workers run with the
// caller's floating-point control state (x86 MXCSR: flush-to-zero and
// denormals-are-zero, see DenormalGuard in trainer.h), which is per thread and
// would otherwise differ between the caller and the workers.
//
// The unit function must not throw (an exception cannot leave an OpenMP
// region) and must not call into R.
//
// PGBB_STD_THREADS selects a std::thread team instead of OpenMP, with the same
// units and the same merge: for ThreadSanitizer builds of the core tests (make
// tsan), because GCC's libgomp is not instrumented and TSan cannot see its
// barriers.
#ifndef PGBB_CORE_PARALLEL_H
#define PGBB_CORE_PARALLEL_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "stop.h"

#if !defined(PGBB_STD_THREADS) && defined(_OPENMP)
#include <omp.h>
#endif
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define PGBB_PARALLEL_MXCSR 1
#endif

namespace pgbb {

/// @brief Whether this build runs work units on several threads.
inline bool parallel_available() {
#if defined(PGBB_STD_THREADS) || defined(_OPENMP)
  return true;
#else
  return false;
#endif
}

/// @brief Calls f(unit, thread) for unit = 0, ..., units - 1 on up to
/// `threads` threads (thread in [0, threads)); serially when threads <= 1,
/// when there is one unit, or when the build has no OpenMP.
template <class F>
void parallel_units(int64_t units, int threads, F&& f) {
#if defined(PGBB_STD_THREADS)
  if (threads > 1 && units > 1) {
#ifdef PGBB_PARALLEL_MXCSR
    const unsigned csr = _mm_getcsr();
#endif
    std::atomic<int64_t> next{0};
    std::vector<std::thread> team;
    for (int th = 0; th < threads; ++th)
      team.emplace_back([&, th] {
#ifdef PGBB_PARALLEL_MXCSR
        _mm_setcsr(csr);
#endif
        for (int64_t u = next++; u < units; u = next++) f(u, th);
      });
    for (auto& t : team) t.join();
    return;
  }
#elif defined(_OPENMP)
  if (threads > 1 && units > 1) {
#ifdef PGBB_PARALLEL_MXCSR
    const unsigned csr = _mm_getcsr();
#endif
#pragma omp parallel num_threads(threads)
    {
#ifdef PGBB_PARALLEL_MXCSR
      const unsigned own = _mm_getcsr();
      _mm_setcsr(csr);
#endif
      const int thread = omp_get_thread_num();
#pragma omp for schedule(dynamic, 1)
      for (int64_t u = 0; u < units; ++u) f(u, thread);
#ifdef PGBB_PARALLEL_MXCSR
      _mm_setcsr(own);
#endif
    }
    return;
  }
#endif
  (void)threads;
  for (int64_t u = 0; u < units; ++u) f(u, 0);
}

/// @brief Calls f(unit, stop) for unit = 0, ..., units - 1 on `workers`
/// std::threads (at least one) while the calling thread supervises: it calls
/// supervise() at the start, every `period` and once more when all units are
/// done, and when supervise() returns true it sets `stop` (a
/// std::atomic<bool> the units may poll to end early). This is how long
/// independent pieces of work (whole trainings) run in parallel while the
/// caller, the only thread that may talk to R, polls for interrupts and
/// reports progress. Units are taken in increasing order; each must write
/// only its own outputs, so which worker ran it changes nothing. An
/// exception thrown by a unit is kept, the other units are told to stop, and
/// after every worker has joined the exception of the lowest such unit is
/// rethrown on the calling thread (then one thrown by supervise()); a stop
/// that supervise() asked for throws Interrupted, so a call that returns has
/// run every unit to its end. Workers inherit the caller's floating-point
/// control state, as in parallel_units().
template <class F, class Supervise>
void supervised_units(int64_t units, int workers, F&& f, Supervise&& supervise,
                      std::chrono::milliseconds period = std::chrono::milliseconds(50)) {
  if (units < 1) return;
  if (workers < 1) workers = 1;
  if (workers > units) workers = static_cast<int>(units);
#ifdef PGBB_PARALLEL_MXCSR
  const unsigned csr = _mm_getcsr();
#endif
  std::atomic<bool> stop{false};
  std::atomic<int64_t> next{0};
  std::vector<std::exception_ptr> failed(static_cast<size_t>(units));
  std::mutex mu;
  std::condition_variable wake;
  int running = workers;
  std::vector<std::thread> team;
  team.reserve(static_cast<size_t>(workers));
  for (int w = 0; w < workers; ++w)
    team.emplace_back([&] {
#ifdef PGBB_PARALLEL_MXCSR
      _mm_setcsr(csr);
#endif
      for (int64_t u = next++; u < units; u = next++) {
        if (stop.load()) continue;
        try {
          f(u, stop);
        } catch (...) {
          failed[static_cast<size_t>(u)] = std::current_exception();
          stop.store(true);
        }
      }
      std::lock_guard<std::mutex> lock(mu);
      if (--running == 0) wake.notify_all();
    });
  std::exception_ptr supervisor_failed;
  bool asked_to_stop = false;
  for (bool done = false;;) {
    if (!supervisor_failed) {
      try {
        if (supervise()) {
          asked_to_stop = true;
          stop.store(true);
        }
      } catch (...) {
        supervisor_failed = std::current_exception();
        stop.store(true);
      }
    }
    if (done) break;
    std::unique_lock<std::mutex> lock(mu);
    done = wake.wait_for(lock, period, [&] { return running == 0; });
  }
  for (auto& t : team) t.join();
  for (const auto& e : failed)
    if (e) std::rethrow_exception(e);
  if (supervisor_failed) std::rethrow_exception(supervisor_failed);
  if (asked_to_stop) throw Interrupted();
}

}  // namespace pgbb

#endif  // PGBB_CORE_PARALLEL_H
