"""Timing benchmark: the seed-003 rubber strip as planar ANCF cable elements, tetherdyn
(``ancf2d``) against Exudyn's ``ANCFCable2D`` at equal accuracy.

The problem (seed 003 Table 1/2, ``validation.seed003.strip_case``): 0.6 m strip,
20 × 2 mm, E = 9.4 MPa, 920 kg/m³, 40 elements, pinned at the origin, released at rest 45°
above the horizontal, g = 9.8 m/s², internal damping D = 2.0e3 N s/m² (axial C = D a =
0.08 N s on ε̇, bending C_b = D I = 2.67e-8 N m² s on κ̇), 2 s. Two variants:

* ``air`` — the seed's experiment: air 1.293 kg/m³ with the projected-area drag law
  (C_D = 0.8) and buoyancy. tetherdyn only: Exudyn has no distributed drag for this
  element (the peer rows add it from a Python pre-step function, validation/peers/
  exudyn_strip.py; timing that would time Python, not Exudyn).
* ``vacuum`` — the same without air, Exudyn's model from validation/peers/exudyn_strip.py
  (shared with the seed-003 peer rows): identical equations in both codes (Exudyn's
  element uses the axial strain |r'| − 1 and the axial / bending damping work
  ∫ C ε̇ δε and ∫ C_b κ̇ δκ, as tetherdyn; it integrates the axial terms with 5 and the
  bending terms with 3 Gauss points, tetherdyn both with 4).

Exudyn's explicit solvers (RK44 and DOPRI5 alike, converged in dt) follow a path that
departs from its own generalized-α and from tetherdyn (0.1 mm at 0.05 s, ~30 mm by
1.2 s), even without damping; Exudyn's generalized-α and tetherdyn (both integrators)
agree to 0.2 mm. We did not find the cause inside Exudyn; its RK44 row is therefore timed
at tetherdyn's RK4 step but does not meet the accuracy criterion.

Accuracy: for each code and method the largest time step (from a halving ladder) whose
free-end path stays within 1 mm of a converged reference up to 1.2 s (the strip whips
soon after) is found; the reference is tetherdyn's RK4 at 0.4 × its critical step (half
the step RK4 runs at), and the agreement of Exudyn's finest run with it is printed too.
RK4 in both codes runs at 0.8 × the critical step (the explicit stability limit, set by
the strain-rate damping of the short elements, is far below what accuracy needs).

Timing: wall time of the time integration alone for the 2 s run (tetherdyn:
``ds.attrs['wall_time_s']``; Exudyn: around ``mbs.SolveDynamic`` with solution files off,
one sensor on the tip, the sparse linear solver — faster here than the dense default —
and no output to the console). Best of ``--repeats`` runs. RK4 is timed over
``--rk4-seconds`` of simulated time and scaled to 2 s (the cost per fixed step is
constant).

Usage::

    python benchmarks/bench_ancf2d.py [--quick] [--out benchmarks/results_ancf2d.md]
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
from _common import cpu_model, package_version, versions

import tetherdyn
from tetherdyn.case import load_case
from tetherdyn.models import build_model
from validation.seed003 import strip_case

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results_ancf2d.md"
ELEMENTS = 40
DURATION = 2.0
COMPARE_UNTIL = 1.2  # [s]
ACCURACY = 1e-3  # [m] tip distance to the reference up to COMPARE_UNTIL
OUTPUT_INTERVAL = 0.01  # [s]
#: time-step ladder for the implicit methods [s] (each divides the output interval)
LADDER = (2e-3, 1e-3, 5e-4, 2.5e-4, 1.25e-4, 1e-4, 5e-5, 2.5e-5, 1e-5)


def rk4_dt(variant: str, safety: float) -> float:
    case = strip_case(ELEMENTS, 0.1, 1e-5, drag=variant == "air")
    dt_crit = build_model(load_case(case)).critical_time_step()[0]
    return OUTPUT_INTERVAL / math.ceil(OUTPUT_INTERVAL / (safety * dt_crit))


# -- tetherdyn -------------------------------------------------------------------------------


def run_tetherdyn(variant: str, method: str, dt: float, duration: float):
    """(wall time of the integration [s], tip path (k, 2) every 10 ms, dataset)."""
    extra = dict(rho_inf=0.8) if method == "generalized_alpha" else {}
    case = strip_case(ELEMENTS, duration, dt, method=method, drag=variant == "air",
                      output_interval=OUTPUT_INTERVAL, **extra)
    ds = tetherdyn.simulate(case, progress=False)
    return float(ds.attrs["wall_time_s"]), ds.position.isel(node=-1).values[:, [0, 2]], ds


# -- Exudyn ----------------------------------------------------------------------------------


def exudyn_version() -> str | None:
    v = package_version("exudyn")
    return None if v == "not installed" else v


def run_exudyn(dt: float, duration: float, solver: str):
    """The vacuum strip in Exudyn (validation/peers/exudyn_strip.py, the model of the
    seed-003 peer rows): (wall time of SolveDynamic [s], tip path (k, 2) every 10 ms)."""
    from validation.seed003_exudyn import exudyn_strip

    ds = exudyn_strip(ELEMENTS, duration, dt, drag=False, output_interval=OUTPUT_INTERVAL,
                      solver=solver)
    return float(ds.attrs["wall_time_s"]), ds.position.isel(node=-1).values[:, [0, 2]]


# -- the benchmark -----------------------------------------------------------------------------


def tip_error(tip: np.ndarray, ref: np.ndarray) -> float:
    """max |tip − ref| [m] over the outputs up to COMPARE_UNTIL."""
    k = int(round(COMPARE_UNTIL / OUTPUT_INTERVAL)) + 1
    return float(np.max(np.linalg.norm(tip[:k] - ref[:k], axis=1)))


def largest_accurate_dt(run, ref: np.ndarray, echo) -> tuple[float, float]:
    """Walk down LADDER until a run's tip error up to 1.2 s is within ACCURACY."""
    for dt in LADDER:
        try:
            err = tip_error(run(dt), ref)
        except Exception as exc:  # noqa: BLE001 - a failed (too large) step: go smaller
            echo(f"    dt = {dt:g} s failed: {str(exc).splitlines()[0][:80]}")
            continue
        echo(f"    dt = {dt:g} s: tip error {err * 1e3:.3f} mm")
        if err <= ACCURACY:
            return dt, err
    raise RuntimeError("no step of the ladder reached the accuracy")


def best_of(repeats: int, func):
    best = None
    for _ in range(repeats):
        out = func()
        if best is None or out[0] < best[0]:
            best = out
    return best


def bench(quick: bool, repeats: int, rk4_seconds: float, use_exudyn: bool, echo) -> dict:
    res: dict = {"rows": [], "notes": []}
    safety = 0.8
    for variant in ("vacuum", "air"):
        dt_ref = rk4_dt(variant, 0.4)
        echo(f"[{variant}] reference: tetherdyn RK4, dt = {dt_ref:.3g} s, {COMPARE_UNTIL} s")
        _, ref, _ = run_tetherdyn(variant, "rk4", dt_ref, COMPARE_UNTIL)
        res[f"ref_{variant}"] = ref
        # RK4 at 0.8 x critical
        dt = rk4_dt(variant, safety)
        _, tip, _ = run_tetherdyn(variant, "rk4", dt, COMPARE_UNTIL)
        err = tip_error(tip, ref)
        wall, _, ds = best_of(repeats, lambda dt=dt, v=variant: run_tetherdyn(v, "rk4", dt,
                                                                               rk4_seconds))
        scale = DURATION / rk4_seconds
        res["rows"].append(dict(variant=variant, code="tetherdyn", method="rk4", dt=dt,
                                steps=int(round(DURATION / dt)), wall=wall * scale, err=err))
        echo(f"  tetherdyn rk4: dt {dt:.3g} s, error {err * 1e3:.4f} mm, "
             f"{wall * scale:.2f} s for 2 s")
        # generalized-alpha
        echo("  tetherdyn generalized_alpha (rho_inf 0.8): step search")
        dt_ga, err_ga = largest_accurate_dt(
            lambda dt, v=variant: run_tetherdyn(v, "generalized_alpha", dt, COMPARE_UNTIL)[1],
            ref, echo)
        wall, _, ds = best_of(repeats, lambda dt=dt_ga, v=variant: run_tetherdyn(
            v, "generalized_alpha", dt, DURATION))
        res["rows"].append(dict(variant=variant, code="tetherdyn", method="generalized_alpha",
                                dt=dt_ga, steps=int(ds.attrs["steps"]), wall=wall,
                                err=err_ga))
        echo(f"  tetherdyn generalized_alpha: dt {dt_ga:g} s, {wall:.3f} s for 2 s")
        if variant != "vacuum" or not use_exudyn:
            continue
        # Exudyn, same problem (vacuum)
        _, fine = run_exudyn(1e-5, COMPARE_UNTIL, "generalized_alpha")
        res["exudyn_vs_tetherdyn"] = tip_error(fine, ref)
        echo(f"  Exudyn GA dt 1e-5 vs tetherdyn reference: "
             f"{res['exudyn_vs_tetherdyn'] * 1e3:.4f} mm")
        wall, tip = best_of(repeats, lambda dt=dt: run_exudyn(dt, rk4_seconds, "rk4"))
        _, tip_full = run_exudyn(dt, COMPARE_UNTIL, "rk4") if not quick else (0.0, None)
        err_ex = tip_error(tip_full, ref) if tip_full is not None else float("nan")
        res["rows"].append(dict(variant=variant, code=f"Exudyn {exudyn_version()}",
                                method="RK44", dt=dt, steps=int(round(DURATION / dt)),
                                wall=wall * scale, err=err_ex))
        echo(f"  Exudyn RK44: dt {dt:.3g} s, {wall * scale:.2f} s for 2 s, error "
             f"{err_ex * 1e3:.4f} mm")
        echo("  Exudyn generalized-alpha (spectral radius 0.8): step search")
        dt_ex, err_ex = largest_accurate_dt(
            lambda dt: run_exudyn(dt, COMPARE_UNTIL, "generalized_alpha")[1], ref, echo)
        wall, _ = best_of(repeats, lambda dt=dt_ex: run_exudyn(dt, DURATION,
                                                                "generalized_alpha"))
        res["rows"].append(dict(variant=variant, code=f"Exudyn {exudyn_version()}",
                                method="generalized-alpha", dt=dt_ex,
                                steps=int(round(DURATION / dt_ex)), wall=wall, err=err_ex))
        echo(f"  Exudyn generalized-alpha: dt {dt_ex:g} s, {wall:.3f} s for 2 s")
    return res


def ratios(rows: list[dict]) -> list[str]:
    out = []
    vac = [r for r in rows if r["variant"] == "vacuum"]
    ours = {r["method"]: r for r in vac if r["code"] == "tetherdyn"}
    theirs = {r["method"]: r for r in vac if r["code"] != "tetherdyn"}
    best_ours = min(ours.values(), key=lambda r: r["wall"])
    if theirs:
        best_theirs = min(theirs.values(), key=lambda r: r["wall"])
        for a, b in (("rk4", "RK44"), ("generalized_alpha", "generalized-alpha")):
            if a in ours and b in theirs:
                out.append(f"- {b}: Exudyn / tetherdyn = "
                           f"{theirs[b]['wall'] / ours[a]['wall']:.1f}× (same method and dt)")
        out.append(f"- fastest of each at 1 mm: Exudyn ({best_theirs['method']}) / tetherdyn "
                   f"({best_ours['method']}) = {best_theirs['wall'] / best_ours['wall']:.1f}×")
    return out


def table(rows: list[dict]) -> str:
    lines = ["| variant | code | method | dt [s] | steps (2 s) | wall for 2 s [s] | "
             "tip error ≤ 1.2 s [mm] |", "|---|---|---|--:|--:|--:|--:|"]
    for r in rows:
        lines.append(f"| {r['variant']} | {r['code']} | {r['method']} | {r['dt']:.3g} | "
                     f"{r['steps']} | {r['wall']:.3f} | {r['err'] * 1e3:.3f} |")
    return "\n".join(lines)


def markdown(res, argv, started, elapsed, load0, load1) -> str:
    lines = [
        "# ANCF cable (seed-003 rubber strip): tetherdyn vs Exudyn timing",
        "",
        f"- Date: {started:%Y-%m-%d %H:%M} UTC; the whole benchmark took {elapsed:.0f} s",
        f"- Machine: {platform.platform()}, {cpu_model()}, os.cpu_count() = {os.cpu_count()}; "
        f"load average (1 min) {load0:.2f} at the start, {load1:.2f} at the end",
        f"- Versions: {versions('numba', 'numpy', 'exudyn')}",
        f"- Command: `python benchmarks/bench_ancf2d.py {' '.join(argv)}`".rstrip() + "",
        "- Problem: seed 003 Table 1 strip, 40 ANCF elements, pinned, released at rest 45° "
        "above the horizontal, D = 2.0e3 N s/m², 2 s. `vacuum`: no air (both codes); `air`: "
        "air 1.293 kg/m³, projected-area drag C_D = 0.8 (tetherdyn only). See the script's "
        "docstring for the Exudyn model and what differs.",
        f"- Accuracy: tip within {ACCURACY * 1e3:g} mm of the reference (tetherdyn RK4 at "
        f"0.4 × its critical step) up to {COMPARE_UNTIL} s; implicit steps from the ladder "
        f"{', '.join(f'{d:g}' for d in LADDER)} s; RK4 at 0.8 × the critical step "
        "(stability, not accuracy, sets it).",
        "- Wall: time integration only, best of the repetitions; RK4 timed over "
        "a shorter span and scaled to 2 s.",
    ]
    if "exudyn_vs_tetherdyn" in res:
        lines.append(f"- Exudyn's converged path (generalized-alpha, dt = 1e-5 s) differs from "
                     f"tetherdyn's reference by {res['exudyn_vs_tetherdyn'] * 1e3:.4f} mm up to "
                     f"{COMPARE_UNTIL} s: the two implementations agree.")
    lines.append("- Exudyn's explicit solvers (RK44, DOPRI5; converged in dt) follow a path "
                 "that departs from its own generalized-alpha and from tetherdyn (0.1 mm at "
                 "0.05 s, ~30 mm by 1.2 s, with or without damping): its RK44 row is timed at "
                 "tetherdyn's RK4 step but misses the accuracy criterion (cause not found).")
    lines += ["", table(res["rows"]), "", "Ratios (vacuum, > 1: tetherdyn faster):", "",
              *ratios(res["rows"]), ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="1 repetition, short RK4 timing")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--rk4-seconds", type=float, default=0.2,
                   help="simulated seconds over which RK4 is timed (scaled to 2 s)")
    p.add_argument("--no-exudyn", action="store_true")
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)
    argv = sys.argv[1:] if argv is None else argv
    repeats = 1 if args.quick else args.repeats
    rk4_seconds = 0.05 if args.quick else args.rk4_seconds
    use_exudyn = not args.no_exudyn and exudyn_version() is not None
    if not use_exudyn:
        print("Exudyn not run (pip install exudyn)")
    started = datetime.datetime.now(datetime.UTC)
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    res = bench(args.quick, repeats, rk4_seconds, use_exudyn, lambda s: print(s, flush=True))
    elapsed = time.perf_counter() - t0
    text = markdown(res, argv, started, elapsed, load0, os.getloadavg()[0])
    print(text)
    out = args.out if args.out is not None else (None if args.quick else DEFAULT_OUT)
    if out is not None:
        out.write_text(text)
        print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
