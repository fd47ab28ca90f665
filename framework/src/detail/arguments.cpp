#include "detail/arguments.hpp"

#include "detail/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace simverify::framework::detail {

std::optional<std::string> Arguments::option(std::string_view name) const {
  for (const auto& [n, v] : options) {
    if (n == name) return v;
  }
  return std::nullopt;
}

std::vector<std::string> Arguments::all(std::string_view name) const {
  std::vector<std::string> out;
  for (const auto& [n, v] : options) {
    if (n == name) out.push_back(v);
  }
  return out;
}

bool Arguments::flag(std::string_view name) const {
  return std::find(flags.begin(), flags.end(), name) != flags.end();
}

Arguments parse_arguments(std::span<char*> args, const std::vector<std::string>& with_value,
                          const std::vector<std::string>& without_value) {
  Arguments out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    if (arg == "--") {  // POSIX: what follows are operands, whatever they look like
      out.positional.insert(out.positional.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                            args.end());
      break;
    }
    if (arg == "-h" || arg == "--help") throw HelpRequested();
    if (!arg.starts_with("--")) {
      out.positional.push_back(arg);
      continue;
    }
    std::string value;
    bool has_inline_value = false;
    if (auto eq = arg.find('='); eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_inline_value = true;
    }
    const std::string name = arg.substr(2);
    if (std::find(with_value.begin(), with_value.end(), name) != with_value.end()) {
      if (!has_inline_value) {
        if (i + 1 >= args.size()) throw UsageError(fmt::format("{} needs a value", arg));
        value = args[++i];
      }
      out.options.emplace_back(name, value);
    } else if (std::find(without_value.begin(), without_value.end(), name) != without_value.end()) {
      out.flags.push_back(name);
    } else {
      std::vector<std::string> known;
      known.reserve(with_value.size() + without_value.size());
      for (const auto& n : with_value) known.push_back("--" + n);
      for (const auto& n : without_value) known.push_back("--" + n);
      // `validate` and `diagram` take no option at all: "known: " with nothing after it.
      throw UsageError(known.empty()
                           ? fmt::format("unknown option {}; this command takes none", arg)
                           : fmt::format("unknown option {}{}; known: {}", arg,
                                         did_you_mean(arg, known), join(known)));
    }
  }
  return out;
}

int parse_int(const std::string& text, const char* what, int min, int max) {
  int value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || value < min || value > max) {
    throw UsageError(
        fmt::format("{} must be a whole number from {} to {}, got '{}'", what, min, max, text));
  }
  return value;
}

double parse_number(const std::string& text, const char* what, double min, double max) {
  double value = 0;
  // Decimal only (chars_format::general reads no hexadecimal), the whole text, finite.
  const auto [ptr, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
  if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(value) ||
      value < min || value > max) {
    throw UsageError(
        fmt::format("{} must be a number from {:g} to {:g}, got '{}' (plain decimal: "
                    "no units, no hexadecimal)",
                    what, min, max, text));
  }
  return value;
}

}  // namespace simverify::framework::detail
