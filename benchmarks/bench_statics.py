"""statics.solve from defaults: every bundled example and issue 18's stress cases.

Each case as ``initial: {shape: equilibrium}`` with no guess; the model is built once and
solved twice, the second (kernels warm) is timed: its CPU time (time.process_time: what
the solve costs, and its wall time on an idle machine) and its wall time (on a shared
machine also the other jobs' share). Pass (issue 18): residual <= 1e-6 of
statics.line_weight and under 2 s CPU (N <= 100). A tow's residual is the force residual
in its moving frame (settle's ranges where Newton does not polish it).

    python benchmarks/bench_statics.py [--only SUBSTRING ...] [--out benchmarks/results_statics.md]
        [--append]

``--append`` adds the run to ``--out`` (e.g. the same cases with another checkout's
``src`` first on PYTHONPATH: the header names the tetherdyn imported).
"""

from __future__ import annotations

import argparse
import copy
import datetime
import glob
import math
import os
import shlex
import sys
import time

from _common import cpu_model, git_commit, versions

import tetherdyn
from tetherdyn import statics
from tetherdyn.case import load_case
from tetherdyn.models import build_model

RHO = 1025.0
EXAMPLES = os.path.join(os.path.dirname(tetherdyn.__file__), "examples")


def example_cases() -> list[tuple[str, dict, str | None]]:
    """(name, case dict, base folder) of every bundled example that is a case."""
    out = []
    for p in sorted(glob.glob(os.path.join(EXAMPLES, "*.yaml"))):
        try:
            raw = load_case(p).to_dict()
        except Exception:  # not a case (swingup_ga.yaml: a GA driver)
            continue
        raw["initial"] = {"shape": "equilibrium"}
        out.append(("example " + os.path.basename(p)[:-5], raw, EXAMPLES))
    return out


def line(n: int, ratio: float, span: float, dz: float, model: str = "lumped_mass",
         mpl: float = 10.0, d: float = 0.05, end=None, env=None, tether=None,
         opts=None) -> dict:
    """A 100 m line from (0, 0, -100) m, EA = ratio · w L (w its wet weight per metre; the
    dry one for a neutral line), its end held at (span, 0, -100 + dz) m or ``end``."""
    w = abs(mpl - RHO * math.pi * d * d / 4) * 9.81 or mpl * 9.81
    t = dict(length=100.0, diameter=d, mass_per_length=mpl, EA=ratio * w * 100.0,
             **(tether or {}))
    return dict(tether=t, model=dict(type=model, elements=n, **(opts or {})),
                environment=dict(gravity=[0.0, 0.0, -9.81], fluid_density=RHO, **(env or {})),
                start=dict(type="fixed", position=[0.0, 0.0, -100.0]),
                end=end or dict(type="fixed", position=[span, 0.0, -100.0 + dz]),
                initial=dict(shape="equilibrium"), solver=dict(dt=1e-4, duration=1.0))


def mooring(n: int, stiffness: float, model: str = "lumped_mass") -> dict:
    """mooring_touchdown.yaml's chain on a flat seabed of the given contact stiffness."""
    env = dict(water_level=0.0, seabed=dict(z=-50.0, stiffness=stiffness, damping=3e5,
                                            friction=dict(axial=0.5, lateral=1.0)))
    c = dict(tether=dict(length=180.0, diameter=0.12, mass_per_length=100.0, EA=5e8),
             model=dict(type=model, elements=n),
             environment=dict(gravity=[0.0, 0.0, -9.81], fluid_density=RHO, **env),
             start=dict(type="fixed", position=[0.0, 0.0, -50.0]),
             end=dict(type="fixed", position=[150.0, 0.0, -5.0]),
             initial=dict(shape="equilibrium"), solver=dict(dt=1e-3, duration=1.0))
    if model == "higher_order":
        c["tether"]["EI"] = 1e4
    return c


def stress_cases() -> list[tuple[str, dict, None]]:
    c = []
    for n in (20, 100):
        for r in (1e2, 1e4, 1e6, 1e8):
            c.append((f"lumped_mass N={n} EA/wL {r:.0e} slack", line(n, r, 60.0, 40.0)))
            c.append((f"lumped_mass N={n} EA/wL {r:.0e} taut", line(n, r, 95.0, 40.0)))
    for r in (1e2, 1e4, 1e6, 1e8):
        c.append((f"lumped_mass bending EA/wL {r:.0e} slack",
                  line(20, r, 60.0, 40.0, tether=dict(EI=1e3), opts=dict(bending=True))))
        for kind, span in (("slack", 60.0), ("taut", 95.0)):
            c.append((f"higher_order EA/wL {r:.0e} {kind}",
                      line(20, r, span, 40.0, model="higher_order", tether=dict(EI=1e3))))
    c.append(("higher_order N=50 slack", line(50, 1e4, 60.0, 40.0, model="higher_order",
                                              tether=dict(EI=1e3))))
    c.append(("higher_order N=100 EI 1e4 slack",
              line(100, 1e4, 60.0, 40.0, model="higher_order", tether=dict(EI=1e4))))
    tor = line(20, 1e4, 60.0, 40.0, model="higher_order", tether=dict(EI=1e3, GJ=1e3))
    c.append(("higher_order torsion", copy.deepcopy(tor)))
    tor["start"].update(clamp=[0.0, 0.0, -1.0], roll_deg=0.0)
    tor["end"]["roll_deg"] = 90.0
    c.append(("higher_order torsion, rolls held 0/90 deg", tor))
    c.append(("lumped_mass buoyant, free end", line(8, 1e3, 0, 0, d=0.25, end=dict(type="free"))))
    c.append(("higher_order buoyant, free end",
              line(20, 1e3, 0, 0, d=0.25, end=dict(type="free"), model="higher_order",
                   tether=dict(EI=10.0))))
    c.append(("lumped_mass buoyant, both held", line(20, 1e4, 60.0, 40.0, d=0.25)))
    for k in (3e6, 3e8, 3e9):
        c.append((f"lumped_mass seabed {k:.0e} Pa/m", mooring(36, k)))
        c.append((f"higher_order seabed {k:.0e} Pa/m", mooring(36, k, "higher_order")))
    bed = dict(water_level=0.0, seabed=dict(z=-100.0, stiffness=3e6, damping=3e5,
                                            friction=dict(axial=0.5, lateral=1.0)))
    c.append(("seabed + friction N=20", line(20, 1e6, 85.0, 30.0, env=bed)))
    c.append(("seabed + friction N=100", line(100, 1e6, 85.0, 30.0, env=bed)))
    c.append(("seabed + friction + current", line(20, 1e6, 85.0, 30.0,
                                                  env=dict(bed, current=[0.6, 0.8, 0.0]))))
    cur = dict(current=[0.0, 1.0, 0.0])
    c.append(("lumped_mass cross current", line(20, 1e4, 60.0, 40.0, env=cur)))
    c.append(("lumped_mass bending cross current",
              line(20, 1e4, 60.0, 40.0, env=cur, tether=dict(EI=1e3), opts=dict(bending=True))))
    c.append(("higher_order cross current",
              line(20, 1e4, 60.0, 40.0, env=cur, model="higher_order", tether=dict(EI=1e3))))
    body = dict(type="free", mass=50.0, volume=0.01, drag_area=0.5)
    c.append(("lumped_mass payload in current",
              line(20, 1e4, 0, 0, env=dict(current=[1.0, 0, 0]), end=body)))
    c.append(("higher_order payload in current",
              line(20, 1e4, 0, 0, env=dict(current=[1.0, 0, 0]), model="higher_order",
                   tether=dict(EI=1e3), end=dict(body))))
    jumper = dict(tether=dict(length=170.0, diameter=0.25, mass_per_length=120.0, EA=5e8,
                              EI=1.2e5),
                  model=dict(type="lumped_mass", elements=68, bending=True),
                  environment=dict(gravity=[0.0, 0.0, -9.81], fluid_density=RHO),
                  start=dict(type="fixed", position=[0.0, 0.0, -100.0]),
                  end=dict(type="fixed", position=[100.0, 0.0, -70.0]),
                  initial=dict(shape="equilibrium"), solver=dict(dt=1e-4, duration=1.0))
    c.append(("issue 18 jumper, lumped_mass bending", jumper))
    c.append(("issue 18 jumper, higher_order",
              dict(copy.deepcopy(jumper), model=dict(type="higher_order", elements=68))))
    neutral = RHO * math.pi * 0.05**2 / 4
    c.append(("lumped_mass neutral slack", line(20, 1e4, 60.0, 40.0, mpl=neutral)))
    c.append(("higher_order neutral slack",
              line(20, 1e4, 60.0, 40.0, mpl=neutral, model="higher_order", tether=dict(EI=1e3))))
    return [(name, raw, None) for name, raw in c]


def solve_twice(raw: dict, base: str | None) -> dict:
    """The second solve of the case's model: method, iterations, residual / weight, s."""
    model = build_model(load_case(raw, base_dir=base))
    row = {}
    for _ in range(2):
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            eq = statics.solve(model)
            row = dict(method=eq.method, it=eq.iterations, rel=eq.residual / eq.weight,
                       note="")
        except statics.StaticsError as exc:
            row = dict(method="StaticsError", it=-1, rel=math.nan,
                       note=str(exc).split(";")[0])
        row.update(s=time.perf_counter() - t0, cpu=time.process_time() - c0)
    row["ok"] = row["rel"] <= 1e-6 and row["cpu"] < 2.0
    row["N"] = model.n_elements
    row["model"] = model.name
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", nargs="*", default=None, help="cases whose name contains one")
    ap.add_argument("--out", default=None, help="also write the markdown here")
    ap.add_argument("--append", action="store_true", help="append to --out")
    args = ap.parse_args()
    cases = example_cases() + stress_cases()
    if args.only:
        cases = [c for c in cases if any(s in c[0] for s in args.only)]
    t0 = time.time()
    load0 = os.getloadavg()[0]
    lines = ["| case | formulation | N | method | iterations | residual / weight | CPU s | "
             "wall s | pass |",
             "|---|---|--:|---|--:|--:|--:|--:|---|"]
    for name, raw, base in cases:
        r = solve_twice(raw, base)
        rel = "n/a" if math.isnan(r["rel"]) else f"{r['rel']:.2e}"
        note = f" ({r['note']})" if r["note"] else ""
        lines.append(f"| {name} | {r['model']} | {r['N']} | {r['method']}{note} | {r['it']} "
                     f"| {rel} | {r['cpu']:.2f} | {r['s']:.2f} | {'yes' if r['ok'] else 'NO'} |")
        print(lines[-1], flush=True)
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    head = ["# statics.solve from defaults: examples and stress cases (issue 18)", "",
            f"- Date: {now}; the benchmark took {time.time() - t0:.0f} s",
            f"- Machine: {cpu_model()} (2 cores shared with other work: 1-minute load "
            f"{load0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end; times are the "
            "second solve, kernels warm)",
            f"- Versions: {versions('numba', 'numpy', 'scipy')}; commit {git_commit()}; "
            f"tetherdyn imported from {os.path.dirname(tetherdyn.__file__)}",
            "- Command: `python benchmarks/bench_statics.py " + shlex.join(sys.argv[1:]) + "`",
            "- Pass: residual <= 1e-6 of statics.line_weight and < 2 s CPU (the wall time "
            "on an idle machine; the wall time here also counts the other jobs).", ""]
    text = "\n".join(head + lines) + "\n"
    if args.out:
        with open(args.out, "a" if args.append else "w") as f:
            f.write(("\n" if args.append else "") + text)


if __name__ == "__main__":
    main()
