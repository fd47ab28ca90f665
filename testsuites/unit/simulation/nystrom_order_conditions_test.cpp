// Order conditions of the shipped Runge-Kutta-Nystrom tableaux on special Nystrom trees
// (Hairer-Norsett-Wanner I, Sec. II.14): for q'' = g(t, q) the elementary differentials are
// labelled by trees with fat vertices (derivatives of g) whose children are meagre vertices,
// each a leaf (the velocity, weight c_i) or the parent of one fat vertex (weight
// sum_j a_ij Phi_j). With rho(t) the number of vertices and gamma(t) the density of the tree
// as an ordinary rooted tree, the method has order p iff
//   velocity:  b' . Phi(t) = 1 / gamma(t)                 for rho(t) <= p,
//   position:  b  . Phi(t) = 1 / ((rho(t) + 1) gamma(t))  for rho(t) <= p - 1.
// The trees are enumerated here (1, 1, 2, 3, 6, 10, 20, 36 of order 1..8); each tableau is
// checked up to its nominal order and shown to fail at the next one.
#include <simverify/simulation/nystrom_tableaux.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace sim = simverify::simulation;

namespace {

constexpr int kMaxFatTreeOrder = 8;

struct FatTree {
  int order = 1;  // rho: vertices, fat and meagre
  double gamma =
      1.0;  // gamma = rho * prod gamma(children), a meagre parent of u: (1 + rho(u)) gamma(u)
  std::vector<int> children;  // kinds of meagre children: -1 leaf, else the fat child's index
};

// The order and density of a meagre child.
int child_order(const std::vector<FatTree>& trees, int kind) {
  return kind < 0 ? 1 : 1 + trees[static_cast<std::size_t>(kind)].order;
}
double child_gamma(const std::vector<FatTree>& trees, int kind) {
  if (kind < 0) return 1.0;
  const FatTree& u = trees[static_cast<std::size_t>(kind)];
  return (1.0 + u.order) * u.gamma;
}

// All special Nystrom trees up to kMaxFatTreeOrder: a fat root with a multiset of meagre
// children whose orders sum to n - 1, children listed by non-increasing kind so each multiset
// appears once (kind -1, the leaf, sorts last).
std::vector<FatTree> nystrom_trees() {
  std::vector<FatTree> trees{FatTree{}};
  for (int n = 2; n <= kMaxFatTreeOrder; ++n) {
    const int known = static_cast<int>(trees.size());
    std::vector<int> chosen;
    std::function<void(int, int)> pick = [&](int remaining, int max_kind) {
      if (remaining == 0) {
        FatTree t;
        t.order = n;
        t.children = chosen;
        t.gamma = n;
        for (int c : chosen) t.gamma *= child_gamma(trees, c);
        trees.push_back(t);
        return;
      }
      for (int kind = max_kind; kind >= -1; --kind) {
        if (child_order(trees, kind) > remaining) continue;
        chosen.push_back(kind);
        pick(remaining - child_order(trees, kind), kind);
        chosen.pop_back();
      }
    };
    pick(n - 1, known - 1);
  }
  return trees;
}

const std::vector<FatTree>& fat_trees() {
  static const std::vector<FatTree> t = nystrom_trees();
  return t;
}

// Phi(t) per stage: prod over children of c (leaf) or A Phi(u) (meagre parent of u).
std::vector<sim::Vector> nystrom_stage_weights(const sim::NystromTableau& tab) {
  std::vector<sim::Vector> phi;
  for (const FatTree& t : fat_trees()) {
    sim::Vector w = sim::Vector::Ones(tab.c.size());
    for (int kind : t.children) {
      w = w.cwiseProduct(kind < 0 ? tab.c
                                  : sim::Vector(tab.a * phi[static_cast<std::size_t>(kind)]));
    }
    phi.push_back(w);
  }
  return phi;
}

// Largest residual over the trees of one order, scaled by sum |b_i Phi_i| (round-off).
double nystrom_residual(const sim::Vector& weights, const std::vector<sim::Vector>& phi, int order,
                        bool position) {
  double worst = 0.0;
  for (std::size_t k = 0; k < fat_trees().size(); ++k) {
    const FatTree& t = fat_trees()[k];
    if (t.order != order) continue;
    const double exact = 1.0 / ((position ? t.order + 1.0 : 1.0) * t.gamma);
    const double scale = 1.0 + weights.cwiseAbs().dot(phi[k].cwiseAbs());
    worst = std::max(worst, std::abs(weights.dot(phi[k]) - exact) / scale);
  }
  return worst;
}

// Coefficients are exact fractions in double: residuals are round-off, ~1e-16 per term.
constexpr double kNystromSatisfied = 1e-14;
constexpr double kNystromViolated = 1e-6;

TEST(NystromTrees, CountsMatchSpecialNystromTrees) {
  const int expected[] = {1, 1, 2, 3, 6, 10, 20, 36};
  for (int n = 1; n <= kMaxFatTreeOrder; ++n) {
    int count = 0;
    for (const FatTree& t : fat_trees()) count += t.order == n ? 1 : 0;
    EXPECT_EQ(count, expected[n - 1]) << "order " << n;
  }
}

// The conditions of the smallest trees, written out: they are the quadrature conditions
// b' . c^(k-1) = 1/k and b . c^(k-1) = 1 / (k (k+1)), and the first coupling condition
// b' . (a 1) = 1/6.
TEST(NystromTrees, SmallTreesGiveTheKnownConditions) {
  const auto& t = fat_trees();
  ASSERT_GE(t.size(), 4U);
  EXPECT_EQ(t[0].gamma, 1.0);  // fat root: b' . 1 = 1, b . 1 = 1/2
  EXPECT_EQ(t[1].gamma, 2.0);  // root with one leaf: b' . c = 1/2, b . c = 1/6
  // Order 3: the root with a meagre parent of a fat vertex (gamma 3 * 2 = 6: b' . a1 = 1/6)
  // and the root with two leaves (gamma 3: b' . c^2 = 1/3).
  std::vector<double> gammas{t[2].gamma, t[3].gamma};
  std::sort(gammas.begin(), gammas.end());
  EXPECT_EQ(gammas, (std::vector<double>{3.0, 6.0}));
}

struct Case {
  std::string label;
  const sim::NystromTableau* tableau;
  int order;
  int embedded_order;  // 0: none
  friend std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.label; }
};

class NystromOrder : public ::testing::TestWithParam<Case> {};

// sum_j a_ij = c_i^2 / 2: each stage position is exact to second order in h.
TEST_P(NystromOrder, RowSumsAreHalfSquaredNodes) {
  const auto& t = *GetParam().tableau;
  for (Eigen::Index i = 0; i < t.a.rows(); ++i) {
    EXPECT_NEAR(t.a.row(i).sum(), 0.5 * t.c(i) * t.c(i),
                1e-16 * (1.0 + t.a.row(i).cwiseAbs().sum()))
        << t.name << " row " << i;
    for (Eigen::Index j = i; j < t.a.cols(); ++j) EXPECT_EQ(t.a(i, j), 0.0) << "explicit";
  }
}

void expect_order(const sim::Vector& b, const sim::Vector& b_prime, int order,
                  const std::vector<sim::Vector>& phi, const std::string& what) {
  for (int q = 1; q <= order; ++q) {
    EXPECT_LT(nystrom_residual(b_prime, phi, q, false), kNystromSatisfied)
        << what << ": velocity, trees of order " << q;
    if (q <= order - 1) {
      EXPECT_LT(nystrom_residual(b, phi, q, true), kNystromSatisfied)
          << what << ": position, trees of order " << q;
    }
  }
  // Exactly this order: a condition of the next order fails for q or for v.
  const double next = std::max(nystrom_residual(b_prime, phi, order + 1, false),
                               nystrom_residual(b, phi, order, true));
  EXPECT_GT(next, kNystromViolated) << what << " is of higher order than " << order;
}

TEST_P(NystromOrder, PropagatedSolutionHasExactlyNominalOrder) {
  const auto& c = GetParam();
  EXPECT_EQ(c.tableau->order, c.order);
  expect_order(c.tableau->b, c.tableau->b_prime, c.order, nystrom_stage_weights(*c.tableau),
               c.label);
}

TEST_P(NystromOrder, EmbeddedSolutionHasExactlyNominalOrder) {
  const auto& c = GetParam();
  if (c.embedded_order == 0) {
    EXPECT_FALSE(c.tableau->is_embedded());
    return;
  }
  ASSERT_TRUE(c.tableau->is_embedded());
  EXPECT_EQ(c.tableau->embedded_order, c.embedded_order);
  expect_order(*c.tableau->b_hat, *c.tableau->b_prime_hat, c.embedded_order,
               nystrom_stage_weights(*c.tableau), c.label + " embedded");
}

// A perturbed coefficient breaks the conditions: the check can fail.
TEST(NystromOrder, DetectsAWrongCoefficient) {
  sim::NystromTableau t = sim::tableaux::rkn4();
  t.b_prime[1] += 1e-3;
  t.b_prime[2] -= 1e-3;  // b' . 1 = 1 still holds, b' . c = 1/2 does not
  EXPECT_GT(nystrom_residual(t.b_prime, nystrom_stage_weights(t), 2, false), kNystromViolated);
}

INSTANTIATE_TEST_SUITE_P(
    Shipped, NystromOrder,
    ::testing::Values(Case{"rkn4", &sim::tableaux::rkn4(), 4, 0},
                      Case{"rkn64", &sim::tableaux::dormand_el_mikkawy_prince64(), 6, 4}),
    [](const auto& test_info) { return test_info.param.label; });

TEST(NystromTableaux, Fsal) {
  EXPECT_FALSE(sim::tableaux::rkn4().is_fsal());
  EXPECT_TRUE(sim::tableaux::dormand_el_mikkawy_prince64().is_fsal());
}

}  // namespace
