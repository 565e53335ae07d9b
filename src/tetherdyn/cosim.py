"""Step API for co-simulation: a host (ROV, vessel, kite or robot model) advances its own
state and, every step, imposes the motion of the tether's held ends and reads back the
forces the tether exerts on them.

>>> sim = Simulator("examples/towed_cable.yaml")
>>> f_start, f_end = sim.step(0.01, start=(p, v))   # p, v: start position/velocity at t+dt

Each driven end moves over the step on the cubic Hermite curve from its position and
velocity at the start of the step to the ones the host gives for its end (or on a straight
line when the host gives only a position), so the tether sees a C1 motion across steps.
The step runs the case's integrator (rk4 with ``solver.dt``, rk45 with its tolerances, or
generalized-α) in one compiled call into preallocated arrays: no allocation per step.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from ._jit import kernel
from .boundary import eval_motion
from .case import Case, load_case
from .integrate import StepperOptions, make_stepper
from .models import build_model
from .start import initial_state
from .winch import W_LMIN, W_LNOM

__all__ = ["Simulator"]

_ENDS = ("start", "end")


@kernel
def _next_segment(breaks, coeffs, t0, t1, p1, v1, hermite, motion):
    """Rewrite a driven end's one-segment motion for [t0, t1]: from its state at t0 on the
    current segment to (p1, v1) at t1 — a cubic Hermite, or a line when not ``hermite``."""
    eval_motion(breaks, coeffs, t0, motion)
    h = t1 - t0
    breaks[0] = t0
    for a in range(3):
        p0 = motion[0, a]
        v0 = motion[1, a]
        coeffs[0, a, 3] = p0
        if hermite:
            coeffs[0, a, 2] = v0
            coeffs[0, a, 1] = (3.0 * (p1[a] - p0) / h - 2.0 * v0 - v1[a]) / h
            coeffs[0, a, 0] = (2.0 * (p0 - p1[a]) / h + v0 + v1[a]) / (h * h)
        else:
            coeffs[0, a, 2] = (p1[a] - p0) / h
            coeffs[0, a, 1] = 0.0
            coeffs[0, a, 0] = 0.0


class SteppedRun:
    """What every host-stepped run shares (:class:`Simulator`, and
    system_cosim.SystemSimulator): the case's stepper and its state vector, the check of a
    host step's ``dt`` and the advance to t + dt. A subclass sets ``case``, ``method``,
    ``t`` and ``_stepper`` (and the arrays of :meth:`_start`) and defines
    ``_update_forces``."""

    case: Any
    method: str
    t: float
    _stepper: Any

    def _start(self) -> None:
        """The arrays every step reuses (one output instant)."""
        self._Y = np.empty((1, self.y.size))
        self._times = np.zeros(1)
        self._motion = np.zeros((3, 3))

    # -- state ------------------------------------------------------------------------
    @property
    def y(self) -> np.ndarray:
        """The model's state vector (the stepper's own array; its layout: the model's
        docs)."""
        return self._stepper.y

    @property
    def state(self) -> np.ndarray:
        """The model's state vector (a copy)."""
        return self.y.copy()

    @property
    def rhs_evaluations(self) -> int:
        """rhs evaluations so far (generalized_alpha: force evaluations)."""
        return self._stepper.rhs_evaluations

    @property
    def stepper(self):
        """The :class:`~tetherdyn.integrate.Stepper` running the steps."""
        return self._stepper

    # -- stepping ---------------------------------------------------------------------
    @staticmethod
    def _host_target(key: str, target: Any, size: int
                     ) -> tuple[np.ndarray, np.ndarray, bool]:
        """A host's target for the step's end: (value (size,), rate (size,), whether the
        rate was given: a Hermite segment, else a straight one), or a ValueError naming
        ``key``."""
        if isinstance(target, tuple | list) and len(target) == 2 and np.ndim(target[0]) == 1:
            p1 = np.asarray(target[0], dtype=float)
            v1 = np.asarray(target[1], dtype=float)
            hermite = True
        else:
            p1 = np.asarray(target, dtype=float)
            v1 = np.zeros(size)
            hermite = False
        what = "pose" if size == 6 else "position"
        if p1.shape != (size,) or v1.shape != (size,) or not (
                np.all(np.isfinite(p1)) and np.all(np.isfinite(v1))):
            raise ValueError(f"{key}: give a finite {what} ({size},) or ({what} ({size},), "
                             f"velocity ({size},))")
        return p1, v1, hermite

    def _step_end(self, dt: float) -> float:
        """t + dt for a host step of ``dt`` [s], or a ValueError: rk4 needs a whole number
        of its ``solver.dt``, every method dt > 0."""
        if self.method == "rk4":
            n = dt / self.case.solver.dt
            steps = int(round(n))
            if steps < 1 or abs(n - steps) > 1e-9 * max(1.0, n):
                raise ValueError(f"dt = {dt:g} s must be a whole multiple of solver.dt = "
                                 f"{self.case.solver.dt:g} s (rk4)")
        elif not dt > 0.0:
            raise ValueError(f"dt = {dt:g} s must be > 0")
        return self.t + dt

    def _advance(self, t1: float) -> None:
        """Run the stepper to ``t1`` and update the forces there."""
        if self.method == "rk4":
            self._stepper.rebase()  # each host step on its own grid from its start
        self._times[0] = t1
        self._stepper.advance(self._times, self._Y)
        self.t = t1
        self._update_forces()

    # -- save / restore ---------------------------------------------------------------
    def _saved(self) -> dict[str, Any]:
        """The subclass's own host state for :meth:`save` (arrays by key)."""
        return {}

    def _restored(self, data: dict[str, np.ndarray]) -> None:
        """Take back what :meth:`_saved` gave."""

    @staticmethod
    def _case_from(text: str, base_dir: str) -> Any:  # pragma: no cover - interface
        raise NotImplementedError

    def save(self, path: str | Path) -> Path:
        """Write the run's state (time, the stepper's full state with its run data: state
        vector, integrator state, the host's driven segments and schedules, and the case)
        to an ``.npz`` file; :meth:`load` continues it bit for bit."""
        path = Path(path)
        arrays: dict[str, Any] = dict(t=np.array(self.t), case=np.array(self.case.to_yaml()),
                                      base_dir=np.array(str(self.case.base_dir)),
                                      driven=np.array(sorted(self._driven), dtype=str))
        arrays.update(self._saved())
        arrays.update(self._stepper.save())
        with path.open("wb") as fh:
            np.savez(fh, **arrays)
        return path

    @classmethod
    def load(cls, path: str | Path):
        """A run of this class continuing the one saved by :meth:`save`."""
        with np.load(Path(path), allow_pickle=False) as f:
            data = {k: f[k] for k in f.files}
        sim = cls(cls._case_from(str(data["case"]), str(data["base_dir"])))
        sim._stepper.restore(data)
        sim.t = float(data["t"])
        sim._driven = {str(w) for w in data["driven"]}
        sim._restored(data)
        sim._update_forces()
        return sim


class Simulator(SteppedRun):
    """A tether advanced step by step by a host program.

    ``case``: a Case, case dict or YAML path. Ends that are ``fixed`` or ``prescribed`` in
    the case can be driven by the host (``step(start=..., end=...)``); an end the host
    never drives keeps the case's motion. Free ends stay free. Any of the case's methods
    (rk4, rk45, generalized_alpha) runs the steps: the Simulator drives the case's
    :class:`~tetherdyn.integrate.Stepper` with its own run data (``data``: a
    :class:`~tetherdyn.models.base.RunData`, so two Simulators of one model never see each
    other), and a host-driven end's held coordinates come from the host's segment in
    every stage or Newton iteration alike.
    """

    def __init__(self, case: Case | dict | str | Path) -> None:
        self.case = load_case(case)
        self.method = self.case.method
        self.model = build_model(self.case)
        self.t = 0.0
        #: how the run started (start.initial_state: ``shape: equilibrium``'s static solve)
        self.initial = initial_state(self.model)
        self.data = self.initial.data(self.model)
        self._stepper = make_stepper(self.method, self.model, self.data, self.initial.y, 0.0,
                                     StepperOptions.from_case(self.case))
        self._start()
        self._forces = np.zeros((2, 3))
        # ends whose motion the host drives: one segment on [t, inf) in the run data,
        # rewritten every step
        self._driven: set[str] = set()
        # whether the host drives the winch schedule (one segment, likewise)
        self._payout = False
        self._update_forces()

    # -- state ------------------------------------------------------------------------
    def end_state(self, which: str) -> tuple[np.ndarray, np.ndarray] | None:
        """Position [m] and velocity [m/s] of a held end now (None for a free end)."""
        if which in self._driven:
            breaks, coeffs = self.data.end_motion(which)
            eval_motion(breaks, coeffs, self.t, self._motion)
            return self._motion[0].copy(), self._motion[1].copy()
        return self.case.end_state(which, self.t)

    @property
    def forces(self) -> tuple[np.ndarray, np.ndarray]:
        """Forces [N] the tether exerts now on whatever holds its start and its end."""
        return self._forces[0], self._forces[1]

    # -- stepping ---------------------------------------------------------------------
    def step(self, dt: float, start: Any = None, end: Any = None,
             payout_speed: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Advance by ``dt`` [s] with the held ends moved to the given states at t + dt.

        ``start`` / ``end``: a position (3,) [m], or a pair (position, velocity [m/s]).
        ``payout_speed`` [m/s]: a winch end (speed or length schedule) reaches this payout
        speed at t + dt, at a constant acceleration over the step (> 0 pays out).
        Returns the forces [N] the tether exerts on its start and end holders at t + dt
        (arrays reused by the next step: copy them to keep them).
        """
        t1 = self._step_end(dt)
        for which, target in (("start", start), ("end", end)):
            if target is not None:
                self._drive(which, t1, target)
        if payout_speed is not None:
            self._drive_payout(t1, float(payout_speed))
        self._advance(t1)
        return self._forces[0], self._forces[1]

    def _drive(self, which: str, t1: float, target: Any) -> None:
        if which not in self._driven:
            if getattr(self.case, which).type == "free":
                raise ValueError(f"{which}: the case's {which} end is free; make it fixed or "
                                 "prescribed to drive it from the host")
            # start from the case's motion: a segment that holds its state at t
            breaks = np.array([self.t, math.inf])
            coeffs = np.zeros((1, 3, 4))
            p, v = self.case.end_state(which, self.t)
            coeffs[0, :, 3] = p
            coeffs[0, :, 2] = v
            self.data.set_end_motion(which, breaks, coeffs)
            self._driven.add(which)
        breaks, coeffs = self.data.end_motion(which)
        p1, v1, hermite = self._host_target(which, target, 3)
        _next_segment(breaks, coeffs, self.t, t1, p1, v1, hermite, self._motion)

    def _drive_payout(self, t1: float, speed: float) -> None:
        """Rewrite the winch's schedule on [t, ∞): from its length and speed at t to
        ``speed`` at t1 at a constant acceleration, then on at that speed."""
        side = self.case.winch_side
        if side is None or self.case.payout_schedule is None:
            raise ValueError("payout_speed: needs a winch end with a speed or length schedule "
                             "(a tension-controlled winch sets its own speed)")
        w = self.data.winch
        if not self._payout:
            breaks, coeffs = np.array([self.t, math.inf]), np.zeros((1, 3, 4))
            motion = self.case.payout_schedule
            coeffs[0, 0, 3], coeffs[0, 0, 2] = (x[0] for x in motion.evaluate(self.t)[:2])
            self.data.set_payout(breaks, coeffs)
            self._payout = True
        breaks, coeffs = self.data.payout()
        eval_motion(breaks, coeffs, self.t, self._motion)
        ell, v0 = self._motion[0, 0], self._motion[1, 0]
        h = t1 - self.t
        ell1 = ell + 0.5 * (v0 + speed) * h
        L_nom = w[W_LNOM]
        longest = (self.model.n_nodes - 3) * L_nom
        if not w[W_LMIN] - 1e-12 <= ell1 <= longest + 1e-12:
            raise ValueError(
                f"payout_speed: {speed:g} m/s would take the deployed length to {ell1:.6g} m "
                f"at t = {t1:.6g} s, outside [{w[W_LMIN]:.6g}, {longest:.6g}] m (the case's "
                f"{side}.payout.min_length / max_length set these limits)")
        breaks[0] = self.t
        coeffs[0, 0, :] = ((0.0, 0.5 * (speed - v0) / h, v0, ell))

    def _update_forces(self) -> None:
        self.model.end_forces(self.t, self.y, self._forces, self.data.args)

    # -- save / restore (SteppedRun.save / load) --------------------------------------
    def _saved(self) -> dict[str, Any]:
        return {"payout": np.array(self._payout)}

    def _restored(self, data: dict[str, np.ndarray]) -> None:
        self._driven &= set(_ENDS)
        self._payout = bool(data["payout"])

    @staticmethod
    def _case_from(text: str, base_dir: str) -> Case:
        return load_case(text, base_dir=base_dir)
