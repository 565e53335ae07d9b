"""The 6-DOF rigid body (issue 19): its case spec and its compiled kernels (docs/bodies.md).

Shared physics for a system of lines, points and bodies: a system integrates each free body's
13 states with the lines' in one state vector, computes the lines' end positions with
:func:`attachment_kinematics`, sums their end forces with :func:`add_attachment_load` and
calls :func:`body_derivative`. Everything compiled here is allocation-free and writes into
caller-owned arrays.

State layout (:data:`STATE_SIZE` = 13 entries, fixed):
``[x, y, z, qw, qx, qy, qz, vx, vy, vz, wx, wy, wz]`` — the reference point's position [m]
and velocity [m/s] in world axes, the unit quaternion (scalar first, Hamilton) that turns
body components into world ones (``r_world = p + R(q) r_body``), and the angular velocity
in body axes [rad/s].

Roll, pitch and yaw [rad] follow MoorDyn-C (source/Misc.hpp, ``Euler2Quat``):
``R = Rx(roll) Ry(pitch) Rz(yaw)``, right-handed elementary rotations: intrinsic x-y'-z''
(roll about the body's x, then pitch about the new y, then yaw about the newest z),
equivalently extrinsic z, y, x about the world axes.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from ._jit import inline_kernel, kernel
from .boundary import Trajectory, _read_csv, eval_motion, load_trajectory
from .sea import FLUID_OUT, HAS_SURFACE, RHO_WATER, WATER_LEVEL, fluid_at

__all__ = [
    "Body", "Waterplane", "STATE_SIZE", "N_PROPS", "WORK_SIZE", "body_props",
    "initial_state", "attachment_kinematics", "lever_and_spin", "add_attachment_load",
    "body_derivative",
    "body_derivative_with",
    "normalize_quaternion", "quaternion_from_rpy", "rpy_from_quaternion",
    "rotation_matrix", "body_rates_from_rpy", "mass_matrix", "coupled_state",
    "body_errors", "body_loads", "rpy_rates_from_body_rates",
]

#: entries of one body's state
STATE_SIZE = 13
#: state offsets: position, quaternion, velocity (world), angular velocity (body)
POS, QUAT, VEL, OMEGA = 0, 3, 7, 10

# props indices (body_props builds the array; docs/bodies.md)
MASS = 0
I_CG = 1  # 9: inertia about the centre of gravity, body axes, row-major [kg m^2]
R_CG = 10  # 3: centre of gravity from the reference point, body axes [m]
R_CB = 13  # 3: centre of buoyancy [m]
VOLUME = 16  # displaced volume [m^3]
HYDRO = 17  # NONE, WATERPLANE or MATRIX
K_HS = 18  # 9: heave/roll/pitch hydrostatic stiffness block, row-major [N/m, N, N m]
DRAG = 27  # 6: Cd A per body axis [m^2] and rotational Cd A [m^5]
ADDED = 33  # 6: added mass per body axis [kg, kg m^2]
I_REF = 39  # 9: inertia about the reference point, body axes [kg m^2]
N_PROPS = 48

#: hydrostatics kinds (props[HYDRO])
NONE, WATERPLANE, MATRIX = 0, 1, 2

# work offsets (body_derivative's scratch)
_FL = 0  # fluid_at's out (8)
_A = 8  # the 6x6 mass matrix, row-major (36), factored in place
_B = 44  # right-hand side and solution (6)
_X = 50  # body_derivative's zero extra mass matrix (36)
#: entries body_derivative needs in its ``work`` array
WORK_SIZE = 86


# -- rotations ------------------------------------------------------------------------------


@inline_kernel
def _unit(qw, qx, qy, qz):
    n = math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz)
    return qw / n, qx / n, qy / n, qz / n


@inline_kernel
def _rot(qw, qx, qy, qz):
    """The rotation matrix (9 entries, row-major) of the quaternion, normalised first."""
    w, x, y, z = _unit(qw, qx, qy, qz)
    return (1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y),
            2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x),
            2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y))


@inline_kernel
def _quat_of_rpy(roll, pitch, yaw):
    """(qw, qx, qy, qz) of roll, pitch, yaw [rad]: q_x(roll) q_y(pitch) q_z(yaw)."""
    cr, sr = math.cos(0.5 * roll), math.sin(0.5 * roll)
    cp, sp = math.cos(0.5 * pitch), math.sin(0.5 * pitch)
    cy, sy = math.cos(0.5 * yaw), math.sin(0.5 * yaw)
    # (cr + sr i)(cp + sp j)(cy + sy k), Hamilton products
    return (cr * cp * cy - sr * sp * sy, sr * cp * cy + cr * sp * sy,
            cr * sp * cy - sr * cp * sy, cr * cp * sy + sr * sp * cy)


def rotation_matrix(q) -> np.ndarray:
    """R (3, 3) of the quaternion q = [qw, qx, qy, qz] (normalised first): body -> world
    (the kernels' own code, run by Python)."""
    return np.array(_rot.py_func(*(float(c) for c in q))).reshape(3, 3)


def quaternion_from_rpy(roll: float, pitch: float, yaw: float) -> np.ndarray:
    """The unit quaternion [qw, qx, qy, qz] of roll, pitch, yaw [rad] (MoorDyn-C's
    convention, module docstring): q = q_x(roll) q_y(pitch) q_z(yaw)."""
    return np.array(_quat_of_rpy.py_func(float(roll), float(pitch), float(yaw)))


def rpy_from_quaternion(q) -> np.ndarray:
    """Roll, pitch, yaw [rad] of the quaternion q (normalised first), pitch in
    [-pi/2, pi/2]: from R = Rx Ry Rz, R[0,2] = sin(pitch), R[1,2] = -sin(roll) cos(pitch),
    R[2,2] = cos(roll) cos(pitch), R[0,1] = -cos(pitch) sin(yaw), R[0,0] = cos(pitch)
    cos(yaw). At pitch = +-pi/2 (gimbal lock) roll and yaw share one angle: roll is
    returned with yaw 0."""
    R = rotation_matrix(q)
    c = math.hypot(R[0, 0], R[0, 1])
    pitch = math.atan2(R[0, 2], c)
    if c < 1e-12:
        return np.array([math.atan2(R[2, 1], R[1, 1]), pitch, 0.0])
    return np.array([math.atan2(-R[1, 2], R[2, 2]), pitch, math.atan2(-R[0, 1], R[0, 0])])


@inline_kernel
def body_rates_from_rpy(roll, pitch, yaw, droll, dpitch, dyaw):
    """Angular velocity in body axes [rad/s] of roll, pitch, yaw [rad] changing at the given
    rates [rad/s] (R = Rx Ry Rz): w = Rz^T Ry^T e_x droll + Rz^T e_y dpitch + e_z dyaw."""
    cp, sp = math.cos(pitch), math.sin(pitch)
    cy, sy = math.cos(yaw), math.sin(yaw)
    return (cp * cy * droll + sy * dpitch, -cp * sy * droll + cy * dpitch,
            sp * droll + dyaw)


def rpy_rates_from_body_rates(roll: float, pitch: float, yaw: float, wx: float, wy: float,
                              wz: float) -> tuple[float, float, float]:
    """Roll, pitch, yaw rates [rad/s] of the angular velocity (wx, wy, wz) [rad/s] in body
    axes at roll, pitch, yaw [rad]: :func:`body_rates_from_rpy` solved for the rates,
    cos(pitch) droll = cos(yaw) wx - sin(yaw) wy, dpitch = sin(yaw) wx + cos(yaw) wy,
    dyaw = wz - sin(pitch) droll. Raises ValueError at pitch = +-pi/2 (gimbal lock: the
    rates are not defined there)."""
    cp, sp = math.cos(pitch), math.sin(pitch)
    cy, sy = math.cos(yaw), math.sin(yaw)
    if abs(cp) < 1e-9:
        raise ValueError(f"pitch {pitch:g} rad: roll and yaw rates are not defined at "
                         "pitch = +-pi/2 (gimbal lock)")
    droll = (cy * wx - sy * wy) / cp
    return droll, sy * wx + cy * wy, wz - sp * droll


# -- kernels ------------------------------------------------------------------------------


@kernel
def normalize_quaternion(state):
    """Scale the quaternion of ``state`` (13 entries) to unit norm, in place (a system's
    ``enforce`` after each accepted step)."""
    n = math.sqrt(state[3] ** 2 + state[4] ** 2 + state[5] ** 2 + state[6] ** 2)
    for k in range(QUAT, QUAT + 4):
        state[k] /= n


@kernel
def coupled_state(pos_breaks, pos_coeffs, ang_breaks, ang_coeffs, t, m, state_out):
    """The state (13 entries, into ``state_out``) of a coupled body at time t [s] from its
    trajectory (:meth:`Body.motion`: position and roll/pitch/yaw pieces): position and
    velocity, the quaternion of the angles and the body-axes angular velocity of their
    rates (:func:`body_rates_from_rpy`). ``m``: a (3, 3) scratch array (eval_motion's)."""
    eval_motion(pos_breaks, pos_coeffs, t, m)
    for a in range(3):
        state_out[a] = m[0, a]
        state_out[7 + a] = m[1, a]
    eval_motion(ang_breaks, ang_coeffs, t, m)
    r, p, y = m[0, 0], m[0, 1], m[0, 2]
    qw, qx, qy, qz = _quat_of_rpy(r, p, y)
    state_out[3] = qw
    state_out[4] = qx
    state_out[5] = qy
    state_out[6] = qz
    wx, wy, wz = body_rates_from_rpy(r, p, y, m[1, 0], m[1, 1], m[1, 2])
    state_out[10] = wx
    state_out[11] = wy
    state_out[12] = wz


@inline_kernel
def _cross(ax, ay, az, bx, by, bz):
    """a × b, componentwise."""
    return ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx


@inline_kernel
def lever_and_spin(R, r_local, wx, wy, wz):
    """A point fixed in the body, ``r_local`` [m] (body axes, from the reference point):
    its world lever R r [m], its velocity about the reference point ω × R r [m/s] and its
    centripetal acceleration ω × (ω × R r) [m/s²], ω = R w the angular velocity in world
    axes (w = (wx, wy, wz) [rad/s], body axes: the state's); R the rotation matrix (9
    entries, row-major: _rot). Three 3-tuples, world axes."""
    rw0 = R[0] * r_local[0] + R[1] * r_local[1] + R[2] * r_local[2]
    rw1 = R[3] * r_local[0] + R[4] * r_local[1] + R[5] * r_local[2]
    rw2 = R[6] * r_local[0] + R[7] * r_local[1] + R[8] * r_local[2]
    w0 = R[0] * wx + R[1] * wy + R[2] * wz
    w1 = R[3] * wx + R[4] * wy + R[5] * wz
    w2 = R[6] * wx + R[7] * wy + R[8] * wz
    v0, v1, v2 = _cross(w0, w1, w2, rw0, rw1, rw2)
    c0, c1, c2 = _cross(w0, w1, w2, v0, v1, v2)
    return (rw0, rw1, rw2), (v0, v1, v2), (c0, c1, c2)


@kernel
def attachment_kinematics(state, r_local, pos_out, vel_out):
    """World position [m] and velocity [m/s] of the point ``r_local`` (body axes, from the
    reference point) fixed in the body: p + R r and v + ω × R r (:func:`lever_and_spin`)."""
    R = _rot(state[3], state[4], state[5], state[6])
    rw, vw, _ = lever_and_spin(R, r_local, state[10], state[11], state[12])
    pos_out[0] = state[0] + rw[0]
    pos_out[1] = state[1] + rw[1]
    pos_out[2] = state[2] + rw[2]
    vel_out[0] = state[7] + vw[0]
    vel_out[1] = state[8] + vw[1]
    vel_out[2] = state[9] + vw[2]


@kernel
def add_attachment_load(state, r_local, force_world, f6_out):
    """Add a force ``force_world`` [N] (world axes) acting at the body point ``r_local``
    (body axes) to ``f6_out``: f6_out[0:3] += F, f6_out[3:6] += (R r) x F, the moment about
    the reference point in world axes [N m]."""
    R = _rot(state[3], state[4], state[5], state[6])
    rx, ry, rz = r_local[0], r_local[1], r_local[2]
    ax = R[0] * rx + R[1] * ry + R[2] * rz
    ay = R[3] * rx + R[4] * ry + R[5] * rz
    az = R[6] * rx + R[7] * ry + R[8] * rz
    fx, fy, fz = force_world[0], force_world[1], force_world[2]
    f6_out[0] += fx
    f6_out[1] += fy
    f6_out[2] += fz
    f6_out[3] += ay * fz - az * fy
    f6_out[4] += az * fx - ax * fz
    f6_out[5] += ax * fy - ay * fx


@inline_kernel
def _solve6(A, b):
    """Solve A x = b in place (x into b) for the symmetric positive definite 6x6 A
    (row-major, 36 entries): Cholesky A = L L^T, L into A's lower triangle."""
    for j in range(6):
        s = A[6 * j + j]
        for k in range(j):
            s -= A[6 * j + k] * A[6 * j + k]
        d = math.sqrt(s)
        A[6 * j + j] = d
        for i in range(j + 1, 6):
            s = A[6 * i + j]
            for k in range(j):
                s -= A[6 * i + k] * A[6 * j + k]
            A[6 * i + j] = s / d
    for i in range(6):  # L y = b
        s = b[i]
        for k in range(i):
            s -= A[6 * i + k] * b[k]
        b[i] = s / A[6 * i + i]
    for i in range(5, -1, -1):  # L^T x = y
        s = b[i]
        for k in range(i + 1, 6):
            s -= A[6 * k + i] * b[k]
        b[i] = s / A[6 * i + i]


@inline_kernel
def _fill_mass(props, scale, A):
    """The body's 6x6 mass matrix about the reference point in body axes, acting on
    [R^T a_ref, dw/dt], into A (row-major): [[m 1 + A_t, -m [c]x], [m [c]x, I_ref + A_r]]
    with c the centre of gravity; added mass times ``scale`` (the medium's density over the
    water's)."""
    m = props[MASS]
    cx, cy, cz = props[R_CG], props[R_CG + 1], props[R_CG + 2]
    for k in range(36):
        A[k] = 0.0
    for a in range(3):
        A[7 * a] = m + scale * props[ADDED + a]
        for b in range(3):
            A[6 * (3 + a) + 3 + b] = props[I_REF + 3 * a + b]
        A[7 * (3 + a)] += scale * props[ADDED + 3 + a]
    # m [c]x in the lower-left block, its transpose -m [c]x in the upper right
    A[6 * 3 + 1] = -m * cz
    A[6 * 3 + 2] = m * cy
    A[6 * 4 + 0] = m * cz
    A[6 * 4 + 2] = -m * cx
    A[6 * 5 + 0] = -m * cy
    A[6 * 5 + 1] = m * cx
    for a in range(3):
        for b in range(3):
            A[6 * a + 3 + b] = A[6 * (3 + b) + a]


@kernel
def _loads(t, state, f6_lines, props, sea_par, sea_current, sea_wind, sea_waves, sea_grid,
           gx, gy, gz, work, b):
    """The loads on the body into b[0:6] (force, moment about the reference point; body
    axes) and the added mass's scale (the medium's density over the water's): the lines'
    ``f6_lines`` plus weight, buoyancy, hydrostatics, drag, Morison and Kirchhoff terms
    (body_derivative's docstring). work[_FL:_FL + 8] is scratch.

    Called, not inlined, by body_derivative and body_loads: sea.fluid_at's inlined wave
    kinematics compile once (~20 s less from an empty cache, under load) for ~0.1 µs per
    call (benchmarks/bench_rigid_body.py, under load: inlined 0.42-0.48, called 0.55-0.58
    µs per derivative); 4 calls per RK4 step are ~2 % of the ~21 µs step of 3 x 40
    lumped_mass segments (172.9 ns per node-step, benchmarks/results_sea.md)."""
    R = _rot(state[3], state[4], state[5], state[6])
    px, py, pz = state[0], state[1], state[2]
    vx, vy, vz = state[7], state[8], state[9]
    wx, wy, wz = state[10], state[11], state[12]
    # world force and moment about the reference point
    Fx, Fy, Fz = f6_lines[0], f6_lines[1], f6_lines[2]
    Mx, My, Mz = f6_lines[3], f6_lines[4], f6_lines[5]
    m = props[MASS]
    # weight m g at the centre of gravity c (world lever R c)
    c0, c1, c2 = props[R_CG], props[R_CG + 1], props[R_CG + 2]
    lx = R[0] * c0 + R[1] * c1 + R[2] * c2
    ly = R[3] * c0 + R[4] * c1 + R[5] * c2
    lz = R[6] * c0 + R[7] * c1 + R[8] * c2
    Fx += m * gx
    Fy += m * gy
    Fz += m * gz
    Mx += ly * m * gz - lz * m * gy
    My += lz * m * gx - lx * m * gz
    Mz += lx * m * gy - ly * m * gx
    # the fluid at the reference point (sea.fluid_at: medium, flow, flow acceleration)
    fl = work[_FL:_FL + FLUID_OUT]
    fluid_at(sea_par, sea_current, sea_wind, sea_waves, sea_grid, t, px, py, pz, fl)
    hydro = props[HYDRO]
    rho_w = sea_par[RHO_WATER]
    rho = rho_w if hydro != NONE else fl[0]  # a floating body is in water (docs/bodies.md)
    scale = rho / rho_w if rho_w > 0.0 else 0.0
    # buoyancy -rho V g (Archimedes) at the centre of buoyancy, or at the reference point
    # when the hydrostatic matrix carries its moment
    rv = rho * props[VOLUME]
    bx, by, bz = -rv * gx, -rv * gy, -rv * gz
    Fx += bx
    Fy += by
    Fz += bz
    if hydro != MATRIX:
        c0, c1, c2 = props[R_CB], props[R_CB + 1], props[R_CB + 2]
        lx = R[0] * c0 + R[1] * c1 + R[2] * c2
        ly = R[3] * c0 + R[4] * c1 + R[5] * c2
        lz = R[6] * c0 + R[7] * c1 + R[8] * c2
        Mx += ly * bz - lz * by
        My += lz * bx - lx * bz
        Mz += lx * by - ly * bx
    if hydro != NONE:
        # linear restoring of heave z - water level, and the tilt of the body-fixed
        # waterplane (R[2,1], -R[2,0]): vertical force f3, moments Y = int y dF,
        # X = int x dF in body waterplane coordinates (docs/bodies.md)
        wl = sea_par[WATER_LEVEL] if sea_par[HAS_SURFACE] != 0.0 else 0.0
        e0 = pz - wl
        e1 = R[7]
        e2 = -R[6]
        k = props[K_HS:K_HS + 9]
        f3 = -(k[0] * e0 + k[1] * e1 + k[2] * e2)
        Y = -(k[3] * e0 + k[4] * e1 + k[5] * e2)
        X = (k[6] * e0 + k[7] * e1 + k[8] * e2)
        # vertical is z, as for sea.py's water level
        Fz += f3
        Mx += R[3] * X + R[4] * Y
        My += -(R[0] * X + R[1] * Y)
    # to body axes
    Fbx = R[0] * Fx + R[3] * Fy + R[6] * Fz
    Fby = R[1] * Fx + R[4] * Fy + R[7] * Fz
    Fbz = R[2] * Fx + R[5] * Fy + R[8] * Fz
    Mbx = R[0] * Mx + R[3] * My + R[6] * Mz
    Mby = R[1] * Mx + R[4] * My + R[7] * Mz
    Mbz = R[2] * Mx + R[5] * My + R[8] * Mz
    if rho > 0.0:
        # drag per body axis on the reference point's velocity relative to the flow
        # (MoorDyn Body::doRHS): -rho/2 CdA_i |u| u_i, and -rho/2 CdA_(3+i) |w| w_i
        ux, uy, uz = vx - fl[1], vy - fl[2], vz - fl[3]
        ubx = R[0] * ux + R[3] * uy + R[6] * uz
        uby = R[1] * ux + R[4] * uy + R[7] * uz
        ubz = R[2] * ux + R[5] * uy + R[8] * uz
        h = -0.5 * rho * math.sqrt(ux * ux + uy * uy + uz * uz)
        Fbx += h * props[DRAG] * ubx
        Fby += h * props[DRAG + 1] * uby
        Fbz += h * props[DRAG + 2] * ubz
        h = -0.5 * rho * math.sqrt(wx * wx + wy * wy + wz * wz)
        Mbx += h * props[DRAG + 3] * wx
        Mby += h * props[DRAG + 4] * wy
        Mbz += h * props[DRAG + 5] * wz
        # Kirchhoff's velocity terms of the added mass on the relative motion (the fluid's
        # impulse P = A_t u and angular impulse A_r w turn with the body; Lamb,
        # Hydrodynamics §124): A_t (w x u) - w x P, and -w x (A_r w) - u x P (the Munk
        # moment); A_t a is in the mass matrix
        at0, at1, at2 = scale * props[ADDED], scale * props[ADDED + 1], scale * props[ADDED + 2]
        Px, Py, Pz = at0 * ubx, at1 * uby, at2 * ubz
        Fbx += at0 * (wy * ubz - wz * uby) - (wy * Pz - wz * Py)
        Fby += at1 * (wz * ubx - wx * ubz) - (wz * Px - wx * Pz)
        Fbz += at2 * (wx * uby - wy * ubx) - (wx * Py - wy * Px)
        hx = scale * props[ADDED + 3] * wx
        hy = scale * props[ADDED + 4] * wy
        hz = scale * props[ADDED + 5] * wz
        Mbx -= (wy * hz - wz * hy) + (uby * Pz - ubz * Py)
        Mby -= (wz * hx - wx * hz) + (ubz * Px - ubx * Pz)
        Mbz -= (wx * hy - wy * hx) + (ubx * Py - uby * Px)
        if hydro == NONE:
            # Morison inertia of the flow's acceleration: Froude-Krylov rho V a plus the
            # added mass's share A a (seed 004 eqs. (2.14)-(2.15), per body axis)
            ax, ay, az = fl[4], fl[5], fl[6]
            abx = R[0] * ax + R[3] * ay + R[6] * az
            aby = R[1] * ax + R[4] * ay + R[7] * az
            abz = R[2] * ax + R[5] * ay + R[8] * az
            Fbx += (rv + scale * props[ADDED]) * abx
            Fby += (rv + scale * props[ADDED + 1]) * aby
            Fbz += (rv + scale * props[ADDED + 2]) * abz
    b[0] = Fbx
    b[1] = Fby
    b[2] = Fbz
    b[3] = Mbx
    b[4] = Mby
    b[5] = Mbz
    return scale


@kernel
def body_loads(t, state, f6_lines, props, sea_par, sea_current, sea_wind, sea_waves,
               sea_grid, gx, gy, gz, work, out6):
    """Everything that acts on the body at ``state`` and time t [s], into ``out6``: force
    [N] and moment about the reference point [N m], world axes — the lines' ``f6_lines``
    plus weight, buoyancy, hydrostatics, drag, the flow's Morison inertia and the added
    mass's velocity terms (arguments as :func:`body_derivative`); not the body's own
    inertia nor the added mass times the body's acceleration. What a coupled body's host
    is given is the system's choice from these (docs/bodies.md)."""
    _loads(t, state, f6_lines, props, sea_par, sea_current, sea_wind, sea_waves, sea_grid,
           gx, gy, gz, work, out6)
    R = _rot(state[3], state[4], state[5], state[6])
    fx, fy, fz = out6[0], out6[1], out6[2]
    mx, my, mz = out6[3], out6[4], out6[5]
    for a in range(3):
        out6[a] = R[3 * a] * fx + R[3 * a + 1] * fy + R[3 * a + 2] * fz
        out6[3 + a] = R[3 * a] * mx + R[3 * a + 1] * my + R[3 * a + 2] * mz


@kernel
def body_derivative(t, state, f6_lines, props, sea_par, sea_current, sea_wind, sea_waves,
                    sea_grid, gx, gy, gz, work, out):
    """d(state)/dt (13 entries, into ``out``) of a free body at time t [s]: the body alone
    (:func:`body_derivative_with` with no extra mass; ``work``: :data:`WORK_SIZE`)."""
    for k in range(_X, _X + 36):
        work[k] = 0.0
    body_derivative_with(t, state, f6_lines, work[_X:_X + 36], props, sea_par, sea_current,
                         sea_wind, sea_waves, sea_grid, gx, gy, gz, work, out)


@kernel
def body_derivative_with(t, state, f6_lines, m6_extra, props, sea_par, sea_current,
                         sea_wind, sea_waves, sea_grid, gx, gy, gz, work, out):
    """d(state)/dt (13 entries, into ``out``) of a free body at time t [s] carrying an extra
    mass: ``m6_extra`` (36 entries, row-major) is added to the body's 6x6 mass matrix (about
    the reference point, body axes, acting on [R^T a_ref, dw/dt]) — the line end nodes a
    system lumps onto the body (models/system_bodies.py); their velocity-dependent inertia
    is the caller's, in ``f6_lines``.

    ``f6_lines``: the lines' and points' load on the body, force [N] and moment about the
    reference point [N m], world axes (:func:`add_attachment_load`); ``props``:
    :func:`body_props`; the sea's arrays (sea.SEA_FIELDS); gravity [m/s^2]; ``work``:
    :data:`WORK_SIZE` entries of scratch. Loads (docs/bodies.md): weight at the centre of
    gravity; buoyancy rho V g at the centre of buoyancy (hydrostatic matrix: at the
    reference point) and the linear waterplane restoring; quadratic drag on the flow
    relative to the reference point, per body axis, and on the rotation; Morison fluid
    inertia (rho V + added mass) times the flow's acceleration for a body with no
    hydrostatics; Kirchhoff's velocity terms of the added mass. Newton-Euler about the
    reference point with the centre of gravity offset
    (gyroscopic and centripetal terms included), the 6x6 mass matrix with added mass solved
    by Cholesky in ``work``; the quaternion rate q' = q (0, w) / 2, tangent to the norm."""
    R = _rot(state[3], state[4], state[5], state[6])
    vx, vy, vz = state[7], state[8], state[9]
    wx, wy, wz = state[10], state[11], state[12]
    m = props[MASS]
    b = work[_B:_B + 6]
    scale = _loads(t, state, f6_lines, props, sea_par, sea_current, sea_wind, sea_waves,
                   sea_grid, gx, gy, gz, work, b)
    # velocity-dependent inertia terms to the right-hand side: -m w x (w x c) and
    # -w x (I_ref w) (Newton-Euler about the reference point)
    c0, c1, c2 = props[R_CG], props[R_CG + 1], props[R_CG + 2]
    tx = wy * c2 - wz * c1
    ty = wz * c0 - wx * c2
    tz = wx * c1 - wy * c0
    b[0] -= m * (wy * tz - wz * ty)
    b[1] -= m * (wz * tx - wx * tz)
    b[2] -= m * (wx * ty - wy * tx)
    Ir = props[I_REF:I_REF + 9]
    hx = Ir[0] * wx + Ir[1] * wy + Ir[2] * wz
    hy = Ir[3] * wx + Ir[4] * wy + Ir[5] * wz
    hz = Ir[6] * wx + Ir[7] * wy + Ir[8] * wz
    b[3] -= wy * hz - wz * hy
    b[4] -= wz * hx - wx * hz
    b[5] -= wx * hy - wy * hx
    A = work[_A:_A + 36]
    _fill_mass(props, scale, A)
    for k in range(36):
        A[k] += m6_extra[k]
    _solve6(A, b)
    # kinematics: p' = v, q' = q (0, w) / 2, v' = R a_body, w' from the solve
    out[0] = vx
    out[1] = vy
    out[2] = vz
    qw, qx, qy, qz = state[3], state[4], state[5], state[6]
    out[3] = 0.5 * (-qx * wx - qy * wy - qz * wz)
    out[4] = 0.5 * (qw * wx + qy * wz - qz * wy)
    out[5] = 0.5 * (qw * wy + qz * wx - qx * wz)
    out[6] = 0.5 * (qw * wz + qx * wy - qy * wx)
    for a in range(3):
        out[7 + a] = R[3 * a] * b[0] + R[3 * a + 1] * b[1] + R[3 * a + 2] * b[2]
        out[10 + a] = b[3 + a]


# -- the case spec ---------------------------------------------------------------------------


def _numbers(n: int, what: str):
    """A BeforeValidator: a list of n finite numbers, returned as a tuple of floats."""

    def check(v: Any) -> Any:
        if not isinstance(v, list | tuple | np.ndarray) or len(v) != n:
            raise ValueError(f"must be a list of {n} numbers{what}")
        out = []
        for x in v:
            if isinstance(x, bool) or not isinstance(x, int | float | np.floating | np.integer):
                raise ValueError(f"must be a list of {n} numbers{what}")
            if not math.isfinite(float(x)):
                raise ValueError("must contain finite numbers only")
            out.append(float(x))
        return tuple(out)

    return BeforeValidator(check)


def _finite(v: Any) -> Any:
    if isinstance(v, int | float) and not isinstance(v, bool) and not math.isfinite(v):
        raise ValueError("must be a finite number")
    return v


def _matrix(n: int, what: str):
    """A BeforeValidator: n x n finite numbers (a list of n rows)."""

    def check(v: Any) -> Any:
        rows = np.asarray(v, dtype=object) if isinstance(v, list | tuple) else None
        if rows is None or rows.shape != (n, n):
            raise ValueError(f"must be {n} rows of {n} numbers{what}")
        out = []
        for row in v:
            out.append(_numbers(n, what).func(row))
        return tuple(out)

    return BeforeValidator(check)


Finite = Annotated[float, BeforeValidator(_finite)]
Vec3 = Annotated[tuple[float, float, float], _numbers(3, "")]
Vec6 = Annotated[tuple[float, ...], _numbers(6, "")]


def _inertia(v: Any) -> Any:
    """Three principal moments [Ixx, Iyy, Izz] or a full 3x3 matrix (3 rows of 3)."""
    if isinstance(v, list | tuple) and len(v) == 3 and all(
            isinstance(r, list | tuple) for r in v):
        return _matrix(3, " (a 3x3 matrix) or 3 numbers (its diagonal)").func(v)
    d = _numbers(3, " (the diagonal) or 3 rows of 3 (the full matrix)").func(v)
    return ((d[0], 0.0, 0.0), (0.0, d[1], 0.0), (0.0, 0.0, d[2]))


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Waterplane(_Section):
    """The waterplane of a floating body, level with its reference point at the water level:
    ``area`` [m^2], ``centre`` [x, y] of its area [m] and ``inertia`` [Ixx, Iyy, Ixy]
    [m^4] (int y^2 dA, int x^2 dA, int x y dA about the reference point, body axes)."""

    area: Finite = Field(gt=0)
    centre: Annotated[tuple[float, ...], _numbers(2, " (x, y)")] = (0.0, 0.0)
    inertia: Annotated[tuple[float, ...], _numbers(3, " (Ixx, Iyy, Ixy)")] = (0.0, 0.0, 0.0)

    @model_validator(mode="after")
    def _positive(self) -> Waterplane:
        ixx, iyy, ixy = self.inertia
        if ixx < 0 or iyy < 0 or ixy * ixy > ixx * iyy:
            raise ValueError("inertia: [Ixx, Iyy, Ixy] must be a second moment of area "
                             "(Ixx, Iyy >= 0 and Ixy^2 <= Ixx Iyy)")
        return self


_TRAJ_COLUMNS = ("t", "x", "y", "z", "roll_deg", "pitch_deg", "yaw_deg")


class Body(_Section):
    """One 6-DOF rigid body of a system (docs/bodies.md) [SI; angles in ``_deg`` keys].

    type: ``fixed`` (held at ``position`` / ``orientation_deg``), ``free`` (integrated),
    ``coupled`` (moved on ``trajectory``: t, x, y, z, roll_deg, pitch_deg, yaw_deg)."""

    type: Literal["fixed", "free", "coupled"] = "free"
    position: Vec3 = (0.0, 0.0, 0.0)
    orientation_deg: Vec3 = (0.0, 0.0, 0.0)
    velocity: Vec3 = (0.0, 0.0, 0.0)
    angular_velocity: Vec3 = (0.0, 0.0, 0.0)
    trajectory: str | dict[str, list[float]] | None = None
    interpolation: Literal["cubic", "linear"] | None = None
    mass: Finite = Field(default=0.0, ge=0)
    inertia: Annotated[tuple[tuple[float, float, float], ...], BeforeValidator(_inertia)] = (
        (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    center_of_gravity: Vec3 = (0.0, 0.0, 0.0)
    volume: Finite = Field(default=0.0, ge=0)
    center_of_buoyancy: Vec3 | None = None
    waterplane: Waterplane | None = None
    hydrostatic_stiffness: Annotated[tuple[tuple[float, ...], ...],
                                     _matrix(6, " (a 6x6 matrix)")] | None = None
    drag_area: Vec3 = (0.0, 0.0, 0.0)
    rotational_drag_area: Vec3 = (0.0, 0.0, 0.0)
    added_mass: Vec6 = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)

    @model_validator(mode="after")
    def _by_type(self) -> Body:
        if self.type == "coupled" and self.trajectory is None:
            raise ValueError("trajectory: required for a coupled body (t, x, y, z, "
                             "roll_deg, pitch_deg, yaw_deg)")
        if self.type != "coupled":
            if self.trajectory is not None:
                raise ValueError("trajectory: only a coupled body moves on a trajectory")
            if self.interpolation is not None:
                raise ValueError("interpolation: only a coupled body's trajectory is "
                                 "interpolated")
        if self.type != "free":
            for key in ("velocity", "angular_velocity"):
                if any(getattr(self, key)):
                    raise ValueError(f"{key}: only a free body starts with a velocity (a "
                                     f"{self.type} body's motion is given)")
        if min(self.added_mass) < 0:
            raise ValueError("added_mass: must be >= 0 on every axis")
        for key in ("drag_area", "rotational_drag_area"):
            if min(getattr(self, key)) < 0:
                raise ValueError(f"{key}: must be >= 0 on every axis")
        I = np.array(self.inertia)  # noqa: E741
        if not np.allclose(I, I.T, rtol=1e-9, atol=1e-12 * max(1.0, np.abs(I).max())):
            raise ValueError("inertia: must be symmetric")
        p = np.linalg.eigvalsh(I)
        tol = 1e-12 * max(1.0, p.max())
        if p.min() < -tol:
            raise ValueError(f"inertia: principal moments {p.min():g}, ... must be >= 0")
        if p[0] + p[1] < p[2] - tol * 1e3:
            raise ValueError("inertia: principal moments must satisfy the triangle inequality "
                             f"(I1 + I2 >= I3; got {p[0]:g} + {p[1]:g} < {p[2]:g}): no mass "
                             "distribution has them")
        if self.waterplane is not None and self.hydrostatic_stiffness is not None:
            raise ValueError("hydrostatic_stiffness: give waterplane or "
                             "hydrostatic_stiffness, not both")
        if self.hydrostatic_stiffness is not None:
            K = np.array(self.hydrostatic_stiffness)
            free_rows = [0, 1, 5]
            if np.any(K[free_rows, :] != 0) or np.any(K[:, free_rows] != 0):
                raise ValueError("hydrostatic_stiffness: only the heave, roll and pitch rows "
                                 "and columns (3-5) may be non-zero: hydrostatics restores "
                                 "no surge, sway or yaw")
            if self.center_of_buoyancy is not None:
                raise ValueError("center_of_buoyancy: not taken with hydrostatic_stiffness "
                                 "(the matrix carries the buoyancy's moment; docs/bodies.md)")
        if self.type == "free" and self.mass == 0.0 and self.added_mass[0] == 0.0:
            raise ValueError("mass: a free body needs mass > 0 (or added mass)")
        if self.type == "free":
            M = mass_matrix(self)
            if np.linalg.eigvalsh(M).min() <= 1e-12 * np.abs(M).max():
                raise ValueError("inertia: a free body's 6x6 mass matrix (mass, inertia and "
                                 "added mass) must be positive definite: give inertia (or "
                                 "added mass) about every axis")
        if isinstance(self.trajectory, dict):
            self.motion(None)  # an inline table is checked now; a CSV file when loaded
        return self

    def motion(self, base_dir: Path | None) -> tuple[Trajectory, Trajectory]:
        """A coupled body's trajectory: (position, angles) as :class:`Trajectory` pieces, the
        angles' 'x, y, z' being roll, pitch, yaw [rad], interpolated alike. Raises
        ValueError naming the problem (a missing or unknown column, a bad row)."""
        spec = self.trajectory
        if spec is None:
            raise ValueError("trajectory: only a coupled body has one")
        if isinstance(spec, str):
            path = Path(spec)
            if not path.is_absolute() and base_dir is not None:
                path = base_dir / path
            try:
                cols = _read_csv(path)
            except ValueError as exc:
                raise ValueError(f"trajectory: {exc}") from None
        else:
            cols = dict(spec)
        missing = [c for c in _TRAJ_COLUMNS if c not in cols]
        if missing:
            raise ValueError(f"trajectory: missing column(s) {', '.join(missing)} (need "
                             f"{', '.join(_TRAJ_COLUMNS)})")
        unknown = [c for c in cols if c not in _TRAJ_COLUMNS]
        if unknown:
            raise ValueError(f"trajectory: unknown column(s) {', '.join(unknown)}")
        try:
            pos = load_trajectory({k: cols[k] for k in "txyz"}, self.interpolation)
            ang = load_trajectory({"t": cols["t"],
                                   "x": [math.radians(a) for a in cols["roll_deg"]],
                                   "y": [math.radians(a) for a in cols["pitch_deg"]],
                                   "z": [math.radians(a) for a in cols["yaw_deg"]]},
                                  self.interpolation)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"trajectory: {exc}") from None
        return pos, ang


def body_errors(body: Body, environment, base_dir: Path | None, where: str) -> list[str]:
    """What a valid ``body`` cannot do in its case (a system's semantic check calls this):
    hydrostatics without ``environment.water_level`` (duck typed), a coupled body's CSV
    trajectory that cannot be read. Each message starts with the key path ``where`` (e.g.
    ``bodies.buoy``) and the body's key."""
    errors = []
    if getattr(environment, "water_level", None) is None:
        for key in ("waterplane", "hydrostatic_stiffness"):
            if getattr(body, key) is not None:
                errors.append(f"{where}.{key}: a floating body's hydrostatics need "
                              "environment.water_level (the heave is measured from it)")
    if body.type == "coupled":
        try:
            body.motion(base_dir)
        except ValueError as exc:
            errors.append(f"{where}.{exc}")
    return errors


def mass_matrix(body: Body, scale: float = 1.0) -> np.ndarray:
    """The body's 6x6 mass matrix about its reference point in body axes (with added mass
    times ``scale``), as body_derivative builds it."""
    A = np.zeros(36)
    # the kernel's own code run by Python: no compilation when a case is read
    _fill_mass.py_func(body_props(body, 0.0, 0.0), scale, A)
    return A.reshape(6, 6)


def body_props(body: Body, fluid_density: float, g: float) -> np.ndarray:
    """The constants of ``body`` for the kernels (:data:`N_PROPS` entries, indices above;
    docs/bodies.md): the hydrostatic block is rho g (waterplane) or the given matrix, with
    the water's density ``fluid_density`` [kg/m^3] and |gravity| ``g`` [m/s^2]."""
    p = np.zeros(N_PROPS)
    p[MASS] = body.mass
    I_cg = np.array(body.inertia, dtype=float)
    p[I_CG:I_CG + 9] = I_cg.ravel()
    c = np.array(body.center_of_gravity, dtype=float)
    p[R_CG:R_CG + 3] = c
    cb = body.center_of_buoyancy if body.center_of_buoyancy is not None else c
    p[R_CB:R_CB + 3] = cb
    p[VOLUME] = body.volume
    if body.waterplane is not None:
        wp = body.waterplane
        sx, sy = wp.area * wp.centre[0], wp.area * wp.centre[1]
        ixx, iyy, ixy = wp.inertia
        # heave, roll, pitch rows: waterplane restoring (docs/bodies.md)
        K = fluid_density * g * np.array([[wp.area, sy, -sx],
                                          [sy, ixx, -ixy],
                                          [-sx, -ixy, iyy]])
        p[HYDRO] = WATERPLANE
        p[K_HS:K_HS + 9] = K.ravel()
    elif body.hydrostatic_stiffness is not None:
        K6 = np.array(body.hydrostatic_stiffness, dtype=float)
        p[HYDRO] = MATRIX
        p[K_HS:K_HS + 9] = K6[2:5, 2:5].ravel()
    p[DRAG:DRAG + 3] = body.drag_area
    p[DRAG + 3:DRAG + 6] = body.rotational_drag_area
    p[ADDED:ADDED + 6] = body.added_mass
    # parallel axes: I_ref = I_cg + m (|c|^2 1 - c c^T)
    p[I_REF:I_REF + 9] = (I_cg + body.mass * (c @ c * np.eye(3) - np.outer(c, c))).ravel()
    p.setflags(write=False)
    return p


def initial_state(body: Body) -> np.ndarray:
    """The body's state (13 entries) at t = 0 from its position, orientation and initial
    velocities (a coupled body: its trajectory's start is the system's business)."""
    y = np.zeros(STATE_SIZE)
    y[POS:POS + 3] = body.position
    y[QUAT:QUAT + 4] = quaternion_from_rpy(*np.radians(body.orientation_deg))
    y[VEL:VEL + 3] = body.velocity
    y[OMEGA:OMEGA + 3] = body.angular_velocity
    return y
