"""Throughput of parameter identification (seed 003 §4.3) on the Dask batch runner.

Every point of an identification grid is one simulation of the seed-003 rubber strip
(``validation.identification.base_case``: generalized-α, ρ∞ = 0.8, dt = 1 ms,
2 s, outputs every 0.04 s) plus the evaluation function of eq. (25) against the synthetic
markers of the validation row, run as one Dask task on a ``LocalCluster``.

Measured, for 1 and 2 worker processes (one thread each):

* cluster start [s] and the **first-task overhead** per worker (import + the per-process
  compilation of the integrator's time loop, :func:`tetherdyn.batch.warm_up`), once;
* simulations per second over the benchmark grid (n = 10…50 × 5 values of D × 2 of C_D =
  50 runs, the element counts of the seed's grid), best of ``--repeats`` batches on the
  warm cluster, and the in-process serial rate (a plain loop over ``simulate``, no Dask)
  for the scheduling overhead.

The seed's full search (Table 2: n = 10…50 step 10, D = 0…10e3 step 0.1e3, C_D =
0.60…0.90 step 0.05: 5 × 101 × 7 = 3 535 runs) with 2 workers: ``--full`` runs all of it
(store ``--store``, resumable); without ``--full`` a random sample stratified by n
(``--sample`` runs per element count) is run and the full wall time is estimated as
3 535 × (mean task time per n, weighted by the grid) / (workers × measured parallel
efficiency) + cluster start + first-task overhead. The record says which.

``--refine`` measures instead the cost of the least-squares refinement (issue 21) on the
warm 2-worker cluster: the line in sea water of ``validation.identification`` from its
40-point grid (the grid best on the damping range's edge), 3 starts, Jacobian and profiles,
and the seed-003 strip from the reduced row's 2 × 5 × 5 grid: simulations and wall time
per stage, written to ``benchmarks/results_identify_refine.md``.

Usage::

    python benchmarks/bench_identify.py [--quick] [--full] [--out benchmarks/results_identify.md]
    python benchmarks/bench_identify.py --refine
    python benchmarks/bench_identify.py --first-task --out benchmarks/results_identify_first_task.md
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import os
import sys
import time
from pathlib import Path

import numpy as np
from _common import cpu_model, versions

from tetherdyn.batch import close_client, get_client, run_batch, warm_up
from tetherdyn.identify import MarkerCost, _point_case
from tetherdyn.simulate import simulate
from validation.identification import (
    base_case,
    grids,
    sea_line_case,
    sea_line_truth,
    synthetic_markers,
    with_noise,
)

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results_identify.md"
DURATION = 2.0
KEYS = ("model.elements", "model.material_damping", "tether.cd_normal")
BENCH_GRID = ([10, 20, 30, 40, 50], [1.0e3, 2.0e3, 3.0e3, 4.0e3, 5.0e3], [0.6, 0.8])
TABLE2 = ([10, 20, 30, 40, 50], [round(0.1e3 * i, 6) for i in range(101)],
          [round(0.60 + 0.05 * i, 6) for i in range(7)])


def cases_for(points) -> list[dict]:
    raw = base_case(DURATION)
    return [_point_case(raw, KEYS, pt) for pt in points]


def timed_batch(cases, cost, client) -> tuple[float, list]:
    t0 = time.perf_counter()
    res = run_batch(cases, cost, client=client, progress=False)
    return time.perf_counter() - t0, res


def _two_tasks(case: dict) -> tuple[float, float, float, float]:
    """On a worker: (CPU, wall) [s] of its first task, then of the same task again."""
    from tetherdyn.batch import _run_one

    out = []
    for _ in range(2):
        c0, w0 = time.process_time(), time.perf_counter()
        status, _, error, _ = _run_one(case, None)
        assert status == "ok", error
        out += [time.process_time() - c0, time.perf_counter() - w0]
    return tuple(out)


def first_task_benchmark(out: Path) -> int:
    """A worker's first task against its second (the same case): CPU and wall time."""
    load0 = os.getloadavg()[0]
    case = cases_for([(40, 2.0e3, 0.8)])[0]
    simulate(case, progress=False)  # numba's caches written by this process
    rows = []
    for workers in (1, 2):
        t0 = time.perf_counter()
        client = get_client(None, workers)
        start = time.perf_counter() - t0
        try:
            per = client.run(_two_tasks, case)
        finally:
            close_client(client)
        for w, (c1, w1, c2, w2) in enumerate(per.values()):
            rows.append((workers, w, start, c1, w1, c2, w2))
            print(workers, w, f"start {start:.1f} s; first CPU {c1:.2f} wall {w1:.2f}; "
                  f"second CPU {c2:.2f} wall {w2:.2f}", file=sys.stderr)
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "## A worker's first task against its second (`--first-task`)", "",
        f"- Date: {now}; machine {cpu_model()}, os.cpu_count() = {os.cpu_count()}; load "
        f"average (1 min) {load0:.2f} at the start, {os.getloadavg()[0]:.2f} at the end",
        f"- Versions: {versions('numba', 'dask', 'distributed')}",
        "- Command: `python benchmarks/bench_identify.py --first-task`. Each worker of a "
        "fresh LocalCluster (``get_client``: its workers preloaded as it starts) runs the "
        "seed-003 strip at n = 40 (one grid point, no evaluation) twice; CPU = the worker "
        "process's time.process_time over the task (load-proof), wall = perf_counter. "
        "Target: first task ≤ 1 s; its overhead = first − second.", "",
        "| workers | worker | cluster start [s] | first task CPU / wall [s] | second task CPU / "
        "wall [s] | first-task overhead CPU / wall [s] |", "|--:|--:|--:|--:|--:|--:|"]
    for workers, w, start, c1, w1, c2, w2 in rows:
        lines.append(f"| {workers} | {w} | {start:.1f} | {c1:.2f} / {w1:.2f} | {c2:.2f} / "
                     f"{w2:.2f} | {c1 - c2:.2f} / {w1 - w2:.2f} |")
    text = "\n".join(lines) + "\n"
    with out.open("a") as f:
        f.write("\n" + text)
    print(text)
    return 0


def refine_benchmark(out: Path) -> int:
    """Simulations and wall time of the grid and of the least-squares refinement."""
    from tetherdyn.identify import identify
    from validation.identification import SEA_GRID

    load0 = os.getloadavg()[0]
    client = get_client(None, 2)
    rows = []
    try:
        warm_up(client, sea_line_case())
        warm_up(client, base_case(DURATION))
        problems = [
            ("line in sea water (10 lumped-mass elements, rk4 dt = 1 ms, 4 s; 400 markers)",
             sea_line_case(), with_noise(sea_line_truth(), 1), SEA_GRID),
            ("seed-003 strip (ancf2d, generalized-α dt = 1 ms, 2 s; 550 markers)",
             base_case(DURATION), synthetic_markers(DURATION), grids(False)),
        ]
        for name, case, markers, grid in problems:
            t0 = time.perf_counter()
            grid_only = identify(case, markers, grid, client=client, progress=False)
            t_grid = time.perf_counter() - t0
            t0 = time.perf_counter()
            res = identify(case, markers, grid, client=client, refine=True, progress=False)
            t_all = time.perf_counter() - t0
            stages = res.table.groupby("stage").size().to_dict()
            rows.append((name, len(grid_only.table), t_grid, stages, t_all - t_grid,
                         [s["nfev"] for s in res.starts]))
            print(name, stages, f"grid {t_grid:.1f} s, refine {t_all - t_grid:.1f} s",
                  file=sys.stderr)
    finally:
        close_client(client)
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# Least-squares refinement of identify (issue 21): simulations and wall time",
        "",
        f"- Date: {now}; machine {cpu_model()}, os.cpu_count() = {os.cpu_count()}; load "
        f"average (1 min) {load0:.2f} at the start, {os.getloadavg()[0]:.2f} at the end "
        "(shared machine: times are upper bounds)",
        f"- Versions: {versions('numba', 'numpy', 'scipy', 'dask', 'distributed')}",
        "- Command: `python benchmarks/bench_identify.py --refine`; LocalCluster of 2 "
        "workers, warmed up; refinement wall = (grid + refine) − (grid alone)",
        "",
        "| problem | grid runs | grid wall [s] | refine / jacobian / profile runs | "
        "refine wall [s] | least-squares steps per start |",
        "|---|--:|--:|--:|--:|--:|",
    ]
    for name, n_grid, t_grid, stages, t_ref, nfev in rows:
        lines.append(f"| {name} | {n_grid} | {t_grid:.1f} | {stages.get('refine', 0)} / "
                     f"{stages.get('jacobian', 0)} / {stages.get('profile', 0)} | "
                     f"{t_ref:.1f} | {', '.join(map(str, nfev))} |")
    out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="one repeat, small sample")
    ap.add_argument("--full", action="store_true", help="run all 3535 Table-2 points")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--sample", type=int, default=20, help="Table-2 runs per n (estimate)")
    ap.add_argument("--store", default=str(HERE / "identify_full_store.csv"))
    ap.add_argument("--out", default=str(DEFAULT_OUT))
    ap.add_argument("--refine", action="store_true",
                    help="measure the least-squares refinement instead "
                    "(writes results_identify_refine.md)")
    ap.add_argument("--first-task", action="store_true",
                    help="measure a worker's first task against its second (appended to "
                    "--out)")
    args = ap.parse_args()
    if args.first_task:
        return first_task_benchmark(Path(args.out))
    if args.refine:
        return refine_benchmark(HERE / "results_identify_refine.md")
    repeats = 1 if args.quick else args.repeats
    sample = 6 if args.quick else args.sample
    t_start = time.perf_counter()
    load0 = os.getloadavg()[0]
    markers = synthetic_markers(DURATION)
    cost = MarkerCost.from_markers(markers)
    bench = cases_for(itertools.product(*BENCH_GRID))
    # serial, in this process (warm: synthetic_markers compiled the loop)
    t0 = time.perf_counter()
    for c in bench:
        cost(simulate(c, progress=False))
    serial = time.perf_counter() - t0
    rows = []
    for workers in (1, 2):
        t0 = time.perf_counter()
        client = get_client(None, workers)
        start = time.perf_counter() - t0
        try:
            first = warm_up(client, bench[0])
            walls = []
            for _ in range(repeats):
                w, res = timed_batch(bench, cost, client)
                assert all(r.ok for r in res), [r.error for r in res if not r.ok]
                walls.append(w)
            task = float(np.mean([r.wall_s for r in res]))
        finally:
            close_client(client)
        rows.append(dict(workers=workers, start=start, first=first, walls=walls,
                         rate=len(bench) / min(walls), task=task))
        print(f"{workers} workers: start {start:.1f} s, first task {first:.1f} s, batches "
              + ", ".join(f"{w:.2f}" for w in walls) + f" s -> {rows[-1]['rate']:.2f} runs/s",
              file=sys.stderr)
    # the seed's Table-2 grid
    points = list(itertools.product(*TABLE2))
    n_full = len(points)
    t0 = time.perf_counter()
    client = get_client(None, 2)
    start2 = time.perf_counter() - t0
    try:
        first2 = warm_up(client, bench[0])
        if args.full:
            t0 = time.perf_counter()
            res = run_batch(cases_for(points), cost, client=client, store=args.store,
                            progress=None)
            full_wall = time.perf_counter() - t0
            failed = sum(not r.ok for r in res)
            full_note = (f"ran all {n_full} points: {full_wall:.0f} s after the cluster start "
                         f"({start2:.1f} s) and warm-up ({first2:.1f} s); {failed} failed")
            est = full_wall + start2 + first2
            measured = True
        else:
            rng = np.random.default_rng(0)
            sub = []
            for n in TABLE2[0]:
                idx = rng.choice(len(TABLE2[1]) * len(TABLE2[2]), size=sample, replace=False)
                for i in idx:
                    sub.append((n, TABLE2[1][i // len(TABLE2[2])], TABLE2[2][i % len(TABLE2[2])]))
            t0 = time.perf_counter()
            res = run_batch(cases_for(sub), cost, client=client, progress=False)
            sub_wall = time.perf_counter() - t0
            failed = sum(not r.ok for r in res)
            task = {n: np.mean([r.wall_s for r, p in zip(res, sub, strict=True) if p[0] == n])
                    for n in TABLE2[0]}
            busy = sum(r.wall_s for r in res)
            efficiency = busy / (2 * sub_wall)
            per_n = len(TABLE2[1]) * len(TABLE2[2])
            est_run = sum(task[n] * per_n for n in TABLE2[0]) / (2 * efficiency)
            est = est_run + start2 + first2
            full_note = (f"estimated from a random sample of {len(sub)} of the {n_full} points "
                         f"({sample} per n; {failed} failed): mean task "
                         + ", ".join(f"n={n}: {task[n]:.3f} s" for n in TABLE2[0])
                         + f"; parallel efficiency {efficiency:.2f} (sum of task times / "
                         f"(2 × {sub_wall:.1f} s wall)); "
                         f"3 535 runs ≈ {est_run:.0f} s + start {start2:.1f} s + warm-up "
                         f"{first2:.1f} s")
            measured = False
    finally:
        close_client(client)
    total = time.perf_counter() - t_start
    load1 = os.getloadavg()[0]
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# Parameter identification throughput (seed 003 §4.3, Dask LocalCluster)",
        "",
        f"- Date: {now}; the whole benchmark took {total:.0f} s",
        f"- Machine: {cpu_model()}, os.cpu_count() = {os.cpu_count()}; load average (1 min) "
        f"{load0:.2f} at the start, {load1:.2f} at the end (the machine is shared: rates "
        "are lower bounds)",
        f"- Versions: {versions('numba', 'numpy', 'dask', 'distributed')}",
        f"- Command: `python benchmarks/bench_identify.py {' '.join(sys.argv[1:])}`",
        "- Problem: the seed-003 strip (40 elements nominal), generalized-α dt = 1 ms, "
        "ρ∞ = 0.8, 2 s, outputs every 0.04 s; each task = validate + simulate + eq. (25) "
        "against 550 synthetic markers on the worker. Benchmark grid: n = 10…50 × D = "
        "1e3…5e3 (5) × C_D = 0.6, 0.8 = 50 runs.",
        f"- Serial reference (one process, no Dask, warm): {serial:.2f} s for the 50 runs = "
        f"{len(bench) / serial:.2f} runs/s.",
        "",
        "| workers | cluster start [s] | first task per worker [s] | batch of 50 [s] "
        "(repeats) | runs/s | mean task [s] |",
        "|--:|--:|--:|--:|--:|--:|",
    ]
    for r in rows:
        lines.append(f"| {r['workers']} | {r['start']:.1f} | {r['first']:.1f} | "
                     + " / ".join(f"{w:.2f}" for w in r["walls"])
                     + f" | {r['rate']:.2f} | {r['task']:.3f} |")
    lines += [
        "",
        f"Speed-up 2 vs 1 workers: {rows[1]['rate'] / rows[0]['rate']:.2f}× (2 cores).",
        "",
        "## The seed's full grid (Table 2: 5 × 101 × 7 = 3 535 runs, 2 workers)",
        "",
        f"{'Measured' if measured else 'Estimated'}: **{est / 60:.1f} min** ({est:.0f} s). "
        + full_note + ".",
        "",
    ]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
