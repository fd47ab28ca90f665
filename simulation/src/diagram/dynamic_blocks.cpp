// Blocks with states (seed 004 IntegrateBlock): their outputs read only their states unless
// declared feed-through (a biproper transfer function, a state space with D != 0), so they
// cut feed-through cycles the way an integrator does.
#include "block_factory.hpp"

#include <algorithm>
#include <limits>

namespace simverify::simulation::diagram::detail {
namespace {

using ConstMap = Eigen::Map<const Vector>;
using MutableMap = Eigen::Map<Vector>;

// x' = u, y = x; with `lower`/`upper` a limited integrator: the state stops at a limit (a
// zero-crossing event clamps it there) and stays while u pushes outward.
class Integrator final : public Block {
 public:
  Integrator(int x0, int lower, int upper) : x0_(x0), lower_(lower), upper_(upper) {
    states = 1;
    if (lower_ >= 0) events.push_back({"lower", EventDirection::falling});
    if (upper_ >= 0) events.push_back({"upper", EventDirection::rising});
  }
  void output(const Frame& f) const override {
    double x = f.x[state_offset];
    if (lower_ >= 0) x = std::max(x, f.p[lower_]);
    if (upper_ >= 0) x = std::min(x, f.p[upper_]);
    out(f) = x;
  }
  void derivative(const Frame& f) const override {
    const double x = f.x[state_offset];
    const double u = in(f, 0);
    const bool held = (upper_ >= 0 && x >= f.p[upper_] && u > 0.0) ||
                      (lower_ >= 0 && x <= f.p[lower_] && u < 0.0);
    f.dxdt[state_offset] = held ? 0.0 : u;
  }
  [[nodiscard]] double event(std::size_t i, const Frame& f) const override {
    return f.x[state_offset] - f.p[limit(i)];
  }
  void on_event(std::size_t i, const double* p, double* x) const override {
    x[state_offset] = p[limit(i)];
  }
  void initial_state(const double* p, double* x0) const override { x0[state_offset] = p[x0_]; }

 private:
  [[nodiscard]] int limit(std::size_t i) const {
    return events[i].name == "lower" ? lower_ : upper_;
  }
  int x0_;
  int lower_;
  int upper_;
};

// num(s)/den(s) in controllable canonical form: x1' = u - a1 x1 - ... - an xn,
// x_i' = x_{i-1}, y = sum (b_i - a_i b0) x_i + b0 u (coefficients normalized by den's lead).
class TransferFunction final : public Block {
 public:
  TransferFunction(std::vector<double> a, std::vector<double> c, double d)
      : a_(std::move(a)), c_(std::move(c)), d_(d) {
    states = static_cast<int>(a_.size());
  }
  void output(const Frame& f) const override {
    const double* x = f.x + state_offset;
    double y = inputs[0].feedthrough ? d_ * in(f, 0) : 0.0;
    for (std::size_t i = 0; i < c_.size(); ++i) y += c_[i] * x[i];
    out(f) = y;
  }
  void derivative(const Frame& f) const override {
    if (a_.empty()) return;
    const double* x = f.x + state_offset;
    double* dx = f.dxdt + state_offset;
    double x1 = in(f, 0);
    for (std::size_t i = 0; i < a_.size(); ++i) x1 -= a_[i] * x[i];
    for (std::size_t i = a_.size() - 1; i > 0; --i) dx[i] = x[i - 1];
    dx[0] = x1;
  }
  void initial_state(const double* /*p*/, double* x0) const override {
    std::fill_n(x0 + state_offset, a_.size(), 0.0);
  }

 private:
  std::vector<double> a_;
  std::vector<double> c_;
  double d_;
};

// x' = A x + B u, y = C x + D u.
class StateSpace final : public Block {
 public:
  StateSpace(Matrix a, Matrix b, Matrix c, Matrix d, Vector x0)
      : a_(std::move(a)), b_(std::move(b)), c_(std::move(c)), d_(std::move(d)), x0_(std::move(x0)) {
    states = static_cast<int>(a_.rows());
  }
  void output(const Frame& f) const override {
    MutableMap y(&out(f), c_.rows());
    y.noalias() = c_ * ConstMap(f.x + state_offset, a_.rows());
    if (inputs[0].feedthrough) y.noalias() += d_ * ConstMap(in_ptr(f, 0), d_.cols());
  }
  void derivative(const Frame& f) const override {
    MutableMap dx(f.dxdt + state_offset, a_.rows());
    dx.noalias() = a_ * ConstMap(f.x + state_offset, a_.rows());
    dx.noalias() += b_ * ConstMap(in_ptr(f, 0), b_.cols());
  }
  void initial_state(const double* /*p*/, double* x0) const override {
    std::copy(x0_.begin(), x0_.end(), x0 + state_offset);
  }

 private:
  Matrix a_, b_, c_, d_;
  Vector x0_;
};

std::vector<double> strip_leading_zeros(std::vector<double> v) {
  const auto first = std::find_if(v.begin(), v.end(), [](double c) { return c != 0.0; });
  v.erase(v.begin(), first);
  return v;
}

std::string size_text(const Matrix& m) {
  return std::to_string(m.rows()) + "x" + std::to_string(m.cols());
}

std::unique_ptr<Block> make_transfer_function(BlockBuilder& b) {
  const std::vector<double> num = strip_leading_zeros(b.list("num"));
  const std::vector<double> den = strip_leading_zeros(b.list("den"));
  if (den.empty()) b.fail(*b.spec().find("den"), "the denominator must not be zero");
  if (num.size() > den.size()) {
    b.fail(*b.spec().find("num"),
           "the transfer function must be proper (degree of num <= "
           "degree of den)");
  }
  const std::size_t n = den.size() - 1;
  std::vector<double> bn(n + 1, 0.0);  // num padded to den's length, normalized
  for (std::size_t i = 0; i < num.size(); ++i) bn[n + 1 - num.size() + i] = num[i] / den[0];
  std::vector<double> a(n);
  std::vector<double> c(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = den[i + 1] / den[0];
    c[i] = bn[i + 1] - a[i] * bn[0];
  }
  auto block = std::make_unique<TransferFunction>(std::move(a), std::move(c), bn[0]);
  block->inputs = {{"u", 1, num.size() == den.size()}};
  b.finish({"num", "den"});
  return block;
}

std::unique_ptr<Block> make_state_space(BlockBuilder& b) {
  const Matrix a = b.matrix("A");
  const Matrix bm = b.matrix("B");
  const Matrix c = b.matrix("C");
  const auto n = a.rows();
  if (a.cols() != n || n == 0) {
    b.fail(*b.spec().find("A"), "must be square, is " + size_text(a));
  }
  if (bm.rows() != n) {
    b.fail(*b.spec().find("B"),
           "must have " + std::to_string(n) + " rows (as A), is " + size_text(bm));
  }
  if (c.cols() != n) {
    b.fail(*b.spec().find("C"),
           "must have " + std::to_string(n) + " columns (as A), is " + size_text(c));
  }
  Matrix d = Matrix::Zero(c.rows(), bm.cols());
  if (b.has("D")) {
    d = b.matrix("D");
    if (d.rows() != c.rows() || d.cols() != bm.cols()) {
      b.fail(*b.spec().find("D"), "must be " + std::to_string(c.rows()) + "x" +
                                      std::to_string(bm.cols()) +
                                      " (rows of C x columns of B), is " + size_text(d));
    }
  }
  Vector x0 = Vector::Zero(n);
  if (b.has("x0")) {
    const std::vector<double> v = b.list("x0");
    if (static_cast<Eigen::Index>(v.size()) != n) {
      b.fail(*b.spec().find("x0"),
             "has " + std::to_string(v.size()) + " values, A has " + std::to_string(n) + " states");
    }
    x0 = Eigen::Map<const Vector>(v.data(), n);
  }
  const bool feedthrough = (d.array() != 0.0).any();
  const auto m = static_cast<int>(bm.cols());
  const auto p = static_cast<int>(c.rows());
  auto block = std::make_unique<StateSpace>(a, bm, c, d, x0);
  block->inputs = {{"u", m, feedthrough}};
  block->outputs = {{"y", p}};
  b.finish({"A", "B", "C", "D", "x0"});
  return block;
}

}  // namespace

std::unique_ptr<Block> make_dynamic(BlockBuilder& b) {
  const std::string& type = b.spec().type;
  if (type == "transfer_function") {
    auto block = make_transfer_function(b);
    block->outputs = {{"y"}};
    return block;
  }
  if (type == "state_space") return make_state_space(b);
  const int x0 = b.scalar_or("x0", 0.0);
  const int lower = b.optional_scalar("lower");
  const int upper = b.optional_scalar("upper");
  if (lower >= 0 && upper >= 0 && b.default_of(lower) > b.default_of(upper)) {
    b.fail(*b.spec().find("lower"), "lower must not exceed upper");
  }
  auto block = std::make_unique<Integrator>(x0, lower, upper);
  block->inputs = {{"u", 1, false}};
  block->outputs = {{"y"}};
  b.finish({"x0", "lower", "upper"});
  return block;
}

}  // namespace simverify::simulation::diagram::detail
