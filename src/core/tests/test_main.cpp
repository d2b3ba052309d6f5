#include "test_framework.h"

int main() {
  int failed_cases = 0;
  for (const auto& c : core_test::registry()) {
    const int before = core_test::failures();
    c.fn();
    const bool ok = core_test::failures() == before;
    failed_cases += ok ? 0 : 1;
    std::printf("%-44s %s\n", c.name.c_str(), ok ? "ok" : "FAILED");
  }
  std::printf("(%d individual checks, %d failed)\n", core_test::checks(), core_test::failures());
  std::printf("%d cases, %d failed\n", static_cast<int>(core_test::registry().size()), failed_cases);
  return failed_cases == 0 ? 0 : 1;
}
