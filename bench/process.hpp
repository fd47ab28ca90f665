// Child processes for the benchmarks that measure whole programs: run one to completion
// (CPU and wall time), or count its instructions under callgrind. Shared by cli_bench and
// ode_peers_bench --instructions.
#pragma once

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace simverify::bench {

// valgrind at the path Debian installs it to (ci/packages/bench.txt).
inline constexpr const char* kValgrind = "/usr/bin/valgrind";

struct Cost {
  double cpu = 0.0;   // s, user + system, the process and every worker it waited for
  double wall = 0.0;  // s
};

// Runs argv to completion with its output discarded; throws unless it exits with 0.
inline Cost run(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // The child would otherwise inherit what this process has buffered, and write it again.
  std::fflush(nullptr);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("cannot fork");
  if (pid == 0) {
    std::freopen("/dev/null", "w", stdout);
    ::execv(args[0], args.data());
    std::perror(args[0]);
    ::_exit(127);
  }
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  Cost c;
  c.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
  };
  c.cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error(argv[0] + " failed (status " + std::to_string(status) + ")");
  }
  return c;
}

// Instructions (callgrind's Ir) of a process and every process it starts: independent of
// other load on the machine, unlike any time. `dir` receives callgrind's files (one per
// process, emptied first).
inline double instructions(const std::vector<std::string>& argv, const std::filesystem::path& dir) {
  const std::filesystem::path out = dir / "callgrind";
  std::filesystem::remove_all(out);
  std::filesystem::create_directories(out);
  std::vector<std::string> wrapped = {kValgrind, "--tool=callgrind", "--trace-children=yes",
                                      "--callgrind-out-file=" + (out / "cg.%p").string(), "-q"};
  wrapped.insert(wrapped.end(), argv.begin(), argv.end());
  run(wrapped);
  double total = 0.0;
  for (const auto& file : std::filesystem::directory_iterator(out)) {
    std::ifstream in(file.path());
    std::string line;
    bool counted = false;
    while (!counted && std::getline(in, line)) {
      if (line.starts_with("summary:")) {
        total += std::stod(line.substr(8));
        counted = true;
      }
    }
    if (!counted) {
      throw std::runtime_error("no summary: line in callgrind's " + file.path().string());
    }
  }
  return total;
}

}  // namespace simverify::bench
