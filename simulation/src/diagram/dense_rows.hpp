#pragma once
// Internal: a small derivative map (AffineMap, linear_form.hpp: one row per state, each computed
// or a copy of a state) with its computed rows stored dense over their columns, evaluated by a
// kernel compiled for its shape. The sparse rows pay an
// index load, a loop test and a branch per nonzero coefficient (7 instructions); with the
// number of rows, states and variables known at compile time the kernel is straight-line code
// that multiplies each column into all rows at once (SIMD over the rows). Larger maps keep the
// sparse rows.
//
// Second-order diagrams (positions integrating velocities) lay their states out in one of two
// ways the kernels also know at compile time, so neither a copy nor a row's result goes through
// an index: interleaved (x0' = x1, x1' = row 0, x2' = x3, x3' = row 1, ...: the quarter car's
// y1, v1, y2, v2) and stacked (x0' = x_n, ..., x_n' = row 0, ...: positions, then velocities).
//
// Exact like the sparse rows: each row is its constant, then its state terms, then its
// variable terms, added in column order; a zero coefficient adds a signed zero, which changes no
// finite sum (the two differ only where a state or variable it multiplies is not finite).
#include <simverify/simulation/model.hpp>

#include <array>
#include <cstddef>
#include <cstdint>

namespace simverify::simulation::diagram::detail {

class DenseRows {
 public:
  static constexpr std::size_t kMaxRows = 4;
  static constexpr std::size_t kMaxStates = 8;
  // Variables v: per inport its value and derivative, then t (zero, one or two inports).
  static constexpr std::size_t kMaxVariables = 5;

  // Where the rows' results and the copies go (see above).
  enum class Layout { indexed, interleaved, stacked };

  // Whether a map of `rows` computed rows over `states` states and the first `variables` of v
  // (those after are not read), its other states - rows rows copies of a state, has a kernel.
  [[nodiscard]] static bool fits(std::size_t rows, std::size_t states, std::size_t variables);

  // Zeroes every coefficient (fits() must hold); set_row() and set_copy() then fill the map,
  // select() picks the kernel of its shape and layout.
  void reset(std::size_t rows, std::size_t states, std::size_t variables);
  // Off: apply() must not be called.
  void clear() {
    kernel_ = nullptr;
    input_kernel_ = nullptr;
  }
  [[nodiscard]] bool active() const { return kernel_ != nullptr; }

  // Row `row` writes out[out] = constant + ...; its coefficient of state i / variable j.
  void set_row(std::size_t row, std::uint32_t out, double constant);
  void set_state(std::size_t row, std::size_t state, double coefficient);
  void set_variable(std::size_t row, std::size_t variable, double coefficient);
  // Copy k (of states - rows): out[out] = x[state].
  void set_copy(std::size_t k, std::uint32_t out, std::uint32_t state);
  void select();
  [[nodiscard]] Layout layout() const { return layout_; }

  // Every row and copy.
  void apply(const double* x, const double* v, double* out) const { kernel_(c_, x, v, out); }
  // The variables the kernel reads (the first variables() of v).
  [[nodiscard]] std::size_t variables() const { return variables_; }
  // The same with v = (u.value, u.derivative), read from the sample itself (a map reading at
  // most two variables: DiagramModel::rhs's hot path passes the run's u as it stands).
  [[nodiscard]] bool has_input_kernel() const { return input_kernel_ != nullptr; }
  void apply(const double* x, const InputSample& u, double* out) const {
    input_kernel_(c_, x, u, out);
  }

  // Column-major: column k's coefficients of every row side by side (the states first, then
  // the variables), 16-byte aligned, so a column multiplies one x or v into two rows with one
  // instruction.
  struct Coefficients {
    alignas(16) std::array<double, kMaxRows> constant{};
    alignas(16) std::array<double, kMaxRows*(kMaxStates + kMaxVariables)> column{};
    std::array<std::uint32_t, kMaxRows> out{};
    std::array<std::uint32_t, kMaxStates> copy_out{};
    std::array<std::uint32_t, kMaxStates> copy_state{};
  };
  using Kernel = void (*)(const Coefficients&, const double* x, const double* v, double* out);
  using InputKernel = void (*)(const Coefficients&, const double* x, const InputSample& u,
                               double* out);

 private:
  [[nodiscard]] std::size_t at(std::size_t row, std::size_t column) const {
    return column * rows_ + row;
  }
  [[nodiscard]] Layout find_layout() const;

  Coefficients c_;
  Kernel kernel_ = nullptr;
  InputKernel input_kernel_ = nullptr;
  std::size_t rows_ = 0;
  std::size_t states_ = 0;
  std::size_t variables_ = 0;
  Layout layout_ = Layout::indexed;
};

}  // namespace simverify::simulation::diagram::detail
