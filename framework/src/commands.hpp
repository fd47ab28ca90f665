#pragma once
// Internal: subcommands implemented outside cli.cpp (one file per command).
#include <span>

namespace simverify::framework {

int command_gate(std::span<char*> args);  // gate_command.cpp

}  // namespace simverify::framework
