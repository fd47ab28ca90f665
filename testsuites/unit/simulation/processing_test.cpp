// Processing of results on the lecture's data dump (Table 4.2): sorting reproduces Table 4.3,
// and the statistics match numpy/scipy computed independently:
//   /usr/bin/python3 -c "import numpy as np; from scipy import stats; ..."  (numpy 1.24,
//   scipy 1.10: x.mean(), x.var(ddof=1), stats.t.ppf(0.975, 25), np.quantile(x, [.25,.5,.75]))
#include <simverify/simulation/processing/data_table.hpp>
#include <simverify/simulation/processing/statistics.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

namespace proc = simverify::simulation::processing;

namespace {

// Table 4.2: t, x1, x2, x3 in the order the lecture prints them (unsorted).
proc::DataTable lecture_table_4_2() {
  const double rows[][4] = {{16, -6, -2, 11}, {17, -6, -3, 10}, {18, -6, -3, 9},  {13, -5, -2, 12},
                            {14, -5, -2, 11}, {15, -5, -2, 11}, {19, -5, -3, 8},  {20, -5, -3, 7},
                            {21, -5, -3, 6},  {11, -4, -2, 13}, {12, -4, -2, 12}, {22, -4, -3, 6},
                            {10, -2, -2, 13}, {23, -2, -3, 5},  {24, -2, -3, 5},  {25, -2, -4, 6},
                            {9, -1, -1, 13},  {3, 0, 0, 8},     {2, 1, 2, 8},     {1, 2, 3, 7},
                            {4, 2, 0, 10},    {6, 2, -1, 12},   {7, 2, -1, 12},   {8, 2, -1, 13},
                            {5, 3, 0, 11},    {0, 5, 5, 5}};
  proc::DataTable table({"t", "x1", "x2", "x3"});
  for (const auto& r : rows) table.add_row({r[0], r[1], r[2], r[3]});
  return table;
}

}  // namespace

TEST(DataTable, SortingByTimeGivesTable4_3) {
  auto table = lecture_table_4_2();
  EXPECT_FALSE(table.validate("t").empty()) << "unsorted time must be reported";
  table.sort_by("t");
  ASSERT_EQ(table.rows(), 26u);
  for (std::size_t i = 0; i < table.rows(); ++i) {
    EXPECT_EQ(table.row(i)[0], static_cast<double>(i));
  }
  // Spot checks against Table 4.3: t = 0 -> (5, 5, 5), t = 9 -> (-1, -1, 13), t = 25 -> (-2, -4,
  // 6).
  EXPECT_EQ(table.row(0)[1], 5);
  EXPECT_EQ(table.row(9)[3], 13);
  EXPECT_EQ(table.row(25)[2], -4);
  EXPECT_TRUE(table.validate("t", 1.0).empty());
}

TEST(DataTable, AnUnknownColumnIsNamedWithTheNearestOne) {
  const proc::DataTable table({"t", "force", "torque"});
  try {
    (void)table.column("Force");
    ADD_FAILURE() << "column 'Force' was found";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "unknown column 'Force' (did you mean 'force'?); columns: t, force, torque");
  }
}

TEST(DataTable, ValidationFindsNonFiniteValuesAndGaps) {
  proc::DataTable table({"t", "x"});
  table.add_row({0.0, 1.0});
  table.add_row({1.0, std::nan("")});
  table.add_row({3.0, 2.0});
  const auto problems = table.validate("t", 1.5);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_NE(problems[0].find("nan"), std::string::npos);
  EXPECT_NE(problems[1].find("missing samples"), std::string::npos);
}

TEST(DataTable, CsvDumpRoundTripsExactly) {
  auto table = lecture_table_4_2();
  table.add_row({0.1, 1.0 / 3.0, -2e-300, 12345.678901234567});
  const auto path = std::filesystem::temp_directory_path() / "simverify_dump_test.csv";
  table.write_csv(path);
  const auto back = proc::DataTable::read_csv(path);
  std::filesystem::remove(path);
  ASSERT_EQ(back.rows(), table.rows());
  for (std::size_t i = 0; i < table.rows(); ++i) {
    for (std::size_t j = 0; j < 4; ++j) EXPECT_EQ(back.row(i)[j], table.row(i)[j]);
  }
}

TEST(DataTable, MalformedCsvNamesLineAndColumn) {
  const auto path = std::filesystem::temp_directory_path() / "simverify_bad_dump.csv";
  {
    std::ofstream out(path);
    out << "t,x\n0,1\n1,abc\n";
  }
  try {
    (void)proc::DataTable::read_csv(path);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(":3:2: expected a number"), std::string::npos) << e.what();
  }
  {
    std::ofstream out(path);
    out << "t,x,v,x\n0,1,2,3\n";
  }
  try {
    (void)proc::DataTable::read_csv(path);
    FAIL() << "a repeated column name was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(":1:1: column 'x' is named twice in the header (columns 2 "
                                         "and 4)"),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove(path);
}

TEST(DataTable, AggregationAveragesPerKey) {
  proc::DataTable table({"k", "v"});
  table.add_row({2, 10});
  table.add_row({1, 4});
  table.add_row({2, 20});
  const auto agg = proc::aggregate_mean(table, "k");
  ASSERT_EQ(agg.rows(), 2u);
  EXPECT_EQ(agg.row(0)[1], 4);
  EXPECT_EQ(agg.row(1)[1], 15);
}

TEST(Statistics, Table4_2MeanVarianceAndConfidenceInterval) {
  const auto table = lecture_table_4_2();
  struct Expected {
    const char* column;
    double mean, variance, ci_low, ci_high;
  };
  // numpy/scipy values (see the file header).
  const Expected expected[] = {
      {"x1", -1.9230769230769231, 11.273846153846154, -3.2792630704393284, -0.5668907757145181},
      {"x2", -1.3846153846153846, 4.326153846153846, -2.224721665908768, -0.5445091033220011},
      {"x3", 9.384615384615385, 8.006153846153847, 8.241749634951857, 10.527481134278913}};
  for (const auto& e : expected) {
    const auto x = table.column(e.column);
    // Sums of 26 small integers: exact up to the last bit or two of the division.
    EXPECT_NEAR(proc::mean(x), e.mean, 1e-14) << e.column;
    EXPECT_NEAR(proc::sample_variance(x), e.variance, 1e-13) << e.column;
    // Boost.Math and scipy invert the t CDF iteratively; they agree to ~1e-10 relative.
    const auto ci = proc::confidence_interval(x, 0.95);
    EXPECT_NEAR(ci.lower, e.ci_low, 1e-9) << e.column;
    EXPECT_NEAR(ci.upper, e.ci_high, 1e-9) << e.column;
  }
}

TEST(Statistics, Table4_2BoxPlotsAndTukeyOutliers) {
  const auto table = lecture_table_4_2();
  const auto x1 = proc::box_plot(table.column("x1"));
  EXPECT_EQ(x1.q1, -5.0);
  EXPECT_EQ(x1.median, -2.0);
  EXPECT_EQ(x1.q3, 1.75);
  EXPECT_TRUE(x1.outliers.empty());
  EXPECT_EQ(x1.minimum, -6.0);
  EXPECT_EQ(x1.maximum, 5.0);
  // x2: Q1 = -3, Q3 = -1, fences [-6, 2]: the values 3 and 5 lie outside (numpy, Tukey k = 1.5).
  const auto x2 = proc::box_plot(table.column("x2"));
  EXPECT_EQ(x2.median, -2.0);
  ASSERT_EQ(x2.outliers.size(), 2u);
  EXPECT_EQ(x2.outliers[0], 3.0);
  EXPECT_EQ(x2.outliers[1], 5.0);
  EXPECT_EQ(x2.upper_whisker, 2.0);
  EXPECT_EQ(x2.lower_whisker, -4.0);
  EXPECT_EQ(proc::outliers(table.column("x3")).size(), 0u);
}

TEST(Statistics, RejectsTooFewValues) {
  const std::vector<double> one = {1.0};
  EXPECT_THROW((void)proc::sample_variance(one), std::invalid_argument);
  EXPECT_THROW((void)proc::confidence_interval(one, 0.95), std::invalid_argument);
  EXPECT_THROW((void)proc::confidence_interval(std::vector<double>{1, 2}, 1.5),
               std::invalid_argument);
}
