#include "reporters/cost_memory.hpp"

#include "detail/json.hpp"

#include <simverify/core/read_file.hpp>
#include <simverify/core/write_file.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <utility>
#include <vector>

namespace simverify::framework {
namespace fs = std::filesystem;
namespace {

using MemoryJson = nlohmann::ordered_json;
constexpr std::string_view kFormat = "simverify-costs 1";
// A memory of kMaxRememberedRequirements entries is about half a megabyte; anything far
// larger was not written by us.
constexpr std::uintmax_t kMaxMemoryBytes = std::uintmax_t{16} << 20;

struct Remembered {
  double seconds_per_point = 0;
  long long run = 0;  // the memory's run counter when it was last measured
};
// (requirement file, id) -> cost
using Memory = std::map<std::pair<std::string, std::string>, Remembered>;

std::string file_of(const Requirement& r) {
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(fs::absolute(r.location.file, ec), ec);
  return ec ? std::string() : canonical.string();
}

// Entries that are not what we write (a hand-edited or tampered memory) are skipped; a file
// the results readers would refuse (repeated keys, deep nesting) is forgotten whole.
Memory read_memory(const fs::path& file) {
  Memory memory;
  try {
    const MemoryJson doc = detail::parse_json_document(
        core::read_regular_file(file, "cost memory", kMaxMemoryBytes), file.string());
    if (doc.value("format", "") != kFormat) return memory;
    for (const MemoryJson& e : doc.at("requirements")) {
      const double cost = e.at("seconds_per_point").get<double>();
      if (!std::isfinite(cost) || cost < 0) continue;
      memory[{e.at("file").get<std::string>(), e.at("id").get<std::string>()}] = {
          cost, e.at("run").get<long long>()};
    }
  } catch (const std::exception&) {
    memory.clear();
  }
  return memory;
}

void write_memory(const fs::path& file, const Memory& memory) {
  std::vector<std::pair<const Memory::key_type*, Remembered>> newest;
  newest.reserve(memory.size());
  for (const auto& [key, value] : memory) newest.emplace_back(&key, value);
  std::sort(newest.begin(), newest.end(),
            [](const auto& a, const auto& b) { return a.second.run > b.second.run; });
  if (newest.size() > kMaxRememberedRequirements) newest.resize(kMaxRememberedRequirements);
  MemoryJson entries = MemoryJson::array();
  for (const auto& [key, value] : newest) {
    entries.push_back({{"file", key->first},
                       {"id", key->second},
                       {"seconds_per_point", value.seconds_per_point},
                       {"run", value.run}});
  }
  const MemoryJson doc = {{"format", kFormat}, {"requirements", std::move(entries)}};
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (!ec) core::write_atomically(file, doc.dump(1) + "\n");
}

class CostRecorder final : public RunListener {
 public:
  explicit CostRecorder(fs::path memory) : memory_(std::move(memory)) {}

  void run_finished(const RunSummary& /*summary*/,
                    const std::vector<RequirementResult>& results) override {
    Memory memory = read_memory(memory_);
    long long run = 0;
    for (const auto& [key, value] : memory) run = std::max(run, value.run);
    ++run;
    bool measured = false;
    for (const auto& r : results) {
      // A skipped requirement or one interrupted before its first point measured nothing.
      if (r.requirement == nullptr || r.status == Status::skipped || r.point_count == 0) continue;
      const std::string file = file_of(*r.requirement);
      if (file.empty()) continue;
      memory[{file, r.requirement->id}] = {r.seconds / static_cast<double>(r.point_count), run};
      measured = true;
    }
    if (!measured) return;
    try {
      write_memory(memory_, memory);
    } catch (const std::exception&) {  // advisory: a memory we cannot write is not an error
    }
  }

 private:
  fs::path memory_;
};

const char* non_empty(const char* value) {
  return value != nullptr && *value != '\0' ? value : nullptr;
}

}  // namespace

std::optional<fs::path> cost_memory_file() {
  if (const char* explicit_file = std::getenv("SIMVERIFY_COST_MEMORY")) {
    if (*explicit_file == '\0') return std::nullopt;
    return fs::path(explicit_file);
  }
  if (const char* cache = non_empty(std::getenv("XDG_CACHE_HOME"))) {
    return fs::path(cache) / "simverify" / "costs.json";
  }
  if (const char* home = non_empty(std::getenv("HOME"))) {
    return fs::path(home) / ".cache" / "simverify" / "costs.json";
  }
  return std::nullopt;
}

std::map<std::string, double> remembered_costs(const fs::path& memory,
                                               std::span<const Requirement> requirements) {
  std::map<std::string, double> costs;
  const Memory remembered = read_memory(memory);
  if (remembered.empty()) return costs;
  for (const auto& r : requirements) {
    if (const auto it = remembered.find({file_of(r), r.id}); it != remembered.end()) {
      costs[r.id] = it->second.seconds_per_point;
    }
  }
  return costs;
}

std::unique_ptr<RunListener> make_cost_recorder(fs::path memory) {
  return std::make_unique<CostRecorder>(std::move(memory));
}

}  // namespace simverify::framework
