"""Timing benchmark: the lumped-mass cable (RHS alone and whole RK4 runs) against MoorDyn.

For N = 10 ... 320 elements this script times

* the compiled lumped-mass right-hand side alone (``model.rhs``, called K times from a
  compiled loop, so no Python call overhead is in the number) [µs per call];
* a whole ``tetherdyn.simulate`` run with RK4 (``ds.attrs["wall_time_s"]``: the time
  integration alone, no compilation and no results building) [µs per time step];
* the same cable in MoorDyn-C v2 (``validation/peers/moordyn.py``, time spent inside
  ``moordyn.Step`` only) at the same N and dt, with RK4 [µs per time step];

and prints the ratio MoorDyn / tetherdyn (> 1: tetherdyn is faster) and tetherdyn's cost
per step and element (flat when the cost is linear in N).

The cable: 10 m, 0.016 kg/m, d = 1.5875 mm, EA = 80 N, no internal damping, hanging from a
fixed anchor with a free end, released straight at 30° from the vertical, dt = 1e-4 s for
every N (below both codes' RK4 stability limit at N = 320). Two media:

* ``vacuum``: fluid_density 0 (no buoyancy, drag or added mass; tetherdyn divides by a
  scalar node mass);
* ``water``: fluid_density 1000 kg/m^3, cross-flow drag Cd_n = 1.2, Cd_t = 0.008 (on π d in
  both codes), added mass Ca_n = 1.0, Ca_t = 0 (tetherdyn solves a 3x3 mass system per node).

A "sea" section (issue 17) times the water line again in the sea: ``calm`` (a water level
5 m above the anchor, no waves: the sea path's kernels, element_fluid per element),
``waves`` (a JONSWAP sea, Hs 2 m, Tp 8 s, 200 components, the precomputed kinematics grid of
waves.py) and ``seabed`` (calm, a flat seabed at z = -8.5 m under the 10 m line, kBot 3e6
Pa/m, cBot 3e4 Pa s/m, friction 0.5 along and across: its lower part lands and drags), each
in µs per step and per node-step, with its ratio to the calm step.

Each measurement lasts at least 0.5 s (calibrated from a short run) and is repeated three
times; the best (smallest) time is reported. The two codes run interleaved so that load from
other processes hits both alike. MoorDyn is optional (``pip install moordyn==2.7.2``, the
``peers`` extra); without it its columns read "n/a".

Usage::

    python benchmarks/bench_lumped_mass.py [--quick] [--out benchmarks/results_lumped_mass.md]

``--quick`` (N = 10, 40, 160; the sea at 40, 160; 0.1 s measurements, one repetition) is a
smoke test and writes no file unless ``--out`` is given; the full run writes
``benchmarks/results_lumped_mass.md`` by default. ``--no-moordyn`` skips MoorDyn,
``--no-sea`` the sea section, ``--sea-only`` everything else.
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
from _common import compiled_rhs_time, cpu_model, fmt, versions

import tetherdyn
from tetherdyn.models import build_model
from validation.peers.moordyn import moordyn_available, run_moordyn_line

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results_lumped_mass.md"

#: the cable (SI units)
LENGTH = 10.0  # [m]
MASS_PER_LENGTH = 0.016  # [kg/m]
DIAMETER = 1.5875e-3  # [m]
EA = 80.0  # [N]
ANGLE_DEG = 30.0  # initial straight line, tilted from the vertical towards +x [deg]
DT = 1e-4  # time step of both codes [s]
OUTPUT_INTERVAL = 0.01  # results sampling of both codes [s] (100 steps)
COMPARE_AT = 1.0  # time at which node positions of the two codes are compared [s]

#: medium name -> (fluid density [kg/m^3], cd_normal, cd_tangential, ca_normal, ca_tangential)
MEDIA = {
    "vacuum": (0.0, 0.0, 0.0, 0.0, 0.0),
    "water": (1000.0, 1.2, 0.008, 1.0, 0.0),
}

FULL_N = (10, 20, 40, 80, 160, 320)
QUICK_N = (10, 40, 160)
#: the sea section's cases (water medium in the sea, module docstring) and line sizes
SEA_KINDS = ("calm", "waves", "seabed")
SEA_FULL_N = (40, 160, 320)
SEA_QUICK_N = (40, 160)
WATER_LEVEL = 5.0  # [m], above the anchor at z = 0


def make_case(n_elements: int, medium: str, duration: float) -> dict:
    """The benchmark cable as a tetherdyn case dict (lumped_mass, RK4, dt = DT)."""
    rho, cdn, cdt, can, cat = MEDIA[medium]
    return dict(
        name=f"bench-{medium}-{n_elements}",
        tether=dict(length=LENGTH, diameter=DIAMETER, mass_per_length=MASS_PER_LENGTH, EA=EA,
                    axial_damping=0.0, drag_law="cross_flow", cd_normal=cdn,
                    cd_tangential=cdt, ca_normal=can, ca_tangential=cat),
        model=dict(type="lumped_mass", elements=n_elements),
        environment=dict(fluid_density=rho),
        initial=dict(angle_from_gravity_deg=ANGLE_DEG),
        solver=dict(method="rk4", dt=DT, duration=duration, output_interval=OUTPUT_INTERVAL),
    )


def duration_for(seconds: float, us_per_step: float) -> float:
    """Simulated time [s], a whole number of output intervals, that takes ``seconds`` of CPU."""
    steps = seconds / (us_per_step * 1e-6)
    per_out = round(OUTPUT_INTERVAL / DT)
    n_out = max(int(math.ceil(COMPARE_AT / OUTPUT_INTERVAL)), math.ceil(steps / per_out))
    return n_out * OUTPUT_INTERVAL


def make_sea_case(n_elements: int, kind: str, duration: float) -> dict:
    """The water case in the sea: ``calm``, ``waves`` (JONSWAP, 200 components) or
    ``seabed`` (module docstring)."""
    case = make_case(n_elements, "water", duration)
    env = dict(fluid_density=MEDIA["water"][0], water_level=WATER_LEVEL)
    if kind == "waves":
        env["waves"] = dict(type="jonswap", hs=2.0, tp=8.0, components=200, seed=1)
    elif kind == "seabed":
        env["seabed"] = dict(z=-8.5, stiffness=3.0e6, damping=3.0e4,
                             friction=dict(axial=0.5, lateral=0.5))
    elif kind != "calm":
        raise ValueError(kind)
    case.update(name=f"bench-sea-{kind}-{n_elements}", environment=env)
    return case


def sea_row(n_elements: int, kind: str, seconds: float, repeats: int) -> dict:
    """The best µs per RK4 step of the sea case (time integration only)."""
    def run(duration):
        ds = tetherdyn.simulate(make_sea_case(n_elements, kind, duration), progress=False)
        return 1e6 * float(ds.attrs["wall_time_s"]) / int(ds.attrs["steps"]), ds

    us, _ = run(0.2)  # calibration (and compilation)
    duration = duration_for(seconds, us)
    best = math.inf
    grounded = 0
    for _ in range(repeats):
        us, ds = run(duration)
        best = min(best, us)
        if "grounded" in ds:
            grounded = int(ds["grounded"].values[-1].sum())
    return dict(kind=kind, N=n_elements, td=best, duration=duration,
                steps=int(ds.attrs["steps"]), grounded=grounded)


def sea_table(rows: list[dict]) -> str:
    """The sea section's table (markdown)."""
    calm = {r["N"]: r["td"] for r in rows if r["kind"] == "calm"}
    lines = ["| sea | N | tetherdyn µs/step | µs per node-step | / calm step | grounded nodes "
             "at the end | simulated s |", "|---|--:|--:|--:|--:|--:|--:|"]
    for r in rows:
        c = calm.get(r["N"], math.nan)
        lines.append(f"| {r['kind']} | {r['N']} | {r['td']:.2f} | {r['td'] / (r['N'] + 1):.3f}"
                     f" | {fmt(r['td'] / c, '.2f')} | {r['grounded']} | {r['duration']:.2f} |")
    return "\n".join(lines)


# -- tetherdyn -----------------------------------------------------------------------------


def run_tetherdyn(n_elements: int, medium: str, duration: float):
    """One whole RK4 run: (µs per step of the integration alone, its wall time [s], dataset)."""
    ds = tetherdyn.simulate(make_case(n_elements, medium, duration), progress=False)
    wall = float(ds.attrs["wall_time_s"])
    return 1e6 * wall / int(ds.attrs["steps"]), wall, ds


def time_rhs(n_elements: int, medium: str, y: np.ndarray, seconds: float, repeats: int):
    """(best µs per compiled RHS call, µs per call from Python, calls per repetition).

    ``y`` is the state the RHS is evaluated at (a mid-run state: taut, moving).
    """
    model = build_model(tetherdyn.load_case(make_case(n_elements, medium, 1.0)))
    y = np.ascontiguousarray(y, dtype=float)
    dydt = np.empty_like(y)
    per, k = compiled_rhs_time(model, y, seconds, repeats)
    # the same call from Python: argument unboxing of the data tuple on every call
    m = max(200, int(0.1 / max(per * 1e-6, 1e-6)))
    t0 = time.perf_counter()
    for _ in range(m):
        model.rhs(0.0, y, dydt, model.data)
    py = (time.perf_counter() - t0) / m
    return per, 1e6 * py, k


# -- MoorDyn -------------------------------------------------------------------------------


def run_md(n_elements: int, medium: str, duration: float, nodes0: np.ndarray) -> dict:
    """The same cable in MoorDyn (fixed anchor, free end, same initial nodes, RK4, dt)."""
    rho, cdn, cdt, can, cat = MEDIA[medium]
    return run_moordyn_line(
        n_elements=n_elements, length=LENGTH, mass_per_length=MASS_PER_LENGTH,
        diameter=DIAMETER, EA=EA, axial_damping=0.0, dt=DT, duration=duration,
        initial_nodes=nodes0, fluid_density=rho, cd_normal=cdn, cd_tangential=cdt,
        ca_normal=can, ca_tangential=cat, output_interval=OUTPUT_INTERVAL,
    )


# -- one table row -------------------------------------------------------------------------


def bench_row(n_elements: int, medium: str, seconds: float, repeats: int, use_md: bool) -> dict:
    """All measurements for one (medium, N): best of ``repeats``, each >= ``seconds`` long."""
    model = build_model(tetherdyn.load_case(make_case(n_elements, medium, 1.0)))
    nodes0 = model.initial_state()[: 3 * (n_elements + 1)].reshape(-1, 3)
    dt_crit = model.critical_time_step()[0]
    # calibration runs (also compile / warm up both codes)
    cal = 0.2
    us_td, _, _ = run_tetherdyn(n_elements, medium, cal)
    us_md = run_md(n_elements, medium, cal, nodes0)["us_per_step"] if use_md else math.inf
    duration = duration_for(seconds, min(us_td, us_md))
    td, md, ds, res = [], [], None, None
    for _ in range(repeats):  # interleaved, so that outside load hits both codes alike
        us, wall, ds = run_tetherdyn(n_elements, medium, duration)
        td.append((us, wall))
        if use_md:
            res = run_md(n_elements, medium, duration, nodes0)
            md.append((res["us_per_step"], res["wall_time_s"]))
    row = dict(medium=medium, N=n_elements, duration=duration, steps=int(ds.attrs["steps"]),
               dt_crit=dt_crit, td=min(u for u, _ in td), td_max=max(u for u, _ in td),
               td_wall_min=min(w for _, w in td))
    # RHS alone, at the final state of the last run (taut, moving: every branch is live)
    y_end = np.concatenate([ds["position"].values[-1].ravel(), ds["velocity"].values[-1].ravel()])
    row["rhs"], row["rhs_py"], row["rhs_calls"] = time_rhs(n_elements, medium, y_end, seconds,
                                                           repeats)
    if use_md:
        row.update(md=min(u for u, _ in md), md_max=max(u for u, _ in md),
                   md_wall_min=min(w for _, w in md))
        j = int(round(COMPARE_AT / OUTPUT_INTERVAL))
        diff = ds["position"].values[j] - res["positions"][j]
        row["pos_diff"] = float(np.linalg.norm(diff, axis=1).max())
    else:
        row.update(md=math.nan, md_max=math.nan, md_wall_min=math.nan, pos_diff=math.nan)
    return row


# -- report --------------------------------------------------------------------------------




def table(rows: list[dict]) -> str:
    """The results table (markdown)."""
    head = ("| medium | N | tetherdyn RHS µs/call | tetherdyn µs/step | MoorDyn µs/step "
            "| MoorDyn / tetherdyn | tetherdyn µs/step/element |")
    lines = [head, "|---|--:|--:|--:|--:|--:|--:|"]
    for r in rows:
        lines.append(
            f"| {r['medium']} | {r['N']} | {r['rhs']:.3f} | {r['td']:.2f} | "
            f"{fmt(r['md'], '.2f')} | {fmt(r['md'] / r['td'], '.2f')} | "
            f"{r['td'] / r['N']:.3f} |"
        )
    return "\n".join(lines)


def linear_fits(rows: list[dict]) -> list[str]:
    """Least-squares fits µs/step = a + b N for each medium and code."""
    out = []
    for medium in MEDIA:
        rs = [r for r in rows if r["medium"] == medium]
        if len(rs) < 2:
            continue
        n = np.array([r["N"] for r in rs], dtype=float)
        for key, label in (("td", "tetherdyn"), ("md", "MoorDyn"), ("rhs", "tetherdyn RHS")):
            v = np.array([r[key] for r in rs])
            if not np.all(np.isfinite(v)):
                continue
            b, a = np.polyfit(n, v, 1)
            unit = "µs/call" if key == "rhs" else "µs/step"
            out.append(f"- {medium}, {label}: {a:.2f} µs + {1e3 * b:.1f} ns × N [{unit}]")
    return out


def details(rows: list[dict]) -> str:
    """Per-row measurement details (markdown table)."""
    lines = [
        "| medium | N | simulated s | steps | tetherdyn best..worst µs/step | MoorDyn "
        "best..worst µs/step | shortest timed run td / MD [s] | RHS calls | RHS from Python "
        f"µs/call | max node distance at t = {COMPARE_AT:g} s [m] | tetherdyn RK4 dt limit [s] |",
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['medium']} | {r['N']} | {r['duration']:.2f} | {r['steps']} | "
            f"{r['td']:.2f}..{r['td_max']:.2f} | {fmt(r['md'], '.2f')}..{fmt(r['md_max'], '.2f')}"
            f" | {r['td_wall_min']:.2f} / {fmt(r['md_wall_min'], '.2f')} | {r['rhs_calls']} | "
            f"{r['rhs_py']:.2f} | {fmt(r['pos_diff'], '.1e')} | {r['dt_crit']:.2e} |"
        )
    return "\n".join(lines)








def markdown(rows, fits, argv, started, elapsed, load0, load1, use_md, sea_rows=()) -> str:
    """The whole results file."""
    cmd = "python benchmarks/bench_lumped_mass.py" + "".join(f" {a}" for a in argv)
    md_note = "" if use_md else " (MoorDyn not run: its columns read n/a)"
    return "\n".join([
        "# Lumped-mass cable: tetherdyn vs MoorDyn timing",
        "",
        f"- Date: {started:%Y-%m-%d %H:%M %Z}; the whole benchmark took "
        f"{elapsed:.0f} s{md_note}",
        f"- Machine: {platform.platform()}, {cpu_model()}, os.cpu_count() = {os.cpu_count()}; "
        f"load average (1 min) {load0:.2f} at the start, {load1:.2f} at the end",
        f"- Versions: {versions('numba', 'numpy', 'moordyn')}",
        f"- Command: `{cmd}`",
        f"- Cable: L = {LENGTH:g} m, w = {MASS_PER_LENGTH:g} kg/m, d = {DIAMETER:g} m, "
        f"EA = {EA:g} N, no internal damping; fixed anchor, free end, released straight at "
        f"{ANGLE_DEG:g}° from the vertical; RK4 with dt = {DT:g} s in both codes; outputs "
        f"every {OUTPUT_INTERVAL:g} s. vacuum: fluid density 0. water: 1000 kg/m³, "
        "Cd_n = 1.2, Cd_t = 0.008 (on π d), Ca_n = 1, Ca_t = 0.",
        "- tetherdyn µs/step: `ds.attrs['wall_time_s'] / ds.attrs['steps']` (time "
        "integration only). MoorDyn µs/step: time inside `moordyn.Step` only "
        "(`validation/peers/moordyn.py`). RHS µs/call: `model.rhs` called K times from a "
        "compiled loop, at the final state of the run. Every number is the best of the "
        "repetitions, each lasting at least the time given in the details.",
        "- Ratio > 1: tetherdyn is faster. µs/step/element flat in N: the cost is linear in N.",
        "",
        table(rows),
        "",
        "Linear fits (µs/step = a + b N):",
        "",
        *fits,
        "",
        "## Details",
        "",
        details(rows),
        "",
        "The node distance compares the two codes' positions after 1 s (same cable, same "
        "start; in water the codes lump drag and added mass differently: tetherdyn at the "
        "element centres, MoorDyn at the nodes). 'RHS from Python' is one `model.rhs(...)` "
        "call made from Python: it adds the unboxing of the data tuple to the kernel time.",
        "",
        *(["## The sea (issue 17)", "",
           f"The water cable in the sea, water level {WATER_LEVEL:g} m (above the anchor): "
           "calm (the sea path, no waves); waves: JONSWAP Hs 2 m, Tp 8 s, 200 components "
           "(waves.py's precomputed kinematics grid); seabed: calm, a flat bed at z = -8.5 m, "
           "kBot 3e6 Pa/m, cBot 3e4 Pa s/m, friction 0.5 along and across. Required (issue "
           "17): waves or seabed ≤ 2× the calm step.", "", sea_table(list(sea_rows)), ""]
          if sea_rows else []),
    ])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="N = 10, 40, 160; short; 1 repetition")
    p.add_argument("--out", type=Path, default=None,
                   help=f"markdown results file (default {DEFAULT_OUT.relative_to(HERE.parent)};"
                        " --quick writes none unless given)")
    p.add_argument("--no-moordyn", action="store_true", help="do not run MoorDyn")
    p.add_argument("--no-sea", action="store_true", help="skip the sea section")
    p.add_argument("--sea-only", action="store_true", help="only the sea section")
    args = p.parse_args(argv)
    argv = sys.argv[1:] if argv is None else argv
    out = args.out if args.out is not None else (None if args.quick else DEFAULT_OUT)
    ns = QUICK_N if args.quick else FULL_N
    seconds = 0.1 if args.quick else 0.6  # >= 0.5 s per measurement in the full run
    repeats = 1 if args.quick else 3
    use_md = not args.no_moordyn and moordyn_available()
    if not use_md:
        print("MoorDyn not available or disabled: its columns read n/a", flush=True)

    started = datetime.datetime.now().astimezone()
    load0 = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
    t0 = time.perf_counter()
    rows = []
    for medium in () if args.sea_only else MEDIA:
        for n in ns:
            r = bench_row(n, medium, seconds, repeats, use_md)
            rows.append(r)
            print(f"{medium:6s} N={n:4d}: RHS {r['rhs']:7.3f} µs/call, tetherdyn "
                  f"{r['td']:8.2f} µs/step, MoorDyn {fmt(r['md'], '8.2f')} µs/step, "
                  f"ratio {fmt(r['md'] / r['td'], '.2f')}  ({r['duration']:.2f} s simulated)",
                  flush=True)
    sea_rows = []
    if not args.no_sea:
        for n in (SEA_QUICK_N if args.quick else SEA_FULL_N):
            for kind in SEA_KINDS:
                r = sea_row(n, kind, seconds, repeats)
                sea_rows.append(r)
                print(f"sea {kind:6s} N={n:4d}: tetherdyn {r['td']:8.2f} µs/step, "
                      f"{r['td'] / (n + 1):.3f} µs per node-step, {r['grounded']} grounded",
                      flush=True)
    elapsed = time.perf_counter() - t0
    load1 = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
    fits = linear_fits(rows)
    print()
    print(table(rows))
    print()
    print("\n".join(fits))
    if sea_rows:
        print()
        print(sea_table(sea_rows))
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(markdown(rows, fits, argv, started, elapsed, load0, load1, use_md,
                                sea_rows))
        print(f"\nwrote {out}")
    print(f"total {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
