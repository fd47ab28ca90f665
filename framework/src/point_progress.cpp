#include "point_progress.hpp"

#include <algorithm>

namespace simverify::framework {
namespace detail {
namespace {

// Per thread: a worker process has one, the thread executor one per pool thread.
thread_local std::atomic<double>* current_slot = nullptr;
thread_local double span_from = 0.0;
thread_local double span_to = 1.0;

}  // namespace

void attach_point_progress(std::atomic<double>* slot) {
  current_slot = slot;
  span_from = 0.0;
  span_to = 1.0;
}

}  // namespace detail

bool point_progress_read() {
  return detail::current_slot != nullptr;
}

void report_point_progress(double fraction) {
  std::atomic<double>* slot = detail::current_slot;
  if (slot == nullptr) return;
  const double f = std::clamp(fraction, 0.0, 1.0);  // NaN stays NaN: not stored
  if (!(f >= 0.0)) return;
  slot->store(detail::span_from + f * (detail::span_to - detail::span_from),
              std::memory_order_relaxed);
}

PointProgressSpan::PointProgressSpan(double from, double to)
    : saved_from_(detail::span_from), saved_to_(detail::span_to) {
  const double width = saved_to_ - saved_from_;
  detail::span_from = saved_from_ + std::clamp(from, 0.0, 1.0) * width;
  detail::span_to = saved_from_ + std::clamp(to, 0.0, 1.0) * width;
}

PointProgressSpan::~PointProgressSpan() {
  detail::span_from = saved_from_;
  detail::span_to = saved_to_;
}

}  // namespace simverify::framework
