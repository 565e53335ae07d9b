"""What every benchmark record states about where it ran: versions, commit and CPU.

Imported by the benchmark scripts (run as ``python benchmarks/<script>.py``, so this folder
is on the import path) before anything of the validation lab: importing it puts the
checkout's root on the path, where the lab (``validation/``, peers inside it) lives.
"""

from __future__ import annotations

import math
import platform
import subprocess
import sys
import tarfile
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the lab beside the package
    sys.path.insert(0, str(ROOT))


def fmt(x: float, spec: str) -> str:
    """``format(x, spec)``, or "n/a" for a missing (non-finite) measurement."""
    return "n/a" if not math.isfinite(x) else format(x, spec)


def package_version(pkg: str) -> str:
    """An installed package's version, or "not installed"."""
    try:
        return version(pkg)
    except PackageNotFoundError:
        return "not installed"


def git_commit() -> str:
    """The repository's commit (short hash, '+ local changes' when src/ differs), if known."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                              capture_output=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "src"], cwd=ROOT,
                               text=True, capture_output=True, timeout=10).stdout.strip()
        return head + (" + local changes in src/" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def cpu_model() -> str:
    """The CPU's model name (Linux /proc/cpuinfo), else what platform reports."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def versions(*packages: str) -> str:
    """"Python …, tetherdyn … (commit …), pkg …" for a benchmark record."""
    extra = ", ".join(f"{p} {package_version(p)}" for p in packages)
    return (f"Python {platform.python_version()}, tetherdyn {package_version('tetherdyn')} "
            f"(commit {git_commit()}), {extra}")


def best_time(fn, seconds: float, repeats: int) -> tuple[float, int]:
    """(best seconds per call of fn(k) / k, k): k calibrated so one timing lasts ``seconds``."""
    k = 1
    while True:
        t0 = time.perf_counter()
        fn(k)
        el = time.perf_counter() - t0
        if el > 0.2 * seconds or k > 10**8:
            break
        k *= 4
    k = max(1, int(math.ceil(k * seconds / max(el, 1e-9))))
    best = math.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn(k)
        best = min(best, time.perf_counter() - t0)
    return best / k, k


rhs = None  # bound per kernel by rhs_loop (_jit.bind_kernels)


def _rhs_calls(data, t, y, dydt, k):
    """Call the bound ``rhs`` k times (a timing loop with no Python in between)."""
    for _ in range(k):
        rhs(t, y, dydt, data)


def rhs_loop(rhs_kernel, data, t, y, dydt, k):
    """Call the compiled ``rhs_kernel`` k times from a compiled loop that calls it as the
    time loops do (bound by name with ``_jit.bind_kernels``, so a kernel compiled to be
    inlined — lumped_mass's lean path — is inlined here too, as it is in a run)."""
    from tetherdyn._jit import bind_kernels

    bind_kernels(_rhs_calls, {"rhs": rhs_kernel})(data, t, y, dydt, k)


def compiled_rhs_time(model, y: np.ndarray, seconds: float, repeats: int) -> tuple[float, int]:
    """(best µs per compiled call of ``model.rhs`` at state y, calls per timing)."""
    y = np.ascontiguousarray(y, dtype=float)
    dydt = np.empty_like(y)
    model.rhs(0.0, y, dydt, model.data)  # compile (or load from numba's cache)
    rhs_loop(model.rhs, model.data, 0.0, y, dydt, 1)  # compile the timing loop
    per, k = best_time(lambda k: rhs_loop(model.rhs, model.data, 0.0, y, dydt, k), seconds,
                       repeats)
    return 1e6 * per, k


def ensure_bytecode(src: Path) -> Path:
    """Byte-compile the package tree ``src`` (``compileall``, written even where
    PYTHONDONTWRITEBYTECODE is set, as on the project's machines) and return it: a user's
    ``pip install`` ships its ``.pyc`` files, so a fresh process timed here must not compile
    tetherdyn's own sources (~50 modules) on every start either."""
    import compileall

    compileall.compile_dir(str(src), quiet=1)
    return src


def extract_src(commit: str, work: Path) -> Path:
    """``src/`` of ``commit`` under ``work`` (extracted once with ``git archive``; its numba
    caches are kept between runs): the base tree of a before/after benchmark."""
    tree = work / f"base_{commit[:12]}"
    if not (tree / "src" / "tetherdyn").is_dir():
        tree.mkdir(parents=True, exist_ok=True)
        tar_path = tree / "src.tar"
        with open(tar_path, "wb") as f:
            subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src"], stdout=f,
                           check=True)
        with tarfile.open(tar_path) as tar:
            tar.extractall(tree, filter="data")
    return ensure_bytecode(tree / "src")
