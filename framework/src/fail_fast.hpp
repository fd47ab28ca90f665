#pragma once
// Internal: which requirements still run (Alg 11): `depends_on` blocks a requirement whose
// dependency did not pass; fail-fast `level` stops after a level that did not pass, `first`
// after the first failure or error, `none` never. Shared by the runner and merge.
#include <simverify/framework/requirement.hpp>
#include <simverify/framework/results.hpp>
#include <simverify/framework/runner.hpp>

#include <map>
#include <string>

namespace simverify::framework {

class FailFastGate {
 public:
  explicit FailFastGate(FailFast policy) : policy_(policy) {}

  // Why the requirement must be skipped, or "" when it runs.
  [[nodiscard]] std::string skip_reason(const std::string& id,
                                        const std::vector<std::string>& depends_on) const;
  void requirement_finished(const std::string& id, Status status);
  void level_finished(Level level, bool passed);

 private:
  FailFast policy_;
  std::map<std::string, Status, std::less<>> status_;
  std::string stop_reason_;
};

}  // namespace simverify::framework
