"""Chain of straight elastic rods on spherical hinges — seed 001 (Ma & Wang), §2 and §2.1.

n uniform rods O_{i-1}O_i join at frictionless, massless spherical hinges. The generalised
coordinates are the rod vectors ``q_i = O_i − O_{i-1}`` (seed eq. 2; no angles), so the
mass matrix is constant (eqs. 7–8) and factors as ``M = Φᵀ G Φ = Φᵀ Bᵀ B Φ`` with G
tridiagonal and B lower bidiagonal (eqs. 24–27). Each evaluation then solves
``M q̈ = Q`` per axis in two O(n) loops (eqs. 29–30).

Additions beyond the seed (derived in docs/rod_chain.md): a payload ``m_p`` at the free end
O_n adds ``m_p`` to ``G[n, n]``; loads at O_n (``end.force``, payload weight and drag) enter
as ``α_n`` (eq. 30 has ``α_n = 0``); a prescribed start O_0 with acceleration ``a_0(t)``
adds the uniform inertial load ``−m_i a_0`` on every rod and ``−m_p a_0`` at the tip;
weight with buoyancy and drag are distributed uniformly along each rod (``F* = F/2``,
eq. 14); the axial force ``T = EA ε + C ε̇`` (optionally unable to push) acts as the
generalised force ``−T q_i / l_i`` (its elastic part is the seed's ``−k_i q_i``, eq. 12).

State vector: ``y = [q_1, …, q_n, q̇_1, …, q̇_n]`` (6n values; rod vectors then their
rates, each as x, y, z). The start end is not in the state: its position, velocity and
acceleration come from its motion at t, so ``enforce`` has nothing to do. Node positions
are ``O_k = r_0(t) + Σ_{j<=k} q_j``.
"""

from __future__ import annotations

import math
from collections import namedtuple
from typing import TYPE_CHECKING

import numpy as np

from .._jit import inline_kernel, kernel
from ..boundary import eval_motion, free_end_load
from ..hydro import DRAG_LAW_CODES, element_drag
from ..initial import initial_nodes
from ..sea import (
    BED,
    SEA_ACTIVE,
    SEA_FIELDS,
    SEA_RUN_FIELDS,
    element_fluid,
    seabed_force,
    update_anchor,
)
from .base import Formulation, rk4_critical_step, uniform_elements
from .sea_loads import (
    SEA_WORK,
    SW_BED,
    SW_TAN,
    TIP_MASS,
    TIP_VOLUME,
    hydrostatic_potential,
    model_sea_arrays,
    replay_samples,
    sea_end_load,
    sea_node_outputs,
    sea_tip_table,
    seabed_critical_step,
)
from .supports import COMMON_TETHER_KEYS, Supports

if TYPE_CHECKING:
    from ..case import Case

#: strain above which a run is declared blown up (1000 % stretch), as lumped_mass
ABSURD_STRAIN = 10.0

# indices into the packed parameter arrays (module constants: frozen into the kernels)
# PAYLOAD: a free end body's inertial mass (mass + added mass), WEIGHT: its weight mass
# (mass - rho V: the net weight over g)
(EA, DAMPING, RHO, DIAMETER, CD_N, CD_T, GX, GY, GZ, UX, UY, UZ,
 PAYLOAD, RAMP, DRAG_AREA, FX, FY, FZ, WEIGHT, AREA) = range(20)  # scal; AREA: displaced [m²]
COMPRESSION, DRAG_LAW, MOVING = range(3)  # flags
L0, INV_L0, MASS, WET, INV_A, B_NEXT, B_PREV = range(7)  # rod columns

RodChainData = namedtuple(
    "RodChainData",
    [
        "n_rods", "flags", "scal", "rod", "breaks0", "coeffs0",
        # work arrays (one model per run: never shared between runs)
        "motion", "force", "star", "lam", "length", "tension", "tip",
        # the sea (sea.py's arrays; sea_tip: the free end's body; sea_work: work)
        *SEA_FIELDS, "sea_tip", "sea_work",
    ],
)
#: what a run mutates (models/base.py: Model and data): the root's host schedule, work arrays
RUN_FIELDS = ("breaks0", "coeffs0", "motion", "force", "star", "lam", "length", "tension",
              "tip", *SEA_RUN_FIELDS, "sea_work")


def cholesky_factors(mass: np.ndarray, payload: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Factors of ``G = Bᵀ B`` (seed 001 eqs. 25–27) with a payload at O_n.

    ``mass``: rod masses m_1 … m_n [kg]; ``payload``: point mass at O_n [kg]. Returns
    ``(a, b)`` [sqrt(kg)]: a (n,) the diagonal of B, b (n-1,) its sub-diagonal (b_i couples
    rods i and i+1). The recursion runs from the free end: ``a_n = sqrt(m_n/3 + m_p)``,
    ``b_i = m_{i+1} / (6 a_{i+1})``, ``a_i = sqrt((m_i + m_{i+1})/3 − b_i²)``.
    """
    m = np.asarray(mass, dtype=float)
    n = m.size
    a = np.empty(n)
    b = np.empty(max(n - 1, 0))
    a[-1] = math.sqrt(m[-1] / 3.0 + payload)  # seed 001 eq. (27), G[n,n] + m_p
    for i in range(n - 2, -1, -1):
        b[i] = m[i + 1] / (6.0 * a[i + 1])  # seed 001 eq. (27)
        a[i] = math.sqrt((m[i] + m[i + 1]) / 3.0 - b[i] * b[i])
    return a, b


@inline_kernel
def _rod_state(y, off, i, rod, ea, damping, slack_ok, length, tension):
    """Rod i's vector q_i [m], its rate w_i [m/s], its length |q_i| [m] and its inverse
    [1/m], and its Voigt tension T = EA ε + C ε̇ [N] (bilinear as lumped_mass: no elastic
    compression unless allowed, damping kept); writes length[i] and tension[i]."""
    qx = y[3 * i]
    qy = y[3 * i + 1]
    qz = y[3 * i + 2]
    wx = y[off + 3 * i]
    wy = y[off + 3 * i + 1]
    wz = y[off + 3 * i + 2]
    L = math.sqrt(qx * qx + qy * qy + qz * qz)
    inv_L = 1.0 / L
    length[i] = L
    strain = (L - rod[i, L0]) * rod[i, INV_L0]
    strain_rate = (qx * wx + qy * wy + qz * wz) * inv_L * rod[i, INV_L0]
    elastic = ea * strain
    if strain <= 0.0 and not slack_ok:
        elastic = 0.0
    T = elastic + damping * strain_rate
    tension[i] = T
    return qx, qy, qz, wx, wy, wz, L, inv_L, T


@kernel
def _rod_loads(t, y, n, flags, scal, rod, motion, force, star, length, tension, tip):
    """Forward pass over the rods: F_i into ``force``, F*_i − T q_i/l_i into ``star`` [N].

    ``motion`` holds the start's position, velocity and acceleration at t (rows 0–2).
    Also writes each rod's length [m] and axial force [N] (``length``, ``tension``), the
    load at the free end O_n into tip[0:3] (applied force, payload weight and drag,
    −m_p a_0) [N] and the velocity of O_n into tip[3:6] [m/s].
    """
    off = 3 * n
    v0x = motion[1, 0]
    v0y = motion[1, 1]
    v0z = motion[1, 2]
    a0x = motion[2, 0]
    a0y = motion[2, 1]
    a0z = motion[2, 2]
    rho = scal[RHO]
    ea = scal[EA]
    damping = scal[DAMPING]
    gx = scal[GX]
    gy = scal[GY]
    gz = scal[GZ]
    slack_ok = flags[COMPRESSION] != 0
    law = flags[DRAG_LAW]
    # velocity of the current rod's start node, O_{i-1}
    vx = v0x
    vy = v0y
    vz = v0z
    for i in range(n):
        qx, qy, qz, wx, wy, wz, L, inv_L, T = _rod_state(y, off, i, rod, ea, damping,
                                                        slack_ok, length, tension)
        m = rod[i, MASS]
        w = rod[i, WET]  # m_i − ρ V_i: weight with buoyancy, uniformly distributed
        fx = w * gx - m * a0x  # moving start: uniform inertial load −m_i a_0
        fy = w * gy - m * a0y
        fz = w * gz - m * a0z
        if rho > 0.0:
            # drag from the rod's mid velocity relative to the fluid, uniformly distributed
            ux = vx + 0.5 * wx - scal[UX]
            uy = vy + 0.5 * wy - scal[UY]
            uz = vz + 0.5 * wz - scal[UZ]
            element_drag(law, rho, scal[DIAMETER], L, scal[CD_N], scal[CD_T],
                         qx * inv_L, qy * inv_L, qz * inv_L, ux, uy, uz, tip)
            fx += tip[0]
            fy += tip[1]
            fz += tip[2]
        force[i, 0] = fx
        force[i, 1] = fy
        force[i, 2] = fz
        s = T * inv_L
        # uniform load: F* = F/2 (seed 001 eq. 14); axial force −T q/l = −k q (eq. 12)
        star[i, 0] = 0.5 * fx - s * qx
        star[i, 1] = 0.5 * fy - s * qy
        star[i, 2] = 0.5 * fz - s * qz
        vx += wx
        vy += wy
        vz += wz
    # the free end O_n: applied force (ramped), payload weight and drag, and the payload's
    # inertial load -m_p a_0 in the frame of a moving start
    free_end_load(t, scal[RAMP], scal[FX], scal[FY], scal[FZ], scal[WEIGHT],
                  scal[DRAG_AREA], rho, gx, gy, gz, scal[UX], scal[UY], scal[UZ], vx, vy, vz,
                  tip)
    mp = scal[PAYLOAD]
    tip[0] -= mp * a0x
    tip[1] -= mp * a0y
    tip[2] -= mp * a0z
    tip[3] = vx
    tip[4] = vy
    tip[5] = vz


@kernel
def _rod_loads_sea(t, y, d):
    """:func:`_rod_loads` in the sea (``sea_par[SEA_ACTIVE] != 0``, docs/rod_chain.md "The
    sea"): dry weight, the fluid's force on each rod from sea.element_fluid given to its
    two joints (buoyancy per medium by wetted fraction, drag with the local flow,
    Froude–Krylov on the flow acceleration; no added mass, as the mass matrix has none),
    seabed contact and friction at the joints O_1 … O_n, and the free end's load with the
    medium and flow at O_n.

    A force f_a at O_{i-1} and f_b at O_i on rod i adds f_a + f_b to F_i and f_b to F*_i:
    O_{i-1} does not depend on q_i, O_i does with unit weight (seed 001 eq. 16).
    """
    n = d.n_rods
    off = 3 * n
    flags, scal, rod, motion = d.flags, d.scal, d.rod, d.motion
    force, star, length, tension, tip = d.force, d.star, d.length, d.tension, d.tip
    par, sw = d.sea_par, d.sea_work
    a0x = motion[2, 0]
    a0y = motion[2, 1]
    a0z = motion[2, 2]
    ea = scal[EA]
    damping = scal[DAMPING]
    gx = scal[GX]
    gy = scal[GY]
    gz = scal[GZ]
    slack_ok = flags[COMPRESSION] != 0
    law = flags[DRAG_LAW]
    diameter = scal[DIAMETER]
    area = scal[AREA]
    # position and velocity of the current rod's start node, O_{i-1}
    px = motion[0, 0]
    py = motion[0, 1]
    pz = motion[0, 2]
    vx = motion[1, 0]
    vy = motion[1, 1]
    vz = motion[1, 2]
    for i in range(n):
        qx, qy, qz, wx, wy, wz, L, inv_L, T = _rod_state(y, off, i, rod, ea, damping,
                                                        slack_ok, length, tension)
        m = rod[i, MASS]
        # dry weight and the moving start's inertial load, uniform along the rod
        ux = m * (gx - a0x)
        uy = m * (gy - a0y)
        uz = m * (gz - a0z)
        element_fluid(par, d.sea_current, d.sea_wind, d.sea_waves, d.sea_grid, t, law,
                      diameter, area, rod[i, L0], scal[CD_N], scal[CD_T], 0.0, 0.0,
                      px, py, pz, px + qx, py + qy, pz + qz,
                      vx, vy, vz, vx + wx, vy + wy, vz + wz, gx, gy, gz, sw)
        force[i, 0] = ux + sw[0] + sw[3]
        force[i, 1] = uy + sw[1] + sw[4]
        force[i, 2] = uz + sw[2] + sw[5]
        s = T * inv_L
        star[i, 0] = 0.5 * ux + sw[3] - s * qx
        star[i, 1] = 0.5 * uy + sw[4] - s * qy
        star[i, 2] = 0.5 * uz + sw[5] - s * qz
        px += qx
        py += qy
        pz += qz
        vx += wx
        vy += wy
        vz += wz
    if par[BED] != 0.0:
        _seabed_loads(y, d)
    # the free end O_n: applied force, payload weight and buoyancy in its medium, drag
    # and fluid inertia with the local flow, and -m_p a_0 (as _rod_loads)
    sea_end_load(par, d.sea_current, d.sea_wind, d.sea_waves, d.sea_grid, t, d.sea_tip,
                 scal[RAMP], scal[FX], scal[FY], scal[FZ], scal[DRAG_AREA], gx, gy, gz,
                 px, py, pz, vx, vy, vz, sw, tip)
    mp = scal[PAYLOAD]
    tip[0] -= mp * a0x
    tip[1] -= mp * a0y
    tip[2] -= mp * a0z
    tip[3] = vx
    tip[4] = vy
    tip[5] = vz


@inline_kernel
def _joint_tangent(y, d, i):
    """Unit tangent at joint O_{i+1} (mean of the adjacent rods' directions) into
    d.sea_work[SW_TAN:SW_TAN + 3] and its line length share [m] (half of each adjacent unstretched
    rod) returned."""
    n = d.n_rods
    sw = d.sea_work
    inv = 1.0 / d.length[i]
    tx = y[3 * i] * inv
    ty = y[3 * i + 1] * inv
    tz = y[3 * i + 2] * inv
    share = 0.5 * d.rod[i, L0]
    if i + 1 < n:
        inv = 1.0 / d.length[i + 1]
        tx += y[3 * i + 3] * inv
        ty += y[3 * i + 4] * inv
        tz += y[3 * i + 5] * inv
        share += 0.5 * d.rod[i + 1, L0]
    nt = math.sqrt(tx * tx + ty * ty + tz * tz)
    if nt > 0.0:
        tx /= nt
        ty /= nt
        tz /= nt
    sw[SW_TAN] = tx
    sw[SW_TAN + 1] = ty
    sw[SW_TAN + 2] = tz
    return share


@kernel
def _seabed_loads(y, d):
    """Seabed contact and friction (sea.seabed_force) at the joints O_1 … O_n, each on its
    share of line; the force at O_{i+1} joins rod i's F and F* (a force at its far end).
    Needs d.length of the current state."""
    n = d.n_rods
    off = 3 * n
    sw = d.sea_work
    px = d.motion[0, 0]
    py = d.motion[0, 1]
    pz = d.motion[0, 2]
    vx = d.motion[1, 0]
    vy = d.motion[1, 1]
    vz = d.motion[1, 2]
    for i in range(n):
        px += y[3 * i]
        py += y[3 * i + 1]
        pz += y[3 * i + 2]
        vx += y[off + 3 * i]
        vy += y[off + 3 * i + 1]
        vz += y[off + 3 * i + 2]
        share = _joint_tangent(y, d, i)
        seabed_force(d.sea_par, d.sea_bed, d.sea_bed_axes, d.sea_anchor, i + 1, px, py, pz,
                     vx, vy, vz, sw[SW_TAN], sw[SW_TAN + 1], sw[SW_TAN + 2], share,
                     d.scal[DIAMETER], sw[SW_BED:SW_BED + 3])
        for a in range(3):
            d.force[i, a] += sw[SW_BED + a]
            d.star[i, a] += sw[SW_BED + a]


@kernel
def remesh(t, y, d):
    """After each accepted step: the seabed's friction anchors follow the joints
    (sea.update_anchor). The layout never changes: returns 0."""
    par = d.sea_par
    if par[SEA_ACTIVE] == 0.0 or par[BED] == 0.0:
        return 0
    n = d.n_rods
    eval_motion(d.breaks0, d.coeffs0, t, d.motion)
    px = d.motion[0, 0]
    py = d.motion[0, 1]
    pz = d.motion[0, 2]
    for i in range(n):
        d.length[i] = math.sqrt(y[3 * i] ** 2 + y[3 * i + 1] ** 2 + y[3 * i + 2] ** 2)
    sw = d.sea_work
    for i in range(n):
        px += y[3 * i]
        py += y[3 * i + 1]
        pz += y[3 * i + 2]
        share = _joint_tangent(y, d, i)
        update_anchor(par, d.sea_bed, d.sea_bed_axes, d.sea_anchor, i + 1, px, py, pz,
                      sw[SW_TAN], sw[SW_TAN + 1], sw[SW_TAN + 2], share, d.scal[DIAMETER])
    return 0


@kernel
def _solve_chain(n, rod, force, star, lam, out, off):
    """q̈ = M⁻¹ (Q_F F + F* − K q) for all three axes: seed 001 eqs. (29)–(30) [m/s²].

    ``force`` holds F_i [N], ``star`` F*_i − T_i q_i / l_i [N]; ``lam`` (n+1, 3) is work
    whose row n carries the load at O_n, α_n [N] (0 in the seed). The result goes to
    out[off + 3 i + a].
    """
    # Loop 1 (backward): α_i = α_{i+1} + F_{i+1}, β_i = α_i + F*_i − k_i x_i,
    # γ_i = β_i − β_{i+1}, λ_i = (γ_i − b_i λ_{i+1}) / a_i
    ax = lam[n, 0]
    ay = lam[n, 1]
    az = lam[n, 2]
    bx = by = bz = 0.0  # β_{i+1}
    lx = ly = lz = 0.0  # λ_{i+1}
    for i in range(n - 1, -1, -1):
        cx = ax + star[i, 0]
        cy = ay + star[i, 1]
        cz = az + star[i, 2]
        bn = rod[i, B_NEXT]  # b_i (0 for the last rod)
        ia = rod[i, INV_A]
        lx = (cx - bx - bn * lx) * ia
        ly = (cy - by - bn * ly) * ia
        lz = (cz - bz - bn * lz) * ia
        lam[i, 0] = lx
        lam[i, 1] = ly
        lam[i, 2] = lz
        bx = cx
        by = cy
        bz = cz
        ax += force[i, 0]
        ay += force[i, 1]
        az += force[i, 2]
    # Loop 2 (forward): η_i = (λ_i − b_{i-1} η_{i-1}) / a_i, ẍ_i = η_i − η_{i-1}
    ex = ey = ez = 0.0
    for i in range(n):
        bp = rod[i, B_PREV]
        ia = rod[i, INV_A]
        nx = (lam[i, 0] - bp * ex) * ia
        ny = (lam[i, 1] - bp * ey) * ia
        nz = (lam[i, 2] - bp * ez) * ia
        k = off + 3 * i
        out[k] = nx - ex
        out[k + 1] = ny - ey
        out[k + 2] = nz - ez
        ex = nx
        ey = ny
        ez = nz


@kernel
def rhs(t, y, dydt, d):
    """dy/dt of the rod chain: [q̇, q̈] with q̈ from the O(n) solve, seed 001 eq. (30)."""
    n = d.n_rods
    if d.flags[MOVING]:
        eval_motion(d.breaks0, d.coeffs0, t, d.motion)
    if d.sea_par[SEA_ACTIVE] != 0.0:
        _rod_loads_sea(t, y, d)
    else:
        _rod_loads(t, y, n, d.flags, d.scal, d.rod, d.motion, d.force, d.star, d.length,
                   d.tension, d.tip)
    lam = d.lam
    lam[n, 0] = d.tip[0]  # α_n: the load at O_n (seed: 0)
    lam[n, 1] = d.tip[1]
    lam[n, 2] = d.tip[2]
    off = 3 * n
    for k in range(off):
        dydt[k] = y[off + k]
    _solve_chain(n, d.rod, d.force, d.star, lam, dydt, off)


@kernel
def enforce(t, y, d):
    """Nothing to enforce: the held start is not part of the state."""
    return


@kernel
def check(t, y, d):
    """Index of a rod with non-finite or absurd strain, or -1 when the state is sound."""
    n = d.n_rods
    off = 3 * n
    for i in range(n):
        L2 = 0.0
        s = 0.0
        for a in range(3):
            L2 += y[3 * i + a] * y[3 * i + a]
            s += y[off + 3 * i + a]
        if not (math.isfinite(L2) and math.isfinite(s)):
            return i
        if math.sqrt(L2) * d.rod[i, INV_L0] - 1.0 > ABSURD_STRAIN:
            return i
    return -1


@kernel
def diagnostics(times, Y, d, dydt, pos, vel, tension, start_force, end_force, kinetic,
                potential):
    """Node positions and velocities, rod tension, end forces and energies at each output.

    dydt (state size) is work. See docs/rod_chain.md for the formulas.
    """
    n = d.n_rods
    off = 3 * n
    scal, rod, motion = d.scal, d.rod, d.motion
    for j in range(times.size):
        t = times[j]
        eval_motion(d.breaks0, d.coeffs0, t, motion)
        y = Y[j]
        rhs(t, y, dydt, d)
        for a in range(3):
            pos[j, 0, a] = motion[0, a]
            vel[j, 0, a] = motion[1, a]
        ke = 0.0
        pe = 0.0
        sea = d.sea_par[SEA_ACTIVE] != 0.0
        g_abs = math.sqrt(scal[GX] ** 2 + scal[GY] ** 2 + scal[GZ] ** 2)
        fsx = fsy = fsz = 0.0
        # running sums: relative acceleration of O_{i-1} (Σ_{k<i} q̈_k)
        rax = ray = raz = 0.0
        for i in range(n):
            tension[j, i] = d.tension[i]
            m = rod[i, MASS]
            # in the sea: dry weight here, buoyancy by the hydrostatic potential below
            w = m if sea else rod[i, WET]
            for a in range(3):
                q = y[3 * i + a]
                qd = y[off + 3 * i + a]
                pos[j, i + 1, a] = pos[j, i, a] + q
                vel[j, i + 1, a] = vel[j, i, a] + qd
                vc = vel[j, i, a] + 0.5 * qd
                ke += 0.5 * m * (vc * vc + qd * qd / 12.0)  # exact rod kinetic energy
                pe -= w * scal[GX + a] * (pos[j, i, a] + 0.5 * q)
            if sea:
                pe -= g_abs * scal[AREA] * rod[i, L0] * hydrostatic_potential(
                    d.sea_par, 0.5 * (pos[j, i, 2] + pos[j, i + 1, 2]))
            # Newton on the rod: F_i (inertial −m a_0 included) − m_i (relative a_ci)
            fsx += d.force[i, 0] - m * (rax + 0.5 * dydt[off + 3 * i])
            fsy += d.force[i, 1] - m * (ray + 0.5 * dydt[off + 3 * i + 1])
            fsz += d.force[i, 2] - m * (raz + 0.5 * dydt[off + 3 * i + 2])
            rax += dydt[off + 3 * i]
            ray += dydt[off + 3 * i + 1]
            raz += dydt[off + 3 * i + 2]
            strain = d.length[i] * rod[i, INV_L0] - 1.0
            if d.flags[COMPRESSION] or strain > 0.0:
                pe += 0.5 * scal[EA] * strain * strain * rod[i, L0]
        mp = scal[PAYLOAD]
        # the tether's force on the payload/load at O_n: m_p a_n − (real load at O_n)
        # = m_p (relative a_n) − P, with P = tip load including −m_p a_0
        ex = mp * rax - d.tip[0]
        ey = mp * ray - d.tip[1]
        ez = mp * raz - d.tip[2]
        end_force[j, 0] = ex
        end_force[j, 1] = ey
        end_force[j, 2] = ez
        start_force[j, 0] = fsx - ex
        start_force[j, 1] = fsy - ey
        start_force[j, 2] = fsz - ez
        wp = d.sea_tip[TIP_MASS] if sea else scal[WEIGHT]
        for a in range(3):
            vt = vel[j, n, a]
            ke += 0.5 * mp * vt * vt
            pe -= wp * scal[GX + a] * pos[j, n, a]
        if sea:
            pe -= g_abs * d.sea_tip[TIP_VOLUME] * hydrostatic_potential(d.sea_par,
                                                                        pos[j, n, 2])
        kinetic[j] = ke
        potential[j] = pe


class RodChain(Formulation):
    """Chain of elastic rods with the O(n) solve of seed 001 (``model.type: rod_chain``)."""

    # the rod chain's constant mass matrix (seed 001 eq. 7) leaves no room for added mass
    supports = Supports(
        methods=("rk4", "rk45"),
        drag_laws=("cross_flow", "loading_functions", "isotropic"),
        tether_keys=COMMON_TETHER_KEYS | {"EA", "axial_damping", "compression"},
        required=("EA",),
        start_types=("fixed", "prescribed"), end_types=("free",),
        ends_note="a chain rooted at its start: its joints are measured from the start end, "
                  "and a chain held at both ends is a closed loop",
    )

    name = "rod_chain"
    fastest_mode = "axial stretching of the stiffest rod (consistent rod mass)"
    rhs = staticmethod(rhs)
    enforce = staticmethod(enforce)
    check = staticmethod(check)
    remesh = staticmethod(remesh)
    run_fields = RUN_FIELDS

    def __init__(self, case: Case) -> None:
        super().__init__(case)
        t = case.tether
        n = case.model.elements
        self.n_elements = n
        self.n_nodes = n + 1
        lu, self.arc_length = uniform_elements(case)
        env = case.environment
        rho = env.fluid_density
        mass = t.linear_mass * lu
        wet = mass - rho * t.displaced * lu  # weight with buoyancy [kg]
        end = case.end
        payload, payload_weight = end.body_masses(rho)
        a, b = cholesky_factors(mass, payload)  # constant: once per model
        b_next = np.zeros(n)
        b_next[:-1] = b
        b_prev = np.zeros(n)
        b_prev[1:] = b
        rod = np.column_stack([lu, 1.0 / lu, mass, wet, 1.0 / a, b_next, b_prev])
        scal = np.zeros(20)
        scal[[EA, DAMPING, RHO, DIAMETER, CD_N, CD_T, AREA]] = (
            t.EA, t.axial_damping, rho, t.diameter, t.cd_normal, t.cd_tangential,
            t.displaced)
        scal[GX:GZ + 1] = env.gravity
        # a current profile (table, power law) is sea.py's (sea_current); scal's stays 0
        scal[UX:UZ + 1] = env.uniform_current or (0.0, 0.0, 0.0)
        scal[[PAYLOAD, RAMP, DRAG_AREA, WEIGHT]] = (payload, end.force_ramp_time or 0.0,
                                                    end.drag_area, payload_weight)
        scal[FX:FZ + 1] = end.force
        flags = np.zeros(3, dtype=np.int64)
        flags[[COMPRESSION, DRAG_LAW, MOVING]] = (
            # the start's motion is evaluated every call: a fixed start may be driven by a
            # host through the step API (tetherdyn.cosim), which rewrites its motion arrays
            t.compression, DRAG_LAW_CODES[case.drag_law], True)
        start = case.end_motion("start")  # fixed or prescribed (case.py checks)
        motion = np.zeros((3, 3))
        eval_motion(start.breaks, start.coeffs, 0.0, motion)
        if case.start.type == "fixed":
            motion[1:] = 0.0
        self.chol_a = a
        self.chol_b = b
        self.data = RodChainData(
            n_rods=n, flags=flags, scal=scal, rod=rod,
            breaks0=start.breaks, coeffs0=start.coeffs,
            motion=motion, force=np.zeros((n, 3)), star=np.zeros((n, 3)),
            lam=np.zeros((n + 1, 3)), length=np.zeros(n), tension=np.zeros(n),
            tip=np.zeros(6),
            **model_sea_arrays(case, self.arc_length),
            sea_tip=sea_tip_table(end), sea_work=np.zeros(SEA_WORK),
        )

    # -- the formulation surface -------------------------------------------------------
    def initial_state(self) -> np.ndarray:
        """[q, q̇] from the initial node positions [m] and velocities [m/s]."""
        pos, vel = initial_nodes(self.case, self.arc_length)
        return np.concatenate([np.diff(pos, axis=0).ravel(), np.diff(vel, axis=0).ravel()])

    def outputs(self, times: np.ndarray, Y: np.ndarray, data: tuple | None = None
                ) -> dict[str, np.ndarray]:
        k = times.size
        n = self.n_elements
        pos = np.empty((k, n + 1, 3))
        vel = np.empty((k, n + 1, 3))
        tension = np.empty((k, n))
        f0 = np.empty((k, 3))
        f1 = np.empty((k, 3))
        ke = np.empty(k)
        pe = np.empty(k)
        replay_samples(self.data if data is None else data, times, Y, diagnostics, remesh,
                       (pos, vel, tension, f0, f1, ke, pe))
        return dict(position=pos, velocity=vel, tension=tension, start_force=f0,
                    end_force=f1, kinetic_energy=ke, potential_energy=pe,
                    **self._sea_outputs(times, pos, vel, data))

    def _sea_outputs(self, times: np.ndarray, pos: np.ndarray, vel: np.ndarray,
                     data: tuple | None) -> dict[str, tuple]:
        """surface_elevation, grounded, seabed_force at the joints (only with a sea;
        the held start joint is never in contact)."""
        held = np.zeros(self.n_nodes, dtype=bool)
        held[0] = True
        return sea_node_outputs(self.data if data is None else data, times, pos, vel,
                                np.diff(self.arc_length), self.case.tether.diameter, held)

    def mass_matrix(self) -> np.ndarray:
        """The constant n×n mass matrix [kg] of one axis, ``Φᵀ G Φ`` from the factors."""
        n = self.n_elements
        B = np.diag(self.chol_a)
        if n > 1:
            B[np.arange(1, n), np.arange(n - 1)] = self.chol_b
        phi = np.tril(np.ones((n, n)))
        return phi.T @ B.T @ B @ phi

    def critical_time_step(self) -> tuple[float, int, float]:
        """Largest stable RK4 step [s], what limits it (element or node index) and its
        frequency [rad/s]: the structure's bound (:meth:`structure_critical_step`) or,
        with a seabed, a grounded node's contact (sea_loads.seabed_critical_step) where
        that is smaller."""
        best = self.structure_critical_step()
        mass = self.data.rod[:, MASS]
        held = np.arange(self.n_nodes) == 0
        bed = seabed_critical_step(self.data.sea_par, np.diff(self.arc_length), mass,
                                   self.case.tether.diameter, held)
        return bed if bed[0] < best[0] else best

    def structure_critical_step(self) -> tuple[float, int, float]:
        """Largest stable RK4 step [s], the rod that limits it, and its frequency [rad/s].

        The highest axial frequency of the chain is bounded by the largest of its rods'
        own (element eigenvalue theorem: the assembled ``K φ = ω² M φ`` has no eigenvalue
        above the largest of the element problems). One rod, written in its end
        positions, has the consistent mass ``m/6 [[2, 1], [1, 2]]`` (it is what eq. 3
        gives) and the stiffness ``k [[1, −1], [−1, 1]]`` with ``k = EA/l_0``: its
        stretching mode has ``ω² = 12 k/m`` — √3 above the lumped chain's ``4 k/m`` — and
        damping ``c = C/l_0`` gives ``ζ = 6 c/(m ω)``. A payload only lowers the bound;
        the bound is reached by a long uniform chain (within O(1/n²)).
        """
        d = self.data
        k = d.scal[EA] * d.rod[:, INV_L0]
        c = d.scal[DAMPING] * d.rod[:, INV_L0]
        m = d.rod[:, MASS]
        omega = np.sqrt(12.0 * k / m)
        i = int(np.argmax(omega))
        w = float(omega[i])
        return rk4_critical_step(w, 6.0 * c[i] / (m[i] * w)), i, w
