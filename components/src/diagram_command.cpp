// `simverify diagram FILE [--dot]`: the compiled plan of a diagram file (blocks in evaluation
// order, states, parameters, loops and how they are solved), or the diagram as Graphviz DOT.
#include <simverify/components/diagram_file.hpp>

#include <iostream>
#include <string_view>

namespace simverify::components {

namespace {
constexpr std::string_view kUsage = R"(usage: simverify diagram FILE [--dot]
  Compiles the block diagram FILE and prints its plan: blocks in evaluation order, states,
  parameters, algebraic loops and how they are solved.
options:
  --dot                print the diagram as Graphviz DOT instead (dot -Tsvg draws it)
  --help               this text
exit codes: 0 compiled; 2 invalid diagram (the error names file:line:column)
)";
}  // namespace

int diagram_command(std::span<char* const> args) {
  std::string file;
  bool dot = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (arg == "--dot") {
      dot = true;
    } else if (file.empty() && !arg.starts_with("-")) {
      file = arg;
    } else {
      std::cerr << "error: unexpected argument '" << arg << "'\n";
      file.clear();
      break;
    }
  }
  if (file.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  try {
    const auto diagram = load_diagram(file);
    std::cout << (dot ? diagram->dot() : diagram->describe());
    return 0;
  } catch (const simulation::diagram::DiagramError& e) {
    const std::string at = e.where().str();
    std::cerr << (at.empty() ? "" : at + ": ") << "error: " << e.message() << "\n";
  }
  return 2;
}

}  // namespace simverify::components
