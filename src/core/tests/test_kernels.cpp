// kernels.h promises the same bits on every path (portable, SSE2, AVX): the
// training of a seeded fit must not depend on the CPU it runs on. Each kernel
// is run on identical copies of the same inputs, over lengths that exercise the
// vector bodies and every tail, and the outputs are compared bit for bit.
#include <cstring>
#include <vector>

#include "kernels.h"
#include "rng.h"
#include "test_framework.h"

namespace {

template <class Scalar>
struct AdamState {
  std::vector<Scalar> w, m, v, g;
};

template <class Scalar>
AdamState<Scalar> random_state(pgbb::Rng& rng, int n) {
  AdamState<Scalar> s{std::vector<Scalar>(n), std::vector<Scalar>(n), std::vector<Scalar>(n),
                      std::vector<Scalar>(n)};
  for (int i = 0; i < n; ++i) {
    // Magnitudes over several decades, so rounding differences would show.
    s.w[i] = static_cast<Scalar>(rng.normal() * std::pow(10.0, rng.uniform() * 6 - 3));
    s.m[i] = static_cast<Scalar>(rng.normal() * 1e-2);
    s.v[i] = static_cast<Scalar>(rng.uniform() * 1e-3);
    s.g[i] = static_cast<Scalar>(rng.normal() * std::pow(10.0, rng.uniform() * 4 - 2));
  }
  return s;
}

template <class Scalar>
bool same_bits(const std::vector<Scalar>& a, const std::vector<Scalar>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Scalar)) == 0);
}

template <class Scalar>
bool same_bits(Scalar a, Scalar b) { return std::memcmp(&a, &b, sizeof(Scalar)) == 0; }

template <class Scalar>
pgbb::detail::AdamCoef<Scalar> coef() {
  // Adam at step 7 with learning rate 1e-3 (bias corrections folded into a, c2).
  const double b1 = 0.9, b2 = 0.999, t = 7;
  return {Scalar(b1), Scalar(1 - b1), Scalar(b2), Scalar(1 - b2),
          Scalar(1e-3 / (1 - std::pow(b1, t))), Scalar(1 / (1 - std::pow(b2, t))), Scalar(1e-8)};
}

template <class Scalar>
void check_all_paths(pgbb::Rng& rng) {
  using namespace pgbb::detail;
  const AdamCoef<Scalar> c = coef<Scalar>();
  for (int n = 0; n <= 67; ++n) {
    const AdamState<Scalar> s0 = random_state<Scalar>(rng, n);
    // Adam update.
    AdamState<Scalar> ref = s0, got = s0;
    adam_portable(ref.w.data(), ref.m.data(), ref.v.data(), ref.g.data(), n, c);
    adam_update(got.w.data(), got.m.data(), got.v.data(), got.g.data(), n, c);  // the dispatched path
    CHECK(same_bits(ref.w, got.w) && same_bits(ref.m, got.m) && same_bits(ref.v, got.v));
    // Adam fused with the rank-one gradient and the dot product.
    const Scalar a = static_cast<Scalar>(0.37);
    AdamState<Scalar> ro = s0, go = s0;
    const Scalar dref = adam_outer_portable(ro.w.data(), ro.m.data(), ro.v.data(), ro.g.data(), a, n, c);
    const Scalar dgot = adam_outer(go.w.data(), go.m.data(), go.v.data(), go.g.data(), a, n, c);
    CHECK(same_bits(dref, dgot));
    CHECK(same_bits(dref, dot_lanes_sum(s0.w.data(), s0.g.data(), n)));
    CHECK(same_bits(ro.w, go.w) && same_bits(ro.m, go.m) && same_bits(ro.v, go.v));
    // axpy.
    std::vector<Scalar> yr = s0.w, yg = s0.w;
    axpy_portable(yr.data(), s0.g.data(), a, n);
    axpy(yg.data(), s0.g.data(), a, n);
    CHECK(same_bits(yr, yg));
#ifdef PGBB_X86_KERNELS
    // Every explicit vector path, whichever one the dispatcher chose above.
    AdamState<Scalar> sse = s0;
    adam_sse(sse.w.data(), sse.m.data(), sse.v.data(), sse.g.data(), n, c);
    CHECK(same_bits(ref.w, sse.w) && same_bits(ref.m, sse.m) && same_bits(ref.v, sse.v));
    AdamState<Scalar> sso = s0;
    CHECK(same_bits(dref, adam_outer_sse(sso.w.data(), sso.m.data(), sso.v.data(), sso.g.data(), a, n, c)));
    CHECK(same_bits(ro.w, sso.w) && same_bits(ro.m, sso.m) && same_bits(ro.v, sso.v));
    if (cpu_has_avx()) {
      AdamState<Scalar> avx = s0;
      adam_avx(avx.w.data(), avx.m.data(), avx.v.data(), avx.g.data(), n, c);
      CHECK(same_bits(ref.w, avx.w) && same_bits(ref.m, avx.m) && same_bits(ref.v, avx.v));
      AdamState<Scalar> avo = s0;
      CHECK(same_bits(dref, adam_outer_avx(avo.w.data(), avo.m.data(), avo.v.data(), avo.g.data(), a, n, c)));
      CHECK(same_bits(ro.w, avo.w) && same_bits(ro.m, avo.m) && same_bits(ro.v, avo.v));
      std::vector<Scalar> ya = s0.w;
      axpy_avx(ya.data(), s0.g.data(), a, n);
      CHECK(same_bits(yr, ya));
    }
#endif
  }
}

}  // namespace

CORE_TEST(kernel_paths_give_identical_bits_float) {
  pgbb::Rng rng(41);
  check_all_paths<float>(rng);
}

CORE_TEST(kernel_paths_give_identical_bits_double) {
  pgbb::Rng rng(42);
  check_all_paths<double>(rng);
}
