"""Many simulations at once on a Dask cluster: the batch runner of ``identify`` and the
optimisers (contract: /tmp/td/batch_api.md, docs/identify.md).

Every simulation is one Dask task that validates its case, runs :func:`tetherdyn.simulate`
and applies ``evaluate`` to the results **on the worker**, so only a few numbers travel
back. Failures (an invalid case, a run that blows up, anything else a task raises, a
worker that dies) come back as ``status="failed"`` with the message; nothing is dropped.

Numba: the model kernels and the integrators' time loops are cached on disk (_jit.py), so a
worker loads them instead of compiling. A LocalCluster started here readies its workers as
it starts (:func:`_preload`: imports and numba's one-off context set-up); a worker's first
task then pays only loading its formulation's compiled code (benchmarks/results_identify.md).
:func:`warm_up` runs one case on every worker up front so that timings of the batch itself
exclude even that.
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import os
import sys
import time
import uuid
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["BatchResult", "get_client", "run_batch", "case_key", "warm_up", "SCHEDULER_ENV"]

#: environment variable naming an existing scheduler (``tcp://host:8786``)
SCHEDULER_ENV = "TETHERDYN_SCHEDULER"
_FIXED_COLUMNS = ("key", "status", "error", "wall_s")


@dataclass
class BatchResult:
    """One simulation of a batch, in input order.

    ``values``: what ``evaluate`` returned (floats; {} when failed or without evaluate);
    ``error``: the message of a failed run; ``wall_s``: seconds the task took on its
    worker (validation, simulation and evaluation).
    """

    index: int
    key: str
    status: str  # "ok" | "failed"
    values: dict[str, float] = field(default_factory=dict)
    error: str | None = None
    wall_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def case_key(case: dict) -> str:
    """A stable hash (16 hex digits) of a case dict: canonical JSON, keys sorted."""
    from .case import _plain

    text = json.dumps(_plain(case), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def get_client(scheduler: str | None = None, workers: int = 2):
    """A ``dask.distributed.Client``.

    ``scheduler`` (or the environment variable ``TETHERDYN_SCHEDULER``) is the address of
    a running scheduler (``tcp://host:8786``); otherwise a ``LocalCluster`` with
    ``workers`` worker processes of one thread each is started in this process (closing
    the client closes it).
    """
    from dask.distributed import Client, LocalCluster

    address = scheduler or os.environ.get(SCHEDULER_ENV) or None
    if address:
        return Client(address)
    if workers < 1:
        raise ValueError("workers: must be >= 1")
    import logging

    cluster = LocalCluster(n_workers=int(workers), threads_per_worker=1, processes=True,
                           dashboard_address=":0", silence_logs=logging.WARNING)
    client = Client(cluster)
    # the client owns the cluster: closing it closes both
    client._tetherdyn_cluster = cluster  # noqa: SLF001
    client.run(_preload)  # every worker at once, while the cluster starts
    return client


def _preload() -> None:
    """Ready a worker process for its first task (issue 22): import what a task imports,
    load a first function from numba's cache (with numba's own cache loads that initialises
    its compiler context, ~0.3 s once per process; _numba_load's loads skip it), and make
    xarray's first Dataset, which imports
    dask.array (and through it scipy.fftpack, jinja2, ...) on the first Variable it makes
    (~0.4 s of a worker's first task otherwise: benchmarks/results_identify_first_task.md).
    Loads from numba's disk cache only."""
    import numpy as np
    import xarray

    from . import simulate  # noqa: F401
    from .spline import curvature_integral

    curvature_integral(np.zeros((2, 3)), np.ones(1))
    xarray.Dataset({"x": (("time", "node"), np.zeros((1, 2)))}, coords={"time": [0.0]})


def close_client(client) -> None:
    """Close a client from :func:`get_client` and the LocalCluster it started, if any."""
    cluster = getattr(client, "_tetherdyn_cluster", None)
    client.close()
    if cluster is not None:
        cluster.close()


def _run_one(case: dict, evaluate: Callable | None) -> tuple[str, dict, str | None, float]:
    """The task: validate, simulate, evaluate (on the worker). Never raises."""
    from .case import CaseError, load_case
    from .integrate import SimulationError
    from .simulate import simulate

    t0 = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ds = simulate(load_case(case), progress=False)
        values = {} if evaluate is None else evaluate(ds)
        values = {str(k): float(v) for k, v in dict(values).items()}
        return "ok", values, None, time.perf_counter() - t0
    except (CaseError, SimulationError) as exc:
        return "failed", {}, f"{type(exc).__name__}: {exc}", time.perf_counter() - t0
    except Exception as exc:  # noqa: BLE001 - recorded, never dropped
        return "failed", {}, f"{type(exc).__name__}: {exc}", time.perf_counter() - t0


def warm_up(client, case: dict) -> float:
    """Run ``case`` once on every worker (imports and the per-process loop compilation);
    returns the wall time [s]."""
    t0 = time.perf_counter()
    client.run(_run_one, case, None)
    return time.perf_counter() - t0


# -- the CSV store ------------------------------------------------------------------------


def _read_store(path: Path) -> tuple[list[str], dict[str, dict]]:
    if not path.is_file() or path.stat().st_size == 0:
        return [], {}
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        header = list(reader.fieldnames or [])
        rows = {}
        for row in reader:
            if row.get("key"):
                rows[row["key"]] = row
    return header, rows


def _row_result(index: int, row: dict) -> BatchResult:
    values = {k: float(v) for k, v in row.items()
              if k not in _FIXED_COLUMNS and v not in (None, "")}
    return BatchResult(index=index, key=row["key"], status=row["status"], values=values,
                       error=row.get("error") or None, wall_s=float(row.get("wall_s") or 0.0))


class _Store:
    """Append-only CSV of finished results (columns key, status, error, wall_s, values)."""

    def __init__(self, path: Path, header: list[str]) -> None:
        self.path = path
        self.header = header or list(_FIXED_COLUMNS)

    def append(self, r: BatchResult) -> None:
        new = [k for k in r.values if k not in self.header]
        if new or not self.path.is_file() or self.path.stat().st_size == 0:
            # a value column not seen before: rewrite the file once with the wider header
            _, rows = _read_store(self.path)
            self.header = self.header + new
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("w", newline="") as f:
                w = csv.DictWriter(f, fieldnames=self.header)
                w.writeheader()
                for row in rows.values():
                    w.writerow({k: row.get(k, "") for k in self.header})
        with self.path.open("a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=self.header)
            w.writerow({"key": r.key, "status": r.status, "error": r.error or "",
                        "wall_s": f"{r.wall_s:.6g}",
                        **{k: repr(float(v)) for k, v in r.values.items()}})


def _progress_bar(progress, total: int):
    """(tick(done), close()) for a tqdm bar, a callable or nothing."""
    if callable(progress):
        return (lambda done: progress(done, total)), (lambda: None)
    enabled = sys.stderr.isatty() if progress is None else bool(progress)
    if not enabled or total == 0:
        return (lambda done: None), (lambda: None)
    from tqdm import tqdm

    bar = tqdm(total=total, unit="run", desc="simulations", leave=False)

    def tick(done: int) -> None:
        bar.update(done - bar.n)

    return tick, bar.close


def run_batch(cases: Sequence[dict], evaluate: Callable | None = None, *, client=None,
              scheduler: str | None = None, workers: int = 2, store: str | Path | None = None,
              progress: Any = None) -> list[BatchResult]:
    """Run every case as one Dask task; one :class:`BatchResult` per case, in input order.

    ``evaluate(ds) -> dict[str, float]`` runs on the worker right after the simulation
    (picklable: a module-level function or an instance of a module-level class).
    ``client``: an existing client; else one from ``get_client(scheduler, workers)``,
    closed afterwards (and only started when something is left to run). ``store``: a CSV
    file; finished results are appended as they arrive, and cases already in it (same
    :func:`case_key`, whatever their status) are not run again. ``progress``: a tqdm bar
    on a terminal (None), forced on/off (bool) or ``callable(done, total)``.
    """
    cases = list(cases)
    keys = [case_key(c) for c in cases]
    results: list[BatchResult | None] = [None] * len(cases)
    stored: dict[str, dict] = {}
    header: list[str] = []
    st = None
    if store is not None:
        header, stored = _read_store(Path(store))
        st = _Store(Path(store), header)
    todo: dict[str, list[int]] = {}  # key -> indices (duplicate cases run once)
    for i, k in enumerate(keys):
        if k in stored:
            results[i] = _row_result(i, stored[k])
        else:
            todo.setdefault(k, []).append(i)
    total = len(cases)
    done = total - sum(len(v) for v in todo.values())
    tick, close_bar = _progress_bar(progress, total)
    tick(done)
    if todo:
        from dask.distributed import as_completed

        own = client is None
        if own:
            client = get_client(scheduler, workers)
        try:
            ev = evaluate
            if evaluate is not None:
                # one copy per worker instead of one per task
                ev = client.scatter(evaluate, broadcast=True, hash=False)
            futures = {}
            # a fresh token per batch: the same case with another evaluate never reuses a
            # result the scheduler still holds
            token = uuid.uuid4().hex[:8]
            for k, idx in todo.items():
                fut = client.submit(_run_one, cases[idx[0]], ev, key=f"tetherdyn-{k}-{token}",
                                    pure=False, retries=0)
                futures[fut] = k
            for fut in as_completed(futures):
                k = futures[fut]
                if fut.status == "finished":
                    status, values, error, wall = fut.result()
                else:  # the task itself died (worker lost, cancelled): recorded as failed
                    exc = fut.exception() if fut.status == "error" else None
                    status, values, wall = "failed", {}, math.nan
                    error = (f"{type(exc).__name__}: {exc}" if exc is not None
                             else f"task {fut.status}")
                for n, i in enumerate(todo[k]):
                    r = BatchResult(index=i, key=k, status=status, values=dict(values),
                                    error=error, wall_s=wall)
                    results[i] = r
                    if n == 0 and st is not None:
                        st.append(r)
                done += len(todo[k])
                tick(done)
                fut.release()
        finally:
            if own:
                close_client(client)
    close_bar()
    return [r for r in results if r is not None]
