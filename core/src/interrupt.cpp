#include <simverify/core/interrupt.hpp>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <system_error>
#include <vector>

namespace simverify::core {

namespace {
// A signal handler can only reach a global; constant-initialized, so set before any code runs.
constinit std::atomic<bool> g_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free);

constinit std::atomic<bool> g_abandoned{false};

struct Folders {
  std::mutex mutex;
  std::vector<std::filesystem::path> paths;
};
// Never destroyed: exit_abandoning_threads may run while static destructors would.
Folders& folders() {
  static auto* kept = new Folders;
  return *kept;
}
}  // namespace

void note_abandoned_thread() {
  g_abandoned.store(true);
}

bool threads_abandoned() {
  return g_abandoned.load();
}

void remove_at_abandoning_exit(const std::filesystem::path& folder) {
  Folders& f = folders();
  const std::scoped_lock lock(f.mutex);
  f.paths.push_back(folder);
}

void exit_abandoning_threads(int code) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  {
    Folders& f = folders();
    // try_lock: a thread that holds it is stuck; its folder is then left for the next sweep.
    const std::unique_lock lock(f.mutex, std::try_to_lock);
    if (lock.owns_lock()) {
      for (const auto& path : f.paths) {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
      }
    }
  }
  std::_Exit(code);
}

std::atomic<bool>& stop_requested() {
  return g_requested;
}

}  // namespace simverify::core
