// Algebraic blocks (block-diagram lecture GainBlock, AddBlock, ...): outputs from inputs with
// direct feed-through, no states.
#include "block_factory.hpp"
#include "linear_form.hpp"

#include <cmath>

namespace simverify::simulation::diagram::detail {
namespace {

class Gain final : public Block {
 public:
  explicit Gain(int k) : k_(k) {}
  void output(const Frame& f) const override { out(f) = f.p[k_] * in(f, 0); }
  bool affine_output(AffineForms& forms) const override {
    AffineForms::add(forms.output(*this, 0), forms.parameter(k_), forms.input(*this, 0));
    return true;
  }

 private:
  int k_;
};

// y = sum of +-u_i; signs fixed at compile time.
class Sum final : public Block {
 public:
  explicit Sum(std::vector<double> signs) : signs_(std::move(signs)) {}
  void output(const Frame& f) const override {
    double y = 0.0;
    for (std::size_t i = 0; i < signs_.size(); ++i) y += signs_[i] * in(f, i);
    out(f) = y;
  }
  bool affine_output(AffineForms& forms) const override {
    const std::span<double> y = forms.output(*this, 0);
    for (std::size_t i = 0; i < signs_.size(); ++i) {
      AffineForms::add(y, signs_[i], forms.input(*this, i));
    }
    return true;
  }

 private:
  std::vector<double> signs_;
};

// y = product of u_i (op '*') and 1/u_i (op '/').
class Product final : public Block {
 public:
  explicit Product(std::vector<bool> divide) : divide_(std::move(divide)) {}
  void output(const Frame& f) const override {
    double y = 1.0;
    for (std::size_t i = 0; i < divide_.size(); ++i) y = divide_[i] ? y / in(f, i) : y * in(f, i);
    out(f) = y;
  }

 private:
  std::vector<bool> divide_;
};

// n scalars into one vector signal (for state_space inputs).
class Mux final : public Block {
 public:
  void output(const Frame& f) const override {
    double* y = &out(f);
    for (std::size_t i = 0; i < inputs.size(); ++i) y[i] = in(f, i);
  }
  bool affine_output(AffineForms& forms) const override {
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      AffineForms::add(forms.output(*this, 0, static_cast<int>(i)), 1.0, forms.input(*this, i));
    }
    return true;
  }
};

// One vector signal into n scalars.
class Demux final : public Block {
 public:
  void output(const Frame& f) const override {
    const double* u = in_ptr(f, 0);
    for (std::size_t i = 0; i < outputs.size(); ++i) out(f, i) = u[i];
  }
  bool affine_output(AffineForms& forms) const override {
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      AffineForms::add(forms.output(*this, i), 1.0, forms.input(*this, 0, static_cast<int>(i)));
    }
    return true;
  }
};

std::vector<Port> numbered(std::size_t n, const char* prefix) {
  std::vector<Port> ports;
  for (std::size_t i = 1; i <= n; ++i) ports.push_back({prefix + std::to_string(i)});
  return ports;
}

int count_of(BlockBuilder& b) {
  // A bound before the cast to int (a larger double would not fit); far above any diagram.
  constexpr double kMaxPorts = 10000.0;
  const std::vector<double> n = b.list("n");
  if (n.size() != 1 || !(n[0] >= 1.0 && n[0] <= kMaxPorts) || n[0] != std::floor(n[0])) {
    b.fail(*b.spec().find("n"), "expected a whole number from 1 to 10000");
  }
  return static_cast<int>(n[0]);
}

}  // namespace

std::unique_ptr<Block> make_math(BlockBuilder& b) {
  const std::string& type = b.spec().type;
  std::unique_ptr<Block> block;
  if (type == "gain") {
    block = std::make_unique<Gain>(b.scalar("k"));
    block->inputs = {{"u"}};
    b.finish({"k"});
  } else if (type == "sum" || type == "product") {
    const bool sum = type == "sum";
    const char* key = sum ? "signs" : "ops";
    const std::string ops = b.text_or(key, sum ? "++" : "**");
    const std::string allowed = sum ? "+-" : "*/";
    std::vector<double> signs;
    std::vector<bool> divide;
    for (char c : ops) {
      if (allowed.find(c) == std::string::npos) {
        b.fail(*b.spec().find(key), std::string("expected a text of '") + allowed[0] + "' and '" +
                                        allowed[1] + "' (one per input), found '" + c + "'");
      }
      signs.push_back(c == '-' ? -1.0 : 1.0);
      divide.push_back(c == '/');
    }
    if (ops.empty()) b.fail(*b.spec().find(key), "needs at least one input");
    if (sum) {
      block = std::make_unique<Sum>(std::move(signs));
    } else {
      block = std::make_unique<Product>(std::move(divide));
    }
    block->inputs = numbered(ops.size(), "u");
    b.finish({key});
  } else if (type == "mux") {
    const int n = count_of(b);
    block = std::make_unique<Mux>();
    block->inputs = numbered(static_cast<std::size_t>(n), "u");
    block->outputs = {{"y", n}};
    b.finish({"n"});
    return block;
  } else {
    const int n = count_of(b);
    block = std::make_unique<Demux>();
    block->inputs = {{"u", n}};
    block->outputs = numbered(static_cast<std::size_t>(n), "y");
    b.finish({"n"});
    return block;
  }
  block->outputs = {{"y"}};
  return block;
}

}  // namespace simverify::simulation::diagram::detail
