#include "detail/json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace simverify::framework::detail {
namespace {

std::pair<std::size_t, std::size_t> line_and_column(std::string_view text, std::size_t end) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < std::min(end, text.size()); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

// The byte where nesting first exceeds `limit`, if it does (brackets inside strings do not
// count).
std::optional<std::size_t> too_deep(std::string_view text, std::size_t limit) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

}  // namespace

nlohmann::ordered_json parse_json_document(std::string_view text, const std::string& label) {
  if (const auto where = too_deep(text, kMaxJsonDepth)) {
    const auto [line, column] = line_and_column(text, *where);
    throw JsonInputError(fmt::format("{}:{}:{}: nested more than {} levels deep", label, line,
                                     column, kMaxJsonDepth));
  }
  try {
    return nlohmann::ordered_json::parse(text);
  } catch (const nlohmann::ordered_json::parse_error& e) {
    // nlohmann reports the byte where parsing stopped; users want "file:line:col".
    const auto [line, column] = line_and_column(text, e.byte > 0 ? e.byte - 1 : 0);
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..."
    if (const auto colon = what.find(": "); colon != std::string::npos) {
      what = what.substr(colon + 2);
    }
    throw JsonInputError(fmt::format("{}:{}:{}: not valid JSON: {}", label, line, column, what));
  } catch (const nlohmann::ordered_json::out_of_range& e) {
    // "[json.exception.out_of_range.406] number overflow parsing '1e999'": no byte given, so the
    // place is that of the number's first occurrence.
    std::string what = e.what();
    const auto open = what.find('\'');
    const auto close = what.rfind('\'');
    const auto at = open < close ? text.find(what.substr(open + 1, close - open - 1)) : text.npos;
    const auto [line, column] = line_and_column(text, at == text.npos ? 0 : at);
    if (const auto bracket = what.find("] "); bracket != std::string::npos) {
      what = what.substr(bracket + 2);
    }
    throw JsonInputError(fmt::format("{}:{}:{}: not valid JSON: {}", label, line, column, what));
  }
}

nlohmann::ordered_json number_or_null(double x) {
  return std::isfinite(x) ? nlohmann::ordered_json(x) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json to_json(const Value& value) {
  if (value.is_number()) return number_or_null(value.as_number());
  if (value.is_bool()) return value.as_bool();
  if (value.is_string()) return value.as_string();
  if (value.is_list()) {
    auto out = nlohmann::ordered_json::array();
    for (const auto& item : value.as_list()) out.push_back(to_json(item));
    return out;
  }
  if (value.is_map()) {
    auto out = nlohmann::ordered_json::object();
    for (const auto& [k, v] : value.as_map()) out[k] = to_json(v);
    return out;
  }
  return nullptr;
}

std::string json_in_sentence(const nlohmann::ordered_json& value) {
  constexpr std::size_t kLongest = 60;
  std::string text = dump_json(value, -1);
  if (text.size() > kLongest) text = text.substr(0, kLongest - 3) + "...";
  return text;
}

std::string dump_json(const nlohmann::ordered_json& doc, int indent) {
  return doc.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace simverify::framework::detail
