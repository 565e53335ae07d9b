"""Issue 22: ``import tetherdyn`` and ``tetherdyn --help`` stay light.

Heavy libraries (xarray/pandas, scipy.interpolate, matplotlib, dask, tqdm) are imported in
the functions that use them. Checked on ``sys.modules`` of a fresh interpreter — never on
time (startup timings are in benchmarks/results_startup.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

HEAVY = ("xarray", "pandas", "scipy.interpolate", "scipy.optimize", "matplotlib", "dask",
         "tqdm")
#: packages checked by name only: numba's BLAS check needs scipy.linalg.cython_blas and
#: cython_lapack, which tetherdyn._jit loads without the scipy.linalg package (~0.15 s)
HEAVY_PACKAGES = ("scipy.linalg",)


def _loaded_after(code: str) -> list[str]:
    """Modules among HEAVY (or below them) and HEAVY_PACKAGES loaded by ``code`` in a fresh
    interpreter."""
    probe = (f"import sys, json\n{code}\n"
             f"print(json.dumps(sorted(m for m in sys.modules "
             f"if m in {HEAVY_PACKAGES!r} "
             f"or any(m == h or m.startswith(h + '.') for h in {HEAVY!r}))))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(SRC), *filter(None, [os.environ.get("PYTHONPATH")])])}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         env=env, check=True, timeout=120).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_import_tetherdyn_is_light():
    code = "import tetherdyn\nassert tetherdyn.simulate and tetherdyn.load_results"
    assert _loaded_after(code) == []


def test_cli_help_is_light():
    code = ("from tetherdyn.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass")
    assert _loaded_after(code) == []


def _loaded_of(code: str, names: tuple[str, ...]) -> list[str]:
    """Which of ``names`` (top-level packages) ``code`` loads in a fresh interpreter."""
    probe = (f"import sys\n{code}\n"
             f"print('loaded:' + ','.join(n for n in {names!r} if n in sys.modules))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(SRC), *filter(None, [os.environ.get("PYTHONPATH")])])}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         env=env, check=True, timeout=120).stdout
    last = [line for line in out.splitlines() if line.startswith("loaded:")][-1]
    return [n for n in last[len("loaded:"):].split(",") if n]


def test_the_package_import_loads_no_numerics():
    """``import tetherdyn`` loads its public names on first use (tetherdyn/__init__.py):
    neither numpy, numba nor pydantic; ``tetherdyn --help`` neither numba nor pydantic;
    the first use of a name loads what it needs, and tetherdyn.simulate stays the function
    after its submodule is imported."""
    assert _loaded_of("import tetherdyn", ("numpy", "numba", "pydantic", "yaml")) == []
    code = ("from tetherdyn.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass")
    assert _loaded_of(code, ("numba", "pydantic")) == []
    code = ("import tetherdyn\nfrom tetherdyn.simulate import run_case\n"
            "assert callable(tetherdyn.simulate) and tetherdyn.simulate.__name__ == "
            "'simulate'\nassert tetherdyn.load_case.__module__ == 'tetherdyn.case'")
    assert _loaded_of(code, ("numba", "pydantic")) == ["numba", "pydantic"]


def test_heavy_modules_still_arrive_when_used():
    """The probe can fail: loading a results file does import xarray."""
    code = ("import tempfile, tetherdyn\n"
            "try:\n    tetherdyn.load_results(tempfile.mktemp(suffix='.nc'))\n"
            "except Exception:\n    pass")
    assert "xarray" in _loaded_after(code)


def test_numba_blas_after_the_preload():
    """The BLAS modules _jit loads serve numba's compiled linear algebra (its BLAS check
    and its function pointers), and scipy.linalg still imports whole afterwards."""
    code = ("import tetherdyn._jit, numpy as np\n"
            "from numba.np.linalg import ensure_blas, ensure_lapack\n"
            "ensure_blas(); ensure_lapack()\n"
            "assert 'dgemm' in sys.modules['scipy.linalg.cython_blas'].__pyx_capi__\n"
            "assert 'scipy.linalg' not in sys.modules\n"
            "import scipy.linalg\n"
            "a = np.array([[4.0, 1.0], [1.0, 3.0]])\n"
            "assert np.allclose(a @ scipy.linalg.solve(a, [1.0, 2.0]), [1.0, 2.0])")
    assert "scipy.linalg" in _loaded_after(code)


def test_cli_run_writes_without_xarray(tmp_path):
    """``tetherdyn run`` builds and writes its results without xarray, pandas, dask,
    scipy.interpolate or scipy.linalg (results.ResultsTable.write, boundary's own path
    splines and tridiagonal solve, _jit's preload of the BLAS modules numba checks for)."""
    out = tmp_path / "out.nc"
    case = SRC / "tetherdyn" / "examples" / "rov_manoeuvre.yaml"  # splines its path table
    code = ("from tetherdyn.cli import main\n"
            f"assert main(['run', {str(case)!r}, '-q', '-o', {str(out)!r}]) == 0")
    assert _loaded_after(code) == []
    assert out.is_file()
