#include "point_note.hpp"

#include <algorithm>
#include <cstring>

namespace simverify::framework {
namespace detail {
namespace {

// The one piece of global state of a worker process: its slot in the memory shared with the
// runner. Set once after fork, before any point runs.
PointNote* current_note = nullptr;

}  // namespace

void attach_point_note(PointNote* note) {
  current_note = note;
}

std::string PointNote::read() const {
  const std::uint32_t n = std::min<std::uint32_t>(length.load(std::memory_order_acquire),
                                                  static_cast<std::uint32_t>(kMaxPointNote));
  return {text, n};
}

}  // namespace detail

void note_for_point(std::string_view text) {
  detail::PointNote* note = detail::current_note;
  if (note == nullptr) return;
  if (text.size() > kMaxPointNote) text = text.substr(text.size() - kMaxPointNote);
  note->length.store(0, std::memory_order_release);  // a reader never sees a torn copy as whole
  std::memcpy(note->text, text.data(), text.size());
  note->length.store(static_cast<std::uint32_t>(text.size()), std::memory_order_release);
}

void note_point_process_group(int process_group) {
  if (detail::PointNote* note = detail::current_note) {
    note->process_group.store(process_group, std::memory_order_release);
  }
}

}  // namespace simverify::framework
