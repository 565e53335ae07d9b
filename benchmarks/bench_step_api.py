"""Benchmark: the co-simulation step API (``tetherdyn.Simulator.step``) in a 1 kHz host loop.

A host drives the top of a hanging 30 m umbilical (lumped mass, sea water, drag and added
mass) with a sinusoidal heave and reads the top force every millisecond. For N = 8, 32 and
128 elements we time 10 simulated seconds of that loop (10 000 ``step`` calls, RK4 at
solver.dt = 0.25 ms, so 4 internal steps per call) and the same motion run in one piece by
``tetherdyn.simulate`` (prescribed top, outputs every 1 ms). We print

* wall time per simulated second of the host loop and its real-time factor (simulated /
  wall; > 1 is faster than real time);
* the overhead per ``step`` call: (host-loop wall − one-piece integration wall) / calls.

Usage: ``python benchmarks/bench_step_api.py [--out benchmarks/results_step_api.md]``
"""

from __future__ import annotations

import argparse
import math
import platform
import time
from pathlib import Path

import numpy as np

from tetherdyn import Simulator, simulate

HOST_DT = 1e-3
SOLVER_DT = 2.5e-4
DURATION = 10.0
AMPLITUDE, PERIOD = 0.5, 4.0  # heave of the top [m], [s]


def case(elements: int, prescribed: bool) -> dict:
    t = np.arange(0.0, DURATION + 0.05, 0.05)
    w = 2 * math.pi / PERIOD
    start = (dict(type="prescribed", trajectory=dict(
        t=t.tolist(), x=[0.0] * t.size, y=[0.0] * t.size,
        z=(AMPLITUDE * np.sin(w * t)).tolist(), vx=[0.0] * t.size, vy=[0.0] * t.size,
        vz=(AMPLITUDE * w * np.cos(w * t)).tolist()))
             if prescribed else dict(type="fixed", position=[0.0, 0.0, 0.0]))
    return dict(
        tether=dict(length=30.0, diameter=0.015, mass_per_length=0.22, EA=5.0e4,
                    cd_normal=1.2, cd_tangential=0.01),
        model=dict(type="lumped_mass", elements=elements),
        environment=dict(fluid_density=1025.0),
        start=start,
        solver=dict(method="rk4", dt=SOLVER_DT, duration=DURATION, output_interval=HOST_DT),
    )


def host_loop(elements: int) -> float:
    """Wall seconds of DURATION simulated seconds of 1 kHz host stepping."""
    sim = Simulator(case(elements, prescribed=False))
    w = 2 * math.pi / PERIOD
    sim.step(HOST_DT, start=(np.zeros(3), np.zeros(3)))  # compile outside the timing
    sim = Simulator(case(elements, prescribed=False))
    pos = np.zeros(3)
    vel = np.zeros(3)
    n = int(round(DURATION / HOST_DT))
    t0 = time.perf_counter()
    for k in range(1, n + 1):
        t = k * HOST_DT
        pos[2] = AMPLITUDE * math.sin(w * t)
        vel[2] = AMPLITUDE * w * math.cos(w * t)
        sim.step(HOST_DT, start=(pos, vel))
    return time.perf_counter() - t0


def one_piece(elements: int) -> float:
    simulate(case(elements, prescribed=True), progress=False)  # compile
    return float(simulate(case(elements, prescribed=True), progress=False).attrs["wall_time_s"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None, help="write the markdown table here")
    args = parser.parse_args(argv)
    calls = int(round(DURATION / HOST_DT))
    lines = [
        "| elements | host loop wall / sim. s | real-time factor | one-piece wall / sim. s "
        "| overhead per step call |",
        "|---|---|---|---|---|",
    ]
    for n in (8, 32, 128):
        loop = min(host_loop(n) for _ in range(3))
        piece = min(one_piece(n) for _ in range(3))
        lines.append(f"| {n} | {loop / DURATION * 1e3:.1f} ms | {DURATION / loop:.1f}× "
                     f"| {piece / DURATION * 1e3:.1f} ms | {(loop - piece) / calls * 1e6:.1f} µs |")
        print(lines[-1], flush=True)
    text = "\n".join([
        "# Step API in a 1 kHz host loop",
        "",
        f"Machine: {platform.processor() or platform.machine()}, {platform.python_version()}; "
        "2 cores shared (best of 3).",
        f"Hanging 30 m umbilical in sea water, top heaving ±{AMPLITUDE} m every {PERIOD} s; "
        f"RK4 at {SOLVER_DT * 1e3:g} ms, host step {HOST_DT * 1e3:g} ms, {DURATION:g} s. "
        "Command: `python benchmarks/bench_step_api.py --out benchmarks/results_step_api.md`.",
        "",
        *lines,
        "",
    ])
    if args.out:
        Path(args.out).write_text(text)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
