// The `monte_carlo` component (system level): a Monte Carlo study at one grid
// point. Run i of `runs` gets its own stream, stream_seed(seed, i) (SplitMix64), from which
// it draws each perturbed input (`perturb: {p.phi_pin: {uniform: [a, b]}}`, or `{normal:
// [mean, std]}`) and its random road (`seed` of simulate); the measure `of` of the runs is
// reduced to sample statistics (Def 4.17). Runs depend only on (seed, i), never on --jobs or
// --shard. Where the runner's `aggregate` over a seeded grid axis reduces whole grid points,
// this component makes the Monte Carlo study itself one point, so a grid can vary what the
// study depends on (a tolerance's width, a design) and threshold its statistics directly.
#include "conditions.hpp"
#include "registration.hpp"
#include "simulate_at.hpp"
#include "study_measure.hpp"

#include <simverify/core/text.hpp>
#include <simverify/framework/point_progress.hpp>
#include <simverify/simulation/analysis/finite_difference.hpp>
#include <simverify/simulation/analysis/monte_carlo.hpp>
#include <simverify/simulation/processing/statistics.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

namespace simverify::components {
namespace {

using framework::Condition;
using framework::Measurement;
using framework::Value;
namespace analysis = simulation::analysis;

constexpr std::string_view kMonteCarloAxes[] = {"of", "runs", "perturb", "level"};
// The measure of a perturbed input's drawn values: "drawn.p.phi_pin".
constexpr std::string_view kDrawnPrefix = "drawn.";

struct Perturbed {
  std::string axis;
  analysis::Distribution distribution;
  std::optional<std::size_t> x0_index;  // for x0[<i>]: one component of the initial state
};

// x0[<i>] names one component of the initial state.
std::optional<std::size_t> x0_component(const std::string& axis) {
  if (!axis.starts_with("x0[") || axis.back() != ']' || axis.size() < 5) return std::nullopt;
  const std::string digits = axis.substr(3, axis.size() - 4);
  if (digits.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::stoul(digits);
}

analysis::Distribution parse_distribution(const std::string& axis, const Value& v) {
  const auto pair = [&](const Value& args, const char* form) {
    const auto numbers = args.as_numbers();
    if (numbers.size() != 2) {
      throw std::invalid_argument("perturb '" + axis + "': expected " + form);
    }
    return std::pair{numbers[0], numbers[1]};
  };
  if (v.is_map() && v.as_map().size() == 1) {
    const auto& [kind, args] = v.as_map().front();
    if (kind == "uniform") {
      const auto [a, b] = pair(args, "{uniform: [low, high]}");
      return analysis::Distribution::uniform(a, b);
    }
    if (kind == "normal") {
      const auto [mean, std] = pair(args, "{normal: [mean, std]}");
      return analysis::Distribution::normal(mean, std);
    }
  }
  throw std::invalid_argument("perturb '" + axis +
                              "': expected {uniform: [low, high]} or {normal: [mean, std]}");
}

std::vector<Perturbed> parse_perturb(const Value& v) {
  if (!v.is_map() || v.as_map().empty()) {
    throw std::invalid_argument(
        "expected a mapping from inputs to distributions, e.g. {p.phi_pin: {uniform: [a, b]}}");
  }
  std::vector<Perturbed> out;
  for (const auto& [axis, distribution] : v.as_map()) {
    if (std::find(std::begin(kMonteCarloAxes), std::end(kMonteCarloAxes), axis) !=
            std::end(kMonteCarloAxes) ||
        axis == "seed") {
      throw std::invalid_argument("perturb: '" + axis + "' cannot be perturbed");
    }
    out.push_back({axis, parse_distribution(axis, distribution), x0_component(axis)});
    if (out.back().x0_index) continue;
    // The input must take one number: check one (the mean) as simulate would.
    const bool vector_axis = axis == "x0" || axis == "atol";
    if (auto problem = vector_axis
                           ? std::optional<framework::AxisProblem>("perturb one component, x0[<i>]")
                           : check_simulate_override(axis, Value(out.back().distribution.mean()))) {
      throw std::invalid_argument("perturb '" + axis + "': " + problem->str());
    }
  }
  return out;
}

std::size_t parse_runs(const Value& v) {
  const double runs = v.as_number();
  if (!(runs >= 2) || runs != std::floor(runs) || runs > 1e7) {
    throw std::invalid_argument("runs must be a whole number >= 2");
  }
  return static_cast<std::size_t>(runs);
}

double parse_level(const Value& v) {
  const double level = v.as_number();
  if (!(level > 0.0 && level < 1.0)) throw std::invalid_argument("level must be in (0, 1)");
  return level;
}

Measurement monte_carlo(const Condition& c, const framework::PointContext& context) {
  const std::vector<Perturbed> perturbed =
      c.has("perturb") ? parse_perturb(c.at("perturb")) : std::vector<Perturbed>{};
  const std::size_t runs = parse_runs(c.at("runs"));
  const double level = c.has("level") ? parse_level(c.at("level")) : 0.95;
  const StudyMeasure of = parse_study_measure(c.text("of"));
  const double seed = c.number_or("seed", 0.0);
  if (!(seed >= 0.0) || seed != std::floor(seed)) {
    throw std::invalid_argument("seed must be a whole number >= 0");
  }
  const auto base_seed = static_cast<std::uint64_t>(seed);

  // The nominal initial state, for perturbing its components.
  std::vector<double> x0;
  if (std::any_of(perturbed.begin(), perturbed.end(), [](const auto& p) { return p.x0_index; })) {
    if (c.has("x0")) {
      x0 = c.at("x0").as_numbers();
    } else {
      const auto info = model_for(c)->info();
      x0.assign(info.default_x0.begin(), info.default_x0.end());
    }
  }
  // The inputs of the run with stream `stream`: draw k is stream_seed(stream, k).
  const auto draw = [&](std::uint64_t stream) {
    std::vector<double> values(perturbed.size());
    for (std::size_t k = 0; k < perturbed.size(); ++k) {
      values[k] = perturbed[k].distribution.sample(analysis::stream_seed(stream, k));
    }
    return values;
  };
  // The road (and any other random input) of a run: 53 bits of its stream, exactly
  // representable as the double a condition value holds.
  const auto run_seed = [](std::uint64_t stream) { return static_cast<double>(stream >> 11); };
  const auto overrides = [&](std::uint64_t stream, const std::vector<double>& values) {
    Overrides o;
    o.emplace_back("seed", Value(run_seed(stream)));
    std::vector<double> x = x0;
    for (std::size_t k = 0; k < perturbed.size(); ++k) {
      if (const auto i = perturbed[k].x0_index) {
        if (*i >= x.size()) {
          throw std::invalid_argument("perturb '" + perturbed[k].axis +
                                      "': the initial state has " + std::to_string(x.size()) +
                                      " components");
        }
        x[*i] = values[k];
      } else {
        o.emplace_back(perturbed[k].axis, Value(values[k]));
      }
    }
    if (!x.empty()) o.emplace_back("x0", Value(Value::List(x.begin(), x.end())));
    return o;
  };
  // The runs of one study run one after another: the runner already spreads grid points
  // over --jobs, and a run's result depends on (seed, i) alone.
  std::vector<std::vector<double>> inputs(perturbed.size(), std::vector<double>(runs));
  std::vector<double> run_seeds(runs);
  std::vector<double> samples(runs);
  for (std::size_t i = 0; i < runs; ++i) {
    // Run i is the i-th share of the point's progress; the simulation inside fills it.
    const framework::PointProgressSpan share(
        static_cast<double>(i) / static_cast<double>(runs),
        static_cast<double>(i + 1) / static_cast<double>(runs));
    const std::uint64_t stream = analysis::stream_seed(base_seed, i);
    const std::vector<double> values = draw(stream);
    samples[i] = simulate_measure(c, kMonteCarloAxes, overrides(stream, values), of, context);
    run_seeds[i] = run_seed(stream);
    for (std::size_t k = 0; k < perturbed.size(); ++k) inputs[k][i] = values[k];
  }

  namespace stats = simulation::processing;
  Measurement m;
  m.set("mean", stats::mean(samples));
  m.set("std", stats::sample_std(samples));
  const auto ci = stats::confidence_interval(samples, level);
  m.set("ci_lower", ci.lower);
  m.set("ci_upper", ci.upper);
  const auto [lowest, highest] = std::minmax_element(samples.begin(), samples.end());
  m.set("min", *lowest);
  m.set("max", *highest);
  // Which runs gave min and max, and what each run drew: with these a reviewer re-runs the
  // worst case alone, as a `simulate` point with the drawn inputs and `seed: run_seeds[i]`.
  m.set("min_run", static_cast<double>(lowest - samples.begin()));
  m.set("max_run", static_cast<double>(highest - samples.begin()));
  m.set("median", stats::median(samples));
  m.set("q05", stats::quantile(samples, 0.05));
  m.set("q95", stats::quantile(samples, 0.95));
  if (perturbed.size() == 1) {
    const double slope = analysis::regression_slope(inputs[0], samples);
    m.set("slope", slope);
    const double x_mean = stats::mean(inputs[0]);
    const double y_mean = stats::mean(samples);
    if (x_mean != 0.0 && y_mean != 0.0) {
      m.set("normalized_slope", analysis::normalized(slope, x_mean, y_mean));
    }
  }
  m.set("samples", std::move(samples));
  m.set("run_seeds", std::move(run_seeds));
  for (std::size_t k = 0; k < perturbed.size(); ++k) {
    m.set(std::string(kDrawnPrefix) + perturbed[k].axis, std::move(inputs[k]));
  }
  return m;
}

// A `drawn.<input>` quality measure names an input every `perturb` of the requirement draws.
framework::Diagnostics check_drawn_measure(const framework::Requirement& r) {
  const std::string_view measured = framework::measured_name(r.quality);
  if (!measured.starts_with(kDrawnPrefix)) return {};
  const std::string input(measured.substr(kDrawnPrefix.size()));
  const framework::Axis* perturb = r.conditions.find_axis("perturb");
  const auto location =
      r.quality.measure_location.line > 0 ? r.quality.measure_location : r.location;
  if (perturb == nullptr) {
    return {{location, "measure '" + std::string(measured) +
                           "': the study perturbs no input (condition 'perturb')"}};
  }
  for (const auto& value : perturb->values) {
    if (!value.is_map()) continue;  // the axis check reports it
    std::vector<std::string> drawn;
    for (const auto& [axis, distribution] : value.as_map()) drawn.push_back(axis);
    if (std::find(drawn.begin(), drawn.end(), input) == drawn.end()) {
      return {{location, "measure '" + std::string(measured) + "': perturb does not draw '" +
                             input + "'" + core::did_you_mean(input, drawn) + "; it draws " +
                             core::join(drawn)}};
    }
  }
  return {};
}

}  // namespace

framework::Component monte_carlo_component() {
  framework::Component c = extend_simulate(
      "monte_carlo",
      "Monte Carlo study at one point: `runs` seeded runs with perturbed inputs and "
      "their own random roads, reduced to sample statistics of a simulate measure (Def 4.17)",
      {std::begin(kMonteCarloAxes), std::end(kMonteCarloAxes)},
      {"mean", "std", "ci_lower", "ci_upper", "min", "max", "median", "q05", "q95", "slope",
       "normalized_slope", "samples", "min_run", "max_run", "run_seeds", "drawn.*"},
      monte_carlo,
      [](std::string_view axis, const Value& v) -> std::optional<framework::AxisProblem> {
        if (axis == "of") return check_study_measure(v);
        try {
          if (axis == "perturb") {
            (void)parse_perturb(v);
          } else if (axis == "runs") {
            (void)parse_runs(v);
          } else if (axis == "level") {
            (void)parse_level(v);
          }
        } catch (const std::exception& e) {
          return e.what();
        }
        return std::nullopt;
      });
  c.check_requirement = [](const framework::Requirement& r) {
    framework::Diagnostics problems = check_study_outputs(r);
    if (problems.empty()) problems = check_drawn_measure(r);
    return problems;
  };
  return c;
}

}  // namespace simverify::components
