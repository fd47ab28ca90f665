#pragma once
// A condition value as written in a requirement file: a number, boolean, string, list or
// mapping, remembering where it was written so errors can point at it.
#include <cstddef>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace simverify::framework {

struct SourceLocation {
  std::string file;
  int line = 0;                           // 1-based; 0 when unknown
  int column = 0;                         // 1-based
  [[nodiscard]] std::string str() const;  // "file:line:column"
};

class Value {
 public:
  using List = std::vector<Value>;
  using Map = std::vector<std::pair<std::string, Value>>;  // keeps the file's key order

  Value() = default;
  Value(double number) : data_(number) {}                // NOLINT(google-explicit-constructor)
  Value(bool flag) : data_(flag) {}                      // NOLINT(google-explicit-constructor)
  Value(std::string text) : data_(std::move(text)) {}    // NOLINT(google-explicit-constructor)
  Value(const char* text) : data_(std::string(text)) {}  // NOLINT(google-explicit-constructor)
  Value(List list) : data_(std::move(list)) {}           // NOLINT(google-explicit-constructor)
  Value(Map map) : data_(std::move(map)) {}              // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool is_null() const { return std::holds_alternative<std::monostate>(data_); }
  [[nodiscard]] bool is_number() const { return std::holds_alternative<double>(data_); }
  [[nodiscard]] bool is_bool() const { return std::holds_alternative<bool>(data_); }
  [[nodiscard]] bool is_string() const { return std::holds_alternative<std::string>(data_); }
  [[nodiscard]] bool is_list() const { return std::holds_alternative<List>(data_); }
  [[nodiscard]] bool is_map() const { return std::holds_alternative<Map>(data_); }

  // Typed access; throws std::invalid_argument naming the expected type otherwise.
  [[nodiscard]] double as_number() const;
  [[nodiscard]] bool as_bool() const;
  [[nodiscard]] const std::string& as_string() const;
  [[nodiscard]] const List& as_list() const;
  [[nodiscard]] const Map& as_map() const;
  // A list of numbers (e.g. x0: [1.0, 0.0]); a single number counts as a 1-vector.
  [[nodiscard]] std::vector<double> as_numbers() const;

  // Entry of a mapping, or nullptr.
  [[nodiscard]] const Value* find(std::string_view key) const;

  [[nodiscard]] const char* type_name() const;
  // Compact, deterministic text (flow-style YAML/JSON-like), used in test names and logs.
  [[nodiscard]] std::string str() const;
  // The value as JSON text (mappings keep their order; NaN and infinities become null), for
  // components that hand conditions to other programs.
  [[nodiscard]] std::string json() const;

  SourceLocation location;
  // Where the key naming this value was written when it is a mapping entry (line 0
  // otherwise): errors about the key itself, such as an unknown key, point there. Two ints
  // rather than a SourceLocation, so a generated million-point axis stays small.
  int key_line = 0;
  int key_column = 0;
  // The key's position in `location`'s file; `location` itself when no key was recorded.
  [[nodiscard]] SourceLocation key_location() const;

  friend bool operator==(const Value& a, const Value& b) { return a.data_ == b.data_; }

 private:
  std::variant<std::monostate, bool, double, std::string, List, Map> data_;
};

}  // namespace simverify::framework
