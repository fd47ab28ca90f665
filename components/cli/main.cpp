// The `simverify` executable: the framework's command line with the simulator stack's
// components registered.
#include <simverify/components/components.hpp>
#include <simverify/components/diagram_file.hpp>
#include <simverify/framework/cli.hpp>

#include <string_view>

#include "simverify_commit.hpp"

int main(int argc, char** argv) {
  auto& registry = simverify::framework::ComponentRegistry::global();
  simverify::components::register_builtin_components(registry);
  const simverify::framework::ExtraCommand extra[] = {
      {"diagram", "simverify diagram FILE [--dot]        # a block diagram's compiled plan, or DOT",
       simverify::components::diagram_command}};
  return simverify::framework::run_cli({argv, static_cast<std::size_t>(argc)}, registry,
                                       SIMVERIFY_COMMIT, extra);
}
