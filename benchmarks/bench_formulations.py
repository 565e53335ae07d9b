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

With ``--reference COMMIT`` the same rows are measured for that commit's ``src/`` too
(extracted with ``git archive``; its numba cache kept between runs) and for this checkout,
in fresh processes that alternate base, new, base, new … (``--repeat`` rounds, best of the
rounds per row): a before/after comparison on a shared machine, where only interleaved
timings compare.

    python benchmarks/bench_formulations.py [--n 10 20 40 80 160] [--seconds 0.4]
        [--formulations ...] [--reference COMMIT --repeat 3]
        [--out benchmarks/results_formulations.md]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
from _common import cpu_model, extract_src, rhs_loop, versions
from bench_lean_step import min_time, tetherdyn_steps
from bench_lumped_mass import make_case

import tetherdyn
from tetherdyn.models import build_model

FORMULATIONS = ("lumped_mass", "rigid_links", "rod_chain", "higher_order", "ancf2d")
EI = 1e-4  # [N m^2] where a formulation needs bending stiffness
HERE = Path(__file__).resolve().parent
WORK = Path("/tmp/tetherdyn_bench_formulations")


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



def measure_in(src: Path, args: argparse.Namespace) -> list[dict]:
    """This script's rows measured in a fresh process importing tetherdyn from ``src``."""
    out = WORK / "rows.json"
    WORK.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = os.pathsep.join([str(src), str(HERE.parent)])
    cmd = [sys.executable, str(Path(__file__).resolve()), "--seconds", str(args.seconds),
           "--n", *map(str, args.n), "--formulations", *args.formulations, "--json", str(out)]
    subprocess.run(cmd, env=env, check=True, cwd=HERE, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text())


def compare(args: argparse.Namespace) -> str:
    """Base (``--reference``) and new rows, alternating fresh processes, best of rounds."""
    trees = {"base": extract_src(args.reference, WORK), "new": HERE.parent / "src"}
    best: dict[tuple, dict] = {}
    for r in range(args.repeat):
        for name, src in trees.items():
            for row in measure_in(src, args):
                key = (name, row["formulation"], row["medium"], row["N"])
                old = best.get(key)
                best[key] = row if old is None else {
                    **row, "step": min(row["step"], old["step"]),
                    "rhs": min(row["rhs"], old["rhs"])}
            print(f"round {r + 1}: {name} done (load {os.getloadavg()[0]:.2f})", flush=True)
    out = ["| formulation | medium | N | step µs base | step µs new | new / base | "
           "RHS µs base | RHS µs new | new / base |", "|---|---|--:|--:|--:|--:|--:|--:|--:|"]
    for (name, f, medium, n), new in best.items():
        if name != "new":
            continue
        base = best[("base", f, medium, n)]
        out.append(f"| {f} | {medium} | {n} | {base['step']:.3f} | {new['step']:.3f} | "
                   f"{new['step'] / base['step']:.3f} | {base['rhs']:.3f} | {new['rhs']:.3f} | "
                   f"{new['rhs'] / base['rhs']:.3f} |")
    rows = [r for (name, *_), r in best.items() if name == "new"]
    return "\n".join(out) + "\n\nThis checkout's rows (best of the rounds):\n\n" + tables(
        rows, args.n)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n", type=int, nargs="+", default=[10, 20, 40, 80, 160])
    p.add_argument("--formulations", nargs="+", default=list(FORMULATIONS),
                   choices=FORMULATIONS)
    p.add_argument("--seconds", type=float, default=0.4)
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--reference", default=None,
                   help="also measure this commit's src/, interleaved (fresh processes)")
    p.add_argument("--repeat", type=int, default=3, help="rounds with --reference")
    p.add_argument("--json", type=Path, default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    argv = sys.argv[1:] if argv is None else argv
    load0 = os.getloadavg()[0]
    started = datetime.datetime.now(datetime.UTC)
    if args.reference is not None:
        text = compare(args)
    else:
        rows = []
        for f in args.formulations:
            for medium in ("vacuum", "water"):
                for n in args.n:
                    rows.append(measure(f, n, medium, args.seconds))
                    r = rows[-1]
                    print(f"{f:13s} {medium:6s} N={n:4d}: step {r['step']:9.3f} µs, "
                          f"RHS {r['rhs']:8.3f} µs", flush=True)
        if args.json is not None:
            args.json.write_text(json.dumps(rows))
            return 0
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
            "repetitions (a shared machine)."
            + (f" Base: commit {args.reference}, new: this checkout; fresh processes "
               f"alternating, {args.repeat} rounds, best per row." if args.reference else ""),
            "", text, ""]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
