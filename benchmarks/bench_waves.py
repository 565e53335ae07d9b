"""Timing benchmark: what wave kinematics cost per point, direct sums against the grid.

A line of ``NODES`` points from (0, 0, -60) to (300, 0, -1) m (a mooring-like reach from
the seabed region to just below the surface) swings slowly (1 m amplitude, 20 s period) in
a sea of 1 regular component (H = 2 m, T = 8 s) or a 200-component JONSWAP realisation
(Hs = 4 m, Tp = 10 s, gamma = 3.3), water depth 80 m, Wheeler stretching. A compiled loop
calls ``waves.wave_kinematics`` at every point for the four RK4 stage times of each step
(t, t + dt/2 twice, t + dt) with dt = 1 ms over ``DURATION`` s, as a formulation's right-hand
side does. Reported: ns per point evaluation (best of three, compilation excluded), with the
grid's slice fills included (amortised over the run: the grid starts empty), and the grid's
interpolation error against the direct sum (RMS over 4000 random points of the line's
region and times, relative to the RMS of the direct value; and the largest error relative
to the largest value).

Usage::

    python benchmarks/bench_waves.py [--quick] [--out benchmarks/results_waves.md]
"""

from __future__ import annotations

import argparse
import datetime
import math
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from _common import cpu_model, versions
from numba import njit

from tetherdyn import waves as W

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results_waves.md"
NODES = 50
DT = 1e-3  # [s]
DEPTH = 80.0  # [m]
START = np.array([0.0, 0.0, -60.0])
END = np.array([300.0, 0.0, -1.0])

SEAS = {
    # (a grid key: the automatic grid starts at W.GRID_MIN_COMPONENTS)
    "1 component (Airy H 2 m, T 8 s)": SimpleNamespace(
        type="airy", height=2.0, period=8.0, direction_deg=20.0,
        grid=dict(tolerance=W.GRID_TOLERANCE)),
    "200 components (JONSWAP Hs 4 m, Tp 10 s)": SimpleNamespace(
        type="jonswap", hs=4.0, tp=10.0, gamma=3.3, seed=1, components=200,
        direction_deg=20.0),
}


@njit(cache=False)
def _run(waves, grid, par, nodes, steps, dt, out):
    """Evaluate the kinematics at every node for the 4 RK4 stage times of each step."""
    acc = 0.0
    n = nodes.shape[0]
    for k in range(steps):
        t = k * dt
        sway = math.sin(2.0 * math.pi * t / 20.0)
        for stage in range(4):
            ts = t + (0.0, 0.5, 0.5, 1.0)[stage] * dt
            for i in range(n):
                W.wave_kinematics(waves, grid, par, ts, nodes[i, 0] + sway, nodes[i, 1],
                                  nodes[i, 2] + 0.3 * sway, out)
                acc += out[1]
    return acc


def line_nodes() -> np.ndarray:
    s = np.linspace(0.0, 1.0, NODES)[:, None]
    return START + s * (END - START)


def timing(section, gridded: bool, duration: float) -> float:
    """ns per point evaluation, best of three runs from an empty grid."""
    nodes = line_nodes()
    par = np.zeros(W.N_WAVE_PAR)
    W.fill_wave_par(par, section, 0.0, DEPTH)
    steps = int(round(duration / DT))
    best = math.inf
    for rep in range(4):
        table, grid = W.build_waves(section, 9.81, DEPTH, 0.0, nodes if gridded else None)
        out = np.zeros(7)
        n = steps if rep else 2  # first: compile
        t0 = time.perf_counter()
        _run(table, grid, par, nodes, n, DT, out)
        el = time.perf_counter() - t0
        if rep:
            best = min(best, el)
    return best / (steps * 4 * NODES) * 1e9


def interpolation_error(section) -> tuple[np.ndarray, np.ndarray]:
    """(RMS error / RMS value, max error / max value) of eta, |velocity|, |acceleration| of
    the grid against the direct sums at 4000 random points of the line's region."""
    nodes = line_nodes()
    table, grid = W.build_waves(section, 9.81, DEPTH, 0.0, nodes)
    par = np.zeros(W.N_WAVE_PAR)
    W.fill_wave_par(par, section, 0.0, DEPTH)
    rng = np.random.default_rng(0)
    pts = rng.uniform(START - [0.0, 5.0, 0.0], END + [0.0, 5.0, 3.0], size=(4000, 3))
    times = np.sort(rng.uniform(0.0, 100.0, 4000))
    a, b = np.zeros(7), np.zeros(7)
    err, ref = np.zeros((4000, 3)), np.zeros((4000, 3))
    for i, ((x, y, z), t) in enumerate(zip(pts, times, strict=True)):
        W.wave_kinematics(table, grid, par, t, x, y, z, a)
        W.wave_kinematics(table, np.zeros(1), par, t, x, y, z, b)
        for j, sl in enumerate((slice(0, 1), slice(1, 4), slice(4, 7))):
            err[i, j] = np.linalg.norm(a[sl] - b[sl])
            ref[i, j] = np.linalg.norm(b[sl])
    rms = np.sqrt((err**2).mean(0) / (ref**2).mean(0))
    return rms, err.max(0) / ref.max(0)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="10 s of sea instead of 60 s")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    duration = 10.0 if args.quick else 60.0
    rows = []
    for name, section in SEAS.items():
        direct = timing(section, False, min(duration, 2.0))
        gridded = timing(section, True, duration)
        rms, peak = interpolation_error(section)
        table, grid = W.build_waves(section, 9.81, DEPTH, 0.0, line_nodes())
        rows.append((name, direct, gridded, rms, peak, grid))
        print(name, f"direct {direct:.1f} ns, grid {gridded:.1f} ns", rms, peak, flush=True)
    lines = [
        "# Wave kinematics per point: direct sums against the precomputed grid",
        "",
        f"`python benchmarks/bench_waves.py{' --quick' if args.quick else ''}` on "
        f"{datetime.date.today()}, {cpu_model()}; {versions()}.",
        "",
        f"{NODES} points on a line from {START.tolist()} to {END.tolist()} m swinging slowly, "
        f"depth {DEPTH:g} m, Wheeler stretching, 4 RK4 stage times per step, dt = {DT:g} s, "
        f"{duration:g} s of sea (direct sums: {min(duration, 2.0):g} s); best of 3, "
        f"compilation excluded, the grid's slice fills included (it starts empty).",
        "",
        "| sea | direct [ns/point] | grid [ns/point] | direct / grid | grid spacing [m] "
        "| slice interval [s] |",
        "|---|---|---|---|---|---|",
    ]
    for name, direct, gridded, _, _, grid in rows:
        lines.append(f"| {name} | {direct:.1f} | {gridded:.1f} | {direct / gridded:.1f} | "
                     f"{grid[W.G_DA]:.3g} | {grid[W.G_DT]:.3g} |")
    lines += [
        "",
        "Interpolation error of the grid (default tolerance "
        f"{W.GRID_TOLERANCE:g}) against the direct sum, 4000 random points and times in the "
        "line's region (up to 3 m above its top, so crossing the surface): RMS error / RMS "
        "value, and largest error / largest value.",
        "",
        "| sea | eta RMS | velocity RMS | acceleration RMS | eta max | velocity max | "
        "acceleration max |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, _, _, rms, peak, _ in rows:
        lines.append(f"| {name} | " + " | ".join(f"{v:.2%}" for v in (*rms, *peak)) + " |")
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
