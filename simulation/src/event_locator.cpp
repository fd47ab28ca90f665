#include "event_locator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace simverify::simulation::detail {
namespace {

constexpr int kMaxLocateIterations = 200;

[[nodiscard]] int sign(double v) {
  return (v > 0.0) - (v < 0.0);
}

}  // namespace

EventLocator::EventLocator(const Model& model, const EventSettings& settings,
                           Eigen::Index dimension)
    : model_(&model),
      settings_(settings),
      count_(model.info().events.size()),
      g_start_(count_, 0.0),
      samples_t_(static_cast<std::size_t>(std::max(settings.interior_samples, 0)) + 2, 0.0),
      samples_g_(count_ * samples_t_.size(), 0.0),
      located_(count_, 0.0),
      interval_(count_, 0),
      g_point_(count_, 0.0),
      x_work_(dimension),
      x_event_(dimension) {
  directions_.reserve(count_);
  for (const auto& spec : model.info().events) directions_.push_back(spec.direction);
  fired_.reserve(count_);
}

double EventLocator::value(std::size_t index, double t, const Vector& x, Context& context,
                           const InputAt& input) {
  ++evaluations_;
  context.u = input(t);
  return model_->event_value(index, t, x, context);
}

void EventLocator::values(double t, const Vector& x, Context& context, const InputAt& input) {
  evaluations_ += static_cast<long>(count_);
  context.u = input(t);
  model_->event_values(t, x, context, g_point_);
}

void EventLocator::reset(double t, const Vector& x, Context& context, const InputAt& input) {
  values(t, x, context, input);
  std::copy(g_point_.begin(), g_point_.end(), g_start_.begin());
}

bool EventLocator::crosses(std::size_t index, double g_a, double g_b) const {
  // A start exactly on the surface is no crossing (events.hpp); an end exactly on it is.
  if (g_a == 0.0 || (g_b != 0.0 && sign(g_a) == sign(g_b))) return false;
  switch (directions_[index]) {
    case EventDirection::rising: return g_a < 0.0;
    case EventDirection::falling: return g_a > 0.0;
    case EventDirection::either: return true;
  }
  return true;
}

double EventLocator::locate(std::size_t index, double lo, double g_lo, double hi, double g_hi,
                            const Stepper& stepper, Context& context, const InputAt& input) {
  // Illinois variant of regula falsi: the secant keeps the bracket; when the same end is
  // kept twice its value is halved, which restores superlinear convergence (Dahlquist and
  // Bjorck, Numerical Methods, 6.2).
  int kept = 0;  // +1: lo kept last time, -1: hi kept last time
  for (int iteration = 0; iteration < kMaxLocateIterations && g_hi != 0.0; ++iteration) {
    const double tolerance = std::max(settings_.time_tolerance * std::max(1.0, std::abs(hi)),
                                      4.0 * std::numeric_limits<double>::epsilon() * std::abs(hi));
    if (hi - lo <= tolerance) break;
    double t = hi - g_hi * (hi - lo) / (g_hi - g_lo);
    if (!(t > lo && t < hi)) t = 0.5 * (lo + hi);  // round-off: fall back to bisection
    stepper.interpolate(t, x_work_);
    const double g = value(index, t, x_work_, context, input);
    if (g == 0.0 || sign(g) == sign(g_hi)) {
      hi = t;
      g_hi = g;
      if (kept == +1) g_lo *= 0.5;
      kept = +1;
    } else {
      lo = t;
      g_lo = g;
      if (kept == -1) g_hi *= 0.5;
      kept = -1;
    }
  }
  return hi;
}

bool EventLocator::search(const Stepper& stepper, double t_a, double t_b, const Vector& x_b,
                          Context& context, const InputAt& input) {
  const std::size_t n = samples_t_.size();
  for (std::size_t j = 0; j < n; ++j) {
    samples_t_[j] = t_a + (t_b - t_a) * static_cast<double>(j) / static_cast<double>(n - 1);
  }
  samples_t_[n - 1] = t_b;
  // All events at once per sample (Model::event_values): one evaluation of an FMU's N
  // indicators per sample instead of N.
  values(t_b, x_b, context, input);
  for (std::size_t i = 0; i < count_; ++i) {
    samples_g_[i * n] = g_start_[i];
    samples_g_[i * n + n - 1] = g_point_[i];
  }
  for (std::size_t j = 1; j + 1 < n; ++j) {
    stepper.interpolate(samples_t_[j], x_work_);
    values(samples_t_[j], x_work_, context, input);
    for (std::size_t i = 0; i < count_; ++i) samples_g_[i * n + j] = g_point_[i];
  }

  // Each event's first bracketing sample interval; only those that can be the earliest are
  // located (a located time lies in its interval, so an event whose interval starts after
  // the earliest located time cannot fire with it). In order of the intervals, so with many
  // events crossing in one step only the first interval's are located, not all of them
  // (with an FMU each locator iteration evaluates all its indicators).
  std::size_t first = n;
  for (std::size_t i = 0; i < count_; ++i) {
    located_[i] = std::numeric_limits<double>::infinity();
    interval_[i] = n;
    const double* g = &samples_g_[i * n];
    for (std::size_t j = 0; j + 1 < n; ++j) {
      if (!crosses(i, g[j], g[j + 1])) continue;
      interval_[i] = j;
      first = std::min(first, j);
      break;
    }
  }
  double earliest = std::numeric_limits<double>::infinity();
  for (std::size_t j = first; j + 1 < n && samples_t_[j] <= earliest; ++j) {
    for (std::size_t i = 0; i < count_; ++i) {
      if (interval_[i] != j) continue;
      const double* g = &samples_g_[i * n];
      located_[i] =
          locate(i, samples_t_[j], g[j], samples_t_[j + 1], g[j + 1], stepper, context, input);
      earliest = std::min(earliest, located_[i]);
    }
  }
  if (!std::isfinite(earliest)) {
    for (std::size_t i = 0; i < count_; ++i) g_start_[i] = samples_g_[i * n + n - 1];
    return false;
  }

  // Events within the location tolerance of the earliest fire together; the reported time
  // is the latest of their right ends, so every one of them has crossed there.
  const double tolerance = settings_.time_tolerance * std::max(1.0, std::abs(earliest));
  fired_.clear();
  t_event_ = earliest;
  for (std::size_t i = 0; i < count_; ++i) {
    if (located_[i] <= earliest + tolerance) {
      fired_.push_back(i);
      t_event_ = std::max(t_event_, located_[i]);
    }
  }
  if (t_event_ >= t_b) {
    x_event_ = x_b;
    t_event_ = t_b;
  } else {
    stepper.interpolate(t_event_, x_event_);
  }
  return true;
}

}  // namespace simverify::simulation::detail
