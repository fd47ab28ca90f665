#pragma once
// Inline, table-driven natural log and exp for the step size controller (step_control.hpp):
// glibc's log and exp cost about 93 instructions per attempted step of ode45, a tenth of the
// step. Both are short, and the controller sits on the critical path of the step loop
// (err -> factor -> h -> the next step's stages), so the polynomials are evaluated in
// independent parts (Estrin's scheme) rather than one long Horner chain.
// Accuracy: a few ulp over the fast path, relative error far below 1e-13 (see the bounds at the
// polynomials). Arguments off the fast path (0, negative, subnormal, inf, NaN for log;
// |y| >= 700, inf, NaN for exp) go to std::log / std::exp.
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace simverify::simulation::detail {  // GCOVR_EXCL_BR_START (see the end of the file)
namespace log_exp {

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

constexpr long double kLn2 = series_log(2.0L);

// ln 2 split so that k ln2_hi is exact for |k| < 2^21 (hi has its low 21 bits cleared) and
// hi + lo carries ln 2 to about 2^-74 (lo from the long double value; where long double is
// double, lo is 0 and the tables below lose their extra bits: still a few 1e-16).
constexpr double split_hi(long double value) {
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(static_cast<double>(value)) &
                               ~((std::uint64_t{1} << 21) - 1));
}
constexpr double kLn2Hi = split_hi(kLn2);
constexpr double kLn2Lo = static_cast<double>(kLn2 - kLn2Hi);

// log: x = 2^e z with z in [1 - 2^-9, 2 - 2^-8), split into 128 intervals around the centres
// c_i = 1 + i/128 (interval 0, around 1, is [1 - 2^-9, 1 + 2^-8)): c_0 = 1 exactly, so near
// x = 1 the result is the polynomial of the exact z - 1 alone (no cancellation).
constexpr int kLogBits = 7;
constexpr int kLogSize = 1 << kLogBits;
struct LogEntry {
  double centre;   // c_i (exact)
  double inverse;  // 1 / c_i (rounded)
  double log_hi;   // log(c_i) = log_hi + log_lo to long double precision
  double log_lo;
};
constexpr std::array<LogEntry, kLogSize> make_log_table() {
  std::array<LogEntry, kLogSize> table{};
  for (int i = 0; i < kLogSize; ++i) {
    const long double c = 1.0L + static_cast<long double>(i) / kLogSize;
    const long double log_c = series_log(c);
    const double hi = static_cast<double>(log_c);
    table[static_cast<std::size_t>(i)] = {static_cast<double>(c), static_cast<double>(1.0L / c), hi,
                                          static_cast<double>(log_c - hi)};
  }
  return table;
}
inline constexpr auto kLogTable = make_log_table();

// exp: 2^(j/64), j = 0..63, rounded to double.
constexpr int kExpBits = 6;
constexpr int kExpSize = 1 << kExpBits;
constexpr std::array<double, kExpSize> make_exp_table() {
  std::array<double, kExpSize> table{};
  for (int j = 0; j < kExpSize; ++j) {
    table[static_cast<std::size_t>(j)] =
        static_cast<double>(series_exp(kLn2 * static_cast<long double>(j) / kExpSize));
  }
  return table;
}
inline constexpr auto kExpTable = make_exp_table();
constexpr double kExpScale = static_cast<double>(kExpSize / kLn2);  // 64 / ln 2
// ln2 / 64 split: k (ln2/64)_hi is exact for |k| < 2^21.
constexpr double kLn2By64Hi = split_hi(kLn2 / kExpSize);
constexpr double kLn2By64Lo = static_cast<double>(kLn2 / kExpSize - kLn2By64Hi);

}  // namespace log_exp

// log(x) = hi + lo in two parts for callers that go on to exp (the controller): hi, from the
// exponent and the table, is known while the polynomial in lo is still being evaluated, so
// fast_scaled_exp can reduce its argument's hi part meanwhile. |lo| <= 0.004 on the fast path;
// off it hi = std::log(x), lo = 0.
struct LogParts {
  double hi;
  double lo;
};

[[gnu::always_inline]] inline LogParts fast_log_parts(double x) {
  using namespace log_exp;
  const auto bits = std::bit_cast<std::uint64_t>(x);
  // Positive, normal and finite: the biased exponent in [1, 2046] and the sign clear.
  constexpr std::uint64_t kMinNormal = std::uint64_t{1} << 52;
  constexpr std::uint64_t kInfinity = std::uint64_t{0x7ff} << 52;
  if (bits - kMinNormal >= kInfinity - kMinNormal) [[unlikely]] {
    return {std::log(x), 0.0};
  }
  // Offset by half an interval below 1 (in the bits, interval 0 straddles 1): z = x 2^-e in
  // [1 - 2^-9, 2 - 2^-8) and i its interval.
  constexpr std::uint64_t kOffset = std::bit_cast<std::uint64_t>(1.0) - (std::uint64_t{1} << 44);
  const std::uint64_t shifted = bits - kOffset;
  const auto e = static_cast<std::int64_t>(shifted) >> 52;  // arithmetic: e < 0 below 1
  const auto i = static_cast<std::size_t>((shifted >> (52 - kLogBits)) & (kLogSize - 1));
  const double z = std::bit_cast<double>(bits - (shifted & (std::uint64_t{0xfff} << 52)));
  const LogEntry& entry = kLogTable[i];
  // e ln2_hi is exact; e ln2_hi + log_hi is exact where the two cancel (Sterbenz, e = -1 and
  // c_i >= sqrt 2), else one rounding of a sum not much larger than the result.
  const auto ed = static_cast<double>(e);
  const double hi = ed * kLn2Hi + entry.log_hi;
  const double lo = ed * kLn2Lo + entry.log_lo;
  // z - c is exact (Sterbenz: z and c within a factor 2), so r has one rounding of a product.
  const double r = (z - entry.centre) * entry.inverse;  // |r| <= 2^-8
  // log(1 + r) = r - r^2/2 + r^3/3 - r^4/4 + r^5/5 - r^6/6 + ...: the first term left out,
  // r^7/7, is relative to log(1 + r) ~ r at most |r|^6 / 7 <= 2^-48 / 7 ~ 5e-16. Three
  // independent parts (Estrin): 5 operations deep instead of Horner's 12. lo (0 near 1, where
  // the result is the polynomial alone) joins r off the longest chain.
  const double r2 = r * r;
  const double r4 = r2 * r2;
  const double low = -0.5 + r * (1.0 / 3.0);
  const double high = (-0.25 + r * 0.2) + r2 * (-1.0 / 6.0);
  return {hi, ((r + lo) + r2 * low) + r4 * high};
}

// Natural logarithm; the same value as std::log to a few ulp (exactly 0 at 1).
[[gnu::always_inline]] inline double fast_log(double x) {
  const LogParts parts = fast_log_parts(x);
  return parts.hi + parts.lo;
}

// c exp(y_hi + y_lo) for a moderate c (say 1e-10 .. 1e10) and |y_lo| <= 0.01 (fast_log_parts'
// lo times a factor of at most 2): k is taken from y_hi alone, so the reduction runs while y_lo
// is still being computed. Off the fast path (|y_hi| >= 700, inf, NaN) c std::exp(y_hi + y_lo).
[[gnu::always_inline]] inline double fast_scaled_exp(double c, double y_hi, double y_lo) {
  using namespace log_exp;
  // |y_hi| < 700 keeps 2^(k/64) and the result normal; also false for NaN.
  if (!(std::abs(y_hi) < 700.0)) [[unlikely]] {
    return c * std::exp(y_hi + y_lo);
  }
  // k = round(64 y_hi / ln 2) by the 1.5 2^52 shift: the sum's low bits hold k (|k| < 2^17).
  constexpr double kShift = 0x1.8p52;
  const double shifted = y_hi * kExpScale + kShift;
  const auto k_bits = std::bit_cast<std::uint64_t>(shifted);
  const double k = shifted - kShift;
  // r = y - k ln2/64: k ln2/64_hi is exact and so is its difference to y_hi (Sterbenz), |r| <=
  // ln2/128 + |y_lo| + a few ulp <= 0.0155.
  const double r = ((y_hi - k * kLn2By64Hi) - k * kLn2By64Lo) + y_lo;
  // exp(r) - 1 = r + r^2/2 + r^3/6 + r^4/24 + r^5/120 + ...: the first term left out, r^6/720,
  // is at most 0.0155^6 / 720 ~ 2e-14 of exp(r) (~ 4e-17 for y_lo = 0, |r| <= 0.0055; ~ 1e-15
  // for the controller's |y_lo| <= 0.004). Estrin as in the log.
  const double r2 = r * r;
  const double r4 = r2 * r2;
  const double q = (r + r2 * (0.5 + r * (1.0 / 6.0))) + r4 * ((1.0 / 24.0) + r * (1.0 / 120.0));
  // 2^(k/64) = 2^(k div 64) 2^(j/64), j = k mod 64 (the low bits of the sum): k div 64 is added
  // to the exponent bits (bits 6..17 of the sum, two's complement, moved to 52..63; the bits of
  // the shift constant itself fall off the top). c joins the scale off the critical path.
  const double table = kExpTable[static_cast<std::size_t>(k_bits & (kExpSize - 1))];
  const double scale =
      c * std::bit_cast<double>(std::bit_cast<std::uint64_t>(table) + ((k_bits >> kExpBits) << 52));
  return scale + scale * q;
}

// Exponential; the same value as std::exp to a few ulp (exactly 1 at 0).
[[gnu::always_inline]] inline double fast_exp(double y) {
  return fast_scaled_exp(1.0, y, 0.0);
}

// GCOVR_EXCL_BR_STOP: inlined into every step size controller, whose copies gcov counts apart;
// log_exp_test checks every branch (the fast paths and the special values).
}  // namespace simverify::simulation::detail
