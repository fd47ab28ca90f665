// `simverify report DIR [--coverage FILE] [--config FILE] [--tests JUNIT]... [--coverage-html DIR]
// --out SITE`:
// the static HTML verification report. The gate decides here (one source of truth for the
// verdict, Def 5.17/5.20); the renderer in reports/ (Python, Jinja2, matplotlib) draws it.
#include "commands.hpp"
#include "detail/arguments.hpp"
#include "detail/atomic_file.hpp"
#include "gate.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;

// The renderer: the environment wins, else <prefix>/share/simverify/reports beside
// <prefix>/bin/simverify (the install tree, and the build tree which links it to reports/).
fs::path reports_dir() {
  const auto has_renderer = [](const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p / "render.py", ec);
  };
  if (const char* env = std::getenv("SIMVERIFY_REPORTS_DIR"); env && *env) {
    if (!has_renderer(env)) {
      throw std::runtime_error(fmt::format("SIMVERIFY_REPORTS_DIR={}: no render.py there", env));
    }
    return env;
  }
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  const fs::path beside = self.parent_path().parent_path() / "share/simverify/reports";
  if (!ec && has_renderer(beside)) return beside;
  throw std::runtime_error(
      fmt::format("cannot find the report renderer: no render.py in {}; set SIMVERIFY_REPORTS_DIR",
                  ec ? "<prefix>/share/simverify/reports" : beside.string()));
}

std::string git_commit() {
  // Best effort: the report shows which commit was verified when run inside a checkout.
  FILE* pipe = ::popen("git rev-parse --short=12 HEAD 2>/dev/null", "r");
  if (!pipe) return {};
  char buffer[64] = {};
  std::string out;
  while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
  ::pclose(pipe);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string compiler() {
#if defined(__clang__)
  return fmt::format("Clang {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
  return fmt::format("GCC {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  return "unknown";
#endif
}

int run_process(std::vector<std::string> argv) {
  std::vector<char*> raw;
  for (auto& s : argv) raw.push_back(s.data());
  raw.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("cannot start the report renderer (fork failed)");
  if (pid == 0) {
    ::execv(raw[0], raw.data());
    fmt::print(std::cerr, "simverify: cannot run {}\n", argv[0]);
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waiting for the report renderer failed");
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

int command_report(std::span<char*> args) {
  using namespace detail;
  const Arguments a =
      parse_arguments(args, {"coverage", "config", "coverage-html", "out", "tests"}, {});
  if (a.positional.size() != 1) throw UsageError("report needs exactly one results folder");
  const auto out = a.option("out");
  if (!out) throw UsageError("report needs --out SITE");
  const fs::path results_dir = a.positional.front();
  const GateDecision decision = decide_gate(results_dir, gate_inputs(a));

  const fs::path renderer = reports_dir() / "render.py";
  // The decision travels to the renderer as a temporary file, never inside or beside SITE:
  // the site folder only ever appears whole (the renderer builds it aside and renames it).
  const fs::path gate_json =
      fs::temp_directory_path() / fmt::format("simverify-gate-{}.json", ::getpid());
  write_atomically(gate_json, decision.to_json());
  std::vector<std::string> argv = {
      std::getenv("SIMVERIFY_PYTHON") ? std::getenv("SIMVERIFY_PYTHON") : "/usr/bin/python3",
      renderer.string(),
      // Absolute paths: a folder named "-h" is a folder, not an option to the renderer.
      fs::absolute(results_dir).string(),
      "--out",
      fs::absolute(*out).string(),
      "--gate",
      gate_json.string(),
      "--compiler",
      compiler(),
      "--quiet",
  };
  if (const auto commit = git_commit(); !commit.empty()) {
    argv.insert(argv.end(), {"--commit", commit});
  }
  if (auto coverage = a.option("coverage")) {
    argv.insert(argv.end(), {"--coverage", fs::absolute(*coverage).string()});
  }
  if (auto html = a.option("coverage-html")) {
    argv.insert(argv.end(), {"--coverage-html", fs::absolute(*html).string()});
  }
  int code = 0;
  try {
    code = run_process(argv);
  } catch (...) {
    std::error_code ec;
    fs::remove(gate_json, ec);
    throw;
  }
  std::error_code ec;
  fs::remove(gate_json, ec);
  if (code == kInvalid) {
    // The renderer has said which input it refused; SITE is as it was.
    fmt::print(std::cerr, "simverify: no report written\n");
    return kInvalid;
  }
  if (code != 0) {
    fmt::print(std::cerr, "simverify: the report renderer failed (exit {}); no report written\n",
               code);
    return kInvalid;
  }
  fmt::print("report: {}\n", (fs::absolute(*out) / "index.html").lexically_normal().string());
  fmt::print("gate: {}\n", decision.verdict());
  // 0: the report was rendered, whatever the verdict (a report of a failing run is the one
  // people need most); the verdict's exit code is `simverify gate`'s.
  return kReleasable;
}

}  // namespace simverify::framework
