"""The C² cubic spline through the nodes — seed 004 §3.2.2 eqs. (3.11)–(3.12) and (4.15).

Element e (0-based) joins nodes e and e+1 with unstretched length ``L[e]``. On it the
tether's centre line is the linear interpolant of the node positions plus the cubic
correction that interpolates the nodal "curvature vectors" ``r''`` (seed 004 eq. 3.11):

    r(s) = φ1 r_e + φ2 r''_e + φ3 r_{e+1} + φ4 r''_{e+1},
    φ1 = (s_{e+1} − s)/L,  φ3 = 1 − φ1,  φ2 = L²(φ1³ − φ1)/6,  φ4 = L²(φ3³ − φ3)/6.

The ``r''`` follow from C¹ continuity at the interior nodes plus one condition per end
(eq. 3.12): a *free* or spherical end has ``r'' = 0``; a *clamped* end has a prescribed
unit tangent ``r'``. The tridiagonal matrix uses unstretched lengths (seed 004 §3.2.2.a),
so it is the same for x, y and z and is factored once: every evaluation then costs one
O(N) forward/back substitution with three right-hand sides.
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel

__all__ = ["FREE", "CLAMPED", "spline_factor", "spline_refactor", "spline_curvatures",
           "spline_end_tangents", "curvature_integral"]

#: end conditions of the spline (seed 004 eq. 3.12)
FREE, CLAMPED = 0, 1


def spline_factor(L: np.ndarray, bc0: int, bc1: int) -> np.ndarray:
    """Thomas factorisation of the eq.-(3.12) matrix: an (n, 3) array for ``spline_curvatures``.

    Columns: sub-diagonal a_i, modified super-diagonal c'_i and 1/(b_i − a_i c'_{i−1}).
    ``L``: unstretched element lengths [m] (N ≥ 1); ``bc0``/``bc1``: FREE or CLAMPED.
    """
    L = np.ascontiguousarray(L, dtype=float)
    fac = np.zeros((L.size + 1, 3))
    spline_refactor(L, bc0, bc1, fac)
    return fac


@kernel
def spline_refactor(L, bc0, bc1, fac):
    """:func:`spline_factor` into ``fac`` (rows 0 … L.size), compiled: for element lengths
    that change during a run (a winch element)."""
    N = L.size
    n = N + 1
    cp = 0.0
    for i in range(n):
        if 0 < i < N:  # interior nodes: elements i−1 and i meet at node i
            a, b, c = L[i - 1] / 6.0, (L[i - 1] + L[i]) / 3.0, L[i] / 6.0
        elif i == 0:
            a = 0.0
            b, c = (L[0] / 3.0, L[0] / 6.0) if bc0 == CLAMPED else (1.0, 0.0)
        else:
            c = 0.0
            a, b = (L[N - 1] / 6.0, L[N - 1] / 3.0) if bc1 == CLAMPED else (0.0, 1.0)
        denom = b - a * cp
        cp = c / denom
        fac[i, 0] = a
        fac[i, 1] = cp
        fac[i, 2] = 1.0 / denom


@kernel
def spline_curvatures(pos, L, fac, bc0, bc1, tangent0, tangent1, out):
    """Nodal curvature vectors r'' [1/m] of the spline through ``pos`` (n, 3) into ``out``.

    ``tangent0``/``tangent1``: the unit tangents of clamped ends (ignored at free ends),
    pointing along increasing arc length. seed 004 eq. (3.12), solved with ``fac``; the
    three axes share one sweep (3× faster than one sweep per axis, measured).
    """
    n = pos.shape[0]
    N = n - 1
    # forward sweep; the right-hand side is the change of chord slope at each node
    slope_x = (pos[1, 0] - pos[0, 0]) / L[0]
    slope_y = (pos[1, 1] - pos[0, 1]) / L[0]
    slope_z = (pos[1, 2] - pos[0, 2]) / L[0]
    if bc0 == 1:
        px = (slope_x - tangent0[0]) * fac[0, 2]
        py = (slope_y - tangent0[1]) * fac[0, 2]
        pz = (slope_z - tangent0[2]) * fac[0, 2]
    else:
        px = py = pz = 0.0
    out[0, 0] = px
    out[0, 1] = py
    out[0, 2] = pz
    for i in range(1, n):
        if i < N:
            nx = (pos[i + 1, 0] - pos[i, 0]) / L[i]
            ny = (pos[i + 1, 1] - pos[i, 1]) / L[i]
            nz = (pos[i + 1, 2] - pos[i, 2]) / L[i]
            dx = nx - slope_x
            dy = ny - slope_y
            dz = nz - slope_z
            slope_x = nx
            slope_y = ny
            slope_z = nz
        elif bc1 == 1:
            dx = tangent1[0] - slope_x
            dy = tangent1[1] - slope_y
            dz = tangent1[2] - slope_z
        else:
            dx = dy = dz = 0.0
        a = fac[i, 0]
        f = fac[i, 2]
        px = (dx - a * px) * f
        py = (dy - a * py) * f
        pz = (dz - a * pz) * f
        out[i, 0] = px
        out[i, 1] = py
        out[i, 2] = pz
    for i in range(n - 2, -1, -1):
        c = fac[i, 1]
        out[i, 0] -= c * out[i + 1, 0]
        out[i, 1] -= c * out[i + 1, 1]
        out[i, 2] -= c * out[i + 1, 2]


@kernel
def spline_end_tangents(pos, r2, L, e, out):
    """The spline's tangent r' at both ends of element e: out[0] at node e, out[1] at e+1.

    seed 004 eq. (3.11) differentiated: r'(s_e) = Δr/L − L r''_e/3 − L r''_{e+1}/6 and
    r'(s_{e+1}) = Δr/L + L r''_e/6 + L r''_{e+1}/3 (not normalised).
    """
    h = L[e]
    for k in range(3):
        chord = (pos[e + 1, k] - pos[e, k]) / h
        out[0, k] = chord - h * (2.0 * r2[e, k] + r2[e + 1, k]) / 6.0
        out[1, k] = chord + h * (r2[e, k] + 2.0 * r2[e + 1, k]) / 6.0


@kernel
def curvature_integral(r2, L):
    """∫|r''|² ds [1/m] over the spline: exact for r'' linear on each element,
    Σ L_e (|a|² + a·b + |b|²) / 3 with a, b its end values (bending energy ½ EI × this)."""
    total = 0.0
    for e in range(L.size):
        s = 0.0
        for k in range(3):
            s += r2[e, k] * r2[e, k] + r2[e, k] * r2[e + 1, k] + r2[e + 1, k] * r2[e + 1, k]
        total += L[e] * s
    return total / 3.0
