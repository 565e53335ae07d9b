"""Startup as users see it (issue 22): whole-process wall time of fresh processes.

Measured, for this checkout ("new") and, interleaved with it, for a reference commit
("base", its ``src/`` extracted with ``git archive``, by default the commit issue 22 started
from):

- ``import tetherdyn`` and ``tetherdyn --help`` (best of ``--repeat`` fresh processes), and
  ``python -X importtime``'s cumulative time of ``import tetherdyn``;
- ``tetherdyn run EXAMPLE -o out.nc`` for every bundled example case (and the MoorDyn deck,
  ``--duration 20``): *cold* (the tree's numba caches deleted, ``NUMBA_CACHE_DIR`` unset:
  everything compiles) once, then *warm* (caches written by an earlier process; best of
  ``--repeat``), with the integration's own wall time (the results' ``wall_time_s``) of
  the best warm run.

Issue 22's targets: ``import tetherdyn`` ≤ 0.5 s; warm whole process ≤ integration + 1.0 s.
A process is a fresh interpreter: ``python -c "from tetherdyn.cli import main; main()"``,
what the ``tetherdyn`` console script runs. Timings are wall clock on a shared machine: the
two trees alternate run by run so that both see the same load.

    python benchmarks/bench_startup.py [--reference COMMIT] [--repeat 3] [--only NAME ...]
        [--out benchmarks/results_startup.md]

``swingup_ga.yaml`` is a GA problem file (``tetherdyn optimize``), not a case: not run.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

from _common import (
    ROOT,
    cpu_model,
    ensure_bytecode,
    extract_src,
    fmt,
    git_commit,
    package_version,
)

EXAMPLES = ROOT / "src" / "tetherdyn" / "examples"
START_COMMIT = "24acfefb58c5946973177d5d2501232e7a8e122a"  # before issue 22
NOT_CASES = {"swingup_ga"}  # a GA problem file (tetherdyn optimize)
CLI = "import sys; from tetherdyn.cli import main; sys.exit(main())"
#: the same, reporting on stderr the CPU time [s] spent integrating (tetherdyn.integrate's
#: chunk driver, wrapped): on a loaded machine wall times count the waits for a core, CPU
#: times do not, so "CPU overhead" = process CPU − integration CPU is the load-proof one
CLI_TIMED = (
    "import sys, time\n"
    # what cli.main does first in a real process, before numpy loads (one OpenBLAS thread,
    # where the tree's cli has it): wrapping the driver below imports numpy earlier
    "import tetherdyn.cli as C\n"
    "getattr(C, '_one_blas_thread', lambda: None)()\n"
    "import tetherdyn.integrate as I\n"
    "drive = I._drive\n"
    "spent = [0.0]\n"
    "def timed(*a):\n"
    "    t0 = time.process_time()\n"
    "    try:\n"
    "        return drive(*a)\n"
    "    finally:\n"
    "        spent[0] += time.process_time() - t0\n"
    "I._drive = timed\n"
    "from tetherdyn.cli import main\n"
    "rc = main()\n"
    "print(f'INTEGRATION_CPU {spent[0]!r}', file=sys.stderr)\n"
    "sys.exit(rc)\n")
WORK = Path("/tmp/tetherdyn_bench_startup")



def env_for(src: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = str(src)
    return env


#: CPU time (user + system) [s] of the last process :func:`wall` ran, and the CPU time it
#: reported spending in the integration (CLI_TIMED; NaN otherwise)
LAST_CPU = [float("nan"), float("nan")]


def wall(cmd: list[str], src: Path) -> float:
    """Wall time [s] of one fresh process (raises if it fails); its CPU time in LAST_CPU."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env_for(src), capture_output=True, text=True, cwd=WORK)
    el = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    LAST_CPU[0] = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    LAST_CPU[1] = float("nan")
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
    for line in proc.stderr.splitlines():
        if line.startswith("INTEGRATION_CPU "):
            LAST_CPU[1] = float(line.split()[1])
    return el


def importtime(src: Path) -> float:
    """``-X importtime``'s cumulative time [s] of ``import tetherdyn``."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", "import tetherdyn"],
                          env=env_for(src), capture_output=True, text=True, cwd=WORK)
    for line in proc.stderr.splitlines():
        m = re.match(r"import time:\s+\d+ \|\s+(\d+) \| tetherdyn$", line)
        if m:
            return int(m.group(1)) * 1e-6
    return float("nan")


def clear_cache(src: Path) -> int:
    """Delete a tree's numba cache files; returns how many."""
    files = [*src.rglob("*.nbi"), *src.rglob("*.nbc")]
    for f in files:
        f.unlink()
    return len(files)


def run_cmd(example: Path, out: Path) -> list[str]:
    cmd = [sys.executable, "-c", CLI_TIMED, "run", str(example), "-q", "-o", str(out)]
    return cmd + (["--duration", "20"] if example.suffix == ".dat" else [])


def integration_time(out: Path) -> float:
    import xarray as xr

    with xr.open_dataset(out) as ds:
        return float(ds.attrs["wall_time_s"])


def secs(x: float) -> str:
    """``x`` [s] for the table, "n/a" when not measured."""
    return fmt(x, ".2f") + (" s" if x == x else "")


def examples(only: list[str] | None) -> list[Path]:
    found = sorted([*EXAMPLES.glob("*.yaml"), *EXAMPLES.glob("*.dat")])
    found = [p for p in found if p.stem not in NOT_CASES]
    return [p for p in found if not only or p.stem in only]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--reference", default=START_COMMIT, help="base commit (default: %(default)s)")
    p.add_argument("--repeat", type=int, default=3, help="warm runs per example (best kept)")
    p.add_argument("--import-repeat", type=int, default=5)
    p.add_argument("--only", nargs="*", metavar="NAME", help="example names (file stems)")
    p.add_argument("--cold", choices=("both", "new", "none"), default="both",
                   help="which trees get a cold run (caches deleted) per example")
    p.add_argument("--cold-only", nargs="*", metavar="NAME",
                   help="cold runs for these examples only (a loaded machine: each one "
                        "compiles everything)")
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results_startup.md")
    args = p.parse_args(argv)
    load_before = os.getloadavg()[0]  # other jobs on the machine, before ours start
    WORK.mkdir(parents=True, exist_ok=True)
    trees = {"base": extract_src(args.reference, WORK), "new": ensure_bytecode(ROOT / "src")}
    lines = []

    # -- import and --help ----------------------------------------------------------------
    probes = {"`python -c pass` (interpreter alone)": [sys.executable, "-c", "pass"],
              "`import tetherdyn`": [sys.executable, "-c", "import tetherdyn"],
              "`tetherdyn --help`": [sys.executable, "-c", CLI, "--help"]}
    best = {(k, t): float("inf") for k in probes for t in trees}
    best_cpu = dict(best)  # user + system time: what the load does not inflate
    for _ in range(args.import_repeat):
        for k, cmd in probes.items():
            for t, src in trees.items():  # interleaved
                best[k, t] = min(best[k, t], wall(cmd, src))
                best_cpu[k, t] = min(best_cpu[k, t], LAST_CPU[0])
    imp = {t: min(importtime(src) for _ in range(3)) for t, src in trees.items()}
    lines += ["## Import", "",
              f"Best of {args.import_repeat} fresh processes, base and new alternating.", "",
              "| what | base wall / CPU | new wall / CPU |", "|---|---|---|"]
    for k in probes:
        lines.append(f"| {k} | {best[k, 'base']:.3f} / {best_cpu[k, 'base']:.3f} s | "
                     f"{best[k, 'new']:.3f} / {best_cpu[k, 'new']:.3f} s |")
    lines.append(f"| `-X importtime`, cumulative `tetherdyn` (best of 3) | {imp['base']:.3f} s "
                 f"| {imp['new']:.3f} s |")
    ok = imp["new"] <= 0.5 and best["`import tetherdyn`", "new"] <= 0.5
    ok_cpu = best_cpu["`import tetherdyn`", "new"] <= 0.5
    lines += ["", f"Target `import tetherdyn` ≤ 0.5 s: {'met' if ok else 'NOT met'} by wall "
              f"time, {'met' if ok_cpu else 'NOT met'} by CPU time.", ""]
    print("\n".join(lines), flush=True)

    # -- tetherdyn run, cold and warm -------------------------------------------------------
    rows = []
    for ex in examples(args.only):
        r = {}
        for t, src in trees.items():
            out = WORK / f"{t}_{ex.stem}.nc"
            if args.cold == "none" or (args.cold == "new" and t == "base") or (
                    args.cold_only and ex.stem not in args.cold_only):
                r[t, "cold"] = float("nan")
                wall(run_cmd(ex, out), src)  # caches written for the warm runs
                continue
            clear_cache(src)
            r[t, "cold"] = wall(run_cmd(ex, out), src)
            r[t, "cold_int"] = integration_time(out)
        warm = {t: [] for t in trees}
        for _ in range(args.repeat):
            for t, src in trees.items():  # interleaved
                out = WORK / f"{t}_{ex.stem}.nc"
                el = wall(run_cmd(ex, out), src)
                warm[t].append((el, integration_time(out), LAST_CPU[0] - LAST_CPU[1],
                                LAST_CPU[1]))
        for t in trees:
            r[t, "warm"], r[t, "int"], _, _ = min(warm[t])
            r[t, "cpu"] = min(w[2] for w in warm[t])  # CPU overhead: best of the runs
            r[t, "int_cpu"] = min(w[3] for w in warm[t])  # integration CPU: best of the runs
        rows.append((ex.name, r))
        print(ex.name, {k: round(v, 3) for k, v in r.items()}, flush=True)

    lines += ["## `tetherdyn run EXAMPLE -o out.nc`", "",
              "Cold: the tree's numba cache files deleted, `NUMBA_CACHE_DIR` unset (one run). "
              f"Warm: caches from an earlier process, best of {args.repeat} runs (base and new "
              "alternating); integration = the results' `wall_time_s` of that run; overhead = "
              "warm − integration (target ≤ 1.0 s). CPU overhead: the warm process's user + "
              "system time less the CPU time it spent integrating (best of the runs; what the "
              "process needs when it has a core: on a loaded machine wall time also counts the "
              "waits for one); integration CPU: the CPU time the process spent integrating "
              "(best of the runs). n/a: not run.", "",
              "| example | base cold | base warm | new cold | new warm | integration (new) | "
              "overhead base | overhead new | CPU overhead base / new | integration CPU base / "
              "new | ≤ 1.0 s (wall / CPU) |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]
    n_ok = n_cpu = 0
    for name, r in rows:
        ob, on = r["base", "warm"] - r["base", "int"], r["new", "warm"] - r["new", "int"]
        cb, cn = r["base", "cpu"], r["new", "cpu"]
        n_ok += on <= 1.0
        n_cpu += cn <= 1.0
        lines.append(
            f"| {name} | {secs(r['base', 'cold'])} | {r['base', 'warm']:.2f} s | "
            f"{secs(r['new', 'cold'])} | {r['new', 'warm']:.2f} s | "
            f"{r['new', 'int']:.2f} s | {ob:.2f} s | {on:.2f} s | {cb:.2f} / {cn:.2f} s | "
            f"{r['base', 'int_cpu']:.2f} / {r['new', 'int_cpu']:.2f} s | "
            f"{'yes' if on <= 1.0 else 'no'} / {'yes' if cn <= 1.0 else 'no'} |")
    load_after = os.getloadavg()[0]
    lines += ["", f"Overhead ≤ 1.0 s (new): {n_ok} of {len(rows)} examples by wall time, "
              f"{n_cpu} of {len(rows)} by CPU time. Load average at the end: {load_after:.2f}.",
              ""]

    head = ["# Startup: fresh processes (issue 22)", "",
            f"Machine: {cpu_model()}, {os.cpu_count()} cores, load average before the run "
            f"{load_before:.2f} (best-of timings, trees interleaved). Python "
            f"{sys.version.split()[0]}, numba {package_version('numba')}, xarray "
            f"{package_version('xarray')}. new = commit {git_commit()}, base = "
            f"{args.reference[:12]}.", "",
            "Command: `python benchmarks/bench_startup.py"
            + (f" --only {' '.join(args.only)}" if args.only else "")
            + (f" --cold {args.cold}" if args.cold != "both" else "")
            + (f" --cold-only {' '.join(args.cold_only)}" if args.cold_only else "")
            + f" --reference {args.reference[:12]} --repeat {args.repeat}`", ""]
    args.out.write_text("\n".join(head + lines))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
