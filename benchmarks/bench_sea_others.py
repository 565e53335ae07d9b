"""Timing benchmark: the sea's cost in rigid_links, rod_chain and ancf2d (issue 17).

For each model at N elements, the compiled right-hand side (``model.rhs`` called K times
from a compiled loop: no Python call overhead in the number) [µs per call and ns per node
and call] in four seas, each against the same line in calm water (one unbounded fluid,
``fluid_density`` 1025 kg/m³, the calm path):

- ``surface``: a water level crossing the line (air above, water below; sea path);
- ``waves200``: the same with a JONSWAP sea of 200 components (Hs 2 m, Tp 8 s);
- ``seabed``: the line lying on a flat seabed, every free node in contact, friction on;
- ``calm``: the reference.

The line: L = 100 m, d = 0.05 m, 2 kg/m, EA = 1e7 N (rod_chain, ancf2d), EI = 10 N m²
(ancf2d), cross_flow drag; hanging straight down from z = 0 (lying along x at z = 0 for the
seabed, the bed 1 mm above the nodes so that every free node is grounded). The state is
the initial one (no run): the cost of the loads does not depend on the motion.

Usage::

    python benchmarks/bench_sea_others.py [--quick] [--out benchmarks/results_sea_others.md]

``--quick`` (0.1 s per timing, one repetition) prints and writes no file unless ``--out``
is given.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import compiled_rhs_time, cpu_model, versions  # noqa: E402

from tetherdyn.case import load_case  # noqa: E402
from tetherdyn.models import build_model  # noqa: E402

MODELS = ("rigid_links", "rod_chain", "ancf2d")
SEAS = ("calm", "surface", "waves200", "seabed")
L = 100.0


def make_case(model: str, n: int, sea: str) -> dict:
    tether = dict(length=L, diameter=0.05, mass_per_length=2.0, cd_normal=1.2,
                  cd_tangential=0.01, drag_law="cross_flow")
    if model != "rigid_links":
        tether.update(EA=1.0e7)
    if model == "ancf2d":
        tether.update(EI=10.0)
    env: dict = dict(fluid_density=1025.0)
    direction = [0.0, 0.0, -1.0]
    if sea in ("surface", "waves200"):
        env["water_level"] = -L / 3
    if sea == "waves200":
        env["waves"] = dict(type="jonswap", hs=2.0, tp=8.0, components=200)
    if sea == "seabed":
        env.update(water_level=50.0, seabed=dict(z=0.001, friction=dict(axial=0.5,
                                                                         lateral=0.5)))
        direction = [1.0, 0.0, 0.0]
    return dict(model=dict(type=model, elements=n), tether=tether, environment=env,
                start=dict(type="fixed", position=[0.0, 0.0, 0.0]), end=dict(type="free"),
                initial=dict(shape="straight", direction=direction),
                solver=dict(method="rk4", dt=1e-4, duration=1.0))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--elements", type=int, default=64)
    p.add_argument("--seconds", type=float, default=None)
    p.add_argument("--repeats", type=int, default=None)
    p.add_argument("--out", default=None)
    a = p.parse_args(argv)
    seconds = a.seconds or (0.1 if a.quick else 0.6)
    repeats = a.repeats or (1 if a.quick else 3)
    out = a.out or (None if a.quick else "benchmarks/results_sea_others.md")
    n = a.elements
    load0 = os.getloadavg()[0]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    rows = []
    for model in MODELS:
        us = {}
        for sea in SEAS:
            m = build_model(load_case(make_case(model, n, sea)))
            us[sea], _ = compiled_rhs_time(m, m.initial_state(), seconds, repeats)
        rows.append((model, us))
        print(model, {k: round(v, 2) for k, v in us.items()}, flush=True)
    load1 = os.getloadavg()[0]
    lines = [
        "# The sea's cost in rigid_links, rod_chain and ancf2d",
        "",
        f"`python benchmarks/bench_sea_others.py{' --quick' if a.quick else ''}` "
        f"({started}; {cpu_model()}; load average {load0:.1f} before, {load1:.1f} after; "
        f"{versions('numba', 'numpy')}). N = {n} elements; compiled `model.rhs`, best of "
        f"{repeats} timings of {seconds:g} s each. µs per call (ns per node and call); "
        "the ratio to calm water in brackets.",
        "",
        "| model | " + " | ".join(SEAS) + " |",
        "|---|" + "---|" * len(SEAS),
    ]
    for model, us in rows:
        cells = []
        for sea in SEAS:
            per_node = 1e3 * us[sea] / (n + 1)
            ratio = "" if sea == "calm" else f" [{us[sea] / us['calm']:.2f}×]"
            cells.append(f"{us[sea]:.2f} ({per_node:.0f}){ratio}")
        lines.append(f"| {model} | " + " | ".join(cells) + " |")
    lines += ["", "The machine is shared: compare within a row (same run, interleaved by "
              "model), not across files."]
    text = "\n".join(lines) + "\n"
    print(text)
    if out:
        Path(out).write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
