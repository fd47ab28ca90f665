// The diagram reader (components/diagram_file.hpp): the shipped quarter-car diagram is the
// built-in quarter_car's right-hand side and outputs, subsystem files resolve relative to
// the including file, and errors point at file:line:column.
#include "test_folder.hpp"

#include <simverify/components/diagram_file.hpp>
#include <simverify/simulation/input_signal.hpp>
#include <simverify/simulation/model_registry.hpp>
#include <simverify/simulation/simulator.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;
using namespace simverify;
using simulation::diagram::DiagramError;
using simulation::diagram::DiagramModel;

const fs::path kModels =
    fs::path(SIMVERIFY_SOURCE_DIR) / "requirements/integration/diagrams/models";

TEST(DiagramFile, QuarterCarDiagramIsTheBuiltInModel) {
  const DiagramModel diagram(components::load_diagram(kModels / "quarter_car.yaml"));
  const auto built_in = simulation::make_model("quarter_car");
  ASSERT_EQ(diagram.info().states.size(), 4U);
  ASSERT_EQ(diagram.info().outputs, built_in->info().outputs);
  // Its `units:` declare what the built-in model declares.
  EXPECT_EQ(diagram.info().state_units, built_in->info().state_units);
  EXPECT_EQ(diagram.info().output_units, built_in->info().output_units);
  EXPECT_EQ(diagram.info().time_unit, "s");
  // Parameters by name: the diagram's first six are the built-in model's, in its order.
  std::vector<double> p_built_in = built_in->default_parameters();
  std::vector<double> p_diagram = diagram.default_parameters();
  for (std::size_t i = 0; i < p_built_in.size(); ++i) {
    EXPECT_EQ(diagram.info().parameters[i].name, built_in->info().parameters[i].name);
    EXPECT_EQ(diagram.info().parameters[i].unit, built_in->info().parameters[i].unit);
    p_built_in[i] *= 1.0 + 0.1 * static_cast<double>(i);  // away from the defaults
    p_diagram[i] = p_built_in[i];
  }
  simulation::Context a;
  a.p = p_diagram;
  simulation::Context b;
  b.p = p_built_in;
  a.u = b.u = {0.013, -0.4};
  simulation::Vector x(4);
  x << 0.02, -0.3, 0.011, 0.7;
  simulation::Vector fa, fb, ya, yb;
  diagram.rhs(0.0, x, a, fa);
  built_in->rhs(0.0, x, b, fb);
  diagram.output(0.0, x, a, ya);
  built_in->output(0.0, x, b, yb);
  // The same formulas in another order of operations: equal to a few ulps of the terms.
  for (Eigen::Index i = 0; i < 4; ++i) {
    EXPECT_NEAR(fa[i], fb[i], 1e-12 * (1.0 + std::abs(fb[i]))) << "f" << i;
    EXPECT_NEAR(ya[i], yb[i], 1e-12 * (1.0 + std::abs(yb[i]))) << "y" << i;
  }
}

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override { fs::create_directories(dir_ / "parts"); }
  fs::path write(const std::string& name, const std::string& text) {
    folder_.write(name, text);
    return dir_ / name;
  }
  const framework::fakes::TestFolder folder_{"simverify_diagram"};  // test_folder.hpp
  const fs::path& dir_ = folder_.path;
};

using DiagramFileSubsystem = TempDir;

TEST_F(DiagramFileSubsystem, ResolvesRelativeToTheIncludingFile) {
  write("parts/scale.yaml", R"(diagram:
  parameters: {k: 2.0}
  blocks:
    in: {type: inport}
    g: {type: gain, k: k}
  connections:
    - [in, g]
  outputs:
    out: g
)");
  const fs::path top = write("top.yaml", R"(diagram:
  parameters: {gain: 5.0}
  blocks:
    c: {type: constant, value: 3.0}
    a: {type: subsystem, file: parts/scale.yaml}
    b: {type: subsystem, file: parts/scale.yaml, parameters: {k: gain}}
  connections:
    - [c, a.in]
    - [a.out, b]
  outputs:
    y: b.out
)");
  const DiagramModel model(components::load_diagram(top));
  simulation::Context context;
  const std::vector<double> p = model.default_parameters();
  context.p = p;
  simulation::Vector y;
  model.output(0.0, simulation::Vector(), context, y);
  EXPECT_DOUBLE_EQ(y[0], 3.0 * 2.0 * 5.0);
  EXPECT_NE(components::load_diagram(top)->describe().find("a/g (gain)"), std::string::npos);
}

// A misspelt name inside a diagram gets the hint a misspelt name in a requirement gets.
TEST_F(DiagramFileSubsystem, MisspeltNamesInsideTheDiagramAreSuggested) {
  write("parts/scale.yaml", R"(diagram:
  parameters: {gain: 2.0}
  blocks:
    in: {type: inport}
    g: {type: gain, k: gain}
  connections:
    - [in, g]
  outputs:
    out: g
)");
  const auto message_of = [&](const std::string& text) {
    try {
      (void)components::load_diagram(write("top.yaml", text));
    } catch (const DiagramError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const auto contains = [](const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
  };
  EXPECT_PRED2(contains, message_of(R"(diagram:
  blocks:
    c: {type: constant, value: 3.0}
    s: {type: subsystem, file: parts/scale.yaml, parameters: {gian: 4}}
  connections:
    - [c, s]
  outputs:
    y: s
)"),
               "has no parameter 'gian' (did you mean 'gain'?)");
  EXPECT_PRED2(contains, message_of(R"(diagram:
  blocks:
    c: {type: constant, value: 3.0}
    s: {type: subsystem, file: parts/scale.yaml}
  connections:
    - [c, s]
  outputs:
    y: s.otu
)"),
               "has no output 'otu' (did you mean 'out'?)");
}

TEST_F(DiagramFileSubsystem, IndirectRecursionIsRefusedWhereTheFileIsNamed) {
  write("a.yaml",
        "diagram:\n  blocks:\n    in: {type: inport}\n    s: {type: subsystem, file: b.yaml}\n  "
        "connections:\n    - [in, s]\n");
  write("b.yaml",
        "diagram:\n  blocks:\n    in: {type: inport}\n    s: {type: subsystem, file: a.yaml}\n  "
        "connections:\n    - [in, s]\n");
  try {
    (void)components::read_diagram(dir_ / "a.yaml");
    FAIL() << "recursion not refused";
  } catch (const DiagramError& e) {
    EXPECT_EQ(e.where().file, (dir_ / "b.yaml").string());
    EXPECT_EQ(e.where().line, 4);
    EXPECT_EQ(e.where().column, 32);  // at `a.yaml`
    EXPECT_NE(e.message().find("cannot contain itself"), std::string::npos) << e.what();
  }
}

// File i includes file i + 1 twice, 40 levels: 2^40 blocks once flattened. Each file is read
// once (not 2^i times) and the flattened count is refused at the subsystem that would cross
// kMaxFlatBlocks, before its blocks are built: this test took forever before either.
TEST_F(DiagramFileSubsystem, ExponentialFanOutIsRefusedAtTheSubsystemThatCrossesTheLimit) {
  constexpr int kLevels = 40;
  // (append, not operator+: g++ 12 reports a false -Wrestrict for "s" + std::string)
  const auto name = [](int i) {
    return std::string("s").append(std::to_string(i)).append(".yaml");
  };
  for (int i = 0; i < kLevels; ++i) {
    std::string text = "diagram:\n  blocks:\n    u: {type: inport}\n";
    if (i == kLevels - 1) {
      text.append("    g: {type: gain, k: 1}\n  connections: [[u, g]]\n  outputs: {y: g}\n");
    } else {
      for (const char* sub : {"a", "b"}) {
        text.append("    ").append(sub).append(": {type: subsystem, file: ");
        text.append(name(i + 1)).append("}\n");
      }
      text.append("    s: {type: sum}\n  connections: [[u, a], [u, b], [a, s.u1], [b, s.u2]]\n");
      text.append("  outputs: {y: s}\n");
    }
    write(name(i), text);
  }
  // File k flattens to 2^(41 - k) - 2 blocks: s21 to 1,048,574 (over the limit), s22 to 524,286.
  for (const int top : {0, 21}) {
    try {
      (void)components::load_diagram(dir_ / name(top));
      FAIL() << "s" << top << ": no error";
    } catch (const DiagramError& e) {
      EXPECT_EQ(e.where().file, (dir_ / name(top)).string());
      // s0: at `a:`, the first subsystem; s21: at `b:`, where 1 + 2 x 524,286 > 1,000,000.
      EXPECT_EQ(e.where().line, top == 0 ? 4 : 5);
      EXPECT_EQ(e.where().column, 5);
      const std::string expected =
          top == 0 ? "s1.yaml, 1099511627774 blocks once flattened) would bring the diagram to "
                     "1099511627775 blocks (2199023255550 blocks in all); a diagram may have at "
                     "most 1000000 blocks"
                   : "s22.yaml, 524286 blocks once flattened) would bring the diagram to 1048573 "
                     "blocks (1048574 blocks in all)";
      EXPECT_NE(e.message().find(expected), std::string::npos) << e.what();
    }
  }
  // Below the limit it compiles and runs: s30 doubles u nine times.
  const DiagramModel s30(components::load_diagram(dir_ / name(30)));
  simulation::SimulatorSettings settings;
  settings.method = "ode4";
  settings.h = 0.5;
  settings.input = simulation::constant_input(1.0);
  settings.record_outputs = true;
  const auto run = simulation::Simulator(s30, settings).run();
  ASSERT_FALSE(run.trajectory.outputs.empty());
  EXPECT_EQ(run.trajectory.outputs.back()[0], 512.0);
}

TEST(DiagramFile, ErrorsPointIntoTheDiagramText) {
  try {
    (void)simulation::diagram::compile(components::parse_diagram(R"(diagram:
  blocks:
    one: {type: constant, value: 1}
    g: {type: gain, k: 2}
  connections:
    - [one, g.v]
)",
                                                                 "d.yaml"));
    FAIL() << "no error";
  } catch (const DiagramError& e) {
    EXPECT_EQ(std::string(e.what()),
              "d.yaml:6:13: block 'g' (gain) has no input 'v' (did you mean 'u'?); its inputs: u");
  }
}

TEST(DiagramFile, UnitsNameTheTimeOutputsParametersAndStates) {
  const auto compiled = simulation::diagram::compile(components::parse_diagram(R"(diagram:
  parameters: {g: 9.81}
  blocks:
    gravity: {type: constant, value: g}
    v: {type: integrator}
    osc:
      type: state_space
      A: [[0.0, 1.0], [-1.0, 0.0]]
      B: [[0.0], [1.0]]
      C: [[1.0, 0.0], [0.0, 1.0]]
      x0: [1.0, 0.0]
  connections:
    - [gravity, v]
    - [v, osc]
  outputs: {speed: v, motion: osc}
  units: {time: min, g: m/min^2, v: m/min, osc: m, motion: m, speed: m/min}
)",
                                                                               "d.yaml"));
  const auto& info = compiled->info();
  EXPECT_EQ(info.time_unit, "min");
  ASSERT_EQ(info.parameters.front().name, "g");
  EXPECT_EQ(info.parameters.front().unit, "m/min^2");
  // A wide block's name covers each of its states, a wide output's each element.
  EXPECT_EQ(info.states, (std::vector<std::string>{"v", "osc[0]", "osc[1]"}));
  EXPECT_EQ(info.state_units, (std::vector<std::string>{"m/min", "m", "m"}));
  EXPECT_EQ(info.outputs, (std::vector<std::string>{"speed", "motion[0]", "motion[1]"}));
  EXPECT_EQ(info.output_units, (std::vector<std::string>{"m/min", "m", "m"}));
}

TEST(DiagramFile, AUnitForANameTheDiagramDoesNotHaveIsAnError) {
  try {
    (void)simulation::diagram::compile(components::parse_diagram(R"(diagram:
  blocks:
    one: {type: constant, value: 1}
    x: {type: integrator}
  connections:
    - [one, x]
  outputs: {position: x}
  units: {positon: m}
)",
                                                                 "d.yaml"));
    FAIL() << "no error";
  } catch (const DiagramError& e) {
    EXPECT_EQ(std::string(e.what()),
              "d.yaml:8:11: units: 'positon' is not `time`, an output, a parameter or a block "
              "with states of this diagram");
  }
}

}  // namespace
