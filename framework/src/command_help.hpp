#pragma once
// Internal: the text `simverify <command> --help` prints. The bash completion
// (share/bash-completion/completions/simverify) reads its options from these texts, so every
// option a command accepts is listed here (cli_help checks it against the parser).
#include <optional>
#include <string_view>

namespace simverify::framework {

// The help of `command` (run, merge, list, validate, gate, report), or nothing.
[[nodiscard]] std::optional<std::string_view> command_help(std::string_view command);

}  // namespace simverify::framework
