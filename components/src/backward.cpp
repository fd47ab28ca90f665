// The `backward` component (system level): a boundary value problem solved by simulating
// backwards in time (ARGESIM C7 task C). x0 is the state to reach; the run goes back in
// reversed time until the target event `target: {state, value, direction}` and measures
// the state there - the initial state that leads to x0 - and how long the way takes.
#include "conditions.hpp"
#include "registration.hpp"

#include <simverify/simulation/analysis/backward.hpp>

#include <algorithm>
#include <stdexcept>

namespace simverify::components {
namespace {

using framework::Condition;
using framework::Measurement;
using framework::Value;

struct Target {
  std::size_t state = 0;
  double value = 0.0;
  simulation::EventDirection direction = simulation::EventDirection::either;
};

simulation::EventDirection parse_direction(const std::string& text) {
  if (text == "rising") return simulation::EventDirection::rising;
  if (text == "falling") return simulation::EventDirection::falling;
  if (text == "either") return simulation::EventDirection::either;
  throw std::invalid_argument("target direction must be rising, falling or either, found '" + text +
                              "'");
}

Target parse_target(const Value& v, const simulation::ModelInfo& info) {
  if (!v.is_map()) throw std::invalid_argument("target must be {state: name, value: number}");
  const Value* state = v.find("state");
  const Value* value = v.find("value");
  if (state == nullptr || !state->is_string() || value == nullptr || !value->is_number()) {
    throw std::invalid_argument("target must be {state: name, value: number[, direction]}");
  }
  const auto it = std::find(info.states.begin(), info.states.end(), state->as_string());
  if (it == info.states.end()) {
    throw std::invalid_argument("model '" + info.name + "' has no state '" + state->as_string() +
                                "'");
  }
  Target t;
  t.state = static_cast<std::size_t>(it - info.states.begin());
  t.value = value->as_number();
  if (const Value* d = v.find("direction")) t.direction = parse_direction(d->as_string());
  return t;
}

Measurement backward(const Condition& c, const framework::PointContext& context) {
  const auto model = model_for(c, requirement_of(context));
  const Target target = parse_target(c.at("target"), model->info());
  const simulation::analysis::TimeReversedModel reversed(*model);
  const simulation::analysis::TargetEventModel with_target(reversed, target.state, target.value,
                                                           target.direction, true);
  auto settings = simulator_settings(c, *model, requirement_of(context));
  const auto run = simulation::Simulator(with_target, settings).run();
  if (run.events.empty() || run.events.back().index != with_target.target_index()) {
    throw std::runtime_error("the backward run did not reach the target within tf");
  }
  const auto& hit = run.events.back();
  Measurement m;
  m.set("target_time", hit.time - settings.t0);
  m.set("target_state", std::vector<double>(hit.state.begin(), hit.state.end()));
  std::vector<double> times;
  for (const auto& e : run.events) times.push_back(e.time);
  m.set("event_count", static_cast<double>(times.size()));
  m.set("event_times", std::move(times));
  return m;
}

}  // namespace

framework::Component backward_component() {
  return extend_simulate(
      "backward",
      "from x0 back in reversed time to a target event: the initial state that "
      "reaches x0",
      {"target"}, {"target_time", "target_state", "event_times", "event_count"}, backward,
      [](std::string_view /*axis*/, const Value& v) -> std::optional<framework::AxisProblem> {
        const Value* state = v.find("state");
        const Value* value = v.find("value");
        if (!v.is_map() || state == nullptr || !state->is_string() || value == nullptr ||
            !value->is_number()) {
          return "expected {state: <state name>, value: <number>, direction: "
                 "rising|falling|either}";
        }
        if (const Value* d = v.find("direction")) {
          if (!d->is_string()) return "target direction must be rising, falling or either";
          try {
            (void)parse_direction(d->as_string());
          } catch (const std::exception& e) {
            return e.what();
          }
        }
        return std::nullopt;
      });
}

}  // namespace simverify::components
