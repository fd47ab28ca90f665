#pragma once
// Internal: conversions between framework values and JSON.
#include <simverify/framework/value.hpp>

#include <nlohmann/json.hpp>

namespace simverify::framework::detail {

[[nodiscard]] nlohmann::ordered_json to_json(const Value& value);
// JSON has no NaN or infinity: such numbers are written as null.
[[nodiscard]] nlohmann::ordered_json number_or_null(double x);

}  // namespace simverify::framework::detail
