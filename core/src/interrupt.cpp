#include <simverify/core/interrupt.hpp>

namespace simverify::core {

namespace {
// A signal handler can only reach a global; constant-initialized, so set before any code runs.
constinit std::atomic<bool> g_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free);
}  // namespace

std::atomic<bool>& stop_requested() {
  return g_requested;
}

}  // namespace simverify::core
