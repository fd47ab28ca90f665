// The peer of cli_bench: a plain Boost.Odeint program doing what `simverify run` does on the
// bench's pack -- N solves of one Arenstorf period with Dormand-Prince 5(4) at
// rtol = atol = 1e-8 -- in the configuration odeint's documentation recommends for a small
// system (state in std::array, controlled runge_kutta_dopri5, integrate_adaptive), printing
// the worst end error so the solves cannot be optimized away.
//   arenstorf_odeint N
#include <boost/numeric/odeint.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace {

using State = std::array<double, 4>;

// Hairer-Norsett-Wanner I, Sec. II.0: periodic with period kPeriod, so x(T) = x0.
constexpr double kMu = 0.012277471;
constexpr double kPeriod = 17.0652165601579625588917206249;
constexpr State kX0 = {0.994, 0.0, 0.0, -2.00158510637908252240537862224};

void arenstorf(const State& y, State& dy, double /*t*/) {
  const double mu_hat = 1.0 - kMu;
  const double r1 = (y[0] + kMu) * (y[0] + kMu) + y[1] * y[1];
  const double r2 = (y[0] - mu_hat) * (y[0] - mu_hat) + y[1] * y[1];
  const double d1 = r1 * std::sqrt(r1);
  const double d2 = r2 * std::sqrt(r2);
  dy[0] = y[2];
  dy[1] = y[3];
  dy[2] = y[0] + 2.0 * y[3] - mu_hat * (y[0] + kMu) / d1 - kMu * (y[0] - mu_hat) / d2;
  dy[3] = y[1] - 2.0 * y[2] - mu_hat * y[1] / d1 - kMu * y[1] / d2;
}

}  // namespace

int main(int argc, char** argv) {
  namespace odeint = boost::numeric::odeint;
  const long n = argc > 1 ? std::atol(argv[1]) : 1;
  double worst = 0.0;
  for (long k = 0; k < n; ++k) {
    State x = kX0;
    auto stepper = odeint::make_controlled<odeint::runge_kutta_dopri5<State>>(1e-8, 1e-8);
    odeint::integrate_adaptive(stepper, arenstorf, x, 0.0, kPeriod, 1e-3);
    for (std::size_t i = 0; i < x.size(); ++i) worst = std::max(worst, std::abs(x[i] - kX0[i]));
  }
  std::printf("%ld solves, worst end error %.3g\n", n, worst);
  return 0;
}
