#include "detail/json.hpp"

#include "detail/encoding.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <istream>
#include <iterator>
#include <optional>
#include <streambuf>
#include <unordered_set>
#include <utility>
#include <vector>

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

// The byte where the `ordinal`-th key (1: the first) of `text` begins: the opening quote of the
// ordinal-th string that is followed by a colon. Only on the way to an error message.
std::size_t key_start(std::string_view text, std::size_t ordinal) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '"') continue;
    const std::size_t start = i;
    for (++i; i < text.size() && text[i] != '"'; ++i) {
      if (text[i] == '\\') ++i;
    }
    std::size_t after = i + 1;
    while (after < text.size() && (text[after] == ' ' || text[after] == '\t' ||
                                   text[after] == '\n' || text[after] == '\r')) {
      ++after;
    }
    if (after < text.size() && text[after] == ':' && ++seen == ordinal) return start;
  }
  return 0;
}

// Nesting deeper than kMaxJsonDepth.
struct TooDeep {};

// A key repeated in one object: the ordinal of the repetition among all keys of the text.
struct RepeatedKey {
  std::size_t ordinal;
  std::string key;
};

// Builds the document nlohmann's DOM parser builds (nlohmann::json::sax_parse), with two
// differences. It refuses a key an object already has: the DOM parser keeps the last value, so
// a second "passed" or "status" appended to a results file would silently win over the one the
// run wrote. And it never copies what it built: the DOM parser adds members to an object as
// they come, and an ordered_json object is a vector of pairs with a const key, which grows by
// copying, deeply; a requirement's 17th key ("seconds", after its points) copied all its points
// once more, which doubled the peak memory of reading a large results.json. Here members and
// items wait in a list per nesting level (reused, keeping its capacity) and are moved into a
// container of their exact size when it closes.
class DocumentBuilder {
 public:
  using Json = nlohmann::ordered_json;

  // Never deeper than kMaxJsonDepth (checked before): the levels never move.
  explicit DocumentBuilder(Json& root) : root_(root) { levels_.reserve(kMaxJsonDepth); }

  bool null() { return add(Json(nullptr)); }
  bool boolean(bool value) { return add(Json(value)); }
  bool number_integer(Json::number_integer_t value) { return add(Json(value)); }
  bool number_unsigned(Json::number_unsigned_t value) { return add(Json(value)); }
  bool number_float(Json::number_float_t value, const Json::string_t& /*text*/) {
    return add(Json(value));
  }
  bool string(Json::string_t& value) { return add(Json(std::move(value))); }
  bool binary(Json::binary_t& value) { return add(Json::binary(std::move(value))); }
  bool start_object(std::size_t /*elements*/) { return open(true); }
  bool start_array(std::size_t /*elements*/) { return open(false); }
  bool end_object() {
    Level& level = levels_[--depth_];
    Json object(Json::value_t::object);
    auto& members = object.get_ref<Json::object_t&>();
    members.reserve(level.members.size());
    for (auto& [name, value] : level.members)
      members.emplace_back(std::move(name), std::move(value));
    level.members.clear();
    level.names.clear();
    return add(std::move(object));
  }
  bool end_array() {
    Level& level = levels_[--depth_];
    Json array(Json::value_t::array);
    auto& items = array.get_ref<Json::array_t&>();
    items.reserve(level.items.size());
    std::move(level.items.begin(), level.items.end(), std::back_inserter(items));
    level.items.clear();
    return add(std::move(array));
  }
  bool key(Json::string_t& name) {
    ++keys_;
    Level& level = levels_[depth_ - 1];
    // Objects are small (a point has 8 keys): a look through them is quicker than a set; one
    // with many keys gets a set so that a hostile object of a million keys stays linear.
    constexpr std::size_t kLookThrough = 16;
    bool repeated = false;
    if (level.members.size() < kLookThrough) {
      repeated = std::any_of(level.members.begin(), level.members.end(),
                             [&](const auto& member) { return member.first == name; });
    } else {
      if (level.names.empty()) {
        for (const auto& member : level.members) level.names.insert(member.first);
      }
      repeated = !level.names.insert(name).second;
    }
    if (repeated) throw RepeatedKey{keys_, std::move(name)};
    level.members.emplace_back(std::move(name), nullptr);
    return true;
  }
  // Rethrown as nlohmann's parser throws it, for parse_json_document to place.
  [[noreturn]] bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                                const nlohmann::detail::exception& error) {
    if (const auto* e = dynamic_cast<const Json::parse_error*>(&error)) throw *e;
    if (const auto* e = dynamic_cast<const Json::out_of_range*>(&error)) throw *e;
    throw std::runtime_error(error.what());
  }

 private:
  // An object or a list being read.
  struct Level {
    bool object = false;
    std::vector<std::pair<std::string, Json>> members;  // an object's, the last one being read
    std::vector<Json> items;                            // a list's
    std::unordered_set<std::string> names;              // an object's keys, once it has many
  };

  bool open(bool object) {
    // As too_deep() counts: parse_json_document refuses such text before it is parsed, a
    // stream is refused here.
    if (depth_ >= kMaxJsonDepth) throw TooDeep{};
    if (depth_ == levels_.size()) levels_.emplace_back();
    levels_[depth_++].object = object;
    return true;
  }
  bool add(Json&& value) {
    if (depth_ == 0) {
      root_ = std::move(value);
    } else if (Level& parent = levels_[depth_ - 1]; parent.object) {
      parent.members.back().second = std::move(value);
    } else {
      parent.items.push_back(std::move(value));
    }
    return true;
  }

  Json& root_;
  std::vector<Level> levels_;
  std::size_t depth_ = 0;
  std::size_t keys_ = 0;
};

}  // namespace

nlohmann::ordered_json parse_json_document(std::string_view text, const std::string& label) {
  if (const auto where = too_deep(text, kMaxJsonDepth)) {
    const auto [line, column] = line_and_column(text, *where);
    throw JsonInputError(fmt::format("{}:{}:{}: nested more than {} levels deep", label, line,
                                     column, kMaxJsonDepth));
  }
  try {
    nlohmann::ordered_json doc;
    DocumentBuilder builder(doc);
    nlohmann::ordered_json::sax_parse(text, &builder);
    return doc;
  } catch (const RepeatedKey& repeated) {
    const auto [line, column] = line_and_column(text, key_start(text, repeated.ordinal));
    throw JsonInputError(fmt::format("{}:{}:{}: duplicate key '{}'", label, line, column,
                                     terminal_text(repeated.key)));
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

namespace {

// The bytes of a file as a stream buffer, read in pieces.
class FileBuffer : public std::streambuf {
 public:
  explicit FileBuffer(core::RegularFile& file) : file_(file) {}

 protected:
  int_type underflow() override {
    const std::size_t n = file_.read(piece_.data(), piece_.size());
    if (n == 0) return traits_type::eof();
    setg(piece_.data(), piece_.data(), piece_.data() + n);
    return traits_type::to_int_type(piece_[0]);
  }

 private:
  core::RegularFile& file_;
  std::array<char, std::size_t{1} << 16> piece_{};
};

}  // namespace

std::optional<nlohmann::ordered_json> parse_json_stream(core::RegularFile& file) {
  // A document nlohmann's parser takes is valid UTF-8 (it checks each string's bytes, and
  // outside strings only ASCII is JSON), as parse_json_document's first check asks.
  try {
    FileBuffer buffer(file);
    std::istream in(&buffer);
    nlohmann::ordered_json doc;
    DocumentBuilder builder(doc);
    nlohmann::ordered_json::sax_parse(in, &builder);
    return doc;
  } catch (...) {
    // Invalid (a repeated key, too deep, not JSON) or unreadable: said by the caller, who
    // reads it whole.
    return std::nullopt;
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
