#pragma once
// Internal: conversions between framework values and JSON.
#include <simverify/framework/value.hpp>

#include <simverify/core/regular_file.hpp>

#include <nlohmann/json.hpp>

#include <optional>

#include <stdexcept>
#include <string>
#include <string_view>

namespace simverify::framework::detail {

[[nodiscard]] nlohmann::ordered_json to_json(const Value& value);
// JSON has no NaN or infinity: such numbers are written as null.
[[nodiscard]] nlohmann::ordered_json number_or_null(double x);

// `doc` as JSON text, indented by `indent` (-1: one line). Text that is not UTF-8 is written
// with U+FFFD, as every writer does (for_each_writable_character), never thrown on: what a
// tampered input held cannot make a diff or a gate fail to print.
[[nodiscard]] std::string dump_json(const nlohmann::ordered_json& doc, int indent = -1);

// A recorded value in a sentence: its JSON on one line, at most 60 characters ("..." when
// cut), e.g. "its threshold is "<= 10" in the results".
[[nodiscard]] std::string json_in_sentence(const nlohmann::ordered_json& value);

// A JSON input that is not valid: the message names "file:line:col".
struct JsonInputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Deeper nesting than any file simverify writes; parsing, copying and destroying a document
// recurse per level, so a hostile file nested 200,000 deep would overflow the stack.
inline constexpr std::size_t kMaxJsonDepth = 64;

// Parses `text` (read from `label`); throws JsonInputError "label:line:col: ..." when it is not
// valid JSON or nests deeper than kMaxJsonDepth.
[[nodiscard]] nlohmann::ordered_json parse_json_document(std::string_view text,
                                                         const std::string& label);

// Parses the JSON file `file` as it is read, never holding its text whole (a results.json of
// many megabytes), with parse_json_document's rules. Nothing when the file is not a document
// those rules take (or cannot be read to its end): the caller reads it whole and asks
// parse_json_document, which says why with the place.
[[nodiscard]] std::optional<nlohmann::ordered_json> parse_json_stream(core::RegularFile& file);

}  // namespace simverify::framework::detail
