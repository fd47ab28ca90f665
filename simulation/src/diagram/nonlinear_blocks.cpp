// Discontinuous and nonlinear algebraic blocks. Saturation and switch declare their corners
// as zero-crossing functions, so adaptive methods stop exactly there (as Simulink's
// zero-crossing detection does) instead of stepping across a kink.
#include "block_factory.hpp"

#include <algorithm>
#include <limits>
#include <sstream>
#include <utility>

namespace simverify::simulation::diagram::detail {
namespace {

class Saturation final : public Block {
 public:
  explicit Saturation(Limits limits) : limits_(std::move(limits)) {
    events = {{"lower"}, {"upper"}};
  }
  void output(const Frame& f) const override {
    // misfit() refuses runs with lower > upper; the max keeps std::clamp defined regardless.
    const double lower = f.p[limits_.lower];
    out(f) = std::clamp(in(f, 0), lower, std::max(lower, f.p[limits_.upper]));
  }
  [[nodiscard]] double event(std::size_t i, const Frame& f) const override {
    return in(f, 0) - f.p[i == 0 ? limits_.lower : limits_.upper];
  }
  [[nodiscard]] std::string misfit(const double* p) const override { return limits_.misfit(p); }

 private:
  Limits limits_;
};

// y = u1 when control >= threshold, else u2. In a run the branch is latched (Simulink's
// zero-crossing mode): decided at the start and at each located crossing of its event
// (DiagramModel::on_event), held by every stage of a step in between, so a step that ends at
// the crossing is integrated with one branch throughout and keeps the method's order.
class Switch final : public Block {
 public:
  explicit Switch(int threshold) : threshold_(threshold) { events = {{"switch"}}; }
  void output(const Frame& f) const override {
    const bool upper = f.latched && latch >= 0 ? ((f.mode >> latch) & 1) != 0 : branch(f);
    out(f) = upper ? in(f, 0) : in(f, 2);
  }
  [[nodiscard]] bool branch(const Frame& f) const override { return in(f, 1) >= f.p[threshold_]; }
  [[nodiscard]] double event(std::size_t /*i*/, const Frame& f) const override {
    return in(f, 1) - f.p[threshold_];
  }

 private:
  int threshold_;
};

// Linear interpolation in a table, clamped to the end values outside it. The breakpoints and
// values are the run's parameters `<block>.x[i]`, `<block>.y[i]`. A table whose input is the
// clock is timed (compile()): its breakpoints are the kinks of its output in t.
class LookupTable final : public Block {
 public:
  LookupTable(Elements x, Elements y) : x_(x), y_(y) {}
  void output(const Frame& f) const override {
    const double u = in(f, 0);
    const double* x = x_.in(f.p);
    const double* y = y_.in(f.p);
    const int n = x_.size();
    if (u <= x[0]) {
      out(f) = y[0];
      return;
    }
    if (u >= x[n - 1]) {
      out(f) = y[n - 1];
      return;
    }
    const auto k = std::upper_bound(x, x + n, u) - x;
    const double w = (u - x[k - 1]) / (x[k] - x[k - 1]);
    out(f) = y[k - 1] + w * (y[k] - y[k - 1]);
  }
  [[nodiscard]] double next_breakpoint(double t, const double* p) const override {
    const double* x = x_.in(p);
    const double* after = std::upper_bound(x, x + x_.size(), t);
    return after == x + x_.size() ? std::numeric_limits<double>::infinity() : *after;
  }
  [[nodiscard]] std::string misfit(const double* p) const override {
    const double* x = x_.in(p);
    for (int i = 1; i < x_.size(); ++i) {
      if (!(x[i] > x[i - 1])) {
        std::ostringstream out;
        out << "x must be strictly increasing, but x[" << i << "] = " << x[i] << " follows x["
            << i - 1 << "] = " << x[i - 1];
        return out.str();
      }
    }
    return {};
  }

 private:
  Elements x_;
  Elements y_;
};

}  // namespace

std::unique_ptr<Block> make_nonlinear(BlockBuilder& b) {
  const std::string& type = b.spec().type;
  std::unique_ptr<Block> block;
  if (type == "saturation") {
    block = std::make_unique<Saturation>(b.limits(true));
    block->inputs = {{"u"}};
    b.finish({"lower", "upper"});
  } else if (type == "switch") {
    block = std::make_unique<Switch>(b.scalar_or("threshold", 0.0));
    block->inputs = {{"u1"}, {"control"}, {"u2"}};
    b.finish({"threshold"});
  } else {
    const Elements x = b.list_elements("x");
    const Elements y = b.list_elements("y");
    if (x.size() < 2) b.fail(*b.spec().find("x"), "needs at least two points");
    if (y.size() != x.size()) {
      b.fail(*b.spec().find("y"),
             "has " + std::to_string(y.size()) + " values, x has " + std::to_string(x.size()));
    }
    block = std::make_unique<LookupTable>(x, y);
    if (!block->misfit(b.table().defaults().data()).empty()) {
      b.fail(*b.spec().find("x"), "must be strictly increasing");
    }
    block->inputs = {{"u"}};
    b.finish({"x", "y"});
  }
  block->outputs = {{"y"}};
  return block;
}

}  // namespace simverify::simulation::diagram::detail
