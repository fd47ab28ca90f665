// Running another program (program_run.hpp) with fork and execve: no shell, so arguments
// reach it exactly as written. Standard input is a Unix socket rather than a pipe, so that a
// program that exits without reading it costs a failed send (MSG_NOSIGNAL), not a SIGPIPE.
#include "program_run.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>
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

// In the child, between fork and exec: only async-signal-safe calls.
[[noreturn]] void become_program(const ProgramSpec& spec, char* const* argv, char* const* envp,
                                 int in, int out, int err, int report, pid_t parent) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);  // the parent died before prctl
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  for (const int sig : {SIGPIPE, SIGINT, SIGTERM, SIGQUIT}) std::signal(sig, SIG_DFL);
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
  auto [report_read, report_write] = make_pipe();  // exec's errno, if exec fails

  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("cannot fork: ") + std::strerror(errno));
  if (pid == 0) {
    become_program(spec, argv.data(), envp.data(), in_child.get(), out_write.get(), err_write.get(),
                   report_write.get(), parent);
  }
  ::setpgid(pid, pid);  // also done by the child: whichever runs first
  if (spec.on_process_group != nullptr) spec.on_process_group(pid);
  in_child.reset();
  out_write.reset();
  err_write.reset();
  report_write.reset();

  int exec_errno = 0;
  if (::read(report_read.get(), &exec_errno, sizeof exec_errno) == sizeof exec_errno) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (spec.on_process_group != nullptr) spec.on_process_group(0);
    outcome.error = std::strerror(exec_errno);
    return outcome;
  }
  outcome.started = true;

  const bool limited = spec.timeout_seconds > 0.0;
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(limited ? spec.timeout_seconds : 0.0));
  std::size_t written = 0;
  if (spec.input.empty()) in_parent.reset();
  bool out_open = true, err_open = true;
  while (out_open || err_open || in_parent.get() >= 0) {
    std::array<pollfd, 3> fds{};
    nfds_t n = 0;
    if (out_open) fds[n++] = {out_read.get(), POLLIN, 0};
    if (err_open) fds[n++] = {err_read.get(), POLLIN, 0};
    if (in_parent.get() >= 0) fds[n++] = {in_parent.get(), POLLOUT, 0};
    // With a stop flag, look at it ten times a second.
    int wait_ms = spec.stop != nullptr ? 100 : -1;
    if (limited) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) {
        outcome.timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(std::min<long long>(left, wait_ms < 0 ? 1000 : wait_ms));
    }
    if (::poll(fds.data(), n, wait_ms) < 0 && errno != EINTR) break;
    for (nfds_t i = 0; i < n; ++i) {
      if (fds[i].revents == 0) continue;
      if (fds[i].fd == out_read.get()) {
        out_open = drain(out_read.get(), outcome.out, spec.max_output_bytes, outcome.output_cut);
      } else if (fds[i].fd == err_read.get()) {
        err_open = drain(err_read.get(), outcome.err, spec.max_output_bytes, outcome.output_cut);
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
  }

  // Both streams are closed (or time is up, too much came, the run stops); the program may
  // still be running.
  if (outcome.timed_out || outcome.output_cut || outcome.interrupted) ::kill(-pid, SIGKILL);
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) break;
    if (limited && !outcome.timed_out && Clock::now() >= deadline) {
      outcome.timed_out = true;
      ::kill(-pid, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ::kill(-pid, SIGKILL);  // whatever it started in its group goes with it
  if (spec.on_process_group != nullptr) spec.on_process_group(0);
  if (WIFEXITED(status)) outcome.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  return outcome;
}

}  // namespace simverify::components
