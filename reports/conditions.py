"""Condition values as people write them: `road class B, 25 m/s` rather than
`{"road": {"class": "B", "speed": 25.0}}`.

The input signals (docs/models.md, "Inputs") have fixed fields with fixed units; anything
else is spelled out generically (`key value, key value`) so no value is ever hidden.
"""

from __future__ import annotations

import math
from typing import Any


def number_text(x: float) -> str:
    if isinstance(x, bool):
        return str(x).lower()
    if isinstance(x, int):
        return str(x)
    if math.isnan(x):
        return "NaN"
    if x == 0 or 1e-3 <= abs(x) < 1e5:
        return f"{x:.4g}"
    return f"{x:.3g}"


def _get(fields: dict[str, Any], key: str, unit: str = "") -> str | None:
    if key not in fields:
        return None
    text = human(fields[key])
    return f"{text} {unit}".rstrip()


def _signal(kind: str, fields: dict[str, Any]) -> str | None:
    """One of the documented input signals; None when the fields are not the documented ones."""
    known = {
        "road": {"class", "speed", "seed"},
        "step": {"at", "from", "to"},
        "ramp": {"at", "slope"},
        "sine": {"amplitude", "frequency", "phase"},
        "chirp": {"amplitude", "f0", "f1", "duration"},
    }
    if kind not in known or not isinstance(fields, dict) or not set(fields) <= known[kind]:
        return None
    parts: list[str | None]
    if kind == "road":
        parts = [f"class {fields['class']}" if "class" in fields else None, _get(fields, "speed", "m/s"),
                 f"seed {human(fields['seed'])}" if "seed" in fields else None]
    elif kind == "step":
        parts = [f"at {_get(fields, 'at', 's')}" if "at" in fields else None,
                 f"from {_get(fields, 'from')}" if "from" in fields else None,
                 f"to {_get(fields, 'to')}" if "to" in fields else None]
        return "step " + " ".join(p for p in parts if p)
    elif kind == "ramp":
        parts = [f"at {_get(fields, 'at', 's')}" if "at" in fields else None,
                 f"slope {_get(fields, 'slope')}" if "slope" in fields else None]
    elif kind == "sine":
        parts = [f"amplitude {_get(fields, 'amplitude')}" if "amplitude" in fields else None,
                 _get(fields, "frequency", "Hz"),
                 f"phase {_get(fields, 'phase', 'rad')}" if "phase" in fields else None]
    else:
        f0, f1 = fields.get("f0"), fields.get("f1")
        parts = [f"amplitude {_get(fields, 'amplitude')}" if "amplitude" in fields else None,
                 f"{human(f0)}–{human(f1)} Hz" if f0 is not None and f1 is not None else None,
                 f"over {_get(fields, 'duration', 's')}" if "duration" in fields else None]
    return f"{kind} " + ", ".join(p for p in parts if p)


def human(value: Any) -> str:
    """A condition value in the words of the requirement's author."""
    if isinstance(value, (bool, int, float)):
        return number_text(value)
    if value is None:
        return "null"
    if isinstance(value, list):
        return "[" + ", ".join(human(v) for v in value) + "]"
    if isinstance(value, dict):
        held = value.get("hold") if len(value) == 2 and "hold" in value else None
        rest = {k: v for k, v in value.items() if k != "hold"} if held is not None else value
        if len(rest) == 1:
            (kind, fields), = rest.items()
            signal = _signal(kind, fields)
            if signal is not None:
                return signal + (f", held every {human(held)} s" if held is not None else "")
            if isinstance(fields, dict) and len(fields) == 1 and isinstance(next(iter(fields.values())), list):
                # A distribution such as {p.phi_pin: {uniform: [a, b]}}.
                (name, args), = fields.items()
                return f"{kind} {name} {human(args)}"
        return ", ".join(f"{k} {human(v)}" for k, v in value.items())
    return str(value)
