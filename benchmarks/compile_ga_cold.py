"""Cold compile of generalized-α: CPU seconds for one process to build a stepper and take
two steps (the model's kernels and the generalized-α loop compiled), for a system
(validation/system_generalized_alpha.py's clump: two lines and a free point) or a single
line (examples/mooring_touchdown.yaml, lumped_mass). Run it with an empty numba cache::

    NUMBA_CACHE_DIR=$(mktemp -d) python benchmarks/compile_ga_cold.py system|single

(results in benchmarks/results_system_implicit.md, "Cold compile").
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import numpy as np


def main(which: str) -> None:
    c0 = time.process_time()
    w0 = time.perf_counter()
    from tetherdyn.integrate import StepperOptions, make_stepper

    if which == "system":
        from tetherdyn.models.system_model import build_system
        from tetherdyn.system_case import load_system
        from validation.system_generalized_alpha import clump_case

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = build_system(load_system(clump_case(0.01)))
    else:
        import tetherdyn
        from tetherdyn import load_case
        from tetherdyn.models import build_model

        case = Path(tetherdyn.__file__).parent / "examples" / "mooring_touchdown.yaml"
        model = build_model(load_case(case))
    st = make_stepper("generalized_alpha", model, None, model.initial_state(), 0.0,
                      StepperOptions(dt=0.01, adaptive=False))
    c1 = time.process_time()
    Y = np.empty((2, st.y.size))
    st.advance(np.array([0.01, 0.02]), Y)
    print(f"{which}: compile+2 steps CPU {time.process_time() - c1:.1f} s (import/build "
          f"{c1 - c0:.1f} s), wall {time.perf_counter() - w0:.1f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "system")
