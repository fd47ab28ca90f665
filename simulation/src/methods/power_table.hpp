#pragma once
// x^p for a power p fixed per step size controller (step_control.hpp): err^-(1/(q+1) - 0.75 beta)
// for the next step and err^beta for the PI term. The controller is on the critical path of the
// step loop (err -> factor -> h -> every stage of the next step), and two table loads and one
// cubic are about half the latency of exp(p log x) (docs/solvers.md, ninth pass):
//   x = 2^e z, z in [1, 2) within 2^-9 of the centre c_i = 1 + (i + 1/2)/256:
//   x^p = 2^(p e) c_i^p (1 + r)^p,  r = z / c_i - 1,  |r| <= 2^-9,
// 2^(p e) and c_i^p from the tables, (1 + r)^p from its binomial series to r^3.
// Accuracy: the terms left out, C(p, 4) r^4 + ..., are at most 1.01 |C(p, 4)| 2^-36 of the result
// (1.5e-11 for |p| <= 1, 4.0e-12 for |p| <= 1/2, 8.4e-13 for ode45's -0.17); the roundings add a
// few ulp. The controller's factor needs no more: its safety factor alone is a guess to 10%.
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace simverify::simulation::detail {  // GCOVR_EXCL_BR_START (see the end of the file)
namespace power_table {

// log(c) for c in [1, 2) to long double precision at compile time:
// log(c) = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...), s = (c - 1) / (c + 1) <= 1/3, so the
// terms fall by s^2 <= 1/9 each; 40 terms leave < 1e-38.
constexpr long double series_log(long double c) {
  const long double s = (c - 1.0L) / (c + 1.0L);
  const long double s2 = s * s;
  long double power = s;
  long double sum = 0.0L;
  for (int n = 1; n < 80; n += 2) {
    sum += power / n;
    power *= s2;
  }
  return 2.0L * sum;
}

// exp(y) for |y| <= 1 to long double precision at compile time: the Taylor series; 30 terms
// leave < 1/30! ~ 4e-33.
constexpr long double series_exp(long double y) {
  long double term = 1.0L;
  long double sum = 1.0L;
  for (int n = 1; n < 30; ++n) {
    term *= y / n;
    sum += term;
  }
  return sum;
}

constexpr int kIntervalBits = 8;
constexpr int kIntervals = 1 << kIntervalBits;
constexpr int kMinExponent = -64;  // the tables cover x in [2^-64, 2^64)
constexpr int kExponents = 128;

// 1 / c_i (rounded), shared by every power.
constexpr std::array<double, kIntervals> make_inverses() {
  std::array<double, kIntervals> inverses{};
  for (int i = 0; i < kIntervals; ++i) {
    inverses[static_cast<std::size_t>(i)] =
        static_cast<double>(1.0L / (1.0L + (static_cast<long double>(i) + 0.5L) / kIntervals));
  }
  return inverses;
}
inline constexpr auto kInverses = make_inverses();

}  // namespace power_table

class PowerTable {
 public:
  static constexpr int kDegree = 3;
  static constexpr std::uint64_t kMantissaBits = (std::uint64_t{1} << 52) - 1;

  // The tables of x^power, |power| <= 1, to long double precision: at compile time for the
  // shipped controllers (step_control.cpp), at run time for any other (35 us).
  constexpr explicit PowerTable(long double power) : power_(static_cast<double>(power)) {
    using namespace power_table;
    if (!(power >= -1.0L && power <= 1.0L)) throw std::invalid_argument("PowerTable: |power| > 1");
    // 2^(p e) by repeated products of 2^(+-p): 64 roundings of long double, < 1e-17.
    const long double two_to_power = series_exp(power * series_log(2.0L));
    long double up = 1.0L;
    long double down = 1.0L;
    of_two_[static_cast<std::size_t>(-kMinExponent)] = 1.0;
    for (int e = 1; e <= -kMinExponent; ++e) {
      up *= two_to_power;
      down /= two_to_power;
      if (e < kExponents + kMinExponent) {
        of_two_[static_cast<std::size_t>(e - kMinExponent)] = static_cast<double>(up);
      }
      of_two_[static_cast<std::size_t>(-e - kMinExponent)] = static_cast<double>(down);
    }
    for (int i = 0; i < kIntervals; ++i) {
      const long double centre = 1.0L + (static_cast<long double>(i) + 0.5L) / kIntervals;
      of_centre_[static_cast<std::size_t>(i)] =
          static_cast<double>(series_exp(power * series_log(centre)));
    }
    // (1 + r)^p to r^3 = sum_k C(p, k) (u - 1)^k with u = 1 + r, as a polynomial in u itself:
    // coefficient j collects C(p, k) C(k, j) (-1)^(k - j) over k >= j.
    std::array<long double, kDegree + 1> binomial{1.0L};  // C(p, k) = C(p, k - 1) (p - k + 1) / k
    for (int k = 1; k <= kDegree; ++k) binomial[k] = binomial[k - 1] * (power - (k - 1)) / k;
    for (int j = 0; j <= kDegree; ++j) {
      long double sum = 0.0L;
      long double choose = 1.0L;  // C(k, j), from k = j
      for (int k = j; k <= kDegree; ++k) {
        sum += ((k - j) % 2 == 0 ? 1.0L : -1.0L) * binomial[k] * choose;
        choose = choose * (k + 1) / (k + 1 - j);
      }
      series_[static_cast<std::size_t>(j)] = static_cast<double>(sum);
    }
  }

  [[nodiscard]] constexpr double power() const { return power_; }

  // c x^p, c multiplied into the table values off x's path. x off the tables (not in their
  // range, 0, negative, subnormal, inf, NaN): c std::pow(x, p).
  [[gnu::always_inline]] double scaled(double c, double x) const {
    using namespace power_table;
    const auto bits = std::bit_cast<std::uint64_t>(x);
    const auto e = static_cast<std::int64_t>(bits >> 52) - 1023;
    // Also for a set sign bit, 0, subnormals, inf and NaN: e is then far outside the range.
    if (static_cast<std::uint64_t>(e - kMinExponent) >= kExponents) [[unlikely]] {
      return c * std::pow(x, power_);
    }
    const auto i = static_cast<std::size_t>((bits >> (52 - kIntervalBits)) & (kIntervals - 1));
    // z = x 2^-e: x's mantissa under 1's exponent. With SSE2 two bit operations in the FP
    // registers, without the round trip through an integer register the portable form takes.
#if defined(__SSE2__)
    const __m128d mantissa =
        _mm_castsi128_pd(_mm_set1_epi64x(static_cast<long long>(kMantissaBits)));
    const double z = _mm_cvtsd_f64(_mm_or_pd(_mm_and_pd(_mm_set_sd(x), mantissa), _mm_set_sd(1.0)));
#else
    const double z =
        std::bit_cast<double>((bits & kMantissaBits) | std::bit_cast<std::uint64_t>(1.0));
#endif
    // u = z / c_i is within 2^-9 of 1; its rounding (2^-53) moves the result by |p| 2^-53.
    const double u = z * kInverses[i];
    const double scale = c * of_two_[static_cast<std::size_t>(e - kMinExponent)] * of_centre_[i];
    // (1 + r)^p, r = u - 1, as a cubic in u (no subtraction on the critical path) in two
    // independent halves (Estrin): 4 operations deep instead of Horner's 6. Its coefficients
    // are O(1) and its value near 1: a few ulp of rounding.
    const double series = (series_[0] + series_[1] * u) + (u * u) * (series_[2] + series_[3] * u);
    return scale * series;
  }

 private:
  double power_;
  std::array<double, power_table::kExponents> of_two_{};     // 2^(p e), e from kMinExponent
  std::array<double, power_table::kIntervals> of_centre_{};  // c_i^p
  std::array<double, kDegree + 1> series_{};                 // (1 + r)^p to r^3 as a cubic in 1 + r
};

// GCOVR_EXCL_BR_STOP: inlined into every step size controller, whose copies gcov counts apart;
// power_table_test checks every branch (the tables' range and the values off it).
}  // namespace simverify::simulation::detail
