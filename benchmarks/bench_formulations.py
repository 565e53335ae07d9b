"""Per formulation: the fixed cost of an RK4 step and its cost per node (issue 22).

Every formulation runs the same cable (bench_lumped_mass.py's: 10 m, 0.016 kg/m,
d = 1.5875 mm, EA = 80 N, anchored at the top, free end, released straight at 30° from
the vertical; ``higher_order`` and ``ancf2d`` need a bending stiffness: EI = 1e-4 N m²;
``rigid_links`` is inextensible: no EA) with RK4 at dt = 1e-4 s, in vacuum and in water
(cross-flow drag, normal added mass where the formulation has it), at N = 10 … 160
elements. Timed (best of many short repetitions, ``bench_lean_step.min_time``):

* one RK4 step of the formulation's own bound time loop (integrate/explicit.py's
  ``rk4_chunk``, what a run calls: four right-hand sides, enforce, remesh, the blow-up
  scan) [µs per step];
* the right-hand side alone, called from a compiled loop [µs per call].

A least-squares fit µs = a + b · nodes gives the fixed cost a (per step or call, whatever
N) and the cost per node b [µs per node-step]; "at N" columns divide the whole step by
the node count.

    python benchmarks/bench_formulations.py [--n 10 20 40 80 160] [--seconds 0.4]
        [--out benchmarks/results_formulations.md]
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import warnings
from pathlib import Path

import numpy as np
from _common import cpu_model, rhs_loop, versions
from bench_lean_step import min_time, tetherdyn_steps
from bench_lumped_mass import make_case

import tetherdyn
from tetherdyn.models import build_model

FORMULATIONS = ("lumped_mass", "rigid_links", "rod_chain", "higher_order", "ancf2d")
EI = 1e-4  # [N m^2] where a formulation needs bending stiffness
HERE = Path(__file__).resolve().parent


def case_for(formulation: str, n: int, medium: str) -> dict:
    """bench_lumped_mass's cable as ``formulation`` with n elements."""
    case = make_case(n, medium, 1.0)
    case["model"]["type"] = formulation
    if formulation in ("higher_order", "ancf2d"):
        case["tether"]["EI"] = EI
    if formulation == "rigid_links":
        del case["tether"]["EA"], case["tether"]["axial_damping"]
    return case


def measure(formulation: str, n: int, medium: str, seconds: float) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # keys a formulation does not use (ca_normal ...)
        model = build_model(tetherdyn.load_case(case_for(formulation, n, medium)))
    y0 = model.initial_state()
    dydt = np.empty_like(y0)
    steps = tetherdyn_steps(model, y0)
    steps(1)  # compile / load
    rhs_loop(model.rhs, model.data, 0.0, y0, dydt, 1)
    k_step = max(1, 2000 // n)
    k_rhs = max(1, 8000 // n)
    step = min_time(steps, k_step, seconds / 2)
    rhs = min_time(lambda k: rhs_loop(model.rhs, model.data, 0.0, y0, dydt, k), k_rhs,
                   seconds / 2)
    return dict(formulation=formulation, N=n, nodes=model.n_nodes, medium=medium, step=step,
                rhs=rhs)


def fit(rows: list[dict], key: str) -> tuple[float, float]:
    """(a, b) of the line µs = a + b · nodes, least squares in relative terms (weights
    1/µs: timing noise is relative, and the small N that fix a weigh as much as the large)."""
    x = np.array([r["nodes"] for r in rows], dtype=float)
    y = np.array([r[key] for r in rows])
    b, a = np.polyfit(x, y, 1, w=1.0 / y)
    return a, b


def tables(rows: list[dict], ns: list[int]) -> str:
    out = ["| formulation | medium | step: fixed µs | step: µs per node-step | "
           + " | ".join(f"µs per node-step at N = {n}" for n in ns)
           + " | RHS: fixed µs | RHS: µs per node |",
           "|---|---|--:|--:|" + "--:|" * len(ns) + "--:|--:|"]
    for f in FORMULATIONS:
        for medium in ("vacuum", "water"):
            rs = [r for r in rows if r["formulation"] == f and r["medium"] == medium]
            if len(rs) < 2:
                continue
            a, b = fit(rs, "step")
            ar, br = fit(rs, "rhs")
            per = {r["N"]: r["step"] / r["nodes"] for r in rs}
            out.append(f"| {f} | {medium} | {a:.2f} | {b:.4f} | "
                       + " | ".join(f"{per[n]:.4f}" if n in per else "" for n in ns)
                       + f" | {ar:.3f} | {br:.4f} |")
    out += ["", "Raw (µs per RK4 step / per RHS call):", "",
            "| formulation | medium | N | nodes | step µs | RHS µs |", "|---|---|--:|--:|--:|--:|"]
    for r in rows:
        out.append(f"| {r['formulation']} | {r['medium']} | {r['N']} | {r['nodes']} | "
                   f"{r['step']:.3f} | {r['rhs']:.3f} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n", type=int, nargs="+", default=[10, 20, 40, 80, 160])
    p.add_argument("--formulations", nargs="+", default=list(FORMULATIONS),
                   choices=FORMULATIONS)
    p.add_argument("--seconds", type=float, default=0.4)
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)
    argv = sys.argv[1:] if argv is None else argv
    load0 = os.getloadavg()[0]
    started = datetime.datetime.now(datetime.UTC)
    rows = []
    for f in args.formulations:
        for medium in ("vacuum", "water"):
            for n in args.n:
                rows.append(measure(f, n, medium, args.seconds))
                r = rows[-1]
                print(f"{f:13s} {medium:6s} N={n:4d}: step {r['step']:9.3f} µs, "
                      f"RHS {r['rhs']:8.3f} µs", flush=True)
    text = tables(rows, args.n)
    print(text)
    if args.out is not None:
        cmd = "python benchmarks/bench_formulations.py" + "".join(f" {a}" for a in argv)
        args.out.write_text("\n".join([
            "# Per formulation: fixed cost per step and cost per node (issue 22)", "",
            f"- Date: {started:%Y-%m-%d %H:%M} UTC; machine: {cpu_model()}, "
            f"{os.cpu_count()} cores, load average {load0:.2f} at the start, "
            f"{os.getloadavg()[0]:.2f} at the end",
            f"- Versions: {versions('numba', 'numpy')}",
            f"- Command: `{cmd}`",
            "- The cable and the timing: the script's docstring. Fits: µs = a + b · nodes "
            "over the N measured, least squares on relative residuals; best of many short "
            "repetitions (a shared machine).", "",
            text, ""]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
