"""Timing benchmark: generalized-α on the lumped-mass cable, cost against N and against RK4.

For N = 10 … 320 elements of the stiff cable of the validation row ``ga_stiff_speedup``
(50 m, EA = 2e7 N, axial damping 2e4 N s, in water, 20 kg payload, under a vessel heaving
1 m every 4 s), this script times

* generalized-α (ρ∞ = 0.8) at a fixed dt = 2 ms for every N: µs per step and ns per step
  and element (flat when the cost is linear in N), force evaluations per step (Newton
  iterations plus the 2·band + 1 = 11 of each finite-difference Jacobian: independent of
  N), Jacobians per 100 steps;
* RK4 at 0.9 × ``critical_time_step()`` (its stability limit, which falls as 1/N here:
  the damped axial modes of shorter elements are faster) over the same simulated time;

and prints the wall time per simulated second of each and their ratio. Integration time
only (``IntegrationResult.wall_time_s``: compiled chunks, no compilation, no results
building); best of ``--repeats`` runs.

Usage::

    python benchmarks/bench_generalized_alpha.py [--quick] [--repeats 3] [--out FILE]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import time

from _common import cpu_model, versions

from tetherdyn.case import load_case
from tetherdyn.integrate import integrate
from tetherdyn.models import build_model
from validation.generalized_alpha import stiff_case

DT_GA = 2e-3  # [s]
DURATION = 2.0  # [s] simulated


def run(n: int, method: str, dt: float, repeats: int) -> tuple[float, object]:
    """(best integration wall time [s], the last IntegrationResult)."""
    best = float("inf")
    res = None
    for _ in range(repeats):
        case = load_case(stiff_case(dt, method, DURATION, n, rho_inf=0.8)
                         if method == "generalized_alpha"
                         else stiff_case(dt, method, DURATION, n))
        model = build_model(case)
        s = case.solver
        res = integrate(model, method, s.dt, s.duration, s.output_interval, rtol=s.rtol,
                        atol=s.atol, progress=False)
        best = min(best, res.wall_time_s)
    return best, res


def rk4_step(n: int) -> float:
    """0.9 × the model's RK4 stability limit, rounded down to divide the output interval."""
    model = build_model(load_case(stiff_case(1e-4, "rk4", DURATION, n)))
    dt = 0.9 * model.critical_time_step()[0]
    out = 0.05
    return out / int(out / dt + 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="N = 10, 40, 160; one repetition")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default=None, help="also write the markdown here")
    args = ap.parse_args()
    ns = (10, 40, 160) if args.quick else (10, 20, 40, 80, 160, 320)
    repeats = 1 if args.quick else args.repeats
    started = datetime.datetime.now(datetime.UTC)
    load0 = os.getloadavg()[0]
    t_start = time.perf_counter()
    run(10, "generalized_alpha", DT_GA, 1)  # compile
    run(10, "rk4", rk4_step(10), 1)
    lines = [
        "| N | gen-α µs/step | ns/(step·element) | force evals/step | Jacobians/100 steps "
        "| gen-α s per sim s | RK4 dt [ms] | RK4 s per sim s | RK4 / gen-α |",
        "|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for n in ns:
        w_ga, r_ga = run(n, "generalized_alpha", DT_GA, repeats)
        dt4 = rk4_step(n)
        w_rk, _ = run(n, "rk4", dt4, repeats)
        steps = r_ga.steps
        per_step = 1e6 * w_ga / steps
        lines.append(
            f"| {n} | {per_step:.1f} | {1e3 * per_step / n:.0f} | "
            f"{r_ga.rhs_evaluations / steps:.2f} | {100 * r_ga.stats['jacobians'] / steps:.1f} "
            f"| {w_ga / DURATION:.4f} | {1e3 * dt4:.4f} | {w_rk / DURATION:.4f} "
            f"| {w_rk / w_ga:.1f} |")
        print(lines[-1], flush=True)
    elapsed = time.perf_counter() - t_start
    text = "\n".join([
        "# Generalized-α on the lumped-mass cable: cost against N and against RK4",
        "",
        f"- Date: {started:%Y-%m-%d %H:%M %Z}; the benchmark took {elapsed:.0f} s",
        f"- Machine: {platform.platform()}, {cpu_model()}, os.cpu_count() = {os.cpu_count()} "
        f"(shared with other work); load average (1 min) {load0:.2f} at the start, "
        f"{os.getloadavg()[0]:.2f} at the end",
        f"- Versions: {versions('numba', 'numpy')}",
        f"- Cable: validation row ga_stiff_speedup's (stiff_case), {DURATION:g} s simulated; "
        f"gen-α ρ∞ = 0.8, fixed dt = {DT_GA * 1e3:g} ms, rtol 1e-6; RK4 at 0.9 × its "
        f"stability limit. Best of {repeats} run(s).",
        "",
        *lines,
        "",
    ])
    print(text)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)


if __name__ == "__main__":
    main()
