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
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from .._jit import inline_kernel, kernel
from ..boundary import eval_motion
from ..hydro import CROSS_FLOW, _drag_other, cross_flow_drag, element_drag
from ..sea import (
    BED,
    BED_DZDX,
    BED_DZDY,
    BED_Z0,
    CUR_LAW,
    HAS_SURFACE,
    HAS_WAVES,
    PLANE,
    RHO_WATER,
    SEA_ACTIVE,
    TABLE,
    WATER_LEVEL,
    seabed_depth,
    seabed_force,
    update_anchor,
)
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
    W_MODE,
    W_ON,
    W_SIDE,
    W_SPLINE,
    active_nodes,
    control_segment,
    remesh_nodes,
    winch_nodes,
    winch_outputs,
    winch_thrust,
    winch_update,
)
from .base import lumped_nodes, no_remesh, rk4_critical_step
from .nodes import (
    ADDED_N,
    ADDED_T,
    BEND_DAMP,
    BODY_DRAG,
    BODY_V,
    CA_N,
    CA_T,
    CD_N,
    CD_T,
    COMPRESSION,
    DAMPING,
    DIAMETER,
    DISPLACED,
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
    PAYLOAD,
    RAMP,
    RHO,
    SEA_DATA_FIELDS,
    SEA_DATA_RUN_FIELDS,
    SLACK_DAMPING,
    UX,
    UY,
    UZ,
    VOLUME,
    NodeRows,
    absurd_element,
    add_pair,
    added_mass_solve,
    base_flags,
    base_scal,
    contact_geometry,
    end_motions,
    end_ramp,
    force_rows,
    free_end_row,
    held_rows,
    instant_results,
    load_state,
    mass_rows,
    node_held,
    node_rates,
    payload_load,
    positions_from,
    rest_rates,
    sea_added_mass,
    sea_anchors,
    sea_instant_of,
    sea_loads,
    sea_outputs,
    shift_anchors,
    voigt_law,
    voigt_tension,
    with_spare_rows,
)
from .supports import COMMON_TETHER_KEYS, Option, Supports

if TYPE_CHECKING:
    from ..case import Case

#: with bending: the spline coupling folded into generalized-alpha's Jacobian band, relative
#: to the inertia term, that the band choice accepts (LumpedMass.bending_band_nodes)
BENDING_BAND_TOL = 0.005

# indices into the packed parameter arrays (module constants: frozen into the kernels): the
# node-row columns of nodes.py (scal, elem, node and ends: those alone) and these flags
BENDING, CLAMP0, CLAMP1, LEAN = range(N_FLAGS, N_FLAGS + 4)
#: flags[LEAN]: the path the model steps with (LumpedMass.lean; a system reads it per line):
#: LEAN_SEA a sea the calm pass does not cover (waves, profiles, wind), stepped by
#: :func:`_lean_sea_rhs`, which a system's lines do not take (they step on the general rhs)
GENERAL, LEAN_VACUUM, LEAN_FLUID, LEAN_SEA = range(4)

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
        # the sea (sea.py; sea_par[SEA_ACTIVE] = 0 without one) and its work arrays
        *SEA_DATA_FIELDS,
        # the lean path's constant table (rhs_lean; filled for every model), and the lean
        # fluid pass's rows (soa_table: its constants by column, its work rows)
        "lean", "soa",
    ],
)
#: what a run mutates (models/base.py: Model and data): host schedules, work arrays, and the
#: layout tables, held rows and spline factor a winch split or merge rewrites
RUN_FIELDS = ("breaks0", "coeffs0", "breaks1", "coeffs1", "pos", "vel", "force", "tangent",
              "length", "tension", "motion", "tmp", "elem", "node", "lu", "bfac", "r2",
              "r2dot", "wb", "shear", "wbreaks", "wcoeffs", "held", "wmotion", "wstate",
              *SEA_DATA_RUN_FIELDS, "soa")
# With a winch, ``n_nodes`` counts the state's node rows (capacity + the winch's pseudo-node,
# winch.py); the live count is read from the state. Without one both are the node count.
# Kernels pass individual arrays to their helpers, never the whole tuple: handing a tuple
# of many arrays to a non-inlined function costs ~0.3 us per call (measured).


@kernel
def _tether_forces(n, flags, scal, elem, node, pos, vel, force, tangent, length, tension, tmp,
                   sea):
    """Element tensions and the tether's own nodal loads (no payload) into force [N]. With
    the sea (``sea`` true) weight only: buoyancy and drag come from :func:`sea_loads`."""
    rho = 0.0 if sea else scal[RHO]
    cux = scal[UX]
    cuy = scal[UY]
    cuz = scal[UZ]
    law = flags[DRAG_LAW]
    cross_flow = law == CROSS_FLOW
    diameter = scal[DIAMETER]
    cdn = scal[CD_N]
    cdt = scal[CD_T]
    kn = 0.5 * rho * cdn * diameter  # cross-flow drag per metre and (m/s)^2 [kg/m^2]
    kt = 0.5 * rho * cdt * math.pi * diameter
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
        T = voigt_tension(flags, scal, strain, strain_rate)
        tension[e] = T
        fx = T * qx
        fy = T * qy
        fz = T * qz
        if rho > 0.0:
            # drag at the element centre, half to each node — seed 004 eqs. (2.12), (2.16)
            ux = 0.5 * (vel[e, 0] + vel[e + 1, 0]) - cux
            uy = 0.5 * (vel[e, 1] + vel[e + 1, 1]) - cuy
            uz = 0.5 * (vel[e, 2] + vel[e + 1, 2]) - cuz
            if cross_flow:
                hx, hy, hz = cross_flow_drag(kn * L, kt * L, qx, qy, qz, ux, uy, uz)
            else:
                element_drag(law, rho, diameter, L, cdn, cdt, qx, qy, qz, ux, uy, uz, tmp)
                hx = tmp[0]
                hy = tmp[1]
                hz = tmp[2]
            hx *= 0.5
            hy *= 0.5
            hz *= 0.5
            force[e, 0] += hx + fx
            force[e, 1] += hy + fy
            force[e, 2] += hz + fz
            force[e + 1, 0] += hx - fx
            force[e + 1, 1] += hy - fy
            force[e + 1, 2] += hz - fz
        else:
            add_pair(force, e, e + 1, fx, fy, fz)


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
        add_pair(force, e, e + 1, fx, fy, fz)
    for w in range(2):
        if flags[HELD0 + w]:
            continue
        mx = ends[w, MX]
        my = ends[w, MY]
        mz = ends[w, MZ]
        if mx == 0.0 and my == 0.0 and mz == 0.0:
            continue
        ramp = end_ramp(t, ends[w, RAMP])
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
        add_pair(force, 0 if w == 0 else N, 1 if w == 0 else N - 1, fx, fy, fz)


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
def _sea_loads(t, d, n):
    """The sea's fluid and seabed loads of the n live nodes into d.force (nodes.sea_loads)."""
    sea_loads(t, n, d.flags, d.scal, d.elem, d.ends, False, d.sea_par, d.sea_current,
              d.sea_wind, d.sea_waves, d.sea_grid, d.sea_bed, d.sea_bed_axes, d.sea_anchor,
              d.pos, d.vel, d.force, d.wadd, d.bedf, d.gnd, d.fout)


@inline_kernel
def _loads(t, y, d, n):
    """Positions, velocities and the tether's own nodal loads (tension, drag, weight,
    bending, the winch's material thrust) of the n live nodes of y into d.pos/vel/force."""
    flags = d.flags
    load_state(t, y, n, d.n_nodes, flags, d.breaks0, d.coeffs0, d.breaks1, d.coeffs1,
               d.motion, d.pos, d.vel)
    sea = d.sea_par[SEA_ACTIVE] != 0.0
    _tether_forces(n, flags, d.scal, d.elem, d.node, d.pos, d.vel, d.force, d.tangent,
                   d.length, d.tension, d.tmp, sea)
    if sea:
        _sea_loads(t, d, n)
    if flags[BENDING]:
        _bending_forces(t, n, flags, d.scal, d.ends, d.lu[:n - 1], d.bfac, d.clamp, d.pos,
                        d.vel, d.force, d.tangent, d.length, d.r2, d.r2dot, d.wb, d.shear,
                        d.tmp)
    if d.winch[W_ON] != 0.0:
        winch_thrust(n, d.winch, d.pos, d.vel, d.wstate[1], d.elem[winch_nodes(n, d.winch)[2],
                     L0], d.force, d.tmp)


@kernel
def rhs(t, y, dydt, d):
    """dy/dt for the lumped-mass cable: node velocities and accelerations, seed 004 (2.16)."""
    n = _prepare(t, y, d)
    ns = d.n_nodes
    _loads(t, y, d, n)
    rest_rates(t, y, n, ns, d.winch, d.tension, d.wstate, dydt)
    if d.sea_par[SEA_ACTIVE] != 0.0:  # added mass scaled by each element's medium
        node_rates(t, n, ns, d.flags, d.scal, d.node, d.ends, d.elem, d.wadd, 0, 1,
                   d.tangent, False, True, d.vel, d.force, d.motion, d.tmp, dydt)
    else:
        node_rates(t, n, ns, d.flags, d.scal, d.node, d.ends, d.elem, d.elem, ADDED_N,
                   ADDED_T, d.tangent, False, d.scal[RHO] > 0.0, d.vel, d.force, d.motion,
                   d.tmp, dydt)


# -- the lean path (no winch, no bending: LumpedMass.lean) ---------------------------------
# Columns of ``lean`` (constant, one row per node; element e's columns in row e): per node
# its weight w·g [N] (w = m − ρV, seed 004 eqs. (2.13), (2.16)), 1/m and m [kg] (payload
# included); per element L_u [m], 1/L_u [1/m], half its normal added mass ½a_n and
# ½(a_t − a_n) [kg] (eqs. (2.14)–(2.15)); per node its weight m·g [N] alone (the sea path:
# buoyancy comes per element with its wetted fraction, sea.py). Computed once, with the
# arithmetic the general path does per call, so both paths give the same numbers.
WG, INV_M, M_NODE, LU, INV_LU, AN_HALF, C_HALF, MG = 0, 3, 4, 5, 6, 7, 8, 9
N_LEAN = 12


def lean_table(node: np.ndarray, elem: np.ndarray, ends: np.ndarray, scal: np.ndarray
               ) -> np.ndarray:
    """The lean path's constant table (the comment above)."""
    n = node.shape[0]
    tab = np.zeros((n, N_LEAN))
    w = node[:, MASS] - scal[RHO] * node[:, VOLUME]
    for a in range(3):
        tab[:, WG + a] = w * scal[GX + a]
        tab[:, MG + a] = node[:, MASS] * scal[GX + a]
    m = node[:, MASS].copy()
    m[0] += ends[0, PAYLOAD]
    m[n - 1] += ends[1, PAYLOAD]
    # (a winch's spare node rows have no mass: never read, 0 here)
    tab[:, INV_M] = np.divide(1.0, m, out=np.zeros(n), where=m != 0.0)
    tab[:, M_NODE] = m
    N = elem.shape[0]
    tab[:N, LU] = elem[:, L0]
    tab[:N, INV_LU] = 1.0 / elem[:, L0]
    tab[:N, AN_HALF] = 0.5 * elem[:, ADDED_N]
    tab[:N, C_HALF] = 0.5 * elem[:, ADDED_T] - tab[:N, AN_HALF]
    return tab


def calm_sea(par: np.ndarray, current: np.ndarray, scal: np.ndarray) -> bool:
    """Whether an active sea (sea.sea_arrays' ``par``, ``current``) is one the lean fluid
    pass covers (:func:`_lean_fluid`): no waves, a uniform current (scal's, a table of one
    row), a plane seabed or none, and water of the calm fluid's density."""
    return bool(par[HAS_WAVES] == 0.0 and par[CUR_LAW] == TABLE and current.shape[0] == 1
                and np.array_equal(current[0, 1:], scal[UX:UZ + 1])
                and par[BED] in (0.0, PLANE) and scal[RHO] > 0.0
                and par[RHO_WATER] == scal[RHO])


@inline_kernel
def _lean_element(x0, y0, z0, u0, w0, s0, x1, y1, z1, u1, w1, s1, Lu, inv_Lu, EA, C,
                  compression, slack_damping):
    """Length L [m], unit tangent q and Voigt tension T [N] of the element between two
    nodes (positions x, y, z [m], velocities u, w, s [m/s]) — seed 004 eqs. (2.3),
    (2.10), (2.11) (no winch: L'_u = 0, the general path's term is +0.0), (2.17)."""
    dx = x1 - x0
    dy = y1 - y0
    dz = z1 - z0
    L = math.sqrt(dx * dx + dy * dy + dz * dz)
    inv_L = 1.0 / L
    qx = dx * inv_L
    qy = dy * inv_L
    qz = dz * inv_L
    strain = (L - Lu) * inv_Lu
    strain_rate = ((u1 - u0) * qx + (w1 - w0) * qy + (s1 - s0) * qz) * inv_Lu
    return L, qx, qy, qz, voigt_law(EA, C, compression, slack_damping, strain, strain_rate)


@inline_kernel
def _lean_end(t, i, w, scal, ends, lean, fluid, fx, fy, fz, vx, vy, vz, an0, c0, ax, ay, az,
              an1, c1, bx, by, bz, tmp, sea):
    """Acceleration [m/s²] of free end node i (w = 0 start, 1 end) from the tether's load f
    [N] on it: its payload's load added (nodes.payload_load; in a calm sea, ``sea``, also
    its body's, nodes.sea_body_load in water), then M⁻¹f with the halves of the added mass
    of its element (``fluid``, nodes.added_mass_solve) or f/m — seed 004 eq. (2.16)."""
    payload_load(t, ends, w, scal, vx, vy, vz, tmp)
    fx += tmp[0]
    fy += tmp[1]
    fz += tmp[2]
    if sea and (ends[w, BODY_V] > 0.0 or ends[w, BODY_DRAG] > 0.0):
        # nodes.sea_body_load in calm water (the node is wet: _lean_fluid checked it):
        # buoyancy −ρVg and drag −½ρ C_dA |v − u|(v − u) on the uniform current; a
        # steady flow has no acceleration, so no Morison inertia — seed 004 §2.3.2
        rho = scal[RHO]
        m = rho * ends[w, BODY_V]
        rx = vx - scal[UX]
        ry = vy - scal[UY]
        rz = vz - scal[UZ]
        c = -0.5 * rho * ends[w, BODY_DRAG] * math.sqrt(rx * rx + ry * ry + rz * rz)
        fx += -m * scal[GX] + c * rx
        fy += -m * scal[GY] + c * ry
        fz += -m * scal[GZ] + c * rz
    if fluid:
        return added_mass_solve(lean[i, M_NODE], an0, c0, ax, ay, az, an1, c1, bx, by, bz,
                                fx, fy, fz)
    inv_m = lean[i, INV_M]
    return fx * inv_m, fy * inv_m, fz * inv_m


@inline_kernel
def _vacuum_element(e, i, x0, y0, z0, u0, w0, s0, x1, y1, z1, u1, w1, s1, lean, EA, C,
                    compression, slack_damping, dydt, tangent):
    """Element e's tension force f = T q̂ [N] on its first node into dydt[i:i + 3] (the
    node's acceleration row, scratch until the node pass) and q̂ into tangent[e]."""
    L, qx, qy, qz, T = _lean_element(x0, y0, z0, u0, w0, s0, x1, y1, z1, u1, w1, s1,
                                     lean[e, LU], lean[e, INV_LU], EA, C, compression,
                                     slack_damping)
    dydt[i] = T * qx
    dydt[i + 1] = T * qy
    dydt[i + 2] = T * qz
    tangent[e, 0] = qx
    tangent[e, 1] = qy
    tangent[e, 2] = qz


@kernel
def _lean_vacuum(t, y, dydt, n, lean, EA, C, compression, slack_damping, held0, held1,
                 motion, b0, coef0, b1, coef1, scal, ends, tmp, force, tangent):
    """:func:`rhs_lean_vacuum`'s passes: tension and weight, a = f/m (and the end rows,
    :func:`_lean_fluid`). An element pass (each element's tension force on its first
    node into that node's acceleration row: scratch), then a node pass (weight, the
    element before's −f, the element after's f, over m) — two passes as in
    :func:`_lean_fluid`; the last element, whose second node may be held, after the
    loop, so that the loop reads every node straight from y."""
    v0 = 3 * n
    for k in range(v0):
        dydt[k] = y[v0 + k]
    if held0:
        eval_motion(b0, coef0, t, motion[0])
    if held1:
        eval_motion(b1, coef1, t, motion[1])
    last = n - 1
    x0, y0, z0, u0, w0, s0 = _node_at(y, v0, 0, held0, motion, 0)
    for e in range(last - 1):  # node e + 1 is an inner node
        j = 3 * e + 3
        x1, y1, z1, u1, w1, s1 = y[j], y[j + 1], y[j + 2], y[v0 + j], y[v0 + j + 1], \
            y[v0 + j + 2]
        _vacuum_element(e, v0 + 3 * e, x0, y0, z0, u0, w0, s0, x1, y1, z1, u1, w1, s1, lean,
                        EA, C, compression, slack_damping, dydt, tangent)
        x0, y0, z0, u0, w0, s0 = x1, y1, z1, u1, w1, s1
    e = last - 1
    x1, y1, z1, u1, w1, s1 = _node_at(y, v0, 3 * last, held1, motion, 1)
    _vacuum_element(e, v0 + 3 * e, x0, y0, z0, u0, w0, s0, x1, y1, z1, u1, w1, s1, lean, EA,
                    C, compression, slack_damping, dydt, tangent)
    # the nodes: weight, −f of the element before, f of the element after, over m
    fx = lean[0, WG] + dydt[v0]
    fy = lean[0, WG + 1] + dydt[v0 + 1]
    fz = lean[0, WG + 2] + dydt[v0 + 2]
    px = dydt[v0]
    py = dydt[v0 + 1]
    pz = dydt[v0 + 2]
    force[0, 0] = fx
    force[0, 1] = fy
    force[0, 2] = fz
    if not held0:
        dydt[v0], dydt[v0 + 1], dydt[v0 + 2] = _lean_end(
            t, 0, 0, scal, ends, lean, False, fx, fy, fz, y[v0], y[v0 + 1], y[v0 + 2], 0.0,
            0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, tmp, False)
    for e in range(1, last):
        i = v0 + 3 * e
        fx = dydt[i]
        fy = dydt[i + 1]
        fz = dydt[i + 2]
        inv_m = lean[e, INV_M]
        dydt[i] = (lean[e, WG] - px + fx) * inv_m
        dydt[i + 1] = (lean[e, WG + 1] - py + fy) * inv_m
        dydt[i + 2] = (lean[e, WG + 2] - pz + fz) * inv_m
        px = fx
        py = fy
        pz = fz
    if held1:
        for a in range(3):
            dydt[3 * last + a] = motion[1, 1, a]
    if held0:
        for a in range(3):
            dydt[a] = motion[0, 1, a]
    _lean_ends(t, n, v0, held0, held1, motion, scal, ends, lean, False, -px, -py, -pz,
               y[v0 + 3 * last], y[v0 + 3 * last + 1], y[v0 + 3 * last + 2], 0.0, 0.0, 0.0,
               0.0, 0.0, tmp, dydt, False, force)


@inline_kernel
def _end_rows(i, e, fx, fy, fz, qx, qy, qz, force, tangent):
    """End node i's tether load f [N] into force[i], its element e's unit tangent into
    tangent[e]: what a system's pass over its points and bodies reads (models/system.py)."""
    force[i, 0] = fx
    force[i, 1] = fy
    force[i, 2] = fz
    tangent[e, 0] = qx
    tangent[e, 1] = qy
    tangent[e, 2] = qz


@inline_kernel
def _lean_ends(t, n, v0, held0, held1, motion, scal, ends, lean, fluid, px, py, pz, u0, w0,
               s0, an, c, qx, qy, qz, tmp, dydt, sea, force):
    """The last node's acceleration (its weight and its element's load p [N]; a held end's
    prescribed one; its load into force) and a held start's prescribed acceleration."""
    last = n - 1
    i = v0 + 3 * last
    force[last, 0] = lean[last, WG] + px
    force[last, 1] = lean[last, WG + 1] + py
    force[last, 2] = lean[last, WG + 2] + pz
    if held1:
        dydt[i] = motion[1, 2, 0]
        dydt[i + 1] = motion[1, 2, 1]
        dydt[i + 2] = motion[1, 2, 2]
    else:
        dydt[i], dydt[i + 1], dydt[i + 2] = _lean_end(
            t, last, 1, scal, ends, lean, fluid, lean[last, WG] + px, lean[last, WG + 1] + py,
            lean[last, WG + 2] + pz, u0, w0, s0, an, c, qx, qy, qz, 0.0, 0.0, 0.0, 0.0, 0.0,
            tmp, sea)
    if held0:
        dydt[v0] = motion[0, 2, 0]
        dydt[v0 + 1] = motion[0, 2, 1]
        dydt[v0 + 2] = motion[0, 2, 2]


#: :func:`_calm_node`'s and :func:`_lean_fluid_rows`' answers: the calm pass covers the node
#: (the state); the node is in the air (the lean sea pass covers the state); the node is
#: free and in the seabed (the calm pass and the contact, :func:`_bed_contact`)
CALM, AIR, BEDDED = 0, 1, 2


@inline_kernel
def _calm_node(x, y, z, free, wl, bed, z0, a, b):
    """Where a node at (x, y, z) [m] is for the calm sea's loads: AIR above the water level
    ``wl`` (under it every element, both of whose nodes are, is wholly wet:
    sea.wetted_fraction gives 1), BEDDED when free and under a plane seabed (``bed``:
    z0 + a x + b y [m]; nodes.seabed_nodes' test), else CALM."""
    if z - wl > 0.0:
        return AIR
    if bed and free and z < z0 + a * x + b * y:
        return BEDDED
    return CALM


@inline_kernel
def _node_at(y, v0, j, held, motion, w):
    """Position [m] and velocity [m/s] of the node whose coordinates start at y[j]
    (velocity at y[v0 + j]); a held end w's from its motion at t (motion[w])."""
    if held:
        return (motion[w, 0, 0], motion[w, 0, 1], motion[w, 0, 2], motion[w, 1, 0],
                motion[w, 1, 1], motion[w, 1, 2])
    return y[j], y[j + 1], y[j + 2], y[v0 + j], y[v0 + j + 1], y[v0 + j + 2]


# The lean fluid pass works on rows (structure of arrays: one contiguous row per quantity
# and coordinate) rather than on the state's interleaved x, y, z: its element and node
# loops then compile to the processor's vector instructions (four elements or nodes per
# instruction, square roots and divisions included), which no loop over the interleaved
# state does. Row r of a line of n nodes is soa[r n:(r + 1) n]. Constant rows (soa_table,
# from the lean table, the same numbers): per element L_u, 1/L_u, ½a_n, ½(a_t − a_n); per
# node m and (m − ρV)g (3 rows). Work rows: the nodes' positions (3; the node pass writes
# their accelerations there) and velocities (3), per element its load on its first node
# h + f and on its second h − f (3 each), and q̂ (3).
S_LU, S_INV_LU, S_AN, S_C, S_M, S_WG, S_P, S_V, S_A, S_B, S_Q = (
    0, 1, 2, 3, 4, 5, 8, 11, 14, 17, 20)
N_SOA = 23
#: the fewest elements for which the rows' stride is the line's node count n and the loops
#: take each row as an argument of their own (:func:`_cross_flow_elements`): the compiler's
#: overlap checks between those rows repay from 32 elements on (measured: the vector loop
#: starts there); a shorter line's rows have the fixed stride ROWS_MIN and its loops index
#: the one array (:func:`_short_elements`: vector loops from 4 elements, no checks)
ROWS_MIN = 32
#: the lean fluid pass's compile options: a kernel's, with numpy's error model — a float
#: division by zero gives inf or NaN (IEEE) instead of a branch to a raised
#: ZeroDivisionError before every division, which keeps the loops from vectorising; a
#: degenerate state's NaN is caught by the time loop's finiteness scan (integrate/)
vector_kernel = njit(cache=True, _nrt=False, error_model="numpy")


def soa_table(lean: np.ndarray) -> np.ndarray:
    """The lean fluid pass's rows (the comment above): the constant rows from the lean
    table (a copy of its numbers), the work rows zero; each row n long, or ROWS_MIN on a
    line of fewer than ROWS_MIN elements (the padding zero, never read)."""
    n = lean.shape[0]
    tab = np.zeros((N_SOA, n if n - 1 >= ROWS_MIN else ROWS_MIN))
    for r, col in ((S_LU, LU), (S_INV_LU, INV_LU), (S_AN, AN_HALF), (S_C, C_HALF),
                   (S_M, M_NODE), (S_WG, WG), (S_WG + 1, WG + 1), (S_WG + 2, WG + 2)):
        tab[r, :n] = lean[:, col]
    return tab.ravel()


@inline_kernel
def _row(soa, r, n):
    """Row r of the rows ``soa`` of a line of n nodes (a view)."""
    return soa[r * n:(r + 1) * n]


@inline_kernel
def _element_loads(x0, y0, z0, u0, w0, s0, x1, y1, z1, u1, w1, s1, Lu, inv_Lu, EA, C,
                   compression, slack_damping, fluid, cross):
    """One element's loads in the lean fluid pass (:func:`_lean_fluid`), nodes at positions
    x, y, z [m] with velocities u, w, s [m/s]: its tension force f = T q̂ (seed 004
    eqs. (2.3), (2.10), (2.11), (2.17), :func:`_lean_element`) and h, half its drag at its
    centre (eqs. (2.12), (2.16); ``cross`` a literal: the CROSS_FLOW law,
    hydro.cross_flow_drag, or the law of ``fluid`` by hydro's kernel, a call). Returns
    h + f (its load on its first node), h − f (on its second) and q̂. ``fluid``: (law, ρ,
    d, C_d,n, C_d,t, current u_x, u_y, u_z, k_n, k_t)."""
    law, rho, diameter, cdn, cdt, cux, cuy, cuz, kn, kt = fluid
    L, qx, qy, qz, T = _lean_element(x0, y0, z0, u0, w0, s0, x1, y1, z1, u1, w1, s1, Lu,
                                     inv_Lu, EA, C, compression, slack_damping)
    fx = T * qx
    fy = T * qy
    fz = T * qz
    # drag at the element centre, half to each node — seed 004 eqs. (2.12), (2.16)
    ux = 0.5 * (u0 + u1) - cux
    uy = 0.5 * (w0 + w1) - cuy
    uz = 0.5 * (s0 + s1) - cuz
    if cross:
        hx, hy, hz = cross_flow_drag(kn * L, kt * L, qx, qy, qz, ux, uy, uz)
    else:  # hydro.element_drag's other laws, the same arithmetic, called
        hx, hy, hz = _drag_other(law, rho, diameter, L, cdn, cdt, qx, qy, qz, ux, uy, uz)
    hx *= 0.5
    hy *= 0.5
    hz *= 0.5
    return hx + fx, hy + fy, hz + fz, hx - fx, hy - fy, hz - fz, qx, qy, qz


@inline_kernel
def _fluid_elements(N, px, py, pz, vx, vy, vz, lu, ilu, ax, ay, az, bx, by, bz, tx, ty, tz,
                    EA, C, compression, slack_damping, fluid, cross):
    """The element pass of :func:`_lean_fluid` over the N elements (the rows of
    :func:`soa_table`: node positions p and velocities v, L_u, 1/L_u): each element's
    loads (:func:`_element_loads`) — h + f into A, h − f into B, q̂ into Q."""
    for e in range(N):
        ax[e], ay[e], az[e], bx[e], by[e], bz[e], tx[e], ty[e], tz[e] = _element_loads(
            px[e], py[e], pz[e], vx[e], vy[e], vz[e], px[e + 1], py[e + 1], pz[e + 1],
            vx[e + 1], vy[e + 1], vz[e + 1], lu[e], ilu[e], EA, C, compression,
            slack_damping, fluid, cross)


# The element and node loops are kernels of their own, each row a separate argument: the
# compiler then checks once, before the loop, that the rows do not overlap and runs the
# vector loop; on rows sliced from one array in the same function it cannot, and keeps
# the loop scalar (measured: 3.5x slower for the element loop).


@vector_kernel
def _row_elements(N, px, py, pz, vx, vy, vz, lu, ilu, ax, ay, az, bx, by, bz, tx, ty, tz, EA,
                  C, compression, slack_damping, fluid):
    """:func:`_fluid_elements`: with the CROSS_FLOW drag law a loop with no call in it (it
    vectorises), with another a loop calling hydro's kernel (scalar)."""
    if fluid[0] == CROSS_FLOW:
        _fluid_elements(N, px, py, pz, vx, vy, vz, lu, ilu, ax, ay, az, bx, by, bz, tx, ty,
                        tz, EA, C, compression, slack_damping, fluid, True)
    else:
        _fluid_elements(N, px, py, pz, vx, vy, vz, lu, ilu, ax, ay, az, bx, by, bz, tx, ty,
                        tz, EA, C, compression, slack_damping, fluid, False)


@vector_kernel
def _fluid_nodes(last, m, an, c, gx, gy, gz, ax, ay, az, bx, by, bz, tx, ty, tz, outx, outy,
                 outz):
    """The node pass of :func:`_lean_fluid` over the inner nodes 1 … last − 1 (the rows of
    :func:`soa_table`): weight less buoyancy g, the load of the element before (B) and
    after (A), and the added mass of both solved in closed form (nodes.added_mass_solve),
    seed 004 eqs. (2.14)–(2.16) — the acceleration [m/s²] into out."""
    for i in range(1, last):
        e = i - 1
        outx[i], outy[i], outz[i] = added_mass_solve(
            m[i], an[e], c[e], tx[e], ty[e], tz[e], an[i], c[i], tx[i], ty[i], tz[i],
            gx[i] + bx[e] + ax[i], gy[i] + by[e] + ay[i], gz[i] + bz[e] + az[i])


# A line of fewer than ROWS_MIN elements keeps its rows at the fixed stride ROWS_MIN in soa
# (soa_table) and its loops index that one array at constant offsets: the compiler then
# knows the rows lie ROWS_MIN apart and runs the vector loop with no overlap check at all
# (the checks of the row-argument kernels above repay only from 32 elements on: measured,
# their vector loop starts at 32). The arithmetic is :func:`_element_loads`' and
# nodes.added_mass_solve's, as above.


@inline_kernel
def _short_loop(n, soa, EA, C, compression, slack_damping, fluid, cross):
    """:func:`_fluid_elements` on a line of n ≤ ROWS_MIN nodes (rows at stride ROWS_MIN)."""
    R = ROWS_MIN
    P = S_P * R
    V = S_V * R
    # n ≤ R always: the min bounds the offsets below for the compiler
    for e in range(min(n, R) - 1):
        (soa[S_A * R + e], soa[(S_A + 1) * R + e], soa[(S_A + 2) * R + e],
         soa[S_B * R + e], soa[(S_B + 1) * R + e], soa[(S_B + 2) * R + e],
         soa[S_Q * R + e], soa[(S_Q + 1) * R + e], soa[(S_Q + 2) * R + e]) = _element_loads(
            soa[P + e], soa[P + R + e], soa[P + 2 * R + e], soa[V + e], soa[V + R + e],
            soa[V + 2 * R + e], soa[P + e + 1], soa[P + R + e + 1], soa[P + 2 * R + e + 1],
            soa[V + e + 1], soa[V + R + e + 1], soa[V + 2 * R + e + 1], soa[S_LU * R + e],
            soa[S_INV_LU * R + e], EA, C, compression, slack_damping, fluid, cross)


@vector_kernel
def _short_elements(n, soa, EA, C, compression, slack_damping, fluid):
    """:func:`_row_elements` on a line of n ≤ ROWS_MIN nodes (:func:`_short_loop`)."""
    if fluid[0] == CROSS_FLOW:
        _short_loop(n, soa, EA, C, compression, slack_damping, fluid, True)
    else:
        _short_loop(n, soa, EA, C, compression, slack_damping, fluid, False)


@vector_kernel
def _short_nodes(n, soa):
    """:func:`_fluid_nodes` on a line of n ≤ ROWS_MIN nodes (rows at stride ROWS_MIN): the
    inner nodes' accelerations [m/s²] into the position rows."""
    R = ROWS_MIN
    A = S_A * R
    B = S_B * R
    Q = S_Q * R
    G = S_WG * R
    for i in range(1, min(n, R) - 1):
        e = i - 1
        soa[S_P * R + i], soa[(S_P + 1) * R + i], soa[(S_P + 2) * R + i] = added_mass_solve(
            soa[S_M * R + i], soa[S_AN * R + e], soa[S_C * R + e], soa[Q + e],
            soa[Q + R + e], soa[Q + 2 * R + e], soa[S_AN * R + i], soa[S_C * R + i],
            soa[Q + i], soa[Q + R + i], soa[Q + 2 * R + i],
            soa[G + i] + soa[B + e] + soa[A + i],
            soa[G + R + i] + soa[B + R + e] + soa[A + R + i],
            soa[G + 2 * R + i] + soa[B + 2 * R + e] + soa[A + 2 * R + i])


@kernel
def _lean_fluid_rows(t, y, dydt, n, lean, soa, EA, C, compression, slack_damping, held0, held1,
                motion, b0, coef0, b1, coef1, scal, ends, tmp, law, par, sea, force, tangent,
                wadd, bedded):
    """:func:`rhs_lean_fluid`'s passes: tension, weight less buoyancy, drag at the element
    centres (drag law ``law``, hydro.py) and the added mass (a 3x3 solve per node), on the
    rows ``soa`` (the comment above :func:`soa_table`).

    The nodes are copied from y into the position and velocity rows (held ends from their
    motion at t); an element pass (:func:`_fluid_elements`) leaves each element's loads on
    its two nodes and its unit tangent in rows; a node pass sums each inner node's weight
    and its two elements' loads and solves its added mass in closed form (seed 004
    eqs. (2.14)–(2.16), nodes.added_mass_solve) into rows; the end nodes (a payload, a free
    end's body in the sea, a held end's prescribed motion) after it; then dy/dt is
    written. The element and node loops are free of branches and of dependences between
    iterations, so the compiler vectorises them (the arithmetic per element and node is
    unchanged: dy/dt is the general path's bit for bit).

    ``sea``: a calm sea (LumpedMass.calm_sea: no waves, a uniform current, a plane seabed
    or none; ``par`` its sea_par): while every node is under the water level and every
    free node above the seabed, the sea path's loads (nodes.sea_loads: per element
    buoyancy, drag and added mass of water, no Morison inertia in a steady flow; no
    contact) are these. Returns False, dy/dt untouched, when a node is not (the caller
    then runs the lean sea pass, :func:`_lean_sea_rhs`); True when done. Writes the end
    nodes' loads (before a payload's) into force, the end elements' tangents into
    tangent and, in the sea, their added masses into wadd: what a system reads
    (models/system.py)."""
    v0 = 3 * n
    last = n - 1
    N = last
    short = N < ROWS_MIN
    r = ROWS_MIN if short else n  # the rows' stride (soa_table)
    if held0:
        eval_motion(b0, coef0, t, motion[0])
    if held1:
        eval_motion(b1, coef1, t, motion[1])
    px = _row(soa, S_P, r)
    py = _row(soa, S_P + 1, r)
    pz = _row(soa, S_P + 2, r)
    vx = _row(soa, S_V, r)
    vy = _row(soa, S_V + 1, r)
    vz = _row(soa, S_V + 2, r)
    # the velocities through views from v0 on: offsets that cannot be negative (y[v0 + j]'s
    # sign check with its wrap-around kept these copies scalar; benchmarks/
    # profile_system_step.py: a fifth of a 3 x 40 system step)
    yv = y[v0:]
    for i in range(n):
        j = 3 * i
        px[i] = y[j]
        py[i] = y[j + 1]
        pz[i] = y[j + 2]
        vx[i] = yv[j]
        vy[i] = yv[j + 1]
        vz[i] = yv[j + 2]
    if held0:
        px[0], py[0], pz[0] = motion[0, 0, 0], motion[0, 0, 1], motion[0, 0, 2]
        vx[0], vy[0], vz[0] = motion[0, 1, 0], motion[0, 1, 1], motion[0, 1, 2]
    if held1:
        px[last], py[last], pz[last] = motion[1, 0, 0], motion[1, 0, 1], motion[1, 0, 2]
        vx[last], vy[last], vz[last] = motion[1, 1, 0], motion[1, 1, 1], motion[1, 1, 2]
    answer = CALM
    if sea:
        wl = par[WATER_LEVEL] if par[HAS_SURFACE] != 0.0 else math.inf
        bed = par[BED] != 0.0
        for i in range(n):
            free = not ((i == 0 and held0) or (i == last and held1))
            where = _calm_node(px[i], py[i], pz[i], free, wl, bed, par[BED_Z0],
                               par[BED_DZDX], par[BED_DZDY])
            if where == AIR or (where == BEDDED and not bedded):
                return AIR
            if where == BEDDED:
                answer = BEDDED
    rho = scal[RHO]
    diameter = scal[DIAMETER]
    cdn = scal[CD_N]
    cdt = scal[CD_T]
    kn = 0.5 * rho * cdn * diameter  # cross-flow drag per metre and (m/s)^2 [kg/m^2]
    kt = 0.5 * rho * cdt * math.pi * diameter
    fluid = (law, rho, diameter, cdn, cdt, scal[UX], scal[UY], scal[UZ], kn, kt)
    ax = _row(soa, S_A, r)
    ay = _row(soa, S_A + 1, r)
    az = _row(soa, S_A + 2, r)
    bx = _row(soa, S_B, r)
    by = _row(soa, S_B + 1, r)
    bz = _row(soa, S_B + 2, r)
    tx = _row(soa, S_Q, r)
    ty = _row(soa, S_Q + 1, r)
    tz = _row(soa, S_Q + 2, r)
    lu = _row(soa, S_LU, r)
    ilu = _row(soa, S_INV_LU, r)
    # the element pass
    if short:
        _short_elements(n, soa, EA, C, compression, slack_damping, fluid)
    else:
        _row_elements(N, px, py, pz, vx, vy, vz, lu, ilu, ax, ay, az, bx, by, bz, tx, ty, tz,
                      EA, C, compression, slack_damping, fluid)
    if sea:
        for e in (0, last - 1):
            # the end elements' added mass as nodes.sea_loads leaves it in wadd (ρ_eff =
            # ρ_w wholly wet): the end nodes' mass matrices a system builds
            per = scal[DISPLACED] * par[RHO_WATER] * lean[e, LU]
            wadd[e, 0] = scal[CA_N] * per
            wadd[e, 1] = scal[CA_T] * per
    # the node pass (the inner nodes' accelerations into the position rows), then the ends
    an = _row(soa, S_AN, r)
    c = _row(soa, S_C, r)
    gx = _row(soa, S_WG, r)
    gy = _row(soa, S_WG + 1, r)
    gz = _row(soa, S_WG + 2, r)
    if short:
        _short_nodes(n, soa)
    else:
        _fluid_nodes(last, _row(soa, S_M, r), an, c, gx, gy, gz, ax, ay, az, bx, by, bz, tx,
                     ty, tz, px, py, pz)
    # the end nodes: their loads (before a payload's) into force, then a held end's
    # prescribed acceleration or a free end's own
    fx = gx[0] + ax[0]
    fy = gy[0] + ay[0]
    fz = gz[0] + az[0]
    force[0, 0] = fx
    force[0, 1] = fy
    force[0, 2] = fz
    if held0:
        px[0], py[0], pz[0] = motion[0, 2, 0], motion[0, 2, 1], motion[0, 2, 2]
    else:
        px[0], py[0], pz[0] = _lean_end(
            t, 0, 0, scal, ends, lean, True, fx, fy, fz, vx[0], vy[0], vz[0], 0.0, 0.0,
            0.0, 0.0, 0.0, an[0], c[0], tx[0], ty[0], tz[0], tmp, sea)
    e = N - 1
    fx = gx[last] + bx[e]
    fy = gy[last] + by[e]
    fz = gz[last] + bz[e]
    force[last, 0] = fx
    force[last, 1] = fy
    force[last, 2] = fz
    if held1:
        px[last], py[last], pz[last] = motion[1, 2, 0], motion[1, 2, 1], motion[1, 2, 2]
    else:
        px[last], py[last], pz[last] = _lean_end(
            t, last, 1, scal, ends, lean, True, fx, fy, fz, vx[last], vy[last], vz[last],
            an[e], c[e], tx[e], ty[e], tz[e], 0.0, 0.0, 0.0, 0.0, 0.0, tmp, sea)
    # dy/dt: the velocities from y (a held end's from its motion), the accelerations from
    # the rows; the end elements' tangents (what a system reads) into tangent
    dv = dydt[v0:]
    for k in range(v0):
        dydt[k] = yv[k]
    for i in range(n):
        j = 3 * i
        dv[j] = px[i]
        dv[j + 1] = py[i]
        dv[j + 2] = pz[i]
    for a in range(3):
        if held0:
            dydt[a] = motion[0, 1, a]
        if held1:
            dydt[3 * last + a] = motion[1, 1, a]
    for e in (0, N - 1):
        tangent[e, 0] = tx[e]
        tangent[e, 1] = ty[e]
        tangent[e, 2] = tz[e]
    return answer


@inline_kernel
def _lean_fluid(t, y, dydt, n, lean, soa, EA, C, compression, slack_damping, held0, held1,
                motion, b0, coef0, b1, coef1, scal, ends, tmp, law, par, sea, force, tangent,
                wadd):
    """The lean fluid pass, :func:`_lean_fluid_rows` (any line length, any drag law), for a
    system's line (models/system_bodies.py): True when done, False (dy/dt incomplete) when
    a node is in the air or in the seabed (the caller then steps the line generally)."""
    return _lean_fluid_rows(t, y, dydt, n, lean, soa, EA, C, compression, slack_damping,
                            held0, held1, motion, b0, coef0, b1, coef1, scal, ends, tmp, law,
                            par, sea, force, tangent, wadd, False) == CALM


@kernel
def _lean_sea(t, n, lean, EA, C, compression, slack_damping, held0, held1, motion, scal, ends,
              tmp, pos, vel, force, tangent, wadd, dydt):
    """:func:`_lean_sea_rhs`'s passes over the tether, after the sea's loads: ``force``
    holds per node its weight m·g plus the sea's loads (nodes.sea_loads: buoyancy, drag,
    Morison inertia per element by medium and wetted fraction, a free end's body, the
    seabed), ``wadd`` the elements' added masses scaled by their medium, pos/vel the nodes
    (held ends at t). An element pass (tension force f = T q̂ of eqs. (2.10)–(2.11), (2.17)
    on its first node into that node's acceleration row of dydt: scratch, q̂ into
    ``tangent``), then a node pass (the element before's −f, the element after's f, the
    added mass of both solved in closed form, nodes.added_mass_solve; seed 004
    eqs. (2.14)–(2.16)). The end nodes' loads (before a payload's) are left in force."""
    v0 = 3 * n
    N = n - 1
    for e in range(N):
        _vacuum_element(e, v0 + 3 * e, pos[e, 0], pos[e, 1], pos[e, 2], vel[e, 0], vel[e, 1],
                        vel[e, 2], pos[e + 1, 0], pos[e + 1, 1], pos[e + 1, 2], vel[e + 1, 0],
                        vel[e + 1, 1], vel[e + 1, 2], lean, EA, C, compression, slack_damping,
                        dydt, tangent)
    px = py = pz = 0.0  # f of the element before the node
    an0 = c0 = ax = ay = az = 0.0  # its ½a_n, ½(a_t − a_n), q̂ (none at node 0)
    for i in range(n):
        k = 3 * i
        fx = force[i, 0] - px
        fy = force[i, 1] - py
        fz = force[i, 2] - pz
        an1 = c1 = bx = by = bz = 0.0  # the element after (none at the last node)
        tx = ty = tz = 0.0
        if i < N:
            tx = dydt[v0 + k]
            ty = dydt[v0 + k + 1]
            tz = dydt[v0 + k + 2]
            an1 = 0.5 * wadd[i, 0]
            c1 = 0.5 * wadd[i, 1] - an1
            bx = tangent[i, 0]
            by = tangent[i, 1]
            bz = tangent[i, 2]
        fx += tx
        fy += ty
        fz += tz
        dydt[k] = vel[i, 0]
        dydt[k + 1] = vel[i, 1]
        dydt[k + 2] = vel[i, 2]
        end = i == 0 or i == N
        if end:
            force[i, 0] = fx
            force[i, 1] = fy
            force[i, 2] = fz
        if (i == 0 and held0) or (i == N and held1):
            w = 0 if i == 0 else 1
            dydt[v0 + k] = motion[w, 2, 0]
            dydt[v0 + k + 1] = motion[w, 2, 1]
            dydt[v0 + k + 2] = motion[w, 2, 2]
        elif end:
            dydt[v0 + k], dydt[v0 + k + 1], dydt[v0 + k + 2] = _lean_end(
                t, i, 0 if i == 0 else 1, scal, ends, lean, True, fx, fy, fz, vel[i, 0],
                vel[i, 1], vel[i, 2], an0, c0, ax, ay, az, an1, c1, bx, by, bz, tmp, False)
        else:
            dydt[v0 + k], dydt[v0 + k + 1], dydt[v0 + k + 2] = added_mass_solve(
                lean[i, M_NODE], an0, c0, ax, ay, az, an1, c1, bx, by, bz, fx, fy, fz)
        px, py, pz = tx, ty, tz
        an0, c0, ax, ay, az = an1, c1, bx, by, bz


@inline_kernel
def _lean_sea_rhs(t, y, dydt, d):
    """dy/dt of a line without winch or bending in any sea (LEAN_SEA, or a calm sea's state
    the calm pass does not cover): the nodes from y (nodes.load_state), each node's weight
    m·g, the sea's loads of the general path (nodes.sea_loads: one compiled kernel, the
    same for every formulation), then :func:`_lean_sea`. The same loads as :func:`rhs`
    summed in another order (dy/dt equal to rounding)."""
    n = d.n_nodes
    f = d.flags
    s = d.scal
    load_state(t, y, n, n, f, d.breaks0, d.coeffs0, d.breaks1, d.coeffs1, d.motion, d.pos,
               d.vel)
    lean = d.lean
    force = d.force
    for i in range(n):
        force[i, 0] = lean[i, MG]
        force[i, 1] = lean[i, MG + 1]
        force[i, 2] = lean[i, MG + 2]
    _sea_loads(t, d, n)
    _lean_sea(t, n, lean, s[EA], s[DAMPING], f[COMPRESSION] != 0, f[SLACK_DAMPING] != 0,
              f[HELD0] != 0, f[HELD1] != 0, d.motion, s, d.ends, d.tmp, d.pos, d.vel, force,
              d.tangent, d.wadd, dydt)


@inline_kernel
def _bed_node(i, y, n, held0, held1, motion, pos, vel):
    """Node i's position [m] and velocity [m/s] into pos[i], vel[i] (a held end's from its
    motion at t), for the contact geometry of :func:`_bed_contact`."""
    w = 0 if i == 0 and held0 else 1 if i == n - 1 and held1 else -1
    for a in range(3):
        if w >= 0:
            pos[i, a] = motion[w, 0, a]
            vel[i, a] = motion[w, 1, a]
        else:
            pos[i, a] = y[3 * i + a]
            vel[i, a] = y[3 * n + 3 * i + a]


@kernel
def _bed_contact(y, dydt, n, held0, held1, par, motion, pos, vel, out, soa, lean, elem, bed,
                 bed_axes, anchor, gnd, bedf, diameter):
    """The seabed's contact and friction on the free nodes in a plane seabed, added to the
    calm pass's dy/dt (:func:`_lean_fluid_rows` answered BEDDED; the rest of the calm
    sea's loads are the calm pass's there): per free node under the plane (nodes.seabed_nodes'
    test), its contact geometry and force from the shared kernels (nodes.contact_geometry,
    sea.seabed_force, into bedf and gnd as nodes.seabed_nodes leaves them), then M⁻¹f_b
    with the added mass of its elements from the rows (M is linear: the sea path's
    M⁻¹(f + f_b) to rounding) — seed 004 eqs. (2.14)–(2.16). A kernel of its own, called
    only then (the arrays of the run data it reads handed over)."""
    r = ROWS_MIN if n - 1 < ROWS_MIN else n  # the rows' stride (soa_table)
    v0 = 3 * n
    for i in range(n):
        gnd[i] = 0.0
        bedf[i, 0] = 0.0
        bedf[i, 1] = 0.0
        bedf[i, 2] = 0.0
    for i in range(n):
        if (i == 0 and held0) or (i == n - 1 and held1):
            continue  # a held end's holder takes the bed, not the tether
        j = 3 * i
        if y[j + 2] >= par[BED_Z0] + par[BED_DZDX] * y[j] + par[BED_DZDY] * y[j + 1]:
            continue  # above the bed: no contact
        for k in range(max(i - 1, 0), min(i + 2, n)):
            _bed_node(k, y, n, held0, held1, motion, pos, vel)
        tx, ty, tz, lc = contact_geometry(i, n, elem, pos)
        gnd[i] = seabed_force(par, bed, bed_axes, anchor, i, pos[i, 0], pos[i, 1], pos[i, 2],
                              vel[i, 0], vel[i, 1], vel[i, 2], tx, ty, tz, lc, diameter, out)
        fx = out[0]
        fy = out[1]
        fz = out[2]
        bedf[i, 0] = fx
        bedf[i, 1] = fy
        bedf[i, 2] = fz
        an0 = c0 = ax = ay = az = 0.0  # the element before (none at node 0)
        an1 = c1 = bx = by = bz = 0.0  # the element after (none at the last node)
        if i > 0:
            e = i - 1
            an0 = soa[S_AN * r + e]
            c0 = soa[S_C * r + e]
            ax = soa[S_Q * r + e]
            ay = soa[(S_Q + 1) * r + e]
            az = soa[(S_Q + 2) * r + e]
        if i < n - 1:
            an1 = soa[S_AN * r + i]
            c1 = soa[S_C * r + i]
            bx = soa[S_Q * r + i]
            by = soa[(S_Q + 1) * r + i]
            bz = soa[(S_Q + 2) * r + i]
        gx, gy, gz = added_mass_solve(lean[i, M_NODE], an0, c0, ax, ay, az, an1, c1, bx, by,
                                      bz, fx, fy, fz)
        k = v0 + j
        dydt[k] += gx
        dydt[k + 1] += gy
        dydt[k + 2] += gz


# The lean path's right-hand sides (LumpedMass.lean; the model picks one when it is built):
# the equations and arithmetic of :func:`rhs` (seed 004 eqs. (2.10)–(2.17)) in an element
# pass and a node pass, the element loads kept in dydt's own rows until the node pass reads
# them, positions and velocities read straight from y (held ends from their motion at t),
# the constants handed over as values (a fluid pass on a line of ROWS_MIN elements or
# more: on rows, :func:`_lean_fluid_rows`). They store no per-element arrays but the
# elements' tangents (the rows pass: the end elements') and the end nodes' loads (what a
# system reads; tension, length: :func:`rhs` fills them for the results).
# Inlined into their caller (a time loop, a system's rhs), so that only the arrays the pass
# reads are handed over, not the data tuple (measured: ~0.13 us per call at N = 10).


@inline_kernel
def rhs_lean_vacuum(t, y, dydt, d):
    """dy/dt of a lumped-mass cable without winch, bending, sea or fluid (module comment
    above): tension and weight, a = f/m."""
    s = d.scal
    f = d.flags
    _lean_vacuum(t, y, dydt, d.n_nodes, d.lean, s[EA], s[DAMPING], f[COMPRESSION] != 0,
                 f[SLACK_DAMPING] != 0, f[HELD0] != 0, f[HELD1] != 0, d.motion, d.breaks0,
                 d.coeffs0, d.breaks1, d.coeffs1, s, d.ends, d.tmp, d.force, d.tangent)


@inline_kernel
def rhs_lean_fluid(t, y, dydt, d):
    """dy/dt of a lumped-mass cable without winch or bending in a fluid or a sea (module
    comment above): in a calm fluid or a calm sea tension, weight less buoyancy, drag and
    added mass (:func:`_lean_fluid`); a state that pass does not cover (a node above the
    water level or below the seabed), and any other sea (waves, current or wind profiles:
    flags[LEAN] == LEAN_SEA), through :func:`_lean_sea_rhs`."""
    s = d.scal
    f = d.flags
    where = AIR
    if f[LEAN] != LEAN_SEA:
        where = _lean_fluid_rows(
            t, y, dydt, d.n_nodes, d.lean, d.soa, s[EA], s[DAMPING], f[COMPRESSION] != 0,
            f[SLACK_DAMPING] != 0, f[HELD0] != 0, f[HELD1] != 0, d.motion, d.breaks0,
            d.coeffs0, d.breaks1, d.coeffs1, s, d.ends, d.tmp, f[DRAG_LAW], d.sea_par,
            d.sea_par[SEA_ACTIVE] != 0.0, d.force, d.tangent, d.wadd, True)
    if where == AIR:  # (one call site: the time loop inlines this function four times)
        _lean_sea_rhs(t, y, dydt, d)
    elif where == BEDDED:
        _bed_contact(y, dydt, d.n_nodes, f[HELD0] != 0, f[HELD1] != 0, d.sea_par, d.motion,
                     d.pos, d.vel, d.fout, d.soa, d.lean, d.elem, d.sea_bed, d.sea_bed_axes,
                     d.sea_anchor, d.gnd, d.bedf, s[DIAMETER])


@kernel
def _held_ends(t, y, n, held0, held1, motion, b0, coef0, b1, coef1):
    """Overwrite the held ends' positions and velocities in y (n nodes) with their motion
    at t (nodes.enforce without a winch)."""
    v0 = 3 * n
    if held0:
        eval_motion(b0, coef0, t, motion[0])
        for a in range(3):
            y[a] = motion[0, 0, a]
            y[v0 + a] = motion[0, 1, a]
    if held1:
        eval_motion(b1, coef1, t, motion[1])
        j = 3 * (n - 1)
        for a in range(3):
            y[j + a] = motion[1, 0, a]
            y[v0 + j + a] = motion[1, 1, a]


@inline_kernel
def enforce_lean(t, y, d):
    """The lean path's ``enforce`` (nodes.enforce without a winch), inlined into the time
    loop like :func:`rhs_lean_vacuum`: only the arrays it reads are handed over."""
    f = d.flags
    _held_ends(t, y, d.n_nodes, f[HELD0] != 0, f[HELD1] != 0, d.motion, d.breaks0, d.coeffs0,
               d.breaks1, d.coeffs1)


@inline_kernel
def off_bed(y, n, flags, par, bed, bed_axes, anchor, work):
    """Whether no free node of the n live nodes of y is in the seabed; if so, every free
    node's friction anchor is cleared — all that nodes.sea_anchors does then (a node above
    the bed has none), without its copy of the state (``work``: 3 floats)."""
    for i in range(n):
        if node_held(i, n, flags):
            continue
        if y[3 * i + 2] < seabed_depth(par, bed, bed_axes, y[3 * i], y[3 * i + 1], work):
            return False
    for i in range(n):
        if not node_held(i, n, flags):
            anchor[i, 3] = 0.0
    return True


@inline_kernel
def remesh_plane_bed(t, y, d):
    """The lean path's ``remesh`` on a plane seabed (no winch): per free node its friction
    anchor (sea.update_anchor with nodes.contact_geometry, as nodes.sea_anchors sets it;
    off the bed cleared) in one pass over y, reading the three nodes of a grounded one's
    geometry alone; 0 (y unchanged). Inlined into the time loop like
    :func:`rhs_lean_vacuum`."""
    n = d.n_nodes
    f = d.flags
    held0 = f[HELD0] != 0
    held1 = f[HELD1] != 0
    par = d.sea_par
    anchor = d.sea_anchor
    for i in range(n):
        if (i == 0 and held0) or (i == n - 1 and held1):
            continue
        j = 3 * i
        if y[j + 2] >= par[BED_Z0] + par[BED_DZDX] * y[j] + par[BED_DZDY] * y[j + 1]:
            anchor[i, 3] = 0.0  # lifted off (update_anchor's rule, without the geometry)
            continue
        for k in range(max(i - 1, 0), min(i + 2, n)):  # held ends: y holds their motion
            _bed_node(k, y, n, False, False, d.motion, d.pos, d.vel)
        tx, ty, tz, lc = contact_geometry(i, n, d.elem, d.pos)
        update_anchor(par, d.sea_bed, d.sea_bed_axes, anchor, i, y[j], y[j + 1], y[j + 2],
                      tx, ty, tz, lc, d.scal[DIAMETER])
    return 0


@kernel
def remesh(t, y, d):
    """After an accepted step: the seabed's friction anchors (sea.update_anchor), a winch's
    split or merge (winch.py; the anchors follow their nodes); 1 when y changed. A
    controller stepped with generalized_alpha (STEPPED) also takes its command here."""
    w = d.winch
    ns = d.n_nodes
    bed = d.sea_par[BED] != 0.0
    if bed:
        n = active_nodes(y, ns, w)
        if not off_bed(y, n, d.flags, d.sea_par, d.sea_bed, d.sea_bed_axes, d.sea_anchor,
                       d.fout):
            sea_anchors(y, n, ns, d.flags, d.scal, d.elem, d.sea_par, d.sea_bed,
                        d.sea_bed_axes, d.sea_anchor, d.pos, d.vel, d.fout)
    if w[W_ON] == 0.0:
        return 0
    n0 = active_nodes(y, ns, w)
    # the winch element's tension of the last evaluation, before a split or merge renumbers
    tension = d.tension[winch_nodes(n0, w)[2]]
    changed = remesh_nodes(t, y, ns, w, d.elem, d.node, d.held, d.flags[HELD0],
                           d.flags[HELD1], d.tmp, d.r2, w[W_SPLINE] != 0.0)
    if changed and bed:
        shift_anchors(d.sea_anchor, n0, active_nodes(y, ns, w), w[W_SIDE])
    if w[W_MODE] == STEPPED:
        control_segment(t, y, ns, w, tension, d.wbreaks, d.wcoeffs)
    return changed


@kernel
def check(t, y, d):
    """Index of an element with non-finite or absurd strain, or -1 when the state is sound."""
    return absurd_element(y, _prepare(t, y, d), d.n_nodes, d.elem)


# -- second-order surface (generalized_alpha; models/base.py) ---------------------------
# q = [r_0, …, r_N] (3 per node), so a node couples to its neighbours' coordinates at most
# 5 indices away: band = 5. Held ends' nodes are held coordinates.


@kernel
def force(t, y, F, d):
    """Generalized applied force F [N] on every coordinate: tension, damping, weight and
    buoyancy, drag, and at free ends the applied force and payload weight/drag — seed 004
    eq. (2.16)'s right-hand side, without inertia. Held coordinates are read from y."""
    n = _prepare(t, y, d)
    ns = d.n_nodes
    scal, ends, vel, force_, tmp = d.scal, d.ends, d.vel, d.force, d.tmp
    positions_from(y, n, ns, d.pos, vel)
    sea = d.sea_par[SEA_ACTIVE] != 0.0
    _tether_forces(n, d.flags, scal, d.elem, d.node, d.pos, vel, force_, d.tangent, d.length,
                   d.tension, tmp, sea)
    if sea:
        _sea_loads(t, d, n)
    if d.flags[BENDING]:
        _bending_forces(t, n, d.flags, scal, ends, d.lu[:n - 1], d.bfac, d.clamp, d.pos, vel,
                        force_, d.tangent, d.length, d.r2, d.r2dot, d.wb, d.shear, tmp)
    has_winch = d.winch[W_ON] != 0.0
    if has_winch:
        winch_thrust(n, d.winch, d.pos, vel, d.wstate[1], d.elem[winch_nodes(n, d.winch)[2],
                     L0], force_, tmp)
    force_rows(t, n, d.flags, scal, ends, vel, force_, has_winch, tmp, F)


@kernel
def mass(t, y, Mb, d):
    """Mass matrix [kg] in lower band storage Mb[k, j] = M[j + k, j] (band 5): per node the
    point mass (payload included) plus the added mass of its half elements, seed 004
    eqs. (2.14)–(2.15); block diagonal (no coupling between nodes). Dead rows and a winch's
    pseudo-node get 1."""
    n = _prepare(t, y, d)
    tangent = d.tangent
    sea = d.sea_par[SEA_ACTIVE] != 0.0
    fluid = sea or d.scal[RHO] > 0.0
    if fluid:
        for e in range(n - 1):
            dx = y[3 * (e + 1)] - y[3 * e]
            dy = y[3 * (e + 1) + 1] - y[3 * e + 1]
            dz = y[3 * (e + 1) + 2] - y[3 * e + 2]
            inv_L = 1.0 / math.sqrt(dx * dx + dy * dy + dz * dz)
            tangent[e, 0] = dx * inv_L
            tangent[e, 1] = dy * inv_L
            tangent[e, 2] = dz * inv_L
    if sea:  # added mass scaled by each element's medium
        positions_from(y, n, d.n_nodes, d.pos, d.vel)
        sea_added_mass(t, n, d.scal, d.elem, False, d.sea_par, d.sea_waves, d.sea_grid,
                       d.pos, d.wadd, d.fout)
        mass_rows(n, d.node, d.ends, d.elem, d.wadd, 0, 1, tangent, False, fluid, d.motion[2],
                  Mb)
    else:
        mass_rows(n, d.node, d.ends, d.elem, d.elem, ADDED_N, ADDED_T, tangent, False, fluid,
                  d.motion[2], Mb)


@inline_kernel
def instant(j, t, y, dydt, d, replay, M, tension, start_force, end_force, curvature, shear,
            eta, grounded, bed_force, winch_out):
    """The results of output instant j at time t [s] and state y, from the loads and rates
    ``rhs`` just left in d and dydt (see :func:`diagnostics`); returns (kinetic, potential)
    energy [J]. A system (models/system.py) calls it per line after its own rhs, whose
    dydt carries the points' accelerations at the lines' attached ends."""
    ns = d.n_nodes
    sea = d.sea_par[SEA_ACTIVE] != 0.0
    n = active_nodes(y, ns, d.winch)
    if sea:
        added, cn, ct = d.wadd, 0, 1
    else:
        added, cn, ct = d.elem, ADDED_N, ADDED_T
    ke, pe = instant_results(j, n, ns, d.flags, d.scal, d.node, d.ends, d.elem, added, cn,
                             ct, d.sea_par, d.winch, d.wstate, d.tangent, False, d.pos,
                             d.vel, d.force, d.tension, d.length, dydt, d.tmp, M, tension,
                             start_force, end_force, winch_out)
    if sea:
        sea_instant_of(j, t, y, n, ns, d, replay, eta, grounded, bed_force)
    if d.flags[BENDING]:
        r2 = d.r2
        for i in range(n):
            curvature[j, i] = math.sqrt(r2[i, 0] ** 2 + r2[i, 1] ** 2 + r2[i, 2] ** 2)
        for e in range(n - 1):
            shear[j, e] = d.shear[e]
        pe += 0.5 * d.scal[EI] * curvature_integral(r2, d.lu[:n - 1])  # bending energy
    return ke, pe


@kernel
def diagnostics(times, Y, d, replay, dydt, M, tension, start_force, end_force, kinetic,
                potential, curvature, shear, eta, grounded, bed_force, winch_out):
    """Element tension, end forces and energies at each output instant (results layer);
    with bending also the nodal curvature |r''| [1/m] and the element shear magnitude [N];
    with the sea the surface elevation [m], grounded flags and the seabed's force [N]
    (nodes.sea_instant). ``replay`` true: the friction anchors in d.sea_anchor are
    updated after each instant as a run does after each step (the caller hands a fresh
    copy: outputs of a whole run, sea.replay_anchors' rule).

    dydt (state size) and M (3x3) are work arrays; curvature/shear are only written when
    bending is on. Node and element columns beyond the live ones are left untouched (the
    caller pads them). With a winch, ``winch_out[j]`` gets [live nodes, deployed length ℓ
    [m], payout speed ṡ [m/s], momentum of the deployed tether and its far-end body
    (3) [kg m/s]] (nodes.instant_results).
    """
    for j in range(times.size):
        rhs(times[j], Y[j], dydt, d)
        ke, pe = instant(j, times[j], Y[j], dydt, d, replay, M, tension, start_force,
                         end_force, curvature, shear, eta, grounded, bed_force, winch_out)
        kinetic[j] = ke
        potential[j] = pe


class LumpedMass(NodeRows):
    """Lumped-mass Voigt cable (``model.type: lumped_mass``)."""

    supports = Supports(
        methods=("rk4", "rk45", "generalized_alpha"),
        drag_laws=("cross_flow", "loading_functions", "isotropic"),
        tether_keys=COMMON_TETHER_KEYS | {"EA", "axial_damping", "ca_normal", "ca_tangential",
                                          "compression"},
        required=("EA",),
        bending="bending",  # EI and bending_damping are used with model.bending: true only
        options={
            "slack_damping": Option(bool, True, "with compression: false, keep the Voigt "
                                    "damping force while an element is slack"),
            "bending": Option(bool, False, "add the discrete bending forces of the spline "
                              "through the nodes, seed 004 §3.2 (needs tether.EI > 0)"),
        },
        clamp=True, moment=True, winch=True,
    )

    name = "lumped_mass"
    fastest_mode = "axial (stiffest element)"
    rhs = staticmethod(rhs)
    remesh = staticmethod(remesh)
    check = staticmethod(check)
    run_fields = RUN_FIELDS
    # second-order surface (generalized_alpha)
    band = 5
    force = staticmethod(force)
    mass = staticmethod(mass)
    diagnostics = staticmethod(diagnostics)
    # curvature, bending shear; the sea's surface elevation, grounded, seabed force
    extra_results = ("node", "element", "node", "node", "node_axis")

    def __init__(self, case: Case) -> None:
        super().__init__(case)
        t = case.tether
        N = case.model.elements
        n = N + 1
        rho = case.environment.fluid_density
        # with a winch: node rows for the most live nodes plus the pseudo-node
        lay = self._winch_layout(case, added_per_element=True)
        winch, wbreaks, wcoeffs, ns = lay.params, lay.breaks, lay.coeffs, lay.slots
        L0, self.arc_length, node_mass, node_volume = lumped_nodes(case)
        ends = (case.start, case.end)
        m0, m1 = end_motions(case)
        bending = bool(case.model.option("bending"))
        self.bending = bending
        scal = base_scal(case, N_SCAL)
        if bending:
            scal[[EI, BEND_DAMP]] = (t.EI, t.bending_damping)
        flags = base_flags(case, N_FLAGS + 4)
        flags[BENDING] = bending
        end_table = np.zeros((2, N_ENDS))
        # clamp unit tangents (rows: start, end) and a zero row (a clamp's slope rate)
        clamp = np.zeros((3, 3))
        for w, e in enumerate(ends):
            if e.type == "free":
                free_end_row(e, rho, end_table[w])
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
            elem, node = with_spare_rows(elem, node, ns)
            lu = np.concatenate([lu, np.ones(ns - 1 - N)])
        if bending:
            nb, Nb = ns, ns - 1
            bfac = np.zeros((ns, 3))
            bfac[:n] = spline_factor(L0, CLAMPED if flags[CLAMP0] else FREE,
                                     CLAMPED if flags[CLAMP1] else FREE)
        else:  # 1-row placeholders the kernels never read
            nb, Nb = 1, 1
            bfac = np.zeros((1, 3))
        held = held_rows(case, n, ns)
        self.held = held  # the data's own array: a winch split or merge updates it
        lean = lean_table(node, elem, end_table, scal)
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
            **self._sea_arrays(case, ns, ns - 1, end_table),
            lean=lean,
            soa=soa_table(lean),
        )
        # the path is chosen here, once: a line without winch or bending steps with the
        # lean kernels (in a sea other than a calm one: LEAN_SEA); one with either with
        # the general one
        par = self.data.sea_par
        sea = par[SEA_ACTIVE] != 0.0
        self.calm_sea = sea and calm_sea(par, self.data.sea_current, scal)
        self.lean = not (self.winch or bending)
        if self.lean:
            fluid = scal[RHO] > 0.0 or sea
            flags[LEAN] = (LEAN_SEA if sea and not self.calm_sea else
                           LEAN_FLUID if fluid else LEAN_VACUUM)
            self.rhs = rhs_lean_fluid if fluid else rhs_lean_vacuum
            self.enforce = enforce_lean
            # the seabed's friction anchors after each step (on a plane bed the lean pass)
            self.remesh = (remesh_plane_bed if par[BED] == PLANE else
                           remesh if par[BED] != 0.0 else no_remesh)
        if self.winch:
            self._start_winch(n)
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
    def outputs(self, times: np.ndarray, Y: np.ndarray, data: tuple | None = None
                ) -> dict[str, np.ndarray]:
        res = self._result_arrays(times.size, np.nan if self.winch else 0.0)
        d, replay = self._replay_data(self.data if data is None else data)
        diagnostics(times, np.ascontiguousarray(Y), d, replay, np.empty(Y.shape[1]),
                    np.empty((3, 3)), *res)
        return self.outputs_from(Y, res)

    def outputs_from(self, Y: np.ndarray, res: list[np.ndarray]) -> dict[str, np.ndarray]:
        """The results variables from states Y and :func:`diagnostics`' arrays ``res``
        (:meth:`NodeRows._result_arrays`' order; a system fills them per line)."""
        tension, f0, f1, ke, pe, curv, shear, eta, grounded, bed_force, wout = res
        pos, vel = self.node_states(Y)
        out = dict(position=pos, velocity=vel, tension=tension, start_force=f0,
                   end_force=f1, kinetic_energy=ke, potential_energy=pe)
        if self.winch:
            out.update(winch_outputs(self.data.winch, wout, self.n_nodes))
        if self.sea_results:
            out.update(sea_outputs(eta, grounded, bed_force))
        if self.bending:
            out["curvature"] = (("time", "node"), curv, {
                "units": "1/m", "long_name": "curvature |r''| of the spline through the nodes"})
            out["bending_shear"] = (("time", "element"), shear, {
                "units": "N", "long_name": "magnitude of the element's bending shear force "
                "(elastic + bending damping)"})
        return out

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
