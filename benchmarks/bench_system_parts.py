"""Where a system step's time goes: bench_system.py's deck (three lines to a free point in
MoorDyn's sea), per call from compiled loops in one process, best of 5: the system's rhs,
its three lines' own rhs alone (each line as a single-line model), its enforce and remesh.
A step costs about 4 rhs + enforce + remesh (+ RK4's state updates). CPU time of the
timing thread.

Usage::

    python benchmarks/bench_system_parts.py [N ...]   (segments per line; default 10 40)
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
from _common import rhs_loop
from bench_system import deck_text

from tetherdyn._jit import bind_kernels

enforce = remesh = None  # bound by name (_jit.bind_kernels)


def _enforce_calls(data, t, y, k):
    for _ in range(k):
        enforce(t, y, data)


def _remesh_calls(data, t, y, k):
    for _ in range(k):
        remesh(t, y, data)


def _best(f, k: int, repeat: int = 5) -> float:
    """Best µs per call of f(k) (k calls)."""
    b = float("inf")
    for _ in range(repeat):
        c0 = time.thread_time()
        f(k)
        b = min(b, time.thread_time() - c0)
    return b / k * 1e6


def parts(n: int) -> dict[str, float]:
    from tetherdyn.case import CaseWarning
    from tetherdyn.models.system_model import build_system
    from tetherdyn.moordyn_input import moordyn_to_system
    from tetherdyn.system_case import load_system

    with tempfile.TemporaryDirectory() as tmp:
        deck = Path(tmp) / "deck.txt"
        deck.write_text(deck_text(n))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", CaseWarning)
            case = load_system(moordyn_to_system(deck, duration=0.01, output_interval=0.01))
    model = build_system(case)
    y = model.initial_state()
    d = model.make_data()
    dydt = np.empty_like(y)
    k = 2000 if n <= 10 else 800
    rhs_loop(model.rhs, d, 0.0, y, dydt, 1)
    out = {"rhs": _best(lambda j: rhs_loop(model.rhs, d, 0.0, y, dydt, j), k)}
    enf = bind_kernels(_enforce_calls, {"enforce": model.enforce})
    enf(d, 0.0, y, 1)
    out["enforce"] = _best(lambda j: enf(d, 0.0, y, j), k)
    rem = bind_kernels(_remesh_calls, {"remesh": model.remesh})
    rem(d, 0.0, y, 1)
    out["remesh"] = _best(lambda j: rem(d, 0.0, y, j), k)
    out["lines"] = 0.0
    for m, s in zip(model.line_models.values(), model.line_slices().values(), strict=True):
        yl = np.ascontiguousarray(y[s])
        dl = np.empty_like(yl)
        ml = m.make_data()
        rhs_loop(m.rhs, ml, 0.0, yl, dl, 1)
        out["lines"] += _best(lambda j, m=m, ml=ml, yl=yl, dl=dl: rhs_loop(m.rhs, ml, 0.0, yl,
                                                                             dl, j), k)
    return out


def main(argv: list[str] | None = None) -> int:
    ns = [int(a) for a in (sys.argv[1:] if argv is None else argv)] or [10, 40]
    print(f"load average {os.getloadavg()[0]:.1f}")
    for n in ns:
        p = parts(n)
        print(f"3 x {n}: system rhs {p['rhs']:.2f} µs/call, its lines' rhs alone "
              f"{p['lines']:.2f}, enforce {p['enforce']:.2f}, remesh {p['remesh']:.2f} µs/call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
