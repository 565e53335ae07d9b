"""Model-agnostic time integration: ``integrate`` drives a :class:`Stepper` (stepper.py:
the one stepping loop and its contract) over a run's output instants.

Python runs only between chunks of output intervals (where the progress bar ticks); each
chunk is one call into a compiled loop.
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from ..models.base import Formulation, RunData
from .stepper import (
    METHODS,
    SECOND_ORDER_SURFACE,
    SimulationError,
    Status,
    Stepper,
    StepperOptions,
    alpha_parameters,
    has_second_order_surface,
    make_stepper,
)

__all__ = ["integrate", "output_times", "IntegrationResult", "SimulationError", "METHODS",
           "has_second_order_surface", "alpha_parameters", "Stepper", "StepperOptions",
           "Status", "make_stepper", "SECOND_ORDER_SURFACE"]


@dataclass
class IntegrationResult:
    times: np.ndarray  # output instants [s]
    states: np.ndarray  # (n_times, n_state)
    rhs_evaluations: int
    wall_time_s: float
    steps: int
    #: method-specific counters (generalized_alpha: jacobians, rejected_steps,
    #: newton_iterations)
    stats: dict = field(default_factory=dict)
    #: the run's data tuple as the run left it (models/base.py: Model and data), for the
    #: model's ``outputs``
    data: tuple | None = None


def _progress(total: float, enabled: bool | None):
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="s sim", desc="simulating", leave=False,
                bar_format="{l_bar}{bar}| {n:.3g}/{total:.3g} s [{elapsed}<{remaining}]")


def output_times(duration: float, output_interval: float) -> np.ndarray:
    """Output instants [s]: j * output_interval for j = 0 … floor(duration / output_interval)."""
    return np.arange(int(math.floor(duration / output_interval + 1e-9)) + 1) * output_interval


def integrate(model: Formulation, method: str, dt: float, duration: float,
              output_interval: float, *, rtol: float = 1e-6, atol: float = 1e-9,
              max_steps: int = 50_000_000, progress: bool | None = None,
              y0: np.ndarray | None = None, rho_inf: float | None = None,
              alpha: tuple[float, float, float, float] | None = None,
              adaptive: bool | None = None, data: RunData | None = None
              ) -> IntegrationResult:
    """Integrate a formulation from its initial state; outputs every ``output_interval``.

    Output instants are ``j * output_interval`` for j = 0 … floor(duration / output_interval).
    Raises :class:`SimulationError` on blow-up. The run drives the method's
    :class:`Stepper` (stepper.py) with ``data`` (default: a fresh
    :class:`~tetherdyn.models.base.RunData` of the model; the model itself is not changed).

    generalized_alpha: ``alpha`` = (α_m, α_f, β, γ) or ``rho_inf``, and ``adaptive``
    (step-size control on rtol / atol; otherwise a fixed step dt); when not given they come
    from the model's case (``solver.*``). ``rhs_evaluations`` then counts force evaluations.
    """
    if method not in METHODS:
        raise ValueError(f"solver.method: unknown method {method!r} (known: {METHODS})")
    shape = getattr(getattr(getattr(model, "case", None), "initial", None), "shape", None)
    if y0 is None and shape == "equilibrium":
        # the equilibrium is statics.py's, a layer above: the caller passes it
        raise ValueError("initial.shape: equilibrium needs the static solve: pass "
                         "y0=tetherdyn.start.initial_state(model).y (simulate does)")
    if method == "generalized_alpha" and (alpha is not None or rho_inf is not None):
        alpha = alpha_parameters(model, rho_inf, alpha)
    options = StepperOptions(dt=dt, rtol=rtol, atol=atol, max_steps=max_steps, alpha=alpha,
                             adaptive=adaptive)
    times = output_times(duration, output_interval)
    n_out = times.size
    stepper = make_stepper(method, model, data, model.initial_state() if y0 is None else y0,
                           0.0, options)
    Y = np.empty((n_out, stepper.y.size))
    Y[0] = stepper.y
    bar = _progress(times[-1], progress)
    reached = [0.0]  # the last output instant integrated to
    try:
        wall = _drive(stepper, times, Y, bar, reached)
    except SimulationError:
        if bar is not None:
            bar.close()
        raise
    except ZeroDivisionError:
        # a compiled kernel divided by zero: a degenerate (blown-up) state between checks
        if bar is not None:
            bar.close()
        dt_hint = model.critical_time_step()[0]
        raise SimulationError(
            f"simulation blew up after t = {reached[0]:.6g} s (a division by zero in the model: "
            f"degenerate geometry); the explicit stability limit of this model is about "
            f"{dt_hint:.3g} s: try solver.dt <= {0.5 * dt_hint:.3g} s (see `tetherdyn check`)"
        ) from None
    if bar is not None:
        bar.close()
    return IntegrationResult(times, Y, stepper.rhs_evaluations, wall, stepper.steps,
                             stepper.stats(), stepper.data.args)


def _drive(stepper: Stepper, times: np.ndarray, Y: np.ndarray, bar, reached: list) -> float:
    """Advance through the output instants in growing chunks (Python runs only between
    chunks, where the progress bar ticks); returns the wall time in the compiled loop [s]."""
    n_out = times.size
    output_interval = times[1] - times[0] if n_out > 1 else 0.0
    stepper.compile(Y)
    wall = 0.0
    done = 1
    chunk = 1
    while done < n_out:
        m = min(chunk, n_out - done)
        t0 = time.perf_counter()
        got = stepper.advance(times[done:done + m], Y[done:])
        el = time.perf_counter() - t0
        wall += el
        done += got
        reached[0] = float(times[done - 1])
        if bar is not None:
            bar.update(got * output_interval)
        chunk = _next_chunk(chunk, el)
    return wall


def _next_chunk(chunk: int, elapsed: float) -> int:
    """Grow chunks until one takes about 0.2 s, so Python overhead stays negligible."""
    if elapsed < 0.1:
        return chunk * 2
    if elapsed > 0.4 and chunk > 1:
        return max(1, chunk // 2)
    return chunk

