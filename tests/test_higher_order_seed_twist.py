"""``model.twist: seed_b13``: the total twist by seed 004 App. B's estimator
(src/tetherdyn/models/twist.py) against geometry we know and against parallel transport."""

from __future__ import annotations

import math

import numpy as np
import pytest
from test_higher_order import _roll_case, _twist_of

import tetherdyn
from tetherdyn.case import CaseError, load_case
from tetherdyn.models import build_model
from tetherdyn.models.higher_order import TWIST_B13, TWIST_BOTH
from tetherdyn.models.twist import M_ALPHA0, M_ALPHA_STAR, M_BRANCH, element_torsion


def _both(case: dict) -> tuple[float, float, np.ndarray]:
    """Θ [rad] by parallel transport and by App. B at the initial state, and App. B's terms."""
    out = []
    for twist in ("parallel_transport", "seed_b13"):
        case["model"]["twist"] = twist
        model = build_model(load_case(case))
        out.append(_twist_of(model, model.initial_state()))
    return out[0], out[1], model.data.tw[4:].copy()


def _helix_case(N: int) -> dict:
    # ~1.2 turns of a helix of radius 0.12 m and pitch 0.35 m, arc length 1 m, both rolls 0
    s = np.linspace(0.0, 1.0, N + 1)
    a, p = 0.12, 0.35
    k = 1.0 / math.hypot(2 * math.pi * a, p)
    ph = 2 * math.pi * k * s
    pts = np.column_stack([a * np.cos(ph), a * np.sin(ph), p * k * s])
    return _roll_case(N=N, start=dict(type="fixed", position=pts[0].tolist(), roll_deg=0.0),
                      points=pts, end=dict(type="fixed", position=pts[-1].tolist(),
                                           roll_deg=0.0))


def test_bad_twist_value_names_the_key():
    c = _roll_case()
    c["model"]["twist"] = "frenet"
    with pytest.raises(CaseError, match="model.twist: must be one of parallel_transport, "
                                        "seed_b13"):
        load_case(c)


def test_option_selects_the_estimator_only_with_two_roll_holding_ends():
    c = _roll_case()
    assert build_model(load_case(c)).twist_mode == TWIST_BOTH  # default: parallel transport
    c["model"]["twist"] = "seed_b13"
    assert build_model(load_case(c)).twist_mode == TWIST_B13


def test_straight_tether_twist_is_the_roll_difference():
    # App. B.1: a straight tether keeps one Frenet orientation; (B.13) with γ = 0 is
    # α^(0) + Δφ, so Θ = Δφ exactly, turns included (the rolls are the tracked φ of B.15)
    for roll in (30.0, -170.0, 400.0):
        pt, b13, _ = _both(_roll_case(end=dict(type="fixed", position=[1, 0, 0],
                                               roll_deg=roll)))
        assert b13 == pytest.approx(math.radians(roll), abs=1e-12)
        assert pt == pytest.approx(b13, abs=1e-12)


def test_planar_inflection_is_resolved_by_the_estimator():
    # App. B.2 / Fig. B.2: across the S-shape's inflection n̂ flips, so the observed α^(N)*
    # is π away from α^(0); (B.13) picks the branch that gives no artificial twist (Θ = 0)
    s = np.linspace(0.0, 1.0, 9)
    pts = np.column_stack([s, 0.1 * np.sin(2 * np.pi * s), 0 * s])
    pt, b13, mem = _both(_roll_case(points=pts, end=dict(type="fixed",
                                                         position=pts[-1].tolist(),
                                                         roll_deg=0.0)))
    assert abs(b13) < 1e-12 and abs(pt) < 1e-12
    flip = (mem[M_ALPHA_STAR] - mem[M_ALPHA0]) % (2 * math.pi)
    assert flip == pytest.approx(math.pi, abs=1e-9)
    assert mem[M_BRANCH] != 0.0


def test_element_torsion_of_a_circular_helix():
    # (4.24) at the midpoints of the spline through a helix: the interior elements give the
    # helix's torsion to the spline's accuracy
    N = 32
    model = build_model(load_case(_helix_case(N)))
    y = model.initial_state()
    F = np.zeros(model.n_q)
    model.force(0.0, y, F, model.data)
    d = model.data
    c = 0.35 / (2 * math.pi)  # rise per radian [m]
    exact = c / (0.12**2 + c**2)  # torsion of the helix (a cos u, a sin u, c u): 3.18 1/m
    mid = [element_torsion(d.pos, d.r2, e, e + 1, d.elem[e, 0]) for e in range(12, 20)]
    assert np.allclose(mid, exact, rtol=7e-3)


def test_helix_twist_differs_from_transport_by_the_neglected_term():
    # On ~1.2 turns of a helix the term (B.13) neglects, −∫ψ' sin θ ds = 2π·1.2·0.42 ≈ 3.2
    # rad, exceeds TOL_α = π/2: the estimator picks the branch π below the geometric twist.
    # What is left is the midpoint rule Σγ_i L_u against ∫γ ds: 0.24, 0.050, 0.0086 rad at
    # N = 8, 16, 32 (second order).
    gaps = []
    for N in (8, 16, 32):
        pt, b13, _ = _both(_helix_case(N))
        assert pt > 2.9  # the transported twist: close to π on the spline of this helix
        gaps.append(b13 - (pt - math.pi))
    assert abs(gaps[2]) < 0.02
    assert abs(gaps[0]) > abs(gaps[1]) > abs(gaps[2])


@pytest.mark.parametrize("seed", range(6))
def test_twist_stays_within_a_quarter_turn_of_the_roll_difference(seed):
    # Θ = Δφ + (α^(N) − α̃^(N)) exactly, and (B.16) keeps |α^(N) − α̃^(N)| ≤ π/2: whatever
    # the shape, App. B's twist is within π/2 of the ends' roll difference
    rng = np.random.default_rng(seed)
    N = 10
    steps = rng.normal(size=(N, 3))
    steps /= np.linalg.norm(steps, axis=1)[:, None]
    steps = np.cumsum(0.6 * steps + np.array([1.0, 0.0, 0.0]), axis=0)
    pts = np.vstack([[0.0, 0.0, 0.0], steps])
    seg = np.linalg.norm(np.diff(pts, axis=0), axis=1)
    pts *= 1.0 / seg.sum()
    r0, r1 = rng.uniform(-200.0, 200.0, 2)
    c = _roll_case(N=N, points=pts, start=dict(type="fixed", roll_deg=float(r0)),
                   end=dict(type="fixed", position=pts[-1].tolist(), roll_deg=float(r1)))
    _, b13, _ = _both(c)
    assert abs(b13 - math.radians(r1 - r0)) <= math.pi / 2 + 1e-12


def test_rolling_end_twist_follows_the_tracked_roll():
    # A prescribed end rolling 2.5 turns over 1 s (roll_deg column, the φ^(N) of B.15 with
    # its revolutions tracked) on a straight tether: τ = Δφ / L_TOT, ending at 5π
    t = np.linspace(0.0, 1.0, 11)
    traj = dict(t=t.tolist(), x=[1.0] * 11, y=[0.0] * 11, z=[0.0] * 11,
                roll_deg=(900.0 * t).tolist())
    c = _roll_case(end=dict(type="prescribed", trajectory=traj))
    c["model"]["twist"] = "seed_b13"
    c["solver"].update(duration=1.0, output_interval=0.05, dt=1e-4)
    c["tether"]["EI"] = 0.05
    ds = tetherdyn.simulate(c, progress=False)
    tw = ds.twist.isel(element=0).values
    assert tw[-1] == pytest.approx(5 * math.pi, rel=1e-6)
    assert np.all(np.diff(tw) > 0)
