"""Issue 22: compiled functions loaded from numba's disk cache without numba's context
refresh (src/tetherdyn/_numba_load.py).

Checked against numba itself (not against our code): the symbols read from the object
code's ELF table are the ones numba lists from the library's bitcode, and a function
loaded by the fast path returns what the compiled one returned, also when a new function
is then compiled against it (the bitcode parsed late). Timings are in
benchmarks/results_whole_process.md, never here.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tetherdyn import _numba_load

SRC = Path(__file__).resolve().parents[1] / "src"

#: a tiny module of cached functions (compiled in a few seconds), one calling the other
_MODULE = textwrap.dedent('''
    import math
    from numba import njit

    @njit(cache=True, _nrt=False)
    def leaf(x):
        return math.sin(x) + 2.0 * x

    @njit(cache=True, _nrt=False)
    def caller(a):
        s = 0.0
        for v in a:
            s += leaf(v)
        return s
''')

#: one fresh process: call the cached functions, then compile a new function against the
#: loaded ``leaf``; print the results and what was refreshed or loaded
_RUN = textwrap.dedent('''
    import json, sys
    import numpy as np
    import tetherdyn._jit  # installs the fast loads (or not: TETHERDYN_NUMBA_LOAD)
    from numba import njit
    import tiny
    a = np.linspace(0.0, 1.0, 7)
    out = {"caller": tiny.caller(a), "leaf": tiny.leaf(0.3)}
    refreshed = "numba.np.linalg" in sys.modules  # imported by the context refresh only
    hits = sum(tiny.caller.stats.cache_hits.values()) + sum(tiny.leaf.stats.cache_hits.values())

    @njit(_nrt=False)
    def fresh(x):  # not cached: compiled here, linked against the loaded leaf
        return tiny.leaf(x) * 3.0

    out["fresh"] = fresh(0.3)
    print(json.dumps({"out": out, "refreshed_before_compile": refreshed, "hits": hits}))
''')


def _run(folder: Path, mode: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR",
                                                             "TETHERDYN_NUMBA_LOAD")}
    env["PYTHONPATH"] = os.pathsep.join([str(folder), str(SRC)])
    if mode is not None:
        env["TETHERDYN_NUMBA_LOAD"] = mode
    proc = subprocess.run([sys.executable, "-c", _RUN], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


needs_numba_068 = pytest.mark.skipif(not _numba_load.install(),
                                     reason="fast loads apply to numba 0.68 only")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> tuple[Path, dict]:
    """A folder with the tiny module, its cache written by a first process (numba's own
    way: compiled), and that process's results."""
    folder = tmp_path_factory.mktemp("numba_load")
    (folder / "tiny.py").write_text(_MODULE)
    first = _run(folder, "numba")
    assert first["hits"] == 0 and first["refreshed_before_compile"]
    return folder, first


@needs_numba_068
def test_fast_loads_give_the_compiled_results(tiny):
    folder, compiled = tiny
    fast = _run(folder, None)  # loads through _numba_load
    assert fast["hits"] == 2
    assert not fast["refreshed_before_compile"]
    assert fast["out"] == compiled["out"]  # bit for bit (JSON floats)


@needs_numba_068
def test_elf_symbols_are_the_bitcodes_defined_symbols(tiny, monkeypatch):
    """numba lists a loaded library's symbols from its bitcode; the fast path reads them
    from the object code: the same names for every cache entry of the tiny module."""
    import llvmlite.binding as ll
    from numba.core.registry import cpu_target

    _ = cpu_target.target_context  # LLVM initialised
    folder, _ = tiny
    monkeypatch.syspath_prepend(str(folder))  # the entries' pickles name the module
    entries = sorted((folder / "__pycache__").glob("tiny.*.nbc"))
    assert len(entries) == 2
    for path in entries:
        name, kind, (obj, bitcode) = pickle.loads(path.read_bytes())[0]
        assert kind == "object"
        module = ll.parse_bitcode(bitcode)
        numbas = {g.name for group in (module.functions, module.global_variables)
                  for g in group if not g.is_declaration}
        assert _numba_load.elf_defined_symbols(obj) == numbas


def test_other_object_formats_are_left_to_numba():
    assert _numba_load.elf_defined_symbols(b"\xcf\xfa\xed\xfe" + bytes(60)) is None  # Mach-O
