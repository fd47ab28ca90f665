#!/usr/bin/env python3
"""A room under a proportional heater, the `command` component's Python test model.

T' = (T_out - T) / tau + k (setpoint - T) / tau, T(0) = T_out, integrated with explicit
Euler at dt = 10 ms and reported every second. The closed form is first order: T(t) = T_inf + (T_out - T_inf) e^(-t/tau_c)
with T_inf = (T_out + k setpoint) / (1 + k) and tau_c = tau / (1 + k), so the test knows
every measure: no overshoot, the steady-state error setpoint - T_inf, and the settling time
tau_c ln(|T_out - T_inf| / (0.02 |T_inf - T_out|)) = tau_c ln 50.
"""
import json
import math
import sys

point = json.load(sys.stdin)
c = point["conditions"]
setpoint, k = float(c["setpoint"]), float(c["gain"])
t_out, tau, t_end, dt = 10.0, float(c.get("tau", 60.0)), float(c.get("tf", 600.0)), 1e-2

t, temperature = 0.0, t_out
times, values = [0.0], [t_out]
steps = int(round(t_end / dt))
for i in range(1, steps + 1):
    temperature += dt * ((t_out - temperature) + k * (setpoint - temperature)) / tau
    t = i * dt
    if i % 100 == 0:
        times.append(t)
        values.append(temperature)

final = values[-1]
band = 0.02 * abs(final - t_out)
outside = [i for i, v in enumerate(values) if abs(v - final) > band]
settling = times[outside[-1] + 1] if outside else 0.0
json.dump({"measures": {
    "overshoot": max(0.0, max(values) - setpoint),
    "steady_state_error": setpoint - final,
    "settling_time": settling,
    "y.temperature": {"t": times, "values": values},
}}, sys.stdout)
