// The kernels of DenseRows (dense_rows.hpp): one per shape (rows, states, variables) and layout,
// each a fully unrolled column-major matrix-vector product.
#include "dense_rows.hpp"

#include <Eigen/Core>

#include <array>
#include <tuple>
#include <utility>

namespace simverify::simulation::diagram::detail {
namespace {

using Kernel = DenseRows::Kernel;
using InputKernel = DenseRows::InputKernel;
using Coefficients = DenseRows::Coefficients;
using Layout = DenseRows::Layout;

// Variable k of v: from memory, or the run's u (k < 2: value, derivative).
double variable(const double* v, std::size_t k) {
  return v[k];
}
double variable(const InputSample& u, std::size_t k) {
  return k == 0 ? u.value : u.derivative;
}

// y = constant + sum_k column_k * z_k over the states, then the variables: per row the same
// additions in the same order as a sparse row, the rows side by side in SIMD registers (an
// even number of rows: every column 16-byte aligned, read by the multiplication itself).
template <std::size_t Rows, std::size_t States, std::size_t Variables, Layout L, class V>
void dense_rows_kernel(const Coefficients& c, const double* x, V v, double* out) {
  using Column = Eigen::Matrix<double, static_cast<int>(Rows), 1>;
  constexpr int kAlignment = Rows % 2 == 0 ? Eigen::Aligned16 : Eigen::Unaligned;
  using Coefficient = Eigen::Map<const Column, kAlignment>;
  // Every state read before anything is written: each is loaded once, for its column and its
  // copy alike.
  constexpr std::size_t kCopies = States > Rows ? States - Rows : 0;
  std::array<double, kCopies> copied{};
  for (std::size_t i = 0; i < kCopies; ++i) {
    if constexpr (L == Layout::interleaved) {
      copied[i] = x[2 * i + 1];
    } else if constexpr (L == Layout::stacked) {
      copied[i] = x[Rows + i];
    } else {
      copied[i] = x[c.copy_state[i]];
    }
  }
  Column y = Coefficient(c.constant.data());
  const double* a = c.column.data();
  for (std::size_t k = 0; k < States; ++k, a += Rows) y += Coefficient(a) * x[k];
  for (std::size_t k = 0; k < Variables; ++k, a += Rows) y += Coefficient(a) * variable(v, k);
  for (std::size_t i = 0; i < kCopies; ++i) {
    if constexpr (L == Layout::interleaved) {
      out[2 * i] = copied[i];
    } else if constexpr (L == Layout::stacked) {
      out[i] = copied[i];
    } else {
      out[c.copy_out[i]] = copied[i];
    }
  }
  for (std::size_t r = 0; r < Rows; ++r) {
    const auto result = y[static_cast<Eigen::Index>(r)];
    if constexpr (L == Layout::interleaved) {
      out[2 * r + 1] = result;
    } else if constexpr (L == Layout::stacked) {
      out[Rows + r] = result;
    } else {
      out[c.out[r]] = result;
    }
  }
}

// The kernels of one layout and variable source, by shape: rows (1..kMaxRows), states
// (1..kMaxStates; twice the rows in the second-order layouts), variables (0..MaxVariables).
template <Layout L, std::size_t MaxVariables>
struct Shapes {
  static constexpr std::size_t kVariableCounts = MaxVariables + 1;
  static constexpr std::size_t kStateCounts = L == Layout::indexed ? DenseRows::kMaxStates : 1;
  static constexpr std::size_t kCount = DenseRows::kMaxRows * kStateCounts * kVariableCounts;
  static constexpr std::size_t index(std::size_t rows, std::size_t states, std::size_t variables) {
    const std::size_t state_index = L == Layout::indexed ? states - 1 : 0;
    return ((rows - 1) * kStateCounts + state_index) * kVariableCounts + variables;
  }
  static constexpr std::size_t rows(std::size_t shape) {
    return shape / (kVariableCounts * kStateCounts) + 1;
  }
  static constexpr std::size_t states(std::size_t shape) {
    return L == Layout::indexed ? shape / kVariableCounts % kStateCounts + 1 : 2 * rows(shape);
  }

  template <class V, class K, std::size_t... Shape>
  static constexpr std::array<K, kCount> kernels(std::index_sequence<Shape...>) {
    return {&dense_rows_kernel<rows(Shape), states(Shape), Shape % kVariableCounts, L, V>...};
  }
  template <class V, class K>
  static constexpr std::array<K, kCount> kernels() {
    return kernels<V, K>(std::make_index_sequence<kCount>());
  }
};

// v from memory: every variable count; the run's u: its value and derivative at most.
template <Layout L>
using VariableShapes = Shapes<L, DenseRows::kMaxVariables>;
template <Layout L>
using InputShapes = Shapes<L, 2>;

template <Layout L>
constexpr auto kKernels = VariableShapes<L>::template kernels<const double*, Kernel>();
template <Layout L>
constexpr auto kInputKernels = InputShapes<L>::template kernels<const InputSample&, InputKernel>();

template <Layout L>
std::pair<Kernel, InputKernel> kernels_of(std::size_t rows, std::size_t states,
                                          std::size_t variables) {
  const Kernel kernel = kKernels<L>[VariableShapes<L>::index(rows, states, variables)];
  if (variables > 2) return {kernel, nullptr};
  return {kernel, kInputKernels<L>[InputShapes<L>::index(rows, states, variables)]};
}

}  // namespace

bool DenseRows::fits(std::size_t rows, std::size_t states, std::size_t variables) {
  return rows >= 1 && rows <= kMaxRows && rows <= states && states <= kMaxStates &&
         variables <= kMaxVariables;
}

void DenseRows::reset(std::size_t rows, std::size_t states, std::size_t variables) {
  c_ = Coefficients{};
  rows_ = rows;
  states_ = states;
  variables_ = variables;
  clear();
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

DenseRows::Layout DenseRows::find_layout() const {
  if (states_ != 2 * rows_) return Layout::indexed;
  bool interleaved = true;
  bool stacked = true;
  for (std::size_t i = 0; i < rows_; ++i) {
    const auto n = static_cast<std::uint32_t>(rows_);
    const auto k = static_cast<std::uint32_t>(i);
    interleaved = interleaved && c_.out[i] == 2 * k + 1 && c_.copy_out[i] == 2 * k &&
                  c_.copy_state[i] == 2 * k + 1;
    stacked = stacked && c_.out[i] == n + k && c_.copy_out[i] == k && c_.copy_state[i] == n + k;
  }
  if (interleaved) return Layout::interleaved;
  return stacked ? Layout::stacked : Layout::indexed;
}

void DenseRows::select() {
  layout_ = find_layout();
  switch (layout_) {
    case Layout::interleaved:
      std::tie(kernel_, input_kernel_) =
          kernels_of<Layout::interleaved>(rows_, states_, variables_);
      break;
    case Layout::stacked:
      std::tie(kernel_, input_kernel_) = kernels_of<Layout::stacked>(rows_, states_, variables_);
      break;
    case Layout::indexed:
      std::tie(kernel_, input_kernel_) = kernels_of<Layout::indexed>(rows_, states_, variables_);
      break;
  }
}

}  // namespace simverify::simulation::diagram::detail
