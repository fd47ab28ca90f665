#pragma once
// Internal: one run of another program, as the `command` component needs it: argv without a
// shell, text on standard input, both output streams captured, a working directory and an
// environment of its own, a time limit. The program leads a process group of its own, which
// is killed when the limit passes, when its output exceeds its bound and when the run stops.
// Its parent is a keeper process, a child subreaper: when the program exits, the keeper kills
// its group and every process the program left behind, in its group or not (setsid, double
// fork), so nothing it started outlives it, and the run ends with the program even when
// those held its output open. The program dies with the keeper, the keeper with the process
// that started it (PR_SET_PDEATHSIG).
#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

namespace simverify::components {

// Called with the program's process group once it runs, and with 0 when it and all it left
// behind have ended.
using ProcessGroupObserver = void (*)(int process_group);

struct ProgramSpec {
  std::filesystem::path program;                          // the file to execute
  std::vector<std::string> arguments;                     // argv, argv[0] included
  std::vector<std::string> environment;                   // "NAME=value", the whole environment
  std::filesystem::path directory;                        // working directory
  std::string input;                                      // standard input
  double timeout_seconds = 0.0;                           // 0: none
  std::size_t max_output_bytes = std::size_t{256} << 20;  // per stream; more is cut off
  ProcessGroupObserver on_process_group = nullptr;        // optional
  // When set, the program's group is killed and run_program returns (`interrupted`): the run
  // is stopping (Ctrl-C) and runs points in its own process (--isolation none).
  const std::atomic<bool>* stop = nullptr;
};

struct ProgramOutcome {
  bool started = false;  // false: exec failed; `error` says why
  bool timed_out = false;
  int exit_status = -1;      // when it exited
  int signal = 0;            // when a signal ended it
  bool output_cut = false;   // a stream exceeded max_output_bytes (the program was killed)
  bool interrupted = false;  // `stop` was set (the program was killed)
  std::string out;
  std::string err;
  std::string error;
};

// Throws std::runtime_error when the pipes or the process cannot be created.
[[nodiscard]] ProgramOutcome run_program(const ProgramSpec& spec);

}  // namespace simverify::components
