// Alg 9, line 3: Q(u) <- Q(gamma(u)) for one grid point, shared by both executors.
#include "executor.hpp"

#include <chrono>
#include <cmath>
#include <stdexcept>

namespace simverify::framework {

PointResult evaluate_point(const Component& component, const Requirement& r, std::size_t index,
                           PointClock& clock, double timeout_seconds, const MeasureNeeds* needs,
                           const std::atomic<bool>* stop,
                           const std::filesystem::path* temp_folder) {
  PointResult p;
  p.index = index;
  try {
    const PointContext context{.requirement = &r,
                               .index = index,
                               .seed = point_seed(r, index),
                               .timeout_seconds = timeout_seconds,
                               .needs = needs,
                               .stop = stop,
                               .temp_folder = temp_folder};
    p.measures = component.measure(r.conditions.point(index), context);
    const double value = point_value(p.measures, r.quality);
    p.value = value;
    // Format page: a NaN is a failure; naming it an error says why.
    if (std::isnan(value)) p.error = nan_quality_reason(p.measures, r.quality);
  } catch (const std::exception& e) {
    p.error = e.what();
  } catch (...) {
    p.error = "the component threw something that is not a std::exception";
  }
  clock.end = PointClock::Clock::now();
  p.seconds = std::chrono::duration<double>(clock.end - clock.start).count();
  return p;
}

PointResult evaluate_point(const Component& component, const Requirement& r, std::size_t index,
                           double timeout_seconds, const MeasureNeeds* needs,
                           const std::atomic<bool>* stop,
                           const std::filesystem::path* temp_folder) {
  PointClock clock;
  return evaluate_point(component, r, index, clock, timeout_seconds, needs, stop, temp_folder);
}

ExecutorTemp::ExecutorTemp(const std::filesystem::path& root, std::string_view prefix,
                           std::string_view system_prefix) {
  try {
    folder_.emplace(root.empty() ? system_prefix : prefix, root);
  } catch (const std::runtime_error&) {
    // No folder: the points use TMPDIR.
  }
}

}  // namespace simverify::framework
