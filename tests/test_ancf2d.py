"""The planar ANCF cable (seed 003): kernels against independent NumPy references, the
second-order surface, end forces, and the reduced validation rows.

Tolerances: finite-difference derivatives of smooth functions agree to ~1e-7 relative
(central differences, step 1e-6); the dense/banded solves to round-off (1e-10 relative).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import dense_from_band

from tetherdyn.case import CaseError, load_case
from tetherdyn.integrate import SimulationError
from tetherdyn.models import build_model
from tetherdyn.models.ancf2d import (
    GAUSS_POINTS,
    element_mass,
    global_mass,
    shape_functions,
)
from tetherdyn.simulate import simulate
from validation import seed003


def make_case(elements: int = 4, **changes) -> dict:
    """A 1 m planar cable with a clamped prescribed start and a free end with a payload."""
    case = dict(
        tether=dict(length=1.0, diameter=0.01, mass_per_length=0.2, EA=500.0, EI=0.05,
                    axial_damping=0.3, bending_damping=0.002, drag_law="cross_flow",
                    cd_normal=1.1, cd_tangential=0.05, displaced_area=3e-5),
        model=dict(type="ancf2d", elements=elements),
        environment=dict(gravity=[0.0, 0.0, -9.81], fluid_density=1.2,
                         current=[0.4, 0.0, -0.1]),
        start=dict(type="prescribed", clamp=[1.0, 0.0, 1.0],
                   trajectory=dict(t=[0.0, 0.5, 1.0, 2.0], x=[0.0, 0.1, 0.05, 0.0],
                                   y=[0.0] * 4, z=[0.0, 0.02, -0.05, 0.0])),
        end=dict(type="free", mass=0.05, force=[0.3, 0.0, 0.2], force_ramp_time=1.0,
                 drag_area=1e-3),
        initial=dict(shape="points", points=[[0, 0, 0], [0.4, 0, 0.3], [0.7, 0, 0.1],
                                             [0.9, 0, -0.3]]),
        solver=dict(method="rk4", dt=1e-4, duration=0.01, output_interval=0.01),
    )
    for k, v in changes.items():
        case[k] = v
    return case


def random_state(model, rng, scale=0.05) -> np.ndarray:
    y = model.initial_state()
    y[: model.n_q] += scale * rng.standard_normal(model.n_q)
    y[model.n_q:] = rng.standard_normal(model.n_q)
    return y


# -- independent NumPy reference of the continuum energies ---------------------------------


def gauss_fields(q: np.ndarray, qd: np.ndarray, le: float, points: int = 6):
    """r', r'', ṙ', ṙ'' at Gauss points of every element and the weights (NumPy)."""
    x, w = np.polynomial.legendre.leggauss(points)
    n = q.size // 4
    Q = q.reshape(n, 4)
    QD = qd.reshape(n, 4)
    out = []
    for e in range(n - 1):
        coords = [Q[e, 0:2], Q[e, 2:4], Q[e + 1, 0:2], Q[e + 1, 2:4]]
        rates = [QD[e, 0:2], QD[e, 2:4], QD[e + 1, 0:2], QD[e + 1, 2:4]]
        for xg, wg in zip(x, w, strict=True):
            S = shape_functions(0.5 * (1 + xg), le)
            r1 = sum(S[1, k] * coords[k] for k in range(4))
            r2 = sum(S[2, k] * coords[k] for k in range(4))
            v1 = sum(S[1, k] * rates[k] for k in range(4))
            v2 = sum(S[2, k] * rates[k] for k in range(4))
            out.append((r1, r2, v1, v2, 0.5 * wg * le))
    return out


def strain_energy(q, EA, EI, le, points=6):
    U = 0.0
    for r1, r2, _, _, w in gauss_fields(q, np.zeros_like(q), le, points):
        lam = np.linalg.norm(r1)
        kappa = (r1[0] * r2[1] - r1[1] * r2[0]) / lam**3
        U += w * (0.5 * EA * (lam - 1) ** 2 + 0.5 * EI * kappa**2)
    return U


def rayleigh(q, qd, C, Cb, le, points=6):
    """½ ∫ (C ε̇² + C_b κ̇²) ds with ε̇ and κ̇ by differentiating along q̇ (central FD)."""
    h = 1e-7
    R = 0.0
    fa = gauss_fields(q + h * qd, qd, le, points)
    fb = gauss_fields(q - h * qd, qd, le, points)
    for (a1, a2, _, _, w), (b1, b2, _, _, _) in zip(fa, fb, strict=True):
        eps_dot = (np.linalg.norm(a1) - np.linalg.norm(b1)) / (2 * h)
        ka = (a1[0] * a2[1] - a1[1] * a2[0]) / np.linalg.norm(a1) ** 3
        kb = (b1[0] * b2[1] - b1[1] * b2[0]) / np.linalg.norm(b1) ** 3
        kappa_dot = (ka - kb) / (2 * h)
        R += w * 0.5 * (C * eps_dot**2 + Cb * kappa_dot**2)
    return R


# -- matrices ------------------------------------------------------------------------------


def test_mass_matrix_integrates_shape_functions() -> None:
    # seed 003 eq. (5): M = ρA ∫ Sᵀ S ds, checked against 8-point quadrature
    le, rho_a = 0.37, 2.5
    x, w = np.polynomial.legendre.leggauss(8)
    ref = np.zeros((4, 4))
    for xg, wg in zip(x, w, strict=True):
        S = shape_functions(0.5 * (1 + xg), le)[0]
        ref += 0.5 * wg * le * rho_a * np.outer(S, S)
    assert np.allclose(element_mass(le, rho_a), ref, rtol=1e-12, atol=1e-14)
    M = global_mass(5, le, rho_a)
    # rigid translation in x: q̇ = (1, 0, 0, 0) per node -> momentum = total mass
    t = np.tile([1.0, 0.0, 0.0, 0.0], 5)
    assert t @ M @ t == pytest.approx(rho_a * 4 * le, rel=1e-12)


def test_shape_functions_interpolate_nodes_and_slopes() -> None:
    le = 0.3
    S0 = shape_functions(0.0, le)
    S1 = shape_functions(1.0, le)
    assert np.allclose(S0[0], [1, 0, 0, 0]) and np.allclose(S1[0], [0, 0, 1, 0])
    assert np.allclose(S0[1], [0, 1, 0, 0]) and np.allclose(S1[1], [0, 0, 0, 1])


# -- forces against the continuum energies --------------------------------------------------


@pytest.mark.parametrize("law", ["cross_flow", "projected_area"])
def test_elastic_force_is_minus_energy_gradient(law: str) -> None:
    case = make_case(5, environment=dict(gravity=[0.0, 0.0, 0.0]))
    case["tether"].update(axial_damping=0.0, bending_damping=0.0, drag_law=law)
    model = build_model(load_case(case))
    rng = np.random.default_rng(1)
    y = random_state(model, rng)
    y[model.n_q:] = 0.0  # no velocity: no drag, no damping
    F = np.empty(model.n_q)
    t = 0.0
    model.force(t, y, F, model.data)
    le = 1.0 / 5
    model.enforce(t, y, model.data)
    q = y[: model.n_q].copy()
    grad = np.empty(model.n_q)
    h = 1e-6
    for i in range(model.n_q):
        e = np.zeros(model.n_q)
        e[i] = h
        # the kernel's force is the exact gradient of its own (GAUSS_POINTS) quadrature
        grad[i] = (strain_energy(q + e, 500.0, 0.05, le, GAUSS_POINTS)
                   - strain_energy(q - e, 500.0, 0.05, le, GAUSS_POINTS)) / (2 * h)
    # the payload force at the end (ramped: t = 0 -> 0) and its weight (g = 0) vanish
    free = model.held == 0
    scale = np.abs(grad).max()
    assert np.abs(F[free] + grad[free]).max() < 2e-6 * scale
    ea, eb = model.elastic_energy(y)
    assert ea + eb == pytest.approx(strain_energy(q, 500.0, 0.05, le, GAUSS_POINTS), rel=1e-12)
    # and the 4-point quadrature is close to a 6-point one even on these distorted elements
    assert ea + eb == pytest.approx(strain_energy(q, 500.0, 0.05, le, 6), rel=1e-2)


def test_damping_force_is_minus_rayleigh_gradient() -> None:
    case = make_case(4, environment=dict(gravity=[0.0, 0.0, 0.0]),
                     start=dict(type="fixed", position=[0.0, 0.0, 0.0], clamp=[1.0, 0.0, 1.0]))
    C, Cb = 0.3, 0.002
    model = build_model(load_case(case))
    rng = np.random.default_rng(2)
    y = random_state(model, rng)
    model.enforce(0.0, y, model.data)
    nq = model.n_q
    F = np.empty(nq)
    F0 = np.empty(nq)
    model.force(0.0, y, F, model.data)
    y0 = y.copy()
    y0[nq:] = 0.0
    model.force(0.0, y0, F0, model.data)
    q, qd = y[:nq], y[nq:]
    grad = np.empty(nq)
    h = 1e-4  # the Rayleigh function is quadratic in q̇: central differences are exact
    for i in range(nq):
        e = np.zeros(nq)
        e[i] = h
        grad[i] = (rayleigh(q, qd + e, C, Cb, 0.25, GAUSS_POINTS)
                   - rayleigh(q, qd - e, C, Cb, 0.25, GAUSS_POINTS)) / (2 * h)
    free = model.held == 0
    Fd = F - F0  # no fluid, no gravity: only the internal damping depends on q̇
    scale = np.abs(grad).max()
    # ε̇, κ̇ of the reference come from central differences along q̇ (error ~1e-6)
    assert np.abs(Fd[free] + grad[free]).max() < 1e-5 * scale


def test_material_damping_shorthand() -> None:
    case = seed003.strip_case(4, 0.01, 1e-5)
    model = build_model(load_case(case))
    assert model.axial_damping == pytest.approx(2000.0 * 4e-5)
    assert model.bending_damping == pytest.approx(2000.0 * 0.02 * 0.002**3 / 12, rel=1e-12)
    case["tether"]["axial_damping"] = 0.1
    with pytest.raises(CaseError, match="not both"):
        load_case(case)


def test_projected_area_drag_totals() -> None:
    # seed 003 eqs. (18)-(23): a straight element moving uniformly with (ux, uz)
    case = make_case(1, environment=dict(gravity=[0.0, 0.0, 0.0], fluid_density=1.3),
                     start=dict(type="free"), end=dict(type="free"),
                     initial=dict(direction=[0.6, 0.0, 0.8], velocity=[2.0, 0.0, -3.0]))
    case["tether"].update(drag_law="projected_area", cd_normal=0.8, axial_damping=0.0,
                          bending_damping=0.0)
    model = build_model(load_case(case))
    y = model.initial_state()
    F = np.empty(model.n_q)
    model.force(0.0, y, F, model.data)
    b, rho, cd = 0.01, 1.3, 0.8
    fx = -0.5 * rho * cd * b * 0.8 * 2.0 * 2.0  # area |Δz| b sees the x flow
    fz = 0.5 * rho * cd * b * 0.6 * 3.0 * 3.0  # area |Δx| b sees the z flow
    assert F[0] + F[4] == pytest.approx(fx, rel=1e-12)
    assert F[1] + F[5] == pytest.approx(fz, rel=1e-12)
    # distributed like a uniform load: slope terms ±le/12 of the total
    assert F[2] == pytest.approx(fx / 12.0, rel=1e-12)
    assert F[6] == pytest.approx(-fx / 12.0, rel=1e-12)


def test_cross_flow_drag_total() -> None:
    case = make_case(3, environment=dict(gravity=[0.0, 0.0, 0.0], fluid_density=1000.0),
                     start=dict(type="free"), end=dict(type="free"),
                     initial=dict(direction=[1.0, 0.0, 0.0], velocity=[0.5, 0.0, -2.0]))
    case["tether"].update(axial_damping=0.0, bending_damping=0.0)
    model = build_model(load_case(case))
    F = np.empty(model.n_q)
    model.force(0.0, model.initial_state(), F, model.data)
    un, ut = -2.0, 0.5
    fz = -0.5 * 1000.0 * 1.1 * 0.01 * abs(un) * un
    fx = -0.5 * 1000.0 * 0.05 * math.pi * 0.01 * abs(ut) * ut
    assert F[0::4].sum() == pytest.approx(fx, rel=1e-10)
    assert F[1::4].sum() == pytest.approx(fz, rel=1e-10)


# -- the second-order surface and rhs --------------------------------------------------------


@pytest.mark.parametrize("elements", [1, 3, 6])
def test_rhs_is_mass_inverse_force(elements: int) -> None:
    model = build_model(load_case(make_case(elements)))
    rng = np.random.default_rng(elements)
    nq = model.n_q
    assert model.band == 7 and model.held.sum() == 4
    for t in (0.0, 0.37, 1.4):
        y = random_state(model, rng)
        dydt = np.empty_like(y)
        model.rhs(t, y, dydt, model.data)
        F = np.empty(nq)
        model.force(t, y, F, model.data)
        Mb = np.empty((8, nq))
        model.mass(t, y, Mb, model.data)
        M = dense_from_band(Mb)
        a = np.full(nq, np.nan)
        model.held_acc(t, y, a, model.data)
        f = model.held == 0
        h = ~f
        ref = np.linalg.solve(M[np.ix_(f, f)], F[f] - M[np.ix_(f, h)] @ a[h])
        assert np.allclose(dydt[nq:][f], ref, rtol=1e-10, atol=1e-10 * np.abs(ref).max())
        assert np.array_equal(dydt[nq:][h], a[h])
        assert np.all(np.isnan(a[f]))  # held_acc leaves free coordinates alone
        traj = load_case(make_case(elements)).end_motion("start")
        _, vel, acc = traj.evaluate(t)
        assert a[0] == pytest.approx(acc[0]) and a[1] == pytest.approx(acc[2])
        assert a[2] == 0.0 and a[3] == 0.0
        # dq/dt = q̇ (held coordinates: the prescribed velocity)
        assert np.allclose(dydt[4:nq], y[nq + 4:])
        assert dydt[0] == pytest.approx(vel[0]) and dydt[1] == pytest.approx(vel[2])
        # a full dense solve of M with the payload on the end
        assert M[nq - 4, nq - 4] - M[nq - 3, nq - 3] == 0.0


def test_clamp_is_held_at_unit_direction() -> None:
    model = build_model(load_case(make_case(3)))
    y = model.initial_state()
    assert np.allclose(y[2:4], [math.sqrt(0.5), math.sqrt(0.5)])
    ds = simulate(make_case(3), progress=False)
    assert np.allclose(ds.slope.isel(node=0).values[:, [0, 2]], math.sqrt(0.5))
    assert ds.slope.attrs["units"] == "1"
    assert np.all(ds.position.sel(axis="y").values == 0.0)


# -- end forces and energies ----------------------------------------------------------------


def test_hanging_strip_end_force_is_weight() -> None:
    case = seed003.strip_case(6, 0.01, 1e-5, drag=True)
    case["initial"] = dict(direction=[0.0, 0.0, -1.0])
    case["end"] = dict(type="free", mass=0.01, force=[0.02, 0.0, 0.0])
    model = build_model(load_case(case))
    y, _ = seed003.static_solve(model, model.initial_state())
    out = np.empty((2, 3))
    model.end_forces(1e6, y, out)
    weight = (920.0 - 1.293) * 4e-5 * 0.6 * 9.8 + 0.01 * 9.8
    assert out[0, 2] == pytest.approx(-weight, rel=1e-6)
    assert out[0, 0] == pytest.approx(0.02, rel=1e-6)
    # at the free end the tether holds the payload: force on it = −(weight + applied force)
    assert out[1, 2] == pytest.approx(0.01 * 9.8, rel=1e-6)
    assert out[1, 0] == pytest.approx(-0.02, rel=1e-6)
    res = model.outputs(np.array([1e6]), y[None, :])
    assert np.allclose(res["start_force"][0], out[0])
    # tension at mid-length ≈ |weight below (buoyancy included) + payload + force|: the
    # strip bends slightly (shear takes a part) and the cubic elements' strain converges
    # more slowly than positions, so 1 % with 6 elements
    ten = res["tension"][0]
    s_mid = (np.arange(6) + 0.5) * 0.1
    below = (920.0 - 1.293) * 4e-5 * (0.6 - s_mid) * 9.8 + 0.01 * 9.8
    assert np.allclose(ten, np.hypot(below, 0.02), rtol=1e-2)


def test_dynamic_end_force_balances_momentum() -> None:
    # start force = −(rate of momentum) + external loads: Σ(F_ext) − d/dt(momentum) on the
    # whole tether equals minus the holder's reaction
    case = make_case(4)
    model = build_model(load_case(case))
    rng = np.random.default_rng(5)
    y = random_state(model, rng)
    model.enforce(0.3, y, model.data)
    out = np.empty((2, 3))
    model.end_forces(0.3, y, out)
    nq = model.n_q
    dydt = np.empty_like(y)
    model.rhs(0.3, y, dydt, model.data)
    Mb = np.empty((8, nq))
    model.mass(0.3, y, Mb, model.data)
    M = dense_from_band(Mb)
    F = np.empty(nq)
    model.force(0.3, y, F, model.data)
    # translation vectors: momentum rate in x = tx·M q̈, external force = tx·F + reaction
    for axis, col in ((0, 0), (1, 2)):
        t = np.zeros(nq)
        t[axis::4] = 1.0
        reaction = t @ M @ dydt[nq:] - t @ F
        assert out[0, col] == pytest.approx(-reaction, rel=1e-9, abs=1e-9)


# -- time step -------------------------------------------------------------------------------


def test_critical_time_step_is_sound() -> None:
    case = seed003.strip_case(6, 0.05, 1e-5, damping=False, drag=False)
    model = build_model(load_case(case))
    dt_crit = model.critical_time_step()[0]
    case["solver"].update(dt=0.0005 / math.ceil(0.0005 / (0.95 * dt_crit)), duration=0.05,
                          output_interval=0.0005)
    ds = simulate(case, progress=False)
    assert np.all(np.isfinite(ds.position.values))
    case["solver"].update(dt=0.0005 / math.floor(0.0005 / (2.0 * dt_crit)))
    with pytest.raises(SimulationError):
        simulate(case, progress=False)


# -- the validation rows (reduced) ----------------------------------------------------------


def test_statics_row() -> None:
    row = seed003.check_statics(full=False)
    assert max(abs(v) for v in row.values["small"].values()) < 0.01
    err = row.values["err"]
    assert err[16] < 1e-4 and err[8] < err[4] < err[2]
    assert row.values["bd_err"] < 2e-5
    assert row.passed


def test_energy_row() -> None:
    # over the seed's 2 s, through the whip, at the row's step
    row = seed003.check_energy(full=False)
    assert row.values["drift"] < seed003.ENERGY_TOLERANCE
    assert row.values["before_whip"] < 0.1 * seed003.ENERGY_TOLERANCE
    assert row.passed


def test_seed003_strip_row() -> None:
    row = seed003.check_strip(full=False)
    diff = row.values["diff"]
    assert diff[20] < diff[10]
    assert diff[20] < 0.01
    assert row.passed


def test_gauss_points_stated() -> None:
    assert GAUSS_POINTS == 4
