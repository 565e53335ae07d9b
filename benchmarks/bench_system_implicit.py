"""Timing benchmark: generalized-α on a stiff mooring system against rk4 at its stable step
(issue 19: a system with every integrator; integrate/implicit_system.py).

MoorDyn's tripod deck (validation/decks/moordyn_tripod.txt, MoorDyn's tests/Mooring/
tripod.txt: 11 lumped-mass lines, 9 massless free points, 3 anchors; the float line's EA
is 2.2 GN on 0.21 m segments, so an explicit step needs dtM = 55 µs) with every point 1 m
lower, the seabed at 40 m and no bending (as validation/moordyn_system.py's comparison),
in water with the deck's drag and added mass; the lines start straight between the
deck's points and fall. Runs over ``--duration``: rk4 at the deck's dtM, then
generalized-α (ρ∞ = 0.5, fixed step) at 14x to 182x that step; MoorDyn-C (v2, its own RK4 at
dtM, its own nodes) in the same run, timed only (its start differs: no accuracy column).
Accuracy (self: against the rk4 run): the free points' largest distance [m] from rk4's,
over their largest excursion, and the largest difference of every line's end tensions
over the largest end tension, at every output (0.01001 s). Then bench_system.py's
3 x 40 deck (three chains to a 400 kg free point, EA 5 MN, rk4 at 1e-4 s) the same way.

Timed: the compiled loop over the whole run (``integrate``'s stepper, one advance over
all outputs; the first call compiles and is not timed), CPU time of the timing thread,
best of ``--repeat``, the codes interleaved.

Usage::

    python benchmarks/bench_system_implicit.py [--quick] \
        [--out benchmarks/results_system_implicit.md]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
from _common import cpu_model, versions


def _case(deck: Path, duration: float, out_dt: float) -> dict:
    from tetherdyn.moordyn_input import moordyn_to_system

    return moordyn_to_system(deck, duration=duration, output_interval=out_dt)


def _run(case: dict, method: str, dt: float) -> tuple:
    """(CPU s of the compiled loop, states at the outputs, model, stepper) of one run."""
    from tetherdyn.integrate import StepperOptions, make_stepper, output_times
    from tetherdyn.models.system_model import build_system
    from tetherdyn.system_case import load_system

    case = {**case, "solver": {**case["solver"], "method": method, "dt": dt,
                               "rho_inf": 0.5}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sc = load_system(case)
    model = build_system(sc)
    times = output_times(sc.solver.duration, sc.solver.output_interval)
    st = make_stepper(method, model, None, model.initial_state(), 0.0,
                      StepperOptions(dt=dt, adaptive=False))
    Y = np.empty((times.size, st.y.size))
    Y[0] = st.y
    st.compile(Y)
    c0 = time.thread_time()
    st.advance(times[1:], Y[1:])
    return time.thread_time() - c0, Y, model, st


def _tensions(model, Y: np.ndarray) -> np.ndarray:
    """Every line's start and end tension [N] at each output: (outputs, 2 lines)."""
    times = np.arange(Y.shape[0]) * model.case.solver.output_interval
    out = model.line_outputs(times, Y)
    return np.concatenate([np.linalg.norm(np.stack([o["start_force"], o["end_force"]], 1),
                                          axis=-1) for o in out.values()], axis=1)


def _points(model, Y: np.ndarray) -> np.ndarray:
    return np.stack([Y[:, model.point_slice(p)][:, :3] for p in model.free_points], 1)


def _moordyn(deck: Path, duration: float) -> float:
    """MoorDyn-C from Init_NoIC, one Step over the run: CPU s."""
    import moordyn as md

    from validation.peers.moordyn import _quiet_fd

    with _quiet_fd(True):
        system = md.Create(str(deck))
        if md.Init_NoIC(system, [], []) != 0:
            raise RuntimeError("moordyn initialisation failed")
        try:
            c0 = time.thread_time()
            md.Step(system, [], [], 0.0, duration)
            return time.thread_time() - c0
        finally:
            md.Close(system)


def _table(deck: Path, dtm: float, out_dt: float, multiples: tuple, duration: float,
           repeat: int) -> str:
    """The rows of one deck: rk4 at dtm, generalized-α at multiples of it, MoorDyn."""
    case = _case(deck, duration, out_dt)
    runs = [("rk4", dtm)] + [("generalized_alpha", k * dtm) for k in multiples]
    best = dict.fromkeys(runs, np.inf)
    best["moordyn"] = np.inf
    kept = {}
    for _ in range(repeat):
        for method, dt in runs:
            cpu, Y, model, st = _run(case, method, dt)
            best[(method, dt)] = min(best[(method, dt)], cpu)
            kept[(method, dt)] = (Y, model, st.steps, st.rhs_evaluations,
                                  st.stats().get("jacobians", 0), st,
                                  st.stats().get("rejected_steps", 0))
        try:
            best["moordyn"] = min(best["moordyn"], _moordyn(deck, duration))
        except ImportError:
            best["moordyn"] = np.nan
    Y4, m4, *_ = kept[runs[0]]
    p4, f4 = _points(m4, Y4), _tensions(m4, Y4)
    excursion = np.linalg.norm(p4 - p4[0], axis=-1).max()
    rows = ["| method | dt [s] | steps | rejected steps | rhs evaluations | Jacobians | CPU s "
            "| rk4 / this | points: max distance from rk4 / max excursion "
            "| end tensions: max diff / max |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for r in runs:
        Y, model, steps, evals, jacs, _, rejected = kept[r]
        dp = np.linalg.norm(_points(model, Y) - p4, axis=-1).max() / excursion
        df = np.abs(_tensions(model, Y) - f4).max() / f4.max()
        rows.append(f"| {r[0]} | {r[1]:.3g} | {steps} | {rejected} | {evals} | {jacs} | "
                    f"{best[r]:.3f} | "
                    f"{best[runs[0]] / best[r]:.2f} | {dp:.2e} | {df:.2e} |")
    rows.append(f"| MoorDyn-C (RK4, its own start) | {dtm:.3g} | {round(duration / dtm)} | | | | "
                f"{best['moordyn']:.3f} | {best[runs[0]] / best['moordyn']:.2f} | | |")
    return "\n".join(rows) + (
        f"\n\nrk4's max end tension {f4.max():.4g} N, the points' max excursion "
        f"{excursion:.3g} m, {m4.n_nodes} nodes, {len(m4.free_points)} free points; "
        f"generalized-α's Jacobian colours (rhs evaluations per Jacobian): "
        f"{kept[runs[1]][5].stats()['colours']}.")


def main(argv: list[str] | None = None) -> int:
    from bench_system import deck_text

    from validation.moordyn_system import DECK, tripod_variant

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="0.5 s simulated, best of 1")
    p.add_argument("--duration", type=float, default=2.0)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--out", help="write the tables (markdown) here")
    args = p.parse_args(argv)
    duration = 0.5 if args.quick else args.duration
    repeat = 1 if args.quick else args.repeat
    load0 = os.getloadavg()[0]
    text = ""
    with tempfile.TemporaryDirectory() as tmp:
        deck = Path(tmp) / "tripod.txt"
        deck.write_text(tripod_variant(DECK.read_text(), dt="5.5e-5", lower=1.0, depth=40.0,
                                       bending=False))
        # generalized-α's steps: divisors of 182 dtM (the output interval)
        text += "## MoorDyn's tripod deck (lines start straight and fall)\n\n"
        text += _table(deck, 5.5e-5, 0.01001, (14, 26, 91, 182), duration, repeat)
        deck = Path(tmp) / "three_lines_40.txt"
        deck.write_text(deck_text(40))  # bench_system.py's 3 x 40 deck, dtM = 1e-4 s
        text += ("\n\n## bench_system.py's 3 x 40 deck (a 400 kg point released off "
                 "centre)\n\n")
        text += _table(deck, 1e-4, 0.01, (10, 25, 50, 100), duration, repeat)
    load1 = os.getloadavg()[0]
    print(text)
    if args.out:
        cmd = "python benchmarks/bench_system_implicit.py" + (" --quick" if args.quick else "")
        commit = os.popen("git rev-parse --short HEAD").read().strip()
        head = (f"# Generalized-α on stiff mooring systems vs rk4 at its stable step "
                f"(benchmarks/bench_system_implicit.py)\n\n`{cmd}`, "
                f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, commit {commit}. "
                f"{cpu_model()}; {versions('moordyn')}; {duration} s simulated, best of "
                f"{repeat}; CPU time of the timing thread; ρ∞ = 0.5, fixed step. Load "
                f"average {load0:.1f} at the start, {load1:.1f} at the end (2 cores, "
                f"shared).\n\n")
        Path(args.out).write_text(head + text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
