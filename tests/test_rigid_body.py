"""The 6-DOF rigid body (rigid_body.py, issue 19) against what nobody here wrote.

References: Euler's equations (a torque-free body keeps its kinetic energy and its angular
momentum about the centre of gravity, its centre of gravity moves uniformly, and its
rotation about the intermediate principal axis is unstable while those about the major
and minor axes are stable: the Dzhanibekov effect, Landau & Lifshitz Mechanics §37);
the linear heave and pitch periods of a floating body, 2 pi sqrt((m + A33) / (rho g Awp))
and 2 pi sqrt((I + A55) / (rho g V GM)) (Newman, Marine Hydrodynamics §6.16); the small
oscillations of a rigid body hung on a string (the 2x2 eigenproblem of the linearised
Lagrangian); the terminal velocity of a body sinking in a current; scipy's rotations for
the roll/pitch/yaw convention (intrinsic x-y'-z'', MoorDyn-C's Euler2Quat) and MoorDyn
2.7.2 itself (peer) for where points on a rotated body are.

Bodies are stepped by the house's RK4 loop (integrate/explicit.py) with the kernels below:
the body's derivative plus, for the pendulum, one spring from a fixed point to a body
point, and the quaternion normalised after each step as a system's ``enforce`` does.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from pydantic import ValidationError
from scipy.spatial.transform import Rotation

from tetherdyn import load_case, rigid_body, sea
from tetherdyn._jit import kernel
from tetherdyn.integrate.explicit import compiled_loop, rk4_chunk

RHO = 1025.0
G = 9.81


def _sea(**environment):
    case = load_case(dict(
        tether=dict(length=1.0, diameter=0.01, mass_per_length=1.0, EA=1e5),
        model=dict(type="lumped_mass", elements=2),
        solver=dict(dt=1e-3, duration=0.1),
        environment={"fluid_density": RHO, **environment}))
    return sea.sea_arrays(case.environment, np.zeros((2, 3)), 0)


# -- the test's system: one body, optionally one spring from a fixed point ------------------


@kernel
def _rhs(t, y, dydt, data):
    props, par, cur, wind, waves, grid, spring, f6, work, pv = data
    for k in range(6):
        f6[k] = 0.0
    if spring[0] > 0.0:  # spring: [k, rest length, anchor (3), body point (3)]
        rigid_body.attachment_kinematics(y, spring[5:8], pv[0:3], pv[3:6])
        dx = pv[0] - spring[2]
        dy = pv[1] - spring[3]
        dz = pv[2] - spring[4]
        L = math.sqrt(dx * dx + dy * dy + dz * dz)
        f = -spring[0] * (L - spring[1]) / L
        pv[6] = f * dx
        pv[7] = f * dy
        pv[8] = f * dz
        rigid_body.add_attachment_load(y, spring[5:8], pv[6:9], f6)
    rigid_body.body_derivative(t, y, f6, props, par, cur, wind, waves, grid, 0.0, 0.0, -G,
                               work, dydt)


@kernel
def _enforce(t, y, data):
    rigid_body.normalize_quaternion(y)


@kernel
def _remesh(t, y, data):
    pass


@kernel
def _check(t, y, data):
    return -1


class _System:
    rhs, enforce, remesh, check = _rhs, _enforce, _remesh, _check


def _run(body, y0, dt, n_steps, every=1, spring=None, arrays=None):
    """States (n_steps // every + 1, 13) from y0, every ``every`` steps of RK4 at dt."""
    a = _sea() if arrays is None else arrays
    props = rigid_body.body_props(body, RHO, G)
    data = (props, a["sea_par"], a["sea_current"], a["sea_wind"], a["sea_waves"],
            a["sea_grid"], np.zeros(8) if spring is None else np.asarray(spring, float),
            np.zeros(6), np.zeros(rigid_body.WORK_SIZE), np.zeros(9))
    n_out = n_steps // every
    Y = np.empty((n_out + 1, 13))
    Y[0] = y0
    y = np.array(y0, dtype=float)
    k = [np.empty(13) for _ in range(5)]
    info = np.zeros(4)
    done = compiled_loop(rk4_chunk, _System)(data, 0.0, dt, 0, every, n_out, y, Y[1:], *k,
                                             info)
    assert done == n_out and info[0] == 0
    return Y


def _rotations(Y):
    return np.stack([rigid_body.rotation_matrix(q) for q in Y[:, 3:7]])


def _period(t, x):
    """Mean period [s] from the upward zero crossings of x (linear interpolation)."""
    s = np.flatnonzero((x[:-1] < 0) & (x[1:] >= 0))
    tc = t[s] - x[s] * (t[s + 1] - t[s]) / (x[s + 1] - x[s])
    assert tc.size >= 3
    return float(np.mean(np.diff(tc)))


# -- rotations --------------------------------------------------------------------------------


def test_roll_pitch_yaw_round_trip_and_convention():
    rng = np.random.default_rng(19)
    for _ in range(50):
        r, p, yw = rng.uniform(-np.pi, np.pi), rng.uniform(-1.5, 1.5), rng.uniform(-np.pi, np.pi)
        q = rigid_body.quaternion_from_rpy(r, p, yw)
        assert abs(np.linalg.norm(q) - 1) < 1e-15
        np.testing.assert_allclose(rigid_body.rpy_from_quaternion(q), [r, p, yw], atol=1e-12)
        # intrinsic x-y'-z'' (scipy's upper-case sequence): R = Rx(roll) Ry(pitch) Rz(yaw)
        ref = Rotation.from_euler("XYZ", [r, p, yw]).as_matrix()
        np.testing.assert_allclose(rigid_body.rotation_matrix(q), ref, atol=1e-14)
        # the quaternion of any sign gives the same angles
        np.testing.assert_allclose(rigid_body.rpy_from_quaternion(-2.0 * q), [r, p, yw],
                                   atol=1e-12)


_DECK = """--------------------- MoorDyn Input File ------------------------------------
a fixed body at roll {r} pitch {p} yaw {y} deg with three points on it
---------------------- LINE TYPES -------------------------------------------
TypeName  Diam   Mass/m  EA      BA/-zeta  EI   Cd   Ca   CdAx  CaAx
(name)    (m)    (kg/m)  (N)     (N-s/-)   (-)  (-)  (-)  (-)   (-)
rope      0.02   0.5     5.0e4   -0.8      0    1.2  1.0  0.2   0.3
---------------------- BODIES -----------------------------------------------
ID   Attachment  X0   Y0   Z0   r0   p0   y0   Mass  CG*  I*  Volume  CdA*  Ca*
(#)  (word)      (m)  (m)  (m)  (deg) (deg) (deg) (kg) (m) (kg-m^2) (m^3) (m^2) (-)
1    Fixed       1.0  2.0  -3.0  {r}  {p}  {y}  0  0  0  0  0  0
---------------------- POINTS -----------------------------------------------
ID  Attachment  X     Y    Z      Mass  Volume  CdA   Ca
(#) (word)      (m)   (m)  (m)    (kg)  (m^3)   (m^2) (-)
1   Body1       1.0   0.0  0.0    0.0   0.0     0.0   0.0
2   Body1       0.0   1.0  0.0    0.0   0.0     0.0   0.0
3   Body1       0.3  -0.5  2.0    0.0   0.0     0.0   0.0
4   Fixed      10.0   0.0 -20.0   0.0   0.0     0.0   0.0
---------------------- LINES ------------------------------------------------
ID  LineType  AttachA  AttachB  UnstrLen  NumSegs  LineOutputs
(#) (name)    (ID)     (ID)     (m)       (-)      (-)
1   rope      4        3        25.0      10       p
---------------------- OPTIONS ----------------------------------------------
1e-3     dtM        time step (s)
9.80665  g          gravity (m/s^2)
1025     WtrDnsty   water density (kg/m^3)
100      WtrDpth    water depth (m)
0        TmaxIC     no initial-condition solve
1        disableOutput
1        disableOutTime
---------------------- OUTPUTS ----------------------------------------------
END
------------------------- need this line -----------------------------------
"""


def test_moordyn_puts_body_points_where_we_do(tmp_path):
    """MoorDyn (peer) places points attached to a body at roll, pitch, yaw where
    p + R r puts them, and reports the angles it was given."""
    moordyn = pytest.importorskip("moordyn")
    from validation.peers.moordyn import _quiet_fd

    local = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.3, -0.5, 2.0]])
    for rpy in ((25.0, -40.0, 70.0), (-100.0, 15.0, -160.0)):
        deck = tmp_path / "body.dat"
        deck.write_text(_DECK.format(r=rpy[0], p=rpy[1], y=rpy[2]))
        with _quiet_fd():
            system = moordyn.Create(str(deck))
            moordyn.Init_NoIC(system, [], [])
            pts = np.array([moordyn.GetPointPos(moordyn.GetPoint(system, i))
                            for i in (1, 2, 3)])
            ang = moordyn.GetBodyAngle(moordyn.GetBody(system, 1))
            moordyn.Close(system)
        state = np.zeros(13)
        state[0:3] = [1.0, 2.0, -3.0]
        state[3:7] = rigid_body.quaternion_from_rpy(*np.radians(rpy))
        pos, vel = np.zeros(3), np.zeros(3)
        for r, p_md in zip(local, pts, strict=True):
            rigid_body.attachment_kinematics(state, r, pos, vel)
            np.testing.assert_allclose(pos, p_md, atol=1e-12)
        np.testing.assert_allclose(rigid_body.rpy_from_quaternion(state[3:7]),
                                   np.radians(rpy), atol=1e-12)
        np.testing.assert_allclose(ang, np.radians(rpy), atol=1e-12)

def test_body_rates_are_the_rotation_derivative():
    """w (body axes) of changing roll, pitch, yaw equals vee(R^T dR/dt) (central difference
    of scipy's matrices)."""
    ang = np.array([0.3, -0.7, 2.1])
    rate = np.array([0.4, -1.1, 0.25])
    h = 1e-6
    Rm = Rotation.from_euler("XYZ", ang - h * rate).as_matrix()
    Rp = Rotation.from_euler("XYZ", ang + h * rate).as_matrix()
    R = Rotation.from_euler("XYZ", ang).as_matrix()
    W = R.T @ (Rp - Rm) / (2 * h)
    w_ref = [W[2, 1], W[0, 2], W[1, 0]]
    np.testing.assert_allclose(rigid_body.body_rates_from_rpy(*ang, *rate), w_ref, atol=1e-8)



def test_coupled_state_follows_the_trajectory():
    """A coupled body's state from its 6-DOF table: position and angles as the table's
    interpolants, the quaternion of the angles, the body rates as vee(R^T dR/dt) of scipy's
    matrices along the interpolated angles (central difference)."""
    body = rigid_body.Body.model_validate(dict(
        type="coupled", trajectory=dict(
            t=[0, 1, 2, 3], x=[0, 1, 3, 4], y=[0, -1, 0, 2], z=[-5, -4, -5, -6],
            roll_deg=[0, 20, -10, 5], pitch_deg=[0, 10, 30, 0], yaw_deg=[0, -40, 20, 90])))
    pos, ang = body.motion(None)
    m, y = np.zeros((3, 3)), np.zeros(13)
    for t in (0.3, 1.0, 1.7, 2.9):
        rigid_body.coupled_state(pos.breaks, pos.coeffs, ang.breaks, ang.coeffs, t, m, y)
        p, v, _ = pos.evaluate(t)
        np.testing.assert_allclose(y[0:3], p, atol=1e-14)
        np.testing.assert_allclose(y[7:10], v, atol=1e-14)
        a, _, _ = ang.evaluate(t)
        np.testing.assert_allclose(rigid_body.rotation_matrix(y[3:7]),
                                   Rotation.from_euler("XYZ", a).as_matrix(), atol=1e-14)
        h = 1e-6
        Rm = Rotation.from_euler("XYZ", ang.evaluate(t - h)[0]).as_matrix()
        Rp = Rotation.from_euler("XYZ", ang.evaluate(t + h)[0]).as_matrix()
        W = rigid_body.rotation_matrix(y[3:7]).T @ (Rp - Rm) / (2 * h)
        np.testing.assert_allclose(y[10:13], [W[2, 1], W[0, 2], W[1, 0]], atol=1e-7)

# -- torque-free bodies -----------------------------------------------------------------------


def test_torque_free_body_conserves_energy_and_momenta():
    """Reference point away from the centre of gravity, full inertia tensor: the centre of
    gravity moves uniformly, and the energy and the angular momentum about the centre of
    gravity (world axes) keep their values to the RK4's accuracy."""
    Ig = np.array([[2.0, 0.3, -0.1], [0.3, 3.0, 0.2], [-0.1, 0.2, 4.0]])
    c = np.array([0.3, -0.2, 0.5])
    body = rigid_body.Body(mass=5.0, inertia=Ig.tolist(), center_of_gravity=c.tolist(),
                           velocity=[0.2, -0.1, 0.3], angular_velocity=[0.7, -1.2, 2.0])
    y0 = rigid_body.initial_state(body)
    y0[3:7] = rigid_body.quaternion_from_rpy(0.4, 0.2, -1.0)
    dt, n = 2e-3, 5000
    Y = _run(body, y0, dt, n, every=50)
    # no gravity's effect on rotation: it acts at G; take it out of the momentum
    t = np.arange(Y.shape[0]) * 50 * dt
    R = _rotations(Y)
    w = Y[:, 10:13]
    vG = Y[:, 7:10] + np.einsum("kij,kj->ki", R, np.cross(w, c))
    pG = 5.0 * (vG - np.outer(t, [0.0, 0.0, -G]))
    np.testing.assert_allclose(pG, np.broadcast_to(pG[0], pG.shape), atol=1e-9)
    H = np.einsum("kij,jl,kl->ki", R, Ig, w)
    np.testing.assert_allclose(H, np.broadcast_to(H[0], H.shape), rtol=0, atol=1e-9)
    E = 0.5 * np.einsum("ki,ij,kj->k", w, Ig, w)
    assert np.max(np.abs(E / E[0] - 1)) < 1e-11
    assert np.max(np.abs(np.linalg.norm(Y[:, 3:7], axis=1) - 1)) < 1e-14
    # the drift is integration error: RK4's, x16 at twice the step
    Y2 = _run(body, y0, 2 * dt, n // 2, every=25)
    H2 = np.einsum("kij,jl,kl->ki", _rotations(Y2), Ig, Y2[:, 10:13])
    ratio = np.abs(H2 - H2[0]).max() / np.abs(H - H[0]).max()
    assert 10 < ratio < 25, ratio



def test_body_in_still_water_conserves_kirchhoffs_energy_and_impulses():
    """A neutrally buoyant body with anisotropic added mass (translational and rotational)
    and its centre of gravity off the reference point, moving freely in still water: the
    kinetic energy of body and fluid 1/2 nu^T (M + A) nu, the impulse R (M + A) nu[0:3]
    and the angular impulse about the world origin are constants (Kirchhoff's equations,
    Lamb, Hydrodynamics §124) to the RK4's accuracy: the Munk moment included."""
    m = 800.0
    c = np.array([0.1, -0.05, 0.2])
    body = rigid_body.Body(mass=m, inertia=[[60, 5, 0], [5, 90, -3], [0, -3, 120]],
                           center_of_gravity=c.tolist(), volume=m / RHO,
                           added_mass=[200.0, 900.0, 1400.0, 30.0, 80.0, 150.0],
                           velocity=[1.2, -0.4, 0.3], angular_velocity=[0.3, 0.5, -0.8])
    M6 = rigid_body.mass_matrix(body)
    dt, n = 2e-3, 5000
    Y = _run(body, rigid_body.initial_state(body), dt, n, every=50)
    R = _rotations(Y)
    nu = np.concatenate([np.einsum("kji,kj->ki", R, Y[:, 7:10]), Y[:, 10:13]], axis=1)
    h = nu @ M6  # (M + A) nu, body axes (M6 symmetric)
    E = 0.5 * np.einsum("ki,ki->k", nu, h)
    P = np.einsum("kij,kj->ki", R, h[:, :3])
    L = np.einsum("kij,kj->ki", R, h[:, 3:]) + np.cross(Y[:, 0:3], P)
    assert np.max(np.abs(E / E[0] - 1)) < 1e-9
    np.testing.assert_allclose(P, np.broadcast_to(P[0], P.shape), rtol=0,
                               atol=1e-9 * np.abs(P[0]).max())
    np.testing.assert_allclose(L, np.broadcast_to(L[0], L.shape), rtol=0,
                               atol=1e-8 * np.abs(L[0]).max())
    assert np.abs(nu[-1] - nu[0]).max() > 0.1  # the motion is not trivial

@pytest.mark.parametrize("axis, stable", [(0, True), (1, False), (2, True)])
def test_dzhanibekov_intermediate_axis_is_unstable(axis, stable):
    """Spin 2 rad/s about a principal axis, 1e-4 rad/s about the others: about the
    intermediate one (I = 2 of 1, 2, 3) the spin reverses within 30 s (growth rate
    2 sqrt(1/3) /s); about the minor and major ones it keeps its direction and size."""
    body = rigid_body.Body(mass=1.0, inertia=[1.0, 2.0, 3.0])
    y0 = rigid_body.initial_state(body)
    y0[10:13] = 1e-4
    y0[10 + axis] = 2.0
    Y = _run(body, y0, 5e-3, 6000, every=10)
    spin = Y[:, 10 + axis]
    if stable:
        assert np.min(spin) > 0.99 * 2.0
    else:
        assert np.min(spin) < -0.99 * 2.0


# -- floating body ----------------------------------------------------------------------------


def test_free_heave_decay_period():
    """Heave period 2 pi sqrt((m + A33) / (rho g Awp)) of a body floating with its
    reference point at the water level (m = rho V), from 0.2 m down."""
    V, Awp, A33 = 50.0, 20.0, 3.0e4
    m = RHO * V
    body = rigid_body.Body(mass=m, inertia=[8e5, 8e5, 1e6], volume=V,
                           center_of_gravity=[0, 0, -1.0], center_of_buoyancy=[0, 0, -1.2],
                           waterplane=dict(area=Awp, inertia=[100.0, 100.0, 0.0]),
                           added_mass=[1e4, 1e4, A33, 1e5, 1e5, 1e5])
    y0 = rigid_body.initial_state(body)
    y0[2] = -0.2
    T_ref = 2 * math.pi * math.sqrt((m + A33) / (RHO * G * Awp))
    dt = T_ref / 2000
    Y = _run(body, y0, dt, 8000, arrays=_sea(water_level=0.0))
    T = _period(np.arange(Y.shape[0]) * dt, Y[:, 2])
    assert abs(T / T_ref - 1) < 1e-6, (T, T_ref)
    np.testing.assert_allclose(Y[:, 2].min(), -0.2, rtol=1e-6)  # no damping
    np.testing.assert_allclose(Y[:, 2].max(), 0.2, rtol=1e-6)


@pytest.mark.parametrize("hydrostatics", ["waterplane", "matrix"])
def test_free_pitch_decay_period_with_metacentric_height(hydrostatics):
    """Pitch period 2 pi sqrt((I + A55) / (rho g V GM)), GM = Iwp / V + zB - zG, I about the
    centre of gravity (below the reference point at the water level), from 0.5 deg; the
    hydrostatics as a waterplane, or as a matrix (WAMIT's hydrostatic C without the weight's
    terms: K33 = rho g Awp, K44 = K55 = rho g (Iwp + V zB))."""
    V, Iyy_wp, zG, zB, Ig, A55 = 40.0, 120.0, -0.4, -0.9, 5.0e5, 2.0e5
    m = RHO * V
    GM = Iyy_wp / V + zB - zG
    if hydrostatics == "waterplane":
        hs = dict(center_of_buoyancy=[0, 0, zB],
                  waterplane=dict(area=30.0, inertia=[Iyy_wp, Iyy_wp, 0.0]))
    else:
        K = np.zeros((6, 6))
        K[2, 2] = RHO * G * 30.0
        K[3, 3] = K[4, 4] = RHO * G * (Iyy_wp + V * zB)
        hs = dict(hydrostatic_stiffness=K.tolist())
    body = rigid_body.Body(mass=m, inertia=[Ig, Ig, 1.2 * Ig], volume=V,
                           center_of_gravity=[0, 0, zG],
                           added_mass=[0.0, 0.0, 0.0, A55, A55, A55], **hs)
    y0 = rigid_body.initial_state(body)
    theta0 = math.radians(0.5)
    y0[3:7] = rigid_body.quaternion_from_rpy(0.0, theta0, 0.0)
    # the centre of gravity at rest where a level body has it: no surge drift
    y0[0] = -zG * math.sin(theta0)
    y0[2] = zG * (1 - math.cos(theta0))
    T_ref = 2 * math.pi * math.sqrt((Ig + A55) / (RHO * G * V * GM))
    dt = T_ref / 2000
    Y = _run(body, y0, dt, 8000, every=2, arrays=_sea(water_level=0.0))
    pitch = np.array([rigid_body.rpy_from_quaternion(q)[1] for q in Y[:, 3:7]])
    T = _period(np.arange(Y.shape[0]) * 2 * dt, pitch)
    assert abs(T / T_ref - 1) < 2e-4, (T, T_ref)



@pytest.mark.parametrize("yaw_deg", [0.0, 35.0])
def test_hydrostatic_stiffness_is_newmans_matrix(yaw_deg):
    """-d(F_z, M_x, M_y)/d(heave, roll, pitch) of the body's static loads (weight at G,
    buoyancy at B, the waterplane), by central differences about the reference point at the
    water level, equals Newman's restoring matrix (Marine Hydrodynamics §6.16):
    C33 = rho g A, C34 = rho g A y_f, C35 = -rho g A x_f, C44 = rho g (int y^2 + V zB) -
    m g zG, C45 = -rho g int x y, C55 = rho g (int x^2 + V zB) - m g zG, in world axes
    (the waterplane's moments, centroid and centres turned by the body's yaw)."""
    A, xf, yf, Ixx, Iyy, Ixy = 30.0, 0.7, -0.4, 150.0, 260.0, -20.0
    V, m, cg, cb = 40.0, 3.5e4, [0.2, -0.1, -0.6], [-0.3, 0.25, -1.1]
    body = rigid_body.Body(mass=m, inertia=[4e5, 5e5, 6e5], volume=V, center_of_gravity=cg,
                           center_of_buoyancy=cb,
                           waterplane=dict(area=A, centre=[xf, yf], inertia=[Ixx, Iyy, Ixy]))
    a = _sea(water_level=0.0)
    props = rigid_body.body_props(body, RHO, G)
    M6 = rigid_body.mass_matrix(body)
    psi = math.radians(yaw_deg)

    def load(zeta, roll, pitch):
        y = np.zeros(13)
        y[2] = zeta
        y[3:7] = rigid_body.quaternion_from_rpy(roll, pitch, psi)
        out = np.zeros(13)
        rigid_body.body_derivative(0.0, y, np.zeros(6), props, a["sea_par"], a["sea_current"],
                                   a["sea_wind"], a["sea_waves"], a["sea_grid"], 0.0, 0.0,
                                   -G, np.zeros(rigid_body.WORK_SIZE), out)
        R = rigid_body.rotation_matrix(y[3:7])
        f6 = M6 @ np.concatenate([R.T @ out[7:10], out[10:13]])  # body axes
        return np.array([(R @ f6[:3])[2], *(R @ f6[3:])[:2]])

    h = 1e-6
    C = np.column_stack([-(load(*(h * e)) - load(*(-h * e))) / (2 * h) for e in np.eye(3)])
    Q = np.array([[math.cos(psi), -math.sin(psi)], [math.sin(psi), math.cos(psi)]])
    P = Q @ np.array([[Iyy, Ixy], [Ixy, Ixx]]) @ Q.T  # [[int x^2, int xy], [., int y^2]]
    xw, yw = Q @ [xf, yf]
    zB, zG = cb[2], cg[2]
    C_ref = RHO * G * np.array([[A, A * yw, -A * xw],
                                [A * yw, P[1, 1] + V * zB, -P[0, 1]],
                                [-A * xw, -P[0, 1], P[0, 0] + V * zB]])
    C_ref[1, 1] -= m * G * zG
    C_ref[2, 2] -= m * G * zG
    np.testing.assert_allclose(C, C_ref, rtol=0, atol=1e-6 * np.abs(C_ref).max())

# -- a body on a spring -----------------------------------------------------------------------


def test_body_hung_on_a_spring_swings_as_the_linear_pendulum():
    """A string of length L (a stiff spring, stretched by m g / k) pinned to a fixed point
    and to a body point h above its centre of gravity: at small angles the 2x2 eigenproblem
    M = [[m L^2, m L h], [m L h, m h^2 + I]], K = diag(m g L, m g h) (string angle a, body
    tilt b). Started in each mode's shape, the body swings at that mode's period."""
    m, Iyy, h, L0, k = 50.0, 4.0, 0.5, 2.0, 2.0e6
    L = L0 + m * G / k
    M = np.array([[m * L * L, m * L * h], [m * L * h, m * h * h + Iyy]])
    K = np.diag([m * G * L, m * G * h])
    lam, vec = np.linalg.eig(np.linalg.solve(M, K))
    # reference point away from both the attachment and the centre of gravity
    r_att = np.array([0.1, 0.0, 0.2])
    cg = r_att - [0.0, 0.0, h]
    body = rigid_body.Body(mass=m, inertia=[3.0, Iyy, 3.5], center_of_gravity=cg.tolist())
    anchor = np.zeros(3)
    spring = [k, L0, *anchor, *r_att]
    for j in range(2):
        omega = math.sqrt(lam[j])
        a, b = 0.01 * vec[:, j] / np.max(np.abs(vec[:, j]))
        y0 = rigid_body.initial_state(body)
        q = rigid_body.quaternion_from_rpy(0.0, -b, 0.0)  # pitch -b moves the CG by +h b
        y0[3:7] = q
        R = rigid_body.rotation_matrix(q)
        att = anchor + L * np.array([math.sin(a), 0.0, -math.cos(a)])
        y0[0:3] = att - R @ r_att
        T_ref = 2 * math.pi / omega
        dt = min(T_ref / 1000, 2e-4)
        n = int(4.2 * T_ref / dt)
        Y = _run(body, y0, dt, n, spring=spring)
        xg = Y[:, 0] + np.einsum("kj,j->k", _rotations(Y)[:, 0, :], cg)
        T = _period(np.arange(Y.shape[0]) * dt, xg)
        assert abs(T / T_ref - 1) < 5e-4, (j, T, T_ref)


# -- drag in a current ------------------------------------------------------------------------


@pytest.mark.parametrize("roll_deg, vertical_axis", [(0.0, 2), (90.0, 1)])
def test_sinking_body_in_a_current_reaches_terminal_velocity(roll_deg, vertical_axis):
    """Net weight (m - rho V) g against -rho/2 CdA w^2 of the body axis that is vertical
    (z level, y rolled by 90 deg): w = sqrt(2 (m - rho V) g / (rho CdA)); horizontally the
    body drifts with the current (sea.py's profile at its depth)."""
    V, m = 0.5, 700.0
    cdas = [1.0, 1.3, 0.8]
    body = rigid_body.Body(mass=m, inertia=[50.0, 50.0, 50.0], volume=V,
                           drag_area=cdas, rotational_drag_area=[5.0, 5.0, 5.0],
                           added_mass=[100.0, 100.0, 100.0, 10.0, 10.0, 10.0],
                           position=[0.0, 0.0, -10.0], orientation_deg=[roll_deg, 0.0, 0.0])
    w_ref = math.sqrt(2 * (m - RHO * V) * G / (RHO * cdas[vertical_axis]))
    Y = _run(body, rigid_body.initial_state(body), 2e-3, 15000, every=100,
             arrays=_sea(current=[0.4, -0.3, 0.0]))
    np.testing.assert_allclose(Y[-1, 7:10], [0.4, -0.3, -w_ref], rtol=0, atol=1e-9 * w_ref)


# -- the case spec ----------------------------------------------------------------------------


@pytest.mark.parametrize("spec, key, words", [
    (dict(mass=1.0, inertia=[1.0, 1.0, 3.0]), "inertia", "triangle"),
    (dict(mass=1.0, inertia=[[1, 0.5, 0], [0, 1, 0], [0, 0, 1]]), "inertia", "symmetric"),
    (dict(mass=1.0, inertia=[1.0, 1.0]), "inertia", "3 numbers"),
    (dict(mass=1.0, inertia=[0.0, 1.0, 1.0]), "inertia", "positive definite"),
    (dict(mass=0.0, inertia=[1.0, 1.0, 1.0]), "mass", "mass > 0"),
    (dict(type="coupled"), "trajectory", "required"),
    (dict(type="fixed", trajectory=dict(t=[0, 1])), "trajectory", "only a coupled"),
    (dict(type="coupled", trajectory=dict(t=[0, 1], x=[0, 1], y=[0, 0], z=[0, 0],
                                          roll_deg=[0, 0], pitch_deg=[0, 0])),
     "trajectory", "yaw_deg"),
    (dict(type="fixed", velocity=[1.0, 0, 0]), "velocity", "only a free body"),
    (dict(mass=1.0, inertia=[1, 1, 1], added_mass=[0, 0, -1, 0, 0, 0]), "added_mass", ">= 0"),
    (dict(mass=1.0, inertia=[1, 1, 1], waterplane=dict(area=1.0),
          hydrostatic_stiffness=np.zeros((6, 6)).tolist()), "hydrostatic_stiffness", "not both"),
    (dict(mass=1.0, inertia=[1, 1, 1], hydrostatic_stiffness=np.eye(6).tolist()),
     "hydrostatic_stiffness", "surge, sway or yaw"),
    (dict(mass=1.0, inertia=[1, 1, 1], waterplane=dict(area=0.0)), "area", "greater than 0"),
    (dict(mass=1.0, inertia=[1, 1, 1], colour="red"), "colour", "xtra"),
])
def test_bad_body_is_refused_naming_the_key(spec, key, words):
    with pytest.raises(ValidationError) as err:
        rigid_body.Body.model_validate(spec)
    text = str(err.value)
    assert key in text and words in text, text


def test_coupled_body_trajectory_and_hydrostatic_matrix_are_read():
    body = rigid_body.Body.model_validate(dict(
        type="coupled", mass=1.0, inertia=[1, 1, 1],
        trajectory=dict(t=[0, 1, 2], x=[0, 1, 2], y=[0, 0, 0], z=[0, 0, 0],
                        roll_deg=[0, 10, 20], pitch_deg=[0, 0, 0], yaw_deg=[0, 0, 0])))
    pos, ang = body.motion(None)
    p, v, _ = pos.evaluate(1.0)
    r, dr, _ = ang.evaluate(1.0)
    np.testing.assert_allclose(p, [1, 0, 0])
    np.testing.assert_allclose(r, [math.radians(10), 0, 0])
    K = np.zeros((6, 6))
    K[2:5, 2:5] = [[1e5, 0, 2e3], [0, 4e6, 0], [2e3, 0, 5e6]]
    b = rigid_body.Body(mass=1.0, inertia=[1, 1, 1], hydrostatic_stiffness=K.tolist())
    props = rigid_body.body_props(b, RHO, G)
    assert props[rigid_body.HYDRO] == rigid_body.MATRIX
    np.testing.assert_array_equal(props[rigid_body.K_HS:rigid_body.K_HS + 9], K[2:5, 2:5].ravel())


def test_body_errors_name_the_key_in_its_case(tmp_path):
    """Hydrostatics need a water level; a coupled body's CSV table is read from the case's
    folder, its problems named under the body's key path."""
    env = load_case(dict(
        tether=dict(length=1.0, diameter=0.01, mass_per_length=1.0, EA=1e5),
        model=dict(type="lumped_mass", elements=2),
        solver=dict(dt=1e-3, duration=0.1))).environment
    floating = rigid_body.Body(mass=1.0, inertia=[1, 1, 1], waterplane=dict(area=2.0))
    errors = rigid_body.body_errors(floating, env, tmp_path, "bodies[1]")
    assert errors == ["bodies[1].waterplane: a floating body's hydrostatics need "
                      "environment.water_level (the heave is measured from it)"]
    (tmp_path / "motion.csv").write_text("t,x,y,z,roll_deg,pitch_deg\n0,0,0,0,0,0\n"
                                         "1,1,0,0,0,0\n")
    coupled = rigid_body.Body(type="coupled", trajectory="motion.csv")
    errors = rigid_body.body_errors(coupled, env, tmp_path, "bodies[0]")
    assert len(errors) == 1 and errors[0].startswith("bodies[0].trajectory: missing column")
    assert "yaw_deg" in errors[0]
    (tmp_path / "motion.csv").write_text("t,x,y,z,roll_deg,pitch_deg,yaw_deg\n0,0,0,0,0,0,0\n"
                                         "1,1,0,0,0,0,10\n")
    assert rigid_body.body_errors(coupled, env, tmp_path, "bodies[0]") == []
    lost = rigid_body.Body(type="coupled", trajectory="lost.csv")
    errors = rigid_body.body_errors(lost, env, tmp_path, "bodies[3]")
    assert len(errors) == 1 and errors[0].startswith("bodies[3].trajectory: file")


def test_body_loads_at_rest_in_a_current():
    """A tilted body at rest in a uniform current: the loads are the lines' load, the weight
    at G, Archimedes' buoyancy at B, the drag -rho/2 CdA_i |u| u_i on the body axes of the
    relative velocity u = -U, and no other force but the Munk moment -u x (A_t u) of the
    steady stream (d'Alembert; Newman, Marine Hydrodynamics §4.13) (world axes, moments
    about the reference point); and the derivative's accelerations are what the mass
    matrix makes of them."""
    m, V = 900.0, 0.6
    cg, cb = np.array([0.1, 0.2, -0.3]), np.array([-0.2, 0.1, 0.4])
    cda = np.array([0.9, 1.4, 2.2])
    body = rigid_body.Body(mass=m, inertia=[40.0, 50.0, 60.0], center_of_gravity=cg.tolist(),
                           volume=V, center_of_buoyancy=cb.tolist(), drag_area=cda.tolist(),
                           added_mass=[50.0, 60.0, 70.0, 5.0, 6.0, 7.0],
                           position=[1.0, 2.0, -30.0], orientation_deg=[20.0, -35.0, 60.0])
    U = np.array([0.8, -0.5, 0.1])
    a = _sea(current=U.tolist())
    y = rigid_body.initial_state(body)
    R = rigid_body.rotation_matrix(y[3:7])
    f6_lines = np.array([100.0, -50.0, 2000.0, 30.0, -10.0, 5.0])
    args = (rigid_body.body_props(body, RHO, G), a["sea_par"], a["sea_current"],
            a["sea_wind"], a["sea_waves"], a["sea_grid"], 0.0, 0.0, -G,
            np.zeros(rigid_body.WORK_SIZE))
    out6 = np.zeros(6)
    rigid_body.body_loads(0.0, y, f6_lines, *args, out6)
    g = np.array([0.0, 0.0, -G])
    ub = R.T @ (-U)
    drag = R @ (-0.5 * RHO * cda * np.linalg.norm(U) * ub)
    F = f6_lines[:3] + m * g - RHO * V * g + drag
    munk = R @ -np.cross(ub, np.array([50.0, 60.0, 70.0]) * ub)
    M = f6_lines[3:] + np.cross(R @ cg, m * g) + np.cross(R @ cb, -RHO * V * g) + munk
    np.testing.assert_allclose(out6, np.concatenate([F, M]), rtol=1e-13, atol=1e-10)
    dy = np.zeros(13)
    rigid_body.body_derivative(0.0, y, f6_lines, *args, dy)
    acc = np.concatenate([R.T @ dy[7:10], dy[10:13]])
    np.testing.assert_allclose(rigid_body.mass_matrix(body) @ acc,
                               np.concatenate([R.T @ F, R.T @ M]), rtol=1e-12, atol=1e-9)
