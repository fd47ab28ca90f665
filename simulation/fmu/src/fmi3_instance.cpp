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

// The FMI 3.0 functions an instance calls (those of its interface).
struct Fmi3Functions {
  fmi3InstantiateModelExchangeFn* instantiate_model_exchange = nullptr;
  fmi3InstantiateCoSimulationFn* instantiate_co_simulation = nullptr;
  fmi3FreeInstanceFn* free_instance = nullptr;
  fmi3EnterInitializationModeFn* enter_initialization = nullptr;
  fmi3ExitInitializationModeFn* exit_initialization = nullptr;
  fmi3TerminateFn* terminate = nullptr;
  fmi3GetFloat64Fn* get_float64 = nullptr;
  fmi3SetFloat64Fn* set_float64 = nullptr;
  fmi3GetDirectionalDerivativeFn* directional = nullptr;
  fmi3EnterEventModeFn* enter_event_mode = nullptr;
  fmi3UpdateDiscreteStatesFn* update_discrete = nullptr;
  fmi3EnterContinuousTimeModeFn* enter_continuous = nullptr;
  fmi3CompletedIntegratorStepFn* completed_step = nullptr;
  fmi3SetTimeFn* set_time = nullptr;
  fmi3SetContinuousStatesFn* set_states = nullptr;
  fmi3GetContinuousStateDerivativesFn* get_derivatives = nullptr;
  fmi3GetEventIndicatorsFn* get_indicators = nullptr;
  fmi3GetContinuousStatesFn* get_states = nullptr;
  fmi3DoStepFn* do_step = nullptr;
};

// What every FMI 3.0 instance of an FMU's interface needs from its binary and folder, made once
// per FMU and interface (Fmu::shared): a run only copies it.
struct Fmi3Binary {
  Fmi3Functions functions;
  std::string resources;  // resourcePath: the resources folder, '/' at the end (FMI 3.0 2.3.1)
};

std::shared_ptr<const void> make_fmi3_binary(const Fmu& fmu, Interface interface) {
  const auto load = [&]<class F>(F*& f, const char* name) {
    f = required_function<F>(fmu, interface, name);
  };
  auto binary = std::make_shared<Fmi3Binary>();
  Fmi3Functions& f = binary->functions;
  load(f.free_instance, "fmi3FreeInstance");
  load(f.enter_initialization, "fmi3EnterInitializationMode");
  load(f.exit_initialization, "fmi3ExitInitializationMode");
  load(f.terminate, "fmi3Terminate");
  load(f.get_float64, "fmi3GetFloat64");
  load(f.set_float64, "fmi3SetFloat64");
  if (fmu.description().capabilities(interface)->provides_directional_derivatives) {
    load(f.directional, "fmi3GetDirectionalDerivative");
  }
  if (interface == Interface::model_exchange) {
    load(f.enter_event_mode, "fmi3EnterEventMode");
    load(f.update_discrete, "fmi3UpdateDiscreteStates");
    load(f.enter_continuous, "fmi3EnterContinuousTimeMode");
    load(f.completed_step, "fmi3CompletedIntegratorStep");
    load(f.set_time, "fmi3SetTime");
    load(f.set_states, "fmi3SetContinuousStates");
    load(f.get_derivatives, "fmi3GetContinuousStateDerivatives");
    load(f.get_indicators, "fmi3GetEventIndicators");
    load(f.get_states, "fmi3GetContinuousStates");
    load(f.instantiate_model_exchange, "fmi3InstantiateModelExchange");
  } else {
    load(f.do_step, "fmi3DoStep");
    load(f.instantiate_co_simulation, "fmi3InstantiateCoSimulation");
  }
  binary->resources = fmu.resources().string() + "/";
  return binary;
}

class Fmi3Instance final : public Instance {
 public:
  Fmi3Instance(std::shared_ptr<const Fmu> fmu, Interface interface, LogObserver observer)
      : Instance(std::move(fmu), interface, std::move(observer)) {
    const bool me = interface == Interface::model_exchange;
    const auto binary =
        std::static_pointer_cast<const Fmi3Binary>(fmu_->shared(interface, make_fmi3_binary));
    fn_ = binary->functions;
    const ModelDescription& d = fmu_->description();
    const char* const resources = binary->resources.c_str();
    const std::string& name = d.capabilities(interface)->model_identifier;
    if (me) {
      instance_ = fn_.instantiate_model_exchange(name.c_str(), d.token.c_str(), resources, false,
                                                 true, &log_, fmi3_log_message);
    } else {
      instance_ =
          fn_.instantiate_co_simulation(name.c_str(), d.token.c_str(), resources, false, true,
                                        false, false, nullptr, 0, &log_, fmi3_log_message, nullptr);
    }
    if (instance_ == nullptr) {
      fatal_ = true;  // nothing to free
      fail(me ? "fmi3InstantiateModelExchange" : "fmi3InstantiateCoSimulation",
           "no instance (NULL)");
    }
  }

  ~Fmi3Instance() override {
    if (instance_ == nullptr || fatal_) return;
    if (initialized_ && !broken_) fn_.terminate(instance_);
    fn_.free_instance(instance_);
  }

  void enter_initialization(double t0, std::optional<double> tf,
                            std::optional<double> tolerance) override {
    time_ = t0;
    check(fn_.enter_initialization(instance_, tolerance.has_value(), tolerance.value_or(0.0), t0,
                                   tf.has_value(), tf.value_or(0.0)),
          "fmi3EnterInitializationMode");
    initialized_ = true;
  }
  void exit_initialization() override {
    check(fn_.exit_initialization(instance_), "fmi3ExitInitializationMode");
  }
  void set_reals(std::span<const std::uint32_t> references,
                 std::span<const double> values) override {
    if (references.empty()) return;
    check(fn_.set_float64(instance_, references.data(), references.size(), values.data(),
                          values.size()),
          "fmi3SetFloat64");
  }
  void get_reals(std::span<const std::uint32_t> references, std::span<double> values) override {
    if (references.empty()) return;
    check(fn_.get_float64(instance_, references.data(), references.size(), values.data(),
                          values.size()),
          "fmi3GetFloat64");
  }
  void directional_derivative(std::span<const std::uint32_t> unknowns,
                              std::span<const std::uint32_t> knowns, std::span<const double> seed,
                              std::span<double> sensitivity) override {
    check(fn_.directional(instance_, unknowns.data(), unknowns.size(), knowns.data(), knowns.size(),
                          seed.data(), seed.size(), sensitivity.data(), sensitivity.size()),
          "fmi3GetDirectionalDerivative");
  }

  void enter_event_mode() override { check(fn_.enter_event_mode(instance_), "fmi3EnterEventMode"); }
  EventUpdate update_discrete_states() override {
    fmi3Boolean need_update = false;
    fmi3Boolean terminate = false;
    fmi3Boolean nominals_changed = false;
    fmi3Boolean values_changed = false;
    fmi3Boolean next_defined = false;
    fmi3Float64 next = 0.0;
    check(fn_.update_discrete(instance_, &need_update, &terminate, &nominals_changed,
                              &values_changed, &next_defined, &next),
          "fmi3UpdateDiscreteStates");
    EventUpdate update;
    update.discrete_states_need_update = need_update;
    update.terminate = terminate;
    update.values_of_continuous_states_changed = values_changed;
    if (next_defined) update.next_event_time = next;
    return update;
  }
  void enter_continuous_time_mode() override {
    check(fn_.enter_continuous(instance_), "fmi3EnterContinuousTimeMode");
  }
  StepCompletion completed_integrator_step() override {
    fmi3Boolean enter = false;
    fmi3Boolean terminate = false;
    check(fn_.completed_step(instance_, true, &enter, &terminate), "fmi3CompletedIntegratorStep");
    return {enter, terminate};
  }
  void set_time(double t) override {
    if (t == time_) return;
    time_ = t;
    check(fn_.set_time(instance_, t), "fmi3SetTime");
  }
  void set_states(std::span<const double> x) override {
    if (!states_differ(x)) return;
    check(fn_.set_states(instance_, x.data(), x.size()), "fmi3SetContinuousStates");
  }
  void get_states(std::span<double> x) override {
    check(fn_.get_states(instance_, x.data(), x.size()), "fmi3GetContinuousStates");
    if (x.size() == states_.size()) std::copy(x.begin(), x.end(), states_.begin());
  }
  void get_derivatives(std::span<double> dxdt) override {
    check(fn_.get_derivatives(instance_, dxdt.data(), dxdt.size()),
          "fmi3GetContinuousStateDerivatives");
  }
  void derivatives(double t, const double* x, double* dxdt) override {
    derivatives_of<0>(t, x, dxdt);
  }
  // derivatives() for N states (0: as many as states_ holds): set_time, set_states and
  // get_derivatives with n not read from the spans, fewer values to keep across the calls
  // (this runs for every f). N > 0 is the fixed-size path (plain_derivatives), where the
  // states are set without asking whether the FMU holds them already (states_to_set).
  template <std::size_t N>
  void derivatives_of(double t, const double* x, double* dxdt) {
    set_time(t);
    const std::size_t n = N > 0 ? N : states_.size();
    if (states_to_set<N>(x)) check(fn_.set_states(instance_, x, n), "fmi3SetContinuousStates");
    check(fn_.get_derivatives(instance_, dxdt, n), "fmi3GetContinuousStateDerivatives");
  }
  void get_event_indicators(std::span<double> z) override {
    check(fn_.get_indicators(instance_, z.data(), z.size()), "fmi3GetEventIndicators");
  }

  StepOutcome do_step(double t, double h) override {
    time_ = t;
    fmi3Boolean event_handling_needed = false;
    fmi3Boolean terminate = false;
    fmi3Boolean early_return = false;
    fmi3Float64 reached = t + h;
    const fmi3Status status = fn_.do_step(instance_, t, h, true, &event_handling_needed, &terminate,
                                          &early_return, &reached);
    // FMI 3.0 4.2.1: Discard with terminateSimulation is the FMU ending the simulation.
    if (terminate && (status == fmi3OK || status == fmi3Warning || status == fmi3Discard)) {
      return {true, reached};
    }
    check(status, "fmi3DoStep");
    return {false, t + h};
  }

 private:
  void check(fmi3Status status, const char* function) {
    if (status == fmi3OK || status == fmi3Warning) return;
    if (status == fmi3Fatal) fatal_ = true;
    fail(function, fmi3_status_name(status));
  }

  Fmi3Functions fn_;  // a copy: one load less per call than through the shared table
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
