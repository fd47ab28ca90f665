#pragma once
// Internal: command-line parsing shared by the subcommands.
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace simverify::framework::detail {

constexpr int kReleasable = 0;  // exit codes, format page "Command line"
constexpr int kNotReleasable = 1;
constexpr int kInvalid = 2;

// A usage mistake: printed with the usage text, exit 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Arguments {
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> options;  // --name value
  std::vector<std::string> flags;                            // --name

  [[nodiscard]] std::optional<std::string> option(std::string_view name) const;
  // Every value of an option that may be repeated (`--tests a.xml --tests b.xml`).
  [[nodiscard]] std::vector<std::string> all(std::string_view name) const;
  [[nodiscard]] bool flag(std::string_view name) const;
};

// Options in `with_value` take a value (`--out DIR` or `--out=DIR`); unknown options are a
// UsageError suggesting the closest known one.
[[nodiscard]] Arguments parse_arguments(std::span<char*> args,
                                        const std::vector<std::string>& with_value,
                                        const std::vector<std::string>& without_value);

[[nodiscard]] int parse_int(const std::string& text, const char* what);

}  // namespace simverify::framework::detail
