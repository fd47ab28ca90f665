#pragma once
// Internal: errors found while reading one YAML file, each at the file, line and column of
// the node it is about, collected (not thrown) so a user fixes the whole file in one pass.
// Shared by the requirement loader and the project file.
#include <simverify/framework/diagnostics.hpp>

#include <yaml-cpp/yaml.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace simverify::framework::yaml {

class LocatedErrors {
 public:
  LocatedErrors(std::string file, Diagnostics& sink) : file_(std::move(file)), sink_(sink) {}

  [[nodiscard]] const std::string& file() const { return file_; }
  // Every error added, repeated ones included: callers compare counts to learn whether a
  // part they read was wrong.
  [[nodiscard]] std::size_t count() const { return sink_.size() + repeated_; }

  // 1-based; line and column 0 when yaml-cpp knows no position (a node that is not there).
  [[nodiscard]] SourceLocation where(const YAML::Mark& mark) const;
  [[nodiscard]] SourceLocation where(const YAML::Node& node) const { return where(node.Mark()); }

  void error(const YAML::Mark& mark, std::string message) {
    error(where(mark), std::move(message));
  }
  void error(const YAML::Node& node, std::string message) {
    error(node.Mark(), std::move(message));
  }
  // An error already reported at the same place is not repeated: a value several requirements
  // merge from one anchor is wrong once, where the anchor wrote it.
  void error(const SourceLocation& at, std::string message);
  void add(Diagnostic diagnostic);

  // Keys of `map` outside `allowed` are errors naming the nearest allowed one; `what`
  // names the mapping in the message ("requirement", "quality").
  void check_keys(const YAML::Node& map, const std::vector<std::string>& allowed,
                  const std::string& what);

  // The scalar at `map[key]`; an error at `map` when it is missing, at the value when it is
  // not a non-empty string.
  std::optional<std::string> required_string(const YAML::Node& map, const char* key);

 private:
  std::string file_;
  Diagnostics& sink_;
  std::set<std::string> reported_;  // "location: message" of each error added
  std::size_t repeated_ = 0;
};

}  // namespace simverify::framework::yaml
