// The standard normal distribution: Phi, phi, log Phi and Phi^{-1}, defined once
// for the whole core (the losses, the generator's level features, the GDP
// conversions of the confidence-region paper and the baselines' samplers).
//
// Plain C++17, no R headers.
#ifndef PGBB_CORE_NORMAL_H
#define PGBB_CORE_NORMAL_H

#include <cmath>
#include <limits>
#include <stdexcept>

namespace pgbb {

namespace normal_detail {
constexpr double kLogSqrt2Pi = 0.91893853320467274178;  // log(sqrt(2 pi))
constexpr double kSqrt2 = 1.41421356237309504880;
constexpr double kInvSqrt2Pi = 0.39894228040143267794;  // 1 / sqrt(2 pi)
}  // namespace normal_detail

/// @brief Standard normal cdf Phi(z); the erfc form keeps full relative precision in the lower tail.
inline double norm_cdf(double z) { return 0.5 * std::erfc(-z / normal_detail::kSqrt2); }

/// @brief Standard normal density phi(z).
inline double norm_pdf(double z) { return normal_detail::kInvSqrt2Pi * std::exp(-0.5 * z * z); }

/// @brief log Phi(x), accurate in the far lower tail (where Phi(x) underflows).
/// Uses erfc down to x = -37 (erfc keeps full relative accuracy there) and the
/// asymptotic Mills-ratio series below, whose truncation error at x = -37 is
/// below 1e-15 relative.
inline double log_norm_cdf(double x) {
  if (std::isnan(x)) return x;
  if (x == std::numeric_limits<double>::infinity()) return 0.0;
  if (x == -std::numeric_limits<double>::infinity()) return -std::numeric_limits<double>::infinity();
  if (x > 0.0) return std::log1p(-0.5 * std::erfc(x / normal_detail::kSqrt2));
  if (x > -37.0) return std::log(0.5 * std::erfc(-x / normal_detail::kSqrt2));
  // Phi(x) = phi(x) / |x| * (1 - 1/x^2 + 3/x^4 - 15/x^6 + 105/x^8 - 945/x^10 + 10395/x^12 ...)
  const double t = 1.0 / (x * x);
  const double series =
      1.0 + t * (-1.0 + t * (3.0 + t * (-15.0 + t * (105.0 + t * (-945.0 + t * 10395.0)))));
  return -0.5 * x * x - normal_detail::kLogSqrt2Pi - std::log(-x) + std::log(series);
}

/// @brief Standard normal quantile Phi^{-1}(p) for 0 <= p <= 1 (-Inf and +Inf at
/// the ends; anything else throws), by Wichura's algorithm AS 241 (PPND16,
/// relative accuracy about 1e-16), the algorithm of R's qnorm(). Beyond
/// p = 1e-300, where AS 241's last rational piece was not fitted, one Newton step
/// on log Phi(x) = log p polishes the result.
inline double norm_quantile(double p) {
  if (!(p >= 0.0 && p <= 1.0)) throw std::invalid_argument("norm_quantile: p must be in [0, 1]");
  if (p == 0.0) return -std::numeric_limits<double>::infinity();
  if (p == 1.0) return std::numeric_limits<double>::infinity();
  const double q = p - 0.5;
  if (std::fabs(q) <= 0.425) {
    const double r = 0.180625 - q * q;
    return q * (((((((r * 2509.0809287301226727 + 33430.575583588128105) * r + 67265.770927008700853) * r +
                    45921.953931549871457) * r + 13731.693765509461125) * r + 1971.5909503065514427) * r +
                 133.14166789178437745) * r + 3.387132872796366608) /
           (((((((r * 5226.495278852545925 + 28729.085735721942674) * r + 39307.89580009271061) * r +
                21213.794301586595867) * r + 5394.1960214247511077) * r + 687.1870074920579083) * r +
             42.313330701600911252) * r + 1.0);
  }
  double r = q < 0 ? p : 1.0 - p;
  r = std::sqrt(-std::log(r));
  double val;
  if (r <= 5.0) {
    r -= 1.6;
    val = (((((((r * 7.7454501427834140764e-4 + 0.0227238449892691845833) * r + 0.24178072517745061177) * r +
               1.27045825245236838258) * r + 3.64784832476320460504) * r + 5.7694972214606914055) * r +
            4.6303378461565452959) * r + 1.42343711074968357734) /
          (((((((r * 1.05075007164441684324e-9 + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r +
               0.14810397642748007459) * r + 0.68976733498510000455) * r + 1.6763848301838038494) * r +
            2.05319162663775882187) * r + 1.0);
  } else {
    r -= 5.0;
    val = (((((((r * 2.01033439929228813265e-7 + 2.71155556874348757815e-5) * r + 0.0012426609473880784386) * r +
               0.026532189526576123093) * r + 0.29656057182850489123) * r + 1.7848265399172913358) * r +
            5.4637849111641143699) * r + 6.6579046435011037772) /
          (((((((r * 2.04426310338993978564e-15 + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r +
               7.868691311456132591e-4) * r + 0.0148753612908506148525) * r + 0.13692988092273580531) * r +
            0.59983220655588793769) * r + 1.0);
  }
  const double x = q < 0.0 ? -val : val;
  if (q < 0.0 && p < 1e-300) {
    const double lp = log_norm_cdf(x);  // Phi(x) / phi(x) = exp(lp + x^2 / 2 + log sqrt(2 pi))
    return x - (lp - std::log(p)) * std::exp(lp + 0.5 * x * x + normal_detail::kLogSqrt2Pi);
  }
  return x;
}

}  // namespace pgbb

#endif  // PGBB_CORE_NORMAL_H
