#include "detail/json.hpp"

#include <cmath>

namespace simverify::framework::detail {

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

}  // namespace simverify::framework::detail
