#pragma once
// Internal: appends JSON text directly (no document tree), for results streamed point by
// point. Numbers use the shortest text that reads back exactly; NaN and infinities (which JSON
// lacks) are written as null. Strings follow the rule of every writer (detail/encoding.hpp):
// what is not UTF-8 or not a character XML allows becomes U+FFFD.
#include <simverify/framework/value.hpp>

#include <string>
#include <string_view>

namespace simverify::framework::detail {

void append_json_string(std::string& out, std::string_view text);
void append_json_number(std::string& out, double x);
// How NaN and infinities are written: null (measures, where "no number" is what they mean) or
// the text Value::str() gives ("nan", "inf", "-inf": conditions, so a grid point reads back
// as the runner saw it).
enum class NonFinite { as_null, as_text };

void append_json(std::string& out, const Value& value, NonFinite non_finite = NonFinite::as_null);

}  // namespace simverify::framework::detail
