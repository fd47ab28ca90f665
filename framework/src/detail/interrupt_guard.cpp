#include "interrupt_guard.hpp"

#include <simverify/core/interrupt.hpp>

namespace simverify::framework::detail {
namespace {

// The one piece of global mutable state besides the registries, in core so that work in the
// simulation layer (an FMU unpacking while requirements load) sees it too.
std::atomic<bool>& g_interrupted = core::stop_requested();

extern "C" void on_interrupt(int sig) {
  g_interrupted.store(true);
  std::signal(sig, SIG_DFL);  // a second Ctrl-C ends the process at once
}

}  // namespace

InterruptGuard::InterruptGuard() {
  g_interrupted.store(false);
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: poll() in the executor wakes up at once
  ::sigaction(SIGINT, &action, &old_int_);
  ::sigaction(SIGTERM, &action, &old_term_);
  ::sigaction(SIGHUP, &action, &old_hup_);
}

InterruptGuard::~InterruptGuard() {
  ::sigaction(SIGINT, &old_int_, nullptr);
  ::sigaction(SIGTERM, &old_term_, nullptr);
  ::sigaction(SIGHUP, &old_hup_, nullptr);
}

const std::atomic<bool>& InterruptGuard::flag() const {
  return g_interrupted;
}

}  // namespace simverify::framework::detail
