#include <simverify/simulation/diagram/diagram_model.hpp>

#include "plan.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace simverify::simulation::diagram {
namespace {

using detail::Frame;
using detail::Workspace;

// Identifies a DiagramModel in the per-thread workspace cache (an address could be reused by
// a later model; an id is not).
std::uint64_t next_model_id() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

CompiledDiagram::CompiledDiagram(std::unique_ptr<const detail::Plan> plan)
    : plan_(std::move(plan)) {}
CompiledDiagram::~CompiledDiagram() = default;

const ModelInfo& CompiledDiagram::info() const {
  return plan_->info;
}
const std::vector<std::string>& CompiledDiagram::inports() const {
  return plan_->inports;
}

std::optional<std::string> CompiledDiagram::misfit(std::span<const double> p) const {
  if (p.size() != plan_->info.parameters.size()) {
    return "diagram '" + plan_->info.name + "' has " +
           std::to_string(plan_->info.parameters.size()) + " parameters, given " +
           std::to_string(p.size());
  }
  for (const auto& b : plan_->blocks) {
    if (std::string why = b->misfit(p.data()); !why.empty()) {
      return "block '" + b->name + "' (" + b->type + "): " + why;
    }
  }
  return std::nullopt;
}

DiagramModel::DiagramModel(std::shared_ptr<const CompiledDiagram> diagram, NamedInputs inputs)
    : diagram_(std::move(diagram)), id_(next_model_id()) {
  const auto& inports = diagram_->inports();
  inputs_.resize(inports.size());
  for (auto& [name, signal] : inputs) {
    const auto it = std::find(inports.begin(), inports.end(), name);
    if (it == inports.end()) {
      std::string known;
      for (const auto& n : inports) known += (known.empty() ? "" : ", ") + n;
      throw std::invalid_argument("diagram '" + info().name + "' has no inport '" + name +
                                  "'; its inports: " + (known.empty() ? "none" : known));
    }
    inputs_[static_cast<std::size_t>(it - inports.begin())] = std::move(signal);
  }
  reads_run_u_ = inputs_.size() == 1 && !inputs_[0];
}

DiagramModel::~DiagramModel() = default;

namespace {

// This thread's workspace of the model `id`, created on first use. A few per thread, most
// recently used last: a thread alternating between two diagrams (back-to-back points) keeps
// both.
Workspace& cached_workspace(std::uint64_t id, const detail::Plan& plan) {
  struct Entry {
    std::uint64_t id;
    std::unique_ptr<Workspace> ws;
  };
  constexpr std::size_t kKept = 8;
  thread_local std::vector<Entry> cache;
  auto it = std::find_if(cache.begin(), cache.end(), [&](const Entry& e) { return e.id == id; });
  Entry entry = it != cache.end() ? std::move(*it) : Entry{id, std::make_unique<Workspace>(plan)};
  if (it != cache.end()) cache.erase(it);
  if (cache.size() >= kKept) cache.erase(cache.begin());
  cache.push_back(std::move(entry));
  return *cache.back().ws;
}

// The workspace this thread used last, when it is the model `id`'s: without the cache's
// thread-local vector and its guard, a trivially constructed thread_local is one load
// (callgrind: 27 -> 7 instructions per call). Ids are never reused, so a stale entry never
// matches. `hot_id`: the id again when rhs() may take the hot path with the folded map `hot`
// (LinearForm::hot), else 0 (no model's): one comparison asks both.
struct LastWorkspace {
  std::uint64_t id;
  Workspace* ws;
  std::uint64_t hot_id;
  const detail::LinearForm* hot;
};
LastWorkspace& last_workspace() {
  thread_local LastWorkspace last{0, nullptr, 0, nullptr};
  return last;
}

}  // namespace

detail::Workspace& DiagramModel::workspace() const {
  LastWorkspace& last = last_workspace();
  if (last.id != id_) {
    Workspace& ws = cached_workspace(id_, diagram_->plan());
    // The hot path passes the run's u as the map's v: one inport reading it, or none.
    const bool hot = ws.linear && (reads_run_u_ || inputs_.empty());
    last = {id_, &ws, hot ? id_ : 0, hot ? ws.linear.get() : nullptr};
  }
  return *last.ws;
}

namespace {

// Context::mode of a run whose switches' branches are latched (bits Block::latch).
constexpr int kLatched = 1 << 30;

// What inport i reads at t.
InputSample inport_sample(const std::vector<InputPtr>& inputs, std::size_t i, double t,
                          const Context& context) {
  if (!inputs[i]) return inputs.size() == 1 ? context.u : InputSample{};
  // Under a sampling grid the simulator holds inputs at the interval's sampling instant
  // (Context::sampled_at), the inports as the run's own u.
  InputSample sample = inputs[i]->at(context.input_time(t));
  if (context.sampled()) sample.derivative = 0.0;
  return sample;
}

// The affine diagram's variables besides the states (LinearForm::variables): per inport its
// value and derivative, then t.
void read_inports(std::span<double> v, const std::vector<InputPtr>& inputs, double t,
                  const Context& context) {
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const InputSample u = inport_sample(inputs, i, t, context);
    v[2 * i] = u.value;
    v[2 * i + 1] = u.derivative;
  }
}
inline void set_linear_variables(std::span<double> v, const std::vector<InputPtr>& inputs,
                                 bool reads_run_u, double t, const Context& context) {
  if (reads_run_u) {  // the commonest: one inport reading the run's u
    v[0] = context.u.value;
    v[1] = context.u.derivative;
  } else {
    read_inports(v, inputs, t, context);
  }
  v.back() = t;
}

Frame frame_for(const detail::Plan& plan, Workspace& ws, const std::vector<InputPtr>& inputs,
                double t, const Vector& x, const Context& context) {
  ws.t = t;
  // Only diagrams with expression blocks keep a copy of the run's parameters (the parsers read
  // them by address, the affine forms are folded from them); every other block reads f.p.
  // Within a run they do not change: the copy and the folding happen at its first evaluation.
  if (!plan.expression_parameters.empty()) {
    if (context.p.size() != ws.p.size()) {
      throw std::invalid_argument("diagram '" + plan.info.name + "' has " +
                                  std::to_string(ws.p.size()) + " parameters, the context " +
                                  std::to_string(context.p.size()));
    }
    const auto read_changed = [&] {
      for (const int i : plan.expression_parameters) {
        const auto k = static_cast<std::size_t>(i);
        if (context.p[k] != ws.p[k]) return true;  // NaN: always (folded again each time)
      }
      return false;
    };
    if (read_changed()) {
      std::copy(context.p.begin(), context.p.end(), ws.p.begin());
      for (const auto& scratch : ws.scratch) scratch->parameters_changed();
    }
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) ws.u[i] = inport_sample(inputs, i, t, context);
  Frame f;
  f.t = t;
  f.input_limit = context.input_limit;
  f.mode = context.mode;
  f.latched = (context.mode & kLatched) != 0;
  f.x = x.data();
  f.p = context.p.data();
  f.s = ws.s.data();
  f.u = ws.u.data();
  f.scratch = ws.scratch_of.data();
  return f;
}

}  // namespace

void DiagramModel::rhs(double t, const Vector& x, const Context& context, Vector& dxdt) const {
  // The hot path, a leaf ending in the map's kernel: this thread's last workspace is this
  // model's, its map takes the run's u as it stands and is folded from these parameters
  // (LinearForm::hot), dxdt has its size. Everything else takes the general path.
  const LastWorkspace& last = last_workspace();
  if (last.hot_id != id_ || dxdt.size() != x.size() || !last.hot->hot(context.p)) [[unlikely]] {
    rhs_folding_or_by_blocks(t, x, context, dxdt);
    return;
  }
  last.hot->hot_dxdt(x.data(), context.u, dxdt.data());
}

// Not inlined into rhs(): the hot path stays a short function with a small frame.
[[gnu::noinline]] void DiagramModel::rhs_folding_or_by_blocks(double t, const Vector& x,
                                                              const Context& context,
                                                              Vector& dxdt) const {
  const detail::Plan& plan = diagram_->plan();
  Workspace& ws = workspace();
  dxdt.resize(x.size());
  if (ws.linear && ws.linear->refresh(plan, ws, context.p, false)) {
    set_linear_variables(ws.linear->variables(), inputs_, reads_run_u_, t, context);
    ws.linear->dxdt(x.data(), dxdt.data());
    return;
  }
  Frame f = frame_for(plan, ws, inputs_, t, x, context);
  f.dxdt = dxdt.data();
  detail::compute_derivatives(plan, ws, f);
}

void DiagramModel::output(double t, const Vector& x, const Context& context, Vector& y) const {
  const detail::Plan& plan = diagram_->plan();
  if (plan.output_slots.empty()) {
    Model::output(t, x, context, y);
    return;
  }
  Workspace& ws = workspace();
  y.resize(static_cast<Eigen::Index>(plan.output_slots.size()));
  if (ws.linear && ws.linear->outputs() && ws.linear->refresh(plan, ws, context.p, true)) {
    set_linear_variables(ws.linear->variables(), inputs_, reads_run_u_, t, context);
    ws.linear->y(x.data(), y.data());
    return;
  }
  const Frame f = frame_for(plan, ws, inputs_, t, x, context);
  detail::compute_outputs(plan, ws, f);
  for (std::size_t i = 0; i < plan.output_slots.size(); ++i) {
    y[static_cast<Eigen::Index>(i)] = ws.s[static_cast<std::size_t>(plan.output_slots[i])];
  }
}

void DiagramModel::acceleration(double t, const Vector& q, const Context& context,
                                Vector& qdd) const {
  const detail::Plan& plan = diagram_->plan();
  const auto& positions = plan.info.second_order.value().positions;
  Workspace& ws = workspace();
  for (std::size_t i = 0; i < positions.size(); ++i) {
    ws.x_of_q[positions[i]] = q[static_cast<Eigen::Index>(i)];
  }
  const Frame f = frame_for(plan, ws, inputs_, t, ws.x_of_q, context);
  detail::compute_outputs(plan, ws, f);
  qdd.resize(static_cast<Eigen::Index>(positions.size()));
  for (std::size_t i = 0; i < positions.size(); ++i) {
    qdd[static_cast<Eigen::Index>(i)] = ws.s[static_cast<std::size_t>(plan.acceleration_slots[i])];
  }
}

double DiagramModel::event_value(std::size_t index, double t, const Vector& x,
                                 const Context& context) const {
  const detail::Plan& plan = diagram_->plan();
  Workspace& ws = workspace();
  const Frame f = frame_for(plan, ws, inputs_, t, x, context);
  detail::compute_outputs(plan, ws, f);
  const auto [block, local] = plan.event_of.at(index);
  return plan.blocks[static_cast<std::size_t>(block)]->event(static_cast<std::size_t>(local), f);
}

EventAction DiagramModel::on_event(std::size_t index, double /*t*/, Vector& x,
                                   Context& context) const {
  const detail::Plan& plan = diagram_->plan();
  const auto [block, local] = plan.event_of.at(index);
  const detail::Block& fired = *plan.blocks[static_cast<std::size_t>(block)];
  fired.on_event(static_cast<std::size_t>(local), context.p.data(), x.data());
  // The located crossing of a switch's control: the other branch from here on. Toggled rather
  // than read from the control, which sits on the threshold here (g may be exactly 0).
  if (fired.latch >= 0 && (context.mode & kLatched) != 0) context.mode ^= 1 << fired.latch;
  return EventAction::resume;
}

int DiagramModel::latches(double t, const Vector& x, const Context& context) const {
  const detail::Plan& plan = diagram_->plan();
  Workspace& ws = workspace();
  Frame f = frame_for(plan, ws, inputs_, t, x, context);
  f.latched = false;  // what the controls select now
  detail::compute_outputs(plan, ws, f);
  int bits = 0;
  for (int b : plan.latched) {
    const detail::Block& block = *plan.blocks[static_cast<std::size_t>(b)];
    if (block.branch(f)) bits |= 1 << block.latch;
  }
  return bits;
}

int DiagramModel::latch_mask() const {
  int mask = 0;
  const detail::Plan& plan = diagram_->plan();
  for (int b : plan.latched) mask |= 1 << plan.blocks[static_cast<std::size_t>(b)]->latch;
  return mask;
}

void DiagramModel::relatch(double t, const Vector& x, Context& context) const {
  if (diagram_->plan().latched.empty()) return;
  context.mode = (context.mode & ~latch_mask()) | kLatched | latches(t, x, context);
}

int DiagramModel::initial_mode(double t0, const Vector& x0, const Context& context) const {
  if (auto why = diagram_->misfit(context.p)) throw std::runtime_error(*why);
  workspace().restart();
  Context start = context;
  start.mode = diagram_->plan().sampled.empty() ? 0 : kSamplePending;
  relatch(t0, x0, start);
  return start.mode;
}

StepRequest DiagramModel::after_step(double t, const Vector& x, const Context& context) const {
  // A crossing no event located (events off, or a control that crossed and came back within a
  // step, or jumped with the run's u): the latch follows the control at the step's end.
  if (diagram_->plan().latched.empty() || (context.mode & kLatched) == 0) [[likely]] {
    return StepRequest::none;
  }
  return latches(t, x, context) == (context.mode & latch_mask()) ? StepRequest::none
                                                                 : StepRequest::event;
}

EventAction DiagramModel::on_step_event(double t, Vector& x, Context& context) const {
  relatch(t, x, context);
  return EventAction::resume;
}

Vector DiagramModel::initial_state(double t0, const Context& context) const {
  const detail::Plan& plan = diagram_->plan();
  if (auto why = diagram_->misfit(context.p)) throw std::runtime_error(*why);
  Vector x0 = Vector::Zero(static_cast<Eigen::Index>(plan.info.states.size()));
  for (int b : plan.stateful) {
    plan.blocks[static_cast<std::size_t>(b)]->initial_state(context.p.data(), x0.data());
  }
  if (!plan.sampled.empty()) take_samples(t0, x0, context, detail::Sampling::all);
  return x0;
}

double DiagramModel::next_time_event(double t, const Context& context) const {
  const detail::Plan& plan = diagram_->plan();
  if ((context.mode & kSamplePending) != 0) return t;
  double next = std::numeric_limits<double>::infinity();
  for (int b : plan.sampled) {
    next =
        std::min(next, plan.blocks[static_cast<std::size_t>(b)]->next_sample(t, context.p.data()));
  }
  // The jumps and kinks of the inports' own signals (u.<name>: a step, a ramp), unless the run
  // holds them per sampling interval (the run's u is the simulator's), and of the timed blocks
  // (a `signal`, never held: InputSignal::next_jump too). One within rounding of t is passed.
  const double passed = 64.0 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(t));
  const auto first_after = [&](const auto& next_of) {
    double jump = next_of(t);
    while (jump - t <= passed) jump = next_of(jump);
    return jump;
  };
  if (!context.sampled()) {
    for (const InputPtr& input : inputs_) {
      if (!input) continue;
      next = std::min(next, first_after([&](double s) { return input->next_jump(s); }));
    }
  }
  for (int b : plan.timed) {
    const detail::Block& block = *plan.blocks[static_cast<std::size_t>(b)];
    next = std::min(
        next, first_after([&](double s) { return block.next_breakpoint(s, context.p.data()); }));
  }
  return next;
}

EventAction DiagramModel::on_time_event(double t, Vector& x, Context& context) const {
  take_samples(
      t, x, context,
      (context.mode & kSamplePending) != 0 ? detail::Sampling::all : detail::Sampling::due);
  context.mode &= ~kSamplePending;
  // Inputs and samples may have jumped here, a switch's control with them: latched afresh.
  relatch(t, x, context);
  return EventAction::resume;
}

std::vector<std::pair<std::string, double>> DiagramModel::sample_periods(
    std::span<const double> p) const {
  const detail::Plan& plan = diagram_->plan();
  std::vector<std::pair<std::string, double>> periods;
  if (p.size() != plan.info.parameters.size()) return periods;  // misfit() reports it
  for (int b : plan.sampled) {
    const detail::Block& block = *plan.blocks[static_cast<std::size_t>(b)];
    periods.emplace_back(block.type + " '" + block.name + "' T", block.sample_period(p.data()));
  }
  return periods;
}

void DiagramModel::take_samples(double t, Vector& x, const Context& context,
                                detail::Sampling which) const {
  const detail::Plan& plan = diagram_->plan();
  Workspace& ws = workspace();
  Frame f = frame_for(plan, ws, inputs_, t, x, context);
  f.sampling = which;
  detail::compute_outputs(plan, ws, f);
  for (int b : plan.sampled) plan.blocks[static_cast<std::size_t>(b)]->take_sample(f, x.data());
}

}  // namespace simverify::simulation::diagram
