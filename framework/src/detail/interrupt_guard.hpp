#pragma once
// Internal: Ctrl-C, SIGTERM and SIGHUP turned into a flag for as long as the guard lives, so a
// command stops at a safe point and leaves valid files (a run: "complete": false) or none (a
// merge: its staging folder removed). A second signal ends the process at once.
#include <atomic>
#include <csignal>

namespace simverify::framework::detail {

class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  // Set by the first of the signals.
  [[nodiscard]] const std::atomic<bool>& flag() const;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
  struct sigaction old_hup_ {};
};

}  // namespace simverify::framework::detail
