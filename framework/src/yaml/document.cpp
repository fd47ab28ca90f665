#include "document.hpp"

#include "detail/encoding.hpp"
#include "merge_keys.hpp"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace simverify::framework::yaml {
namespace {

// Walks the parser's events, before any node tree exists, for what yaml-cpp's tree drops
// without a word: a repeated key in any mapping (the tree keeps one of them) and whatever
// follows the first document (YAML::Load reads the first). Events see an alias once, not the
// value it stands for, so a file of aliases of aliases costs no more than its text.
class DroppedContent : public YAML::EventHandler {
 public:
  DroppedContent(std::string_view text, LocatedErrors& errors) : text_(text), errors_(errors) {}

  [[nodiscard]] bool found() const { return found_; }

  // Reading must stop at the second document: its start is already an error, and yaml-cpp
  // does not consume a `,` outside brackets: it makes an empty document of it, then another
  // at the same `,`, without end.
  [[nodiscard]] bool past_first_document() const { return documents_ > 1; }

  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++documents_ == 1) return;
    const auto at = static_cast<std::size_t>(std::max(mark.pos, 0));
    if (at < text_.size() && text_[at] == ',') {
      report(mark, "YAML syntax: unexpected ',': it begins no value here");
    } else {
      report(mark,
             "a second YAML document (after `---`); a file holds one document, so remove "
             "the `---` or move the rest into a file of its own");
    }
  }
  void OnDocumentEnd() override { open_.clear(); }

  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { node(mark, std::nullopt); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    const auto scalar = scalars_.find(anchor);
    node(mark, scalar == scalars_.end() ? std::nullopt : std::optional(scalar->second));
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    check_tag(mark, tag);
    // The file's bytes were checked; a quoted scalar's escapes ("\uFFFE", "\x01") can still
    // make text that reports cannot hold.
    if (const auto problem = detail::find_encoding_problem(value)) {
      const std::string_view what(problem->message);
      report(mark,
             fmt::format("{} (written as an escape in this text)", what.substr(0, what.find(';'))));
    }
    if (anchor != YAML::NullAnchor) scalars_[anchor] = value;
    node(mark, value);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    check_tag(mark, tag);
    open(mark, false);
  }
  void OnSequenceEnd() override { open_.pop_back(); }
  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    check_tag(mark, tag);
    open(mark, true);
  }
  void OnMapEnd() override { open_.pop_back(); }

 private:
  struct Collection {
    bool is_map = false;
    std::string name;    // how messages name it: "conditions", "the top level", ...
    bool at_key = true;  // a mapping: the next node is a key
    std::optional<std::string> last_key;  // a mapping: its latest key, naming what it holds
    std::map<std::string, YAML::Mark> keys;
  };

  // A node begins; `scalar` is its text when it is one (or an alias of one).
  void node(const YAML::Mark& mark, const std::optional<std::string>& scalar) {
    if (open_.empty() || !open_.back().is_map) return;
    Collection& map = open_.back();
    if (!map.at_key) {
      map.at_key = true;
      return;
    }
    map.at_key = false;
    map.last_key = scalar;
    if (!scalar) return;
    const auto [first, inserted] = map.keys.emplace(*scalar, mark);
    if (!inserted) {
      report(mark, fmt::format("duplicate key '{}' in {} (first at line {})", *scalar, map.name,
                               first->second.line + 1));
    }
  }

  void open(const YAML::Mark& mark, bool is_map) {
    std::string name = is_map ? "the top-level mapping" : "the top-level list";
    if (!open_.empty()) {
      const Collection& parent = open_.back();
      if (parent.is_map && !parent.at_key && parent.last_key) {
        name = *parent.last_key;
      } else if (!parent.is_map) {
        name = "an entry of " + parent.name;
      } else {
        name = "a key of " + parent.name;
      }
    }
    node(mark, std::nullopt);
    Collection collection;
    collection.is_map = is_map;
    collection.name = std::move(name);
    open_.push_back(std::move(collection));
  }

  // A tag simverify does not know (`!Ref`, `!!python/object`) would be dropped without a word
  // by the tree: the YAML core schema's own tags are read as their values say, others refused.
  void check_tag(const YAML::Mark& mark, const std::string& tag) {
    static constexpr std::string_view kCore = "tag:yaml.org,2002:";
    static constexpr std::string_view kKnown[] = {"str",  "int", "float", "bool",
                                                  "null", "seq", "map"};
    if (tag.empty() || tag == "?" || tag == "!") return;
    const std::string_view name(tag);
    if (name.starts_with(kCore) && std::find(std::begin(kKnown), std::end(kKnown),
                                             name.substr(kCore.size())) != std::end(kKnown)) {
      return;
    }
    const std::string written = name.starts_with(kCore) ? "!!" + tag.substr(kCore.size()) : tag;
    report(mark, fmt::format("unknown YAML tag '{}': simverify reads plain YAML values (the "
                             "core tags !!str, !!int, !!float, !!bool, !!null, !!seq and !!map "
                             "are allowed)",
                             written));
  }

  void report(const YAML::Mark& mark, std::string message) {
    errors_.error(mark, std::move(message));
    found_ = true;
  }

  std::string_view text_;
  LocatedErrors& errors_;
  std::vector<Collection> open_;                   // outermost first
  std::map<YAML::anchor_t, std::string> scalars_;  // anchored scalars, for aliases used as keys
  int documents_ = 0;
  bool found_ = false;
};

}  // namespace

std::optional<YAML::Node> read_document(const std::string& text, LocatedErrors& errors) {
  if (const auto problem = detail::find_encoding_problem(text)) {
    errors.error(SourceLocation{errors.file(), problem->line, problem->column}, problem->message);
    return std::nullopt;
  }
  try {
    std::istringstream in(text);
    YAML::Parser parser(in);
    DroppedContent dropped(text, errors);
    while (!dropped.past_first_document() && parser.HandleNextDocument(dropped)) {
    }
    if (dropped.found()) return std::nullopt;
    YAML::Node root = YAML::Load(text);
    expand_merge_keys(root, errors);
    return root;
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp says only "bad file" here; its depth counts its own calls, not levels.
    errors.error(e.mark,
                 "YAML syntax: lists and maps nested too deep for the YAML reader (a few "
                 "hundred levels); requirement files need far fewer");
    return std::nullopt;
  } catch (const YAML::Exception& e) {
    errors.error(e.mark, "YAML syntax: " + e.msg);
    return std::nullopt;
  }
}

}  // namespace simverify::framework::yaml
