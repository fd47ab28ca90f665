// Function blocks whose expression is affine in the inputs and t are evaluated as their folded
// affine form (affine_expression.hpp), the others by muParser. Either way a block computes its
// formula: checked against the formula in C++ at several times, inputs and parameter sets, so
// folding never freezes a time- or input-dependent part and follows changed parameters.
#include "diagram_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace {

using namespace simverify::simulation;
using namespace simverify::simulation::diagram;
using namespace simverify::simulation::diagram::testing;

struct ExpressionCase {
  std::string expr;
  std::function<double(double a, double t, double c, double k)> formula;
};

// Affine ones first (folded), then ones that are not (muParser): a product or power of varying
// parts, a function of one, a quotient by one, a condition.
const std::vector<ExpressionCase>& cases() {
  static const std::vector<ExpressionCase> all = {
      {"c * (a - 2) / k + 0.5 * t",
       [](double a, double t, double c, double k) { return c * (a - 2) / k + 0.5 * t; }},
      {"-a / c + sin(k) * a",
       [](double a, double, double c, double k) { return -a / c + std::sin(k) * a; }},
      {"+a - (-a) + 2 * a + 3", [](double a, double, double, double) { return 4 * a + 3; }},
      {"c^2 * a + k^3 - t / k",
       [](double a, double t, double c, double k) { return c * c * a + k * k * k - t / k; }},
      {"a / c / c - t", [](double a, double t, double c, double) { return a / c / c - t; }},
      {"exp(-k) * (t - a) + c",
       [](double a, double t, double c, double k) { return std::exp(-k) * (t - a) + c; }},
      {"a - a + t", [](double, double t, double, double) { return t; }},
      {"c * k", [](double, double, double c, double k) { return c * k; }},
      {"a * a + t", [](double a, double t, double, double) { return a * a + t; }},
      {"t * a", [](double a, double t, double, double) { return t * a; }},
      {"a^2 - c", [](double a, double, double c, double) { return a * a - c; }},
      {"sin(a) + c", [](double a, double, double c, double) { return std::sin(a) + c; }},
      {"c / a", [](double a, double, double c, double) { return c / a; }},
      {"a > 0 ? c * a : -c", [](double a, double, double c, double) { return a > 0 ? c * a : -c; }},
      {"sin(t) * c", [](double, double t, double c, double) { return std::sin(t) * c; }},
  };
  return all;
}

TEST(DiagramExpression, EveryFunctionBlockComputesItsFormula) {
  DiagramSpec d;
  d.name = "expressions";
  d.parameters = {{"c", 3.0, {}}, {"k", 2.0, {}}};
  d.blocks = {block("x", "integrator", {number("x0", 0.0)})};
  for (std::size_t i = 0; i < cases().size(); ++i) {
    const std::string name = "f" + std::to_string(i);
    d.blocks.push_back(block(name, "function", {text("expr", cases()[i].expr)}));
    d.blocks.back().function_inputs = {"a"};
    d.connections.push_back(wire("x", name + ".a"));
    d.outputs.push_back(output(name, name));
  }
  d.connections.push_back(wire("f0", "x"));
  const DiagramModel model(compile(d));
  std::vector<double> p = model.default_parameters();
  const std::size_t c = model.parameter_index("c");
  const std::size_t k = model.parameter_index("k");
  Context context;
  Vector x(1);
  Vector y;
  // Parameter sets one after the other (the folded forms are folded again when they change),
  // times and inputs that vary (what depends on them must not be folded).
  for (const auto& [cv, kv] : {std::pair{3.0, 2.0}, {5.0, 0.5}, {3.0, 2.0}, {-1.5, 4.0}}) {
    p[c] = cv;
    p[k] = kv;
    context.p = p;
    for (const double t : {0.0, 0.7, 2.5}) {
      for (const double a : {1.25, -0.4, 3.0}) {
        x[0] = a;
        model.output(t, x, context, y);
        for (std::size_t i = 0; i < cases().size(); ++i) {
          const double expected = cases()[i].formula(a, t, cv, kv);
          // Folding regroups a few operations (c (a - 2) / k becomes (c / k) a - 2 c / k),
          // each rounding within half an ulp of the magnitudes involved, all below 100 here.
          EXPECT_NEAR(y[static_cast<Eigen::Index>(i)], expected,
                      1e-13 * std::max(1.0, std::abs(expected)))
              << cases()[i].expr << " at a = " << a << ", t = " << t << ", c = " << cv
              << ", k = " << kv;
        }
      }
    }
  }
}

// The state derivative goes through the same path as the outputs: f0 drives the integrator.
TEST(DiagramExpression, DerivativesUseTheFoldedFormWithTheRunsParameters) {
  DiagramSpec d;
  d.name = "lag";
  d.parameters = {{"tau", 2.0, {}}, {"gain", 3.0, {}}};
  d.blocks = {block("x", "integrator", {number("x0", 0.0)}),
              block("f", "function", {text("expr", "(gain * (1 + 0 * t) - a) / tau")})};
  d.blocks[1].function_inputs = {"a"};
  d.connections = {wire("x", "f.a"), wire("f", "x")};
  const DiagramModel model(compile(d));
  std::vector<double> p = model.default_parameters();
  Context context;
  context.p = p;
  Vector x(1);
  x[0] = 0.5;
  Vector dxdt;
  model.rhs(1.0, x, context, dxdt);
  EXPECT_NEAR(dxdt[0], (3.0 - 0.5) / 2.0, 1e-15);
  p[model.parameter_index("tau")] = 4.0;
  context.p = p;
  model.rhs(1.0, x, context, dxdt);
  EXPECT_NEAR(dxdt[0], (3.0 - 0.5) / 4.0, 1e-15);
}

}  // namespace

namespace {

// muParser's `=` would write into the slot a variable is bound to: another block's output, a
// parameter, t. Every assignment operator is refused at load, at its column.
TEST(DiagramExpression, AssignmentsAreRefusedWhereTheyAreWritten) {
  struct Case {
    std::string expr;
    int column;  // of the operator, 1-based within the expression
    std::string op;
  };
  for (const Case& c : std::vector<Case>{{"(x = 100) * 0", 4, "="},
                                         {"x = 0 ? 1 : 2", 3, "="},
                                         {"x == 1 ? 2 : (k = 3)", 17, "="},
                                         {"x=1", 2, "="},
                                         {"x += 1", 3, "+="},
                                         {"x -= 1", 3, "-="},
                                         {"x *= 2", 3, "*="},
                                         {"x /= 2", 3, "/="}}) {
    DiagramSpec d;
    d.parameters = {{"k", 2.0, {}}};
    Param expr = text("expr", c.expr);
    expr.origin = {"d.yaml", 7, 20};  // the expression's first character
    d.blocks = {block("c", "constant", {number("value", 1.0)}), block("f", "function", {expr})};
    d.blocks.back().function_inputs = {"x"};
    d.connections = {wire("c", "f.x")};
    try {
      (void)compile(d);
      ADD_FAILURE() << c.expr << ": not refused";
    } catch (const DiagramError& e) {
      EXPECT_EQ(e.where().line, 7) << c.expr;
      EXPECT_EQ(e.where().column, 20 + c.column - 1) << c.expr;
      EXPECT_NE(e.message().find("block 'f' (function): expression error: '" + c.op +
                                 "' assigns to a variable"),
                std::string::npos)
          << e.what();
      EXPECT_EQ(e.message().find("did you mean '=='?") != std::string::npos, c.op == "=")
          << e.what();
    }
  }
}

// The comparisons that contain '=' are no assignments; two blocks read the same signal and
// neither changes it.
TEST(DiagramExpression, ComparisonsWithAnEqualsSignStillWork) {
  DiagramSpec d;
  d.blocks = {block("c", "constant", {number("value", 1.0)})};
  const std::vector<std::pair<std::string, double>> cases = {{"x == 1 ? 10 : 20", 10.0},
                                                             {"x <= 1", 1.0},
                                                             {"(x >= 2) + (x != 1)", 0.0},
                                                             {"x * x + (x<=0)", 1.0}};
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string name = "f" + std::to_string(i);
    d.blocks.push_back(block(name, "function", {text("expr", cases[i].first)}));
    d.blocks.back().function_inputs = {"x"};
    d.connections.push_back(wire("c", name + ".x"));
    d.outputs.push_back(output(name, name));
  }
  const Vector y = outputs_at_start(DiagramModel(compile(d)));
  ASSERT_EQ(y.size(), static_cast<Eigen::Index>(cases.size()));
  for (std::size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(y[static_cast<Eigen::Index>(i)], cases[i].second) << cases[i].first;
  }
}

}  // namespace
