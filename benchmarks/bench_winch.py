"""Timing benchmark: what a winch costs per time step (lumped_mass, RK4).

Three runs of the same 0.5 kg/m tether with a 20 kg mass, dt = 5e-5 s, in vacuum and in
water (fluid 1025 kg/m^3, drag, added mass):

* ``winch``: the validation row's lowering case, 10 m paid out to ``10 + v T`` m at 1 m/s
  from a start winch (1 m elements: 10 growing to 10 + v T elements);
* ``fixed, final length``: a fixed-length tether of the final length and element count
  (the dearest layout the winch run reaches);
* ``fixed, mean length``: a fixed-length tether with the winch run's mean element count.

The winch run's cost per step should lie near the mean-length run's: the winch adds the
element update per evaluation (O(1), plus an O(N) spline refactor only with bending) and an
O(1) band test per step, and rows beyond the live nodes cost nothing. Reported: the
integration time (``ds.attrs["wall_time_s"]``, no compilation, no results building), best
of three runs, in µs per step.

Usage::

    python benchmarks/bench_winch.py [--quick] [--out benchmarks/results_winch.md]
"""

from __future__ import annotations

import argparse
import copy
import datetime
from pathlib import Path

from _common import cpu_model, versions

from tetherdyn import simulate
from validation.winch import lowering_case

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results_winch.md"


def fixed_case(base: dict, length: float) -> dict:
    """The lowering case with a fixed-length tether of ``length`` m in 1 m elements."""
    case = copy.deepcopy(base)
    case["tether"]["length"] = length
    case["model"]["elements"] = int(round(length))
    case["start"] = dict(type="fixed", position=[0.0, 0.0, 0.0])
    case["initial"]["velocity"] = [0.0, 0.0, 0.0]
    return case


def in_water(case: dict) -> dict:
    case = copy.deepcopy(case)
    case["environment"] = dict(fluid_density=1025.0)
    return case


def step_cost(case: dict, repeats: int) -> float:
    """Best integration time per step [µs] over ``repeats`` runs (one warm-up first)."""
    simulate(case, progress=False)
    best = min(simulate(case, progress=False).attrs["wall_time_s"] for _ in range(repeats))
    steps = case["solver"]["duration"] / case["solver"]["dt"]
    return 1e6 * best / steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="T = 5 s, one repetition")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    T = 5.0 if args.quick else 30.0
    repeats = 1 if args.quick else 3
    out = args.out if args.out is not None else (None if args.quick else DEFAULT_OUT)
    base = lowering_case(T, output_interval=0.5)
    rows = []
    for medium, f in (("vacuum", lambda c: c), ("water", in_water)):
        cost = {
            "winch": step_cost(f(base), repeats),
            "fixed, final length": step_cost(f(fixed_case(base, 10.0 + T)), repeats),
            "fixed, mean length": step_cost(f(fixed_case(base, 10.0 + T / 2)), repeats),
        }
        rows.append((medium, cost))
        print(medium, {k: round(v, 3) for k, v in cost.items()})
    lines = [
        "# What a winch costs per time step (lumped_mass, RK4)",
        "",
        f"`python benchmarks/bench_winch.py` on {datetime.date.today()}, {cpu_model()}; "
        f"{versions('numba', 'numpy')}.",
        "",
        f"Lowering case: 10 m paid out to {10 + T:g} m at 1 m/s (1 m elements), dt = 5e-5 s; "
        "integration time only, best of "
        f"{repeats}.",
        "",
        "| medium | winch [µs/step] | fixed, final length | fixed, mean length | "
        "winch / mean |",
        "|---|---|---|---|---|",
    ]
    for medium, c in rows:
        lines.append(f"| {medium} | {c['winch']:.3f} | {c['fixed, final length']:.3f} | "
                     f"{c['fixed, mean length']:.3f} | "
                     f"{c['winch'] / c['fixed, mean length']:.2f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if out is not None:
        out.write_text(text)
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
