#pragma once
// Internal: the execution plan compile() builds (blocks in evaluation order, feed-through
// loops with their cut inputs, one flat array of signal slots) and the scratch memory one
// thread evaluates it in.
#include "block.hpp"
#include "linear_form.hpp"

#include <simverify/simulation/diagram/spec.hpp>
#include <simverify/simulation/model.hpp>

#include <Eigen/LU>

#include <memory>
#include <string>
#include <vector>

namespace simverify::simulation::diagram::detail {

// An input of a loop block whose driving signal is guessed (block-diagram lecture
// `InputGuessMaster`): the block reads the guess slot; after the loop's blocks ran, the source slot
// holds the value the guess produced.
struct Cut {
  int block = 0;
  int input = 0;
  int guess_slot = 0;
  int source_slot = 0;
  int width = 1;
};

// A strongly connected component of the feed-through graph, solved at every evaluation.
struct Loop {
  std::string name;         // its blocks in evaluation order: "a -> b -> c"
  std::vector<int> blocks;  // evaluation order with the cut inputs guessed
  std::vector<Cut> cuts;
  int size = 0;  // number of guessed scalars
};

// One step of the schedule: a block, or a whole loop.
struct Step {
  int block = -1;
  int loop = -1;
};

// A connection of the flattened diagram (for describe() and dot()).
struct Edge {
  int from = 0;
  int from_output = 0;
  int to = 0;
  int to_input = 0;
};

struct Plan {
  std::vector<std::unique_ptr<Block>> blocks;  // flattened, in file order
  std::vector<Step> schedule;
  // The schedule when it has no loops: the blocks in evaluation order, one indirection less
  // per block in the hot path.
  std::vector<const Block*> straight;
  // The part of `straight` rhs() needs: stateful blocks and the blocks upstream of them (the
  // others only feed outputs), so f skips what only y reads.
  std::vector<const Block*> for_derivatives;
  // The parameters function blocks' expressions read by address, ascending: when there are
  // any, the workspace keeps a copy of the run's parameters, refreshed when one of them changed.
  std::vector<int> expression_parameters;
  std::vector<Loop> loops;
  LoopSettings loop_settings;
  std::vector<int> stateful;  // blocks with states, in file order
  // The integrators without limits (x' = u, y = x) with their slots, and the other stateful
  // blocks: rhs() handles the first in tight loops, calls the second.
  struct Integrator {
    int state = 0;
    int out_slot = 0;
    int in_slot = 0;
  };
  std::vector<Integrator> integrators;
  std::vector<int> other_stateful;
  // A loop-free plan whose derivatives read some block: for_derivatives leaves the integrators
  // out, their outputs are written before it runs. Otherwise rhs() evaluates every block.
  bool integrators_first = false;
  std::vector<int> sampled;                   // sample-and-hold blocks, in file order
  std::vector<int> latched;                   // switches whose branch is latched (Block::latch)
  std::vector<int> timed;                     // blocks with jumps or kinks known in advance
  std::vector<std::pair<int, int>> event_of;  // model event -> (block, the block's event)
  std::vector<int> output_slots;              // per model output
  std::vector<int> acceleration_slots;        // per coordinate of info.second_order: g's slot
  std::vector<Edge> edges;
  int slot_count = 0;
  ModelInfo info;
  std::vector<std::string> inports;
};

struct LoopBuffers {
  Vector z;  // the guess, kept between evaluations (warm start)
  Vector residual;
  Vector trial;
  Vector step;
  Matrix jacobian;
  Eigen::PartialPivLU<Matrix> lu;
};

struct Workspace {
  explicit Workspace(const Plan& plan);
  std::vector<double> s;  // signal slots
  std::vector<double> p;  // the run's parameters, copied for the expression parsers
  double t = 0.0;
  std::vector<InputSample> u;  // per inport
  std::vector<std::unique_ptr<BlockScratch>> scratch;
  std::vector<BlockScratch*> scratch_of;  // per block
  std::vector<LoopBuffers> loops;
  Vector x_of_q;  // acceleration(): the positions at their states, the velocities zero
  // The diagram as one affine map per run when it is affine (linear_form.hpp), else null.
  std::unique_ptr<LinearForm> linear;
  // Forgets the loop solvers' last solutions: every run starts from the same guess.
  void restart();
};

// Every block's outputs at f (loops solved); throws std::runtime_error naming the loop and
// its residual when a loop solver does not converge.
void compute_outputs(const Plan& plan, Workspace& ws, const Frame& f);
// f.dxdt block by block (what rhs() does when the diagram is not affine, linear_form.hpp).
void compute_derivatives(const Plan& plan, Workspace& ws, const Frame& f);

}  // namespace simverify::simulation::diagram::detail
