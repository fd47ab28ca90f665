#include "multiscale.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace simverify::simulation::detail {
namespace {

constexpr double kGridTolerance = 1e-9;  // relative; far above round-off, far below any h

}  // namespace

long multiscale_substeps(double sample_time, double h) {
  if (!(sample_time > 0.0) || !std::isfinite(sample_time)) {
    throw std::invalid_argument("sample_time must be a positive number");
  }
  if (!(h > 0.0)) throw std::invalid_argument("multiscale: step size h must be positive");
  const double ratio = sample_time / h;
  const double i = std::round(ratio);
  if (i < 1.0 || std::abs(ratio - i) > kGridTolerance * i) {
    throw std::invalid_argument("multiscale grid (Def 3.38): h = " + std::to_string(h) +
                                " does not divide the sample time T = " +
                                std::to_string(sample_time) + "; choose h = T / i");
  }
  return static_cast<long>(i);
}

long sampling_intervals(double t0, double tf, double sample_time) {
  const double ratio = (tf - t0) / sample_time;
  const double whole = std::round(ratio);
  if (std::abs(ratio - whole) <= kGridTolerance * std::max(1.0, whole)) {
    return std::max(1L, static_cast<long>(whole));
  }
  return static_cast<long>(std::ceil(ratio));
}

double sampling_interval_end(double t0, double tf, double sample_time, long k) {
  const double end = t0 + static_cast<double>(k + 1) * sample_time;
  if (k + 1 >= sampling_intervals(t0, tf, sample_time)) return tf;
  return std::min(end, tf);
}

}  // namespace simverify::simulation::detail
