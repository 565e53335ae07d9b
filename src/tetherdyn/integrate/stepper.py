"""The one stepping loop: every integrator is a :class:`Stepper` with the same small
contract (the shape of scipy's ``OdeSolver`` and diffrax's ``AbstractSolver``), and
``integrate``, ``steady.Continuation`` and ``cosim.Simulator`` all drive steppers.

Contract
--------
``Stepper(model, data, y0, t0, options)``
    ``model``: a built formulation (models/base.py); ``data``: the run's
    :class:`~tetherdyn.models.base.RunData` (``None``: a fresh one from the model; the
    stepper reads ``data.args`` at every call, so a named setter on it between calls takes
    effect); ``y0``: the starting state (copied); ``t0`` [s]; ``options``:
    :class:`StepperOptions`. The constructor overwrites the held coordinates of ``y0``
    with their motion at ``t0`` (``enforce``) and raises :class:`SimulationError` if the
    state is not sound (``check``).
``advance(t_outputs, Y) -> int``
    Integrate from ``t`` through each instant of ``t_outputs`` (increasing, > ``t``; a
    C-contiguous float64 array), writing the state there into ``Y[j]`` (rows of a
    C-contiguous (≥ n, n_state) array); one call into a compiled loop, no allocation per
    step. Returns the number of rows written (all of them, or it raises). On success
    ``t = t_outputs[-1]`` exactly and ``y`` is the state there; on failure ``status`` is
    not ``OK`` and :meth:`Stepper.error`'s :class:`SimulationError` is raised (``y`` is
    then the state where it failed). An empty ``t_outputs`` compiles the loop and
    changes nothing.
``t``, ``y``
    Current time [s] and state (the stepper's own array, updated in place).
``status``
    A :class:`Status`; counters ``rhs_evaluations`` (generalized-α: force evaluations),
    ``steps``, and the implicit ones ``jacobians``, ``rejected_steps``,
    ``newton_iterations`` (0 for the explicit methods); ``stats()`` the method's
    counters as a dict (the ``IntegrationResult.stats`` of ``integrate``).
``save() -> dict[str, ndarray]``, ``restore(arrays)``
    The full state of the run — time, state vector, the integrator's carried state
    (rk4's step count, rk45's step size, generalized-α's algorithmic acceleration and
    factorised Jacobian) and the run data's run fields — so that a restored stepper
    continues bit for bit (the step API's save / load).

Chunking: the steppers carry everything between calls, so a run advanced in chunks is the
same run (bit for bit) as one call over all outputs, except rk45's first-same-as-last
stage, which is re-evaluated at each call's start (the same numbers).

rk4 steps on the grid ``origin + k dt`` (no accumulated round-off) and takes
``round((t_outputs[0] − t) / dt)`` steps per output: the outputs must be evenly spaced
whole multiples of ``dt`` apart (the callers check this with their own messages).
:meth:`RK4Stepper.rebase` restarts the grid at ``t`` (the step API times each host step
from its own start).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..models.base import Formulation, RunData
from .explicit import (
    BLOWUP,
    MAX_STEPS,
    OK,
    RK4_STATE_SIZE,
    S_ELEMENT,
    S_EVALS,
    S_H,
    S_STATUS,
    S_STEPS,
    S_TFAIL,
    STEP_UNDERFLOW,
    RK4Workspace,
    RK45Workspace,
)
from .implicit import (
    NEWTON_FAILED,
    S_HFAIL,
    S_INCR,
    S_ITERS,
    S_JACS,
    S_REJECTS,
    S_RESID,
    S_START,
    Workspace,
    make_params,
    parameters,
)
from .implicit_system import SystemWorkspace

__all__ = ["Status", "SimulationError", "StepperOptions", "Stepper", "RK4Stepper",
           "RK45Stepper", "GeneralizedAlphaStepper", "SystemGeneralizedAlphaStepper",
           "make_stepper", "METHODS",
           "SECOND_ORDER_SURFACE", "has_second_order_surface", "alpha_parameters"]

METHODS = ("rk4", "rk45", "generalized_alpha")
#: what a formulation must offer for generalized_alpha (models/base.py)
SECOND_ORDER_SURFACE = ("n_q", "band", "held", "force", "mass", "held_acc")


class SimulationError(RuntimeError):
    """A run that cannot go on (blow-up, step limit); the message says when, where and why."""


class Status(enum.IntEnum):
    """A stepper's status (the compiled loops' status codes, explicit.py / implicit.py)."""

    OK = OK
    BLOWUP = BLOWUP
    MAX_STEPS = MAX_STEPS
    STEP_UNDERFLOW = STEP_UNDERFLOW
    NEWTON_FAILED = NEWTON_FAILED


@dataclass(frozen=True)
class StepperOptions:
    """What a stepper needs besides the model: ``dt`` [s] (rk4's step, rk45's first trial
    step, generalized-α's step or first step when adaptive), ``rtol`` / ``atol`` (rk45 and
    generalized-α's Newton / step control), ``max_steps``, and for generalized-α ``alpha``
    = (α_m, α_f, β, γ) (None: from the model's case, :func:`alpha_parameters`) and
    ``adaptive`` (None: the case's ``solver.adaptive``, else False)."""

    dt: float
    rtol: float = 1e-6
    atol: float = 1e-9
    max_steps: int = 50_000_000
    alpha: tuple[float, float, float, float] | None = None
    adaptive: bool | None = None

    @classmethod
    def from_case(cls, case) -> StepperOptions:
        """The options of a validated case's ``solver`` section."""
        s = case.solver
        return cls(dt=s.dt, rtol=s.rtol, atol=s.atol, max_steps=s.max_steps,
                   adaptive=bool(s.adaptive))


def has_second_order_surface(model: Formulation) -> bool:
    """True when the model offers the second-order surface generalized_alpha needs."""
    return int(getattr(model, "n_q", 0) or 0) > 0 and all(
        getattr(model, k, None) is not None for k in SECOND_ORDER_SURFACE)


def alpha_parameters(model: Formulation, rho_inf: float | None = None,
                     alpha: tuple[float, float, float, float] | None = None
                     ) -> tuple[float, float, float, float]:
    """(α_m, α_f, β, γ): the explicit four, else from rho_inf, else from the model's case
    (solver.alpha_m … or solver.rho_inf, default 0.8)."""
    if alpha is not None:
        return tuple(float(x) for x in alpha)  # type: ignore[return-value]
    s = getattr(getattr(model, "case", None), "solver", None)
    if rho_inf is None and s is not None and s.alpha_m is not None:
        return (s.alpha_m, s.alpha_f, s.beta, s.gamma)
    if rho_inf is None:
        rho_inf = s.rho_inf if s is not None else 0.8
    return parameters(rho_inf)


class Stepper:
    """Base of the steppers (module docstring: the contract)."""

    method: ClassVar[str] = ""

    def __init__(self, model: Formulation, data: RunData | None, y0: np.ndarray, t0: float,
                 options: StepperOptions) -> None:
        self.model = model
        self.data = RunData(model) if data is None else data
        self.options = options
        self.t = float(t0)
        y = np.ascontiguousarray(y0, dtype=float).copy()
        args = self.data.args
        model.enforce(self.t, y, args)
        bad = model.check(self.t, y, args)
        if bad >= 0:
            which = "initial" if self.t == 0.0 else "starting"
            raise SimulationError(f"the {which} state is not finite or absurd in element {bad}")
        self.y = y
        self._state = np.zeros(RK4_STATE_SIZE)

    # -- status and counters ------------------------------------------------------------
    @property
    def status(self) -> Status:
        return Status(int(self._state[S_STATUS]))

    @property
    def rhs_evaluations(self) -> int:
        return int(self._state[S_EVALS])

    @property
    def steps(self) -> int:
        return int(self._state[S_STEPS])

    jacobians = rejected_steps = newton_iterations = property(lambda self: 0)

    @property
    def failed_at(self) -> tuple[float, int]:
        """(time [s], element; -1: none) of the failure."""
        return float(self._state[S_TFAIL]), int(self._state[S_ELEMENT])

    def stats(self) -> dict:
        """The method's own counters (none for the explicit methods)."""
        return {}

    # -- stepping -----------------------------------------------------------------------
    def advance(self, t_outputs: np.ndarray, Y: np.ndarray) -> int:
        """Integrate through each instant of ``t_outputs`` into ``Y`` (module docstring)."""
        state = self._state
        if state[S_STATUS] != OK:
            raise self.error()
        got = self._chunk(t_outputs, Y)
        if got:
            self.t = float(t_outputs[got - 1])
        if state[S_STATUS] != OK:
            raise self.error()
        return got

    def compile(self, Y: np.ndarray) -> None:
        """Compile the loop for this model (an empty advance)."""
        self._chunk(np.empty(0), Y)

    def _chunk(self, t_outputs: np.ndarray, Y: np.ndarray) -> int:  # pragma: no cover
        raise NotImplementedError

    def error(self) -> SimulationError:
        """The error of a failed run: when, where, why, and what to try."""
        t_fail, element = self.failed_at
        dt_hint = self.model.critical_time_step()[0]
        if self.status is Status.MAX_STEPS:
            return SimulationError(
                f"rk45 reached solver.max_steps at t = {t_fail:.6g} s: the problem is stiff or "
                f"the tolerances are tight; try rk4 with solver.dt <= {dt_hint:.3g} s or raise "
                f"solver.max_steps")
        where = f"element {element}" if element >= 0 else "the state"
        why = ("step size underflow" if self.status is Status.STEP_UNDERFLOW
               else "non-finite or absurd strain")
        return SimulationError(
            f"simulation blew up at t = {t_fail:.6g} s in {where} ({why}); "
            f"the explicit stability limit of this model is about {dt_hint:.3g} s: try "
            f"solver.dt <= {0.5 * dt_hint:.3g} s (see `tetherdyn check`)")

    # -- save / restore -----------------------------------------------------------------
    def _carried(self) -> dict[str, np.ndarray]:
        """The integrator's own arrays that carry over between calls (restored in place)."""
        return {"state": self._state}

    def _restore_carried(self, arrays: dict[str, np.ndarray]) -> None:
        for k, v in self._carried().items():
            v[...] = arrays[f"stepper.{k}"]

    def save(self) -> dict[str, np.ndarray]:
        """The run's full state as arrays (copies), for :meth:`restore`."""
        out = {"stepper.method": np.array(self.method), "stepper.t": np.array(self.t),
               "stepper.y": self.y.copy()}
        for k, v in self._carried().items():
            out[f"stepper.{k}"] = np.array(v, copy=True)
        out.update(self.data.save())
        return out

    def restore(self, arrays: dict[str, np.ndarray]) -> None:
        """Continue the run saved by :meth:`save` (same case, same method)."""
        method = str(arrays["stepper.method"])
        if method != self.method:
            raise ValueError(f"restore: the saved run used {method}, this stepper is "
                             f"{self.method}")
        self.t = float(arrays["stepper.t"])
        self.y[:] = arrays["stepper.y"]
        self._restore_carried(arrays)
        self.data.restore(arrays)


class RK4Stepper(Stepper):
    """Classical RK4 at the fixed step ``options.dt`` (explicit.py ``rk4_chunk`` and its
    ``RK4Workspace``)."""

    method = "rk4"

    def __init__(self, model: Formulation, data: RunData | None, y0: np.ndarray, t0: float,
                 options: StepperOptions) -> None:
        super().__init__(model, data, y0, t0, options)
        self._ws = RK4Workspace(self.y.size)
        self._state = self._ws.state
        self.origin = self.t  #: start of the step grid [s]: steps end at origin + k dt
        self.grid_steps = 0  #: steps taken since ``origin``
        self._steps = 0

    @property
    def steps(self) -> int:
        return self._steps

    def rebase(self) -> None:
        """Restart the step grid at the current time."""
        self.origin = self.t
        self.grid_steps = 0

    def _chunk(self, t_outputs: np.ndarray, Y: np.ndarray) -> int:
        m = self.model
        dt = self.options.dt
        n = t_outputs.size
        spo = int(round((t_outputs[0] - self.t) / dt)) if n else 0
        got = self._ws.run(m, self.data.args, self.origin, dt, self.grid_steps, spo, n, self.y,
                           Y)
        self.grid_steps += spo * got
        self._steps += spo * got
        return got

    def _carried(self) -> dict[str, np.ndarray]:
        return {"state": self._state,
                "grid": np.array([self.origin, self.grid_steps, self._steps], dtype=float)}

    def _restore_carried(self, arrays: dict[str, np.ndarray]) -> None:
        self._state[...] = arrays["stepper.state"]
        origin, grid_steps, steps = arrays["stepper.grid"]
        self.origin, self.grid_steps, self._steps = float(origin), int(grid_steps), int(steps)


class RK45Stepper(Stepper):
    """Adaptive Dormand–Prince 5(4) (explicit.py ``rk45_chunk`` and its ``RK45Workspace``);
    first trial step ``options.dt``, tolerances ``rtol`` / ``atol``."""

    method = "rk45"

    def __init__(self, model: Formulation, data: RunData | None, y0: np.ndarray, t0: float,
                 options: StepperOptions) -> None:
        super().__init__(model, data, y0, t0, options)
        self._ws = RK45Workspace(self.y.size, options.dt)
        self._state = self._ws.state

    @property
    def step_size(self) -> float:
        """The next trial step [s]."""
        return float(self._state[S_H])

    def _chunk(self, t_outputs: np.ndarray, Y: np.ndarray) -> int:
        o = self.options
        return self._ws.run(self.model, self.data.args, self.t, t_outputs, self.y, Y, o.rtol,
                            o.atol, o.max_steps)


class GeneralizedAlphaStepper(Stepper):
    """Generalized-α (implicit.py ``ga_chunk``, its :class:`Workspace`); the algorithmic
    acceleration starts from the model's rhs at ``t0``."""

    method = "generalized_alpha"

    def __init__(self, model: Formulation, data: RunData | None, y0: np.ndarray, t0: float,
                 options: StepperOptions) -> None:
        if not has_second_order_surface(model):
            raise ValueError(
                f"solver.method: generalized_alpha needs the model's second-order surface "
                f"({', '.join(SECOND_ORDER_SURFACE)}; models/base.py), which model "
                f"{model.name or type(model).__name__} does not offer; use rk4 or rk45")
        super().__init__(model, data, y0, t0, options)
        adaptive = options.adaptive
        if adaptive is None:
            s = getattr(getattr(model, "case", None), "solver", None)
            adaptive = bool(s.adaptive) if s is not None else False
        params = make_params(alpha_parameters(model, None, options.alpha), options.rtol,
                             options.atol, options.dt, adaptive, options.max_steps)
        self._ws = Workspace(model, self.y, params, self.data.held)
        self._state = self._ws.state
        self._ws.start()  # a(t0) from rhs, inside the compiled loop's first call

    @property
    def acceleration(self) -> np.ndarray:
        """The algorithmic acceleration a carried between steps (n_q)."""
        if self._state[S_START] != 0.0:
            self.compile(np.empty((0, self.y.size)))  # takes a(t) from rhs
        return self._ws.a

    jacobians = property(lambda self: int(self._state[S_JACS]))
    rejected_steps = property(lambda self: int(self._state[S_REJECTS]))
    newton_iterations = property(lambda self: int(self._state[S_ITERS]))

    def stats(self) -> dict:
        return self._ws.stats()

    def _chunk(self, t_outputs: np.ndarray, Y: np.ndarray) -> int:
        return self._ws.run(self.model, self.data.args, self.t, t_outputs, self.y, Y)

    def _carried(self) -> dict[str, np.ndarray]:
        # the factorised Jacobian is reused across steps: part of the state
        return self._ws.carried()

    def error(self) -> SimulationError:
        st = self._state
        t_fail, element = self.failed_at
        where = f" (element {element} is non-finite or absurdly strained)" if element >= 0 else ""
        if self.status is Status.MAX_STEPS:
            return SimulationError(
                f"generalized_alpha reached solver.max_steps ({int(st[S_STEPS])} steps) at "
                f"t = {t_fail:.6g} s; raise solver.max_steps, loosen rtol/atol (adaptive) or "
                f"take a larger solver.dt")
        if self.status is Status.NEWTON_FAILED:
            return SimulationError(
                f"generalized_alpha: the Newton iterations did not converge at t = "
                f"{t_fail:.6g} s even with the step cut to {st[S_HFAIL]:.3g} s (scaled Newton "
                f"increment {st[S_INCR]:.3g}, max |residual| {st[S_RESID]:.3g} N){where}: the "
                f"motion is too violent or too nonlinear for this step, or the model is "
                f"blowing up; try a smaller solver.dt, solver.adaptive: true, or a smaller "
                f"rho_inf (more high-frequency damping), and check the case (see `tetherdyn "
                f"check`)")
        why = ("step size underflow" if self.status is Status.STEP_UNDERFLOW
               else "non-finite or absurd strain")
        return SimulationError(
            f"generalized_alpha: simulation blew up at t = {t_fail:.6g} s{where} ({why}); try a "
            f"smaller solver.dt or tighter solver.rtol/atol with solver.adaptive: true")


class SystemGeneralizedAlphaStepper(GeneralizedAlphaStepper):
    """Generalized-α for a system of lines, points and bodies (implicit_system.py's
    :class:`SystemWorkspace`), the options read as a single line's (``solver.rho_inf`` or
    the four parameters, ``solver.adaptive``, rtol / atol, dt)."""

    def __init__(self, model: Formulation, data: RunData | None, y0: np.ndarray, t0: float,
                 options: StepperOptions) -> None:
        Stepper.__init__(self, model, data, y0, t0, options)
        adaptive = options.adaptive
        if adaptive is None:
            adaptive = bool(model.case.solver.adaptive)
        params = make_params(alpha_parameters(model, None, options.alpha), options.rtol,
                             options.atol, options.dt, adaptive, options.max_steps)
        self._ws = SystemWorkspace(model, self.y, params)
        self._state = self._ws.state
        self._ws.start()

    def error(self) -> SimulationError:
        err = super().error()
        if self.status is Status.NEWTON_FAILED:  # the system's residual: accelerations
            return SimulationError(str(err).replace(" N)", " m/s^2)"))
        return err


_STEPPERS: dict[str, type[Stepper]] = {
    "rk4": RK4Stepper, "rk45": RK45Stepper, "generalized_alpha": GeneralizedAlphaStepper}


def make_stepper(method: str, model: Formulation, data: RunData | None, y0: np.ndarray,
                 t0: float, options: StepperOptions) -> Stepper:
    """The stepper of ``method`` (``solver.method``: one of :data:`METHODS`)."""
    if method not in _STEPPERS:
        raise ValueError(f"solver.method: unknown method {method!r} (known: {METHODS})")
    if method == "generalized_alpha" and hasattr(model, "second_order_layout"):
        # a system: its own layout and bordered-band solve (implicit_system.py)
        return SystemGeneralizedAlphaStepper(model, data, y0, t0, options)
    return _STEPPERS[method](model, data, y0, t0, options)
