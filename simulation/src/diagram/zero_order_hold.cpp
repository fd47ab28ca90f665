// The zero-order hold: samples its input at the instants t_k = k T of the sampling grid (3.7)
// and holds the sample until the next one. The held value is a state with zero derivative, so
// every method carries it and rolls it back with a rejected step; the model schedules the
// sampling instants as time events (DiagramModel::next_time_event), so the simulator ends a
// step exactly on each of them and no step straddles a sample (the multiscale grid of Def
// 3.38 / Alg 6, with the hold's T as the sampling time). Like Simulink's ZOH its input has
// direct feed-through: at a sampling instant the output is the input of that instant, so
// holds in a chain all show the same sample and the blocks after a hold are ordered after it.
#include "block_factory.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace simverify::simulation::diagram::detail {
namespace {

// Two instants closer than this fraction of T are the same sampling instant (the simulator
// lands on an instant up to rounding).
constexpr double kSameInstant = 1e-6;

class ZeroOrderHold final : public Block {
 public:
  explicit ZeroOrderHold(int period) : period_(period) {
    states = 1;
    sampled = true;
  }
  void output(const Frame& f) const override {
    const bool sampling =
        f.sampling == Sampling::all || (f.sampling == Sampling::due && on_grid(f.t, period(f.p)));
    out(f) = sampling ? in(f, 0) : f.x[state_offset];
  }
  void derivative(const Frame& f) const override { f.dxdt[state_offset] = 0.0; }
  [[nodiscard]] double next_sample(double t, const double* p) const override {
    const double sample_time = period(p);
    const double k = std::round(t / sample_time);
    const double after = std::abs(t - k * sample_time) <= kSameInstant * sample_time
                             ? k + 1.0
                             : std::ceil(t / sample_time);
    return after * sample_time;
  }
  void take_sample(const Frame& f, double* x) const override {
    if (f.sampling == Sampling::all || on_grid(f.t, period(f.p))) x[state_offset] = out(f);
  }
  void initial_state(const double* /*p*/, double* x0) const override { x0[state_offset] = 0.0; }
  [[nodiscard]] double sample_period(const double* p) const override { return p[period_]; }
  [[nodiscard]] std::string misfit(const double* p) const override {
    const double sample_time = p[period_];
    if (sample_time > 0.0 && std::isfinite(sample_time)) return {};
    std::ostringstream out;
    out << "the sample time T must be a positive number, is " << sample_time;
    return out.str();
  }

 private:
  [[nodiscard]] double period(const double* p) const {
    const double sample_time = p[period_];
    if (!(sample_time > 0.0) || !std::isfinite(sample_time)) {
      throw std::runtime_error("zero_order_hold '" + name +
                               "': the sample time T must be > 0, is " +
                               std::to_string(sample_time));
    }
    return sample_time;
  }
  [[nodiscard]] static bool on_grid(double t, double sample_time) {
    return std::abs(t - std::round(t / sample_time) * sample_time) <= kSameInstant * sample_time;
  }
  int period_;
};

}  // namespace

std::unique_ptr<Block> make_zero_order_hold(BlockBuilder& b) {
  const int period = b.scalar("T");
  if (!(b.default_of(period) > 0.0) || !std::isfinite(b.default_of(period))) {
    b.fail(*b.spec().find("T"), "the sample time must be a positive number");
  }
  auto block = std::make_unique<ZeroOrderHold>(period);
  block->inputs = {{"u", 1, true}};
  block->outputs = {{"y"}};
  b.finish({"T"});
  return block;
}

}  // namespace simverify::simulation::diagram::detail
