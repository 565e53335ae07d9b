"""Cold compile of a small lumped-mass-only system (two lines, a free point, rk4): a fresh
process with an empty numba cache (``NUMBA_CACHE_DIR``) runs it for 10 steps; prints the
CPU and wall seconds of that first run (almost all compilation), the source tree, the
machine's load.

    python benchmarks/bench_compile_system.py [--src DIR]   # DIR: a tree holding tetherdyn/

Compare two trees (before/after) one after the other on the same machine; the load (other
processes) changes the wall time much more than the CPU time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

_CHILD = r"""
import json, time
import tetherdyn
from tetherdyn.system_run import run_system
case = {
    "line_types": {"chain": {"diameter": 0.02, "mass_per_length": 1.0, "EA": 2e4}},
    "lines": {f"L{k + 1}": {"line_type": "chain", "length": [10.0, 8.0][k],
                            "model": {"type": "lumped_mass", "elements": 4},
                            "start": {"point": "AB"[k]}, "end": {"point": "BC"[k]}}
              for k in range(2)},
    "points": {"A": {"type": "fixed", "position": [0, 0, 0]},
               "B": {"type": "free", "position": [6.0, 0.0, -7.0], "mass": 3.0},
               "C": {"type": "fixed", "position": [13.0, 0.0, -1.0]}},
    "solver": {"method": "rk4", "dt": 1e-3, "duration": 0.01, "output_interval": 0.005}}
t0, c0 = time.perf_counter(), time.process_time()
run_system(case, progress=False)
print(json.dumps({"src": tetherdyn.__file__, "wall_s": time.perf_counter() - t0,
                  "cpu_s": time.process_time() - c0}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", default=str(Path(__file__).resolve().parents[1] / "src"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": args.src}
        out = subprocess.run([sys.executable, "-c", _CHILD], env=env, check=True,
                             capture_output=True, text=True).stdout
    res = json.loads(out.strip().splitlines()[-1])
    res["load"] = os.getloadavg()
    print(json.dumps(res))


if __name__ == "__main__":
    main()
