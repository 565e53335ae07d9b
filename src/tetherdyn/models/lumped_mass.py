"""Lumped-mass visco-elastic (Voigt) cable — seed 004 §2.2 (also seed 000 §5.2's bead model).

N straight elements join N+1 nodes that carry the lumped mass. Each element is a Voigt
spring–dashpot with tension ``EA·ε`` and damping ``C_ID·ε̇`` (EA and C_ID are cross-section
properties, seed 004 eqs. (2.10)–(2.11)), optionally unable to carry compression (eq. 2.17).
Drag acts at each element's centre with the mean velocity of its nodes relative to the
fluid (eq. 2.12); half of every element load is lumped on each of its nodes (eq. 2.16);
added mass acts normal (and, if asked, tangential) to each element (eqs. 2.14–2.15).

State vector: ``y = [r_0, …, r_N, ṙ_0, …, ṙ_N]`` (positions then velocities, 6(N+1)).
Held ends (fixed / prescribed) stay in the state; the kernels overwrite them with the
prescribed motion, so every formulation shares one integrator surface.

``model.bending: true`` adds the "revised linear" bending forces of seed 004 §3.2 with no
new states: the C² spline through the nodes (``spline.py``, eq. 3.12) gives nodal curvature
vectors r'', each node a curvature-binormal w = t̂ × r'' (t̂ the spline's unit tangent), and
every element a constant shear (EI/L_u) q̂ × (w_{e+1} − w_e) (eqs. 3.15–3.18), +shear on its
first node and −shear on its second. ``tether.bending_damping`` adds −(C_b/L_u)(ṙ''_{e+1} −
ṙ''_e) per element (the spline of the node velocities; dissipative); a free end's ``moment``
is a follower force couple on its element (seed 004 §3.3). See docs/lumped_mass.md,
"Bending (seed 004 §3.2)".
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from .._jit import inline_kernel, kernel
from ..boundary import end_motion_at, eval_motion, fixed_point, free_end_load
from ..case import Case
from ..hydro import DRAG_LAW_CODES, element_drag
from ..initial import initial_nodes
from ..spline import (
    CLAMPED,
    FREE,
    curvature_integral,
    spline_curvatures,
    spline_factor,
    spline_refactor,
)
from ..winch import (
    STEPPED,
    W_LNOM,
    W_LO,
    W_MODE,
    W_ON,
    W_SIDE,
    W_SPLINE,
    active_nodes,
    control_segment,
    enforce_payout,
    initial_winch_state,
    live_nodes,
    payout_state,
    relayout,
    remesh_nodes,
    winch_material,
    winch_nodes,
    winch_outputs,
    winch_rates,
    winch_record,
    winch_setup,
    winch_thrust,
    winch_update,
)
from .base import Formulation, lumped_nodes, rk4_critical_step

#: strain above which a run is declared blown up (1000 % stretch)
ABSURD_STRAIN = 10.0
#: with bending: the spline coupling folded into generalized-alpha's Jacobian band, relative
#: to the inertia term, that the band choice accepts (LumpedMass.bending_band_nodes)
BENDING_BAND_TOL = 0.005

# indices into the packed parameter arrays (module constants: frozen into the kernels)
EA, DAMPING, RHO, DIAMETER, CD_N, CD_T, GX, GY, GZ, UX, UY, UZ, EI, BEND_DAMP = range(14)  # scal
COMPRESSION, SLACK_DAMPING, DRAG_LAW, HELD0, HELD1, BENDING, CLAMP0, CLAMP1 = range(8)  # flags
# elem columns; LDOT: rate of the unstretched length [m/s] (a winch element's, winch.py)
L0, ADDED_N, ADDED_T, LDOT = range(4)
MASS, VOLUME = range(2)  # node columns
# ends columns (row 0 start, row 1 end); MX..MZ: a free end's applied moment [N m];
# PAYLOAD: a free end body's inertial mass (mass + added mass), WEIGHT: its weight mass
# (mass - rho V: the net weight over g)
PAYLOAD, RAMP, DRAG_AREA, FX, FY, FZ, MX, MY, MZ, WEIGHT = range(10)

LumpedMassData = namedtuple(
    "LumpedMassData",
    [
        "n_nodes", "flags", "scal", "elem", "node", "ends",
        "breaks0", "coeffs0", "breaks1", "coeffs1",
        # work arrays (one model per run: never shared between runs)
        "pos", "vel", "force", "tangent", "length", "tension", "motion", "tmp",
        # bending (model.bending: true; 1-row placeholders otherwise): unstretched lengths
        # (N,), the factored spline, clamp unit tangents (3, 3: start, end, zero rate); work:
        # r'' and its rate, w = t x r'' (n, 3), element shear magnitude (N,)
        "lu", "bfac", "clamp", "r2", "r2dot", "wb", "shear",
        # winch (winch.py; W_ON = 0 without one): parameters, the payout schedule, the held
        # coordinates (changed by a split or merge), work: schedule motion (3, 3), payout
        # state [ℓ, ṡ, s̈, spare]
        "winch", "wbreaks", "wcoeffs", "held", "wmotion", "wstate",
    ],
)
#: what a run mutates (models/base.py: Model and data): host schedules, work arrays, and the
#: layout tables, held rows and spline factor a winch split or merge rewrites
RUN_FIELDS = ("breaks0", "coeffs0", "breaks1", "coeffs1", "pos", "vel", "force", "tangent",
              "length", "tension", "motion", "tmp", "elem", "node", "lu", "bfac", "r2",
              "r2dot", "wb", "shear", "wbreaks", "wcoeffs", "held", "wmotion", "wstate")
# With a winch, ``n_nodes`` counts the state's node rows (capacity + the winch's pseudo-node,
# winch.py); the live count is read from the state. Without one both are the node count.
# Kernels pass individual arrays to their helpers, never the whole tuple: handing a tuple
# of many arrays to a non-inlined function costs ~0.3 us per call (measured).


@kernel
def _tether_forces(n, flags, scal, elem, node, pos, vel, force, tangent, length, tension, tmp):
    """Element tensions and the tether's own nodal loads (no payload) into force [N]."""
    rho = scal[RHO]
    for i in range(n):
        w = node[i, MASS] - rho * node[i, VOLUME]
        # weight and buoyancy of the half elements lumped here — seed 004 eqs. (2.13), (2.16)
        force[i, 0] = w * scal[GX]
        force[i, 1] = w * scal[GY]
        force[i, 2] = w * scal[GZ]
    for e in range(n - 1):
        dx = pos[e + 1, 0] - pos[e, 0]
        dy = pos[e + 1, 1] - pos[e, 1]
        dz = pos[e + 1, 2] - pos[e, 2]
        L = math.sqrt(dx * dx + dy * dy + dz * dz)  # seed 004 eq. (2.3)
        inv_L = 1.0 / L
        qx = dx * inv_L
        qy = dy * inv_L
        qz = dz * inv_L
        length[e] = L
        tangent[e, 0] = qx
        tangent[e, 1] = qy
        tangent[e, 2] = qz
        Lu = elem[e, L0]
        inv_Lu = 1.0 / Lu
        strain = (L - Lu) * inv_Lu  # seed 004 eq. (2.10)
        dvx = vel[e + 1, 0] - vel[e, 0]
        dvy = vel[e + 1, 1] - vel[e, 1]
        dvz = vel[e + 1, 2] - vel[e, 2]
        # seed 004 eq. (2.11); a growing element (a winch's) also stretches less by L'_u
        strain_rate = (dvx * qx + dvy * qy + dvz * qz - L * inv_Lu * elem[e, LDOT]) * inv_Lu
        elastic = scal[EA] * strain
        viscous = scal[DAMPING] * strain_rate
        if flags[COMPRESSION] == 0 and strain <= 0.0:  # bilinear law, seed 004 eq. (2.17)
            elastic = 0.0
            if flags[SLACK_DAMPING] == 0:
                viscous = 0.0
        T = elastic + viscous
        tension[e] = T
        if rho > 0.0:
            # drag at the element centre, half to each node — seed 004 eqs. (2.12), (2.16)
            ux = 0.5 * (vel[e, 0] + vel[e + 1, 0]) - scal[UX]
            uy = 0.5 * (vel[e, 1] + vel[e + 1, 1]) - scal[UY]
            uz = 0.5 * (vel[e, 2] + vel[e + 1, 2]) - scal[UZ]
            element_drag(flags[DRAG_LAW], rho, scal[DIAMETER], L, scal[CD_N], scal[CD_T],
                         qx, qy, qz, ux, uy, uz, tmp)
            for a in range(3):
                force[e, a] += 0.5 * tmp[a]
                force[e + 1, a] += 0.5 * tmp[a]
        force[e, 0] += T * qx
        force[e, 1] += T * qy
        force[e, 2] += T * qz
        force[e + 1, 0] -= T * qx
        force[e + 1, 1] -= T * qy
        force[e + 1, 2] -= T * qz


@inline_kernel
def _payload_load(t, ends, w, scal, vx, vy, vz, out):
    """Applied force (ramped), payload weight and payload drag at free end w [N]."""
    free_end_load(t, ends[w, RAMP], ends[w, FX], ends[w, FY], ends[w, FZ], ends[w, WEIGHT],
                  ends[w, DRAG_AREA], scal[RHO], scal[GX], scal[GY], scal[GZ], scal[UX],
                  scal[UY], scal[UZ], vx, vy, vz, out)


@inline_kernel
def _spline_slope(p, r2, lu, k, N, out):
    """The spline's tangent r'(s_k) at node k (not normalised) into out[0:3] — seed 004
    eq. (3.11) differentiated: Δr/L − L(2r''_k + r''_{k+1})/6 from element k, and at the
    last node Δr/L + L(r''_{N−1} + 2r''_N)/6 from element N−1 (``p``: positions [m])."""
    if k < N:
        h = lu[k]
        for a in range(3):
            out[a] = (p[k + 1, a] - p[k, a]) / h - h * (2.0 * r2[k, a] + r2[k + 1, a]) / 6.0
    else:
        h = lu[N - 1]
        for a in range(3):
            out[a] = (p[N, a] - p[N - 1, a]) / h + h * (r2[N - 1, a] + 2.0 * r2[N, a]) / 6.0


@kernel
def _bending_forces(t, n, flags, scal, ends, lu, bfac, clamp, pos, vel, force, tangent, length,
                    r2, r2dot, wb, shear, tmp):
    """Bending shear of every element added into force [N] (+ on its first node, − on its
    second), then the free ends' moment couples — seed 004 eqs. (3.12)–(3.18), §3.3.

    Needs ``tangent``/``length`` of the current elements (from ``_tether_forces``).
    """
    N = n - 1
    c0 = flags[CLAMP0]
    c1 = flags[CLAMP1]
    # nodal curvature vectors r'' of the C2 spline — seed 004 eq. (3.12)
    spline_curvatures(pos[:n], lu, bfac, c0, c1, clamp[0], clamp[1], r2[:n])
    cb = scal[BEND_DAMP]
    damped = cb > 0.0
    if damped:
        # the curvature rates: the same linear spline applied to the node velocities; a
        # clamp's direction is constant (fixed or prescribed end), so its slope rate is 0
        spline_curvatures(vel[:n], lu, bfac, c0, c1, clamp[2], clamp[2], r2dot[:n])
    for k in range(n):
        # unit spline tangent at the node and the curvature-binormal w = t x r''
        # (= kappa b of seed 004 App. A for the spline; 0 where r'' = 0 or r'' || t)
        _spline_slope(pos, r2, lu, k, N, tmp)
        tx = tmp[0]
        ty = tmp[1]
        tz = tmp[2]
        s2 = tx * tx + ty * ty + tz * tz
        inv_s = 1.0 / math.sqrt(s2) if s2 > 0.0 else 0.0  # a vanishing slope: w = 0
        tx *= inv_s
        ty *= inv_s
        tz *= inv_s
        ax = r2[k, 0]
        ay = r2[k, 1]
        az = r2[k, 2]
        wb[k, 0] = ty * az - tz * ay
        wb[k, 1] = tz * ax - tx * az
        wb[k, 2] = tx * ay - ty * ax
    EIb = scal[EI]
    for e in range(N):
        qx = tangent[e, 0]
        qy = tangent[e, 1]
        qz = tangent[e, 2]
        inv_Lu = 1.0 / lu[e]
        dx = wb[e + 1, 0] - wb[e, 0]
        dy = wb[e + 1, 1] - wb[e, 1]
        dz = wb[e + 1, 2] - wb[e, 2]
        # constant shear over the element, F = (EI / L_u) q x (w_{e+1} − w_e): seed 004
        # eqs. (3.15)–(3.17) in frame-free form (the element's p1/p2 projections drop out)
        kb = EIb * inv_Lu
        fx = kb * (qy * dz - qz * dy)
        fy = kb * (qz * dx - qx * dz)
        fz = kb * (qx * dy - qy * dx)
        if damped:
            # bending damping: −(C_b / L_u)(r''dot_{e+1} − r''dot_e), the force of the
            # Rayleigh function ½ C_b ∫|r''dot|² ds over the spline (dissipative for every
            # state; docs/lumped_mass.md)
            c = cb * inv_Lu
            fx -= c * (r2dot[e + 1, 0] - r2dot[e, 0])
            fy -= c * (r2dot[e + 1, 1] - r2dot[e, 1])
            fz -= c * (r2dot[e + 1, 2] - r2dot[e, 2])
        shear[e] = math.sqrt(fx * fx + fy * fy + fz * fz)
        # Galerkin weights: node e gets +F, node e+1 gets −F — seed 004 eqs. (3.17)–(3.20)
        force[e, 0] += fx
        force[e, 1] += fy
        force[e, 2] += fz
        force[e + 1, 0] -= fx
        force[e + 1, 1] -= fy
        force[e + 1, 2] -= fz
    for w in range(2):
        if flags[HELD0 + w]:
            continue
        mx = ends[w, MX]
        my = ends[w, MY]
        mz = ends[w, MZ]
        if mx == 0.0 and my == 0.0 and mz == 0.0:
            continue
        ramp = 1.0
        if ends[w, RAMP] > 0.0 and t < ends[w, RAMP]:
            ramp = t / ends[w, RAMP]
        # follower couple with moment M on the end element: f = (M x q) / L at the end node,
        # −f at its neighbour (seed 004 §3.3); at the start the roles swap so that the
        # couple's moment is again M (perpendicular to q)
        e = 0 if w == 0 else N - 1
        qx = tangent[e, 0]
        qy = tangent[e, 1]
        qz = tangent[e, 2]
        s = ramp / length[e]
        if w == 0:
            s = -s
        fx = s * (my * qz - mz * qy)
        fy = s * (mz * qx - mx * qz)
        fz = s * (mx * qy - my * qx)
        i = 0 if w == 0 else N
        j = 1 if w == 0 else N - 1
        force[i, 0] += fx
        force[i, 1] += fy
        force[i, 2] += fz
        force[j, 0] -= fx
        force[j, 1] -= fy
        force[j, 2] -= fz


@inline_kernel
def _mass_matrix(i, n, mass, elem, tangent, M):
    """Nodal 3x3 mass matrix: mass·I plus the added mass of the half elements (eq. 2.15).

    Each element adds rho V (Ca_n (I - q q^T) + Ca_t q q^T) / 2, seed 004 eq. (2.14).
    """
    diag = mass
    m00 = m01 = m02 = m11 = m12 = m22 = 0.0
    for e in range(max(i - 1, 0), min(i + 1, n - 1)):
        an = 0.5 * elem[e, ADDED_N]
        c = 0.5 * elem[e, ADDED_T] - an
        qx = tangent[e, 0]
        qy = tangent[e, 1]
        qz = tangent[e, 2]
        diag += an
        m00 += c * qx * qx
        m01 += c * qx * qy
        m02 += c * qx * qz
        m11 += c * qy * qy
        m12 += c * qy * qz
        m22 += c * qz * qz
    M[0, 0] = diag + m00
    M[1, 1] = diag + m11
    M[2, 2] = diag + m22
    M[0, 1] = M[1, 0] = m01
    M[0, 2] = M[2, 0] = m02
    M[1, 2] = M[2, 1] = m12


@inline_kernel
def _solve3(M, fx, fy, fz, out):
    """Solve M x = f for a symmetric positive definite 3x3 M (Cramer's rule)."""
    a, b, c = M[0, 0], M[0, 1], M[0, 2]
    d, e, f = M[1, 1], M[1, 2], M[2, 2]
    c00 = d * f - e * e
    c01 = e * c - b * f
    c02 = b * e - d * c
    det = a * c00 + b * c01 + c * c02
    c11 = a * f - c * c
    c12 = b * c - a * e
    c22 = a * d - b * b
    inv_det = 1.0 / det
    out[0] = (c00 * fx + c01 * fy + c02 * fz) * inv_det
    out[1] = (c01 * fx + c11 * fy + c12 * fz) * inv_det
    out[2] = (c02 * fx + c12 * fy + c22 * fz) * inv_det


@inline_kernel
def _node_mass(i, n, node, ends):
    """Point mass at node i [kg]: the tether's lumped mass plus a payload at a free end."""
    m = node[i, MASS]
    if i == 0:
        m += ends[0, PAYLOAD]
    if i == n - 1:
        m += ends[1, PAYLOAD]
    return m


@kernel
def _load_state(t, y, n, ns, flags, b0, c0, b1, c1, motion, pos, vel):
    """Positions/velocities of the n live nodes from y (``ns`` node rows) into pos/vel; held
    ends from their motion at t."""
    for i in range(n):
        for a in range(3):
            pos[i, a] = y[3 * i + a]
            vel[i, a] = y[3 * ns + 3 * i + a]
    if flags[HELD0]:
        eval_motion(b0, c0, t, motion[0])
        for a in range(3):
            pos[0, a] = motion[0, 0, a]
            vel[0, a] = motion[0, 1, a]
    if flags[HELD1]:
        eval_motion(b1, c1, t, motion[1])
        for a in range(3):
            pos[n - 1, a] = motion[1, 0, a]
            vel[n - 1, a] = motion[1, 1, a]


@inline_kernel
def _prepare(t, y, d):
    """The live node count of y; with a winch also the payout state (d.wstate) and the winch
    element's length and masses at time t (winch.py)."""
    ns = d.n_nodes
    w = d.winch
    if w[W_ON] == 0.0:
        return ns
    n, L_w = winch_update(t, y, ns, w, d.elem, d.node, d.held, d.flags[HELD0], d.flags[HELD1],
                          d.wbreaks, d.wcoeffs, d.wmotion, d.wstate)
    if d.flags[BENDING]:
        d.lu[winch_nodes(n, w)[2]] = L_w
        spline_refactor(d.lu[:n - 1], d.flags[CLAMP0], d.flags[CLAMP1], d.bfac)
    return n


@inline_kernel
def _loads(t, y, d, n):
    """Positions, velocities and the tether's own nodal loads (tension, drag, weight,
    bending, the winch's material thrust) of the n live nodes of y into d.pos/vel/force."""
    flags = d.flags
    _load_state(t, y, n, d.n_nodes, flags, d.breaks0, d.coeffs0, d.breaks1, d.coeffs1,
                d.motion, d.pos, d.vel)
    _tether_forces(n, flags, d.scal, d.elem, d.node, d.pos, d.vel, d.force, d.tangent,
                   d.length, d.tension, d.tmp)
    if flags[BENDING]:
        _bending_forces(t, n, flags, d.scal, d.ends, d.lu[:n - 1], d.bfac, d.clamp, d.pos,
                        d.vel, d.force, d.tangent, d.length, d.r2, d.r2dot, d.wb, d.shear,
                        d.tmp)
    if d.winch[W_ON] != 0.0:
        winch_thrust(n, d.winch, d.pos, d.vel, d.wstate[1], d.elem[winch_nodes(n, d.winch)[2],
                     L0], d.force, d.tmp)


@kernel
def _rest_rates(t, y, n, ns, winch, tension, wstate, dydt):
    """Zero rates for the dead node rows; the winch pseudo-node's rates (winch.py)."""
    if winch[W_ON] == 0.0:
        return
    for i in range(n, ns - 1):
        for a in range(3):
            dydt[3 * i + a] = 0.0
            dydt[3 * ns + 3 * i + a] = 0.0
    winch_rates(t, y, ns, winch, tension[winch_nodes(n, winch)[2]], wstate[0], wstate[1],
                wstate[2], dydt)


@kernel
def rhs(t, y, dydt, d):
    """dy/dt for the lumped-mass cable: node velocities and accelerations, seed 004 (2.16)."""
    n = _prepare(t, y, d)
    ns = d.n_nodes
    flags, scal, elem, node, ends = d.flags, d.scal, d.elem, d.node, d.ends
    vel, force, tangent, motion, tmp = d.vel, d.force, d.tangent, d.motion, d.tmp
    _loads(t, y, d, n)
    _rest_rates(t, y, n, ns, d.winch, d.tension, d.wstate, dydt)
    M = motion[2]
    fluid = scal[RHO] > 0.0
    for i in range(n):
        base = 3 * ns + 3 * i
        for a in range(3):
            dydt[3 * i + a] = vel[i, a]
        if (i == 0 and flags[HELD0]) or (i == n - 1 and flags[HELD1]):
            w = 0 if i == 0 else 1
            for a in range(3):
                dydt[base + a] = motion[w, 2, a]
            continue
        fx = force[i, 0]
        fy = force[i, 1]
        fz = force[i, 2]
        for w in range(2):
            if i == (0 if w == 0 else n - 1):
                _payload_load(t, ends, w, scal, vel[i, 0], vel[i, 1], vel[i, 2], tmp[3:6])
                fx += tmp[3]
                fy += tmp[4]
                fz += tmp[5]
        m = _node_mass(i, n, node, ends)
        if fluid:
            _mass_matrix(i, n, m, elem, tangent, M)
            _solve3(M, fx, fy, fz, tmp[6:9])
            for a in range(3):
                dydt[base + a] = tmp[6 + a]
        else:
            inv_m = 1.0 / m
            dydt[base] = fx * inv_m
            dydt[base + 1] = fy * inv_m
            dydt[base + 2] = fz * inv_m


@kernel
def enforce(t, y, d):
    """Overwrite held ends in the state with their prescribed position and velocity (and a
    winch schedule's deployed length and payout speed)."""
    ns = d.n_nodes
    n = active_nodes(y, ns, d.winch)
    for w in range(2):
        if d.flags[HELD0 + w]:
            node = 0 if w == 0 else n - 1
            end_motion_at(w, d.breaks0, d.coeffs0, d.breaks1, d.coeffs1, t, d.motion[w])
            for a in range(3):
                y[3 * node + a] = d.motion[w, 0, a]
                y[3 * ns + 3 * node + a] = d.motion[w, 1, a]
    if d.winch[W_ON] != 0.0:
        enforce_payout(t, y, ns, d.winch, d.wbreaks, d.wcoeffs, d.wmotion, d.wstate)


@kernel
def remesh(t, y, d):
    """A winch's split or merge after an accepted step (winch.py); 1 when y changed. A
    controller stepped with generalized_alpha (STEPPED) also takes its command here."""
    w = d.winch
    if w[W_ON] == 0.0:
        return 0
    ns = d.n_nodes
    # the winch element's tension of the last evaluation, before a split or merge renumbers
    tension = d.tension[winch_nodes(active_nodes(y, ns, w), w)[2]]
    changed = remesh_nodes(t, y, ns, w, d.elem, d.node, d.held, d.flags[HELD0],
                           d.flags[HELD1], d.tmp, d.r2, w[W_SPLINE] != 0.0)
    if w[W_MODE] == STEPPED:
        control_segment(t, y, ns, w, tension, d.wbreaks, d.wcoeffs)
    return changed


@kernel
def check(t, y, d):
    """Index of an element with non-finite or absurd strain, or -1 when the state is sound."""
    ns = d.n_nodes
    n = _prepare(t, y, d)
    for e in range(n - 1):
        s = 0.0
        L2 = 0.0
        for a in range(3):
            dx = y[3 * (e + 1) + a] - y[3 * e + a]
            L2 += dx * dx
            s += y[3 * ns + 3 * e + a] + y[3 * ns + 3 * (e + 1) + a]
        if not (math.isfinite(L2) and math.isfinite(s)):
            return e
        if math.sqrt(L2) / d.elem[e, L0] - 1.0 > ABSURD_STRAIN:
            return e
    return -1


# -- second-order surface (generalized_alpha; models/base.py) ---------------------------
# q = [r_0, …, r_N] (3 per node), so a node couples to its neighbours' coordinates at most
# 5 indices away: band = 5. Held ends' nodes are held coordinates.


@kernel
def _positions_from(y, n, ns, pos, vel):
    """Positions/velocities of the n live nodes straight from y (``ns`` node rows; held
    coordinates as given)."""
    for i in range(n):
        for a in range(3):
            pos[i, a] = y[3 * i + a]
            vel[i, a] = y[3 * ns + 3 * i + a]


@kernel
def force(t, y, F, d):
    """Generalized applied force F [N] on every coordinate: tension, damping, weight and
    buoyancy, drag, and at free ends the applied force and payload weight/drag — seed 004
    eq. (2.16)'s right-hand side, without inertia. Held coordinates are read from y."""
    n = _prepare(t, y, d)
    ns = d.n_nodes
    scal, ends, vel, force_, tmp = d.scal, d.ends, d.vel, d.force, d.tmp
    _positions_from(y, n, ns, d.pos, vel)
    _tether_forces(n, d.flags, scal, d.elem, d.node, d.pos, vel, force_, d.tangent, d.length,
                   d.tension, tmp)
    if d.flags[BENDING]:
        _bending_forces(t, n, d.flags, scal, ends, d.lu[:n - 1], d.bfac, d.clamp, d.pos, vel,
                        force_, d.tangent, d.length, d.r2, d.r2dot, d.wb, d.shear, tmp)
    if d.winch[W_ON] != 0.0:
        winch_thrust(n, d.winch, d.pos, vel, d.wstate[1], d.elem[winch_nodes(n, d.winch)[2],
                     L0], force_, tmp)
        for i in range(3 * n, F.size):  # dead rows and the (held) pseudo-node
            F[i] = 0.0
    for w in range(2):
        if not d.flags[HELD0 + w]:
            i = 0 if w == 0 else n - 1
            _payload_load(t, ends, w, scal, vel[i, 0], vel[i, 1], vel[i, 2], tmp[3:6])
            for a in range(3):
                force_[i, a] += tmp[3 + a]
    for i in range(n):
        for a in range(3):
            F[3 * i + a] = force_[i, a]


@kernel
def mass(t, y, Mb, d):
    """Mass matrix [kg] in lower band storage Mb[k, j] = M[j + k, j] (band 5): per node the
    point mass (payload included) plus the added mass of its half elements, seed 004
    eqs. (2.14)–(2.15); block diagonal (no coupling between nodes). Dead rows and a winch's
    pseudo-node get 1."""
    n = _prepare(t, y, d)
    tangent, M = d.tangent, d.motion[2]
    for k in range(Mb.shape[0]):
        for j in range(Mb.shape[1]):
            Mb[k, j] = 0.0
    for j in range(3 * n, Mb.shape[1]):
        Mb[0, j] = 1.0
    fluid = d.scal[RHO] > 0.0
    if fluid:
        for e in range(n - 1):
            dx = y[3 * (e + 1)] - y[3 * e]
            dy = y[3 * (e + 1) + 1] - y[3 * e + 1]
            dz = y[3 * (e + 1) + 2] - y[3 * e + 2]
            inv_L = 1.0 / math.sqrt(dx * dx + dy * dy + dz * dz)
            tangent[e, 0] = dx * inv_L
            tangent[e, 1] = dy * inv_L
            tangent[e, 2] = dz * inv_L
    for i in range(n):
        m = _node_mass(i, n, d.node, d.ends)
        if fluid:
            _mass_matrix(i, n, m, d.elem, tangent, M)
            for a in range(3):
                for b in range(a + 1):
                    Mb[a - b, 3 * i + b] = M[a, b]
        else:
            for a in range(3):
                Mb[0, 3 * i + a] = m


@kernel
def held_acc(t, y, acc, d):
    """Prescribed accelerations [m/s^2] of the held ends' coordinates into acc (dead rows
    and a winch's pseudo-node: 0, a schedule's payout acceleration)."""
    ns = d.n_nodes
    n = active_nodes(y, ns, d.winch)
    for w in range(2):
        if d.flags[HELD0 + w]:
            i = 0 if w == 0 else n - 1
            end_motion_at(w, d.breaks0, d.coeffs0, d.breaks1, d.coeffs1, t, d.motion[w])
            for a in range(3):
                acc[3 * i + a] = d.motion[w, 2, a]
    if d.winch[W_ON] != 0.0:
        for i in range(3 * n, 3 * ns):
            acc[i] = 0.0
        payout_state(t, y, ns, d.winch, d.wbreaks, d.wcoeffs, d.wmotion, d.wstate)
        acc[3 * (ns - 1)] = d.wstate[2]


@kernel
def diagnostics(times, Y, d, dydt, M, tension, start_force, end_force, kinetic, potential,
                curvature, shear, winch_out):
    """Element tension, end forces and energies at each output instant (results layer);
    with bending also the nodal curvature |r''| [1/m] and the element shear magnitude [N].

    dydt (state size) and M (3x3) are work arrays; curvature/shear are only written when
    bending is on. Node and element columns beyond the live ones are left untouched (the
    caller pads them). With a winch, ``winch_out[j]`` gets [live nodes, deployed length ℓ
    [m], payout speed ṡ [m/s], momentum of the deployed tether and its far-end body
    (3) [kg m/s]]; the winch node's lumped mass moves with the material velocity u
    (winch.py) in the kinetic energy, the momentum and the winch end's inertia.
    """
    ns = d.n_nodes
    scal, node, ends, elem, winch = d.scal, d.node, d.ends, d.elem, d.winch
    u = d.tmp[0:3]
    for j in range(times.size):
        n = active_nodes(Y[j], ns, winch)
        has_winch = winch[W_ON] != 0.0
        rhs(times[j], Y[j], dydt, d)
        iw = -1
        if has_winch:
            iw = winch_material(n, ns, winch, elem, d.pos, d.vel, dydt, d.wstate[1], u,
                                d.tmp[3:6])
        for e in range(n - 1):
            tension[j, e] = d.tension[e]
        # force the tether exerts on each end's holder: its own nodal load minus the
        # inertia of the tether mass lumped there (spec: results-format.md)
        for w in range(2):
            i = 0 if w == 0 else n - 1
            _mass_matrix(i, n, node[i, MASS], elem, d.tangent, M)
            out = start_force if w == 0 else end_force
            for a in range(3):
                ma = 0.0
                for b in range(3):
                    acc = d.tmp[3 + b] if i == iw else dydt[3 * ns + 3 * i + b]
                    ma += M[a, b] * acc
                out[j, a] = d.force[i, a] - ma
        ke = 0.0
        pe = 0.0
        for i in range(n):
            m = _node_mass(i, n, node, ends)
            _mass_matrix(i, n, m, elem, d.tangent, M)
            w_i = node[i, MASS] - scal[RHO] * node[i, VOLUME]  # net weight / g
            if i == 0:
                w_i += ends[0, WEIGHT]
            if i == n - 1:
                w_i += ends[1, WEIGHT]
            for a in range(3):
                va = u[a] if i == iw else d.vel[i, a]
                for b in range(3):
                    vb = u[b] if i == iw else d.vel[i, b]
                    ke += 0.5 * va * M[a, b] * vb
                pe -= w_i * scal[GX + a] * d.pos[i, a]
        for e in range(n - 1):
            strain = d.length[e] / elem[e, L0] - 1.0
            if d.flags[COMPRESSION] or strain > 0.0:
                pe += 0.5 * scal[EA] * strain * strain * elem[e, L0]
        if d.flags[BENDING]:
            r2 = d.r2
            for i in range(n):
                curvature[j, i] = math.sqrt(r2[i, 0] ** 2 + r2[i, 1] ** 2 + r2[i, 2] ** 2)
            for e in range(n - 1):
                shear[j, e] = d.shear[e]
            pe += 0.5 * scal[EI] * curvature_integral(r2, d.lu[:n - 1])  # bending energy
        kinetic[j] = ke
        potential[j] = pe
        if has_winch:
            winch_record(n, winch, node, d.vel, u, d.wstate, winch_out[j])


class LumpedMass(Formulation):
    """Lumped-mass Voigt cable (``model.type: lumped_mass``)."""

    name = "lumped_mass"
    fastest_mode = "axial (stiffest element)"
    rhs = staticmethod(rhs)
    enforce = staticmethod(enforce)
    remesh = staticmethod(remesh)
    check = staticmethod(check)
    run_fields = RUN_FIELDS
    # second-order surface (generalized_alpha)
    band = 5
    force = staticmethod(force)
    mass = staticmethod(mass)
    held_acc = staticmethod(held_acc)

    def __init__(self, case: Case) -> None:
        super().__init__(case)
        t = case.tether
        N = case.model.elements
        n = N + 1
        rho = case.environment.fluid_density
        # with a winch: node rows for the most live nodes plus the pseudo-node
        winch, wbreaks, wcoeffs, ns = winch_setup(self, case, added_per_element=True)
        L0, self.arc_length, node_mass, node_volume = lumped_nodes(case)
        ends = (case.start, case.end)
        # a free end gets placeholder arrays (the kernels never read them)
        m0, m1 = (case.end_motion(w) or fixed_point((0.0, 0.0, 0.0)) for w in ("start", "end"))
        env = case.environment
        bending = bool(case.model.option("bending"))
        self.bending = bending
        scal = np.zeros(14)
        scal[[EA, DAMPING, RHO, DIAMETER, CD_N, CD_T]] = (
            t.EA, t.axial_damping, rho, t.diameter, t.cd_normal, t.cd_tangential)
        scal[GX:GZ + 1] = env.gravity
        scal[UX:UZ + 1] = env.current
        if bending:
            scal[[EI, BEND_DAMP]] = (t.EI, t.bending_damping)
        flags = np.zeros(8, dtype=np.int64)
        flags[[COMPRESSION, SLACK_DAMPING, DRAG_LAW, HELD0, HELD1, BENDING]] = (
            t.compression, bool(case.model.option("slack_damping")),
            DRAG_LAW_CODES[case.drag_law], case.start.type != "free", case.end.type != "free",
            bending)
        end_table = np.zeros((2, 10))
        # clamp unit tangents (rows: start, end) and a zero row (a clamp's slope rate)
        clamp = np.zeros((3, 3))
        for w, e in enumerate(ends):
            if e.type == "free":
                end_table[w, [PAYLOAD, RAMP, DRAG_AREA]] = (
                    e.body_masses(rho)[0], e.force_ramp_time or 0.0, e.drag_area)
                end_table[w, WEIGHT] = e.body_masses(rho)[1]
                end_table[w, FX:FZ + 1] = e.force
                if bending and e.moment is not None:
                    end_table[w, MX:MZ + 1] = e.moment
            elif bending and e.clamp is not None:
                flags[CLAMP0 + w] = 1
                clamp[w] = np.asarray(e.clamp, dtype=float) / np.linalg.norm(e.clamp)
        # seed 004 eq. (2.14): added mass rho V Ca, normal and tangential
        elem = np.column_stack([L0, rho * t.ca_normal * (t.displaced * L0),
                                rho * t.ca_tangential * (t.displaced * L0), np.zeros(N)])
        node = np.column_stack([node_mass, node_volume])
        lu = L0.copy()
        if self.winch:  # room for the longest deployment; rows beyond the live ones unused
            elem = np.vstack([elem, np.ones((ns - 1 - N, 4))])
            node = np.vstack([node, np.zeros((ns - n, 2))])
            lu = np.concatenate([lu, np.ones(ns - 1 - N)])
        if bending:
            nb, Nb = ns, ns - 1
            bfac = np.zeros((ns, 3))
            bfac[:n] = spline_factor(L0, CLAMPED if flags[CLAMP0] else FREE,
                                     CLAMPED if flags[CLAMP1] else FREE)
        else:  # 1-row placeholders the kernels never read
            nb, Nb = 1, 1
            bfac = np.zeros((1, 3))
        held = np.zeros(3 * ns, dtype=np.int64)
        held[:3] = case.start.type != "free"
        held[3 * (n - 1):3 * n] = case.end.type != "free"
        self.held = held  # the data's own array: a winch split or merge updates it
        self.data = LumpedMassData(
            n_nodes=ns,
            flags=flags,
            scal=scal,
            elem=elem,
            node=node,
            ends=end_table,
            breaks0=m0.breaks, coeffs0=m0.coeffs, breaks1=m1.breaks, coeffs1=m1.coeffs,
            pos=np.zeros((ns, 3)), vel=np.zeros((ns, 3)), force=np.zeros((ns, 3)),
            tangent=np.zeros((ns - 1, 3)), length=np.zeros(ns - 1), tension=np.zeros(ns - 1),
            motion=np.zeros((3, 3, 3)), tmp=np.zeros(9),
            lu=np.ascontiguousarray(lu[:Nb]), bfac=bfac, clamp=clamp, r2=np.zeros((nb, 3)),
            r2dot=np.zeros((nb, 3)), wb=np.zeros((nb, 3)), shear=np.zeros(Nb),
            winch=winch, wbreaks=wbreaks, wcoeffs=wcoeffs, held=held,
            wmotion=np.zeros((3, 3)), wstate=np.zeros(4),
        )
        if self.winch:
            relayout(n, t.length, winch, self.data.elem, self.data.node, held,
                     int(case.start.type != "free"), int(case.end.type != "free"))
            self.data.wstate[3] = n  # the layout the tables hold (see _prepare)
        self._bending_mode: tuple[float, int, float] | None = None
        if bending and case.method == "generalized_alpha":
            self.band = 3 * self.bending_band_nodes(case.solver.dt) + 2

    def bending_band_nodes(self, h: float) -> int:
        """Neighbours (nodes, each side) inside generalized-α's Jacobian band at step h [s].

        The spline couples every node to all others, the influence falling by 2 − √3 ≈ 0.27
        per node, so the coloured finite-difference Jacobian (integrate/implicit.py) folds
        the couplings beyond the band into the band. Newton converges when the folded part
        is small next to the inertia term M/h²: with z = (ω_b h)² (ω_b the highest bending
        frequency, :meth:`bending_mode`) we take the smallest k with z·0.27^k ≤ 0.02, at
        least 1 and at most all nodes (measured: docs/lumped_mass.md).
        """
        z = (self.bending_mode()[2] * h) ** 2
        k = 1
        while z * (2.0 - math.sqrt(3.0)) ** k > BENDING_BAND_TOL and k < self.data.n_nodes - 1:
            k += 1
        return k

    # -- the formulation surface -------------------------------------------------------
    def initial_state(self) -> np.ndarray:
        pos, vel = initial_nodes(self.case, self.arc_length)
        if not self.winch:
            return np.concatenate([pos.ravel(), vel.ravel()])
        return initial_winch_state(self.case, self.data.n_nodes, self.data.winch, pos, vel)

    def node_states(self, Y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Node positions and velocities (k, nodes, 3) of states Y (k, state size); with a
        winch the node rows beyond the live ones are NaN."""
        ns = self.data.n_nodes
        n = self.n_nodes
        k = Y.shape[0]
        pos = Y[:, : 3 * ns].reshape(k, ns, 3)[:, :n].copy()
        vel = Y[:, 3 * ns:].reshape(k, ns, 3)[:, :n].copy()
        if self.winch:
            dead = np.arange(n)[None, :] >= live_nodes(Y, ns)[:, None]
            pos[dead] = np.nan
            vel[dead] = np.nan
        return pos, vel

    def outputs(self, times: np.ndarray, Y: np.ndarray, data: tuple | None = None
                ) -> dict[str, np.ndarray]:
        k = times.size
        N = self.n_elements
        fill = np.nan if self.winch else 0.0
        tension = np.full((k, N), fill)
        f0 = np.empty((k, 3))
        f1 = np.empty((k, 3))
        ke = np.empty(k)
        pe = np.empty(k)
        curv = np.full((k, self.n_nodes), fill)
        shear = np.full((k, N), fill)
        wout = np.zeros((k, 6))
        diagnostics(times, np.ascontiguousarray(Y), self.data if data is None else data,
                    np.empty(Y.shape[1]), np.empty((3, 3)), tension, f0, f1, ke, pe, curv, shear,
                    wout)
        pos, vel = self.node_states(Y)
        out = dict(position=pos, velocity=vel, tension=tension, start_force=f0,
                   end_force=f1, kinetic_energy=ke, potential_energy=pe)
        if self.winch:
            out.update(winch_outputs(self.data.winch, wout, self.n_nodes))
        if self.bending:
            out["curvature"] = (("time", "node"), curv, {
                "units": "1/m", "long_name": "curvature |r''| of the spline through the nodes"})
            out["bending_shear"] = (("time", "element"), shear, {
                "units": "N", "long_name": "magnitude of the element's bending shear force "
                "(elastic + bending damping)"})
        return out

    def end_forces(self, t: float, y: np.ndarray, out: np.ndarray,
                   data: tuple | None = None) -> None:
        """Forces [N] on the start (out[0]) and end (out[1]) holders; no allocation after
        the first call (buffers kept on the model)."""
        if not hasattr(self, "_probe"):
            n, N = self.n_nodes, self.n_elements
            ny = 6 * self.data.n_nodes
            self._probe = (np.zeros(1), np.zeros((1, ny)), np.empty(ny),
                           np.empty((3, 3)), np.empty((1, N)), np.empty((1, 3)),
                           np.empty((1, 3)), np.empty(1), np.empty(1), np.empty((1, n)),
                           np.empty((1, N)), np.empty((1, 6)))
        times, Y, dydt, M, tension, f0, f1, ke, pe, curv, shear, wout = self._probe
        times[0] = t
        Y[0] = y
        diagnostics(times, Y, self.data if data is None else data, dydt, M, tension, f0, f1,
                    ke, pe, curv, shear, wout)
        out[0] = f0[0]
        out[1] = f1[0]

    def element_properties(self) -> dict[str, np.ndarray]:
        """Per element: unstretched length [m], mass [kg], axial stiffness EA/L [N/m] and
        damping C_ID/L [N s/m]; per node: point mass [kg] (payloads included)."""
        d = self.data
        Lu = self.element_lengths()
        m = self.case.tether.linear_mass * Lu
        mass = np.zeros(Lu.size + 1)
        mass[:-1] += 0.5 * m
        mass[1:] += 0.5 * m
        mass[0] += d.ends[0, PAYLOAD]
        mass[-1] += d.ends[1, PAYLOAD]
        return dict(length=Lu, mass=m, node_mass=mass,
                    stiffness=d.scal[EA] / Lu, damping=d.scal[DAMPING] / Lu)

    def element_lengths(self) -> np.ndarray:
        """Unstretched element lengths [m]; with a winch those of the starting layout with
        the winch element at its shortest (the band's merge length: the stiffest state,
        which sets the time step)."""
        if not self.winch:
            return self.data.elem[:, L0]
        w = self.data.winch
        N = self.case.model.elements
        Lu = np.full(N, w[W_LNOM])
        Lu[0 if w[W_SIDE] == 0.0 else N - 1] = min(w[W_LO], w[W_LNOM])
        return Lu

    def critical_time_step(self) -> tuple[float, int, float]:
        """Largest stable RK4 step [s], the element that limits it, and its frequency [rad/s].

        Gershgorin bound of the axial stiffness / damping per node: with k_e = EA / L_e and
        c_e = C_ID / L_e, node i's highest mode obeys λ² + (2 Σc / m_i) λ + 2 Σk / m_i = 0,
        summed over its elements (exact 2·sqrt(k/m) for a uniform interior node). With
        bending, the highest transverse bending mode of the straight tether (see
        :meth:`bending_mode`) is checked too, and whichever allows the smaller step is
        reported (``fastest_mode`` names it).
        """
        best = self._axial_critical_step()
        if self.bending:
            bend = self.bending_mode()
            if bend[0] < best[0]:
                self.fastest_mode = "bending (highest transverse mode of the spline)"
                return bend
            self.fastest_mode = "axial (stiffest element)"
        return best

    def bending_stiffness(self) -> np.ndarray:
        """Linearised transverse bending stiffness K [N/m] (n × n, per axis) of the straight
        tether: the bending force is −K r_⊥. On a straight tether the shear of seed 004
        eqs. (3.15)–(3.18) is −(EI/L_u)(r''_{e+1} − r''_e)⊥ with A r'' = B r (eq. 3.12), so
        K = EI Bᵀ A⁻¹ B: symmetric, positive semi-definite (A is)."""
        A, B = self._spline_matrices()
        return self.data.scal[EI] * (B.T @ np.linalg.solve(A.toarray(), B.toarray()))

    def _spline_matrices(self):
        """The eq.-(3.12) matrices A (left) and B (r -> right-hand side) as sparse CSC."""
        import scipy.sparse as sp

        d = self.data
        L = self.element_lengths()
        n = L.size + 1
        N = n - 1
        a_sub = np.zeros(n - 1)
        a_diag = np.ones(n)
        a_sup = np.zeros(n - 1)
        b_sub = np.zeros(n - 1)
        b_diag = np.zeros(n)
        b_sup = np.zeros(n - 1)
        i = np.arange(1, N)
        a_sub[i - 1], a_diag[i], a_sup[i] = L[i - 1] / 6, (L[i - 1] + L[i]) / 3, L[i] / 6
        b_sub[i - 1], b_diag[i], b_sup[i] = 1 / L[i - 1], -1 / L[i - 1] - 1 / L[i], 1 / L[i]
        if d.flags[CLAMP0]:
            a_diag[0], a_sup[0] = L[0] / 3, L[0] / 6
            b_diag[0], b_sup[0] = -1 / L[0], 1 / L[0]
        if d.flags[CLAMP1]:
            a_sub[N - 1], a_diag[N] = L[N - 1] / 6, L[N - 1] / 3
            b_sub[N - 1], b_diag[N] = 1 / L[N - 1], -1 / L[N - 1]
        A = sp.diags([a_sub, a_diag, a_sup], [-1, 0, 1], format="csc")
        B = sp.diags([b_sub, b_diag, b_sup], [-1, 0, 1], format="csc")
        return A, B

    def bending_mode(self) -> tuple[float, int, float]:
        """RK4 step limit [s] of the highest bending mode, the element nearest its largest
        amplitude, and its frequency ω [rad/s] (computed once, then cached).

        Generalised eigenproblem K x = ω² M x on the free nodes, with K from
        :meth:`bending_stiffness` and M the node masses plus the normal added mass; bending
        damping C_b gives the mode the damping ratio ζ = C_b ω / (2 EI).
        """
        if self._bending_mode is not None:
            return self._bending_mode
        d = self.data
        n = self.element_lengths().size + 1
        m = self.element_properties()["node_mass"].copy()
        t = self.case.tether
        added = (self.case.environment.fluid_density * t.ca_normal * t.displaced
                 * self.element_lengths())
        m[:-1] += 0.5 * added
        m[1:] += 0.5 * added
        free = np.ones(n, dtype=bool)
        free[0] = not d.flags[HELD0]
        free[-1] = not d.flags[HELD1]
        s = 1.0 / np.sqrt(m[free])
        if s.size == 0:
            self._bending_mode = (math.inf, 0, 0.0)
            return self._bending_mode
        if n <= 400:
            K = self.bending_stiffness()
            Kf = s[:, None] * K[np.ix_(free, free)] * s[None, :]
            lam, vec = np.linalg.eigh(0.5 * (Kf + Kf.T))
            top, mode = lam[-1], vec[:, -1]
        else:  # long tethers: Lanczos on the operator, one sparse LU of A
            from scipy.sparse.linalg import LinearOperator, eigsh, splu

            A, B = self._spline_matrices()
            lu = splu(A)
            idx = np.flatnonzero(free)
            EIb = d.scal[EI]

            def apply(x: np.ndarray) -> np.ndarray:
                full = np.zeros(n)
                full[idx] = s * np.ravel(x)
                return s * (EIb * (B.T @ lu.solve(B @ full)))[idx]

            op = LinearOperator((idx.size, idx.size), matvec=apply, dtype=float)
            lam, vec = eigsh(op, k=1, which="LA", tol=1e-6)
            top, mode = lam[0], vec[:, 0]
        omega = math.sqrt(max(top, 0.0))
        node = int(np.flatnonzero(free)[np.argmax(np.abs(mode))])
        zeta = d.scal[BEND_DAMP] * omega / (2.0 * d.scal[EI])
        dt = rk4_critical_step(omega, zeta)
        self._bending_mode = (dt, min(node, self.n_elements - 1), omega)
        return self._bending_mode

    def _axial_critical_step(self) -> tuple[float, int, float]:
        """The axial bound of :meth:`critical_time_step`."""
        p = self.element_properties()
        k, c, m = p["stiffness"], p["damping"], p["node_mass"]
        n = m.size
        best = (math.inf, 0, 0.0)
        for i in range(n):
            if (i == 0 and self.data.flags[HELD0]) or (i == n - 1 and self.data.flags[HELD1]):
                continue
            adj = [e for e in (i - 1, i) if 0 <= e < n - 1]
            ks = 2.0 * sum(k[e] for e in adj)
            cs = 2.0 * sum(c[e] for e in adj)
            omega = math.sqrt(ks / m[i])
            dt = rk4_critical_step(omega, cs / (2.0 * m[i] * omega))
            if dt < best[0]:
                best = (dt, max(adj, key=lambda e: k[e]), omega)
        return best
