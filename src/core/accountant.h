// Dirichlet-aware Renyi-DP accountant of the PGBB paper: Proposition 2.2 and its
// proof in SM S2.2 (eqs. S18-S34), the RDP -> (epsilon, delta) conversions of SM S1.4,
// the noise calibration of SM S1.5 and the leading-order scale of Theorem 2.1 / (S51).
//
// Plain C++17, no R headers.
//
// What is bounded. One release of the noisy training step (4) is, conditionally on the
// differing record's weight w = u / n_S, the replace-one Poisson-subsampled Gaussian pair
// (S20). Birrell et al. (2024, Thm C.9), restated in (S22)-(S26), bound its order-lambda
// Renyi moment; integrating over u ~ Beta(gamma, (S-1) gamma + alpha) (SM S2.3.2) by
// the Beta-moment Taylor blocks (S28)-(S32) gives the per-release log-moment bound
// A_{J,lambda,m}(q) of (S33); T K releases compose by (S34).
//
// SECURITY-CRITICAL NUMERICS. M_k(w) of (S23) and the sums of (S30) are alternating sums
// of binomially weighted exponentials, with k up to lambda + m + 1 (262 at lambda = 256).
// Evaluated as written in double precision they cancel catastrophically (the terms reach
// 1e77 while the result can be 1e-60, or exactly 0) and can come out too small or
// negative, which would silently void the guarantee. We never evaluate them as written:
//
//  * M_k(w) = E_{Z~N(0,1)}[(L - 1)^k] with L = exp(a Z - a^2/2), a = wC/sigma, and as a
//    power series in tau_w = w^2 C^2 / (2 sigma^2),
//        M_k(w) = sum_{p >= ceil(k/2)} c_{k,p} tau_w^p,
//        c_{k,p} = (1/p!) sum_l (-1)^{k-l} binom(k,l) [l(l-1)]^p = (k!/p!) d_{p,k},
//    where d_{p,r} is the coefficient of the falling factorial x^(r) in (x^(2))^p
//    (the k-th forward difference at 0 of a polynomial picks its x^(k) coefficient times
//    k!). Since x^(r) x^(2) = x^(r+2) + 2r x^(r+1) + r(r-1) x^(r), the d_{p,r} obey a
//    recurrence with NON-NEGATIVE coefficients, so every c_{k,p} >= 0 and is computed in
//    log space without any subtraction. (This also proves M_k >= 0 for odd k, which the
//    Cauchy-Schwarz envelope of (S31) relies on.)
//  * Hence the T_{J,l}-part of (S30), sum_l (-1)^{k-l} binom(k,l) T_{J,l} + (-1)^{k-1}(k-1),
//    equals EXACTLY sum_{p = ceil(k/2)}^{J} c_{k,p} E[(n_S wbar)^{2p}] x^p with
//    x = C^2 / (2 sigma^2 n_S^2) (swap the two finite sums; the p = 0 slot cancels the
//    constant): a sum of non-negative terms. The R_{J,l}-part of (S30) is a sum of
//    non-negative terms already. So M-bar^Dir_{J,k} of (S30) is evaluated exactly as the
//    paper defines it, but as a sum of non-negative terms.
//  * The exponential-series tails R_{J,l} of (S28) and the sinh tail of R_{J,lambda} (S29)
//    are summed directly (positive terms plus a rigorous geometric bound on what is left)
//    or, far past the series' peak, as e^y (1 - Q) with Q < 1/2 a Poisson probability,
//    whose rounding error is bounded explicitly; never as e^y minus a partial sum near
//    the peak.
//  * For the deterministic weights ("worst-case": w = 1/n_S, "plain": w = 1) we need
//    M_k itself. Two rigorous upper bounds are computed and the smaller one is used:
//    (a) the alternating sum with the standard floating-point error bound
//    |error| <= ((k + 4) u + d) * sum |terms| ADDED to it, useful where the cancellation
//    is mild (large k^2 x), and (b) the non-negative series summed until a rigorous
//    bound on its tail (from c_{k,p} <= (k(k-1))^p / p!) is negligible, useful where x is
//    small. (b) is only computed where (a) has lost accuracy.
//  * READING CHOSEN (documented deviation, keeps the guarantee and only sharpens it):
//    M-bar^Dir_{J,k} is taken as min{(S30), M_k(1/n_S)}. Both bound E[M_k(wbar)] from
//    above (the second because M_k increases with w, its series coefficients being
//    non-negative). As printed, (S30) exceeds the worst-case value M_k(1/n_S) at large k
//    (its tails R_{J,l} drop the alternating signs, and for k > 2J + 1 its Beta-moment
//    part is empty), which made the Dirichlet-aware A larger than the worst-case A at
//    high orders (e.g. by 10 nats at lambda = 108 for the paper's S = 20 setting).
//  * Everything downstream ((S24)-(S26), (S31)-(S33)) is a sum of non-negative terms
//    (Lambda_k carries absolute values), evaluated in log space (log-sum-exp), so nothing
//    overflows before the final log: A is finite whenever it is below ~1e308, and Inf
//    otherwise. Any NaN in a term is turned into +Inf (a trivially valid upper bound).
//  * The remaining rounding (a few ulps per operation on log-quantities of bounded
//    magnitude) is covered by an explicit margin added to the log of the total; see
//    LogMomentAccountant::rounding_margin().
#ifndef PGBB_CORE_ACCOUNTANT_H
#define PGBB_CORE_ACCOUNTANT_H

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "stop.h"

namespace pgbb {

namespace acct {

constexpr double kInf = std::numeric_limits<double>::infinity();
/// Unit roundoff u of IEEE double (half the machine epsilon).
constexpr double kUnit = std::numeric_limits<double>::epsilon() / 2;
/// Largest order lambda accepted (the work is O(lambda_max^2) per noise level).
constexpr int kMaxOrder = 4096;
/// Largest truncation orders accepted.
constexpr int kMaxJ = 1000;
constexpr int kMaxM = 100;

/// @brief Log-sum-exp accumulator of non-negative terms exp(a_i). A NaN term is
/// treated as +Inf: every quantity accumulated here is an upper bound, and +Inf is
/// always a valid one.
class LogSum {
 public:
  void add(double a) {
    if (std::isnan(a)) a = kInf;
    if (a == -kInf) return;
    if (a == kInf) { inf_ = true; return; }
    if (a <= max_) {
      sum_ += std::exp(a - max_);
    } else {
      sum_ = sum_ * std::exp(max_ - a) + 1.0;
      max_ = a;
    }
    ++n_;
  }
  double value() const {
    if (inf_) return kInf;
    if (n_ == 0) return -kInf;
    return max_ + std::log(sum_);
  }
  int count() const { return n_; }

 private:
  double max_ = -kInf;
  double sum_ = 0.0;
  int n_ = 0;
  bool inf_ = false;
};

/// log(exp(a) + exp(b)).
inline double log_add(double a, double b) {
  LogSum s;
  s.add(a);
  s.add(b);
  return s.value();
}

/// log(1 + exp(a)), stable for every a.
inline double log1p_exp(double a) {
  if (std::isnan(a)) return kInf;
  if (a == kInf) return kInf;
  if (a > 0) return a + std::log1p(std::exp(-a));
  return std::log1p(std::exp(a));
}

/// log(expm1(y)) for y >= 0 (-Inf at 0).
inline double log_expm1(double y) {
  if (y == kInf) return kInf;
  if (y > 30) return y + std::log1p(-std::exp(-y));
  return std::log(std::expm1(y));
}

/// log(sinh(z)) for z >= 0.
inline double log_sinh(double z) {
  if (z == kInf) return kInf;
  if (z < 1) return std::log(std::sinh(z));
  return z + std::log1p(-std::exp(-2 * z)) - std::log(2.0);
}

/// Upper bound on log sum_{i in I} y^i / i!, where I = {first, first + step, ...}
/// with step 1 (all terms past first - 1) or step 2 (same parity as first), y >= 0:
/// the tails R_{J,l} of (S28) (step 1, first = J + 1) and the sinh tail of R_{J,lambda}
/// in (S29) (step 2, first = 2J + 3).
///
/// Up to y <= 2 first + 64 the series is summed directly from `first` on, in log space;
/// once the term ratio r_i = y^step / ((i+1)...(i+step)) is below 1 and the term below
/// 2^-62 of the sum, the rest is at most term * r / (1 - r) (the ratios decrease), which
/// is added. Beyond, the series' mass sits far past `first`: the tail is
/// F(y) - partial, F = e^y or sinh(y), and partial / F <= 2 P(Poisson(y) <= first - 1)
/// <= 2 exp(-0.15 y) < 1e-4, so 1 - partial/F is well conditioned; partial/F is
/// inflated by its explicit rounding bound before the subtraction.
inline double log_series_tail_upper(double y, int first, int step) {
  if (!(y > 0)) return std::isnan(y) ? kInf : -kInf;
  if (y == kInf) return kInf;
  const double ly = std::log(y);
  if (y <= 2.0 * first + 64.0) {
    LogSum sum;
    double lt = first * ly - std::lgamma(first + 1.0);
    int i = first;
    for (;;) {
      sum.add(lt);
      double lr = step * ly;  // log ratio to the next term
      for (int s = 1; s <= step; ++s) lr -= std::log(static_cast<double>(i) + s);
      if (lr < 0 && lt < sum.value() - 43.0) {  // e^-43 < 2^-62
        const double r = std::exp(lr);
        sum.add(lt + lr - std::log1p(-r));
        break;
      }
      lt += lr;
      i += step;
    }
    return sum.value();
  }
  // Complement: partial = sum_{i < first, i in the same class} y^i / i!.
  LogSum partial;
  const int start = (step == 1) ? 0 : (first % 2);
  double mag = 0;
  for (int i = start; i < first; i += step) {
    const double lf = std::lgamma(i + 1.0);
    partial.add(i * ly - lf);
    mag = std::max(mag, i * std::fabs(ly) + lf);
  }
  const double lF = (step == 1) ? y : log_sinh(y);
  // Relative rounding error of partial / F: each term's log is formed from quantities
  // of magnitude <= mag + y, the sum has first / step terms.
  const double err = 16 * kUnit * (mag + y + 8 + first);
  const double lratio_lo = partial.value() - lF - err;
  return lF + std::log1p(-std::exp(lratio_lo));
}

}  // namespace acct

/// @brief Which law of the differing record's weight the accountant integrates over.
enum class AccountantKind {
  kDirichlet,  ///< w = u / n_S, u ~ Beta(gamma, (S-1) gamma + alpha): Prop. 2.2 / (S33)
  kWorstCase,  ///< w = 1 / n_S deterministically (Remark 2.2's comparison)
  kPlain       ///< w = 1: the replace-one Poisson-subsampled Gaussian of Birrell et al.
               ///< (per-record sensitivity C; the DP-SGLD baseline)
};

/// @brief Public inputs of the accountant. Nothing here may depend on the data.
struct AccountantSetup {
  AccountantKind kind = AccountantKind::kDirichlet;
  double n = 0;       ///< number of records (unused by kPlain)
  double blocks = 0;  ///< S (unused by kPlain)
  double gamma = 1;   ///< block Dirichlet concentration (kDirichlet only)
  double alpha = 0;   ///< pseudo-sample concentration, SM S2.3.2 (kDirichlet only)
  double clip = 1;    ///< C: bound on the per-record gradient norm
  double rate = 0.1;  ///< q: Poisson subsampling rate
  int J = 32;         ///< Beta-moment truncation order of (S28)-(S29)
  int m = 5;          ///< Taylor truncation order of (S22)
};

/// @brief Upper bound A_{J,lambda,m}(q) of (S33) on the per-release order-lambda
/// log-moment, for a fixed set of integer orders. The sigma-independent tables are
/// built once, so that evaluating many noise levels (calibration, curves) is cheap.
class LogMomentAccountant {
 public:
  LogMomentAccountant(const AccountantSetup& setup, std::vector<int> orders)
      : setup_(setup), orders_(std::move(orders)) {
    validate();
    deterministic_ = setup_.kind != AccountantKind::kDirichlet;
    // n_S = floor(n / S): when S does not divide n the blocks have floor(n/S) or
    // ceil(n/S) records (blocking.h); every bound below increases with the weight
    // w <= 1/n_(block), so accounting with the smallest block size is conservative.
    n_s_ = setup_.kind == AccountantKind::kPlain ? 1.0 : std::floor(setup_.n / setup_.blocks);
    lam_max_ = *std::max_element(orders_.begin(), orders_.end());
    const int m = setup_.m;
    k_max_ = lam_max_ + m + 1;  // B-bar_{m+l} for l <= lambda needs M-bar up to m+lambda+1
    // Series order P of candidate (b) (exact M_k series, deterministic weight): it needs
    // P well past k^2 x wherever (a) cancels badly (k^2 x up to a few hundred). The
    // coefficient table has (P + 1) x (k_max + 1) entries, capped at ~4e6; it is built
    // up to row J at once and extended to row P only when (b) is first needed.
    const int budget = static_cast<int>(4000000 / (k_max_ + 1));
    p_det_ = std::max(setup_.J, std::max(256, std::min(4 * k_max_, budget)));

    // log i! is also read at i = 2j + 1 <= 2J + 1 by the Beta-moment part of (S29).
    const int nf = std::max({k_max_, p_det_, 2 * setup_.J + 1}) + 2 * m + 8;
    lf_.resize(nf + 1);
    for (int i = 0; i <= nf; ++i) lf_[i] = std::lgamma(i + 1.0);

    static_mag_ = 4 * lf_[nf] + std::fabs(std::log(setup_.rate)) * (k_max_ + m) +
                  std::fabs(std::log1p(-setup_.rate)) * (k_max_ + m) + 64;
    build_moments();
    d_row_.assign(k_max_ + 1, -acct::kInf);
    d_row_[0] = 0.0;  // d_{0,0} = 1
    ensure_coefficients(setup_.J);
    build_order_tables();
    for (double v : log_nu_) static_mag_ = std::max(static_mag_, std::fabs(v) + 4 * lf_[nf]);
  }

  const std::vector<int>& orders() const { return orders_; }
  const AccountantSetup& setup() const { return setup_; }
  /// Block size used by the accountant: floor(n / S) (1 for kPlain).
  double n_s() const { return n_s_; }
  /// E[(n_S wbar)^2]: kappa_{S,gamma,alpha} of SM S2.3.2 for kDirichlet, 1 otherwise.
  double second_moment() const { return deterministic_ ? 1.0 : std::exp(log_nu_[1]); }

  /// @brief Per-sigma intermediate quantities (logs), exposed for tests.
  struct Pieces {
    double x = 0;                     ///< C^2 / (2 sigma^2 n_S^2)
    std::vector<double> log_mbar;     ///< log M-bar_k, k = 0..k_max ((S30) capped; k < 2: -Inf)
    std::vector<double> log_bbar;     ///< log B-bar_k (S31)
    double log_phi = 0;               ///< log of (M_{J,lambda} + R_{J,lambda}) / (2 lambda (lambda-1)) (S29)
    std::vector<double> log_theta;    ///< log Theta'(r), r = 0..lambda_max (see below)
    double margin = 0;                ///< rounding margin added to log of the excess
  };

  /// @brief Evaluate the sigma-dependent pieces (log space).
  Pieces pieces(double sigma) const {
    if (!(sigma > 0)) throw std::invalid_argument("accountant: 'sigma' must be positive");
    Pieces pc;
    const double x = (setup_.clip / (sigma * n_s_)) * (setup_.clip / (sigma * n_s_)) / 2;
    pc.x = x;
    const double lx = std::log(x);
    const int m = setup_.m, K = k_max_;
    int p_used = setup_.J;  // longest series order used (for the rounding margin)
    // Only even k are computed: (S31) and (S24)-(S26) use M-bar_k for even k only (odd k
    // enter through sqrt(M-bar_{k-1} M-bar_{k+1})). Odd entries are left at +Inf.
    pc.log_mbar.assign(K + 1, acct::kInf);
    pc.log_mbar[0] = pc.log_mbar[1] = -acct::kInf;
    if (!deterministic_) {
      // (S30) with the tails R_{J,l}, as a sum of non-negative terms.
      const std::vector<double> log_r = tails(x, setup_.J, K);
      for (int k = 2; k <= K; k += 2) pc.log_mbar[k] = series_bound(k, lx, log_r);
      // Cap by the worst-case envelope: M_k(w) has non-negative series coefficients, so
      // it increases with w, and wbar <= 1/n_S gives E[M_k(wbar)] <= M_k(1/n_S). Both are
      // upper bounds on E[M_k(wbar)], so their minimum is one. Without the cap, (S30)
      // exceeds M_k(1/n_S) at large k (its tails drop the alternating signs, and for
      // k > 2J + 1 its Beta-moment part is empty), and the "Dirichlet-aware" bound would
      // be larger than the worst-case one at high orders.
      std::vector<double> cap;
      p_used = std::max(p_used, deterministic_mk(x, lx, &pc.log_mbar, cap));
      for (int k = 2; k <= K; k += 2) pc.log_mbar[k] = std::min(pc.log_mbar[k], cap[k]);
    } else {
      p_used = std::max(p_used, deterministic_mk(x, lx, nullptr, pc.log_mbar));
    }
    double dyn_mag = 0;
    if (x > 0) dyn_mag = std::fabs(lx) * (p_used + 2) + static_cast<double>(K) * K * x;
    if (!std::isfinite(dyn_mag)) dyn_mag = 0;  // Inf/NaN inputs give Inf terms below
    for (int k = 2; k <= K; k += 2)
      if (std::isfinite(pc.log_mbar[k])) dyn_mag = std::max(dyn_mag, std::fabs(pc.log_mbar[k]));
    // (S31): B-bar_k = M-bar_k (k even), sqrt(M-bar_{k-1} M-bar_{k+1}) (k odd).
    pc.log_bbar.assign(K + 1, -acct::kInf);
    for (int k = 2; k < K; ++k)
      pc.log_bbar[k] = (k % 2 == 0) ? pc.log_mbar[k] : 0.5 * (pc.log_mbar[k - 1] + pc.log_mbar[k + 1]);

    // (S29): E[Phi_lambda(wbar)] <= 2 lambda (lambda-1) phi with
    // phi = sum_{j<=J} (2x)^{2j+1} nu_{2j+1} / (2j+1)! + sum_{j>J} (2x)^{2j+1} / (2j+1)!.
    if (!(x > 0)) {
      pc.log_phi = -acct::kInf;
    } else if (deterministic_) {
      pc.log_phi = acct::log_sinh(2 * x);
    } else {
      acct::LogSum s;
      const double l2x = std::log(2 * x);
      for (int j = 0; j <= setup_.J; ++j) s.add((2 * j + 1) * l2x + log_nu_[2 * j + 1] - lf_[2 * j + 1]);
      s.add(acct::log_series_tail_upper(2 * x, 2 * setup_.J + 3, 2));
      pc.log_phi = s.value();
    }

    // Theta'(r) = sum_{l=0}^{r} q^l r!/(r-l)! m!/(m+l)! B-bar_{m+l}, so that (S26) reads
    // Theta_{lambda,m,j} = B-bar_m + Theta'(lambda - j) for j < lambda.
    const double lq = std::log(setup_.rate);
    pc.log_theta.assign(lam_max_ + 1, -acct::kInf);
    for (int r = 0; r <= lam_max_; ++r) {
      acct::LogSum s;
      for (int l = 0; l <= r; ++l)
        s.add(l * lq + lf_[r] - lf_[r - l] + lf_[m] - lf_[m + l] + pc.log_bbar[m + l]);
      pc.log_theta[r] = s.value();
    }
    for (double v : pc.log_theta)
      if (std::isfinite(v)) dyn_mag = std::max(dyn_mag, std::fabs(v));
    pc.margin = rounding_margin(dyn_mag, p_used);
    return pc;
  }

  /// @brief A_{J,lambda,m}(q) of (S33) at every order (same order as orders()); an upper
  /// bound on the per-release log-moment log E_Q[(dP/dQ)^lambda]. Never NaN, never
  /// negative; +Inf when the bound exceeds the double range.
  std::vector<double> log_moments(double sigma) const {
    const Pieces pc = pieces(sigma);
    std::vector<double> out(orders_.size());
    for (std::size_t i = 0; i < orders_.size(); ++i) out[i] = log_moment_at(i, pc);
    return out;
  }

 private:
  void validate() const {
    const AccountantSetup& s = setup_;
    if (orders_.empty()) throw std::invalid_argument("accountant: 'orders' must not be empty");
    for (int o : orders_)
      if (o < 2 || o > acct::kMaxOrder)
        throw std::invalid_argument("accountant: every order must be a whole number between 2 and " +
                                    std::to_string(acct::kMaxOrder));
    if (!(s.clip > 0) || !std::isfinite(s.clip))
      throw std::invalid_argument("accountant: 'clip' must be a positive finite number");
    if (!(s.rate > 0 && s.rate < 1))
      throw std::invalid_argument("accountant: 'rate' must be strictly between 0 and 1");
    if (s.J < 0 || s.J > acct::kMaxJ)
      throw std::invalid_argument("accountant: 'J' must be a whole number between 0 and " +
                                  std::to_string(acct::kMaxJ));
    if (s.m < 3 || s.m > acct::kMaxM)
      throw std::invalid_argument("accountant: 'm' must be a whole number between 3 and " +
                                  std::to_string(acct::kMaxM));
    if (s.kind == AccountantKind::kPlain) return;
    if (!(s.blocks >= 2) || s.blocks != std::floor(s.blocks))
      throw std::invalid_argument("accountant: 'blocks' must be a whole number of at least 2");
    if (!(s.n >= s.blocks) || s.n != std::floor(s.n) || !std::isfinite(s.n))
      throw std::invalid_argument("accountant: 'n' must be a whole number of at least 'blocks'");
    if (s.kind == AccountantKind::kDirichlet) {
      if (!(s.gamma > 0) || !std::isfinite(s.gamma))
        throw std::invalid_argument("accountant: 'gamma' must be a positive finite number");
      if (!(s.alpha >= 0) || !std::isfinite(s.alpha))
        throw std::invalid_argument("accountant: 'alpha' must be a non-negative finite number");
    }
  }

  // log nu_p, nu_p = E[u^{2p}] = (gamma)_{2p} / (S gamma + alpha)_{2p} for
  // u ~ Beta(gamma, (S-1) gamma + alpha) (S35); each factor
  // (gamma + i) / (S gamma + alpha + i) = 1 - ((S-1) gamma + alpha) / (S gamma + alpha + i)
  // is taken through log1p, so the product keeps full relative accuracy.
  void build_moments() {
    const int np = 2 * setup_.J + 2;
    log_nu_.assign(np + 1, 0.0);
    if (deterministic_) return;
    const double g = setup_.gamma, S = setup_.blocks, a = setup_.alpha;
    const double b = (S - 1) * g + a, tot = S * g + a;
    double acc = 0;
    int i = 0;
    for (int p = 1; p <= np; ++p) {
      for (; i < 2 * p; ++i) acc += std::log1p(-b / (tot + i));
      log_nu_[p] = acc;
    }
  }

  // log c_{k,p} = log k! + log d_{p,k} - log p!, with the non-negative recurrence
  // d_{p+1,r} = d_{p,r-2} + 2(r-1) d_{p,r-1} + r(r-1) d_{p,r}, d_{0,0} = 1 (header
  // comment). Only r <= k_max is needed; d_{p,r} = 0 unless 2 <= r <= 2p (p >= 1), since
  // (x(x-1))^p vanishes at 0 and 1 and has degree 2p. Rows are appended up to P (the
  // table is a cache: the object stays logically const).
  void ensure_coefficients(int P) const {
    const int K = k_max_;
    std::vector<double> nd(K + 1);
    for (int p = static_cast<int>(log_c_.size()); p <= P; ++p) {
      if (p > 0) {  // advance d_row_ from row p - 1 to row p
        std::fill(nd.begin(), nd.end(), -acct::kInf);
        for (int r = 2; r <= std::min(K, 2 * p); ++r) {
          acct::LogSum s;
          s.add(d_row_[r - 2]);
          s.add(std::log(2.0 * (r - 1)) + d_row_[r - 1]);
          s.add(std::log(static_cast<double>(r) * (r - 1)) + d_row_[r]);
          nd[r] = s.value();
        }
        d_row_.swap(nd);
      }
      const int rmax = std::min(K, 2 * p);
      std::vector<double> row(rmax + 1, -acct::kInf);
      for (int r = 2; r <= rmax; ++r) {
        row[r] = lf_[r] + d_row_[r] - lf_[p];
        coef_mag_ = std::max(coef_mag_, std::fabs(row[r]) + lf_[r] + lf_[p] + std::fabs(d_row_[r]));
      }
      log_c_.push_back(std::move(row));
    }
  }

  // log R_{P,l}, l = 2, 4, ..., kmax: upper bounds on the tails sum_{j>P} y^j/j! at
  // y = l(l-1) x (only even l: only even k are needed, and (S30) pairs l with k's parity).
  std::vector<double> tails(double x, int P, int kmax) const {
    std::vector<double> out(k_max_ + 1, acct::kInf);
    if (x > 0) {
      for (int l = 2; l <= kmax; l += 2)
        out[l] = acct::log_series_tail_upper(static_cast<double>(l) * (l - 1) * x, P + 1, 1);
    } else if (x == 0) {
      std::fill(out.begin(), out.end(), -acct::kInf);
    }
    return out;
  }

  // Upper bounds on log M_k(x) at the deterministic weight (x = C^2/(2 sigma^2 n_S^2)),
  // k = 2..k_max, into `out`: candidate (a) everywhere, candidate (b) where (a) has lost
  // accuracy to cancellation (its bound is then loose, never wrong); the smaller is kept.
  // With `current` (the Dirichlet bound being capped), (b) is skipped where (a)'s LOWER
  // bound on M_k already exceeds current[k] (the cap cannot bind). Returns the largest
  // series order used.
  int deterministic_mk(double x, double lx, const std::vector<double>* current,
                       std::vector<double>& out) const {
    const int K = k_max_;
    out.assign(K + 1, acct::kInf);  // odd k: never used (see pieces())
    std::vector<char> need_b(K + 1, 0);
    int kb = 0;
    for (int k = 2; k <= K; k += 2) {
      double rel = 0, log_lower = -acct::kInf;
      out[k] = alternating_bound(k, x, &rel, &log_lower);
      if (rel <= 1e-9) continue;  // (a) is tight to 1e-9: (b) cannot help materially
      if (current != nullptr) {
        // Cheaper lower bound: the first terms sum_{p<=J} c_{k,p} x^p of M_k's
        // non-negative series (coefficients already cached).
        if (!std::isnan(lx) && lx != -acct::kInf) {
          acct::LogSum low;
          const int ptop = std::min(setup_.J, static_cast<int>(log_c_.size()) - 1);
          for (int p = (k + 1) / 2; p <= ptop; ++p)
            if (k < static_cast<int>(log_c_[p].size())) low.add(log_c_[p][k] + p * lx);
          log_lower = std::max(log_lower, low.value());
        }
        if (!((*current)[k] > log_lower)) continue;  // the cap cannot bind
      }
      need_b[k] = 1;
      kb = k;
    }
    if (kb == 0) return 0;
    int p_used = 0;
    for (int k = 2; k <= kb; k += 2)
      if (need_b[k]) out[k] = std::min(out[k], exact_series_bound(k, x, &p_used));
    return p_used;
  }

  // Candidate (b): M_k(x) = sum_{p >= ceil(k/2)} c_{k,p} x^p (non-negative terms). The
  // tail is bounded through c_{k,p} <= (k(k-1))^p / p!: evaluating the identity
  // (t(t-1))^p = sum_r d_{p,r} t^(r) at t = k gives (k(k-1))^p = sum_{r<=k} d_{p,r} k!/(k-r)!,
  // a sum of non-negative terms, so k! d_{p,k} <= (k(k-1))^p. Hence, with y = k(k-1) x,
  // sum_{p>P} c_{k,p} x^p <= R_P(y) = sum_{p>P} y^p / p!, and for P + 2 > y,
  // R_P(y) <= y^{P+1}/(P+1)! (P+2)/(P+2-y). The sum stops as soon as that bound is below
  // 2^-62 of the partial sum (and is then added), or at p_det_ (exact tail bound added).
  double exact_series_bound(int k, double x, int* p_used) const {
    if (!(x > 0)) return x == 0 ? -acct::kInf : acct::kInf;
    const double lx = std::log(x), y = static_cast<double>(k) * (k - 1) * x, ly = std::log(y);
    acct::LogSum s;
    for (int p = (k + 1) / 2; p <= p_det_; ++p) {
      if (p >= static_cast<int>(log_c_.size())) ensure_coefficients(std::min(p_det_, p + 64));
      s.add(log_c_[p][k] + p * lx);
      *p_used = std::max(*p_used, p);
      if (p + 2 > y) {
        const double lrest = (p + 1) * ly - lf_[p + 1] + std::log((p + 2) / (p + 2 - y));
        if (lrest < s.value() - 43.0) {
          s.add(lrest);
          return s.value();
        }
      }
    }
    s.add(acct::log_series_tail_upper(y, p_det_ + 1, 1));
    return s.value();
  }

  // sigma-independent per-order tables: log Lambda_k(lambda) of (S24) and the
  // coefficients of (S25).
  void build_order_tables() {
    const int m = setup_.m;
    const double q = setup_.rate;
    const std::size_t no = orders_.size();
    log_lambda_k_.assign(no, std::vector<double>(m, -acct::kInf));
    log_e_coef_.assign(no, std::vector<double>(m + 1, -acct::kInf));
    for (std::size_t oi = 0; oi < no; ++oi) {
      const double lam = orders_[oi];
      for (int k = 3; k <= m - 1; ++k) {
        // Lambda_k(lambda) = sum_j binom(k,j) |lambda/(lambda-1) P_j - 1|. Each product is
        // formed with at most k + 2 roundings (relative error <= (k + 3) u |v|), so
        // |v - 1| + (k + 3) u |v| + u bounds the exact |v_exact - 1| from above.
        double total = 0;
        for (int j = 0; j <= k; ++j) {
          double v = lam / (lam - 1);
          for (int l = 0; l <= j - 1; ++l) v *= (1 - l / lam);
          for (int l = 0; l <= k - j - 1; ++l) v *= (1 + (l - 1) / lam);
          const double term = std::fabs(v - 1) + (k + 3) * acct::kUnit * std::fabs(v) + acct::kUnit;
          total += std::exp(lf_[k] - lf_[j] - lf_[k - j]) * term;
        }
        // (4 or 3) + Lambda_k, inflated by the rounding of the final sum.
        const double base = (k % 2 == 0) ? 4.0 : 3.0;
        log_lambda_k_[oi][k] = std::log((base + total) * (1 + 2 * (k + 4) * acct::kUnit));
      }
      // (S25): q^m/m! binom(m,j) (1-q)^{-(lambda+m-j-1)} prod_{l<j}|lambda-l|
      // prod_{l<m-j}(lambda+l-1); the factor |lambda - l| vanishes for j > lambda.
      for (int j = 0; j <= m; ++j) {
        if (j > lam) break;
        double la = 0;
        for (int l = 0; l <= j - 1; ++l) la += std::log(std::fabs(lam - l));
        double lb = 0;
        for (int l = 0; l <= m - j - 1; ++l) lb += std::log(lam + l - 1);
        log_e_coef_[oi][j] = m * std::log(q) - lf_[m] + (lf_[m] - lf_[j] - lf_[m - j]) -
                             (lam + m - j - 1) * std::log1p(-q) + la + lb;
        static_mag_ = std::max(static_mag_, std::fabs(log_e_coef_[oi][j]) + 4 * lf_[m] +
                                                (lam + m) * (std::fabs(std::log1p(-q)) + std::log(lam + m)));
      }
    }
  }

  // M-bar_k of (S30) as a sum of non-negative terms:
  //   sum_{p=ceil(k/2)}^{J} c_{k,p} nu_p x^p + sum_{l = k mod 2, 2<=l<=k} binom(k,l) R_{J,l}.
  double series_bound(int k, double lx, const std::vector<double>& log_r) const {
    acct::LogSum s;
    if (!std::isnan(lx) && lx != -acct::kInf) {
      for (int p = (k + 1) / 2; p <= setup_.J; ++p) {
        if (k >= static_cast<int>(log_c_[p].size())) continue;
        s.add(log_c_[p][k] + log_nu_[p] + p * lx);
      }
    }
    for (int l = (k % 2 == 0) ? 2 : 3; l <= k; l += 2) s.add(lf_[k] - lf_[l] - lf_[k - l] + log_r[l]);
    return s.value();
  }

  // Candidate (a) for deterministic weights: M_k = sum_{l=0}^{k} (-1)^{k-l} binom(k,l)
  // e^{l(l-1)x} (the l = 0, 1 terms give (-1)^{k-1}(k-1) of (S23)) summed in double with
  // every term scaled by the largest, plus the rigorous error bound
  // ((k + 4) u + d) * sum |terms|, d bounding the relative error of each term from its
  // log (formed from numbers of magnitude <= 3 log k! + k^2 x). Returns +Inf (no
  // information) when the bound is not positive; *rel receives the error bound relative
  // to the computed value and *log_lower the log of the matching lower bound.
  double alternating_bound(int k, double x, double* rel, double* log_lower) const {
    *rel = acct::kInf;
    *log_lower = -acct::kInf;
    if (!(x > 0)) {
      if (x == 0) *rel = 0;
      return x == 0 ? -acct::kInf : acct::kInf;
    }
    double lmax = std::log(k - 1.0);
    for (int l = 2; l <= k; ++l)
      lmax = std::max(lmax, lf_[k] - lf_[l] - lf_[k - l] + static_cast<double>(l) * (l - 1) * x);
    if (!std::isfinite(lmax)) return acct::kInf;
    double s = ((k - 1) % 2 == 0 ? 1.0 : -1.0) * std::exp(std::log(k - 1.0) - lmax);
    double a = std::fabs(s);
    for (int l = 2; l <= k; ++l) {
      const double t = std::exp(lf_[k] - lf_[l] - lf_[k - l] + static_cast<double>(l) * (l - 1) * x - lmax);
      s += ((k - l) % 2 == 0) ? t : -t;
      a += t;
    }
    const double d = 32 * acct::kUnit * (3 * lf_[k] + static_cast<double>(k) * k * x + 8);
    const double err = a * ((k + 4) * acct::kUnit + d) * 1.01;
    const double upper = s + err;
    if (!(upper > 0) || !(s > 0)) return acct::kInf;
    *rel = err / s;
    if (s - err > 0) *log_lower = lmax + std::log(s - err);
    return lmax + std::log(upper);
  }

  // Rounding margin added to the log of the total excess in (S33). Every log-quantity
  // entering a term is formed by at most P + k_max + m + lambda_max + 66 floating-point
  // operations (P = longest coefficient recurrence used; Theta' adds lambda_max) on
  // numbers of magnitude at most `mag` (static tables + sigma-dependent pieces), each with
  // relative error <= 2u (IEEE arithmetic and a faithful libm exp/log/lgamma), so its
  // absolute error is below 2u (ops) (mag + 8); log-sum-exp is 1-Lipschitz in the sup
  // norm and adds (n + 2) u. Doubling that gives the margin. In practice it is 1e-8 to
  // 1e-7 (loose on purpose): it changes sigma in the 8th digit.
  double rounding_margin(double dyn_mag, int p_used) const {
    const double ops = p_used + k_max_ + setup_.m + 64 + (lam_max_ + 2);
    return 4 * acct::kUnit * ops * (static_mag_ + coef_mag_ + dyn_mag + 8);
  }

  double log_moment_at(std::size_t oi, const Pieces& pc) const {
    const int lam = orders_[oi];
    const int m = setup_.m;
    const double q = setup_.rate, lq = std::log(q);
    const double llam = std::log(static_cast<double>(lam)), llam1 = std::log(lam - 1.0);
    acct::LogSum total;
    // q^2 (M_{J,lambda} + R_{J,lambda}) of (S33).
    total.add(2 * lq + std::log(2.0) + llam + llam1 + pc.log_phi);
    // sum_{k=3}^{m-1} q^k/k! F-bar_{J,lambda,k}, with
    // F-bar = (lambda-1) lambda^{k-1} B-bar_k (4 or 3 + Lambda_k(lambda)) ((S24) after (S31)).
    for (int k = 3; k <= m - 1; ++k)
      total.add(k * lq - lf_[k] + llam1 + (k - 1) * llam + pc.log_bbar[k] + log_lambda_k_[oi][k]);
    // E-bar_{J,lambda,m}(q) of (S25)-(S26) with B-bar substituted.
    for (int j = 0; j <= std::min(m, lam); ++j) {
      const double theta =
          (j < lam) ? acct::log_add(pc.log_bbar[m], pc.log_theta[lam - j]) : pc.log_bbar[m];
      total.add(log_e_coef_[oi][j] + theta);
    }
    const double excess = total.value() + pc.margin;
    // A = log(1 + excess) >= 0; the last factor covers the rounding of log1p/exp.
    const double a = acct::log1p_exp(excess) * (1 + 8 * acct::kUnit);
    if (std::isnan(a)) return acct::kInf;
    return std::max(a, 0.0);
  }

  AccountantSetup setup_;
  std::vector<int> orders_;
  bool deterministic_ = false;
  double n_s_ = 1;
  int lam_max_ = 2, k_max_ = 8, p_det_ = 256;
  std::vector<double> lf_;                         // log i!
  std::vector<double> log_nu_;                     // log E[u^{2p}]
  mutable std::vector<std::vector<double>> log_c_; // log c_{k,p}, indexed [p][k] (cache)
  mutable std::vector<double> d_row_;              // log d_{p,r} of the last cached row
  std::vector<std::vector<double>> log_lambda_k_;  // log(4 or 3 + Lambda_k(lambda)) [order][k]
  std::vector<std::vector<double>> log_e_coef_;    // (S25) coefficients [order][j]
  double static_mag_ = 0;
  mutable double coef_mag_ = 0;
};

// ---------------------------------------------------------------------------------
// RDP -> (epsilon, delta) conversions (SM S1.4) and composition (S34).

enum class Conversion {
  kAsoodeh,  ///< Asoodeh et al. (2021), (S1), both branches
  kMironov   ///< Mironov (2017): epsilon = rdp + log(1/delta) / (lambda - 1)
};

/// @brief Total RDP of T K releases at order lambda, (S34): T K A(lambda) / (lambda - 1).
inline double compose_rdp(double log_moment, int lambda, double releases) {
  if (std::isnan(log_moment)) return acct::kInf;
  if (log_moment == acct::kInf) return acct::kInf;
  if (log_moment <= 0) return 0.0;
  return releases * log_moment / (lambda - 1.0) * (1 + 4 * acct::kUnit);
}

/// @brief Smallest epsilon certified at order lambda for target delta from an RDP
/// value gamma(lambda) ((S1) / SM S1.5), rounded outward.
inline double epsilon_at_order(double rdp, int lambda, double delta, Conversion conv) {
  if (std::isnan(rdp) || rdp == acct::kInf) return acct::kInf;
  rdp = std::max(rdp, 0.0);
  const double l1 = lambda - 1.0, ldelta = std::log(delta);
  double eps;
  double mag;
  if (conv == Conversion::kMironov) {
    eps = rdp - ldelta / l1;
    mag = rdp + std::fabs(ldelta) / l1;
  } else if (lambda * delta < 1) {
    // log zeta_lambda = (lambda-1) log(lambda-1) - lambda log(lambda)
    const double lzeta = l1 * std::log(l1) - lambda * std::log(static_cast<double>(lambda));
    const double y = l1 * rdp;
    const double t1 = std::max(0.0, y - ldelta + lzeta);
    // log(1 + (e^y - 1) / (lambda delta))
    const double t2 = acct::log1p_exp(acct::log_expm1(y) - std::log(lambda * delta));
    eps = std::min(t1, t2) / l1;
    mag = (y + std::fabs(ldelta) + std::fabs(lzeta) + std::log(static_cast<double>(lambda)) + 1) / l1;
  } else {
    eps = std::max(0.0, rdp + std::log1p(-delta));
    mag = rdp + std::fabs(std::log1p(-delta));
  }
  if (std::isnan(eps)) return acct::kInf;
  return eps + 16 * acct::kUnit * (mag + 1);
}

/// @brief Smallest delta certified at order lambda for target epsilon (the inverse of
/// epsilon_at_order in delta; (S1) is monotone in delta and continuous at
/// lambda delta = 1), rounded outward and capped at 1.
inline double delta_at_order(double rdp, int lambda, double eps, Conversion conv) {
  if (std::isnan(rdp) || rdp == acct::kInf) return 1.0;
  rdp = std::max(rdp, 0.0);
  const double l1 = lambda - 1.0;
  const double y = l1 * rdp, e = l1 * eps;
  const double slack = 16 * acct::kUnit * (y + e + 2 * std::log(static_cast<double>(lambda)) + 8);
  double ldelta;
  if (conv == Conversion::kMironov) {
    ldelta = y - e;
  } else {
    const double lzeta = l1 * std::log(l1) - lambda * std::log(static_cast<double>(lambda));
    const double d1 = y - e + lzeta;  // from the first term of (S1)
    const double d2 = acct::log_expm1(y) - std::log(static_cast<double>(lambda)) - acct::log_expm1(e);
    const double lfirst = std::min(d1, d2);
    if (lfirst + std::log(static_cast<double>(lambda)) <= 0) {
      ldelta = lfirst;  // lambda delta <= 1 branch
    } else {
      // lambda delta >= 1 branch: delta >= max(1/lambda, 1 - e^{eps - rdp}).
      const double second = std::max(1.0 / lambda, -std::expm1(eps - rdp));
      ldelta = std::log(second);
    }
  }
  if (std::isnan(ldelta)) return 1.0;
  return std::min(1.0, std::exp(ldelta + slack));
}

/// @brief A value optimised over the order grid, and the optimal order.
struct OrderOptimum {
  double value = acct::kInf;
  int order = 0;
};

/// @brief min over orders of epsilon_at_order(rdp[i], orders[i], delta).
inline OrderOptimum best_epsilon(const std::vector<double>& rdp, const std::vector<int>& orders,
                                 double delta, Conversion conv) {
  OrderOptimum best;
  best.order = orders.empty() ? 0 : orders[0];
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const double e = epsilon_at_order(rdp[i], orders[i], delta, conv);
    if (e < best.value) { best.value = e; best.order = orders[i]; }
  }
  return best;
}

/// @brief min over orders of delta_at_order(rdp[i], orders[i], epsilon).
inline OrderOptimum best_delta(const std::vector<double>& rdp, const std::vector<int>& orders,
                               double eps, Conversion conv) {
  OrderOptimum best;
  best.value = 1.0;
  best.order = orders.empty() ? 0 : orders[0];
  bool first = true;
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const double d = delta_at_order(rdp[i], orders[i], eps, conv);
    if (first || d < best.value) { best.value = d; best.order = orders[i]; first = false; }
  }
  return best;
}

/// @brief epsilon(sigma) of SM S1.5: the best certified epsilon after T K releases.
inline OrderOptimum epsilon_of_sigma(const LogMomentAccountant& acc, double sigma, double releases,
                                     double delta, Conversion conv) {
  const std::vector<double> a = acc.log_moments(sigma);
  std::vector<double> rdp(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) rdp[i] = compose_rdp(a[i], acc.orders()[i], releases);
  return best_epsilon(rdp, acc.orders(), delta, conv);
}

/// @brief Leading-order noise scale of Theorem 2.1 / (S45)-(S49) (an APPROXIMATION,
/// never used for the guarantee). With c(sigma) = 2 T K q^2 C^2 kappa / (sigma^2 n_S^2)
/// (S46) and L = log(1/delta), the reduced Mironov objective (S48) is
/// c + 2 sqrt(c L); `with_constants` solves c + 2 sqrt(c L) = epsilon exactly, otherwise
/// the display (5) / (S51) C q sqrt(T K L kappa) / (n_S epsilon) (constants dropped, as
/// its "gtrsim" allows; about 2 sqrt(2) times smaller).
inline double sigma_leading_order(const LogMomentAccountant& acc, double releases, double epsilon,
                                  double delta, bool with_constants) {
  const AccountantSetup& s = acc.setup();
  const double L = -std::log(delta), kappa = acc.second_moment(), ns = acc.n_s();
  if (!with_constants) return s.clip * s.rate * std::sqrt(releases * L * kappa) / (ns * epsilon);
  // c = (sqrt(L + epsilon) - sqrt(L))^2, written without the subtraction.
  const double root_sum = std::sqrt(L + epsilon) + std::sqrt(L);
  const double c = epsilon * epsilon / (root_sum * root_sum);
  return std::sqrt(2 * releases * kappa / c) * s.rate * s.clip / ns;
}

/// @brief Result of the noise calibration.
struct Calibration {
  double sigma = 0;    ///< feasible noise scale: epsilon(sigma) <= target
  double epsilon = 0;  ///< epsilon(sigma) actually certified
  int order = 0;       ///< optimal order at sigma
  int evaluations = 0;
};

/// @brief Smallest sigma (to relative tolerance rel_tol) with epsilon(sigma) <= epsilon,
/// by bracketing and bisection on log sigma (SM S1.5). The FEASIBLE endpoint is returned,
/// so the certified epsilon never exceeds the target. `should_stop` is polled once per
/// evaluation (user interrupts); returning true aborts with std::runtime_error.
inline Calibration calibrate_sigma(const LogMomentAccountant& acc, double releases, double epsilon,
                                   double delta, Conversion conv, double rel_tol,
                                   const StopCallback& should_stop = {}) {
  if (!(epsilon > 0) || !std::isfinite(epsilon))
    throw std::invalid_argument("calibrate_sigma: 'epsilon' must be a positive finite number");
  if (!(delta > 0 && delta < 1))
    throw std::invalid_argument("calibrate_sigma: 'delta' must be strictly between 0 and 1");
  if (!(rel_tol > 0 && rel_tol < 1))
    throw std::invalid_argument("calibrate_sigma: 'tol' must be strictly between 0 and 1");
  // As sigma -> Inf the RDP vanishes; the certified epsilon tends to its value at zero
  // RDP. If that is not below the target, no noise level achieves it.
  {
    std::vector<double> zero(acc.orders().size(), 0.0);
    const OrderOptimum floor_eps = best_epsilon(zero, acc.orders(), delta, conv);
    if (!(floor_eps.value < epsilon)) {
      // Four significant digits (std::to_string's fixed format printed small floors as 0.000000).
      std::ostringstream floor_txt;
      floor_txt.precision(4);
      floor_txt << floor_eps.value;
      // The budget is too small for these settings whatever the noise: say what would help.
      throw std::invalid_argument(
          "the privacy budget is too small for these settings: 'epsilon' is below " +
          floor_txt.str() +
          ", the smallest epsilon this conversion certifies at 'delta' with these 'orders' "
          "even with unbounded noise. Raise 'epsilon' or 'delta', or use larger 'orders'" +
          std::string(conv == Conversion::kMironov ? ", or conversion = \"asoodeh\"" : "") + ".");
    }
  }
  Calibration res;
  auto eval = [&](double sigma) {
    stop_if_asked(should_stop);
    ++res.evaluations;
    return epsilon_of_sigma(acc, sigma, releases, delta, conv);
  };
  double start = sigma_leading_order(acc, releases, epsilon, delta, true);
  if (!(start > 0) || !std::isfinite(start)) start = 1.0;
  start = std::min(std::max(start, 1e-150), 1e150);
  double lo, hi;
  OrderOptimum at_hi = eval(start);
  if (at_hi.value <= epsilon) {
    hi = start;
    lo = start / 2;
    for (;;) {
      const OrderOptimum e = eval(lo);
      if (e.value > epsilon) break;
      hi = lo;
      at_hi = e;
      lo /= 2;
      if (lo < 1e-300) throw std::runtime_error("calibrate_sigma: no lower bracket found");
    }
  } else {
    lo = start;
    hi = 2 * start;
    for (;;) {
      const OrderOptimum e = eval(hi);
      if (e.value <= epsilon) { at_hi = e; break; }
      lo = hi;
      hi *= 2;
      if (hi > 1e300)
        throw std::runtime_error("calibrate_sigma: no feasible noise scale below 1e300");
    }
  }
  while ((hi - lo) / hi > rel_tol) {
    const double mid = std::sqrt(lo) * std::sqrt(hi);
    if (!(mid > lo && mid < hi)) break;
    const OrderOptimum e = eval(mid);
    if (e.value <= epsilon) {
      hi = mid;
      at_hi = e;
    } else {
      lo = mid;
    }
  }
  res.sigma = hi;
  res.epsilon = at_hi.value;
  res.order = at_hi.order;
  return res;
}

}  // namespace pgbb

#endif  // PGBB_CORE_ACCOUNTANT_H
