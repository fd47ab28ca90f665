// Evaluating a plan: blocks in schedule order, each algebraic loop solved on its own at every
// evaluation (block-diagram lecture EulerExplicitLoopSolver: guess the cut inputs, evaluate the
// loop, compare). fixed_point relaxes the guess, guess += r (new - guess); newton solves
// new(guess) - guess = 0 with a forward-difference Jacobian on the cut variables. Both start from
// the loop's last solution (warm start) and use buffers sized once per workspace.
#include "plan.hpp"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace simverify::simulation::diagram::detail {
namespace {

// Writes the guess z into the cut slots, runs the loop's blocks and returns
// residual = new - guess.
void residual_at(const Plan& plan, const Loop& loop, const Vector& z, const Frame& f,
                 Vector& residual) {
  Eigen::Index j = 0;
  for (const Cut& cut : loop.cuts) {
    for (int w = 0; w < cut.width; ++w) f.s[cut.guess_slot + w] = z[j + w];
    j += cut.width;
  }
  for (int b : loop.blocks) plan.blocks[static_cast<std::size_t>(b)]->output(f);
  j = 0;
  for (const Cut& cut : loop.cuts) {
    for (int w = 0; w < cut.width; ++w) residual[j + w] = f.s[cut.source_slot + w] - z[j + w];
    j += cut.width;
  }
}

bool converged(const Vector& residual, const Vector& z, double tol) {
  const double scale = std::max(1.0, z.lpNorm<Eigen::Infinity>());
  return residual.allFinite() && residual.lpNorm<Eigen::Infinity>() <= tol * scale;
}

[[noreturn]] void not_converged(const Loop& loop, const LoopSettings& s, const Frame& f,
                                const Vector& residual, int iterations) {
  std::ostringstream out;
  out.precision(6);
  out << "algebraic loop " << loop.name << " did not converge at t = " << f.t << ": residual "
      << residual.lpNorm<Eigen::Infinity>() << " after " << iterations << " iterations of "
      << (s.policy == LoopPolicy::newton ? "newton" : "fixed_point") << " (tol " << s.tol
      << "; raise max_iter, lower relaxation or try the other solver)";
  throw std::runtime_error(out.str());
}

void solve_fixed_point(const Plan& plan, const Loop& loop, LoopBuffers& lb, const Frame& f) {
  const LoopSettings& s = plan.loop_settings;
  for (int iteration = 0; iteration <= s.max_iter; ++iteration) {
    residual_at(plan, loop, lb.z, f, lb.residual);
    if (converged(lb.residual, lb.z, s.tol)) return;
    if (!lb.residual.allFinite()) break;
    lb.z += s.relaxation * lb.residual;
  }
  not_converged(loop, s, f, lb.residual, s.max_iter);
}

void solve_newton(const Plan& plan, const Loop& loop, LoopBuffers& lb, const Frame& f) {
  const LoopSettings& s = plan.loop_settings;
  const double root_eps = std::sqrt(std::numeric_limits<double>::epsilon());
  for (int iteration = 0; iteration <= s.max_iter; ++iteration) {
    residual_at(plan, loop, lb.z, f, lb.residual);
    if (converged(lb.residual, lb.z, s.tol)) return;
    if (!lb.residual.allFinite()) break;
    for (Eigen::Index j = 0; j < lb.z.size(); ++j) {
      const double zj = lb.z[j];
      const double dz = root_eps * std::max(1.0, std::abs(zj));
      lb.z[j] = zj + dz;
      residual_at(plan, loop, lb.z, f, lb.trial);
      lb.z[j] = zj;
      lb.jacobian.col(j) = (lb.trial - lb.residual) / dz;
    }
    lb.lu.compute(lb.jacobian);
    lb.step.noalias() = lb.lu.solve(lb.residual);
    // Backtracking: halve the step until the residual shrinks (an exponential such as the
    // diode's overshoots far otherwise); after 40 halvings take the short step anyway.
    const double before = lb.residual.lpNorm<Eigen::Infinity>();
    double lambda = 1.0;
    for (int halving = 0; halving < 40; ++halving, lambda *= 0.5) {
      lb.trial = lb.z - lambda * lb.step;
      residual_at(plan, loop, lb.trial, f, lb.residual);
      if (lb.residual.allFinite() && lb.residual.lpNorm<Eigen::Infinity>() < before) break;
    }
    lb.z = lb.trial;
  }
  not_converged(loop, s, f, lb.residual, s.max_iter);
}

}  // namespace

Workspace::Workspace(const Plan& plan)
    : s(static_cast<std::size_t>(plan.slot_count), 0.0),
      p(plan.info.parameters.size(), 0.0),
      u(plan.inports.size()),
      scratch_of(plan.blocks.size(), nullptr),
      x_of_q(Vector::Zero(static_cast<Eigen::Index>(plan.info.states.size()))) {
  for (const auto& b : plan.blocks) {
    auto made = b->make_scratch(s.data(), p.data(), &t);
    scratch_of[static_cast<std::size_t>(b->index)] = made.get();
    if (made) scratch.push_back(std::move(made));
  }
  for (const auto& loop : plan.loops) {
    LoopBuffers lb;
    lb.z = Vector::Zero(loop.size);
    lb.residual = Vector::Zero(loop.size);
    lb.trial = Vector::Zero(loop.size);
    lb.step = Vector::Zero(loop.size);
    lb.jacobian = Matrix::Zero(loop.size, loop.size);
    lb.lu = Eigen::PartialPivLU<Matrix>(loop.size);
    loops.push_back(std::move(lb));
  }
  // Forms of every slot and derivative over every column: a diagram too large for that (a
  // few hundred states and signals) is evaluated block by block.
  constexpr std::size_t kMaxFormEntries = std::size_t{1} << 18;
  const std::size_t rows = s.size() + plan.info.states.size() + 1;
  const std::size_t columns = plan.info.states.size() + 2 * plan.inports.size() + 2;
  if (!plan.straight.empty() && rows * columns <= kMaxFormEntries) {
    linear = std::make_unique<LinearForm>(plan, *this);
    if (!linear->derivatives()) linear.reset();
  }
}

void Workspace::restart() {
  for (auto& lb : loops) lb.z.setZero();
}

namespace {

// The outputs the state derivatives read (Plan::for_derivatives), else all of them.
void compute_for_derivatives(const Plan& plan, Workspace& ws, const Frame& f) {
  if (!plan.integrators_first) {
    compute_outputs(plan, ws, f);
    return;
  }
  for (const Plan::Integrator& i : plan.integrators) f.s[i.out_slot] = f.x[i.state];
  for (const Block* b : plan.for_derivatives) b->output(f);
}

}  // namespace

void compute_derivatives(const Plan& plan, Workspace& ws, const Frame& f) {
  compute_for_derivatives(plan, ws, f);
  for (const Plan::Integrator& i : plan.integrators) f.dxdt[i.state] = f.s[i.in_slot];
  for (int b : plan.other_stateful) plan.blocks[static_cast<std::size_t>(b)]->derivative(f);
}

void compute_outputs(const Plan& plan, Workspace& ws, const Frame& f) {
  if (!plan.straight.empty()) {
    for (const Block* b : plan.straight) b->output(f);
    return;
  }
  for (const Step& step : plan.schedule) {
    if (step.loop < 0) {
      plan.blocks[static_cast<std::size_t>(step.block)]->output(f);
      continue;
    }
    const Loop& loop = plan.loops[static_cast<std::size_t>(step.loop)];
    LoopBuffers& lb = ws.loops[static_cast<std::size_t>(step.loop)];
    if (plan.loop_settings.policy == LoopPolicy::newton) {
      solve_newton(plan, loop, lb, f);
    } else {
      solve_fixed_point(plan, loop, lb, f);
    }
  }
}

}  // namespace simverify::simulation::diagram::detail
