"""Timing benchmark: what the sea's kernels (sea.py) cost per element and per node.

A line of ``NODES`` nodes from (0, 0, -60) to (300, 0, 2) m (it crosses the surface near its
top) swings slowly (1 m amplitude, 20 s period). A compiled loop evaluates, for the four
RK4 stage times of each step (dt = 1 ms), the fluid load of every element as a formulation's
right-hand side does:

- ``calm``: ``hydro.element_drag`` on the element's mean velocity relative to a uniform
  current (the calm-water path's fluid work per element; buoyancy and added mass are
  constants there);
- ``element_fluid`` in: one fluid with a uniform current (no water level); a water level
  with a current profile table (buoyancy per medium, wetted fraction, drag, inertia); the
  same in a 200-component JONSWAP sea (Hs 4 m, Tp 10 s, waves.py's automatic grid; the
  surface at both ends and the kinematics at the wet centroid);
- ``seabed_force`` at every node of the same line laid flat 1 mm into a flat bed at
  z = -60 m and sliding along it (every node grounded, friction on), plus one
  ``update_anchor`` per node and step.

Reported: ns per element (or node) evaluation, best of three interleaved runs, compilation
excluded; and the per-node-step cost (4 stages) beside the calm-water lumped_mass step of
benchmarks/bench_waves.py (same line size) for scale.

The issue's question itself (with 200 wave components or seabed contact, at most 2x the
calm-water step) is answered end to end by the whole-step table: whole RK4 runs
(``tetherdyn.simulate``, integration time ``wall_time_s`` only) of
benchmarks/bench_lumped_mass.py's sea cases (its ``make_sea_case``: the 10 m water cable
under a water level, calm / JONSWAP Hs 2 m, Tp 8 s, 200 components / a flat seabed with
friction that its lower part lands and drags on), the three kinds interleaved, best of
three, in µs per node-step and as a ratio to the calm step of the same run.

Usage::

    python benchmarks/bench_sea.py [--quick] [--out benchmarks/results_sea.md]
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import time
from pathlib import Path

import numpy as np
from _common import cpu_model, versions
from bench_lumped_mass import SEA_KINDS, make_sea_case
from bench_waves import calm_step_ns
from numba import njit

from tetherdyn import load_case, sea, simulate
from tetherdyn.hydro import element_drag

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results_sea.md"
NODES = 50
DT = 1e-3  # [s]
START = np.array([0.0, 0.0, -60.0])
END = np.array([300.0, 0.0, 2.0])
D = 0.05  # [m]
AREA = math.pi * D * D / 4
STAGES = (0.0, 0.5, 0.5, 1.0)

SEAS = {
    "one fluid, uniform current": dict(fluid_density=1025.0, current=[0.5, 0.0, 0.0]),
    "water level, current table": dict(
        fluid_density=1025.0, water_level=0.0,
        current=dict(z=[-80.0, -20.0, 0.0], x=[0.1, 0.4, 0.5], y=[0.0, 0.1, 0.0])),
    "water level, JONSWAP 200 components (grid)": dict(
        fluid_density=1025.0, water_level=0.0, current=[0.5, 0.0, 0.0],
        waves=dict(type="jonswap", hs=4.0, tp=10.0, components=200, direction_deg=20.0),
        seabed=dict(z=-80.0)),
}
SEABED = dict(fluid_density=1025.0, water_level=0.0,
              seabed=dict(z=-60.0, friction=dict(axial=0.5, lateral=0.8)))


def line_nodes(flat: bool = False) -> np.ndarray:
    s = np.linspace(0.0, 1.0, NODES)[:, None]
    end = np.array([300.0, 0.0, -60.0]) if flat else END
    return START + s * (end - START)


@njit(cache=False, _nrt=False)
def _calm(nodes, steps, dt, out):
    acc = 0.0
    n = nodes.shape[0]
    for k in range(steps):
        t = k * dt
        for stage in range(4):
            v = 2.0 * math.pi / 20.0 * math.cos(2.0 * math.pi * (t + STAGES[stage] * dt) / 20.0)
            for e in range(n - 1):
                dx = nodes[e + 1, 0] - nodes[e, 0]
                dy = nodes[e + 1, 1] - nodes[e, 1]
                dz = nodes[e + 1, 2] - nodes[e, 2]
                L = math.sqrt(dx * dx + dy * dy + dz * dz)
                element_drag(0, 1025.0, D, L, 1.2, 0.01, dx / L, dy / L, dz / L, v - 0.5,
                             0.0, 0.3 * v, out)
                acc += out[0]
    return acc


@njit(cache=False, _nrt=False)
def _fluid(par, current, wind, waves, grid, nodes, steps, dt, out):
    acc = 0.0
    n = nodes.shape[0]
    for k in range(steps):
        t = k * dt
        for stage in range(4):
            ts = t + STAGES[stage] * dt
            sway = math.sin(2.0 * math.pi * ts / 20.0)
            v = 2.0 * math.pi / 20.0 * math.cos(2.0 * math.pi * ts / 20.0)
            for e in range(n - 1):
                sea.element_fluid(par, current, wind, waves, grid, ts, 0, D, AREA, 6.3, 1.2,
                                  0.01, 1.0, 0.0, nodes[e, 0] + sway, nodes[e, 1],
                                  nodes[e, 2] + 0.3 * sway, nodes[e + 1, 0] + sway,
                                  nodes[e + 1, 1], nodes[e + 1, 2] + 0.3 * sway, v, 0.0,
                                  0.3 * v, v, 0.0, 0.3 * v, 0.0, 0.0, -9.81, out)
                acc += out[0] + out[5]
    return acc


@njit(cache=False, _nrt=False)
def _seabed(par, bed, axes, anchor, nodes, steps, dt, out):
    acc = 0.0
    n = nodes.shape[0]
    for k in range(steps):
        t = k * dt
        for stage in range(4):
            sway = math.sin(2.0 * math.pi * (t + STAGES[stage] * dt) / 20.0)
            for i in range(n):
                acc += sea.seabed_force(par, bed, axes, anchor, i, nodes[i, 0] + sway,
                                        nodes[i, 1], nodes[i, 2] - 1e-3, 0.1, 0.0, 0.0, 1.0,
                                        0.0, 0.0, 6.3, D, out)
        for i in range(n):
            sea.update_anchor(par, bed, axes, anchor, i, nodes[i, 0] + sway, nodes[i, 1],
                              nodes[i, 2] - 1e-3, 1.0, 0.0, 0.0, 6.3, D)
    return acc


def _arrays(env: dict, nodes: np.ndarray) -> dict:
    case = load_case(dict(tether=dict(length=300.0, diameter=D, mass_per_length=5.0, EA=2e7),
                          model=dict(type="lumped_mass", elements=NODES - 1),
                          solver=dict(dt=DT, duration=1.0), environment=env))
    return sea.sea_arrays(case.environment, nodes, NODES)


def timing(kind: str, env: dict | None, duration: float) -> float:
    """ns per element (or node) evaluation of one run (compiled before)."""
    steps = int(round(duration / DT))
    out = np.zeros(sea.ELEMENT_OUT)
    if kind == "calm":
        nodes = line_nodes()
        _calm(nodes, 2, DT, out)
        t0 = time.perf_counter()
        _calm(nodes, steps, DT, out)
        return (time.perf_counter() - t0) / (steps * 4 * (NODES - 1)) * 1e9
    if kind == "seabed":
        nodes = line_nodes(flat=True)
        a = _arrays(env, nodes)
        args = (a["sea_par"], a["sea_bed"], a["sea_bed_axes"])
        _seabed(*args, a["sea_anchor"].copy(), nodes, 2, DT, out)
        t0 = time.perf_counter()
        _seabed(*args, a["sea_anchor"], nodes, steps, DT, out)
        return (time.perf_counter() - t0) / (steps * 4 * NODES) * 1e9
    nodes = line_nodes()
    a = _arrays(env, nodes)
    args = (a["sea_par"], a["sea_current"], a["sea_wind"], a["sea_waves"])
    _fluid(*args, a["sea_grid"].copy(), nodes, 2, DT, out)
    t0 = time.perf_counter()
    _fluid(*args, a["sea_grid"], nodes, steps, DT, out)
    return (time.perf_counter() - t0) / (steps * 4 * (NODES - 1)) * 1e9


def whole_step_us(n_elements: int, kind: str, duration: float) -> tuple[float, int]:
    """(µs per RK4 step of one whole run, integration only; grounded nodes at its end)."""
    ds = simulate(make_sea_case(n_elements, kind, duration), progress=False)
    grounded = int(ds["grounded"].values[-1].sum()) if "grounded" in ds else 0
    return 1e6 * float(ds.attrs["wall_time_s"]) / int(ds.attrs["steps"]), grounded


def whole_steps(sizes, duration: float) -> list[tuple[int, str, float, int]]:
    """[(N, kind, best µs per step, grounded nodes)]: the kinds interleaved, best of 3."""
    rows = []
    for n in sizes:
        for kind in SEA_KINDS:
            whole_step_us(n, kind, 0.01)  # compile
        best = dict.fromkeys(SEA_KINDS, math.inf)
        grounded = dict.fromkeys(SEA_KINDS, 0)
        for _ in range(3):
            for kind in SEA_KINDS:
                us, grounded[kind] = whole_step_us(n, kind, duration)
                best[kind] = min(best[kind], us)
        for kind in SEA_KINDS:
            rows.append((n, kind, best[kind], grounded[kind]))
            print(f"whole step N={n} {kind}: {best[kind]:.2f} µs", flush=True)
    return rows


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="5 s of sea instead of 30 s")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--no-whole", action="store_true", help="skip the whole-step table")
    args = ap.parse_args(argv)
    duration = 5.0 if args.quick else 30.0
    calm_duration = 5.0 if args.quick else 20.0
    load0 = os.getloadavg()[0]
    cases = {"calm: hydro.element_drag": ("calm", None),
             **{f"element_fluid: {k}": ("fluid", v) for k, v in SEAS.items()},
             "seabed_force + update_anchor (every node grounded, friction)": ("seabed",
                                                                              SEABED)}
    calm_step_ns(0.2)  # compile
    best = dict.fromkeys(cases, math.inf)
    step = math.inf
    for _ in range(3):  # best of three, interleaved (the machine's load varies)
        step = min(step, calm_step_ns(calm_duration))
        for name, (kind, env) in cases.items():
            best[name] = min(best[name], timing(kind, env, duration))
            print(f"{name}: {best[name]:.1f} ns", flush=True)
    whole = [] if args.no_whole else whole_steps((40,) if args.quick else (40, 160),
                                                 0.3 if args.quick else 1.0)
    load1 = os.getloadavg()[0]
    base = best["calm: hydro.element_drag"]
    lines = [
        "# The sea's kernels per element and per node",
        "",
        f"`python benchmarks/bench_sea.py{' --quick' if args.quick else ''}` on "
        f"{datetime.date.today()}, {cpu_model()}; {versions()}.",
        "",
        f"{NODES} nodes on a line from {START.tolist()} to {END.tolist()} m (crossing the "
        f"surface) swinging slowly; 4 RK4 stage times per step, dt = {DT:g} s, {duration:g} s; "
        f"best of 3 interleaved runs, compilation excluded (the wave grid's slice fills "
        f"included). Load average {load0:.2f} at the start, {load1:.2f} at the end (2 cores "
        f"shared with other work: compare numbers within this table only).",
        "",
        f"For scale: the calm-water lumped_mass step of a {NODES}-node line in water "
        f"(benchmarks/bench_waves.py's case, RK4): **{step:.1f} ns per node-step**.",
        "",
        "| kernel, sea | ns per evaluation | / calm drag | 4 stages [ns/node-step] "
        "| / calm step |",
        "|---|---|---|---|---|",
    ]
    for name, ns in best.items():
        lines.append(f"| {name} | {ns:.1f} | {ns / base:.2f} | {4 * ns:.0f} | "
                     f"{4 * ns / step:.2f} |")
    lines += [
        "",
        "Per evaluation: an element for the fluid kernels, a node for the seabed. The last "
        "column is what the kernel alone adds to a node-step relative to the whole calm "
        "step (the issue's budget: with 200 wave components or seabed contact at most 2x "
        "the calm-water step, i.e. at most 1.0 in that column for the sea's extra work).",
    ]
    if whole:
        calm = {n: us for n, kind, us, _ in whole if kind == "calm"}
        lines += [
            "",
            "## The whole step (the issue's question)",
            "",
            "Whole RK4 runs of benchmarks/bench_lumped_mass.py's sea cases (make_sea_case: the "
            "10 m water cable, water level 5 m above its anchor; calm: no waves; waves: JONSWAP "
            "Hs 2 m, Tp 8 s, 200 components on the precomputed grid; seabed: calm, a flat bed at "
            "z = -8.5 m with kBot 3e6 Pa/m, cBot 3e4 Pa s/m, friction 0.5 along and across), "
            f"dt = 1e-4 s, {0.3 if args.quick else 1.0:g} s simulated, integration time only, "
            "the three kinds interleaved, best of 3. Required (issue 17): waves or seabed at "
            "most 2x the calm step.",
            "",
            "| sea | N | µs per step | µs per node-step | / calm step | grounded nodes at the "
            "end | ≤ 2× calm |",
            "|---|--:|--:|--:|--:|--:|---|",
        ]
        for n, kind, us, grounded in whole:
            ratio = us / calm[n]
            verdict = "" if kind == "calm" else ("met" if ratio <= 2.0 else "NOT met")
            if kind == "seabed" and grounded == 0:
                verdict += " (no node grounded: contact not exercised)"
            lines.append(f"| {kind} | {n} | {us:.2f} | {us / (n + 1):.3f} | {ratio:.2f} | "
                         f"{grounded} | {verdict} |")
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
