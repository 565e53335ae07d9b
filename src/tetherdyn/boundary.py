"""Prescribed end motion: trajectories read from CSV or inline tables, as piecewise cubics.

A trajectory is stored as a piecewise polynomial (breakpoints + cubic coefficients per
interval and axis) so that compiled kernels can evaluate position, velocity and
acceleration at any time with no Python in the loop. Before the first row the first
position is held; after the last row the last position is held at rest (spec).
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ._jit import inline_kernel, kernel

__all__ = ["Trajectory", "load_trajectory", "velocity_table", "fixed_point", "eval_motion"]

_REQUIRED = ("t", "x", "y", "z")
_VELOCITY = ("vx", "vy", "vz")
_OPTIONAL = (*_VELOCITY, "roll_deg")


@dataclass(frozen=True)
class Trajectory:
    """Piecewise-cubic motion of a point.

    breaks: (m+1,) times [s]; coeffs: (m, 3, 4) with position on [t_k, t_k+1] equal to
    ``sum_j coeffs[k, axis, j] * (t - t_k)**(3 - j)`` [m]. ``roll`` [rad] is kept for models
    that use the end's roll angle (None when not given).
    """

    breaks: np.ndarray
    coeffs: np.ndarray
    roll: np.ndarray | None = None

    def evaluate(self, t: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Position [m], velocity [m/s] and acceleration [m/s^2] at time t [s]."""
        out = np.zeros((3, 3))
        eval_motion(self.breaks, self.coeffs, t, out)
        return out[0].copy(), out[1].copy(), out[2].copy()


def fixed_point(position) -> Trajectory:
    """A point at rest for all time."""
    c = np.zeros((1, 3, 4))
    c[0, :, 3] = np.asarray(position, dtype=float)
    return Trajectory(np.array([0.0, 1.0]), c)


@kernel
def eval_motion(breaks, coeffs, t, out):
    """Fill out[0] = position, out[1] = velocity, out[2] = acceleration at time t."""
    m = coeffs.shape[0]
    if t > breaks[m]:
        # held at the last position, at rest (at the last knot itself: the last segment's
        # end, so a step ending there sees the motion's own velocity)
        h = breaks[m] - breaks[m - 1]
        for a in range(3):
            c = coeffs[m - 1, a]
            out[0, a] = ((c[0] * h + c[1]) * h + c[2]) * h + c[3]
            out[1, a] = 0.0
            out[2, a] = 0.0
        return
    if t < breaks[0]:
        for a in range(3):
            out[0, a] = coeffs[0, a, 3]
            out[1, a] = 0.0
            out[2, a] = 0.0
        return
    lo = 0
    hi = m
    while hi - lo > 1:  # binary search for the interval holding t
        mid = (lo + hi) // 2
        if breaks[mid] <= t:
            lo = mid
        else:
            hi = mid
    h = t - breaks[lo]
    for a in range(3):
        c = coeffs[lo, a]
        out[0, a] = ((c[0] * h + c[1]) * h + c[2]) * h + c[3]
        out[1, a] = (3.0 * c[0] * h + 2.0 * c[1]) * h + c[2]
        out[2, a] = 6.0 * c[0] * h + 2.0 * c[1]


def _read_csv(path: Path) -> dict[str, list[float]]:
    if not path.is_file():
        raise ValueError(f"file '{path}' not found")
    with path.open(newline="") as fh:
        reader = csv.reader(fh)
        try:
            header = [h.strip() for h in next(reader)]
        except StopIteration:
            raise ValueError(f"file '{path}' is empty") from None
        columns: dict[str, list[float]] = {h: [] for h in header}
        for lineno, row in enumerate(reader, start=2):
            if not row or all(not c.strip() for c in row):
                continue
            if len(row) != len(header):
                raise ValueError(
                    f"{path.name} line {lineno}: {len(row)} values, header has {len(header)}"
                )
            for h, cell in zip(header, row, strict=True):
                try:
                    columns[h].append(float(cell))
                except ValueError:
                    raise ValueError(
                        f"{path.name} line {lineno}: column '{h}' is not a number: {cell!r}"
                    ) from None
    return columns


def velocity_table(t: np.ndarray, v: np.ndarray, origin) -> np.ndarray:
    """Cubic coefficients (m, 3, 4) of the position whose velocity is piecewise linear in time
    through the table rows (constant acceleration between rows), starting at ``origin`` [m]
    at t[0]: the exact integral, so position and velocity stay consistent (seed 004 §2.3:
    towpoint tables given as speeds and accelerations)."""
    dt = np.diff(t)
    acc = np.diff(v, axis=0) / dt[:, None]
    pos = np.empty_like(v)
    pos[0] = np.asarray(origin, dtype=float)
    pos[1:] = pos[0] + np.cumsum(v[:-1] * dt[:, None] + 0.5 * acc * dt[:, None] ** 2, axis=0)
    c = np.zeros((t.size - 1, 3, 4))
    c[:, :, 1] = 0.5 * acc
    c[:, :, 2] = v[:-1]
    c[:, :, 3] = pos[:-1]
    return c


def load_trajectory(
    spec: str | dict, interpolation: str | None = "cubic", base_dir: Path | None = None,
    origin=None,
) -> Trajectory:
    """Build a :class:`Trajectory` from a CSV path or an inline ``{t: [...], x: [...], ...}``.

    Position tables: columns t, x, y, z; vx, vy, vz (all three) make the position a cubic
    Hermite interpolant that matches both the positions and the velocities; otherwise
    ``cubic`` (the default) is the natural C2 spline (zero acceleration at both ends) and
    ``linear`` the piecewise-linear interpolant.

    Velocity tables: columns t, vx, vy, vz without x, y, z: the velocity is piecewise linear
    (``interpolation`` must be None or ``linear``) and is integrated exactly from ``origin``
    (the end's ``position``, default the origin). Raises ValueError naming the problem.
    """
    if isinstance(spec, str):
        path = Path(spec)
        if not path.is_absolute() and base_dir is not None:
            path = base_dir / path
        cols = _read_csv(path)
    elif isinstance(spec, dict):
        cols = {}
        for k, v in spec.items():
            if not isinstance(v, list | tuple):
                raise ValueError(f"column '{k}' must be a list of numbers")
            try:
                cols[k] = [float(x) for x in v]
            except (TypeError, ValueError):
                raise ValueError(f"column '{k}' must be a list of numbers") from None
    else:
        raise ValueError("must be a CSV file path or a table {t: [...], x: [...], ...}")
    by_velocity = not any(c in cols for c in "xyz") and all(c in cols for c in _VELOCITY)
    required = ("t", *_VELOCITY) if by_velocity else _REQUIRED
    missing = [c for c in required if c not in cols]
    if missing:
        raise ValueError(f"missing column(s) {', '.join(missing)} (need t, x, y, z; or t, vx, "
                         "vy, vz for a velocity table)")
    if origin is not None and not by_velocity:
        raise ValueError("a position table (x, y, z columns) sets the position itself: give "
                         "the end's position only with a velocity table (t, vx, vy, vz)")
    if by_velocity and interpolation == "cubic":
        raise ValueError("a velocity table (t, vx, vy, vz) is piecewise linear in velocity: "
                         "use interpolation 'linear' or leave it out")
    unknown = [c for c in cols if c not in _REQUIRED + _OPTIONAL]
    if unknown:
        raise ValueError(f"unknown column(s) {', '.join(unknown)}")
    lengths = {len(v) for v in cols.values()}
    if len(lengths) != 1:
        raise ValueError("all columns must have the same number of rows")
    n = lengths.pop()
    if n < 2:
        raise ValueError("needs at least 2 rows")
    arr = {k: np.asarray(v, dtype=float) for k, v in cols.items()}
    for k, v in arr.items():
        if not np.all(np.isfinite(v)):
            row = int(np.argmax(~np.isfinite(v)))
            raise ValueError(f"column '{k}' row {row + 1}: not a finite number")
    t = arr["t"]
    if np.any(np.diff(t) <= 0):
        row = int(np.argmax(np.diff(t) <= 0)) + 2
        raise ValueError(f"column 't' must increase strictly (row {row})")
    roll = np.deg2rad(arr["roll_deg"]) if "roll_deg" in arr else None
    if by_velocity:
        v = np.column_stack([arr[c] for c in _VELOCITY])
        coeffs = velocity_table(t, v, (0.0, 0.0, 0.0) if origin is None else origin)
        return Trajectory(np.ascontiguousarray(t), np.ascontiguousarray(coeffs), roll)
    interpolation = interpolation or "cubic"
    xyz = np.column_stack([arr["x"], arr["y"], arr["z"]])
    has_v = [c in arr for c in ("vx", "vy", "vz")]
    if any(has_v) and not all(has_v):
        raise ValueError("give all of vx, vy, vz or none")
    if all(has_v):
        if interpolation == "linear":
            raise ValueError("velocity columns need interpolation 'cubic' (Hermite)")
        v = np.column_stack([arr["vx"], arr["vy"], arr["vz"]])
        c = _hermite_coefficients(t, xyz, v)  # (4, m, 3)
    elif interpolation == "cubic" and n >= 3:
        c = _hermite_coefficients(t, xyz, _natural_spline_slopes(t, xyz))
    else:
        slope = np.diff(xyz, axis=0) / np.diff(t)[:, None]
        c = np.zeros((4, n - 1, 3))
        c[2] = slope
        c[3] = xyz[:-1]
    coeffs = np.ascontiguousarray(np.transpose(c, (1, 2, 0)))
    return Trajectory(np.ascontiguousarray(t), coeffs, roll)


def _hermite_coefficients(t: np.ndarray, y: np.ndarray, dydt: np.ndarray) -> np.ndarray:
    """Piecewise-cubic coefficients (4, m, 3), highest power first, of the cubic Hermite
    interpolant through (t, y) with slopes ``dydt``: scipy.interpolate.CubicHermiteSpline's
    ``c``, with its arithmetic (bit-identical), without importing scipy.interpolate (~0.35
    s of a process, issue 22)."""
    dt = np.diff(t)[:, None]
    slope = np.diff(y, axis=0) / dt
    tt = (dydt[:-1] + dydt[1:] - 2 * slope) / dt
    return np.stack((tt / dt, (slope - dydt[:-1]) / dt - tt, dydt[:-1], y[:-1]))


def _natural_spline_slopes(t: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Slopes at the knots (n, 3) of the natural cubic spline through (t, y), n >= 3 (zero
    second derivative at both ends): the tridiagonal system of
    scipy.interpolate.CubicSpline(bc_type="natural"), solved as it does (LAPACK gtsv, which
    its scipy.linalg.solve_banded calls), by :func:`_gtsv` so that a run need not import
    scipy.linalg (~0.15 s of a process, issue 22)."""
    n = t.size
    dx = np.diff(t)
    dxr = dx[:, None]
    slope = np.diff(y, axis=0) / dxr
    lower, diag, upper = np.zeros(n - 1), np.zeros(n), np.zeros(n - 1)
    b = np.empty_like(y)
    diag[1:-1] = 2 * (dx[:-1] + dx[1:])
    upper[1:] = dx[:-1]
    lower[:-1] = dx[1:]
    b[1:-1] = 3 * (dxr[1:] * slope[:-1] + dxr[:-1] * slope[1:])
    # natural ends: second derivative 0, bc_type (2, 0) in CubicSpline's terms
    diag[0] = 2 * dx[0]
    upper[0] = dx[0]
    b[0] = 3 * (y[1] - y[0])
    diag[-1] = 2 * dx[-1]
    lower[-1] = dx[-1]
    b[-1] = 3 * (y[-1] - y[-2])
    return _gtsv(lower, diag, upper, b)


def _gtsv(dl: np.ndarray, d: np.ndarray, du: np.ndarray, b: np.ndarray) -> np.ndarray:
    """x with A x = b for the tridiagonal A (sub-, main and super-diagonal ``dl``, ``d``,
    ``du``; ``b`` of shape (n, k)): LAPACK dgtsv's Gaussian elimination with partial
    pivoting and its back substitution, operation for operation (reference LAPACK 3.x
    dgtsv.f), so the result is the one scipy.linalg.solve_banded((1, 1), ...) returns.
    The arguments are overwritten; raises ValueError for a singular A."""
    n = d.size
    dl, d, du, b = [float(v) for v in dl], [float(v) for v in d], [float(v) for v in du], b
    du2 = [0.0] * max(n - 2, 0)  # the second superdiagonal the row interchanges fill in
    for i in range(n - 1):
        if abs(d[i]) >= abs(dl[i]):  # no row interchange
            if d[i] == 0.0:
                raise ValueError(f"singular tridiagonal system (pivot {i + 1})")
            fact = dl[i] / d[i]
            d[i + 1] = d[i + 1] - fact * du[i]
            b[i + 1] = b[i + 1] - fact * b[i]
        else:  # interchange rows i and i + 1
            fact = d[i] / dl[i]
            d[i] = dl[i]
            temp = d[i + 1]
            d[i + 1] = du[i] - fact * temp
            if i < n - 2:
                du2[i] = du[i + 1]
                du[i + 1] = -fact * du2[i]
            du[i] = temp
            temp = b[i].copy()
            b[i] = b[i + 1]
            b[i + 1] = temp - fact * b[i + 1]
    if d[n - 1] == 0.0:
        raise ValueError(f"singular tridiagonal system (pivot {n})")
    b[n - 1] = b[n - 1] / d[n - 1]
    if n > 1:
        b[n - 2] = (b[n - 2] - du[n - 2] * b[n - 1]) / d[n - 2]
    for i in range(n - 3, -1, -1):
        b[i] = (b[i] - du[i] * b[i + 1] - du2[i] * b[i + 2]) / d[i]
    return b


@inline_kernel
def free_end_load(t, ramp_time, fx, fy, fz, mass, drag_area, rho, gx, gy, gz, ux, uy, uz,
                  vx, vy, vz, out):
    """Load [N] on a free end, into out[0:3]: the applied force (fx, fy, fz), ramped from 0
    over ``ramp_time`` [s] when > 0 (seed 000 §5.3), the payload's net weight ``mass · g``
    and its quadratic drag on ``drag_area`` [m²] from its velocity v relative to the current
    u. ``mass`` [kg] is the weight mass: a towed body's mass less its displaced mass ρV
    (buoyancy −ρVg, seed 004 §2.3.2), so it may be negative; its inertia (with added mass)
    is the model's business.
    """
    ramp = 1.0
    if ramp_time > 0.0 and t < ramp_time:
        ramp = t / ramp_time
    out[0] = ramp * fx + mass * gx
    out[1] = ramp * fy + mass * gy
    out[2] = ramp * fz + mass * gz
    if drag_area > 0.0 and rho > 0.0:
        rx = vx - ux
        ry = vy - uy
        rz = vz - uz
        f = -0.5 * rho * drag_area * math.sqrt(rx * rx + ry * ry + rz * rz)
        out[0] += f * rx
        out[1] += f * ry
        out[2] += f * rz


@inline_kernel
def end_motion_at(w, breaks0, coeffs0, breaks1, coeffs1, t, out):
    """Motion of held end w (0: start, 1: end) at time t into out (as :func:`eval_motion`)."""
    if w == 0:
        eval_motion(breaks0, coeffs0, t, out)
    else:
        eval_motion(breaks1, coeffs1, t, out)
