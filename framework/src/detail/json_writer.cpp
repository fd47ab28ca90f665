#include "detail/json_writer.hpp"

#include "detail/encoding.hpp"

#include <fmt/format.h>

#include <cmath>

namespace simverify::framework::detail {

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        } else if (static_cast<unsigned char>(c) < 0x80) {
          out += c;
        } else if (const auto length = decode_utf8(text, i).second; length > 0) {
          out.append(text.substr(i, length));
          i += length - 1;
        } else {
          // Text from outside (a subprocess's message, a file name) need not be UTF-8, but
          // JSON must be: a byte that begins no UTF-8 character becomes U+FFFD.
          out += "\\ufffd";
        }
    }
  }
  out += '"';
}

void append_json_number(std::string& out, double x) {
  if (!std::isfinite(x)) {
    out += "null";
    return;
  }
  fmt::format_to(std::back_inserter(out), "{}", x);
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
