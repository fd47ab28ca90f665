// The `command` component (EXTERNAL-SYSTEMS.md, "Any program: the command component"): a
// program in any language is the system under test. Per grid point it is started once (argv
// as written, no shell) in a fresh temporary working folder, reads the point as one JSON
// object on standard input, and writes one JSON object with its measures to standard output:
//   in:  {"requirement": id, "point": index, "seed": s, "conditions": {...}}
//   out: {"measures": {"overshoot": 0.31, "y.temperature": {"t": [...], "values": [...]}}}
// A measure is a number (null: NaN), a list of numbers, or a time series as t + values.
#include "input_conditions.hpp"
#include "program_run.hpp"
#include "registration.hpp"

#include <simverify/core/temp_folder.hpp>
#include <simverify/core/text.hpp>
#include <simverify/framework/diagnostics.hpp>
#include <simverify/framework/point_note.hpp>
#include <simverify/framework/quality.hpp>
#include <simverify/framework/requirement.hpp>

#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <unordered_set>

extern char** environ;  // POSIX: the process's environment

namespace simverify::components {
namespace {

namespace fs = std::filesystem;
using framework::Diagnostics;
using framework::Measurement;
using framework::Requirement;
using framework::Value;
using Json = nlohmann::json;

// Arguments with these endings name a script; one that does not exist is a validate error.
constexpr std::string_view kScriptEndings[] = {".py", ".sh", ".bash", ".R",   ".jl", ".m",
                                               ".rb", ".pl", ".js",   ".lua", ".tcl"};
constexpr std::size_t kStderrTailBytes = 2000;

// The program's own deadline comes this much before the runner's --timeout (at most 0.2 s,
// a tenth of it), so the component ends the program, with its whole process group and its
// working folder, and reports it, rather than the runner killing the worker around it.
double own_deadline(double timeout_seconds) {
  return timeout_seconds - std::min(0.2, 0.1 * timeout_seconds);
}

bool executable(const fs::path& file) {
  std::error_code ec;
  return fs::is_regular_file(file, ec) && ::access(file.c_str(), X_OK) == 0;
}

// argv[0]: a path (with a '/') relative to the requirement file, or a name looked up on PATH
// as a shell would. Throws std::invalid_argument saying where it looked.
fs::path program_of(const Value& first) {
  if (!first.is_string() || first.as_string().empty()) {
    throw std::invalid_argument("the program (the first entry of `command:`) must be a name");
  }
  const std::string& name = first.as_string();
  if (name.find('/') != std::string::npos) {
    const fs::path path = path_relative_to_file(first);
    std::error_code ec;
    if (!fs::exists(path, ec)) throw std::invalid_argument("no program '" + path.string() + "'");
    if (!executable(path)) {
      throw std::invalid_argument("program '" + path.string() +
                                  "' is not an executable file (chmod +x, or name its "
                                  "interpreter first: [python3, " +
                                  name + "])");
    }
    return fs::absolute(path);
  }
  const char* search = std::getenv("PATH");
  std::string_view dirs = search != nullptr ? search : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    const auto colon = dirs.find(':');
    fs::path candidate =
        fs::path(dirs.substr(0, colon).empty() ? "." : dirs.substr(0, colon)) / name;
    if (executable(candidate)) return candidate;
    if (colon == std::string_view::npos) break;
    dirs.remove_prefix(colon + 1);
  }
  throw std::invalid_argument("program '" + name + "' is not on PATH");
}

// An argument naming a file or folder next to the requirement file becomes its absolute path
// (the program runs in a temporary folder); any other argument is passed as written.
std::string argument_of(const Value& v) {
  const std::string& text = v.as_string();
  if (text.empty() || text.front() == '-' || fs::path(text).is_absolute()) return text;
  std::error_code ec;
  const fs::path near = path_relative_to_file(v);
  return fs::exists(near, ec) ? fs::absolute(near).string() : text;
}

const Value& field(const Requirement& r, std::string_view key) {
  const Value* v = r.field(key);
  if (v == nullptr) throw std::invalid_argument("missing `" + std::string(key) + ":`");
  return *v;
}

std::vector<std::string> declared_measures(const Requirement& r) {
  std::vector<std::string> out;
  for (const auto& m : field(r, "measures").as_list()) out.push_back(m.as_string());
  return out;
}

std::vector<std::string> environment_for(const framework::PointContext& context) {
  std::vector<std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    if (!std::string_view(*e).starts_with("SIMVERIFY_")) env.emplace_back(*e);
  }
  env.push_back("SIMVERIFY_REQUIREMENT=" + context.requirement->id);
  env.push_back("SIMVERIFY_POINT=" + std::to_string(context.index));
  env.push_back("SIMVERIFY_SEED=" + std::to_string(context.seed));
  env.push_back("SIMVERIFY_REQUIREMENT_FILE=" +
                fs::absolute(context.requirement->location.file).string());
  return env;
}

std::string point_json(const framework::Condition& c, const framework::PointContext& context) {
  Json conditions = Json::object();
  for (const auto& [axis, value] : c.entries()) {
    conditions[std::string(axis)] = Json::parse(value->json());
  }
  Json point = {{"requirement", context.requirement->id},
                {"point", context.index},
                {"seed", context.seed},
                {"conditions", std::move(conditions)}};
  return point.dump() + "\n";
}

// The end of the program's standard error for a point's reason, escaped by the one rule
// (core::terminal_text): the reason travels as an exception's C string, which a NUL the
// program wrote would cut, and it is shown on consoles, which its control bytes would drive.
std::string stderr_tail(const std::string& err) {
  std::string tail =
      err.size() > kStderrTailBytes ? "..." + err.substr(err.size() - kStderrTailBytes) : err;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
  return tail.empty() ? "" : "; its standard error ended with: " + core::terminal_text(tail);
}

// A number as the program would write it: the shortest text that reads back the same.
std::string shortest(double x) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, x).ptr;
  return {text, end};
}

double number_of(const Json& v, const std::string& what) {
  if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (!v.is_number())
    throw std::invalid_argument(what + ": expected a number, found " + core::excerpt(v.dump()));
  return v.get<double>();
}

std::vector<double> numbers_of(const Json& v, const std::string& what) {
  if (!v.is_array()) throw std::invalid_argument(what + ": expected a list of numbers");
  std::vector<double> out;
  out.reserve(v.size());
  for (const auto& x : v) out.push_back(number_of(x, what));
  return out;
}

framework::Measure measure_of(const std::string& name, const Json& v) {
  const std::string what = "measure '" + name + "'";
  if (v.is_array()) return numbers_of(v, what);
  if (v.is_object()) {
    if (!v.contains("t") || !v.contains("values") || v.size() != 2) {
      throw std::invalid_argument(what + ": a time series is {\"t\": [...], \"values\": [...]}");
    }
    framework::TimeSeries ts;
    ts.time = numbers_of(v["t"], what + " t");
    // Time runs forwards; a time may repeat (before and after a jump, as the simulator records
    // an event), which interpolation and the plots take as a step.
    for (std::size_t i = 0; i < ts.time.size(); ++i) {
      if (std::isnan(ts.time[i])) {
        throw std::invalid_argument(what + ": t[" + std::to_string(i) + "] is null");
      }
      if (i > 0 && ts.time[i] < ts.time[i - 1]) {
        throw std::invalid_argument(what + ": t decreases at index " + std::to_string(i) + " (" +
                                    shortest(ts.time[i]) + " after " + shortest(ts.time[i - 1]) +
                                    ")");
      }
    }
    ts.names = {name};
    ts.columns = {numbers_of(v["values"], what + " values")};
    if (ts.columns[0].size() != ts.time.size()) {
      throw std::invalid_argument(what + ": t has " + std::to_string(ts.time.size()) +
                                  " entries, values " + std::to_string(ts.columns[0].size()));
    }
    return ts;
  }
  return number_of(v, what);
}

// Deeper than any measure needs ({"measures": {"y": {"t": [...]}}} is 4): reading, copying and
// printing a document recurse per level, so output nested a million levels deep would
// overflow the stack.
constexpr int kMaxOutputDepth = 64;

// The program's output as JSON, refused (std::runtime_error) when it nests deeper than
// kMaxOutputDepth or repeats a key in an object (which would otherwise keep the last value
// silently).
Json parse_output(const std::string& out, const std::string& err) {
  std::vector<std::unordered_set<std::string>> keys;  // those of each object being read
  const auto check = [&](int depth, Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
      case Json::parse_event_t::array_start:
        if (depth >= kMaxOutputDepth) {
          throw std::runtime_error("the program's output nests deeper than " +
                                   std::to_string(kMaxOutputDepth) + " levels" + stderr_tail(err));
        }
        if (event == Json::parse_event_t::object_start) keys.emplace_back();
        break;
      case Json::parse_event_t::key: {
        const std::string& key = parsed.get_ref<const std::string&>();
        if (!keys.back().insert(key).second) {
          throw std::runtime_error("the program's output repeats the key '" + core::excerpt(key) +
                                   "' in one object" + stderr_tail(err));
        }
        break;
      }
      case Json::parse_event_t::object_end: keys.pop_back(); break;
      default: break;
    }
    return true;
  };
  return Json::parse(out, check);
}

Measurement measurement_of(const ProgramOutcome& run, const std::vector<std::string>& declared) {
  if (run.out.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw std::runtime_error(std::string("the program wrote nothing to standard output") +
                             (run.out.empty() ? "" : " but white space") +
                             "; it must write {\"measures\": {...}}" + stderr_tail(run.err));
  }
  Json output;
  try {
    output = parse_output(run.out, run.err);
  } catch (const Json::parse_error& e) {
    const std::string start = core::terminal_text(run.out.substr(0, 120));
    throw std::runtime_error("the program's standard output is not one JSON object (" +
                             std::string(e.what()) + "); it began: '" + start + "'" +
                             stderr_tail(run.err));
  } catch (const Json::out_of_range& e) {
    // nlohmann's only out_of_range while parsing: a number beyond a double's range (1e999).
    throw std::runtime_error(
        "the program's standard output holds a number beyond the range of "
        "a double (" +
        std::string(e.what()) + "); write null for a NaN" + stderr_tail(run.err));
  }
  if (!output.is_object() || !output.contains("measures") || !output["measures"].is_object()) {
    throw std::runtime_error("the program's output must be {\"measures\": {...}}; it wrote " +
                             output.dump().substr(0, 200) + stderr_tail(run.err));
  }
  Measurement m;
  std::vector<std::string> reported;
  for (const auto& [name, value] : output["measures"].items()) {
    try {
      m.set(name, measure_of(name, value));
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(std::string(e.what()) + stderr_tail(run.err));
    }
    reported.push_back(name);
  }
  for (const auto& name : declared) {
    if (m.find(name) == nullptr) {
      throw std::runtime_error(
          "the program did not report '" + name + "' (declared in `measures:`); it reported: " +
          (reported.empty() ? "nothing" : core::join(reported)) + stderr_tail(run.err));
    }
  }
  return m;
}

Measurement run_command(const framework::Condition& c, const framework::PointContext& context) {
  const Requirement& r = *context.requirement;
  const auto& argv = field(r, "command").as_list();
  ProgramSpec spec;
  spec.program = program_of(argv.front());
  spec.arguments.push_back(argv.front().as_string());
  for (std::size_t i = 1; i < argv.size(); ++i) spec.arguments.push_back(argument_of(argv[i]));
  spec.environment = environment_for(context);
  spec.input = point_json(c, context);
  spec.timeout_seconds =
      context.timeout_seconds > 0.0 ? own_deadline(context.timeout_seconds) : 0.0;
  spec.on_process_group = framework::note_point_process_group;
  spec.stop = context.stop;
  const core::TemporaryFolder folder("simverify-point-");  // the point's working folder
  spec.directory = folder.path();
  const ProgramOutcome run = run_program(spec);
  if (!run.started) {
    throw std::runtime_error("cannot start '" + spec.program.string() + "': " + run.error);
  }
  if (run.interrupted) throw std::runtime_error("the run was interrupted: the program was killed");
  if (run.output_cut) {
    throw std::runtime_error(
        "the program wrote more than 256 MiB to standard output or error and was killed");
  }
  if (run.timed_out) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", context.timeout_seconds);
    throw std::runtime_error(std::string("the program timed out after ") + seconds +
                             " s and was killed" + stderr_tail(run.err));
  }
  if (run.signal != 0) {
    const char* abbrev = ::sigabbrev_np(run.signal);
    throw std::runtime_error("the program was killed by signal SIG" +
                             std::string(abbrev != nullptr ? abbrev : "?") + " (" +
                             ::strsignal(run.signal) + ")" + stderr_tail(run.err));
  }
  if (run.exit_status != 0) {
    throw std::runtime_error("the program exited with status " + std::to_string(run.exit_status) +
                             stderr_tail(run.err));
  }
  return measurement_of(run, declared_measures(r));
}

// `simverify validate`: the program exists and is executable, scripts it names exist, and
// the quality reads one of the declared measures.
Diagnostics check_command(const Requirement& r) {
  Diagnostics problems;
  const auto problem = [&](const framework::SourceLocation& at, std::string message) {
    problems.push_back({at.line > 0 ? at : r.location, std::move(message)});
    return problems;
  };
  const Value* command = r.field("command");
  if (command == nullptr) {
    return problem(
        r.location,
        "missing `command:`, the program to run as a list, e.g. [python3, sim/model.py]");
  }
  if (!command->is_list() || command->as_list().empty()) {
    return problem(command->location,
                   "`command:` must be a non-empty list: the program and its arguments");
  }
  for (const auto& arg : command->as_list()) {
    if (!arg.is_string()) {
      return problem(arg.location, std::string("`command:` entries must be strings, found ") +
                                       arg.type_name() + " " + arg.str());
    }
  }
  try {
    (void)program_of(command->as_list().front());
  } catch (const std::invalid_argument& e) {
    return problem(command->as_list().front().location, e.what());
  }
  for (std::size_t i = 1; i < command->as_list().size(); ++i) {
    const Value& arg = command->as_list()[i];
    const std::string& text = arg.as_string();
    const bool script = std::any_of(std::begin(kScriptEndings), std::end(kScriptEndings),
                                    [&](std::string_view end) { return text.ends_with(end); });
    std::error_code ec;
    if (script && text.front() != '-' && !fs::exists(path_relative_to_file(arg), ec)) {
      return problem(arg.location, "no script '" + text + "' next to the requirement file (" +
                                       path_relative_to_file(arg).string() + ")");
    }
  }
  const Value* measures = r.field("measures");
  if (measures == nullptr) {
    return problem(r.location,
                   "missing `measures:`, the names the program reports, e.g. [overshoot]");
  }
  if (!measures->is_list() || measures->as_list().empty()) {
    return problem(measures->location, "`measures:` must be a non-empty list of names");
  }
  std::vector<std::string> names;
  for (const auto& m : measures->as_list()) {
    if (!m.is_string() || m.as_string().empty()) {
      return problem(m.location, "`measures:` entries must be names, found " + m.str());
    }
    if (std::find(names.begin(), names.end(), m.as_string()) != names.end()) {
      return problem(m.location, "measure '" + m.as_string() + "' is declared twice");
    }
    names.push_back(m.as_string());
  }
  const std::string read(framework::measured_name(r.quality));
  if (std::find(names.begin(), names.end(), read) == names.end()) {
    return problem(r.quality.measure_location,
                   "the quality reads '" + read + "', which is not among `measures:`" +
                       framework::did_you_mean(read, names) + "; measures: " + core::join(names));
  }
  return problems;
}

}  // namespace

framework::Component command_component() {
  framework::Component c;
  c.info.name = "command";
  c.info.description =
      "runs a program per grid point: the point as JSON on standard input, its measures as "
      "JSON on standard output (docs/own-simulation.md)";
  c.info.axes = {"*"};      // every condition goes to the program
  c.info.measures = {"*"};  // declared per requirement in `measures:`
  c.info.requirement_keys = {"command", "measures"};
  c.evaluate = [](const framework::Condition&) -> Measurement {
    throw std::logic_error("the command component needs its requirement (evaluate_in_context)");
  };
  c.evaluate_in_context = run_command;
  c.check_requirement = check_command;
  return c;
}

}  // namespace simverify::components
