"""Timing benchmark: what one 6-DOF body costs per call (rigid_body.py, issue 19).

A floating body (mass 2e5 kg, full inertia tensor, centre of gravity and buoyancy off the
reference point, waterplane hydrostatics, drag and added mass on all six axes) and a
submerged one (no hydrostatics: Morison flow inertia instead) are stepped by a compiled
RK4 loop (dt = 10 ms, 4 stages per step) with three lines attached at fairleads: per stage
``attachment_kinematics`` and ``add_attachment_load`` for each fairlead (the lines' force
stands in as a linear spring to a fixed anchor) and one ``body_derivative``. Seas: one
fluid with a uniform current; a water level with a current table; the same in a
200-component JONSWAP sea (waves.py's automatic grid).

Reported: µs per body stage (one derivative plus three attachments' kinematics and loads)
and µs for the derivative alone, best of three interleaved runs, compilation excluded.

Usage::

    python benchmarks/bench_rigid_body.py [--quick] [--out benchmarks/results_rigid_body.md]
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
from numba import njit

from tetherdyn import load_case, rigid_body, sea

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results_rigid_body.md"
DT = 0.01  # [s]
STAGES = (0.0, 0.5, 0.5, 1.0)
FAIRLEADS = np.array([[20.0, 0.0, -5.0], [-10.0, 17.3, -5.0], [-10.0, -17.3, -5.0]])
ANCHORS = np.array([[300.0, 0.0, -100.0], [-150.0, 260.0, -100.0], [-150.0, -260.0, -100.0]])

SEAS = {
    "one fluid, uniform current": dict(fluid_density=1025.0, current=[0.5, 0.0, 0.0]),
    "water level, current table": dict(
        fluid_density=1025.0, water_level=0.0,
        current=dict(z=[-100.0, -20.0, 0.0], x=[0.1, 0.4, 0.5], y=[0.0, 0.1, 0.0])),
    "water level, JONSWAP 200 components (grid)": dict(
        fluid_density=1025.0, water_level=0.0, current=[0.5, 0.0, 0.0],
        waves=dict(type="jonswap", hs=4.0, tp=10.0, components=200, direction_deg=20.0),
        seabed=dict(z=-100.0)),
}

FLOATING = dict(mass=2.0e5, inertia=[[5e6, 1e4, 0.0], [1e4, 6e6, 0.0], [0.0, 0.0, 8e6]],
                center_of_gravity=[0.1, 0.0, -2.0], volume=200.0,
                center_of_buoyancy=[0.0, 0.0, -3.0],
                waterplane=dict(area=120.0, inertia=[1500.0, 1800.0, 0.0]),
                drag_area=[60.0, 60.0, 120.0], rotational_drag_area=[2e4, 2e4, 3e4],
                added_mass=[5e4, 5e4, 1.5e5, 2e6, 2e6, 1e6], position=[0.0, 0.0, 0.3])
SUBMERGED = {**{k: v for k, v in FLOATING.items()
                if k not in ("waterplane", "position", "center_of_buoyancy")},
             "volume": 150.0, "position": [0.0, 0.0, -40.0],
             "center_of_buoyancy": [0.0, 0.0, -1.0]}


@njit(cache=False, _nrt=False)
def _steps(derivative_only, y, props, par, cur, wind, waves, grid, steps, dt, f6, work,
           k1, yt, pv):
    for n in range(steps):
        t = n * dt
        for s in range(4):
            ts = t + STAGES[s] * dt
            for a in range(13):
                yt[a] = y[a] + STAGES[s] * dt * k1[a]
            for i in range(6):
                f6[i] = 0.0
            if not derivative_only:
                for j in range(FAIRLEADS.shape[0]):
                    rigid_body.attachment_kinematics(yt, FAIRLEADS[j], pv[0:3], pv[3:6])
                    for a in range(3):  # a linear spring to the anchor stands in for a line
                        pv[6 + a] = 1e4 * (ANCHORS[j, a] - pv[a])
                    rigid_body.add_attachment_load(yt, FAIRLEADS[j], pv[6:9], f6)
            rigid_body.body_derivative(ts, yt, f6, props, par, cur, wind, waves, grid, 0.0,
                                       0.0, -9.81, work, k1)
        for a in range(13):
            y[a] += dt * 1e-3 * k1[a]  # a small, bounded drift: the cost, not the motion
        rigid_body.normalize_quaternion(y)
    return y[0]


def _arrays(env: dict) -> dict:
    case = load_case(dict(tether=dict(length=300.0, diameter=0.1, mass_per_length=50.0,
                                      EA=1e9),
                          model=dict(type="lumped_mass", elements=10),
                          solver=dict(dt=DT, duration=1.0), environment=env))
    return sea.sea_arrays(case.environment, ANCHORS, 0)


def timing(body_spec: dict, env: dict, derivative_only: bool, duration: float) -> float:
    """µs per stage (compiled before)."""
    body = rigid_body.Body.model_validate(body_spec)
    a = _arrays(env)
    props = rigid_body.body_props(body, 1025.0, 9.81)
    y = rigid_body.initial_state(body)
    args = (props, a["sea_par"], a["sea_current"], a["sea_wind"], a["sea_waves"],
            a["sea_grid"])
    scratch = (np.zeros(6), np.zeros(rigid_body.WORK_SIZE), np.zeros(13), np.zeros(13),
               np.zeros(9))
    steps = int(round(duration / DT))
    _steps(derivative_only, y.copy(), *args, 2, DT, *scratch)
    t0 = time.perf_counter()
    _steps(derivative_only, y, *args, steps, DT, *scratch)
    return (time.perf_counter() - t0) / (steps * 4) * 1e6


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="200 s of motion instead of 2000 s")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    duration = 200.0 if args.quick else 2000.0
    load0 = os.getloadavg()[0]
    cases = {}
    for body_name, spec in (("floating (waterplane)", FLOATING),
                            ("submerged (Morison inertia)", SUBMERGED)):
        for sea_name, env in SEAS.items():
            cases[(body_name, sea_name)] = (spec, env)
    best = {(k, d): math.inf for k in cases for d in (False, True)}
    for _ in range(3):  # best of three, interleaved (the machine's load varies)
        for key, (spec, env) in cases.items():
            for d in (False, True):
                best[key, d] = min(best[key, d], timing(spec, env, d, duration))
            print(f"{key}: {best[key, False]:.3f} / {best[key, True]:.3f} µs", flush=True)
    load1 = os.getloadavg()[0]
    lines = [
        "# One 6-DOF body per call",
        "",
        f"`python benchmarks/bench_rigid_body.py{' --quick' if args.quick else ''}` on "
        f"{datetime.date.today()}, {cpu_model()}; {versions('numba')}.",
        "",
        f"A body stepped by a compiled RK4 loop, dt = {DT:g} s, {duration:g} s of simulated "
        f"time, 4 stages per step; per stage: {len(FAIRLEADS)} fairleads' "
        "`attachment_kinematics` + `add_attachment_load` (a linear spring to an anchor stands "
        "in for each line) and one `body_derivative`. Best of 3 interleaved runs, "
        f"compilation excluded. Load average {load0:.2f} at the start, {load1:.2f} at the "
        "end (2 cores shared with other work: compare numbers within this table only).",
        "",
        "| body | sea | µs per body stage (derivative + 3 attachments) "
        "| µs per stage, derivative only |",
        "|---|---|---|---|",
    ]
    for (body_name, sea_name) in cases:
        lines.append(f"| {body_name} | {sea_name} | {best[(body_name, sea_name), False]:.3f} "
                     f"| {best[(body_name, sea_name), True]:.3f} |")
    lines += [
        "",
        "The derivative evaluates the fluid once, at the reference point (sea.fluid_at): "
        "with waves that is one wave-kinematics evaluation per stage, as for one line node.",
    ]
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
