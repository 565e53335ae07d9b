"""Winch ends (payout / reel-in) on the higher-order (cubic-spline) model.

References: the static weight a vertical tether carries in vacuum (winch force
(m_end + m' ℓ) g, end depth ℓ plus the elastic stretch), the lumped-mass model (a straight
tether without bending loads: the two must agree), and the model's own second-order
surface (rhs = M⁻¹F on the free coordinates, models/base.py contract).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from conftest import second_order_surface

import tetherdyn
from tetherdyn.case import load_case
from tetherdyn.models import build_model

G = 9.81
EA = 1e5
M_END = 20.0
MPL = 0.5  # [kg/m]
L0 = 10.0


def _lowering(speed: float, model: str = "higher_order", duration: float = 3.0,
              dt: float = 1e-4, gravity=(0.0, 0.0, -G)) -> dict:
    """A mass hung in vacuum from a winch at the origin, paying out (speed > 0) or reeling
    in at ``speed`` [m/s]; the tether starts straight down moving with the payout."""
    c = dict(
        tether=dict(length=L0, diameter=0.01, mass_per_length=MPL, EA=EA, EI=1.0,
                    axial_damping=3000.0),
        environment=dict(gravity=list(gravity)),
        model=dict(type=model, elements=10),
        start=dict(type="winch", position=[0.0, 0.0, 0.0], payout=dict(speed=speed)),
        end=dict(type="free", mass=M_END),
        initial=dict(direction=[0.0, 0.0, -1.0], velocity=[0.0, 0.0, -speed]),
        solver=dict(method="rk4", dt=dt, duration=duration, output_interval=0.01),
    )
    if model == "lumped_mass":
        del c["tether"]["EI"]
    return c


def _stable(case: dict) -> dict:
    """The case with the largest rk4 step below 0.8 × the model's critical step that
    divides the output interval (what ``tetherdyn check`` suggests)."""
    dt_crit = build_model(load_case(case)).critical_time_step()[0]
    out = case["solver"]["output_interval"]
    case["solver"]["dt"] = out / math.ceil(out / (0.8 * dt_crit))
    return case


def _end_depth(res) -> np.ndarray:
    """z [m] of the last live node (the hanging mass) at each output."""
    live = res.active.values.sum(axis=1)
    pos = res.position.values
    return np.array([pos[j, live[j] - 1, 2] for j in range(live.size)])


def _check_static_hang(res, settle: float = 1.0) -> None:
    """After ``settle`` s the winch carries the weight below it within 0.5 % and the mass
    hangs at the deployed length plus the static stretch within 0.5 %."""
    t = res.time.values
    ell = res.deployed_length.values
    late = t >= settle
    weight = (M_END + MPL * ell) * G
    winch_force = -res.start_force.values[:, 2]
    np.testing.assert_allclose(winch_force[late], weight[late], rtol=5e-3)
    # elastic stretch of a hanging tether: ∫ T/EA ds, T = (M_END + m'(ℓ − s)) g
    stretch = (M_END * G * ell + 0.5 * MPL * G * ell**2) / EA
    np.testing.assert_allclose(-_end_depth(res)[late], (ell + stretch)[late], rtol=5e-3)
    assert np.all(np.isfinite(res.kinetic_energy.values))


def test_lowering_a_mass_carries_its_weight_and_splits():
    # 1 m/s payout for 3 s from 10 m (10 elements): the winch force equals the carried
    # weight (20 + 0.5 ℓ) g within 0.5 % after 1 s, the mass follows z = −(ℓ + stretch)
    # within 0.5 %, and the winch element splits (live nodes 11 → 14).
    res = tetherdyn.simulate(_stable(_lowering(1.0)), progress=False)
    t = res.time.values
    # the schedule, but for the slack that splits move between drum and tether to keep the
    # spline's strain (a fraction of a millimetre each, docs/winch.md)
    np.testing.assert_allclose(res.deployed_length.values, L0 + t, atol=1e-3)
    np.testing.assert_allclose(res.payout_speed.values, 1.0)
    _check_static_hang(res)
    live = res.active.values.sum(axis=1)
    assert live[0] == 11
    assert live[-1] > live[0]
    assert np.all(np.diff(live) >= 0)  # only splits while paying out
    assert live[-1] == 14  # ℓ = 13 m: 12 L_nom + a 1 m winch element (band 0.5–1.6)


def test_reeling_in_merges_and_stays_finite():
    # −1 m/s for 3 s: 10 m → 7 m; merges only (11 → 8 live nodes); the state stays finite
    # and the hang stays static within 0.5 % after 1 s.
    res = tetherdyn.simulate(_stable(_lowering(-1.0)), progress=False)
    live = res.active.values.sum(axis=1)
    assert live[0] == 11
    assert live[-1] < live[0]
    assert np.all(np.diff(live) <= 0)
    assert live[-1] == 8
    np.testing.assert_allclose(res.deployed_length.values[-1], 7.0, atol=1e-3)  # the slack
    for name in ("start_force", "end_force", "kinetic_energy", "potential_energy"):
        assert np.all(np.isfinite(res[name].values)), name
    _check_static_hang(res)


def _both(case: dict):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # lumped_mass: "tether.EI: not used"
        ho = tetherdyn.simulate(case, progress=False)
        lm_case = {k: (dict(v) if isinstance(v, dict) else v) for k, v in case.items()}
        lm_case["model"] = dict(case["model"], type="lumped_mass")
        lm = tetherdyn.simulate(lm_case, progress=False)
    return ho, lm


def test_resting_winch_layout_matches_lumped_mass():
    # Gravity off, no payout, at rest: nothing moves. The variable-length layout
    # (results-format.md) — active mask, NaN padding of the spare node / element columns,
    # arc lengths increasing along the live nodes up to the deployed length — and every
    # result agree with lumped_mass (straight tether, no bending load) to 1e-12.
    case = _lowering(0.0, duration=0.2, dt=1e-4, gravity=(0.0, 0.0, 0.0))
    ho, lm = _both(case)
    live = ho.active.values.sum(axis=1)
    assert np.all(live == 11)
    n_cols = ho.sizes["node"]
    assert n_cols > 11  # spare capacity: NaN padded
    np.testing.assert_array_equal(ho.active.values, lm.active.values)
    assert np.all(np.isnan(ho.position.values[:, 11:]))
    assert np.all(np.isnan(ho.tension.values[:, 10:]))
    assert np.all(np.isnan(ho.curvature.values[:, 11:]))
    arc = ho.arc_length.values
    assert np.all(np.isnan(arc[:, 11:]))
    assert np.all(np.diff(arc[:, :11], axis=1) > 0)
    np.testing.assert_allclose(arc[:, 0], 0.0)
    np.testing.assert_allclose(arc[:, 10], ho.deployed_length.values, rtol=1e-14)
    np.testing.assert_allclose(ho.deployed_length.values, L0)
    # at rest where it started
    z = np.linspace(0.0, -L0, 11)
    np.testing.assert_allclose(ho.position.values[:, :11, 2], np.broadcast_to(z, (live.size, 11)),
                               atol=1e-12)
    np.testing.assert_allclose(ho.position.values[:, :11, :2], 0.0, atol=1e-12)
    np.testing.assert_allclose(ho.tension.values[:, :10], 0.0, atol=1e-9)
    for name in ("position", "velocity", "tension", "start_force", "end_force", "arc_length",
                 "deployed_length", "payout_speed", "momentum", "kinetic_energy",
                 "potential_energy"):
        np.testing.assert_allclose(ho[name].values, lm[name].values, rtol=1e-12, atol=1e-12,
                                   err_msg=name)


def test_lowering_matches_lumped_mass():
    # The same payout run on both models: a straight vertical tether has no bending load,
    # so the spline model reduces to the lumped-mass one (splits at the same instants,
    # winch force within 1e-7 relative, positions within 1e-9 m). The split's node is
    # placed by two routes (lumped_mass: the exact balance on the chord; higher_order: the
    # linearised balance of the spline's strains), which agree to ~1e-8.
    case = _lowering(1.0, duration=1.5)
    case["solver"]["dt"] = 4e-5
    ho, lm = _both(case)
    np.testing.assert_array_equal(ho.active.values, lm.active.values)
    assert ho.active.values.sum(axis=1)[-1] > 11
    np.testing.assert_allclose(ho.start_force.values, lm.start_force.values, rtol=1e-7,
                               atol=1e-7)
    np.testing.assert_allclose(ho.position.values, lm.position.values, atol=1e-9)
    np.testing.assert_allclose(ho.momentum.values, lm.momentum.values, rtol=1e-7, atol=1e-7)


@pytest.mark.parametrize("side", ["start", "end"])
def test_second_order_surface_matches_rhs_with_a_winch(side):
    # Water, current, a bent tether, a winch paying out at either end, with a split's
    # spare rows: rhs == M⁻¹F on the free coordinates with the held accelerations (the
    # winch end, dead rows, the pseudo-node's schedule) moved right; dense NumPy solve.
    c = dict(
        tether=dict(length=3.0, diameter=0.01, mass_per_length=0.2, EA=3000.0, EI=0.05,
                    axial_damping=5.0, bending_damping=1e-3, ca_tangential=0.3),
        environment=dict(fluid_density=1025.0, current=[0.3, 0.1, 0.0]),
        model=dict(type="higher_order", elements=6),
        start=dict(type="winch", position=[0.0, 0.0, 0.0], payout=dict(speed=0.4)),
        end=dict(type="free", mass=0.5, drag_area=0.01),
        initial=dict(angle_from_gravity_deg=25.0),
        solver=dict(method="generalized_alpha", dt=5e-4, duration=2.0, output_interval=0.01),
    )
    if side == "end":
        c["start"], c["end"] = dict(type="free", mass=0.5, drag_area=0.01), dict(
            type="winch", position=[0.0, 0.0, 0.0], payout=dict(speed=0.4))
        c["initial"] = dict(shape="points", points=[[1.2, 0.0, -2.7], [0.0, 0.0, 0.0]])
    model = build_model(load_case(c))
    nq = model.n_q
    ns = model.data.n_nodes
    assert ns == model.n_nodes + 1  # the winch's pseudo-node
    t = 0.37
    y = np.ascontiguousarray(model.initial_state(), dtype=float).copy()
    n = 7
    rng = np.random.default_rng(1)
    y[:3 * n] += 0.01 * rng.standard_normal(3 * n)
    y[nq:nq + 3 * n] += 0.3 * rng.standard_normal(3 * n)
    model.enforce(t, y, model.data)
    dydt, F, M, a, held = second_order_surface(model, t, y)
    assert held[3 * n:].all()  # dead rows and the pseudo-node
    free = ~held
    np.testing.assert_allclose(M, M.T)
    assert np.all(np.linalg.eigvalsh(M) > 0)
    np.testing.assert_array_equal(dydt[:3 * n], y[nq:nq + 3 * n])
    np.testing.assert_allclose(dydt[nq:][held], a[held], rtol=1e-12, atol=1e-14)
    qdd = np.linalg.solve(M[np.ix_(free, free)], F[free] - M[np.ix_(free, held)] @ a[held])
    np.testing.assert_allclose(dydt[nq:][free], qdd, rtol=1e-9,
                               atol=1e-9 * (np.abs(qdd).max() + 1))
