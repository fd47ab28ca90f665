#pragma once
// x^p for a power p fixed per step size controller (step_control.hpp): err^-(1/(q+1) - 0.75 beta)
// for the next step and err^beta for the PI term. The controller is on the critical path of the
// step loop (err -> factor -> h -> every stage of the next step), so x^p takes two table loads
// and three dependent operations (docs/solvers.md, ninth and tenth passes):
//   x = 2^e z, z in [1, 2) in one of 256 cells of width 2^-8 around its centre c_i:
//   x^p = 2^(p e) z^p,  z^p ~ A_i + B_i t,  t = z - c_i  (exact: Sterbenz),  |t| <= 2^-9,
// 2^(p e) and the line (A_i, B_i) from the tables. c_i is x's leading bits, so t needs no load.
// Accuracy: the line through z^p's values at the cell's ends, lowered by half its largest
// distance from z^p, is within (1.01/2) |C(p, 2)| 2^-18 of z^p (the quadratic term of
// (1 + t/c_i)^p): 1.9e-7 for ode45's -0.17, 7.2e-7 for |p| <= 1/2, 1.9e-6 for |p| <= 1; the
// roundings add a few ulp. The controller needs no more: its safety factor eta is a guess to
// 10%, and an error of 1.9e-7 in the factor is a change of eta in its seventh digit.
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

// (1 + r)^p for |r| <= 2^-9 to long double precision: the binomial series, whose terms fall by
// |r| < 2^-9 each (with |p| <= 1); 10 terms leave < 1e-25.
constexpr long double binomial_series(long double p, long double r) {
  long double term = 1.0L;
  long double sum = 1.0L;
  for (int k = 1; k < 10; ++k) {
    term *= (p - (k - 1)) / k * r;
    sum += term;
  }
  return sum;
}

}  // namespace power_table

class PowerTable {
 public:
  static constexpr std::uint64_t kMantissaBits = (std::uint64_t{1} << 52) - 1;
  // The mantissa's leading kIntervalBits (the cell) and the bit below them (the cell's centre).
  static constexpr std::uint64_t kCellBits = ((std::uint64_t{1} << power_table::kIntervalBits) - 1)
                                             << (52 - power_table::kIntervalBits);
  static constexpr std::uint64_t kCentreBit = std::uint64_t{1} << (51 - power_table::kIntervalBits);

  // The tables of x^power, |power| <= 1, to long double precision: at compile time for the
  // shipped controllers (step_control.cpp), at run time for any other (46 us).
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
    // z^p = c^p (1 + r)^p with r = t / c over the cell, t in [-w, w]. The line through the
    // ends has the slope of B below; (ends + 2 centre) / 4 halves its largest error (at the
    // ends and at the centre, of opposite signs) for the quadratic term that dominates it.
    constexpr long double kHalfWidth = 1.0L / (2 * kIntervals);
    for (int i = 0; i < kIntervals; ++i) {
      const long double centre = 1.0L + (static_cast<long double>(i) + 0.5L) / kIntervals;
      const long double at_centre = series_exp(power * series_log(centre));
      const long double below = binomial_series(power, -kHalfWidth / centre);
      const long double above = binomial_series(power, kHalfWidth / centre);
      lines_[static_cast<std::size_t>(i)] = {
          .offset = static_cast<double>(at_centre * (below + 2.0L + above) / 4.0L),
          .slope = static_cast<double>(at_centre * (above - below) / (2.0L * kHalfWidth))};
    }
  }

  [[nodiscard]] constexpr double power() const { return power_; }

  // c x^p, c multiplied into 2^(p e) off x's path. x off the tables (not in their range, 0,
  // negative, subnormal, inf, NaN): c std::pow(x, p).
  [[gnu::always_inline]] double scaled(double c, double x) const {
    using namespace power_table;
    const auto bits = std::bit_cast<std::uint64_t>(x);
    const auto e = static_cast<std::int64_t>(bits >> 52) - 1023;
    // Also for a set sign bit, 0, subnormals, inf and NaN: e is then far outside the range.
    if (static_cast<std::uint64_t>(e - kMinExponent) >= kExponents) [[unlikely]] {
      return c * std::pow(x, power_);
    }
    const auto i = static_cast<std::size_t>((bits & kCellBits) >> (52 - kIntervalBits));
    // z = x 2^-e and c_i: x's mantissa, and its cell bits with the centre bit, under 1's
    // exponent. With SSE2 bit operations in the FP registers, without the round trip through an
    // integer register the portable form takes.
    constexpr std::uint64_t kOne = std::bit_cast<std::uint64_t>(1.0);
#if defined(__SSE2__)
    const auto mask = [](std::uint64_t m) {
      return _mm_castsi128_pd(_mm_set1_epi64x(static_cast<long long>(m)));
    };
    const __m128d v = _mm_set_sd(x);
    const double z = _mm_cvtsd_f64(_mm_or_pd(_mm_and_pd(v, mask(kMantissaBits)), mask(kOne)));
    const double centre =
        _mm_cvtsd_f64(_mm_or_pd(_mm_and_pd(v, mask(kCellBits)), mask(kOne | kCentreBit)));
#else
    const double z = std::bit_cast<double>((bits & kMantissaBits) | kOne);
    const double centre = std::bit_cast<double>((bits & kCellBits) | kOne | kCentreBit);
#endif
    const double t = z - centre;
    const Line& line = lines_[i];
    return (c * of_two_[static_cast<std::size_t>(e - kMinExponent)]) *
           (line.offset + line.slope * t);
  }

 private:
  struct Line {
    double offset;  // A_i: z^p at t = 0, lowered to halve the line's error
    double slope;   // B_i
  };
  double power_;
  std::array<double, power_table::kExponents> of_two_{};  // 2^(p e), e from kMinExponent
  std::array<Line, power_table::kIntervals> lines_{};     // z^p ~ A_i + B_i (z - c_i) per cell
};

// GCOVR_EXCL_BR_STOP: inlined into every step size controller, whose copies gcov counts apart;
// power_table_test checks every branch (the tables' range and the values off it).
}  // namespace simverify::simulation::detail
