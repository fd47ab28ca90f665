#pragma once
// The `simverify` command line (run, merge, list, validate, gate, report). A project with its
// own components calls this from its main() after registering them.
#include <simverify/framework/component.hpp>

#include <span>
#include <string_view>

namespace simverify::framework {

// Exit codes: 0 releasable; 1 ran, not releasable; 2 invalid input or usage (nothing run).
// `simverify --version` prints the framework's version and `commit`, the source revision the
// executable was built from (the `simverify` executable's build stamps it; empty: unknown).
int run_cli(std::span<char*> args, const ComponentRegistry& registry, std::string_view commit = {});

}  // namespace simverify::framework
