#pragma once
// The `simverify` command line (run, merge, list, validate, gate, report). A project with its
// own components calls this from its main() after registering them.
#include <simverify/framework/component.hpp>

#include <functional>
#include <span>
#include <string_view>

namespace simverify::framework {

// Exit codes: 0 releasable; 1 ran, not releasable; 2 invalid input or usage (nothing run).
// `simverify --version` prints the framework's version and `commit`, the source revision the
// executable was built from (the `simverify` executable's build stamps it; empty: unknown).
// A command the executable adds beside the framework's (the simulator stack's `diagram`): its
// line in the `simverify --help` overview and what runs it, given the arguments after its name
// (`simverify help NAME` runs it with `--help`).
struct ExtraCommand {
  std::string_view name;
  std::string_view overview;  // e.g. "simverify diagram FILE [--dot]   # what it does"
  std::function<int(std::span<char* const>)> run;
};

// The report renderer of the simverify installation an executable was built against: the
// CMake package (find_package(simverify)) defines it for the executables that link it, so
// `report` works from a project's own build folder. Else it is found beside the executable
// (<prefix>/share/simverify/reports) or through SIMVERIFY_REPORTS_DIR.
#ifndef SIMVERIFY_PACKAGE_REPORTS_DIR
#define SIMVERIFY_PACKAGE_REPORTS_DIR ""
#endif

int run_cli(std::span<char*> args, const ComponentRegistry& registry, std::string_view commit = {},
            std::span<const ExtraCommand> extra = {},
            std::string_view package_reports_dir = SIMVERIFY_PACKAGE_REPORTS_DIR);

}  // namespace simverify::framework
