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
#include <map>
#include <stdexcept>
#include <unordered_set>
#include <variant>

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
    const std::string_view entry(*e);
    if (entry.starts_with("SIMVERIFY_")) continue;
    if (context.temp_folder != nullptr && entry.starts_with("TMPDIR=")) continue;
    env.emplace_back(entry);
  }
  // The program's TMPDIR is the executor's folder (the workers' TMPDIR already, and with
  // --isolation none the folder the run's sweep removes): what it leaves there goes with it.
  if (context.temp_folder != nullptr) env.push_back("TMPDIR=" + context.temp_folder->string());
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

// Deeper than any measure needs ({"measures": {"y": {"t": [...]}}} is 4): the nesting is
// followed on a stack, and a document nested a million levels deep would only grow it.
constexpr int kMaxOutputDepth = 64;

// The program's output read as it is parsed (nlohmann's SAX interface), numbers straight into
// the measures' vectors. A document tree held each number as a 16-byte node besides the
// vector it became, with its array's growth: 80 MB of output (40 million numbers) took 2 GB.
// Refused as the parser finds them (std::runtime_error, with the tail of standard error): text
// that is not JSON, output nested deeper than kMaxOutputDepth, a key repeated in an object (a
// parser would keep the last value silently). Then, as a document tree was checked: output
// that is not {"measures": {...}}, and, measure by measure in the order of their names, one
// that is not a number (null: NaN), a list of numbers, or a time series {"t": [...],
// "values": [...]} whose t runs forwards.
class OutputReader {
 public:
  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  OutputReader(const std::string& out, const std::string& err) : out_(out), err_(err) {}

  bool null() { return number(std::numeric_limits<double>::quiet_NaN()); }
  bool boolean(bool b) { return other_value(b ? "true" : "false"); }
  bool number_integer(number_integer_t x) { return number(static_cast<double>(x)); }
  bool number_unsigned(number_unsigned_t x) { return number(static_cast<double>(x)); }
  bool number_float(number_float_t x, const string_t& /*text*/) { return number(x); }
  bool string(string_t& text) { return other_value(Json(text).dump()); }
  bool binary(binary_t& /*bytes*/) { return other_value("binary"); }

  bool start_object(std::size_t /*elements*/) { return start(true); }
  bool start_array(std::size_t /*elements*/) { return start(false); }
  bool key(string_t& name) {
    Frame& f = frames_.back();
    if (!f.keys.insert(name).second) {
      fail("the program's output repeats the key '" + core::excerpt(name) + "' in one object");
    }
    switch (f.role) {
      case Role::top: next_ = name == "measures" ? Next::measures : Next::skip; break;
      case Role::measures:
        measure_ = name;
        failed_ = false;
        next_ = Next::measure;
        break;
      case Role::series:
        if (name != "t" && name != "values") refuse(series_shape());
        series_part_ = name == "t" ? &series_.time : &series_column_;
        next_ = failed_ ? Next::skip : Next::series_part;
        break;
      default: next_ = Next::skip; break;
    }
    return true;
  }
  bool end_object() {
    const Role role = frames_.back().role;
    const std::size_t keys = frames_.back().keys.size();
    frames_.pop_back();
    if (role == Role::top && !saw_measures_) shape_error_ = true;
    if (role == Role::series) {
      if (keys != 2) refuse(series_shape());
      if (!failed_) finish_series();
    }
    after_value();
    return true;
  }
  bool end_array() {
    const Role role = frames_.back().role;
    frames_.pop_back();
    if (role == Role::vector && !failed_) {
      measures_.insert_or_assign(measure_, std::move(vector_));
      vector_ = {};
    }
    after_value();
    return true;
  }
  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& e) {
    if (dynamic_cast<const Json::out_of_range*>(&e) != nullptr) {
      // The parser's only out_of_range: a number beyond a double's range (1e999).
      fail("the program's standard output holds a number beyond the range of a double (" +
           std::string(e.what()) + "); write null for a NaN");
    }
    const std::string start = core::terminal_text(out_.substr(0, 120));
    fail("the program's standard output is not one JSON object (" + std::string(e.what()) +
         "); it began: '" + start + "'");
  }

  // The measures, in the order of their names; throws the first error found after the parse.
  Measurement take() {
    if (shape_error_) {
      fail("the program's output must be {\"measures\": {...}}; it wrote " +
           core::terminal_text(out_.substr(0, 200)));
    }
    Measurement m;
    for (auto& [name, measure] : measures_) {
      if (auto* why = std::get_if<std::string>(&measure)) fail(*why);
      m.set(name, std::move(std::get<framework::Measure>(measure)));
    }
    return m;
  }
  [[nodiscard]] std::vector<std::string> reported() const {
    std::vector<std::string> names;
    for (const auto& entry : measures_) names.push_back(entry.first);
    return names;
  }

 private:
  enum class Role { top, measures, series, vector, series_part, other };
  // What the next value is: the document, the value of "measures", a measure, one of a time
  // series' lists, an element of a list of numbers, or something to pass over.
  enum class Next { root, measures, measure, series_part, element, skip };
  struct Frame {
    Role role;
    std::unordered_set<std::string> keys;  // those of an object read so far
  };

  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error(why + stderr_tail(err_));
  }
  // The measure being read is an error (the first one found in it); the rest of its value is
  // passed over.
  void refuse(std::string why) {
    if (failed_) return;
    failed_ = true;
    measures_.insert_or_assign(measure_, std::move(why));
  }
  [[nodiscard]] std::string what() const { return "measure '" + measure_ + "'"; }
  [[nodiscard]] std::string part() const {
    return series_part_ == &series_.time ? " t" : " values";
  }
  [[nodiscard]] std::string series_shape() const {
    return what() + ": a time series is {\"t\": [...], \"values\": [...]}";
  }
  void not_a_number(const std::string& found) {
    refuse(what() + (frames_.back().role == Role::series_part ? part() : "") +
           ": expected a number, found " + core::excerpt(found));
  }

  bool start(bool object) {
    if (frames_.size() >= static_cast<std::size_t>(kMaxOutputDepth)) {
      fail("the program's output nests deeper than " + std::to_string(kMaxOutputDepth) + " levels");
    }
    Role role = Role::other;
    switch (next_) {
      case Next::root:
        role = object ? Role::top : Role::other;
        if (!object) shape_error_ = true;
        break;
      case Next::measures:
        role = object ? Role::measures : Role::other;
        if (object) {
          saw_measures_ = true;
        } else {
          shape_error_ = true;
        }
        break;
      case Next::measure:
        role = object ? Role::series : Role::vector;
        vector_.clear();
        series_ = {};
        series_column_.clear();
        break;
      case Next::series_part:
        if (object) {
          refuse(what() + part() + ": expected a list of numbers");
        } else {
          role = Role::series_part;
        }
        break;
      case Next::element: not_a_number(object ? "{...}" : "[...]"); break;
      case Next::skip: break;
    }
    frames_.push_back({role, {}});
    after_start();
    return true;
  }
  void after_start() {
    const Role role = frames_.back().role;
    next_ = (role == Role::vector || role == Role::series_part) && !failed_ ? Next::element
                                                                            : Next::skip;
  }
  // After a value: what the next one is, by the innermost open object or list.
  void after_value() {
    if (frames_.empty()) {
      next_ = Next::skip;  // nothing may follow: the parser refuses it
      return;
    }
    after_start();
  }

  bool number(double x) {
    switch (next_) {
      case Next::element:
        if (frames_.back().role == Role::vector) {
          vector_.push_back(x);
        } else {
          series_part_->push_back(x);
        }
        return true;  // the list goes on
      case Next::measure: measures_.insert_or_assign(measure_, x); break;
      case Next::series_part: refuse(what() + part() + ": expected a list of numbers"); break;
      case Next::root:
      case Next::measures: shape_error_ = true; break;
      case Next::skip: break;
    }
    after_value();
    return true;
  }
  bool other_value(const std::string& text) {
    switch (next_) {
      case Next::element: not_a_number(text); break;
      case Next::measure:
        refuse(what() + ": expected a number, found " + core::excerpt(text));
        break;
      case Next::series_part: refuse(what() + part() + ": expected a list of numbers"); break;
      case Next::root:
      case Next::measures: shape_error_ = true; break;
      case Next::skip: break;
    }
    after_value();
    return true;
  }

  // Time runs forwards; a time may repeat (before and after a jump, as the simulator records
  // an event), which interpolation and the plots take as a step.
  void finish_series() {
    framework::TimeSeries ts;
    ts.time = std::move(series_.time);
    for (std::size_t i = 0; i < ts.time.size(); ++i) {
      if (std::isnan(ts.time[i])) return refuse(what() + ": t[" + std::to_string(i) + "] is null");
      if (i > 0 && ts.time[i] < ts.time[i - 1]) {
        return refuse(what() + ": t decreases at index " + std::to_string(i) + " (" +
                      shortest(ts.time[i]) + " after " + shortest(ts.time[i - 1]) + ")");
      }
    }
    if (series_column_.size() != ts.time.size()) {
      return refuse(what() + ": t has " + std::to_string(ts.time.size()) + " entries, values " +
                    std::to_string(series_column_.size()));
    }
    ts.names = {measure_};
    ts.columns = {std::move(series_column_)};
    series_ = {};
    series_column_ = {};
    measures_.insert_or_assign(measure_, std::move(ts));
  }

  const std::string& out_;
  const std::string& err_;
  std::vector<Frame> frames_;
  Next next_ = Next::root;
  bool saw_measures_ = false;
  bool shape_error_ = false;                    // not {"measures": {...}}
  std::string measure_;                         // the measure being read
  bool failed_ = false;                         // it is an error
  std::vector<double> vector_;                  // its numbers, when it is a list
  framework::TimeSeries series_;                // its t, when it is a time series
  std::vector<double> series_column_;           // its values
  std::vector<double>* series_part_ = nullptr;  // which of the two is being read
  // The measures read, each a value or the reason it is none, by name.
  std::map<std::string, std::variant<framework::Measure, std::string>> measures_;
};

Measurement measurement_of(const ProgramOutcome& run, const std::vector<std::string>& declared) {
  if (run.out.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw std::runtime_error(std::string("the program wrote nothing to standard output") +
                             (run.out.empty() ? "" : " but white space") +
                             "; it must write {\"measures\": {...}}" + stderr_tail(run.err));
  }
  OutputReader reader(run.out, run.err);
  (void)Json::sax_parse(run.out, &reader);
  Measurement m = reader.take();
  for (const auto& name : declared) {
    if (m.find(name) == nullptr) {
      const auto reported = reader.reported();
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
  // The point's working folder, in the executor's folder (PointContext::temp_folder).
  const core::TemporaryFolder folder(
      "simverify-point-", context.temp_folder != nullptr ? *context.temp_folder : fs::path());
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
