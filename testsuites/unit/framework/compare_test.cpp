// `compare:` (compare.hpp): norms, interpolation at reference times and the tolerance tube,
// against values worked out by hand (numbers in the comments).
#include "test_folder.hpp"

#include <simverify/framework/compare.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

using namespace simverify::framework;

namespace {

Comparison with(std::vector<double> reference, Comparison::Norm norm) {
  Comparison c;
  c.reference = std::move(reference);
  c.norm = norm;
  c.source = "inline";
  return c;
}

TimeSeries series(std::vector<double> t, std::vector<double> y) {
  TimeSeries s;
  s.time = std::move(t);
  s.names = {"y"};
  s.columns = {std::move(y)};
  return s;
}

}  // namespace

TEST(Compare, VectorNorms) {
  // d = |[1, 2, 3] - [1.5, 2, 2]| = [0.5, 0, 1]
  const Measure m = std::vector<double>{1, 2, 3};
  EXPECT_DOUBLE_EQ(compare_measure(m, with({1.5, 2, 2}, Comparison::Norm::max_abs)), 1.0);
  EXPECT_DOUBLE_EQ(compare_measure(m, with({1.5, 2, 2}, Comparison::Norm::rms)),
                   0.6454972243679028);  // sqrt(1.25 / 3)
  EXPECT_DOUBLE_EQ(compare_measure(m, with({1.5, 2, 2}, Comparison::Norm::max_rel)), 0.5);
  EXPECT_THROW((void)compare_measure(m, with({1, 2}, Comparison::Norm::rms)),
               std::invalid_argument);
  EXPECT_EQ(compare_measure(Measure{0.0}, with({0.0}, Comparison::Norm::max_rel)), 0.0);
  EXPECT_TRUE(std::isinf(compare_measure(Measure{1.0}, with({0.0}, Comparison::Norm::max_rel))));
}

TEST(Compare, TimeSeriesIsInterpolatedAtTheReferenceTimes) {
  // y = 2t sampled at 0, 1, 2; at t = 0.5 and 1.5 that is 1 and 3; the reference says 1, 3.5.
  Comparison c = with({1, 3.5}, Comparison::Norm::max_abs);
  c.reference_time = {0.5, 1.5};
  EXPECT_DOUBLE_EQ(compare_measure(series({0, 1, 2}, {0, 2, 4}), c), 0.5);
  c.reference_time = {0.5, 2.5};  // beyond the measured series
  EXPECT_THROW((void)compare_measure(series({0, 1, 2}, {0, 2, 4}), c), std::invalid_argument);
}

TEST(Compare, TubeYieldsTheLargestViolation) {
  Comparison c = with({0, 1, 2, 3}, Comparison::Norm::max_abs);
  c.reference_time = {0, 1, 2, 3};
  c.tube = Tube{0.5, 0.0, 0.0};
  const Measure m = series({0, 1, 2, 3}, {0, 1, 5, 3});
  EXPECT_DOUBLE_EQ(compare_measure(m, c), 2.5);  // 5 - (2 + 0.5)
  c.tube->time = 1.0;                            // at t = 2 the band reaches r(3) + 0.5 = 3.5
  EXPECT_DOUBLE_EQ(compare_measure(m, c), 1.5);
  c.tube = Tube{0.0, 0.1, 0.0};
  c.reference = {10, 10, 10, 10};
  EXPECT_DOUBLE_EQ(compare_measure(series({0, 1, 2, 3}, {10, 11.5, 9.5, 10}), c), 0.5);
  c.tube = Tube{2.0, 0.0, 0.0};
  EXPECT_EQ(compare_measure(series({0, 1, 2, 3}, {10, 11.5, 9.5, 10}), c), 0.0);  // inside
}

TEST(Compare, ParsesAReferenceFromCsvRelativeToTheYamlFile) {
  const fakes::TestFolder folder("simverify-compare-test");  // test_folder.hpp
  const auto& dir = folder.path;
  std::filesystem::create_directories(dir / "data");
  // With the UTF-8 byte order mark Excel's "CSV UTF-8" writes: the first header is still
  // `time` (left in, the times were silently ignored).
  std::ofstream(dir / "data" / "ref.csv")
      << "\xEF\xBB\xBFtime, pos, vel\n# comment\n0, 1, 9\n1, 2, 9\n";
  Value spec(
      Value::Map{{"reference", Value(Value::Map{{"file", "data/ref.csv"}, {"column", "pos"}})},
                 {"norm", "rms"}});
  auto parsed = parse_comparison(spec, dir);
  ASSERT_TRUE(std::holds_alternative<Comparison>(parsed)) << std::get<CompareError>(parsed).message;
  const auto& c = std::get<Comparison>(parsed);
  EXPECT_EQ(c.reference, (std::vector<double>{1, 2}));
  EXPECT_EQ(c.reference_time, (std::vector<double>{0, 1}));
  EXPECT_EQ(c.norm, Comparison::Norm::rms);
  Value missing(
      Value::Map{{"reference", Value(Value::Map{{"file", "data/ref.csv"}, {"column", "acc"}})}});
  auto bad = parse_comparison(missing, dir);
  ASSERT_TRUE(std::holds_alternative<CompareError>(bad));
  EXPECT_NE(std::get<CompareError>(bad).message.find("columns: time, pos, vel"), std::string::npos);
}
