// Requirements as GoogleTest tests (testing::RegisterTest), judged by the native runner.
#include <simverify/adapters/gtest.hpp>

#include "single_requirement.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <mutex>

namespace simverify::adapters {
namespace {

using namespace simverify::framework;

// Verdicts of the requirements run so far in this process, for depends_on.
struct Outcomes {
  std::mutex mutex;
  std::map<std::string, Status> status;
};

class RequirementTest final : public ::testing::Test {
 public:
  RequirementTest(std::shared_ptr<const detail::LoadedRequirements> loaded,
                  const Requirement* requirement, const ComponentRegistry* registry,
                  RunOptions options, std::shared_ptr<Outcomes> outcomes)
      : loaded_(std::move(loaded)),
        requirement_(requirement),
        registry_(registry),
        options_(std::move(options)),
        outcomes_(std::move(outcomes)) {}

  void TestBody() override {
    for (const auto& dep : requirement_->depends_on) {
      std::scoped_lock lock(outcomes_->mutex);
      auto it = outcomes_->status.find(dep);
      if (it != outcomes_->status.end() && it->second != Status::passed) {
        outcomes_->status[requirement_->id] = Status::skipped;
        GTEST_SKIP() << "blocked by " << dep;
      }
    }
    const detail::Verdict verdict = detail::run_one(*requirement_, *registry_, options_);
    {
      std::scoped_lock lock(outcomes_->mutex);
      outcomes_->status[requirement_->id] = verdict.status;
    }
    RecordProperty("component", requirement_->component);
    RecordProperty("grid_size", static_cast<int>(requirement_->conditions.size()));
    switch (verdict.status) {
      case Status::passed: RecordProperty("verdict", verdict.message); break;
      case Status::skipped: GTEST_SKIP() << verdict.message;
      case Status::failed:
      case Status::error: ADD_FAILURE() << verdict.message; break;
    }
  }

 private:
  std::shared_ptr<const detail::LoadedRequirements> loaded_;  // keeps requirement_ alive
  const Requirement* requirement_;
  const ComponentRegistry* registry_;
  RunOptions options_;
  std::shared_ptr<Outcomes> outcomes_;
};

}  // namespace

std::string gtest_test_name(std::string_view id) {
  std::string name(id);
  for (char& c : name) {
    if (c == '-' || c == '.' || c == ':' || c == '*' || c == '?' || c == '/') c = '_';
  }
  return name;
}

std::size_t register_gtest_requirements(const std::vector<std::filesystem::path>& paths,
                                        const ComponentRegistry& registry,
                                        const RunOptions& options) {
  auto loaded = detail::load_or_throw(paths, registry);
  auto outcomes = std::make_shared<Outcomes>();
  for (const Requirement* r : loaded->ordered) {
    const std::string suite = to_string(r->level);
    const std::string name = gtest_test_name(r->id);
    ::testing::RegisterTest(
        suite.c_str(), name.c_str(), nullptr, nullptr, r->location.file.c_str(), r->location.line,
        // GoogleTest owns the fixture it gets from the factory (its API takes a raw pointer).
        [loaded, r, &registry, options, outcomes]() -> ::testing::Test* {
          return std::make_unique<RequirementTest>(loaded, r, &registry, options, outcomes)
              .release();
        });
  }
  return loaded->ordered.size();
}

}  // namespace simverify::adapters
