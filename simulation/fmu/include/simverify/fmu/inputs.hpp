#pragma once
// Input signals for an FMU's variables of causality input, by name (a requirement's u.<name>).
#include <simverify/simulation/input_signal.hpp>

#include <string>
#include <utility>
#include <vector>

namespace simverify::fmu {

using NamedInputs = std::vector<std::pair<std::string, simulation::InputPtr>>;

}  // namespace simverify::fmu
