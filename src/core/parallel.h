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

#include <cstdint>

#if defined(PGBB_STD_THREADS)
#include <atomic>
#include <thread>
#include <vector>
#elif defined(_OPENMP)
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

}  // namespace pgbb

#endif  // PGBB_CORE_PARALLEL_H
