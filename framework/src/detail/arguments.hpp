#pragma once
// Internal: command-line parsing shared by the subcommands.
#include <limits>
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

// `-h` or `--help` where an option may stand: the command's help is printed instead.
struct HelpRequested : std::runtime_error {
  HelpRequested() : std::runtime_error("help requested") {}
};

// Options in `with_value` take a value (`--out DIR` or `--out=DIR`); the argument after such an
// option is its value whatever it looks like (getopt's rule: `--out -h` writes into `-h`).
// Unknown options are a UsageError suggesting the closest known one; `-h` or `--help` anywhere
// else throws HelpRequested. After `--` every argument is positional (a folder named `-h` or
// `--out`).
[[nodiscard]] Arguments parse_arguments(std::span<char*> args,
                                        const std::vector<std::string>& with_value,
                                        const std::vector<std::string>& without_value);

// The one parser of numbers on the command line: plain decimal text and nothing else ("5s",
// "0x10", " 5", "nan" and "inf" are UsageErrors naming the option), within [min, max].
[[nodiscard]] int parse_int(const std::string& text, const char* what, int min = 0,
                            int max = std::numeric_limits<int>::max());
[[nodiscard]] double parse_number(const std::string& text, const char* what, double min,
                                  double max);

}  // namespace simverify::framework::detail
