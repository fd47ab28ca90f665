#include <simverify/framework/listener.hpp>

namespace simverify::framework {

void ListenerList::run_started(const RunInfo& info) {
  for (auto& l : listeners_) l->run_started(info);
}
void ListenerList::level_started(Level level, std::size_t requirements) {
  for (auto& l : listeners_) l->level_started(level, requirements);
}
void ListenerList::requirement_started(const Requirement& requirement, std::size_t points) {
  for (auto& l : listeners_) l->requirement_started(requirement, points);
}
void ListenerList::point_finished(const Requirement& requirement, const PointResult& point) {
  for (auto& l : listeners_) l->point_finished(requirement, point);
}

void ListenerList::points_in_progress(const Requirement& requirement, double done) {
  for (auto& l : listeners_) l->points_in_progress(requirement, done);
}
void ListenerList::requirement_finished(const RequirementResult& result) {
  for (auto& l : listeners_) l->requirement_finished(result);
}
void ListenerList::level_finished(Level level, bool passed) {
  for (auto& l : listeners_) l->level_finished(level, passed);
}
void ListenerList::run_finished(const RunSummary& summary,
                                const std::vector<RequirementResult>& results) {
  for (auto& l : listeners_) l->run_finished(summary, results);
}

}  // namespace simverify::framework
