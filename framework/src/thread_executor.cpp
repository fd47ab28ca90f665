// Isolation::none: a pool of threads in this process. Points are handed out in chunks; results
// are passed on in grid order from the calling thread (listeners are single-threaded), and at
// most a few chunks wait in the reorder buffer, so memory does not grow with the grid.
//
// Code in this process cannot be preempted: a point that hangs in an FMU or in C++ code keeps
// its thread forever. So when the run can be stopped (options.stop), even one job runs on a
// thread of its own and the calling thread only waits, polling the stop every 100 ms; after
// a stop, points under way get a second to end (a `command` program is killed within 0.1 s),
// and a thread still running one is abandoned: detached, noted (core::note_abandoned_thread),
// never touched again, and the run goes on to write its results. Everything the threads use
// after such a point returns is theirs (Pool) or guarded by Pool::abandon under the mutex;
// the requirement and the component must outlive them (the command line ends the process
// without destroying them, core::exit_abandoning_threads).
#include "executor.hpp"
#include "point_progress.hpp"

#include <simverify/core/interrupt.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace simverify::framework {
namespace {

constexpr auto kPoll = std::chrono::milliseconds(100);
constexpr auto kGrace = std::chrono::seconds(1);

// What the pool threads share with the calling thread; each thread holds it too, so one the
// caller abandoned still finds it.
struct Pool {
  Pool(MeasureNeeds measure_needs, std::size_t workers, const std::filesystem::path& temp_root)
      : needs(std::move(measure_needs)),
        done(std::make_unique<std::atomic<double>[]>(workers)),
        finished(workers, false),
        temp(temp_root, ".threads-", "simverify-threads-") {
    for (std::size_t w = 0; w < workers; ++w) done[w].store(std::nan(""));
  }
  std::mutex mutex;
  std::condition_variable changed;
  std::map<std::size_t, PointResult> ready;
  std::size_t next = 0, emitted = 0;
  bool abandon = false;  // set by the caller: a thread that sees it touches nothing of the caller
  const MeasureNeeds needs;
  // Each pool thread's point progress (point_progress.hpp); NaN while it has no point.
  const std::unique_ptr<std::atomic<double>[]> done;
  std::vector<bool> finished;  // the thread has returned (or is about to): joinable at once
  std::size_t running = 0;     // threads started and not finished
  std::exception_ptr failure;  // what a thread threw (the sink, with one job): the caller's
  // The points' temporary files (a `command` point's working folder, its program's TMPDIR), in
  // a folder of this executor's inside the run's staging folder on the command line: a SIGKILL
  // of the run leaves them there for the next run's sweep, not in TMPDIR. The pool owns it, so
  // an abandoned thread's point keeps its folder.
  const ExecutorTemp temp;
};

// The caller's end of the pool, holding Pool::mutex: tells the threads to stop, waits for them
// (a second after a stop; for ever when every point is done and they are only idle), joins
// those that returned and abandons the rest.
void close_pool(Pool& pool, std::unique_lock<std::mutex>& lock, std::vector<std::thread>& threads,
                bool stopping) {
  pool.abandon = true;
  pool.changed.notify_all();
  if (stopping) {
    (void)pool.changed.wait_for(lock, kGrace, [&] { return pool.running == 0; });
  } else {
    pool.changed.wait(lock, [&] { return pool.running == 0; });
  }
  const std::vector<bool> finished = pool.finished;
  lock.unlock();
  for (std::size_t w = 0; w < threads.size(); ++w) {
    if (finished[w]) {
      threads[w].join();
    } else {
      threads[w].detach();
      core::note_abandoned_thread();
    }
  }
}

}  // namespace

bool evaluate_in_threads(const Component& component, const Requirement& r,
                         const std::vector<std::size_t>& indices, const RunOptions& options,
                         const PointSink& sink, const InFlightSink& in_flight) {
  const std::size_t n = indices.size();
  const auto workers =
      std::min<std::size_t>(static_cast<std::size_t>(std::max(1, options.jobs)), n);
  const std::atomic<bool>* const stop = options.stop;
  const double timeout = options.timeout_seconds;
  auto stopped = [stop] { return stop != nullptr && stop->load(); };
  const MeasureNeeds needs = MeasureNeeds::of(r, options.series);
  if (workers == 0) return !stopped();
  if (workers == 1 && stop == nullptr) {
    // Nothing can stop the run: the calling thread computes the points itself.
    const ExecutorTemp temp(options.temp_root, ".threads-", "simverify-threads-");
    for (std::size_t k = 0; k < n; ++k) {
      PointResult p =
          evaluate_point(component, r, indices[k], timeout, &needs, stop, temp.folder());
      sink(p);
    }
    return true;
  }
  const auto pool = std::make_shared<Pool>(needs, workers, options.temp_root);
  // One job: the thread passes its results on itself, under the mutex (the caller touches no
  // listener meanwhile), so a point costs no hand-over between threads.
  const bool solo = workers == 1;
  // Back-pressure: workers wait while the reorder buffer is this far ahead of the sink.
  const std::size_t window = 64 * workers;
  // `indices` is read and `sink` called under the mutex after checking `abandon`: both are the
  // caller's, which may be gone once it abandoned the thread.
  auto work = [pool, &component, &r, &indices, &sink, n, stop, timeout, solo, window,
               stopped](std::size_t w) {
    detail::attach_point_progress(&pool->done[w]);
    std::unique_lock lock(pool->mutex);
    try {
      for (;;) {
        if (solo) {
          if (pool->abandon || pool->next >= n || stopped()) break;
        } else {
          pool->changed.wait(lock, [&] {
            return pool->abandon || pool->next >= n || pool->next < pool->emitted + window;
          });
          if (pool->abandon || pool->next >= n) break;
        }
        const std::size_t k = pool->next++;
        const std::size_t index = indices[k];
        lock.unlock();
        pool->done[w].store(0.0, std::memory_order_relaxed);
        PointResult p =
            evaluate_point(component, r, index, timeout, &pool->needs, stop, pool->temp.folder());
        pool->done[w].store(std::nan(""), std::memory_order_relaxed);
        lock.lock();
        if (pool->abandon) break;
        // A point that failed while the run was stopping may have failed of the stop (a
        // program killed): it was not evaluated, so it is not recorded.
        if (p.error && stopped()) break;
        if (solo) {
          sink(p);
          ++pool->emitted;
        } else {
          pool->ready.emplace(k, std::move(p));
        }
        pool->changed.notify_all();
      }
    } catch (...) {
      if (!lock.owns_lock()) lock.lock();
      if (!pool->abandon && !pool->failure) pool->failure = std::current_exception();
    }
    detail::attach_point_progress(nullptr);
    pool->finished[w] = true;
    --pool->running;
    pool->changed.notify_all();
  };
  const auto report_in_flight = [&] {
    if (!in_flight) return;
    double sum = 0.0;
    for (std::size_t w = 0; w < workers; ++w) {
      const double f = pool->done[w].load(std::memory_order_relaxed);
      if (f >= 0.0) sum += f;
    }
    in_flight(sum);
  };

  std::vector<std::thread> threads;
  std::unique_lock lock(pool->mutex);
  bool complete = true;
  try {
    for (std::size_t w = 0; w < workers; ++w) {
      threads.emplace_back(work, w);
      ++pool->running;  // under the mutex: the thread waits for it before it can finish
    }
    if (solo) {
      while (!pool->changed.wait_for(lock, kPoll, [&] { return pool->running == 0; })) {
        report_in_flight();
        if (stopped()) break;
      }
      complete = pool->emitted == n && !stopped();
    } else {
      while (pool->emitted < n) {
        const bool arrived = pool->changed.wait_for(
            lock, kPoll, [&] { return pool->ready.contains(pool->emitted) || pool->failure; });
        if (pool->failure) break;
        if (!arrived) report_in_flight();
        if (stopped()) {
          complete = false;
          break;
        }
        auto it = pool->ready.find(pool->emitted);
        if (it == pool->ready.end()) continue;
        PointResult p = std::move(it->second);
        pool->ready.erase(it);
        ++pool->emitted;
        pool->changed.notify_all();
        lock.unlock();
        sink(p);
        lock.lock();
      }
    }
  } catch (...) {
    // The sink threw (a results file that cannot be written), or a thread could not start:
    // the threads stop before the exception leaves, as a stopped run's do.
    if (!lock.owns_lock()) lock.lock();
    close_pool(*pool, lock, threads, true);
    throw;
  }
  close_pool(*pool, lock, threads, !complete || pool->failure != nullptr);
  if (pool->failure) std::rethrow_exception(pool->failure);
  return complete;
}

}  // namespace simverify::framework
