#pragma once
// The `simverify` command line (run, merge, list, validate, gate, report). A project with its
// own components calls this from its main() after registering them.
#include <simverify/framework/component.hpp>

#include <span>

namespace simverify::framework {

// Exit codes: 0 releasable; 1 ran, not releasable; 2 invalid input or usage (nothing run).
int run_cli(std::span<char*> args, const ComponentRegistry& registry);

}  // namespace simverify::framework
