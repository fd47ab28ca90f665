#pragma once
// Internal: subcommands implemented outside cli.cpp (one file per command).
#include "detail/arguments.hpp"
#include "gate.hpp"

#include <span>

namespace simverify::framework {

int command_diff(std::span<char*> args);                                     // diff_command.cpp
int command_gate(std::span<char*> args, const ComponentRegistry& registry);  // gate_command.cpp
int command_merge(std::span<char*> args);                                    // merge_command.cpp
// `package_reports_dir`: see run_cli.
int command_report(std::span<char*> args, const ComponentRegistry& registry,
                   std::string_view package_reports_dir);  // report_command.cpp

// Whether the caller closed the standard output (`>&-`): run_cli holds its number with
// /dev/null, where anything written is lost (cli.cpp).
[[nodiscard]] bool standard_output_closed();

// --coverage, --config, every --tests and --requirements of `gate` and `report` (gate_command.cpp).
[[nodiscard]] GateInputs gate_inputs(const detail::Arguments& a);

}  // namespace simverify::framework
