// The compiled plan in words (`simverify diagram FILE`) and as a Graphviz digraph (--dot).
#include <simverify/simulation/diagram/diagram_model.hpp>

#include "plan.hpp"

#include <sstream>

namespace simverify::simulation::diagram {
namespace {

const char* policy_name(LoopPolicy p) {
  switch (p) {
    case LoopPolicy::refuse: return "refuse";
    case LoopPolicy::fixed_point: return "fixed_point";
    case LoopPolicy::newton: return "newton";
  }
  return "refuse";
}

// A DOT string: quotes and backslashes escaped, a line break as DOT's centred "\n".
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string CompiledDiagram::describe() const {
  const detail::Plan& plan = *plan_;
  std::ostringstream out;
  out << "diagram " << plan.info.name;
  if (!plan.info.description.empty()) out << ": " << plan.info.description;
  out << "\nevaluation order:\n";
  int position = 1;
  for (const auto& step : plan.schedule) {
    if (step.loop < 0) {
      const auto& b = *plan.blocks[static_cast<std::size_t>(step.block)];
      out << "  " << position++ << ". " << b.name << " (" << b.type << ")\n";
    } else {
      const auto& loop = plan.loops[static_cast<std::size_t>(step.loop)];
      out << "  " << position++ << ". algebraic loop " << loop.name << "\n";
    }
  }
  out << "states (" << plan.info.states.size() << "):";
  for (const auto& s : plan.info.states) out << " " << s;
  out << "\noutputs:";
  for (const auto& o : plan.info.outputs) out << " " << o;
  out << "\nparameters:";
  for (const auto& p : plan.info.parameters) out << " " << p.name << "=" << p.default_value;
  if (!plan.info.events.empty()) {
    out << "\nzero-crossing events:";
    for (const auto& e : plan.info.events) out << " " << e.name;
  }
  if (const auto& second_order = plan.info.second_order) {
    out << "\nsecond order x'' = g(t, q) (rkn4, rkn64): positions";
    for (auto i : second_order->positions)
      out << " " << plan.info.states[static_cast<std::size_t>(i)];
    out << ", velocities";
    for (auto i : second_order->velocities)
      out << " " << plan.info.states[static_cast<std::size_t>(i)];
  }
  if (!plan.sampled.empty()) {
    out << "\nsampled at t = k T (time events):";
    for (int b : plan.sampled) out << " " << plan.blocks[static_cast<std::size_t>(b)]->name;
  }
  out << "\nalgebraic loops: " << plan.loops.size();
  if (!plan.loops.empty()) {
    const LoopSettings& s = plan.loop_settings;
    out << ", solved by " << policy_name(s.policy) << " (tol " << s.tol << ", max_iter "
        << s.max_iter;
    if (s.policy == LoopPolicy::fixed_point) out << ", relaxation " << s.relaxation;
    out << ")";
  }
  out << "\n";
  for (const auto& loop : plan.loops) {
    out << "  " << loop.name << "; guessed inputs:";
    for (const auto& cut : loop.cuts) {
      const auto& b = *plan.blocks[static_cast<std::size_t>(cut.block)];
      out << " " << b.name << "." << b.inputs[static_cast<std::size_t>(cut.input)].name;
    }
    out << "\n";
  }
  // Whether a workspace folds the diagram (linear_form.hpp); building one parses the
  // expressions once more, which describing can afford.
  const detail::Workspace ws(plan);
  out << "evaluated: ";
  if (!ws.linear) {
    out << "block by block\n";
  } else {
    out << "f as one affine map per run (dx = A x + B v + c), y "
        << (ws.linear->outputs() || plan.output_slots.empty() ? "too" : "block by block") << "\n";
  }
  return out.str();
}

std::string CompiledDiagram::dot() const {
  const detail::Plan& plan = *plan_;
  std::vector<int> loop_of(plan.blocks.size(), -1);
  for (std::size_t l = 0; l < plan.loops.size(); ++l) {
    for (int b : plan.loops[l].blocks) loop_of[static_cast<std::size_t>(b)] = static_cast<int>(l);
  }
  std::ostringstream out;
  out << "digraph " << quoted(plan.info.name) << " {\n  rankdir=LR;\n  node [shape=box];\n";
  for (const auto& b : plan.blocks) {
    out << "  " << quoted(b->name) << " [label=" << quoted(b->name + "\n" + b->type);
    if (b->states > 0) out << ", style=rounded";
    if (loop_of[static_cast<std::size_t>(b->index)] >= 0) out << ", color=red";
    out << "];\n";
  }
  for (const auto& e : plan.edges) {
    const auto& from = *plan.blocks[static_cast<std::size_t>(e.from)];
    const auto& to = *plan.blocks[static_cast<std::size_t>(e.to)];
    const auto& input = to.inputs[static_cast<std::size_t>(e.to_input)];
    out << "  " << quoted(from.name) << " -> " << quoted(to.name) << " [label="
        << quoted(from.outputs[static_cast<std::size_t>(e.from_output)].name + " -> " + input.name);
    const int la = loop_of[static_cast<std::size_t>(e.from)];
    if (la >= 0 && la == loop_of[static_cast<std::size_t>(e.to)] && input.feedthrough) {
      out << ", color=red";
    }
    out << "];\n";
  }
  out << "}\n";
  return out.str();
}

}  // namespace simverify::simulation::diagram
