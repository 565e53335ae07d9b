"""Timing benchmark: the rod chain's O(n) right-hand side (seed 001 eqs. 24–30) against a
dense O(n³) solve, and the wall time of the seed's energy run.

For n = 10 … 2000 rods this script times

* the compiled rod-chain right-hand side (``model.rhs``, called K times from a compiled
  loop, so no Python call overhead is in the number) in vacuum and in water (cross-flow
  drag on every rod, payload with drag) [µs per call], and its cost per rod (flat when the
  cost is linear in n);
* a dense solve of the same equations: ``numpy.linalg.solve(M, Q_axis)`` for each of the
  three n×n blocks of the block-diagonal mass matrix (what a code without eqs. 24–30 would
  do every evaluation; LU factorisation per call, O(n³)), with numpy's BLAS limited to one
  thread so both sides use one core [µs per evaluation, the loads not included];
* for reference, the lumped-mass right-hand side with as many elements (vacuum).

The speed-up is (dense solves + O(n) rhs) / O(n) rhs: the dense path still needs the loads,
which the O(n) rhs computes as well. It then runs seed 001 §3's energy case (20 rods, 5 s,
RK4 dt = 1e-4 s: validation/seed001.py) and reports its wall time.

The chain: 10 m, 0.8 kg/m, d = 2 cm, EA = 50 kN, internal damping 30 N s, straight at 30°
from the vertical with rods stretched 0.1 % and rotating at 0.5 rad/s (every rod taut and
moving: no branch skipped). Water: 1025 kg/m³, current 0.3 m/s, Cd_n 1.2, Cd_t 0.01, payload
2 kg with 0.05 m² drag area.

Each timing lasts at least 0.3 s (0.05 s with --quick) and is repeated three times; the best
is reported. Usage::

    python benchmarks/bench_rod_chain.py [--quick] [--out benchmarks/results_rod_chain.md]
"""

from __future__ import annotations

import os

# one BLAS thread: the O(n) kernel runs on one core, so must the dense solve it is compared
# with (set before numpy is imported)
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import datetime  # noqa: E402
import platform  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from _common import best_time, compiled_rhs_time, cpu_model, versions  # noqa: E402

import tetherdyn  # noqa: E402
from tetherdyn.models import build_model  # noqa: E402
from validation.seed001 import seed_energy_case  # noqa: E402

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results_rod_chain.md"

FULL_N = (10, 20, 50, 100, 200, 500, 1000, 2000)
QUICK_N = (10, 100, 1000)


def make_case(n: int, medium: str, model: str = "rod_chain") -> dict:
    """The benchmark chain as a case dict [SI]."""
    water = medium == "water"
    case = dict(
        tether=dict(length=10.0, diameter=0.02, mass_per_length=0.8, EA=5e4,
                    axial_damping=30.0, cd_normal=1.2, cd_tangential=0.01),
        model=dict(type=model, elements=n),
        environment=dict(fluid_density=1025.0 if water else 0.0,
                         current=[0.3, 0.0, 0.0] if water else [0.0, 0.0, 0.0]),
        initial=dict(angle_from_gravity_deg=30.0, angular_velocity=[0.0, 0.5, 0.0]),
        solver=dict(method="rk4", dt=1e-5, duration=1.0, output_interval=0.01),
    )
    if water:
        case["end"] = dict(type="free", mass=2.0, drag_area=0.05)
    return case


def bench_state(model) -> np.ndarray:
    """The initial state with every rod (or element) stretched by 0.1 %."""
    y = model.initial_state().copy()
    n3 = y.size // 2
    y[:n3] *= 1.001
    return np.ascontiguousarray(y)


def time_rhs(case: dict, seconds: float, repeats: int) -> tuple[float, int]:
    """(best µs per compiled rhs call, calls per timing)."""
    model = build_model(tetherdyn.load_case(case))
    return compiled_rhs_time(model, bench_state(model), seconds, repeats)


def time_dense(n: int, seconds: float, repeats: int) -> float:
    """Best µs for numpy.linalg.solve on each of the three n×n blocks (one evaluation)."""
    model = build_model(tetherdyn.load_case(make_case(n, "vacuum")))
    M = model.mass_matrix()
    Q = np.random.default_rng(0).normal(size=(3, n))

    def solves(k):
        for _ in range(k):
            for a in range(3):
                np.linalg.solve(M, Q[a])

    per, _ = best_time(solves, seconds, repeats)
    return 1e6 * per


def energy_run() -> dict:
    """Seed 001 §3's energy case: wall times (compiled; the second of two runs)."""
    case = seed_energy_case()
    tetherdyn.simulate(case, progress=False)  # compile / load kernels
    t0 = time.perf_counter()
    ds = tetherdyn.simulate(case, progress=False)
    total = time.perf_counter() - t0
    E = (ds.kinetic_energy + ds.potential_energy).values
    return dict(total=total, integration=float(ds.attrs["wall_time_s"]),
                steps=int(ds.attrs["steps"]), evals=int(ds.attrs["rhs_evaluations"]),
                e_max=float(np.max(np.abs((E - E[0]) / E[0]))))








def table(rows: list[dict]) -> str:
    lines = [
        "| n rods | O(n) rhs vacuum µs/call | ns/rod | O(n) rhs water µs/call | ns/rod "
        "| dense: 3 × numpy.linalg.solve µs | speed-up (vacuum) | lumped_mass rhs µs/call |",
        "|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['n']} | {r['vac']:.3f} | {1e3 * r['vac'] / r['n']:.1f} | {r['water']:.3f} | "
            f"{1e3 * r['water'] / r['n']:.1f} | {r['dense']:.1f} | "
            f"{(r['dense'] + r['vac']) / r['vac']:.0f} | {r['lumped']:.3f} |")
    return "\n".join(lines)


def fits(rows: list[dict]) -> list[str]:
    n = np.array([r["n"] for r in rows], dtype=float)
    out = []
    for key, label in (("vac", "O(n) rhs, vacuum"), ("water", "O(n) rhs, water"),
                       ("lumped", "lumped_mass rhs, vacuum")):
        v = np.array([r[key] for r in rows])
        b, a = np.polyfit(n, v, 1, w=1.0 / v)  # relative residuals: every n counts alike
        res = np.max(np.abs(a + b * n - v) / v)
        out.append(f"- {label}: {a:.3f} µs + {1e3 * b:.2f} ns × n (fit weighted by 1/value; "
                   f"largest relative deviation from the line {res:.0%})")
    big = [r for r in rows if r["n"] >= 200]
    if len(big) >= 2:
        nb = np.log([r["n"] for r in big])
        p = np.polyfit(nb, np.log([r["dense"] for r in big]), 1)[0]
        out.append(f"- dense solves: cost ∝ n^{p:.2f} for n ≥ 200 (LU is n³/3 flops; "
                   "small n are dominated by numpy's call overhead)")
    return out


def markdown(rows, fit_lines, energy, argv, started, elapsed, load0, load1) -> str:
    cmd = "python benchmarks/bench_rod_chain.py" + "".join(f" {a}" for a in argv)
    return "\n".join([
        "# Rod chain (seed 001): O(n) right-hand side vs a dense solve",
        "",
        f"- Date: {started:%Y-%m-%d %H:%M %Z}; the benchmark took {elapsed:.0f} s",
        f"- Machine: {platform.platform()}, {cpu_model()}, os.cpu_count() = {os.cpu_count()} "
        "(2 cores, shared with other work); load average (1 min) "
        f"{load0:.2f} at the start, {load1:.2f} at the end",
        f"- Versions: {versions('numba', 'numpy')}",
        f"- Command: `{cmd}`; numpy's BLAS limited to one thread (OPENBLAS_NUM_THREADS=1)",
        "- Chain: 10 m, 0.8 kg/m, d = 2 cm, EA = 50 kN, damping 30 N s, straight at 30° from "
        "the vertical, rods stretched 0.1 %, rotating at 0.5 rad/s. Water: 1025 kg/m³, "
        "current 0.3 m/s, cross-flow drag, payload 2 kg with drag.",
        "- rhs µs/call: `model.rhs` called K times from a compiled loop; dense: "
        "`numpy.linalg.solve(M, Q_a)` for a = x, y, z (LU each time) on the same n×n M; "
        "speed-up = (dense + O(n) rhs) / O(n) rhs. Best of 3 timings of ≥ 0.3 s each.",
        "",
        table(rows),
        "",
        "Linear fits (µs/call = a + b n):",
        "",
        *fit_lines,
        "",
        "## Seed 001 §3 energy run",
        "",
        f"20 rods, 5 s, RK4 dt = 1e-4 s ({energy['steps']} steps, {energy['evals']} rhs "
        f"evaluations): integration {energy['integration']:.3f} s "
        f"({1e6 * energy['integration'] / energy['steps']:.2f} µs/step), whole `simulate` "
        f"call (compiled kernels, results building included) {energy['total']:.3f} s; "
        f"max |e_E| = {energy['e_max']:.1e}.",
        "",
    ])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="n = 10, 100, 1000; short timings")
    p.add_argument("--out", type=Path, default=None,
                   help=f"markdown results file (default {DEFAULT_OUT.relative_to(HERE.parent)};"
                        " --quick writes none unless given)")
    args = p.parse_args(argv)
    argv = sys.argv[1:] if argv is None else argv
    out = args.out if args.out is not None else (None if args.quick else DEFAULT_OUT)
    ns = QUICK_N if args.quick else FULL_N
    seconds = 0.05 if args.quick else 0.3
    repeats = 1 if args.quick else 3
    started = datetime.datetime.now().astimezone()
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    rows = []
    for n in ns:
        r = dict(n=n)
        r["vac"], _ = time_rhs(make_case(n, "vacuum"), seconds, repeats)
        r["water"], _ = time_rhs(make_case(n, "water"), seconds, repeats)
        r["lumped"], _ = time_rhs(make_case(n, "vacuum", "lumped_mass"), seconds, repeats)
        r["dense"] = time_dense(n, seconds, repeats)
        rows.append(r)
        print(f"n = {n:5d}: rhs {r['vac']:9.3f} µs (vacuum) {r['water']:9.3f} µs (water), "
              f"dense {r['dense']:12.1f} µs, lumped {r['lumped']:8.3f} µs", flush=True)
    energy = energy_run()
    elapsed = time.perf_counter() - t0
    load1 = os.getloadavg()[0]
    fit_lines = fits(rows)
    print()
    print(table(rows))
    print()
    print("\n".join(fit_lines))
    print(f"\nenergy run: integration {energy['integration']:.3f} s, simulate "
          f"{energy['total']:.3f} s, max |e_E| {energy['e_max']:.1e}")
    if out is not None:
        out.write_text(markdown(rows, fit_lines, energy, argv, started, elapsed, load0, load1))
        print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
