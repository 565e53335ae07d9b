"""Node rows: the state layout and compiled kernels lumped_mass and higher_order share.

Both formulations lump the tether's mass on N + 1 nodes, three coordinates each:
``y = [r_0, …, r_N, ṙ_0, …, ṙ_N]`` with ``ns`` node rows (with a winch: capacity plus the
winch's pseudo-node, winch.py; the live count is read from the state). Held ends stay in the
state and are overwritten with their prescribed motion. The kernels here are everything
that does not depend on how the tether between the nodes is drawn (straight elements,
seed 004 §2.2, or the cubic spline of ch. 4): reading the state, the point masses and the
3x3 nodal mass matrix, a free end's payload load, the node accelerations, the second-order
surface's rows (models/base.py), the held ends, the strain check and the results of one
output instant.

The packed arrays of both models start with the columns below (each model appends its own
after them). The element and node columns are the ones winch.py writes.
"""

from __future__ import annotations

import math

import numpy as np

from .._jit import inline_kernel, kernel
from ..boundary import end_motion_at, eval_motion, fixed_point, free_end_load
from ..hydro import DRAG_LAW_CODES
from ..initial import initial_nodes
from ..sea import (
    BED,
    C_BOT,
    ELEMENT_OUT,
    ETA_MAX,
    HAS_SURFACE,
    HAS_WAVES,
    K_BOT,
    RHO_AIR,
    RHO_WATER,
    SEA_ACTIVE,
    SEA_FIELDS,
    SEA_RUN_FIELDS,
    WATER_LEVEL,
    element_calm,
    element_wave_loads,
    fluid_at,
    sea_arrays,
    sea_time,
    seabed_depth,
    seabed_force,
    surface_height,
    update_anchor,
    wave_eta,
    wetted_fraction,
)
from ..winch import (
    ADDED_N,
    ADDED_T,
    L0,
    LDOT,
    MASS,
    VOLUME,
    W_LNOM,
    W_LO,
    W_ON,
    W_SIDE,
    active_nodes,
    enforce_payout,
    initial_winch_state,
    live_nodes,
    payout_state,
    relayout,
    winch_material,
    winch_nodes,
    winch_rates,
    winch_record,
    winch_setup,
)
from .base import Formulation, rk4_critical_step

__all__ = ["NodeRows"]

#: strain above which a run is declared blown up (1000 % stretch)
ABSURD_STRAIN = 10.0

# scal: tether, fluid, gravity and current, bending (0 without it), added-mass coefficients
# and displaced area per metre (read by the sea path); the models append theirs
(EA, DAMPING, RHO, DIAMETER, CD_N, CD_T, GX, GY, GZ, UX, UY, UZ, EI, BEND_DAMP, CA_N, CA_T,
 DISPLACED) = range(17)
N_SCAL = 17
# flags; the models append theirs from N_FLAGS on
COMPRESSION, SLACK_DAMPING, DRAG_LAW, HELD0, HELD1 = range(5)
N_FLAGS = 5
# ends columns (row 0 start, row 1 end); MX..MZ: a free end's applied moment [N m];
# PAYLOAD: a free end body's inertial mass (mass + added mass), WEIGHT: its weight mass
# (mass - rho V: the net weight over g); with the sea, WEIGHT is the body's mass, DRAG_AREA
# 0 and the body's volume [m^3], drag area [m^2] and added-mass coefficient go to BODY_V,
# BODY_DRAG, BODY_CA (sea_loads gives it buoyancy, drag and fluid inertia by the medium
# it is in); the models append theirs from N_ENDS on
PAYLOAD, RAMP, DRAG_AREA, FX, FY, FZ, MX, MY, MZ, WEIGHT, BODY_V, BODY_DRAG, BODY_CA = range(13)
N_ENDS = 13
# elem columns L0, ADDED_N, ADDED_T, LDOT (LDOT: rate of the unstretched length [m/s], a
# winch element's) and node columns MASS, VOLUME: winch.py's (it writes them)

#: the sea's packed arrays (sea.py) and the work arrays of the sea path, per model:
#: ``wadd`` (elements, 2) the added mass scaled by each element's medium (normal,
#: tangential; per element in lumped_mass, per metre in higher_order), ``fout`` element_fluid's
#: scratch, ``bedf`` (nodes, 3) the seabed's force [N] and ``gnd`` (nodes,) 1 where grounded
#: at the last evaluation
SEA_DATA_FIELDS = (*SEA_FIELDS, "wadd", "fout", "bedf", "gnd")
SEA_DATA_RUN_FIELDS = (*SEA_RUN_FIELDS, "wadd", "fout", "bedf", "gnd")


# -- small pieces (inlined into their callers) ------------------------------------------


@inline_kernel
def voigt_tension(flags, scal, strain, strain_rate):
    """Element tension [N] EA ε + C_ID ε̇ — seed 004 eqs. (2.10)–(2.11) — with the
    bilinear law of eq. (2.17) (no compression; slack damping optional)."""
    return voigt_law(scal[EA], scal[DAMPING], flags[COMPRESSION] != 0,
                     flags[SLACK_DAMPING] != 0, strain, strain_rate)


@inline_kernel
def voigt_law(EA, C, compression, slack_damping, strain, strain_rate):
    """:func:`voigt_tension` from values in registers: EA [N], C_ID [N s], whether the
    element carries compression and keeps its damping while slack."""
    elastic = EA * strain
    viscous = C * strain_rate
    if not compression and strain <= 0.0:  # bilinear law, seed 004 eq. (2.17)
        elastic = 0.0
        if not slack_damping:
            viscous = 0.0
    return elastic + viscous


@inline_kernel
def add_pair(force, i, j, fx, fy, fz):
    """Add f [N] to node i's load and −f to node j's (an element's equal and opposite
    nodal forces)."""
    force[i, 0] += fx
    force[i, 1] += fy
    force[i, 2] += fz
    force[j, 0] -= fx
    force[j, 1] -= fy
    force[j, 2] -= fz


@inline_kernel
def end_ramp(t, ramp_time):
    """Ramp factor t / ramp_time of an end load up to ramp_time [s], then 1."""
    if ramp_time > 0.0 and t < ramp_time:
        return t / ramp_time
    return 1.0


@inline_kernel
def payload_load(t, ends, w, scal, vx, vy, vz, out):
    """Applied force (ramped), payload weight and payload drag at free end w [N]."""
    free_end_load(t, ends[w, RAMP], ends[w, FX], ends[w, FY], ends[w, FZ], ends[w, WEIGHT],
                  ends[w, DRAG_AREA], scal[RHO], scal[GX], scal[GY], scal[GZ], scal[UX],
                  scal[UY], scal[UZ], vx, vy, vz, out)


@inline_kernel
def node_mass(i, n, node, ends):
    """Point mass at node i [kg]: the tether's lumped mass plus a payload at a free end."""
    m = node[i, MASS]
    if i == 0:
        m += ends[0, PAYLOAD]
    if i == n - 1:
        m += ends[1, PAYLOAD]
    return m


@inline_kernel
def mass_matrix(i, n, mass, elem, tangent, nodal, M):
    """Nodal 3x3 mass matrix [kg] with elem's own added mass (:func:`mass_matrix_of`)."""
    mass_matrix_of(i, n, mass, elem, elem, ADDED_N, ADDED_T, tangent, nodal, M)


@inline_kernel
def mass_matrix_of(i, n, mass, elem, added, cn, ct, tangent, nodal, M):
    """Nodal 3x3 mass matrix [kg]: mass·I plus, from each adjacent element, half its added
    mass A(q̂) = a_n (I − q̂q̂ᵀ) + a_t q̂q̂ᵀ, a_n = added[e, cn], a_t = added[e, ct] (elem's
    own columns, or the sea path's ``wadd`` scaled by the element's medium).

    ``nodal`` false (lumped_mass): ``tangent`` holds the element tangents and the added
    mass is per element — seed 004 eqs. (2.14)–(2.15). ``nodal`` true (higher_order):
    ``tangent`` holds the nodal spline tangents, the added mass is per metre, and each
    element's A is the average of its two nodes' — seed 004 eqs. (4.11), (4.23).
    """
    diag = mass
    m00 = m01 = m02 = m11 = m12 = m22 = 0.0
    for e in range(max(i - 1, 0), min(i + 1, n - 1)):
        if nodal:
            q = 0.25 * elem[e, L0]  # (L_u/2) · ½ per node of the element
            an = q * added[e, cn]
            c = q * added[e, ct] - an
        else:
            an = 0.5 * added[e, cn]
            c = 0.5 * added[e, ct] - an
        for j in range(e, e + 2 if nodal else e + 1):
            qx = tangent[j, 0]
            qy = tangent[j, 1]
            qz = tangent[j, 2]
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
def solve3(M, fx, fy, fz, out):
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
def element_added_solve(i, n, m, added, cn, ct, tangent, fx, fy, fz, out):
    """Solve M x = f at node i of straight elements (lumped_mass) in closed form [m/s^2]:
    M = m I + Σ_e ½(a_n (I − q̂q̂ᵀ) + a_t q̂q̂ᵀ) over its (one or two) elements, seed 004
    eqs. (2.14)–(2.15) — the same matrix as :func:`mass_matrix_of` with ``nodal`` false
    (a_n = added[e, cn], a_t = added[e, ct]).

    M = α I + c₀ q₀q₀ᵀ + c₁ q₁q₁ᵀ (α = m + Σ ½a_n, c = ½(a_t − a_n)). With z = (q₀·x, q₁·x)
    M x = f reads α x = f − c₀z₀q₀ − c₁z₁q₁, and projecting it on q₀, q₁ gives the 2x2
    system [[α + c₀, g c₁], [g c₀, α + c₁]] z = (q₀·f, q₁·f), g = q₀·q₁ (Woodbury's
    identity): ~30 flops and one division, against building M and solving it by
    cofactors (measured 60 → 32 ns per element and call in water,
    benchmarks/bench_lumped_mass.py). A missing element (an end node) has c = 0, q = 0.
    """
    an0 = an1 = c0 = c1 = 0.0
    ax = ay = az = 0.0  # q0: the element before the node (none at node 0)
    bx = by = bz = 0.0  # q1: the element after it (none at the last node)
    if i > 0:
        e = i - 1
        an0 = 0.5 * added[e, cn]
        c0 = 0.5 * added[e, ct] - an0
        ax = tangent[e, 0]
        ay = tangent[e, 1]
        az = tangent[e, 2]
    if i < n - 1:
        an1 = 0.5 * added[i, cn]
        c1 = 0.5 * added[i, ct] - an1
        bx = tangent[i, 0]
        by = tangent[i, 1]
        bz = tangent[i, 2]
    out[0], out[1], out[2] = added_mass_solve(m, an0, c0, ax, ay, az, an1, c1, bx, by, bz,
                                              fx, fy, fz)


@inline_kernel
def added_mass_solve(m, an0, c0, ax, ay, az, an1, c1, bx, by, bz, fx, fy, fz):
    """x = M⁻¹ f [m/s²] for M = α I + c₀ q₀q₀ᵀ + c₁ q₁q₁ᵀ, α = m + an0 + an1 (the closed
    form of :func:`element_added_solve`, from values in registers: an = ½a_n and
    c = ½(a_t − a_n) of the element before (0) and after (1) the node, q its unit tangent;
    a missing element has an = c = 0, q = 0) — seed 004 eqs. (2.14)–(2.15)."""
    alpha = m + an0 + an1
    g = ax * bx + ay * by + az * bz
    p0 = ax * fx + ay * fy + az * fz
    p1 = bx * fx + by * fy + bz * fz
    d0 = alpha + c0
    d1 = alpha + c1
    # z = ẑ / det of [[α + c₀, g c₁], [g c₀, α + c₁]] z = (p₀, p₁)
    det = d0 * d1 - g * g * c0 * c1
    z0 = c0 * (p0 * d1 - g * c1 * p1)
    z1 = c1 * (p1 * d0 - g * c0 * p0)
    s = 1.0 / (alpha * det)
    return ((det * fx - z0 * ax - z1 * bx) * s, (det * fy - z0 * ay - z1 * by) * s,
            (det * fz - z0 * az - z1 * bz) * s)


# -- the state ----------------------------------------------------------------------------


@inline_kernel
def held_motion(t, y, d, first, last, out):
    """The held ends' motion at t, rows ``first`` … ``last`` (0 position, 1 velocity, 2
    acceleration), into out: row k of the end node i at 3 ns (k − first) + 3 i. Returns the
    live node count of y."""
    ns = d.n_nodes
    n = active_nodes(y, ns, d.winch)
    for w in range(2):
        if d.flags[HELD0 + w]:
            i = 0 if w == 0 else n - 1
            end_motion_at(w, d.breaks0, d.coeffs0, d.breaks1, d.coeffs1, t, d.motion[w])
            for k in range(first, last + 1):
                for a in range(3):
                    out[3 * ns * (k - first) + 3 * i + a] = d.motion[w, k, a]
    return n


@kernel
def load_state(t, y, n, ns, flags, b0, c0, b1, c1, motion, pos, vel):
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


@kernel
def positions_from(y, n, ns, pos, vel):
    """Positions/velocities of the n live nodes straight from y (``ns`` node rows; held
    coordinates as given)."""
    for i in range(n):
        for a in range(3):
            pos[i, a] = y[3 * i + a]
            vel[i, a] = y[3 * ns + 3 * i + a]


@kernel
def rest_rates(t, y, n, ns, winch, tension, wstate, dydt):
    """Zero rates for the dead node rows; the winch pseudo-node's rates (winch.py)."""
    if winch[W_ON] == 0.0:
        return
    for i in range(n, ns - 1):
        for a in range(3):
            dydt[3 * i + a] = 0.0
            dydt[3 * ns + 3 * i + a] = 0.0
    winch_rates(t, y, ns, winch, tension[winch_nodes(n, winch)[2]], wstate[0], wstate[1],
                wstate[2], dydt)


@inline_kernel
def node_rates(t, n, ns, flags, scal, node, ends, elem, added, cn, ct, tangent, nodal, solve,
               vel, force, motion, tmp, dydt):
    """dy/dt of the n live nodes: velocities, and accelerations M⁻¹(tether load + a free
    end's payload load) — seed 004 eqs. (2.16), (4.35); held ends take their prescribed
    acceleration (motion[w, 2], from :func:`load_state`). ``solve`` false: M = m I (no
    fluid, lumped_mass), divided rather than solved; the added mass a_n, a_t is
    added[e, cn], added[e, ct] (:func:`mass_matrix_of`)."""
    M = motion[2]
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
                payload_load(t, ends, w, scal, vel[i, 0], vel[i, 1], vel[i, 2], tmp[3:6])
                fx += tmp[3]
                fy += tmp[4]
                fz += tmp[5]
        m = node_mass(i, n, node, ends)
        if solve and not nodal:
            element_added_solve(i, n, m, added, cn, ct, tangent, fx, fy, fz, tmp[6:9])
            for a in range(3):
                dydt[base + a] = tmp[6 + a]
        elif solve:
            mass_matrix_of(i, n, m, elem, added, cn, ct, tangent, nodal, M)
            solve3(M, fx, fy, fz, tmp[6:9])
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
    held_motion(t, y, d, 0, 1, y)
    if d.winch[W_ON] != 0.0:
        enforce_payout(t, y, d.n_nodes, d.winch, d.wbreaks, d.wcoeffs, d.wmotion, d.wstate)


@inline_kernel
def absurd_element(y, n, ns, elem):
    """Index of an element of the n live nodes of y with non-finite or absurd chord strain,
    or -1 when the state is sound (the models' ``check``)."""
    for e in range(n - 1):
        s = 0.0
        L2 = 0.0
        for a in range(3):
            dx = y[3 * (e + 1) + a] - y[3 * e + a]
            L2 += dx * dx
            s += y[3 * ns + 3 * e + a] + y[3 * ns + 3 * (e + 1) + a]
        if not (math.isfinite(L2) and math.isfinite(s)):
            return e
        if math.sqrt(L2) / elem[e, L0] - 1.0 > ABSURD_STRAIN:
            return e
    return -1


# -- second-order surface (generalized_alpha; models/base.py) ---------------------------


@inline_kernel
def force_rows(t, n, flags, scal, ends, vel, force, winch_on, tmp, F):
    """F [N] from the tether's nodal loads ``force`` of the n live nodes plus, at free ends,
    the applied force and payload weight/drag; a winch's dead rows and pseudo-node get 0."""
    if winch_on:
        for i in range(3 * n, F.size):  # dead rows and the (held) pseudo-node
            F[i] = 0.0
    for w in range(2):
        if not flags[HELD0 + w]:
            i = 0 if w == 0 else n - 1
            payload_load(t, ends, w, scal, vel[i, 0], vel[i, 1], vel[i, 2], tmp[3:6])
            for a in range(3):
                force[i, a] += tmp[3 + a]
    for i in range(n):
        for a in range(3):
            F[3 * i + a] = force[i, a]


@inline_kernel
def mass_rows(n, node, ends, elem, added, cn, ct, tangent, nodal, fluid, M, Mb):
    """Mass matrix [kg] in lower band storage Mb[k, j] = M[j + k, j]: per node the point
    mass (payload included) plus, in a fluid, the added mass of :func:`mass_matrix_of`
    from ``tangent``; block diagonal (no coupling between nodes). Dead rows and a winch's
    pseudo-node get 1."""
    for k in range(Mb.shape[0]):
        for j in range(Mb.shape[1]):
            Mb[k, j] = 0.0
    for j in range(3 * n, Mb.shape[1]):
        Mb[0, j] = 1.0
    for i in range(n):
        m = node_mass(i, n, node, ends)
        if fluid:
            mass_matrix_of(i, n, m, elem, added, cn, ct, tangent, nodal, M)
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
    n = held_motion(t, y, d, 2, 2, acc)
    if d.winch[W_ON] != 0.0:
        for i in range(3 * n, 3 * ns):
            acc[i] = 0.0
        payout_state(t, y, ns, d.winch, d.wbreaks, d.wcoeffs, d.wmotion, d.wstate)
        acc[3 * (ns - 1)] = d.wstate[2]


# -- the sea (sea.py; issue 17) ---------------------------------------------------------


@inline_kernel
def node_held(i, n, flags):
    """Whether node i of n live nodes is a held end."""
    return (i == 0 and flags[HELD0] != 0) or (i == n - 1 and flags[HELD1] != 0)


@inline_kernel
def contact_geometry(i, n, elem, pos):
    """(tx, ty, tz, length): node i's line tangent for the seabed's friction axes (the unit
    mean of its elements' chord directions) and its contact length [m], half its elements'
    unstretched lengths (MoorDyn's kBot, cBot act per unit of unstretched length)."""
    tx = ty = tz = 0.0
    length = 0.0
    for e in range(max(i - 1, 0), min(i + 1, n - 1)):
        dx = pos[e + 1, 0] - pos[e, 0]
        dy = pos[e + 1, 1] - pos[e, 1]
        dz = pos[e + 1, 2] - pos[e, 2]
        L = math.sqrt(dx * dx + dy * dy + dz * dz)
        if L > 0.0:
            tx += dx / L
            ty += dy / L
            tz += dz / L
        length += 0.5 * elem[e, L0]
    m = math.sqrt(tx * tx + ty * ty + tz * tz)
    if m > 0.0:
        tx /= m
        ty /= m
        tz /= m
    return tx, ty, tz, length


@inline_kernel
def _element_added(e, nodal, area, rho_added, scal, elem, wadd):
    """Element e's added mass scaled by its medium (density rho_added [kg/m^3]) into wadd
    (per element, or per metre when ``nodal`` is not 0)."""
    # ρ_eff Ca A (per metre), × L_u per element — seed 004 eqs. (2.14), (4.11)
    per = area * rho_added if nodal != 0.0 else area * rho_added * elem[e, L0]
    wadd[e, 0] = scal[CA_N] * per
    wadd[e, 1] = scal[CA_T] * per


@inline_kernel
def _element_into(e, fax, fay, faz, fbx, fby, fbz, rho_added, nodal, area, scal, elem, force,
                  wadd):
    """Element e's fluid loads fa, fb [N] added on its two nodes in force, its added mass
    by medium (density rho_added) into wadd (:func:`_element_added`)."""
    force[e, 0] += fax
    force[e, 1] += fay
    force[e, 2] += faz
    force[e + 1, 0] += fbx
    force[e + 1, 1] += fby
    force[e + 1, 2] += fbz
    _element_added(e, nodal, area, rho_added, scal, elem, wadd)


@kernel
def sea_node_waves(t, n, flags, scal, elem, nodal, par, current, wind, waves, grid, pos, vel,
                   force, wadd, fout):
    """The fluid's loads with waves (sea.element_wave_loads per element, in registers,
    inlined once here) added into force, the added mass into wadd (as
    :func:`sea_node_loads`). The waves' time weights are computed once (sea.sea_time) and
    the surface above each node once (sea.surface_height, only where a crest can reach:
    within sea_par[ETA_MAX] of the water level), handed from an element to the next."""
    law = flags[DRAG_LAW]
    diameter = scal[DIAMETER]
    area = scal[DISPLACED]
    tw = sea_time(par, grid, t)
    coef_g = (scal[GX], scal[GY], scal[GZ])
    surface = par[HAS_SURFACE] != 0.0
    wl = par[WATER_LEVEL]
    reach = wl - par[ETA_MAX]  # no crest above a point below this [m]
    work = fout[8:15]
    ax, ay, az = pos[0, 0], pos[0, 1], pos[0, 2]
    ha = az - wl
    known = False  # ha is the height above the wavy surface
    for e in range(n - 1):
        bx, by, bz = pos[e + 1, 0], pos[e + 1, 1], pos[e + 1, 2]
        hb = bz - wl
        if surface and max(az, bz) >= reach:  # sea.wetted_fraction's rule
            if not known:
                ha = surface_height(par, waves, grid, t, tw, ax, ay, az, work)
            hb = surface_height(par, waves, grid, t, tw, bx, by, bz, work)
            known = True
        else:
            ha = az - wl
            known = False
        coef = (law, diameter, area, elem[e, L0], scal[CD_N], scal[CD_T], scal[CA_N],
                scal[CA_T])
        fax, fay, faz, fbx, fby, fbz, _, rho_added = element_wave_loads(
            par, current, wind, waves, grid, t, tw, coef, ha, hb, ax, ay, az, bx, by, bz,
            vel[e, 0], vel[e, 1], vel[e, 2], vel[e + 1, 0], vel[e + 1, 1], vel[e + 1, 2],
            coef_g, work)
        _element_into(e, fax, fay, faz, fbx, fby, fbz, rho_added, nodal, area, scal, elem,
                      force, wadd)
        ax, ay, az, ha = bx, by, bz, hb


@kernel
def sea_node_loads(t, n, flags, scal, elem, ends, nodal, par, current, wind, waves, grid, bed,
                   bed_axes, anchor, pos, vel, force, wadd, bedf, gnd, fout):
    """:func:`sea_loads` with ``nodal`` a float (1.0: per metre): one compiled copy for
    every formulation. The element loop is split by the sea: calm water inlines
    sea.element_calm (no wave code, in registers), waves call :func:`sea_node_waves` (the
    whole loop, once per evaluation); the seabed's loop is a called kernel
    (:func:`seabed_nodes`) reached only with a bed."""
    law = flags[DRAG_LAW]
    diameter = scal[DIAMETER]
    area = scal[DISPLACED]
    if par[HAS_WAVES] != 0.0:
        sea_node_waves(t, n, flags, scal, elem, nodal, par, current, wind, waves, grid, pos,
                       vel, force, wadd, fout)
    else:
        for e in range(n - 1):
            fax, fay, faz, fbx, fby, fbz, _, rho_added = element_calm(
                par, current, wind, law, diameter, area, elem[e, L0], scal[CD_N], scal[CD_T],
                pos[e, 0], pos[e, 1], pos[e, 2], pos[e + 1, 0], pos[e + 1, 1], pos[e + 1, 2],
                vel[e, 0], vel[e, 1], vel[e, 2], vel[e + 1, 0], vel[e + 1, 1], vel[e + 1, 2],
                scal[GX], scal[GY], scal[GZ])
            _element_into(e, fax, fay, faz, fbx, fby, fbz, rho_added, nodal, area, scal,
                          elem, force, wadd)
    for w in range(2):
        if flags[HELD0 + w] == 0 and (ends[w, BODY_V] > 0.0 or ends[w, BODY_DRAG] > 0.0):
            sea_body_load(t, 0 if w == 0 else n - 1, ends[w], scal, par, current, wind,
                          waves, grid, pos, vel, force, fout)
    if par[BED] != 0.0:
        seabed_nodes(n, flags, scal, elem, par, bed, bed_axes, anchor, pos, vel, force, bedf,
                     gnd, fout)


@inline_kernel
def sea_loads(t, n, flags, scal, elem, ends, nodal, par, current, wind, waves, grid, bed,
              bed_axes, anchor, pos, vel, force, wadd, bedf, gnd, fout):
    """The sea's loads on the n live nodes added into force [N] (sea.py, docs/sea.md):
    per element the fluid's buoyancy, drag and Morison inertia by medium and wetted
    fraction (sea.element_fluid, lever rule to its two nodes), and the element's added
    mass scaled by its medium into wadd (per element, or per metre when ``nodal``); a
    free end's body (:func:`sea_body_load`); per free node the seabed's contact and
    friction (sea.seabed_force) into bedf, gnd. (:func:`sea_node_loads`, called with
    ``nodal`` as a float: a literal bool compiled one copy per value.)"""
    sea_node_loads(t, n, flags, scal, elem, ends, 1.0 if nodal else 0.0, par, current, wind,
                   waves, grid, bed, bed_axes, anchor, pos, vel, force, wadd, bedf, gnd, fout)


@kernel
def seabed_nodes(n, flags, scal, elem, par, bed, bed_axes, anchor, pos, vel, force, bedf, gnd,
                 fout):
    """Per free node of the n live nodes the seabed's contact and friction
    (sea.seabed_force) into bedf, gnd and added into force [N]."""
    diameter = scal[DIAMETER]
    for i in range(n):
        gnd[i] = 0.0
        bedf[i, 0] = 0.0
        bedf[i, 1] = 0.0
        bedf[i, 2] = 0.0
        if node_held(i, n, flags):
            continue  # a held end's holder takes the bed, not the tether
        if pos[i, 2] >= seabed_depth(par, bed, bed_axes, pos[i, 0], pos[i, 1], fout):
            continue  # above the bed (its normal points up): no contact
        tx, ty, tz, lc = contact_geometry(i, n, elem, pos)
        gnd[i] = seabed_force(par, bed, bed_axes, anchor, i, pos[i, 0], pos[i, 1], pos[i, 2],
                              vel[i, 0], vel[i, 1], vel[i, 2], tx, ty, tz, lc, diameter, fout)
        for a in range(3):
            bedf[i, a] = fout[a]
            force[i, a] += fout[a]


@inline_kernel
def sea_body_load(t, i, end, scal, par, current, wind, waves, grid, pos, vel, force, fout):
    """A free end body's load from the fluid at node i, added into force [N]: buoyancy
    −ρV g, quadratic drag −½ ρ C_dA |v − u| (v − u) on the local flow u, and Morison
    inertia ρ V (1 + C_a) a of the flow's acceleration (seed 004 §2.3.2; ρ, u, a from
    sea.fluid_at: the medium the body is in). Its weight and applied force stay in
    payload_load, its own inertia (with the added mass of fluid_density) in the mass."""
    fluid_at(par, current, wind, waves, grid, t, pos[i, 0], pos[i, 1], pos[i, 2], fout)
    rho = fout[0]
    m = rho * end[BODY_V]  # displaced mass [kg]
    rx = vel[i, 0] - fout[1]
    ry = vel[i, 1] - fout[2]
    rz = vel[i, 2] - fout[3]
    c = -0.5 * rho * end[BODY_DRAG] * math.sqrt(rx * rx + ry * ry + rz * rz)
    k = m * (1.0 + end[BODY_CA])
    force[i, 0] += -m * scal[GX] + c * rx + k * fout[4]
    force[i, 1] += -m * scal[GY] + c * ry + k * fout[5]
    force[i, 2] += -m * scal[GZ] + c * rz + k * fout[6]


@kernel
def sea_node_added_mass(t, n, scal, elem, nodal, par, waves, grid, pos, wadd, work):
    """:func:`sea_added_mass` with ``nodal`` a float (1.0: per metre)."""
    area = scal[DISPLACED]
    rw = par[RHO_WATER]
    ra = par[RHO_AIR] if par[HAS_SURFACE] != 0.0 else rw
    for e in range(n - 1):
        f = wetted_fraction(par, waves, grid, t, pos[e, 0], pos[e, 1], pos[e, 2],
                            pos[e + 1, 0], pos[e + 1, 1], pos[e + 1, 2], work)[0]
        rho = f * rw + (1.0 - f) * ra
        per = area * rho if nodal != 0.0 else area * rho * elem[e, L0]
        wadd[e, 0] = scal[CA_N] * per
        wadd[e, 1] = scal[CA_T] * per


@inline_kernel
def sea_added_mass(t, n, scal, elem, nodal, par, waves, grid, pos, wadd, work):
    """The added mass of the n live nodes' elements scaled by their medium into wadd (as
    :func:`sea_loads` does, from the wetted fraction alone: the mass matrix of
    generalized-α); ``work``: sea.ELEMENT_OUT floats (:func:`sea_node_added_mass`)."""
    sea_node_added_mass(t, n, scal, elem, 1.0 if nodal else 0.0, par, waves, grid, pos, wadd,
                        work)


@kernel
def sea_anchors(y, n, ns, flags, scal, elem, par, bed, bed_axes, anchor, pos, vel, work):
    """After an accepted step: every free node's friction anchor (sea.update_anchor) at
    the state y (``pos``, ``vel``: work arrays, overwritten; ``work``: 3 floats)."""
    positions_from(y, n, ns, pos, vel)
    for i in range(n):
        if node_held(i, n, flags):
            continue
        if pos[i, 2] >= seabed_depth(par, bed, bed_axes, pos[i, 0], pos[i, 1], work):
            anchor[i, 3] = 0.0  # lifted off (update_anchor's rule, without the geometry)
            continue
        tx, ty, tz, lc = contact_geometry(i, n, elem, pos)
        update_anchor(par, bed, bed_axes, anchor, i, pos[i, 0], pos[i, 1], pos[i, 2], tx, ty,
                      tz, lc, scal[DIAMETER])


@kernel
def shift_anchors(anchor, n_before, n_after, winch_side):
    """Keep the friction anchors on their nodes when a winch split (n_after = n_before + 1)
    or merge (n_before − 1) renumbers the node rows (winch.py): at the start the node after
    the winch node is new / removed, at the end the one before it. A new node starts with
    no anchor (it lands afresh)."""
    if n_after == n_before:
        return
    if n_after > n_before:
        k = 1 if winch_side == 0.0 else n_before - 1  # the row inserted
        for i in range(n_after - 1, k, -1):
            for a in range(4):
                anchor[i, a] = anchor[i - 1, a]
        for a in range(4):
            anchor[k, a] = 0.0
    else:
        k = 1 if winch_side == 0.0 else n_before - 2  # the row removed
        for i in range(k, n_after):
            for a in range(4):
                anchor[i, a] = anchor[i + 1, a]
        for a in range(4):
            anchor[n_before - 1, a] = 0.0


@kernel
def sea_node_instant(j, t, n, par, waves, grid, pos, bedf, gnd, work, eta, grounded,
                     bed_force):
    """:func:`sea_instant` on any layout of the outputs (one compiled copy)."""
    waves_on = par[HAS_WAVES] != 0.0
    for i in range(n):
        # the elevation sea.fluid_at gives (out[7]): waves.wave_elevation, 0 without waves
        eta[j, i] = wave_eta(par, waves, grid, t, pos[i, 0], pos[i, 1], work) if waves_on \
            else 0.0
        grounded[j, i] = gnd[i]
        for a in range(3):
            bed_force[j, i, a] = bedf[i, a]


@inline_kernel
def sea_instant(j, t, n, par, current, wind, waves, grid, pos, bedf, gnd, fout, eta,
                grounded, bed_force):
    """One output instant's sea results after an evaluation: the wave elevation above the
    calm level at each node's (x, y) [m], grounded (0/1) and the seabed's force [N].
    (:func:`sea_node_instant`; the full slices make every caller's outputs layout 'A':
    a whole run's arrays and a system's per-line slices share one compiled copy.)"""
    sea_node_instant(j, t, n, par, waves, grid, pos, bedf, gnd, fout, eta[:, :],
                     grounded[:, :], bed_force[:, :, :])


@inline_kernel
def sea_instant_of(j, t, y, n, ns, d, replay, eta, grounded, bed_force):
    """:func:`sea_instant` of a formulation's data tuple ``d`` (its sea fields, pos, bedf,
    gnd, fout) and, when ``replay`` and with a seabed, the friction anchors updated at the
    state y as a run does after each step (:func:`sea_anchors`; sea.replay_anchors' rule)."""
    sea_instant(j, t, n, d.sea_par, d.sea_current, d.sea_wind, d.sea_waves, d.sea_grid,
                d.pos, d.bedf, d.gnd, d.fout, eta, grounded, bed_force)
    if replay and d.sea_par[BED] != 0.0:
        sea_anchors(y, n, ns, d.flags, d.scal, d.elem, d.sea_par, d.sea_bed, d.sea_bed_axes,
                    d.sea_anchor, d.pos, d.vel, d.fout)


def sea_data(case, arc_length: np.ndarray, ns: int, n_elem_rows: int) -> dict:
    """The sea's arrays (sea.sea_arrays, anchors for ``ns`` node rows) and the sea path's
    work arrays (:data:`SEA_DATA_FIELDS`) of a case."""
    pos, _ = initial_nodes(case, arc_length)
    arrays = sea_arrays(case.environment, pos, ns)
    arrays.update(wadd=np.zeros((n_elem_rows, 2)), fout=np.zeros(ELEMENT_OUT),
                  bedf=np.zeros((ns, 3)), gnd=np.zeros(ns))
    return arrays


def has_sea_results(par: np.ndarray) -> bool:
    """Whether a case's results carry the sea's variables (results-format.md: a water
    level, waves or a seabed)."""
    return bool(par[HAS_SURFACE] or par[HAS_WAVES] or par[BED])


def sea_outputs(eta: np.ndarray, grounded: np.ndarray, bed_force: np.ndarray) -> dict:
    """The sea's result variables (results-format.md) as (dims, values, attrs)."""
    return {
        "surface_elevation": (("time", "node"), eta, {
            "units": "m", "long_name": "wave elevation above the calm water level at the "
            "node's horizontal position"}),
        "grounded": (("time", "node"), grounded > 0.5, {
            "units": "1", "long_name": "true where the node touches the seabed"}),
        "seabed_force": (("time", "node", "axis"), bed_force, {
            "units": "N", "long_name": "contact plus friction force of the seabed on the "
            "node"}),
    }


# -- results ------------------------------------------------------------------------------


@kernel
def instant_results(j, n, ns, flags, scal, node, ends, elem, added, cn, ct, sea_par, winch,
                    wstate, tangent, nodal, pos, vel, force, element_tension, length, dydt,
                    tmp, M, tension, start_force, end_force, winch_out):
    """One output instant j after the model's ``rhs`` filled its work arrays and ``dydt``:
    element tension, the end forces, the winch's record; returns the kinetic energy and the
    potential energy of weight, buoyancy and axial strain [J] (the model adds its bending
    and twist energies).

    With a winch the winch node's lumped mass moves with the material velocity u (winch.py,
    into tmp[0:3], its acceleration into tmp[3:6]) in the kinetic energy, the momentum and
    the winch end's inertia. The added mass is added[e, cn], added[e, ct]
    (:func:`mass_matrix_of`); with a water level (``sea_par``) a node's buoyancy in the
    potential energy is that of the medium it is in.
    """
    u = tmp[0:3]
    iw = -1
    has_winch = winch[W_ON] != 0.0
    if has_winch:
        iw = winch_material(n, ns, winch, elem, pos, vel, dydt, wstate[1], u, tmp[3:6])
    for e in range(n - 1):
        tension[j, e] = element_tension[e]
    # force the tether exerts on each end's holder: its own nodal load minus the inertia of
    # the tether mass lumped there (spec: results-format.md)
    for w in range(2):
        i = 0 if w == 0 else n - 1
        mass_matrix_of(i, n, node[i, MASS], elem, added, cn, ct, tangent, nodal, M)
        out = start_force if w == 0 else end_force
        for a in range(3):
            ma = 0.0
            for b in range(3):
                acc = tmp[3 + b] if i == iw else dydt[3 * ns + 3 * i + b]
                ma += M[a, b] * acc
            out[j, a] = force[i, a] - ma
    ke = 0.0
    pe = 0.0
    for i in range(n):
        m = node_mass(i, n, node, ends)
        mass_matrix_of(i, n, m, elem, added, cn, ct, tangent, nodal, M)
        rho = scal[RHO]
        if sea_par[HAS_SURFACE] != 0.0 and pos[i, 2] > sea_par[WATER_LEVEL]:
            rho = sea_par[RHO_AIR]
        w_i = node[i, MASS] - rho * node[i, VOLUME]  # net weight / g
        if i == 0:
            w_i += ends[0, WEIGHT]
        if i == n - 1:
            w_i += ends[1, WEIGHT]
        for a in range(3):
            va = u[a] if i == iw else vel[i, a]
            for b in range(3):
                vb = u[b] if i == iw else vel[i, b]
                ke += 0.5 * va * M[a, b] * vb
            pe -= w_i * scal[GX + a] * pos[i, a]
    for e in range(n - 1):
        h = elem[e, L0]
        strain = length[e] / h - 1.0
        if flags[COMPRESSION] or strain > 0.0:
            pe += 0.5 * scal[EA] * strain * strain * h
    if has_winch:
        winch_record(n, winch, node, vel, u, wstate, winch_out[j])
    return ke, pe


# -- building and the Python surface ------------------------------------------------------


def free_end_row(end, rho: float, row: np.ndarray) -> None:
    """A free end's payload inertial and weight masses [kg], force ramp [s], drag area [m²]
    and applied force [N] into its ends row."""
    row[[PAYLOAD, RAMP, DRAG_AREA]] = (end.body_masses(rho)[0], end.force_ramp_time or 0.0,
                                       end.drag_area)
    row[WEIGHT] = end.body_masses(rho)[1]
    row[FX:FZ + 1] = end.force


def base_scal(case, size: int) -> np.ndarray:
    """The shared scal entries (tether, fluid, gravity, current; bending left 0) of a
    packed parameter array of ``size``."""
    t = case.tether
    env = case.environment
    scal = np.zeros(size)
    scal[[EA, DAMPING, RHO, DIAMETER, CD_N, CD_T]] = (
        t.EA, t.axial_damping, env.fluid_density, t.diameter, t.cd_normal, t.cd_tangential)
    scal[GX:GZ + 1] = env.gravity
    # a current profile (table, power law) lives in the sea arrays; scal keeps a uniform one
    current = getattr(env, "uniform_current", env.current)
    scal[UX:UZ + 1] = (0.0, 0.0, 0.0) if current is None else current
    scal[[CA_N, CA_T, DISPLACED]] = (t.ca_normal, t.ca_tangential, t.displaced)
    return scal


def base_flags(case, size: int) -> np.ndarray:
    """The shared flags (compression, slack damping, drag law, held ends) of a packed flag
    array of ``size``."""
    flags = np.zeros(size, dtype=np.int64)
    flags[[COMPRESSION, SLACK_DAMPING, DRAG_LAW, HELD0, HELD1]] = (
        case.tether.compression, bool(case.model.option("slack_damping")),
        DRAG_LAW_CODES[case.drag_law], case.start.type != "free", case.end.type != "free")
    return flags


def end_motions(case) -> tuple:
    """The start's and end's prescribed motions; a free end gets a placeholder (the
    kernels never read it)."""
    return tuple(case.end_motion(w) or fixed_point((0.0, 0.0, 0.0)) for w in ("start", "end"))


def with_spare_rows(elem: np.ndarray, node: np.ndarray, ns: int) -> tuple:
    """The element and node tables with room for a winch's longest deployment (``ns`` node
    rows): spare elements of length 1 keep the first element's added mass and no rate,
    spare nodes are empty (the winch's relayout fills the live ones)."""
    spare = np.ones((ns - 1 - elem.shape[0], 4))
    spare[:, ADDED_N:ADDED_T + 1] = elem[0, ADDED_N:ADDED_T + 1]
    spare[:, LDOT] = 0.0
    return (np.vstack([elem, spare]), np.vstack([node, np.zeros((ns - node.shape[0], 2))]))


def held_rows(case, n: int, ns: int) -> np.ndarray:
    """The held coordinates (int64, 3 per node row) of the ends: 1 where an end is held."""
    held = np.zeros(3 * ns, dtype=np.int64)
    held[:3] = case.start.type != "free"
    held[3 * (n - 1):3 * n] = case.end.type != "free"
    return held


class NodeRows(Formulation):
    """What the node-row formulations share on the Python side: the winch layout, the
    initial state, node states, end forces, element properties and the axial time step."""

    enforce = staticmethod(enforce)
    held_acc = staticmethod(held_acc)
    #: the result arrays the model's ``diagnostics`` writes after the energies and before
    #: the winch record: per instant "node", "element" or "node_axis" (nodes × 3)
    extra_results: tuple[str, ...] = ()

    #: whether the results carry the sea's variables (set by the model from its sea arrays)
    sea_results: bool = False

    def _sea_arrays(self, case, ns: int, n_elem_rows: int, ends: np.ndarray) -> dict:
        """The sea's arrays and work arrays for the data tuple (nodes.sea_data); sets
        :attr:`sea_results`. With the sea a free end's body moves from the ``ends`` rows'
        calm-fluid weight and drag to the sea path's columns (BODY_V, BODY_DRAG,
        BODY_CA: buoyancy, drag and fluid inertia by the medium it is in)."""
        arrays = sea_data(case, self.arc_length, ns, n_elem_rows)
        self.sea_results = has_sea_results(arrays["sea_par"])
        if arrays["sea_par"][SEA_ACTIVE] != 0.0:
            for w, end in enumerate((case.start, case.end)):
                if end.type == "free":
                    ends[w, [WEIGHT, DRAG_AREA]] = (end.mass, 0.0)
                    ends[w, [BODY_V, BODY_DRAG, BODY_CA]] = (end.volume, end.drag_area,
                                                             end.ca)
        return arrays

    @staticmethod
    def _replay_data(d: tuple) -> tuple[tuple, bool]:
        """(data, replay) for the outputs of a whole run: with a seabed, the data with
        fresh friction anchors that ``diagnostics`` replays instant by instant (the run's
        own anchors are those of its last step; sea.replay_anchors' rule, exact while a
        node sticks or slides steadily); else the data as given."""
        if d.sea_par[BED] == 0.0:
            return d, False
        return d._replace(sea_anchor=np.zeros_like(d.sea_anchor)), True

    def _winch_layout(self, case, added_per_element: bool, on_spline: bool = False):
        """The winch's layout (winch.py) with its attributes taken onto the model: winch
        (bool), n_elements, n_nodes (the most live nodes), n_q."""
        lay = winch_setup(case, added_per_element=added_per_element, on_spline=on_spline)
        self.winch = lay.on
        self.n_elements = lay.n_elements
        self.n_nodes = lay.n_nodes
        self.n_q = lay.n_q
        return lay

    def _start_winch(self, n: int) -> None:
        """Lay the data's tables out for the n nodes at the start (winch.py's relayout)."""
        d = self.data
        case = self.case
        relayout(n, case.tether.length, d.winch, d.elem, d.node, d.held,
                 int(case.start.type != "free"), int(case.end.type != "free"))
        d.wstate[3] = n  # the layout the tables hold (the models' _prepare)

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

    def _result_arrays(self, k: int, fill: float) -> list[np.ndarray]:
        """The diagnostics' output arrays for k instants: tension, start and end force,
        kinetic and potential energy, the model's ``extra_results``, the winch record."""
        N, n = self.n_elements, self.n_nodes
        sizes = {"node": (n,), "element": (N,), "node_axis": (n, 3)}
        return ([np.full((k, N), fill), np.empty((k, 3)), np.empty((k, 3)), np.empty(k),
                 np.empty(k)] + [np.full((k, *sizes[s]), fill) for s in self.extra_results]
                + [np.zeros((k, 6))])

    def end_forces(self, t: float, y: np.ndarray, out: np.ndarray,
                   data: tuple | None = None) -> None:
        """Forces [N] on the start (out[0]) and end (out[1]) holders at state y, time t of a
        run with kernel data ``data`` (None: the model's own template); no allocation after
        the first call (scratch buffers kept on the model)."""
        if not hasattr(self, "_probe"):
            ny = 6 * self.data.n_nodes
            self._probe = (np.zeros(1), np.zeros((1, ny)), np.empty(ny), np.empty((3, 3)),
                           *self._result_arrays(1, 0.0))
        p = self._probe
        p[0][0] = t
        p[1][0] = y
        # the run's own friction anchors, not replayed (not changed)
        self.diagnostics(*p[:2], self.data if data is None else data, False, *p[2:])
        out[0] = p[5][0]
        out[1] = p[6][0]

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

    def seabed_contact(self) -> tuple[np.ndarray, np.ndarray]:
        """Per node the seabed's contact stiffness kBot·d·L_c [N/m] and damping cBot·d·L_c
        [N s/m] (L_c half the node's unstretched elements, MoorDyn's kBot, cBot per unit
        area; sea.seabed_force); zeros without a seabed."""
        d = self.data
        Lu = self.element_lengths()
        contact = np.zeros(Lu.size + 1)
        contact[:-1] += 0.5 * Lu
        contact[1:] += 0.5 * Lu
        par = d.sea_par
        if par[BED] == 0.0:
            return np.zeros_like(contact), np.zeros_like(contact)
        area = d.scal[DIAMETER] * contact
        return par[K_BOT] * area, par[C_BOT] * area

    def seabed_critical_step(self) -> tuple[float, int, float]:
        """Largest stable RK4 step [s] of a grounded node on the seabed's contact spring
        and damper alone (k = kBot d L_c, c = cBot d L_c on the node's structural mass:
        ω = sqrt(k/m), ζ = c / (2 m ω)), the node that limits it, and ω [rad/s]; (inf, 0,
        0) without a seabed. ``tetherdyn check`` reports it; :meth:`critical_time_step`
        includes the contact stiffness in every free node's axial bound (any node may land).
        """
        kb, cb = self.seabed_contact()
        m = self.element_properties()["node_mass"]
        best = (math.inf, 0, 0.0)
        if not kb.any():
            return best
        n = m.size
        for i in range(n):
            if (i == 0 and self.data.flags[HELD0]) or (i == n - 1 and self.data.flags[HELD1]):
                continue
            omega = math.sqrt(kb[i] / m[i])
            dt = rk4_critical_step(omega, cb[i] / (2.0 * m[i] * omega))
            if dt < best[0]:
                best = (dt, i, omega)
        return best

    def _axial_critical_step(self) -> tuple[float, int, float]:
        """Largest stable RK4 step [s] of the axial modes, the element that limits it and
        its frequency [rad/s]: Gershgorin per node, with k_e = EA / L_e and c_e = C_ID / L_e
        node i's highest mode obeys λ² + (2 Σc / m_i) λ + 2 Σk / m_i = 0, summed over its
        elements (exact 2·sqrt(k/m) for a uniform interior node). With a seabed every free
        node's row also holds the contact spring and damper kBot d L_c, cBot d L_c
        (:meth:`seabed_contact`: a grounded node's Gershgorin row), and the bound is at most
        the contact's own (:meth:`seabed_critical_step`: its damping alone may put a real
        root beyond RK4's real-axis limit)."""
        p = self.element_properties()
        k, c, m = p["stiffness"], p["damping"], p["node_mass"]
        kb, cb = self.seabed_contact()
        n = m.size
        best = (math.inf, 0, 0.0)
        for i in range(n):
            if (i == 0 and self.data.flags[HELD0]) or (i == n - 1 and self.data.flags[HELD1]):
                continue
            adj = [e for e in (i - 1, i) if 0 <= e < n - 1]
            ks = 2.0 * sum(k[e] for e in adj) + kb[i]
            cs = 2.0 * sum(c[e] for e in adj) + cb[i]
            omega = math.sqrt(ks / m[i])
            dt = rk4_critical_step(omega, cs / (2.0 * m[i] * omega))
            if dt < best[0]:
                best = (dt, max(adj, key=lambda e: k[e]), omega)
        bed = self.seabed_critical_step()
        if bed[0] < best[0]:  # a heavily damped contact alone can limit more (real axis)
            best = (bed[0], min(bed[1], n - 2), bed[2])
        return best
