#include "value_reader.hpp"

#include <simverify/framework/yaml_file.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>

namespace simverify::framework {

std::optional<std::string> number_out_of_range(std::string_view scalar) {
  std::string_view view = scalar;
  if (!view.empty() && view.front() == '+') view.remove_prefix(1);
  double d = 0;
  const auto [ptr, ec] = std::from_chars(view.data(), view.data() + view.size(), d);
  if (ec != std::errc::result_out_of_range || ptr != view.data() + view.size()) {
    return std::nullopt;
  }
  return fmt::format(
      "the number {} is out of the range of a double (magnitudes from 4.9e-324 to 1.8e308, "
      "or 0; .inf and -.inf are the infinities)",
      scalar);
}

}  // namespace simverify::framework

namespace simverify::framework::yaml {

std::optional<double> parse_number(const std::string& s) {
  if (s == ".inf" || s == "+.inf") return HUGE_VAL;
  if (s == "-.inf") return -HUGE_VAL;
  if (s == ".nan") return std::nan("");
  std::string_view view = s;
  if (!view.empty() && view.front() == '+') view.remove_prefix(1);
  double d = 0;
  auto [ptr, ec] = std::from_chars(view.data(), view.data() + view.size(), d);
  if (ec != std::errc() || ptr != view.data() + view.size() || view.empty()) return std::nullopt;
  // from_chars also reads `nan`, `inf` and `infinity`: in YAML 1.2 those are text (only .nan
  // and .inf are numbers), and a `command` program receives them as text.
  if (!std::isfinite(d)) return std::nullopt;
  return d;
}

std::optional<Value> ValueReader::read(const YAML::Node& node) {
  const std::size_t refusals = refusals_;
  Value value = convert(node);
  if (refusals_ != refusals) return std::nullopt;  // enter() said why
  return value;
}

Value ValueReader::convert(const YAML::Node& node) {
  Value v;
  if (!enter(node)) {
    v.location = errors_.where(node);
    return v;
  }
  if (node.IsScalar()) {
    const std::string& s = node.Scalar();
    const bool plain = !is_text_scalar(node);
    if (plain && (s == "true" || s == "false")) {
      v = Value(s == "true");
    } else if (auto number = plain ? parse_number(s) : std::nullopt) {
      v = Value(*number);
    } else if (auto out_of_range = plain ? number_out_of_range(s) : std::nullopt) {
      refuse(node, *out_of_range);  // not a text: "expected a number, found a string" misleads
      v = Value(s);
    } else {
      v = Value(s);
    }
  } else if (node.IsSequence()) {
    Value::List list;
    for (const auto& item : node) list.push_back(convert(item));
    v = Value(std::move(list));
  } else if (node.IsMap()) {
    Value::Map map;
    for (const auto& entry : node) {
      Value item = convert(entry.second);
      const SourceLocation key = errors_.where(entry.first);
      item.key_line = key.line;
      item.key_column = key.column;
      map.emplace_back(entry.first.Scalar(), std::move(item));
    }
    v = Value(std::move(map));
  }
  v.location = errors_.where(node);
  open_.pop_back();
  return v;
}

// A file is small, but YAML aliases can make its values huge (a list of aliases of lists of
// aliases: "billion laughs") or endless (an anchor used inside itself), which would exhaust
// memory or the stack before anything is checked.
bool ValueReader::enter(const YAML::Node& node) {
  if (std::any_of(open_.begin(), open_.end(), [&](const YAML::Node& n) { return n.is(node); })) {
    return refuse(node, "an alias refers to a value that contains it, so the value never ends");
  }
  // Too deep and too large are properties of the whole value: shown where it starts.
  const YAML::Node& whole = open_.empty() ? node : open_.front();
  if (open_.size() >= kMaxDepth) {
    return refuse(whole, fmt::format("a value nested more than {} levels deep", kMaxDepth));
  }
  if (++values_ > max_values_) {
    return refuse(whole, fmt::format("the file's values expand to more than {} (its {} bytes "
                                     "and {} more): aliases of aliases?",
                                     max_values_, max_values_ - kMaxValues, kMaxValues));
  }
  open_.push_back(node);
  return true;
}

// Once per requirement: the rest of an endless or huge value would only repeat it.
bool ValueReader::refuse(const YAML::Node& at, std::string message) {
  if (!refused_) errors_.error(at, std::move(message));
  refused_ = true;
  ++refusals_;
  return false;
}

}  // namespace simverify::framework::yaml
