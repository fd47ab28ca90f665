#include "fail_fast.hpp"

#include <fmt/format.h>

namespace simverify::framework {

const char* to_string(FailFast policy) {
  switch (policy) {
    case FailFast::level: return "level";
    case FailFast::first: return "first";
    case FailFast::none: return "none";
  }
  return "?";
}

std::string FailFastGate::skip_reason(const std::string& /*id*/,
                                      const std::vector<std::string>& depends_on) const {
  if (!stop_reason_.empty()) return stop_reason_;
  for (const auto& dep : depends_on) {
    auto it = status_.find(dep);
    if (it != status_.end() && it->second != Status::passed) return "blocked by " + dep;
  }
  return {};
}

void FailFastGate::requirement_finished(const std::string& id, Status status) {
  status_[id] = status;
  if (policy_ == FailFast::first && stop_reason_.empty() &&
      (status == Status::failed || status == Status::error)) {
    stop_reason_ = fmt::format("not run: fail-fast=first stopped after {} failed", id);
  }
}

void FailFastGate::level_finished(Level level, bool passed) {
  // Alg 11, line 13: a level that did not pass stops the run before the next level.
  if (!passed && policy_ == FailFast::level && stop_reason_.empty()) {
    stop_reason_ =
        fmt::format("not run: level {} did not pass (fail-fast=level)", to_string(level));
  }
}

}  // namespace simverify::framework
