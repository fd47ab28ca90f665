#pragma once
// A note a component leaves about the grid point it is evaluating, for the error text when the
// point ends its worker process (a crash, or a hang past --timeout): the runner reports the
// signal or the timeout followed by the last note of that point. The shipped components note
// what an FMU logged; an own component may note the phase it is in.
//
// Cheap (a copy into memory shared with the runner, at most kMaxPointNote bytes kept) and a
// no-op outside the runner's worker processes (--isolation none, tests, other programs).
#include <cstddef>
#include <string_view>

namespace simverify::framework {

inline constexpr std::size_t kMaxPointNote = 2048;

// Replaces the point's note (the last kMaxPointNote bytes of `text` are kept).
void note_for_point(std::string_view text);

// A process group the point's component started (a program it runs, `command`): if the
// point ends its worker, the runner kills that group too, so nothing it started outlives
// the point. 0 when the group has ended.
void note_point_process_group(int process_group);

}  // namespace simverify::framework
