#pragma once
// An FMU's model exchange interface as a simulation::Model (FMI 2.0 chapter 3, FMI 3.0
// chapter 3): simverify's methods integrate the FMU's derivatives, its event indicators are
// state events located like the built-in models' (events.hpp), its next event time is a time
// event the steps end on, completedIntegratorStep asking for an event is a step event, and
// every event runs the FMU's event iteration until it needs no new discrete states.
// terminateSimulation ends the run. With directional derivatives the FMU gives the Jacobian,
// otherwise the implicit methods difference it.
//
// Each run of the model (Simulator::run) instantiates the FMU afresh in initial_mode and uses
// that instance until the next run: a model object serves one run at a time (one per grid
// point in the shipped components).
#include <simverify/fmu/fmu.hpp>
#include <simverify/fmu/inputs.hpp>
#include <simverify/fmu/log_observer.hpp>
#include <simverify/simulation/model.hpp>

#include <memory>

namespace simverify::fmu {

namespace detail {
class Instance;
class InputBinding;
}  // namespace detail

class ModelExchangeModel final : public simulation::Model {
 public:
  // ModelInfo: the FMU's model name, its continuous states and Real outputs by name, its
  // Real parameters (tunable or fixed) with their start values as defaults, one event per
  // event indicator, the states' start values as default x0 and the DefaultExperiment's
  // span as default tf. `inputs` drive the FMU's inputs by name (inputs.hpp); an FMU with one
  // input and no named signal takes the run's u. Throws FmuError when the FMU has no model
  // exchange interface or an input name is unknown.
  explicit ModelExchangeModel(std::shared_ptr<const Fmu> fmu, const NamedInputs& inputs = {},
                              LogObserver observer = {});
  ~ModelExchangeModel() override;
  ModelExchangeModel(const ModelExchangeModel&) = delete;
  ModelExchangeModel& operator=(const ModelExchangeModel&) = delete;

  [[nodiscard]] const simulation::ModelInfo& info() const override { return info_; }
  [[nodiscard]] const Fmu& fmu() const { return *fmu_; }

  void rhs(double t, const simulation::Vector& x, const simulation::Context& context,
           simulation::Vector& dxdt) const override;
  // The fixed-size stepper (simulation/fixed_size_stepper.hpp) with the FMU's f as its plain
  // f, for an FMU with 1..8 states and no inputs; nullptr otherwise (inputs are set at every
  // f, on the generic path). Its f needs the run's instance: evaluate it only after
  // initial_state or initial_mode (as the Simulator does).
  [[nodiscard]] std::unique_ptr<simulation::Stepper> fixed_size_stepper(
      const std::string& method, const simulation::Context& context) const override;
  void output(double t, const simulation::Vector& x, const simulation::Context& context,
              simulation::Vector& y) const override;
  [[nodiscard]] bool has_jacobian() const override;
  void jacobian(double t, const simulation::Vector& x, const simulation::Context& context,
                simulation::Matrix& dfdx) const override;
  double event_value(std::size_t index, double t, const simulation::Vector& x,
                     const simulation::Context& context) const override;
  // One call of the FMU for all indicators (the locator samples them together).
  void event_values(double t, const simulation::Vector& x, const simulation::Context& context,
                    std::span<double> g) const override;
  simulation::EventAction on_event(std::size_t index, double t, simulation::Vector& x,
                                   simulation::Context& context) const override;
  [[nodiscard]] int initial_mode(double t0, const simulation::Vector& x0,
                                 const simulation::Context& context) const override;
  [[nodiscard]] simulation::Vector initial_state(double t0,
                                                 const simulation::Context& context) const override;
  [[nodiscard]] double next_time_event(double t, const simulation::Context& context) const override;
  simulation::EventAction on_time_event(double t, simulation::Vector& x,
                                        simulation::Context& context) const override;
  [[nodiscard]] simulation::StepRequest after_step(
      double t, const simulation::Vector& x, const simulation::Context& context) const override;
  simulation::EventAction on_step_event(double t, simulation::Vector& x,
                                        simulation::Context& context) const override;

 private:
  // The run's instance: instantiated, parameters and inputs set, initialized, the first
  // event iteration done, in continuous-time mode.
  void start(double t0, const simulation::Context& context) const;
  // Time, inputs and states handed to the instance (which skips what it holds already).
  void prepare(double t, const simulation::Vector& x, const simulation::Context& context) const;
  // after_step() of a run the FMU terminated or whose FMU asks for completedIntegratorStep.
  [[gnu::noinline]] simulation::StepRequest completed_step(
      double t, const simulation::Vector& x, const simulation::Context& context) const;
  // rhs() for the first call of a run, with inputs, or into a dxdt to resize.
  [[gnu::cold]] void rhs_prepared(double t, const simulation::Vector& x,
                                  const simulation::Context& context,
                                  simulation::Vector& dxdt) const;
  // The event iteration (FMI 2.0 3.2.2, FMI 3.0 3.2.1); x receives changed states.
  simulation::EventAction handle_event(double t, simulation::Vector& x, bool enter) const;

  std::shared_ptr<const Fmu> fmu_;
  simulation::ModelInfo info_;
  std::vector<std::uint32_t> states_;
  std::vector<std::uint32_t> derivatives_;
  std::vector<std::uint32_t> outputs_;
  std::vector<std::uint32_t> parameters_;
  LogObserver observer_;
  bool needs_completed_step_ = false;
  bool directional_ = false;
  bool has_inputs_ = false;

  // One run's state (the model is const to the simulator; see the note above).
  mutable std::unique_ptr<detail::InputBinding> inputs_;
  mutable std::unique_ptr<detail::Instance> instance_;
  // rhs() goes straight to the instance for x of this size: the FMU's number of states once
  // the run's instance lives, when it has states and no inputs; -1 otherwise.
  mutable Eigen::Index direct_states_ = -1;
  mutable double next_event_ = 0.0;
  mutable bool terminated_ = false;
  mutable double indicators_time_ = 0.0;
  mutable simulation::Vector indicators_state_;
  mutable std::vector<double> indicators_;
  mutable bool indicators_valid_ = false;
  mutable double handled_event_ = 0.0;
  mutable bool handled_valid_ = false;
  // Set by start(), cleared by the first call that hands the instance anything: the run's
  // initial_mode reuses an instance initial_state just started with the same t0, parameters
  // and input instead of instantiating twice.
  mutable bool fresh_ = false;
  mutable double fresh_t0_ = 0.0;
  mutable std::vector<double> fresh_parameters_;
  mutable double fresh_input_ = 0.0;
  mutable std::vector<std::uint32_t> input_references_;
  mutable std::vector<double> input_values_;
  mutable std::vector<double> seed_;
  mutable std::vector<double> column_;
};

}  // namespace simverify::fmu
