// Alg 9, line 3: Q(u) <- Q(gamma(u)) for one grid point, shared by both executors.
#include "executor.hpp"

#include <chrono>
#include <cmath>

namespace simverify::framework {

PointResult evaluate_point(const Component& component, const Requirement& r, std::size_t index,
                           PointClock& clock) {
  PointResult p;
  p.index = index;
  try {
    p.measures = component.evaluate(r.conditions.point(index));
    const double value = point_value(p.measures, r.quality);
    p.value = value;
    // Format page: a NaN is a failure; naming it an error says why.
    if (std::isnan(value)) p.error = "the quality is NaN";
  } catch (const std::exception& e) {
    p.error = e.what();
  } catch (...) {
    p.error = "the component threw something that is not a std::exception";
  }
  clock.end = PointClock::Clock::now();
  p.seconds = std::chrono::duration<double>(clock.end - clock.start).count();
  return p;
}

PointResult evaluate_point(const Component& component, const Requirement& r, std::size_t index) {
  PointClock clock;
  return evaluate_point(component, r, index, clock);
}

}  // namespace simverify::framework
