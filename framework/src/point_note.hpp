#pragma once
// Internal: where note_for_point() writes, set by a worker process for its lifetime.
#include <simverify/framework/point_note.hpp>

#include <atomic>
#include <cstdint>
#include <string>

namespace simverify::framework::detail {

struct PointNote {
  std::atomic<std::uint32_t> length{0};
  std::atomic<int> process_group{0};
  char text[kMaxPointNote]{};

  void clear() {
    length.store(0, std::memory_order_release);
    process_group.store(0, std::memory_order_release);
  }
  [[nodiscard]] std::string read() const;
};

static_assert(std::atomic<int>::is_always_lock_free);  // shared between processes

// The note of this process's current point (nullptr: notes go nowhere).
void attach_point_note(PointNote* note);

}  // namespace simverify::framework::detail
