#pragma once
// Who else sees an FMU's log messages. Errors carry the log anyway (FmuError); an observer
// also sees it while the FMU runs, so what it logged survives an FMU that then crashes or
// hangs (the shipped components keep it as the point's note, framework/point_note.hpp).
#include <functional>
#include <string_view>

namespace simverify::fmu {

// Called with the FMU's last messages, joined, each time it logs one.
using LogObserver = std::function<void(std::string_view messages)>;

}  // namespace simverify::fmu
