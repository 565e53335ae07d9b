"""Timing benchmark: where a lumped_mass step in waves spends its time (issue 17).

The wave case of benchmarks/bench_lumped_mass.py (``make_sea_case``: the 10 m water cable
under a water level 5 m above its anchor, JONSWAP Hs 2 m, Tp 8 s, 200 components on the
precomputed grid) against its calm sea, at the state after 0.3 s of the run. A compiled
loop calls each piece ``K`` times at times 0.05 … 0.5 s (the grid's slices filled once,
as in a run): the model's whole right-hand side in calm water and in waves (the lean sea
pass, lumped_mass._lean_sea_rhs), and its parts in waves — the nodes from the state
(nodes.load_state), the sea's loads (nodes.sea_node_loads: per element the surface
heights, the kinematics at the wet centroid, buoyancy, drag, Morison inertia), the lean
tension and node passes (lumped_mass._lean_sea), and the wave kinematics alone at the N
element centroids (waves.wave_point) and the elevation alone at the n nodes
(waves.elevation_point). CPU time of the thread (time.thread_time: a process descheduled
by other work is not charged), best of 5 interleaved rounds. Then whole RK4 runs of the
calm, waves and seabed cases (integration time, best of 3 interleaved).

Usage::

    python benchmarks/bench_lean_sea.py [--n 40 160] [--out benchmarks/results_lean_sea.md]
    python benchmarks/bench_lean_sea.py --steps-only --n 40   # prints; runs on older trees
    python benchmarks/bench_lean_sea.py --seabed [--n 10 40 160] [--seconds 1.0]
        [--rounds 5]   # the seabed step against the calm step; prints a markdown table

``--seabed`` (issue 17: a step with seabed contact ≤ 2× the calm-water step): the calm and
seabed cases over the same simulated window (from the release, where the free end is
already below the bed: contact from the first step), long enough that one calm run takes
``--seconds`` of integration time, the two run alternately ``--rounds`` times; best µs per
RK4 step of each (``wall_time_s / steps``: integration only) and the grounded nodes at
the outputs (fewest, most), so that the window is seen to hold contact throughout.
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import time
from pathlib import Path

import numpy as np
from _common import cpu_model, git_commit, versions
from bench_lumped_mass import SEA_KINDS, make_sea_case
from numba import njit

import tetherdyn
from tetherdyn import waves as W
from tetherdyn.models import build_model
from tetherdyn.models import lumped_mass as LM
from tetherdyn.models import nodes as ND

HERE = Path(__file__).resolve().parent
K = 20000


@njit(cache=False)
def _rhs(f, y, dydt, d, k):
    for i in range(k):
        f(0.05 + 0.00045 * (i % 1000), y, dydt, d)


@njit(cache=False)
def _load(y, d, k):
    n = d.n_nodes
    for i in range(k):
        ND.load_state(0.05 + 0.00045 * (i % 1000), y, n, n, d.flags, d.breaks0, d.coeffs0,
                      d.breaks1, d.coeffs1, d.motion, d.pos, d.vel)


@njit(cache=False)
def _sea(d, k):
    n = d.n_nodes
    for i in range(k):
        ND.sea_node_loads(0.05 + 0.00045 * (i % 1000), n, d.flags, d.scal, d.elem, d.ends,
                          0.0, d.sea_par, d.sea_current, d.sea_wind, d.sea_waves, d.sea_grid,
                          d.sea_bed, d.sea_bed_axes, d.sea_anchor, d.pos, d.vel, d.force,
                          d.wadd, d.bedf, d.gnd, d.fout)


@njit(cache=False)
def _lean(dydt, d, k):
    n = d.n_nodes
    s = d.scal
    f = d.flags
    for i in range(k):
        LM._lean_sea(0.05 + 0.00045 * (i % 1000), n, d.lean, s[LM.EA], s[LM.DAMPING],
                     f[LM.COMPRESSION] != 0, f[LM.SLACK_DAMPING] != 0, f[LM.HELD0] != 0,
                     f[LM.HELD1] != 0, d.motion, s, d.ends, d.tmp, d.pos, d.vel, d.force,
                     d.tangent, d.wadd, dydt)


@njit(cache=False)
def _kinematics(d, k):
    n = d.n_nodes
    g = d.sea_grid
    acc = 0.0
    for i in range(k):
        t = 0.05 + 0.00045 * (i % 1000)
        j, slot, h0, d0, h1, d1 = W.wave_time(g, t)
        for e in range(n - 1):
            eta, a, b, c, p, q, r = W.wave_point(
                d.sea_waves, g, d.sea_par, t, j, slot, h0, d0, h1, d1,
                0.5 * (d.pos[e, 0] + d.pos[e + 1, 0]), 0.5 * (d.pos[e, 1] + d.pos[e + 1, 1]),
                0.5 * (d.pos[e, 2] + d.pos[e + 1, 2]), d.fout)
            acc += a + b + c + p + q + r
    return acc


@njit(cache=False)
def _elevation(d, k):
    n = d.n_nodes
    g = d.sea_grid
    acc = 0.0
    for i in range(k):
        t = 0.05 + 0.00045 * (i % 1000)
        j, slot, h0, d0, h1, d1 = W.wave_time(g, t)
        for e in range(n):
            acc += W.elevation_point(d.sea_waves, g, d.sea_par, t, j, slot, h0, d0, h1, d1,
                                     d.pos[e, 0], d.pos[e, 1], d.fout)
    return acc


def parts(N: int) -> dict:
    """Per-call CPU µs of the pieces (module docstring)."""
    out = {}
    for kind in ("calm", "waves"):
        case = tetherdyn.load_case(make_sea_case(N, kind, 1.0))
        ds = tetherdyn.simulate(case.with_changes({"solver.duration": 0.3}), progress=False)
        y = np.concatenate([ds["position"].values[-1].ravel(),
                            ds["velocity"].values[-1].ravel()])
        m = build_model(case)
        out[kind] = (m, m.data, y, np.empty_like(y))
    mc, dc, yc, kc = out["calm"]
    mw, dw, yw, kw = out["waves"]
    jobs = {
        "calm sea: whole rhs (lean calm pass)": lambda k: _rhs(mc.rhs, yc, kc, dc, k),
        "waves: whole rhs (lean sea pass)": lambda k: _rhs(mw.rhs, yw, kw, dw, k),
        "waves: the general rhs (lumped_mass.rhs)": lambda k: _rhs(LM.rhs, yw, kw, dw, k),
        "waves: nodes from the state (load_state)": lambda k: _load(yw, dw, k),
        "waves: the sea's loads (sea_node_loads)": lambda k: _sea(dw, k),
        "waves: lean tension and node passes (_lean_sea)": lambda k: _lean(kw, dw, k),
        "waves: kinematics alone, N element centroids": lambda k: _kinematics(dw, k),
        "waves: elevation alone, n nodes": lambda k: _elevation(dw, k),
    }
    for f in jobs.values():
        f(10)
    best = dict.fromkeys(jobs, math.inf)
    for _ in range(5):
        for name, f in jobs.items():
            t0 = time.thread_time()
            f(K)
            best[name] = min(best[name], time.thread_time() - t0)
    return {name: 1e6 * b / K for name, b in best.items()}


def steps(N: int, duration: float) -> dict:
    """Best µs per RK4 step (integration time) of the three sea cases, interleaved."""
    for kind in SEA_KINDS:
        tetherdyn.simulate(make_sea_case(N, kind, 0.05), progress=False)
    best = dict.fromkeys(SEA_KINDS, math.inf)
    for _ in range(3):
        for kind in SEA_KINDS:
            ds = tetherdyn.simulate(make_sea_case(N, kind, duration), progress=False)
            best[kind] = min(best[kind],
                             1e6 * float(ds.attrs["wall_time_s"]) / int(ds.attrs["steps"]))
    return best


def seabed_vs_calm(N: int, seconds: float, rounds: int) -> dict:
    """Best µs per RK4 step of the calm and seabed cases over one window (``--seabed``)."""
    from bench_lumped_mass import duration_for

    def run(kind, duration):
        ds = tetherdyn.simulate(make_sea_case(N, kind, duration), progress=False)
        return 1e6 * float(ds.attrs["wall_time_s"]) / int(ds.attrs["steps"]), ds

    us_calm, _ = run("calm", 0.1)  # compilation (or numba's cache) and calibration
    run("seabed", 0.1)
    duration = duration_for(seconds, us_calm)
    best = {"calm": math.inf, "seabed": math.inf}
    for _ in range(rounds):
        for kind in best:
            us, ds = run(kind, duration)
            best[kind] = min(best[kind], us)
            if kind == "seabed":
                g = ds["grounded"].values.sum(axis=1)
                steps = int(ds.attrs["steps"])
    return dict(N=N, duration=duration, steps=steps, calm=best["calm"],
                seabed=best["seabed"], g_min=int(g.min()), g_max=int(g.max()))


def seabed_table(rows: list[dict]) -> str:
    """The --seabed table (markdown)."""
    lines = ["| N | simulated s | steps | calm µs/step | seabed µs/step | seabed / calm | "
             "≤ 2× | grounded nodes at the outputs (fewest..most) |",
             "|--:|--:|--:|--:|--:|--:|---|--:|"]
    for r in rows:
        q = r["seabed"] / r["calm"]
        lines.append(f"| {r['N']} | {r['duration']:.2f} | {r['steps']} | {r['calm']:.2f} | "
                     f"{r['seabed']:.2f} | {q:.2f} | {'yes' if q <= 2.0 else 'no'} | "
                     f"{r['g_min']}..{r['g_max']} of {r['N'] + 1} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, nargs="+", default=[40, 160])
    ap.add_argument("--out", type=Path, default=HERE / "results_lean_sea.md")
    ap.add_argument("--steps-only", action="store_true",
                    help="only the whole-step table, printed (no kernel of this tree named)")
    ap.add_argument("--seabed", action="store_true",
                    help="only the seabed step against the calm step (module docstring)")
    ap.add_argument("--seconds", type=float, default=1.0,
                    help="--seabed: integration time of one calm run [s]")
    ap.add_argument("--rounds", type=int, default=5,
                    help="--seabed: calm / seabed runs alternated this many times")
    a = ap.parse_args(argv)
    if a.seabed:
        rows = []
        for N in a.n:
            rows.append(seabed_vs_calm(N, a.seconds, a.rounds))
            print(seabed_table(rows[-1:]).splitlines()[-1], flush=True)
        print(seabed_table(rows))
        return 0
    if a.steps_only:
        for N in a.n:
            for kind, us in (s := steps(N, 0.5 if N <= 40 else 0.2)).items():
                print(f"N = {N} {kind:6s} {us:8.2f} µs/step  / calm {us / s['calm']:.2f}")
        return 0
    load0 = os.getloadavg()[0]
    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = []
    for N in a.n:
        p = parts(N)
        calm = p["calm sea: whole rhs (lean calm pass)"]
        lines += [f"### N = {N} ({N + 1} nodes)", "",
                  "| piece | µs per call | ns per node | / calm rhs |", "|---|--:|--:|--:|"]
        lines += [f"| {name} | {us:.3f} | {1e3 * us / (N + 1):.1f} | {us / calm:.2f} |"
                  for name, us in p.items()]
        s = steps(N, 0.5 if N <= 40 else 0.2)
        lines += ["", "| sea | µs per step | µs per node-step | / calm step |",
                  "|---|--:|--:|--:|"]
        lines += [f"| {kind} | {us:.2f} | {us / (N + 1):.3f} | {us / s['calm']:.2f} |"
                  for kind, us in s.items()]
        lines.append("")
        print("\n".join(lines[-20:]), flush=True)
    text = "\n".join([
        "# Where a lumped_mass step in waves spends its time", "",
        f"`python benchmarks/bench_lean_sea.py {' '.join(argv or [])}`".replace(" `", "`"),
        f"on {started}; {cpu_model()}; {versions('numba')}; commit {git_commit()}; "
        f"load average {load0:.2f} at the start, {os.getloadavg()[0]:.2f} at the end (2 "
        "cores shared with other work: compare numbers within a table only).", "",
        "Module docstring of the script for what each row times (CPU time of the thread, "
        f"K = {K} calls, best of 5 interleaved rounds); the step tables are whole RK4 "
        "runs (dt = 1e-4 s, integration time only, best of 3 interleaved).", "",
        *lines])
    a.out.write_text(text)
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
