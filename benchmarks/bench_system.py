"""Timing benchmark: a system of lines joined at a free point (issue 19) against MoorDyn.

Three chains (d = 50 mm, 8 kg/m, EA = 5 MN, BA = -0.8, Cd 1.2, Ca 1, CdAx 0.4, CaAx 0.5),
each 20 m from an anchor 120° apart to one free point (400 kg, 0.02 m³, CdA 0.5 m², Ca 1)
released off centre, in water (MoorDyn's sea: surface, seabed at 100 m); N segments per
line for N = 10 … 80. N = 40 is the issue's case: a three-line mooring of 3 × 40 segments
on one body-like free point. RK4 at dt = 1e-4 s in both codes, both from MoorDyn's
Init_NoIC nodes. Timed: MoorDyn-C v2's ``moordyn.Step`` over the whole run (one call);
tetherdyn's compiled RK4 loop over the whole run (integrate/explicit.py's ``rk4_chunk``
with the system's kernels, one chunk: what ``integrate`` runs, without its set-up); and,
for the system's own cost, each of its lines run alone as a single-line model (its end on
the point a free end without payload: the same per-node work without the point and the
system's passes), summed.

Times are CPU time of the timing thread (``time.thread_time``: load from other processes
on a shared machine hits it far less than wall time) and wall time; each the best of
``--repeat`` runs, the codes interleaved. Printed: µs per step, ns per node-step (flat
when the cost is linear in the total nodes), the system's cost over its lines' alone, and
MoorDyn / tetherdyn (> 1: tetherdyn is faster).

Usage::

    python benchmarks/bench_system.py [--quick] [--out benchmarks/results_system.md]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

from _common import cpu_model, versions

DT = 1e-4

_DECK = """\
--------------------- MoorDyn Input File ------------------------------------
bench_system: three chains to one free point
---------------------- LINE TYPES -------------------------------------------
TypeName  Diam   Mass/m  EA     BA/-zeta  EI  Cd   Ca   CdAx  CaAx
(name)    (m)    (kg/m)  (N)    (N-s/-)   (-) (-)  (-)  (-)   (-)
chain     0.05   8.0     5.0e6  -0.8      0   1.2  1.0  0.4   0.5
---------------------- POINTS -----------------------------------------------
ID  Attachment  X   Y   Z   Mass  Volume  CdA  Ca
(#) (word)      (m) (m) (m) (kg)  (m^3)   (m^2) (-)
{points}---------------------- LINES ------------------------------------------------
ID  LineType  AttachA  AttachB  UnstrLen  NumSegs  LineOutputs
(#) (name)    (ID)     (ID)     (m)       (-)      (-)
{lines}---------------------- OPTIONS ----------------------------------------------
{dt}     dtM
RK4      tScheme
9.80665  g
1025     WtrDnsty
100      WtrDpth
0        TmaxIC
1        disableOutput
1        disableOutTime
------------------------- need this line -----------------------------------
"""


def deck_text(n: int) -> str:
    points = ""
    for k in range(3):
        a = 2 * math.pi * k / 3
        x, y = 18 * math.cos(a), 18 * math.sin(a)
        points += f"{k + 1}  Fixed  {x:.6f}  {y:.6f}  -40.0  0 0 0 0\n"
    points += "4  Free  1.0  0.5  -32.0  400.0  0.02  0.5  1.0\n"
    lines = "".join(f"{k + 1}  chain  {k + 1}  4  20.0  {n}  -\n" for k in range(3))
    return _DECK.format(points=points, lines=lines, dt=DT)


def _timed(fn) -> tuple[float, float]:
    """(thread CPU seconds, wall seconds) of fn()."""
    c0, w0 = time.thread_time(), time.perf_counter()
    fn()
    return time.thread_time() - c0, time.perf_counter() - w0


def _moordyn_run(deck: Path, duration: float) -> tuple[float, float]:
    """MoorDyn from Init_NoIC, one ``Step`` call over ``duration``: (CPU s, wall s)."""
    import moordyn as md

    from validation.peers.moordyn import _quiet_fd

    with _quiet_fd(True):
        system = md.Create(str(deck))
        if md.Init_NoIC(system, [], []) != 0:
            raise RuntimeError("moordyn initialisation failed")
        try:
            return _timed(lambda: md.Step(system, [], [], 0.0, duration))
        finally:
            md.Close(system)


def _loop_run(model, data, y0, steps: int) -> tuple[float, float]:
    """tetherdyn's compiled RK4 loop over ``steps`` steps from y0: (CPU s, wall s)."""
    import numpy as np

    from tetherdyn.integrate.explicit import RK4Workspace

    ws = RK4Workspace(y0.size)
    y = y0.copy()
    Y = np.empty((1, y0.size))
    cpu, wall = _timed(lambda: ws.run(model, data, 0.0, DT, 0, steps, 1, y, Y))
    if ws.state[0] != 0:
        raise RuntimeError(f"tetherdyn run failed (status {ws.state[0]})")
    return cpu, wall


def measure(n: int, duration: float, repeat: int) -> dict:
    from tetherdyn.case import CaseWarning
    from tetherdyn.models.system_model import build_system
    from tetherdyn.moordyn_input import moordyn_to_system
    from tetherdyn.system_case import load_system
    from validation.peers.moordyn_system import run_moordyn_system

    steps = round(duration / DT)
    best = {k: math.inf for k in ("md", "md_wall", "ours", "ours_wall", "alone")}
    with tempfile.TemporaryDirectory() as tmp:
        deck = Path(tmp) / f"three_lines_{n}.txt"
        deck.write_text(deck_text(n))
        md0 = run_moordyn_system(deck, duration=DT, output_interval=DT)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", CaseWarning)
            case = load_system(moordyn_to_system(deck, duration=duration,
                                                 output_interval=duration,
                                                 initial_nodes=md0["initial_nodes"]))
        model = build_system(case)
        y0 = model.initial_state()
        lines = [(m, y0[s]) for m, s in zip(model.line_models.values(),
                                            model.line_slices().values(), strict=True)]
        for _ in range(repeat):
            cpu, wall = _moordyn_run(deck, duration)
            best["md"], best["md_wall"] = min(best["md"], cpu), min(best["md_wall"], wall)
            cpu, wall = _loop_run(model, model.make_data(), y0, steps)
            best["ours"], best["ours_wall"] = min(best["ours"], cpu), min(best["ours_wall"], wall)
            alone = sum(_loop_run(m, m.make_data(), yl, steps)[0] for m, yl in lines)
            best["alone"] = min(best["alone"], alone)
    nodes = model.n_nodes + len(model.free_points)
    us = {k: v / steps * 1e6 for k, v in best.items()}
    return dict(n=n, nodes=nodes, per_node=us["ours"] / nodes * 1e3, **us)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="N = 10, 40; 0.2 s; best of 2")
    p.add_argument("--out", help="write the table (markdown) here")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--note", default="", help="a sentence on the conditions")
    args = p.parse_args(argv)
    ns = (10, 40) if args.quick else (10, 20, 40, 80)
    duration = 0.2 if args.quick else 1.0
    repeat = 2 if args.quick else args.repeat
    load0 = os.getloadavg()[0]
    measure(10, 0.01, 1)  # compile / warm up both
    rows = [measure(n, duration, repeat) for n in ns]
    load1 = os.getloadavg()[0]
    out = ["| N per line | total nodes | tetherdyn µs/step | ns per node-step | its lines alone "
           "µs/step | system / lines alone | MoorDyn µs/step | MoorDyn / tetherdyn | "
           "wall: tetherdyn, MoorDyn µs/step | wall ratio |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['n']}{' (the issue: 3 × 40)' if r['n'] == 40 else ''} | "
                   f"{r['nodes']} | {r['ours']:.1f} | {r['per_node']:.0f} | {r['alone']:.1f} | "
                   f"{r['ours'] / r['alone']:.2f} | {r['md']:.1f} | {r['md'] / r['ours']:.2f} | "
                   f"{r['ours_wall']:.1f}, {r['md_wall']:.1f} | "
                   f"{r['md_wall'] / r['ours_wall']:.2f} |")
    text = "\n".join(out)
    print(text)
    if args.out:
        where = f"{cpu_model()}; {versions('moordyn')}"
        cmd = "python benchmarks/bench_system.py" + (" --quick" if args.quick else "")
        head = (f"# Three lines to one free point vs MoorDyn (benchmarks/bench_system.py)\n\n"
                f"`{cmd}`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. {where}; "
                f"dt = {DT} s, {duration} s simulated, best of {repeat}; CPU time of the "
                f"timing thread unless marked wall. Load average {load0:.1f} at the start, "
                f"{load1:.1f} at the end (2 cores). {args.note}\n\n")
        Path(args.out).write_text(head + text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
