"""Higher-order lumped-mass cable: the cubic-spline element of seed 004 ch. 4 (§4.2–4.5).

The centre line between nodes is the C² cubic spline of ``spline.py`` (seed 004 eq. 4.15):
the nodal curvature vectors r'' follow algebraically from the node positions (eq. 3.12),
so the state is the lumped-mass one, ``y = [r_0, …, r_N, ṙ_0, …, ṙ_N]`` (6 per node).
Every evaluation assembles, per element e between nodes a = e and b = e + 1 (unstretched
length L_u), the φ₁/φ₃-weighted Galerkin forces of the rod force
F = −EI r''' + λ r' + GJτ r'×r'' (digest §3–4):

- axial: λ = T + P − EI κ² (eq. 4.19; κ² from the element's shear, not the midpoint, so
  that the axial force along the chord is T + P), T = EA ε from the curved length of the spline
  (eq. 4.20, Gauss–Legendre instead of Romberg), P = C_ID ε̇ from the tangent-projected
  relative velocity; force λ (r_b − r_a)/L on a and the opposite on b, L the curved length;
- bending: (EI/L_u)(r''_a − r''_b) on a, the opposite on b (eq. 4.26), and the same with
  ``bending_damping`` and the curvature rate (the spline applied to the velocities);
- torsion: the closed form of (GJτ/L_u)∫r'×r'' ds on a, the opposite on b (eq. 4.28), with
  the uniform torque GJτ of the twist constraint (eq. 4.34): a given end torque, zero, or
  the total twist between two ends that hold their roll (parallel transport, see below);
- drag from each node's own spline tangent and velocity, distributed with the consistent
  ⅓/⅙ weights (eq. 4.22); weight and buoyancy half to each node;
- mass (L_u/2) M_I per node, M_I with the element-average added mass (eqs. 4.11, 4.23).

Held ends (fixed / prescribed) stay in the state and are overwritten with their motion, as
in lumped_mass. See docs/higher_order.md for the formulation and its reconstruction choices.
"""

from __future__ import annotations

import math
from collections import namedtuple
from typing import TYPE_CHECKING

import numpy as np

from .._jit import inline_kernel, kernel
from ..hydro import element_drag
from ..sea import BED, SEA_ACTIVE
from ..spline import (
    CLAMPED,
    FREE,
    curvature_integral,
    spline_curvatures,
    spline_end_tangents,
    spline_factor,
    spline_refactor,
)
from ..winch import (
    SCHEDULE,
    STEPPED,
    W_LNOM,
    W_MODE,
    W_ON,
    W_SIDE,
    W_SPLINE,
    active_nodes,
    control_segment,
    remesh_nodes,
    split_node_weight,
    winch_nodes,
    winch_outputs,
    winch_thrust,
    winch_update,
)
from .base import lumped_nodes, rk4_critical_step
from .nodes import (
    ADDED_N,
    ADDED_T,
    BEND_DAMP,
    CD_N,
    CD_T,
    DIAMETER,
    DRAG_LAW,
    EA,
    EI,
    GX,
    GY,
    GZ,
    HELD0,
    HELD1,
    L0,
    LDOT,
    MASS,
    MX,
    MY,
    MZ,
    N_ENDS,
    N_FLAGS,
    N_SCAL,
    RAMP,
    RHO,
    SEA_DATA_FIELDS,
    SEA_DATA_RUN_FIELDS,
    UX,
    UY,
    UZ,
    VOLUME,
    NodeRows,
    absurd_element,
    add_pair,
    base_flags,
    base_scal,
    end_motions,
    end_ramp,
    force_rows,
    free_end_row,
    held_rows,
    instant_results,
    load_state,
    mass_rows,
    node_rates,
    positions_from,
    rest_rates,
    sea_added_mass,
    sea_anchors,
    sea_instant_of,
    sea_loads,
    sea_outputs,
    shift_anchors,
    voigt_tension,
    with_spare_rows,
)
from .supports import COMMON_TETHER_KEYS, Option, Supports
from .twist import MEMORY, seed_b13_twist

if TYPE_CHECKING:
    from ..case import Case

#: 5-point Gauss–Legendre rule on [0, 1] for the curved element length (seed 004 eq. 4.20
#: uses Romberg to ~1e-6): relative error ≤ 3e-9 for |r''| L_u ≤ 0.5 and ≤ 2e-7 at 1 (random
#: nodal curvature vectors, measured against 80 points; tests/test_higher_order.py)
GL_X = (0.04691007703066800, 0.23076534494715845, 0.5, 0.76923465505284155,
        0.95308992296933200)
GL_W = (0.11846344252809454, 0.23931433524968324, 0.28444444444444444, 0.23931433524968324,
        0.11846344252809454)
N_GL = 5
#: substeps per element of the discrete parallel transport (even: Richardson with half)
N_SUB = 8
#: |Z × q| below which a tangent counts as vertical for the roll datum (ψ = 0 limit)
VERTICAL = 1e-9

# indices into the packed parameter arrays (module constants: frozen into the kernels): the
# node-row columns of nodes.py (elem and node: those alone) and these
GJ, LTOT, TORQUE, TORQUE_RAMP = range(N_SCAL, N_SCAL + 4)  # scal
CLAMP0, CLAMP1, TWIST, ROLL0, ROLL1 = range(N_FLAGS, N_FLAGS + 5)  # flags
# ends (row 0 start, row 1 end): a free end's applied moment, the roll angle, a clamp's unit
# tangent C and roll datum D
HAS_MOMENT, ROLL, CX, CY, CZ, DX, DY, DZ = range(N_ENDS, N_ENDS + 8)
#: twist modes: no torque anywhere (τ ≡ 0), a given end torque, both ends hold their roll
#: (Θ by parallel transport, or by App. B's estimator: ``model.twist: seed_b13``, twist.py)
TWIST_NONE, TWIST_TORQUE, TWIST_BOTH, TWIST_B13 = range(4)
#: roll sources of an end: none, a constant (fixed end's roll_deg), a trajectory column
ROLL_NONE, ROLL_CONST, ROLL_TRAJ = range(3)
# the twist work array: total twist Θ kept for continuity, τ, GJτ, Θ initialised (0/1)
TW_THETA, TW_TAU, TW_GJTAU, TW_INIT = range(4)

HigherOrderData = namedtuple(
    "HigherOrderData",
    [
        "n_nodes", "flags", "scal", "elem", "node", "ends", "fac",
        "breaks0", "coeffs0", "breaks1", "coeffs1", "rollt0", "rollv0", "rollt1", "rollv1",
        # work arrays (one model per run: never shared between runs)
        "pos", "vel", "force", "r2", "r2dot", "ntan", "hnode", "torsion", "length",
        "tension", "lam", "motion", "tmp", "tg", "tw", "zero",
        # winch (winch.py; W_ON = 0 without one): parameters, the payout schedule, the held
        # coordinates (changed by a split or merge), work: schedule motion (3, 3), payout
        # state [ℓ, ṡ, s̈, spare]
        "winch", "wbreaks", "wcoeffs", "held", "wmotion", "wstate",
        # the sea (sea.py; sea_par[SEA_ACTIVE] = 0 without one) and its work arrays
        *SEA_DATA_FIELDS,
    ],
)
#: what a run mutates (models/base.py: Model and data): host schedules, work arrays, the
#: tracked twist branch (tw), and the layout tables, held rows and spline factor a winch
#: split or merge rewrites
RUN_FIELDS = ("breaks0", "coeffs0", "breaks1", "coeffs1", "elem", "node", "fac", "pos", "vel",
              "force", "r2", "r2dot", "ntan", "hnode", "torsion", "length", "tension", "lam",
              "motion", "tmp", "tg", "tw", "wbreaks", "wcoeffs", "held", "wmotion", "wstate",
              *SEA_DATA_RUN_FIELDS)
# With a winch, ``n_nodes`` counts the state's node rows (capacity + the winch's pseudo-node,
# winch.py); the live count is read from the state and only the live rows of the work
# arrays are used. Without one both are the node count.


# -- geometry of the spline -------------------------------------------------------------


@inline_kernel
def _spline_slope_xyz(pos, r2, a, b, h, x):
    """r'(x) of the element between nodes a and b at x = (s − s_a)/h in [0, 1], returned as
    its three components (kept in registers: no store to a work array, issue 22).

    seed 004 eq. (4.15) differentiated: r' = Δr/h − (h/6)(3(1−x)² − 1) r''_a
    + (h/6)(3x² − 1) r''_b.
    """
    ca = -(h / 6.0) * (3.0 * (1.0 - x) * (1.0 - x) - 1.0)
    cb = (h / 6.0) * (3.0 * x * x - 1.0)
    return ((pos[b, 0] - pos[a, 0]) / h + ca * r2[a, 0] + cb * r2[b, 0],
            (pos[b, 1] - pos[a, 1]) / h + ca * r2[a, 1] + cb * r2[b, 1],
            (pos[b, 2] - pos[a, 2]) / h + ca * r2[a, 2] + cb * r2[b, 2])


@inline_kernel
def _spline_slope(pos, r2, a, b, h, x, out):
    """:func:`_spline_slope_xyz` into the 3-vector out."""
    out[0], out[1], out[2] = _spline_slope_xyz(pos, r2, a, b, h, x)


@inline_kernel
def _normalise(v):
    """Scale the 3-vector v to unit length in place (left as is when zero)."""
    m = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
    if m > 0.0:
        v[0] /= m
        v[1] /= m
        v[2] /= m


@kernel
def _spline_state(n, flags, ends, elem, fac, pos, r2, ntan, tg):
    """Nodal curvature vectors r'' (eq. 3.12) and unit spline tangents at the n live nodes."""
    spline_curvatures(pos[:n], elem[:n - 1, L0], fac, flags[CLAMP0], flags[CLAMP1],
                      ends[0, CX:CZ + 1], ends[1, CX:CZ + 1], r2[:n])
    for e in range(n - 1):
        spline_end_tangents(pos, r2, elem[:, L0], e, tg)
        for k in range(3):
            ntan[e, k] = tg[0, k]
        if e == n - 2:
            for k in range(3):
                ntan[n - 1, k] = tg[1, k]
    for i in range(n):
        _normalise(ntan[i])


@kernel
def _roll_at(mode, const, rt, rv, t):
    """Roll angle [rad] of an end at time t: constant, or linear in the trajectory column."""
    if mode == ROLL_CONST:
        return const
    m = rt.size
    if t <= rt[0]:
        return rv[0]
    if t >= rt[m - 1]:
        return rv[m - 1]
    lo = 0
    hi = m - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if rt[mid] <= t:
            lo = mid
        else:
            hi = mid
    f = (t - rt[lo]) / (rt[hi] - rt[lo])
    return rv[lo] + f * (rv[hi] - rv[lo])


@inline_kernel
def _end_frame(w, node_i, t, flags, ends, ntan, rt, rv, q, p):
    """End w's tangent q (along increasing s) and cross-section axis p̂₁ into q, p.

    p̂₁ = cos φ e₁ + sin φ q × e₁ with the datum e₁ = Z × q/|Z × q| (seed 004 eq. B.8 at
    roll φ = 0, ψ and θ from q); a clamped end's datum is fixed at build time, and a vertical
    tangent takes the ψ = 0 limit e₁ = Y (docs/higher_order.md, "Twist").
    """
    if flags[CLAMP0 + w]:
        for k in range(3):
            q[k] = ends[w, CX + k]
            p[k] = ends[w, DX + k]
    else:
        for k in range(3):
            q[k] = ntan[node_i, k]
        ex = -q[1]
        ey = q[0]
        m = math.sqrt(ex * ex + ey * ey)
        if m < VERTICAL:
            p[0] = 0.0
            p[1] = 1.0
        else:
            p[0] = ex / m
            p[1] = ey / m
        p[2] = 0.0
    phi = _roll_at(flags[ROLL0 + w], ends[w, ROLL], rt, rv, t)
    c = math.cos(phi)
    s = math.sin(phi)
    # q × e1
    bx = q[1] * p[2] - q[2] * p[1]
    by = q[2] * p[0] - q[0] * p[2]
    bz = q[0] * p[1] - q[1] * p[0]
    p[0] = c * p[0] + s * bx
    p[1] = c * p[1] + s * by
    p[2] = c * p[2] + s * bz
    return phi


@inline_kernel
def _transport(u, a, b):
    """Parallel-transport u (⊥ a) from unit tangent a to unit tangent b: the smallest
    rotation taking a to b, u ← u − (u·b)/(1 + a·b) (a + b)."""
    c = 1.0 + a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    if c < 1e-12:  # a tangent reversed within a substep: only in a blown-up state
        c = 1e-12
    f = (u[0] * b[0] + u[1] * b[1] + u[2] * b[2]) / c
    for k in range(3):
        u[k] -= f * (a[k] + b[k])


@inline_kernel
def _angle_about(u, p, q):
    """Signed angle [rad] from u to p about the unit vector q (u first projected ⊥ q)."""
    d = u[0] * q[0] + u[1] * q[1] + u[2] * q[2]
    ux = u[0] - d * q[0]
    uy = u[1] - d * q[1]
    uz = u[2] - d * q[2]
    cx = uy * p[2] - uz * p[1]
    cy = uz * p[0] - ux * p[2]
    cz = ux * p[1] - uy * p[0]
    return math.atan2(cx * q[0] + cy * q[1] + cz * q[2], ux * p[0] + uy * p[1] + uz * p[2])


@kernel
def _total_twist(t, n, flags, ends, elem, pos, r2, ntan, rollt0, rollv0, rollt1, rollv1,
                 tmp, tw):
    """Total twist Θ = ∫τ ds [rad] between two ends that hold their roll.

    p̂₁ of the start is parallel-transported along the spline's tangents (N_SUB equal
    substeps per element, Richardson-extrapolated with N_SUB/2) to the end; Θ is the angle
    from it to the end's p̂₁ about the end tangent: α^(N) − α^(0) + ∫γ ds of seed 004
    eq. (4.34) / App. B, without Frenet frames (no inflection or zero-curvature cases) and
    without Euler angles along the way.
    The 2π ambiguity: nearest the previous value (continuity in time), at the first call
    nearest the roll difference φ_N − φ_0 (App. B's estimator for a straight tether).
    """
    q0 = tmp[0:3]
    p0 = tmp[3:6]
    q1 = tmp[6:9]
    p1 = tmp[9:12]
    a = tmp[12:15]
    b = tmp[15:18]
    phi0 = _end_frame(0, 0, t, flags, ends, ntan, rollt0, rollv0, q0, p0)
    phi1 = _end_frame(1, n - 1, t, flags, ends, ntan, rollt1, rollv1, q1, p1)
    # two transports: through 8 and through 4 equal substeps per element (the even ones);
    # the geodesic-chord error of discrete transport is O(substep²): Richardson-extrapolate
    u = p0
    v = tmp[18:21]
    c = tmp[21:24]  # the tangent at the previous even substep, for v
    for k in range(3):
        v[k] = p0[k]
        a[k] = q0[k]
        c[k] = q0[k]
    for e in range(n - 1):
        h = elem[e, L0]
        for g in range(1, N_SUB + 1):
            if g < N_SUB:
                _spline_slope(pos, r2, e, e + 1, h, g / N_SUB, b)
                _normalise(b)
            elif e == n - 2:
                for k in range(3):
                    b[k] = q1[k]
            else:
                for k in range(3):
                    b[k] = ntan[e + 1, k]
            _transport(u, a, b)
            if g % 2 == 0:
                _transport(v, c, b)
                for k in range(3):
                    c[k] = b[k]
            for k in range(3):
                a[k] = b[k]
    theta = _angle_about(u, p1, q1)
    coarse = _angle_about(v, p1, q1)
    d = coarse - theta
    d -= 2.0 * math.pi * round(d / (2.0 * math.pi))
    theta -= d / 3.0  # (4 Θ_fine − Θ_coarse) / 3
    ref = tw[TW_THETA] if tw[TW_INIT] != 0.0 else phi1 - phi0
    theta += 2.0 * math.pi * round((ref - theta) / (2.0 * math.pi))
    tw[TW_THETA] = theta
    tw[TW_INIT] = 1.0
    return theta


@kernel
def _seed_twist(t, n, flags, ends, elem, pos, r2, ntan, rollt0, rollv0, rollt1, rollv1, tmp,
                tw):
    """Total twist Θ [rad] by seed 004 App. B's estimator (eqs. B.2–B.16; twist.py)."""
    phi0 = _end_frame(0, 0, t, flags, ends, ntan, rollt0, rollv0, tmp[0:3], tmp[3:6])
    phi1 = _end_frame(1, n - 1, t, flags, ends, ntan, rollt1, rollv1, tmp[6:9], tmp[9:12])
    theta = seed_b13_twist(n, elem[:, L0], pos, r2, ntan, tmp[0:3], tmp[3:6], phi0,
                           tmp[6:9], tmp[9:12], phi1, tmp[12:18], tw[TW_INIT + 1:])
    tw[TW_THETA] = theta
    return theta


@inline_kernel
def _ramp(t, ramp_time):
    if ramp_time > 0.0 and t < ramp_time:
        return t / ramp_time
    return 1.0


# -- forces -----------------------------------------------------------------------------


@kernel
def _tether_forces(t, n, flags, scal, elem, node, ends, fac, rollt0, rollv0, rollt1, rollv1,
                   pos, vel, force, r2, r2dot, ntan, hnode, torsion, length, tension, lam,
                   tmp, tg, tw, zero, sea):
    """The tether's own nodal loads [N] into force (no payload): axial, bending, torsion,
    drag, weight and buoyancy, end moments — seed 004 eqs. (4.31)–(4.35) lumped (§4.4).
    With the sea (``sea`` true) weight only: buoyancy and drag come from sea_loads."""
    N = n - 1
    rho = 0.0 if sea else scal[RHO]
    _spline_state(n, flags, ends, elem, fac, pos, r2, ntan, tg)
    damped = scal[BEND_DAMP] > 0.0
    if damped:  # curvature rate: the (linear) spline of the velocities, clamps fixed
        spline_curvatures(vel[:n], elem[:n - 1, L0], fac, flags[CLAMP0], flags[CLAMP1], zero,
                          zero, r2dot[:n])
    mode = flags[TWIST]
    for i in range(n):
        w = node[i, MASS] - rho * node[i, VOLUME]
        # weight and buoyancy of the half elements lumped here — seed 004 eq. (4.29)
        force[i, 0] = w * scal[GX]
        force[i, 1] = w * scal[GY]
        force[i, 2] = w * scal[GZ]
    if mode != TWIST_NONE:  # without a twist mode torsion is never written: its zeros stay
        for i in range(n):
            torsion[i, 0] = 0.0
            torsion[i, 1] = 0.0
            torsion[i, 2] = 0.0
    # the uniform torque GJτ — seed 004 eq. (4.34), closed form (digest §5.2)
    gjtau = 0.0
    tau = 0.0
    if mode == TWIST_TORQUE:  # GJτ = the torque about the outward tangent, either end
        gjtau = scal[TORQUE] * end_ramp(t, scal[TORQUE_RAMP])
        tau = gjtau / scal[GJ]
    elif mode == TWIST_BOTH:
        theta = _total_twist(t, n, flags, ends, elem, pos, r2, ntan, rollt0, rollv0, rollt1,
                             rollv1, tmp, tw)
        tau = theta / scal[LTOT]
        gjtau = scal[GJ] * tau
    elif mode == TWIST_B13:
        theta = _seed_twist(t, n, flags, ends, elem, pos, r2, ntan, rollt0, rollv0, rollt1,
                            rollv1, tmp, tw)
        tau = theta / scal[LTOT]
        gjtau = scal[GJ] * tau
    tw[TW_TAU] = tau
    tw[TW_GJTAU] = gjtau
    # nodal drag per unit length from each node's tangent and velocity (eq. 4.22)
    if rho > 0.0:
        for i in range(n):
            element_drag(flags[DRAG_LAW], rho, scal[DIAMETER], 1.0, scal[CD_N], scal[CD_T],
                         ntan[i, 0], ntan[i, 1], ntan[i, 2], vel[i, 0] - scal[UX],
                         vel[i, 1] - scal[UY], vel[i, 2] - scal[UZ], hnode[i])
    EIb = scal[EI]
    Cb = scal[BEND_DAMP]
    for e in range(N):
        a = e
        b = e + 1
        h = elem[e, L0]
        # curved length by Gauss–Legendre — seed 004 eq. (4.20)
        L = 0.0
        for g in range(N_GL):
            sx, sy, sz = _spline_slope_xyz(pos, r2, a, b, h, GL_X[g])
            L += GL_W[g] * math.sqrt(sx * sx + sy * sy + sz * sz)
        L *= h
        length[e] = L
        strain = (L - h) / h
        # strain rate: relative velocity on the mean nodal tangent (digest §3.4 item 3); a
        # growing element (a winch's) also stretches less by (L/L_u) L'_u
        sr = 0.0
        for k in range(3):
            sr += (vel[b, k] - vel[a, k]) * (ntan[a, k] + ntan[b, k])
        sr = sr * (0.5 / h) - L * elem[e, LDOT] / (h * h)
        T = voigt_tension(flags, scal, strain, sr)
        tension[e] = T
        # λ = T + P − EIκ² (seed 004 eq. 4.19): the −EIκ² term is there to cancel the
        # tangential part of the shear −EI r''' (= +EIκ² t̂ in the continuum), so that the
        # axial force is T + P (eq. 4.7). We take EIκ² from the element's own shear
        # (EI/L_u)(r''_a − r''_b), so that the λ row cancels its chord component exactly;
        # the midpoint κ² of (4.19) cancels only part of it in tight or compressed bends
        # (docs/higher_order.md, "λ").
        c2 = 0.0
        cs = 0.0
        for k in range(3):
            dk = pos[b, k] - pos[a, k]
            c2 += dk * dk
            cs += dk * (r2[a, k] - r2[b, k])
        lm = T
        if c2 > 0.0:
            lm -= (EIb / h) * cs * L / c2
        lam[e] = lm
        s = lm / L
        for k in range(3):
            # axial λ·chord/L (eq. 4.27 with |r'| = L/L_u) and bending (eq. 4.26)
            f = s * (pos[b, k] - pos[a, k]) + (EIb / h) * (r2[a, k] - r2[b, k])
            if damped:
                f += (Cb / h) * (r2dot[a, k] - r2dot[b, k])
            force[a, k] += f
            force[b, k] -= f
        if gjtau != 0.0:
            # torsion: (GJτ/L_u) ∫ r' × r'' ds in closed form — seed 004 eq. (4.28)
            c = gjtau / h
            mx = 0.5 * (r2[a, 0] + r2[b, 0])
            my = 0.5 * (r2[a, 1] + r2[b, 1])
            mz = 0.5 * (r2[a, 2] + r2[b, 2])
            dx = pos[a, 0] - pos[b, 0]
            dy = pos[a, 1] - pos[b, 1]
            dz = pos[a, 2] - pos[b, 2]
            h12 = h * h / 12.0
            fx = c * (my * dz - mz * dy + h12 * (r2[a, 1] * r2[b, 2] - r2[a, 2] * r2[b, 1]))
            fy = c * (mz * dx - mx * dz + h12 * (r2[a, 2] * r2[b, 0] - r2[a, 0] * r2[b, 2]))
            fz = c * (mx * dy - my * dx + h12 * (r2[a, 0] * r2[b, 1] - r2[a, 1] * r2[b, 0]))
            add_pair(torsion, a, b, fx, fy, fz)
        if rho > 0.0:
            # consistent ⅓/⅙ weights of the nodal drag over the element — eq. (4.29)
            for k in range(3):
                force[a, k] += L * (hnode[a, k] / 3.0 + hnode[b, k] / 6.0)
                force[b, k] += L * (hnode[a, k] / 6.0 + hnode[b, k] / 3.0)
    if gjtau != 0.0:
        for i in range(n):
            for k in range(3):
                force[i, k] += torsion[i, k]
    # end moments: follower couples (M × q)/L on the first / last element (seed 004 §3.3)
    for w in range(2):
        if ends[w, HAS_MOMENT] == 0.0:
            continue
        i = 0 if w == 0 else n - 1
        j = 1 if w == 0 else n - 2
        # q = r_i − r_j: along increasing s at the end, against it at the start; the couple
        # (M × q)/L² at i and its opposite at j has the moment q̂ × (M × q̂) = M⊥ either way
        qx = pos[i, 0] - pos[j, 0]
        qy = pos[i, 1] - pos[j, 1]
        qz = pos[i, 2] - pos[j, 2]
        r = end_ramp(t, ends[w, RAMP]) / (qx * qx + qy * qy + qz * qz)
        mx = ends[w, MX]
        my = ends[w, MY]
        mz = ends[w, MZ]
        fx = r * (my * qz - mz * qy)
        fy = r * (mz * qx - mx * qz)
        fz = r * (mx * qy - my * qx)
        add_pair(force, i, j, fx, fy, fz)


@inline_kernel
def _prepare(t, y, d):
    """The live node count of y; with a winch also the payout state (d.wstate), the winch
    element's length, rate and masses at time t (winch.py) and the spline factored for
    the live elements."""
    ns = d.n_nodes
    w = d.winch
    if w[W_ON] == 0.0:
        return ns
    n = winch_update(t, y, ns, w, d.elem, d.node, d.held, d.flags[HELD0], d.flags[HELD1],
                     d.wbreaks, d.wcoeffs, d.wmotion, d.wstate)[0]
    spline_refactor(d.elem[:n - 1, L0], d.flags[CLAMP0], d.flags[CLAMP1], d.fac)
    return n


@kernel
def _forces_of(t, d, n):
    """All tether loads of the n live nodes already in d.pos / d.vel (with a winch, the
    thrust of the material its neighbour node gains or loses too)."""
    sea = d.sea_par[SEA_ACTIVE] != 0.0
    _tether_forces(t, n, d.flags, d.scal, d.elem, d.node, d.ends, d.fac, d.rollt0,
                   d.rollv0, d.rollt1, d.rollv1, d.pos, d.vel, d.force, d.r2, d.r2dot,
                   d.ntan, d.hnode, d.torsion, d.length, d.tension, d.lam, d.tmp, d.tg, d.tw,
                   d.zero, sea)
    if sea:
        # the fluid on each element's chord and the seabed (nodes.sea_loads)
        sea_loads(t, n, d.flags, d.scal, d.elem, d.ends, True, d.sea_par, d.sea_current,
                  d.sea_wind, d.sea_waves, d.sea_grid, d.sea_bed, d.sea_bed_axes,
                  d.sea_anchor, d.pos, d.vel, d.force, d.wadd, d.bedf, d.gnd, d.fout)
    if d.winch[W_ON] != 0.0:
        winch_thrust(n, d.winch, d.pos, d.vel, d.wstate[1],
                     d.elem[winch_nodes(n, d.winch)[2], L0], d.force, d.tmp)


@kernel
def rhs(t, y, dydt, d):
    """dy/dt: node velocities and accelerations, seed 004 eq. (4.35) with lumped mass."""
    n = _prepare(t, y, d)
    ns = d.n_nodes
    load_state(t, y, n, ns, d.flags, d.breaks0, d.coeffs0, d.breaks1, d.coeffs1, d.motion,
               d.pos, d.vel)
    _forces_of(t, d, n)
    rest_rates(t, y, n, ns, d.winch, d.tension, d.wstate, dydt)
    if d.sea_par[SEA_ACTIVE] != 0.0:  # added mass scaled by each element's medium
        node_rates(t, n, ns, d.flags, d.scal, d.node, d.ends, d.elem, d.wadd, 0, 1, d.ntan,
                   True, True, d.vel, d.force, d.motion, d.tmp, dydt)
    else:
        node_rates(t, n, ns, d.flags, d.scal, d.node, d.ends, d.elem, d.elem, ADDED_N, ADDED_T,
                   d.ntan, True, True, d.vel, d.force, d.motion, d.tmp, dydt)


@kernel
def _curved_lengths(t, y, d):
    """Evaluate the tether loads of state y (so d.length holds the elements' curved lengths,
    eq. 4.20); returns the live node count."""
    n = _prepare(t, y, d)
    load_state(t, y, n, d.n_nodes, d.flags, d.breaks0, d.coeffs0, d.breaks1, d.coeffs1,
               d.motion, d.pos, d.vel)
    _forces_of(t, d, n)
    return n


@kernel
def _keep_strain(t, y, d, n_before, strain):
    """After a winch split or merge: the strain here is the spline's arc length, which the
    new node set changes (a micrometre is a newton on a stiff, nearly slack ROV tether). So
    the new node X of a split slides along X–P until X–P (L_nom) is back at ``strain``, and
    the winch element's unstretched length is then set to hold ``strain`` too; the
    difference goes to or comes from the drum (winch.py's slack). A slightly slack element
    (strain above −1 %) keeps its slack the same way, or the cubic's bulge would stretch one
    of the new pieces; a very slack one carries no tension to keep."""
    ns = d.n_nodes
    w = d.winch
    if strain <= -0.01:
        return
    n = active_nodes(y, ns, w)
    iw, ix, ew = winch_nodes(n, w)
    L_nom = w[W_LNOM]
    strain_a = strain
    if n > n_before:  # a split: X = ix, its far neighbour and their element
        start = w[W_SIDE] == 0.0
        ip = ix + 1 if start else ix - 1
        eb = 1 if start else n - 3
        # X's lumped net weight along W→P, which W and P held before, shared between the
        # two new tensions as lumped_mass's split does (winch.py, _split_position)
        L_x = d.elem[ew, L0]
        L_w = L_x + L_nom
        cx = y[3 * ip] - y[3 * iw]
        cy = y[3 * ip + 1] - y[3 * iw + 1]
        cz = y[3 * ip + 2] - y[3 * iw + 2]
        c = math.sqrt(cx * cx + cy * cy + cz * cz)
        wt = split_node_weight(w, L_w, cx / c, cy / c, cz / c)
        ea = d.scal[EA]
        strain_a = strain + (L_nom / L_w) * wt / ea
        strain_b = strain - (L_x / L_w) * wt / ea
        _curved_lengths(t, y, d)
        dx = y[3 * ix] - y[3 * ip]
        dy = y[3 * ix + 1] - y[3 * ip + 1]
        dz = y[3 * ix + 2] - y[3 * ip + 2]
        s = (L_nom * (1.0 + strain_b) - d.length[eb]) / math.sqrt(dx * dx + dy * dy + dz * dz)
        y[3 * ix] += s * dx
        y[3 * ix + 1] += s * dy
        y[3 * ix + 2] += s * dz
    _curved_lengths(t, y, d)
    extra = d.length[ew] / (1.0 + strain_a) - d.elem[ew, L0]
    p = 3 * (ns - 1)
    if w[W_MODE] == SCHEDULE:
        y[p + 1] -= extra
    else:
        y[p] += extra


@kernel
def remesh(t, y, d):
    """A winch's split or merge after an accepted step (winch.py), keeping the winch
    element's strain (:func:`_keep_strain`); a controller stepped with generalized_alpha
    takes its command here too. Returns 1 when y changed."""
    w = d.winch
    ns = d.n_nodes
    bed = d.sea_par[BED] != 0.0
    if bed:  # the seabed's friction anchors (sea.update_anchor)
        sea_anchors(y, active_nodes(y, ns, w), ns, d.flags, d.scal, d.elem, d.sea_par,
                    d.sea_bed, d.sea_bed_axes, d.sea_anchor, d.pos, d.vel, d.fout)
    if w[W_ON] == 0.0:
        return 0
    n0 = active_nodes(y, ns, w)
    e0 = winch_nodes(n0, w)[2]
    tension = d.tension[e0]  # the last evaluation's
    strain = d.length[e0] / d.elem[e0, L0] - 1.0
    if n0 > 2:  # a merge keeps the mean strain of the two elements it joins
        e1 = 1 if w[W_SIDE] == 0.0 else n0 - 3
        merged = ((d.length[e0] + d.length[e1]) / (d.elem[e0, L0] + d.elem[e1, L0]) - 1.0)
    else:
        merged = strain
    # on the spline: w[W_SPLINE] is 1.0 with a winch on (winch_setup), read rather than a
    # literal True so that remesh_nodes compiles once for both node-row formulations
    changed = remesh_nodes(t, y, ns, w, d.elem, d.node, d.held, d.flags[HELD0],
                           d.flags[HELD1], d.tmp, d.r2, w[W_SPLINE] != 0.0)
    if changed:
        grew = active_nodes(y, ns, w) > n0
        _keep_strain(t, y, d, n0, strain if grew else merged)
        if bed:  # the anchors follow their nodes
            shift_anchors(d.sea_anchor, n0, active_nodes(y, ns, w), w[W_SIDE])
    if w[W_MODE] == STEPPED:
        control_segment(t, y, ns, w, tension, d.wbreaks, d.wcoeffs)
    return changed


@kernel
def check(t, y, d):
    """Index of an element with non-finite or absurd chord strain, or -1 when sound."""
    return absurd_element(y, _prepare(t, y, d), d.n_nodes, d.elem)


# -- second-order surface (generalized_alpha; models/base.py) ---------------------------
# q = [r_0, …, r_N]. The spline couples every node to every other (eq. 3.12), with an
# influence that decays by 2 − √3 ≈ 0.27 per node; the declared band truncates it for the
# coloured finite-difference Jacobian (see BAND_NODES). The mass is block diagonal.

#: neighbour nodes each side kept in the Jacobian band (band = 3·BAND_NODES + 2)
BAND_NODES = 2


@kernel
def force(t, y, F, d):
    """Generalized applied force F [N] on every coordinate (everything but inertia: the
    tether loads plus, at free ends, the applied force and payload weight/drag). Held
    coordinates are read from y; a winch's dead rows and pseudo-node get 0."""
    n = _prepare(t, y, d)
    positions_from(y, n, d.n_nodes, d.pos, d.vel)
    _forces_of(t, d, n)
    force_rows(t, n, d.flags, d.scal, d.ends, d.vel, d.force, d.winch[W_ON] != 0.0, d.tmp, F)


@kernel
def mass(t, y, Mb, d):
    """Mass matrix [kg] in lower band storage Mb[k, j] = M[j + k, j]: per node the point
    mass (payload included) plus the element-average added mass (eqs. 4.23, 4.32). Dead
    rows and a winch's pseudo-node get 1.

    Called right after :func:`force` on the same t and y (models/base.py): the nodal
    tangents of the added mass are the ones force's spline solve left in d.ntan (and d.pos
    its positions), not solved again (issue 22: one spline solve less per Newton iteration)."""
    n = _prepare(t, y, d)
    sea = d.sea_par[SEA_ACTIVE] != 0.0
    fluid = sea or d.scal[RHO] > 0.0
    if sea:  # added mass scaled by each element's medium
        sea_added_mass(t, n, d.scal, d.elem, True, d.sea_par, d.sea_waves, d.sea_grid, d.pos,
                       d.wadd, d.fout)
        mass_rows(n, d.node, d.ends, d.elem, d.wadd, 0, 1, d.ntan, True, fluid, d.motion[2],
                  Mb)
    else:
        mass_rows(n, d.node, d.ends, d.elem, d.elem, ADDED_N, ADDED_T, d.ntan, True, fluid,
                  d.motion[2], Mb)


@kernel
def diagnostics(times, Y, d, replay, dydt, M, tension, start_force, end_force, kinetic,
                potential, curvature, twist, torsion, eta, grounded, bed_force, winch_out):
    """Results at each output instant: element tension T + P, end forces, energies, nodal
    curvature |r''|, twist τ and nodal torsion forces; with the sea the surface elevation
    [m], grounded flags and the seabed's force [N] (nodes.sea_instant; ``replay``: the
    friction anchors are updated after each instant, as lumped_mass.diagnostics does).
    dydt (state size), M (3x3): work.

    Node and element columns beyond the live ones are left untouched (the caller pads
    them). With a winch, ``winch_out[j]`` gets [live nodes, deployed length ℓ [m], payout
    speed ṡ [m/s], momentum of the deployed tether and its far-end body (3) [kg m/s]]
    (nodes.instant_results).
    """
    for j in range(times.size):
        rhs(times[j], Y[j], dydt, d)
        instant(j, times[j], Y[j], dydt, d, replay, M, tension, start_force, end_force,
                kinetic, potential, curvature, twist, torsion, eta, grounded, bed_force,
                winch_out)


@inline_kernel
def instant(j, t, y, dydt, d, replay, M, tension, start_force, end_force, kinetic,
            potential, curvature, twist, torsion, eta, grounded, bed_force, winch_out):
    """Output instant j's results (:func:`diagnostics`) of state y at t after an rhs
    filled d's work arrays and dydt (the line's own rhs, or a system's: its ends on
    points and bodies then move with them, models/system_higher.py)."""
    ns = d.n_nodes
    scal = d.scal
    sea = d.sea_par[SEA_ACTIVE] != 0.0
    n = active_nodes(y, ns, d.winch)
    for e in range(n - 1):
        twist[j, e] = d.tw[TW_TAU]
    for i in range(n):
        c = 0.0
        for a in range(3):
            c += d.r2[i, a] * d.r2[i, a]
            torsion[j, i, a] = d.torsion[i, a]
        curvature[j, i] = math.sqrt(c)
    if sea:
        added, cn, ct = d.wadd, 0, 1
    else:
        added, cn, ct = d.elem, ADDED_N, ADDED_T
    ke, pe = instant_results(j, n, ns, d.flags, scal, d.node, d.ends, d.elem, added, cn,
                             ct, d.sea_par, d.winch, d.wstate, d.ntan, True, d.pos, d.vel,
                             d.force, d.tension, d.length, dydt, d.tmp, M, tension,
                             start_force, end_force, winch_out)
    if sea:
        sea_instant_of(j, t, y, n, ns, d, replay, eta, grounded, bed_force)
    pe += 0.5 * scal[EI] * curvature_integral(d.r2, d.elem[:n - 1, L0])  # bending energy
    pe += 0.5 * scal[GJ] * d.tw[TW_TAU] * d.tw[TW_TAU] * scal[LTOT]
    kinetic[j] = ke
    potential[j] = pe


def _roll_datum(q: np.ndarray) -> np.ndarray:
    """e₁ = Z × q/|Z × q| (roll 0 of seed 004 eq. B.8); Y for a vertical q (ψ = 0)."""
    e = np.array([-q[1], q[0], 0.0])
    m = np.linalg.norm(e)
    return np.array([0.0, 1.0, 0.0]) if m < VERTICAL else e / m


class HigherOrder(NodeRows):
    """Cubic-spline higher-order lumped-mass cable (``model.type: higher_order``)."""

    # the cubic-spline element of seed 004 ch. 4: axial, bending and torsion
    supports = Supports(
        methods=("rk4", "rk45", "generalized_alpha"),
        drag_laws=("cross_flow", "loading_functions", "isotropic"),
        tether_keys=COMMON_TETHER_KEYS | {"EA", "GJ", "axial_damping", "ca_normal",
                                          "ca_tangential", "compression"},
        required=("EA",),
        bending=True,
        options={
            "slack_damping": Option(bool, True, "with compression: false, keep the Voigt "
                                    "damping force while an element is slack"),
            "twist": Option(str, "parallel_transport", "total twist between two roll-holding "
                            "ends: parallel_transport, or seed_b13 (seed 004 App. B: "
                            "Frenet-frame alpha at the ends, branch by the estimator B.13)",
                            choices=("parallel_transport", "seed_b13")),
        },
        clamp=True, moment=True, torsion=True, winch=True,
    )

    name = "higher_order"
    fastest_mode = "axial or bending (stiffest element)"
    rhs = staticmethod(rhs)
    remesh = staticmethod(remesh)
    check = staticmethod(check)
    run_fields = RUN_FIELDS
    # second-order surface (generalized_alpha)
    band = 3 * BAND_NODES + 2
    force = staticmethod(force)
    mass = staticmethod(mass)
    diagnostics = staticmethod(diagnostics)
    # curvature, twist, torsion force; the sea's surface elevation, grounded, seabed force
    extra_results = ("node", "element", "node_axis", "node", "node", "node_axis")

    def __init__(self, case: Case) -> None:
        super().__init__(case)
        t = case.tether
        N = case.model.elements
        n = N + 1
        rho = case.environment.fluid_density
        # added mass per metre: the winch must not rescale it with the element length
        lay = self._winch_layout(case, added_per_element=False, on_spline=True)
        winch, wbreaks, wcoeffs, ns = lay.params, lay.breaks, lay.coeffs, lay.slots
        held = held_rows(case, n, ns)
        self.held = held  # the data's own array: a winch split or merge updates it
        L0, self.arc_length, node_mass, node_volume = lumped_nodes(case)
        ends = (case.start, case.end)
        m0, m1 = end_motions(case)
        scal = base_scal(case, N_SCAL + 4)
        scal[[EI, BEND_DAMP, GJ, LTOT]] = (t.EI, t.bending_damping, t.GJ, t.length)
        clamps = [e.clamp is not None for e in ends]
        end_table = np.zeros((2, N_ENDS + 8))
        roll_mode = [ROLL_NONE, ROLL_NONE]
        rolls = []
        for w, (which, e) in enumerate(zip(("start", "end"), ends, strict=True)):
            if e.type == "free":
                free_end_row(e, rho, end_table[w])
                if e.moment is not None:
                    end_table[w, MX:MZ + 1] = e.moment
                    end_table[w, HAS_MOMENT] = 1.0
            if e.clamp is not None:
                c = np.asarray(e.clamp, dtype=float)
                c /= np.linalg.norm(c)
                end_table[w, CX:CZ + 1] = c
                end_table[w, DX:DZ + 1] = _roll_datum(c)
            traj = getattr(case, f"{which}_trajectory", None)
            rt, rv = np.zeros(1), np.zeros(1)
            if e.roll_deg is not None:
                roll_mode[w] = ROLL_CONST
                end_table[w, ROLL] = math.radians(e.roll_deg)
            elif e.type == "prescribed" and traj is not None and traj.roll is not None:
                roll_mode[w] = ROLL_TRAJ
                rt = np.ascontiguousarray(traj.breaks, dtype=float)
                rv = np.ascontiguousarray(traj.roll, dtype=float)
            rolls += [rt, rv]
        # the twist constraint (seed 004 eq. 4.34, digest §5.2): GJτ uniform
        torque = [(e.torque, e.force_ramp_time or 0.0) for e in ends if e.torque]
        if t.GJ > 0.0 and torque:
            twist = TWIST_TORQUE
            scal[[TORQUE, TORQUE_RAMP]] = torque[0]
        elif roll_mode[0] != ROLL_NONE and roll_mode[1] != ROLL_NONE:
            twist = TWIST_BOTH
        else:
            twist = TWIST_NONE  # an end free to roll: torque-free, τ ≡ 0 (≡ GJ = 0)
        if twist == TWIST_BOTH and case.model.option("twist") == "seed_b13":
            twist = TWIST_B13
        self.twist_mode = twist
        flags = base_flags(case, N_FLAGS + 5)
        flags[[CLAMP0, CLAMP1, TWIST, ROLL0, ROLL1]] = (clamps[0], clamps[1], twist,
                                                        roll_mode[0], roll_mode[1])
        fac = np.zeros((ns, 3))
        fac[:n] = spline_factor(L0, CLAMPED if clamps[0] else FREE,
                                CLAMPED if clamps[1] else FREE)
        # seed 004 eq. (4.11): added mass per unit length, normal and tangential (every row,
        # the spare ones a winch may use too)
        elem = np.column_stack([L0, np.full(N, rho * t.ca_normal * t.displaced),
                                np.full(N, rho * t.ca_tangential * t.displaced), np.zeros(N)])
        node = np.column_stack([node_mass, node_volume])
        if self.winch:  # room for the longest deployment; rows beyond the live ones unused
            elem, node = with_spare_rows(elem, node, ns)
        self.data = HigherOrderData(
            n_nodes=ns,
            flags=flags,
            scal=scal,
            elem=elem,
            node=node,
            ends=end_table,
            fac=fac,
            breaks0=m0.breaks, coeffs0=m0.coeffs, breaks1=m1.breaks, coeffs1=m1.coeffs,
            rollt0=rolls[0], rollv0=rolls[1], rollt1=rolls[2], rollv1=rolls[3],
            pos=np.zeros((ns, 3)), vel=np.zeros((ns, 3)), force=np.zeros((ns, 3)),
            r2=np.zeros((ns, 3)), r2dot=np.zeros((ns, 3)), ntan=np.zeros((ns, 3)),
            hnode=np.zeros((ns, 3)), torsion=np.zeros((ns, 3)), length=np.zeros(ns - 1),
            tension=np.zeros(ns - 1), lam=np.zeros(ns - 1), motion=np.zeros((3, 3, 3)),
            tmp=np.zeros(24), tg=np.zeros((2, 3)), tw=np.zeros(4 + MEMORY), zero=np.zeros(3),
            winch=winch, wbreaks=wbreaks, wcoeffs=wcoeffs, held=held,
            wmotion=np.zeros((3, 3)), wstate=np.zeros(4),
            **self._sea_arrays(case, ns, ns - 1, end_table),
        )
        if self.winch:
            self._start_winch(n)

    # -- the formulation surface -------------------------------------------------------
    def reset_twist(self) -> None:
        """Forget the tracked total twist: the next evaluation takes the branch nearest the
        roll difference of the ends again (used before replaying output instants)."""
        self.data.tw[:] = 0.0

    def outputs(self, times: np.ndarray, Y: np.ndarray, data: tuple | None = None
                ) -> dict[str, np.ndarray]:
        # padding of the dead node / element columns: NaN with a winch
        res = self._result_arrays(times.size, np.nan if self.winch else 0.0)
        d = self.data if data is None else data
        saved = d.tw.copy()
        if times.size and times[0] <= 0.0:
            d.tw[:] = 0.0  # a replay from t = 0: the twist branch as the run took it
        dr, replay = self._replay_data(d)
        diagnostics(np.ascontiguousarray(times, dtype=float), np.ascontiguousarray(Y),
                    dr, replay, np.empty(Y.shape[1]), np.empty((3, 3)), *res)
        d.tw[:] = saved
        tension, f0, f1, ke, pe, curv, twist, tors, eta, grounded, bed_force, wout = res
        pos, vel = self.node_states(Y)
        out = dict(
            position=pos, velocity=vel, tension=tension, start_force=f0, end_force=f1,
            kinetic_energy=ke, potential_energy=pe,
            curvature=(("time", "node"), curv,
                       {"units": "1/m", "long_name": "curvature |r''| of the spline at the node"}),
            twist=(("time", "element"), twist,
                   {"units": "rad/m", "long_name": "total twist tau of the cross section "
                    "(uniform: the torque GJ tau is constant along the tether)"}),
            torsion_force=(("time", "node", "axis"), tors,
                           {"units": "N", "long_name": "nodal force of the twist term "
                            "GJ tau r' x r'' (seed 004 eq. 4.28)"}),
        )
        if self.winch:
            out.update(winch_outputs(self.data.winch, wout, self.n_nodes))
        if self.sea_results:
            out.update(sea_outputs(eta, grounded, bed_force))
        return out

    def bending_frequency(self) -> float:
        """Highest bending frequency [rad/s] of the straight tether: the generalized
        eigenproblem of the spline bending stiffness EI Dᵀ A⁻¹ D (one axis) with the node
        masses plus normal added mass, held nodes removed (dense: n ≤ 400; above that the
        uniform-chain bound 48 EI / (m L_u³))."""
        d = self.data
        Lu = self.element_lengths()
        n = Lu.size + 1
        m = self.element_properties()["node_mass"].copy()
        an = d.elem[:n - 1, ADDED_N]  # per metre
        added = np.zeros(n)
        added[:-1] += 0.5 * Lu * an
        added[1:] += 0.5 * Lu * an
        m += added
        free = np.ones(n, dtype=bool)
        free[0] = not d.flags[HELD0]
        free[-1] = not d.flags[HELD1]
        if not free.any():
            return 0.0
        if n > 400:
            return math.sqrt(48.0 * d.scal[EI] / (m[free].min() * Lu.min() ** 3))
        K = self.bending_stiffness()
        K = K[np.ix_(free, free)]
        mf = m[free]
        s = 1.0 / np.sqrt(mf)
        lam = np.linalg.eigvalsh(K * s[:, None] * s[None, :])
        return math.sqrt(max(lam.max(), 0.0))

    def bending_stiffness(self) -> np.ndarray:
        """The (n, n) matrix K with bending forces −K r per axis: EI Dᵀ A⁻¹ D of the spline
        (A r'' = D r, eq. 3.12); its energy is 0.5 EI r''ᵀ A r'' (dense, for analysis)."""
        d = self.data
        Lu = self.element_lengths()
        n = Lu.size + 1
        A = np.zeros((n, n))
        D = np.zeros((n, n))
        for i in range(1, n - 1):
            A[i, i - 1], A[i, i], A[i, i + 1] = Lu[i - 1] / 6, (Lu[i - 1] + Lu[i]) / 3, Lu[i] / 6
            D[i, i - 1], D[i, i], D[i, i + 1] = 1 / Lu[i - 1], -1 / Lu[i - 1] - 1 / Lu[i], 1 / Lu[i]
        if d.flags[CLAMP0]:
            A[0, 0], A[0, 1] = Lu[0] / 3, Lu[0] / 6
            D[0, 0], D[0, 1] = -1 / Lu[0], 1 / Lu[0]
        else:
            A[0, 0] = 1.0
        if d.flags[CLAMP1]:
            A[-1, -2], A[-1, -1] = Lu[-1] / 6, Lu[-1] / 3
            D[-1, -2], D[-1, -1] = 1 / Lu[-1], -1 / Lu[-1]
        else:
            A[-1, -1] = 1.0
        return d.scal[EI] * D.T @ np.linalg.solve(A, D)

    def critical_time_step(self) -> tuple[float, int, float]:
        """Largest stable RK4 step [s], the element that limits it, and its frequency [rad/s].

        The smaller of the axial limit (Gershgorin per node, as lumped_mass) and the bending
        limit (highest eigenfrequency of the straight spline chain, bending damping as modal
        damping ζ = C_b ω / (2 EI)). Tension-stiffening of bending and the torsion terms are
        not included: keep a margin (docs/higher_order.md).
        """
        best = self._axial_critical_step()
        n = self.element_lengths().size + 1
        self.fastest_mode = "axial (stiffest element)"
        wb = self.bending_frequency()
        if wb > 0.0:
            zeta = self.data.scal[BEND_DAMP] * wb / (2.0 * self.data.scal[EI])
            dt = rk4_critical_step(wb, zeta)
            if dt < best[0]:
                best = (dt, (n - 1) // 2, wb)
                self.fastest_mode = "bending (highest spline mode; element: mid-tether)"
        return best
