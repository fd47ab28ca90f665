// Order conditions of every shipped Butcher tableau, checked numerically (Def 3.16, 3.23;
// Butcher's theory as in Hairer-Norsett-Wanner I, Sec. II.2, Thm 2.13): a method with
// sum_j a_ij = c_i has order p iff b . Phi(t) = 1 / gamma(t) for every rooted tree t with at
// most p nodes. The trees are enumerated here (1, 1, 2, 4, 9, 20, 48, 115, 286 trees of
// order 1..9), so each tableau is checked up to its nominal order and shown to fail at the
// next one (its order is exactly the nominal one, not more).
#include <simverify/simulation/tableaux.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace sim = simverify::simulation;

namespace {

constexpr int kMaxTreeOrder = 9;

struct Tree {
  int order = 1;
  double gamma = 1.0;         // density gamma(t) = |t| prod gamma(children)
  std::vector<int> children;  // indices into the tree list, non-increasing
};

// All rooted trees up to kMaxTreeOrder: a tree of order n is a root with a multiset of
// subtrees whose orders sum to n - 1 (children listed by non-increasing index, so each
// multiset appears once).
std::vector<Tree> rooted_trees() {
  std::vector<Tree> trees{Tree{}};
  for (int n = 2; n <= kMaxTreeOrder; ++n) {
    const int known = static_cast<int>(trees.size());
    std::vector<int> chosen;
    std::function<void(int, int)> pick = [&](int remaining, int max_index) {
      if (remaining == 0) {
        Tree t;
        t.order = n;
        t.children = chosen;
        t.gamma = n;
        for (int c : chosen) t.gamma *= trees[static_cast<std::size_t>(c)].gamma;
        trees.push_back(t);
        return;
      }
      for (int i = max_index; i >= 0; --i) {
        if (trees[static_cast<std::size_t>(i)].order > remaining) continue;
        chosen.push_back(i);
        pick(remaining - trees[static_cast<std::size_t>(i)].order, i);
        chosen.pop_back();
      }
    };
    pick(n - 1, known - 1);
  }
  return trees;
}

const std::vector<Tree>& trees() {
  static const std::vector<Tree> t = rooted_trees();
  return t;
}

// Phi(t) per stage: Phi(root) = 1, Phi([t1..tm]) = prod_k (A Phi(t_k)) componentwise.
std::vector<sim::Vector> stage_weights(const sim::Matrix& a) {
  std::vector<sim::Vector> phi;
  for (const Tree& t : trees()) {
    sim::Vector g = sim::Vector::Ones(a.rows());
    for (int c : t.children) g = g.cwiseProduct(a * phi[static_cast<std::size_t>(c)]);
    phi.push_back(g);
  }
  return phi;
}

// Largest residual |b . Phi(t) - theta^|t| / gamma(t)| over trees of the given order, scaled
// by sum |b_i Phi_i| so round-off in large coefficients (RK8(7)13M has |a_ij| ~ 16) does not
// read as a violated condition.
double residual(const sim::Vector& b, const std::vector<sim::Vector>& phi, int order,
                double theta = 1.0) {
  double worst = 0.0;
  for (std::size_t k = 0; k < trees().size(); ++k) {
    const Tree& t = trees()[k];
    if (t.order != order) continue;
    const double exact = std::pow(theta, t.order) / t.gamma;
    const double scale = 1.0 + b.cwiseAbs().dot(phi[k].cwiseAbs());
    worst = std::max(worst, std::abs(b.dot(phi[k]) - exact) / scale);
  }
  return worst;
}

// Satisfied: within 1e-13 (coefficients are exact fractions, or for RK8(7)13M rationals that
// satisfy the conditions to ~1e-17 in exact arithmetic, so the residual is double round-off,
// ~1e-16 per term). Violated: above 1e-6, far from round-off.
constexpr double kSatisfied = 1e-13;
constexpr double kViolated = 1e-6;

TEST(RootedTrees, CountsMatchOeisA000081) {
  const int expected[] = {1, 1, 2, 4, 9, 20, 48, 115, 286};
  for (int n = 1; n <= kMaxTreeOrder; ++n) {
    int count = 0;
    for (const Tree& t : trees()) count += t.order == n ? 1 : 0;
    EXPECT_EQ(count, expected[n - 1]) << "order " << n;
  }
}

struct TableauCase {
  std::string label;
  const sim::ButcherTableau* tableau;
  int order;           // nominal order of b
  int embedded_order;  // nominal order of b_hat (0: none)
  friend std::ostream& operator<<(std::ostream& os, const TableauCase& c) { return os << c.label; }
};

class TableauOrder : public ::testing::TestWithParam<TableauCase> {};

TEST_P(TableauOrder, RowSumsAreNodes) {
  const auto& t = *GetParam().tableau;
  ASSERT_TRUE(t.is_explicit());
  for (Eigen::Index i = 0; i < t.a.rows(); ++i) {
    // Round-off of the sum scales with the coefficients (RK8(7)13M rows reach sum |a_ij| ~ 75).
    const double tolerance = 4e-16 * (1.0 + t.a.row(i).cwiseAbs().sum());
    EXPECT_NEAR(t.a.row(i).sum(), t.c(i), tolerance)
        << "row " << i << " (Simulink solver list, eq. 8)";
  }
}

TEST_P(TableauOrder, PropagatedSolutionHasExactlyNominalOrder) {
  const auto& c = GetParam();
  const auto& t = *c.tableau;
  EXPECT_EQ(t.order, c.order);
  const auto phi = stage_weights(t.a);
  for (int q = 1; q <= c.order; ++q) {
    EXPECT_LT(residual(t.b, phi, q), kSatisfied) << t.name << ": order condition " << q;
  }
  if (c.order < kMaxTreeOrder) {
    EXPECT_GT(residual(t.b, phi, c.order + 1), kViolated) << t.name << " is of higher order";
  }
}

TEST_P(TableauOrder, EmbeddedSolutionHasExactlyNominalOrder) {
  const auto& c = GetParam();
  const auto& t = *c.tableau;
  if (c.embedded_order == 0) {
    EXPECT_FALSE(t.is_embedded());
    return;
  }
  ASSERT_TRUE(t.is_embedded());
  EXPECT_EQ(t.embedded_order, c.embedded_order);
  const auto phi = stage_weights(t.a);
  for (int q = 1; q <= c.embedded_order; ++q) {
    EXPECT_LT(residual(*t.b_hat, phi, q), kSatisfied) << t.name << ": embedded condition " << q;
  }
  EXPECT_GT(residual(*t.b_hat, phi, c.embedded_order + 1), kViolated)
      << t.name << ": embedded solution is of higher order";
}

const sim::ButcherTableau* tab(const sim::ButcherTableau& t) {
  return &t;
}

INSTANTIATE_TEST_SUITE_P(
    Tableaux, TableauOrder,
    ::testing::Values(TableauCase{"euler", tab(sim::tableaux::euler()), 1, 0},
                      TableauCase{"heun", tab(sim::tableaux::heun()), 2, 0},
                      TableauCase{"bs3", tab(sim::tableaux::bogacki_shampine3()), 3, 0},
                      TableauCase{"rk4", tab(sim::tableaux::rk4()), 4, 0},
                      TableauCase{"dp5", tab(sim::tableaux::dormand_prince5()), 5, 0},
                      TableauCase{"pd87", tab(sim::tableaux::prince_dormand87()), 8, 7},
                      TableauCase{"rk43", tab(sim::tableaux::rk43()), 4, 3},
                      TableauCase{"bs23", tab(sim::tableaux::bogacki_shampine23()), 3, 2},
                      TableauCase{"dp54", tab(sim::tableaux::dormand_prince54()), 5, 4}),
    [](const auto& test_info) { return test_info.param.label; });

TEST(TableauStructure, FsalPairsReuseTheirLastStage) {
  EXPECT_TRUE(sim::tableaux::bogacki_shampine23().is_fsal());
  EXPECT_TRUE(sim::tableaux::dormand_prince54().is_fsal());
  EXPECT_FALSE(sim::tableaux::rk4().is_fsal());
  // Zonneveld's 4(3): its fifth stage sits at c = 3/4, not at the step's end.
  EXPECT_FALSE(sim::tableaux::rk43().is_fsal());
  EXPECT_FALSE(sim::tableaux::prince_dormand87().is_fsal());
  EXPECT_EQ(sim::tableaux::prince_dormand87().stages(), 13);
  EXPECT_EQ(sim::tableaux::dormand_prince54().stages(), 7);
}

// The continuous extension of Dormand-Prince 5(4) has order 4 for every theta in [0, 1]:
// b(theta) . Phi(t) = theta^|t| / gamma(t) for |t| <= 4 (HNW I, Sec. II.6, Thm 6.1), and
// b(1) = b, so the interpolant passes through the accepted 5th-order solution.
TEST(DenseOutput, DormandPrinceExtensionHasOrderFourForEveryTheta) {
  const auto& t = sim::tableaux::dormand_prince54();
  const sim::Matrix& p = sim::tableaux::dormand_prince54_dense();
  ASSERT_EQ(p.rows(), t.stages());
  const auto phi = stage_weights(t.a);
  for (double theta : {0.1, 0.25, 0.5, 0.7, 0.9, 1.0}) {
    sim::Vector b_theta = sim::Vector::Zero(t.stages());
    for (Eigen::Index j = 0; j < p.cols(); ++j) {
      b_theta += p.col(j) * std::pow(theta, static_cast<double>(j + 1));
    }
    for (int q = 1; q <= 4; ++q) {
      EXPECT_LT(residual(b_theta, phi, q, theta), 1e-12) << "theta " << theta << " order " << q;
    }
    if (theta == 1.0) {
      EXPECT_LT((b_theta - t.b).cwiseAbs().maxCoeff(), 1e-14);
    }
  }
}

}  // namespace
