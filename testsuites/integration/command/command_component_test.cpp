// The `command` component (EXTERNAL-SYSTEMS.md, "Any program") with small programs of several
// kinds (programs/): a Python model checked against its closed form, a shell script, and
// programs that crash, hang, print garbage, omit a measure or fail. Each failure is an error
// of its point saying what happened; the run goes on.
#include <simverify/components/components.hpp>
#include <simverify/framework/loader.hpp>
#include <simverify/framework/runner.hpp>

#include <gtest/gtest.h>

#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <thread>

#include <unistd.h>

namespace fw = simverify::framework;
namespace fs = std::filesystem;

namespace {

// A requirement file "in" this folder, so programs/... resolve next to it.
const std::string kFile =
    (fs::path(SIMVERIFY_SOURCE_DIR) / "testsuites/integration/command/requirements.yaml").string();

fw::ComponentRegistry registry() {
  fw::ComponentRegistry r;
  simverify::components::register_builtin_components(r);
  return r;
}

fw::LoadResult load(const std::string& text) {
  fw::LoadResult out;
  parse_requirements(text, kFile, registry(), out);
  return out;
}

std::string requirement(const std::string& command, const std::string& measures,
                        const std::string& conditions, const std::string& quality) {
  return "requirements:\n  - id: CMD-1\n    level: integration\n    component: command\n"
         "    command: " +
         command + "\n    measures: " + measures + "\n    conditions: " + conditions +
         "\n    quality: " + quality + "\n";
}

struct Points final : fw::RunListener {
  std::map<std::size_t, fw::PointResult> points;
  void point_finished(const fw::Requirement&, const fw::PointResult& p) override {
    points[p.index] = p;
  }
};

Points run(const std::string& text, fw::Isolation isolation = fw::Isolation::process,
           double timeout = 60.0) {
  const auto loaded = load(text);
  if (!loaded.ok()) throw std::runtime_error(loaded.errors.front().str());
  const auto reg = registry();
  fw::RunOptions options;
  options.isolation = isolation;
  options.jobs = 2;
  options.timeout_seconds = timeout;
  fw::Runner runner(reg, options);
  Points points;
  (void)runner.run(loaded.requirements, points);
  return points;
}

double number(const fw::PointResult& p, const std::string& name) {
  const auto* m = p.measures.find(name);
  if (m == nullptr) throw std::runtime_error("no measure " + name + ": " + p.error.value_or(""));
  return std::get<double>(*m);
}

std::string error_of(const std::string& command, const std::string& measures = "[value]") {
  const auto points =
      run(requirement(command, measures, "{x: 1}",
                      "{measure: " + measures.substr(1, measures.find_first_of(",]") - 1) +
                          ", threshold: \">= 0\"}"),
          fw::Isolation::process, 10.0);
  return points.points.at(0).error.value_or("no error");
}

std::string validate_error(const std::string& text) {
  const auto loaded = load(text);
  return loaded.errors.empty() ? "valid" : loaded.errors.front().str();
}

// TMPDIR set to a private folder for the test's lifetime (the points' working folders go
// there, and every program inherits it), restored after.
class PrivateTmpdir {
 public:
  explicit PrivateTmpdir(const std::string& name)
      : path_(fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()))) {
    fs::create_directories(path_);
    if (const char* previous = std::getenv("TMPDIR")) saved_ = previous;
    ::setenv("TMPDIR", path_.c_str(), 1);
  }
  ~PrivateTmpdir() {
    if (saved_) {
      ::setenv("TMPDIR", saved_->c_str(), 1);
    } else {
      ::unsetenv("TMPDIR");
    }
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  PrivateTmpdir(const PrivateTmpdir&) = delete;
  PrivateTmpdir& operator=(const PrivateTmpdir&) = delete;
  [[nodiscard]] const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  std::optional<std::string> saved_;
};

// A `sleep 1000` started under `tmpdir` (so ours, not one of the same test running at the
// same time in another build tree) that is still running. SIGKILL to a group is asynchronous:
// on a busy machine a killed `sleep` may be listed for a moment, so this waits up to 30 s for
// one to go; a survivor of 30 s was never killed.
std::optional<fs::path> sleep_left(const fs::path& tmpdir) {
  const std::string ours = "TMPDIR=" + tmpdir.string();
  const auto find = [&]() -> std::optional<fs::path> {
    for (const auto& entry : fs::directory_iterator("/proc")) {
      std::ifstream cmdline(entry.path() / "cmdline");
      std::string args;
      std::getline(cmdline, args, '\0');
      std::string second;
      std::getline(cmdline, second, '\0');
      if (!args.ends_with("sleep") || second != "1000") continue;
      std::ifstream environment(entry.path() / "environ");
      for (std::string variable; std::getline(environment, variable, '\0');) {
        if (variable == ours) return entry.path();
      }
    }
    return std::nullopt;
  };
  std::optional<fs::path> left = find();
  for (int tries = 0; left && tries < 300; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    left = find();
  }
  return left;
}

}  // namespace

// The Python model against its closed form: T_inf = (T_out + k setpoint) / (1 + k), time
// constant tau / (1 + k), 2% settling time tau / (1 + k) ln 50 (reported on a 1 s grid).
TEST(CommandComponent, RunsAPythonModelPerPoint) {
  const auto points =
      run(requirement("[/usr/bin/python3, programs/thermostat.py]",
                      "[overshoot, steady_state_error, settling_time, y.temperature]",
                      "{setpoint: [20, 22], gain: [0.5, 1.0, 2.0]}",
                      "{measure: steady_state_error, threshold: \"<= 10\"}"));
  ASSERT_EQ(points.points.size(), 6u);
  std::size_t i = 0;
  for (const double setpoint : {20.0, 22.0}) {
    for (const double k : {0.5, 1.0, 2.0}) {
      const auto& p = points.points.at(i++);
      ASSERT_FALSE(p.error.has_value()) << *p.error;
      const double t_inf = (10.0 + k * setpoint) / (1.0 + k);
      // After 600 s, at least 15 time constants: the transient left is at most
      // e^-15 |T_inf - T_out| < 3.1e-7 * 8 = 2.5e-6.
      EXPECT_NEAR(number(p, "steady_state_error"), setpoint - t_inf, 5e-6);
      EXPECT_EQ(number(p, "overshoot"), 0.0);
      // Euler at 10 ms shifts the time constant by under 0.1%; the grid adds up to 1 s.
      EXPECT_NEAR(number(p, "settling_time"), 60.0 / (1.0 + k) * std::log(50.0), 1.2);
      const auto& series = std::get<fw::TimeSeries>(*p.measures.find("y.temperature"));
      EXPECT_EQ(series.time.size(), 601u);
      EXPECT_EQ(series.names, std::vector<std::string>{"y.temperature"});
      EXPECT_NEAR(series.columns[0].back(), t_inf, 5e-6);
    }
  }
}

// A shell script: a fresh working folder for every point (it leaves a file behind each
// time), and the point's index and seed in its environment, in either isolation.
TEST(CommandComponent, RunsAShellScriptInAFreshFolderWithItsEnvironment) {
  const std::string text =
      requirement("[programs/gain.sh]", "[doubled, fresh_folder, seed, point]",
                  "{gain: {linspace: [0.5, 2.0, 4]}}", "{measure: doubled, threshold: \">= 1\"}");
  const auto loaded = load(text);
  ASSERT_TRUE(loaded.ok()) << loaded.errors.front().str();
  for (const auto isolation : {fw::Isolation::process, fw::Isolation::none}) {
    const auto points = run(text, isolation);
    ASSERT_EQ(points.points.size(), 4u);
    for (const auto& [i, p] : points.points) {
      ASSERT_FALSE(p.error.has_value()) << *p.error;
      EXPECT_EQ(number(p, "doubled"), 2.0 * (0.5 + 0.5 * static_cast<double>(i)));
      EXPECT_EQ(number(p, "fresh_folder"), 1.0);
      EXPECT_EQ(number(p, "point"), static_cast<double>(i));
      EXPECT_EQ(number(p, "seed"),
                static_cast<double>(fw::point_seed(loaded.requirements.front(), i)));
    }
  }
}

TEST(CommandComponent, ACrashIsAnErrorWithTheSignalAndStandardError) {
  const std::string error = error_of("[programs/crash.sh]");
  EXPECT_NE(error.find("the program was killed by signal SIGSEGV"), std::string::npos) << error;
  EXPECT_NE(error.find("its standard error ended with: about to crash"), std::string::npos)
      << error;
}

TEST(CommandComponent, AHangIsKilledWithWhatItStartedAtTheTimeout) {
  // A private TMPDIR: the points' working folders must all be gone afterwards.
  const PrivateTmpdir tmp("command-hang");
  for (const auto isolation : {fw::Isolation::process, fw::Isolation::none}) {
    const auto points = run(requirement("[programs/hang.sh]", "[value]", "{x: [1, 2, 3]}",
                                        "{measure: value, threshold: \">= 0\"}"),
                            isolation, 1.0);
    ASSERT_EQ(points.points.size(), 3u);
    for (const auto& [i, p] : points.points) {
      const std::string error = p.error.value_or("no error");
      EXPECT_NE(error.find("the program timed out after 1 s and was killed"), std::string::npos)
          << error;
      EXPECT_NE(error.find("waiting forever"), std::string::npos) << error;
    }
  }
  EXPECT_TRUE(fs::is_empty(tmp.path())) << "working folders left in " << tmp.path();
  // The script's `sleep 1000` was in its process group: no such process is left.
  const auto left = sleep_left(tmp.path());
  EXPECT_FALSE(left.has_value()) << "left running: " << left.value_or("");
}

TEST(CommandComponent, OutputWithoutMeasuresSaysWhatWasWrong) {
  // Not a JSON library's message: nothing written, a number no double holds.
  EXPECT_EQ(error_of("[programs/silent.sh]"),
            "the program wrote nothing to standard output; it must write {\"measures\": {...}}; "
            "its standard error ended with: finished");
  EXPECT_EQ(error_of("[programs/overflow.sh]")
                .rfind("the program's standard output holds a number beyond the range of a "
                       "double (",
                       0),
            0u);
}

TEST(CommandComponent, ANaNInASeriesIsNamedWithItsPlace) {
  // null is NaN, which fails; the error says where it is.
  const auto points = run(requirement("[programs/null_value.sh]", "[y.s]", "{x: 1}",
                                      "{measure: rms(y.s), threshold: \"<= 1\"}"));
  EXPECT_EQ(points.points.at(0).error.value_or("no error"),
            "the quality is NaN: y.s is NaN at index 1 (t = 1)");
}

TEST(CommandComponent, ABooleanIsNotANumber) {
  EXPECT_EQ(error_of("[programs/boolean.sh]"), "measure 'value': expected a number, found true");
}

TEST(CommandComponent, EndlessOutputEndsThePointAtItsBound) {
  // Without the bound's kill the worker would drain `yes` until the 10 s timeout.
  const std::string error = error_of("[programs/endless.sh]");
  EXPECT_EQ(error,
            "the program wrote more than 256 MiB to standard output or error and was killed");
}

TEST(CommandComponent, AnInterruptedRunLeavesNothingRunning) {
  // Ctrl-C one second into hang.sh's `sleep 1000`: in worker processes (the worker is killed,
  // and the program's own process group with it) and in this process (the program is killed
  // within a tenth of a second); either way no `sleep 1000` of ours is left.
  const PrivateTmpdir tmp("command-interrupt");
  for (const auto isolation : {fw::Isolation::process, fw::Isolation::none}) {
    const auto loaded = load(requirement("[programs/hang.sh]", "[value]", "{x: [1, 2]}",
                                         "{measure: value, threshold: \">= 0\"}"));
    ASSERT_TRUE(loaded.ok());
    const auto reg = registry();
    std::atomic<bool> stop{false};
    fw::RunOptions options;
    options.isolation = isolation;
    options.jobs = 1;
    options.stop = &stop;
    fw::Runner runner(reg, options);
    Points points;
    const std::jthread interrupt([&] {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      stop = true;
    });
    (void)runner.run(loaded.requirements, points);
    EXPECT_TRUE(points.points.empty()) << "an interrupted point is not recorded";
  }
  const auto left = sleep_left(tmp.path());
  EXPECT_FALSE(left.has_value()) << "left running: " << left.value_or("");
}

TEST(CommandComponent, WhatTheProgramLeavesRunningIsKilledWhenItExits) {
  // leaves_children.py exits at once and leaves two `sleep 1000` holding its standard output,
  // one of them in a session of its own (out of reach of its process group). The point ends
  // with the program, measured, not at the timeout, and neither `sleep` is left.
  const PrivateTmpdir tmp("command-leaves");
  for (const auto isolation : {fw::Isolation::process, fw::Isolation::none}) {
    const auto points =
        run(requirement("[/usr/bin/python3, programs/leaves_children.py]", "[value]", "{x: [1, 2]}",
                        "{measure: value, threshold: \">= 0\"}"),
            isolation, 30.0);
    ASSERT_EQ(points.points.size(), 2u);
    for (const auto& [i, p] : points.points) {
      ASSERT_FALSE(p.error.has_value()) << *p.error;
      EXPECT_EQ(number(p, "value"), 1.0);
    }
  }
  const auto left = sleep_left(tmp.path());
  EXPECT_FALSE(left.has_value()) << "left running: " << left.value_or("");
}

TEST(CommandComponent, AProgramThatLeftItsGroupIsKilledAtTheTimeout) {
  // escapes_its_group.py moves into its child's process group: killing the program's own
  // group missed it, and with --isolation none the point waited for it for ever.
  const PrivateTmpdir tmp("command-escapes");
  for (const auto isolation : {fw::Isolation::process, fw::Isolation::none}) {
    const auto points =
        run(requirement("[/usr/bin/python3, programs/escapes_its_group.py]", "[value]", "{x: [1]}",
                        "{measure: value, threshold: \">= 0\"}"),
            isolation, 1.0);
    ASSERT_EQ(points.points.size(), 1u);
    const std::string error = points.points.begin()->second.error.value_or("no error");
    EXPECT_NE(error.find("the program timed out after 1 s and was killed"), std::string::npos)
        << error;
  }
  const auto left = sleep_left(tmp.path());
  EXPECT_FALSE(left.has_value()) << "left running: " << left.value_or("");
}

TEST(CommandComponent, OutputNestedTooDeepIsAnErrorOfThePoint) {
  // A million levels would overflow the stack of the worker, or of this process.
  for (const auto isolation : {fw::Isolation::process, fw::Isolation::none}) {
    const auto points = run(requirement("[/usr/bin/python3, programs/deep.py]", "[value]", "{x: 1}",
                                        "{measure: value, threshold: \">= 0\"}"),
                            isolation, 30.0);
    EXPECT_EQ(points.points.at(0).error.value_or("no error"),
              "the program's output nests deeper than 64 levels");
  }
}

TEST(CommandComponent, ALongVectorIsReadWithoutADocumentTree) {
  // 20 million numbers in 40 MB of output, read in this process (--isolation none): the
  // vector takes 160 MB. Parsed into a document tree first (16 bytes a number, with its
  // array's growth) the process peaked near 1 GB; read as it is parsed, the output, the vector
  // and its growth stay well under 600 MiB. (This test's process runs this test alone.)
  const auto points = run(requirement("[/usr/bin/python3, programs/many_numbers.py]", "[v]",
                                      "{x: 1}", "{measure: max_abs(v), threshold: \"<= 0\"}"),
                          fw::Isolation::none);
  const auto& p = points.points.at(0);
  ASSERT_FALSE(p.error.has_value()) << *p.error;
  const auto& v = std::get<std::vector<double>>(*p.measures.find("v"));
  EXPECT_EQ(v.size(), 20'000'000u);
  EXPECT_EQ(p.value, 0.0);
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  EXPECT_LT(usage.ru_maxrss, 600L * 1024) << "peak RSS in KiB";
}

TEST(CommandComponent, ARepeatedKeyIsAnError) {
  EXPECT_EQ(error_of("[programs/repeated_key.sh]"),
            "the program's output repeats the key 'value' in one object");
}

TEST(CommandComponent, TimeThatGoesBackOrIsMissingIsAnError) {
  EXPECT_EQ(error_of("[programs/backwards.sh]"),
            "measure 'y.back': t decreases at index 1 (0 after 1)");
  EXPECT_EQ(error_of("[programs/null_time.sh]"), "measure 'y.gap': t[1] is null");
  // A time twice in a row is a jump, as the simulator records an event.
  const auto points = run(requirement("[programs/jump.sh]", "[y.jump]", "{x: 1}",
                                      "{measure: final(y.jump), threshold: \">= 0\"}"));
  const auto& p = points.points.at(0);
  ASSERT_FALSE(p.error.has_value()) << *p.error;
  EXPECT_EQ(std::get<fw::TimeSeries>(*p.measures.find("y.jump")).time,
            (std::vector<double>{0, 1, 1, 2}));
}

TEST(CommandComponent, GarbageOnStandardOutputIsAnError) {
  const std::string error = error_of("[programs/garbage.sh]");
  EXPECT_NE(error.find("the program's standard output is not one JSON object"), std::string::npos)
      << error;
  EXPECT_NE(error.find("it began: 'Simulation finished."), std::string::npos) << error;
}

TEST(CommandComponent, AMissingMeasureIsAnError) {
  const std::string error =
      error_of("[/usr/bin/python3, programs/omits.py]", "[overshoot, settling_time]");
  EXPECT_EQ(error,
            "the program did not report 'settling_time' (declared in `measures:`); it reported: "
            "overshoot");
}

TEST(CommandComponent, AFailingExitStatusIsAnError) {
  const std::string error = error_of("[programs/fails.sh]");
  EXPECT_EQ(error,
            "the program exited with status 3; its standard error ended with: license server not "
            "reachable");
}

TEST(CommandComponent, StandardErrorIsKeptWholeWithItsControlBytesEscaped) {
  // A NUL used to end the reason (a C string); a line break or an escape sequence would begin
  // a line or drive the terminal that shows it.
  EXPECT_EQ(error_of("[programs/nul_stderr.sh]"),
            "the program exited with status 3; its standard error ended with: "
            "license\\u0000server\\u000anot reachable\\u001b[2J");
}

TEST(CommandComponent, ValidateChecksTheProgramAndTheMeasures) {
  const std::string q = "{measure: value, threshold: \">= 0\"}";
  EXPECT_EQ(validate_error(requirement("[programs/gain.sh]", "[doubled]", "{x: 1}",
                                       "{measure: doubled, threshold: \">= 0\"}")),
            "valid");
  EXPECT_EQ(validate_error(requirement("[programs/nothing.sh]", "[value]", "{x: 1}", q)),
            kFile + ":5:15: error: no program '" +
                (fs::path(kFile).parent_path() / "programs/nothing.sh").string() + "'");
  EXPECT_NE(validate_error(
                requirement("[programs/../command_component_test.cpp]", "[value]", "{x: 1}", q))
                .find("is not an executable file (chmod +x, or name its interpreter first"),
            std::string::npos);
  EXPECT_EQ(validate_error(requirement("[no-such-tool-xyz, run]", "[value]", "{x: 1}", q)),
            kFile + ":5:15: error: program 'no-such-tool-xyz' is not on PATH");
  EXPECT_EQ(validate_error(
                requirement("[/usr/bin/python3, programs/missing.py]", "[value]", "{x: 1}", q)),
            kFile + ":5:33: error: no script 'programs/missing.py' next to the requirement file (" +
                (fs::path(kFile).parent_path() / "programs/missing.py").string() + ")");
  EXPECT_EQ(validate_error(requirement("[programs/gain.sh]", "[doubled, fresh]", "{x: 1}",
                                       "{measure: max_abs(double), threshold: \"<= 1\"}")),
            kFile +
                ":8:24: error: the quality reads 'double', which is not among `measures:` "
                "(did you mean 'doubled'?); measures: doubled, fresh");
  EXPECT_EQ(validate_error("requirements:\n  - id: CMD-1\n    level: unit\n    component: command\n"
                           "    measures: [value]\n    conditions: {}\n    quality: " +
                           q + "\n"),
            kFile +
                ":2:9: error: missing `command:`, the program to run as a list, e.g. [python3, "
                "sim/model.py]");
  EXPECT_EQ(validate_error(requirement("programs/gain.sh", "[value]", "{x: 1}", q)),
            kFile +
                ":5:14: error: `command:` must be a non-empty list: the program and its "
                "arguments");
  EXPECT_EQ(validate_error(requirement("[programs/gain.sh]", "[value, value]", "{x: 1}", q)),
            kFile + ":6:23: error: measure 'value' is declared twice");
  // `command:` belongs to the command component only.
  EXPECT_EQ(
      validate_error("requirements:\n  - id: SIM-1\n    level: unit\n    component: simulate\n"
                     "    command: [programs/gain.sh]\n    conditions: {model: exponential}\n"
                     "    quality: {measure: error_end, threshold: \"<= 1\"}\n")
          .rfind(kFile + ":5:5: error: unknown key 'command' in requirement", 0),
      0u);
}
