"""Steady-state extraction: run a case until its end forces (and, if asked, the free end's
position in a towed or turning frame) stop changing, then report the settled state.

Seed 004 §2.3.2 extracts Chapman's steady-turn quantities by holding each turn "until the
towed cable and depressor settle to a new equilibrium state"; §2.3.1 starts its tows from a
settled straight tow. :func:`settle` does this generically:

* the run advances in chunks with :class:`Continuation`, which keeps the integrator's own
  state between chunks (rk4 step count, rk45 step size, generalized-α acceleration), so a
  chunked run is the same run as one long call;
* after each chunk the monitored signals over the last ``window`` seconds are compared:
  the magnitudes of the forces on the start and end holders [N] (their directions rotate in
  a steady turn, their magnitudes do not), and optionally the free end's radius about a turn
  centre and its depth [m] (``centre=``) or its position relative to the start node
  (``frame="towed"``, a straight tow);
* settled when every signal's range over the window is within its tolerance; a
  :class:`NotSettledError` names the signals still moving when ``time_limit`` is reached.

>>> st = settle(case, centre=(0.0, 71.4), time_limit=3000.0)
>>> st.tow_off_tension, st.body_depth, st.body_radius
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .case import Case, load_case
from .integrate import SimulationError, StepperOptions, make_stepper
from .models import build_model
from .models.base import Formulation, RunData

__all__ = ["Continuation", "SteadyState", "NotSettledError", "settle"]


class NotSettledError(SimulationError):
    """The run did not settle within the time limit; the message names what still moves."""


class Continuation:
    """A run that can be continued: ``advance(duration, output_interval)`` integrates from
    the current time and state with the case's method and step and returns the outputs.
    It drives the case's :class:`~tetherdyn.integrate.Stepper` (``stepper``), whose run
    data (``data``) the outputs are evaluated with.

    ``y0``: a starting state vector (the model's layout) instead of the case's initial
    shape, at time ``t0`` [s]; held ends are overwritten with the case's motion at ``t0``.
    ``run_arrays``: run fields for the run data (``RunData.restore``), e.g. the statics'
    friction anchors. A case with ``initial.shape: equilibrium`` needs both from
    ``tetherdyn.start.initial_state(model, t0)`` (its ``y`` and ``run_arrays``): statics
    settles towed cases with this class, so steady sits below start.py and cannot call it
    (tests/test_imports.py).
    """

    def __init__(self, case: Case | dict | str | Path, y0: np.ndarray | None = None,
                 t0: float = 0.0, run_arrays: dict | None = None) -> None:
        self.case = load_case(case)
        self.model: Formulation = build_model(self.case)
        m = self.model
        self.method = self.case.method
        self.dt = self.case.solver.dt
        if y0 is None:
            if self.case.initial.shape == "equilibrium":
                raise ValueError("initial.shape: equilibrium needs the static solve: pass "
                                 "y0 and run_arrays of "
                                 "tetherdyn.start.initial_state(model, t0)")
            y0 = m.initial_state()
        data = None
        if run_arrays:
            data = RunData(m)
            data.restore(run_arrays)
        self.stepper = make_stepper(self.method, m, data, y0, t0,
                                    StepperOptions.from_case(self.case))

    @property
    def t(self) -> float:
        """The current time [s] (the stepper's)."""
        return self.stepper.t

    @property
    def y(self) -> np.ndarray:
        """The current state (the stepper's array)."""
        return self.stepper.y

    @property
    def data(self) -> RunData:
        """The run's data."""
        return self.stepper.data

    def advance(self, duration: float, output_interval: float
                ) -> tuple[np.ndarray, np.ndarray]:
        """Integrate ``duration`` [s] further; returns the output times [s] (excluding the
        current time) every ``output_interval`` [s] and the states there (n, n_state).

        rk4 and fixed-step generalized-α need ``output_interval`` to be a whole multiple of
        ``solver.dt``. Raises :class:`SimulationError` on blow-up."""
        n_out = int(math.floor(duration / output_interval + 1e-9))
        if n_out < 1:
            raise ValueError("duration must be at least one output_interval")
        Y = np.empty((n_out, self.y.size))
        st = self.stepper
        if self.method == "rk4":
            spo = int(round(output_interval / self.dt))
            if spo < 1 or abs(output_interval / self.dt - spo) > 1e-9 * spo:
                raise ValueError(f"output_interval {output_interval:g} s must be a whole "
                                 f"multiple of solver.dt = {self.dt:g} s (rk4)")
            # on rk4's step grid (times are origin + steps * dt, no drift)
            times = st.origin + self.dt * (st.grid_steps + spo * np.arange(1, n_out + 1))
        else:
            times = self.t + output_interval * np.arange(1, n_out + 1)
        st.advance(times, Y)
        return times, Y


@dataclass
class SteadyState:
    """A settled run. Forces [N], positions [m], times [s]."""

    time: float  # when it was declared settled
    state: np.ndarray  # the state vector then (model layout)
    position: np.ndarray  # (n_nodes, 3) node positions
    velocity: np.ndarray  # (n_nodes, 3) node velocities [m/s]
    tension: np.ndarray  # element (or node, per model) tension [N]
    start_force: np.ndarray  # force on the start holder (3,)
    end_force: np.ndarray  # force on the end holder or body (3,)
    tow_off_tension: float  # |start_force|: the tension the towpoint feels
    first_element_tension: float  # tension of the first element (seed 004 §2.3.2's value)
    body_depth: float  # free end below the start node along gravity
    body_radius: float | None  # free end's horizontal distance from the turn centre
    history: dict = field(default_factory=dict)  # monitored signals: name -> (times, values)
    variation: dict = field(default_factory=dict)  # each signal's range over the last window
    continuation: Continuation | None = None  # to run on from the settled state

    @property
    def body_position(self) -> np.ndarray:
        """The last node's position [m]."""
        return self.position[-1]


def _down(case: Case) -> np.ndarray:
    g = np.asarray(case.environment.gravity, dtype=float)
    n = np.linalg.norm(g)
    return g / n if n > 0 else np.array([0.0, 0.0, -1.0])


def _signals(case: Case, model: Formulation, data: RunData, times: np.ndarray, Y: np.ndarray,
             centre, frame: str | None) -> tuple[dict[str, np.ndarray], dict]:
    out = model.outputs(times, Y, data.args)
    pos = np.asarray(out["position"])
    down = _down(case)
    rel = pos[:, -1, :] - pos[:, 0, :]
    sig = {"start_force": np.linalg.norm(out["start_force"], axis=1),
           "end_force": np.linalg.norm(out["end_force"], axis=1)}
    if centre is not None:
        c = np.zeros(3)
        c[:len(centre)] = centre
        d = pos[:, -1, :] - c[None, :]
        horiz = d - np.outer(d @ down, down)
        sig["body_radius"] = np.linalg.norm(horiz, axis=1)
        sig["body_depth"] = rel @ down
    if frame == "towed":
        for a, name in enumerate("xyz"):
            sig[f"body_{name}"] = rel[:, a]
    return sig, out


def settle(case: Case | dict | str | Path | Continuation, *, y0: np.ndarray | None = None,
           t0: float = 0.0, centre=None, frame: str | None = None,
           force_rtol: float = 1e-3, force_atol: float = 1.0, position_tol: float = 0.05,
           window: float = 20.0, chunk: float | None = None, sample_interval: float | None = None,
           time_limit: float = 2000.0, min_time: float = 0.0, record: bool = False
           ) -> SteadyState:
    """Run ``case`` until it settles; returns the :class:`SteadyState`.

    Settled: over the last ``window`` [s], the range (max − min) of the start and end
    holder force magnitudes is ≤ ``force_rtol`` · mean + ``force_atol`` [N], and of each
    monitored position signal ≤ ``position_tol`` [m]: with ``centre`` (x, y[, z]) [m] the
    free end's horizontal distance from that point and its depth below the start node; with
    ``frame="towed"`` the free end's position relative to the start node. The run goes on in
    chunks of ``chunk`` [s] (default ``window``), sampled every ``sample_interval`` [s]
    (default: ``solver.output_interval``), no earlier than ``min_time`` [s] and at most
    until ``time_limit`` [s], else :class:`NotSettledError`. A :class:`Continuation` may be
    passed instead of a case to continue it. ``record``: keep every sampled state in
    ``history["states"]`` as (times, states).
    """
    if frame not in (None, "towed"):
        raise ValueError("frame must be None or 'towed'")
    run = case if isinstance(case, Continuation) else Continuation(case, y0=y0, t0=t0)
    c = run.case
    for which in ("start", "end"):
        motion = c.end_motion(which)
        if getattr(c, which).type == "prescribed" and motion.breaks[-1] < time_limit - 1e-9:
            raise ValueError(f"{which}.trajectory: ends at {motion.breaks[-1]:g} s, before the "
                             f"time limit {time_limit:g} s (the end would stop there): extend it")
    sample = sample_interval or c.solver.output_interval
    if c.method in ("rk4",) or (c.method == "generalized_alpha" and not c.solver.adaptive):
        sample = max(1, round(sample / c.solver.dt)) * c.solver.dt
    chunk = max(chunk or window, sample)
    hist_t: list[np.ndarray] = []
    hist: dict[str, list[np.ndarray]] = {}
    states: list[np.ndarray] = []
    last_out = None
    variation: dict[str, float] = {}
    settled = False
    while True:
        remaining = time_limit - run.t
        if remaining < sample * 0.5:
            break
        times, Y = run.advance(min(chunk, remaining), sample)
        sig, last_out = _signals(c, run.model, run.data, times, Y, centre, frame)
        hist_t.append(times)
        if record:
            states.append(Y)
        for k, v in sig.items():
            hist.setdefault(k, []).append(v)
        t_all = np.concatenate(hist_t)
        if run.t < min_time or t_all[-1] - t_all[0] < window - 1e-9:
            continue
        sel = t_all >= run.t - window - 1e-9
        ok = True
        for k, parts in hist.items():
            v = np.concatenate(parts)[sel]
            rng = float(v.max() - v.min())
            variation[k] = rng
            tol = (force_rtol * float(np.mean(np.abs(v))) + force_atol if k.endswith("force")
                   else position_tol)
            ok &= rng <= tol
        if ok:
            settled = True
            break
    t_all = np.concatenate(hist_t)
    history = {k: (t_all, np.concatenate(v)) for k, v in hist.items()}
    if record:
        history["states"] = (t_all, np.concatenate(states))
    if not settled:
        moving = ", ".join(f"{k} varies by {v:.4g}" for k, v in variation.items())
        raise NotSettledError(
            f"not settled by the time limit {time_limit:g} s (window {window:g} s: "
            f"{moving or 'no full window run'}); raise time_limit or loosen the tolerances")
    pos = np.asarray(last_out["position"])[-1]
    vel = np.asarray(last_out["velocity"])[-1]
    tension = np.asarray(last_out["tension"])[-1]
    f0 = np.asarray(last_out["start_force"])[-1]
    f1 = np.asarray(last_out["end_force"])[-1]
    down = _down(c)
    radius = None
    if centre is not None:
        cc = np.zeros(3)
        cc[:len(centre)] = centre
        d = pos[-1] - cc
        radius = float(np.linalg.norm(d - (d @ down) * down))
    return SteadyState(
        time=run.t, state=run.y.copy(), position=pos, velocity=vel, tension=tension,
        start_force=f0, end_force=f1, tow_off_tension=float(np.linalg.norm(f0)),
        first_element_tension=float(tension[0]), body_depth=float((pos[-1] - pos[0]) @ down),
        body_radius=radius, history=history, variation=variation, continuation=run)
