#pragma once
// Internal: the `u:` axis of a requirement file (REQUIREMENTS-FORMAT.md, "Input signals") as
// a simulation::InputSignal: a plain number is {constant: v}; a mapping names one signal
// ({constant: v}, {step: {at, from, to}}, {ramp: {at, slope}}, {sine: {amplitude,
// frequency, phase}}, {chirp: {amplitude, f0, f1, duration}}, {table: {file, column}},
// {road: {class, speed, seed}}, {noise: {mean, std, seed, hold}}) with an optional `hold: T`
// (zero-order hold; noise has its own).
#include <simverify/framework/value.hpp>
#include <simverify/simulation/input_signal.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace simverify::components {

// Whose input a signal is: a noise source draws from the stream of (requirement id, axis,
// seed), so two sources never share draws and a point's noise is the same for every --jobs
// and --shard.
struct InputSource {
  std::string_view requirement;
  std::string_view axis = "u";
};

// Why a `u:` value is no input signal. what() is "file:line:column: u: message" (no place
// when the value carries none); where() and message() ("u: message") apart let an axis check
// point at the place inside the value.
class InputError : public std::invalid_argument {
 public:
  InputError(framework::SourceLocation where, const std::string& message);
  [[nodiscard]] const framework::SourceLocation& where() const { return where_; }
  [[nodiscard]] const std::string& message() const { return message_; }

 private:
  framework::SourceLocation where_;
  std::string message_;
};

// Throws InputError naming the offending key and its file:line:column. A road or
// noise without its own `seed` uses default_seed (the condition's `seed` axis); a table's
// relative `file` is resolved against the directory of the YAML file that names it.
[[nodiscard]] simulation::InputPtr input_from(const framework::Value& u, std::uint64_t default_seed,
                                              const InputSource& source = {});

// The stream a noise source of `source` seeded with `seed` draws from (SplitMix64 of the
// FNV-1a hashes of the requirement id and the axis, then of the seed).
[[nodiscard]] std::uint64_t noise_stream(const InputSource& source, std::uint64_t seed);

// The `hold` of a {noise: {...}} input; nothing for any other signal.
[[nodiscard]] std::optional<double> noise_hold(const framework::Value& u);

// A path written in a requirement file, relative to that file's folder (as written when the
// value carries no file, e.g. one built in code). Throws std::invalid_argument for a non-string.
[[nodiscard]] std::filesystem::path path_relative_to_file(const framework::Value& path);

}  // namespace simverify::components
