"""Where a warm ``tetherdyn run`` process spends its time, after ``import tetherdyn`` (issue 22).

One fresh process per example: ``import tetherdyn`` and the CLI are timed (wall and CPU),
then ``tetherdyn run EXAMPLE -q -o FILE`` runs under cProfile with the process's CPU clock
(numba's cache warm from an earlier process: run it twice). The run's CPU time is split
into buckets by cProfile's cumulative times of the functions that own them (they do not
overlap):

* integration: the compiled time loops (``rk4_chunk`` / ``rk45_chunk`` / ``ga_chunk``,
  their own time: compiled code has no Python frames inside);
* numba's cache loads: the compiled functions read back from the disk cache
  (``numba.core.caching.Cache.load_overload``, or tetherdyn/_numba_load.py's replacement,
  cumulative), of which the typing and target contexts numba builds on the first one in a
  process (``BaseContext.refresh``, called inside numba's own: _numba_load skips it);
* results file: ``results.ResultsTable.write`` (netCDF4);
* the rest (case loading and checks, the model, the start, imports on first use,
  diagnostics …).

The results file's solver statistics (steps, Jacobians, Newton iterations, force
evaluations) are printed with it; its integration wall time is what the run itself
measured. On a shared machine wall times include the waits for a core (the load is
printed); the buckets, being CPU time, do not.

    python benchmarks/profile_run.py [rov_manoeuvre ...] [--out FILE] [--repeat N]
        [--baseline DIR] [--phases]

``--phases``: no profiler; the process's CPU time (user + system) stamped between the
steps of ``tetherdyn run`` as cli.py takes them (the imports numpy, numba, pydantic, the CLI
and the case module; reading the YAML; ``load_case``, which also dispatches the first
compiled function of the process; the model; the start; ``integrate``, the loop and its
cache loads; the results table, whose diagnostics load their compiled function; the
results file), and the whole process from outside; the run with the least process CPU of
``--repeat`` is kept.

``--baseline DIR``: each example also runs from another tree of the package (an export of
an earlier commit, ``git archive COMMIT | tar -x -C DIR``, its name in ``DIR/COMMIT``),
alternating with this checkout's process; ``--repeat N`` keeps the profile with the least
run CPU of N of each (warm both caches first).
"""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import ROOT, cpu_model, ensure_bytecode, versions

EXAMPLES = ROOT / "src" / "tetherdyn" / "examples"

CHILD = r"""
import cProfile, json, pstats, sys, time
w0, c0 = time.perf_counter(), time.process_time()
import tetherdyn  # noqa: F401
from tetherdyn.cli import main
w1, c1 = time.perf_counter(), time.process_time()
pr = cProfile.Profile(time.process_time)  # CPU seconds: a shared machine's waits left out
pr.enable()
rc = main(["run", sys.argv[1], "-q", "-o", sys.argv[2]])
pr.disable()
w2, c2 = time.perf_counter(), time.process_time()
assert rc == 0
st = pstats.Stats(pr)
cum = {}
own = {}
for (file, line, name), (cc, nc, tt, ct, callers) in st.stats.items():
    key = f"{file}:{name}"
    cum[key] = cum.get(key, 0.0) + ct
    own[key] = own.get(key, 0.0) + tt
def pick(table, *parts):
    return sum(v for k, v in table.items() if all(p in k for p in parts))
out = dict(import_wall=w1 - w0, import_cpu=c1 - c0, run_wall=w2 - w1, run_cpu=c2 - c1,
           integration=pick(own, "integrate/", "_chunk"),
           refresh=pick(cum, "numba/core/base.py", "refresh"),
           load=pick(cum, "numba/core/caching.py", "load_overload")
           + pick(cum, "tetherdyn/_numba_load.py", "load_overload"),
           write=pick(cum, "tetherdyn/results.py", "write"))
print(json.dumps(out))
"""


PHASES_CHILD = r"""
import os, sys, json, time
cpu = time.process_time
marks = [("start", cpu())]
def mark(name):
    marks.append((name, cpu()))
import numpy; mark("import numpy")
import numba; mark("import numba")
import pydantic; mark("import pydantic")
from tetherdyn.cli import main; mark("import tetherdyn.cli")
from tetherdyn.case import load_case, read_case_source; mark("import tetherdyn.case")
from tetherdyn.integrate import integrate
from tetherdyn.models import build_model
from tetherdyn.results import results_table, save_results
from tetherdyn.start import initial_state; mark("import results, integrate, start")
raw, folder = read_case_source(sys.argv[1], None); mark("read the YAML")
case = load_case(raw, base_dir=folder); mark("load_case (first dispatch)")
model = build_model(case); mark("build_model")
start = initial_state(model); data = start.data(model); mark("initial_state")
s = case.solver
run = integrate(model, case.method, s.dt, s.duration, s.output_interval, rtol=s.rtol,
                atol=s.atol, max_steps=s.max_steps, progress=False, y0=start.y, data=data)
mark("integrate")
table = results_table(case, model, run); table.attrs.update(start.attrs); mark("results table")
save_results(table, sys.argv[2]); mark("results file")
from tetherdyn.cli import _skip_exit_collection
_skip_exit_collection()  # as cli.main does: no last full collection at exit
print(json.dumps({"marks": marks, "integration_wall": run.wall_time_s}))
"""


def phases(example: Path, tree: Path = ROOT) -> dict:
    """CPU seconds per step of a warm ``tetherdyn run`` (PHASES_CHILD), process CPU and
    wall from outside, the integration's wall time."""
    import json
    import resource
    import time

    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree / "src"), str(tree)])}
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", PHASES_CHILD, str(example),
                               str(Path(tmp) / "out.nc")], env=env, capture_output=True,
                              text=True, cwd=tmp)
        wall = time.perf_counter() - t0
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr[-2000:])
        out = json.loads(proc.stdout.strip().splitlines()[-1])
    marks = out["marks"]
    row = {name: b - a for (_, a), (name, b) in zip(marks, marks[1:], strict=False)}
    row["process_cpu"] = r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
    row["process_wall"] = wall
    row["integration_wall"] = out["integration_wall"]
    return row


def phases_table(rows: dict[str, dict]) -> str:
    names = list(rows)
    steps = [k for k in next(iter(rows.values()))
             if k not in ("process_cpu", "process_wall", "integration_wall")]
    out = ["| step (CPU s) | " + " | ".join(names) + " |", "|---|" + "--:|" * len(names)]
    for k in steps:
        out.append(f"| {k} | " + " | ".join(f"{rows[n][k]:.3f}" for n in names) + " |")
    out.append("| sum of the steps | " + " | ".join(
        f"{sum(rows[n][k] for k in steps):.3f}" for n in names) + " |")
    out.append("| interpreter start and exit (process less the steps) | " + " | ".join(
        f"{rows[n]['process_cpu'] - sum(rows[n][k] for k in steps):.3f}" for n in names)
        + " |")
    out.append("| process CPU (from outside) | " + " | ".join(
        f"{rows[n]['process_cpu']:.3f}" for n in names) + " |")
    out.append("| process wall (from outside) | " + " | ".join(
        f"{rows[n]['process_wall']:.3f}" for n in names) + " |")
    out.append("| integration wall (`wall_time_s`) | " + " | ".join(
        f"{rows[n]['integration_wall']:.3f}" for n in names) + " |")
    return "\n".join(out)


def profile(example: Path, tree: Path = ROOT) -> dict:
    import json

    import netCDF4

    with tempfile.TemporaryDirectory() as tmp:
        nc = Path(tmp) / "out.nc"
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree / "src"), str(tree)])}
        proc = subprocess.run([sys.executable, "-c", CHILD, str(example), str(nc)], env=env,
                              capture_output=True, text=True, cwd=tmp)
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr[-2000:])
        row = json.loads(proc.stdout.strip().splitlines()[-1])
        with netCDF4.Dataset(nc) as ds:
            for k in ("steps", "jacobians", "rejected_steps", "newton_iterations",
                      "force_evaluations", "rhs_evaluations", "wall_time_s"):
                row[k] = getattr(ds, k, None)
    return row


def table(rows: dict[str, dict]) -> str:
    out = ["| example | import wall / CPU | run wall / CPU (profiled) | CPU: integration | "
           "numba cache loads (of which first-dispatch contexts) | results file | rest |",
           "|---|---|---|--:|--:|--:|--:|"]
    for name, r in rows.items():
        rest = r["run_cpu"] - r["integration"] - r["load"] - r["write"]
        out.append(f"| {name} | {r['import_wall']:.2f} / {r['import_cpu']:.2f} s | "
                   f"{r['run_wall']:.2f} / {r['run_cpu']:.2f} s | {r['integration']:.2f} s | "
                   f"{r['load']:.2f} s ({r['refresh']:.2f} s) | {r['write']:.2f} s | "
                   f"{rest:.2f} s |")
    out += ["", "Solver statistics of each run:", "",
            "| example | steps | rejected | Jacobians | Newton iterations | force / RHS "
            "evaluations | integration wall (results file) |", "|---|--:|--:|--:|--:|--:|--:|"]
    for name, r in rows.items():
        evals = r["force_evaluations"] or r["rhs_evaluations"]
        out.append(f"| {name} | {r['steps']} | {r['rejected_steps']} | {r['jacobians']} | "
                   f"{r['newton_iterations']} | {evals} | {r['wall_time_s']:.2f} s |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("examples", nargs="*", default=["rov_manoeuvre"])
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--baseline", type=Path, default=None)
    p.add_argument("--phases", action="store_true",
                   help="CPU time stamps between the run's steps, no profiler")
    args = p.parse_args(argv)
    ensure_bytecode(ROOT / "src")
    load0 = os.getloadavg()[0]
    started = datetime.datetime.now(datetime.UTC)
    trees = {"": ROOT}
    if args.baseline is not None:
        b = args.baseline.resolve()
        ensure_bytecode(b / "src")
        tag = (b / "COMMIT").read_text().strip() if (b / "COMMIT").exists() else str(b)
        trees[f" @ {tag}"] = b
    runs: dict[str, list] = {}
    measure = phases if args.phases else profile
    for _ in range(args.repeat):
        for name in args.examples:
            for tag, tree in trees.items():  # alternating
                runs.setdefault(name + tag, []).append(measure(EXAMPLES / f"{name}.yaml",
                                                               tree))
    key = "process_cpu" if args.phases else "run_cpu"
    rows = {k: min(v, key=lambda r: r[key]) for k, v in runs.items()}
    text = phases_table(rows) if args.phases else table(rows)
    print(text)
    if args.out is not None:
        uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
        cmd = "python benchmarks/profile_run.py " + " ".join(args.examples)
        if args.repeat > 1:
            cmd += f" --repeat {args.repeat}"
        if args.baseline is not None:
            cmd += " --baseline DIR"
        if args.phases:
            cmd += " --phases"
        args.out.write_text("\n".join([
            "# A warm `tetherdyn run`, profiled after import (issue 22)", "",
            f"- Date: {started:%Y-%m-%d %H:%M} UTC; machine: {cpu_model()}, "
            f"{os.cpu_count()} cores, load average {load0:.2f} at the start; `uptime` at "
            f"the end: {uptime}",
            f"- Versions: {versions('numba', 'numpy')}",
            f"- Command: `{cmd}` (numba's cache warm from an earlier process)",
            ("- Steps: the script's docstring (`--phases`: CPU seconds, no profiler)."
             if args.phases else
             "- Buckets: the script's docstring (CPU seconds of the profiled run; cProfile's "
             "own overhead is in them)."), "",
            text, ""]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
