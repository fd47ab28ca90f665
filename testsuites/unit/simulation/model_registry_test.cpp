#include <simverify/simulation/model_registry.hpp>

#include <gtest/gtest.h>

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
