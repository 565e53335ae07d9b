"""The state a run starts from: the ONE place where an entry point gets its initial state.

Every driver that builds a Stepper from a case (``simulate.run_case`` and with it batches,
identification and optimisation; the step API ``cosim.Simulator``; ``steady.Continuation``;
``tetherdyn check``) calls :func:`initial_state`. For ``initial.shape`` ``straight`` or
``points`` it is the formulation's own ``initial_state()`` (initial.py's shape, the ends
rule); for ``equilibrium`` it is the static equilibrium of the case at the start time,
found by :func:`tetherdyn.statics.solve` from that shape as its guess (issue 18). A solve
that does not converge raises :class:`~tetherdyn.statics.StaticsError` before anything
runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .models.base import Formulation, RunData
    from .statics import Equilibrium

__all__ = ["InitialState", "initial_state"]


@dataclass
class InitialState:
    """A run's starting state: ``y`` (the formulation's state vector at ``t`` [s]) and, for
    ``shape: equilibrium``, the :class:`~tetherdyn.statics.Equilibrium` it came from and
    the run fields it hands on (``run_arrays``, as ``RunData.restore`` takes them: the
    seabed's friction anchors the statics used, so friction starts from the same rest
    positions)."""

    y: np.ndarray
    t: float = 0.0
    equilibrium: Equilibrium | None = None
    run_arrays: dict = field(default_factory=dict)

    def data(self, model: Formulation) -> RunData:
        """A fresh :class:`~tetherdyn.models.base.RunData` of ``model`` carrying
        ``run_arrays``: the run data a driver starts this state with."""
        from .models.base import RunData

        data = RunData(model)
        data.restore(self.run_arrays)
        return data

    @property
    def attrs(self) -> dict:
        """Global results attributes that say how the run started: ``initial_shape``, and
        for a static equilibrium its ``initial_equilibrium_method``, residual
        ``initial_equilibrium_residual`` [N], the same relative to the line's weight
        ``initial_equilibrium_relative_residual`` [-] and ``initial_equilibrium_iterations``."""
        eq = self.equilibrium
        if eq is None:
            return {}
        return dict(initial_shape="equilibrium", initial_equilibrium_method=str(eq.method),
                    initial_equilibrium_residual=float(eq.residual),
                    initial_equilibrium_relative_residual=float(eq.residual / eq.weight),
                    initial_equilibrium_iterations=int(eq.iterations))


def initial_state(model: Formulation, t: float = 0.0) -> InitialState:
    """The state a run of ``model`` starts from at time ``t`` [s] (see the module's doc).

    ``shape: equilibrium``: statics.solve (its analytic start; or, where the case gives
    ``points`` or a ``direction`` / ``angle_from_gravity_deg`` hint, the shape they lay as
    the guess); raises StaticsError when nothing converges. A towed case's steady state
    (method "steady", found later in the run it settles in) is moved rigidly so that its
    held end is where the case holds it at ``t``, every node moving with that end.
    Other shapes: ``model.initial_state()``.
    """
    case = model.case
    if case.initial.shape != "equilibrium":
        return InitialState(np.array(model.initial_state(), dtype=float), t)
    from .case import CaseError
    from .statics import StaticsError, solve

    ini = case.initial
    hinted = ini.points is not None or ini.direction is not None or (
        ini.angle_from_gravity_deg is not None)
    guess = np.array(model.initial_state(), dtype=float) if hinted else None
    try:
        eq = solve(model, t=t, guess=guess)
    except StaticsError:
        raise
    except ValueError as exc:  # a case the solve cannot take, named by its key (a tow's
        # trajectory that ends before steady.settle's time limit, ...): bad input
        raise CaseError(f"{exc} (initial.shape: equilibrium)") from None
    if eq.method == "steady" and eq.t != t:
        return InitialState(_towed_state(model, eq, t), t, eq)
    return InitialState(np.array(eq.y, dtype=float), t, eq, eq.run_arrays())


def _towed_state(model: Formulation, eq: Equilibrium, t: float) -> np.ndarray:
    """A steady tow's state (at time eq.t) moved to time ``t``: its nodes shifted so the
    held end sits where the case holds it at t, all moving with that end's velocity (a
    steady state in the frame of a uniformly moving end), in the model's coordinates (the
    case's own ``points`` and ``velocity`` keys build it)."""
    from .case import load_case
    from .models import build_model

    case = model.case
    which, index = ("start", 0) if case.end_state("start", t) is not None else ("end", -1)
    p, v = case.end_state(which, t)
    nodes = np.asarray(eq.positions, dtype=float)
    nodes = nodes + (p - nodes[index])[None, :]
    raw = case.to_dict()
    raw["initial"] = {"shape": "points", "points": nodes.tolist(),
                      "velocity": [float(c) for c in v]}
    return np.array(build_model(load_case(raw, base_dir=case.base_dir)).initial_state(),
                    dtype=float)
