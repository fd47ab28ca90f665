#pragma once
// The process's stop request (Ctrl-C, SIGTERM, SIGHUP): set by the command line's signal
// handler (framework's InterruptGuard, installed before anything loads), read by long work in
// any layer that has no other way to hear of it, such as unpacking an FMU while the
// requirements load. Never set in a process that installed no handler.
#include <atomic>
#include <filesystem>

namespace simverify::core {

// Lock-free, so a signal handler may set it.
[[nodiscard]] std::atomic<bool>& stop_requested();

// Threads left running code that cannot be stopped: a point in this process (--isolation
// none) still under way a second after the stop, an FMU call that hangs. Its thread is
// detached and noted here, so that the process ends without waiting for it and without the
// destructors that would pull its code or data away from under it (unloading the FMU's
// library): exit_abandoning_threads. Thread-safe.
void note_abandoned_thread();
[[nodiscard]] bool threads_abandoned();

// A folder exit_abandoning_threads removes (an FMU's unpacked folder, whose owner's destructor
// does not run then). Thread-safe.
void remove_at_abandoning_exit(const std::filesystem::path& folder);

// Flushes the standard streams, removes the folders given above and ends the process with
// `code`, running no destructors and no atexit handlers (std::_Exit).
[[noreturn]] void exit_abandoning_threads(int code);

}  // namespace simverify::core
