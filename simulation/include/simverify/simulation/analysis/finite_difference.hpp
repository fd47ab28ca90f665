#pragma once
// Numerical sensitivity (Def 4.24): the derivative of a simulation output with respect to one
// input (t0, a component of x0, an input amplitude or a parameter) from perturbed runs.
#include <functional>

namespace simverify::simulation::analysis {

struct Derivative {
  double value = 0.0;
  double step = 0.0;            // the perturbation used
  double error_estimate = 0.0;  // |central - Richardson-extrapolated|, a practical error bar
};

// Central difference (f(x + s) - f(x - s)) / 2s with the step chosen to balance truncation
// (~ s^2 f''') against the noise of f (~ noise / s): s = cbrt(3 noise / |f'''|) is optimal;
// with |f'''| unknown and scaled to |x| this gives s = cbrt(noise) * max(|x|, 1).
// `noise` is the relative accuracy of f: machine epsilon for a closed form, about the
// solver tolerance for a simulation (its error does not vary smoothly with the input).
// One Richardson step with s/2 gives the error estimate.
[[nodiscard]] Derivative central_difference(const std::function<double(double)>& f, double x,
                                            double noise);

// Normalized sensitivity (x / f) df/dx: the relative change of f per relative change of x,
// so a 1% change of x changes f by about value % (Def 4.21 interpreted per unit).
[[nodiscard]] double normalized(double derivative, double x, double fx);

}  // namespace simverify::simulation::analysis
