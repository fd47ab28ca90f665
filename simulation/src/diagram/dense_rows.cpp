// The kernels of DenseRows (dense_rows.hpp): one per shape (rows, states, variables), each a
// fully unrolled column-major matrix-vector product.
#include "dense_rows.hpp"

#include <Eigen/Core>

#include <utility>

namespace simverify::simulation::diagram::detail {
namespace {

using Kernel = DenseRows::Kernel;
using Coefficients = DenseRows::Coefficients;

// y = constant + sum_k column_k * z_k over the states, then the variables: per row the same
// additions in the same order as a sparse row, the rows side by side in SIMD registers (an
// even number of rows: every column 16-byte aligned, read by the multiplication itself).
template <std::size_t Rows, std::size_t States, std::size_t Variables>
void dense_rows_kernel(const Coefficients& c, const double* x, const double* v, double* out) {
  using Column = Eigen::Matrix<double, static_cast<int>(Rows), 1>;
  constexpr int kAlignment = Rows % 2 == 0 ? Eigen::Aligned16 : Eigen::Unaligned;
  using Coefficient = Eigen::Map<const Column, kAlignment>;
  constexpr std::size_t kCopies = States > Rows ? States - Rows : 0;
  for (std::size_t i = 0; i < kCopies; ++i) out[c.copy_out[i]] = x[c.copy_state[i]];
  Column y = Coefficient(c.constant.data());
  const double* a = c.column.data();
  for (std::size_t k = 0; k < States; ++k, a += Rows) y += Coefficient(a) * x[k];
  for (std::size_t k = 0; k < Variables; ++k, a += Rows) y += Coefficient(a) * v[k];
  for (std::size_t r = 0; r < Rows; ++r) out[c.out[r]] = y[static_cast<Eigen::Index>(r)];
}

// Shapes in the order rows (1..kMaxRows), states (1..kMaxStates), variables (0..kMaxVariables).
constexpr std::size_t kDenseVariableCounts = DenseRows::kMaxVariables + 1;
constexpr std::size_t dense_shape(std::size_t rows, std::size_t states, std::size_t variables) {
  return ((rows - 1) * DenseRows::kMaxStates + (states - 1)) * kDenseVariableCounts + variables;
}

template <std::size_t... Shape>
constexpr std::array<Kernel, sizeof...(Shape)> dense_kernels(std::index_sequence<Shape...>) {
  return {&dense_rows_kernel<Shape / (kDenseVariableCounts * DenseRows::kMaxStates) + 1,
                             Shape / kDenseVariableCounts % DenseRows::kMaxStates + 1,
                             Shape % kDenseVariableCounts>...};
}

constexpr auto kDenseKernels = dense_kernels(
    std::make_index_sequence<DenseRows::kMaxRows * DenseRows::kMaxStates * kDenseVariableCounts>());

}  // namespace

bool DenseRows::fits(std::size_t rows, std::size_t states, std::size_t variables) {
  return rows >= 1 && rows <= kMaxRows && rows <= states && states <= kMaxStates &&
         variables <= kMaxVariables;
}

void DenseRows::reset(std::size_t rows, std::size_t states, std::size_t variables) {
  c_ = Coefficients{};
  rows_ = rows;
  states_ = states;
  kernel_ = kDenseKernels[dense_shape(rows, states, variables)];
}

void DenseRows::set_row(std::size_t row, std::uint32_t out, double constant) {
  c_.constant[row] = constant;
  c_.out[row] = out;
}

void DenseRows::set_state(std::size_t row, std::size_t state, double coefficient) {
  c_.column[at(row, state)] = coefficient;
}

void DenseRows::set_variable(std::size_t row, std::size_t variable, double coefficient) {
  c_.column[at(row, states_ + variable)] = coefficient;
}

void DenseRows::set_copy(std::size_t k, std::uint32_t out, std::uint32_t state) {
  c_.copy_out[k] = out;
  c_.copy_state[k] = state;
}

}  // namespace simverify::simulation::diagram::detail
