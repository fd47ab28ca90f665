#pragma once
// ln and exp for the step size controller (Thm 3.35): inline short series instead of libm's
// calls. The controller takes one of each per step, on the critical path err -> h -> the next
// step's stages; glibc's pair cost about 100 instructions there (callgrind), a tenth of an
// ode45 step on a 4-state system. The factor h_new / h needs no more than 1e-9 relative
// accuracy: the safety factor (eta = 0.9) already moves it by 10%.
//   control_log(x): absolute error below 1e-9;
//   control_exp(y): relative error below 3e-10 (bounds in the comments, tested against libm).
// Outside the normal range (0, subnormal, inf, NaN; |y| > 700) both defer to libm, so the
// special values come out as std::log / std::exp give them.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>

namespace simverify::simulation::detail {

// c0 + x (c1 + x (c2 + ...)): a polynomial by Horner's rule, lowest coefficient first.
template <class... Higher>
constexpr double horner(double x, double c0, Higher... higher) {
  if constexpr (sizeof...(higher) == 0) {
    return c0;
  } else {
    return c0 + x * horner(x, higher...);
  }
}

// ln x = k ln 2 + ln m with x = 2^k m, m in [sqrt(1/2), sqrt(2)), and
// ln m = 2 atanh(s) = 2 s (1 + z/3 + z^2/5 + z^3/7 + z^4/9 + ...), s = (m - 1)/(m + 1), z = s^2.
// |s| <= 3 - 2 sqrt(2) = 0.1716, so z <= 0.0295 and the terms left out are below
// 2 |s| z^5 / 11 / (1 - z) = 2.1e-9 |ln m| <= 7.3e-10.
inline double control_log(double x) {
  if (!(x >= std::numeric_limits<double>::min() && x <= std::numeric_limits<double>::max())) {
    return std::log(x);
  }
  // Subtracting the bits of sqrt(1/2) leaves the exponent of x / sqrt(1/2), floored, in the
  // top bits (as musl's log); taking k from x's exponent leaves m.
  constexpr std::uint64_t kSqrtHalfBits = 0x3fe6a09e667f3bcdULL;
  const auto bits = std::bit_cast<std::uint64_t>(x);
  const std::int64_t k = static_cast<std::int64_t>(bits - kSqrtHalfBits) >> 52;
  const double m = std::bit_cast<double>(bits - (static_cast<std::uint64_t>(k) << 52));
  const double f = m - 1.0;
  const double s = f / (2.0 + f);
  const double z = s * s;
  const double series = horner(z, 1.0, 1.0 / 3, 1.0 / 5, 1.0 / 7, 1.0 / 9);
  return static_cast<double>(k) * std::numbers::ln2 + 2.0 * s * series;
}

// e^y = 2^k e^r with k = round(y / ln 2), |r| <= ln(2)/2 = 0.3466, and e^r by its Taylor
// polynomial of degree 8: the rest is below e^|r| |r|^9 / 9! = 2.8e-10 relative.
inline double control_exp(double y) {
  if (!(std::abs(y) <= 700.0)) return std::exp(y);  // 2^k then stays a normal number
  // Adding 1.5 * 2^52 rounds to an integer (|y / ln 2| < 2^51), to nearest: no libm call
  // (std::nearbyint is one without SSE4.1).
  constexpr double kRoundingShift = 0x1.8p52;
  const double kd = (y * std::numbers::log2e + kRoundingShift) - kRoundingShift;
  const double r = y - kd * std::numbers::ln2;
  const double poly = horner(r, 1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720,
                             1.0 / 5040, 1.0 / 40320);
  const auto k = static_cast<std::int64_t>(kd);
  return poly * std::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52);
}

}  // namespace simverify::simulation::detail
