#pragma once
// Internal to the adapters: loading once, and running one requirement with the native
// runner, so both adapters reach exactly the verdicts `simverify run` reaches.
#include <simverify/framework/loader.hpp>
#include <simverify/framework/results.hpp>
#include <simverify/framework/runner.hpp>

#include <filesystem>
#include <memory>
#include <vector>

namespace simverify::adapters::detail {

// Loaded requirements in plan order (levels, depends_on first); shared by the registered
// tests, which outlive the registration call.
struct LoadedRequirements {
  std::vector<framework::Requirement> requirements;
  std::vector<const framework::Requirement*> ordered;
};

// Throws std::runtime_error with every diagnostic when a file is invalid.
[[nodiscard]] std::shared_ptr<const LoadedRequirements> load_or_throw(
    const std::vector<std::filesystem::path>& paths, const framework::ComponentRegistry& registry);

struct Verdict {
  framework::Status status = framework::Status::skipped;
  std::string message;  // "worst ... at ..." or the error
};

[[nodiscard]] Verdict run_one(const framework::Requirement& requirement,
                              const framework::ComponentRegistry& registry,
                              framework::RunOptions options);

}  // namespace simverify::adapters::detail
