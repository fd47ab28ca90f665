// The `simverify` executable: the framework's command line with the simulator stack's
// components registered.
#include <simverify/components/components.hpp>
#include <simverify/components/diagram_file.hpp>
#include <simverify/framework/cli.hpp>

#include <string_view>

#include "simverify_commit.hpp"

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "diagram") {
    return simverify::components::diagram_command({argv + 2, static_cast<std::size_t>(argc - 2)});
  }
  auto& registry = simverify::framework::ComponentRegistry::global();
  simverify::components::register_builtin_components(registry);
  return simverify::framework::run_cli({argv, static_cast<std::size_t>(argc)}, registry,
                                       SIMVERIFY_COMMIT);
}
