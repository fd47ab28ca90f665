#include "simulation_note.hpp"

#include <fmt/format.h>

#include <simverify/framework/point_note.hpp>
#include <simverify/framework/point_progress.hpp>
#include <simverify/simulation/method_registry.hpp>

#include <memory>

namespace simverify::components {

std::string simulation_progress_note(const SimulationProgress& p) {
  const double span = p.tf - p.t0;
  std::string note = fmt::format(
      "the simulation had reached t = {:g} of tf = {:g} ({:.3g} %) in {} steps of {}, the last "
      "h = {:.3g}",
      p.t, p.tf, span > 0.0 ? 100.0 * (p.t - p.t0) / span : 100.0, p.steps, p.method, p.h);
  if (p.explicit_adaptive && p.steps > 0 && span > 0.0 && p.h < kCollapsedStep * span) {
    note += fmt::format(
        "; its steps had shrunk to {:.2g} of the horizon, as an explicit method's do on a stiff "
        "model: a stiff method (method: ode15s, ode23s, ode23tb or radau2a) takes far larger "
        "steps",
        p.h / span);
  }
  return note;
}

void observe_simulation_progress(simulation::SimulatorSettings& settings, double timeout_seconds) {
  if (!(settings.tf > settings.t0) || !framework::point_progress_read()) return;
  const double t0 = settings.t0;
  const double span = settings.tf - settings.t0;
  if (timeout_seconds <= 0.0) {
    settings.on_step = [t0, span](double /*t_start*/, double t_end,
                                  const simulation::Stepper& /*dense*/) {
      framework::report_point_progress((t_end - t0) / span);
    };
    return;
  }
  const auto& info = simulation::method_info(settings.method);
  auto progress = std::make_shared<SimulationProgress>();
  progress->method = settings.method;
  progress->explicit_adaptive = !info.implicit && info.control == simulation::StepControl::adaptive;
  progress->t0 = settings.t0;
  progress->tf = settings.tf;
  // A note every 64 steps (and at the first): a formatted line costs about a microsecond, a
  // 64th of it per step is lost in a step's cost; the note lags the run by at most 63 steps.
  settings.on_step = [progress](double t_start, double t_end,
                                const simulation::Stepper& /*dense*/) {
    SimulationProgress& p = *progress;
    framework::report_point_progress((t_end - p.t0) / (p.tf - p.t0));
    ++p.steps;
    p.t = t_end;
    p.h = t_end - t_start;
    if (p.steps % 64 == 1) framework::note_for_point(simulation_progress_note(p));
  };
}

}  // namespace simverify::components
