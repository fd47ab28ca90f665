#pragma once
// Internal: a diagram that is affine from its states, inports and t to its state derivatives
// (and outputs) compiled per run into dx = A x + B v + c, y = C x + D v + e, where v holds the
// inports' values and derivatives and t. Every block between them must be affine (gain, sum,
// constant, inport, clock, mux, demux, integrators without limits, transfer functions, state
// spaces, function blocks whose expression is affine: affine_expression.hpp); the forms are
// folded from the run's parameters, as the function blocks' expressions are, and folded again
// when one of the parameters they read changes. f is then one pass over the nonzero
// coefficients, row by row, instead of a virtual call per block.
//
// Exact up to the order of summation: a block's form is the sum of its inputs' forms scaled by
// its coefficients, so the folded A, B, c multiply out the same products (gain * gain, 1 / m1 *
// d1) and add the same terms as the blocks do, grouped by variable instead of by block. Results
// agree with the block-by-block evaluation to rounding (a few ulps of the largest term), not
// bit for bit. A coefficient that folds to exactly zero is left out: the two differ also when
// a state it multiplies is not finite (0 * inf).
#include "dense_rows.hpp"

#include <simverify/simulation/model.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace simverify::simulation::diagram::detail {

class Block;
class BlockScratch;
struct Plan;
struct Workspace;

// What a block sees while the forms are folded (Block::affine_output, affine_derivative):
// the forms of its inputs, room for those of its outputs and state derivatives, the run's
// parameters. A form is a row of coefficients over the columns: the constant, the states, per
// inport its value and derivative, t.
class AffineForms {
 public:
  AffineForms(const Plan& plan, const Workspace& ws);

  [[nodiscard]] std::size_t columns() const { return columns_; }
  [[nodiscard]] static std::size_t constant() { return 0; }
  [[nodiscard]] std::size_t state(int index) const { return 1 + static_cast<std::size_t>(index); }
  [[nodiscard]] std::size_t inport(int index, bool derivative) const {
    return first_inport_ + 2 * static_cast<std::size_t>(index) + (derivative ? 1 : 0);
  }
  [[nodiscard]] std::size_t time() const { return columns_ - 1; }

  // The form of element `element` of the block's input k / output k (zeroed before the block
  // writes it) / state derivative.
  [[nodiscard]] std::span<const double> input(const Block& b, std::size_t k, int element = 0) const;
  [[nodiscard]] std::span<double> output(const Block& b, std::size_t k, int element = 0);
  [[nodiscard]] std::span<double> derivative(const Block& b, int state);
  // The form of a workspace variable a function block's expression reads (a signal slot or t).
  [[nodiscard]] std::span<const double> variable(const double* address) const;
  // The block's per-workspace scratch (a function block's folded expression).
  [[nodiscard]] const BlockScratch* scratch(const Block& b) const;
  // The run's value of a model parameter; the form is folded again when it changes.
  [[nodiscard]] double parameter(int index);
  // to += factor * form
  static void add(std::span<double> to, double factor, std::span<const double> form);

  // Folds every form from the workspace's parameters: false when a block on the way to a
  // state derivative is not affine. outputs_known(): every model output is affine too.
  [[nodiscard]] bool fold(const Plan& plan);
  [[nodiscard]] bool outputs_known() const { return outputs_known_; }
  [[nodiscard]] std::span<const double> slot_form(int slot) const { return row(slot); }
  [[nodiscard]] std::span<const double> derivative_form(int state) const {
    return row(derivative_row(state));
  }
  // The parameters the forms read (recorded by the first fold), ascending: all of them, or
  // those of the blocks the state derivatives read (`needed`).
  [[nodiscard]] std::vector<int> parameters_read(bool derivatives_only) const;
  // Per block: the state derivatives read it (its reads count for derivatives_only).
  void set_needed(std::vector<char> needed) { needed_ = std::move(needed); }

 private:
  [[nodiscard]] std::span<double> row(int r) {
    return {forms_.data() + static_cast<std::size_t>(r) * columns_, columns_};
  }
  [[nodiscard]] std::span<const double> row(int r) const {
    return {forms_.data() + static_cast<std::size_t>(r) * columns_, columns_};
  }
  [[nodiscard]] int derivative_row(int state) const { return slots_ + state; }
  [[nodiscard]] int time_row() const { return slots_ + states_; }

  const Workspace* ws_;
  int slots_ = 0;
  int states_ = 0;
  std::size_t first_inport_ = 0;
  std::size_t columns_ = 0;
  std::vector<double> forms_;  // per signal slot, per state derivative, then t
  std::vector<char> known_;    // per slot: its form is affine
  std::vector<char> needed_;   // per block
  // Parameters read by the first fold, with whether the reading block is needed.
  std::vector<std::pair<int, bool>> read_;
  bool recording_ = true;
  bool reader_needed_ = true;  // the block being folded is needed
  bool outputs_known_ = false;
};

// y = rows of (constant + coefficients * x + coefficients * v): the derivatives or the outputs.
class AffineMap {
 public:
  // Reserves room for `rows` rows over `columns` columns (no allocation when refilled).
  void reserve(std::size_t rows, std::size_t columns);
  // Appends row `out` from a form over AffineForms' columns (the states from column 1 on, then
  // v), nonzero coefficients only; clear() first, finish() after the last.
  void clear();
  void append(std::size_t out, std::span<const double> form, std::size_t states);
  // Small maps: the computed rows dense, evaluated by a kernel of their shape (dense_rows.hpp).
  void finish(std::size_t states, std::size_t variables);
  // Whether finish() gave the rows a dense kernel, and its rows.
  [[nodiscard]] bool dense() const { return dense_.active(); }
  [[nodiscard]] const DenseRows& dense_rows() const { return dense_; }
  // out[i] = row i at the states x and the other variables v.
  void apply(const double* x, const double* v, double* out) const {
    if (dense_.active()) {
      dense_.apply(x, v, out);
      return;
    }
    apply_sparse(x, v, out);
    for (const Copy& c : copies_) out[c.out] = x[c.state];
  }

 private:
  struct Term {
    double coefficient;
    std::uint32_t column;
  };
  struct Row {
    double constant;
    std::uint32_t out;
    std::uint32_t states_end;  // its terms on states end here (index into terms_)
    std::uint32_t end;         // its terms on v end here
  };
  // A row that is one state with coefficient 1 (an integrator driven by another's output).
  struct Copy {
    std::uint32_t out;
    std::uint32_t state;
  };
  std::vector<Row> rows_;
  std::vector<Term> terms_;
  std::vector<Copy> copies_;
  DenseRows dense_;

  void apply_sparse(const double* x, const double* v, double* out) const {
    const Term* term = terms_.data();
    for (const Row& r : rows_) {
      double y = r.constant;
      for (const Term* end = terms_.data() + r.states_end; term != end; ++term) {
        y += term->coefficient * x[term->column];
      }
      for (const Term* end = terms_.data() + r.end; term != end; ++term) {
        y += term->coefficient * v[term->column];
      }
      out[r.out] = y;
    }
  }
};

// Per workspace: the folded derivatives (and outputs) and the parameter values they were
// folded from.
class LinearForm {
 public:
  // Tries the first fold; derivatives() is false when the diagram is not affine.
  LinearForm(const Plan& plan, Workspace& ws);

  [[nodiscard]] bool derivatives() const { return derivatives_; }
  [[nodiscard]] bool outputs() const { return outputs_; }
  // Whether the derivatives' map has a dense kernel (dense_rows.hpp).
  [[nodiscard]] bool dense() const { return derivative_map_.dense(); }
  // Whether p is one value per model parameter and those the derivatives (all: the outputs
  // too) read are bit for bit the values of the last fold (a NaN is folded once, not at every
  // evaluation): the map is the run's, as it stands.
  [[nodiscard]] bool current(std::span<const double> p, bool all) const {
    return p.size() == folded_p_.size() && folded_for(p, all ? all_reads_ : derivative_reads_);
  }
  // Folds again when current() is not; false (nothing done) when p is not one value per model
  // parameter, so the caller evaluates block by block as for any other diagram.
  [[nodiscard]] bool refresh(const Plan& plan, Workspace& ws, std::span<const double> p, bool all) {
    if (p.size() != folded_p_.size()) return false;
    if (!current(p, all)) fold(plan, ws, p);
    return true;
  }
  // v: per inport its value and derivative, then t (size variables()).
  [[nodiscard]] std::span<double> variables() { return v_; }
  void dxdt(const double* x, double* out) const { derivative_map_.apply(x, v_.data(), out); }
  void y(const double* x, double* out) const { output_map_.apply(x, v_.data(), out); }

  // DiagramModel::rhs's hot path, for a diagram whose single inport reads the run's u (or that
  // has none): whether the derivatives have a dense kernel that reads neither t nor a second
  // inport, their parameters lie in one window of kWindow and p is one value per model
  // parameter whose window is bit for bit that of the last fold. Then hot_dxdt() is f, reading
  // u and u' from the sample itself. The window's values are kept aligned beside the test, so
  // the comparison is a few SIMD instructions on memory operands.
  [[nodiscard]] bool hot(std::span<const double> p) const {
    if (p.size() != hot_parameters_) return false;  // also when the map has no hot path
    const double* window = p.data() + hot_window_;
#if defined(__SSE2__)
    // The differences or-ed, two parameters per instruction, the kept values read by the
    // xor itself (aligned); equal when every byte of the result is zero.
    __m128i changed = _mm_setzero_si128();
    for (std::size_t i = 0; i < kWindow; i += 2) {
      const __m128i given = _mm_loadu_si128(reinterpret_cast<const __m128i*>(window + i));
      const __m128i kept = _mm_load_si128(reinterpret_cast<const __m128i*>(&window_values_[i]));
      changed = _mm_or_si128(changed, _mm_xor_si128(given, kept));
    }
    return _mm_movemask_epi8(_mm_cmpeq_epi8(changed, _mm_setzero_si128())) == 0xffff;
#else
    std::uint64_t changed = 0;
    for (std::size_t i = 0; i < kWindow; ++i) {
      changed |=
          std::bit_cast<std::uint64_t>(window[i]) ^ std::bit_cast<std::uint64_t>(window_values_[i]);
    }
    return changed == 0;
#endif
  }
  void hot_dxdt(const double* x, const InputSample& u, double* out) const {
    derivative_map_.dense_rows().apply(x, u, out);
  }

 private:
  struct Run {  // the parameters [first, first + count)
    std::size_t first;
    std::size_t count;
  };
  // The parameters a map reads: as runs, and, when they lie within kWindow consecutive
  // parameters, the first of those (compared whole: a fixed count the compiler unrolls into a
  // few SIMD instructions, where the runs cost a loop each; a parameter of the window that is
  // not read folds again when it changes, to the same map).
  static constexpr std::size_t kWindow = 8;
  static constexpr std::size_t kNoWindow = static_cast<std::size_t>(-1);
  struct Reads {
    std::vector<Run> runs;
    std::size_t window = kNoWindow;
  };
  [[nodiscard]] static Reads reads_of(std::vector<int> read, std::size_t parameters);
  [[nodiscard]] bool folded_for(std::span<const double> p, const Reads& reads) const {
    const auto differ = [&](std::size_t i) {
      return std::bit_cast<std::uint64_t>(p[i]) ^ std::bit_cast<std::uint64_t>(folded_p_[i]);
    };
    // The differences or-ed, without a branch per parameter (the compiler vectorizes it).
    std::uint64_t changed = 0;
    if (reads.window != kNoWindow) {
      for (std::size_t i = reads.window; i < reads.window + kWindow; ++i) changed |= differ(i);
      return changed == 0;
    }
    for (const Run& r : reads.runs) {
      for (std::size_t i = r.first; i < r.first + r.count; ++i) changed |= differ(i);
    }
    return changed == 0;
  }
  void fold(const Plan& plan);
  void fold(const Plan& plan, Workspace& ws, std::span<const double> p);

  // The hot path's state (hot() above), first.
  alignas(16) std::array<double, kWindow> window_values_{};
  std::size_t hot_window_ = kNoWindow;
  // The number of model parameters when the map has a hot path, else kNoHotPath (no p is
  // that long): hot() asks one question for both.
  static constexpr std::size_t kNoHotPath = static_cast<std::size_t>(-1);
  std::size_t hot_parameters_ = kNoHotPath;
  std::size_t parameters_ = 0;
  std::size_t inports_ = 0;
  AffineForms forms_;
  bool derivatives_ = false;
  bool outputs_ = false;
  AffineMap derivative_map_;
  AffineMap output_map_;
  Reads derivative_reads_;
  Reads all_reads_;
  std::vector<double> folded_p_;  // the parameters of the last fold
  std::vector<double> v_;
};

}  // namespace simverify::simulation::diagram::detail
