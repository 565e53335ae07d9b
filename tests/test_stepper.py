"""The stepping contract (integrate/stepper.py) and Model / Data (models/base.py): chunked
runs are one run, two runs of one built model do not see each other, the model's constants
are frozen and a run leaves the model alone, failures come back as named statuses.
All "self" checks (our code against our code): they pin structure, not physics."""

from __future__ import annotations

import numpy as np
import pytest

from tetherdyn.case import load_case
from tetherdyn.integrate import (
    SimulationError,
    Status,
    StepperOptions,
    integrate,
    make_stepper,
    output_times,
)
from tetherdyn.models import build_model
from tetherdyn.models.base import RunData

METHODS = ["rk4", "rk45", "generalized_alpha"]


def _setup(small_case, method, **changes):
    case = load_case(small_case({"solver.method": method, **changes},
                                start={"type": "fixed", "position": [0.0, 0.0, 0.0]}))
    model = build_model(case)
    return case, model, StepperOptions.from_case(case)


@pytest.mark.parametrize("method", METHODS)
def test_chunked_advance_is_one_run_and_integrate_drives_it(small_case, method):
    case, model, opt = _setup(small_case, method)
    times = output_times(0.2, 0.01)
    ref = integrate(model, method, opt.dt, 0.2, 0.01, rtol=opt.rtol, atol=opt.atol,
                    progress=False)
    st = make_stepper(method, model, None, model.initial_state(), 0.0, opt)
    Y = np.empty((times.size, st.y.size))
    Y[0] = st.y
    for j in range(1, times.size, 3):  # uneven chunks of 3 outputs and one at the end
        st.advance(times[j:j + 3], Y[j:])
    assert np.array_equal(Y, ref.states)
    assert st.status is Status.OK and st.t == times[-1]
    assert st.steps == ref.steps
    # rk45 re-evaluates its first-same-as-last stage at each call's start (the same numbers)
    calls = len(range(1, times.size, 3))
    extra = st.rhs_evaluations - ref.rhs_evaluations
    assert extra == 0 if method != "rk45" else 0 <= extra <= calls
    if method == "generalized_alpha":
        assert st.jacobians == ref.stats["jacobians"] > 0
        assert st.newton_iterations == ref.stats["newton_iterations"] > 0


def test_generalized_alpha_starts_from_the_rhs_acceleration(small_case):
    # a(t0) is taken from rhs inside the compiled loop's first call (implicit.py S_START)
    case, model, opt = _setup(small_case, "generalized_alpha")
    st = make_stepper("generalized_alpha", model, None, model.initial_state(), 0.0, opt)
    a0 = st.acceleration.copy()
    dydt = np.zeros(st.y.size)
    model.rhs(0.0, st.y, dydt, st.data.args)
    assert np.array_equal(a0, dydt[model.n_q:]) and np.any(a0 != 0.0)


@pytest.mark.parametrize("method", METHODS)
def test_save_restore_is_bit_identical(small_case, method):
    case, model, opt = _setup(small_case, method)
    a = make_stepper(method, model, None, model.initial_state(), 0.0, opt)
    Y = np.empty((20, a.y.size))
    a.advance(np.arange(1, 6) * 0.01, Y)
    saved = a.save()
    a.advance(np.arange(6, 16) * 0.01, Y)
    first = Y[:10].copy()
    b = make_stepper(method, build_model(case), None, model.initial_state(), 0.0, opt)
    b.restore(saved)
    b.advance(np.arange(6, 16) * 0.01, Y)
    assert np.array_equal(first, Y[:10])
    assert b.rhs_evaluations == a.rhs_evaluations


@pytest.mark.parametrize("method", METHODS)
def test_two_runs_of_one_model_do_not_see_each_other(small_case, method):
    """One run's start follows a host segment (RunData.set_end_motion), the other the
    case's fixed point; interleaved, each gives what it gives alone."""
    case, model, opt = _setup(small_case, method)
    times = np.arange(1, 11) * 0.01

    def start(moved: bool):
        data = RunData(model)
        if moved:  # a straight line at 0.2 m/s along x from t = 0
            data.set_end_motion("start", np.array([0.0, np.inf]),
                                np.array([[[0, 0, 0.2, 0], [0, 0, 0, 0], [0, 0, 0, 0]]],
                                         dtype=float))
        return make_stepper(method, model, data, model.initial_state(), 0.0, opt)

    alone = []
    for moved in (True, False):
        st = start(moved)
        Y = np.empty((times.size, st.y.size))
        st.advance(times, Y)
        alone.append(Y)
    assert not np.array_equal(alone[0], alone[1])
    a, b = start(True), start(False)
    Ya, Yb = np.empty_like(alone[0]), np.empty_like(alone[1])
    for j in range(times.size):
        a.advance(times[j:j + 1], Ya[j:])
        b.advance(times[j:j + 1], Yb[j:])
    assert np.array_equal(Ya, alone[0]) and np.array_equal(Yb, alone[1])


def test_model_constants_are_frozen_and_runs_leave_the_model_alone(small_case):
    case, model, opt = _setup(small_case, "rk4")
    d = model.data
    with pytest.raises(ValueError, match="read-only"):
        d.scal[0] = 1.0
    fresh = model.make_data()
    assert fresh.scal is d.scal and fresh.elem is not d.elem and fresh.pos is not d.pos
    assert fresh.breaks0 is not d.breaks0
    before = {k: np.array(v, copy=True) for k, v in d._asdict().items()
              if isinstance(v, np.ndarray)}
    integrate(model, "rk4", opt.dt, 0.05, 0.01, progress=False)
    assert all(np.array_equal(v, getattr(d, k)) for k, v in before.items())


def test_failures_are_named_statuses(small_case):
    case, model, opt = _setup(small_case, "rk45")
    st = make_stepper("rk45", model, None, model.initial_state(), 0.0,
                      StepperOptions(dt=opt.dt, rtol=1e-12, atol=1e-14, max_steps=5))
    Y = np.empty((1, st.y.size))
    with pytest.raises(SimulationError, match="rk45 reached solver.max_steps"):
        st.advance(np.array([0.1]), Y)
    assert st.status is Status.MAX_STEPS and st.failed_at[0] > 0.0
    with pytest.raises(SimulationError):  # a failed run stays failed
        st.advance(np.array([0.2]), Y)
    with pytest.raises(ValueError, match="unknown method"):
        make_stepper("euler", model, None, model.initial_state(), 0.0, opt)
