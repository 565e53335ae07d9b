"""Case-level static estimates: numbers from a case alone, no model built.

* :func:`static_top_tension` — the tension [N] at the upper held end (elastic catenary
  between two held ends, or the wet weight hanging from one).

The model-level static equilibrium (Newton on a built formulation) is statics.py.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .case import Case

__all__ = ["static_top_tension"]


def static_top_tension(case: Case) -> tuple[float, str]:
    """Static tension [N] at the upper held end and how it was obtained: the elastic
    catenary between two held ends (analytic.elastic_catenary), else the weight in the fluid
    of the tether and of the free end's payload plus its applied force."""
    from .analytic import elastic_catenary  # here: scipy.optimize only when it is needed

    t, env = case.tether, case.environment
    g = np.asarray(env.gravity, dtype=float)
    w = (t.linear_mass - env.fluid_density * t.displaced) * g  # wet weight per metre [N/m]
    a = case.end_state("start", 0.0)
    b = case.end_state("end", 0.0)
    if a is not None and b is not None:
        gmag = float(np.linalg.norm(g))
        if gmag == 0 or float(np.linalg.norm(w)) == 0:
            return float("nan"), "no net weight: tension set by the supports' spacing"
        down = g / gmag
        chord = b[0] - a[0]
        dz = -float(chord @ down)
        span = float(np.linalg.norm(chord + dz * down))
        if span < 1e-9 * t.length:
            return float("nan"), "supports on one vertical: not a catenary"
        sol = elastic_catenary(span, dz, t.length, float(np.linalg.norm(w)), t.EA or math.inf)
        return max(sol.tension_A, sol.tension_B), "elastic catenary between the two held ends"
    free = "end" if a is not None else "start"
    end = getattr(case, free)
    weight_mass = end.body_masses(env.fluid_density)[1]  # a towed body's net weight / g
    load = w * t.length + weight_mass * g + np.asarray(end.force, dtype=float)
    loads = " and the payload/force at the free end" if end.mass or any(end.force) else ""
    return float(np.linalg.norm(load)), f"weight in the fluid of the tether{loads}"
