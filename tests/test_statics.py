"""tetherdyn.statics.equilibrium: the general static solver against independent answers."""

import math

import numpy as np
import pytest

from tetherdyn.case import load_case
from tetherdyn.models import build_model
from tetherdyn.statics import equilibrium
from validation import seed003
from validation.catenary import discrete_catenary


def catenary_case(n: int, span: float, dz: float, length: float, EA: float) -> dict:
    return dict(tether=dict(length=length, diameter=1.5875e-3, mass_per_length=0.016, EA=EA),
                model=dict(type="lumped_mass", elements=n),
                environment=dict(gravity=[0.0, 0.0, -9.81]),
                start=dict(type="fixed", position=[0.0, 0.0, 0.0]),
                end=dict(type="fixed", position=[span, 0.0, dz]),
                solver=dict(dt=1e-3, duration=1.0))


def test_lumped_mass_catenary_is_the_exact_discrete_chain():
    # between two supports the lumped chain's equilibrium is known in closed form up to two
    # scalars (validation/catenary.py: element k carries the continuum's tension at its
    # mid-length); Newton from a sagging guess must land on it to rounding (1e-9 m on a
    # 10 m span: the solve's residual 1e-10 N over a stiffness EA/L_e = 3 kN/m)
    n, span, dz, length, EA = 16, 10.0, 3.0, 10.6, 2000.0
    s = np.linspace(0.0, 1.0, n + 1)
    guess = np.column_stack([span * s, 0 * s, dz * s - 4.0 * s * (1 - s)]).ravel()
    eq = equilibrium(catenary_case(n, span, dz, length, EA), guess, tol=1e-10)
    assert eq.converged and eq.residual < 1e-10
    nodes, _, _ = discrete_catenary(span, dz, length, 0.016 * 9.81, EA, n)
    assert np.max(np.abs(eq.positions[:, [0, 2]] - nodes)) < 1e-9
    assert np.max(np.abs(eq.positions[:, 1])) == 0.0
    # the banded (coloured) Jacobian is exact for a chain without bending: same answer
    eqb = equilibrium(catenary_case(n, span, dz, length, EA), guess, tol=1e-10,
                      jacobian="banded")
    assert eqb.converged and np.max(np.abs(eqb.positions - eq.positions)) < 1e-9


def test_taut_line_under_an_end_force_stretches_by_F_over_EA():
    # a weightless line hanging from a fixed point with a tip force F along it: every
    # element carries F, so node k sits at s_k (1 + F/EA); continuation over 5 load steps
    F, EA, L, n = 50.0, 1e4, 3.0, 6
    case = dict(tether=dict(length=L, diameter=0.01, mass_per_length=0.1, EA=EA),
                model=dict(type="lumped_mass", elements=n),
                environment=dict(gravity=[0.0, 0.0, 0.0]),
                start=dict(type="fixed", position=[0.0, 0.0, 0.0]),
                end=dict(type="free", force=[0.0, 0.0, -F], force_ramp_time=10.0),
                initial=dict(direction=[0.0, 0.0, -1.0]),
                solver=dict(dt=1e-3, duration=1.0))
    eq = equilibrium(case, load_steps=5, tol=1e-9)
    assert eq.converged and eq.load_steps == 5
    # the ramp of the case is dropped: the full force acts in the static solve
    exact = -np.linspace(0.0, L, n + 1) * (1.0 + F / EA)
    assert np.max(np.abs(eq.positions[:, 2] - exact)) < 1e-12 * L * 1e3
    assert [round(lam, 12) for lam, _ in eq.history] == [0.2, 0.4, 0.6, 0.8, 1.0]


def test_ancf2d_large_deflection_cantilever_matches_the_model_specific_solver():
    # the ancf2d cantilever (clamped slopes are held coordinates) under a tip load
    # P L²/EI = 5, reached by load continuation, must agree with seed003's own banded
    # Newton solve of the same model (independent code) to 1e-9 of L, and with the
    # elastica shooting solution to its discretisation error (8 elements: 1e-3 of L; 2e-3
    # asserted)
    alpha = 5.0
    case = seed003.cantilever_case(8, EI=1.0, EA=1e5, tip_load=alpha)
    eq = equilibrium(case, load_steps=10, tol=1e-10)
    assert eq.converged
    model = build_model(load_case(case))
    y = model.initial_state()
    for k in range(1, 11):  # the model-specific solver needs its own continuation
        c = seed003.cantilever_case(8, EI=1.0, EA=1e5, tip_load=alpha * k / 10)
        m = build_model(load_case(c))
        y, _ = seed003.static_solve(m, y)
    ours = eq.y[: model.n_q]
    assert np.max(np.abs(ours - y[: model.n_q])) < 1e-9
    v, h = seed003.elastica(alpha, 1e5)
    tip = eq.positions[-1]
    assert abs(-tip[2] - v) < 2e-3
    assert abs((1.0 - tip[0]) - h) < 2e-3


def test_convergence_is_judged_by_the_residual_not_the_iteration_count():
    # one Newton iteration cannot reach the cantilever's equilibrium: the result must
    # say so (converged False, residual above tol) instead of raising or pretending
    case = seed003.cantilever_case(8, EI=1.0, EA=1e5, tip_load=5.0)
    eq = equilibrium(case, max_iter=1, tol=1e-10)
    assert not eq.converged
    assert eq.residual > 1e-10
    assert math.isfinite(eq.residual)


def test_solve_contract_surface_reports_the_shape_and_raises_when_it_fails():
    # statics.solve (issue 18's API): converged to rtol · weight, the derived quantities
    # and the case / results writers; a solve that cannot converge raises StaticsError
    from tetherdyn.statics import StaticsError, solve

    n, span, dz, length, EA = 16, 10.0, 3.0, 10.6, 2000.0
    case = catenary_case(n, span, dz, length, EA)
    s = np.linspace(0.0, 1.0, n + 1)
    guess = np.column_stack([span * s, 0 * s, dz * s - 4.0 * s * (1 - s)])
    eq = solve(case, guess=guess)
    w = 0.016 * 9.81 * length  # no fluid: the dry weight
    assert eq.weight == pytest.approx(w, rel=1e-12)
    assert eq.converged and eq.residual <= 1e-6 * w
    nodes, _, _ = discrete_catenary(span, dz, length, 0.016 * 9.81, EA, n)
    assert np.max(np.abs(eq.positions[:, [0, 2]] - nodes)) < 1e-6
    assert eq.lowest[2] == pytest.approx(nodes[:, 1].min(), abs=1e-6)
    t0, t1 = eq.end_tensions
    assert t1 > t0 > 0.0  # the upper end carries more
    assert eq.touchdown is None
    raw = eq.to_case_dict()
    assert raw["initial"]["shape"] == "points" and len(raw["initial"]["points"]) == n + 1
    ds = eq.results().to_dataset()
    assert ds.sizes["time"] == 1 and float(np.abs(ds["velocity"]).max()) == 0.0
    with pytest.raises(StaticsError, match=r"residual .* N .* node \d+ \(arc length"):
        solve(case, guess=guess, max_iter=1, rtol=1e-14)
