"""Benchmark: read-only (frozen) model constants cost nothing in the kernels.

A built model's constant arrays are read-only (models/base.py: Model and data). numba
compiles a separate specialisation for read-only arrays; this checks it is as fast. For one
bundled example per formulation we time the RK4 loop (``rk4_chunk``) on the run data of
``model.make_data()`` (constants frozen) and on a copy of it with every array writable,
interleaved, and print the best of ``--repeats`` per step and the ratio frozen / writable.

Usage: ``python benchmarks/bench_frozen_data.py [--repeats 9]``
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import _common  # noqa: F401  (the checkout's root on the path)
import numpy as np

from tetherdyn.case import load_case
from tetherdyn.integrate.explicit import rk4_chunk
from tetherdyn.models import build_model

EXAMPLES = Path(__file__).resolve().parent.parent / "src" / "tetherdyn" / "examples"

#: example, RK4 steps per timing
CASES = (("hanging_chain", 20000), ("seed001_falling_chain", 20000),
         ("rigid_link_tether", 8000), ("rov_manoeuvre", 4000), ("rubber_strip", 4000))


def step_times(name: str, steps: int, repeats: int) -> tuple[str, float, float]:
    """(model type, best µs per RK4 step frozen, writable)."""
    case = load_case(EXAMPLES / f"{name}.yaml")
    m = build_model(case)
    frozen = m.make_data()
    writable = type(frozen)(*(np.array(v, copy=True) if isinstance(v, np.ndarray) else v
                              for v in frozen))
    y0 = m.initial_state()
    m.enforce(0.0, y0, frozen)
    dt = min(case.solver.dt, 0.5 * m.critical_time_step()[0])
    k = [np.empty(y0.size) for _ in range(5)]
    info = np.zeros(4)
    Y = np.empty((1, y0.size))
    best = {"frozen": np.inf, "writable": np.inf}
    for d in (frozen, writable):  # compile both specialisations
        rk4_chunk(m.rhs, m.enforce, m.remesh, m.check, d, 0.0, dt, 0, 1, 1, y0.copy(), Y, *k,
                  info)
    for _ in range(repeats):
        for label, d in (("frozen", frozen), ("writable", writable)):
            y = y0.copy()
            info[:] = 0.0
            t0 = time.perf_counter()
            rk4_chunk(m.rhs, m.enforce, m.remesh, m.check, d, 0.0, dt, 0, steps, 1, y, Y, *k,
                      info)
            best[label] = min(best[label], (time.perf_counter() - t0) / steps * 1e6)
    return m.name, best["frozen"], best["writable"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=9)
    args = p.parse_args(argv)
    print("| example | model | frozen [µs/step] | writable [µs/step] | ratio |")
    print("|---|---|---|---|---|")
    for name, steps in CASES:
        model, f, w = step_times(name, steps, args.repeats)
        print(f"| {name} | {model} | {f:.3f} | {w:.3f} | {f / w:.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
