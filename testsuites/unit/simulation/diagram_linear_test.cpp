// Affine diagrams folded into one affine map per run (linear_form.hpp): the map against the
// block-by-block evaluation of the same diagram and against the formulas written out by hand,
// parameters changed between evaluations, a solve against its analytic solution, and the
// diagrams that must keep the block-by-block evaluation.
#include "diagram/plan.hpp"
#include "diagram_test_support.hpp"

#include <simverify/simulation/simulator.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace {

using namespace simverify::simulation;
using namespace simverify::simulation::diagram;
using namespace simverify::simulation::diagram::testing;

// Whether a fresh workspace of the diagram folds its derivatives / outputs.
bool linear_derivatives(const DiagramModel& m) {
  const detail::Workspace ws(m.diagram().plan());
  return ws.linear != nullptr;
}
bool linear_outputs(const DiagramModel& m) {
  const detail::Workspace ws(m.diagram().plan());
  return ws.linear != nullptr && ws.linear->outputs();
}

struct Evaluation {
  Vector dxdt;
  Vector y;
};

// f and y block by block (the plan without the folded map) at (t, x) with one inport at u.
Evaluation block_by_block(const DiagramModel& m, double t, const Vector& x, InputSample u,
                          const std::vector<double>& p) {
  const detail::Plan& plan = m.diagram().plan();
  detail::Workspace ws(plan);
  std::copy(p.begin(), p.end(), ws.p.begin());
  for (const auto& scratch : ws.scratch) scratch->parameters_changed();
  ws.t = t;
  for (auto& sample : ws.u) sample = u;
  Evaluation e{Vector::Zero(x.size()),
               Vector::Zero(static_cast<Eigen::Index>(plan.output_slots.size()))};
  detail::Frame f;
  f.t = t;
  f.x = x.data();
  f.dxdt = e.dxdt.data();
  f.p = p.data();
  f.s = ws.s.data();
  f.u = ws.u.data();
  f.scratch = ws.scratch_of.data();
  detail::compute_derivatives(plan, ws, f);
  detail::compute_outputs(plan, ws, f);
  for (std::size_t i = 0; i < plan.output_slots.size(); ++i) {
    e.y[static_cast<Eigen::Index>(i)] = ws.s[static_cast<std::size_t>(plan.output_slots[i])];
  }
  return e;
}

Evaluation through_model(const DiagramModel& m, double t, const Vector& x, InputSample u,
                         const std::vector<double>& p) {
  Context context;
  context.p = p;
  context.u = u;
  Evaluation e;
  m.rhs(t, x, context, e.dxdt);
  m.output(t, x, context, e.y);
  return e;
}

// Every affine block type between the states, the inport, t and the derivatives and outputs:
// x1' = s, x2' = y_tf, with
//   s = -k x1 - x2 + u',  fn = k1 (x2 - u) + 0.3 t - c0 / 2,
//   ss: xs' = A xs + B [s, fn], y_ss = C xs + D [s, fn],
//   tf = (s + 2) / (s^2 + 3 s + 2) driven by y_ss (controllable canonical form:
//   z1' = y_ss - 3 z1 - 2 z2, z2' = z1, y_tf = z1 + 2 z2).
DiagramSpec every_affine_block() {
  DiagramSpec d;
  d.name = "affine";
  d.parameters = {{"k1", 1.5, {}}, {"c0", 0.8, {}}};
  d.blocks = {
      block("u", "inport"),
      block("clk", "clock"),
      block("c", "constant", {number("value", 0.7)}),
      block("x1", "integrator", {number("x0", 0.1)}),
      block("x2", "integrator"),
      block("g", "gain", {number("k", -2.5)}),
      block("s", "sum", {text("signs", "+-+")}),
      block("fn", "function", {text("expr", "k1 * (a - b) + 0.3 * t - c0 / 2")}),
      block("mx", "mux", {number("n", 2.0)}),
      block("ss", "state_space",
            {matrix("A", {{-1.0, 0.5}, {-0.25, -2.0}}), matrix("B", {{1.0, 0.0}, {0.5, 2.0}}),
             matrix("C", {{1.0, -1.0}}), matrix("D", {{0.1, 0.2}})}),
      block("tf", "transfer_function", {list("num", {1.0, 2.0}), list("den", {1.0, 3.0, 2.0})}),
      block("dm", "demux", {number("n", 2.0)})};
  d.blocks[7].function_inputs = {"a", "b"};
  d.connections = {wire("x1", "g"),        wire("g", "s.u1"),   wire("x2", "s.u2"),
                   wire("u.dydt", "s.u3"), wire("x2", "fn.a"),  wire("u", "fn.b"),
                   wire("s", "mx.u1"),     wire("fn", "mx.u2"), wire("mx", "ss"),
                   wire("ss", "tf"),       wire("mx", "dm"),    wire("dm.y1", "x1"),
                   wire("tf", "x2")};
  d.outputs = {output("y_ss", "ss"), output("fn", "fn"), output("second", "dm.y2"),
               output("time", "clk"), output("c", "c")};
  return d;
}

// The formulas of every_affine_block(), written out.
Evaluation by_hand(double t, const Vector& x, InputSample u, double k1, double c0, double k) {
  const double s = k * x[0] - x[1] + u.derivative;
  const double fn = k1 * (x[1] - u.value) + 0.3 * t - c0 / 2.0;
  const double xs0 = x[2];
  const double xs1 = x[3];
  const double y_ss = xs0 - xs1 + 0.1 * s + 0.2 * fn;
  const double z1 = x[4];
  const double z2 = x[5];
  Evaluation e{Vector(6), Vector(5)};
  e.dxdt << s, z1 + 2.0 * z2, -xs0 + 0.5 * xs1 + s, -0.25 * xs0 - 2.0 * xs1 + 0.5 * s + 2.0 * fn,
      y_ss - 3.0 * z1 - 2.0 * z2, z1;
  e.y << y_ss, fn, fn, t, 0.7;
  return e;
}

// The folded map multiplies out the blocks' coefficients and adds the terms grouped by
// variable: each result is the same sum in another order, equal to rounding. The terms here
// are O(1) (no cancellation beyond a factor of ~10), so a few ulps of 10 bound the difference.
constexpr double kRegrouped = 1e-14;

void expect_near(const Vector& a, const Vector& b, double tol, const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    EXPECT_NEAR(a[i], b[i], tol * (1.0 + std::abs(b[i]))) << what << "[" << i << "]";
  }
}

TEST(DiagramLinear, EveryAffineBlockFoldsToTheFormulas) {
  const DiagramModel model(compile(every_affine_block()));
  ASSERT_TRUE(linear_derivatives(model));
  ASSERT_TRUE(linear_outputs(model));
  EXPECT_NE(model.diagram().describe().find(
                "evaluated: f as one affine map per run (dx = A x + B v + c), y too"),
            std::string::npos)
      << model.diagram().describe();
  ASSERT_EQ(model.info().states,
            (std::vector<std::string>{"x1", "x2", "ss[0]", "ss[1]", "tf[0]", "tf[1]"}));
  const std::vector<double> p = model.default_parameters();
  Vector x(6);
  x << 0.3, -0.7, 1.1, 0.4, -0.2, 0.9;
  for (const double t : {0.0, 0.37, 2.5}) {
    const InputSample u{0.6 - t, 0.25 * t};
    const Evaluation folded = through_model(model, t, x, u, p);
    const Evaluation blocks = block_by_block(model, t, x, u, p);
    const Evaluation formulas = by_hand(t, x, u, 1.5, 0.8, -2.5);
    expect_near(folded.dxdt, blocks.dxdt, kRegrouped, "f vs blocks");
    expect_near(folded.y, blocks.y, kRegrouped, "y vs blocks");
    expect_near(folded.dxdt, formulas.dxdt, kRegrouped, "f vs formulas");
    expect_near(folded.y, formulas.y, kRegrouped, "y vs formulas");
    x *= -1.3;
  }
}

TEST(DiagramLinear, ChangedParametersAreFoldedAgain) {
  const DiagramModel model(compile(every_affine_block()));
  const auto index = [&](const std::string& name) { return model.parameter_index(name); };
  std::vector<double> p = model.default_parameters();
  Vector x(6);
  x << 0.3, -0.7, 1.1, 0.4, -0.2, 0.9;
  const InputSample u{0.2, -0.1};
  // Alternating parameter sets (as two runs of a grid on one thread): each evaluation sees its
  // own; c.value feeds only an output, so only output() reads it.
  for (int round = 0; round < 3; ++round) {
    for (const double scale : {1.0, 2.0}) {
      p[index("k1")] = 1.5 * scale;
      p[index("c0")] = 0.8 / scale;
      p[index("g.k")] = -2.5 * scale;
      p[index("c.value")] = 0.7 * scale;
      Evaluation expected = by_hand(0.5, x, u, 1.5 * scale, 0.8 / scale, -2.5 * scale);
      expected.y[4] = 0.7 * scale;
      const Evaluation folded = through_model(model, 0.5, x, u, p);
      expect_near(folded.dxdt, expected.dxdt, kRegrouped, "f");
      expect_near(folded.y, expected.y, kRegrouped, "y");
    }
  }
  // A parameter vector of the wrong size is not the folded map's to judge: block by block, as
  // before, where the expression blocks refuse it.
  const std::vector<double> short_p(p.begin(), p.end() - 1);
  Context context;
  context.p = short_p;
  Vector dxdt;
  EXPECT_THROW(model.rhs(0.0, x, context, dxdt), std::invalid_argument);
}

// x'' = -w^2 x + F from gains, a sum and two integrators: x = F / w^2 + (x0 - F / w^2) cos(w t).
TEST(DiagramLinear, ForcedOscillatorFollowsItsAnalyticSolution) {
  DiagramSpec d;
  d.name = "oscillator";
  d.parameters = {{"w", 3.0, {}}};
  d.blocks = {block("force", "constant", {number("value", 2.0)}),
              block("spring", "function", {text("expr", "-w^2 * q")}),
              block("total", "sum", {text("signs", "++")}), block("v", "integrator"),
              block("x", "integrator", {number("x0", 1.0)})};
  d.blocks[1].function_inputs = {"q"};
  d.connections = {wire("x", "spring"), wire("spring", "total.u1"), wire("force", "total.u2"),
                   wire("total", "v"), wire("v", "x")};
  d.outputs = {output("x", "x")};
  const DiagramModel model(compile(d));
  ASSERT_TRUE(linear_derivatives(model));
  SimulatorSettings s;
  s.method = "ode45";
  s.tf = 2.0;
  s.stepper.rtol = 1e-11;
  s.stepper.atol = {1e-13};
  const auto run = Simulator(model, s).run();
  const double w = 3.0;
  const double rest = 2.0 / (w * w);
  // rtol 1e-11 over three periods of a smooth oscillation: global error well below 1e-9.
  EXPECT_NEAR(run.x_end[1], rest + (1.0 - rest) * std::cos(w * 2.0), 1e-9);
  EXPECT_NEAR(run.x_end[0], -(1.0 - rest) * w * std::sin(w * 2.0), 1e-9);
}

TEST(DiagramLinear, NonAffineDiagramsKeepTheBlockByBlockEvaluation) {
  const auto with = [](BlockSpec middle) {
    DiagramSpec d;
    d.name = "one";
    d.blocks = {block("x", "integrator", {number("x0", 0.5)}),
                block("c", "constant", {number("value", 1.0)}), std::move(middle)};
    d.connections = {wire("x", "m.u1"), wire("c", "m.u2"), wire("m", "x")};
    return DiagramModel(compile(d));
  };
  BlockSpec product = block("m", "product", {text("ops", "**")});
  EXPECT_FALSE(linear_derivatives(with(product)));
  EXPECT_NE(with(product).diagram().describe().find("evaluated: block by block"),
            std::string::npos);
  BlockSpec square = block("m", "function", {text("expr", "u1 * u1 + u2")});
  square.function_inputs = {"u1", "u2"};
  EXPECT_FALSE(linear_derivatives(with(square)));
  BlockSpec sum = block("m", "sum", {text("signs", "+-")});
  EXPECT_TRUE(linear_derivatives(with(sum)));  // the same diagram with an affine block

  DiagramSpec limited;
  limited.name = "limited";
  limited.blocks = {block("x", "integrator", {number("lower", -1.0), number("upper", 1.0)}),
                    block("c", "constant", {number("value", 1.0)})};
  limited.connections = {wire("c", "x")};
  EXPECT_FALSE(linear_derivatives(DiagramModel(compile(limited))));

  // An algebraic loop (affine, but left to the loop solvers): y = u - y / 2.
  DiagramSpec loop;
  loop.name = "loop";
  loop.blocks = {block("x", "integrator"), block("e", "sum", {text("signs", "+-")}),
                 block("half", "gain", {number("k", 0.5)})};
  loop.connections = {wire("x", "e.u1"), wire("half", "e.u2"), wire("e", "half"), wire("e", "x")};
  loop.loops.policy = LoopPolicy::newton;
  EXPECT_FALSE(linear_derivatives(DiagramModel(compile(loop))));
}

// Affine derivatives with a non-affine block that only an output reads: f is folded, y is
// evaluated block by block, and both agree with the blocks.
TEST(DiagramLinear, NonAffineOutputsKeepTheirBlocks) {
  DiagramSpec d;
  d.name = "half";
  d.blocks = {block("x", "integrator", {number("x0", 2.0)}),
              block("decay", "gain", {number("k", -0.5)}),
              block("sat", "saturation", {number("lower", -1.0), number("upper", 1.0)})};
  d.connections = {wire("x", "decay"), wire("decay", "x"), wire("x", "sat")};
  d.outputs = {output("clipped", "sat")};
  const DiagramModel model(compile(d));
  ASSERT_TRUE(linear_derivatives(model));
  EXPECT_FALSE(linear_outputs(model));
  EXPECT_NE(model.diagram().describe().find("y block by block"), std::string::npos);
  const std::vector<double> p = model.default_parameters();
  Vector x(1);
  x << 3.0;
  const Evaluation folded = through_model(model, 0.0, x, {}, p);
  EXPECT_EQ(folded.dxdt[0], -1.5);  // one product, exact
  EXPECT_EQ(folded.y[0], 1.0);
}

// The dense kernels (dense_rows.hpp), one per shape, against the rows written out: each row
// is its constant plus its terms in column order, the same additions in the same order, so the
// results are equal bit for bit. A derivative map has one row per state (the states the rows do
// not compute are copies); shapes just past the kernels' limits, and maps with fewer rows than
// states, keep the sparse rows and must agree as well.
TEST(DiagramLinear, DenseKernelsOfEveryShapeAgreeWithTheRows) {
  using detail::DenseRows;
  int dense_shapes = 0;
  for (std::size_t rows = 1; rows <= DenseRows::kMaxRows + 1; ++rows) {
    for (std::size_t states = 1; states <= DenseRows::kMaxStates + 1; ++states) {
      for (std::size_t inports = 0; inports <= 3; ++inports) {
        for (const bool every_state : {true, false}) {
          if (!every_state && states <= rows) continue;  // no copy to leave out
          const std::size_t variables = 2 * inports + 1;
          const std::size_t columns = 1 + states + variables;
          const std::size_t copies = states > rows ? states - rows - (every_state ? 0 : 1) : 0;
          std::vector<double> x(states), v(variables);
          for (std::size_t i = 0; i < states; ++i) x[i] = 0.3 + 0.7 * static_cast<double>(i);
          for (std::size_t j = 0; j < variables; ++j) v[j] = -1.1 + 0.4 * static_cast<double>(j);
          detail::AffineMap map;
          map.reserve(rows + copies, columns);
          map.clear();
          std::vector<std::vector<double>> forms;
          for (std::size_t r = 0; r < rows; ++r) {
            std::vector<double> form(columns);
            for (std::size_t c = 0; c < columns; ++c) {
              // Every third coefficient zero; t (the last column) read with an even number of
              // states only (else the kernel leaves it out: every variable count is a shape).
              const bool zero = (c + r) % 3 == 2 || (c + 1 == columns && states % 2 == 1);
              form[c] =
                  zero ? 0.0 : 0.25 * static_cast<double>(c + 1) - 0.125 * static_cast<double>(r);
            }
            form[1] = 1.5;  // never a copy
            map.append(r, form, states);
            forms.push_back(form);
          }
          for (std::size_t k = 0; k < copies; ++k) {
            std::vector<double> form(columns, 0.0);
            form[1 + (k + 1) % states] = 1.0;
            map.append(rows + k, form, states);
            forms.push_back(form);
          }
          map.finish(states, variables);
          // The variables the rows read: up to the last nonzero coefficient.
          std::size_t read = 0;
          for (std::size_t r = 0; r < rows; ++r) {
            for (std::size_t j = 0; j < variables; ++j) {
              if (forms[r][1 + states + j] != 0.0) read = std::max(read, j + 1);
            }
          }
          const bool fits = rows <= DenseRows::kMaxRows && states <= DenseRows::kMaxStates &&
                            read <= DenseRows::kMaxVariables && rows <= states &&
                            rows + copies == states;
          EXPECT_EQ(map.dense(), fits) << rows << " rows, " << states << " states, " << inports
                                       << " inports, " << copies << " copies";
          dense_shapes += map.dense() ? 1 : 0;
          std::vector<double> out(forms.size(), -99.0);
          map.apply(x.data(), v.data(), out.data());
          for (std::size_t r = 0; r < forms.size(); ++r) {
            double expected = forms[r][0];
            for (std::size_t i = 0; i < states; ++i) {
              if (forms[r][1 + i] != 0.0) expected += forms[r][1 + i] * x[i];
            }
            for (std::size_t j = 0; j < variables; ++j) {
              if (forms[r][1 + states + j] != 0.0) expected += forms[r][1 + states + j] * v[j];
            }
            EXPECT_EQ(out[r], expected) << "row " << r << " of " << rows << " rows, " << states
                                        << " states, " << inports << " inports";
          }
        }
      }
    }
  }
  // rows <= states: 8 + 7 + 6 + 5 state counts, with 0, 1 or 2 inports, and the single row
  // over 5 states and 3 inports: it reads only the first 5 variables (t and u3' are zero).
  EXPECT_EQ(dense_shapes, (8 + 7 + 6 + 5) * 3 + 1);
}

// Second-order maps (rows = states / 2, each other state a copy of a velocity) laid out
// interleaved (x0' = x1, x1' = row 0, ...) or stacked (x0' = x_n, ..., x_n' = row 0, ...) take
// the kernels that know where the copies and results go; like the indexed kernels they add each
// row's terms in column order, bit for bit the rows written out. A map reading at most two
// variables also takes them from an InputSample (the hot path's u, u').
TEST(DiagramLinear, SecondOrderLayoutsAgreeWithTheRows) {
  using detail::DenseRows;
  using Layout = DenseRows::Layout;
  for (const Layout layout : {Layout::interleaved, Layout::stacked}) {
    for (std::size_t rows = 1; rows <= DenseRows::kMaxRows; ++rows) {
      for (std::size_t read = 0; read <= DenseRows::kMaxVariables; ++read) {
        const std::size_t states = 2 * rows;
        const std::size_t variables = DenseRows::kMaxVariables;
        const std::size_t columns = 1 + states + variables;
        std::vector<double> x(states), v(variables);
        for (std::size_t i = 0; i < states; ++i) x[i] = 0.3 + 0.7 * static_cast<double>(i);
        for (std::size_t j = 0; j < variables; ++j) v[j] = -1.1 + 0.4 * static_cast<double>(j);
        // Per derivative: the row computing it (-1: a copy of state `copy[i]`).
        std::vector<int> row_of(states, -1);
        std::vector<std::size_t> copy(states, 0);
        for (std::size_t r = 0; r < rows; ++r) {
          const std::size_t position = layout == Layout::interleaved ? 2 * r : r;
          const std::size_t velocity = layout == Layout::interleaved ? 2 * r + 1 : rows + r;
          row_of[velocity] = static_cast<int>(r);
          copy[position] = velocity;
        }
        std::vector<std::vector<double>> forms(states, std::vector<double>(columns, 0.0));
        detail::AffineMap map;
        map.reserve(states, columns);
        map.clear();
        for (std::size_t i = 0; i < states; ++i) {
          if (row_of[i] < 0) {
            forms[i][1 + copy[i]] = 1.0;
          } else {
            const auto r = static_cast<std::size_t>(row_of[i]);
            for (std::size_t c = 0; c < 1 + states + read; ++c) {
              const bool zero = (c + r) % 3 == 2 && c + 1 != 1 + states + read;
              forms[i][c] =
                  zero ? 0.0 : 0.25 * static_cast<double>(c + 1) - 0.125 * static_cast<double>(r);
            }
            forms[i][1] = 1.5;  // never a copy
          }
          map.append(i, forms[i], states);
        }
        map.finish(states, variables);
        ASSERT_TRUE(map.dense()) << rows << " rows";
        // One row over two states: both layouts are x0' = x1, x1' = row 0 (interleaved).
        EXPECT_EQ(map.dense_rows().layout(), rows == 1 ? Layout::interleaved : layout)
            << rows << " rows";
        EXPECT_EQ(map.dense_rows().has_input_kernel(), read <= 2) << rows << " rows, " << read;
        std::vector<double> expected(states);
        for (std::size_t i = 0; i < states; ++i) {
          expected[i] = forms[i][0];
          for (std::size_t c = 1; c < columns; ++c) {
            const double z = c <= states ? x[c - 1] : v[c - 1 - states];
            if (forms[i][c] != 0.0) expected[i] += forms[i][c] * z;
          }
        }
        std::vector<double> out(states, -99.0);
        map.apply(x.data(), v.data(), out.data());
        EXPECT_EQ(out, expected) << rows << " rows, " << read << " variables read";
        if (read <= 2) {
          std::vector<double> from_u(states, -99.0);
          map.dense_rows().apply(x.data(), InputSample{v[0], v[1]}, from_u.data());
          EXPECT_EQ(from_u, expected) << rows << " rows, " << read << " variables read";
        }
      }
    }
  }
}

// rhs()'s hot path (LinearForm::hot): the derivatives' kernel reads u, u' from the run's sample
// and the parameters are compared as one window. A diagram of nine parameters whose derivatives
// read four of them: as their values change between evaluations (runs of a grid on one
// thread), the kernel's shape changes with them: a row becomes a copy (g = 1: the layout is no
// longer interleaved), t is read (w != 0: the general path) or not. Every evaluation must see
// its own parameters, whichever path it takes.
TEST(DiagramLinear, HotPathFollowsParameterChanges) {
  DiagramSpec d;
  d.name = "two_masses";
  d.parameters = {
      {"k", 2.0, {}}, {"g", 0.5, {}}, {"w", 0.0, {}}, {"c", 0.1, {}}, {"unused", 1.0, {}}};
  d.blocks = {block("road", "inport"),
              block("y1", "integrator", {number("x0", 0.1)}),
              block("v1", "integrator"),
              block("y2", "integrator"),
              block("v2", "integrator"),
              block("f1", "function", {text("expr", "-k * (a - b) - c * u + w * t")}),
              block("f2", "function", {text("expr", "g * a")})};
  d.blocks[5].function_inputs = {"a", "b", "u"};
  d.blocks[6].function_inputs = {"a"};
  d.connections = {wire("v1", "y1"),     wire("f1", "v1"),   wire("v2", "y2"),
                   wire("f2", "v2"),     wire("y1", "f1.a"), wire("y2", "f1.b"),
                   wire("road", "f1.u"), wire("v1", "f2.a")};
  const DiagramModel model(compile(d));
  ASSERT_EQ(model.info().parameters.size(), 9u);  // 5, then the integrators' x0
  const auto formulas = [](const Vector& x, double t, InputSample u, double k, double g, double w,
                           double c) {
    Vector e(4);
    e << x[1], -k * (x[0] - x[2]) - c * u.value + w * t, x[3], g * x[1];
    return e;
  };
  Vector x(4);
  x << 0.3, -0.2, 0.05, 0.4;
  const InputSample u{0.01, -0.3};
  struct Case {
    double k, g, w;
    bool hot;
  };
  const Case cases[] = {{2.0, 0.5, 0.0, true}, {3.0, 1.0, 0.0, true},  {2.0, 0.5, 0.7, false},
                        {2.0, 0.5, 0.0, true}, {2.0, 1.0, 0.7, false}, {5.0, 1.0, 0.0, true}};
  std::vector<double> p = model.default_parameters();
  const detail::Plan& plan = model.diagram().plan();
  detail::Workspace ws(plan);
  ASSERT_NE(ws.linear, nullptr);
  for (int round = 0; round < 2; ++round) {
    for (const Case& c : cases) {
      p[0] = c.k;
      p[1] = c.g;
      p[2] = c.w;
      p[4] = 7.0 * round;  // read by no block, but in the window: folds again, to the same map
      const double t = 0.4 + round;
      const Evaluation folded = through_model(model, t, x, u, p);
      expect_near(folded.dxdt, formulas(x, t, u, c.k, c.g, c.w, 0.1), kRegrouped, "f");
      ASSERT_TRUE(ws.linear->refresh(plan, ws, p, false));
      EXPECT_EQ(ws.linear->hot(p), c.hot) << "k " << c.k << ", g " << c.g << ", w " << c.w;
      if (!c.hot) continue;
      Vector from_kernel(4);
      ws.linear->hot_dxdt(x.data(), u, from_kernel.data());
      expect_near(from_kernel, formulas(x, t, u, c.k, c.g, c.w, 0.1), kRegrouped, "hot f");
      // Another value of a parameter the derivatives read: no longer the map's.
      std::vector<double> changed = p;
      changed[3] = 0.2;
      EXPECT_FALSE(ws.linear->hot(changed));
    }
  }
}

// The quarter car's f (2 computed rows over 4 states and u, u'; 2 copies) takes a kernel.
TEST(DiagramLinear, QuarterCarTakesADenseKernel) {
  DiagramSpec d;
  d.name = "two_masses";
  d.parameters = {{"k", 2.0, {}}};
  d.blocks = {block("road", "inport"),
              block("y1", "integrator", {number("x0", 0.1)}),
              block("v1", "integrator"),
              block("y2", "integrator"),
              block("v2", "integrator"),
              block("f1", "function", {text("expr", "-k * (a - b)")}),
              block("f2", "function", {text("expr", "k * (a - b) - (b - u) - du")})};
  d.blocks[5].function_inputs = {"a", "b"};
  d.blocks[6].function_inputs = {"a", "b", "u", "du"};
  d.connections = {wire("v1", "y1"),          wire("f1", "v1"),   wire("v2", "y2"),
                   wire("f2", "v2"),          wire("y1", "f1.a"), wire("y2", "f1.b"),
                   wire("y1", "f2.a"),        wire("y2", "f2.b"), wire("road.y", "f2.u"),
                   wire("road.dydt", "f2.du")};
  const DiagramModel model(compile(d));
  const detail::Workspace ws(model.diagram().plan());
  ASSERT_NE(ws.linear, nullptr);
  EXPECT_TRUE(ws.linear->dense());
  Vector x(4);
  x << 0.3, -0.2, 0.05, 0.4;
  const InputSample u{0.01, -0.3};
  const std::vector<double> p = model.default_parameters();
  const Evaluation folded = through_model(model, 0.2, x, u, p);
  Vector expected(4);
  expected << x[1], -2.0 * (x[0] - x[2]), x[3],
      2.0 * (x[0] - x[2]) - (x[2] - u.value) - u.derivative;
  expect_near(folded.dxdt, expected, kRegrouped, "f");
}

}  // namespace
