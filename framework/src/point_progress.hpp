#pragma once
// Internal: where report_point_progress() writes, set by each worker (process or thread) for
// its lifetime; the executor reads the slots each tick and reports their sum to the listeners.
#include <simverify/framework/point_progress.hpp>

#include <atomic>

namespace simverify::framework::detail {

static_assert(std::atomic<double>::is_always_lock_free);  // shared between processes

// The slot of this thread's current point (nullptr: reports go nowhere); resets the span.
void attach_point_progress(std::atomic<double>* slot);

}  // namespace simverify::framework::detail
