#include <simverify/framework/quality.hpp>

#include <gtest/gtest.h>

#include <cmath>

using simverify::framework::Statistic;
using simverify::framework::Threshold;

TEST(Threshold, ParsesBothRelations) {
  const auto ge = Threshold::parse(">= 3.9");
  ASSERT_TRUE(ge);
  EXPECT_TRUE(ge->satisfied(3.9));
  EXPECT_FALSE(ge->satisfied(3.89));
  const auto le = Threshold::parse("<=1e-6");
  ASSERT_TRUE(le);
  EXPECT_TRUE(le->satisfied(1e-7));
  EXPECT_FALSE(le->satisfied(2e-6));
}

TEST(Threshold, NanNeverPasses) {
  EXPECT_FALSE(Threshold::parse("<= 1")->satisfied(std::nan("")));
  EXPECT_FALSE(Threshold::parse(">= 1")->satisfied(std::nan("")));
}

TEST(Threshold, RejectsMalformedText) {
  for (const char* bad : {"> 3", "3.9", ">= ", ">= abc", "=> 3", ">= inf", ">= 3 4"}) {
    EXPECT_FALSE(Threshold::parse(bad)) << bad;
  }
}

TEST(Statistic, ParsesEveryNamedStatistic) {
  EXPECT_EQ(Statistic::parse("order")->kind, Statistic::Kind::order);
  EXPECT_EQ(Statistic::parse("ci_upper(0.95)")->parameter, 0.95);
  EXPECT_EQ(Statistic::parse("quantile(0.9)")->kind, Statistic::Kind::quantile);
  EXPECT_EQ(Statistic::parse("fraction(<= 0.5)")->parameter, 0.5);
  EXPECT_FALSE(Statistic::parse("ci_upper(95)"));
  EXPECT_FALSE(Statistic::parse("average"));
}
