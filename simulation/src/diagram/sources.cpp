// Source blocks (block-diagram lecture "Quelle- und Senkenblöcke"): no inputs, one output.
#include "block_factory.hpp"
#include "linear_form.hpp"

#include <algorithm>
#include <limits>

namespace simverify::simulation::diagram::detail {
namespace {

class Constant final : public Block {
 public:
  explicit Constant(int value) : value_(value) {}
  void output(const Frame& f) const override { out(f) = f.p[value_]; }
  bool affine_output(AffineForms& forms) const override {
    forms.output(*this, 0)[AffineForms::constant()] = forms.parameter(value_);
    return true;
  }

 private:
  int value_;
};

// The requirement's u (one inport) or u.<name> (several).
class Inport final : public Block {
 public:
  explicit Inport(int position) : index_(position) {}
  void output(const Frame& f) const override {
    out(f, 0) = f.u[index_].value;
    out(f, 1) = f.u[index_].derivative;
  }
  bool affine_output(AffineForms& forms) const override {
    forms.output(*this, 0)[forms.inport(index_, false)] = 1.0;
    forms.output(*this, 1)[forms.inport(index_, true)] = 1.0;
    return true;
  }
  [[nodiscard]] int inport() const override { return index_; }

 private:
  int index_;
};

class Clock final : public Block {
 public:
  void output(const Frame& f) const override { out(f) = f.t; }
  bool affine_output(AffineForms& forms) const override {
    forms.output(*this, 0)[forms.time()] = 1.0;
    return true;
  }
};

// Any input signal of the requirement format ({step: ...}, {sine: ...}, {road: ...}, ...).
// Its jumps and kinks (a step, a ramp's start, a table's knots) are time events of the model;
// up to one it reads the value before it, as an inport reads its u.
class Signal final : public Block {
 public:
  explicit Signal(InputPtr signal) : signal_(std::move(signal)) {
    timed = signal_->next_jump(-std::numeric_limits<double>::infinity()) <
            std::numeric_limits<double>::infinity();
  }
  void output(const Frame& f) const override {
    // A smooth signal reads at t, as it always did: the same bits at other blocks' events.
    const InputSample sample = signal_->at(timed ? std::min(f.t, f.input_limit) : f.t);
    out(f, 0) = sample.value;
    out(f, 1) = sample.derivative;
  }
  [[nodiscard]] double next_breakpoint(double t, const double* /*p*/) const override {
    return signal_->next_jump(t);
  }

 private:
  InputPtr signal_;
};

}  // namespace

std::unique_ptr<Block> make_source(BlockBuilder& b, int inport_index) {
  const std::string& type = b.spec().type;
  std::unique_ptr<Block> block;
  if (type == "constant") {
    block = std::make_unique<Constant>(b.scalar("value"));
    b.finish({"value"});
  } else if (type == "inport") {
    (void)b.text_or("name", b.name());  // checked to be a text; the reader uses it
    block = std::make_unique<Inport>(inport_index);
    b.finish({"name"});
  } else if (type == "clock") {
    block = std::make_unique<Clock>();
    b.finish({});
  } else {
    if (!b.spec().signal) b.fail("missing the signal (e.g. {type: signal, step: {at: 1}})");
    block = std::make_unique<Signal>(b.spec().signal);
  }
  block->outputs = {{"y"}};
  // Input signals know their exact time derivative (the quarter car's tyre damper reads it).
  if (type == "inport" || type == "signal") block->outputs.push_back({"dydt"});
  return block;
}

}  // namespace simverify::simulation::diagram::detail

namespace simverify::simulation::diagram::detail {
namespace {

// An inport inside a subsystem: flattened into a feed-through pass-through from the signal
// that drives the subsystem's port, so loops through subsystems are seen.
class Passthrough final : public Block {
 public:
  void output(const Frame& f) const override { out(f) = in(f, 0); }
  bool affine_output(AffineForms& forms) const override {
    AffineForms::add(forms.output(*this, 0), 1.0, forms.input(*this, 0));
    return true;
  }
};

}  // namespace

std::unique_ptr<Block> make_passthrough() {
  auto block = std::make_unique<Passthrough>();
  block->inputs = {{"u"}};
  block->outputs = {{"y"}};
  return block;
}

}  // namespace simverify::simulation::diagram::detail
