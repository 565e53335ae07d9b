"""Initial node positions and velocities from a case's ``initial`` section (any formulation).

The ends rule (issue 18): every initial shape starts from where the ends really are at
t = 0. A held end (fixed, prescribed, winch; on a trajectory or not) is where its motion
puts it at t = 0, so a ``straight`` line hangs from there (a prescribed start given only by
its trajectory starts at the table's first row, not at ``position``'s default origin),
and the first / last of given ``points`` must coincide with a held end (``case.py``
rejects a gap larger than :data:`END_GAP_REL` of an element). ``shape: equilibrium`` lays
its guess here by the same rules (``points`` if given, else straight); the equilibrium
itself is statics.py's, reached through ``start.initial_state``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .case import Case

__all__ = ["initial_nodes", "end_gaps", "END_GAP_REL"]

#: the largest gap between a given end point and its held end, relative to the element
#: length, that is closed silently (rounding in a written shape); beyond it: an error
END_GAP_REL = 1e-6


def _straight_direction(case: Case) -> np.ndarray:
    ini = case.initial
    g = np.asarray(case.environment.gravity, dtype=float)
    down = g / np.linalg.norm(g) if np.any(g) else np.array([0.0, 0.0, -1.0])
    if ini.direction is not None:
        d = np.asarray(ini.direction, dtype=float)
        return d / np.linalg.norm(d)
    if ini.angle_from_gravity_deg is not None:
        ex = np.array([1.0, 0.0, 0.0])
        side = ex - down * (ex @ down)
        if np.linalg.norm(side) < 1e-12:  # gravity along x: tilt towards +z instead
            ez = np.array([0.0, 0.0, 1.0])
            side = ez - down * (ez @ down)
        side /= np.linalg.norm(side)
        a = math.radians(ini.angle_from_gravity_deg)
        return math.cos(a) * down + math.sin(a) * side
    return np.array([0.0, 0.0, -1.0])


def _resample(points: np.ndarray, fractions: np.ndarray) -> np.ndarray:
    """Points at the given fractions of the polyline's arc length."""
    seg = np.linalg.norm(np.diff(points, axis=0), axis=1)
    cum = np.concatenate([[0.0], np.cumsum(seg)])
    if cum[-1] == 0.0:
        raise ValueError("initial.points: all points coincide")
    target = fractions * cum[-1]
    return np.column_stack([np.interp(target, cum, points[:, a]) for a in range(3)])


def end_gaps(case: Case) -> dict[str, tuple[int, float, np.ndarray, np.ndarray]]:
    """For given ``initial.points``: per held end, (point index, gap [m] beyond the allowed
    rounding (0 when within it), the point, the held end's position at t = 0)."""
    ini = case.initial
    out: dict[str, tuple[int, float, np.ndarray, np.ndarray]] = {}
    if ini.points is None:
        return out
    pts = np.asarray(ini.points, dtype=float)
    allowed = END_GAP_REL * case.tether.length / case.model.elements
    for which, index in (("start", 0), ("end", len(pts) - 1)):
        held = case.end_state(which, 0.0)
        if held is None:
            continue
        gap = float(np.linalg.norm(pts[index] - held[0]))
        out[which] = (index, gap if gap > allowed else 0.0, pts[index], held[0])
    return out


def initial_nodes(case: Case, arc_length: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Node positions [m] and velocities [m/s] at t = 0 for nodes at unstretched arc lengths.

    ``straight``: from the held end where it is at t = 0 along ``direction`` (or between
    two held ends, equally spaced along the chord); ``points``: the given polyline
    resampled by arc length. Then the uniform velocity plus a rigid rotation about the
    start end. Held ends take their own position and velocity at t = 0 (a given end point
    may differ from it by rounding only: ``case.py`` checks :func:`end_gaps`).
    ``equilibrium``: the guess of the static solve, laid by the same rules (``points`` if
    given, else straight), at rest.
    """
    L = case.tether.length
    frac = np.asarray(arc_length, dtype=float) / L
    ini = case.initial
    start = case.end_state("start", 0.0)
    end = case.end_state("end", 0.0)
    if ini.points is not None:
        pts = np.asarray(ini.points, dtype=float)
        if len(pts) == len(frac):
            pos = pts.copy()
        else:
            pos = _resample(pts, frac)
    elif start is not None and end is not None:
        pos = start[0][None, :] + frac[:, None] * (end[0] - start[0])[None, :]
    else:
        d = _straight_direction(case)
        if start is None and end is not None:
            pos = end[0][None, :] - ((1.0 - frac) * L)[:, None] * d[None, :]
        else:
            # a held start (fixed, prescribed, winch) where it is at t = 0; a free one at
            # start.position (default the origin)
            origin = case.start_position if start is None else start[0]
            pos = origin[None, :] + (frac * L)[:, None] * d[None, :]
    vel = np.tile(np.asarray(ini.velocity, dtype=float), (len(frac), 1))
    omega = np.asarray(ini.angular_velocity, dtype=float)
    if np.any(omega):
        vel += np.cross(omega[None, :], pos - pos[0][None, :])
    if start is not None:
        pos[0], vel[0] = start
    if end is not None:
        pos[-1], vel[-1] = end
    return pos, vel
