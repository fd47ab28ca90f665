#pragma once
// Internal: the multiscale time grid of Def 3.38 / Alg 6. Sampling instants t_k = t0 + k T
// are computed by multiplication, not accumulation, so they are exact to one rounding.
#include <cstddef>

namespace simverify::simulation::detail {

// Def 3.38: h = T / i for some i in N; returns i. Throws std::invalid_argument when h does
// not divide T (|T / h - i| > 1e-9 i).
[[nodiscard]] long multiscale_substeps(double sample_time, double h);

// Number of sampling intervals covering [t0, tf]; the last one ends at tf and is shorter
// when T does not divide tf - t0 (up to a relative 1e-9, which counts as dividing).
[[nodiscard]] long sampling_intervals(double t0, double tf, double sample_time);

// End of sampling interval k (0-based): min(t0 + (k + 1) T, tf).
[[nodiscard]] double sampling_interval_end(double t0, double tf, double sample_time, long k);

}  // namespace simverify::simulation::detail
