#pragma once
// Internal: YAML nodes as Values, the form components and comparisons read. Plain scalars that
// read as numbers or booleans become those; quoted scalars stay strings. Every Value keeps
// the position it was written at (and its key's, inside a mapping).
#include "located_errors.hpp"

#include <simverify/framework/value.hpp>

#include <yaml-cpp/yaml.h>

#include <optional>
#include <vector>

namespace simverify::framework::yaml {

class ValueReader {
 public:
  explicit ValueReader(LocatedErrors& errors) : errors_(errors) {}

  // The node as a Value; nothing when it refuses it (endless, too deep or too large, or a
  // number out of the range of a double), having
  // said why once per requirement (see start_requirement).
  [[nodiscard]] std::optional<Value> read(const YAML::Node& node);

  // A new requirement: its first refusal is reported again.
  void start_requirement() { refused_ = false; }

  // The file's text has `bytes` bytes. Without aliases each value takes at least one byte of
  // it, so a file may hold that many values (a 50,000-requirement pack, an explicit grid of
  // 10^6 values) and kMaxValues more from aliases: an alias bomb is refused, a large file is not.
  void read_text_of(std::size_t bytes) { max_values_ = bytes + kMaxValues; }

  static constexpr std::size_t kMaxDepth = 100;
  static constexpr std::size_t kMaxValues = 100'000;

 private:
  Value convert(const YAML::Node& node);
  bool enter(const YAML::Node& node);
  bool refuse(const YAML::Node& at, std::string message);

  LocatedErrors& errors_;
  std::vector<YAML::Node> open_;  // the nodes convert() is inside, outermost first
  std::size_t values_ = 0;        // converted so far in this file
  std::size_t max_values_ = kMaxValues;
  bool refused_ = false;      // enter() refused a value of the current requirement
  std::size_t refusals_ = 0;  // so read() sees a refusal anywhere inside its value
};

// A plain scalar's number: decimal or exponent notation, YAML's .inf/.nan; nothing otherwise.
[[nodiscard]] std::optional<double> parse_number(const std::string& scalar);

}  // namespace simverify::framework::yaml
