#pragma once
// Statistics of cases that are not equally likely (the weighted Monte Carlo cases of the
// paper-toss example): each value x_i comes with a weight w_i, finite and >= 0, normalized by
// the weights' sum (which must be positive). Every function throws std::invalid_argument for
// a bad weight or an empty sample and std::logic_error when values and weights differ in size.
#include <span>
#include <vector>

namespace simverify::core {

// w_i / sum_j w_j: the cases' probabilities when the weights are relative frequencies.
[[nodiscard]] std::vector<double> normalized_weights(std::span<const double> weights);

// sum_i p_i x_i: the expectation over cases of probability p_i (the weighted probability of
// success when x_i is each case's success rate).
[[nodiscard]] double weighted_mean(std::span<const double> values, std::span<const double> weights);

// sum of p_i over the values x_i <= x: the weighted distribution function F(x).
[[nodiscard]] double weighted_fraction_le(std::span<const double> values,
                                          std::span<const double> weights, double x);

// The inverse of F: the smallest value whose cumulative weight reaches q, q in (0, 1] (with
// equal weights numpy's 'inverted_cdf' quantile).
[[nodiscard]] double weighted_quantile(std::span<const double> values,
                                       std::span<const double> weights, double q);

}  // namespace simverify::core
