"""How tetherdyn compiles its inner loops.

``kernel``: an allocation-free compiled function, cached on disk. Kernels run without
numba's reference-counting runtime (``_nrt=False``): they never allocate, and every call
of a compiled function with array arguments otherwise pays atomic reference-count updates
per array — measured here at ~0.4 µs per call with 11 arrays, 4× the whole right-hand side
of a 10-element cable.

``loop``: the same without a disk cache, for small helpers of the time loops.

The time loops (integrate/explicit.py, implicit.py) call the model's kernels. Passed as
arguments, kernels make a loop uncacheable (numba embeds the functions' addresses: "dynamic
globals"), and a loop compiled anew in every process costs ~0.3 s (rk4) to ~5 s
(generalized-α with ancf2d). So the loops are *templates* that call the kernels by global
names (``rhs``, ``enforce``, …), and :func:`bind_kernels` compiles, per set of kernels
(one per formulation), a copy of the template whose globals are those kernels; that copy
is cached on disk like any function calling other compiled functions, and a second process
loads it instead of compiling (issue 22). The loops' source and arithmetic are unchanged:
only where the kernels come from differs.

Cache safety:

- each kernel set has its own cache files (the copy's qualified name carries the kernels'
  module and a digest of their names), so an entry written for a formulation defined
  outside the package (tests, the validation lab) is never opened by a user's run;
- numba checks only the template's own source file: the entry's cache also goes stale when
  any source file of the package or of the kernels' modules changes (size or time), so an
  edited kernel is never run from an old cache;
- kernels whose names do not identify them (defined inside a function) get an uncached
  copy.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import inspect
import re
import sys
import types
from pathlib import Path

from numba import njit

from ._numba_load import install as install_fast_cache_loads

kernel = njit(cache=True, _nrt=False)
#: small helpers called per node or element: inlined into their caller (12-19 % per step
#: in water, measured by benchmarks/bench_lumped_mass.py)
inline_kernel = njit(cache=True, _nrt=False, inline="always")
loop = njit(_nrt=False)

__all__ = ["kernel", "inline_kernel", "loop", "bind_kernels"]


def _preload_cython_blas() -> None:
    """Load scipy's BLAS/LAPACK Cython modules without the scipy.linalg package.

    numba's first dispatch in a process (even of a function loaded from the disk cache)
    imports numba.np.arraymath, whose module-level ``_check_blas()`` runs ``import
    scipy.linalg.cython_blas``: that imports all of scipy.linalg (its array-API layer
    imports numpy.testing, numpy.f2py, ... and parses docstrings), ~0.15-0.3 s of every
    ``tetherdyn run`` that uses none of it (issue 22, benchmarks/results_startup.md). The
    two extension modules are loaded here from scipy's own files under their own names, so
    numba's import finds them in ``sys.modules``; numba's check of their integer width
    (scipy.__config__) still runs, and numba's compiled BLAS calls get their functions from
    the same modules. A later ``import scipy.linalg`` imports the package as usual (its
    own Cython modules find these two). Skipped when scipy.linalg is already imported;
    any failure leaves it to numba's own import.
    """
    if "scipy.linalg" in sys.modules:
        return
    try:
        spec = importlib.util.find_spec("scipy")
        if spec is None or not spec.submodule_search_locations:
            return
        folder = Path(next(iter(spec.submodule_search_locations))) / "linalg"
        for name in ("cython_blas", "cython_lapack"):
            full = f"scipy.linalg.{name}"
            if full in sys.modules:
                continue
            files = [folder / (name + s) for s in importlib.machinery.EXTENSION_SUFFIXES]
            found = next((f for f in files if f.is_file()), None)
            if found is None:
                return
            ext = importlib.util.spec_from_file_location(full, found)
            module = importlib.util.module_from_spec(ext)
            sys.modules[full] = module
            try:
                ext.loader.exec_module(module)
            except BaseException:
                del sys.modules[full]
                raise
    except Exception:  # numba imports scipy.linalg itself, as without this
        return


_preload_cython_blas()
install_fast_cache_loads()  # _numba_load.py: a warm run's cache loads without numba's refresh

_PACKAGE = Path(__file__).resolve().parent
_ENTRIES: dict[tuple, object] = {}
_STAMPS: dict[tuple[str, ...], str] = {}


def _source_digest(files: tuple[str, ...]) -> str:
    """Digest of (path, size, mtime) of the package's sources and of ``files``."""
    if files not in _STAMPS:
        paths = sorted({*map(str, _PACKAGE.rglob("*.py")), *files})
        h = hashlib.sha256()
        for p in paths:
            try:
                st = Path(p).stat()
                h.update(f"{p}:{st.st_size}:{st.st_mtime_ns};".encode())
            except OSError:
                h.update(f"{p}:missing;".encode())
        _STAMPS[files] = h.hexdigest()[:16]
    return _STAMPS[files]


def _identity(k) -> tuple[str, str, str] | None:
    """(module, qualified name, source file) of a compiled kernel, or None when its name
    does not identify it (a closure, a lambda, no source file)."""
    f = getattr(k, "py_func", None)
    if f is None or "<" in f.__qualname__:
        return None
    try:
        return f.__module__, f.__qualname__, inspect.getfile(f)
    except TypeError:
        return None


def _clone(template, globals_: dict, qualname: str):
    """``template``'s code with other globals (a new function object)."""
    py = types.FunctionType(template.__code__, {**template.__globals__, **globals_},
                            template.__name__, template.__defaults__, template.__closure__)
    py.__qualname__ = qualname
    py.__module__ = template.__module__
    py.__doc__ = template.__doc__
    return py


def bind_kernels(template, kernels: dict, helpers: tuple = (), inline: tuple[str, ...] = ()):
    """``template`` compiled with ``kernels`` (global name -> compiled kernel) as its
    globals, cached on disk per kernel set (module docstring); one per process and set.

    ``helpers``: templates ``template`` calls that call kernels too, in calling order
    (each may call the ones before it); each is compiled with the same kernels and bound
    into the next ones under its own name (compiled into ``template``'s cache entry).
    ``inline``: names of helpers inlined into their callers (numba's ``inline="always"``)
    instead of compiled on their own: a helper compiled on its own is finalised
    (optimised and turned into machine code) with every kernel it calls, so a large kernel
    (a system's rhs) called from several helpers is compiled once per helper
    (integrate/implicit_system.py: 68 s of CPU cold, measured, against 14 s for the rk4
    loop).
    """
    memo = (template, *sorted((n, id(k)) for n, k in kernels.items()))
    entry = _ENTRIES.get(memo)
    if entry is not None:
        return entry[0]
    ids = {n: _identity(k) for n, k in sorted(kernels.items())}
    cacheable = all(v is not None for v in ids.values())
    suffix = ""
    if cacheable:
        names = ";".join(f"{n}={m}.{q}" for n, (m, q, _) in ids.items())
        module = re.sub(r"\W", "_", ids.get("rhs", next(iter(ids.values())))[0])
        suffix = f"__{module}_{hashlib.sha256(names.encode()).hexdigest()[:10]}"
    bound = dict(kernels)
    for h in helpers:
        jit = njit(_nrt=False, inline="always") if h.__name__ in inline else njit(_nrt=False)
        bound[h.__name__] = jit(_clone(h, bound, h.__qualname__ + suffix))
    clone = _clone(template, bound, template.__qualname__ + suffix)
    cache_file = None
    if cacheable:
        entry = njit(cache=True, _nrt=False)(clone)
        cache_file = getattr(getattr(entry, "_cache", None), "_cache_file", None)
        if cache_file is None or not hasattr(cache_file, "_source_stamp"):
            # a numba whose cache no longer has the stamp we extend: an entry that could go
            # stale when a kernel is edited is worse than compiling once per process
            cache_file = None
            entry = njit(_nrt=False)(_clone(template, bound, template.__qualname__ + suffix))
    else:
        entry = njit(_nrt=False)(clone)
    if cache_file is not None:
        files = tuple(sorted({f for _, _, f in ids.values()}))
        # numba 0.68 stamps the index with the template file's (mtime, size) only: add the
        # package's and the kernels' sources, so an edited kernel makes the entry stale
        cache_file._source_stamp = (cache_file._source_stamp, _source_digest(files))
    # the memo key holds the kernels' ids: keep the kernels alive with the entry
    _ENTRIES[memo] = (entry, tuple(kernels.values()))
    return entry
