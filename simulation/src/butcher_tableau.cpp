#include <simverify/simulation/butcher_tableau.hpp>

namespace simverify::simulation {

bool ButcherTableau::is_explicit() const {
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    for (Eigen::Index j = i; j < a.cols(); ++j) {
      if (a(i, j) != 0.0) return false;
    }
  }
  return true;
}

bool ButcherTableau::is_fsal() const {
  const Eigen::Index s = b.size();
  if (s < 2 || c(s - 1) != 1.0) return false;
  return a.row(s - 1).transpose() == b;
}

}  // namespace simverify::simulation
