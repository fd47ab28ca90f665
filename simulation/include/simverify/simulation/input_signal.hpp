#pragma once
// Input signals u(.) (Def 4.1): each gives its value and time derivative at any t. The
// factories below are what a requirement file's `u:` axis maps to (REQUIREMENTS-FORMAT.md),
// e.g. `{step: {at: 1, from: 0, to: 0.1}, hold: 0.01}` is
// `hold(step_input(1, 0, 0.1), 0.01)`. Signals are immutable and shared by the runs of a grid.
// Invalid arguments throw std::invalid_argument; see docs/models.md for every convention.
#include <simverify/simulation/model.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>

namespace simverify::simulation {

class InputSignal {
 public:
  virtual ~InputSignal() = default;
  [[nodiscard]] virtual InputSample at(double t) const = 0;
  // The first instant after t where u jumps or kinks (u' jumps: a ramp's start, a table's
  // knot); +infinity: none, the default. The simulator ends a step on it, reads u there from
  // the left (the value before the jump) and restarts the method after it, so no step
  // straddles the discontinuity, which would cost an adaptive method its order there (a
  // step input). A diagram's inports and `signal` blocks report theirs as time events.
  [[nodiscard]] virtual double next_jump(double /*t*/) const {
    return std::numeric_limits<double>::infinity();
  }
};

using InputPtr = std::shared_ptr<const InputSignal>;

// u(t) = value, u'(t) = 0.
[[nodiscard]] InputPtr constant_input(double value);

// u = from for t < at, to for t >= at (right-continuous). u' = 0 everywhere: the Dirac pulse
// at the jump is not representable, so models see the jump only through u.
[[nodiscard]] InputPtr step_input(double at, double from, double to);

// u = 0 for t < at, slope (t - at) for t >= at; u' = 0 before, slope from `at` on.
[[nodiscard]] InputPtr ramp_input(double at, double slope);

// u = amplitude sin(2 pi frequency t + phase); frequency in Hz, phase in rad.
[[nodiscard]] InputPtr sine_input(double amplitude, double frequency, double phase);

// Linear chirp: instantaneous frequency f(t) = f0 + (f1 - f0) t / duration on [0, duration],
// u = amplitude sin(phi(t)), phi' = 2 pi f(t), phi(0) = 0. Outside [0, duration] the
// frequency stays at f0 (t < 0) or f1 (t > duration), with continuous phase.
[[nodiscard]] InputPtr chirp_input(double amplitude, double f0, double f1, double duration);

// Piecewise linear through the rows of a CSV file with a header row; the first column is
// time (strictly increasing), `column` names the value column. u' is the slope of the
// segment containing t (the right segment at a knot); before the first and after the last
// time the end value is held (u' = 0). Malformed files throw std::runtime_error naming
// file:line. The path is used as given (callers resolve it relative to their YAML file).
[[nodiscard]] InputPtr table_input(const std::string& csv_path, const std::string& column);

// ISO 8608 random road profile of class 'A'..'H' (either case), driven at `speed` m/s.
// Displacement PSD G_d(n) = G_d(n0) (n / n0)^-2, n0 = 0.1 cycles/m, synthesized as a sum of
// kRoadSinusoids cosines over [kRoadBandLow, kRoadBandHigh] cycles/m with phases drawn
// from std::mt19937_64(seed); u(t) = z(speed t), u'(t) = speed z'(speed t) exactly.
// Same seed -> same profile on every platform (up to libm rounding of cos/sin).
[[nodiscard]] InputPtr road_input(char iso_class, double speed, std::uint64_t seed);

// White noise of intensity `std` with mean `mean` in continuous dynamics (the discrete noise
// update of Monte Carlo simulation): on each interval [k hold, (k + 1) hold) u is one draw
// nu_k ~ N(mean, std^2 / hold), held (u' = 0). The integral of u over T = n hold is then
// normal with mean `mean` T and variance std^2 T whatever steps the solver takes. Draw k is
// analysis::stream_seed(stream, k) through the normal quantile: the same u(t) for any
// evaluation order, thread and platform. Give every noise source its own stream. The ends
// of the intervals are jumps (next_jump), as a hold's sample instants are.
[[nodiscard]] InputPtr noise_input(double mean, double std, double hold, std::uint64_t stream);

// Zero-order hold: u(t) = signal(t_k).value with t_k = floor(t / T) T, u' = 0 (a held signal
// is piecewise constant). A t within round-off (16 eps max(|t_k|, T)) below a sample instant
// counts as that instant (0.3 is sample 3 of T = 0.1). Every sample instant is a jump
// (next_jump reports where the value changes), so no step straddles two samples.
[[nodiscard]] InputPtr hold(InputPtr signal, double sample_time);

// ISO 8608 road-class constants, exposed for tests and docs.
inline constexpr double kRoadReferenceFrequency = 0.1;  // n0 [cycles/m]
inline constexpr double kRoadBandLow = 0.011;           // [cycles/m], ISO 8608 band
inline constexpr double kRoadBandHigh = 2.83;           // [cycles/m]
inline constexpr int kRoadSinusoids = 200;

// G_d(n0) in m^3 for class 'A'..'H': 16e-6 * 4^k (A = 16e-6, B = 64e-6, ..., H = 262144e-6).
[[nodiscard]] double road_reference_psd(char iso_class);

// The variance of the profile height: integral of G_d over the band (analytic), in m^2.
[[nodiscard]] double road_band_variance(char iso_class);

}  // namespace simverify::simulation
