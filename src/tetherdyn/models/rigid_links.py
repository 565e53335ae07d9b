"""Recursive rigid-link tether, O(N) with one 2x2 solve per link — seed 000 (Hembree & Slegers).

N uniform slender rigid links (bodies of revolution) joined by spherical joints. A link
cannot spin about its own axis (seed 000 eq. 4 with p_j = 0), so it has two degrees of
freedom: its attitude is a unit quaternion and its angular velocity has two body
components (q_j, r_j) about the body axes j_j, k_j (the body axis i_j runs along the link).

The accelerations come from the seed's backward/forward recursion (§4): moving from the
terminal link towards the root, the force the parent joint must supply to link j is an
affine function of that joint's acceleration, R_{j-1} = K_j a_{j-1} + k_j (the seed's
M̂_j, Γ̂_j of eqs. 28–32 and 37–45); a 2x2 system per link eliminates the link's angular
acceleration (seed eqs. 27, 40). The forward pass then starts from the known root-joint
acceleration (zero for a fixed root, the trajectory's for a prescribed one). We write the
same Newton–Euler equations (seed eqs. 20–21, 33–34) with inertial-frame vectors instead of
the seed's body-frame 5-vectors, which saves the frame transformations; docs/rigid_links.md
derives it and counts the operations.

State vector: ``y = [quaternions (4N, scalar first), body rates (q_j, r_j) (2N)]``.
The root joint is not in the state: its motion comes from ``start``.
"""

from __future__ import annotations

import math
from collections import namedtuple
from typing import TYPE_CHECKING

import numpy as np

from .._jit import inline_kernel, kernel
from ..boundary import eval_motion, free_end_load
from ..estimates import static_top_tension
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
from .supports import COMMON_TETHER_KEYS, Option, Supports

if TYPE_CHECKING:
    from ..case import Case

#: |q|^2 outside (1 - this, 1 + this) after renormalisation means the state is corrupt
QUATERNION_TOLERANCE = 0.5

RHO, DIAMETER, CD_N, CD_T, GX, GY, GZ, UX, UY, UZ, AREA = range(11)  # scal; AREA [m²]
LENGTH, MASS, INERTIA, WET_MASS, JOINT_DAMPING = range(5)  # link columns
# tip entries (free end); PAYLOAD: the body's inertial mass (mass + added mass), WEIGHT: its
# weight mass (mass - rho V: the net weight over g)
PAYLOAD, RAMP, DRAG_AREA, FX, FY, FZ, WEIGHT = range(7)
# articulated quantities per link (backward pass -> forward pass)
Y00, Y10, Y20, Y01, Y11, Y21, AI00, AI01, AI11, G0, G1 = range(11)

RigidLinksData = namedtuple(
    "RigidLinksData",
    [
        "n_links", "drag_law", "scal", "link", "tip", "breaks0", "coeffs0",
        # work arrays (one model per run)
        "e", "u", "v", "omega", "joint_pos", "joint_vel", "joint_acc", "force", "torque",
        "art", "motion", "tmp",
        # the sea (sea.py's arrays; sea_tip: the free end's body; sea_work: work)
        *SEA_FIELDS, "sea_tip", "sea_work",
    ],
)
#: what a run mutates (models/base.py: Model and data): the root's host schedule, work arrays
RUN_FIELDS = ("breaks0", "coeffs0", "e", "u", "v", "omega", "joint_pos", "joint_vel",
              "joint_acc", "force", "torque", "art", "motion", "tmp", *SEA_RUN_FIELDS,
              "sea_work")


@inline_kernel
def _tip_load(t, tip, scal, vx, vy, vz, out):
    """Applied force (ramped, seed 000 §5.3), payload weight and drag at the free end [N]."""
    free_end_load(t, tip[RAMP], tip[FX], tip[FY], tip[FZ], tip[WEIGHT], tip[DRAG_AREA],
                  scal[RHO], scal[GX], scal[GY], scal[GZ], scal[UX], scal[UY], scal[UZ],
                  vx, vy, vz, out)


@inline_kernel
def _end_load(t, d, out):
    """The free end's load [N] into out[0:3]: :func:`_tip_load`, or in the sea
    sea_loads.sea_end_load with the medium and flow at the end joint."""
    N = d.n_links
    jv = d.joint_vel
    if d.sea_par[SEA_ACTIVE] != 0.0:
        tip, scal, jp = d.tip, d.scal, d.joint_pos
        sea_end_load(d.sea_par, d.sea_current, d.sea_wind, d.sea_waves, d.sea_grid, t,
                     d.sea_tip, tip[RAMP], tip[FX], tip[FY], tip[FZ], tip[DRAG_AREA],
                     scal[GX], scal[GY], scal[GZ], jp[N, 0], jp[N, 1], jp[N, 2],
                     jv[N, 0], jv[N, 1], jv[N, 2], d.sea_work, out)
    else:
        _tip_load(t, d.tip, d.scal, jv[N, 0], jv[N, 1], jv[N, 2], out)


@inline_kernel
def _joint_tangent(d, i):
    """Unit tangent at joint i = 1 … N (mean of the adjacent links' axes) into
    d.sea_work[SW_TAN:SW_TAN + 3]; returns the joint's share of line [m] (half of each
    adjacent link)."""
    N = d.n_links
    e, sw = d.e, d.sea_work
    tx, ty, tz = e[i - 1, 0], e[i - 1, 1], e[i - 1, 2]
    share = 0.5 * d.link[i - 1, LENGTH]
    if i < N:
        tx += e[i, 0]
        ty += e[i, 1]
        tz += e[i, 2]
        share += 0.5 * d.link[i, LENGTH]
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
def _sea_loads(t, d):
    """The sea's loads on every link (docs/rigid_links.md "The sea"), after
    :func:`_kinematics`: dry weight plus sea.element_fluid's forces at the link's two
    joints (buoyancy per medium by wetted fraction, drag with the local flow,
    Froude–Krylov; no added mass: the links carry none) as the resultant at the mass
    centre and its moment (L/2) i_j × (f_b − f_a); then seabed contact and friction at the
    joints 1 … N, each on the link ending there."""
    N = d.n_links
    link, scal, force = d.link, d.scal, d.force
    jp, jv, par, sw = d.joint_pos, d.joint_vel, d.sea_par, d.sea_work
    gx, gy, gz = scal[GX], scal[GY], scal[GZ]
    for j in range(N):
        L = link[j, LENGTH]
        m = link[j, MASS]
        element_fluid(par, d.sea_current, d.sea_wind, d.sea_waves, d.sea_grid, t,
                      d.drag_law, scal[DIAMETER], scal[AREA], L, scal[CD_N], scal[CD_T],
                      0.0, 0.0, jp[j, 0], jp[j, 1], jp[j, 2], jp[j + 1, 0], jp[j + 1, 1],
                      jp[j + 1, 2], jv[j, 0], jv[j, 1], jv[j, 2], jv[j + 1, 0], jv[j + 1, 1],
                      jv[j + 1, 2], gx, gy, gz, sw)
        force[j, 0] = m * gx + sw[0] + sw[3]
        force[j, 1] = m * gy + sw[1] + sw[4]
        force[j, 2] = m * gz + sw[2] + sw[5]
        _add_end_moment(d, j, sw[3] - sw[0], sw[4] - sw[1], sw[5] - sw[2])
    if par[BED] == 0.0:
        return
    for i in range(1, N + 1):
        share = _joint_tangent(d, i)
        seabed_force(par, d.sea_bed, d.sea_bed_axes, d.sea_anchor, i, jp[i, 0], jp[i, 1],
                     jp[i, 2], jv[i, 0], jv[i, 1], jv[i, 2], sw[SW_TAN], sw[SW_TAN + 1],
                     sw[SW_TAN + 2], share, scal[DIAMETER], sw[SW_BED:SW_BED + 3])
        force[i - 1, 0] += sw[SW_BED]
        force[i - 1, 1] += sw[SW_BED + 1]
        force[i - 1, 2] += sw[SW_BED + 2]
        _add_end_moment(d, i - 1, sw[SW_BED], sw[SW_BED + 1], sw[SW_BED + 2])


@inline_kernel
def _add_end_moment(d, j, fx, fy, fz):
    """Add to link j's torque the moment about its mass centre of a force f at its far
    joint paired with −f at its near one: (L/2) i_j × f [N m]."""
    h = 0.5 * d.link[j, LENGTH]
    ex, ey, ez = d.e[j, 0], d.e[j, 1], d.e[j, 2]
    d.torque[j, 0] += h * (ey * fz - ez * fy)
    d.torque[j, 1] += h * (ez * fx - ex * fz)
    d.torque[j, 2] += h * (ex * fy - ey * fx)


@kernel
def _kinematics(t, y, d, dydt):
    """Link frames, angular velocities, joint positions/velocities, quaternion rates and
    the external loads (weight, buoyancy, drag at the mass centre; joint damping torques)."""
    N = d.n_links
    e, u, v, omega, link, scal = d.e, d.u, d.v, d.omega, d.link, d.scal
    jp, jv, force, torque, tmp = d.joint_pos, d.joint_vel, d.force, d.torque, d.tmp
    eval_motion(d.breaks0, d.coeffs0, t, d.motion)
    for a in range(3):
        jp[0, a] = d.motion[0, a]
        jv[0, a] = d.motion[1, a]
        d.joint_acc[0, a] = d.motion[2, a]
    rho = scal[RHO]
    sea = d.sea_par[SEA_ACTIVE] != 0.0
    for j in range(N):
        b = 4 * j
        qw, qx, qy, qz = y[b], y[b + 1], y[b + 2], y[b + 3]
        s = 1.0 / math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz)
        qw *= s
        qx *= s
        qy *= s
        qz *= s
        # body axes i_j (along the link), j_j, k_j: columns of (T_j)^T, seed 000 eq. (1)
        ex = 1.0 - 2.0 * (qy * qy + qz * qz)
        ey = 2.0 * (qx * qy + qw * qz)
        ez = 2.0 * (qx * qz - qw * qy)
        ux = 2.0 * (qx * qy - qw * qz)
        uy = 1.0 - 2.0 * (qx * qx + qz * qz)
        uz = 2.0 * (qy * qz + qw * qx)
        vx = 2.0 * (qx * qz + qw * qy)
        vy = 2.0 * (qy * qz - qw * qx)
        vz = 1.0 - 2.0 * (qx * qx + qy * qy)
        e[j, 0], e[j, 1], e[j, 2] = ex, ey, ez
        u[j, 0], u[j, 1], u[j, 2] = ux, uy, uz
        v[j, 0], v[j, 1], v[j, 2] = vx, vy, vz
        p = y[4 * N + 2 * j]
        r = y[4 * N + 2 * j + 1]
        # no spin: omega = q_j j_j + r_j k_j, seed 000 eq. (4)
        wx = p * ux + r * vx
        wy = p * uy + r * vy
        wz = p * uz + r * vz
        omega[j, 0], omega[j, 1], omega[j, 2] = wx, wy, wz
        # quaternion rate 1/2 q (x) (0, 0, q_j, r_j)
        dydt[b] = -0.5 * (qy * p + qz * r)
        dydt[b + 1] = 0.5 * (qy * r - qz * p)
        dydt[b + 2] = 0.5 * (qw * p - qx * r)
        dydt[b + 3] = 0.5 * (qw * r + qx * p)
        L = link[j, LENGTH]
        # omega x i_j: velocity of the link's far end relative to its near joint, per metre
        cx = wy * ez - wz * ey
        cy = wz * ex - wx * ez
        cz = wx * ey - wy * ex
        jp[j + 1, 0] = jp[j, 0] + L * ex
        jp[j + 1, 1] = jp[j, 1] + L * ey
        jp[j + 1, 2] = jp[j, 2] + L * ez
        jv[j + 1, 0] = jv[j, 0] + L * cx
        jv[j + 1, 1] = jv[j, 1] + L * cy
        jv[j + 1, 2] = jv[j, 2] + L * cz
        wet = link[j, WET_MASS]
        force[j, 0] = wet * scal[GX]
        force[j, 1] = wet * scal[GY]
        force[j, 2] = wet * scal[GZ]
        if rho > 0.0 and not sea:
            # drag at the mass centre from its velocity relative to the fluid, seed 000 eq. (47)
            element_drag(d.drag_law, rho, scal[DIAMETER], L, scal[CD_N], scal[CD_T], ex, ey, ez,
                         jv[j, 0] + 0.5 * L * cx - scal[UX], jv[j, 1] + 0.5 * L * cy - scal[UY],
                         jv[j, 2] + 0.5 * L * cz - scal[UZ], tmp)
            force[j, 0] += tmp[0]
            force[j, 1] += tmp[1]
            force[j, 2] += tmp[2]
        torque[j, 0] = 0.0
        torque[j, 1] = 0.0
        torque[j, 2] = 0.0
    if sea:
        _sea_loads(t, d)
    # joint bending damping between links j and j+1, proportional to their relative angular
    # velocity without its twist about the joint's mean axis, seed 000 eq. (48)
    for j in range(N - 1):
        c = 0.5 * (link[j, JOINT_DAMPING] + link[j + 1, JOINT_DAMPING])
        if c == 0.0:
            continue
        mx = e[j, 0] + e[j + 1, 0]
        my = e[j, 1] + e[j + 1, 1]
        mz = e[j, 2] + e[j + 1, 2]
        mm = mx * mx + my * my + mz * mz
        dx = omega[j + 1, 0] - omega[j, 0]
        dy = omega[j + 1, 1] - omega[j, 1]
        dz = omega[j + 1, 2] - omega[j, 2]
        if mm > 1e-12:
            twist = (dx * mx + dy * my + dz * mz) / mm
            dx -= twist * mx
            dy -= twist * my
            dz -= twist * mz
        torque[j, 0] += c * dx
        torque[j, 1] += c * dy
        torque[j, 2] += c * dz
        torque[j + 1, 0] -= c * dx
        torque[j + 1, 1] -= c * dy
        torque[j + 1, 2] -= c * dz


@kernel
def _recursion(t, d, dydt):
    """Backward then forward pass: body-rate derivatives into dydt, joint accelerations into
    d.joint_acc. Seed 000 §4, in inertial-frame vectors (docs/rigid_links.md)."""
    N = d.n_links
    e, u, v, omega, link, art = d.e, d.u, d.v, d.omega, d.link, d.art
    force, torque, acc, tip = d.force, d.torque, d.joint_acc, d.tip
    # the free end: a payload of mass m_p needs R_N = m_p a_N - (tip loads) from link N
    _end_load(t, d, d.tmp[3:6])
    mp = tip[PAYLOAD]
    # articulated inertia K (symmetric 3x3) and bias k of the child, as scalars
    k00, k01, k02, k11, k12, k22 = mp, 0.0, 0.0, mp, 0.0, mp
    b0, b1, b2 = -d.tmp[3], -d.tmp[4], -d.tmp[5]
    for j in range(N - 1, -1, -1):
        L = link[j, LENGTH]
        m = link[j, MASS]
        ex, ey, ez = e[j, 0], e[j, 1], e[j, 2]
        ux, uy, uz = u[j, 0], u[j, 1], u[j, 2]
        vx, vy, vz = v[j, 0], v[j, 1], v[j, 2]
        # K u, K v, K e
        Kux = k00 * ux + k01 * uy + k02 * uz
        Kuy = k01 * ux + k11 * uy + k12 * uz
        Kuz = k02 * ux + k12 * uy + k22 * uz
        Kvx = k00 * vx + k01 * vy + k02 * vz
        Kvy = k01 * vx + k11 * vy + k12 * vz
        Kvz = k02 * vx + k12 * vy + k22 * vz
        Kex = k00 * ex + k01 * ey + k02 * ez
        Key = k01 * ex + k11 * ey + k12 * ez
        Kez = k02 * ex + k12 * ey + k22 * ez
        # J = [j_j x i_j, k_j x i_j] = [-k_j, j_j] maps the 2 body angular accelerations to
        # (alpha x i_j); Y = (m/2 I + K) J
        hm = 0.5 * m
        y00, y10, y20 = -(hm * vx + Kvx), -(hm * vy + Kvy), -(hm * vz + Kvz)
        y01, y11, y21 = hm * ux + Kux, hm * uy + Kuy, hm * uz + Kuz
        # 2x2 link inertia A = (I_c + m L^2/4) I + L^2 J^T K J, seed 000 eqs. (27), (40)
        L2 = L * L
        diag = link[j, INERTIA] + 0.25 * m * L2
        a00 = diag + L2 * (vx * Kvx + vy * Kvy + vz * Kvz)
        a01 = -L2 * (vx * Kux + vy * Kuy + vz * Kuz)
        a11 = diag + L2 * (ux * Kux + uy * Kuy + uz * Kuz)
        inv_det = 1.0 / (a00 * a11 - a01 * a01)
        i00 = a11 * inv_det
        i01 = -a01 * inv_det
        i11 = a00 * inv_det
        # right-hand side: torques, centripetal and child terms, external force
        w2 = omega[j, 0] ** 2 + omega[j, 1] ** 2 + omega[j, 2] ** 2
        tx, ty, tz = torque[j, 0], torque[j, 1], torque[j, 2]
        Fx, Fy, Fz = force[j, 0], force[j, 1], force[j, 2]
        cx = L2 * w2 * Kex - L * b0 + 0.5 * L * Fx
        cy = L2 * w2 * Key - L * b1 + 0.5 * L * Fy
        cz = L2 * w2 * Kez - L * b2 + 0.5 * L * Fz
        r0 = ux * tx + uy * ty + uz * tz - (vx * cx + vy * cy + vz * cz)
        r1 = vx * tx + vy * ty + vz * tz + (ux * cx + uy * cy + uz * cz)
        g0 = i00 * r0 + i01 * r1
        g1 = i01 * r0 + i11 * r1
        art[j, Y00], art[j, Y10], art[j, Y20] = y00, y10, y20
        art[j, Y01], art[j, Y11], art[j, Y21] = y01, y11, y21
        art[j, AI00], art[j, AI01], art[j, AI11] = i00, i01, i11
        art[j, G0], art[j, G1] = g0, g1
        # parent joint: K <- m I + K - L^2 Y A^-1 Y^T, k <- L Y g - L w2 (m/2 e + K e) + k - F
        # (seed 000 eqs. (29)-(32), (38)-(39), (43)-(45))
        z00 = y00 * i00 + y01 * i01
        z01 = y00 * i01 + y01 * i11
        z10 = y10 * i00 + y11 * i01
        z11 = y10 * i01 + y11 * i11
        z20 = y20 * i00 + y21 * i01
        z21 = y20 * i01 + y21 * i11
        k00 += m - L2 * (z00 * y00 + z01 * y01)
        k01 -= L2 * (z00 * y10 + z01 * y11)
        k02 -= L2 * (z00 * y20 + z01 * y21)
        k11 += m - L2 * (z10 * y10 + z11 * y11)
        k12 -= L2 * (z10 * y20 + z11 * y21)
        k22 += m - L2 * (z20 * y20 + z21 * y21)
        Lw2 = L * w2
        b0 += L * (y00 * g0 + y01 * g1) - Lw2 * (hm * ex + Kex) - Fx
        b1 += L * (y10 * g0 + y11 * g1) - Lw2 * (hm * ey + Key) - Fy
        b2 += L * (y20 * g0 + y21 * g1) - Lw2 * (hm * ez + Kez) - Fz
    # forward pass from the root joint's known acceleration, seed 000 eqs. (37), (40), (17)
    N4 = 4 * N
    for j in range(N):
        L = link[j, LENGTH]
        a0, a1, a2 = acc[j, 0], acc[j, 1], acc[j, 2]
        c0 = L * (art[j, Y00] * a0 + art[j, Y10] * a1 + art[j, Y20] * a2)
        c1 = L * (art[j, Y01] * a0 + art[j, Y11] * a1 + art[j, Y21] * a2)
        beta0 = art[j, G0] - (art[j, AI00] * c0 + art[j, AI01] * c1)
        beta1 = art[j, G1] - (art[j, AI01] * c0 + art[j, AI11] * c1)
        dydt[N4 + 2 * j] = beta0
        dydt[N4 + 2 * j + 1] = beta1
        w2 = omega[j, 0] ** 2 + omega[j, 1] ** 2 + omega[j, 2] ** 2
        for a in range(3):
            # a_j = a_{j-1} + L (alpha x i_j) - L |omega|^2 i_j, seed 000 eq. (16)
            acc[j + 1, a] = acc[j, a] + L * (beta1 * u[j, a] - beta0 * v[j, a] - w2 * e[j, a])


@kernel
def rhs(t, y, dydt, d):
    """dy/dt: quaternion rates and body angular accelerations of every link."""
    _kinematics(t, y, d, dydt)
    _recursion(t, d, dydt)


@kernel
def enforce(t, y, d):
    """Renormalise every link's quaternion (RK steps leave |q| = 1 + O(dt^5))."""
    for j in range(d.n_links):
        b = 4 * j
        n2 = y[b] ** 2 + y[b + 1] ** 2 + y[b + 2] ** 2 + y[b + 3] ** 2
        if abs(n2 - 1.0) < QUATERNION_TOLERANCE:
            s = 1.0 / math.sqrt(n2)
            for i in range(4):
                y[b + i] *= s


@kernel
def check(t, y, d):
    """Index of a link whose state is non-finite or whose quaternion is corrupt, else -1."""
    N = d.n_links
    for j in range(N):
        b = 4 * j
        n2 = y[b] ** 2 + y[b + 1] ** 2 + y[b + 2] ** 2 + y[b + 3] ** 2
        w = y[4 * N + 2 * j] + y[4 * N + 2 * j + 1]
        if not (math.isfinite(n2) and math.isfinite(w)) or abs(n2 - 1.0) >= QUATERNION_TOLERANCE:
            return j
    return -1


@kernel
def diagnostics(times, Y, d, dydt, pos, vel, tension, start_force, end_force, kinetic,
                potential):
    """Joint positions/velocities, link tensions, end forces and energies at output instants.

    Joint reactions from force balance of each link, end to root: R_{j-1} = m a_c + R_j - F,
    with a_c the mean of the link's joint accelerations (seed 000 eqs. 20, 33).
    """
    N = d.n_links
    link, scal, acc, tip, tmp = d.link, d.scal, d.joint_acc, d.tip, d.tmp
    for k in range(times.size):
        t = times[k]
        rhs(t, Y[k], dydt, d)
        for i in range(N + 1):
            for a in range(3):
                pos[k, i, a] = d.joint_pos[i, a]
                vel[k, i, a] = d.joint_vel[i, a]
        # force the tether exerts on the payload / applied load at the free end
        _end_load(t, d, tmp)
        R0 = tip[PAYLOAD] * acc[N, 0] - tmp[0]
        R1 = tip[PAYLOAD] * acc[N, 1] - tmp[1]
        R2 = tip[PAYLOAD] * acc[N, 2] - tmp[2]
        end_force[k, 0], end_force[k, 1], end_force[k, 2] = R0, R1, R2
        ke = 0.5 * tip[PAYLOAD] * (d.joint_vel[N, 0] ** 2 + d.joint_vel[N, 1] ** 2
                                   + d.joint_vel[N, 2] ** 2)
        # in the sea: dry weights, buoyancy by the hydrostatic potential (sea_loads.py)
        sea = d.sea_par[SEA_ACTIVE] != 0.0
        g_abs = math.sqrt(scal[GX] ** 2 + scal[GY] ** 2 + scal[GZ] ** 2)
        wp = d.sea_tip[TIP_MASS] if sea else tip[WEIGHT]
        pe = -wp * (scal[GX] * pos[k, N, 0] + scal[GY] * pos[k, N, 1]
                    + scal[GZ] * pos[k, N, 2])
        if sea:
            pe -= g_abs * d.sea_tip[TIP_VOLUME] * hydrostatic_potential(d.sea_par,
                                                                        pos[k, N, 2])
        for j in range(N - 1, -1, -1):
            m = link[j, MASS]
            wm = m if sea else link[j, WET_MASS]
            vc2 = 0.0
            for a in range(3):
                ac = 0.5 * (acc[j, a] + acc[j + 1, a])
                vc = 0.5 * (d.joint_vel[j, a] + d.joint_vel[j + 1, a])
                vc2 += vc * vc
                pe -= wm * scal[GX + a] * 0.5 * (pos[k, j, a] + pos[k, j + 1, a])
                if a == 0:
                    R0 = m * ac + R0 - d.force[j, a]
                elif a == 1:
                    R1 = m * ac + R1 - d.force[j, a]
                else:
                    R2 = m * ac + R2 - d.force[j, a]
            if sea:
                pe -= g_abs * scal[AREA] * link[j, LENGTH] * hydrostatic_potential(
                    d.sea_par, 0.5 * (pos[k, j, 2] + pos[k, j + 1, 2]))
            w2 = d.omega[j, 0] ** 2 + d.omega[j, 1] ** 2 + d.omega[j, 2] ** 2
            ke += 0.5 * m * vc2 + 0.5 * link[j, INERTIA] * w2
            # R_{j-1} acts on link j; tension pulls the link back towards its parent joint
            tension[k, j] = -(R0 * d.e[j, 0] + R1 * d.e[j, 1] + R2 * d.e[j, 2])
        start_force[k, 0], start_force[k, 1], start_force[k, 2] = -R0, -R1, -R2
        kinetic[k] = ke
        potential[k] = pe


@kernel
def remesh(t, y, d):
    """After each accepted step: the seabed's friction anchors follow the joints
    (sea.update_anchor). The layout never changes: returns 0."""
    par = d.sea_par
    if par[SEA_ACTIVE] == 0.0 or par[BED] == 0.0:
        return 0
    N = d.n_links
    e, jp = d.e, d.joint_pos
    eval_motion(d.breaks0, d.coeffs0, t, d.motion)
    for a in range(3):
        jp[0, a] = d.motion[0, a]
    for j in range(N):
        b = 4 * j
        qw, qx, qy, qz = y[b], y[b + 1], y[b + 2], y[b + 3]
        s = 1.0 / math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz)
        qw *= s
        qx *= s
        qy *= s
        qz *= s
        # the link axis i_j as in _kinematics, seed 000 eq. (1)
        e[j, 0] = 1.0 - 2.0 * (qy * qy + qz * qz)
        e[j, 1] = 2.0 * (qx * qy + qw * qz)
        e[j, 2] = 2.0 * (qx * qz - qw * qy)
        L = d.link[j, LENGTH]
        for a in range(3):
            jp[j + 1, a] = jp[j, a] + L * e[j, a]
    sw = d.sea_work
    for i in range(1, N + 1):
        share = _joint_tangent(d, i)
        update_anchor(par, d.sea_bed, d.sea_bed_axes, d.sea_anchor, i, jp[i, 0], jp[i, 1],
                      jp[i, 2], sw[SW_TAN], sw[SW_TAN + 1], sw[SW_TAN + 2], share, d.scal[DIAMETER])
    return 0


def quaternion_along(direction: np.ndarray) -> np.ndarray:
    """Unit quaternion (scalar first) of the shortest rotation taking x onto ``direction``."""
    e = np.asarray(direction, dtype=float)
    e = e / np.linalg.norm(e)
    c = float(e[0])
    if c < -1.0 + 1e-12:  # opposite to x: half a turn about z
        return np.array([0.0, 0.0, 0.0, 1.0])
    w = math.sqrt(0.5 * (1.0 + c))
    axis = np.cross([1.0, 0.0, 0.0], e) / (2.0 * w)  # sin(θ/2) n = (x × e) / (2 cos(θ/2))
    return np.array([w, *axis])


class RigidLinks(Formulation):
    """Rigid-link tether with spherical joints (``model.type: rigid_links``)."""

    # rigid links are inextensible and carry no added mass (seed 000)
    supports = Supports(
        methods=("rk4", "rk45"),
        drag_laws=("isotropic", "cross_flow", "loading_functions"),  # seed 000 eq. (47) first
        tether_keys=COMMON_TETHER_KEYS,
        options={
            "joint_damping": Option(float, 0.0, "total tether bending damping C_s [N m s]; "
                                    "link j's joint damping is C_s m_j l_j / (m_T L), seed "
                                    "000 eq. (48)"),
        },
        start_types=("fixed", "prescribed"), end_types=("free",),
        ends_note="a chain rooted at its start: its joints are measured from the start end, "
                  "and a chain held at both ends is a closed loop",
        winch_note="its recursion is built on fixed link lengths",
    )

    name = "rigid_links"
    fastest_mode = "zig-zag bending of the links under tension"
    rhs = staticmethod(rhs)
    enforce = staticmethod(enforce)
    check = staticmethod(check)
    remesh = staticmethod(remesh)
    run_fields = RUN_FIELDS

    def __init__(self, case: Case) -> None:
        super().__init__(case)
        t = case.tether
        N = case.model.elements
        self.n_elements = N
        self.n_nodes = N + 1
        lengths, self.arc_length = uniform_elements(case)  # l_j = L / N, seed 000 §5
        rho = case.environment.fluid_density
        mass = t.linear_mass * lengths  # m_j = m_T / N
        total_mass = t.linear_mass * t.length
        link = np.zeros((N, 5))
        link[:, LENGTH] = lengths
        link[:, MASS] = mass
        link[:, INERTIA] = mass * lengths**2 / 12.0  # slender rod, seed 000 eq. (46)
        link[:, WET_MASS] = mass - rho * t.displaced * lengths
        # C_sj = C_s m_j l_j / (m_T L): the tether's damping shared by mass and length, seed
        # 000 eq. (48) (docs/rigid_links.md explains this reading of the garbled equation)
        link[:, JOINT_DAMPING] = (float(case.model.option("joint_damping")) * mass * lengths
                                  / (total_mass * t.length))
        env = case.environment
        scal = np.zeros(11)
        scal[[RHO, DIAMETER, CD_N, CD_T, AREA]] = (rho, t.diameter, t.cd_normal,
                                                   t.cd_tangential, t.displaced)
        scal[GX:GZ + 1] = env.gravity
        # a current profile (table, power law) is sea.py's (sea_current); scal's stays 0
        scal[UX:UZ + 1] = env.uniform_current or (0.0, 0.0, 0.0)
        end = case.end
        tip = np.zeros(7)
        tip[[PAYLOAD, RAMP, DRAG_AREA, WEIGHT]] = (end.body_masses(rho)[0],
                                                   end.force_ramp_time or 0.0, end.drag_area,
                                                   end.body_masses(rho)[1])
        tip[FX:FZ + 1] = end.force
        root = case.end_motion("start")
        self.data = RigidLinksData(
            n_links=N, drag_law=DRAG_LAW_CODES[case.drag_law], scal=scal, link=link, tip=tip,
            breaks0=root.breaks, coeffs0=root.coeffs,
            e=np.zeros((N, 3)), u=np.zeros((N, 3)), v=np.zeros((N, 3)), omega=np.zeros((N, 3)),
            joint_pos=np.zeros((N + 1, 3)), joint_vel=np.zeros((N + 1, 3)),
            joint_acc=np.zeros((N + 1, 3)), force=np.zeros((N, 3)), torque=np.zeros((N, 3)),
            art=np.zeros((N, 11)), motion=np.zeros((3, 3)), tmp=np.zeros(6),
            **model_sea_arrays(case, self.arc_length),
            sea_tip=sea_tip_table(end), sea_work=np.zeros(SEA_WORK),
        )

    # -- the formulation surface -------------------------------------------------------
    def initial_state(self) -> np.ndarray:
        """Link attitudes and body rates from the initial joint positions and velocities.

        Each link points from its joint to the next (the shape is rebuilt from the root with
        exact link lengths); its angular velocity is the part of the joints' relative
        velocity that rotates it, i_j x (v_j - v_{j-1}) / l_j (any stretching rate is
        dropped: the links are rigid).
        """
        pos, vel = initial_nodes(self.case, self.arc_length)
        N = self.n_elements
        y = np.zeros(6 * N)
        for j in range(N):
            chord = pos[j + 1] - pos[j]
            if np.linalg.norm(chord) == 0.0:
                raise ValueError(f"initial shape: joints {j} and {j + 1} coincide")
            e = chord / np.linalg.norm(chord)
            q = quaternion_along(e)
            y[4 * j:4 * j + 4] = q
            w, x, yy, z = q
            u = np.array([2 * (x * yy - w * z), 1 - 2 * (x * x + z * z), 2 * (yy * z + w * x)])
            v = np.cross(e, u)
            omega = np.cross(e, vel[j + 1] - vel[j]) / self.data.link[j, LENGTH]
            y[4 * N + 2 * j] = omega @ u
            y[4 * N + 2 * j + 1] = omega @ v
        return y

    def outputs(self, times: np.ndarray, Y: np.ndarray, data: tuple | None = None
                ) -> dict[str, np.ndarray]:
        k = times.size
        N = self.n_elements
        pos = np.empty((k, N + 1, 3))
        vel = np.empty((k, N + 1, 3))
        tension = np.empty((k, N))
        f0 = np.empty((k, 3))
        f1 = np.empty((k, 3))
        ke = np.empty(k)
        pe = np.empty(k)
        replay_samples(self.data if data is None else data, times, Y, diagnostics, remesh,
                       (pos, vel, tension, f0, f1, ke, pe))
        return dict(position=pos, velocity=vel, tension=tension, start_force=f0, end_force=f1,
                    kinetic_energy=ke, potential_energy=pe,
                    **self._sea_outputs(times, pos, vel, data))

    def _sea_outputs(self, times: np.ndarray, pos: np.ndarray, vel: np.ndarray,
                     data: tuple | None) -> dict[str, tuple]:
        """surface_elevation, grounded, seabed_force at the joints (only with a sea;
        the held start joint is never in contact)."""
        held = np.zeros(self.n_nodes, dtype=bool)
        held[0] = True
        return sea_node_outputs(self.data if data is None else data, times, pos, vel,
                                np.diff(self.arc_length), self.case.tether.diameter, held)

    def end_forces(self, t: float, y: np.ndarray, out: np.ndarray,
                   data: tuple | None = None) -> None:
        """Forces [N] on the start (out[0]) and end (out[1]) holders; no allocation after
        the first call (buffers kept on the model)."""
        if not hasattr(self, "_probe"):
            N = self.n_elements
            self._probe = (np.zeros(1), np.zeros((1, 6 * N)), np.empty(6 * N),
                           np.empty((1, N + 1, 3)), np.empty((1, N + 1, 3)), np.empty((1, N)),
                           np.empty((1, 3)), np.empty((1, 3)), np.empty(1), np.empty(1))
        times, Y, dydt, pos, vel, tension, f0, f1, ke, pe = self._probe
        times[0] = t
        Y[0] = y
        diagnostics(times, Y, self.data if data is None else data, dydt, pos, vel, tension,
                    f0, f1, ke, pe)
        out[0] = f0[0]
        out[1] = f1[0]

    def accelerations(self, t: float, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Body angular accelerations (N, 2) [rad/s^2] and joint accelerations (N+1, 3)
        [m/s^2] at state y (a copy of the work arrays; for tests and tools)."""
        dydt = np.empty_like(y)
        rhs(t, np.ascontiguousarray(y, dtype=float), dydt, self.data)
        N = self.n_elements
        return dydt[4 * N:].reshape(N, 2).copy(), self.data.joint_acc.copy()

    def critical_time_step(self) -> tuple[float, int, float]:
        """Largest stable RK4 step [s], what limits it (element or node index) and its
        frequency [rad/s]: the structure's bound (:meth:`structure_critical_step`) or,
        with a seabed, a grounded node's contact (sea_loads.seabed_critical_step) where
        that is smaller."""
        best = self.structure_critical_step()
        mass = self.data.link[:, MASS]
        held = np.arange(self.n_nodes) == 0
        bed = seabed_critical_step(self.data.sea_par, np.diff(self.arc_length), mass,
                                   self.case.tether.diameter, held)
        return bed if bed[0] < best[0] else best

    def structure_critical_step(self) -> tuple[float, int, float]:
        """Largest stable RK4 step [s], the limiting link and its frequency [rad/s].

        Rigid links have no axial mode; the fastest is the zig-zag bending mode of the most
        tensioned link. A slender rod of mass m and length l between two joints under
        tension T, its ends moving ±δ, stores 2 T δ² / l and has kinetic energy (m / 3) δ̇²
        / 2, so ω² = 12 T / (m l). T is the static tension at the root (weight in the fluid
        plus the free end's payload and force); dynamic tension can raise it.
        """
        tension, _ = static_top_tension(self.case)
        link = self.data.link
        if not math.isfinite(tension) or tension <= 0.0:
            return math.inf, 0, 0.0
        omega = math.sqrt(12.0 * tension / (link[0, MASS] * link[0, LENGTH]))
        return rk4_critical_step(omega, 0.0), 0, omega
