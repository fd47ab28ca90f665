// An FMI 2.0 instance (FMI 2.0 chapters 2.1, 3.2 and 4.2): the functions looked up in the
// FMU's binary by their standard names, each call's status checked.
#include "instance.hpp"

#include <simverify/fmu/fmi2.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace simverify::fmu::detail {
namespace {

const char* fmi2_status_name(fmi2Status status) {
  switch (status) {
    case fmi2OK: return "fmi2OK";
    case fmi2Warning: return "fmi2Warning";
    case fmi2Discard: return "fmi2Discard";
    case fmi2Error: return "fmi2Error";
    case fmi2Fatal: return "fmi2Fatal";
    case fmi2Pending: return "fmi2Pending";
  }
  return "an unknown fmi2Status";
}

const char* fmi2_log_level(fmi2Status status) {
  switch (status) {
    case fmi2OK: return "info";
    case fmi2Warning: return "warning";
    case fmi2Discard: return "discard";
    case fmi2Error: return "error";
    case fmi2Fatal: return "fatal";
    case fmi2Pending: return "pending";
  }
  return "?";
}

// FMI 2.0 2.1.5: the message is a printf format for the arguments that follow.
void fmi2_log_message(fmi2ComponentEnvironment environment, fmi2String /*instance*/,
                      fmi2Status status, fmi2String category, fmi2String message, ...) {
  if (environment == nullptr || message == nullptr) return;
  char text[2048];
  va_list arguments;
  va_start(arguments, message);
  std::vsnprintf(text, sizeof text, message, arguments);
  va_end(arguments);
  static_cast<LogBuffer*>(environment)->add(fmi2_log_level(status), category ? category : "", text);
}

// FMI 2.0 2.1.6: fmuResourceLocation is a URI, file:///absolute/path/resources.
std::string file_uri(const std::filesystem::path& path) {
  std::string uri = "file://";
  for (const unsigned char c : path.string()) {
    if (std::isalnum(c) != 0 || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      uri += static_cast<char>(c);
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", c);
      uri += escaped;
    }
  }
  return uri;
}

class Fmi2Instance final : public Instance {
 public:
  Fmi2Instance(std::shared_ptr<const Fmu> fmu, Interface interface, LogObserver observer)
      : Instance(std::move(fmu), interface, std::move(observer)) {
    const bool me = interface == Interface::model_exchange;
    instantiate_ = load<fmi2InstantiateFn>("fmi2Instantiate");
    free_instance_ = load<fmi2FreeInstanceFn>("fmi2FreeInstance");
    setup_experiment_ = load<fmi2SetupExperimentFn>("fmi2SetupExperiment");
    enter_initialization_ = load<fmi2EnterInitializationModeFn>("fmi2EnterInitializationMode");
    exit_initialization_ = load<fmi2ExitInitializationModeFn>("fmi2ExitInitializationMode");
    terminate_ = load<fmi2TerminateFn>("fmi2Terminate");
    get_real_ = load<fmi2GetRealFn>("fmi2GetReal");
    set_real_ = load<fmi2SetRealFn>("fmi2SetReal");
    if (fmu_->description().capabilities(interface)->provides_directional_derivatives) {
      directional_ = load<fmi2GetDirectionalDerivativeFn>("fmi2GetDirectionalDerivative");
    }
    if (me) {
      enter_event_mode_ = load<fmi2EnterEventModeFn>("fmi2EnterEventMode");
      new_discrete_states_ = load<fmi2NewDiscreteStatesFn>("fmi2NewDiscreteStates");
      enter_continuous_ = load<fmi2EnterContinuousTimeModeFn>("fmi2EnterContinuousTimeMode");
      completed_step_ = load<fmi2CompletedIntegratorStepFn>("fmi2CompletedIntegratorStep");
      set_time_ = load<fmi2SetTimeFn>("fmi2SetTime");
      set_states_ = load<fmi2SetContinuousStatesFn>("fmi2SetContinuousStates");
      get_derivatives_ = load<fmi2GetDerivativesFn>("fmi2GetDerivatives");
      get_indicators_ = load<fmi2GetEventIndicatorsFn>("fmi2GetEventIndicators");
      get_states_ = load<fmi2GetContinuousStatesFn>("fmi2GetContinuousStates");
    } else {
      do_step_ = load<fmi2DoStepFn>("fmi2DoStep");
      // Optional: asked only after a step returned fmi2Discard (FMI 2.0 4.2.3).
      boolean_status_ = reinterpret_cast<fmi2GetBooleanStatusFn*>(
          fmu_->symbol(interface, "fmi2GetBooleanStatus"));
      real_status_ =
          reinterpret_cast<fmi2GetRealStatusFn*>(fmu_->symbol(interface, "fmi2GetRealStatus"));
    }
    callbacks_ = {fmi2_log_message, std::calloc, std::free, nullptr, &log_};
    const ModelDescription& d = fmu_->description();
    const std::string resources = file_uri(fmu_->resources());
    const std::string& name = d.capabilities(interface)->model_identifier;
    component_ = instantiate_(name.c_str(), me ? fmi2ModelExchange : fmi2CoSimulation,
                              d.token.c_str(), resources.c_str(), &callbacks_, fmi2False, fmi2True);
    if (component_ == nullptr) {
      fatal_ = true;  // nothing to free
      fail("fmi2Instantiate", "no instance (NULL)");
    }
  }

  ~Fmi2Instance() override {
    if (component_ == nullptr || fatal_) return;
    if (initialized_ && !broken_) terminate_(component_);
    free_instance_(component_);
  }

  void enter_initialization(double t0, std::optional<double> tf,
                            std::optional<double> tolerance) override {
    time_ = t0;
    check(setup_experiment_(component_, tolerance ? fmi2True : fmi2False, tolerance.value_or(0.0),
                            t0, tf ? fmi2True : fmi2False, tf.value_or(0.0)),
          "fmi2SetupExperiment");
    check(enter_initialization_(component_), "fmi2EnterInitializationMode");
    initialized_ = true;
  }
  void exit_initialization() override {
    check(exit_initialization_(component_), "fmi2ExitInitializationMode");
  }
  void set_reals(std::span<const std::uint32_t> references,
                 std::span<const double> values) override {
    if (references.empty()) return;
    check(set_real_(component_, references.data(), references.size(), values.data()),
          "fmi2SetReal");
  }
  void get_reals(std::span<const std::uint32_t> references, std::span<double> values) override {
    if (references.empty()) return;
    check(get_real_(component_, references.data(), references.size(), values.data()),
          "fmi2GetReal");
  }
  void directional_derivative(std::span<const std::uint32_t> unknowns,
                              std::span<const std::uint32_t> knowns, std::span<const double> seed,
                              std::span<double> sensitivity) override {
    check(directional_(component_, unknowns.data(), unknowns.size(), knowns.data(), knowns.size(),
                       seed.data(), sensitivity.data()),
          "fmi2GetDirectionalDerivative");
  }

  void enter_event_mode() override { check(enter_event_mode_(component_), "fmi2EnterEventMode"); }
  EventUpdate update_discrete_states() override {
    fmi2EventInfo info{};
    check(new_discrete_states_(component_, &info), "fmi2NewDiscreteStates");
    EventUpdate update;
    update.discrete_states_need_update = info.newDiscreteStatesNeeded != fmi2False;
    update.terminate = info.terminateSimulation != fmi2False;
    update.values_of_continuous_states_changed = info.valuesOfContinuousStatesChanged != fmi2False;
    if (info.nextEventTimeDefined != fmi2False) update.next_event_time = info.nextEventTime;
    return update;
  }
  void enter_continuous_time_mode() override {
    check(enter_continuous_(component_), "fmi2EnterContinuousTimeMode");
  }
  StepCompletion completed_integrator_step() override {
    fmi2Boolean enter = fmi2False;
    fmi2Boolean terminate = fmi2False;
    check(completed_step_(component_, fmi2True, &enter, &terminate), "fmi2CompletedIntegratorStep");
    return {enter != fmi2False, terminate != fmi2False};
  }
  void set_time(double t) override {
    if (t == time_) return;
    time_ = t;
    check(set_time_(component_, t), "fmi2SetTime");
  }
  void set_states(std::span<const double> x) override {
    if (!states_differ(x)) return;
    check(set_states_(component_, x.data(), x.size()), "fmi2SetContinuousStates");
  }
  void get_states(std::span<double> x) override {
    check(get_states_(component_, x.data(), x.size()), "fmi2GetContinuousStates");
    if (x.size() == states_.size()) std::copy(x.begin(), x.end(), states_.begin());
  }
  void get_derivatives(std::span<double> dxdt) override {
    check(get_derivatives_(component_, dxdt.data(), dxdt.size()), "fmi2GetDerivatives");
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
    if (states_differ<N>(x)) check(set_states_(component_, x, n), "fmi2SetContinuousStates");
    check(get_derivatives_(component_, dxdt, n), "fmi2GetDerivatives");
  }
  void get_event_indicators(std::span<double> z) override {
    check(get_indicators_(component_, z.data(), z.size()), "fmi2GetEventIndicators");
  }

  StepOutcome do_step(double t, double h) override {
    time_ = t;
    const fmi2Status status = do_step_(component_, t, h, fmi2True);
    if (status == fmi2Discard && boolean_status_ != nullptr) {
      // FMI 2.0 4.2.3: Discard with fmi2Terminated = true is the FMU ending the simulation.
      fmi2Boolean terminated = fmi2False;
      fmi2Real reached = t;
      if (boolean_status_(component_, fmi2Terminated, &terminated) == fmi2OK &&
          terminated != fmi2False) {
        if (real_status_ == nullptr ||
            real_status_(component_, fmi2LastSuccessfulTime, &reached) != fmi2OK) {
          reached = t;
        }
        return {true, reached};
      }
    }
    check(status, "fmi2DoStep");
    return {false, t + h};
  }

 private:
  template <class F>
  F* load(const char* name) const {
    return reinterpret_cast<F*>(required(name));
  }
  void check(fmi2Status status, const char* function) {
    if (status == fmi2OK || status == fmi2Warning) return;
    if (status == fmi2Fatal) fatal_ = true;
    fail(function, fmi2_status_name(status));
  }

  fmi2InstantiateFn* instantiate_ = nullptr;
  fmi2FreeInstanceFn* free_instance_ = nullptr;
  fmi2SetupExperimentFn* setup_experiment_ = nullptr;
  fmi2EnterInitializationModeFn* enter_initialization_ = nullptr;
  fmi2ExitInitializationModeFn* exit_initialization_ = nullptr;
  fmi2TerminateFn* terminate_ = nullptr;
  fmi2GetRealFn* get_real_ = nullptr;
  fmi2SetRealFn* set_real_ = nullptr;
  fmi2GetDirectionalDerivativeFn* directional_ = nullptr;
  fmi2EnterEventModeFn* enter_event_mode_ = nullptr;
  fmi2NewDiscreteStatesFn* new_discrete_states_ = nullptr;
  fmi2EnterContinuousTimeModeFn* enter_continuous_ = nullptr;
  fmi2CompletedIntegratorStepFn* completed_step_ = nullptr;
  fmi2SetTimeFn* set_time_ = nullptr;
  fmi2SetContinuousStatesFn* set_states_ = nullptr;
  fmi2GetDerivativesFn* get_derivatives_ = nullptr;
  fmi2GetEventIndicatorsFn* get_indicators_ = nullptr;
  fmi2GetContinuousStatesFn* get_states_ = nullptr;
  fmi2DoStepFn* do_step_ = nullptr;
  fmi2GetBooleanStatusFn* boolean_status_ = nullptr;
  fmi2GetRealStatusFn* real_status_ = nullptr;
  fmi2CallbackFunctions callbacks_{};  // the FMU may keep a pointer to it (FMI 2.0 2.1.5)
  fmi2Component component_ = nullptr;
};

}  // namespace

PlainDerivatives plain_derivatives_fmi2(std::size_t n) {
  return plain_derivatives_for<Fmi2Instance>(n);
}

std::unique_ptr<Instance> instantiate_fmi2(std::shared_ptr<const Fmu> fmu, Interface interface,
                                           LogObserver observer) {
  return std::make_unique<Fmi2Instance>(std::move(fmu), interface, std::move(observer));
}

}  // namespace simverify::fmu::detail
