#pragma once
// The outcome of one simulator run (Alg 7): states at accepted steps or requested output
// times, never at rejected or stage states, plus events and statistics.
#include <simverify/simulation/stepper.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace simverify::simulation {

struct Trajectory {
  std::vector<double> time;
  std::vector<Vector> states;
  std::vector<Vector> outputs;  // y = h(t, x, u, p) at the same times (when recorded)

  [[nodiscard]] std::size_t size() const { return time.size(); }
  void append(double t, const Vector& x) {
    time.push_back(t);
    states.push_back(x);
  }
};

struct EventRecord {
  double time = 0.0;
  std::size_t index = 0;  // into ModelInfo::events
  std::string name;
  Vector state;  // x at the event, before the model's action
  int mode_before = 0;
  int mode_after = 0;
};

struct RunStatistics {
  long steps = 0;  // accepted steps
  long rejected_steps = 0;
  std::int64_t rhs_evaluations = 0;
  std::int64_t jacobian_evaluations = 0;
  long lu_factorizations = 0;
  long event_evaluations = 0;  // calls of Model::event_value
  long time_events = 0;        // Model::on_time_event calls (scheduled events)
  long step_events = 0;        // Model::on_step_event calls (asked for by after_step)
};

// Why a run ended before tf, if it did.
enum class RunStatus { completed, terminated_by_event, zeno };

struct SimulatorResult {
  Trajectory trajectory;
  double t_end = 0.0;
  Vector x_end;
  int mode_end = 0;
  std::vector<EventRecord> events;
  RunStatistics statistics;
  bool terminated_by_event = false;
  RunStatus status = RunStatus::completed;
  std::string message;  // the reason when status is not completed
};

}  // namespace simverify::simulation
