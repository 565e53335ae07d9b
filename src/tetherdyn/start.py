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

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .models.base import Formulation
    from .statics import Equilibrium

__all__ = ["InitialState", "initial_state"]


@dataclass
class InitialState:
    """A run's starting state: ``y`` (the formulation's state vector at ``t`` [s]) and, for
    ``shape: equilibrium``, the :class:`~tetherdyn.statics.Equilibrium` it came from."""

    y: np.ndarray
    t: float = 0.0
    equilibrium: Equilibrium | None = None

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

    ``shape: equilibrium``: statics.solve from the model's own initial shape (given points
    or the straight line with its hint) as the guess; raises StaticsError when nothing
    converges. Other shapes: ``model.initial_state()``.
    """
    case = model.case
    if case.initial.shape != "equilibrium":
        return InitialState(np.array(model.initial_state(), dtype=float), t)
    from .statics import solve

    eq = solve(model, t=t)
    return InitialState(np.array(eq.y, dtype=float), t, eq)
