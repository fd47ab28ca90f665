#include "detail/json_writer.hpp"

#include "detail/encoding.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace simverify::framework::detail {

void append_json_escaped(std::string& out, std::string_view text) {
  for_each_writable_character(
      text,
      [&](char32_t c, std::string_view bytes) {
        switch (c) {
          case '"': out += "\\\""; break;
          case '\\': out += "\\\\"; break;
          case '\n': out += "\\n"; break;
          case '\r': out += "\\r"; break;
          case '\t': out += "\\t"; break;
          default: out.append(bytes);
        }
      },
      [&] { out += "\\ufffd"; });
}

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  // Printable ASCII but '"' and '\\' is written as it is, as append_json_escaped would write
  // it, in one append: names and most values are only that (a byte from 0x80 is negative).
  const auto plain = std::find_if(text.begin(), text.end(), [](char c) {
    return c < 0x20 || c > 0x7e || c == '"' || c == '\\';
  });
  out.append(text.begin(), plain);
  text.remove_prefix(static_cast<std::size_t>(plain - text.begin()));
  append_json_escaped(out, text);
  out += '"';
}

void append_json_number(std::string& out, double x) {
  if (!std::isfinite(x)) {
    out += "null";
    return;
  }
  append_formatted(out, FMT_COMPILE("{}"), x);  // shortest text that reads back exactly
}

void append_json(std::string& out, const Value& value, NonFinite non_finite) {
  if (value.is_number()) {
    const double x = value.as_number();
    if (non_finite == NonFinite::as_text && !std::isfinite(x)) {
      append_json_string(out, fmt::format("{}", x));
    } else {
      append_json_number(out, x);
    }
  } else if (value.is_bool()) {
    out += value.as_bool() ? "true" : "false";
  } else if (value.is_string()) {
    append_json_string(out, value.as_string());
  } else if (value.is_list()) {
    out += '[';
    bool first = true;
    for (const auto& item : value.as_list()) {
      if (!first) out += ", ";
      first = false;
      append_json(out, item, non_finite);
    }
    out += ']';
  } else if (value.is_map()) {
    out += '{';
    bool first = true;
    for (const auto& [k, v] : value.as_map()) {
      if (!first) out += ", ";
      first = false;
      append_json_string(out, k);
      out += ": ";
      append_json(out, v, non_finite);
    }
    out += '}';
  } else {
    out += "null";
  }
}

}  // namespace simverify::framework::detail
