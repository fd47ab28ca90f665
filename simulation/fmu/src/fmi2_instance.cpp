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

// The FMI 2.0 functions an instance calls. Optional ones are nullptr when the binary lacks them.
struct Fmi2Functions {
  fmi2InstantiateFn* instantiate = nullptr;
  fmi2FreeInstanceFn* free_instance = nullptr;
  fmi2SetupExperimentFn* setup_experiment = nullptr;
  fmi2EnterInitializationModeFn* enter_initialization = nullptr;
  fmi2ExitInitializationModeFn* exit_initialization = nullptr;
  fmi2TerminateFn* terminate = nullptr;
  fmi2GetRealFn* get_real = nullptr;
  fmi2SetRealFn* set_real = nullptr;
  fmi2GetDirectionalDerivativeFn* directional = nullptr;
  fmi2EnterEventModeFn* enter_event_mode = nullptr;
  fmi2NewDiscreteStatesFn* new_discrete_states = nullptr;
  fmi2EnterContinuousTimeModeFn* enter_continuous = nullptr;
  fmi2CompletedIntegratorStepFn* completed_step = nullptr;
  fmi2SetTimeFn* set_time = nullptr;
  fmi2SetContinuousStatesFn* set_states = nullptr;
  fmi2GetDerivativesFn* get_derivatives = nullptr;
  fmi2GetEventIndicatorsFn* get_indicators = nullptr;
  fmi2GetContinuousStatesFn* get_states = nullptr;
  fmi2DoStepFn* do_step = nullptr;
  fmi2GetBooleanStatusFn* boolean_status = nullptr;
  fmi2GetRealStatusFn* real_status = nullptr;
};

// What every FMI 2.0 instance of an FMU's interface needs from its binary and folder, made once
// per FMU and interface (Fmu::shared): a run only copies it (looking the 18 functions up and
// writing the URI cost more than the FMU's fmi2Instantiate).
struct Fmi2Binary {
  Fmi2Functions functions;
  std::string resources;  // the fmuResourceLocation URI
};

std::shared_ptr<const void> make_fmi2_binary(const Fmu& fmu, Interface interface) {
  const auto load = [&]<class F>(F*& f, const char* name) {
    f = required_function<F>(fmu, interface, name);
  };
  auto binary = std::make_shared<Fmi2Binary>();
  Fmi2Functions& f = binary->functions;
  load(f.instantiate, "fmi2Instantiate");
  load(f.free_instance, "fmi2FreeInstance");
  load(f.setup_experiment, "fmi2SetupExperiment");
  load(f.enter_initialization, "fmi2EnterInitializationMode");
  load(f.exit_initialization, "fmi2ExitInitializationMode");
  load(f.terminate, "fmi2Terminate");
  load(f.get_real, "fmi2GetReal");
  load(f.set_real, "fmi2SetReal");
  if (fmu.description().capabilities(interface)->provides_directional_derivatives) {
    load(f.directional, "fmi2GetDirectionalDerivative");
  }
  if (interface == Interface::model_exchange) {
    load(f.enter_event_mode, "fmi2EnterEventMode");
    load(f.new_discrete_states, "fmi2NewDiscreteStates");
    load(f.enter_continuous, "fmi2EnterContinuousTimeMode");
    load(f.completed_step, "fmi2CompletedIntegratorStep");
    load(f.set_time, "fmi2SetTime");
    load(f.set_states, "fmi2SetContinuousStates");
    load(f.get_derivatives, "fmi2GetDerivatives");
    load(f.get_indicators, "fmi2GetEventIndicators");
    load(f.get_states, "fmi2GetContinuousStates");
  } else {
    load(f.do_step, "fmi2DoStep");
    // Optional: asked only after a step returned fmi2Discard (FMI 2.0 4.2.3).
    f.boolean_status =
        reinterpret_cast<fmi2GetBooleanStatusFn*>(fmu.symbol(interface, "fmi2GetBooleanStatus"));
    f.real_status =
        reinterpret_cast<fmi2GetRealStatusFn*>(fmu.symbol(interface, "fmi2GetRealStatus"));
  }
  binary->resources = file_uri(fmu.resources());
  return binary;
}

class Fmi2Instance final : public Instance {
 public:
  Fmi2Instance(std::shared_ptr<const Fmu> fmu, Interface interface, LogObserver observer)
      : Instance(std::move(fmu), interface, std::move(observer)) {
    const bool me = interface == Interface::model_exchange;
    const auto binary =
        std::static_pointer_cast<const Fmi2Binary>(fmu_->shared(interface, make_fmi2_binary));
    fn_ = binary->functions;
    callbacks_ = {fmi2_log_message, std::calloc, std::free, nullptr, &log_};
    const ModelDescription& d = fmu_->description();
    const std::string& name = d.capabilities(interface)->model_identifier;
    component_ =
        fn_.instantiate(name.c_str(), me ? fmi2ModelExchange : fmi2CoSimulation, d.token.c_str(),
                        binary->resources.c_str(), &callbacks_, fmi2False, fmi2True);
    if (component_ == nullptr) {
      fatal_ = true;  // nothing to free
      fail("fmi2Instantiate", "no instance (NULL)");
    }
  }

  ~Fmi2Instance() override {
    if (component_ == nullptr || fatal_) return;
    if (initialized_ && !broken_) fn_.terminate(component_);
    fn_.free_instance(component_);
  }

  void enter_initialization(double t0, std::optional<double> tf,
                            std::optional<double> tolerance) override {
    time_ = t0;
    check(
        fn_.setup_experiment(component_, tolerance ? fmi2True : fmi2False, tolerance.value_or(0.0),
                             t0, tf ? fmi2True : fmi2False, tf.value_or(0.0)),
        "fmi2SetupExperiment");
    check(fn_.enter_initialization(component_), "fmi2EnterInitializationMode");
    initialized_ = true;
  }
  void exit_initialization() override {
    check(fn_.exit_initialization(component_), "fmi2ExitInitializationMode");
  }
  void set_reals(std::span<const std::uint32_t> references,
                 std::span<const double> values) override {
    if (references.empty()) return;
    check(fn_.set_real(component_, references.data(), references.size(), values.data()),
          "fmi2SetReal");
  }
  void get_reals(std::span<const std::uint32_t> references, std::span<double> values) override {
    if (references.empty()) return;
    check(fn_.get_real(component_, references.data(), references.size(), values.data()),
          "fmi2GetReal");
  }
  void directional_derivative(std::span<const std::uint32_t> unknowns,
                              std::span<const std::uint32_t> knowns, std::span<const double> seed,
                              std::span<double> sensitivity) override {
    check(fn_.directional(component_, unknowns.data(), unknowns.size(), knowns.data(),
                          knowns.size(), seed.data(), sensitivity.data()),
          "fmi2GetDirectionalDerivative");
  }

  void enter_event_mode() override {
    check(fn_.enter_event_mode(component_), "fmi2EnterEventMode");
  }
  EventUpdate update_discrete_states() override {
    fmi2EventInfo info{};
    check(fn_.new_discrete_states(component_, &info), "fmi2NewDiscreteStates");
    EventUpdate update;
    update.discrete_states_need_update = info.newDiscreteStatesNeeded != fmi2False;
    update.terminate = info.terminateSimulation != fmi2False;
    update.values_of_continuous_states_changed = info.valuesOfContinuousStatesChanged != fmi2False;
    if (info.nextEventTimeDefined != fmi2False) update.next_event_time = info.nextEventTime;
    return update;
  }
  void enter_continuous_time_mode() override {
    check(fn_.enter_continuous(component_), "fmi2EnterContinuousTimeMode");
  }
  StepCompletion completed_integrator_step() override {
    fmi2Boolean enter = fmi2False;
    fmi2Boolean terminate = fmi2False;
    check(fn_.completed_step(component_, fmi2True, &enter, &terminate),
          "fmi2CompletedIntegratorStep");
    return {enter != fmi2False, terminate != fmi2False};
  }
  void set_time(double t) override {
    if (t == time_) return;
    time_ = t;
    check(fn_.set_time(component_, t), "fmi2SetTime");
  }
  void set_states(std::span<const double> x) override {
    if (!states_differ(x)) return;
    check(fn_.set_states(component_, x.data(), x.size()), "fmi2SetContinuousStates");
  }
  void get_states(std::span<double> x) override {
    check(fn_.get_states(component_, x.data(), x.size()), "fmi2GetContinuousStates");
    if (x.size() == states_.size()) std::copy(x.begin(), x.end(), states_.begin());
  }
  void get_derivatives(std::span<double> dxdt) override {
    check(fn_.get_derivatives(component_, dxdt.data(), dxdt.size()), "fmi2GetDerivatives");
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
    if (states_to_set<N>(x)) check(fn_.set_states(component_, x, n), "fmi2SetContinuousStates");
    check(fn_.get_derivatives(component_, dxdt, n), "fmi2GetDerivatives");
  }
  void get_event_indicators(std::span<double> z) override {
    check(fn_.get_indicators(component_, z.data(), z.size()), "fmi2GetEventIndicators");
  }

  StepOutcome do_step(double t, double h) override {
    time_ = t;
    const fmi2Status status = fn_.do_step(component_, t, h, fmi2True);
    if (status == fmi2Discard && fn_.boolean_status != nullptr) {
      // FMI 2.0 4.2.3: Discard with fmi2Terminated = true is the FMU ending the simulation.
      fmi2Boolean terminated = fmi2False;
      fmi2Real reached = t;
      if (fn_.boolean_status(component_, fmi2Terminated, &terminated) == fmi2OK &&
          terminated != fmi2False) {
        if (fn_.real_status == nullptr ||
            fn_.real_status(component_, fmi2LastSuccessfulTime, &reached) != fmi2OK) {
          reached = t;
        }
        return {true, reached};
      }
    }
    check(status, "fmi2DoStep");
    return {false, t + h};
  }

 private:
  void check(fmi2Status status, const char* function) {
    if (status == fmi2OK || status == fmi2Warning) return;
    if (status == fmi2Fatal) fatal_ = true;
    fail(function, fmi2_status_name(status));
  }

  Fmi2Functions fn_;  // a copy: one load less per call than through the shared table
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
