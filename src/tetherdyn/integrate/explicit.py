"""Compiled explicit time loops: classical RK4 (fixed step) and Dormand–Prince RK45.

Model-agnostic: the loops know only ``rhs(t, y, dydt, data)``, ``enforce(t, y, data)``,
``remesh(t, y, data)`` and ``check(t, y, data)`` (see models/base.py). One call advances a
chunk of output intervals with no Python and no allocation per step; the Python driver
calls it between chunks.

Status arrays (in/out, float64): the layout is defined here and read by name everywhere
else (integrate/stepper.py): ``S_STATUS`` (0 ok, 1 blow-up: non-finite or absurd state,
2 step-count limit, 3 step underflow), ``S_TFAIL`` (time of failure [s]), ``S_ELEMENT``
(offending element, -1: none), ``S_EVALS`` (rhs evaluations), then for rk45 ``S_H`` (next
step size [s]) and ``S_STEPS`` (steps taken). rk4's ``info`` has the first
``RK4_STATE_SIZE`` = 4 entries, rk45's ``state`` ``RK45_STATE_SIZE`` = 6;
integrate/implicit.py extends the same layout.
"""

from __future__ import annotations

import math

import numpy as np

from .._jit import bind_kernels

OK = 0
BLOWUP = 1
MAX_STEPS = 2
STEP_UNDERFLOW = 3

# status array indices (module docstring)
S_STATUS, S_TFAIL, S_ELEMENT, S_EVALS, S_H, S_STEPS = range(6)
RK4_STATE_SIZE = 4
RK45_STATE_SIZE = 6


# rk4_chunk and rk45_chunk are templates: they call the model's kernels by the global names
# below, which compiled_loop binds per formulation (_jit.bind_kernels: one compiled copy per
# kernel set, cached on disk, issue 22).
rhs = enforce = remesh = check = None
KERNEL_ROLES = ("rhs", "enforce", "remesh", "check")


def rk4_chunk(data, t_start, dt, steps_done, steps_per_output, n_outputs, y, Y, k1, k2, k3, k4,
              yt, info):
    """Advance y by n_outputs * steps_per_output RK4 steps, storing y after each block in Y.

    Times are t_start + (steps_done + k) * dt (no accumulated round-off). Returns the number
    of outputs written (fewer than n_outputs if the run failed; see info).
    """
    ny = y.size
    step = steps_done
    for j in range(n_outputs):
        for _ in range(steps_per_output):
            t = t_start + step * dt
            rhs(t, y, k1, data)
            for i in range(ny):
                yt[i] = y[i] + 0.5 * dt * k1[i]
            rhs(t + 0.5 * dt, yt, k2, data)
            for i in range(ny):
                yt[i] = y[i] + 0.5 * dt * k2[i]
            rhs(t + 0.5 * dt, yt, k3, data)
            for i in range(ny):
                yt[i] = y[i] + dt * k3[i]
            rhs(t + dt, yt, k4, data)
            # x - x is 0 for a finite x and NaN for inf / NaN: the blow-up scan rides on
            # the update (an OR that vectorises) instead of a pass of its own
            bad = False
            for i in range(ny):
                y[i] += dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i])
                bad |= (y[i] - y[i]) != 0.0
            step += 1
            info[S_EVALS] += 4.0
            enforce(t_start + step * dt, y, data)
            remesh(t_start + step * dt, y, data)
            if bad:
                info[S_STATUS] = BLOWUP
                info[S_TFAIL] = t_start + step * dt
                info[S_ELEMENT] = check(t_start + step * dt, y, data)
                return j
        t = t_start + step * dt
        bad = check(t, y, data)
        if bad >= 0:
            info[S_STATUS] = BLOWUP
            info[S_TFAIL] = t
            info[S_ELEMENT] = bad
            return j
        for i in range(ny):
            Y[j, i] = y[i]
    return n_outputs


# Dormand–Prince 5(4) tableau
_C2, _C3, _C4, _C5 = 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0
_A21 = 1.0 / 5.0
_A31, _A32 = 3.0 / 40.0, 9.0 / 40.0
_A41, _A42, _A43 = 44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0
_A51, _A52, _A53, _A54 = 19372.0 / 6561.0, -25360.0 / 2187.0, 64448.0 / 6561.0, -212.0 / 729.0
_A61, _A62, _A63, _A64, _A65 = (9017.0 / 3168.0, -355.0 / 33.0, 46732.0 / 5247.0, 49.0 / 176.0,
                                -5103.0 / 18656.0)
_B1, _B3, _B4, _B5, _B6 = 35.0 / 384.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0
_E1, _E3, _E4, _E5, _E6, _E7 = (71.0 / 57600.0, -71.0 / 16695.0, 71.0 / 1920.0,
                                -17253.0 / 339200.0, 22.0 / 525.0, -1.0 / 40.0)


def rk45_chunk(data, t, t_outputs, y, Y, k, yt, ynew, rtol, atol, max_steps, state):
    """Adaptive Dormand–Prince steps to each time in t_outputs, storing y there in Y.

    k: work array (7, ny). state: float64[6] in/out = [status, t_fail, element, rhs evals,
    step size h, steps taken]. Steps are shortened to land exactly on the output instants;
    the first-same-as-last stage is reused. Returns the number of outputs written.
    """
    ny = y.size
    h = state[S_H]
    steps = state[S_STEPS]
    have_k0 = False
    for j in range(t_outputs.size):
        t_target = t_outputs[j]
        while t < t_target - 1e-14 * max(1.0, abs(t_target)):
            if steps >= max_steps:
                state[S_STATUS] = MAX_STEPS
                state[S_TFAIL] = t
                state[S_H] = h
                state[S_STEPS] = steps
                return j
            hs = min(h, t_target - t)
            if not have_k0:
                rhs(t, y, k[0], data)
                state[S_EVALS] += 1.0
            for i in range(ny):
                yt[i] = y[i] + hs * _A21 * k[0, i]
            rhs(t + _C2 * hs, yt, k[1], data)
            for i in range(ny):
                yt[i] = y[i] + hs * (_A31 * k[0, i] + _A32 * k[1, i])
            rhs(t + _C3 * hs, yt, k[2], data)
            for i in range(ny):
                yt[i] = y[i] + hs * (_A41 * k[0, i] + _A42 * k[1, i] + _A43 * k[2, i])
            rhs(t + _C4 * hs, yt, k[3], data)
            for i in range(ny):
                yt[i] = y[i] + hs * (_A51 * k[0, i] + _A52 * k[1, i] + _A53 * k[2, i]
                                     + _A54 * k[3, i])
            rhs(t + _C5 * hs, yt, k[4], data)
            for i in range(ny):
                yt[i] = y[i] + hs * (_A61 * k[0, i] + _A62 * k[1, i] + _A63 * k[2, i]
                                     + _A64 * k[3, i] + _A65 * k[4, i])
            rhs(t + hs, yt, k[5], data)
            for i in range(ny):
                ynew[i] = y[i] + hs * (_B1 * k[0, i] + _B3 * k[2, i] + _B4 * k[3, i]
                                       + _B5 * k[4, i] + _B6 * k[5, i])
            rhs(t + hs, ynew, k[6], data)
            state[S_EVALS] += 6.0
            steps += 1
            err = 0.0
            for i in range(ny):
                e = hs * (_E1 * k[0, i] + _E3 * k[2, i] + _E4 * k[3, i] + _E5 * k[4, i]
                          + _E6 * k[5, i] + _E7 * k[6, i])
                sc = atol + rtol * max(abs(y[i]), abs(ynew[i]))
                err += (e / sc) ** 2
            err = math.sqrt(err / ny)
            if not math.isfinite(err):
                err = 1e10
            if err <= 1.0:
                t = t + hs
                for i in range(ny):
                    y[i] = ynew[i]
                enforce(t, y, data)
                for i in range(ny):
                    k[0, i] = k[6, i]
                # a changed layout (a winch split or merge) invalidates the stored stage
                have_k0 = remesh(t, y, data) == 0
                fac = 5.0 if err == 0.0 else min(5.0, max(0.2, 0.9 * err ** -0.2))
                if hs == h or fac < 1.0:
                    h = hs * fac
            else:
                h = hs * max(0.2, 0.9 * err ** -0.2)
            if h < 1e-14 * max(1.0, abs(t)):
                state[S_STATUS] = STEP_UNDERFLOW
                state[S_TFAIL] = t
                state[S_ELEMENT] = check(t, y, data)
                state[S_H] = h
                state[S_STEPS] = steps
                return j
        bad = check(t, y, data)
        if bad >= 0:
            state[S_STATUS] = BLOWUP
            state[S_TFAIL] = t
            state[S_ELEMENT] = bad
            state[S_H] = h
            state[S_STEPS] = steps
            return j
        for i in range(ny):
            Y[j, i] = y[i]
    state[S_H] = h
    state[S_STEPS] = steps
    return t_outputs.size


def compiled_loop(template, model):
    """``template`` (:func:`rk4_chunk` or :func:`rk45_chunk`) compiled with ``model``'s
    kernels, cached on disk per formulation (_jit.bind_kernels)."""
    return bind_kernels(template, {r: getattr(model, r) for r in KERNEL_ROLES})


class RK4Workspace:
    """The work arrays of one RK4 run (allocated once, reused by every chunk): four stages
    and a trial state (n_state each) and the status array ``state`` (RK4_STATE_SIZE)."""

    def __init__(self, ny: int) -> None:
        self.k = tuple(np.empty(ny) for _ in range(5))
        self.state = np.zeros(RK4_STATE_SIZE)

    def run(self, model, data: tuple, t_start: float, dt: float, steps_done: int,
            steps_per_output: int, n_outputs: int, y: np.ndarray, Y: np.ndarray) -> int:
        """:func:`rk4_chunk` with the model's kernels and the run's ``data`` tuple."""
        k1, k2, k3, k4, yt = self.k
        return compiled_loop(rk4_chunk, model)(data, t_start, dt, steps_done, steps_per_output,
                                               n_outputs, y, Y, k1, k2, k3, k4, yt, self.state)


class RK45Workspace:
    """The work arrays of one Dormand–Prince run (allocated once, reused by every chunk):
    the stages (7, n_state), a trial and a new state, and the status array ``state``
    (RK45_STATE_SIZE) with the first trial step ``h0`` [s]."""

    def __init__(self, ny: int, h0: float) -> None:
        self.k = np.empty((7, ny))
        self.yt = np.empty(ny)
        self.ynew = np.empty(ny)
        self.state = np.zeros(RK45_STATE_SIZE)
        self.state[S_ELEMENT] = -1.0
        self.state[S_H] = h0

    def run(self, model, data: tuple, t: float, t_outputs: np.ndarray, y: np.ndarray,
            Y: np.ndarray, rtol: float, atol: float, max_steps: int) -> int:
        """:func:`rk45_chunk` with the model's kernels and the run's ``data`` tuple."""
        return compiled_loop(rk45_chunk, model)(data, t, t_outputs, y, Y, self.k, self.yt,
                                                self.ynew, rtol, atol, max_steps, self.state)
