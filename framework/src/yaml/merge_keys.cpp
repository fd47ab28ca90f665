#include "merge_keys.hpp"

#include <simverify/framework/yaml_file.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace simverify::framework::yaml {
namespace {

constexpr const char* kMergeKey = "<<";

bool is_merge_key(const YAML::Node& key) {
  return key.IsScalar() && !is_text_scalar(key) && key.Scalar() == kMergeKey;
}

class MergeExpander {
 public:
  explicit MergeExpander(LocatedErrors& errors) : errors_(errors) {}

  void visit(YAML::Node node) {
    if (!node.IsMap() && !node.IsSequence()) return;
    // An alias is the anchored node itself: each collection of the text is expanded once,
    // so a file of aliases of aliases costs no more than its text.
    if (!done_.insert(node.Mark().pos).second) return;
    if (node.IsSequence()) {
      for (auto item : node) visit(item);
      return;
    }
    std::vector<std::pair<YAML::Node, YAML::Node>> entries;
    bool merges = false;
    for (auto entry : node) {
      merges = merges || is_merge_key(entry.first);
      entries.emplace_back(entry.first, entry.second);
    }
    if (merges) {
      expanding_.insert(node.Mark().pos);
      expand(node, entries);
      expanding_.erase(node.Mark().pos);
    }
    for (auto entry : node) visit(entry.second);
  }

 private:
  void expand(YAML::Node& map, const std::vector<std::pair<YAML::Node, YAML::Node>>& entries) {
    std::set<std::string> own;
    for (const auto& [key, value] : entries) {
      if (!is_merge_key(key) && key.IsScalar()) own.insert(key.Scalar());
    }
    std::vector<std::pair<YAML::Node, YAML::Node>> merged;
    for (const auto& [key, value] : entries) {
      if (!is_merge_key(key)) {
        merged.emplace_back(key, value);
        continue;
      }
      std::vector<YAML::Node> sources;
      if (value.IsMap()) {
        sources.push_back(value);
      } else if (value.IsSequence()) {
        for (auto item : value) sources.push_back(item);
      }
      // A bad `<<` is reported and dropped, so the rest of the file is still checked.
      if (sources.empty() || !std::all_of(sources.begin(), sources.end(),
                                          [](const YAML::Node& s) { return s.IsMap(); })) {
        errors_.error(value,
                      "the merge key `<<` takes a mapping (an alias such as *common) "
                      "or a list of mappings");
        continue;
      }
      if (std::any_of(sources.begin(), sources.end(),
                      [&](const YAML::Node& s) { return expanding_.contains(s.Mark().pos); })) {
        errors_.error(key,
                      "the merge key `<<` merges a mapping that holds it (an anchor used "
                      "inside itself), so the mapping never ends");
        continue;
      }
      for (auto& source : sources) {
        visit(source);  // a source may merge others first
        for (auto entry : source) {
          if (!entry.first.IsScalar() || own.insert(entry.first.Scalar()).second) {
            merged.emplace_back(entry.first, entry.second);
          }
        }
      }
    }
    // In place, so the mapping keeps its own position for messages about it.
    for (const auto& [key, value] : entries) map.remove(key);
    for (const auto& [key, value] : merged) map.force_insert(key, value);
  }

  LocatedErrors& errors_;
  std::set<int> done_;       // text positions of the collections expanded
  std::set<int> expanding_;  // ... and of the mappings whose `<<` is being expanded
};

}  // namespace

void expand_merge_keys(YAML::Node& root, LocatedErrors& errors) {
  MergeExpander(errors).visit(root);
}

}  // namespace simverify::framework::yaml
