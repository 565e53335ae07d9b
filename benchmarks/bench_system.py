"""Timing benchmark: a system of lines joined at a free point (issue 19) against MoorDyn.

Three chains (d = 50 mm, 8 kg/m, EA = 5 MN, BA = -0.8, Cd 1.2, Ca 1, CdAx 0.4, CaAx 0.5),
each 20 m from an anchor 120° apart to one free point (400 kg, 0.02 m³, CdA 0.5 m², Ca 1)
released off centre, in water; N segments per line for N = 10 … 80; RK4 at dt = 1e-4 s in
both codes (MoorDyn-C v2 through ``validation/peers/moordyn_system.py``, the time inside
``moordyn.Step`` only; tetherdyn: ``wall_time_s``, the compiled time loop alone). Both start
from MoorDyn's Init_NoIC nodes. Printed: µs per step, µs per node-step (flat when the cost is
linear in the total nodes) and the ratio MoorDyn / tetherdyn (> 1: tetherdyn is faster).
Each measurement is the best of ``--repeat`` runs, the two codes interleaved so that load
from other processes hits both alike.

Usage::

    python benchmarks/bench_system.py [--quick] [--out benchmarks/results_system.md]
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
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


def measure(n: int, duration: float, repeat: int) -> dict:
    from tetherdyn.case import CaseWarning
    from tetherdyn.moordyn_input import moordyn_to_system
    from tetherdyn.system_run import run_system
    from validation.peers.moordyn_system import run_moordyn_system

    steps = round(duration / DT)
    best_md = best_ours = math.inf
    with tempfile.TemporaryDirectory() as tmp:
        deck = Path(tmp) / f"three_lines_{n}.txt"
        deck.write_text(deck_text(n))
        for _ in range(repeat):
            md = run_moordyn_system(deck, duration=duration, output_interval=duration)
            best_md = min(best_md, md["wall_time_s"])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", CaseWarning)
                case = moordyn_to_system(deck, duration=duration, output_interval=duration,
                                         initial_nodes=md["initial_nodes"])
            res = run_system(case, progress=False)
            best_ours = min(best_ours, res.attrs["wall_time_s"])
    nodes = 3 * (n + 1) + 1
    return dict(n=n, nodes=nodes, md=best_md / steps * 1e6, ours=best_ours / steps * 1e6,
                per_node=best_ours / steps / nodes * 1e9)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="N = 10, 40; 0.2 s; one run")
    p.add_argument("--out", help="write the table (markdown) here")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--note", default="", help="a sentence on the conditions (load)")
    args = p.parse_args(argv)
    ns = (10, 40) if args.quick else (10, 20, 40, 80)
    duration = 0.2 if args.quick else 1.0
    repeat = 1 if args.quick else args.repeat
    measure(10, 0.01, 1)  # compile / warm up both
    rows = [measure(n, duration, repeat) for n in ns]
    out = ["| N per line | total nodes | tetherdyn µs/step | ns per node-step | "
           "MoorDyn µs/step | MoorDyn / tetherdyn |", "|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['n']} | {r['nodes']} | {r['ours']:.1f} | {r['per_node']:.0f} | "
                   f"{r['md']:.1f} | {r['md'] / r['ours']:.2f} |")
    text = "\n".join(out)
    print(text)
    if args.out:
        where = f"{cpu_model()}; {versions('moordyn')}"
        head = (f"# Three lines to one free point vs MoorDyn (benchmarks/bench_system.py)\n\n"
                f"{where}; dt = {DT} s, {duration} s simulated, best of {repeat}. "
                f"{args.note}\n\n")
        Path(args.out).write_text(head + text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
