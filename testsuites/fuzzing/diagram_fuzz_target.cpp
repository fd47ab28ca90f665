// The diagram reader and compiler under mutated input: see diagram_fuzz_target.hpp.
#include "diagram_fuzz_target.hpp"

#include <simverify/components/diagram_file.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <filesystem>

namespace simverify::fuzzing {
namespace {

namespace dg = simverify::simulation::diagram;

std::optional<std::string> check_origin(const dg::DiagramError& e, int lines,
                                        const std::string& file_name) {
  const dg::Origin& at = e.where();
  if (e.message().empty()) return std::string("a diagram error without a message");
  if (at.file != file_name) {
    // A subsystem file the document names may be blamed instead of the document.
    std::error_code ec;
    if (!std::filesystem::is_regular_file(at.file, ec) || at.line < 1 || at.column < 1) {
      return fmt::format("error names '{}' ({}:{}), neither the input nor a file it includes: {}",
                         at.file, at.line, at.column, e.what());
    }
    return std::nullopt;
  }
  if (at.line < 1 || at.column < 1 || at.line > lines + 1) {
    return fmt::format("error outside the input's {} line(s): {}", lines, e.what());
  }
  return std::nullopt;
}

// One evaluation of the compiled plan (outputs and right-hand side at t = 0): a loop that
// does not converge or a NaN is fine, a crash or a foreign exception type is not.
std::optional<std::string> check_evaluation(const std::shared_ptr<const dg::CompiledDiagram>& d) {
  try {
    const dg::DiagramModel model(d);
    const std::vector<double> p = model.default_parameters();
    simulation::Context context;
    context.p = p;
    const simulation::Vector x0 = model.initial_state(0.0, context);
    simulation::Vector y;
    simulation::Vector dxdt;
    model.output(0.0, x0, context, y);
    model.rhs(0.0, x0, context, dxdt);
    if (dxdt.size() != x0.size()) {
      return fmt::format("rhs gave {} derivatives for {} states", dxdt.size(), x0.size());
    }
  } catch (const std::exception&) {
    return std::nullopt;
  } catch (...) {
    return std::string("an exception of unknown type escaped evaluating the diagram");
  }
  return std::nullopt;
}

}  // namespace

bool is_diagram_document(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, end - at);
    if (line.starts_with("diagram:")) return true;
    at = end + 1;
  }
  return false;
}

std::optional<std::string> check_diagram(std::string_view text, const std::string& file_name) {
  const auto lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  std::shared_ptr<const dg::CompiledDiagram> compiled;
  try {
    compiled = dg::compile(components::parse_diagram(std::string(text), file_name));
  } catch (const dg::DiagramError& e) {
    return check_origin(e, lines, file_name);
  } catch (const std::exception& e) {
    return fmt::format("an exception other than a DiagramError escaped the diagram reader: {}",
                       e.what());
  } catch (...) {
    return std::string("an exception of unknown type escaped the diagram reader");
  }
  return check_evaluation(compiled);
}

}  // namespace simverify::fuzzing
