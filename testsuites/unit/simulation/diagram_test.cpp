// Block diagrams (block-diagram lecture sections 4.4-4.5, DIAGRAM-FORMAT.md): each block against
// its analytic behaviour, ordering and loop detection (Tarjan, through subsystems, several loops),
// both loop solvers against the algebraic equations' solutions, the refused loop's message,
// zero-crossing corners, and a diagram against the built-in model it re-implements.
#include "diagram/plan.hpp"
#include "diagram_test_support.hpp"

#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace simverify::simulation;
using namespace simverify::simulation::diagram;
using namespace simverify::simulation::diagram::testing;

SimulatorResult simulate(const Model& model, SimulatorSettings s) {
  return Simulator(model, std::move(s)).run();
}

SimulatorSettings accurate(double tf) {
  SimulatorSettings s;
  s.method = "ode45";
  s.tf = tf;
  s.stepper.rtol = 1e-11;
  s.stepper.atol = {1e-13};
  return s;
}

// BasicExample (block-diagram lecture): constant 1 integrated twice, y2 = t^2 / 2.
DiagramSpec basic_example() {
  DiagramSpec d;
  d.name = "basic";
  d.blocks = {block("one", "constant", {number("value", 1.0)}), block("v", "integrator"),
              block("pos", "integrator")};
  d.connections = {wire("one", "v"), wire("v", "pos")};
  d.outputs = {output("velocity", "v"), output("position", "pos.y")};
  return d;
}

TEST(Diagram, BasicExampleIntegratesAConstantTwice) {
  const DiagramModel model(compile(basic_example()));
  EXPECT_EQ(model.info().states, (std::vector<std::string>{"v", "pos"}));
  EXPECT_EQ(model.info().outputs, (std::vector<std::string>{"velocity", "position"}));
  SimulatorSettings s;
  s.method = "ode4";
  s.h = 0.1;
  s.tf = 2.0;
  const auto run = simulate(model, s);
  // RK4 integrates the polynomials t and t^2/2 exactly: only rounding remains.
  EXPECT_NEAR(run.x_end[0], 2.0, 1e-13);
  EXPECT_NEAR(run.x_end[1], 2.0, 1e-13);
}

// BasicLoopExample (block-diagram lecture): an integrator fed back onto itself, x' = x, x = e^t.
TEST(Diagram, BasicLoopExampleIsTheExponential) {
  DiagramSpec d;
  d.name = "loop";
  d.blocks = {block("x", "integrator", {number("x0", 1.0)})};
  d.connections = {wire("x", "x")};
  const DiagramModel model(compile(d));
  const auto run = simulate(model, accurate(1.0));
  // rtol 1e-11 on a smooth, non-stiff problem: the global error stays below 1e-9.
  EXPECT_NEAR(run.x_end[0], std::exp(1.0), 1e-9);
}

TEST(Diagram, FirstOrderLagIsOneMinusExponential) {
  // 1 / (tau s + 1) driven by a unit step from t = 0: y = 1 - exp(-t / tau).
  const double tau = 0.4;
  DiagramSpec d;
  d.name = "lag";
  d.blocks = {block("u", "inport"),
              block("lag", "transfer_function", {list("num", {1.0}), list("den", {tau, 1.0})})};
  d.connections = {wire("u", "lag")};
  d.outputs = {output("y", "lag")};
  const DiagramModel model(compile(d));
  SimulatorSettings s = accurate(2.0);
  s.input = constant_input(1.0);
  s.record_outputs = true;
  const auto run = simulate(model, s);
  for (std::size_t i = 0; i < run.trajectory.size(); ++i) {
    const double t = run.trajectory.time[i];
    EXPECT_NEAR(run.trajectory.outputs[i][0], 1.0 - std::exp(-t / tau), 1e-9) << "t = " << t;
  }
}

TEST(Diagram, BiproperTransferFunctionHasFeedThrough) {
  // (s + 3) / (s + 1) = 1 + 2 / (s + 1): y(0+) = u = 1, y -> 3 for a unit step.
  DiagramSpec d;
  d.name = "lead";
  d.blocks = {block("one", "constant", {number("value", 1.0)}),
              block("tf", "transfer_function", {list("num", {1.0, 3.0}), list("den", {1.0, 1.0})})};
  d.connections = {wire("one", "tf")};
  d.outputs = {output("y", "tf")};
  const DiagramModel model(compile(d));
  SimulatorSettings s = accurate(1.0);
  s.record_outputs = true;
  const auto run = simulate(model, s);
  EXPECT_NEAR(run.trajectory.outputs.front()[0], 1.0, 1e-15);
  EXPECT_NEAR(run.trajectory.outputs.back()[0], 3.0 - 2.0 * std::exp(-1.0), 1e-9);
}

TEST(Diagram, StateSpaceOscillatorIsACosine) {
  DiagramSpec d;
  d.name = "oscillator";
  d.blocks = {block("zero", "constant", {number("value", 0.0)}),
              block("ss", "state_space",
                    {matrix("A", {{0.0, 1.0}, {-1.0, 0.0}}), matrix("B", {{0.0}, {1.0}}),
                     matrix("C", {{1.0, 0.0}}), list("x0", {1.0, 0.0})})};
  d.connections = {wire("zero", "ss")};
  d.outputs = {output("y", "ss")};
  const DiagramModel model(compile(d));
  EXPECT_EQ(model.info().states, (std::vector<std::string>{"ss[0]", "ss[1]"}));
  const auto run = simulate(model, accurate(3.0));
  EXPECT_NEAR(run.x_end[0], std::cos(3.0), 1e-9);
  EXPECT_NEAR(run.x_end[1], -std::sin(3.0), 1e-9);
}

TEST(Diagram, AlgebraicBlocksComputeTheirFormulas) {
  DiagramSpec d;
  d.name = "algebra";
  d.parameters = {{"c", 3.0, {}}};
  d.blocks = {
      block("a", "constant", {number("value", 2.0)}),
      block("b", "constant", {text("value", "c")}),
      block("clk", "clock"),
      block("g", "gain", {number("k", -1.5)}),
      block("s", "sum", {text("signs", "+-+")}),
      block("p", "product", {text("ops", "**/")}),
      block("f", "function", {text("expr", "a^2 + sin(t) * c")}),
      block("lut", "lookup_table", {list("x", {0.0, 1.0, 3.0}), list("y", {0.0, 10.0, 30.0})}),
      block("sw", "switch", {number("threshold", 2.5)})};
  d.blocks[6].function_inputs = {"a"};
  d.connections = {wire("a", "g"),      wire("a", "s.u1"),         wire("b", "s.u2"),
                   wire("clk", "s.u3"), wire("a", "p.u1"),         wire("b", "p.u2"),
                   wire("clk", "p.u3"), wire("a", "f.a"),          wire("clk", "lut"),
                   wire("a", "sw.u1"),  wire("clk", "sw.control"), wire("b", "sw.u2")};
  d.outputs = {output("g", "g"), output("s", "s"),     output("p", "p"),
               output("f", "f"), output("lut", "lut"), output("sw", "sw")};
  const DiagramModel model(compile(d));
  const std::vector<double> p = model.default_parameters();
  Context context;
  context.p = p;
  Vector y;
  model.output(2.0, Vector(), context, y);
  EXPECT_DOUBLE_EQ(y[0], -3.0);                       // -1.5 * 2
  EXPECT_DOUBLE_EQ(y[1], 2.0 - 3.0 + 2.0);            // + a - b + t
  EXPECT_DOUBLE_EQ(y[2], 2.0 * 3.0 / 2.0);            // a * b / t
  EXPECT_DOUBLE_EQ(y[3], 4.0 + std::sin(2.0) * 3.0);  // a^2 + sin(t) c
  EXPECT_DOUBLE_EQ(y[4], 20.0);                       // between (1, 10) and (3, 30)
  EXPECT_DOUBLE_EQ(y[5], 3.0);                        // control 2 < 2.5: u2
  model.output(5.0, Vector(), context, y);
  EXPECT_DOUBLE_EQ(y[4], 30.0);  // clamped beyond the table
  EXPECT_DOUBLE_EQ(y[5], 2.0);   // control 5 >= 2.5: u1
  // Parameters: the diagram's c, then every numeric scalar block parameter.
  EXPECT_EQ(model.parameter_index("c"), 0U);
  EXPECT_NO_THROW((void)model.parameter_index("g.k"));
  EXPECT_NO_THROW((void)model.parameter_index("sw.threshold"));
}

TEST(Diagram, ParametersOverrideThroughTheContext) {
  const DiagramModel model(compile(basic_example()));
  std::vector<double> p = model.default_parameters();
  p[model.parameter_index("one.value")] = 3.0;
  p[model.parameter_index("pos.x0")] = 1.0;
  SimulatorSettings s;
  s.method = "ode4";
  s.h = 0.1;
  s.tf = 1.0;
  s.parameters = {{"one.value", 3.0}, {"pos.x0", 1.0}};
  const auto run = simulate(model, s);
  EXPECT_NEAR(run.x_end[1], 1.0 + 1.5, 1e-13);  // 1 + 3 t^2 / 2
}

// List and matrix parameters are model parameters element by element (DIAGRAM-FORMAT.md:
// every numeric block parameter is overridable): a run that sets them follows the analytic
// solution of the changed block.
TEST(Diagram, ListAndMatrixElementsOverrideLikeScalars) {
  DiagramSpec d;
  d.name = "elements";
  d.blocks = {block("one", "constant", {number("value", 1.0)}),
              block("lag", "transfer_function", {list("num", {1.0}), list("den", {0.4, 1.0})}),
              block("lut", "lookup_table", {list("x", {0.0, 1.0}), list("y", {0.0, 10.0})}),
              block("clk", "clock"),
              block("ss", "state_space",
                    {matrix("A", {{0.0, 1.0}, {-1.0, 0.0}}), matrix("B", {{0.0}, {1.0}}),
                     matrix("C", {{1.0, 0.0}}), list("x0", {1.0, 0.0})})};
  d.connections = {wire("one", "lag"), wire("clk", "lut"), wire("lag", "ss")};
  d.outputs = {output("lag", "lag"), output("lut", "lut")};
  const DiagramModel model(compile(d));
  std::vector<std::string> names;
  for (const auto& p : model.info().parameters) names.push_back(p.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{
                "one.value", "lag.num[0]", "lag.den[0]", "lag.den[1]", "lut.x[0]", "lut.x[1]",
                "lut.y[0]", "lut.y[1]", "ss.A[0][0]", "ss.A[0][1]", "ss.A[1][0]", "ss.A[1][1]",
                "ss.B[0][0]", "ss.B[1][0]", "ss.C[0][0]", "ss.C[0][1]", "ss.x0[0]", "ss.x0[1]"}));
  SimulatorSettings s = accurate(0.5);
  s.record_outputs = true;
  // tau 0.4 -> 0.2 (2 / (0.4 s + 2) = 1 / (0.2 s + 1)), lut slope 10 -> 20, the oscillator's
  // frequency 1 -> 2 (A[1][0] = -4) started at x0 = (0.5, 0).
  s.parameters = {{"lag.num[0]", 2.0},  {"lag.den[1]", 2.0}, {"lut.y[1]", 20.0},
                  {"ss.A[1][0]", -4.0}, {"ss.B[1][0]", 0.0}, {"ss.x0[0]", 0.5}};
  const auto run = simulate(model, s);
  const double t = 0.5;
  // rtol 1e-11 on smooth solutions: errors far below 1e-9.
  EXPECT_NEAR(run.trajectory.outputs.back()[0], 1.0 - std::exp(-t / 0.2), 1e-9);
  EXPECT_NEAR(run.trajectory.outputs.back()[1], 20.0 * t, 1e-12);
  EXPECT_NEAR(run.x_end[1], 0.5 * std::cos(2.0 * t), 1e-9);
  EXPECT_NEAR(run.x_end[2], -std::sin(2.0 * t), 1e-9);
}

// Values that break the structure the file fixed are refused before the run integrates.
TEST(Diagram, ElementOverridesThatBreakTheStructureAreRefused) {
  DiagramSpec d;
  d.name = "structure";
  d.blocks = {block("one", "constant", {number("value", 1.0)}),
              block("lag", "transfer_function", {list("num", {1.0}), list("den", {0.4, 1.0})}),
              block("lut", "lookup_table", {list("x", {0.0, 1.0}), list("y", {0.0, 10.0})}),
              block("ss", "state_space",
                    {matrix("A", {{-1.0}}), matrix("B", {{1.0}}), matrix("C", {{1.0}}),
                     matrix("D", {{0.0}})}),
              block("sat", "saturation", {number("lower", -1.0), text("upper", "u_max")}),
              block("x", "integrator", {number("lower", 0.0), number("upper", 5.0)})};
  d.parameters = {{"u_max", 1.0, {}}};
  d.connections = {wire("one", "lag"), wire("one", "lut"), wire("one", "ss"), wire("one", "sat"),
                   wire("sat", "x")};
  const auto diagram = compile(d);
  const DiagramModel model(diagram);
  const auto misfit = [&](const std::string& name, double value) {
    std::vector<double> p = model.default_parameters();
    p[model.parameter_index(name)] = value;
    return diagram->misfit(p).value_or("");
  };
  EXPECT_EQ(misfit("lag.den[1]", 3.0), "");
  EXPECT_EQ(misfit("lag.den[0]", 0.0),
            "block 'lag' (transfer_function): den[0], the leading coefficient, must not be 0");
  EXPECT_EQ(misfit("lut.x[1]", -1.0),
            "block 'lut' (lookup_table): x must be strictly increasing, but x[1] = -1 follows "
            "x[0] = 0");
  EXPECT_NE(misfit("ss.D[0][0]", 1.0).find("D[0][0] must stay 0"), std::string::npos);
  // The limits' order the block checked in the file holds for every run's values too, named by
  // the parameters that set them (a diagram parameter for the saturation's upper).
  EXPECT_EQ(misfit("sat.lower", 1.0), "");
  EXPECT_EQ(misfit("sat.lower", 2.0),
            "block 'sat' (saturation): lower must not exceed upper: p.sat.lower = 2 > p.u_max = 1");
  EXPECT_EQ(misfit("u_max", -1.5),
            "block 'sat' (saturation): lower must not exceed upper: p.sat.lower = -1 > p.u_max = "
            "-1.5");
  EXPECT_EQ(misfit("x.upper", -1.0),
            "block 'x' (integrator): lower must not exceed upper: p.x.lower = 0 > p.x.upper = -1");
  SimulatorSettings s = accurate(1.0);
  s.parameters = {{"lag.den[0]", 0.0}};
  EXPECT_THROW((void)simulate(model, s), std::runtime_error);
  s.parameters = {{"x.lower", 6.0}};
  try {
    (void)simulate(model, s);
    ADD_FAILURE() << "the crossed limits were not refused";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("p.x.lower = 6 > p.x.upper = 5"), std::string::npos)
        << e.what();
  }
}

// The file's own values are checked when the diagram compiles, at the block's `lower`.
TEST(Diagram, CrossedLimitsInTheFileAreACompileError) {
  for (const char* type : {"saturation", "integrator"}) {
    DiagramSpec d;
    d.name = "limits";
    d.blocks = {block("one", "constant", {number("value", 1.0)}),
                block("b", type, {number("lower", 2.0), number("upper", 1.0)})};
    d.blocks[1].params[0].origin = {"limits.yaml", 4, 20};
    d.connections = {wire("one", "b")};
    try {
      (void)compile(d);
      ADD_FAILURE() << type << ": crossed limits compiled";
    } catch (const DiagramError& e) {
      EXPECT_NE(std::string(e.what()).find(
                    "limits.yaml:4:20: block 'b' (" + std::string(type) +
                    "), parameter 'lower': lower must not exceed upper: p.b.lower = 2 > "
                    "p.b.upper = 1"),
                std::string::npos)
          << e.what();
    }
  }
}

// BasicAlgebraicLoopExample (block-diagram lecture): y = 1 - y, so y = 0.5.
DiagramSpec algebraic_loop(LoopPolicy policy) {
  DiagramSpec d;
  d.name = "algebraic";
  d.blocks = {block("one", "constant", {number("value", 1.0)}),
              block("sub", "sum", {text("signs", "+-")})};
  d.connections = {wire("one", "sub.u1"), wire("sub", "sub.u2")};
  d.outputs = {output("y", "sub")};
  d.loops.policy = policy;
  d.loops.relaxation = 0.5;
  return d;
}

TEST(Diagram, RefusedLoopNamesItsBlocksAndInput) {
  DiagramSpec d = algebraic_loop(LoopPolicy::refuse);
  d.connections[1].origin = {"loop.yaml", 7, 5};
  try {
    (void)compile(d);
    FAIL() << "the loop was not refused";
  } catch (const DiagramError& e) {
    EXPECT_EQ(e.where().line, 7);
    EXPECT_NE(std::string(e.what()).find("loop.yaml:7:5: algebraic loop: sub -> sub (input u2)"),
              std::string::npos)
        << e.what();
  }
}

TEST(Diagram, BothLoopSolversFindTheAlgebraicSolution) {
  for (LoopPolicy policy : {LoopPolicy::fixed_point, LoopPolicy::newton}) {
    const DiagramModel model(compile(algebraic_loop(policy)));
    const Vector y = outputs_at_start(model);
    // The relative tolerance 1e-12 bounds |y - 0.5| (the map is a contraction with factor
    // 0 at relaxation 0.5, and linear for Newton).
    EXPECT_NEAR(y[0], 0.5, 1e-12);
  }
}

// The block-diagram lecture's diode divider: Vout = Vin - R1 Is (exp(Vout / (n VT)) - 1).
DiagramSpec diode(LoopPolicy policy) {
  DiagramSpec d;
  d.name = "diode";
  d.parameters = {{"Is", 1e-12, {}}, {"n", 1.0, {}}, {"VT", 0.025, {}}};
  d.blocks = {block("vin", "constant", {number("value", 5.0)}),
              block("current", "function", {text("expr", "Is * (exp(v / (n * VT)) - 1)")}),
              block("r1", "gain", {number("k", 1000.0)}),
              block("vout", "sum", {text("signs", "+-")})};
  d.blocks[1].function_inputs = {"v"};
  d.connections = {wire("vin", "vout.u1"), wire("r1", "vout.u2"), wire("vout", "current.v"),
                   wire("current", "r1")};
  d.outputs = {output("vout", "vout")};
  d.loops.policy = policy;
  return d;
}

TEST(Diagram, NewtonSolvesTheDiodeDivider) {
  const DiagramModel model(compile(diode(LoopPolicy::newton)));
  const Vector y = outputs_at_start(model);
  // Independent solution: bisection on g(v) = Vin - R1 Is (exp(v / VT) - 1) - v, decreasing
  // in v, to the last bit.
  const auto g = [](double v) { return 5.0 - 1000.0 * 1e-12 * (std::exp(v / 0.025) - 1.0) - v; };
  double lo = 0.0;
  double hi = 5.0;
  for (int i = 0; i < 200; ++i) (g(0.5 * (lo + hi)) > 0.0 ? lo : hi) = 0.5 * (lo + hi);
  EXPECT_NEAR(y[0], lo, 1e-11);
}

TEST(Diagram, NonConvergenceNamesTheLoopAndResidual) {
  // Fixed point on the diode: the map's slope R1 Is exp(v / VT) / VT is far above 1 at the
  // solution, so the iteration cannot converge.
  DiagramSpec d = diode(LoopPolicy::fixed_point);
  d.loops.max_iter = 20;
  const DiagramModel model(compile(d));
  Context context;
  const std::vector<double> p = model.default_parameters();
  context.p = p;
  Vector y;
  try {
    model.output(0.25, Vector(), context, y);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("algebraic loop current -> r1 -> vout did not converge at t = 0.25"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("residual"), std::string::npos) << what;
  }
}

TEST(Diagram, SeveralLoopsAreSolvedEachOnItsOwn) {
  // y1 = 1 - y1 and y2 = y1 + 0.5 y2 (y2 = 2 y1 = 1): two components, in dependency order.
  DiagramSpec d = algebraic_loop(LoopPolicy::newton);
  d.blocks.push_back(block("half", "gain", {number("k", 0.5)}));
  d.blocks.push_back(block("add", "sum", {text("signs", "++")}));
  d.connections.push_back(wire("sub", "add.u1"));
  d.connections.push_back(wire("add", "half"));
  d.connections.push_back(wire("half", "add.u2"));
  d.outputs.push_back(output("y2", "add"));
  const auto compiled = compile(d);
  EXPECT_NE(compiled->describe().find("algebraic loops: 2"), std::string::npos)
      << compiled->describe();
  const DiagramModel model(compiled);
  const Vector y = outputs_at_start(model);
  EXPECT_NEAR(y[0], 0.5, 1e-12);
  EXPECT_NEAR(y[1], 1.0, 1e-12);
}

TEST(Diagram, EvaluationOrderFollowsFeedThroughNotFileOrder) {
  // Written backwards: the gain reads the sum, which reads the constant.
  DiagramSpec d;
  d.name = "order";
  d.blocks = {block("g", "gain", {number("k", 2.0)}), block("s", "sum", {text("signs", "+")}),
              block("c", "constant", {number("value", 4.0)})};
  d.connections = {wire("s", "g"), wire("c", "s")};
  d.outputs = {output("y", "g")};
  const auto compiled = compile(d);
  const std::string plan = compiled->describe();
  EXPECT_LT(plan.find("1. c"), plan.find("2. s"));
  EXPECT_LT(plan.find("2. s"), plan.find("3. g"));
  const DiagramModel model(compiled);
  const Vector y = outputs_at_start(model);
  EXPECT_DOUBLE_EQ(y[0], 8.0);
}

// A subsystem: y = k u, its parameter k overridable by the block.
std::shared_ptr<DiagramSpec> scaler() {
  auto s = std::make_shared<DiagramSpec>();
  s->name = "scaler";
  s->parameters = {{"k", 2.0, {}}};
  s->blocks = {block("in", "inport"), block("g", "gain", {text("k", "k")})};
  s->connections = {wire("in", "g")};
  s->outputs = {output("out", "g")};
  return s;
}

TEST(Diagram, SubsystemsFlattenWithTheirOwnParameters) {
  DiagramSpec d;
  d.name = "outer";
  d.blocks = {block("c", "constant", {number("value", 3.0)}), block("twice", "subsystem"),
              block("thrice", "subsystem", {number("k", 3.0)})};
  d.blocks[1].subsystem = scaler();
  d.blocks[2].subsystem = scaler();
  d.connections = {wire("c", "twice.in"), wire("twice.out", "thrice")};
  d.outputs = {output("y", "thrice")};
  const DiagramModel model(compile(d));
  EXPECT_NO_THROW((void)model.parameter_index("twice.k"));
  EXPECT_NO_THROW((void)model.parameter_index("thrice.k"));
  const Vector y = outputs_at_start(model);
  EXPECT_DOUBLE_EQ(y[0], 18.0);
}

TEST(Diagram, LoopsThroughSubsystemsAreFound) {
  DiagramSpec d;
  d.name = "outer";
  d.blocks = {block("s", "subsystem")};
  d.blocks[0].subsystem = scaler();
  d.connections = {wire("s", "s")};
  try {
    (void)compile(d);
    FAIL() << "no loop found";
  } catch (const DiagramError& e) {
    EXPECT_NE(std::string(e.what()).find("algebraic loop: s/in -> s/g -> s/in (input u)"),
              std::string::npos)
        << e.what();
  }
}

TEST(Diagram, SaturationCornersAreLocatedAsEvents) {
  // u = t saturated to [-1, 0.5] and integrated: x = t^2 / 2 until t = 0.5, then
  // 0.125 + 0.5 (t - 0.5).
  DiagramSpec d;
  d.name = "saturated";
  d.blocks = {block("clk", "clock"),
              block("sat", "saturation", {number("lower", -1.0), number("upper", 0.5)}),
              block("x", "integrator")};
  d.connections = {wire("clk", "sat"), wire("sat", "x")};
  const DiagramModel model(compile(d));
  ASSERT_EQ(model.info().events.size(), 2U);
  const auto run = simulate(model, accurate(1.0));
  ASSERT_EQ(run.events.size(), 1U);
  EXPECT_EQ(run.events[0].name, "sat.upper");
  // The locator's bracket is 1e-12 relative (events.hpp).
  EXPECT_NEAR(run.events[0].time, 0.5, 1e-11);
  EXPECT_NEAR(run.x_end[0], 0.375, 1e-10);
}

TEST(Diagram, LimitedIntegratorStopsAtItsLimit) {
  DiagramSpec d;
  d.name = "limited";
  d.blocks = {block("one", "constant", {number("value", 1.0)}),
              block("x", "integrator", {number("upper", 0.3)})};
  d.connections = {wire("one", "x")};
  const DiagramModel model(compile(d));
  const auto run = simulate(model, accurate(1.0));
  ASSERT_EQ(run.events.size(), 1U);
  // x = t enters the held band (4 sqrt(eps) below the limit) and is clamped onto it there
  // (located to 4e-11: past the band's edge x' = 0, so the bracket's far end is flat).
  EXPECT_NEAR(run.events[0].time, 0.3 - 4.0 * 1.4901161193847656e-08, 1e-10);
  EXPECT_DOUBLE_EQ(run.x_end[0], 0.3);
}

// x' = cos t limited to [-1, 0.5], x(0) = 0: held at 0.5 on [pi/6, pi/2], at -1 on
// [7 pi/6, 3 pi/2], x = sin t after that, so x(6) = sin 6. Leaving the lower limit, the
// implicit methods' difference-quotient Jacobian crossed into the free side (about -|u| /
// delta): ode23t stayed at -1 (error 0.72), ode23tb ended 0.55 off, ode15s 0.021. Bound 1e-6
// at rtol 1e-9: the clamp is at most kBand (6e-8) early, where the exact state is within 6e-8
// of the limit and held right after, so it leaves no error; what remains is the methods' own
// global error over [3 pi / 2, 6] (1e-7 for the second-order ones on a quadrature, measured).
TEST(Diagram, LimitedIntegratorLeavesItsLimitWhenTheInputTurnsWithEveryMethod) {
  DiagramSpec d;
  d.name = "limited_cosine";
  d.blocks = {block("clk", "clock"), block("f", "function", {text("expr", "cos(tt)")}),
              block("x", "integrator", {number("lower", -1.0), number("upper", 0.5)})};
  d.blocks[1].function_inputs = {"tt"};
  d.connections = {wire("clk", "f.tt"), wire("f", "x")};
  const DiagramModel model(compile(d));
  for (const std::string method : {"ode45", "ode23t", "ode23tb", "ode15s", "radau2a"}) {
    SimulatorSettings s;
    s.method = method;
    s.tf = 6.0;
    s.h = method == "radau2a" ? 1e-3 : 0.0;
    s.stepper.rtol = 1e-9;
    s.stepper.atol = {1e-12};
    const auto run = simulate(model, s);
    EXPECT_NEAR(run.x_end[0], std::sin(6.0), 1e-6) << method;
  }
}

// Van der Pol x'' = mu (1 - x^2) x' - x as a diagram: one function block, two integrators.
TEST(Diagram, VanDerPolDiagramAgreesWithTheBuiltInModel) {
  DiagramSpec d;
  d.name = "vdp";
  d.parameters = {{"mu", 1.0, {}}};
  d.blocks = {block("x", "integrator", {number("x0", 2.0)}), block("v", "integrator"),
              block("a", "function", {text("expr", "mu * (1 - x^2) * v - x")})};
  d.blocks[2].function_inputs = {"x", "v"};
  d.connections = {wire("v", "x"), wire("a", "v"), wire("x", "a.x"), wire("v", "a.v")};
  const DiagramModel diagram(compile(d));
  const auto built_in = make_model("van_der_pol");
  for (const double mu : {0.5, 2.0}) {
    SimulatorSettings s = accurate(5.0);
    s.x0 = Vector::Zero(2);
    s.x0 << 2.0, 0.0;
    s.parameters = {{"mu", mu}};
    const auto a = simulate(diagram, s);
    const auto b = simulate(*built_in, s);
    // The same method on the same equations: the runs differ only by rounding in the
    // right-hand side's evaluation order, amplified by the error control (rtol 1e-11).
    EXPECT_NEAR((a.x_end - b.x_end).lpNorm<Eigen::Infinity>(), 0.0, 1e-9) << "mu = " << mu;
  }
}

TEST(Diagram, ImplicitMethodsCombineWithLoopSolving) {
  // x' = -y with y = x - 0.5 y (a loop): y = 2x / 3, x = exp(-2t/3). Implicit Euler's
  // Newton iteration calls the model whose loop Newton solves at every evaluation.
  DiagramSpec d;
  d.name = "stiff_loop";
  d.blocks = {block("x", "integrator", {number("x0", 1.0)}),
              block("neg", "gain", {number("k", -1.0)}), block("y", "sum", {text("signs", "+-")}),
              block("half", "gain", {number("k", 0.5)})};
  d.connections = {wire("x", "y.u1"), wire("half", "y.u2"), wire("y", "half"), wire("y", "neg"),
                   wire("neg", "x")};
  d.loops.policy = LoopPolicy::newton;
  const DiagramModel model(compile(d));
  SimulatorSettings s;
  s.method = "ode23t";
  s.tf = 1.0;
  s.stepper.rtol = 1e-8;
  s.stepper.atol = {1e-10};
  const auto run = simulate(model, s);
  // rtol 1e-8 on a smooth scalar decay: global error well below 1e-6.
  EXPECT_NEAR(run.x_end[0], std::exp(-2.0 / 3.0), 1e-6);
}

// m x'' = -k x as a diagram declaring second_order (positions [x], velocities [v]): k / m = 4,
// so it is the built-in harmonic_oscillator with omega = 2, states in the other order. Damped,
// the force also reads v.
DiagramSpec spring(bool damped = false) {
  DiagramSpec d;
  d.name = "spring";
  d.parameters = {{"k", 4.0, {}}, {"m", 1.0, {}}};
  d.blocks = {
      block("force", "function", {text("expr", damped ? "-k / m * x - 0.1 * v" : "-k / m * x")}),
      block("v", "integrator"), block("x", "integrator", {number("x0", 0.1)})};
  d.blocks[0].function_inputs = {"x"};
  d.connections = {wire("force", "v"), wire("v", "x"), wire("x", "force.x")};
  if (damped) {
    d.blocks[0].function_inputs.push_back("v");
    d.connections.push_back(wire("v", "force.v"));
  }
  d.second_order = SecondOrderSpec{{port("x")}, {port("v")}, {}};
  return d;
}

TEST(Diagram, SecondOrderDiagramRunsTheNystromMethodsLikeTheBuiltInModel) {
  const DiagramModel diagram(compile(spring()));
  ASSERT_TRUE(diagram.info().second_order);
  EXPECT_EQ(diagram.info().second_order->positions, (std::vector<Eigen::Index>{1}));
  EXPECT_EQ(diagram.info().second_order->velocities, (std::vector<Eigen::Index>{0}));
  EXPECT_NE(diagram.diagram().describe().find(
                "second order x'' = g(t, q) (rkn4, rkn64): positions x, velocities v"),
            std::string::npos)
      << diagram.diagram().describe();
  const auto built_in = make_model("harmonic_oscillator");
  for (const char* method : {"rkn4", "rkn64"}) {
    SimulatorSettings s;
    s.method = method;
    s.h = 0.01;
    s.tf = 3.0;
    s.stepper.rtol = 1e-9;
    s.stepper.atol = {1e-9};
    s.x0 = Vector{{0.0, 0.1}};  // (v, x)
    const auto a = simulate(diagram, s);
    SimulatorSettings b_settings = s;
    b_settings.x0 = Vector{{0.1, 0.0}};  // (x, v)
    b_settings.parameters = {{"omega", 2.0}};
    const auto b = simulate(*built_in, b_settings);
    // The same method on the same acceleration -4 x (the diagram's -k / m * x rounds alike):
    // the runs agree to rounding, far below the methods' own error (~1e-9 here).
    EXPECT_NEAR(a.x_end[1], b.x_end[0], 1e-13) << method;
    EXPECT_NEAR(a.x_end[0], b.x_end[1], 1e-13) << method;
    EXPECT_EQ(a.statistics.rhs_evaluations, b.statistics.rhs_evaluations) << method;
    // And both are the exact solution x = 0.1 cos(2 t) to the method's accuracy.
    EXPECT_NEAR(a.x_end[1], 0.1 * std::cos(6.0), 1e-8) << method;
  }
}

std::string second_order_error(const DiagramSpec& d) {
  try {
    (void)compile(d);
  } catch (const DiagramError& e) {
    return e.what();
  }
  return "";
}

TEST(Diagram, SecondOrderIsRefusedWhereTheStructureIsNotThere) {
  // Damping: the acceleration reads v, so a Nystrom method could not evaluate it.
  EXPECT_NE(second_order_error(spring(true))
                .find("the acceleration of 'v' depends on a velocity (v -> force -> v)"),
            std::string::npos)
      << second_order_error(spring(true));
  // Positions and velocities swapped: x' is not v.
  DiagramSpec swapped = spring();
  swapped.second_order = SecondOrderSpec{{port("v")}, {port("x")}, {}};
  EXPECT_NE(second_order_error(swapped).find("must integrate its velocity 'x' directly"),
            std::string::npos)
      << second_order_error(swapped);
  DiagramSpec not_integrator = spring();
  not_integrator.second_order = SecondOrderSpec{{port("x")}, {port("force")}, {}};
  EXPECT_NE(second_order_error(not_integrator)
                .find("the velocity 'force' must be an integrator without lower/upper limits"),
            std::string::npos);
  DiagramSpec extra = spring();
  extra.blocks.push_back(block("energy", "integrator"));
  extra.connections.push_back(wire("x", "energy"));
  EXPECT_NE(
      second_order_error(extra).find("the state 'energy' is neither a position nor a velocity"),
      std::string::npos);
  DiagramSpec unequal = spring();
  unequal.second_order->velocities.clear();
  EXPECT_NE(second_order_error(unequal).find("as many positions as velocities"), std::string::npos);
}

}  // namespace

namespace {

// 100,000 blocks in one file compile in well under a second (Release). The compiler was
// quadratic in them (name look-ups, edge scans per block) and its recursive Tarjan overflowed
// the stack on this chain; a feed-through loop of 20,000 gains is ordered and cut once.
TEST(Diagram, HundredThousandBlocksCompileWithoutRecursionOrRescans) {
  constexpr int kChain = 100000;
  DiagramSpec chain;
  chain.blocks.push_back(block("g0", "constant", {number("value", 1.0)}));
  for (int i = 1; i < kChain; ++i) {
    const std::string name = std::string("g").append(std::to_string(i));
    chain.blocks.push_back(block(name, "gain", {number("k", 1.0)}));
    chain.connections.push_back(wire(std::string("g").append(std::to_string(i - 1)), name));
  }
  chain.outputs = {output("y", std::string("g").append(std::to_string(kChain - 1)))};
  const Vector y = outputs_at_start(DiagramModel(compile(chain)));
  EXPECT_EQ(y[0], 1.0);

  constexpr int kLoop = 20000;
  DiagramSpec loop;
  for (int i = 0; i < kLoop; ++i) {
    loop.blocks.push_back(block(std::string("g").append(std::to_string(i)), "gain",
                                {number("k", i == 0 ? 0.5 : 1.0)}));
    loop.connections.push_back(wire(std::string("g").append(std::to_string(i)),
                                    std::string("g").append(std::to_string((i + 1) % kLoop))));
  }
  loop.loops.policy = LoopPolicy::fixed_point;
  const auto compiled = compile(loop);
  ASSERT_EQ(compiled->plan().loops.size(), 1U);
  EXPECT_EQ(compiled->plan().loops.front().blocks.size(), static_cast<std::size_t>(kLoop));
  EXPECT_EQ(compiled->plan().loops.front().cuts.size(), 1U);  // g0's input, from g19999
}

}  // namespace

namespace {

// A step of an inport's signal is a jump the simulator steps onto: the step before it reads
// the value before the jump (every stage), the method restarts after it. Then no step
// straddles the jump, and the runs match the closed forms; a step straddling it mixed both
// values into one step (ode4, h = 0.1, jump at 0.55: an integrator ended at 4.967 for 4.9).
TEST(Diagram, AStepOfAnInportsSignalIsAJumpNoStepStraddles) {
  // b -> x' = u, and b -> x' = (u - x) / tau (a first-order lag), u = 2 from t = 0.55 on.
  DiagramSpec integrator;
  integrator.blocks = {block("b", "inport"), block("x", "integrator")};
  integrator.connections = {wire("b", "x")};
  integrator.outputs = {output("y", "x")};
  const double tau = 0.5;
  DiagramSpec lag;
  lag.blocks = {block("b", "inport"), block("e", "sum", {text("signs", "+-")}),
                block("k", "gain", {number("k", 1.0 / tau)}), block("x", "integrator")};
  lag.connections = {wire("b", "e.u1"), wire("x", "e.u2"), wire("e", "k"), wire("k", "x")};
  lag.outputs = {output("y", "x")};
  const double at = 0.55;
  const double tf = 3.0;
  const auto step = step_input(at, 0.0, 2.0);
  struct Case {
    const char* method;
    double h;
  };
  for (const bool named : {false, true}) {  // the run's u, or the inport's own u.b
    const auto model = [&](const DiagramSpec& d) {
      return named ? DiagramModel(compile(d), {{"b", step}}) : DiagramModel(compile(d));
    };
    const DiagramModel integrating = model(integrator);
    const DiagramModel lagging = model(lag);
    for (const Case& c : {Case{"ode4", 0.1}, Case{"ode45", 0.0}, Case{"ode23", 0.0},
                          Case{"ode1", 0.1}, Case{"ode15s", 0.0}}) {
      SimulatorSettings s;
      s.method = c.method;
      s.h = c.h;
      s.tf = tf;
      if (!named) s.input = step;
      // x' = u piecewise constant: every Runge-Kutta method (and BDF, whose polynomials
      // reproduce a linear x) integrates it exactly when no step straddles the jump; only the
      // rounding of the summed steps is left (a few ulps of x = 4.9).
      const auto run = Simulator(integrating, s).run();
      EXPECT_NEAR(run.x_end[0], 2.0 * (tf - at), 1e-12) << c.method << (named ? " u.b" : " u");
    }
    // The lag with ode4 at h = 0.01: RK4's global error for x' = -x / tau is about
    // (h / tau)^4 / 120 (t / tau) |x| = 1.3e-9 * 4.9 * 2 ~ 1.3e-8 (the same on both sides
    // of the jump); a straddling step's error is O(h u / tau), ~1e-2.
    SimulatorSettings s;
    s.method = "ode4";
    s.h = 0.01;
    s.tf = tf;
    if (!named) s.input = step;
    const auto run = Simulator(lagging, s).run();
    EXPECT_NEAR(run.x_end[0], 2.0 * (1.0 - std::exp(-(tf - at) / tau)), 1e-7)
        << (named ? "u.b" : "u");
  }
}

}  // namespace

namespace {

// The piecewise-linear u that rises from 0 to 1 between t = 0.2 and t = 0.7: its kinks are at
// 0.2 and 0.7, x' = u ends at x(1) = 0.25 + 0.3 = 0.55.
constexpr double kRampStart = 0.2;
constexpr double kRampEnd = 0.7;
constexpr double kRampIntegral = 0.55;

// A CSV file in the test's temporary directory, removed with the fixture.
class DiagramCsv {
 public:
  DiagramCsv(const std::string& name, const std::string& text)
      : path_(std::filesystem::temp_directory_path() /
              (name + "_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
               ".csv")) {
    std::ofstream(path_) << text;
  }
  ~DiagramCsv() { std::filesystem::remove(path_); }
  DiagramCsv(const DiagramCsv&) = delete;
  DiagramCsv& operator=(const DiagramCsv&) = delete;
  [[nodiscard]] std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

BlockSpec signal_block(std::string name, InputPtr signal) {
  BlockSpec b = block(std::move(name), "signal");
  b.signal = std::move(signal);
  return b;
}

// x' = u for the source blocks `sources` whose output `from` drives the integrator x.
DiagramSpec integrating(std::vector<BlockSpec> sources, std::vector<ConnectionSpec> wires,
                        const std::string& from) {
  DiagramSpec d;
  d.name = "integrating";
  d.blocks = std::move(sources);
  d.blocks.push_back(block("x", "integrator"));
  d.connections = std::move(wires);
  d.connections.push_back(wire(from, "x"));
  d.outputs = {output("y", "x")};
  return d;
}

// ode45 at rtol = atol = 1e-10 over [0, 1]; the end value's error against `exact`, printed with
// the run's statistics (docs/diagrams.md records them before and after the signals' jumps and
// kinks became time events).
double signal_end_error(const char* what, const DiagramSpec& d, double exact,
                        SimulatorResult* out) {
  SimulatorSettings s;
  s.method = "ode45";
  s.tf = 1.0;
  s.stepper.rtol = 1e-10;
  s.stepper.atol = {1e-10};
  SimulatorResult run = Simulator(DiagramModel(compile(d)), s).run();
  const double error = std::abs(run.x_end[0] - exact);
  std::cout << what << ": |x(1) - exact| = " << error << ", " << run.statistics.steps << " steps, "
            << run.statistics.rejected_steps << " rejected, " << run.statistics.rhs_evaluations
            << " f, " << run.statistics.time_events << " time events\n";
  if (out != nullptr) *out = std::move(run);
  return error;
}

// x' = u with u piecewise constant or linear is a quadrature, which ode45 (order 5) does
// exactly on every step that does not straddle a jump or kink of u: only the rounding of the
// summed steps is left, a few ulps of x ~ 1 over some 20 steps, so 1e-13 (three orders below
// rtol = atol = 1e-10). A step straddling the jump or kink mixes both sides into one
// polynomial: the error control shrinks the step towards it with rejection after rejection
// and accepts a local error of up to the tolerance at each of those steps. Before the
// signals' jumps and kinks were time events x(1) was off by 1.5e-9 (step) and 2.3e-9 (ramp),
// 15 and 23 times the tolerance, after 31 and 21 rejected steps (docs/diagrams.md).
constexpr double kQuadratureRounding = 1e-13;

TEST(Diagram, SignalJumpsAndKinksAreTimeEventsTheSolverStepsOnto) {
  SimulatorResult run;
  // A step at 0.3: x(1) = 0.7.
  const DiagramSpec step = integrating({signal_block("u", step_input(0.3, 0.0, 1.0))}, {}, "u");
  EXPECT_LE(signal_end_error("signal step at 0.3", step, 0.7, &run), kQuadratureRounding);
  EXPECT_EQ(run.statistics.time_events, 1);
  EXPECT_EQ(run.statistics.rejected_steps, 0);

  // The ramp from 0.2 to 0.7 as two ramps, the second subtracted: two kinks of two blocks.
  const double slope = 1.0 / (kRampEnd - kRampStart);
  const DiagramSpec ramps = integrating(
      {signal_block("up", ramp_input(kRampStart, slope)),
       signal_block("down", ramp_input(kRampEnd, slope)), block("u", "sum", {text("signs", "+-")})},
      {wire("up", "u.u1"), wire("down", "u.u2")}, "u");
  EXPECT_LE(signal_end_error("signal ramps 0.2 .. 0.7", ramps, kRampIntegral, &run),
            kQuadratureRounding);
  EXPECT_EQ(run.statistics.time_events, 2);
  EXPECT_EQ(run.statistics.rejected_steps, 0);

  // The same u as a table's knots (a CSV input); its first knot is t0, no event.
  const DiagramCsv csv("simverify_signal_knots", "t, u\n0, 0\n0.2, 0\n0.7, 1\n1, 1\n");
  const DiagramSpec table = integrating({signal_block("u", table_input(csv.path(), "u"))}, {}, "u");
  EXPECT_LE(signal_end_error("signal table 0.2 .. 0.7", table, kRampIntegral, &run),
            kQuadratureRounding);
  // 0.2, 0.7 and the knot on tf = 1: a time event at tf is applied too (a hold samples there);
  // this one changes nothing.
  EXPECT_EQ(run.statistics.time_events, 3);
  EXPECT_EQ(run.statistics.rejected_steps, 0);

  // A first-order lag behind the step, x' = (u - x) / tau: no quadrature, ode45's own error is
  // left. The lag contracts errors (by exp(-t / tau)), so the global error stays below the
  // local tolerance max(rtol |x|, atol) = 1e-10 the steps keep (1.1e-11 measured); a step
  // straddling the jump left 3.1e-10.
  const double tau = 0.5;
  DiagramSpec lag = integrating(
      {signal_block("u", step_input(0.3, 0.0, 1.0)), block("e", "sum", {text("signs", "+-")}),
       block("k", "gain", {number("k", 1.0 / tau)})},
      {wire("u", "e.u1"), wire("x", "e.u2"), wire("e", "k")}, "k");
  EXPECT_LE(signal_end_error("signal step at 0.3, lag", lag, 1.0 - std::exp(-0.7 / tau), &run),
            1e-10);
  EXPECT_EQ(run.statistics.time_events, 1);
  EXPECT_EQ(run.statistics.rejected_steps, 0);
}

// The same InputSignal::next_jump makes a ramp's kink a jump of the run's u and of an inport's
// u.<name> (the simulator's and the model's time): the ramp from 0.2 to 0.7 again, integrated.
TEST(Diagram, KinksOfTheRunsUAndOfInportsAreSteppedOnto) {
  const DiagramCsv csv("simverify_u_knots", "t, u\n0, 0\n0.2, 0\n0.7, 1\n1, 1\n");
  const auto u = table_input(csv.path(), "u");
  const DiagramSpec d = integrating({block("b", "inport")}, {}, "b");
  SimulatorSettings s;
  s.method = "ode45";
  s.tf = 1.0;
  s.stepper.rtol = 1e-10;
  s.stepper.atol = {1e-10};
  const DiagramModel named(compile(d), {{"b", u}});
  const auto by_inport = Simulator(named, s).run();
  EXPECT_LE(std::abs(by_inport.x_end[0] - kRampIntegral), kQuadratureRounding);
  EXPECT_EQ(by_inport.statistics.time_events, 3);  // 0.2, 0.7 and the knot on tf = 1
  EXPECT_EQ(by_inport.statistics.rejected_steps, 0);
  s.input = u;
  const auto by_run = Simulator(DiagramModel(compile(d)), s).run();
  EXPECT_LE(std::abs(by_run.x_end[0] - kRampIntegral), kQuadratureRounding);
  EXPECT_EQ(by_run.statistics.rejected_steps, 0);
}

// A subsystem's signal blocks are the flattened diagram's: their jumps are time events too;
// and a lookup table whose input is the clock (also through a subsystem's inport) has its
// breakpoints as time events.
TEST(Diagram, SignalJumpsInsideSubsystemsAndTablesOfTimeAreTimeEvents) {
  auto source = std::make_shared<DiagramSpec>();
  source->name = "source";
  source->blocks = {signal_block("u", step_input(0.3, 0.0, 1.0)),
                    block("g", "gain", {number("k", 1.0)})};
  source->connections = {wire("u", "g")};
  source->outputs = {output("out", "g")};
  DiagramSpec outer;
  outer.name = "outer";
  outer.blocks = {block("s", "subsystem"), block("x", "integrator")};
  outer.blocks[0].subsystem = source;
  outer.connections = {wire("s.out", "x")};
  outer.outputs = {output("y", "x")};
  SimulatorResult run;
  EXPECT_LE(signal_end_error("subsystem signal step at 0.3", outer, 0.7, &run),
            kQuadratureRounding);
  EXPECT_EQ(run.statistics.time_events, 1);
  EXPECT_EQ(run.statistics.rejected_steps, 0);

  // clock -> lookup_table (x = [0.2, 0.7], y = [0, 1]) -> x: the ramp from 0.2 to 0.7.
  const auto table = [] {
    return block("table", "lookup_table",
                 {list("x", {kRampStart, kRampEnd}), list("y", {0.0, 1.0})});
  };
  const DiagramSpec of_time =
      integrating({block("clock", "clock"), table()}, {wire("clock", "table")}, "table");
  EXPECT_LE(signal_end_error("lookup_table of the clock", of_time, kRampIntegral, &run),
            kQuadratureRounding);
  EXPECT_EQ(run.statistics.time_events, 2);

  auto looked_up = std::make_shared<DiagramSpec>();
  looked_up->name = "looked_up";
  looked_up->blocks = {block("time", "inport"), table()};
  looked_up->connections = {wire("time", "table")};
  looked_up->outputs = {output("out", "table")};
  DiagramSpec through = integrating({block("clock", "clock"), block("s", "subsystem")},
                                    {wire("clock", "s.time")}, "s.out");
  through.blocks[1].subsystem = looked_up;
  EXPECT_LE(
      signal_end_error("lookup_table of the clock in a subsystem", through, kRampIntegral, &run),
      kQuadratureRounding);
  EXPECT_EQ(run.statistics.time_events, 2);

  // A table of anything else (here of t through a gain) is no time: no events.
  const DiagramSpec of_gain =
      integrating({block("clock", "clock"), block("g", "gain", {number("k", 1.0)}), table()},
                  {wire("clock", "g"), wire("g", "table")}, "table");
  (void)signal_end_error("lookup_table of a gain of the clock", of_gain, kRampIntegral, &run);
  EXPECT_EQ(run.statistics.time_events, 0);
}

// Signals without jumps or kinks schedule nothing: a diagram with a sine is run as before.
TEST(Diagram, SmoothSignalsScheduleNoTimeEvents) {
  const DiagramSpec sine = integrating({signal_block("u", sine_input(1.0, 1.0, 0.0))}, {}, "u");
  SimulatorResult run;
  EXPECT_LE(signal_end_error("signal sine", sine, 0.0, &run), 1e-9);  // one full period
  EXPECT_EQ(run.statistics.time_events, 0);
}

}  // namespace
