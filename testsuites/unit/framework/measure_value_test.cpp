// evaluate_measure: the number a quality reads from one point's measurement.
#include "measure_error.hpp"

#include <simverify/framework/quality.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace fw = simverify::framework;

namespace {

fw::Measurement end_state() {
  fw::Measurement m;
  m.set("x_end", std::vector<double>{3.0, -4.0});
  m.set("steps", 12.0);
  return m;
}

}  // namespace

TEST(MeasureValue, ScalarsAndReductionsOfVectors) {
  const auto m = end_state();
  EXPECT_EQ(fw::evaluate_measure(m, "steps"), 12.0);
  // Exact in binary: |(3, -4)| max 4, last -4, rms sqrt((9 + 16) / 2) = sqrt(12.5).
  EXPECT_EQ(fw::evaluate_measure(m, "max_abs(x_end)"), 4.0);
  EXPECT_EQ(fw::evaluate_measure(m, "final(x_end)"), -4.0);
  EXPECT_EQ(fw::evaluate_measure(m, "rms(x_end)"), std::sqrt(12.5));
}

TEST(MeasureValue, ANaNSampleMakesEveryReductionNaN) {
  // A NaN anywhere (a diverged solve, a bad sensor column) must fail the quality, wherever it
  // sits: max_abs compares with std::max, which keeps the running maximum over a NaN.
  for (const std::vector<double>& values :
       {std::vector<double>{std::nan(""), 1.0, 2.0}, std::vector<double>{1.0, std::nan(""), 2.0},
        std::vector<double>{1.0, 2.0, std::nan("")}}) {
    fw::Measurement m;
    m.set("v", values);
    EXPECT_TRUE(std::isnan(fw::evaluate_measure(m, "max_abs(v)")));
    EXPECT_TRUE(std::isnan(fw::evaluate_measure(m, "rms(v)")));
  }
}

TEST(MeasureValue, ABareVectorSaysHowToMakeItANumber) {
  EXPECT_EQ(fw::fakes::measure_error(end_state(), "x_end"),
            "measure 'x_end' is not a number: compare it with a reference (`compare:`) or "
            "reduce it with rms(x_end), max_abs(x_end) or final(x_end)");
  EXPECT_EQ(fw::fakes::measure_error(end_state(), "x_start"),
            "the component did not measure 'x_start'");
}

TEST(MeasureValue, TheRmsOfATimeSeriesIsOverTimeNotOverSamples) {
  // y = t on [0, 1], sampled as an adaptive solver would: 1,000 samples in the first half,
  // 100 in the second. Its RMS over time is sqrt(integral of t^2 dt) = 1/sqrt(3); the mean
  // over samples would weigh the small early values ten times (about 0.33). The trapezoidal
  // rule on t^2 errs by h^2/6 per unit time: at most (0.5/99)^2/6 ~ 4e-6 here, so 1e-5.
  fw::TimeSeries series;
  series.names = {"y"};
  series.columns.emplace_back();
  const auto sample = [&](double t) {
    series.time.push_back(t);
    series.columns[0].push_back(t);
  };
  for (int i = 0; i < 1000; ++i) sample(0.5 * i / 1000.0);
  for (int i = 0; i < 100; ++i) sample(0.5 + 0.5 * i / 99.0);
  fw::Measurement m;
  m.set("y.y", series);
  EXPECT_NEAR(fw::evaluate_measure(m, "rms(y.y)"), 1.0 / std::sqrt(3.0), 1e-5);
  // Without duration (one instant), the samples' RMS.
  fw::TimeSeries instant{{2.0, 2.0}, {"y"}, {{3.0, -4.0}}};
  m.set("y.z", instant);
  EXPECT_EQ(fw::evaluate_measure(m, "rms(y.z)"), std::sqrt(12.5));
}
