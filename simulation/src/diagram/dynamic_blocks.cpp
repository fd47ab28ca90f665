// Blocks with states (block-diagram lecture IntegrateBlock): their outputs read only their states
// unless declared feed-through (a biproper transfer function, a state space with D != 0), so they
// cut feed-through cycles the way an integrator does.
#include "block_factory.hpp"
#include "linear_form.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace simverify::simulation::diagram::detail {
namespace {

// x' = u, y = x; with `lower`/`upper` a limited integrator: the state stops at a limit (a
// zero-crossing event clamps it there) and stays while u pushes outward. Held means within
// kBand of the limit, not only on or past it: f is discontinuous in x at the held set's edge
// (0 held, u inside), and an implicit method's difference quotient (x + delta, delta =
// sqrt(eps) max(|x|, 1), nonlinear_solver.cpp) from a state on the lower limit used to cross
// that edge: a Jacobian of about -|u| / delta, whose Newton iteration then barely moved x off
// the limit once u turned (ode23t stuck at -1 for good, ode15s late). With the band every
// quotient from the limit stays held; the event clamps the state onto the limit where it
// enters the band (at most kBand early, where the state is within kBand of the limit anyway).
class Integrator final : public Block {
 public:
  Integrator(int x0, Limits limits) : x0_(x0), limits_(std::move(limits)) {
    states = 1;
    if (limits_.lower >= 0) events.push_back({"lower", EventDirection::falling});
    if (limits_.upper >= 0) events.push_back({"upper", EventDirection::rising});
  }
  void output(const Frame& f) const override {
    double x = f.x[state_offset];
    if (limits_.lower >= 0) x = std::max(x, f.p[limits_.lower]);
    if (limits_.upper >= 0) x = std::min(x, f.p[limits_.upper]);
    out(f) = x;
  }
  void derivative(const Frame& f) const override {
    const double x = f.x[state_offset];
    const double u = in(f, 0);
    const bool held = (limits_.upper >= 0 && x >= edge(f.p, limits_.upper, -1.0) && u > 0.0) ||
                      (limits_.lower >= 0 && x <= edge(f.p, limits_.lower, 1.0) && u < 0.0);
    f.dxdt[state_offset] = held ? 0.0 : u;
  }
  // Without limits (no events): y = x, x' = u.
  bool affine_output(AffineForms& forms) const override {
    if (!events.empty()) return false;
    forms.output(*this, 0)[forms.state(state_offset)] = 1.0;
    return true;
  }
  bool affine_derivative(AffineForms& forms) const override {
    if (!events.empty()) return false;
    AffineForms::add(forms.derivative(*this, 0), 1.0, forms.input(*this, 0));
    return true;
  }
  [[nodiscard]] double event(std::size_t i, const Frame& f) const override {
    const int which = limit(i);
    return f.x[state_offset] - edge(f.p, which, which == limits_.lower ? 1.0 : -1.0);
  }
  void on_event(std::size_t i, const double* p, double* x) const override {
    x[state_offset] = p[limit(i)];
  }
  void initial_state(const double* p, double* x0) const override { x0[state_offset] = p[x0_]; }
  [[nodiscard]] std::string misfit(const double* p) const override { return limits_.misfit(p); }

 private:
  [[nodiscard]] int limit(std::size_t i) const {
    return events[i].name == "lower" ? limits_.lower : limits_.upper;
  }
  // The held set's edge: the limit moved inwards (inward = +1 for lower, -1 for upper) by
  // kBand relative to it.
  [[nodiscard]] static double edge(const double* p, int index, double inward) {
    const double limit_value = p[index];
    return limit_value + inward * kBand * std::max(std::abs(limit_value), 1.0);
  }
  // 4 sqrt(eps) (6e-8): four times the implicit methods' difference-quotient step.
  static constexpr double kBand = 4.0 * 1.4901161193847656e-08;
  int x0_;
  Limits limits_;
};

// num(s)/den(s) in controllable canonical form: x1' = u - a1 x1 - ... - an xn,
// x_i' = x_{i-1}, y = sum (b_i - a_i b0) x_i + b0 u (coefficients normalized by den's lead).
// The coefficients are the run's parameters `<block>.num[i]`, `<block>.den[i]`; the order
// and the feed-through are the file's: den's leading zeros (and num's beyond the order)
// must stay zero, den's lead nonzero (misfit()).
class TransferFunction final : public Block {
 public:
  // `den_lead`: the first nonzero of den; `num_lead`: the first num element that may be
  // nonzero (num is aligned right against den).
  TransferFunction(Elements num, Elements den, int num_lead, int den_lead)
      : num_(num), den_(den), num_lead_(num_lead), den_lead_(den_lead) {
    states = den.size() - den_lead - 1;
  }
  void output(const Frame& f) const override {
    const double* den = den_.in(f.p) + den_lead_;
    const double* x = f.x + state_offset;
    const double b0 = padded_num(f.p, 0) / den[0];
    double y = inputs[0].feedthrough ? b0 * in(f, 0) : 0.0;
    for (int i = 0; i < states; ++i) {
      y += (padded_num(f.p, i + 1) / den[0] - den[i + 1] / den[0] * b0) * x[i];
    }
    out(f) = y;
  }
  void derivative(const Frame& f) const override {
    if (states == 0) return;
    const double* den = den_.in(f.p) + den_lead_;
    const double* x = f.x + state_offset;
    double* dx = f.dxdt + state_offset;
    double x1 = in(f, 0);
    for (int i = 0; i < states; ++i) x1 -= den[i + 1] / den[0] * x[i];
    for (int i = states - 1; i > 0; --i) dx[i] = x[i - 1];
    dx[0] = x1;
  }
  // The same coefficients as output() and derivative(), as forms.
  bool affine_output(AffineForms& forms) const override {
    const auto den = [&](int i) { return forms.parameter(den_.first + den_lead_ + i); };
    const std::span<double> y = forms.output(*this, 0);
    const double b0 = padded_num_form(forms, 0) / den(0);
    if (inputs[0].feedthrough) AffineForms::add(y, b0, forms.input(*this, 0));
    for (int i = 0; i < states; ++i) {
      y[forms.state(state_offset + i)] +=
          padded_num_form(forms, i + 1) / den(0) - den(i + 1) / den(0) * b0;
    }
    return true;
  }
  bool affine_derivative(AffineForms& forms) const override {
    if (states == 0) return true;
    const auto den = [&](int i) { return forms.parameter(den_.first + den_lead_ + i); };
    const std::span<double> x1 = forms.derivative(*this, 0);
    AffineForms::add(x1, 1.0, forms.input(*this, 0));
    for (int i = 0; i < states; ++i) x1[forms.state(state_offset + i)] -= den(i + 1) / den(0);
    for (int i = 1; i < states; ++i) {
      forms.derivative(*this, i)[forms.state(state_offset + i - 1)] = 1.0;
    }
    return true;
  }
  void initial_state(const double* /*p*/, double* x0) const override {
    std::fill_n(x0 + state_offset, states, 0.0);
  }
  [[nodiscard]] std::string misfit(const double* p) const override {
    const auto zero_before = [&](const Elements& e, int lead, const char* param) -> std::string {
      for (int i = 0; i < lead; ++i) {
        if (e.in(p)[i] != 0.0) {
          return std::string(param) + "[" + std::to_string(i) +
                 "] must stay 0: the file fixes the order and the feed-through";
        }
      }
      return {};
    };
    if (auto m = zero_before(den_, den_lead_, "den"); !m.empty()) return m;
    if (auto m = zero_before(num_, num_lead_, "num"); !m.empty()) return m;
    if (den_.in(p)[den_lead_] == 0.0) {
      return "den[" + std::to_string(den_lead_) + "], the leading coefficient, must not be 0";
    }
    return {};
  }

 private:
  // Coefficient k (0 = highest power) of num padded to the order + 1 (not normalized).
  [[nodiscard]] double padded_num(const double* p, int k) const {
    const int i = num_.size() - (states + 1) + k;
    return i >= num_lead_ && i < num_.size() ? num_.in(p)[i] : 0.0;
  }
  [[nodiscard]] double padded_num_form(AffineForms& forms, int k) const {
    const int i = num_.size() - (states + 1) + k;
    return i >= num_lead_ && i < num_.size() ? forms.parameter(num_.first + i) : 0.0;
  }
  Elements num_;
  Elements den_;
  int num_lead_;
  int den_lead_;
};

// x' = A x + B u, y = C x + D u, the matrices the run's parameters `<block>.A[i][j]`, ...
// (row-major, read in place). Without feed-through (D zero in the file) D must stay zero.
class StateSpace final : public Block {
 public:
  StateSpace(Elements a, Elements b, Elements c, Elements d, Elements x0)
      : a_(a), b_(b), c_(c), d_(d), x0_(x0) {
    states = a_.rows;
  }
  void output(const Frame& f) const override {
    double* y = &out(f);
    multiply(c_, f.p, f.x + state_offset, y, false);
    if (inputs[0].feedthrough) multiply(d_, f.p, in_ptr(f, 0), y, true);
  }
  void derivative(const Frame& f) const override {
    double* dx = f.dxdt + state_offset;
    multiply(a_, f.p, f.x + state_offset, dx, false);
    multiply(b_, f.p, in_ptr(f, 0), dx, true);
  }
  bool affine_output(AffineForms& forms) const override {
    for (int r = 0; r < c_.rows; ++r) {
      const std::span<double> y = forms.output(*this, 0, r);
      add_form(forms, y, c_, r, -1);
      if (inputs[0].feedthrough) add_form(forms, y, d_, r, 0);
    }
    return true;
  }
  bool affine_derivative(AffineForms& forms) const override {
    for (int r = 0; r < a_.rows; ++r) {
      const std::span<double> dx = forms.derivative(*this, r);
      add_form(forms, dx, a_, r, -1);
      add_form(forms, dx, b_, r, 0);
    }
    return true;
  }
  void initial_state(const double* p, double* x0) const override {
    std::copy_n(x0_.in(p), x0_.size(), x0 + state_offset);
  }
  [[nodiscard]] std::string misfit(const double* p) const override {
    if (inputs[0].feedthrough || d_.first < 0) return {};
    for (int i = 0; i < d_.size(); ++i) {
      if (d_.in(p)[i] != 0.0) {
        return "D[" + std::to_string(i / d_.cols) + "][" + std::to_string(i % d_.cols) +
               "] must stay 0: D is zero in the file, so the block has no feed-through "
               "(write a nonzero D in the file to vary it)";
      }
    }
    return {};
  }

 private:
  // out (+)= M v with M the run's row-major matrix: a few multiply-adds, no allocation.
  static void multiply(const Elements& m, const double* p, const double* v, double* out, bool add) {
    const double* row = m.in(p);
    for (int r = 0; r < m.rows; ++r, row += m.cols) {
      double sum = add ? out[r] : 0.0;
      for (int c = 0; c < m.cols; ++c) sum += row[c] * v[c];
      out[r] = sum;
    }
  }
  // form += row r of M times the block's states (input < 0) or its input's elements.
  void add_form(AffineForms& forms, std::span<double> form, const Elements& m, int r,
                int input) const {
    for (int c = 0; c < m.cols; ++c) {
      const double coefficient = forms.parameter(m.first + r * m.cols + c);
      if (input < 0) {
        form[forms.state(state_offset + c)] += coefficient;
      } else {
        AffineForms::add(form, coefficient, forms.input(*this, 0, c));
      }
    }
  }
  Elements a_, b_, c_, d_, x0_;
};

int first_nonzero(const std::vector<double>& v) {
  return static_cast<int>(std::find_if(v.begin(), v.end(), [](double c) { return c != 0.0; }) -
                          v.begin());
}

std::string size_text(const Elements& m) {
  return std::to_string(m.rows) + "x" + std::to_string(m.cols);
}

std::unique_ptr<Block> make_transfer_function(BlockBuilder& b) {
  const Elements num = b.list_elements("num");
  const Elements den = b.list_elements("den");
  const int num_first = first_nonzero(b.defaults(num));
  const int den_lead = first_nonzero(b.defaults(den));
  if (den_lead == den.size()) b.fail(*b.spec().find("den"), "the denominator must not be zero");
  const int order = den.size() - den_lead - 1;
  if (num.size() - num_first > order + 1) {
    b.fail(*b.spec().find("num"),
           "the transfer function must be proper (degree of num <= "
           "degree of den)");
  }
  const bool feedthrough = num.size() - num_first == order + 1;
  const int num_lead = std::max(0, num.size() - (feedthrough ? order + 1 : order));
  auto block = std::make_unique<TransferFunction>(num, den, num_lead, den_lead);
  block->inputs = {{"u", 1, feedthrough}};
  b.finish({"num", "den"});
  return block;
}

std::unique_ptr<Block> make_state_space(BlockBuilder& b) {
  const Elements a = b.matrix_elements("A");
  const Elements bm = b.matrix_elements("B");
  const Elements c = b.matrix_elements("C");
  const int n = a.rows;
  if (a.cols != n || n == 0) {
    b.fail(*b.spec().find("A"), "must be square, is " + size_text(a));
  }
  if (bm.rows != n) {
    b.fail(*b.spec().find("B"),
           "must have " + std::to_string(n) + " rows (as A), is " + size_text(bm));
  }
  if (c.cols != n) {
    b.fail(*b.spec().find("C"),
           "must have " + std::to_string(n) + " columns (as A), is " + size_text(c));
  }
  Elements d{-1, c.rows, bm.cols};
  bool feedthrough = false;
  if (b.has("D")) {
    d = b.matrix_elements("D");
    if (d.rows != c.rows || d.cols != bm.cols) {
      b.fail(*b.spec().find("D"), "must be " + std::to_string(c.rows) + "x" +
                                      std::to_string(bm.cols) + " (rows of C x columns of B), is " +
                                      size_text(d));
    }
    const std::vector<double> dv = b.defaults(d);
    feedthrough = std::any_of(dv.begin(), dv.end(), [](double v) { return v != 0.0; });
  }
  const Elements x0 = b.list_elements_or("x0", std::vector<double>(static_cast<std::size_t>(n)));
  if (x0.size() != n) {
    b.fail(*b.spec().find("x0"),
           "has " + std::to_string(x0.size()) + " values, A has " + std::to_string(n) + " states");
  }
  auto block = std::make_unique<StateSpace>(a, bm, c, d, x0);
  block->inputs = {{"u", bm.cols, feedthrough}};
  block->outputs = {{"y", c.rows}};
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
  auto block = std::make_unique<Integrator>(x0, b.limits(false));
  block->inputs = {{"u", 1, false}};
  block->outputs = {{"y"}};
  b.finish({"x0", "lower", "upper"});
  return block;
}

}  // namespace simverify::simulation::diagram::detail
