"""Case-level static estimates: numbers from a case alone, no model built.

* :func:`static_top_tension` — the tension [N] at the upper held end (elastic catenary
  between two held ends, or the wet weight hanging from one).
* :func:`sea_estimate` — where the initial shape meets the sea: the submerged length, the
  touchdown on the seabed and the contact oscillator of a node resting on the seabed.

The model-level static equilibrium (Newton on a built formulation) is statics.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .case import Case

__all__ = ["static_top_tension", "initial_shape", "sea_estimate", "SeaEstimate"]


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


def initial_shape(case: Case) -> np.ndarray:
    """Node positions [m] (N+1, 3) of the case at t = 0, ``model.elements`` equal elements."""
    from .initial import initial_nodes

    arc = np.linspace(0.0, case.tether.length, case.model.elements + 1)
    return initial_nodes(case, arc)[0]


@dataclass(frozen=True)
class SeaEstimate:
    """The initial shape against the sea (all None where the case has no such thing).

    ``submerged_length`` [m]: unstretched length below the calm water level (each straight
    element counts by its wetted fraction, the lever rule of the fluid loads);
    ``bed_clearance`` [m]: the lowest node's height above the seabed under it (negative:
    it starts inside); ``touchdown_arc``/``touchdown_point`` [m]: the grounded node where
    the line leaves the seabed, first from the start end; ``grounded_length`` [m]: the
    elements with both nodes on (or in) the seabed;
    ``seabed_omega`` [rad/s], ``seabed_zeta`` [-]: the contact oscillator of a node resting
    on the seabed (:func:`seabed_contact_mode`).
    """

    submerged_length: float | None
    bed_clearance: float | None
    touchdown_arc: float | None
    touchdown_point: np.ndarray | None
    grounded_length: float | None
    seabed_omega: float | None
    seabed_zeta: float | None


def submerged_length(z: np.ndarray, level: float, element_length: np.ndarray) -> float:
    """Unstretched length [m] below ``level`` of the straight elements between node
    heights ``z`` [m]: each counts by the fraction of its chord below the level."""
    ha = z[:-1] - level
    hb = z[1:] - level
    below = np.where(ha <= 0, 1.0, 0.0) * np.where(hb <= 0, 1.0, 0.0)
    cross = (ha < 0) != (hb < 0)
    span = np.abs(ha) + np.abs(hb)
    frac = np.where(cross & (span > 0),
                    np.maximum(-ha, 0.0) / np.where(span > 0, span, 1.0)
                    + np.maximum(-hb, 0.0) / np.where(span > 0, span, 1.0), below)
    return float(np.sum(frac * element_length))


def seabed_heights(case: Case, xy: np.ndarray) -> np.ndarray:
    """Seabed z [m] under the points ``xy`` (n, 2), from the shared sea kernels."""
    from .sea import sea_arrays, seabed_depth

    arrs = sea_arrays(case.environment, np.zeros((len(xy), 3)), len(xy))
    normal = np.zeros(3)
    return np.array([seabed_depth(arrs["sea_par"], arrs["sea_bed"], arrs["sea_bed_axes"],
                                  float(x), float(y), normal) for x, y in xy])


def seabed_contact_mode(case: Case) -> tuple[float, float]:
    """(frequency [rad/s], damping ratio) of a node resting on the seabed: contact
    stiffness kBot d L_c and damping cBot d L_c (MoorDyn docs, theory: seabed contact per
    unit area d L) on the node's structural mass m' L_c, as the node formulations' bound
    (models/nodes.py seabed_critical_step); L_c cancels. ``models.base.rk4_critical_step``
    turns it into the RK4 limit."""
    t, bed = case.tether, case.environment.seabed
    m = t.linear_mass  # [kg/m]
    omega = math.sqrt(bed.stiffness * t.diameter / m)
    return omega, bed.damping * t.diameter / (2.0 * m * omega)


def sea_estimate(case: Case, nodes: np.ndarray | None = None) -> SeaEstimate:
    """Submerged length, touchdown and the seabed's contact mode of the case's initial shape
    (``nodes`` [m], default :func:`initial_shape`). See :class:`SeaEstimate`."""
    env = case.environment
    p = initial_shape(case) if nodes is None else np.asarray(nodes, dtype=float)
    Le = np.full(len(p) - 1, case.tether.length / (len(p) - 1))
    level = getattr(env, "water_level", None)
    sub = None if level is None else submerged_length(p[:, 2], float(level), Le)
    if getattr(env, "seabed", None) is None:
        return SeaEstimate(sub, None, None, None, None, None, None)
    gap = p[:, 2] - seabed_heights(case, p[:, :2])
    grounded = gap <= 1e-6 * case.tether.length
    td_arc = td_point = None
    if grounded.any():
        s = np.concatenate([[0.0], np.cumsum(Le)])
        edges = np.flatnonzero(grounded[:-1] != grounded[1:])
        if edges.size:
            k = int(edges[0]) + (0 if grounded[edges[0]] else 1)
        else:
            k = 0  # the whole line lies on the seabed
        td_arc, td_point = float(s[k]), p[k].copy()
    on_bed = grounded[:-1] & grounded[1:]  # elements lying on the seabed
    omega, zeta = seabed_contact_mode(case)
    return SeaEstimate(sub, float(gap.min()), td_arc, td_point, float(np.sum(Le[on_bed])),
                       omega, zeta)
