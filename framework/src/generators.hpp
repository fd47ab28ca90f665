#pragma once
// Grid generators: a mapping in `conditions:` such as {linspace: [a, b, n]} expands to the
// values of one axis (format page). Seeded samplers draw from a stream derived from the
// requirement id, the axis name and the seed, so every run, job count and shard split sees
// the same values.
#include <simverify/framework/value.hpp>

#include <optional>
#include <string>
#include <vector>

namespace simverify::framework::generators {

// Points one generator, and a whole grid, may have: a typo like 1e9 points is an error, not
// a hang.
inline constexpr std::size_t kMaxPoints = 10'000'000;

// Names of the generator keys ("linspace", "logspace", ...).
[[nodiscard]] const std::vector<std::string>& names();

// True if the mapping is a generator call: its first key is a generator name and any other
// key is `seed` (or a near miss of it).
[[nodiscard]] bool is_generator(const Value& mapping);

struct Expansion {
  std::vector<Value> values;
  std::optional<std::string> error;  // what was expected, when the arguments are bad
  SourceLocation error_at;           // where, when narrower than the whole call (line 0 if not)
};

[[nodiscard]] Expansion expand(const Value& mapping, const std::string& requirement_id,
                               const std::string& axis);

}  // namespace simverify::framework::generators
