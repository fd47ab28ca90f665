#pragma once
// Internal: which sampling interval [k T, (k + 1) T) a time t falls in, for signals sampled
// and held with period T (the zero-order hold and the noise input).
#include <cmath>

namespace simverify::simulation::detail {

// floor(t / T), except that a t within 1e-9 T below a sample instant counts as that instant:
// t = 0.3 gives t / 0.1 = 2.9999999999999996, which sits on sample 3, not inside period 2.
// The snap width 1e-9 T is far above round-off and far below any useful T.
[[nodiscard]] inline double sample_index(double t, double sample_time) {
  constexpr double kSnap = 1e-9;
  double k = std::floor(t / sample_time);
  if ((k + 1.0) * sample_time - t <= kSnap * sample_time) k += 1.0;
  return k;
}

}  // namespace simverify::simulation::detail
