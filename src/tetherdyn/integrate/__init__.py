"""Model-agnostic time integration: the Python driver around the compiled loops.

Python runs only between chunks of output intervals (where the progress bar ticks); each
chunk is one call into a compiled loop.
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from ..models.base import Formulation
from .explicit import MAX_STEPS, STEP_UNDERFLOW, rk4_chunk, rk45_chunk
from .implicit import (
    NEWTON_FAILED,
    S_HFAIL,
    S_INCR,
    S_RESID,
    S_STEPS,
    Workspace,
    make_params,
    parameters,
)

__all__ = ["integrate", "output_times", "IntegrationResult", "SimulationError", "METHODS",
           "has_second_order_surface", "alpha_parameters"]

METHODS = ("rk4", "rk45", "generalized_alpha")
#: what a formulation must offer for generalized_alpha (models/base.py)
SECOND_ORDER_SURFACE = ("n_q", "band", "held", "force", "mass", "held_acc")


class SimulationError(RuntimeError):
    """A run that cannot go on (blow-up, step limit); the message says when, where and why."""


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


def _fail(model: Formulation, info: np.ndarray, method: str = "") -> SimulationError:
    """The error for a failed run; the stability hint is computed only now, when needed."""
    status, t_fail, element = int(info[0]), float(info[1]), int(info[2])
    if method == "generalized_alpha":
        return _fail_implicit(info)
    dt_hint = model.critical_time_step()[0]
    if status == MAX_STEPS:
        return SimulationError(
            f"rk45 reached solver.max_steps at t = {t_fail:.6g} s: the problem is stiff or "
            f"the tolerances are tight; try rk4 with solver.dt <= {dt_hint:.3g} s or raise "
            f"solver.max_steps"
        )
    where = f"element {element}" if element >= 0 else "the state"
    why = "step size underflow" if status == STEP_UNDERFLOW else "non-finite or absurd strain"
    return SimulationError(
        f"simulation blew up at t = {t_fail:.6g} s in {where} ({why}); "
        f"the explicit stability limit of this model is about {dt_hint:.3g} s: try "
        f"solver.dt <= {0.5 * dt_hint:.3g} s (see `tetherdyn check`)"
    )


def _fail_implicit(info: np.ndarray) -> SimulationError:
    status, t_fail, element = int(info[0]), float(info[1]), int(info[2])
    where = f" (element {element} is non-finite or absurdly strained)" if element >= 0 else ""
    if status == MAX_STEPS:
        return SimulationError(
            f"generalized_alpha reached solver.max_steps ({int(info[S_STEPS])} steps) at "
            f"t = {t_fail:.6g} s; raise solver.max_steps, loosen rtol/atol (adaptive) or "
            f"take a larger solver.dt")
    if status == NEWTON_FAILED:
        return SimulationError(
            f"generalized_alpha: the Newton iterations did not converge at t = {t_fail:.6g} s "
            f"even with the step cut to {info[S_HFAIL]:.3g} s (scaled Newton increment "
            f"{info[S_INCR]:.3g}, max |residual| {info[S_RESID]:.3g} N){where}: the motion is "
            f"too violent or too nonlinear for this step, or the model is blowing up; try a "
            f"smaller solver.dt, solver.adaptive: true, or a smaller rho_inf (more "
            f"high-frequency damping), and check the case (see `tetherdyn check`)")
    why = "step size underflow" if status == STEP_UNDERFLOW else "non-finite or absurd strain"
    return SimulationError(
        f"generalized_alpha: simulation blew up at t = {t_fail:.6g} s{where} ({why}); try a "
        f"smaller solver.dt or tighter solver.rtol/atol with solver.adaptive: true")


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


def integrate(model: Formulation, method: str, dt: float, duration: float,
              output_interval: float, *, rtol: float = 1e-6, atol: float = 1e-9,
              max_steps: int = 50_000_000, progress: bool | None = None,
              y0: np.ndarray | None = None, rho_inf: float | None = None,
              alpha: tuple[float, float, float, float] | None = None,
              adaptive: bool | None = None) -> IntegrationResult:
    """Integrate a formulation from its initial state; outputs every ``output_interval``.

    Output instants are ``j * output_interval`` for j = 0 … floor(duration / output_interval).
    Raises :class:`SimulationError` on blow-up.

    generalized_alpha: ``alpha`` = (α_m, α_f, β, γ) or ``rho_inf``, and ``adaptive``
    (step-size control on rtol / atol; otherwise a fixed step dt); when not given they come
    from the model's case (``solver.*``). ``rhs_evaluations`` then counts force evaluations.
    """
    if method == "generalized_alpha" and not has_second_order_surface(model):
        raise ValueError(
            f"solver.method: generalized_alpha needs the model's second-order surface "
            f"({', '.join(SECOND_ORDER_SURFACE)}; models/base.py), which model "
            f"{model.name or type(model).__name__} does not offer; use rk4 or rk45")
    times = output_times(duration, output_interval)
    n_out = times.size
    y = np.ascontiguousarray(model.initial_state() if y0 is None else y0, dtype=float).copy()
    model.enforce(0.0, y, model.data)
    ny = y.size
    Y = np.empty((n_out, ny))
    Y[0] = y
    bad = model.check(0.0, y, model.data)
    if bad >= 0:
        raise SimulationError(f"the initial state is not finite or absurd in element {bad}")
    bar = _progress(times[-1], progress)
    reached = [0.0]  # the last output instant integrated to
    try:
        return _integrate(model, method, dt, times, y, Y, rtol, atol, max_steps, rho_inf,
                          alpha, adaptive, bar, reached)
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


def _integrate(model, method, dt, times, y, Y, rtol, atol, max_steps, rho_inf, alpha,
               adaptive, bar, reached) -> IntegrationResult:
    """The time loops of :func:`integrate` (its body, split off for the error handling)."""
    n_out = times.size
    ny = y.size
    output_interval = times[1] - times[0] if n_out > 1 else dt
    stats: dict = {}
    wall = 0.0
    done = 1
    chunk = 1
    if method == "rk4":
        spo = int(round(output_interval / dt))
        k = np.empty((5, ny))
        info = np.zeros(4)
        args = (model.rhs, model.enforce, model.remesh, model.check, model.data, 0.0, dt)
        rk4_chunk(*args, 0, spo, 0, y, Y, k[0], k[1], k[2], k[3], k[4], info)  # compile
        while done < n_out:
            m = min(chunk, n_out - done)
            t0 = time.perf_counter()
            got = rk4_chunk(*args, (done - 1) * spo, spo, m, y, Y[done:], k[0], k[1], k[2],
                            k[3], k[4], info)
            el = time.perf_counter() - t0
            wall += el
            done += got
            reached[0] = float(times[done - 1])
            if bar is not None:
                bar.update(got * output_interval)
            if info[0] != 0:
                if bar is not None:
                    bar.close()
                raise _fail(model, info)
            chunk = _next_chunk(chunk, el)
        evals, steps = int(info[3]), (n_out - 1) * spo
    elif method == "rk45":
        k = np.empty((7, ny))
        yt = np.empty(ny)
        ynew = np.empty(ny)
        state = np.array([0.0, 0.0, -1.0, 0.0, dt, 0.0])
        args = (model.rhs, model.enforce, model.remesh, model.check, model.data)
        rk45_chunk(*args, 0.0, times[:0], y, Y, k, yt, ynew, rtol, atol, max_steps, state)
        while done < n_out:
            m = min(chunk, n_out - done)
            t0 = time.perf_counter()
            got = rk45_chunk(*args, times[done - 1], times[done:done + m], y, Y[done:], k, yt,
                             ynew, rtol, atol, max_steps, state)
            el = time.perf_counter() - t0
            wall += el
            done += got
            reached[0] = float(times[done - 1])
            if bar is not None:
                bar.update(got * output_interval)
            if state[0] != 0:
                if bar is not None:
                    bar.close()
                raise _fail(model, state)
            chunk = _next_chunk(chunk, el)
        evals, steps = int(state[3]), int(state[5])
    elif method == "generalized_alpha":
        if adaptive is None:
            s = getattr(getattr(model, "case", None), "solver", None)
            adaptive = bool(s.adaptive) if s is not None else False
        params = make_params(alpha_parameters(model, rho_inf, alpha), rtol, atol, dt,
                             adaptive, max_steps)
        ws = Workspace(model, y, params)
        ws.initial_acceleration(model, 0.0, y)
        ws.run(model, 0.0, times[:0], y, Y)  # compile
        while done < n_out:
            m = min(chunk, n_out - done)
            t0 = time.perf_counter()
            got = ws.run(model, times[done - 1], times[done:done + m], y, Y[done:])
            el = time.perf_counter() - t0
            wall += el
            done += got
            reached[0] = float(times[done - 1])
            if bar is not None:
                bar.update(got * output_interval)
            if ws.state[0] != 0:
                if bar is not None:
                    bar.close()
                raise _fail(model, ws.state, method)
            chunk = _next_chunk(chunk, el)
        evals, steps = int(ws.state[3]), int(ws.state[5])
        stats = ws.stats()
    else:
        raise ValueError(f"solver.method: unknown method {method!r} (known: {METHODS})")
    if bar is not None:
        bar.close()
    return IntegrationResult(times, Y, evals, wall, steps, stats)


def _next_chunk(chunk: int, elapsed: float) -> int:
    """Grow chunks until one takes about 0.2 s, so Python overhead stays negligible."""
    if elapsed < 0.1:
        return chunk * 2
    if elapsed > 0.4 and chunk > 1:
        return max(1, chunk // 2)
    return chunk

