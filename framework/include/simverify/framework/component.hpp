#pragma once
// A component (Def 5.3): a named callable mapping one condition to a measurement. Components
// are registered from C++ (components/ registers the simulator stack's); requirement files
// name them.
#include <simverify/framework/diagnostics.hpp>
#include <simverify/framework/grid.hpp>
#include <simverify/framework/measure_needs.hpp>
#include <simverify/framework/measurement.hpp>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace simverify::framework {

struct Requirement;

struct ComponentInfo {
  std::string name;
  std::string description;
  // Condition axes the component understands; an entry ending in '*' is a prefix ("p.*").
  std::vector<std::string> axes;
  // Measures it produces; an entry ending in '*' is a prefix ("y.*").
  std::vector<std::string> measures;
  // Keys of the requirement itself the component reads besides the standard ones (the
  // `command` component's `command:` and `measures:`). The loader accepts them only with
  // this component and keeps them, as written, in Requirement::fields.
  std::vector<std::string> requirement_keys = {};
};

// What a component may know about a grid point besides its conditions; components that hand
// the point to something outside this process (the `command` component) pass it on.
struct PointContext {
  const Requirement* requirement = nullptr;
  std::size_t index = 0;         // of the point in the requirement's grid
  std::uint64_t seed = 0;        // point_seed(): the same on every run, job count and shard
  double timeout_seconds = 0.0;  // the run's --timeout per point; 0: none
  // The measures to produce (the rest may be skipped); null: every measure.
  const MeasureNeeds* needs = nullptr;
  // Set when the run stops (Ctrl-C) while the point runs in the run's own process
  // (--isolation none; worker processes are killed instead): a component that waits on
  // something outside, like a program, gives up and throws. Null: nobody stops it.
  const std::atomic<bool>* stop = nullptr;
  // Where the point's temporary files belong: a folder of the executor's own, removed when the
  // requirement ends and, on the command line, inside the run's staging folder, so even a
  // SIGKILLed run's leftovers go with the next run's sweep. Null: the system's (TMPDIR).
  const std::filesystem::path* temp_folder = nullptr;
  [[nodiscard]] bool wants(std::string_view measure) const {
    return needs == nullptr || needs->wants(measure);
  }
};

// What an axis check found wrong with a value. `location` is given when a place inside the
// value is to blame (an element of a `u:` list, a signal's argument); the error points at
// the value itself otherwise. A message alone converts, so a check may `return "...";`.
struct AxisProblem {
  AxisProblem(std::string text)  // NOLINT(google-explicit-constructor)
      : message(std::move(text)) {}
  AxisProblem(const char* text) : message(text) {}  // NOLINT(google-explicit-constructor)
  AxisProblem(SourceLocation where, std::string text)
      : location(std::move(where)), message(std::move(text)) {}

  std::optional<SourceLocation> location;
  std::string message;
  // "file:line:column: message" when located, else the message: for a problem quoted inside
  // another one's message.
  [[nodiscard]] std::string str() const;
};

// Checks one axis value before anything runs; returns the problem or nothing. Lets a
// component reject unknown models or methods at validation time, listing the known ones.
using AxisCheck = std::function<std::optional<AxisProblem>(std::string_view axis, const Value&)>;
using Evaluate = std::function<Measurement(const Condition&)>;
using EvaluateInContext = std::function<Measurement(const Condition&, const PointContext&)>;
// Suggests what an unknown condition name meant, knowing the requirement's other conditions
// (a parameter of its model written without `p.`): " (did you mean 'p.lambda'?)", or "".
using AxisHint = std::function<std::string(std::string_view name, const Grid& conditions)>;
// Checks a whole requirement once it loaded without errors (its requirement_keys against its
// conditions and quality, files they name); returns the problems, each with its location.
using RequirementCheck = std::function<Diagnostics(const Requirement&)>;

// A picture of what a requirement runs, for the report (a block diagram its `model` axis
// names): Graphviz DOT text, which the report step renders to SVG with `dot`.
struct Figure {
  std::string title;     // what it shows, e.g. the diagram's path as the requirement names it
  std::string graphviz;  // a DOT digraph
};
// The figures of a requirement; the runner writes them beside results.json.
using Figures = std::function<std::vector<Figure>(const Requirement&)>;

// The units of what a requirement names (condition axes such as "p.m1" or "tf", series
// columns such as "y.chassis_acceleration", its quality's measure), as name -> unit; the
// runner writes them to results.json and the report labels axes and tables with them.
using UnitMap = std::map<std::string, std::string, std::less<>>;
using Units = std::function<UnitMap(const Requirement&)>;

// Checks conditions that must fit together (a model and its parameters, the state dimension
// and x0) before anything runs. The loader calls it once per distinct combination of the
// values of `axes` (an entry ending in '*' is a prefix), so it may be costlier than an
// AxisCheck; it sees the whole grid point.
struct ConditionCheck {
  std::vector<std::string> axes;
  std::function<std::optional<std::string>(const Condition&)> check;
  [[nodiscard]] bool reads(std::string_view axis) const;
};

struct Component {
  ComponentInfo info;
  Evaluate evaluate;
  AxisCheck check_axis;                                          // optional
  std::optional<ConditionCheck> check_condition = std::nullopt;  // optional
  EvaluateInContext evaluate_in_context = nullptr;  // optional; used instead of evaluate
  RequirementCheck check_requirement = nullptr;     // optional
  Figures figures = nullptr;                        // optional
  Units units = nullptr;                            // optional
  AxisHint hint_axis = nullptr;                     // optional

  // evaluate_in_context when the component has it, evaluate otherwise.
  [[nodiscard]] Measurement measure(const Condition& condition, const PointContext& context) const;
  [[nodiscard]] bool accepts_axis(std::string_view axis) const;
  [[nodiscard]] bool produces_measure(std::string_view measure) const;
};

// The seed a point hands to what it runs: its `seed` condition, else one derived from the
// requirement id and the point's index (FNV-1a, SplitMix64), so it is the same on every
// machine, for every --jobs and every --shard split.
[[nodiscard]] std::uint64_t point_seed(const Requirement& requirement, std::size_t index);

// Why `value` cannot be a `seed` condition, or nothing: a seed is a whole number a 64-bit
// generator state holds (0 to 2^64 - 1). The loader refuses any other, for every component,
// since point_seed could only replace it by a derived seed without a word.
[[nodiscard]] std::optional<std::string> seed_problem(const Value& value);

class ComponentRegistry {
 public:
  void add(Component component);
  [[nodiscard]] const Component* find(std::string_view name) const;
  [[nodiscard]] std::vector<std::string> names() const;

  // The process-wide registry the CLI and the test adapters use.
  static ComponentRegistry& global();

 private:
  std::map<std::string, Component, std::less<>> components_;
};

}  // namespace simverify::framework
