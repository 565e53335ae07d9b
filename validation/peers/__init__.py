"""Runners for peer codes used in comparisons (optional extras: `pip install tetherdyn[peers]`)."""

import math


def output_grid(duration: float, dt: float, output_interval: float | None,
                step: str = "dt") -> tuple[int, int, int]:
    """(steps, steps per output, outputs incl. t = 0) of a fixed-step peer run [s].

    ``duration`` must be a whole number of steps and of output intervals, and the output
    interval (default: every step) a whole number of steps; ``step`` names the step in the
    error (``dt``, ``dtM``).
    """
    n_steps = int(round(duration / dt))
    if n_steps < 1 or not math.isclose(n_steps * dt, duration, rel_tol=1e-9, abs_tol=1e-12):
        raise ValueError(f"duration must be a positive integer multiple of {step}")
    stride = 1 if output_interval is None else int(round(output_interval / dt))
    if stride < 1 or not math.isclose(stride * dt, output_interval or dt, rel_tol=1e-9):
        raise ValueError(f"output_interval must be a positive integer multiple of {step}")
    if n_steps % stride:
        raise ValueError("duration must be an integer multiple of output_interval")
    return n_steps, stride, n_steps // stride + 1
