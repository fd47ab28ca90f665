// Isolation::process (the default): each job is a forked worker process that evaluates chunks
// of grid points and streams the results back over a pipe (wire.hpp). A worker that crashes
// (segfault, abort), exits, or runs one point longer than --timeout is killed/reaped; that
// point is recorded as an error naming the signal or the timeout, and the rest of the chunk
// goes to a fresh worker. Alg 9 therefore always ends with a verdict.
//
// Each worker leads a process group of its own, and a worker is killed with its group: a
// program a component started (the `command` component's) dies with the worker instead of
// running on as an orphan after a timeout.
//
// Overhead per point is kept to a few clock reads and a memcpy: the worker publishes the point
// it is on in shared memory (no syscall), buffers results and writes them in blocks (at least
// every kFlushInterval), and the parent sleeps in poll(). Results that a worker had computed
// but not yet sent when it crashed are evaluated once more by the next worker.
#include <simverify/core/exact_io.hpp>
#include <simverify/core/temp_folder.hpp>

#include "executor.hpp"
#include "point_note.hpp"
#include "point_progress.hpp"
#include "wire.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <string>

namespace simverify::framework {
namespace {

using Clock = std::chrono::steady_clock;
using core::read_exact;
using core::write_all;
constexpr std::size_t kFlushBytes = std::size_t{64} * 1024;
constexpr auto kFlushInterval = std::chrono::milliseconds(20);
constexpr std::size_t kMaxChunk = 512;
constexpr int kTickMs = 100;  // how often the parent looks at the clock and the stop flag

// The point a worker is on, in memory shared with the parent.
struct Progress {
  std::atomic<std::int64_t> started_ns{0};
  std::atomic<std::uint64_t> position{~std::uint64_t{0}};
  detail::PointNote note;         // what the point's component noted (point_note.hpp)
  std::atomic<double> done{0.0};  // how far the point has got (point_progress.hpp)
};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);
static_assert(std::atomic<std::int64_t>::is_always_lock_free);

std::int64_t nanoseconds(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

std::int64_t now_ns() {
  return nanoseconds(Clock::now());
}

struct Request {
  std::uint64_t begin = 0, end = 0;  // positions in `indices`
};

[[noreturn]] void worker_main(const Component& component, const Requirement& r,
                              const std::vector<std::size_t>& indices, int in, int out,
                              Progress& progress, double timeout_seconds, const MeasureNeeds& needs,
                              const std::filesystem::path* tmpdir) {
  ::setpgid(0, 0);  // also done by the parent: whichever runs first, the group exists
  // The executor's folder (ExecutorTemp) is the worker's TMPDIR too: what a component or its
  // program puts into TMPDIR goes with it.
  if (tmpdir != nullptr) ::setenv("TMPDIR", tmpdir->c_str(), 1);
  // Ctrl-C reaches the whole process group; the parent decides what happens to workers.
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGTERM, SIG_DFL);
  std::signal(SIGPIPE, SIG_DFL);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  const rlimit no_core{0, 0};  // a crashing component is expected here, not worth a core file
  ::setrlimit(RLIMIT_CORE, &no_core);
  detail::attach_point_note(&progress.note);
  detail::attach_point_progress(&progress.done);
  std::string buffer;
  Request request;
  while (read_exact(in, &request, sizeof request)) {
    PointClock clock;  // one clock read per point: each point starts when the last one ended
    auto last_flush = clock.start;
    for (auto k = static_cast<std::size_t>(request.begin); k < request.end; ++k) {
      progress.note.clear();
      progress.done.store(0.0, std::memory_order_relaxed);
      progress.started_ns.store(nanoseconds(clock.start), std::memory_order_relaxed);
      progress.position.store(k, std::memory_order_release);
      const PointResult point =
          evaluate_point(component, r, indices[k], clock, timeout_seconds, &needs, nullptr, tmpdir);
      wire::append(buffer, k, point);
      if (buffer.size() >= kFlushBytes || clock.end - last_flush >= kFlushInterval) {
        if (!write_all(out, buffer.data(), buffer.size())) ::_exit(3);
        buffer.clear();
        last_flush = clock.end;
      }
      clock.start = clock.end;
    }
    if (!write_all(out, buffer.data(), buffer.size())) ::_exit(3);
    buffer.clear();
  }
  ::_exit(0);  // no atexit handlers or static destructors: they belong to the parent
}

std::string describe_exit(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* abbrev = ::sigabbrev_np(sig);
    return fmt::format("the component crashed: signal SIG{} ({})", abbrev ? abbrev : "?",
                       ::strsignal(sig));
  }
  if (WIFEXITED(status)) {
    return fmt::format("the component ended the worker process (exit status {})",
                       WEXITSTATUS(status));
  }
  return "the worker process ended unexpectedly";
}

// Parent writes to a worker that just died must not kill the runner.
class IgnoreSigpipe {
 public:
  IgnoreSigpipe() { previous_ = std::signal(SIGPIPE, SIG_IGN); }
  ~IgnoreSigpipe() { std::signal(SIGPIPE, previous_); }
  IgnoreSigpipe(const IgnoreSigpipe&) = delete;
  IgnoreSigpipe& operator=(const IgnoreSigpipe&) = delete;

 private:
  void (*previous_)(int) = nullptr;
};

class SharedProgress {
 public:
  explicit SharedProgress(std::size_t count) : bytes_(count * sizeof(Progress)) {
    void* p = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("cannot map memory shared with the workers");
    slots_ = static_cast<Progress*>(p);
    for (std::size_t i = 0; i < count; ++i) new (&slots_[i]) Progress();
  }
  ~SharedProgress() { ::munmap(slots_, bytes_); }
  SharedProgress(const SharedProgress&) = delete;
  SharedProgress& operator=(const SharedProgress&) = delete;
  Progress& operator[](std::size_t i) { return slots_[i]; }

 private:
  std::size_t bytes_;
  Progress* slots_ = nullptr;
};

using Chunk = std::pair<std::size_t, std::size_t>;  // positions [first, second) in `indices`

struct Worker {
  pid_t pid = -1;
  int to_child = -1;
  int from_child = -1;
  std::string inbox;
  std::size_t inbox_offset = 0;
  // Chunks sent and not fully received, in order; the worker is on the front one. A second
  // chunk waits in the pipe so the worker never idles while the parent reads its results.
  std::deque<Chunk> chunks;
  std::size_t received = 0;  // the first position of the front chunk not received yet
  bool busy() const { return !chunks.empty(); }
};
constexpr std::size_t kChunksInFlight = 2;

class ProcessExecutor {
 public:
  ProcessExecutor(const Component& component, const Requirement& r,
                  const std::vector<std::size_t>& indices, const RunOptions& options,
                  const PointSink& sink, const InFlightSink& in_flight)
      : temp_(options.temp_root, ".workers-", "simverify-workers-"),
        component_(component),
        requirement_(r),
        indices_(indices),
        options_(options),
        sink_(sink),
        in_flight_(in_flight),
        workers_(std::min<std::size_t>(static_cast<std::size_t>(std::max(1, options.jobs)),
                                       indices.size())),
        progress_(std::max<std::size_t>(1, workers_.size())) {
    if (!indices.empty()) pending_.emplace_back(0, indices.size());
  }
  ~ProcessExecutor() {
    for (std::size_t w = 0; w < workers_.size(); ++w) stop_worker(w);
  }
  ProcessExecutor(const ProcessExecutor&) = delete;
  ProcessExecutor& operator=(const ProcessExecutor&) = delete;

  bool run() {
    const std::size_t n = indices_.size();
    // Clamped as doubles: an API caller's timeout need not fit an int of milliseconds.
    const int tick =
        options_.timeout_seconds > 0
            ? static_cast<int>(std::clamp(options_.timeout_seconds * 250, 1.0, double{kTickMs}))
            : kTickMs;
    std::vector<pollfd> fds;
    std::vector<std::size_t> owner;
    while (emitted_ < n) {
      if (options_.stop != nullptr && options_.stop->load()) return false;
      for (std::size_t w = 0; w < workers_.size(); ++w) {
        while (workers_[w].chunks.size() < kChunksInFlight && !pending_.empty()) {
          if (!assign(w)) break;
        }
      }
      fds.clear();
      owner.clear();
      for (std::size_t w = 0; w < workers_.size(); ++w) {
        if (workers_[w].busy()) {
          fds.push_back({workers_[w].from_child, POLLIN, 0});
          owner.push_back(w);
        }
      }
      const int ready = ::poll(fds.data(), fds.size(), tick);
      if (ready < 0 && errno != EINTR) throw std::runtime_error("poll failed");
      for (std::size_t i = 0; ready > 0 && i < fds.size(); ++i) {
        if ((fds[i].revents & (POLLIN | POLLHUP | POLLERR)) != 0) receive(owner[i]);
      }
      if (options_.timeout_seconds > 0) check_timeouts();
      emit();
      report_in_flight();
    }
    return true;
  }

 private:
  void spawn(std::size_t w) {
    Worker& worker = workers_[w];
    int to[2], from[2];
    if (::pipe2(to, O_CLOEXEC) != 0 || ::pipe2(from, O_CLOEXEC) != 0) {
      throw std::runtime_error(fmt::format("cannot create a pipe: {}", std::strerror(errno)));
    }
    progress_[w].position.store(~std::uint64_t{0});
    progress_[w].started_ns.store(now_ns());
    std::cout.flush();  // or the child would inherit (and later print) buffered output
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error(fmt::format("cannot fork: {}", std::strerror(errno)));
    if (pid == 0) {
      for (const auto& other : workers_) {
        if (other.to_child >= 0) ::close(other.to_child);
        if (other.from_child >= 0) ::close(other.from_child);
      }
      ::close(to[1]);
      ::close(from[0]);
      worker_main(component_, requirement_, indices_, to[0], from[1], progress_[w],
                  options_.timeout_seconds, MeasureNeeds::of(requirement_, options_.series),
                  temp_.folder());
    }
    ::setpgid(pid, pid);
    ::close(to[0]);
    ::close(from[1]);
    worker.pid = pid;
    worker.to_child = to[1];
    worker.from_child = from[0];
    worker.inbox.clear();
    worker.inbox_offset = 0;
  }

  // The worker and whatever it started in its group.
  static void kill_worker(pid_t pid) {
    if (::kill(-pid, SIGKILL) != 0) ::kill(pid, SIGKILL);
  }

  // Also the process group a component started for the worker's point (a `command` program
  // leads its own group, so killing the worker's group leaves it and its children running).
  void stop_worker(std::size_t w) {
    Worker& worker = workers_[w];
    if (const int group = progress_[w].note.process_group.load(std::memory_order_acquire);
        group > 0) {
      ::kill(-group, SIGKILL);
    }
    if (worker.pid > 0) {
      kill_worker(worker.pid);
      int status = 0;
      ::waitpid(worker.pid, &status, 0);
    }
    close_pipes(worker);
  }

  static void close_pipes(Worker& worker) {
    if (worker.to_child >= 0) ::close(worker.to_child);
    if (worker.from_child >= 0) ::close(worker.from_child);
    worker = Worker{};
  }

  // Guided scheduling: chunks shrink as the work runs out, so the jobs finish together.
  // Returns false when the worker turned out to be dead (its chunks went back to pending_).
  bool assign(std::size_t w) {
    std::size_t remaining = 0;
    for (const auto& [b, e] : pending_) remaining += e - b;
    const std::size_t chunk =
        std::clamp<std::size_t>(remaining / (4 * workers_.size()), 1, kMaxChunk);
    auto& [begin, end] = pending_.front();
    const std::size_t take = std::min(chunk, end - begin);
    Worker& worker = workers_[w];
    if (worker.pid <= 0) spawn(w);
    const Chunk chunk_sent{begin, begin + take};
    begin += take;
    if (begin == end) pending_.pop_front();
    const Request request{chunk_sent.first, chunk_sent.second};
    if (!write_all(worker.to_child, reinterpret_cast<const char*>(&request), sizeof request)) {
      // It died: this chunk never ran. With a chunk still in flight, receive() reads what the
      // worker sent before it died and then reports the death; otherwise reap it now.
      pending_.push_front(chunk_sent);
      if (!worker.busy()) worker_died(w);
      return false;
    }
    if (worker.chunks.empty()) worker.received = chunk_sent.first;
    worker.chunks.push_back(chunk_sent);
    return true;
  }

  void receive(std::size_t w) {
    Worker& worker = workers_[w];
    char buffer[64 * 1024];
    const ssize_t got = ::read(worker.from_child, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) return;
    if (got <= 0) {
      worker_died(w);
      return;
    }
    worker.inbox.append(buffer, static_cast<std::size_t>(got));
    while (auto d = wire::take(worker.inbox, worker.inbox_offset)) {
      worker.received = d->position + 1;
      if (worker.received >= worker.chunks.front().second) {
        worker.chunks.pop_front();
        if (!worker.chunks.empty()) worker.received = worker.chunks.front().first;
      }
      if (d->position == emitted_ && ready_.empty()) {
        ++emitted_;  // the common case, in order: no detour through the reorder buffer
        sink_(d->point);
      } else {
        ready_.emplace(d->position, std::move(d->point));
      }
    }
    if (worker.inbox_offset > 0 && worker.inbox_offset == worker.inbox.size()) {
      worker.inbox.clear();
      worker.inbox_offset = 0;
    }
  }

  // The point the worker was on when it ended: the one it published, if it belongs to the
  // chunk and has not been received; else the first one not received.
  std::size_t culprit(std::size_t w) {
    const Worker& worker = workers_[w];
    const auto position = progress_[w].position.load(std::memory_order_acquire);
    if (position >= worker.received && position < worker.chunks.front().second) {
      return static_cast<std::size_t>(position);
    }
    return worker.received;
  }

  void worker_died(std::size_t w) {
    Worker& worker = workers_[w];
    int status = 0;
    ::waitpid(worker.pid, &status, 0);
    // What it started may outlive it; a group id stays unused while members remain.
    ::kill(-worker.pid, SIGKILL);
    worker.pid = -1;
    if (worker.busy()) {
      fail(w, culprit(w), with_note(describe_exit(status), w), 0.0);
    } else {
      close_pipes(worker);
    }
  }

  void check_timeouts() {
    const auto limit =
        static_cast<std::int64_t>(std::min(options_.timeout_seconds, kMaxTimeoutSeconds) * 1e9);
    const std::int64_t now = now_ns();
    for (std::size_t w = 0; w < workers_.size(); ++w) {
      Worker& worker = workers_[w];
      if (!worker.busy()) continue;
      const auto position = progress_[w].position.load(std::memory_order_acquire);
      const auto started = progress_[w].started_ns.load(std::memory_order_relaxed);
      if (position < worker.received || position >= worker.chunks.front().second ||
          now - started <= limit) {
        continue;
      }
      kill_worker(worker.pid);
      int status = 0;
      ::waitpid(worker.pid, &status, 0);
      worker.pid = -1;
      fail(w, static_cast<std::size_t>(position),
           with_note(fmt::format("timed out after {} s (the worker was killed)",
                                 options_.timeout_seconds),
                     w),
           static_cast<double>(now - started) * 1e-9);
    }
  }

  // The reason a worker's point failed, followed by what its component last noted; a process
  // group the component started for the point goes with the worker.
  std::string with_note(std::string reason, std::size_t w) {
    if (const int group = progress_[w].note.process_group.load(std::memory_order_acquire);
        group > 0) {
      ::kill(-group, SIGKILL);
    }
    const std::string note = progress_[w].note.read();
    if (note.empty()) return reason;
    return reason + "; " + note;
  }

  // The progress inside the points the workers are on, at most once per tick.
  void report_in_flight() {
    if (!in_flight_) return;
    const auto now = Clock::now();
    if (now - last_in_flight_ < std::chrono::milliseconds(kTickMs)) return;
    last_in_flight_ = now;
    double sum = 0.0;
    for (std::size_t w = 0; w < workers_.size(); ++w) {
      const Worker& worker = workers_[w];
      if (!worker.busy()) continue;
      const auto position = progress_[w].position.load(std::memory_order_acquire);
      if (position < worker.received || position >= worker.chunks.front().second) continue;
      sum += progress_[w].done.load(std::memory_order_relaxed);
    }
    in_flight_(sum);
  }

  // Records `bad` as an error and gives the rest of the chunk back, earliest first.
  void fail(std::size_t w, std::size_t bad, std::string message, double seconds) {
    Worker& worker = workers_[w];
    PointResult point;
    point.index = indices_[bad];
    point.error = std::move(message);
    point.seconds = seconds;
    ready_.insert_or_assign(bad, std::move(point));
    for (auto later = worker.chunks.rbegin(); later + 1 != worker.chunks.rend(); ++later) {
      pending_.push_front(*later);
    }
    const std::size_t front_end = worker.chunks.front().second;
    if (bad + 1 < front_end) pending_.emplace_front(bad + 1, front_end);
    if (worker.received < bad) pending_.emplace_front(worker.received, bad);
    close_pipes(worker);
  }

  void emit() {
    for (auto it = ready_.find(emitted_); it != ready_.end(); it = ready_.find(emitted_)) {
      PointResult point = std::move(it->second);
      ready_.erase(it);
      ++emitted_;
      sink_(point);
    }
  }

  ExecutorTemp temp_;  // removed after the destructor's body has reaped every worker
  const Component& component_;
  const Requirement& requirement_;
  const std::vector<std::size_t>& indices_;
  const RunOptions& options_;
  const PointSink& sink_;
  const InFlightSink& in_flight_;
  Clock::time_point last_in_flight_{};
  std::vector<Worker> workers_;
  SharedProgress progress_;
  IgnoreSigpipe ignore_sigpipe_;
  std::deque<Chunk> pending_;                 // positions not yet assigned
  std::map<std::size_t, PointResult> ready_;  // received, waiting for order
  std::size_t emitted_ = 0;
};

}  // namespace

bool evaluate_in_processes(const Component& component, const Requirement& r,
                           const std::vector<std::size_t>& indices, const RunOptions& options,
                           const PointSink& sink, const InFlightSink& in_flight) {
  if (indices.empty()) return true;
  ProcessExecutor executor(component, r, indices, options, sink, in_flight);
  return executor.run();
}

}  // namespace simverify::framework
