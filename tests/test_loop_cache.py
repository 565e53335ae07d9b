"""Issue 22: the time loops are compiled once per formulation and cached on disk.

A fresh process loads a formulation's loop from numba's cache instead of compiling it
(checked on the dispatcher's cache hit / miss counters, never on time: startup timings are
in benchmarks/results_startup.md). Formulations defined outside the package (the tests' toy,
the lab's oscillator) get cache files of their own, so a cache written by the test suite
never breaks a user's run in a folder where those modules cannot be imported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from tetherdyn.integrate import StepperOptions, make_stepper
from tetherdyn.integrate.explicit import compiled_loop, rk4_chunk, rk45_chunk
from tetherdyn.integrate.implicit import compiled_ga_chunk
from tetherdyn.models.lumped_mass import LumpedMass
from validation.generalized_alpha import LinearOscillator

SRC = Path(__file__).resolve().parents[1] / "src"
EXAMPLE = SRC / "tetherdyn" / "examples" / "hanging_chain.yaml"

#: a user's short run of a bundled example, from a folder where neither the tests nor the
#: lab can be imported; prints the rk4 loop's cache counters
_USER_RUN = r"""
import json, sys, yaml, tetherdyn
from tetherdyn.integrate.explicit import compiled_loop, rk4_chunk
from tetherdyn.models import build_model
case = yaml.safe_load(open(sys.argv[1]))
case["solver"].update(duration=0.02, output_interval=0.01)
case = tetherdyn.load_case(case)
ds = tetherdyn.simulate(case, progress=False)
stats = compiled_loop(rk4_chunk, build_model(case)).stats
print(json.dumps({"hits": sum(stats.cache_hits.values()),
                  "misses": sum(stats.cache_misses.values()),
                  "finite": bool(ds["position"].notnull().all())}))
"""


def _user_run(tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR")}
    env["PYTHONPATH"] = str(SRC)
    if "NUMBA_CACHE_DIR" in os.environ:  # the same cache as this process
        env["NUMBA_CACHE_DIR"] = os.environ["NUMBA_CACHE_DIR"]
    proc = subprocess.run([sys.executable, "-c", _USER_RUN, str(EXAMPLE)], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _index_path(entry) -> Path:
    return Path(entry._cache._cache_file._index_path)


def test_one_cache_entry_per_formulation():
    lab = compiled_loop(rk4_chunk, LinearOscillator)
    package = compiled_loop(rk4_chunk, LumpedMass)
    assert lab is compiled_loop(rk4_chunk, LinearOscillator)  # one per process
    assert lab is not package
    assert "validation_generalized_alpha" in _index_path(lab).name
    assert "tetherdyn_models_lumped_mass" in _index_path(package).name
    assert len({_index_path(e) for e in (lab, package, compiled_loop(rk45_chunk, LumpedMass),
                                         compiled_ga_chunk(LinearOscillator))}) == 4


def test_cache_written_by_tests_never_breaks_a_user_run(tmp_path):
    # the lab's oscillator through every loop: its entries (whose types name the module
    # `validation.generalized_alpha`) are written to disk by this process
    osc = LinearOscillator()
    for method in ("rk4", "rk45", "generalized_alpha"):
        st = make_stepper(method, osc, None, osc.initial_state(), 0.0,
                          StepperOptions(dt=0.01))
        Y = np.empty((2, 2))
        assert st.advance(np.array([0.01, 0.02]), Y) == 2
    for entry in (compiled_loop(rk4_chunk, osc), compiled_loop(rk45_chunk, osc),
                  compiled_ga_chunk(osc)):
        assert _index_path(entry).is_file()
    # a user's run from another folder: works, the second process compiles no loop
    assert _user_run(tmp_path)["finite"]
    second = _user_run(tmp_path)
    assert second["finite"]
    assert second["hits"] >= 1 and second["misses"] == 0


def test_an_edited_kernel_makes_the_entry_stale(tmp_path, monkeypatch):
    """numba stamps an index with its own source file only (the template's); the entry's
    stamp adds a digest of the package's and the kernels' sources, so an edited kernel is
    never run from an old cache."""
    import tetherdyn._jit as jit

    stamp = _index_stamp(compiled_loop(rk4_chunk, LumpedMass))
    assert stamp[1] == jit._source_digest((str(SRC / "tetherdyn" / "models" /
                                               "lumped_mass.py"),))
    kernel_file = tmp_path / "kernels.py"
    kernel_file.write_text("x = 1\n")
    monkeypatch.setattr(jit, "_STAMPS", {})
    before = jit._source_digest((str(kernel_file),))
    kernel_file.write_text("x = 22\n")
    monkeypatch.setattr(jit, "_STAMPS", {})
    assert jit._source_digest((str(kernel_file),)) != before


def _index_stamp(entry) -> tuple:
    return entry._cache._cache_file._source_stamp
