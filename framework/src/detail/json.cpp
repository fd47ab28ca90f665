#include "detail/json.hpp"

#include "detail/encoding.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
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

// A key repeated in one object: the ordinal of the repetition among all keys of the text.
struct RepeatedKey {
  std::size_t ordinal;
  std::string key;
};

// Builds the document as nlohmann's DOM parser does (nlohmann::json::sax_parse), but refuses
// a key an object already has: the DOM parser keeps the last value, so a second "passed" or
// "verdict" appended to a results file would silently win over the one the run wrote.
class DocumentBuilder {
 public:
  using Json = nlohmann::ordered_json;

  explicit DocumentBuilder(Json& root) : root_(root) {}

  bool null() { return add(nullptr); }
  bool boolean(bool value) { return add(value); }
  bool number_integer(Json::number_integer_t value) { return add(value); }
  bool number_unsigned(Json::number_unsigned_t value) { return add(value); }
  bool number_float(Json::number_float_t value, const Json::string_t& /*text*/) {
    return add(value);
  }
  bool string(Json::string_t& value) { return add(std::move(value)); }
  bool binary(Json::binary_t& value) { return add(Json::binary(std::move(value))); }
  bool start_object(std::size_t /*elements*/) {
    open_.push_back({add_value(Json::object()), {}});
    return true;
  }
  bool end_object() {
    open_.pop_back();
    return true;
  }
  bool start_array(std::size_t /*elements*/) {
    open_.push_back({add_value(Json::array()), {}});
    return true;
  }
  bool end_array() {
    open_.pop_back();
    return true;
  }
  bool key(Json::string_t& name) {
    ++keys_;
    Open& object = open_.back();
    auto& members = object.value->get_ref<Json::object_t&>();
    // Objects are small (a point has 8 keys): a look through them is quicker than a set; one
    // with many keys gets a set so that a hostile object of a million keys stays linear.
    constexpr std::size_t kLookThrough = 16;
    bool repeated = false;
    if (members.size() < kLookThrough) {
      repeated = std::any_of(members.begin(), members.end(),
                             [&](const auto& member) { return member.first == name; });
    } else {
      if (object.names.empty()) {
        for (const auto& member : members) object.names.insert(member.first);
      }
      repeated = !object.names.insert(name).second;
    }
    if (repeated) throw RepeatedKey{keys_, std::move(name)};
    members.emplace_back(std::move(name), nullptr);
    member_ = &members.back().second;
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
  struct Open {
    Json* value;
    std::unordered_set<std::string> names;  // filled once the object has many keys
  };

  Json* add_value(Json&& value) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Json& parent = *open_.back().value;
    if (parent.is_array()) {
      auto& items = parent.get_ref<Json::array_t&>();
      items.push_back(std::move(value));
      return &items.back();
    }
    *member_ = std::move(value);
    return member_;
  }
  template <typename T>
  bool add(T&& value) {
    add_value(Json(std::forward<T>(value)));
    return true;
  }

  Json& root_;
  std::vector<Open> open_;
  Json* member_ = nullptr;  // the value of the key just read
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
