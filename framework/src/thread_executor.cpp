// Isolation::none: a pool of threads in this process. Points are handed out in chunks; results
// are passed on in grid order from the calling thread (listeners are single-threaded), and at
// most a few chunks wait in the reorder buffer, so memory does not grow with the grid.
#include "executor.hpp"
#include "point_progress.hpp"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace simverify::framework {

bool evaluate_in_threads(const Component& component, const Requirement& r,
                         const std::vector<std::size_t>& indices, const RunOptions& options,
                         const PointSink& sink, const InFlightSink& in_flight) {
  const std::size_t n = indices.size();
  const auto workers =
      std::min<std::size_t>(static_cast<std::size_t>(std::max(1, options.jobs)), n);
  auto stopped = [&] { return options.stop != nullptr && options.stop->load(); };
  const MeasureNeeds needs = MeasureNeeds::of(r, options.series);
  // The points' temporary files (a `command` point's working folder, its program's TMPDIR) go
  // into a folder of this executor's, inside the run's staging folder on the command line: a
  // SIGKILL of the run leaves them there for the next run's sweep, not in TMPDIR.
  const ExecutorTemp temp(options.temp_root, ".threads-", "simverify-threads-");
  if (workers <= 1) {
    for (std::size_t k = 0; k < n; ++k) {
      if (stopped()) return false;
      PointResult p = evaluate_point(component, r, indices[k], options.timeout_seconds, &needs,
                                     options.stop, temp.folder());
      // A point that failed while the run was stopping may have failed of the stop (a program
      // killed): it was not evaluated, so it is not recorded.
      if (p.error && stopped()) return false;
      sink(p);
    }
    return !stopped();
  }
  std::mutex mutex;
  std::condition_variable changed;
  std::map<std::size_t, PointResult> ready;
  std::size_t next = 0, emitted = 0;
  bool abandon = false;
  // Back-pressure: workers wait while the reorder buffer is this far ahead of the sink.
  const std::size_t window = 64 * workers;
  // Each pool thread's point progress (point_progress.hpp); NaN while it has no point.
  const auto done = std::make_unique<std::atomic<double>[]>(workers);
  for (std::size_t w = 0; w < workers; ++w) done[w].store(std::nan(""));
  auto work = [&](std::size_t w) {
    detail::attach_point_progress(&done[w]);
    for (;;) {
      std::size_t k = 0;
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return abandon || next >= n || next < emitted + window; });
        if (abandon || next >= n) {
          done[w].store(std::nan(""));
          return;
        }
        k = next++;
      }
      done[w].store(0.0, std::memory_order_relaxed);
      PointResult p = evaluate_point(component, r, indices[k], options.timeout_seconds, &needs,
                                     options.stop, temp.folder());
      done[w].store(std::nan(""), std::memory_order_relaxed);
      if (p.error && stopped()) return;  // as above: not evaluated
      std::scoped_lock lock(mutex);
      ready.emplace(k, std::move(p));
      changed.notify_all();
    }
  };
  std::vector<std::jthread> pool;
  for (std::size_t w = 0; w < workers; ++w) pool.emplace_back(work, w);
  bool complete = true;
  while (emitted < n) {
    std::unique_lock lock(mutex);
    const bool arrived = changed.wait_for(lock, std::chrono::milliseconds(100),
                                          [&] { return ready.contains(emitted); });
    if (!arrived && in_flight) {
      double sum = 0.0;
      for (std::size_t w = 0; w < workers; ++w) {
        const double f = done[w].load(std::memory_order_relaxed);
        if (f >= 0.0) sum += f;
      }
      in_flight(sum);
    }
    if (stopped()) {
      complete = false;
      abandon = true;
      changed.notify_all();
      break;
    }
    auto it = ready.find(emitted);
    if (it == ready.end()) continue;
    PointResult p = std::move(it->second);
    ready.erase(it);
    ++emitted;
    changed.notify_all();
    lock.unlock();
    sink(p);
  }
  return complete;
}

}  // namespace simverify::framework
