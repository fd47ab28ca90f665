#include "study_measure.hpp"

#include "model_measure.hpp"
#include "registration.hpp"

#include <simverify/core/text.hpp>
#include <simverify/framework/quality.hpp>

#include <algorithm>
#include <stdexcept>

namespace simverify::components {
namespace {

constexpr std::string_view kStudyMeasureForms =
    "a measure of simulate that is one number per run: a number (error_end, event_count), a "
    "vector or series reduced (final(event_times), rms(y.<output>)) or an element of a vector "
    "(event_times[0], x_end[1])";

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// The measures of simulate a study can read, for messages: "y.<output>" for the prefix.
const std::vector<std::string>& simulate_measures() {
  static const std::vector<std::string> kMeasures = [] {
    std::vector<std::string> out;
    for (const auto& m : simulate_component().info.measures) {
      out.push_back(m.ends_with('*') ? m.substr(0, m.size() - 1) + "<output>" : m);
    }
    return out;
  }();
  return kMeasures;
}

bool is_vector_measure(std::string_view name) {
  return name == "x_end" || name == "event_times";
}

bool is_series_measure(std::string_view name) {
  return name == "trajectory" || name.starts_with("y.");
}

// "name[<digits>]" -> {name, index}; the name alone when there are no brackets.
std::pair<std::string, std::optional<std::size_t>> split_index(std::string_view of,
                                                               std::string_view written) {
  const auto open = of.find('[');
  if (open == std::string_view::npos) return {std::string(of), std::nullopt};
  const std::string_view digits = of.substr(open + 1, of.size() - open - 2);
  if (of.back() != ']' || digits.empty() || digits.size() > 9 ||
      digits.find_first_not_of("0123456789") != std::string_view::npos) {
    throw std::invalid_argument("'" + std::string(written) +
                                "': an element of a vector is written <name>[<i>] with a whole "
                                "index i >= 0, e.g. event_times[0]");
  }
  return {std::string(trimmed(of.substr(0, open))), std::stoul(std::string(digits))};
}

}  // namespace

StudyMeasure parse_study_measure(std::string_view of) {
  StudyMeasure out;
  out.written = std::string(trimmed(of));
  std::string_view inner = out.written;
  if (const auto open = inner.find('('); open != std::string_view::npos && inner.ends_with(')')) {
    out.reduction = std::string(trimmed(inner.substr(0, open)));
    inner = trimmed(inner.substr(open + 1, inner.size() - open - 2));
    const auto& reductions = framework::measure_reductions();
    if (std::find(reductions.begin(), reductions.end(), out.reduction) == reductions.end()) {
      throw std::invalid_argument("unknown reduction '" + out.reduction + "' in '" + out.written +
                                  "'" + core::did_you_mean(out.reduction, reductions) +
                                  "; known: " + core::join(reductions));
    }
    if (auto problem = framework::reduction_arguments_problem(out.written)) {
      throw std::invalid_argument("'" + out.written + "': " + *problem);
    }
    inner = trimmed(inner.substr(0, inner.find(',')));  // settling_time(y.x, 0.05): y.x
  }
  std::tie(out.name, out.index) = split_index(inner, out.written);
  if (out.name.empty()) {
    throw std::invalid_argument("expected " + std::string(kStudyMeasureForms) + ", found '" +
                                out.written + "'");
  }
  static const framework::Component simulate = simulate_component();
  if (!simulate.produces_measure(out.name)) {
    throw std::invalid_argument("simulate does not measure '" + out.name + "'" +
                                core::did_you_mean(out.name, simulate_measures()) +
                                "; its measures: " + core::join(simulate_measures()));
  }
  if (out.index && !out.reduction.empty()) {
    throw std::invalid_argument("'" + out.written + "': write an element (" + out.name +
                                "[<i>]) or a reduction (" + out.reduction + "(" + out.name +
                                ")), not both");
  }
  const bool vector = is_vector_measure(out.name);
  const bool series = is_series_measure(out.name);
  if (out.index && !vector) {
    const std::string what =
        series ? "a time series: reduce it, e.g. final(" + out.name + ")" : "a number";
    throw std::invalid_argument("'" + out.written +
                                "': [<i>] picks an element of a vector, x_end or event_times; '" +
                                out.name + "' is " + what);
  }
  if (!out.index && out.reduction.empty() && (vector || series)) {
    const std::string pick = vector ? "pick an element (" + out.name + "[0]) or " : "";
    throw std::invalid_argument("'" + out.name + "' is a " + (vector ? "vector" : "time series") +
                                ", not one number per run: " + pick + "reduce it (final(" +
                                out.name + "), max_abs(..) or rms(..))");
  }
  return out;
}

std::optional<framework::AxisProblem> check_study_measure(const framework::Value& of) {
  if (!of.is_string()) {
    return "expected " + std::string(kStudyMeasureForms) + ", found " + of.type_name();
  }
  try {
    (void)parse_study_measure(of.as_string());
  } catch (const std::invalid_argument& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

framework::MeasureNeeds study_measure_needs(const StudyMeasure& of) {
  return framework::MeasureNeeds::only({of.name});
}

double study_measure_value(const framework::Measurement& m, const StudyMeasure& of) {
  if (!of.index) return framework::evaluate_measure(m, of.written);
  const framework::Measure* found = m.find(of.name);
  const auto* values = found != nullptr ? std::get_if<std::vector<double>>(found) : nullptr;
  if (values == nullptr) {
    throw std::invalid_argument("the run did not measure the vector '" + of.name + "'");
  }
  if (*of.index >= values->size()) {
    const std::size_t n = values->size();
    throw std::invalid_argument(of.written + " is out of range: the run gave " + std::to_string(n) +
                                (of.name == "event_times" ? (n == 1 ? " event" : " events")
                                                          : (n == 1 ? " state" : " states")));
  }
  return (*values)[*of.index];
}

framework::Diagnostics check_study_outputs(const framework::Requirement& r) {
  framework::Diagnostics problems;
  const framework::Axis* of = r.conditions.find_axis("of");
  if (of == nullptr) {
    problems.push_back({r.location, "missing condition 'of': " + std::string(kStudyMeasureForms)});
    return problems;
  }
  for (const auto& value : of->values) {
    StudyMeasure measure;
    try {
      measure = parse_study_measure(value.is_string() ? value.as_string() : "");
    } catch (const std::invalid_argument&) {
      continue;  // the axis check reports it at the value
    }
    auto problem = check_measure_of_models(r.conditions, measure.name);
    if (!problem && measure.name == "x_end" && measure.index) {
      problem = check_state_element(r.conditions, measure.written, *measure.index);
    }
    if (problem) {
      problems.push_back(
          {value.location.line > 0 ? value.location : of->location, "condition 'of': " + *problem});
      return problems;
    }
  }
  return problems;
}

}  // namespace simverify::components
