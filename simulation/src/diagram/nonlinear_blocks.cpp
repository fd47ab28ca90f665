// Discontinuous and nonlinear algebraic blocks. Saturation and switch declare their corners
// as zero-crossing functions, so adaptive methods stop exactly there (as Simulink's
// zero-crossing detection does) instead of stepping across a kink.
#include "block_factory.hpp"

#include <algorithm>

namespace simverify::simulation::diagram::detail {
namespace {

class Saturation final : public Block {
 public:
  Saturation(int lower, int upper) : lower_(lower), upper_(upper) {
    events = {{"lower"}, {"upper"}};
  }
  void output(const Frame& f) const override {
    out(f) = std::clamp(in(f, 0), f.p[lower_], std::max(f.p[lower_], f.p[upper_]));
  }
  [[nodiscard]] double event(std::size_t i, const Frame& f) const override {
    return in(f, 0) - f.p[i == 0 ? lower_ : upper_];
  }

 private:
  int lower_;
  int upper_;
};

// y = u1 when control >= threshold, else u2.
class Switch final : public Block {
 public:
  explicit Switch(int threshold) : threshold_(threshold) { events = {{"switch"}}; }
  void output(const Frame& f) const override {
    out(f) = in(f, 1) >= f.p[threshold_] ? in(f, 0) : in(f, 2);
  }
  [[nodiscard]] double event(std::size_t /*i*/, const Frame& f) const override {
    return in(f, 1) - f.p[threshold_];
  }

 private:
  int threshold_;
};

// Linear interpolation in a table, clamped to the end values outside it.
class LookupTable final : public Block {
 public:
  LookupTable(std::vector<double> x, std::vector<double> y) : x_(std::move(x)), y_(std::move(y)) {}
  void output(const Frame& f) const override {
    const double u = in(f, 0);
    if (u <= x_.front()) {
      out(f) = y_.front();
      return;
    }
    if (u >= x_.back()) {
      out(f) = y_.back();
      return;
    }
    const auto k = static_cast<std::size_t>(std::upper_bound(x_.begin(), x_.end(), u) - x_.begin());
    const double w = (u - x_[k - 1]) / (x_[k] - x_[k - 1]);
    out(f) = y_[k - 1] + w * (y_[k] - y_[k - 1]);
  }

 private:
  std::vector<double> x_;
  std::vector<double> y_;
};

}  // namespace

std::unique_ptr<Block> make_nonlinear(BlockBuilder& b) {
  const std::string& type = b.spec().type;
  std::unique_ptr<Block> block;
  if (type == "saturation") {
    const int lower = b.scalar("lower");
    const int upper = b.scalar("upper");
    if (b.default_of(lower) > b.default_of(upper)) {
      b.fail(*b.spec().find("lower"), "lower must not exceed upper");
    }
    block = std::make_unique<Saturation>(lower, upper);
    block->inputs = {{"u"}};
    b.finish({"lower", "upper"});
  } else if (type == "switch") {
    block = std::make_unique<Switch>(b.scalar_or("threshold", 0.0));
    block->inputs = {{"u1"}, {"control"}, {"u2"}};
    b.finish({"threshold"});
  } else {
    std::vector<double> x = b.list("x");
    std::vector<double> y = b.list("y");
    if (x.size() < 2) b.fail(*b.spec().find("x"), "needs at least two points");
    if (y.size() != x.size()) {
      b.fail(*b.spec().find("y"),
             "has " + std::to_string(y.size()) + " values, x has " + std::to_string(x.size()));
    }
    for (std::size_t i = 1; i < x.size(); ++i) {
      if (!(x[i] > x[i - 1])) b.fail(*b.spec().find("x"), "must be strictly increasing");
    }
    block = std::make_unique<LookupTable>(std::move(x), std::move(y));
    block->inputs = {{"u"}};
    b.finish({"x", "y"});
  }
  block->outputs = {{"y"}};
  return block;
}

}  // namespace simverify::simulation::diagram::detail
