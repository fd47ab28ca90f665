// The console's ETA (reporters/eta_estimate.hpp) on made-up runs whose true remaining time is
// known: a cheap requirement with many points before an expensive one with few, the case
// where counting points is wrong by two orders of magnitude.
#include "reporters/eta_estimate.hpp"

#include <gtest/gtest.h>

namespace simverify::framework {
namespace {

// 1000 points of 1 ms, then 10 points of 1 s: 11 s in all.
std::vector<PlannedRequirement> cheap_then_expensive() {
  return {{"CHEAP", 1000}, {"DEAR", 10}};
}

TEST(EtaEstimate, PriorsFromAnEarlierRunWeighTheExpensiveRequirement) {
  EtaEstimate eta(cheap_then_expensive(), {{"CHEAP", 0.001}, {"DEAR", 1.0}});
  EXPECT_TRUE(eta.informed());
  eta.requirement_started("CHEAP", 0.0);
  EXPECT_NEAR(eta.seconds_left(0.0), 11.0, 1e-12);  // the priors as they are
  eta.progress(500);
  EXPECT_NEAR(eta.seconds_left(0.5), 10.5, 1e-12);  // on schedule
  eta.requirement_finished("CHEAP", 1.0);
  eta.requirement_started("DEAR", 1.0);
  EXPECT_NEAR(eta.seconds_left(1.0), 10.0, 1e-12);
  eta.progress(5);
  EXPECT_NEAR(eta.seconds_left(6.0), 5.0, 1e-12);
}

// Counting points, the ETA after CHEAP would be 1 s * 10 / 1000 = 0.01 s for 10 s of work.
TEST(EtaEstimate, WithoutPriorsTheCostPerPointSoFarIsAllThereIs) {
  EtaEstimate eta(cheap_then_expensive(), {});
  EXPECT_FALSE(eta.informed());
  eta.requirement_started("CHEAP", 0.0);
  eta.progress(500);
  EXPECT_NEAR(eta.seconds_left(0.5), 0.5 + 0.001 * 10, 1e-12);
  eta.requirement_finished("CHEAP", 1.0);
  eta.requirement_started("DEAR", 1.0);
  eta.progress(2);  // a started requirement is timed by its own points
  EXPECT_NEAR(eta.seconds_left(3.0), 8.0, 1e-12);
}

// A machine (or load) twice as slow as the earlier run: the ratio of time spent to prior cost
// scales the rest. The damping second keeps early ratios from swinging, so the estimate
// approaches 2x as evidence grows and is within a factor of two throughout.
TEST(EtaEstimate, TheEarlierCostsAreScaledToThisRun) {
  EtaEstimate eta(cheap_then_expensive(), {{"CHEAP", 0.001}, {"DEAR", 1.0}});
  eta.requirement_started("CHEAP", 0.0);
  eta.requirement_finished("CHEAP", 2.0);
  eta.requirement_started("DEAR", 2.0);
  const double truth = 20.0;
  const double at_start = eta.seconds_left(2.0);
  EXPECT_NEAR(at_start, 10.0 * (2.0 + 1.0) / (1.0 + 1.0), 1e-12);
  EXPECT_GT(at_start, truth / 2);
  eta.progress(5);
  EXPECT_NEAR(eta.seconds_left(12.0), 5.0 * (12.0 + 1.0) / (6.0 + 1.0), 1e-12);
  EXPECT_GT(eta.seconds_left(12.0), 10.0 / 2);
}

// A grid that changed since the earlier run: the prior is per point, so twice the points
// cost twice the time; a requirement that is new counts at the run's cost per point.
TEST(EtaEstimate, PriorsArePerPointAndNewRequirementsAreGuessed) {
  EtaEstimate eta({{"A", 200}, {"NEW", 100}}, {{"A", 0.01}, {"RETIRED", 5.0}});
  EXPECT_FALSE(eta.informed());
  eta.requirement_started("A", 0.0);
  EXPECT_NEAR(eta.seconds_left(0.0), 2.0, 1e-12);  // NEW: no points done, no cost known yet
  eta.progress(200);
  eta.requirement_finished("A", 2.0);
  EXPECT_NEAR(eta.seconds_left(2.0), 100 * 0.01, 1e-12);
  eta.requirement_started("NEW", 2.0);
  eta.requirement_finished("NEW", 3.0);
  EXPECT_TRUE(eta.informed());
  EXPECT_EQ(eta.seconds_left(3.0), 0.0);
}

}  // namespace
}  // namespace simverify::framework
