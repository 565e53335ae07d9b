"""The sea's loads that rigid_links, rod_chain and ancf2d share beyond sea.py's kernels.

sea.py owns the media, flows, waves and the seabed (issue 17). What these three
formulations add is the same for all of them, so it lives here once:

- :func:`sea_end_load`: the load on a free end's body (payload) in the sea — its weight
  with buoyancy in the medium it is in, its drag with the local flow, Froude–Krylov plus
  added-mass force on the flow acceleration, and the applied force (ramped);
- :func:`hydrostatic_potential`: ∫₀ᶻ ρ(ζ) dζ [kg/m²] across the calm surface, for the
  buoyancy part of ``potential_energy``;
- :func:`sea_tip_table`: the free end's body as the kernels read it;
- :func:`sea_node_outputs`: the results ``surface_elevation``, ``grounded`` and
  ``seabed_force`` at the nodes (results-format.md) from sea.py's helpers.

A free end's body keeps the inertia it is built with (its mass plus ``ca ρ V`` with the
case's ``fluid_density``: these formulations' mass matrices are constant); its weight,
buoyancy, drag and fluid-inertia force follow the medium at the end.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._jit import inline_kernel
from ..boundary import free_end_load
from ..initial import initial_nodes
from ..sea import (
    BED,
    C_BOT,
    ELEMENT_OUT,
    HAS_SURFACE,
    HAS_WAVES,
    K_BOT,
    RHO_AIR,
    RHO_WATER,
    SEA_FIELDS,
    WATER_LEVEL,
    fluid_at,
    node_contact_geometry,
    sea_arrays,
    sea_results,
)
from .base import rk4_critical_step

__all__ = ["SEA_WORK", "SW_BED", "SW_TAN", "TIP_MASS", "TIP_VOLUME", "TIP_CA", "TIP_FIELDS",
           "sea_tip_table", "sea_end_load", "hydrostatic_potential", "sea_node_outputs",
           "seabed_critical_step", "replay_samples", "model_sea_arrays"]

#: a formulation's sea work array: element_fluid's out (ELEMENT_OUT entries; fluid_at uses
#: the first 8), then a seabed force (SW_BED, 3) and a contact tangent (SW_TAN, 3)
SW_BED = ELEMENT_OUT
SW_TAN = ELEMENT_OUT + 3
SEA_WORK = ELEMENT_OUT + 6

#: the free end's body in the sea: dry mass [kg], volume [m³], added-mass coefficient [-]
TIP_MASS, TIP_VOLUME, TIP_CA = range(3)
TIP_FIELDS = 3


def sea_tip_table(end: Any) -> np.ndarray:
    """(3,) [dry mass kg, volume m³, ca] of a free end's body (zeros for a held end)."""
    out = np.zeros(TIP_FIELDS)
    if getattr(end, "type", None) == "free":
        out[TIP_MASS] = end.mass
        out[TIP_VOLUME] = end.volume
        out[TIP_CA] = end.ca
    return out


@inline_kernel
def sea_end_load(par, current, wind, waves, grid, t, body, ramp_time, fx, fy, fz, drag_area,
                 gx, gy, gz, x, y, z, vx, vy, vz, work, out):
    """Load [N] on a free end at (x, y, z) [m] moving at v [m/s] in the sea, into out[0:3].

    The medium's density ρ and flow u, a_f come from sea.fluid_at (work[0:8]); then, as
    boundary.free_end_load: applied force (ramped), net weight (m − ρ V) g and drag
    −½ ρ C_dA |v − u| (v − u); plus the Morison fluid-inertia force (1 + C_a) ρ V a_f
    (Froude–Krylov and the flow part of the added mass, DNV-RP-C205 eq. 6.4).
    """
    fluid_at(par, current, wind, waves, grid, t, x, y, z, work)
    rho = work[0]
    volume = body[TIP_VOLUME]
    free_end_load(t, ramp_time, fx, fy, fz, body[TIP_MASS] - rho * volume, drag_area, rho,
                  gx, gy, gz, work[1], work[2], work[3], vx, vy, vz, out)
    c = (1.0 + body[TIP_CA]) * rho * volume
    out[0] += c * work[4]
    out[1] += c * work[5]
    out[2] += c * work[6]


@inline_kernel
def hydrostatic_potential(par, z):
    """∫₀ᶻ ρ(ζ) dζ [kg/m²]: with a water level h, water (ρ_w) below and air (ρ_a) above;
    without one, the one fluid ρ_w everywhere. The buoyancy of a volume V at height z has
    the potential −|g| V times this (zero at z = 0, as the spec's gravity datum)."""
    rw = par[RHO_WATER]
    if par[HAS_SURFACE] == 0.0:
        return rw * z
    h = par[WATER_LEVEL]
    above = z - h if z > h else 0.0
    above0 = -h if h < 0.0 else 0.0
    return rw * z + (par[RHO_AIR] - rw) * (above - above0)


def sea_node_outputs(data: Any, times: np.ndarray, pos: np.ndarray, vel: np.ndarray,
                     length0: np.ndarray, diameter: float, held: np.ndarray,
                     tangent: np.ndarray | None = None) -> dict[str, tuple]:
    """The sea's result variables at the nodes (results-format.md), as results.py takes a
    model's own outputs: ``surface_elevation`` (time, node) [m], ``grounded`` (time, node)
    and ``seabed_force`` (time, node, axis) [N], from sea.sea_results over the output
    samples (friction anchors replayed: exact while a node sticks or slides steadily).

    ``data``: a run's data tuple (its sea arrays); ``pos``, ``vel`` (T, n, 3) [m, m/s];
    ``length0`` (n − 1,) the unstretched element lengths [m] (each node's contact length
    is half of each adjacent one, as the kernels apply); ``held`` (n,) bool: nodes the
    model holds kinematically (no contact applied there: reported 0, not grounded);
    ``tangent`` (T, n, 3): the line's unit tangents, default the mean chord direction.
    Empty when the case has no water level, waves or seabed."""
    par = data.sea_par
    if par[HAS_SURFACE] == 0.0 and par[HAS_WAVES] == 0.0 and par[BED] == 0.0:
        return {}
    arrays = {name: getattr(data, name) for name in SEA_FIELDS}
    T, n, _ = pos.shape
    if tangent is None:
        tangent = np.empty((T, n, 3))
        for k in range(T):
            tangent[k] = node_contact_geometry(pos[k], length0)[0]
    _, contact = node_contact_geometry(pos[0], length0)
    res = sea_results(arrays, times, pos, vel, tangent, contact, diameter)
    held = np.asarray(held, dtype=bool)
    res["grounded"][:, held] = False
    res["seabed_force"][:, held] = 0.0
    return {
        "surface_elevation": (("time", "node"), res["surface_elevation"],
                              {"units": "m", "long_name": "wave elevation above the calm "
                               "water level at the node's x, y"}),
        "grounded": (("time", "node"), res["grounded"],
                     {"units": "1", "long_name": "node touches the seabed"}),
        "seabed_force": (("time", "node", "axis"), res["seabed_force"],
                         {"units": "N", "long_name": "seabed contact and friction force on "
                          "the node"}),
    }


def seabed_critical_step(par: np.ndarray, length0: np.ndarray, element_mass: np.ndarray,
                         diameter: float, held: np.ndarray) -> tuple[float, int, float]:
    """Largest stable RK4 step [s] of a grounded node on the seabed's contact spring and
    damper alone, the node that limits it, and its ω [rad/s]; (inf, 0, 0) without a seabed.

    Node i has contact length ℓ_i (half of each adjacent unstretched element ``length0``
    [m]), k = kBot d ℓ_i and c = cBot d ℓ_i (sea.seabed_force) on the mass m_i, a third
    of each adjacent element's ``element_mass`` [kg] — the end mass of a rigid or
    uniformly stretching rod about its other end (I/l² = m/3; the consistent mass's
    rows are no lighter than this, so the bound is on the safe side): ω = √(k/m),
    ζ = c / (2 m ω). ``held`` (n,) bool: nodes never in contact."""
    if par[BED] == 0.0:
        return math.inf, 0, 0.0
    contact = np.zeros(length0.size + 1)
    contact[:-1] += 0.5 * length0
    contact[1:] += 0.5 * length0
    mass = np.zeros_like(contact)
    mass[:-1] += element_mass / 3.0
    mass[1:] += element_mass / 3.0
    best = (math.inf, 0, 0.0)
    for i in range(contact.size):
        if held[i]:
            continue
        k = par[K_BOT] * diameter * contact[i]
        c = par[C_BOT] * diameter * contact[i]
        omega = math.sqrt(k / mass[i])
        dt = rk4_critical_step(omega, c / (2.0 * mass[i] * omega))
        if dt < best[0]:
            best = (dt, i, omega)
    return best


def replay_samples(data: Any, times: np.ndarray, Y: np.ndarray, diagnose: Any, remesh: Any,
                   outs: tuple[np.ndarray, ...]) -> None:
    """Run a formulation's compiled ``diagnose(times, Y, data, work, *outs)`` over output
    samples. With a seabed the friction anchors a run ends with are not those of its
    earlier samples, so each sample is diagnosed with anchors replayed from none, as
    sea.sea_results replays them (the same update rule, the formulation's ``remesh``
    kernel, after each sample), on a copy: the run's own anchors stay as they are.
    ``outs``: the output arrays, indexed by sample along their first axis."""
    times = np.ascontiguousarray(times, dtype=float)
    Y = np.ascontiguousarray(Y, dtype=float)
    work = np.empty(Y.shape[1])
    if data.sea_par[BED] == 0.0:
        diagnose(times, Y, data, work, *outs)
        return
    d = data._replace(sea_anchor=np.zeros_like(data.sea_anchor))
    for k in range(times.size):
        diagnose(times[k:k + 1], Y[k:k + 1], d, work, *(a[k:k + 1] for a in outs))
        remesh(times[k], Y[k], d)


def model_sea_arrays(case: Any, arc_length: np.ndarray) -> dict[str, np.ndarray]:
    """sea.sea_arrays for a model whose nodes sit at ``arc_length`` [m] (one contact
    point per node). The initial node positions are computed only where sea_arrays uses
    them (the waves' precomputed grid covers the line), so a case without waves builds
    exactly as before."""
    env = case.environment
    n = len(arc_length)
    nodes = (initial_nodes(case, arc_length)[0] if getattr(env, "waves", None) is not None
             else np.zeros((n, 3)))
    return sea_arrays(env, nodes, n)
