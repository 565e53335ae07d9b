"""The compiled lumped-mass right-hand side against a plain-numpy transcription of
seed 004 eqs. (2.10)–(2.16), on random states (tolerance 1e-10 relative: the same
arithmetic in a different order)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import tetherdyn
from tetherdyn.hydro import loading_function_normal, loading_function_tangential
from tetherdyn.models import build_model
from tetherdyn.models.nodes import mass_matrix, solve3


def reference_accelerations(case, pos, vel, t=0.0):
    """Dense numpy version of the nodal equations (2.16) with the spec's drag laws."""
    te, env = case.tether, case.environment
    N = case.model.elements
    Lu = te.length / N
    rho = env.fluid_density
    g = np.array(env.gravity)
    cur = np.array(env.current)
    m_el = te.linear_mass * Lu
    V_el = te.displaced * Lu
    n = N + 1
    F = np.zeros((n, 3))
    M = np.zeros((n, 3, 3))
    for i in range(n):
        M[i] = np.eye(3) * 0.0
    for e in range(N):
        d = pos[e + 1] - pos[e]
        L = np.linalg.norm(d)
        q = d / L
        eps = (L - Lu) / Lu
        eps_dot = q @ (vel[e + 1] - vel[e]) / Lu
        T_el = te.EA * eps
        if not te.compression and eps <= 0:
            T_el = 0.0
        T = T_el + te.axial_damping * eps_dot
        u = 0.5 * (vel[e] + vel[e + 1]) - cur
        ut = (u @ q) * q
        un = u - ut
        if case.drag_law == "cross_flow":
            drag = (-0.5 * rho * te.cd_normal * te.diameter * L * np.linalg.norm(un) * un
                    - 0.5 * rho * te.cd_tangential * math.pi * te.diameter * L
                    * np.linalg.norm(ut) * ut)
        elif case.drag_law == "loading_functions":
            eta = math.atan2(np.linalg.norm(un), abs(u @ q))
            p = 0.5 * rho * te.diameter * L * te.cd_normal * (u @ u)
            drag = (-p * loading_function_normal(eta) * un / np.linalg.norm(un)
                    - p * max(loading_function_tangential(eta), 0.0) * np.sign(u @ q) * q)
        else:
            drag = -0.5 * rho * te.cd_normal * te.diameter * L * np.linalg.norm(u) * u
        w = (m_el - rho * V_el) * g
        for k, sign in ((e, 1.0), (e + 1, -1.0)):
            F[k] += sign * T * q + 0.5 * drag + 0.5 * w
            M[k] += 0.5 * (m_el * np.eye(3) + rho * V_el * (
                te.ca_normal * (np.eye(3) - np.outer(q, q)) + te.ca_tangential * np.outer(q, q)))
    end = case.end
    F[-1] += end.mass * g + np.array(end.force) * (
        min(t / end.force_ramp_time, 1.0) if end.force_ramp_time else 1.0)
    u_end = vel[-1] - cur
    F[-1] += -0.5 * rho * end.drag_area * np.linalg.norm(u_end) * u_end
    M[-1] += end.mass * np.eye(3)
    return np.array([np.linalg.solve(M[i], F[i]) for i in range(n)])


CASES = {
    "vacuum": {},
    "water_cross_flow": dict(environment=dict(fluid_density=1025.0, current=[0.3, -0.2, 0.1])),
    "water_loading_functions": dict(
        environment=dict(fluid_density=1025.0, current=[0.5, 0.0, 0.0]),
        tether_extra=dict(drag_law="loading_functions", ca_tangential=0.2)),
    "air_isotropic": dict(environment=dict(fluid_density=1.225),
                          tether_extra=dict(drag_law="isotropic")),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rhs_matches_dense_reference(name):
    extra = CASES[name]
    tether = dict(length=12.0, diameter=0.02, mass_per_length=0.8, EA=5e4, axial_damping=30.0,
                  cd_normal=1.3, cd_tangential=0.05, **extra.get("tether_extra", {}))
    case = tetherdyn.load_case(dict(
        tether=tether, model=dict(type="lumped_mass", elements=7),
        environment=extra.get("environment", {}),
        end=dict(type="free", mass=2.0, force=[1.0, 2.0, 3.0], force_ramp_time=4.0,
                 drag_area=0.05 if "environment" in extra else 0.0),
        solver=dict(dt=1e-3, duration=1.0)))
    model = build_model(case)
    rng = np.random.default_rng(7)
    for _ in range(5):
        n = model.n_nodes
        pos = np.cumsum(rng.normal(size=(n, 3)) * 1.0 + [0, 0, -1.7], axis=0)
        pos[0] = 0.0
        vel = rng.normal(size=(n, 3))
        vel[0] = 0.0  # the held start end
        y = np.concatenate([pos.ravel(), vel.ravel()])
        dydt = np.empty_like(y)
        t = 1.3
        model.rhs(t, y, dydt, model.data)
        acc = dydt[3 * n:].reshape(n, 3)
        ref = reference_accelerations(case, pos, vel, t)
        np.testing.assert_allclose(dydt[:3 * n].reshape(n, 3), vel, rtol=0, atol=0)
        assert np.all(acc[0] == 0.0)  # fixed start: prescribed (zero) acceleration
        scale = np.max(np.abs(ref[1:]))
        np.testing.assert_allclose(acc[1:], ref[1:], rtol=1e-10, atol=1e-10 * scale)


def test_mass_matrix_and_solve():
    rng = np.random.default_rng(3)
    elem = np.abs(rng.normal(size=(2, 3)))
    q = rng.normal(size=(2, 3))
    q /= np.linalg.norm(q, axis=1)[:, None]
    M = np.empty((3, 3))
    mass_matrix(1, 3, 0.7, elem, q, False, M)
    ref = 0.7 * np.eye(3)
    for e in range(2):
        qq = np.outer(q[e], q[e])
        ref += 0.5 * (elem[e, 1] * (np.eye(3) - qq) + elem[e, 2] * qq)
    np.testing.assert_allclose(M, ref, rtol=1e-14)
    f = rng.normal(size=3)
    out = np.empty(3)
    solve3(M, f[0], f[1], f[2], out)
    np.testing.assert_allclose(out, np.linalg.solve(M, f), rtol=1e-12)


@pytest.mark.parametrize("i", [0, 1, 2])
def test_mass_matrix_nodal_tangents(i):
    """higher_order's variant: added mass per metre, each element's A(t) the average of its
    two nodes' (seed 004 eqs. 4.11, 4.23), the element's L_u/2 on each node."""
    rng = np.random.default_rng(5)
    elem = np.abs(rng.normal(size=(2, 3)))  # L_u, a_n, a_t per metre
    t = rng.normal(size=(3, 3))
    t /= np.linalg.norm(t, axis=1)[:, None]
    M = np.empty((3, 3))
    mass_matrix(i, 3, 0.7, elem, t, True, M)
    ref = 0.7 * np.eye(3)
    for e in (i - 1, i):
        if not 0 <= e < 2:
            continue
        A = sum(elem[e, 1] * (np.eye(3) - np.outer(t[j], t[j])) + elem[e, 2] * np.outer(t[j], t[j])
                for j in (e, e + 1)) / 2
        ref += 0.5 * elem[e, 0] * A
    np.testing.assert_allclose(M, ref, rtol=1e-14)


def test_loading_functions_values():
    """Sanity values of the reconstructed Driscoll–Nahon functions (docs/lumped_mass.md)."""
    assert loading_function_normal(0.0) == pytest.approx(0.0, abs=1e-12)
    assert loading_function_normal(math.pi / 2) == pytest.approx(1.0, abs=1e-12)
    assert loading_function_normal(math.pi / 4) == pytest.approx(0.48900, abs=1e-5)
    assert loading_function_tangential(0.0) == pytest.approx(0.02008, abs=1e-12)
    assert loading_function_tangential(math.pi / 4) == pytest.approx(0.018501, abs=1e-5)
    assert loading_function_tangential(math.pi / 2) == 0.0  # clamped (-6.9e-5 unclamped)


def _traj(t, x, z):
    t = np.asarray(t, dtype=float)
    return dict(t=t.tolist(), x=np.asarray(x, dtype=float).tolist(), y=[0.0] * t.size,
                z=np.asarray(z, dtype=float).tolist())


LEAN_CASES = {
    # a free start with a payload, a prescribed end; compression carried; vacuum
    "vacuum_prescribed_end": dict(
        tether=dict(compression=True), environment=dict(fluid_density=0.0),
        start=dict(type="free", mass=0.7, force=[0.5, 0.0, -1.0]),
        end=dict(type="prescribed", trajectory=_traj([0.0, 1.0, 2.0, 3.0],
                                                     [5.0, 5.5, 5.2, 5.0],
                                                     [-3.0, -3.2, -2.9, -3.0]))),
    # both ends prescribed, water with a current and tangential added mass
    "water_both_held": dict(
        tether=dict(ca_tangential=0.3), environment=dict(fluid_density=1025.0,
                                                         current=[0.3, 0.1, 0.0]),
        start=dict(type="prescribed", trajectory=_traj([0.0, 2.0, 4.0], [0.0, 0.3, 0.1],
                                                       [0.0, 0.1, 0.0])),
        end=dict(type="prescribed", trajectory=_traj([0.0, 2.0, 4.0], [6.0, 6.2, 6.1],
                                                     [-2.0, -2.5, -2.2]))),
    # a held start, a free end with a payload, loading-function drag
    "water_loading_functions": dict(
        tether=dict(drag_law="loading_functions"), environment=dict(fluid_density=1025.0),
        end=dict(type="free", mass=2.0, drag_area=0.05)),
}


# 5 elements: rows at the fixed stride ROWS_MIN; 40: rows n long (lumped_mass.ROWS_MIN)
@pytest.mark.parametrize("elements", [5, 40])
@pytest.mark.parametrize("name", sorted(LEAN_CASES))
def test_lean_path_is_the_general_path(name, elements):
    """Self check (our code against our code): the lean one-pass kernels a model without
    winch, bending or sea steps with give the general kernels' dy/dt and held ends bit for
    bit (the physics itself: test_rhs_matches_dense_reference, which runs the lean path)."""
    from tetherdyn.models import lumped_mass
    from tetherdyn.models.nodes import enforce

    c = LEAN_CASES[name]
    tether = dict(length=8.0, diameter=0.02, mass_per_length=0.8, EA=5e4, axial_damping=30.0,
                  cd_normal=1.3, cd_tangential=0.05, **c["tether"])
    case = tetherdyn.load_case(dict(tether=tether,
                                    model=dict(type="lumped_mass", elements=elements),
                                    environment=c["environment"],
                                    start=c.get("start", dict(type="fixed")), end=c["end"],
                                    solver=dict(dt=1e-3, duration=1.0)))
    model = build_model(case)
    assert model.lean and model.rhs is not lumped_mass.rhs
    rng = np.random.default_rng(3)
    n = model.n_nodes
    for t in (0.3, 1.7):
        y = rng.normal(size=6 * n) + np.concatenate([np.repeat(np.arange(n), 3) * 1.5,
                                                     np.zeros(3 * n)])
        a = np.empty_like(y)
        b = np.empty_like(y)
        lumped_mass.rhs(t, y, a, model.data)
        model.rhs(t, y, b, model.data)
        assert np.array_equal(a, b)
        ya = y.copy()
        yb = y.copy()
        enforce(t, ya, model.data)
        model.enforce(t, yb, model.data)
        assert np.array_equal(ya, yb)


@pytest.mark.parametrize("elements", [5, 40])
def test_lean_path_in_a_calm_sea_is_the_sea_path(elements):
    """Self check: in a calm sea (a water level, a plane seabed, a uniform current; no
    waves) a line without winch or bending steps with the lean pass; while every node is
    under the water level and above the bed its dy/dt is the general sea path's
    (nodes.sea_loads: per element buoyancy, drag, added mass of water; a free end's body
    by nodes.sea_body_load) to rounding, and a state with a node in the air or in the
    bed goes through the lean sea pass (lumped_mass._lean_sea_rhs: the general path's
    sea loads, the lean tension and node passes), again to rounding."""
    from tetherdyn.models import lumped_mass

    tether = dict(length=8.0, diameter=0.02, mass_per_length=0.8, EA=5e4, axial_damping=30.0,
                  cd_normal=1.3, cd_tangential=0.05, ca_tangential=0.3)
    case = tetherdyn.load_case(dict(
        tether=tether, model=dict(type="lumped_mass", elements=elements),
        environment=dict(fluid_density=1025.0, current=[0.3, 0.1, 0.0], water_level=2.0,
                         seabed=dict(z=-30.0, slope_deg=3.0, stiffness=3e4, damping=200.0,
                                     friction=dict(axial=0.5, lateral=0.5))),
        end=dict(type="free", mass=2.0, volume=0.004, drag_area=0.05, ca=0.8),
        solver=dict(dt=1e-3, duration=1.0)))
    model = build_model(case)
    assert model.lean and model.calm_sea and model.rhs is lumped_mass.rhs_lean_fluid
    rng = np.random.default_rng(5)
    n = model.n_nodes
    z = -7.5 / (n - 1) * np.arange(n)  # from the start at 0 down to -7.5 m
    for t in (0.3, 1.7):
        pos = np.column_stack([rng.normal(size=n), rng.normal(size=n), z])
        y = np.concatenate([pos.ravel(), rng.normal(size=3 * n)])
        a = np.empty_like(y)
        b = np.empty_like(y)
        lumped_mass.rhs(t, y, a, model.data)
        model.rhs(t, y, b, model.data)
        acc = a[3 * n:].reshape(n, 3)
        assert np.all(np.abs(acc[1:]) > 1e-3)  # loads on every free node
        np.testing.assert_allclose(b, a, rtol=0, atol=1e-13 * np.max(np.abs(a)))
        for node, height in ((3, 2.5), (4, -40.0)):  # in the air; in the seabed
            yc = y.copy()
            yc[3 * node + 2] = height
            lumped_mass.rhs(t, yc, a, model.data)
            model.rhs(t, yc, b, model.data)
            if node == 4:
                assert model.data.gnd[4] == 1.0  # the seabed's contact is exercised
                # the plane bed's lean anchor update (remesh_plane_bed) is the general one
                anchor = model.data.sea_anchor
                anchor[:] = 0.0
                lumped_mass.remesh(t, yc, model.data)
                general = anchor.copy()
                anchor[:] = 0.0
                assert model.remesh is lumped_mass.remesh_plane_bed
                model.remesh(t, yc, model.data)
                assert general[4, 3] != 0.0 and np.array_equal(anchor, general)
            np.testing.assert_allclose(b, a, rtol=0, atol=1e-12 * np.max(np.abs(a)))


@pytest.mark.parametrize("waves", [
    dict(type="jonswap", hs=2.0, tp=6.0, components=30, seed=2, direction_deg=20.0),
    dict(type="airy", height=1.5, period=5.0, direction_deg=-30.0)])
def test_lean_path_in_waves_is_the_sea_path(waves):
    """Self check: a line without winch or bending in waves (irregular on the precomputed
    grid, regular summed directly; Wheeler stretching) steps with the lean sea pass
    (flags[LEAN] == LEAN_SEA: the general path's sea loads, the lean tension and node
    passes); its dy/dt is the general rhs's to rounding on states crossing the wavy
    surface (elements wet, dry and partly wet), with a free end's body in the sea and a
    prescribed start."""
    from tetherdyn.models import lumped_mass

    tether = dict(length=8.0, diameter=0.02, mass_per_length=0.8, EA=5e4, axial_damping=30.0,
                  cd_normal=1.3, cd_tangential=0.05, ca_tangential=0.3)
    case = tetherdyn.load_case(dict(
        tether=tether, model=dict(type="lumped_mass", elements=5),
        environment=dict(fluid_density=1025.0, current=[0.3, 0.1, 0.0], water_level=-3.0,
                         waves=waves),
        start=dict(type="prescribed", trajectory=dict(t=[0.0, 3.0], x=[0.0, 0.6],
                                                      y=[0.0, 0.0], z=[0.0, 0.3])),
        end=dict(type="free", mass=2.0, volume=0.004, drag_area=0.05, ca=0.8),
        solver=dict(dt=1e-3, duration=1.0)))
    model = build_model(case)
    assert model.lean and not model.calm_sea and model.rhs is lumped_mass.rhs_lean_fluid
    assert model.data.flags[lumped_mass.LEAN] == lumped_mass.LEAN_SEA
    rng = np.random.default_rng(6)
    n = model.n_nodes
    z = -1.5 * np.arange(n)  # from 0 down to -7.5 m: through the surface at -3 m
    wet = set()
    for t in (0.3, 1.7, 2.2):
        pos = np.column_stack([rng.normal(size=n), rng.normal(size=n),
                               z + 0.3 * rng.normal(size=n)])
        y = np.concatenate([pos.ravel(), rng.normal(size=3 * n)])
        a = np.empty_like(y)
        b = np.empty_like(y)
        lumped_mass.rhs(t, y, a, model.data)
        # the added mass by medium: a wholly wet element's 1, a dry one's rho_air / rho_w
        r = model.data.wadd[:n - 1, 0] / model.data.wadd[n - 2, 0]
        wet.update(np.where(r == 1.0, "wet", np.where(r < 0.002, "dry", "partly wet")))
        model.rhs(t, y, b, model.data)
        assert np.all(np.abs(a[3 * n + 3:]) > 1e-3)  # loads on every free node
        np.testing.assert_allclose(b, a, rtol=0, atol=1e-12 * np.max(np.abs(a)))
    assert wet == {"wet", "dry", "partly wet"}
