#pragma once
// Internal: the `u:` axis of a requirement file (REQUIREMENTS-FORMAT.md, "Input signals") as
// a simulation::InputSignal: a plain number is {constant: v}; a mapping names one signal
// ({constant: v}, {step: {at, from, to}}, {ramp: {at, slope}}, {sine: {amplitude,
// frequency, phase}}, {chirp: {amplitude, f0, f1, duration}}, {table: {file, column}},
// {road: {class, speed, seed}}) with an optional `hold: T` (zero-order hold).
#include <simverify/framework/value.hpp>
#include <simverify/simulation/input_signal.hpp>

#include <cstdint>
#include <filesystem>

namespace simverify::components {

// Throws std::invalid_argument naming the offending key and its file:line:column. A road
// without its own `seed` uses default_seed (the condition's `seed` axis); a table's
// relative `file` is resolved against the directory of the YAML file that names it.
[[nodiscard]] simulation::InputPtr input_from(const framework::Value& u,
                                              std::uint64_t default_seed);

// A path written in a requirement file, relative to that file's folder (as written when the
// value carries no file, e.g. one built in code). Throws std::invalid_argument for a non-string.
[[nodiscard]] std::filesystem::path path_relative_to_file(const framework::Value& path);

}  // namespace simverify::components
