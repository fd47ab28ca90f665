#!/usr/bin/python3
"""Regenerates the results fixtures in fixtures/ (checked in; run by hand after a format change).

    /usr/bin/python3 testsuites/reports/make_fixtures.py

passing/    every requirement passed: order (convergence), one axis, two axes (heatmap), three
            axes (small multiples), a statistical aggregate with time series beside it, a Monte
            Carlo study (samples and their statistics per point)
failing/    a failed and an errored requirement whose ids and titles are hostile strings
incomplete/ an interrupted run: complete false, a requirement that never ran
baseline/   an earlier run of failing/ in which everything passed (commit and start recorded),
            plus a requirement retired since: `simverify diff baseline failing` regresses
"""

from __future__ import annotations

import json
import math
import random
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent / "fixtures"
HOSTILE = "<script>alert('x')</script> & \"quotes\" $x$"


def point(index: int, condition: dict, quality: float | None, passed: bool, measures: dict | None = None,
          error: str | None = None) -> dict:
    return {"index": index, "condition": condition, "measures": measures or {}, "quality": quality,
            "passed": passed, "error": error, "seconds": 0.001 * (index + 1)}


def requirement(rid: str, title: str, level: str, status: str, threshold: str, worst, points: list,
                **extra) -> dict:
    doc = {"id": rid, "title": title, "level": level, "component": extra.pop("component", "simulate"),
           "status": status, "threshold": threshold, "worst": worst, "reason": extra.pop("reason", ""),
           "measure": extra.pop("measure", "error_end"),
           "trace": extra.pop("trace", {"source": "lecture notes Theorem 3.22"}),
           "depends_on": extra.pop("depends_on", []), "grid_size": len(points), "seconds": 0.05,
           "location": f"requirements/{level}/fixture.yaml:3:5", "points": points}
    doc.update(extra)
    return doc


def order_requirement() -> dict:
    points, groups = [], []
    for g, lam in enumerate([-1.0, -2.0]):
        members = []
        for k, h in enumerate([1e-3, 1e-2, 1e-1]):
            i = len(points)
            points.append(point(i, {"method": "ode4", "h": h, "p.lambda": lam},
                                None, True, {"error_end": abs(lam) ** 4 * h ** 4 / 100}))
            members.append(i)
        groups.append({"points": members, "quality": 4.0, "passed": True, "error": None})
    return requirement("SOLVER-ODE4-ORDER", "Classical Runge-Kutta converges with order 4", "unit",
                       "passed", ">= 3.9", 4.0, points, aggregate={"over": ["h"], "statistic": "order"},
                       groups=groups, description="The slope of log(error) against log(h) is at least 3.9.",
                       units={"h": "s", "error_end": "1"})


def one_axis() -> dict:
    pts = [point(i, {"method": "ode45", "rtol": r}, r * 2, True, {"error_max": r * 2})
           for i, r in enumerate([1e-8, 1e-6, 1e-4])]
    return requirement("SIM-ODE45-TOL", "ode45 keeps the error within twice the tolerance", "integration",
                       "passed", "<= 0.001", 2e-4, pts, measure="error_max",
                       trace={"source": "Simulink solver list, eq. 3", "tests": "testsuites/integration/ode45_test.cpp"})


def two_axes() -> dict:
    pts, i = [], 0
    for method in ["ode23", "ode45"]:
        for h in [0.1, 0.01, 0.001]:
            pts.append(point(i, {"method": method, "h": h}, h * (2 if method == "ode23" else 1), True))
            i += 1
    return requirement("SIM-STEP-GRID", "Error over methods and steps", "integration", "passed",
                       "<= 0.5", 0.2, pts, component="step", units={"h": "s"})


def three_axes() -> dict:
    pts, i = [], 0
    for model in ["exponential", "harmonic_oscillator"]:
        for method in ["ode4", "ode5"]:
            for h in [0.1, 0.01]:
                pts.append(point(i, {"model": model, "method": method, "h": h}, h ** 2, True))
                i += 1
    return requirement("SIM-MULTI", "Error over models, methods and steps", "system", "passed",
                       "<= 0.1", 0.01, pts)


def statistical(folder: Path) -> dict:
    pts, members = [], []
    series = folder / "series" / "QC-ROAD-MEAN"
    series.mkdir(parents=True)
    for i, seed in enumerate(range(1, 9)):
        value = 0.02 + 0.003 * math.sin(seed * 1.7)
        name = f"series/QC-ROAD-MEAN/{i}-y.body.csv"
        rows = ["t,body,wheel"] + [f"{t * 0.1:.1f},{math.sin(t * 0.1 + seed) * value:.6f},"
                                   f"{math.cos(t * 0.1) * value:.6f}" for t in range(30)]
        (folder / name).write_text("\n".join(rows) + "\n")
        pts.append(point(i, {"model": "quarter_car", "seed": seed}, None, True,
                         {"rms(y.body)": value, "y.body": {"file": name, "samples": 30, "columns": ["body", "wheel"]}}))
        members.append(i)
    return requirement("QC-ROAD-MEAN", "Quarter car body acceleration stays small on road class C",
                       "system", "passed", "<= 0.03", 0.0224, pts, measure="rms(y.body)",
                       aggregate={"over": ["seed"], "statistic": "ci_upper(0.95)"},
                       groups=[{"points": members, "quality": 0.0224, "passed": True, "error": None}],
                       trace={"source": "lecture notes Sec 2.4", "code": "simulation/src/models/quarter_car.cpp"},
                       units={"rms(y.body)": "m/s^2", "y.body": "m/s^2", "t": "s"})


def monte_carlo() -> dict:
    """component monte_carlo: one study per pin tolerance, 40 runs each; the first hit time is
    about linear in the drawn pin angle (C7), so the samples are a line plus a small wiggle."""
    pts = []
    for i, (label, half) in enumerate([("0.01", 0.01), ("0.02", 0.02)]):
        rng = random.Random(2 + i)
        angles = [rng.uniform(-half, half) for _ in range(40)]
        samples = [0.7035 - 0.801 * a + 0.0004 * math.sin(40 * a) for a in angles]
        n = len(samples)
        mean = sum(samples) / n
        std = math.sqrt(sum((x - mean) ** 2 for x in samples) / (n - 1))
        half_ci = 2.0226909 * std / math.sqrt(n)  # t_{0.975, 39}
        ordered = sorted(samples)

        def quantile(q: float) -> float:
            pos = q * (n - 1)
            lo = int(pos)
            return ordered[lo] + (pos - lo) * (ordered[min(lo + 1, n - 1)] - ordered[lo])

        measures = {"mean": mean, "std": std, "ci_lower": mean - half_ci, "ci_upper": mean + half_ci,
                    "min": ordered[0], "max": ordered[-1], "median": quantile(0.5), "q05": quantile(0.05),
                    "q95": quantile(0.95), "samples": samples}
        pts.append(point(i, {"model": "constrained_pendulum", "runs": 40,
                             "perturb": {"p.phi_pin": {"uniform": [-0.2618 - half, -0.2618 + half]}}},
                         measures["q95"], measures["q95"] <= 0.72, measures))
    worst = max(p["quality"] for p in pts)
    return requirement("C7-PIN-QUANTILE", "95% of the pendulums hit the pin by 0.72 s", "system", "passed",
                       "<= 0.72", worst, pts, component="monte_carlo", measure="q95",
                       trace={"source": "ARGESIM C7; lecture notes Def 4.17 (quantiles)"},
                       units={**{name: "s" for name in ("mean", "std", "ci_lower", "ci_upper", "min", "max",
                                                         "median", "q05", "q95", "samples")},
                              "p.phi_pin": "rad"})


def results(requirements: list, complete: bool = True) -> dict:
    counts = {s: sum(1 for r in requirements if r["status"] == s) for s in ("passed", "failed", "error", "skipped")}
    return {"format": "simverify.results/1",
            "releasable": complete and counts["passed"] == len(requirements),
            "complete": complete,
            "summary": {"passed": counts["passed"], "failed": counts["failed"], "error": counts["error"],
                        "skipped": counts["skipped"], "seconds": 1.25, "jobs": 2, "shard": None},
            "requirements": requirements}


def write(name: str, build) -> None:
    folder = HERE / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    doc = build(folder)
    (folder / "results.json").write_text(json.dumps(doc, indent=1) + "\n")


def failing(folder: Path) -> dict:
    bad = [point(0, {"method": "ode1", "h": 0.1}, 0.5, False), point(1, {"method": "ode1", "h": 0.01}, 0.05, True)]
    err = [point(0, {"model": HOSTILE}, None, False, error=f"component threw: {HOSTILE}")]
    return results([
        order_requirement(),
        requirement(HOSTILE, f"Title {HOSTILE}", "unit", "failed", "<= 0.1", 0.5, bad,
                    reason=f"worst 0.5 violates <= 0.1 at {HOSTILE}", component=HOSTILE,
                    trace={"source": f"doc {HOSTILE}", "tests": HOSTILE}, units={"h": "s", "error_end": "m"}),
        requirement("SIM-ERROR", "A component error is a failure", "integration", "error", "<= 1", None, err,
                    reason="1 point(s) raised an error", depends_on=[HOSTILE, "MISSING-ID"]),
    ])


def baseline(folder: Path) -> dict:
    good = [point(0, {"method": "ode1", "h": 0.1}, 0.08, True), point(1, {"method": "ode1", "h": 0.01}, 0.008, True)]
    fine = [point(0, {"model": HOSTILE}, 0.5, True)]
    order = order_requirement()
    order["worst"] = order["groups"][0]["quality"] = 4.02
    doc = results([
        order,
        requirement(HOSTILE, f"Title {HOSTILE}", "unit", "passed", "<= 0.1", 0.08, good, component=HOSTILE),
        requirement("SIM-ERROR", "A component error is a failure", "integration", "passed", "<= 1", 0.5, fine),
        requirement("SIM-RETIRED", "A requirement removed since", "integration", "passed", "<= 1", 0.25,
                    [point(0, {"h": 0.1}, 0.25, True)]),
    ])
    doc["summary"].update({"commit": "0123456789ab", "started": "2026-11-20T08:00:00Z"})
    return doc


def incomplete(folder: Path) -> dict:
    return results([order_requirement(),
                    requirement("SIM-LATER", "Never ran: the run was interrupted", "integration",
                                "skipped", "<= 1", None, [], reason="interrupted")], complete=False)


def main() -> None:
    write("passing", lambda f: results([order_requirement(), one_axis(), two_axes(), three_axes(), statistical(f),
                                         monte_carlo()]))
    write("failing", failing)
    write("incomplete", incomplete)
    write("baseline", baseline)
    (HERE / "coverage-summary.json").write_text(json.dumps(
        {"format": "simverify.coverage/1", "line": {"covered": 834, "total": 1000, "percent": 83.4},
         "branch": {"covered": 410, "total": 1000, "percent": 41.0}}, indent=1) + "\n")


if __name__ == "__main__":
    main()
