#pragma once
// The process's stop request (Ctrl-C, SIGTERM, SIGHUP): set by the command line's signal
// handler (framework's InterruptGuard, installed before anything loads), read by long work in
// any layer that has no other way to hear of it, such as unpacking an FMU while the
// requirements load. Never set in a process that installed no handler.
#include <atomic>

namespace simverify::core {

// Lock-free, so a signal handler may set it.
[[nodiscard]] std::atomic<bool>& stop_requested();

}  // namespace simverify::core
