#pragma once
// Whether a solution method can run a model: Runge-Kutta-Nystrom methods need a model that
// declares x'' = g(t, q) (ModelInfo::second_order) with an acceleration that, for the given
// parameters, does not depend on the velocity. The Simulator checks it before a run and the
// shipped components at load time, with the same message.
#include <simverify/simulation/method_registry.hpp>
#include <simverify/simulation/model.hpp>

#include <optional>
#include <span>
#include <string>

namespace simverify::simulation {

// Nothing when `method` fits `model` with parameter values p (in the order of
// ModelInfo::parameters); otherwise why not, naming the methods that fit. Throws like
// method_info() for an unknown method.
[[nodiscard]] std::optional<std::string> method_misfit(const std::string& method,
                                                       const Model& model,
                                                       std::span<const double> p);
// The same for a method already looked up (the Simulator resolves its method once).
[[nodiscard]] std::optional<std::string> method_misfit(const MethodInfo& method, const Model& model,
                                                       std::span<const double> p);

}  // namespace simverify::simulation
