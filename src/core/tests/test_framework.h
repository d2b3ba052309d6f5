// Minimal self-registering test framework for the core driver (no dependencies).
#ifndef PGBB_CORE_TEST_FRAMEWORK_H
#define PGBB_CORE_TEST_FRAMEWORK_H
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "stop.h"

namespace core_test {
struct Case { std::string name; std::function<void()> fn; };
inline std::vector<Case>& registry() { static std::vector<Case> r; return r; }
inline int& failures() { static int f = 0; return f; }
inline int& checks() { static int c = 0; return c; }
struct Register { Register(const char* n, std::function<void()> f) { registry().push_back({n, f}); } };
}  // namespace core_test

#define CORE_TEST(name) \
  static void name(); \
  static core_test::Register reg_##name(#name, name); \
  static void name()

#define CHECK(cond) do { ++core_test::checks(); if (!(cond)) { ++core_test::failures(); \
  std::fprintf(stderr, "  FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond); } } while (0)

#define CHECK_NEAR(a, b, tol) do { ++core_test::checks(); double a_ = (a), b_ = (b); \
  if (!(std::fabs(a_ - b_) <= (tol))) { ++core_test::failures(); \
  std::fprintf(stderr, "  FAILED %s:%d: %s = %.17g vs %s = %.17g\n", __FILE__, __LINE__, #a, a_, #b, b_); } } while (0)

// The statement stops through the one stop contract (pgbb::Interrupted, stop.h),
// not through some other exception.
#define CHECK_INTERRUPTED(stmt) do { ++core_test::checks(); bool thrown_ = false; \
  try { stmt; } catch (const pgbb::Interrupted&) { thrown_ = true; } catch (const std::exception&) {} \
  if (!thrown_) { ++core_test::failures(); std::fprintf(stderr, "  FAILED %s:%d: no pgbb::Interrupted from %s\n", __FILE__, __LINE__, #stmt); } } while (0)

#define CHECK_THROWS(stmt) do { ++core_test::checks(); bool thrown_ = false; \
  try { stmt; } catch (const std::exception&) { thrown_ = true; } \
  if (!thrown_) { ++core_test::failures(); std::fprintf(stderr, "  FAILED %s:%d: no exception from %s\n", __FILE__, __LINE__, #stmt); } } while (0)
#endif
