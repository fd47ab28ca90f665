#pragma once
// Internal: one instance of an FMU, the same calls for FMI 2.0 (fmi2_instance.cpp) and FMI 3.0
// (fmi3_instance.cpp). Every call checks the status the FMU returns: Error and Fatal (and
// Discard where the standard gives it no other meaning) throw FmuError with the function, the
// time and the FMU's last log messages; after them the instance is only freed (FMI 2.0 2.1.3,
// FMI 3.0 2.2.3).
#include <simverify/fmu/fmu.hpp>
#include <simverify/fmu/log_observer.hpp>
#include <simverify/simulation/fixed_size_stepper.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace simverify::fmu::detail {

// The FMU's log messages (its logger callback), the last kKept of them.
class LogBuffer {
 public:
  explicit LogBuffer(LogObserver observer = {}) : observer_(std::move(observer)) {}
  void add(std::string_view status, std::string_view category, std::string_view message);
  // "[error] text; [warning] text", empty when the FMU logged nothing.
  [[nodiscard]] std::string text() const;

 private:
  static constexpr std::size_t kKept = 16;
  static constexpr std::size_t kMaxLength = 1000;
  std::deque<std::string> messages_;
  LogObserver observer_;
};

struct EventUpdate {
  bool discrete_states_need_update = false;
  bool terminate = false;
  bool values_of_continuous_states_changed = false;
  std::optional<double> next_event_time;
};

struct StepCompletion {
  bool enter_event_mode = false;
  bool terminate = false;
};

struct StepOutcome {
  bool terminate = false;  // the FMU ended the simulation (it may have stopped early)
  double reached = 0.0;    // the time the FMU got to
};

class Instance {
 public:
  virtual ~Instance() = default;
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  // Both interfaces.
  virtual void enter_initialization(double t0, std::optional<double> tf,
                                    std::optional<double> tolerance) = 0;
  virtual void exit_initialization() = 0;
  virtual void set_reals(std::span<const std::uint32_t> references,
                         std::span<const double> values) = 0;
  virtual void get_reals(std::span<const std::uint32_t> references, std::span<double> values) = 0;
  virtual void directional_derivative(std::span<const std::uint32_t> unknowns,
                                      std::span<const std::uint32_t> knowns,
                                      std::span<const double> seed,
                                      std::span<double> sensitivity) = 0;

  // Model exchange.
  virtual void enter_event_mode() = 0;
  virtual EventUpdate update_discrete_states() = 0;
  virtual void enter_continuous_time_mode() = 0;
  virtual StepCompletion completed_integrator_step() = 0;
  // set_time and set_states skip the FMI call when the FMU holds that time or those states
  // already (FMI 2.0 3.2.1, FMI 3.0 3.2.1: they stay until set again; get_states reads back
  // what an event changed).
  virtual void set_time(double t) = 0;
  virtual void set_states(std::span<const double> x) = 0;
  virtual void get_states(std::span<double> x) = 0;
  virtual void get_derivatives(std::span<double> dxdt) = 0;
  // One f evaluation, the three calls in one virtual call (it runs for every stage of every
  // step): set_time, set_states, get_derivatives; x and dxdt have the FMU's number of states.
  virtual void derivatives(double t, const double* x, double* dxdt) = 0;
  virtual void get_event_indicators(std::span<double> z) = 0;

  // Co-simulation.
  virtual StepOutcome do_step(double t, double h) = 0;

  [[nodiscard]] double time() const { return time_; }
  // The continuous states the FMU holds as far as this side knows (NaN where it does not).
  [[nodiscard]] std::span<const double> states() const { return states_; }
  [[nodiscard]] const LogBuffer& log() const { return log_; }

 protected:
  Instance(std::shared_ptr<const Fmu> fmu, Interface interface, LogObserver observer);
  // Throws the FmuError for a failed call (and marks the instance broken).
  [[noreturn]] void fail(const char* function, std::string_view status);
  // Whether x differs from the states the FMU holds; x becomes them. One pass that compares
  // and copies, inline: it runs for every f (a memmove of two doubles cost more than the
  // FMU's own fmi2SetTime).
  [[nodiscard]] bool states_differ(std::span<const double> x) {
    // A wrong number of states: the FMU reports it.
    return x.size() != states_.size() || (!x.empty() && states_differ(x.data()));
  }
  // x: the FMU's number of states, at least one.
  [[nodiscard]] bool states_differ(const double* x) {
    double* const held = states_.data();
    const std::size_t n = states_.size();
    bool differ = false;
    std::size_t i = 0;
    do {
      differ |= x[i] != held[i];
      held[i] = x[i];
    } while (++i < n);
    return differ;
  }

  // Whether f must hand the FMU x (x becomes the states it holds). N == 0, the generic path:
  // only when x differs from them. N > 0, the fixed-size path: always, without comparing; a
  // stage is a new point every time there (FSAL reuses the last stage's derivatives, a
  // rejected step's retry the first's), so comparing would cost each f more than the rare
  // repeat (a run's first f, the first after an event) saves.
  template <std::size_t N>
  [[nodiscard]] bool states_to_set(const double* x) {
    if constexpr (N > 0) {
      std::copy_n(x, N, states_.data());
      return true;
    } else {
      return states_differ(x);
    }
  }

  std::shared_ptr<const Fmu> fmu_;
  Interface interface_;
  LogBuffer log_;
  double time_ = 0.0;           // the FMU's time: enter_initialization's t0, then set_time's
  std::vector<double> states_;  // model exchange: see states()
  bool initialized_ = false;
  bool broken_ = false;  // returned Error: only free it
  bool fatal_ = false;   // returned Fatal: do not even free it

 private:
  std::unique_lock<std::mutex> once_per_process_;
};

// A function of the FMU's binary for `interface`; throws FmuError naming it when the binary
// does not export it.
[[nodiscard]] void* required_symbol(const Fmu& fmu, Interface interface, const char* name);
template <class F>
[[nodiscard]] F* required_function(const Fmu& fmu, Interface interface, const char* name) {
  return reinterpret_cast<F*>(required_symbol(fmu, interface, name));
}

// f for the fixed-size stepper (simulation/fixed_size_stepper.hpp) of an FMU with n states:
// what Instance::derivatives does, compiled for the FMI version and n, on the instance `slot`
// points to (a const std::unique_ptr<Instance>: the model's, which each run replaces), with
// no call in between. nullptr when n is outside 1..kMaxPlainFixedSizeStates. Throws FmuError
// when the slot is empty (f before the run's initial_state or initial_mode).
using PlainDerivatives = void (*)(const void* slot, double t, const double* x, double* dxdt);
[[nodiscard]] PlainDerivatives plain_derivatives(FmiVersion version, std::size_t n);
[[nodiscard]] PlainDerivatives plain_derivatives_fmi2(std::size_t n);
[[nodiscard]] PlainDerivatives plain_derivatives_fmi3(std::size_t n);

[[noreturn]] void throw_no_instance();

// plain_derivatives for the instance class Concrete, whose derivatives_of<N> does the work.
template <class Concrete, std::size_t N>
void plain_derivatives_of(const void* slot, double t, const double* x, double* dxdt) {
  Instance* const instance = static_cast<const std::unique_ptr<Instance>*>(slot)->get();
  if (instance == nullptr) [[unlikely]]
    throw_no_instance();
  static_cast<Concrete*>(instance)->template derivatives_of<N>(t, x, dxdt);
}

template <class Concrete, std::size_t... I>
PlainDerivatives plain_derivatives_for(std::size_t n, std::index_sequence<I...> /*0..max-1*/) {
  constexpr std::array<PlainDerivatives, sizeof...(I)> kTable{
      &plain_derivatives_of<Concrete, I + 1>...};
  return n >= 1 && n <= kTable.size() ? kTable[n - 1] : nullptr;
}

template <class Concrete>
PlainDerivatives plain_derivatives_for(std::size_t n) {
  return plain_derivatives_for<Concrete>(
      n, std::make_index_sequence<simulation::kMaxPlainFixedSizeStates>{});
}

// Instantiates the FMU for `interface` (fmi2Instantiate / fmi3Instantiate...).
[[nodiscard]] std::unique_ptr<Instance> instantiate(std::shared_ptr<const Fmu> fmu,
                                                    Interface interface, LogObserver observer = {});
[[nodiscard]] std::unique_ptr<Instance> instantiate_fmi2(std::shared_ptr<const Fmu> fmu,
                                                         Interface interface, LogObserver observer);
[[nodiscard]] std::unique_ptr<Instance> instantiate_fmi3(std::shared_ptr<const Fmu> fmu,
                                                         Interface interface, LogObserver observer);

}  // namespace simverify::fmu::detail
