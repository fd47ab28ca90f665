// Running another program (program_run.hpp) with fork and execve: no shell, so arguments
// reach it exactly as written. Standard input is a Unix socket rather than a pipe, so that a
// program that exits without reading it costs a failed send (MSG_NOSIGNAL), not a SIGPIPE.
//
// The program is not our child but a keeper's: a small process forked for the run that marks
// itself a child subreaper (PR_SET_CHILD_SUBREAPER), forks the program and waits for it. What
// the program leaves behind when it exits, in its process group or not (a daemon that called
// setsid, a double fork), is then the keeper's: the keeper kills the program's group and every
// process that ends up its child until none is left, reports the program's wait status and
// exits. So the point ends when the program does, and nothing it started outlives it, even
// when that holds its standard output open.
#include "program_run.hpp"

#include <simverify/core/exact_io.hpp>

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace simverify::components {
namespace {

using Clock = std::chrono::steady_clock;

class Descriptor {
 public:
  Descriptor() = default;
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() { reset(); }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  Descriptor(Descriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Descriptor& operator=(Descriptor&& other) noexcept {
    reset();
    fd_ = std::exchange(other.fd_, -1);
    return *this;
  }
  [[nodiscard]] int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

std::array<Descriptor, 2> make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  return {Descriptor(fds[0]), Descriptor(fds[1])};
}

// How long the output streams are read once the keeper has ended with the program and all it
// left behind: only what escaped the keeper (a process in another PID namespace, or no /proc
// to find the keeper's children in) still holds them, and it is not waited for.
constexpr auto kOutputGrace = std::chrono::milliseconds(500);

// The signals the keeper ignores (it is ended by its parent's death or by SIGKILL) and the
// program gets back at their defaults.
constexpr int kKeeperIgnores[] = {SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP};

// In the program, between fork and exec: only async-signal-safe calls.
[[noreturn]] void become_program(const ProgramSpec& spec, char* const* argv, char* const* envp,
                                 int in, int out, int err, int report, pid_t parent) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);  // the keeper died before prctl
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  for (const int sig : kKeeperIgnores) std::signal(sig, SIG_DFL);
  std::signal(SIGCHLD, SIG_DFL);
  if (::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0 ||
      ::chdir(spec.directory.c_str()) != 0) {
    const int e = errno;
    (void)!::write(report, &e, sizeof e);
    ::_exit(127);
  }
  ::execve(spec.program.c_str(), argv, envp);
  const int e = errno;
  (void)!::write(report, &e, sizeof e);
  ::_exit(127);
}

// The keeper's children (those it forked and the orphans it adopted) get SIGKILL, each with
// its process group; false when none could be killed (none found, or not ours to kill: a
// setuid program). Async-signal-safe: open, read, kill.
bool kill_children() {
  // The keeper has one thread, whose children these are.
  const int fd = ::open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool found = false;
  long pid = 0;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (ssize_t i = 0; i < n; ++i) {
      if (buffer[i] >= '0' && buffer[i] <= '9') {
        pid = pid * 10 + (buffer[i] - '0');
      } else if (pid > 0) {
        ::kill(static_cast<pid_t>(-pid), SIGKILL);  // no such group unless it leads one
        found = ::kill(static_cast<pid_t>(pid), SIGKILL) == 0 || found;
        pid = 0;
      }
    }
  }
  if (pid > 0) {
    ::kill(static_cast<pid_t>(-pid), SIGKILL);
    found = ::kill(static_cast<pid_t>(pid), SIGKILL) == 0 || found;
  }
  ::close(fd);
  return found;
}

// Everything the keeper still has: kill the children, reap them, and again for the orphans
// that brings, until there are none. Async-signal-safe.
void end_what_is_left() {
  for (;;) {
    int ignored = 0;
    const pid_t done = ::waitpid(-1, &ignored, WNOHANG);
    if (done > 0) continue;
    if (done < 0) {
      if (errno == EINTR) continue;
      break;  // ECHILD: none left
    }
    if (!kill_children()) break;  // no /proc: they are left to init
    if (::waitpid(-1, &ignored, 0) < 0 && errno != EINTR) break;
  }
}

// The keeper's program, for its parent-death handler. The keeper is a process of its own, a
// forked copy: this is its state alone, set once before the handler can run.
volatile sig_atomic_t kept_program = 0;

// The keeper's parent died (a worker killed at the runner's timeout, or simverify itself):
// the program and all it left behind go with the keeper, not on under init.
void on_parent_death(int /*signal*/) {
  if (kept_program > 0) {
    ::kill(-kept_program, SIGKILL);
    ::kill(kept_program, SIGKILL);
  }
  end_what_is_left();
  ::_exit(127);
}

// Closes every descriptor from `first` on (the keeper holds copies of all its parent's, other
// runs' pipes among them, which must not wait for it).
void close_from(int first) {
#ifdef SYS_close_range
  if (::syscall(SYS_close_range, first, ~0U, 0) == 0) return;
#endif
  rlimit limit{};
  const rlim_t last = ::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY
                          ? std::min<rlim_t>(limit.rlim_cur, 1 << 16)
                          : 1 << 16;
  for (rlim_t fd = static_cast<rlim_t>(first); fd < last; ++fd) ::close(static_cast<int>(fd));
}

// What the keeper tells its parent once the program runs or could not be started.
struct KeeperReport {
  pid_t program = -1;  // -1: it could not fork
  int error = 0;       // errno of fork or exec; 0: the program runs
};

// In the keeper, a forked copy of a process that may have other threads: only
// async-signal-safe calls. Writes a KeeperReport on `report`, and the program's wait status on
// `status` once it and all it left behind have ended.
[[noreturn]] void keep_program(const ProgramSpec& spec, char* const* argv, char* const* envp,
                               int in, int out, int err, int report, int status, pid_t parent) {
  ::setpgid(0, 0);  // out of the terminal's group: Ctrl-C is the runner's to handle
  struct sigaction on_death {};
  on_death.sa_handler = on_parent_death;
  sigfillset(&on_death.sa_mask);
  ::sigaction(SIGUSR1, &on_death, nullptr);
  ::prctl(PR_SET_PDEATHSIG, SIGUSR1);
  if (::getppid() != parent) ::_exit(127);  // the parent died before prctl
  for (const int sig : kKeeperIgnores) std::signal(sig, SIG_IGN);
  std::signal(SIGCHLD, SIG_DFL);  // children are waited for, not discarded
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  const pid_t self = ::getpid();
  KeeperReport told;
  int exec_pipe[2];  // exec's errno if it fails; closed by a successful exec
  if (::pipe2(exec_pipe, O_CLOEXEC) != 0) {
    told.error = errno;
    (void)!::write(report, &told, sizeof told);
    ::_exit(127);
  }
  const pid_t program = ::fork();
  if (program == 0) become_program(spec, argv, envp, in, out, err, exec_pipe[1], self);
  told.program = program;
  kept_program = program;
  if (program < 0) {
    told.error = errno;
    (void)!::write(report, &told, sizeof told);
    ::_exit(127);
  }
  ::setpgid(program, program);  // also done by the program: whichever runs first
  ::close(exec_pipe[1]);
  int exec_errno = 0;
  ssize_t n = 0;
  while ((n = ::read(exec_pipe[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
  }
  told.error = n == sizeof exec_errno ? exec_errno : 0;
  (void)!::write(report, &told, sizeof told);
  if (::dup2(status, 3) < 0) ::_exit(127);
  close_from(4);

  // Until the program ends, reap whatever else ends (orphans adopted on the way).
  int program_status = 0;
  for (;;) {
    siginfo_t info{};
    if (::waitid(P_ALL, 0, &info, WEXITED | WNOWAIT) != 0) {
      if (errno == EINTR) continue;
      ::_exit(127);  // no child: cannot be, the program is one
    }
    if (info.si_pid == program) {
      // Its group first, while its pid is still taken (a zombie) and cannot name another.
      ::kill(-program, SIGKILL);
      while (::waitpid(program, &program_status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    int ignored = 0;
    ::waitpid(info.si_pid, &ignored, 0);
  }
  end_what_is_left();
  (void)!::write(3, &program_status, sizeof program_status);
  ::_exit(0);
}

// Reads what is there; false at the end of the stream.
bool drain(int fd, std::string& into, std::size_t limit, bool& cut) {
  char buffer[1 << 16];
  const ssize_t n = ::read(fd, buffer, sizeof buffer);
  if (n < 0) return errno == EINTR || errno == EAGAIN;
  if (n == 0) return false;
  const auto room = limit > into.size() ? limit - into.size() : 0;
  into.append(buffer, std::min(static_cast<std::size_t>(n), room));
  cut = cut || static_cast<std::size_t>(n) > room;
  return true;
}

}  // namespace

ProgramOutcome run_program(const ProgramSpec& spec) {
  ProgramOutcome outcome;
  std::vector<char*> argv;
  for (const auto& a : spec.arguments) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (const auto& e : spec.environment) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);

  int sockets[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) {
    throw std::runtime_error(std::string("cannot create a socket: ") + std::strerror(errno));
  }
  Descriptor in_child(sockets[0]), in_parent(sockets[1]);
  auto [out_read, out_write] = make_pipe();
  auto [err_read, err_write] = make_pipe();
  auto [report_read, report_write] = make_pipe();  // a KeeperReport
  auto [status_read, status_write] = make_pipe();  // the program's wait status, from the keeper

  const pid_t parent = ::getpid();
  const pid_t keeper = ::fork();
  if (keeper < 0) throw std::runtime_error(std::string("cannot fork: ") + std::strerror(errno));
  if (keeper == 0) {
    keep_program(spec, argv.data(), envp.data(), in_child.get(), out_write.get(), err_write.get(),
                 report_write.get(), status_write.get(), parent);
  }
  ::setpgid(keeper, keeper);  // also done by the keeper: whichever runs first
  in_child.reset();
  out_write.reset();
  err_write.reset();
  report_write.reset();
  status_write.reset();

  KeeperReport told;
  const bool reported = core::read_exact(report_read.get(), &told, sizeof told);
  if (!reported || told.error != 0) {
    int status = 0;
    while (::waitpid(keeper, &status, 0) < 0 && errno == EINTR) {
    }
    outcome.error = !reported          ? std::string("the process that starts it ended")
                    : told.program < 0 ? std::string("cannot fork: ") + std::strerror(told.error)
                                       : std::string(std::strerror(told.error));
    return outcome;
  }
  const pid_t program = told.program;
  if (spec.on_process_group != nullptr) spec.on_process_group(program);
  outcome.started = true;

  const bool limited = spec.timeout_seconds > 0.0;
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(limited ? spec.timeout_seconds : 0.0));
  // The keeper ends once the program and all it left behind have ended. Only the keeper holds
  // the status pipe's writing end, so the pipe becomes readable (the status, or the end of the
  // stream if the keeper was killed) exactly when it ends: a wake-up, not a polling interval.
  bool keeper_ended = false;
  int keeper_status = 0;
  const auto keeper_watch = [status_fd = status_read.get()] {
    return pollfd{status_fd, POLLIN, 0};
  };
  const auto reap_keeper = [&] {
    while (::waitpid(keeper, &keeper_status, 0) < 0 && errno == EINTR) {
    }
    keeper_ended = true;
  };
  // In case another keeper forked meanwhile (`--isolation none`, several jobs) still holds a
  // copy of the writing end for a moment.
  const auto look_at_keeper = [&] {
    if (!keeper_ended && ::waitpid(keeper, &keeper_status, WNOHANG) == keeper) keeper_ended = true;
    return keeper_ended;
  };
  auto quiet_since = Clock::now();  // the output's last data
  std::size_t written = 0;
  if (spec.input.empty()) in_parent.reset();
  bool out_open = true, err_open = true;
  while (out_open || err_open || in_parent.get() >= 0) {
    std::array<pollfd, 4> fds{};
    nfds_t n = 0;
    if (out_open) fds[n++] = {out_read.get(), POLLIN, 0};
    if (err_open) fds[n++] = {err_read.get(), POLLIN, 0};
    if (in_parent.get() >= 0) fds[n++] = {in_parent.get(), POLLOUT, 0};
    if (!keeper_ended) fds[n++] = keeper_watch();
    int wait_ms = 100;
    if (limited) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) {
        outcome.timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(std::min<long long>(left, wait_ms));
    }
    if (::poll(fds.data(), n, wait_ms) < 0 && errno != EINTR) break;
    for (nfds_t i = 0; i < n; ++i) {
      if (fds[i].revents == 0) continue;
      if (fds[i].fd == status_read.get()) {
        reap_keeper();
      } else if (fds[i].fd == out_read.get()) {
        out_open = drain(out_read.get(), outcome.out, spec.max_output_bytes, outcome.output_cut);
        quiet_since = Clock::now();
      } else if (fds[i].fd == err_read.get()) {
        err_open = drain(err_read.get(), outcome.err, spec.max_output_bytes, outcome.output_cut);
        quiet_since = Clock::now();
      } else {
        const ssize_t sent = ::send(in_parent.get(), spec.input.data() + written,
                                    spec.input.size() - written, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent > 0) written += static_cast<std::size_t>(sent);
        // Done, or the program closed its input: either way it gets no more.
        if (written == spec.input.size() || (sent < 0 && errno != EAGAIN && errno != EINTR)) {
          ::shutdown(in_parent.get(), SHUT_WR);
          in_parent.reset();
        }
      }
    }
    // Past the limit the point has failed: a program that writes without end would otherwise
    // be drained for ever.
    if (outcome.output_cut) break;
    if (spec.stop != nullptr && spec.stop->load(std::memory_order_relaxed)) {
      outcome.interrupted = true;
      break;
    }
    // The program has ended and the keeper with all it could find: whatever still holds the
    // output escaped it, and the point does not wait for that.
    if (look_at_keeper() && Clock::now() - quiet_since >= kOutputGrace) break;
  }

  // Both streams are closed (or time is up, too much came, the run stops, the program has
  // ended); the program may still be running. Killing its group ends the keeper too, once it
  // has killed what the program left.
  // A program that left its own group (setpgid) is not in it: it is killed by its pid too,
  // which stays its own until the keeper reaps it.
  const auto end_program = [program] {
    ::kill(-program, SIGKILL);
    ::kill(program, SIGKILL);
  };
  if (outcome.timed_out || outcome.output_cut || outcome.interrupted) end_program();
  while (!keeper_ended) {
    if (limited && !outcome.timed_out && Clock::now() >= deadline) {
      outcome.timed_out = true;
      end_program();
    }
    if (spec.stop != nullptr && !outcome.interrupted &&
        spec.stop->load(std::memory_order_relaxed)) {
      outcome.interrupted = true;
      end_program();
    }
    // A tenth of a second at most, so that the deadline and a stop are seen.
    int wait_ms = 100;
    if (limited && !outcome.timed_out) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      wait_ms = static_cast<int>(std::clamp<long long>(left + 1, 0, wait_ms));
    }
    pollfd watch = keeper_watch();
    if (::poll(&watch, 1, wait_ms) > 0) {
      reap_keeper();
    } else {
      look_at_keeper();
    }
  }
  if (spec.on_process_group != nullptr) spec.on_process_group(0);
  int status = 0;
  if (core::read_exact(status_read.get(), &status, sizeof status)) {
    if (WIFEXITED(status)) outcome.exit_status = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  } else {
    // The keeper was killed (by the program, say) and the program with it (PR_SET_PDEATHSIG):
    // what is left of its group goes too.
    ::kill(-program, SIGKILL);
    if (WIFSIGNALED(keeper_status)) outcome.signal = WTERMSIG(keeper_status);
  }
  return outcome;
}

}  // namespace simverify::components
