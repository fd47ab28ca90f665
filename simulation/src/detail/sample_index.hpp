#pragma once
// Internal: which sampling interval a time t falls in, for signals sampled and held with
// period T (the `hold:` of an input and the noise input), and where the next one starts.
#include <algorithm>
#include <cmath>
#include <limits>

namespace simverify::simulation::detail {

// Where sample k takes over: k T, less a snap of round-off width, so that a t a few ulps below
// k T counts as that instant (t = 0.3 is 2.9999999999999996 T for T = 0.1, but sits on sample
// 3). 16 ulps of max(|k T|, T) cover a decimal instant against the product k T; the simulator
// steps onto this very instant (sample_start is what next_jump reports), so moving the jump by
// the snap changes the integral of u by round-off only.
[[nodiscard]] inline double sample_start(double k, double sample_time) {
  constexpr double kSnap = 16.0 * std::numeric_limits<double>::epsilon();
  const double s = k * sample_time;
  return s - kSnap * std::max(std::abs(s), sample_time);
}

// The k with sample_start(k) <= t < sample_start(k + 1): the sample held at t. Both sides of a
// jump agree with it: the simulator reads u just below sample_start(k + 1) (from the left) as
// sample k, and from sample_start(k + 1) on as sample k + 1.
[[nodiscard]] inline double sample_index(double t, double sample_time) {
  double k = std::floor(t / sample_time);  // within one of the answer
  if (sample_start(k + 1.0, sample_time) <= t) {
    k += 1.0;
  } else if (t < sample_start(k, sample_time)) {
    k -= 1.0;
  }
  return k;
}

// The first instant after t where the held value changes (InputSignal::next_jump).
[[nodiscard]] inline double next_sample_start(double t, double sample_time) {
  if (!std::isfinite(t)) return t < 0.0 ? t : std::numeric_limits<double>::infinity();
  return sample_start(sample_index(t, sample_time) + 1.0, sample_time);
}

}  // namespace simverify::simulation::detail
