// Weighted cases (Monte Carlo simulation, the paper-toss example): cases that are not equally
// likely are weighted, not counted. The weighted statistics against values computed by hand,
// the `weight:` of an aggregate at load time, and a run that reduces zipped cases with it.
#include <simverify/framework/listener.hpp>
#include <simverify/framework/loader.hpp>
#include <simverify/framework/runner.hpp>
#include <simverify/framework/statistics.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

using namespace simverify::framework;

namespace {

// The article's table: baskets 48/50, 37/50, 23/50, 19/50 for normal/normal, weird/normal,
// normal/weird, weird/weird with probabilities 0.98 * 0.95, 0.02 * 0.95, 0.98 * 0.05,
// 0.02 * 0.05.
const std::vector<double> kRates = {0.96, 0.74, 0.46, 0.38};
const std::vector<double> kWeights = {0.931, 0.019, 0.049, 0.001};

double statistic(const std::string& text, const std::vector<double>& values,
                 const std::vector<double>& weights) {
  return compute_statistic(*Statistic::parse(text), values, weights);
}

TEST(WeightedStatistics, ParseAndPrintRoundTrip) {
  for (const char* text :
       {"weighted_mean", "weighted_fraction(<= 0.5)", "weighted_quantile(0.1)"}) {
    const auto s = Statistic::parse(text);
    ASSERT_TRUE(s) << text;
    EXPECT_TRUE(s->weighted());
    EXPECT_EQ(s->str(), text);
  }
  EXPECT_FALSE(Statistic::parse("mean")->weighted());
  EXPECT_FALSE(Statistic::parse("weighted_quantile(1.5)"));
  EXPECT_FALSE(Statistic::parse("weighted_fraction(0.5)"));
}

TEST(WeightedStatistics, PaperTossByHand) {
  // 0.931 * 0.96 + 0.019 * 0.74 + 0.049 * 0.46 + 0.001 * 0.38
  //   = 0.89376 + 0.01406 + 0.02254 + 0.00038 = 0.93074 (the article's "93 %"); counted
  // instead of weighted, the 200 throws give 127 / 200 = 0.635.
  EXPECT_NEAR(statistic("weighted_mean", kRates, kWeights), 0.93074, 1e-15);
  EXPECT_NEAR(statistic("mean", kRates, {}), 0.635, 1e-15);
  // Cases at or below a 50 % rate: normal/weird and weird/weird, 0.049 + 0.001.
  EXPECT_NEAR(statistic("weighted_fraction(<= 0.5)", kRates, kWeights), 0.05, 1e-15);
  EXPECT_NEAR(statistic("weighted_fraction(<= 0.3)", kRates, kWeights), 0.0, 0.0);
  // Sorted rates 0.38, 0.46, 0.74, 0.96 reach cumulative weight 0.001, 0.05, 0.069, 1:
  // q = 0.05 is reached exactly at 0.46 (0.001 + 0.049 rounds below 0.05), q = 0.06 at 0.74,
  // the median only at 0.96.
  EXPECT_EQ(statistic("weighted_quantile(0.05)", kRates, kWeights), 0.46);
  EXPECT_EQ(statistic("weighted_quantile(0.06)", kRates, kWeights), 0.74);
  EXPECT_EQ(statistic("weighted_quantile(0.5)", kRates, kWeights), 0.96);
  EXPECT_EQ(statistic("weighted_quantile(0.0005)", kRates, kWeights), 0.38);
}

TEST(WeightedStatistics, WeightsAreNormalized) {
  // 2 : 2 : 4 is 1/4 : 1/4 : 1/2.
  EXPECT_NEAR(statistic("weighted_mean", {1.0, 2.0, 4.0}, {2.0, 2.0, 4.0}), 0.25 + 0.5 + 2.0,
              1e-15);
  // Equal weights: the plain mean and share.
  EXPECT_NEAR(statistic("weighted_mean", kRates, {3.0, 3.0, 3.0, 3.0}), 0.635, 1e-15);
  EXPECT_NEAR(statistic("weighted_fraction(<= 0.5)", kRates, {1.0, 1.0, 1.0, 1.0}), 0.5, 1e-15);
}

TEST(WeightedStatistics, RejectsNegativeOrAllZeroWeights) {
  EXPECT_THROW((void)statistic("weighted_mean", {1.0, 2.0}, {0.5, -0.1}), std::invalid_argument);
  EXPECT_THROW((void)statistic("weighted_mean", {1.0, 2.0}, {0.0, 0.0}), std::invalid_argument);
}

// ---- requirement files --------------------------------------------------------------------

ComponentRegistry weighted_registry() {
  ComponentRegistry r;
  Component c;
  c.info = {
      "case_rate", "success rate of one case", {"case", "rate", "p_case", "other"}, {"success"}};
  c.evaluate = [](const Condition& point) {
    Measurement m;
    m.set("success", point.number("rate"));
    return m;
  };
  r.add(c);
  return r;
}

std::string weighted_requirement(const std::string& conditions, const std::string& aggregate) {
  return R"(requirements:
  - id: PAPER-TOSS
    title: weighted success
    level: system
    component: case_rate
    conditions:
)" + conditions +
         R"(
    quality:
      measure: success
      aggregate: )" +
         aggregate + R"(
      threshold: ">= 0.93"
)";
}

const char* kZipped = R"(      zip:
        case: [nn, wn, nw, ww]
        rate: [0.96, 0.74, 0.46, 0.38]
        p_case: [0.931, 0.019, 0.049, 0.001])";

LoadResult load_text(const std::string& text) {
  LoadResult out;
  const auto r = weighted_registry();
  parse_requirements(text, "weights.yaml", r, out);
  return out;
}

std::string first_aggregate_error(const std::string& conditions, const std::string& aggregate) {
  const auto out = load_text(weighted_requirement(conditions, aggregate));
  return out.ok() ? "" : out.errors.front().str();
}

TEST(WeightedAggregate, LoadsTheWeightAxis) {
  const auto out = load_text(
      weighted_requirement(kZipped, "{over: [case], statistic: weighted_mean, weight: p_case}"));
  ASSERT_TRUE(out.ok()) << out.errors.front().str();
  EXPECT_EQ(out.requirements.front().quality.aggregate->weight, "p_case");
}

TEST(WeightedAggregate, ReportsMisuseAtLoadTime) {
  const std::string weighted = "{over: [case], statistic: weighted_mean, weight: p_case}";
  EXPECT_NE(first_aggregate_error(kZipped, "{over: [case], statistic: weighted_mean}")
                .find("needs `weight:`"),
            std::string::npos);
  EXPECT_NE(first_aggregate_error(kZipped, "{over: [case], statistic: mean, weight: p_case}")
                .find("`weight:` goes with a weighted statistic"),
            std::string::npos);
  EXPECT_NE(
      first_aggregate_error(kZipped, "{over: [case], statistic: weighted_mean, weight: p_cas}")
          .find("weight 'p_cas' is not a condition of this requirement (did you mean 'p_case'?)"),
      std::string::npos);
  // A weight beside the cases instead of zipped with them: each group would hold one weight.
  EXPECT_NE(first_aggregate_error(
                "      zip: {case: [nn, ww], rate: [0.9, 0.4]}\n      p_case: [0.9, 0.1]", weighted)
                .find("must vary with the aggregated axes (case)"),
            std::string::npos);
  const std::string negative = "      zip: {case: [nn, ww], rate: [0.9, 0.4], p_case: [0.9, -0.1]}";
  const std::string error = first_aggregate_error(negative, weighted);
  EXPECT_NE(error.find("weights.yaml:7:"), std::string::npos) << error;  // the value's line
  EXPECT_NE(error.find("must be a finite number >= 0, found -0.1"), std::string::npos) << error;
  EXPECT_NE(first_aggregate_error(
                "      zip: {case: [nn, ww], rate: [0.9, 0.4], p_case: [0.9, heavy]}", weighted)
                .find("found heavy"),
            std::string::npos);
  EXPECT_NE(first_aggregate_error("      zip: {case: [nn, ww], rate: [0.9, 0.4], p_case: [0, 0]}",
                                  weighted)
                .find("are all zero"),
            std::string::npos);
}

struct Finished : RunListener {
  std::vector<RequirementResult> results;
  void requirement_finished(const RequirementResult& result) override { results.push_back(result); }
};

// Two groups (other = 1, 2), each holding the four cases: each group's weighted mean is the
// hand value 0.93074.
TEST(WeightedAggregate, RunReducesEachGroupWithItsWeights) {
  auto out =
      load_text(weighted_requirement(std::string(kZipped) + "\n      other: [1, 2]",
                                     "{over: [case], statistic: weighted_mean, weight: p_case}"));
  ASSERT_TRUE(out.ok()) << out.errors.front().str();
  const auto r = weighted_registry();
  RunOptions options;
  options.isolation = Isolation::none;
  options.jobs = 1;
  Finished listener;
  Runner(r, options).run(out.requirements, listener);
  ASSERT_EQ(listener.results.size(), 1U);
  const auto& groups = listener.results.front().groups;
  ASSERT_EQ(groups.size(), 2U);
  for (const auto& g : groups) {
    ASSERT_TRUE(g.quality);
    EXPECT_NEAR(*g.quality, 0.93074, 1e-15);
    EXPECT_EQ(g.points.size(), 4U);
  }
  EXPECT_EQ(listener.results.front().status, Status::passed);
}

}  // namespace
