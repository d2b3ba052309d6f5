// Key material from the operating system's cryptographic entropy source.
//
// Plain C++17, no R headers. Linux: getrandom(2), which blocks only until the
// kernel pool is first initialised and never returns predictable bytes after
// that; other Unix systems: /dev/urandom; Windows: RtlGenRandom (advapi32). A
// failure is an error, never a fallback to a weaker source: a guessable key
// would make the privacy noise removable.
#ifndef PGBB_CORE_ENTROPY_H
#define PGBB_CORE_ENTROPY_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>

#include "rng.h"

#if defined(_WIN32)
#include <windows.h>
extern "C" BOOLEAN NTAPI SystemFunction036(PVOID buffer, ULONG length);  // RtlGenRandom
#elif defined(__linux__)
#include <cerrno>
#include <sys/random.h>
#endif

namespace pgbb {

inline void os_entropy(unsigned char* buf, std::size_t len) {
#if defined(_WIN32)
  if (!SystemFunction036(buf, static_cast<ULONG>(len)))
    throw std::runtime_error("the system entropy source (RtlGenRandom) failed");
#else
  std::size_t got = 0;
#if defined(__linux__)
  while (got < len) {
    const ssize_t r = getrandom(buf + got, len - got, 0);
    if (r < 0) {
      if (errno == EINTR) continue;
      break;  // e.g. ENOSYS on an old kernel: read the device instead
    }
    got += static_cast<std::size_t>(r);
  }
#endif
  if (got < len) {
    std::FILE* f = std::fopen("/dev/urandom", "rb");
    if (f == nullptr) throw std::runtime_error("cannot open /dev/urandom");
    const std::size_t r = std::fread(buf + got, 1, len - got, f);
    std::fclose(f);
    if (r != len - got) throw std::runtime_error("short read from /dev/urandom");
  }
#endif
}

/// A fresh 256-bit ChaCha key from the operating system.
inline Key os_entropy_key() {
  unsigned char b[32];
  os_entropy(b, sizeof b);
  Key k{};
  for (int i = 0; i < 8; ++i)
    k[i] = static_cast<uint32_t>(b[4 * i]) | (static_cast<uint32_t>(b[4 * i + 1]) << 8) |
           (static_cast<uint32_t>(b[4 * i + 2]) << 16) | (static_cast<uint32_t>(b[4 * i + 3]) << 24);
  return k;
}

}  // namespace pgbb

#endif  // PGBB_CORE_ENTROPY_H
