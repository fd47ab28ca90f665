// Opening FMUs: what modelDescription.xml says for FMI 2.0 and 3.0, one unpacked folder per
// file and process, and every defect `simverify validate` must name.
#include <simverify/fmu/fmu.hpp>

#include "archive.hpp"
#include "fmu_test_support.hpp"
#include "forged_zip.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace simverify::fmu;
using simverify::fmu::testing::broken_fmu;
using simverify::fmu::testing::test_fmu;

namespace {

std::string open_error(const std::filesystem::path& path) {
  try {
    (void)Fmu::open(path);
  } catch (const FmuError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(FmuOpen, ReadsTheDescriptionOfBothVersions) {
  for (const int version : {2, 3}) {
    const auto fmu = Fmu::open(test_fmu(version, "BouncingBall"));
    const ModelDescription& d = fmu->description();
    EXPECT_EQ(d.version, version == 2 ? FmiVersion::fmi2 : FmiVersion::fmi3);
    EXPECT_EQ(d.model_name, "BouncingBall");
    EXPECT_EQ(d.names(d.states), (std::vector<std::string>{"h", "v"}));
    EXPECT_EQ(d.names(d.derivatives), (std::vector<std::string>{"der(h)", "der(v)"}));
    EXPECT_EQ(d.names(d.parameters), (std::vector<std::string>{"g", "e", "h0"}));
    EXPECT_EQ(d.names(d.outputs), (std::vector<std::string>{"h", "v"}));
    EXPECT_TRUE(d.inputs.empty());
    ASSERT_EQ(d.event_indicators.size(), 1u);
    EXPECT_EQ(d.event_indicators[0], version == 2 ? "indicator_1" : "h");
    EXPECT_EQ(d.default_experiment.stop_time, 3.0);
    EXPECT_EQ(d.default_experiment.step_size, 0.01);
    EXPECT_EQ(d.variables[d.parameters[0]].start, 9.81);
    EXPECT_FALSE(d.variables[d.states[0]].start.has_value());  // calculated from h0
    ASSERT_TRUE(fmu->implements(Interface::model_exchange));
    ASSERT_TRUE(fmu->implements(Interface::co_simulation));
    EXPECT_EQ(fmu->default_interface(), Interface::model_exchange);
    EXPECT_TRUE(std::filesystem::is_regular_file(fmu->binary(Interface::model_exchange)));
    EXPECT_EQ(fmu->binary(Interface::co_simulation).parent_path().filename(),
              version == 2 ? "linux64" : "x86_64-linux");
  }
}

TEST(FmuOpen, ReadsCapabilitiesAndInputs) {
  for (const int version : {2, 3}) {
    const auto vdp = Fmu::open(test_fmu(version, "VanDerPol"));
    EXPECT_TRUE(vdp->description().model_exchange->provides_directional_derivatives);
    EXPECT_FALSE(vdp->description().model_exchange->needs_completed_integrator_step);
    const auto saw = Fmu::open(test_fmu(version, "Sawtooth"));
    EXPECT_TRUE(saw->description().model_exchange->needs_completed_integrator_step);
    const auto feed = Fmu::open(test_fmu(version, "Feedthrough"));
    const ModelDescription& d = feed->description();
    EXPECT_EQ(d.names(d.inputs), (std::vector<std::string>{"u1", "u2", "u3"}));
    EXPECT_EQ(d.names(d.outputs), (std::vector<std::string>{"sum", "product", "x"}));
  }
}

TEST(FmuOpen, UnpacksOncePerFileAndProcess) {
  const auto first = Fmu::open(test_fmu(2, "VanDerPol"));
  const auto again = Fmu::open(test_fmu(2, "VanDerPol"));
  EXPECT_EQ(first.get(), again.get());
  EXPECT_NE(first.get(), Fmu::open(test_fmu(3, "VanDerPol")).get());
  // Private: the folder is the process's own (mkdtemp, mode 0700 on its parent).
  const auto root = first->directory().parent_path();
  EXPECT_EQ(std::filesystem::status(root).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_all);
  EXPECT_TRUE(std::filesystem::exists(first->directory() / "modelDescription.xml"));
}

// What the instances share (their function table) is made once per FMU and interface, and a
// maker that failed leaves nothing behind: the next use tries again.
TEST(FmuOpen, SharesWhatItsInstancesNeedPerInterface) {
  // A copy of its own, so that no other test of this process has filled its slots.
  const auto copy = std::filesystem::temp_directory_path() /
                    ("simverify-shared-test-" + std::to_string(::getpid()) + ".fmu");
  std::filesystem::copy_file(test_fmu(2, "VanDerPol"), copy,
                             std::filesystem::copy_options::overwrite_existing);
  const auto fmu = Fmu::open(copy);
  std::filesystem::remove(copy);
  static int made = 0;
  const Fmu::SharedMaker failing = [](const Fmu&, Interface) -> std::shared_ptr<const void> {
    throw FmuError("the binary lacks a function");
  };
  const Fmu::SharedMaker counting = [](const Fmu&, Interface i) -> std::shared_ptr<const void> {
    ++made;
    return std::make_shared<const Interface>(i);
  };
  EXPECT_THROW((void)fmu->shared(Interface::co_simulation, failing), FmuError);
  const auto first = fmu->shared(Interface::co_simulation, counting);
  const auto again = fmu->shared(Interface::co_simulation, counting);
  const auto other = fmu->shared(Interface::model_exchange, counting);
  EXPECT_EQ(made, 2);
  EXPECT_EQ(first, again);
  EXPECT_EQ(*static_cast<const Interface*>(first.get()), Interface::co_simulation);
  EXPECT_EQ(*static_cast<const Interface*>(other.get()), Interface::model_exchange);
}

// A binary that lacks a function the FMI version requires is refused when the FMU is opened
// (`validate`), from its dynamic symbol table, not by the run at every point: the test FMU's
// library with the names of one or two exported functions spoiled (same length, so the ELF
// file stays whole), zipped with its modelDescription.xml again.
TEST(FmuOpen, RefusesABinaryThatLacksARequiredFunction) {
  namespace fs = std::filesystem;
  const fs::path folder =
      fs::temp_directory_path() / ("simverify-missing-export-" + std::to_string(::getpid()));
  fs::create_directories(folder);
  const auto spoiled = [&](int version, const std::vector<std::string>& names) {
    const fs::path source = test_fmu(version, "VanDerPol");
    const simverify::fmu::detail::ZipArchive archive(source);
    std::vector<simverify::fmu::testing::ForgedEntry> entries;
    for (const auto& name : archive.entries()) {
      if (name.back() == '/') continue;
      std::string data = archive.read(name).value();
      if (name.ends_with(".so")) {
        for (const auto& function : names) {
          std::string other = function;
          other[0] = 'x';
          for (auto at = data.find(function); at != std::string::npos;
               at = data.find(function, at + 1)) {
            data.replace(at, function.size(), other);
          }
        }
      }
      entries.push_back({name, data, std::nullopt, std::nullopt});
    }
    const fs::path fmu = folder / ("Missing" + std::to_string(version) + ".fmu");
    simverify::fmu::testing::write_forged_zip(fmu, entries);
    return fmu;
  };
  const fs::path fmi2 = spoiled(2, {"fmi2GetEventIndicators"});
  EXPECT_EQ(open_error(fmi2), "'" + fmi2.string() +
                                  "': its binary binaries/linux64/VanDerPol.so does not export "
                                  "fmi2GetEventIndicators, which FMI 2.0 model_exchange requires");
  const fs::path fmi3 = spoiled(3, {"fmi3SetTime", "fmi3Terminate"});
  EXPECT_EQ(open_error(fmi3), "'" + fmi3.string() +
                                  "': its binary binaries/x86_64-linux/VanDerPol.so does not "
                                  "export fmi3Terminate, fmi3SetTime, which FMI 3.0 "
                                  "model_exchange requires");
  // The untouched FMUs export everything.
  EXPECT_EQ(open_error(test_fmu(2, "VanDerPol")), "no error");
  EXPECT_EQ(open_error(test_fmu(3, "VanDerPol")), "no error");
  fs::remove_all(folder);
}

TEST(FmuOpen, NamesEveryDefect) {
  EXPECT_NE(open_error(broken_fmu("NotAZip")).find("is not a zip archive"), std::string::npos)
      << open_error(broken_fmu("NotAZip"));
  EXPECT_NE(open_error(broken_fmu("NoDescription")).find("has no modelDescription.xml"),
            std::string::npos);
  EXPECT_NE(open_error(broken_fmu("Fmi1"))
                .find("FMI version '1.0' is not supported; simverify "
                      "reads FMI 2.0 and 3.0"),
            std::string::npos)
      << open_error(broken_fmu("Fmi1"));
  const std::string windows = open_error(broken_fmu("WindowsOnly"));
  EXPECT_NE(windows.find("no binary for this platform (linux x86_64)"), std::string::npos)
      << windows;
  EXPECT_NE(windows.find("lacks binaries/linux64/VanDerPol.so"), std::string::npos) << windows;
  EXPECT_NE(windows.find("it has binaries for: win64"), std::string::npos) << windows;
  EXPECT_NE(open_error(broken_fmu("NotElf")).find("is not an x86_64 ELF shared library"),
            std::string::npos)
      << open_error(broken_fmu("NotElf"));
  EXPECT_NE(open_error("no/such/Model.fmu").find("no such file"), std::string::npos);
  const auto cs_only = Fmu::open(broken_fmu("CoSimulationOnly"));
  EXPECT_FALSE(cs_only->implements(Interface::model_exchange));
  EXPECT_EQ(cs_only->default_interface(), Interface::co_simulation);
}

TEST(ModelDescriptionXml, ErrorsSayWhatAndWhere) {
  const auto error = [](std::string_view xml) {
    try {
      (void)parse_model_description(xml);
    } catch (const FmuError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("<fmiModelDescription fmiVersion=\"2.0\">\n<ModelExchange\n"),
            "modelDescription.xml line 2: not well-formed XML (Error parsing start element tag)");
  EXPECT_EQ(error("<other/>"), "modelDescription.xml has no <fmiModelDescription> element");
  EXPECT_EQ(error("<fmiModelDescription fmiVersion=\"2.0\"/>"),
            "modelDescription.xml declares neither <ModelExchange> nor <CoSimulation>");
  EXPECT_EQ(error("<fmiModelDescription fmiVersion=\"2.0\"><ModelExchange/></fmiModelDescription>"),
            "modelDescription.xml: <ModelExchange> has no modelIdentifier");
  EXPECT_EQ(error("<fmiModelDescription fmiVersion=\"2.0\"><ModelExchange modelIdentifier=\"m\" "
                  "needsExecutionTool=\"true\"/></fmiModelDescription>"),
            "the FMU's ModelExchange needs its modelling tool to run (needsExecutionTool), which "
            "simverify cannot start");
  EXPECT_EQ(error("<fmiModelDescription fmiVersion=\"2.0\" numberOfEventIndicators=\"1e12\">"
                  "<CoSimulation modelIdentifier=\"m\"/></fmiModelDescription>"),
            "modelDescription.xml line 1: <fmiModelDescription numberOfEventIndicators=\"1e12\"> "
            "is not a count of event indicators: expected a whole number from 0 to 1000000");
  EXPECT_EQ(error("<fmiModelDescription fmiVersion=\"3.0\"><CoSimulation "
                  "modelIdentifier=\"../evil\"/></fmiModelDescription>"),
            "modelDescription.xml: modelIdentifier '../evil' is not a plain name");
  EXPECT_EQ(error(R"(<fmiModelDescription fmiVersion="3.0"><CoSimulation modelIdentifier="m"/>
      <ModelVariables><Float64 name="x" valueReference="1"/></ModelVariables>
      <ModelStructure><ContinuousStateDerivative valueReference="7"/></ModelStructure>
      </fmiModelDescription>)"),
            "modelDescription.xml line 3: ContinuousStateDerivative refers to value reference 7, "
            "which no variable has");
  EXPECT_EQ(error(R"(<fmiModelDescription fmiVersion="2.0"><CoSimulation modelIdentifier="m"/>
      <ModelVariables><ScalarVariable name="x" valueReference="one"><Real/></ScalarVariable>
      </ModelVariables></fmiModelDescription>)"),
            "modelDescription.xml line 2: <ScalarVariable valueReference=\"one\"> is not a value "
            "reference: expected a whole number from 0 to 4294967295");
  // An enumerated attribute no FMI version has: the variable and its line.
  EXPECT_EQ(error(R"(<fmiModelDescription fmiVersion="2.0"><CoSimulation modelIdentifier="m"/>
      <ModelVariables><ScalarVariable name="x" valueReference="1"><Real/></ScalarVariable>
      <ScalarVariable name="y" valueReference="2" causality="outptu"><Real/></ScalarVariable>
      </ModelVariables></fmiModelDescription>)"),
            "modelDescription.xml line 3: variable 'y' has an unknown causality 'outptu'");
  EXPECT_EQ(error(R"(<fmiModelDescription fmiVersion="3.0"><CoSimulation modelIdentifier="m"/>
      <ModelVariables>
      <Float64 name="k" valueReference="1" causality="parameter" variability="tunabel"/>
      </ModelVariables></fmiModelDescription>)"),
            "modelDescription.xml line 3: variable 'k' has an unknown variability 'tunabel'");
}

namespace {

std::string description_error(std::string_view xml) {
  try {
    (void)parse_model_description(xml);
  } catch (const FmuError& e) {
    return e.what();
  }
  return "no error";
}

// An FMI 2.0 description with two states, the Derivatives' first index, the second state's
// derivative attribute and an Outputs index to be replaced.
std::string fmi2_with(std::string_view index, std::string_view derivative,
                      std::string_view output = "1") {
  return std::string(R"x(<fmiModelDescription fmiVersion="2.0"><ModelExchange modelIdentifier="m"/>
<ModelVariables>
<ScalarVariable name="x" valueReference="1"><Real/></ScalarVariable>
<ScalarVariable name="der(x)" valueReference="2"><Real derivative="1"/></ScalarVariable>
<ScalarVariable name="v" valueReference="3"><Real/></ScalarVariable>
<ScalarVariable name="der(v)" valueReference="4"><Real derivative=")x") +
         std::string(derivative) + R"x("/></ScalarVariable>
</ModelVariables>
<ModelStructure>
<Outputs><Unknown index=")x" +
         std::string(output) + R"x("/></Outputs>
<Derivatives><Unknown index=")x" +
         std::string(index) + R"x("/><Unknown index="4"/></Derivatives>
</ModelStructure></fmiModelDescription>)x";
}

}  // namespace

// Indices and value references are whole numbers in range, or the file is refused at the line
// of the element: "nan" passed `< 1` and `> size` and was read out of bounds, "1.5" was
// truncated to 1.
TEST(ModelDescriptionXml, RefusesIndicesThatAreNoWholeNumbersInRange) {
  const std::string positions =
      "is not a variable index (the position of a ScalarVariable, 1 to 4): expected a whole "
      "number from 1 to 4";
  EXPECT_EQ(description_error(fmi2_with("2", "3")), "no error");
  for (const char* bad : {"nan", "1.5", "0", "5", "-1", "1e0", "", "inf", "0x2"}) {
    EXPECT_EQ(
        description_error(fmi2_with(bad, "3")),
        "modelDescription.xml line 10: <Unknown index=\"" + std::string(bad) + "\"> " + positions);
    EXPECT_EQ(description_error(fmi2_with("2", bad)),
              "modelDescription.xml line 6: <Real derivative=\"" + std::string(bad) + "\"> " +
                  (std::string(bad) == "5" ? positions
                                           : "is not a variable index: expected a whole number "
                                             "from 1 to 4294967295"));
    EXPECT_EQ(
        description_error(fmi2_with("2", "3", bad)),
        "modelDescription.xml line 9: <Unknown index=\"" + std::string(bad) + "\"> " + positions);
  }
  EXPECT_EQ(description_error(fmi2_with(" +2 ", "3")), "no error");  // xs:unsignedInt allows both
  const ModelDescription d = parse_model_description(fmi2_with("2", "3"));
  EXPECT_EQ(d.names(d.states), (std::vector<std::string>{"x", "v"}));

  const auto fmi3 = [](std::string_view reference, std::string_view derivative) {
    return std::string(
               R"x(<fmiModelDescription fmiVersion="3.0"><ModelExchange modelIdentifier="m"/>
<ModelVariables><Float64 name="x" valueReference="1"/>
<Float64 name="der(x)" valueReference="2" derivative=")x") +
           std::string(derivative) + R"x("/></ModelVariables>
<ModelStructure><ContinuousStateDerivative valueReference=")x" +
           std::string(reference) + R"x("/></ModelStructure></fmiModelDescription>)x";
  };
  EXPECT_EQ(description_error(fmi3("2", "1")), "no error");
  EXPECT_EQ(description_error(fmi3("nan", "1")),
            "modelDescription.xml line 4: <ContinuousStateDerivative valueReference=\"nan\"> is "
            "not a value reference: expected a whole number from 0 to 4294967295");
  EXPECT_EQ(description_error(fmi3("2", "1.5")),
            "modelDescription.xml line 3: <Float64 derivative=\"1.5\"> is not a value "
            "reference: expected a whole number from 0 to 4294967295");
  EXPECT_EQ(description_error(fmi3("2", "4294967296")),
            "modelDescription.xml line 3: <Float64 derivative=\"4294967296\"> is not a value "
            "reference: expected a whole number from 0 to 4294967295");
}

// A DefaultExperiment every run would fail with (or never end) is refused where it is written.
TEST(ModelDescriptionXml, RefusesDefaultExperimentsNoRunCanUse) {
  const auto with = [](std::string_view attributes) {
    return std::string(R"x(<fmiModelDescription fmiVersion="2.0"><CoSimulation modelIdentifier="m"/>
<DefaultExperiment )x") +
           std::string(attributes) + "/></fmiModelDescription>";
  };
  EXPECT_EQ(
      description_error(with(R"x(startTime="-1" stopTime="2" tolerance="1e-6" stepSize="1e-3")x")),
      "no error");
  EXPECT_EQ(description_error(with(R"x(stopTime="nan")x")),
            "modelDescription.xml line 2: <DefaultExperiment stopTime=\"nan\"> is not a time: "
            "expected a finite number");
  EXPECT_EQ(description_error(with(R"x(startTime="-inf")x")),
            "modelDescription.xml line 2: <DefaultExperiment startTime=\"-inf\"> is not a time: "
            "expected a finite number");
  for (const char* tolerance : {"-1", "nan", "0", "inf"}) {
    EXPECT_EQ(description_error(with("tolerance=\"" + std::string(tolerance) + "\"")),
              "modelDescription.xml line 2: <DefaultExperiment tolerance=\"" +
                  std::string(tolerance) + "\"> must be a finite number > 0");
  }
  EXPECT_EQ(description_error(with(R"x(stepSize="0")x")),
            "modelDescription.xml line 2: <DefaultExperiment stepSize=\"0\"> must be a finite "
            "number > 0");
  EXPECT_EQ(description_error(with(R"x(startTime="5" stopTime="5")x")),
            "modelDescription.xml line 2: <DefaultExperiment stopTime=\"5\"> must be greater "
            "than startTime (5)");
}
