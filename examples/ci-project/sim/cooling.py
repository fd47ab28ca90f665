#!/usr/bin/env python3
"""A cup of coffee cooling in a room: this project's simulation, verified by simverify.

Newton's law of cooling, T' = -k (T - T_room), integrated with the classical Runge-Kutta
method (RK4) at step h. The exact solution T(t) = T_room + (T0 - T_room) exp(-k t) is the
reference the measures error_end and drinkable_error are taken against.

simverify's `command` component starts this program once per grid point: the point arrives
as JSON on standard input ({"conditions": {"k": 0.05, "h": 1.0, ...}, ...}) and the measures
leave as JSON on standard output ({"measures": {...}}).
"""
import json
import math
import sys

DRINKABLE = 60.0  # degrees C


def rk4_step(f, t, y, h):
    """One step of the classical Runge-Kutta method."""
    k1 = f(t, y)
    k2 = f(t + h / 2, y + h / 2 * k1)
    k3 = f(t + h / 2, y + h / 2 * k2)
    k4 = f(t + h, y + h * k3)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def simulate(k, t_room, t0, h, tf):
    """Times and temperatures from 0 to tf (minutes) with step h."""
    def f(_, temperature):
        return -k * (temperature - t_room)

    steps = round(tf / h)
    times, temps = [0.0], [t0]
    for i in range(steps):
        temps.append(rk4_step(f, times[-1], temps[-1], h))
        times.append((i + 1) * h)
    return times, temps


def exact(k, t_room, t0, t):
    return t_room + (t0 - t_room) * math.exp(-k * t)


def drinkable_after(times, temps, limit=DRINKABLE):
    """First time the coffee is at or below `limit`, linearly interpolated; None if never."""
    if temps[0] <= limit:
        return times[0]
    for i in range(1, len(temps)):
        if temps[i] <= limit:
            t_a, t_b, y_a, y_b = times[i - 1], times[i], temps[i - 1], temps[i]
            return t_a + (y_a - limit) / (y_a - y_b) * (t_b - t_a)
    return None


def exact_drinkable_after(k, t_room, t0, limit=DRINKABLE):
    """Solves exact(t) = limit."""
    return math.log((t0 - t_room) / (limit - t_room)) / k


def measures(conditions):
    k = float(conditions["k"])
    t_room = float(conditions.get("t_room", 20.0))
    t0 = float(conditions.get("t0", 90.0))
    h = float(conditions.get("h", 0.5))
    tf = float(conditions.get("tf", 60.0))
    times, temps = simulate(k, t_room, t0, h, tf)
    drinkable = drinkable_after(times, temps)
    return {
        "error_end": abs(temps[-1] - exact(k, t_room, t0, times[-1])),
        "drinkable_after": drinkable,
        "drinkable_error": None if drinkable is None else
        abs(drinkable - exact_drinkable_after(k, t_room, t0)),
        "y.temperature": {"t": times, "values": temps},
    }


def main():
    point = json.load(sys.stdin)
    json.dump({"measures": measures(point["conditions"])}, sys.stdout)


if __name__ == "__main__":
    main()
