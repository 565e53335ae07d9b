"""How tetherdyn compiles its inner loops.

``kernel``: an allocation-free compiled function, cached on disk. Kernels run without
numba's reference-counting runtime (``_nrt=False``): they never allocate, and every call
of a compiled function with array arguments otherwise pays atomic reference-count updates
per array — measured here at ~0.4 µs per call with 11 arrays, 4× the whole right-hand side
of a 10-element cable. ``loop``: the same for the integrators' time loops, which take the
model's kernels as arguments and so cannot be cached (numba keys such specialisations on
the functions' identity); compiling one costs ~0.3 s (rk4) to ~5 s (generalized-α with
ancf2d) per process.
"""

from __future__ import annotations

from numba import njit

kernel = njit(cache=True, _nrt=False)
#: small helpers called per node or element: inlined into their caller (12-19 % per step
#: in water, measured by benchmarks/bench_lumped_mass.py)
inline_kernel = njit(cache=True, _nrt=False, inline="always")
loop = njit(_nrt=False)

__all__ = ["kernel", "inline_kernel", "loop"]
