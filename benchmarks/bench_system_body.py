"""Timing benchmark: a step of a system with a free body (issue 19), this checkout against a
reference commit.

The case: validation/system_bodies.py's ``swing`` in water — a 20 kg body hung from three
fixed points by three lumped-mass lines of 6 elements, drag and added mass on lines and
body, thrown sideways and spinning (every attachment's lever, spin and centripetal terms
non-zero). Timed: tetherdyn's compiled RK4 loop (integrate/explicit.py's ``RK4Workspace``,
what ``integrate`` runs) over ``--steps`` steps of dt = 2e-4 s from the case's start, CPU
time of the timing thread (``time.thread_time``), best of ``--repeat`` in one process.

The two trees run in fresh processes that alternate ("base": the reference commit's
``src/`` extracted with ``git archive``, bench_startup.extract; "new": this checkout), each
after one untimed process that compiles its kernels or loads them from numba's cache; the
best of ``--rounds`` processes per tree is reported with new / base (< 1: new is faster).

    python benchmarks/bench_system_body.py --reference COMMIT [--rounds 5] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

from _common import ROOT, cpu_model, versions

DT = 2e-4


def measure(steps: int, repeat: int) -> float:
    """Best µs per RK4 step of the swinging body in water (module docstring), this process's
    tetherdyn."""
    import numpy as np

    from tetherdyn.integrate.explicit import RK4Workspace
    from tetherdyn.models.system_model import build_system
    from tetherdyn.system_case import load_system
    from validation.system_bodies import swing

    model = build_system(load_system(swing({"method": "rk4", "dt": DT, "duration": 1.0},
                                           water=True)))
    y0 = model.initial_state()
    ws = RK4Workspace(y0.size)
    Y = np.empty((1, y0.size))

    def run(n: int) -> float:
        y = y0.copy()
        data = model.make_data()
        c0 = time.thread_time()
        ws.run(model, data, 0.0, DT, 0, n, 1, y, Y)
        el = time.thread_time() - c0
        if ws.state[0] != 0:
            raise RuntimeError(f"tetherdyn run failed (status {ws.state[0]})")
        return el

    run(10)  # compile, or load from numba's cache
    return 1e6 * min(run(steps) for _ in range(repeat)) / steps


def child(src: Path, steps: int, repeat: int) -> float:
    """measure() in a fresh process with ``src`` first on the path (the lab from ROOT)."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = f"{src}{os.pathsep}{ROOT}"
    code = (f"import sys; sys.path.insert(0, {str(ROOT / 'benchmarks')!r}); "
            f"import bench_system_body as b; print(b.measure({steps}, {repeat}))")
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, cwd=ROOT)
    if proc.returncode != 0:
        raise RuntimeError(f"{src}: failed:\n{proc.stderr[-2000:]}")
    return float(proc.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    from bench_startup import extract

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reference", required=True, help="the base commit")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--steps", type=int, default=2000)
    p.add_argument("--out", help="write the table (markdown) here")
    p.add_argument("--note", default="", help="a sentence on the conditions")
    args = p.parse_args(argv)
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", args.reference], text=True,
                            capture_output=True, check=True).stdout.strip()
    trees = {"base": extract(commit), "new": ROOT / "src"}
    load0 = os.getloadavg()[0]
    for src in trees.values():  # compile (or load) each tree's kernels once, untimed
        child(src, 10, 1)
    best = {k: math.inf for k in trees}
    runs: dict[str, list[float]] = {k: [] for k in trees}
    for r in range(args.rounds):
        order = list(trees) if r % 2 == 0 else list(trees)[::-1]
        for k in order:
            us = child(trees[k], args.steps, args.repeat)
            runs[k].append(us)
            best[k] = min(best[k], us)
    load1 = os.getloadavg()[0]
    text = ("| tree | best µs per RK4 step | every process's best |\n|---|---|---|\n"
            + "".join(f"| {k} | {best[k]:.2f} | {', '.join(f'{u:.2f}' for u in runs[k])} |\n"
                      for k in trees)
            + f"\nnew / base = {best['new'] / best['base']:.3f}\n")
    print(text)
    print(json.dumps({"base": best["base"], "new": best["new"]}))
    if args.out:
        cmd = (f"python benchmarks/bench_system_body.py --reference {args.reference} "
               f"--rounds {args.rounds}")
        head = (f"# A free-body system's RK4 step, this checkout vs {commit[:9]} "
                f"(benchmarks/bench_system_body.py)\n\n"
                f"`{cmd}`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. "
                f"{cpu_model()}; {versions().rstrip(', ')}. dt = {DT} s, "
                f"{args.steps} steps, best of {args.repeat} per process, {args.rounds} "
                f"alternating processes per tree; CPU time of the timing thread. Load "
                f"average {load0:.1f} at the start, {load1:.1f} at the end (2 cores shared "
                f"with other work: compare numbers within this table only). {args.note}\n\n")
        Path(args.out).write_text(head + text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
