#include <simverify/framework/value.hpp>

#include "detail/json_writer.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace simverify::framework {

std::string SourceLocation::str() const {
  if (line <= 0) return file;
  return fmt::format("{}:{}:{}", file, line, column);
}

SourceLocation Value::key_location() const {
  if (key_line <= 0) return location;
  return {location.file, key_line, key_column};
}

namespace {
[[noreturn]] void wrong_type(const Value& v, const char* expected) {
  throw std::invalid_argument(fmt::format("expected {}, found {}", expected, v.type_name()));
}
}  // namespace

double Value::as_number() const {
  if (const auto* d = std::get_if<double>(&data_)) return *d;
  wrong_type(*this, "a number");
}

bool Value::as_bool() const {
  if (const auto* b = std::get_if<bool>(&data_)) return *b;
  wrong_type(*this, "true or false");
}

const std::string& Value::as_string() const {
  if (const auto* s = std::get_if<std::string>(&data_)) return *s;
  wrong_type(*this, "a string");
}

const Value::List& Value::as_list() const {
  if (const auto* l = std::get_if<List>(&data_)) return *l;
  wrong_type(*this, "a list");
}

const Value::Map& Value::as_map() const {
  if (const auto* m = std::get_if<Map>(&data_)) return *m;
  wrong_type(*this, "a mapping");
}

std::vector<double> Value::as_numbers() const {
  if (is_number()) return {as_number()};
  if (!is_list()) wrong_type(*this, "a list of numbers");
  std::vector<double> out;
  for (const auto& item : as_list()) {
    if (!item.is_number()) wrong_type(item, "a number in the list");
    out.push_back(item.as_number());
  }
  return out;
}

const Value* Value::find(std::string_view key) const {
  if (const auto* m = std::get_if<Map>(&data_)) {
    for (const auto& [k, v] : *m) {
      if (k == key) return &v;
    }
  }
  return nullptr;
}

const char* Value::type_name() const {
  switch (data_.index()) {
    case 0: return "nothing";
    case 1: return "a boolean";
    case 2: return "a number";
    case 3: return "a string";
    case 4: return "a list";
    default: return "a mapping";
  }
}

std::string Value::str() const {
  struct Printer {
    std::string operator()(std::monostate) const { return "null"; }
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(double d) const { return fmt::format("{}", d); }
    std::string operator()(const std::string& s) const { return s; }
    std::string operator()(const List& l) const {
      std::string out = "[";
      for (std::size_t i = 0; i < l.size(); ++i) out += (i ? ", " : "") + l[i].str();
      return out + "]";
    }
    std::string operator()(const Map& m) const {
      std::string out = "{";
      for (std::size_t i = 0; i < m.size(); ++i) {
        out += (i ? ", " : "") + m[i].first + ": " + m[i].second.str();
      }
      return out + "}";
    }
  };
  return std::visit(Printer{}, data_);
}

std::string Value::json() const {
  // The streaming writer, not nlohmann's dump(), which throws on text that is not UTF-8.
  std::string out;
  detail::append_json(out, *this);
  return out;
}

}  // namespace simverify::framework
