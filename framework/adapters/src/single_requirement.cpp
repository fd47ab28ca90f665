#include "single_requirement.hpp"

#include <fmt/format.h>

#include <map>
#include <set>
#include <stdexcept>

namespace simverify::adapters::detail {
namespace {

using namespace simverify::framework;

struct Capture final : RunListener {
  Verdict verdict;
  void requirement_finished(const RequirementResult& result) override {
    verdict.status = result.status;
    const Requirement& r = *result.requirement;
    switch (result.status) {
      case Status::passed:
        verdict.message = result.worst ? fmt::format("worst {:.6g} ({})", *result.worst,
                                                     r.quality.threshold.str())
                                       : "passed";
        break;
      case Status::failed:
        verdict.message = fmt::format("{} did not meet its threshold: {}", r.id, result.reason);
        break;
      case Status::error:
        verdict.message = fmt::format("{} could not be evaluated: {}", r.id, result.reason);
        break;
      case Status::skipped: verdict.message = result.reason; break;
    }
  }
};

}  // namespace

std::shared_ptr<const LoadedRequirements> load_or_throw(
    const std::vector<std::filesystem::path>& paths, const ComponentRegistry& registry) {
  LoadResult loaded = load_requirements(paths, registry);
  if (!loaded.ok()) {
    std::string text = "invalid requirement files:\n";
    for (const auto& d : loaded.errors) text += d.str() + "\n";
    throw std::runtime_error(text);
  }
  auto out = std::make_shared<LoadedRequirements>();
  out->requirements = std::move(loaded.requirements);
  // The planner's order: levels, then dependencies first, else file order.
  std::map<std::string, const Requirement*> by_id;
  for (const auto& r : out->requirements) by_id[r.id] = &r;
  std::set<std::string> placed;
  std::function<void(const Requirement&)> place = [&](const Requirement& r) {
    if (!placed.insert(r.id).second) return;
    for (const auto& dep : r.depends_on) {
      auto it = by_id.find(dep);
      if (it != by_id.end() && it->second->level == r.level) place(*it->second);
    }
    out->ordered.push_back(&r);
  };
  for (Level level : {Level::unit, Level::integration, Level::system}) {
    for (const auto& r : out->requirements) {
      if (r.level == level) place(r);
    }
  }
  return out;
}

Verdict run_one(const Requirement& requirement, const ComponentRegistry& registry,
                RunOptions options) {
  options.filter = requirement.id;  // ids hold no glob characters ([A-Z0-9._-]+)
  options.level.reset();
  options.shard_index = 1;
  options.shard_count = 1;
  options.fail_fast = FailFast::none;
  options.keep_points = false;
  const std::vector<Requirement> one = {requirement};
  Capture capture;
  Runner(registry, options).run(one, capture);
  return capture.verdict;
}

}  // namespace simverify::adapters::detail
