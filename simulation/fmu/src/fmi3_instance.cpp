// An FMI 3.0 instance (FMI 3.0 chapters 2.3, 3.2 and 4.2): the functions looked up in the
// FMU's binary by their standard names, each call's status checked. Co-simulation runs
// without event mode and intermediate updates (eventModeUsed = earlyReturnAllowed = false).
#include "instance.hpp"

#include <simverify/fmu/fmi3.h>

namespace simverify::fmu::detail {
namespace {

const char* fmi3_status_name(fmi3Status status) {
  switch (status) {
    case fmi3OK: return "fmi3OK";
    case fmi3Warning: return "fmi3Warning";
    case fmi3Discard: return "fmi3Discard";
    case fmi3Error: return "fmi3Error";
    case fmi3Fatal: return "fmi3Fatal";
  }
  return "an unknown fmi3Status";
}

const char* fmi3_log_level(fmi3Status status) {
  switch (status) {
    case fmi3OK: return "info";
    case fmi3Warning: return "warning";
    case fmi3Discard: return "discard";
    case fmi3Error: return "error";
    case fmi3Fatal: return "fatal";
  }
  return "?";
}

void fmi3_log_message(fmi3InstanceEnvironment environment, fmi3Status status, fmi3String category,
                      fmi3String message) {
  if (environment == nullptr || message == nullptr) return;
  static_cast<LogBuffer*>(environment)
      ->add(fmi3_log_level(status), category ? category : "", message);
}

class Fmi3Instance final : public Instance {
 public:
  Fmi3Instance(std::shared_ptr<const Fmu> fmu, Interface interface, LogObserver observer)
      : Instance(std::move(fmu), interface, std::move(observer)) {
    const bool me = interface == Interface::model_exchange;
    free_instance_ = load<fmi3FreeInstanceFn>("fmi3FreeInstance");
    enter_initialization_ = load<fmi3EnterInitializationModeFn>("fmi3EnterInitializationMode");
    exit_initialization_ = load<fmi3ExitInitializationModeFn>("fmi3ExitInitializationMode");
    terminate_ = load<fmi3TerminateFn>("fmi3Terminate");
    get_float64_ = load<fmi3GetFloat64Fn>("fmi3GetFloat64");
    set_float64_ = load<fmi3SetFloat64Fn>("fmi3SetFloat64");
    if (fmu_->description().capabilities(interface)->provides_directional_derivatives) {
      directional_ = load<fmi3GetDirectionalDerivativeFn>("fmi3GetDirectionalDerivative");
    }
    const ModelDescription& d = fmu_->description();
    const std::string resources = fmu_->resources().string() + "/";  // FMI 3.0 2.3.1
    const std::string& name = d.capabilities(interface)->model_identifier;
    if (me) {
      enter_event_mode_ = load<fmi3EnterEventModeFn>("fmi3EnterEventMode");
      update_discrete_ = load<fmi3UpdateDiscreteStatesFn>("fmi3UpdateDiscreteStates");
      enter_continuous_ = load<fmi3EnterContinuousTimeModeFn>("fmi3EnterContinuousTimeMode");
      completed_step_ = load<fmi3CompletedIntegratorStepFn>("fmi3CompletedIntegratorStep");
      set_time_ = load<fmi3SetTimeFn>("fmi3SetTime");
      set_states_ = load<fmi3SetContinuousStatesFn>("fmi3SetContinuousStates");
      get_derivatives_ =
          load<fmi3GetContinuousStateDerivativesFn>("fmi3GetContinuousStateDerivatives");
      get_indicators_ = load<fmi3GetEventIndicatorsFn>("fmi3GetEventIndicators");
      get_states_ = load<fmi3GetContinuousStatesFn>("fmi3GetContinuousStates");
      const auto instantiate = load<fmi3InstantiateModelExchangeFn>("fmi3InstantiateModelExchange");
      instance_ = instantiate(name.c_str(), d.token.c_str(), resources.c_str(), false, true, &log_,
                              fmi3_log_message);
    } else {
      do_step_ = load<fmi3DoStepFn>("fmi3DoStep");
      const auto instantiate = load<fmi3InstantiateCoSimulationFn>("fmi3InstantiateCoSimulation");
      instance_ = instantiate(name.c_str(), d.token.c_str(), resources.c_str(), false, true, false,
                              false, nullptr, 0, &log_, fmi3_log_message, nullptr);
    }
    if (instance_ == nullptr) {
      fatal_ = true;  // nothing to free
      fail(me ? "fmi3InstantiateModelExchange" : "fmi3InstantiateCoSimulation",
           "no instance (NULL)");
    }
  }

  ~Fmi3Instance() override {
    if (instance_ == nullptr || fatal_) return;
    if (initialized_ && !broken_) terminate_(instance_);
    free_instance_(instance_);
  }

  void enter_initialization(double t0, std::optional<double> tf,
                            std::optional<double> tolerance) override {
    time_ = t0;
    check(enter_initialization_(instance_, tolerance.has_value(), tolerance.value_or(0.0), t0,
                                tf.has_value(), tf.value_or(0.0)),
          "fmi3EnterInitializationMode");
    initialized_ = true;
  }
  void exit_initialization() override {
    check(exit_initialization_(instance_), "fmi3ExitInitializationMode");
  }
  void set_reals(std::span<const std::uint32_t> references,
                 std::span<const double> values) override {
    if (references.empty()) return;
    check(
        set_float64_(instance_, references.data(), references.size(), values.data(), values.size()),
        "fmi3SetFloat64");
  }
  void get_reals(std::span<const std::uint32_t> references, std::span<double> values) override {
    if (references.empty()) return;
    check(
        get_float64_(instance_, references.data(), references.size(), values.data(), values.size()),
        "fmi3GetFloat64");
  }
  void directional_derivative(std::span<const std::uint32_t> unknowns,
                              std::span<const std::uint32_t> knowns, std::span<const double> seed,
                              std::span<double> sensitivity) override {
    check(directional_(instance_, unknowns.data(), unknowns.size(), knowns.data(), knowns.size(),
                       seed.data(), seed.size(), sensitivity.data(), sensitivity.size()),
          "fmi3GetDirectionalDerivative");
  }

  void enter_event_mode() override { check(enter_event_mode_(instance_), "fmi3EnterEventMode"); }
  EventUpdate update_discrete_states() override {
    fmi3Boolean need_update = false;
    fmi3Boolean terminate = false;
    fmi3Boolean nominals_changed = false;
    fmi3Boolean values_changed = false;
    fmi3Boolean next_defined = false;
    fmi3Float64 next = 0.0;
    check(update_discrete_(instance_, &need_update, &terminate, &nominals_changed, &values_changed,
                           &next_defined, &next),
          "fmi3UpdateDiscreteStates");
    EventUpdate update;
    update.discrete_states_need_update = need_update;
    update.terminate = terminate;
    update.values_of_continuous_states_changed = values_changed;
    if (next_defined) update.next_event_time = next;
    return update;
  }
  void enter_continuous_time_mode() override {
    check(enter_continuous_(instance_), "fmi3EnterContinuousTimeMode");
  }
  StepCompletion completed_integrator_step() override {
    fmi3Boolean enter = false;
    fmi3Boolean terminate = false;
    check(completed_step_(instance_, true, &enter, &terminate), "fmi3CompletedIntegratorStep");
    return {enter, terminate};
  }
  void set_time(double t) override {
    if (t == time_) return;
    time_ = t;
    check(set_time_(instance_, t), "fmi3SetTime");
  }
  void set_states(std::span<const double> x) override {
    if (!states_differ(x)) return;
    check(set_states_(instance_, x.data(), x.size()), "fmi3SetContinuousStates");
  }
  void get_states(std::span<double> x) override {
    check(get_states_(instance_, x.data(), x.size()), "fmi3GetContinuousStates");
    if (x.size() == states_.size()) std::copy(x.begin(), x.end(), states_.begin());
  }
  void get_derivatives(std::span<double> dxdt) override {
    check(get_derivatives_(instance_, dxdt.data(), dxdt.size()),
          "fmi3GetContinuousStateDerivatives");
  }
  void derivatives(double t, const double* x, double* dxdt) override {
    derivatives_of<0>(t, x, dxdt);
  }
  // derivatives() for N states (0: as many as states_ holds): set_time, set_states and
  // get_derivatives with n not read from the spans, fewer values to keep across the calls
  // (this runs for every f).
  template <std::size_t N>
  void derivatives_of(double t, const double* x, double* dxdt) {
    set_time(t);
    const std::size_t n = N > 0 ? N : states_.size();
    if (states_differ<N>(x)) check(set_states_(instance_, x, n), "fmi3SetContinuousStates");
    check(get_derivatives_(instance_, dxdt, n), "fmi3GetContinuousStateDerivatives");
  }
  void get_event_indicators(std::span<double> z) override {
    check(get_indicators_(instance_, z.data(), z.size()), "fmi3GetEventIndicators");
  }

  StepOutcome do_step(double t, double h) override {
    time_ = t;
    fmi3Boolean event_handling_needed = false;
    fmi3Boolean terminate = false;
    fmi3Boolean early_return = false;
    fmi3Float64 reached = t + h;
    const fmi3Status status = do_step_(instance_, t, h, true, &event_handling_needed, &terminate,
                                       &early_return, &reached);
    // FMI 3.0 4.2.1: Discard with terminateSimulation is the FMU ending the simulation.
    if (terminate && (status == fmi3OK || status == fmi3Warning || status == fmi3Discard)) {
      return {true, reached};
    }
    check(status, "fmi3DoStep");
    return {false, t + h};
  }

 private:
  template <class F>
  F* load(const char* name) const {
    return reinterpret_cast<F*>(required(name));
  }
  void check(fmi3Status status, const char* function) {
    if (status == fmi3OK || status == fmi3Warning) return;
    if (status == fmi3Fatal) fatal_ = true;
    fail(function, fmi3_status_name(status));
  }

  fmi3FreeInstanceFn* free_instance_ = nullptr;
  fmi3EnterInitializationModeFn* enter_initialization_ = nullptr;
  fmi3ExitInitializationModeFn* exit_initialization_ = nullptr;
  fmi3TerminateFn* terminate_ = nullptr;
  fmi3GetFloat64Fn* get_float64_ = nullptr;
  fmi3SetFloat64Fn* set_float64_ = nullptr;
  fmi3GetDirectionalDerivativeFn* directional_ = nullptr;
  fmi3EnterEventModeFn* enter_event_mode_ = nullptr;
  fmi3UpdateDiscreteStatesFn* update_discrete_ = nullptr;
  fmi3EnterContinuousTimeModeFn* enter_continuous_ = nullptr;
  fmi3CompletedIntegratorStepFn* completed_step_ = nullptr;
  fmi3SetTimeFn* set_time_ = nullptr;
  fmi3SetContinuousStatesFn* set_states_ = nullptr;
  fmi3GetContinuousStateDerivativesFn* get_derivatives_ = nullptr;
  fmi3GetEventIndicatorsFn* get_indicators_ = nullptr;
  fmi3GetContinuousStatesFn* get_states_ = nullptr;
  fmi3DoStepFn* do_step_ = nullptr;
  fmi3Instance instance_ = nullptr;
};

}  // namespace

PlainDerivatives plain_derivatives_fmi3(std::size_t n) {
  return plain_derivatives_for<Fmi3Instance>(n);
}

std::unique_ptr<Instance> instantiate_fmi3(std::shared_ptr<const Fmu> fmu, Interface interface,
                                           LogObserver observer) {
  return std::make_unique<Fmi3Instance>(std::move(fmu), interface, std::move(observer));
}

}  // namespace simverify::fmu::detail
