#include "generators.hpp"

#include "detail/text.hpp"

#include <simverify/core/fnv1a.hpp>
#include <simverify/framework/component.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace simverify::framework::generators {
namespace {

const std::vector<std::string> kNames = {"linspace", "logspace", "range", "uniform", "normal"};

struct Args {
  std::vector<double> numbers;
  std::optional<std::string> error;
};

Args generator_args(const Value& v, const char* name, const char* shape, std::size_t count) {
  Args out;
  if (!v.is_list() || v.as_list().size() != count) {
    out.error = fmt::format("{} expects [{}]", name, shape);
    return out;
  }
  for (const auto& item : v.as_list()) {
    if (!item.is_number() || !std::isfinite(item.as_number())) {
      out.error =
          fmt::format("{} expects [{}] with finite numbers, found {}", name, shape, item.str());
      return out;
    }
    out.numbers.push_back(item.as_number());
  }
  return out;
}

std::optional<std::string> check_count(double n, const char* name) {
  if (n < 1 || n != std::floor(n)) {
    return fmt::format("{}: the number of points must be a whole number >= 1, found {}", name, n);
  }
  if (n > static_cast<double>(kMaxPoints)) {
    return fmt::format("{}: {} points is more than the limit of {}", name, n, kMaxPoints);
  }
  return std::nullopt;
}

// Uniform double in [0, 1) from the top 53 bits: portable, unlike std::uniform_real_distribution.
double unit(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

}  // namespace

const std::vector<std::string>& names() {
  return kNames;
}

bool is_generator(const Value& mapping) {
  if (!mapping.is_map() || mapping.as_map().empty()) return false;
  const auto& entries = mapping.as_map();
  const auto& key = entries.front().first;
  if (std::find(kNames.begin(), kNames.end(), key) == kNames.end()) return false;
  // Besides the call only `seed` (or a typo of it, which expand() reports) may follow: a
  // mapping with other keys is a structured value whose first key happens to be a generator
  // name, e.g. scenarios named `normal` and `worn`.
  return std::all_of(entries.begin() + 1, entries.end(), [](const auto& entry) {
    return entry.first == "seed" || !detail::did_you_mean(entry.first, {"seed"}).empty();
  });
}

Expansion expand(const Value& mapping, const std::string& requirement_id, const std::string& axis) {
  Expansion out;
  const auto& entries = mapping.as_map();
  const std::string& name = entries.front().first;
  const Value& args = entries.front().second;
  const Value* seed = mapping.find("seed");
  for (std::size_t i = 1; i < entries.size(); ++i) {
    if (entries[i].first != "seed" || (name != "uniform" && name != "normal")) {
      out.error = fmt::format("unexpected key '{}' in {} generator", entries[i].first, name);
      out.error_at = entries[i].second.key_location();
      return out;
    }
  }

  if (name == "linspace" || name == "logspace") {
    const auto a = generator_args(args, name.c_str(), "start, stop, count", 3);
    if (a.error) return {{}, a.error, {}};
    if (auto e = check_count(a.numbers[2], name.c_str())) return {{}, e, {}};
    const auto n = static_cast<std::size_t>(a.numbers[2]);
    for (std::size_t i = 0; i < n; ++i) {
      const double s = n == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(n - 1);
      const double x = a.numbers[0] + s * (a.numbers[1] - a.numbers[0]);
      out.values.emplace_back(name == "linspace" ? x : std::pow(10.0, x));
    }
    return out;
  }
  if (name == "range") {
    const auto a = generator_args(args, "range", "start, stop, step", 3);
    if (a.error) return {{}, a.error, {}};
    const double start = a.numbers[0], stop = a.numbers[1], step = a.numbers[2];
    if (step == 0.0 || (stop - start) / step < 0.0) {
      out.error = fmt::format("range: step {} does not lead from {} to {}", step, start, stop);
      return out;
    }
    // Like numpy.arange but inclusive of stop when it lies on the grid (up to round-off).
    const double count = std::floor((stop - start) / step * (1 + 1e-12) + 1e-9) + 1;
    if (auto e = check_count(count, "range")) return {{}, e, {}};
    for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i) {
      out.values.emplace_back(start + static_cast<double>(i) * step);
    }
    return out;
  }
  // uniform / normal: seeded samples
  const auto a = generator_args(args, name.c_str(),
                                name == "uniform" ? "low, high, count" : "mean, std, count", 3);
  if (a.error) return {{}, a.error, {}};
  if (auto e = check_count(a.numbers[2], name.c_str())) return {{}, e, {}};
  if (seed == nullptr) {
    out.error = fmt::format("{} needs `seed: <whole number >= 0>` so runs are reproducible", name);
    return out;
  }
  // The one rule for seeds: above 2^64 - 1 the cast would clamp, and different seeds draw alike.
  if (auto problem = seed_problem(*seed)) {
    out.error = fmt::format("{}: {}", name, *problem);
    return out;
  }
  if (name == "uniform" && !(a.numbers[1] > a.numbers[0])) {
    out.error =
        fmt::format("uniform: high ({}) must be greater than low ({})", a.numbers[1], a.numbers[0]);
    return out;
  }
  if (name == "normal" && !(a.numbers[1] >= 0.0)) {
    out.error = fmt::format("normal: std must be >= 0, found {}", a.numbers[1]);
    return out;
  }
  std::mt19937_64 rng(core::fnv1a(axis, core::fnv1a(requirement_id)) ^
                      static_cast<std::uint64_t>(seed->as_number()));
  const auto n = static_cast<std::size_t>(a.numbers[2]);
  for (std::size_t i = 0; i < n; ++i) {
    if (name == "uniform") {
      out.values.emplace_back(a.numbers[0] + (a.numbers[1] - a.numbers[0]) * unit(rng));
    } else {
      // Box-Muller, one draw per value.
      const double u1 = 1.0 - unit(rng), u2 = unit(rng);
      const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
      out.values.emplace_back(a.numbers[0] + a.numbers[1] * z);
    }
  }
  return out;
}

}  // namespace simverify::framework::generators
