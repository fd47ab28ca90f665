// `simverify report DIR [--coverage FILE] [--config FILE] [--tests JUNIT]... [--coverage-html DIR]
// [--baseline DIR] [--history DIR...] --out SITE`: the static HTML verification report. The gate
// decides here (one source of truth for the verdict, Def 5.17/5.20); the renderer in reports/
// (Python, Jinja2, matplotlib) draws it.
#include "commands.hpp"
#include "detail/arguments.hpp"
#include "detail/encoding.hpp"
#include "diff.hpp"
#include "gate.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;

// The renderer: the environment wins, else <prefix>/share/simverify/reports beside
// <prefix>/bin/simverify (the install tree, and the build tree which links it to reports/).
// SIMVERIFY_REPORTS_DIR, else <prefix>/share/simverify/reports beside this executable (an
// installed simverify, wherever it was moved), else the installation a project's own executable
// was built against.
fs::path reports_dir(std::string_view package_reports_dir) {
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
  fs::path beside = self.parent_path().parent_path() / "share/simverify/reports";
  if (!ec && has_renderer(beside)) return beside;
  if (!package_reports_dir.empty() && has_renderer(package_reports_dir)) {
    return package_reports_dir;
  }
  throw std::runtime_error(fmt::format(
      "cannot find the report renderer: no render.py in {}{}; set SIMVERIFY_REPORTS_DIR",
      ec ? "<prefix>/share/simverify/reports" : beside.string(),
      package_reports_dir.empty() ? "" : fmt::format(" or {}", package_reports_dir)));
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

// How the renderer ended, and the signal (SIGINT, SIGTERM, SIGHUP) that asked us to stop
// meanwhile, if one did.
struct RendererExit {
  int code = 0;
  int signal = 0;
};

// The renderer ends with us. The stop signals are held while it runs and passed on: a Ctrl-C
// at a terminal reaches both processes, but `kill PID` or a CI runner's cancel reaches only
// simverify. SIGHUP goes on as SIGTERM, which the renderer unwinds from (removing its staging
// folder) as from Ctrl-C. Should simverify die anyway (SIGKILL), the renderer gets SIGTERM.
RendererExit run_renderer(std::vector<std::string> argv) {
  std::vector<char*> raw;
  raw.reserve(argv.size() + 1);
  for (auto& s : argv) raw.push_back(s.data());
  raw.push_back(nullptr);
  sigset_t stop;
  sigemptyset(&stop);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGCHLD}) sigaddset(&stop, sig);
  sigset_t old;
  ::pthread_sigmask(SIG_BLOCK, &stop, &old);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(128 + SIGTERM);  // we died before prctl
    ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
    std::signal(SIGPIPE, SIG_DFL);  // run_cli ignores it; an ignored signal stays so over exec
    ::execv(raw[0], raw.data());
    fmt::print(std::cerr, "simverify: cannot run {}\n", argv[0]);
    ::_exit(127);
  }
  RendererExit out;
  int status = 0;
  if (pid > 0) {
    while (::waitpid(pid, &status, WNOHANG) == 0) {
      // SIGCHLD wakes this at once when the renderer ends; the tick only bounds a lost one.
      const timespec tick{0, 100'000'000};
      const int sig = ::sigtimedwait(&stop, nullptr, &tick);
      if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
        out.signal = sig;
        ::kill(pid, sig == SIGINT ? SIGINT : SIGTERM);
      }
    }
  }
  // Whatever stop signal is still pending (sent as the renderer ended) is ours to obey too.
  for (timespec none{0, 0}; const int sig = ::sigtimedwait(&stop, nullptr, &none);) {
    if (sig < 0) break;
    if (sig != SIGCHLD) out.signal = sig;
  }
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (pid < 0) throw std::runtime_error("cannot start the report renderer (fork failed)");
  out.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return out;
}

// A file handed to the renderer: anonymous, in memory (memfd), read by the renderer as
// /proc/self/fd/N of the descriptor it inherits. It has no name in any folder, so nothing is
// left in /tmp however the command ends, SIGKILL included.
class HandedFile {
 public:
  HandedFile(const std::string& name, const std::string& content)
      : fd_(::memfd_create(fmt::format("simverify-{}", name).c_str(), 0)) {
    if (fd_ < 0) {
      throw std::runtime_error(
          fmt::format("cannot hand the {} to the report renderer: {}", name, std::strerror(errno)));
    }
    for (std::size_t done = 0; done < content.size();) {
      const ssize_t n = ::write(fd_, content.data() + done, content.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const int error = errno;
        ::close(fd_);
        throw std::runtime_error(fmt::format("cannot hand the {} to the report renderer: {}", name,
                                             std::strerror(error)));
      }
      done += static_cast<std::size_t>(n);
    }
  }
  ~HandedFile() { ::close(fd_); }
  HandedFile(const HandedFile&) = delete;
  HandedFile& operator=(const HandedFile&) = delete;
  [[nodiscard]] std::string str() const { return fmt::format("/proc/self/fd/{}", fd_); }

 private:
  int fd_;
};

const std::vector<std::string> kValueOptions = {"coverage",     "config",  "coverage-html",
                                                "out",          "tests",   "baseline",
                                                "requirements", "recheck", "timeout"};

// `--history A B C` (or `--history=A B C`): every argument after --history up to the next
// one that starts with '-'. The other arguments are returned for the ordinary parser, values
// of options included as they are (`--out --history` writes into a folder named --history,
// getopt's rule, as for every option).
std::vector<char*> take_history(std::span<char*> args, std::vector<std::string>& history) {
  std::vector<char*> rest;
  bool seen = false;
  const auto is_value_option = [](std::string_view arg) {
    return arg.starts_with("--") && std::find(kValueOptions.begin(), kValueOptions.end(),
                                              arg.substr(2)) != kValueOptions.end();
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg(args[i]);
    if (arg == "--") {  // the rest are folders, for the ordinary parser
      rest.insert(rest.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
      break;
    }
    if (is_value_option(arg) && i + 1 < args.size()) {
      rest.insert(rest.end(), {args[i], args[i + 1]});
      ++i;
      continue;
    }
    if (arg != "--history" && !arg.starts_with("--history=")) {
      rest.push_back(args[i]);
      continue;
    }
    seen = true;
    if (arg.starts_with("--history=")) history.emplace_back(arg.substr(10));
    while (i + 1 < args.size() && !std::string_view(args[i + 1]).starts_with("-")) {
      history.emplace_back(args[++i]);
    }
  }
  if (seen && (history.empty() || std::find(history.begin(), history.end(), "") != history.end()))
    throw detail::UsageError("--history needs at least one results folder");
  return rest;
}

// `report --out SITE` replaces SITE whole: an input kept inside it (a --baseline results
// folder, the coverage file) would be read and then deleted with the old site.
void check_not_in_site(const fs::path& site, const std::string& input, std::string_view option) {
  std::error_code ec;
  // Only a site a report wrote is replaced (the renderer refuses any other folder and says why).
  if (!fs::is_regular_file(fs::symlink_status(site / ".simverify-site", ec))) return;
  fs::path s = fs::weakly_canonical(fs::absolute(site), ec);
  if (ec) return;
  fs::path i = fs::weakly_canonical(fs::absolute(input), ec);
  if (ec) return;
  if (!s.has_filename()) s = s.parent_path();  // "site/" names "site"
  if (!i.has_filename()) i = i.parent_path();
  if (std::mismatch(s.begin(), s.end(), i.begin(), i.end()).first == s.end()) {
    throw std::runtime_error(fmt::format(
        "{}: {} is inside the report site {}, which the report replaces whole and would delete "
        "it; move it out or choose another --out",
        input, option, site.string()));
  }
}

}  // namespace

int command_report(std::span<char*> args, const ComponentRegistry& registry,
                   std::string_view package_reports_dir) {
  using namespace detail;
  std::vector<std::string> history;
  std::vector<char*> rest = take_history(args, history);
  std::vector<std::string> known = kValueOptions;
  known.emplace_back("history");  // taken above; known here for "did you mean --history?"
  const Arguments a = parse_arguments(rest, known, {});
  if (a.positional.size() != 1) throw UsageError("report needs exactly one results folder");
  const auto out = a.option("out");
  if (!out) throw UsageError("report needs --out SITE");
  const fs::path results_dir = a.positional.front();
  for (const auto& option : kValueOptions) {
    if (option == "out") continue;
    if (auto value = a.option(option)) check_not_in_site(*out, *value, "--" + option);
  }
  for (const auto& earlier : history) check_not_in_site(*out, earlier, "--history");
  const GateDecision decision = decide_gate(results_dir, gate_inputs(a), registry);
  // The comparison is `simverify diff`'s, computed here and handed over like the decision.
  std::optional<ResultsDiff> diff;
  if (auto baseline = a.option("baseline")) {
    diff = diff_result_folders(*baseline, results_dir, /*with_points=*/false);
  }

  const fs::path renderer = reports_dir(package_reports_dir) / "render.py";
  // The decision travels to the renderer as an anonymous file, never inside or beside SITE:
  // the site folder only ever appears whole (the renderer builds it aside and renames it).
  const HandedFile gate_json("gate", decision.to_json());
  std::optional<HandedFile> diff_json;
  if (diff) diff_json.emplace("diff", diff->to_json());
  // Each earlier run compared with this one, by the same reader and checks as the baseline.
  std::deque<HandedFile> history_json;  // never moved: each closes its file
  for (std::size_t i = 0; i < history.size(); ++i) {
    history_json.emplace_back(
        fmt::format("history{}", i),
        diff_result_folders(history[i], results_dir, /*with_points=*/false).to_json());
  }
  std::vector<std::string> argv = {
      std::getenv("SIMVERIFY_PYTHON") ? std::getenv("SIMVERIFY_PYTHON") : "/usr/bin/python3",
      renderer.string(),
      // Absolute paths: a folder named "-h" is a folder, not an option to the renderer.
      fs::absolute(results_dir).string(),
      "--out",
      fs::absolute(*out).string(),
      "--gate",
      gate_json.str(),
      "--compiler",
      compiler(),
      "--quiet",
  };
  if (auto coverage = a.option("coverage")) {
    argv.insert(argv.end(), {"--coverage", fs::absolute(*coverage).string()});
  }
  if (auto html = a.option("coverage-html")) {
    argv.insert(argv.end(), {"--coverage-html", fs::absolute(*html).string()});
  }
  if (diff_json) argv.insert(argv.end(), {"--diff", diff_json->str()});
  if (!history_json.empty()) {
    argv.emplace_back("--history");
    for (const auto& file : history_json) argv.push_back(file.str());
  }
  const auto [code, signal] = run_renderer(argv);
  if (signal != 0) {
    // Ended as the signal asked, with its usual exit status, once the renderer has cleaned up;
    // a signal that came after the renderer had put the site in place leaves it (whole).
    if (code == 0) {
      fmt::print(
          std::cerr, "simverify: interrupted after the report was written: {}\n",
          detail::terminal_text((fs::absolute(*out) / "index.html").lexically_normal().string()));
    } else {
      fmt::print(std::cerr, "simverify: interrupted; no report written\n");
    }
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return 128 + signal;
  }
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
  fmt::print(
      std::cout, "report: {}\n",
      detail::terminal_text((fs::absolute(*out) / "index.html").lexically_normal().string()));
  if (diff) {
    fmt::print(std::cout, "compared with {}: {} newly failing, {} fixed\n",
               detail::terminal_text(diff->base.path),
               diff->count(RequirementChange::Kind::regressed),
               diff->count(RequirementChange::Kind::fixed));
  }
  fmt::print(std::cout, "gate: {}\n", decision.verdict());
  // 0: the report was rendered, whatever the verdict (a report of a failing run is the one
  // people need most); the verdict's exit code is `simverify gate`'s.
  return kReleasable;
}

}  // namespace simverify::framework
