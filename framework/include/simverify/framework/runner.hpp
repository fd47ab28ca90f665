#pragma once
// The structured runner: Alg 9 (evaluate a requirement over its grid), Alg 10 (run all) and
// Alg 11 (level by level, fail fast) are one executor with different plans.
#include <simverify/framework/component.hpp>
#include <simverify/framework/listener.hpp>

#include <optional>
#include <string>
#include <vector>

namespace simverify::framework {

enum class FailFast { level, first, none };

struct RunOptions {
  std::optional<Level> level;  // only this level
  std::string filter;          // glob on requirement ids
  FailFast fail_fast = FailFast::level;
  int jobs = 0;         // 0: all cores
  int shard_index = 1;  // 1-based
  int shard_count = 1;
  double timeout_seconds = 0.0;  // per point; 0: none
};

class Runner {
 public:
  Runner(const ComponentRegistry& registry, RunOptions options);

  // Runs the requirements (in the loader's order) and reports to `listener`.
  RunSummary run(const std::vector<Requirement>& requirements, RunListener& listener);

 private:
  const ComponentRegistry* registry_;
  RunOptions options_;
};

}  // namespace simverify::framework
