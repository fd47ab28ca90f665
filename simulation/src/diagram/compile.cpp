// compile(): a DiagramSpec into an execution plan (block-diagram lecture sections 4.4-4.5).
// Subsystems are flattened (their blocks named "sub/inner", their inports become feed-through
// pass-throughs), every input is bound to the one output driving it, outputs get slots of
// one flat signal array, and the blocks are ordered by the feed-through graph: Tarjan's
// strongly connected components, then a topological order of the components (ties broken by
// file order). A component with a cycle is an algebraic loop: refused, or solved with its cut
// inputs chosen as the block-diagram lecture's EulerExplicitLoopSolver chooses its guessed inputs.
#include "block_factory.hpp"
#include "plan.hpp"

#include <simverify/core/text.hpp>
#include <simverify/simulation/diagram/diagram_model.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <queue>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace simverify::simulation::diagram {
namespace detail {
namespace {

struct FlatBlock {
  const BlockSpec* spec = nullptr;
  std::string name;
  std::shared_ptr<const Scope> scope;
  bool passthrough = false;  // an inport inside a subsystem
  int inport = -1;           // a top-level inport's index
};

struct Level;

struct LocalBlock {
  std::string name;
  int flat = -1;               // -1 for a subsystem
  std::unique_ptr<Level> sub;  // its contents
  const BlockSpec* spec = nullptr;
};

// One (sub)diagram while flattening. Names are looked up by hash (compile() stays linear in
// the number of blocks and connections: a 100,000-block chain compiled in minutes when each
// look-up walked the list).
struct Level {
  const DiagramSpec* spec = nullptr;
  std::vector<LocalBlock> blocks;
  std::unordered_map<std::string, std::size_t> by_name;  // -> blocks
  // Its inports (a subsystem's input ports) in file order, and by inport name (the first).
  std::vector<std::size_t> inports;
  std::unordered_map<std::string, std::size_t> inport_by_name;
  // Its outputs (a subsystem's output ports) by name (the last of a name, as written).
  std::unordered_map<std::string, const OutputSpec*> output_by_name;
  [[nodiscard]] const LocalBlock* find(const std::string& name) const {
    const auto it = by_name.find(name);
    return it == by_name.end() ? nullptr : &blocks[it->second];
  }
  [[nodiscard]] std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& b : blocks) out.push_back(b.name);
    return out;
  }
};

// An endpoint of the flattened diagram: a block and a port name ("" = its only port).
struct Endpoint {
  int block = 0;
  std::string port;
  Origin origin;
};

struct FlatConnection {
  Endpoint from;
  Endpoint to;
  Origin origin;
};

std::string inport_name(const BlockSpec& b) {
  const Param* name = b.find("name");
  return name != nullptr && name->is_text ? name->text : b.name;
}

std::vector<std::string> port_names(const std::vector<Port>& ports) {
  std::vector<std::string> out;
  out.reserve(ports.size());
  for (const auto& p : ports) out.push_back(p.name);
  return out;
}

class Compiler {
 public:
  std::unique_ptr<Plan> run(const DiagramSpec& spec) {
    auto scope = std::make_shared<Scope>();
    for (const auto& p : spec.parameters) {
      if (scope->find(p.name) >= 0)
        throw DiagramError(p.origin, "parameter '" + p.name + "' is declared twice");
      scope->names.emplace_back(p.name, table_.add(p.name, p.value, "diagram parameter"));
    }
    check_size(spec);
    const auto top = flatten(spec, "", scope, true);
    plan_->loop_settings = spec.loops;
    build_blocks();
    bind_connections();
    order();
    plan_hot_path();
    plan_timed();
    describe_model(spec, *top);
    plan_integrators();
    if (spec.second_order) declare_second_order(*spec.second_order);
    return std::move(plan_);
  }

 private:
  // Counts of flattened blocks saturate here (no overflow however deep the fan-out).
  static constexpr std::uint64_t kCountCap = 1'000'000'000'000'000'000;

  // The blocks a diagram flattens to, counted once per spec (a file included many times is
  // counted once): a file including another twice at 40 levels is 2^41 - 2 blocks, counted in
  // 40 steps.
  std::uint64_t flat_count(const DiagramSpec& d) {
    if (const auto it = flat_counts_.find(&d); it != flat_counts_.end()) return it->second;
    std::uint64_t n = 0;
    for (const auto& b : d.blocks) {
      n += b.type == "subsystem" && b.subsystem ? flat_count(*b.subsystem) : 1;
      n = std::min(n, kCountCap);
    }
    return flat_counts_[&d] = n;
  }

  // Refuses a diagram that flattens to more than kMaxFlatBlocks blocks before any of them is
  // built, at the first block of the top diagram (a subsystem, usually) that takes the count
  // past the limit, with the count it reaches there.
  void check_size(const DiagramSpec& top) {
    const std::uint64_t total = flat_count(top);
    if (total <= kMaxFlatBlocks) return;
    const auto blocks = [](std::uint64_t n) {
      return n >= kCountCap ? std::string("more than 10^18 blocks") : std::to_string(n) + " blocks";
    };
    const std::string limit = "; a diagram may have at most " + std::to_string(kMaxFlatBlocks) +
                              " blocks with every subsystem instance flattened";
    std::uint64_t reached = 0;
    for (const auto& b : top.blocks) {
      const bool sub = b.type == "subsystem" && b.subsystem;
      const std::uint64_t adds = sub ? flat_count(*b.subsystem) : 1;
      reached = std::min(reached + adds, kCountCap);
      if (reached <= kMaxFlatBlocks) continue;
      if (!sub) {
        throw DiagramError(b.origin, "block '" + b.name + "' is block " + std::to_string(reached) +
                                         " of the flattened diagram" + limit);
      }
      throw DiagramError(b.origin,
                         "subsystem '" + b.name + "' (" + b.subsystem->origin.file + ", " +
                             blocks(adds) + " once flattened) would bring the diagram to " +
                             blocks(reached) +
                             (reached == total ? "" : " (" + blocks(total) + " in all)") + limit);
    }
  }

  std::unique_ptr<Level> flatten(const DiagramSpec& d, const std::string& prefix,
                                 const std::shared_ptr<const Scope>& scope, bool top) {
    auto level = std::make_unique<Level>();
    level->spec = &d;
    for (const auto& b : d.blocks) {
      if (level->find(b.name) != nullptr) {
        throw DiagramError(b.origin, "block '" + b.name + "' is declared twice");
      }
      LocalBlock local;
      local.name = b.name;
      local.spec = &b;
      if (b.type == "subsystem") {
        if (!b.subsystem) throw DiagramError(b.origin, "subsystem '" + b.name + "' has no diagram");
        local.sub = flatten(*b.subsystem, prefix + b.name + "/",
                            subsystem_scope(b, prefix + b.name, *scope), false);
      } else {
        local.flat = static_cast<int>(flat_.size());
        FlatBlock flat{&b, prefix + b.name, scope};
        if (b.type == "inport") {
          if (top) {
            flat.inport = static_cast<int>(plan_->inports.size());
            plan_->inports.push_back(inport_name(b));
          } else {
            flat.passthrough = true;
          }
        }
        flat_.push_back(std::move(flat));
      }
      if (b.type == "inport") {
        level->inport_by_name.emplace(inport_name(b), level->blocks.size());
        level->inports.push_back(level->blocks.size());
      }
      level->by_name.emplace(b.name, level->blocks.size());
      level->blocks.push_back(std::move(local));
    }
    for (const auto& o : d.outputs) level->output_by_name.insert_or_assign(o.name, &o);
    for (const auto& c : d.connections) {
      connections_.push_back({source(*level, c.source), target(*level, c.target), c.origin});
    }
    return level;
  }

  // The subsystem's own parameters: overridden by the block's `parameters` (a number, or the
  // name of a parameter of the diagram around it), else the defaults of its file. Each is a
  // model parameter `<sub>.<name>` unless it refers to an outer one.
  std::shared_ptr<const Scope> subsystem_scope(const BlockSpec& b, const std::string& name,
                                               const Scope& outer) {
    const DiagramSpec& inner = *b.subsystem;
    std::vector<std::string> declared;
    for (const auto& p : inner.parameters) declared.push_back(p.name);
    for (const auto& given : b.params) {
      if (std::find(declared.begin(), declared.end(), given.name) == declared.end()) {
        throw DiagramError(given.origin, "subsystem '" + b.name + "' has no parameter '" +
                                             given.name + "'" +
                                             core::did_you_mean(given.name, declared) +
                                             "; its parameters: " + core::join_or_none(declared));
      }
    }
    auto scope = std::make_shared<Scope>();
    for (const auto& p : inner.parameters) {
      const Param* given = b.find(p.name);
      int index = -1;
      if (given != nullptr && given->is_text) {
        index = outer.find(given->text);
        if (index < 0) {
          throw DiagramError(given->origin,
                             "'" + given->text +
                                 "' is no number and no parameter of "
                                 "the enclosing diagram" +
                                 core::did_you_mean(given->text, outer.known()) +
                                 "; its parameters: " + core::join_or_none(outer.known()));
        }
      } else if (given != nullptr && !given->is_scalar()) {
        throw DiagramError(given->origin, "a subsystem parameter must be a number");
      } else {
        index = table_.add(name + "." + p.name, given != nullptr ? given->values.front() : p.value,
                           "parameter " + p.name + " of subsystem " + name);
      }
      scope->names.emplace_back(p.name, index);
    }
    return scope;
  }

  static const LocalBlock& block_of(const Level& level, const PortRef& ref) {
    const LocalBlock* b = level.find(ref.block);
    if (b == nullptr) {
      throw DiagramError(ref.origin, "unknown block '" + ref.block + "'" +
                                         core::did_you_mean(ref.block, level.names()) +
                                         "; blocks: " + core::join_or_none(level.names()));
    }
    return *b;
  }

  Endpoint source(const Level& level, const PortRef& ref) {
    const LocalBlock& b = block_of(level, ref);
    if (!b.sub) return {b.flat, ref.port, ref.origin};
    const auto& outputs = b.spec->subsystem->outputs;
    const auto names = [&] {
      std::vector<std::string> out;
      out.reserve(outputs.size());
      for (const auto& o : outputs) out.push_back(o.name);
      return out;
    };
    const OutputSpec* chosen = nullptr;
    if (ref.port.empty()) {
      if (outputs.size() != 1) {
        throw DiagramError(ref.origin, "subsystem '" + b.name + "' has " +
                                           std::to_string(outputs.size()) + " outputs (" +
                                           core::join_or_none(names()) + "): name one as " +
                                           b.name + ".<output>");
      }
      chosen = &outputs.front();
    }
    if (const auto it = b.sub->output_by_name.find(ref.port); it != b.sub->output_by_name.end()) {
      chosen = it->second;
    }
    if (chosen == nullptr) {
      throw DiagramError(ref.origin, "subsystem '" + b.name + "' has no output '" + ref.port + "'" +
                                         core::did_you_mean(ref.port, names()) +
                                         "; its outputs: " + core::join_or_none(names()));
    }
    return source(*b.sub, chosen->port);
  }

  Endpoint target(const Level& level, const PortRef& ref) {
    const LocalBlock& b = block_of(level, ref);
    if (!b.sub) return {b.flat, ref.port, ref.origin};
    const Level& sub = *b.sub;
    if (ref.port.empty() && sub.inports.size() == 1) {
      return {sub.blocks[sub.inports.front()].flat, "u", ref.origin};
    }
    if (const auto it = sub.inport_by_name.find(ref.port); it != sub.inport_by_name.end()) {
      return {sub.blocks[it->second].flat, "u", ref.origin};
    }
    std::vector<std::string> names;
    for (const std::size_t i : sub.inports) names.push_back(inport_name(*sub.blocks[i].spec));
    const auto& inports = sub.inports;
    if (ref.port.empty()) {
      throw DiagramError(ref.origin, "subsystem '" + b.name + "' has " +
                                         std::to_string(inports.size()) + " inports (" +
                                         core::join_or_none(names) + "): name one as " + b.name +
                                         ".<inport>");
    }
    throw DiagramError(ref.origin, "subsystem '" + b.name + "' has no inport '" + ref.port + "'" +
                                       core::did_you_mean(ref.port, names) +
                                       "; its inports: " + core::join_or_none(names));
  }

  void build_blocks() {
    for (const auto& f : flat_) {
      std::unique_ptr<Block> block;
      if (f.passthrough) {
        block = make_passthrough();
        block->name = f.name;
        block->type = "inport";
        block->origin = f.spec->origin;
      } else {
        BlockBuilder builder(*f.spec, f.name, table_, *f.scope);
        block = make_block(builder, f.inport);
      }
      block->index = static_cast<int>(plan_->blocks.size());
      block->in_slot.assign(block->inputs.size(), -1);
      for (const auto& port : block->outputs) {
        block->out_slot.push_back(plan_->slot_count);
        plan_->slot_count += port.width;
      }
      plan_->blocks.push_back(std::move(block));
    }
  }

  // A block's ports by name, for blocks with many (a sum of 100,000 inputs): built on first use.
  using PortIndex = std::unordered_map<std::string, int>;
  static constexpr std::size_t kIndexedPorts = 16;

  int port_index(const Block& b, const Endpoint& e, bool output) {
    const auto& ports = output ? b.outputs : b.inputs;
    if (!e.port.empty() && ports.size() > kIndexedPorts) {
      auto& cache = port_indices_[output ? 1 : 0];
      if (cache.size() < plan_->blocks.size()) cache.resize(plan_->blocks.size());
      PortIndex& index = cache[static_cast<std::size_t>(b.index)];
      if (index.empty()) {
        for (std::size_t i = ports.size(); i-- > 0;) index[ports[i].name] = static_cast<int>(i);
      }
      if (const auto it = index.find(e.port); it != index.end()) return it->second;
    }
    const char* what = output ? "output" : "input";
    if (e.port.empty()) {
      // A source's bare name is its only output, or its main output y beside derived ones
      // (an inport's dydt).
      if (ports.size() == 1 || (output && ports.front().name == "y")) return 0;
      throw DiagramError(e.origin, "block '" + b.name + "' (" + b.type + ") has " +
                                       std::to_string(ports.size()) + " " + what + "s (" +
                                       core::join_or_none(port_names(ports)) + "): name one as " +
                                       b.name + ".<" + what + ">");
    }
    for (std::size_t i = 0; i < ports.size(); ++i) {
      if (ports[i].name == e.port) return static_cast<int>(i);
    }
    throw DiagramError(e.origin, "block '" + b.name + "' (" + b.type + ") has no " + what + " '" +
                                     e.port + "'" + core::did_you_mean(e.port, port_names(ports)) +
                                     "; its " + what +
                                     "s: " + core::join_or_none(port_names(ports)));
  }

  void bind_connections() {
    auto& blocks = plan_->blocks;
    std::vector<std::vector<int>> driver(blocks.size());  // per block and input: connection
    for (std::size_t b = 0; b < blocks.size(); ++b) driver[b].assign(blocks[b]->inputs.size(), -1);
    for (std::size_t c = 0; c < connections_.size(); ++c) {
      const FlatConnection& con = connections_[c];
      const Block& from = *blocks[static_cast<std::size_t>(con.from.block)];
      Block& to = *blocks[static_cast<std::size_t>(con.to.block)];
      const int out = port_index(from, con.from, true);
      const int in = port_index(to, con.to, false);
      int& slot = driver[static_cast<std::size_t>(to.index)][static_cast<std::size_t>(in)];
      const std::string input = to.name + "." + to.inputs[static_cast<std::size_t>(in)].name;
      if (slot >= 0) {
        throw DiagramError(con.origin,
                           "input '" + input +
                               "' is driven twice (also by the "
                               "connection at " +
                               connections_[static_cast<std::size_t>(slot)].origin.str() +
                               "); each input is driven by exactly one output");
      }
      const int width_out = from.outputs[static_cast<std::size_t>(out)].width;
      const int width_in = to.inputs[static_cast<std::size_t>(in)].width;
      if (width_out != width_in) {
        throw DiagramError(
            con.origin, "'" + from.name + "." + from.outputs[static_cast<std::size_t>(out)].name +
                            "' carries " + std::to_string(width_out) + " values, input '" + input +
                            "' takes " + std::to_string(width_in));
      }
      slot = static_cast<int>(c);
      to.in_slot[static_cast<std::size_t>(in)] = from.out_slot[static_cast<std::size_t>(out)];
      plan_->edges.push_back({from.index, out, to.index, in});
      edge_origin_.push_back(con.origin);
    }
    for (const auto& b : blocks) {
      for (std::size_t k = 0; k < b->inputs.size(); ++k) {
        if (b->in_slot[k] < 0) {
          throw DiagramError(b->origin,
                             "input '" + b->name + "." + b->inputs[k].name + "' is not connected");
        }
      }
    }
  }

  // Feed-through edges only: they alone make algebraic loops (block-diagram lecture
  // InputDeclaration).
  [[nodiscard]] bool feedthrough(const Edge& e) const {
    return plan_->blocks[static_cast<std::size_t>(e.to)]
        ->inputs[static_cast<std::size_t>(e.to_input)]
        .feedthrough;
  }

  // Tarjan's strongly connected components of the feed-through graph, iteratively (a chain
  // of 100,000 blocks is 100,000 frames deep): the same visiting order, so the same numbers,
  // as the recursive form.
  std::vector<int> components(int& count) const {
    const std::size_t n = plan_->blocks.size();
    std::vector<std::vector<int>> succ(n);
    for (const auto& e : plan_->edges) {
      if (feedthrough(e)) succ[static_cast<std::size_t>(e.from)].push_back(e.to);
    }
    std::vector<int> index(n, -1), low(n, 0), comp(n, -1), stack;
    std::vector<bool> on_stack(n, false);
    struct Frame {
      int v;
      std::size_t next;  // of succ[v]
    };
    std::vector<Frame> calls;
    int next = 0;
    count = 0;
    const auto enter = [&](int v) {
      const auto vi = static_cast<std::size_t>(v);
      index[vi] = low[vi] = next++;
      stack.push_back(v);
      on_stack[vi] = true;
      calls.push_back({v, 0});
    };
    for (std::size_t root = 0; root < n; ++root) {
      if (index[root] >= 0) continue;
      enter(static_cast<int>(root));
      while (!calls.empty()) {
        const int v = calls.back().v;
        const auto vi = static_cast<std::size_t>(v);
        if (calls.back().next < succ[vi].size()) {
          const int w = succ[vi][calls.back().next++];
          const auto wi = static_cast<std::size_t>(w);
          if (index[wi] < 0) {
            enter(w);
          } else if (on_stack[wi]) {
            low[vi] = std::min(low[vi], index[wi]);
          }
          continue;
        }
        if (low[vi] == index[vi]) {
          int w = -1;
          do {
            w = stack.back();
            stack.pop_back();
            on_stack[static_cast<std::size_t>(w)] = false;
            comp[static_cast<std::size_t>(w)] = count;
          } while (w != v);
          ++count;
        }
        calls.pop_back();
        if (!calls.empty()) {
          const auto ui = static_cast<std::size_t>(calls.back().v);
          low[ui] = std::min(low[ui], low[vi]);
        }
      }
    }
    return comp;
  }

  void order() {
    const std::size_t n = plan_->blocks.size();
    int count = 0;
    const std::vector<int> comp = components(count);
    std::vector<std::vector<int>> members(static_cast<std::size_t>(count));
    for (std::size_t v = 0; v < n; ++v)
      members[static_cast<std::size_t>(comp[v])].push_back(static_cast<int>(v));
    std::vector<bool> cyclic(static_cast<std::size_t>(count), false);
    std::vector<std::vector<int>> succ(static_cast<std::size_t>(count));
    std::vector<int> indegree(static_cast<std::size_t>(count), 0);
    // Per cyclic component, its inner feed-through edges in file order (for refuse, make_loop).
    std::unordered_map<int, std::vector<std::size_t>> inner;
    for (std::size_t k = 0; k < plan_->edges.size(); ++k) {
      const Edge& e = plan_->edges[k];
      if (!feedthrough(e)) continue;
      const int a = comp[static_cast<std::size_t>(e.from)];
      const int b = comp[static_cast<std::size_t>(e.to)];
      if (a == b) {
        cyclic[static_cast<std::size_t>(a)] = true;
        inner[a].push_back(k);
      } else {
        succ[static_cast<std::size_t>(a)].push_back(b);
        ++indegree[static_cast<std::size_t>(b)];
      }
    }
    // Kahn's algorithm on the components, the one written first going first among the ready.
    using Entry = std::pair<int, int>;  // (first block of the component, component)
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ready;
    for (int c = 0; c < count; ++c) {
      if (indegree[static_cast<std::size_t>(c)] == 0)
        ready.emplace(members[static_cast<std::size_t>(c)].front(), c);
    }
    while (!ready.empty()) {
      const int c = ready.top().second;
      ready.pop();
      const auto& m = members[static_cast<std::size_t>(c)];
      if (cyclic[static_cast<std::size_t>(c)]) {
        if (plan_->loop_settings.policy == LoopPolicy::refuse) refuse(m, inner[c]);
        plan_->schedule.push_back({-1, static_cast<int>(plan_->loops.size())});
        plan_->loops.push_back(make_loop(m, inner[c]));
      } else {
        plan_->schedule.push_back({m.front(), -1});
      }
      for (int d : succ[static_cast<std::size_t>(c)]) {
        if (--indegree[static_cast<std::size_t>(d)] == 0)
          ready.emplace(members[static_cast<std::size_t>(d)].front(), d);
      }
    }
  }

  // The shortest feed-through cycle through the component's first block, named in order and
  // pointing at the connection that closes it.
  [[noreturn]] void refuse(const std::vector<int>& members,
                           const std::vector<std::size_t>& inner) const {
    const int start = members.front();
    // The component's edges by source block, in file order.
    std::unordered_map<int, std::vector<std::size_t>> out;
    for (const std::size_t k : inner) out[plan_->edges[k].from].push_back(k);
    std::unordered_map<int, int> parent_edge;  // reached block -> the edge it was reached by
    std::queue<int> frontier;
    frontier.push(start);
    parent_edge[start] = -1;
    int closing = -1;
    while (!frontier.empty() && closing < 0) {
      const int v = frontier.front();
      frontier.pop();
      for (const std::size_t k : out[v]) {
        const Edge& e = plan_->edges[k];
        if (e.to == start) {
          closing = static_cast<int>(k);
          break;
        }
        if (parent_edge.emplace(e.to, static_cast<int>(k)).second) frontier.push(e.to);
      }
    }
    const Edge& close = plan_->edges[static_cast<std::size_t>(closing)];
    std::vector<std::string> path;
    for (int v = close.from; v != start;
         v = plan_->edges[static_cast<std::size_t>(parent_edge.at(v))].from) {
      path.push_back(plan_->blocks[static_cast<std::size_t>(v)]->name);
    }
    path.push_back(plan_->blocks[static_cast<std::size_t>(start)]->name);
    std::reverse(path.begin(), path.end());
    std::string cycle;
    for (const auto& name : path) cycle += name + " -> ";
    const Block& first = *plan_->blocks[static_cast<std::size_t>(start)];
    cycle +=
        first.name + " (input " + first.inputs[static_cast<std::size_t>(close.to_input)].name + ")";
    throw DiagramError(edge_origin_[static_cast<std::size_t>(closing)],
                       "algebraic loop: " + cycle +
                           "; break it with a block that has no feed-through (an integrator), "
                           "or solve it with algebraic_loops: {solve: newton} (or fixed_point)");
  }

  // Seed 004's loop solver order: evaluate every block whose feed-through inputs are ready;
  // when none is, guess the unready inputs of the first remaining block (its cut inputs).
  // Each block counts its inputs still waiting for a member (edges of `inner`, file order), so
  // a loop of n blocks is ordered in O(n log n), not by rescanning every edge for every block.
  Loop make_loop(const std::vector<int>& members, const std::vector<std::size_t>& inner) {
    Loop loop;
    std::unordered_map<int, std::size_t> position;  // block -> index in members
    for (std::size_t i = 0; i < members.size(); ++i) position.emplace(members[i], i);
    std::vector<std::vector<std::size_t>> in(members.size()), out(members.size());
    for (const std::size_t k : inner) {
      in[position.at(plan_->edges[k].to)].push_back(k);
      out[position.at(plan_->edges[k].from)].push_back(k);
    }
    std::vector<std::size_t> waiting(members.size());
    std::vector<bool> done(members.size(), false);
    std::set<std::size_t> open, ready;  // positions in members
    for (std::size_t i = 0; i < members.size(); ++i) {
      waiting[i] = in[i].size();
      open.insert(i);
      if (waiting[i] == 0) ready.insert(i);
    }
    while (!open.empty()) {
      std::size_t next = 0;
      if (!ready.empty()) {
        next = *ready.begin();
      } else {
        next = *open.begin();
        Block& b = *plan_->blocks[static_cast<std::size_t>(members[next])];
        for (const std::size_t k : in[next]) {
          const Edge& e = plan_->edges[k];
          if (done[position.at(e.from)]) continue;
          const auto ku = static_cast<std::size_t>(e.to_input);
          const int width = b.inputs[ku].width;
          loop.cuts.push_back({b.index, e.to_input, plan_->slot_count, b.in_slot[ku], width});
          b.in_slot[ku] = plan_->slot_count;
          plan_->slot_count += width;
          loop.size += width;
        }
      }
      done[next] = true;
      open.erase(next);
      ready.erase(next);
      loop.blocks.push_back(members[next]);
      for (const std::size_t k : out[next]) {
        const std::size_t to = position.at(plan_->edges[k].to);
        if (--waiting[to] == 0 && !done[to]) ready.insert(to);
      }
    }
    for (int b : loop.blocks) {
      loop.name +=
          (loop.name.empty() ? "" : " -> ") + plan_->blocks[static_cast<std::size_t>(b)]->name;
    }
    return loop;
  }

  void plan_hot_path() {
    if (plan_->loops.empty()) {
      for (const Step& step : plan_->schedule) {
        plan_->straight.push_back(plan_->blocks[static_cast<std::size_t>(step.block)].get());
      }
      // Backwards from the stateful blocks along every connection: what their derivatives read.
      std::vector<bool> needed(plan_->blocks.size(), false);
      std::vector<std::vector<int>> sources(plan_->blocks.size());  // per block, its drivers
      for (const Edge& e : plan_->edges) sources[static_cast<std::size_t>(e.to)].push_back(e.from);
      std::vector<int> frontier;
      for (const auto& b : plan_->blocks) {
        if (b->states > 0) {
          needed[static_cast<std::size_t>(b->index)] = true;
          frontier.push_back(b->index);
        }
      }
      while (!frontier.empty()) {
        const int to = frontier.back();
        frontier.pop_back();
        for (const int from : sources[static_cast<std::size_t>(to)]) {
          if (needed[static_cast<std::size_t>(from)]) continue;
          needed[static_cast<std::size_t>(from)] = true;
          frontier.push_back(from);
        }
      }
      for (const Block* b : plan_->straight) {
        if (needed[static_cast<std::size_t>(b->index)]) plan_->for_derivatives.push_back(b);
      }
    }
    auto& read = plan_->expression_parameters;
    for (const auto& b : plan_->blocks) {
      read.insert(read.end(), b->parameters_by_address.begin(), b->parameters_by_address.end());
    }
    std::sort(read.begin(), read.end());
    read.erase(std::unique(read.begin(), read.end()), read.end());
  }

  // The blocks whose outputs jump or kink at instants known in advance: `signal`s with jumps or
  // kinks (the block knows), and lookup tables whose input is the clock, directly or through
  // subsystem inports (a table of anything else, t through a gain included, is not looked into:
  // its breakpoints are no instants).
  void plan_timed() {
    const auto& blocks = plan_->blocks;
    std::vector<int> driver(blocks.size(), -1);  // per block, the block driving its input 0
    for (const Edge& e : plan_->edges) {
      if (e.to_input == 0) driver[static_cast<std::size_t>(e.to)] = e.from;
    }
    const auto of_clock = [&](int b) {
      // Inports inside subsystems pass their driver through; a chain of them is no longer
      // than the diagram (a loop of them ends the search).
      for (std::size_t hops = 0; b >= 0 && hops < blocks.size(); ++hops) {
        const Block& from = *blocks[static_cast<std::size_t>(b)];
        if (from.type == "clock") return true;
        if (from.type != "inport" || from.inputs.empty()) return false;
        b = driver[static_cast<std::size_t>(b)];
      }
      return false;
    };
    for (const auto& b : blocks) {
      if (b->type == "lookup_table" && of_clock(driver[static_cast<std::size_t>(b->index)])) {
        b->timed = true;
      }
      if (b->timed) plan_->timed.push_back(b->index);
    }
  }

  // Integrators without limits, the commonest stateful block, leave the virtual calls of the
  // derivative path: rhs() copies their states to their outputs and their inputs to their
  // derivatives in two tight loops (callgrind: a virtual call each way per integrator was a
  // fifth of the quarter car's f).
  void plan_integrators() {
    const auto plain = [](const Block& b) { return b.type == "integrator" && b.events.empty(); };
    for (const int i : plan_->stateful) {
      const Block& b = *plan_->blocks[static_cast<std::size_t>(i)];
      if (plain(b)) {
        plan_->integrators.push_back({b.state_offset, b.out_slot[0], b.in_slot[0]});
      } else {
        plan_->other_stateful.push_back(i);
      }
    }
    if (plan_->for_derivatives.empty()) return;  // loops, or no states: every block in order
    std::erase_if(plan_->for_derivatives, [&](const Block* b) { return plain(*b); });
    plan_->integrators_first = true;
  }

  void describe_model(const DiagramSpec& spec, const Level& top) {
    ModelInfo& info = plan_->info;
    info.name = spec.name;
    info.description = spec.description;
    for (const auto& b : plan_->blocks) {
      if (b->states > 0) {
        b->state_offset = static_cast<int>(info.states.size());
        plan_->stateful.push_back(b->index);
        if (b->sampled) plan_->sampled.push_back(b->index);
        for (int i = 0; i < b->states; ++i) {
          info.states.push_back(b->states == 1 ? b->name : b->name + "[" + std::to_string(i) + "]");
        }
      }
      // A switch's branch is latched per step in a bit of Context::mode (bits 1 to 29; bit 0:
      // holds pending, bit 30: latches set): 29 of them, the rest decide
      // per evaluation as before.
      if (b->type == "switch" && plan_->latched.size() < 29) {
        b->latch = 1 + static_cast<int>(plan_->latched.size());
        plan_->latched.push_back(b->index);
      }
      for (std::size_t i = 0; i < b->events.size(); ++i) {
        info.events.push_back({b->name + "." + b->events[i].name, b->events[i].direction, false});
        plan_->event_of.emplace_back(b->index, static_cast<int>(i));
      }
    }
    std::unordered_map<std::string_view, int> named;
    for (const auto& o : spec.outputs) ++named[o.name];
    for (const auto& o : spec.outputs) {
      if (named[o.name] > 1) {
        throw DiagramError(o.port.origin, "output '" + o.name + "' is named twice");
      }
      const Endpoint e = source(top, o.port);
      const Block& b = *plan_->blocks[static_cast<std::size_t>(e.block)];
      const auto k = static_cast<std::size_t>(port_index(b, e, true));
      const int width = b.outputs[k].width;
      for (int i = 0; i < width; ++i) {
        info.outputs.push_back(width == 1 ? o.name : o.name + "[" + std::to_string(i) + "]");
        plan_->output_slots.push_back(b.out_slot[k] + i);
      }
    }
    info.parameters = table_.specs;
    std::vector<double> p;
    for (const auto& spec_p : info.parameters) p.push_back(spec_p.default_value);
    info.default_x0 = Vector::Zero(static_cast<Eigen::Index>(info.states.size()));
    for (int b : plan_->stateful) {
      plan_->blocks[static_cast<std::size_t>(b)]->initial_state(p.data(), info.default_x0.data());
    }
    apply_units(spec.units, info);
  }

  // `units:` (docs/diagrams.md): a name is `time`, or names outputs, parameters and the states
  // of a block (each element of a wide one); one that names nothing is a typo.
  static void apply_units(const std::vector<UnitDecl>& units, ModelInfo& info) {
    info.state_units.assign(info.states.size(), "");
    info.output_units.assign(info.outputs.size(), "");
    // Names to what they name: a parameter by its name, a state or output element `a[i]` also
    // by `a` (looked up by hash: as many units as states cost no more than one pass each).
    std::unordered_multimap<std::string_view, std::string*> by_name;
    for (auto& p : info.parameters) by_name.emplace(p.name, &p.unit);
    const auto add_elements = [&](const std::vector<std::string>& names,
                                  std::vector<std::string>& element_units) {
      for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string_view name = names[i];
        by_name.emplace(name, &element_units[i]);
        const auto bracket = name.find('[');
        if (bracket != std::string_view::npos)
          by_name.emplace(name.substr(0, bracket), &element_units[i]);
      }
    };
    add_elements(info.states, info.state_units);
    add_elements(info.outputs, info.output_units);
    for (const UnitDecl& u : units) {
      bool named = u.name == "time";
      if (named) info.time_unit = u.unit;
      const auto [first, last] = by_name.equal_range(u.name);
      for (auto it = first; it != last; ++it) {
        *it->second = u.unit;
        named = true;
      }
      if (!named) {
        throw DiagramError(u.origin, "units: '" + u.name +
                                         "' is not `time`, an output, a parameter or a block "
                                         "with states of this diagram");
      }
    }
  }

  // x'' = g(t, q) as the diagram declares it (docs/diagrams.md, "Second-order structure"): each
  // position is a plain integrator (a limit would clamp it: not q' = v) of its velocity
  // integrator's output, positions and velocities cover every state once, and no velocity
  // reaches a velocity integrator's input through feed-through: g must not depend on velocity,
  // since a Nystrom method evaluates it at the positions alone.
  void declare_second_order(const SecondOrderSpec& declared) {
    ModelInfo& info = plan_->info;
    const auto fail = [&](const Origin& at, const std::string& message) {
      throw DiagramError(at.line > 0 ? at : declared.origin, "second_order: " + message);
    };
    if (declared.positions.empty() || declared.positions.size() != declared.velocities.size()) {
      fail(declared.origin, "needs as many positions as velocities, at least one (got " +
                                std::to_string(declared.positions.size()) + " and " +
                                std::to_string(declared.velocities.size()) + ")");
    }
    std::unordered_map<std::string_view, const Block*> by_name;
    for (const auto& b : plan_->blocks) by_name.emplace(b->name, b.get());
    const auto integrator = [&](const PortRef& ref, const char* role) -> const Block& {
      const auto it = by_name.find(ref.block);
      if (it == by_name.end()) fail(ref.origin, "no block '" + ref.block + "'");
      const Block& b = *it->second;
      if (b.type != "integrator" || !b.events.empty()) {
        fail(ref.origin, "the " + std::string(role) + " '" + b.name +
                             "' must be an integrator without lower/upper limits, found " +
                             (b.type == "integrator" ? "a limited integrator" : b.type));
      }
      return b;
    };
    SecondOrderStructure structure;
    std::vector<bool> covered(info.states.size(), false);
    std::vector<bool> velocity(plan_->blocks.size(), false);
    std::vector<const Block*> velocities;
    for (std::size_t i = 0; i < declared.positions.size(); ++i) {
      const Block& q = integrator(declared.positions[i], "position");
      const Block& v = integrator(declared.velocities[i], "velocity");
      if (q.in_slot[0] != v.out_slot[0]) {
        fail(declared.positions[i].origin,
             "the position '" + q.name + "' must integrate its velocity '" + v.name +
                 "' directly (connect [" + v.name + ", " + q.name + "])");
      }
      for (const Block* b : {&q, &v}) {
        if (covered[static_cast<std::size_t>(b->state_offset)]) {
          fail(b == &q ? declared.positions[i].origin : declared.velocities[i].origin,
               "'" + b->name + "' is named twice");
        }
        covered[static_cast<std::size_t>(b->state_offset)] = true;
      }
      structure.positions.push_back(q.state_offset);
      structure.velocities.push_back(v.state_offset);
      velocity[static_cast<std::size_t>(v.index)] = true;
      velocities.push_back(&v);
      plan_->acceleration_slots.push_back(v.in_slot[0]);
    }
    for (std::size_t s = 0; s < covered.size(); ++s) {
      if (!covered[s]) {
        fail(declared.origin,
             "the state '" + info.states[s] +
                 "' is neither a position nor a velocity; every state must be one");
      }
    }
    // Which blocks' outputs a velocity reaches through feed-through inputs (to a fixed point,
    // so loops are covered), with the block it came from for the message.
    std::vector<int> reached_from(plan_->blocks.size(), -1);
    std::vector<bool> depends = velocity;
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& e : plan_->edges) {
        const auto from = static_cast<std::size_t>(e.from);
        const auto to = static_cast<std::size_t>(e.to);
        if (depends[from] && !depends[to] && feedthrough(e)) {
          depends[to] = true;
          reached_from[to] = e.from;
          changed = true;
        }
      }
    }
    for (std::size_t i = 0; i < velocities.size(); ++i) {
      const Block& v = *velocities[i];
      const auto drive = std::find_if(plan_->edges.begin(), plan_->edges.end(), [&](const Edge& e) {
        return e.to == v.index && e.to_input == 0;
      });
      if (drive == plan_->edges.end() || !depends[static_cast<std::size_t>(drive->from)]) continue;
      std::string path = v.name;
      for (int b = drive->from; b >= 0; b = reached_from[static_cast<std::size_t>(b)]) {
        path = plan_->blocks[static_cast<std::size_t>(b)]->name + " -> " + path;
      }
      fail(declared.velocities[i].origin,
           "the acceleration of '" + v.name + "' depends on a velocity (" + path +
               "); Runge-Kutta-Nystrom methods need x'' = g(t, q), so leave second_order out "
               "and use a general method");
    }
    info.second_order = std::move(structure);
  }

  ParameterTable table_;
  std::array<std::vector<PortIndex>, 2> port_indices_;  // inputs, outputs
  std::map<const DiagramSpec*, std::uint64_t> flat_counts_;
  std::vector<FlatBlock> flat_;
  std::vector<FlatConnection> connections_;
  std::vector<Origin> edge_origin_;
  std::unique_ptr<Plan> plan_ = std::make_unique<Plan>();
};

}  // namespace
}  // namespace detail

std::shared_ptr<const CompiledDiagram> compile(const DiagramSpec& spec) {
  return std::make_shared<const CompiledDiagram>(detail::Compiler().run(spec));
}

}  // namespace simverify::simulation::diagram
