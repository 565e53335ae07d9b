"""Generalized-α (integrate/implicit.py) and the second-order model surface (models/base.py).

To add a model to the surface-consistency tests, append a case factory (a function
returning a case dict of that model) to MODELS_WITH_SECOND_ORDER_SURFACE.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import second_order_surface

import tetherdyn
from tetherdyn.case import load_case
from tetherdyn.integrate import SimulationError, integrate, output_times
from tetherdyn.integrate.implicit import band_lu, band_solve, parameters
from tetherdyn.models import build_model
from validation import _REGISTRY
from validation.generalized_alpha import (
    ENERGY_TOLERANCE,
    ORDER_TOLERANCE,
    SPECTRAL_TOLERANCE,
    LinearOscillator,
    measured_spectral_radius,
    theoretical_amplification,
)


def _traj(t, x, z):
    t = np.asarray(t, dtype=float)
    return dict(t=t.tolist(), x=np.asarray(x, dtype=float).tolist(), y=[0.0] * t.size,
                z=np.asarray(z, dtype=float).tolist())


def lumped_mass_water_payload_prescribed() -> dict:
    """Water (drag, buoyancy, added mass normal and tangential, current), a swinging
    prescribed start, a payload with drag and a ramped force at the free end."""
    t = np.linspace(0.0, 2.0, 9)
    return dict(
        tether=dict(length=3.0, diameter=0.01, mass_per_length=0.2, EA=3000.0,
                    axial_damping=5.0, ca_tangential=0.3),
        environment=dict(fluid_density=1025.0, current=[0.3, 0.1, 0.0]),
        model=dict(type="lumped_mass", elements=6),
        start=dict(type="prescribed", trajectory=_traj(t, 0.3 * np.sin(2 * t), 0.1 * t**2)),
        end=dict(type="free", mass=0.5, drag_area=0.01, force=[1.0, 0.5, -2.0],
                 force_ramp_time=1.0),
        initial=dict(angle_from_gravity_deg=25.0),
        solver=dict(method="generalized_alpha", dt=1e-3, duration=0.5, output_interval=0.01),
    )


def lumped_mass_vacuum_fixed() -> dict:
    """Vacuum (scalar node masses), a fixed start and a free end with a payload."""
    return dict(
        tether=dict(length=2.0, diameter=2e-3, mass_per_length=0.05, EA=500.0,
                    axial_damping=0.05),
        model=dict(type="lumped_mass", elements=5),
        end=dict(type="free", mass=0.2),
        initial=dict(angle_from_gravity_deg=30.0),
        solver=dict(method="generalized_alpha", dt=1e-3, duration=0.5, output_interval=0.01),
    )


def lumped_mass_both_held_slack() -> dict:
    """Both ends held (prescribed start, fixed end) on a slack cable in water that cannot
    carry compression."""
    t = np.linspace(0.0, 2.0, 9)
    return dict(
        tether=dict(length=5.0, diameter=0.01, mass_per_length=0.2, EA=1000.0),
        environment=dict(fluid_density=1000.0),
        model=dict(type="lumped_mass", elements=7),
        start=dict(type="prescribed", trajectory=_traj(t, 0.2 * t, np.cos(t))),
        end=dict(type="fixed", position=[4.0, 0.0, 0.0]),
        solver=dict(method="generalized_alpha", dt=1e-3, duration=0.5, output_interval=0.01),
    )


def ancf2d_clamped_prescribed_payload() -> dict:
    """Planar ANCF cable: a clamped start on a planar trajectory, bending and axial
    damping, air with cross-flow drag and a current, a payload with drag and a ramped
    force at the free end."""
    t = np.linspace(0.0, 2.0, 9)
    return dict(
        tether=dict(length=1.0, diameter=0.01, mass_per_length=0.2, EA=500.0, EI=0.05,
                    axial_damping=0.3, bending_damping=0.002, drag_law="cross_flow",
                    cd_normal=1.1, cd_tangential=0.05),
        environment=dict(fluid_density=1.2, current=[0.4, 0.0, -0.1]),
        model=dict(type="ancf2d", elements=5),
        start=dict(type="prescribed", clamp=[1.0, 0.0, -1.0],
                   trajectory=_traj(t, 0.3 * np.sin(2 * t), 0.1 * t**2)),
        end=dict(type="free", mass=0.05, drag_area=1e-3, force=[0.3, 0.0, 0.2],
                 force_ramp_time=1.0),
        initial=dict(direction=[1.0, 0.0, -1.0]),
        solver=dict(method="generalized_alpha", dt=1e-3, duration=0.5, output_interval=0.01),
    )


#: case factories of every model with the second-order surface (the ancf2d engineer adds
#: theirs here)
MODELS_WITH_SECOND_ORDER_SURFACE = [
    lumped_mass_water_payload_prescribed,
    lumped_mass_vacuum_fixed,
    lumped_mass_both_held_slack,
    ancf2d_clamped_prescribed_payload,
]


def _state(model, t: float, seed: int = 1) -> np.ndarray:
    """The initial state with random velocities (so drag and damping act), enforced at t."""
    y = np.ascontiguousarray(model.initial_state(), dtype=float).copy()
    rng = np.random.default_rng(seed)
    y[model.n_q:] += 0.3 * rng.standard_normal(model.n_q)
    y[:model.n_q] += 0.01 * rng.standard_normal(model.n_q)
    model.enforce(t, y, model.data)
    return y


@pytest.mark.parametrize("factory", MODELS_WITH_SECOND_ORDER_SURFACE,
                         ids=lambda f: f.__name__)
def test_second_order_surface_matches_rhs(factory):
    """rhs == M⁻¹F on free coordinates (held accelerations moved to the right-hand side),
    q̈_h == held_acc, dq/dt == q̇: the two surfaces describe the same equations. Dense
    NumPy solve of the model's own M and F; 1e-9 relative (round-off of a 3x3 Cramer solve
    against LAPACK)."""
    model = build_model(load_case(factory()))
    nq = model.n_q
    assert nq > 0 and model.band >= 0 and model.held.shape == (nq,)
    t = 0.37
    y = _state(model, t)
    dydt, F, M, a, held = second_order_surface(model, t, y)
    free = ~held
    np.testing.assert_array_equal(dydt[:nq], y[nq:])
    assert np.all(np.isnan(a[free])), "held_acc must leave free coordinates untouched"
    np.testing.assert_allclose(dydt[nq:][held], a[held], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(M, M.T)
    assert np.all(np.linalg.eigvalsh(M) > 0)
    rhs_f = F[free] - M[np.ix_(free, held)] @ a[held]
    qdd = np.linalg.solve(M[np.ix_(free, free)], rhs_f)
    scale = np.abs(qdd).max() + 1.0
    np.testing.assert_allclose(dydt[nq:][free], qdd, rtol=1e-9, atol=1e-9 * scale)


@pytest.mark.parametrize("factory", MODELS_WITH_SECOND_ORDER_SURFACE,
                         ids=lambda f: f.__name__)
def test_second_order_surface_band_and_held_motion(factory):
    """∂F/∂q and ∂F/∂q̇ (dense central differences) vanish outside the declared band, and
    held_acc is the time derivative of the held velocities enforce sets (central difference
    in time, 1e-5 relative: cubic trajectories, δt = 1e-4 s)."""
    model = build_model(load_case(factory()))
    nq, band = model.n_q, model.band
    t = 0.41
    y = _state(model, t, seed=2)
    F1, F2 = np.zeros(nq), np.zeros(nq)
    i, j = np.indices((nq, nq))
    outside = np.abs(i - j) > band
    for part in (0, nq):
        J = np.zeros((nq, nq))
        for c in range(nq):
            yp, ym = y.copy(), y.copy()
            d = 1e-6 * (abs(y[part + c]) + 1.0)
            yp[part + c] += d
            ym[part + c] -= d
            model.force(t, yp, F1, model.data)
            model.force(t, ym, F2, model.data)
            J[:, c] = (F1 - F2) / (2 * d)
        assert np.abs(J).max() > 0.0
        assert np.abs(J[outside]).max() == 0.0
    held = model.held.astype(bool)
    if held.any():
        dt = 1e-4
        yp, ym = y.copy(), y.copy()
        model.enforce(t + dt, yp, model.data)
        model.enforce(t - dt, ym, model.data)
        a = np.zeros(nq)
        model.held_acc(t, y, a, model.data)
        fd = (yp[nq:] - ym[nq:])[held] / (2 * dt)
        np.testing.assert_allclose(a[held], fd, rtol=1e-5, atol=1e-6)


def test_lumped_mass_held_acc_is_the_trajectory_acceleration():
    case = load_case(lumped_mass_water_payload_prescribed())
    model = build_model(case)
    a = np.zeros(model.n_q)
    for t in (0.0, 0.3, 1.1):
        model.held_acc(t, model.initial_state(), a, model.data)
        np.testing.assert_allclose(a[:3], case.start_trajectory.evaluate(t)[2], rtol=1e-14)


@pytest.mark.parametrize("factory", MODELS_WITH_SECOND_ORDER_SURFACE,
                         ids=lambda f: f.__name__)
def test_generalized_alpha_agrees_with_rk45(factory):
    """Each model with the surface runs end to end with generalized_alpha and agrees with a
    tight rk45 run: gen-α's error at dt = 0.5 ms over 0.5 s, O((ω dt)²) on the slow
    motion, stays below 1 mm on these metre-scale cables."""
    c = factory()
    c["solver"].update(dt=5e-4, rtol=1e-9, atol=1e-11)
    ga = tetherdyn.simulate(c, progress=False)
    c["solver"].update(method="rk45", dt=1e-4, rtol=1e-10, atol=1e-12)
    ref = tetherdyn.simulate(c, progress=False)
    np.testing.assert_array_equal(ga.time.values, ref.time.values)
    np.testing.assert_allclose(ga.position.values, ref.position.values, atol=1e-3)
    assert ga.attrs["method"] == "generalized_alpha"


# -- the integrator on its own ---------------------------------------------------------


def test_parameters_follow_chung_hulbert():
    # seed 004 Table 5.2's α's and γ are ρ∞ = 9/11 (digest §9.3); ρ∞ = 0.75: the thesis start
    am, af, beta, gamma = parameters(9.0 / 11.0)
    assert (am, af, gamma) == pytest.approx((0.35, 0.45, 0.6), abs=1e-12)
    assert beta == pytest.approx(0.3025, abs=1e-12)
    assert parameters(0.75) == pytest.approx((0.2857143, 0.4285714, 0.3265306, 0.6428571),
                                             abs=1e-7)
    assert parameters(1.0) == pytest.approx((0.5, 0.5, 0.25, 0.5))


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("band", [0, 1, 5, 7])
def test_band_lu_matches_dense_solve(seed, band):
    """Banded LU with partial pivoting on random banded matrices whose diagonal is small
    (pivoting is needed): same solution as LAPACK to 1e-10 relative."""
    rng = np.random.default_rng(seed)
    n = 40
    A = np.zeros((n, n))
    for i in range(n):
        for j in range(max(0, i - band), min(n, i + band + 1)):
            A[i, j] = rng.standard_normal()
        A[i, i] *= 1e-3
    x_true = rng.standard_normal(n)
    W = np.zeros((n, 3 * band + 1))
    for i in range(n):
        for j in range(max(0, i - band), min(n, i + band + 1)):
            W[i, j - i + band] = A[i, j]
    piv = np.zeros(n, dtype=np.int64)
    assert band_lu(W, band, piv) == -1
    x = A @ x_true
    band_solve(W, band, piv, x)
    np.testing.assert_allclose(x, np.linalg.solve(A, A @ x_true), rtol=1e-10, atol=1e-10)
    if band > 0:
        assert np.any(piv != np.arange(n))  # pivoting happened


def test_spectral_radius_row_reduced():
    row = _REGISTRY["ga_spectral_radius"].func(full=False)
    assert row.passed
    for rho, got in row.values["measured"].items():
        assert abs(got - rho) <= SPECTRAL_TOLERANCE


@pytest.mark.parametrize("rho_inf", [0.0, 0.5, 0.8, 1.0])
@pytest.mark.parametrize("dt_over_T", [0.05, 1.0, 1e4])
def test_measured_amplification_matrix_equals_hand_derivation(rho_inf, dt_over_T):
    """The compiled step (Newton, FD Jacobian, banded LU) reproduces the amplification
    matrix written out by hand from eqs. (5.3)–(5.7) (to 1e-8: a linear problem, so only
    the Newton tolerance (rtol 1e-10) and round-off separate them)."""
    rho, A = measured_spectral_radius(rho_inf, dt_over_T)
    At = theoretical_amplification(rho_inf, 2 * math.pi * dt_over_T)
    np.testing.assert_allclose(A, At, atol=1e-8)
    if dt_over_T == 0.05:
        assert rho > 0.99  # little dissipation of well-resolved motion (0.9965 at ρ∞ = 0)


def test_linear_oscillator_order_two():
    """Undamped oscillator against cos(ωt): errors fall 4× per halving (order 2 ± 0.05)."""
    errs = []
    for dt in (0.1, 0.05, 0.025):
        res = integrate(LinearOscillator(k=4.0), "generalized_alpha", dt, 10.0, 0.5,
                        rtol=1e-12, atol=1e-14, rho_inf=0.8)
        errs.append(np.abs(res.states[:, 0] - np.cos(2 * res.times)).max())
    orders = np.log2(np.array(errs[:-1]) / np.array(errs[1:]))
    np.testing.assert_allclose(orders, 2.0, atol=0.05)


def test_convergence_order_row_reduced():
    row = _REGISTRY["ga_convergence_order"].func(full=False)
    assert row.passed
    assert abs(row.values["order"] - 2.0) <= ORDER_TOLERANCE
    errs = row.values["errors"]
    assert errs[0] > errs[1] > errs[2]


def test_energy_row_reduced():
    row = _REGISTRY["ga_energy"].func(full=False)
    assert row.passed and row.values["drift"] < ENERGY_TOLERANCE


def test_stiff_speedup_row_reduced():
    row = _REGISTRY["ga_stiff_speedup"].func(full=False)
    v = row.values
    assert v["dt_ga"] >= 10.0 * v["dt_rk4"] * (1 - 1e-12)
    assert v["relative"] <= 0.01
    assert row.passed


# -- driver, case keys, errors ----------------------------------------------------------


def test_outputs_land_on_output_instants_and_adaptive_agrees():
    """Adaptive steps land exactly on the output instants and reach the rk45 trajectory
    (rtol 1e-7 on 2 m positions: the global error, ~20× the local tolerance, stays < 1 mm)."""
    c = lumped_mass_vacuum_fixed()
    c["solver"].update(dt=1e-3, output_interval=0.03, duration=0.6, adaptive=True,
                       rtol=1e-7, atol=1e-9)
    ga = tetherdyn.simulate(c, progress=False)
    np.testing.assert_array_equal(ga.time.values, output_times(0.6, 0.03))
    del c["solver"]["adaptive"]
    c["solver"].update(method="rk45", rtol=1e-10, atol=1e-12)
    ref = tetherdyn.simulate(c, progress=False)
    np.testing.assert_allclose(ga.position.values, ref.position.values, atol=1e-3)


def test_explicit_parameters_equal_rho_inf():
    """The four explicit parameters of ρ∞ = 0.6 give bit-identical results to rho_inf."""
    c = lumped_mass_vacuum_fixed()
    c["solver"]["rho_inf"] = 0.6
    a = tetherdyn.simulate(c, progress=False)
    del c["solver"]["rho_inf"]
    am, af, beta, gamma = parameters(0.6)
    c["solver"].update(alpha_m=am, alpha_f=af, beta=beta, gamma=gamma)
    b = tetherdyn.simulate(c, progress=False)
    np.testing.assert_array_equal(a.position.values, b.position.values)
    c["solver"].update(gamma=gamma + 0.05)  # and they are used
    d = tetherdyn.simulate(c, progress=False)
    assert np.abs(d.position.values - a.position.values).max() > 1e-9


def test_modified_newton_reuses_the_jacobian():
    case = load_case(lumped_mass_vacuum_fixed())
    model = build_model(case)
    s = case.solver
    res = integrate(model, "generalized_alpha", s.dt, s.duration, s.output_interval)
    assert res.stats["steps"] == 500
    assert res.stats["jacobians"] < res.stats["steps"] / 10
    assert res.stats["rejected_steps"] == 0


def test_prescribed_end_follows_its_trajectory():
    c = lumped_mass_water_payload_prescribed()
    ds = tetherdyn.simulate(c, progress=False)
    traj = load_case(c).start_trajectory
    for j in range(0, ds.sizes["time"], 7):
        p, v, _ = traj.evaluate(float(ds.time[j]))
        np.testing.assert_allclose(ds.position.values[j, 0], p, atol=1e-12)
        np.testing.assert_allclose(ds.velocity.values[j, 0], v, atol=1e-12)


def test_newton_failure_names_time_and_remedy():
    """A force that turns NaN at t = 0.5 s: every step cut fails, and the error says when,
    with the Newton residual and what to try."""
    model = LinearOscillator(nan_after=0.5)
    with pytest.raises(SimulationError) as err:
        integrate(model, "generalized_alpha", 0.01, 2.0, 0.1, rho_inf=0.8)
    msg = str(err.value)
    assert "t = 0.5 s" in msg
    assert "Newton" in msg and "residual| nan" in msg
    assert "smaller solver.dt" in msg


def test_violent_case_fails_with_a_newton_error():
    """A stiff cable (EA = 5 MN) released at 50 % strain with a 0.2 s step: Newton fails
    even after the step is cut 2^12 times, and the run stops with an error naming the
    time, the residual and a remedy (never NaN results). (At 50 ms the Newton of issue 22,
    with its line search at the slack kink, converges: the run goes through.)"""
    c = lumped_mass_vacuum_fixed()
    c["tether"]["EA"] = 5e6
    c["initial"] = dict(shape="points", points=[[0, 0, 0], [1.5, 0, 0], [3.0, 0, 0]])
    c["solver"].update(dt=0.2, output_interval=0.2, duration=1.0)
    with pytest.raises(SimulationError,
                       match=r"Newton iterations did not converge at t = [0-9.]+ s.*residual\| "
                             r"[0-9.e+]+ N.*try a smaller solver\.dt"):
        tetherdyn.simulate(c, progress=False)


def test_step_limit_is_reported():
    c = lumped_mass_vacuum_fixed()
    c["solver"]["max_steps"] = 20
    with pytest.raises(SimulationError, match="max_steps"):
        tetherdyn.simulate(c, progress=False)


def test_model_without_second_order_surface_is_refused():
    case = load_case(dict(
        tether=dict(length=1.0, diameter=1e-3, mass_per_length=0.05),
        model=dict(type="rigid_links", elements=4),
        initial=dict(angle_from_gravity_deg=10.0),
        solver=dict(method="rk4", dt=1e-3, duration=0.1, output_interval=0.01)))
    model = build_model(case)
    with pytest.raises(ValueError, match="second-order surface.*rigid_links"):
        integrate(model, "generalized_alpha", 1e-3, 0.1, 0.01)
