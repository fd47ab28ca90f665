#pragma once
// Internal: appends JSON text directly (no document tree), for results streamed point by
// point. Numbers use the shortest text that reads back exactly; NaN and infinities (which JSON
// lacks) are written as null. Strings follow the rule of every writer (detail/encoding.hpp):
// what is not UTF-8 or not a character XML allows becomes U+FFFD.
#include <simverify/framework/value.hpp>

#include <fmt/compile.h>

#include <string>
#include <string_view>

namespace simverify::framework::detail {

void append_json_string(std::string& out, std::string_view text);
// The inside of a JSON string, character by character (append_json_string without its quotes
// and its fast path for plain ASCII).
void append_json_escaped(std::string& out, std::string_view text);
void append_json_number(std::string& out, double x);
// How NaN and infinities are written: null (measures, where "no number" is what they mean) or
// the text Value::str() gives ("nan", "inf", "-inf": conditions, so a grid point reads back
// as the runner saw it).
enum class NonFinite { as_null, as_text };

// Appends what fmt::format(format, x) gives for a format made by FMT_COMPILE, without a string
// of its own and without parsing the format again for every point: results are written for
// every point (json_writer_test checks the text is the same).
template <class Format, class Number>
void append_formatted(std::string& out, const Format& format, Number x) {
  char text[64];  // a double's longest text, %.17g, is 24 characters
  out.append(text, fmt::format_to(text, format, x));
}

void append_json(std::string& out, const Value& value, NonFinite non_finite = NonFinite::as_null);

}  // namespace simverify::framework::detail
