"""Compiled generalized-α (Chung & Hulbert 1993) for a system of lines joined at points
(issue 19; docs/systems.md, "Generalized-α").

The step is implicit.py's template (seed 004 §5.4.2, eqs. (5.3)–(5.7); its parameters,
Newton with the Jacobian rebuild at the iterate and the halving line search, step control
and banded LU: implicit._newton, implicit.ga_chunk), bound with this module's step
helpers (implicit.STEP_ROLES): the system's own state layout, trial update and residual,
and a linear solve that follows the system's coupling instead of one band:

- **Residual in acceleration form.** A system's rhs returns q̈ = M(q)⁻¹ F(t, q, q̇) per
  coordinate (per node a 3x3 solve, per free point the 3x3 solve over the point and its
  line ends: models/system.py), so the generalized-α balance M(q_α) ((1 − α_m) a_{n+1} +
  α_m a_n) = F(t_α, q_α, v_α) (eq. 5.5, M at q_α as implicit.py) is, multiplied by M⁻¹,

      g(a) = (1 − α_m) a_{n+1} + α_m a_n − q̈(t_α, q_α, v_α) = 0

  on the unknown coordinates: every line node not held and every free point. A line end
  on a free point copies its point (``enforce`` / the rhs's sync), so its acceleration is
  the point's; held ends take their motion from ``enforce``.
- **Jacobian: bordered band.** ∂g/∂a = (1 − α_m) I − (1 − α_f)(β h² ∂q̈/∂q + γ h ∂q̈/∂q̇)
  is block banded per line (a node couples to its neighbours within the line's band,
  models/base.py) and couples a line to a free point only near the line's end on it:

      [A  B] [a_L]   line coordinates (A: one band per line, block diagonal)
      [C  D] [a_P]   free points' coordinates (3 per point)

  Entries by coloured finite differences (Curtis–Powell–Reid: columns that share no row
  are perturbed together, one rhs evaluation per colour; the colouring is computed once
  from the sparsity pattern). A is factorised line by line (implicit.band_lu), then the
  Schur complement S = D − C A⁻¹ B (3P x 3P, dense, small: A⁻¹ B is one band solve per
  line end on a point and coordinate) is factorised by the same LU with a full band.
  Solve: a_L' = A⁻¹ r_L, S a_P = r_P − C a_L', a_L = a_L' − A⁻¹ B a_P. Cost per
  Jacobian and per solve linear in the nodes (plus the points' dense S); no allocation.

Fixed and coupled bodies enter through their line ends (fixed ends, or ends that follow
the body: neither is an unknown). A free body is a border unit of 6 unknowns: its
reference point's acceleration and its angular acceleration ω̇ (body axes, rigid_body.py's
rhs); its rotation is updated on the rotation group (q_{n+1} = q_n ⊗ exp(Θ/2) with Θ =
h ω_n + h² ((½ − β) ω̇_n + β ω̇_{n+1}), the Lie-group generalized-α of Brüls & Cardona 2010
with eq. (5.3)'s weights; ω by eq. (5.4)), the α_f-weighted quaternion renormalised; the
line ends on it follow it through ``enforce``. higher_order lines are refused
(models/system_bodies.BodySystem.second_order_layout).

``state`` and ``params`` are implicit.py's (its S_* and P_* indices); the residual and
its norms are in accelerations [m/s^2].
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from .._jit import loop
from .implicit import (
    FD_REL,
    P_AF,
    P_AM,
    P_ATOL,
    P_BETA,
    P_GAMMA,
    P_RTOL,
    Workspace,
    band_lu,
    band_solve,
    compile_step,
)

__all__ = ["SystemWorkspace", "compiled_system_ga_chunk", "jacobian_pattern"]

#: where a Jacobian entry goes (``edst``): the lines' band, C, B, D
TO_A, TO_C, TO_B, TO_D = 0, 1, 2, 3
#: the largest border unit (a free body: 3 translations, 3 rotations)
MU = 6

#: the constant arrays of a system's Jacobian (:func:`jacobian_pattern`) and its work
#: arrays (:class:`SystemWorkspace`)
SystemJacobian = namedtuple("SystemJacobian", [
    # layout (models/system_bodies.SecondOrderLayout): y indices, held, master, rotation
    # coordinates, border units (first coordinate, size), free bodies (first state, first
    # rotation coordinate)
    "qi", "vi", "held", "master", "rot", "units", "bodies",
    # line blocks (K + 1 bounds in coordinates), sizes: [band, n lines' coordinates,
    # n points' coordinates, window width]
    "blocks", "sizes",
    # colours: columns of colour c are colcols[colptr[c]:colptr[c + 1]]
    "colptr", "colcols",
    # entries of column j: erow, edst, eidx[cptr[j]:cptr[j + 1]] (row, TO_*, flat index)
    "cptr", "erow", "edst", "eidx",
    # line ends on free points and bodies: (line, first coordinate of its end node, unit),
    # their row window's first coordinate and width, their A⁻¹B columns' offset in Z;
    # pairs (e', e) of ends on the same line
    "ends", "wlo", "wn", "zo", "pairs",
    # work: A's band LU and pivots, B (E, width, MU) and C (E, MU, width) flat, D (m, m)
    # flat, S's LU (full band) and pivots, A⁻¹B
    "W", "piv", "Bw", "Cw", "D", "Sw", "spiv", "Z",
])


def jacobian_pattern(layout) -> tuple:
    """The constant part of :data:`SystemJacobian` from a system's SecondOrderLayout:
    which rows each unknown column's perturbation changes, where each entry is stored,
    and a greedy colouring of the columns (columns sharing a row get different colours).
    Python, once per model; linear in the nodes."""
    qi, vi, held, master, blocks, bands, ends, units, bodies, rot = layout
    nq = qi.size
    K = blocks.size - 1
    nl = int(blocks[-1])
    m = nq - nl
    b = int(bands.max()) if K else 0
    width = 3 + 2 * b
    line_of = np.full(nq, -1, dtype=np.int64)
    for k in range(K):
        line_of[blocks[k]:blocks[k + 1]] = k
    unit_of = np.full(nq, -1, dtype=np.int64)
    for u, (j0, size) in enumerate(units):
        unit_of[j0:j0 + size] = u
    E = ends.shape[0]
    wlo = np.zeros(E, dtype=np.int64)
    wn = np.zeros(E, dtype=np.int64)
    for e, (k, ec, _) in enumerate(ends):
        lo, hi = max(blocks[k], ec - bands[k]), min(blocks[k + 1], ec + 3 + bands[k])
        wlo[e], wn[e] = lo, hi - lo
    # per line coordinate: the ends (and their units) whose window holds it
    in_window: dict[int, list[int]] = {}
    for e in range(E):
        for j in range(wlo[e], wlo[e] + wn[e]):
            in_window.setdefault(j, []).append(e)
    for j, es in in_window.items():
        us = [int(ends[e, 2]) for e in es]
        if len(set(us)) != len(us):
            k = line_of[j]
            raise ValueError(f"generalized_alpha: line {k}'s two ends on the same body are "
                             f"within its band of each other: give the line more elements")
    unknown = held == 0
    entries: list[list[tuple[int, int, int]]] = [[] for _ in range(nq)]
    wc = 3 * b + 1
    for j in range(nq):
        if not unknown[j]:
            continue
        rows = entries[j]
        if j < nl:
            k = line_of[j]
            for i in range(max(blocks[k], j - bands[k]), min(blocks[k + 1], j + bands[k] + 1)):
                if unknown[i]:
                    rows.append((i, TO_A, i * wc + j - i + b))
            for e in in_window.get(j, []):
                j0, size = units[ends[e, 2]]
                for c in range(size):
                    rows.append((j0 + c, TO_C, (MU * e + c) * width + j - wlo[e]))
        else:
            u = unit_of[j]
            c = j - units[u, 0]
            touched = {int(u)}
            for e in range(E):
                if ends[e, 2] != u:
                    continue
                for i in range(wlo[e], wlo[e] + wn[e]):
                    if unknown[i]:
                        rows.append((i, TO_B, (e * width + i - wlo[e]) * MU + c))
                # another unit whose end is within this end's window (a short line)
                for e2 in range(E):
                    if e2 != e and ends[e2, 0] == ends[e, 0] and \
                            wlo[e] <= ends[e2, 1] < wlo[e] + wn[e]:
                        touched.add(int(ends[e2, 2]))
            for v in sorted(touched):
                j0, size = units[v]
                for c2 in range(size):
                    rows.append((j0 + c2, TO_D, (j0 + c2 - nl) * m + j - nl))
    # colouring: greedy, columns in order; a column's colour differs from those of every
    # column sharing one of its rows
    by_row: dict[int, list[int]] = {}
    for j in range(nq):
        for i, _, _ in entries[j]:
            by_row.setdefault(i, []).append(j)
    colour = np.full(nq, -1, dtype=np.int64)
    for j in range(nq):
        if not entries[j]:
            continue
        taken = {colour[j2] for i, _, _ in entries[j] for j2 in by_row[i] if colour[j2] >= 0}
        c = 0
        while c in taken:
            c += 1
        colour[j] = c
    ncol = int(colour.max()) + 1 if nq else 0
    colcols = np.concatenate([np.flatnonzero(colour == c) for c in range(ncol)] or
                             [np.zeros(0, dtype=np.int64)]).astype(np.int64)
    colptr = np.concatenate([[0], np.cumsum([np.count_nonzero(colour == c)
                                             for c in range(ncol)])]).astype(np.int64)
    cptr = np.concatenate([[0], np.cumsum([len(r) for r in entries])]).astype(np.int64)
    flat = [x for r in entries for x in r]
    erow, edst, eidx = (np.array([x[f] for x in flat], dtype=np.int64) for f in range(3))
    zo = np.zeros(E, dtype=np.int64)
    size = 0
    for e in range(E):
        k = ends[e, 0]
        zo[e] = size
        size += int(units[ends[e, 2], 1]) * int(blocks[k + 1] - blocks[k])
    pairs = np.array([(e2, e) for e2 in range(E) for e in range(E)
                      if ends[e2, 0] == ends[e, 0]], dtype=np.int64).reshape(-1, 2)
    sizes = np.array([b, nl, m, width], dtype=np.int64)
    return (qi, vi, held, master, rot, units, bodies, blocks, sizes, colptr, colcols, cptr,
            erow, edst, eidx, np.ascontiguousarray(ends), wlo, wn, zo, pairs, size)


# -- the step ---------------------------------------------------------------------------
# implicit.py's template (_newton, ga_chunk) with this layout's step helpers
# (implicit.STEP_ROLES), bound per kernel set by compiled_system_ga_chunk; the system's
# kernels by the global names below. F, Fp of the template hold the system's rhs (q̇, q̈
# per state) at ya.
rhs = enforce = remesh = check = None
KERNEL_ROLES = ("rhs", "enforce", "remesh", "check")


@loop
def _predict(data, t, h, J, y, a, an):
    """an = a (held coordinates and the line ends on points: enforce, _slaves)."""
    for i in range(an.size):
        an[i] = a[i]


def _trial(data, t1, h, params, J, y, a, an, y1, ya):
    """y1 = state at t_{n+1} from the accelerations an (eqs. 5.3–5.4; held coordinates and
    the line ends on points then set by enforce), ya = α_f-weighted state (eq. 5.6)."""
    beta = params[P_BETA]
    gamma = params[P_GAMMA]
    af = params[P_AF]
    qi, vi = J.qi, J.vi
    for i in range(an.size):
        q = qi[i]
        v = vi[i]
        y1[v] = y[v] + h * ((1.0 - gamma) * a[i] + gamma * an[i])
        if J.rot[i] == 0:
            y1[q] = y[q] + h * y[v] + h * h * ((0.5 - beta) * a[i] + beta * an[i])
    for f in range(J.bodies.shape[0]):
        # a free body's rotation: Θ (body axes) from eq. (5.3) with ω and ω̇ for q̇ and q̈,
        # then q_{n+1} = q_n ⊗ exp(Θ / 2) (q̇ = ½ q ⊗ (0, ω), rigid_body.py)
        o = J.bodies[f, 0]
        j = J.bodies[f, 1]
        tx = h * y[vi[j]] + h * h * ((0.5 - beta) * a[j] + beta * an[j])
        ty = h * y[vi[j + 1]] + h * h * ((0.5 - beta) * a[j + 1] + beta * an[j + 1])
        tz = h * y[vi[j + 2]] + h * h * ((0.5 - beta) * a[j + 2] + beta * an[j + 2])
        th = math.sqrt(tx * tx + ty * ty + tz * tz)
        cw = math.cos(0.5 * th)
        sk = 0.5 if th < 1e-12 else math.sin(0.5 * th) / th
        ex, ey, ez = sk * tx, sk * ty, sk * tz
        qw, qx, qy, qz = y[o + 3], y[o + 4], y[o + 5], y[o + 6]
        y1[o + 3] = qw * cw - qx * ex - qy * ey - qz * ez
        y1[o + 4] = qw * ex + qx * cw + qy * ez - qz * ey
        y1[o + 5] = qw * ey - qx * ez + qy * cw + qz * ex
        y1[o + 6] = qw * ez + qx * ey - qy * ex + qz * cw
    enforce(t1, y1, data)
    for i in range(y.size):
        ya[i] = (1.0 - af) * y1[i] + af * y[i]
    for f in range(J.bodies.shape[0]):  # the weighted quaternion back to unit length
        o = J.bodies[f, 0]
        nrm = math.sqrt(ya[o + 3] ** 2 + ya[o + 4] ** 2 + ya[o + 5] ** 2 + ya[o + 6] ** 2)
        for c in range(3, 7):
            ya[o + c] /= nrm


def _residual(data, ta, am, J, a, an, ya, dy, r):
    """The rhs at (t_α, ya), then r = (1 − α_m) an + α_m a − q̈ (module docstring)."""
    rhs(ta, ya, dy, data)
    return _balance(J, am, a, an, dy, r)


@loop
def _balance(J, am, a, an, dy, r):
    """r = (1 − α_m) an + α_m a − q̈ on the unknowns (0 elsewhere); returns max |r|
    [m/s^2]."""
    big = 0.0
    for i in range(an.size):
        if J.held[i]:
            r[i] = 0.0
            continue
        r[i] = (1.0 - am) * an[i] + am * a[i] - dy[J.vi[i]]
        v = abs(r[i])
        if not v <= big:  # NaN propagates
            big = v
    return big


@loop
def _slaves(J, an):
    """Line ends on free points: their point's acceleration."""
    for i in range(an.size):
        mi = J.master[i]
        if mi >= 0:
            an[i] = an[mi]


@loop
def _factorise(J):
    """A's LU line by line, A⁻¹B per line end on a point, S = D − C A⁻¹ B and its LU.
    Returns -1 or the coordinate of a zero pivot."""
    b, nl, m, width = J.sizes[0], J.sizes[1], J.sizes[2], J.sizes[3]
    W, piv, blocks = J.W, J.piv, J.blocks
    for i in range(nl):
        if J.held[i]:
            W[i, b] = 1.0
    for k in range(blocks.size - 1):
        lo, hi = blocks[k], blocks[k + 1]
        bad = band_lu(W[lo:hi], b, piv[lo:hi])
        if bad >= 0:
            return lo + bad
    if m == 0:
        return -1
    Sw = J.Sw
    sb = m - 1
    for i in range(m):
        for k in range(3 * sb + 1):
            Sw[i, k] = 0.0
        for j in range(m):
            Sw[i, j - i + sb] = J.D[i * m + j]
    ends, wlo, wn, zo, Z, units = J.ends, J.wlo, J.wn, J.zo, J.Z, J.units
    for e in range(ends.shape[0]):
        k = ends[e, 0]
        lo, hi = blocks[k], blocks[k + 1]
        nk = hi - lo
        for c in range(units[ends[e, 2], 1]):
            z = Z[zo[e] + c * nk:zo[e] + (c + 1) * nk]
            for i in range(nk):
                z[i] = 0.0
            for r in range(wn[e]):
                z[wlo[e] - lo + r] = J.Bw[(e * width + r) * MU + c]
            band_solve(W[lo:hi], b, piv[lo:hi], z)
    for x in range(J.pairs.shape[0]):
        e2, e = J.pairs[x, 0], J.pairs[x, 1]
        k = ends[e, 0]
        lo = blocks[k]
        nk = blocks[k + 1] - lo
        u2, u = ends[e2, 2], ends[e, 2]
        for c2 in range(units[u2, 1]):
            for c in range(units[u, 1]):
                s = 0.0
                base = zo[e] + c * nk + wlo[e2] - lo
                for r in range(wn[e2]):
                    s += J.Cw[(MU * e2 + c2) * width + r] * Z[base + r]
                i = units[u2, 0] - nl + c2
                Sw[i, units[u, 0] - nl + c - i + sb] -= s
    bad = band_lu(Sw, sb, J.spiv)
    return -1 if bad < 0 else nl + bad


@loop
def _solve(J, x):
    """x ← J⁻¹ x with the factors of :func:`_factorise` (module docstring)."""
    b, nl, m, width = J.sizes[0], J.sizes[1], J.sizes[2], J.sizes[3]
    blocks = J.blocks
    for k in range(blocks.size - 1):
        lo, hi = blocks[k], blocks[k + 1]
        band_solve(J.W[lo:hi], b, J.piv[lo:hi], x[lo:hi])
    if m == 0:
        return
    ends, wlo, wn, zo, Z, units = J.ends, J.wlo, J.wn, J.zo, J.Z, J.units
    for e in range(ends.shape[0]):
        u = ends[e, 2]
        for c in range(units[u, 1]):
            s = 0.0
            for r in range(wn[e]):
                s += J.Cw[(MU * e + c) * width + r] * x[wlo[e] + r]
            x[units[u, 0] + c] -= s
    band_solve(J.Sw, m - 1, J.spiv, x[nl:nl + m])
    for e in range(ends.shape[0]):
        k = ends[e, 0]
        lo = blocks[k]
        nk = blocks[k + 1] - lo
        u = ends[e, 2]
        for c in range(units[u, 1]):
            xp = x[units[u, 0] + c]
            base = zo[e] + c * nk
            for i in range(nk):
                x[lo + i] -= Z[base + i] * xp


def _jacobian(data, t, h, params, J, y, a, an, dy0, y1, ya, ap, dyp):
    """The coloured finite-difference Jacobian of the residual in a (module docstring),
    factorised. Returns -1 or the coordinate of a zero pivot."""
    am = params[P_AM]
    af = params[P_AF]
    dq_da = (1.0 - af) * params[P_BETA] * h * h  # ∂q_α/∂a, eq. (5.3) with (5.6)
    ta = t + (1.0 - af) * h
    W = J.W
    wc = W.shape[1]
    for i in range(W.shape[0]):
        for k in range(wc):
            W[i, k] = 0.0
    for arr in (J.Bw, J.Cw, J.D):
        for i in range(arr.size):
            arr[i] = 0.0
    qi, vi = J.qi, J.vi
    for c in range(J.colptr.size - 1):
        for i in range(an.size):
            ap[i] = an[i]
        for x in range(J.colptr[c], J.colptr[c + 1]):
            j = J.colcols[x]
            ap[j] += FD_REL * (abs(y[qi[j]]) + 1.0) / dq_da
        _slaves(J, ap)
        _trial(data, t + h, h, params, J, y, a, ap, y1, ya)
        rhs(ta, ya, dyp, data)
        for x in range(J.colptr[c], J.colptr[c + 1]):
            j = J.colcols[x]
            inv = 1.0 / (ap[j] - an[j])
            for en in range(J.cptr[j], J.cptr[j + 1]):
                i = J.erow[en]
                v = -(dyp[vi[i]] - dy0[vi[i]]) * inv
                if i == j:
                    v += 1.0 - am
                f = J.eidx[en]
                dst = J.edst[en]
                if dst == TO_A:
                    W[f // wc, f % wc] = v
                elif dst == TO_C:
                    J.Cw[f] = v
                elif dst == TO_B:
                    J.Bw[f] = v
                else:
                    J.D[f] = v
    return _factorise(J)


@loop
def _increment_norm(h, params, J, y1, da):
    """RMS over the unknowns of β h² Δa and γ h Δa scaled by atol + rtol |y| (as
    implicit.py's)."""
    bh2 = params[P_BETA] * h * h
    gh = params[P_GAMMA] * h
    rtol = params[P_RTOL]
    atol = params[P_ATOL]
    s = 0.0
    cnt = 0
    for i in range(da.size):
        if J.held[i]:
            continue
        # a rotation coordinate's scale: 1 rad (its qi is a quaternion component)
        yq = 1.0 if J.rot[i] else abs(y1[J.qi[i]])
        eq = bh2 * da[i] / (atol + rtol * yq)
        ev = gh * da[i] / (atol + rtol * abs(y1[J.vi[i]]))
        s += eq * eq + ev * ev
        cnt += 2
    if cnt == 0:
        return 0.0
    return math.sqrt(s / cnt)


@loop
def _error_estimate(h, params, J, y, y1, a, an):
    """Local error of the position update (Zienkiewicz & Xie 1991), as implicit.py's."""
    c = abs(params[P_BETA] - 1.0 / 6.0) * h * h
    rtol = params[P_RTOL]
    atol = params[P_ATOL]
    s = 0.0
    cnt = 0
    for i in range(a.size):
        if J.held[i]:
            continue
        q = J.qi[i]
        sc = atol + rtol * (1.0 if J.rot[i] else max(abs(y[q]), abs(y1[q])))
        e = c * (an[i] - a[i]) / sc
        s += e * e
        cnt += 1
    if cnt == 0:
        return 0.0
    return math.sqrt(s / cnt)


@loop
def _update(J, an, dx, s):
    """an += s dx on the unknowns; the line ends on free points follow their point."""
    for i in range(an.size):
        if not J.held[i]:
            an[i] += s * dx[i]
    _slaves(J, an)


@loop
def _colours(J):
    """rhs evaluations per Jacobian: one per colour."""
    return J.colptr.size - 1


def _accelerations(data, t, J, y, a, work):
    """a = the rhs's q̈ per coordinate at (t, y) (work: n_state scratch)."""
    rhs(t, y, work, data)
    for i in range(a.size):
        a[i] = work[J.vi[i]]


def compiled_system_ga_chunk(model):
    """implicit.ga_chunk compiled with the system model's kernels and this layout's step
    helpers (implicit.compile_step; cached on disk). Every helper that calls the system's
    rhs is inlined into the loop, so that large kernel is finalised once (_jit.bind_kernels);
    _trial (enforce only) is compiled on its own."""
    return compile_step({r: getattr(model, r) for r in KERNEL_ROLES},
                        {"_predict": _predict, "_colours": _colours, "_solve": _solve,
                         "_update": _update, "_increment_norm": _increment_norm,
                         "_error_estimate": _error_estimate},
                        helpers=(_trial, _jacobian, _residual, _accelerations),
                        inline=("_jacobian", "_residual", "_accelerations", "_newton"))


class SystemWorkspace(Workspace):
    """The arrays of one system generalized-α run (allocated once, reused by every
    chunk): the Jacobian's pattern and work arrays (:data:`SystemJacobian`, the layout
    tuple ``L`` of implicit.py's template) and the step's vectors (``F``, ``Fp``: the rhs,
    n_state)."""

    def __init__(self, model, y: np.ndarray, params: np.ndarray) -> None:
        layout = model.second_order_layout()
        (qi, vi, held, master, rot, units, bodies, blocks, sizes, colptr, colcols, cptr, erow,
         edst, eidx, ends, wlo, wn, zo, pairs, zsize) = jacobian_pattern(layout)
        nq = qi.size
        if y.size != 2 * nq + bodies.shape[0]:  # a body's quaternion: 4 states, 3 rotations
            raise ValueError(f"model {model.name}: state size {y.size} is not 2 n_q + free "
                             f"bodies = {2 * nq + bodies.shape[0]}")
        b, nl, m, width = (int(x) for x in sizes)
        E = ends.shape[0]
        self.L = self.J = SystemJacobian(
            qi=qi, vi=vi, held=held, master=master, rot=rot, units=units, bodies=bodies,
            blocks=blocks, sizes=sizes, colptr=colptr,
            colcols=colcols, cptr=cptr, erow=erow, edst=edst, eidx=eidx, ends=ends, wlo=wlo,
            wn=wn, zo=zo, pairs=pairs, W=np.zeros((nl, 3 * b + 1)),
            piv=np.zeros(nl, dtype=np.int64), Bw=np.zeros(max(E * width * MU, 1)),
            Cw=np.zeros(max(E * width * MU, 1)), D=np.zeros(max(m * m, 1)),
            Sw=np.zeros((m, 3 * max(m - 1, 0) + 1)), spiv=np.zeros(m, dtype=np.int64),
            Z=np.zeros(max(zsize, 1)))
        self.colours = int(colptr.size - 1)
        self._vectors(nq, y.size, y.size, params)

    def stats(self) -> dict:
        """Counters of the run so far."""
        return {**super().stats(), "colours": self.colours}

    def carried(self) -> dict[str, np.ndarray]:
        """The arrays a restored run needs (the factorised Jacobian is reused)."""
        J = self.J
        return {"state": self.state, "a": self.a, "W": J.W, "piv": J.piv, "Bw": J.Bw,
                "Cw": J.Cw, "D": J.D, "Sw": J.Sw, "spiv": J.spiv, "Z": J.Z}

    def compiled(self, model):
        """implicit.ga_chunk with the system's kernels and this layout's step helpers."""
        return compiled_system_ga_chunk(model)
