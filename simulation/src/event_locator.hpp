#pragma once
// Internal (do not include outside simulation/src): detection and location of zero
// crossings on one accepted step, as documented in events.hpp. All workspace is sized in
// the constructor, so searching a step does not allocate.
#include <simverify/simulation/events.hpp>
#include <simverify/simulation/model.hpp>
#include <simverify/simulation/stepper.hpp>

#include <functional>
#include <vector>

namespace simverify::simulation::detail {

class EventLocator {
 public:
  // u(t) as the run sees it (held under zero-order hold), so g sees the same input as f.
  using InputAt = std::function<InputSample(double)>;

  EventLocator(const Model& model, const EventSettings& settings, Eigen::Index dimension);

  // Event values at the start of the next step (after initialization or an event action).
  void reset(double t, const Vector& x, Context& context, const InputAt& input);

  // Searches the accepted step [t_a, t_b] whose dense output the stepper holds (x_b is the
  // end state). Returns true when a crossing was located; time(), state() and fired() then
  // describe it. Returns false when none: the end values become the next start values.
  bool search(const Stepper& stepper, double t_a, double t_b, const Vector& x_b, Context& context,
              const InputAt& input);

  [[nodiscard]] double time() const { return t_event_; }
  [[nodiscard]] const Vector& state() const { return x_event_; }
  [[nodiscard]] const std::vector<std::size_t>& fired() const { return fired_; }
  [[nodiscard]] long evaluations() const { return evaluations_; }

 private:
  double value(std::size_t index, double t, const Vector& x, Context& context,
               const InputAt& input);
  // All events at (t, x) into g_point_.
  void values(double t, const Vector& x, Context& context, const InputAt& input);
  // Illinois regula falsi on [lo, hi] where g_index changes sign (or g(hi) == 0); returns
  // the right end of the final bracket.
  double locate(std::size_t index, double lo, double g_lo, double hi, double g_hi,
                const Stepper& stepper, Context& context, const InputAt& input);
  [[nodiscard]] bool crosses(std::size_t index, double g_a, double g_b) const;

  const Model* model_;
  EventSettings settings_;
  std::size_t count_;
  std::vector<EventDirection> directions_;
  std::vector<double> g_start_;
  std::vector<double> samples_t_;      // sample times of the current step
  std::vector<double> samples_g_;      // count_ x samples, row-major by event
  std::vector<double> located_;        // right end of each event's bracket (or +inf)
  std::vector<std::size_t> interval_;  // each event's first bracketing sample interval
  std::vector<double> g_point_;        // all events at one point
  std::vector<std::size_t> fired_;
  Vector x_work_;
  Vector x_event_;
  double t_event_ = 0.0;
  long evaluations_ = 0;
};

}  // namespace simverify::simulation::detail
