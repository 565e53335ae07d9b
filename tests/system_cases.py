"""Case pairs shared by the system tests (tests/test_system*.py)."""

from __future__ import annotations


def line_on_free_point(model: dict, solver: dict) -> tuple[dict, dict]:
    """A 20 m line in water from a fixed point at the origin to a free end at
    (12, 0, −16) m carrying a body (400 kg, 0.02 m³, drag area 20 m², ca 1): as a
    single-line case with the body as the end's payload, and as a system whose free
    point B is that body. ``model``, ``solver``: the cases' sections."""
    tether = {"diameter": 0.05, "mass_per_length": 8.0, "EA": 5e6, "axial_damping": 5e3,
              "cd_normal": 1.2, "EI": 50.0, "length": 20.0}
    body = {"mass": 400.0, "volume": 0.02, "drag_area": 20.0, "ca": 1.0}
    env = {"fluid_density": 1025.0}
    single = {"tether": dict(tether), "model": model, "environment": dict(env),
              "start": {"type": "fixed", "position": [0, 0, 0]},
              "end": {"type": "free", **body},
              "initial": {"shape": "points", "points": [[0, 0, 0], [12, 0, -16]]},
              "solver": solver}
    system = {"lines": {"1": {"tether": dict(tether), "model": model,
                              "start": {"point": "A"}, "end": {"point": "B"}}},
              "points": {"A": {"type": "fixed", "position": [0, 0, 0]},
                         "B": {"type": "free", "position": [12, 0, -16], **body}},
              "environment": dict(env), "solver": solver}
    return single, system
