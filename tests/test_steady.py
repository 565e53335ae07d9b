"""tetherdyn.steady: chunked continuation and steady-state extraction."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tetherdyn.case import load_case
from tetherdyn.integrate import integrate
from tetherdyn.models import build_model
from tetherdyn.steady import Continuation, NotSettledError, settle
from validation.seed004_towing import (
    VP_LENGTH,
    chord_angle,
    constant_tow,
    straight_tow_angle,
    straight_tow_tension,
    straightness,
    towed_case,
)

SPEED = 1.286  # seed 004 §2.3.1's cruising speed [m/s]


def _tow(until: float, method: str = "rk4", **kw) -> dict:
    """300 m of the HA cable on six elements, hanging straight down at rest at t = 0 and
    towed along +x at constant speed from then on."""
    return towed_case(VP_LENGTH, 6, constant_tow(SPEED, until), body=False, method=method,
                      initial=dict(shape="straight", direction=[0.0, 0.0, -1.0]), **kw)


def test_towed_cable_settles_to_the_straight_line():
    # started hanging vertically at rest, the towed cable must settle on the straight line
    # w cos(phi) = 1/2 rho d C_D U^2 f_p(phi) with tow tension L (w sin(phi) + D_t)
    st = settle(_tow(3000.0), frame="towed", time_limit=3000.0, window=60.0, chunk=30.0,
                force_rtol=1e-5, force_atol=0.05, position_tol=0.002)
    phi = straight_tow_angle(SPEED)
    # the discrete straight tow is exactly straight; the settling tolerance (2 mm over 60 s
    # on 300 m) bounds the remaining creep: 0.01 degree, 1 cm
    assert math.degrees(chord_angle(st.position)) == pytest.approx(math.degrees(phi),
                                                                   abs=0.01)
    assert straightness(st.position) < 0.01
    # holder force = L (w sin(phi) + D_t) up to the strain (~1e-4) in the drag length
    assert st.tow_off_tension == pytest.approx(straight_tow_tension(SPEED, VP_LENGTH),
                                               rel=5e-4)
    assert st.body_depth == pytest.approx(VP_LENGTH * math.sin(phi), rel=1e-3)
    assert st.body_radius is None
    assert set(st.variation) == {"start_force", "end_force", "body_x", "body_y", "body_z"}
    assert 200.0 < st.time < 3000.0


@pytest.mark.parametrize("method", ["rk4", "rk45"])
def test_continuation_in_chunks_is_one_run(method):
    # the continuation keeps the integrator's own state between chunks, so advancing
    # 3 x 2 s gives the same states as one 6 s integrate call (rk4: bit for bit; rk45:
    # the same steps, since the chunk ends are output instants of both runs)
    case = load_case(_tow(10.0, method=method, dt=0.01, output_interval=0.5))
    if method == "rk45":
        case = case.with_changes({"solver.rtol": 1e-8, "solver.atol": 1e-8})
    model = build_model(case)
    ref = integrate(model, case.method, case.solver.dt, 6.0, 0.5, rtol=case.solver.rtol,
                    atol=case.solver.atol)
    run = Continuation(case)
    parts = [run.advance(2.0, 0.5) for _ in range(3)]
    times = np.concatenate([p[0] for p in parts])
    states = np.concatenate([p[1] for p in parts])
    np.testing.assert_allclose(times, ref.times[1:], rtol=0, atol=1e-12)
    np.testing.assert_array_equal(states, ref.states[1:])
    assert run.t == pytest.approx(6.0)


def test_not_settled_names_the_moving_signals():
    with pytest.raises(NotSettledError, match="start_force varies by"):
        settle(_tow(100.0), frame="towed", time_limit=100.0, window=20.0)


def test_trajectory_must_cover_the_time_limit():
    with pytest.raises(ValueError, match="start.trajectory: ends at 50 s"):
        settle(_tow(50.0), time_limit=100.0)
    with pytest.raises(ValueError, match="frame"):
        settle(_tow(100.0), frame="rotating", time_limit=100.0)


def test_continuation_from_a_given_state_and_time():
    # a run continued from (t0, y0) of another run reproduces that run's later states
    case = _tow(30.0, dt=0.01, output_interval=0.5)
    a = Continuation(case)
    t1, Y1 = a.advance(10.0, 0.5)
    b = Continuation(case, y0=Y1[9], t0=float(t1[9]))  # from t = 5 s
    t2, Y2 = b.advance(5.0, 0.5)
    np.testing.assert_allclose(t2, t1[10:], atol=1e-12)
    np.testing.assert_allclose(Y2, Y1[10:], rtol=0, atol=1e-9)
