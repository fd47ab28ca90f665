#include <simverify/framework/measurement.hpp>

namespace simverify::framework {

void Measurement::set(std::string name, Measure value) {
  for (auto& [n, v] : entries_) {
    if (n == name) {
      v = std::move(value);
      return;
    }
  }
  entries_.emplace_back(std::move(name), std::move(value));
}

const Measure* Measurement::find(std::string_view name) const {
  for (const auto& [n, v] : entries_) {
    if (n == name) return &v;
  }
  return nullptr;
}

}  // namespace simverify::framework
