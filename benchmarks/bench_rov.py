"""Benchmark: RK4 against generalized-α on the seed 004 ROV manoeuvre (Tables 5.4 and 5.5).

For N = 5 … 30 higher-order elements (Table 5.3) and both twist cases (GJ = 0, spherical
joint at the ROV; GJ = 0.11, roll held at both ends), the full 57 s manoeuvre of
``validation.seed004_rov`` is integrated with

* RK4 at 0.8 × the model's stability limit (``critical_time_step()``): the reference, since
  its step is set by stability, far below what accuracy needs;
* RK4 at the seed's Table 5.4 step (does it stay stable over the 57 s?);
* for N ≤ 20, RK4 at 0.4 × its limit, to show how far the reference itself is converged;
* generalized-α, ρ∞ = 9/11 (Table 5.2's α_M = 0.35, α_F = 0.45, γ = 0.6; β = 0.3025), and
  ρ∞ = 0 (the most numerical dissipation), at ¼ ×, ½ ×, 1 × and 2 × the seed's Table 5.4
  step (rounded down to divide the 0.5 s output interval).

Accuracy, the seed's own gauge (§5.5.2): the tension at the ROV (magnitude of the results'
``end_force``) against the reference, the largest difference over 1 ≤ t ≤ 52 s divided by
the reference's largest tension there (t < 1 s holds the start-up transient, t > 52 s the
surge as the ROV reaches the end of the tether). "Equal accuracy" (the seed's criterion for
choosing steps): the cheapest generalized-α run whose error is within ``TOL`` (5 %); its
cost is set against RK4's. Also the largest node-position difference over the run [m].

Cost: integration wall time per simulated second (``wall_time_s`` of the results: compiled
chunks, no compilation, no results building), one run each, one core (numba does not
thread here). The seed's numbers (1 GHz Athlon): gen-α 4.4, RK4 7.8 (N = 20); 12.1, 13.5
(N = 28); 14.9, 14.9 (N = 30) s per simulated second, GJ = 0.

Usage::

    python benchmarks/bench_rov.py [--quick] [--out FILE]
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import platform
import time

import numpy as np
from _common import cpu_model, fmt, versions

from tetherdyn.case import load_case
from tetherdyn.integrate import SimulationError
from tetherdyn.models import build_model
from tetherdyn.simulate import simulate
from validation import seed004_rov as R

TOL = 0.05  # tension error, fraction of the reference's peak over 1–52 s
GA_FACTORS = (2.0, 1.0, 0.5, 0.25)  # × Table 5.4's generalized-α step
GA_RHO = (R.SEED_RHO_INF, 0.0)  # ρ∞: Table 5.2's, and the most dissipative
WINDOW = (1.0, 52.0)  # [s]


def tension(ds) -> np.ndarray:
    return np.linalg.norm(ds.end_force.values, axis=1)


def errors(ds, ref) -> tuple[float, float, float]:
    """(tension error: largest and RMS difference over WINDOW as fractions of the reference
    peak there; max position difference [m]); both runs output every 0.5 s."""
    t = ref.time.values
    win = (t >= WINDOW[0]) & (t <= WINDOW[1])
    fr = tension(ref)
    f = tension(ds)
    peak = fr[win].max()
    e_t = float(np.abs(f - fr)[win].max() / peak)
    e_rms = float(np.sqrt(np.mean((f - fr)[win] ** 2)) / peak)
    e_x = float(np.abs(ds.position.values - ref.position.values).max())
    return e_t, e_rms, e_x


def rk4_limit(n: int, gj: float) -> float:
    case = load_case(R.rov_case(n, gj=gj, method="rk4", dt=1e-4))
    return build_model(case).critical_time_step()[0]


def run(n: int, gj: float, method: str, dt: float | None, duration: float = R.DURATION,
        rho_inf: float = R.SEED_RHO_INF):
    case = R.rov_case(n, gj=gj, method=method, dt=dt, duration=duration, rho_inf=rho_inf)
    return simulate(case, progress=False), case["solver"]["dt"]


def per_sim_second(ds) -> float:
    return float(ds.attrs["wall_time_s"]) / float(ds.time.values[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="N = 5, 10, 20 only")
    ap.add_argument("--out", default=None, help="also write the markdown here")
    args = ap.parse_args()
    ns = (5, 10, 20) if args.quick else R.ELEMENT_SET
    started = datetime.datetime.now(datetime.UTC)
    load0 = os.getloadavg()[0]
    t_start = time.perf_counter()
    run(5, R.GJ, "generalized_alpha", None, 1.0)  # compile (or load numba's cache)
    run(5, R.GJ, "rk4", None, 0.5)
    main_rows = [
        "| N | GJ | RK4 dt [µs] (0.8 × limit) | RK4 s per sim s | seed RK4 dt [µs] | at the "
        "seed's RK4 dt | gen-α dt [ms] (Table 5.4) | gen-α s per sim s | tension error "
        "(max, RMS) | position error [m] | Newton it./step | Jacobians/100 steps | missed "
        "steps |",
        "|--:|--:|--:|--:|--:|:--|--:|--:|--:|--:|--:|--:|--:|",
    ]
    self_check = ["| N | GJ | RK4 dt [µs] | tension error | position error [m] |",
                  "|--:|--:|--:|--:|--:|"]
    heads = " / ".join(f"×{f:g}" for f in GA_FACTORS)
    eq_rows = [
        f"| N | GJ | tension error, ρ∞ = 9/11, dt {heads} | tension error, ρ∞ = 0, dt {heads} | "
        "equal accuracy: gen-α ρ∞, dt [ms] | its s per sim s | RK4 s per sim s | RK4 / gen-α "
        "| seed gen-α, RK4 s per sim s (GJ = 0) |",
        "|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for n in ns:
        for gj in (0.0, R.GJ):
            dt4 = 0.8 * rk4_limit(n, gj)
            ref, dt4 = run(n, gj, "rk4", dt4)
            rk_cost = per_sim_second(ref)
            seed_dt = R.SEED_DT_RK4[n]
            try:
                ds_seed, _ = run(n, gj, "rk4", seed_dt)
                e_t, _, e_x = errors(ds_seed, ref)
                seed_ok = f"stable; tension error {100 * e_t:.1f} %"
            except SimulationError as exc:
                msg = str(exc)
                at = msg.split("blew up at t = ")[1].split(" s")[0] if "blew up at" in msg \
                    else "?"
                seed_ok = f"blows up at t = {at} s"
            ga = {}
            for rho in GA_RHO:
                for fac in GA_FACTORS:
                    dt = fac * R.SEED_DT_GA[n]
                    try:
                        ds, dt_used = run(n, gj, "generalized_alpha", dt, rho_inf=rho)
                        e_t, e_rms, e_x = errors(ds, ref)
                        ga[rho, fac] = dict(dt=dt_used, cost=per_sim_second(ds), e_t=e_t,
                                            e_rms=e_rms, e_x=e_x, ds=ds)
                    except SimulationError as exc:
                        ga[rho, fac] = dict(dt=dt, cost=math.nan, e_t=math.nan,
                                            e_rms=math.nan, e_x=math.nan, ds=None,
                                            error=str(exc))
            if n <= 20:
                half, _ = run(n, gj, "rk4", 0.5 * dt4)
                e_t, _, e_x = errors(half, ref)
                self_check.append(f"| {n} | {gj:g} | {1e6 * 0.5 * dt4:.1f} | {100 * e_t:.2f} % "
                                  f"| {e_x:.1e} |")
            g1 = ga[R.SEED_RHO_INF, 1.0]
            ds1 = g1["ds"]
            if ds1 is not None:
                steps = int(ds1.attrs["steps"])
                newton = float(ds1.attrs["newton_iterations"]) / steps
                jac = 100.0 * float(ds1.attrs["jacobians"]) / steps
                missed = int(ds1.attrs["rejected_steps"])
            else:
                newton = jac = math.nan
                missed = -1
            main_rows.append(
                f"| {n} | {gj:g} | {1e6 * dt4:.1f} | {rk_cost:.3f} | {1e6 * seed_dt:.0f} | "
                f"{seed_ok} | {1e3 * g1['dt']:.2f} | {fmt(g1['cost'], '.4f')} | "
                f"{fmt(100 * g1['e_t'], '.1f')} %, {fmt(100 * g1['e_rms'], '.1f')} % | "
                f"{fmt(g1['e_x'], '.4f')} | "
                f"{fmt(newton, '.2f')} | {fmt(jac, '.1f')} | {missed} |")
            ok = [k for k, g in ga.items() if math.isfinite(g["e_t"]) and g["e_t"] <= TOL]
            best = min(ok, key=lambda k: ga[k]["cost"]) if ok else None
            seed = R.SEED_SPEED.get(n)
            seed_txt = f"{seed[0]}, {seed[1]}" if seed and gj == 0.0 else ""
            if best is None:
                eq = "none within tolerance | n/a | "
                ratio = "n/a"
            else:
                rho_txt = "9/11" if best[0] > 0 else "0"
                eq = f"{rho_txt}, {1e3 * ga[best]['dt']:.2f} | {ga[best]['cost']:.4f} | "
                ratio = f"{rk_cost / ga[best]['cost']:.0f}"

            errs = {rho: " / ".join(f"{fmt(100 * ga[rho, f]['e_t'], '.1f')} %"
                                    for f in GA_FACTORS) for rho in GA_RHO}
            eq_rows.append(
                f"| {n} | {gj:g} | {errs[R.SEED_RHO_INF]} | {errs[0.0]} "
                f"| {eq}{rk_cost:.3f} | {ratio} | {seed_txt} |")
            print(main_rows[-1], flush=True)
            print(eq_rows[-1], flush=True)
    elapsed = time.perf_counter() - t_start
    text = "\n".join([
        "# RK4 against generalized-α on the seed 004 ROV manoeuvre (Tables 5.4, 5.5)",
        "",
        f"- Date: {started:%Y-%m-%d %H:%M %Z}; the benchmark took {elapsed:.0f} s",
        f"- Machine: {platform.platform()}, {cpu_model()}, os.cpu_count() = {os.cpu_count()} "
        f"(shared with other work); load average (1 min) {load0:.2f} at the start, "
        f"{os.getloadavg()[0]:.2f} at the end",
        f"- Versions: {versions('numba', 'numpy')}",
        "- Case: `validation.seed004_rov.rov_case` (src/tetherdyn/examples/"
        "rov_manoeuvre*.yaml), 57 s, output every 0.5 s, one run per entry, one core. "
        "Generalized-α: ρ∞ = 9/11, rtol 1e-6. Reference: RK4 at 0.8 × its limit.",
        f"- Accuracy: ROV tension error = max over {WINDOW[0]:g}–{WINDOW[1]:g} s of "
        "|F − F_ref| / max F_ref; equal accuracy: ≤ "
        f"{100 * TOL:.0f} %.",
        "",
        "## Steps, cost and accuracy at the seed's steps",
        "",
        *main_rows,
        "",
        "## Equal accuracy",
        "",
        *eq_rows,
        "",
        "## The reference: RK4 at 0.4 × its limit against RK4 at 0.8 ×",
        "",
        *self_check,
        "",
    ])
    print(text)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)


if __name__ == "__main__":
    main()
