#!/usr/bin/env python3
"""A room heated by a radiator under a PI thermostat: the system under test of this example.

simverify starts this program once per grid point. It reads the point as JSON on standard
input, {"requirement": ..., "point": ..., "seed": ..., "conditions": {"setpoint": 20, ...}},
and writes its measures as JSON on standard output, {"measures": {...}}. Anything it prints
for people goes to standard error (simverify shows its tail when the program fails).

  radiator  C_h H' = P u - k_hr (H - T)
  room      C_r T' = k_hr (H - T) - k_out (T - T_out)
  control   u = clip(gain (setpoint - T) + gain / T_i * integral of (setpoint - T), 0, 1)
"""
import json
import sys

point = json.load(sys.stdin)
c = point["conditions"]
setpoint = float(c["setpoint"])
gain = float(c["gain"])
dt = 1.0 if "--fast" in sys.argv else 0.1  # seconds, explicit Euler
t_end = float(c.get("duration", 4 * 3600))

C_h, C_r = 5.0e3, 2.0e5        # J/K: radiator, room air and furniture
k_hr, k_out = 40.0, 25.0        # W/K: radiator to room, room to outside
P = float(c.get("power", 2500.0))  # W: the radiator's rated power
T_out, T_i = 5.0, 1800.0

T = H = 15.0
integral = 0.0
times, temperatures = [], []
for step in range(int(t_end / dt) + 1):
    t = step * dt
    error = setpoint - T
    u = gain * (error + integral / T_i)
    if 0.0 < u < 1.0:
        integral += error * dt  # anti-windup: integrate only while not saturated
    u = min(max(u, 0.0), 1.0)
    if step % int(60 / dt) == 0:
        times.append(t)
        temperatures.append(T)
    H += dt * (P * u - k_hr * (H - T)) / C_h
    T += dt * (k_hr * (H - T) - k_out * (T - T_out)) / C_r

overshoot = max(0.0, max(temperatures) - setpoint)
outside = [i for i, x in enumerate(temperatures) if abs(x - setpoint) > 0.2]
settling = times[outside[-1] + 1] if outside and outside[-1] + 1 < len(times) else (
    float("inf") if outside else 0.0)
print(f"point {point['point']}: setpoint {setpoint} gain {gain}: overshoot {overshoot:.3f} K",
      file=sys.stderr)
json.dump({"measures": {
    "overshoot": overshoot,
    "settling_time": settling / 60.0 if settling != float("inf") else None,
    "y.temperature": {"t": times, "values": temperatures},
}}, sys.stdout)
