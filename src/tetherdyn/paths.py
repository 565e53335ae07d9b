"""Towpoint paths for prescribed ends: generators that return trajectory tables.

Each function returns a table ``{t, x, y, z, vx, vy, vz}`` (lists, SI units) that a case
takes as an inline ``trajectory`` or that :func:`write_trajectory_csv` writes as CSV. The
velocity columns are exact, so the Hermite interpolant the case builds from them follows
the path to O(h⁴) in the sampling interval h.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np

__all__ = ["circular_turn", "write_trajectory_csv"]


def circular_turn(speed: float, radius: float, approach_time: float, duration: float,
                  sample_interval: float = 1.0, start=(0.0, 0.0, 0.0),
                  heading_deg: float = 0.0, direction: str = "left") -> dict[str, list[float]]:
    """A straight approach at ``speed`` [m/s] for ``approach_time`` [s], then a steady turn of
    ``radius`` [m] at the same speed until ``duration`` [s] (seed 004 §2.3.2: Chapman's
    turning manoeuvres, 20 s straight then the turn).

    The path lies in the horizontal plane z = start[2]; ``heading_deg`` is the approach
    direction measured from +x towards +y; ``direction`` 'left' turns towards +y of the
    heading (anticlockwise seen from above), 'right' the other way.
    """
    if speed <= 0 or radius <= 0 or approach_time < 0 or duration <= 0:
        raise ValueError("speed, radius and duration must be > 0 and approach_time >= 0")
    if sample_interval <= 0:
        raise ValueError("sample_interval must be > 0")
    if direction not in ("left", "right"):
        raise ValueError("direction must be 'left' or 'right'")
    sign = 1.0 if direction == "left" else -1.0
    h = math.radians(heading_deg)
    ex = np.array([math.cos(h), math.sin(h)])  # heading
    ey = sign * np.array([-math.sin(h), math.cos(h)])  # towards the turn centre
    n = max(2, int(math.ceil(duration / sample_interval)) + 1)
    t = np.linspace(0.0, duration, n)
    if 0.0 < approach_time < duration and approach_time not in t:
        t = np.sort(np.append(t, approach_time))  # a knot where the curvature starts
    s = np.maximum(t - approach_time, 0.0)  # time in the turn
    phi = speed * s / radius  # turned angle
    along = speed * np.minimum(t, approach_time) + radius * np.sin(phi)
    across = radius * (1.0 - np.cos(phi))
    v_along = speed * np.where(t <= approach_time, 1.0, np.cos(phi))
    v_across = speed * np.where(t <= approach_time, 0.0, np.sin(phi))
    xy = np.asarray(start[:2], dtype=float) + np.outer(along, ex) + np.outer(across, ey)
    vxy = np.outer(v_along, ex) + np.outer(v_across, ey)
    return {"t": t.tolist(), "x": xy[:, 0].tolist(), "y": xy[:, 1].tolist(),
            "z": [float(start[2])] * t.size, "vx": vxy[:, 0].tolist(),
            "vy": vxy[:, 1].tolist(), "vz": [0.0] * t.size}


def write_trajectory_csv(table: dict[str, list[float]], path: str | Path) -> Path:
    """Write a trajectory table (``{t, x, y, z[, vx, vy, vz, roll_deg]}``: lists, SI units)
    as the CSV a case's ``trajectory`` key reads, creating the folder; values are written
    with ``repr`` so that they read back exactly. Returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    cols = list(table)
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(cols)
        for row in zip(*(table[c] for c in cols), strict=True):
            w.writerow([repr(float(v)) for v in row])
    return path
