#!/usr/bin/python3
"""Independent reference values for monte_carlo_component_test.cpp and analysis_test.cpp.

Re-implements the stream derivation of simulation/analysis/monte_carlo (SplitMix64 twice,
top 53 bits) in Python and reduces closed-form samples with numpy/scipy, so the C++
statistics are checked against a second implementation of both the draws and the
statistics. Run: /usr/bin/python3 testsuites/unit/components/monte_carlo_reference.py
"""
import numpy as np
from scipy import stats

MASK = (1 << 64) - 1


def mix(z):
    z = (z + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def stream_seed(base, index):
    return mix(mix(base) ^ index)


def unit_interval(draw):
    return (draw >> 11) * 2.0**-53


# Study: exponential model x(tf) = x0 exp(lambda tf), x0 = 1, tf = 1, lambda ~ U(-1.5, -0.5),
# 64 runs, seed 2; the perturbed input is draw 0 of run i's stream.
a, b, runs, seed = -1.5, -0.5, 64, 2
lam = np.array([a + (b - a) * unit_interval(stream_seed(stream_seed(seed, i), 0))
                for i in range(runs)])
x = np.exp(lam)
ci = stats.t.interval(0.95, runs - 1, loc=x.mean(), scale=x.std(ddof=1) / np.sqrt(runs))
print("lambda[0..2]", repr(lam[0]), repr(lam[1]), repr(lam[2]))
print("mean", repr(x.mean()))
print("std", repr(x.std(ddof=1)))
print("ci95", repr(ci[0]), repr(ci[1]))
print("min", repr(x.min()), "max", repr(x.max()))
print("median", repr(np.median(x)))
print("q05", repr(np.quantile(x, 0.05)), "q95", repr(np.quantile(x, 0.95)))
print("slope", repr(np.polyfit(lam, x, 1)[0]))

# Normal draw by inversion: draw 0xF000000000000000 has probability 15/16 + 2^-54.
draw = 0xF000000000000000
p = ((draw >> 11) + 0.5) * 2.0**-53
print("normal(1, 2) at draw 0xF0..0", repr(stats.norm.ppf(p, loc=1.0, scale=2.0)))
