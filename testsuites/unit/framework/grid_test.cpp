#include <simverify/framework/grid.hpp>

#include <gtest/gtest.h>

using namespace simverify::framework;

TEST(Grid, CartesianProductWithLastAxisFastest) {
  Grid g;
  g.add_group({{Axis{"a", {1.0, 2.0}, {}}}});
  g.add_group({{Axis{"b", {"x", "y", "z"}, {}}}});
  ASSERT_EQ(g.size(), 6u);
  EXPECT_EQ(g.point(0).number("a"), 1.0);
  EXPECT_EQ(g.point(0).text("b"), "x");
  EXPECT_EQ(g.point(4).number("a"), 2.0);
  EXPECT_EQ(g.point(4).text("b"), "y");
}

TEST(Grid, ZippedAxesVaryTogether) {
  Grid g;
  g.add_group({{Axis{"a", {1.0, 2.0, 3.0}, {}}, Axis{"b", {10.0, 20.0, 30.0}, {}}}});
  ASSERT_EQ(g.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(g.point(i).number("b"), 10 * g.point(i).number("a"));
  }
}
