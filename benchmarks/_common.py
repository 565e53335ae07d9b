"""What every benchmark record states about where it ran: versions, commit and CPU.

Imported by the benchmark scripts (run as ``python benchmarks/<script>.py``, so this folder
is on the import path).
"""

from __future__ import annotations

import math
import platform
import subprocess
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
