#include <simverify/simulation/model_registry.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace sim = simverify::simulation;

TEST(ModelRegistry, ExponentialHasItsDeclaredParameter) {
  const auto model = sim::make_model("exponential");
  EXPECT_EQ(model->info().name, "exponential");
  EXPECT_EQ(model->parameter_index("lambda"), 0u);
  EXPECT_THROW((void)model->parameter_index("mu"), std::invalid_argument);
}

TEST(ModelRegistry, UnknownModelListsKnownOnes) {
  try {
    (void)sim::make_model("pendulum9");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("exponential"), std::string::npos);
  }
}

// Variants are a registry query (the `variant` axis check lists them without building
// models): the default first, each one builds the model with that variant.
TEST(ModelRegistry, VariantsAreAQuery) {
  EXPECT_EQ(sim::model_variants("constrained_pendulum"),
            (std::vector<std::string>{"nonlinear", "linear"}));
  EXPECT_EQ(sim::model_variants("bouncing_ball"), (std::vector<std::string>{"event", "contact"}));
  EXPECT_TRUE(sim::model_variants("exponential").empty());
  for (const auto& name : sim::model_names()) {
    for (const auto& variant : sim::model_variants(name)) {
      EXPECT_EQ(sim::make_model(name, variant)->info().variant, variant) << name;
    }
  }
  EXPECT_THROW((void)sim::model_variants("no_such_model"), std::invalid_argument);
}
