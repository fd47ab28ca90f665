#pragma once
// x^p for a power p fixed per step size controller (step_control.hpp): err^-(1/(q+1) - 0.75 beta)
// for the next step and err^beta for the PI term. The controller is on the critical path of the
// step loop (err -> factor -> h -> every stage of the next step), and two table loads and one
// short polynomial are about half the latency of exp(p log x) (docs/solvers.md, ninth pass):
//   x = 2^e z, z in [1 - 2^-9, 2 - 2^-8) within 2^-8 of the centre c_i = 1 + i/128:
//   x^p = 2^(p e) c_i^p (1 + r)^p,  r = z / c_i - 1,  |r| <= 2^-8,
// 2^(p e) and c_i^p from the tables, (1 + r)^p - 1 from its binomial series to r^4.
// Accuracy: the first term left out, C(p, 5) r^5, is at most |C(p, 5)| 2^-40 of the result
// (9.1e-13 for |p| <= 1, 2.3e-13 for |p| <= 1/2, 4.4e-14 for ode45's -0.17); the roundings add a
// few ulp.
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

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

constexpr int kIntervalBits = 7;
constexpr int kIntervals = 1 << kIntervalBits;
constexpr int kMinExponent = -64;  // the tables cover x in [2^-64 (1 - 2^-9), 2^64 (1 - 2^-9))
constexpr int kExponents = 128;

// 1 / c_i (rounded), shared by every power.
constexpr std::array<double, kIntervals> make_inverses() {
  std::array<double, kIntervals> inverses{};
  for (int i = 0; i < kIntervals; ++i) {
    inverses[static_cast<std::size_t>(i)] =
        static_cast<double>(1.0L / (1.0L + static_cast<long double>(i) / kIntervals));
  }
  return inverses;
}
inline constexpr auto kInverses = make_inverses();

}  // namespace power_table

class PowerTable {
 public:
  // The tables of x^power, |power| <= 1, to long double precision: at compile time for the
  // shipped controllers (step_control.cpp), at run time for any other.
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
      const long double centre = 1.0L + static_cast<long double>(i) / kIntervals;
      of_centre_[static_cast<std::size_t>(i)] =
          static_cast<double>(series_exp(power * series_log(centre)));
    }
    // (1 + r)^p to r^4 = sum_k C(p, k) (u - 1)^k with u = 1 + r, as a polynomial in u itself:
    // coefficient j collects C(p, k) C(k, j) (-1)^(k - j) over k >= j.
    std::array<long double, 5> binomial{1.0L};  // C(p, k) = C(p, k - 1) (p - k + 1) / k
    for (int k = 1; k <= 4; ++k) binomial[k] = binomial[k - 1] * (power - (k - 1)) / k;
    for (int j = 0; j <= 4; ++j) {
      long double sum = 0.0L;
      long double choose = 1.0L;  // C(k, j), from k = j
      for (int k = j; k <= 4; ++k) {
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
    // Offset by half an interval below 1 (in the bits): interval 0 straddles 1, so z = x 2^-e
    // lies in [1 - 2^-9, 2 - 2^-8) and i is its interval.
    constexpr std::uint64_t kOffset = std::bit_cast<std::uint64_t>(1.0) - (std::uint64_t{1} << 44);
    const std::uint64_t shifted = bits - kOffset;
    const auto e = static_cast<std::int64_t>(shifted) >> 52;  // arithmetic: e < 0 below 1
    // Also for a set sign bit, 0, subnormals, inf and NaN: e is then far outside the range.
    if (static_cast<std::uint64_t>(e - kMinExponent) >= kExponents) [[unlikely]] {
      return c * std::pow(x, power_);
    }
    const auto i = static_cast<std::size_t>((shifted >> (52 - kIntervalBits)) & (kIntervals - 1));
    const double z = std::bit_cast<double>(bits - (shifted & (std::uint64_t{0xfff} << 52)));
    // u = z / c_i is within 2^-8 of 1; its rounding (2^-53) moves the result by |p| 2^-53.
    const double u = z * kInverses[i];
    const double scale = c * of_two_[static_cast<std::size_t>(e - kMinExponent)] * of_centre_[i];
    // (1 + r)^p, r = u - 1, as a polynomial in u (no subtraction on the critical path), in
    // independent parts (Estrin): 3 operations deep after u^2 instead of Horner's 8. Its
    // coefficients are O(1) and its value near 1: a few ulp of rounding.
    const double u2 = u * u;
    const double series =
        (series_[0] + series_[1] * u) + u2 * (series_[2] + series_[3] * u) + (u2 * u2) * series_[4];
    return scale * series;
  }

 private:
  double power_;
  std::array<double, power_table::kExponents> of_two_{};     // 2^(p e), e from kMinExponent
  std::array<double, power_table::kIntervals> of_centre_{};  // c_i^p
  std::array<double, 5> series_{};  // (1 + r)^p's series to r^4 as a polynomial in 1 + r
};

// GCOVR_EXCL_BR_STOP: inlined into every step size controller, whose copies gcov counts apart;
// power_table_test checks every branch (the tables' range and the values off it).
}  // namespace simverify::simulation::detail
