"""Compilation cost of a case from an empty numba cache, per compiled function (issue 22).

Runs the case (its duration cut to ``--duration`` s) in a fresh process whose numba cache
is an empty temporary folder (``NUMBA_CACHE_DIR``), and records numba's own compile events
(``numba.core.event``, kind ``numba:compile``): per function the seconds spent compiling it,
exclusive of the functions it compiles in turn (``excl``) and inclusive (``incl``).

    python benchmarks/bench_compile.py examples/rov_umbilical_waves.yaml [--duration 0.2]
        [--top 15] [--out benchmarks/results_compile.md]

Writes a markdown table (with the date, commit, machine and load) to ``--out`` when given,
else prints it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import cpu_model, versions

_CHILD = r"""
import json, sys, time
from collections import defaultdict
from numba.core import event

excl, incl, count, stack = defaultdict(float), defaultdict(float), defaultdict(int), []


class Timer(event.Listener):
    def on_start(self, ev):
        stack.append([time.perf_counter(), 0.0])

    def on_end(self, ev):
        t0, child = stack.pop()
        dt = time.perf_counter() - t0
        f = getattr(ev.data.get("dispatcher"), "py_func", None)
        name = f"{f.__module__}.{f.__qualname__}" if f is not None else "?"
        excl[name] += dt - child
        incl[name] += dt
        count[name] += 1
        if stack:
            stack[-1][1] += dt


event.register("numba:compile", Timer())
from tetherdyn.case import load_case
from tetherdyn.simulate import simulate

path, duration = sys.argv[1], float(sys.argv[2])
case = load_case(path)
case = case.with_changes({"solver.duration": duration, "solver.output_interval":
                          min(case.solver.output_interval, duration)})
t0, c0 = time.perf_counter(), time.process_time()
simulate(case, progress=False)
json.dump({"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0,
           "excl": excl, "incl": incl, "count": count}, sys.stdout)
"""


def measure(case: str, duration: float) -> dict:
    """The compile events of one fresh process running ``case`` with an empty cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = subprocess.run([sys.executable, "-c", _CHILD, case, str(duration)], env=env,
                             capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{case}: the measured process failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def table(case: str, r: dict, top: int) -> str:
    """The markdown report of one measurement."""
    total = sum(r["excl"].values())
    rows = sorted(r["excl"].items(), key=lambda kv: -kv[1])[:top]
    lines = [f"Case `{case}`: {r['wall']:.1f} s wall, {r['cpu']:.1f} s CPU for the run "
             f"(empty cache), of which {total:.1f} s compiling ({len(r['excl'])} functions).",
             "", "| function | s compiling (excl.) | s incl. callees | compiles |",
             "|---|--:|--:|--:|"]
    lines += [f"| `{k}` | {v:.1f} | {r['incl'][k]:.1f} | {r['count'][k]} |" for k, v in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("case")
    ap.add_argument("--duration", type=float, default=0.2, help="simulated seconds")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--out", type=Path)
    a = ap.parse_args(argv)
    load0 = os.getloadavg()[0]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    r = measure(a.case, a.duration)
    text = "\n".join([
        "# Compilation from an empty cache", "",
        f"`python benchmarks/bench_compile.py {' '.join(argv or sys.argv[1:])}`, {started}; "
        f"{cpu_model()}; {versions('numba')}; "
        f"load {load0:.2f} → {os.getloadavg()[0]:.2f}.", "",
        table(a.case, r, a.top), ""])
    if a.out:
        a.out.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
