// The diagram reader (components/diagram_file.hpp): the shipped quarter-car diagram is the
// built-in quarter_car's right-hand side and outputs, subsystem files resolve relative to
// the including file, and errors point at file:line:column.
#include <simverify/components/diagram_file.hpp>
#include <simverify/simulation/input_signal.hpp>
#include <simverify/simulation/model_registry.hpp>

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
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() /
        ("simverify_diagram_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "parts");
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return dir_ / name;
  }
  fs::path dir_;
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
