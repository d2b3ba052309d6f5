// Row-major copy of the training data for the noisy-training hot loop.
#ifndef PGBB_CORE_DESIGN_H
#define PGBB_CORE_DESIGN_H

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <vector>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(_WIN32)
#include <malloc.h>
#endif

#include "blocking.h"

namespace pgbb {

/// @brief Clips column j of the n x p column-major x into [lower_j, upper_j]
/// in place (public bounds, declared by the user) and returns the number of
/// values changed. The count is a statistic of the confidential data: it may
/// be shown to the analyst but must not be released.
inline int64_t clip_to_bounds(double* x, int64_t n, int p, const double* lower, const double* upper) {
  int64_t changed = 0;
  for (int j = 0; j < p; ++j) {
    double* c = x + static_cast<size_t>(j) * n;
    const double lo = lower[j], hi = upper[j];
    for (int64_t i = 0; i < n; ++i) {
      if (c[i] < lo) {
        c[i] = lo;
        ++changed;
      } else if (c[i] > hi) {
        c[i] = hi;
        ++changed;
      }
    }
  }
  return changed;
}

/// @brief Number of values of the n x p column-major x outside
/// [lower_j, upper_j] in column j, without changing x (so a caller can skip
/// making a clipped copy when nothing would change). The same comparisons as
/// clip_to_bounds(), so the two counts agree.
inline int64_t count_outside_bounds(const double* x, int64_t n, int p, const double* lower,
                                    const double* upper) {
  int64_t outside = 0;
  for (int j = 0; j < p; ++j) {
    const double* c = x + static_cast<size_t>(j) * n;
    const double lo = lower[j], hi = upper[j];
    for (int64_t i = 0; i < n; ++i) outside += (c[i] < lo) | (c[i] > hi);
  }
  return outside;
}

/// @brief The design transposed once into rows (x_1..x_p, y, block id), so the
/// records of a Poisson subset, visited in increasing order, are each read from
/// one contiguous piece of memory: with p = 14 in single precision a row is
/// exactly one 64-byte cache line, block id included, instead of p + 2 scattered
/// reads from an n x p column-major matrix. The block id is stored bit-for-bit
/// (memcpy of an int32) in the last slot, so it is exact in float as in double.
/// Rows are padded to a power of two (up to a cache line) and the buffer is
/// 64-byte aligned, so no row straddles two cache lines.
template <class T>
class RowStore {
 public:
  /// x: n x p column-major; y: length n or nullptr (losses without response);
  /// part: the block partition, or nullptr (every record in block 0).
  RowStore(const double* x, const double* y, int64_t n, int p, const BlockPartition* part)
      : n_(n), p_(p) {
    if (n < 1 || p < 1) throw std::invalid_argument("design: need at least one record and one column");
    if (part && static_cast<int64_t>(part->block.size()) != n)
      throw std::invalid_argument("design: block partition does not match the number of records");
    const int need = p + 2;
    const int line = static_cast<int>(64 / sizeof(T));  // values per cache line
    stride_ = 1;
    while (stride_ < need && stride_ < line) stride_ *= 2;
    if (stride_ < need) stride_ = (need + line - 1) / line * line;
    // 64-byte alignment (rows never straddle cache lines); for large designs,
    // 2 MiB alignment and, on Linux, a request for transparent huge pages:
    // Poisson subsets touch rows all over the design, and with 4 KiB pages
    // nearly every row read of a large n also misses the TLB.
    const size_t bytes = static_cast<size_t>(n) * stride_ * sizeof(T);
    const size_t align = bytes >= (size_t(8) << 20) ? (size_t(2) << 20) : size_t(64);
    const size_t total = (bytes + align - 1) / align * align;
    data_ = static_cast<T*>(aligned_malloc(align, total));
    if (!data_) throw std::bad_alloc();
    mem_.reset(data_);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (align > 64) madvise(data_, total, MADV_HUGEPAGE);  // advice only: failure is harmless
#endif
    std::memset(static_cast<void*>(data_), 0, total);
    for (int64_t i = 0; i < n; ++i) {
      T* r = data_ + static_cast<size_t>(i) * stride_;
      for (int j = 0; j < p; ++j) r[j] = static_cast<T>(x[i + static_cast<size_t>(j) * n]);
      r[p] = y ? static_cast<T>(y[i]) : T(0);
      const int32_t b = part ? part->block[static_cast<size_t>(i)] : 0;
      std::memcpy(r + p + 1, &b, sizeof(int32_t));
    }
  }

  // One owner of the buffer.
  RowStore(const RowStore&) = delete;
  RowStore& operator=(const RowStore&) = delete;

  int64_t n() const { return n_; }
  int p() const { return p_; }
  int stride() const { return stride_; }
  const T* row(int64_t i) const { return data_ + static_cast<size_t>(i) * stride_; }
  static double y(const T* r, int p) { return static_cast<double>(r[p]); }
  static int32_t block(const T* r, int p) {
    int32_t b;
    std::memcpy(&b, r + p + 1, sizeof(int32_t));
    return b;
  }

 private:
  int64_t n_;
  int p_, stride_ = 1;
  // std::aligned_alloc is missing from Windows' C runtime and from older macOS
  // SDKs; posix_memalign and _aligned_malloc are everywhere R builds.
  static void* aligned_malloc(size_t align, size_t bytes) {
#if defined(_WIN32)
    return _aligned_malloc(bytes, align);
#else
    void* p = nullptr;
    return posix_memalign(&p, align, bytes) == 0 ? p : nullptr;
#endif
  }
  struct Free {
    void operator()(T* p) const {
#if defined(_WIN32)
      _aligned_free(p);
#else
      std::free(p);
#endif
    }
  };
  std::unique_ptr<T, Free> mem_;
  T* data_ = nullptr;
};

}  // namespace pgbb

#endif  // PGBB_CORE_DESIGN_H
