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
to the largest value), over all points and over the points below both surfaces (the grid's
eta and the exact one: near the surface a point that one of them puts in the air gets no
kinematics, so there the difference is the whole value over a band as thick as the eta
error).

For scale, the same process times the calm-water step of a lumped_mass line with the same
node count in water (drag and added mass, RK4): the issue's budget for 200 components is
at most 2x the calm-water step, i.e. the waves may add one calm step per node-step (their
four kinematics evaluations plus the rest of the sea's work, measured by sea-core).

Usage::

    python benchmarks/bench_waves.py [--quick] [--out benchmarks/results_waves.md]
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from _common import cpu_model, versions
from numba import njit

from tetherdyn import simulate
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
    """ns per point evaluation of one run from an empty grid (compiled before)."""
    nodes = line_nodes()
    par = W.wave_par(section, 0.0, DEPTH)
    table, grid = W.build_waves(section, 9.81, DEPTH, 0.0, nodes if gridded else None)
    out = np.zeros(7)
    _run(table, grid.copy(), par, nodes, 2, DT, out)  # compile (once per process)
    steps = int(round(duration / DT))
    t0 = time.perf_counter()
    _run(table, grid, par, nodes, steps, DT, out)
    return (time.perf_counter() - t0) / (steps * 4 * NODES) * 1e9


def calm_case(duration: float) -> dict:
    """A lumped_mass line of NODES nodes in calm water (drag, added mass, current, RK4)."""
    return dict(
        tether=dict(length=300.0, diameter=0.05, mass_per_length=5.0, EA=2.0e7,
                    cd_normal=1.2, cd_tangential=0.01, ca_normal=1.0),
        model=dict(type="lumped_mass", elements=NODES - 1),
        environment=dict(fluid_density=1025.0, current=[0.5, 0.0, 0.0]),
        start=dict(type="fixed", position=[0.0, 0.0, 0.0]),
        end=dict(type="free", mass=100.0),
        initial=dict(direction=[0.0, 0.0, -1.0]),
        solver=dict(method="rk4", dt=DT, duration=duration, output_interval=0.1),
    )


def calm_step_ns(duration: float) -> float:
    """ns per node-step of the calm-water line, integration only (ds.attrs['wall_time_s'])."""
    ds = simulate(calm_case(duration), progress=False)
    return 1e9 * ds.attrs["wall_time_s"] / (duration / DT) / NODES


def interpolation_error(section) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(RMS error / RMS value, max error / max value, RMS below both surfaces) of eta,
    |velocity|, |acceleration| of the grid against the direct sums at 4000 random points of
    the line's region."""
    nodes = line_nodes()
    table, grid = W.build_waves(section, 9.81, DEPTH, 0.0, nodes)
    par = W.wave_par(section, 0.0, DEPTH)
    rng = np.random.default_rng(0)
    pts = rng.uniform(START - [0.0, 5.0, 0.0], END + [0.0, 5.0, 3.0], size=(4000, 3))
    times = np.sort(rng.uniform(0.0, 100.0, 4000))
    a, b = np.zeros(7), np.zeros(7)
    err, ref = np.zeros((4000, 3)), np.zeros((4000, 3))
    below = np.zeros(4000, dtype=bool)
    for i, ((x, y, z), t) in enumerate(zip(pts, times, strict=True)):
        W.wave_kinematics(table, grid, par, t, x, y, z, a)
        W.wave_kinematics(table, np.zeros(1), par, t, x, y, z, b)
        below[i] = z < min(a[0], b[0])
        for j, sl in enumerate((slice(0, 1), slice(1, 4), slice(4, 7))):
            err[i, j] = np.linalg.norm(a[sl] - b[sl])
            ref[i, j] = np.linalg.norm(b[sl])
    rms = np.sqrt((err**2).mean(0) / (ref**2).mean(0))
    rms_below = np.sqrt((err[below] ** 2).mean(0) / (ref[below] ** 2).mean(0))
    return rms, err.max(0) / ref.max(0), rms_below


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="10 s of sea instead of 60 s")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    duration = 10.0 if args.quick else 60.0
    load0 = os.getloadavg()[0]
    calm_duration = 5.0 if args.quick else 20.0
    calm_step_ns(0.2)  # compile
    # best of three, the calm step and the grid runs interleaved (the machine's load varies)
    calm, gridded = math.inf, dict.fromkeys(SEAS, math.inf)
    for _ in range(3):
        calm = min(calm, calm_step_ns(calm_duration))
        for name, section in SEAS.items():
            gridded[name] = min(gridded[name], timing(section, True, duration))
    print(f"calm-water lumped_mass step: {calm:.1f} ns per node-step", flush=True)
    rows = []
    for name, section in SEAS.items():
        direct = min(timing(section, False, min(duration, 2.0)) for _ in range(3))
        rms, peak, rms_below = interpolation_error(section)
        table, grid = W.build_waves(section, 9.81, DEPTH, 0.0, line_nodes())
        rows.append((name, direct, gridded[name], rms, peak, rms_below, grid))
        print(name, f"direct {direct:.1f} ns, grid {gridded[name]:.1f} ns", rms, peak,
              rms_below, flush=True)
    load1 = os.getloadavg()[0]
    lines = [
        "# Wave kinematics per point: direct sums against the precomputed grid",
        "",
        f"`python benchmarks/bench_waves.py{' --quick' if args.quick else ''}` on "
        f"{datetime.date.today()}, {cpu_model()}; {versions('numba', 'numpy')}.",
        "",
        f"{NODES} points on a line from {START.tolist()} to {END.tolist()} m swinging slowly, "
        f"depth {DEPTH:g} m, Wheeler stretching, 4 RK4 stage times per step, dt = {DT:g} s, "
        f"{duration:g} s of sea (direct sums: {min(duration, 2.0):g} s); best of 3 "
        f"(grid runs interleaved with the calm-water runs), compilation excluded, the grid's "
        f"slice fills included (it starts empty). Load "
        f"average {load0:.2f} at the start, {load1:.2f} at the end (2 cores shared with other "
        f"work: compare numbers within this table only).",
        "",
        f"Calm-water step of a {NODES}-node lumped_mass line in water (RK4, dt = {DT:g} s): "
        f"**{calm:.1f} ns per node-step**.",
        "",
        "| sea | direct [ns/point] | grid [ns/point] | direct / grid | grid, 4 RK4 stages "
        "[ns/node-step] | / calm step | grid spacing [m] | slice interval [s] |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, direct, gridded, _, _, _, grid in rows:
        lines.append(f"| {name} | {direct:.1f} | {gridded:.1f} | {direct / gridded:.1f} | "
                     f"{4 * gridded:.0f} | {4 * gridded / calm:.2f} | {grid[W.G_DA]:.3g} | "
                     f"{grid[W.G_DT]:.3g} |")
    lines += [
        "",
        "Interpolation error of the grid (default tolerance "
        f"{W.GRID_TOLERANCE:g}) against the direct sum, 4000 random points and times in the "
        "line's region (up to 3 m above its top, so crossing the surface): RMS error / RMS "
        "value, and largest error / largest value.",
        "",
        "| sea | eta RMS | velocity RMS | acceleration RMS | eta max | velocity max | "
        "acceleration max | velocity RMS below both surfaces | acceleration RMS below |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, _, _, rms, peak, below, _ in rows:
        lines.append(f"| {name} | " + " | ".join(f"{v:.2%}" for v in (*rms, *peak, *below[1:]))
                     + " |")
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
