"""The surface every formulation offers to the integrators, the results layer and the CLI.

A formulation is built from a validated :class:`~tetherdyn.case.Case` and holds a frozen
``data`` tuple (arrays and floats, plus its own preallocated work arrays) and three
compiled kernels with the signatures the integrators call:

- ``rhs(t, y, dydt, data)``   first-order derivative of the state (no allocation);
- ``enforce(t, y, data)``     overwrite kinematically held coordinates in ``y``;
- ``check(t, y, data)``       -1 when the state is sound, else the offending element;
- ``remesh(t, y, data)``      after every accepted step: change the state's layout when a
  discrete event asks for it (a winch splitting or merging its element, winch.py) and
  return 1, else return 0. The default does nothing.

``initial_state()``, ``outputs(times, Y)`` (the results variables of the spec) and
``critical_time_step()`` complete the surface.

Second-order surface (optional; needed by ``solver.method: generalized_alpha``, see
integrate/implicit.py and docs/generalized_alpha.md). A formulation whose equations are
``M(q) q̈ = F(t, q, q̇)`` may also offer:

- ``n_q: int`` (instance attribute): the state is ``y = [q (n_q), q̇ (n_q)]`` and
  dq/dt = q̇. ``n_q = 0`` (the class default) means "no second-order surface".
- ``band: int``: half-bandwidth in q-indices of M(q), ∂F/∂q and ∂F/∂q̇ (entries with
  |i − j| > band are zero); lumped_mass: 5 (3 coordinates per node), ancf2d: 7.
- ``held: np.ndarray`` (int64, n_q): 1 for coordinates prescribed kinematically (held
  ends: fixed / prescribed positions, clamped slopes); ``enforce`` sets their q and q̇.
- compiled static kernels, allocation-free, writing into the caller's arrays:

  - ``force(t, y, F, data)``: the generalized applied force F (n_q), everything except
    inertia (elastic, internal damping, gravity/buoyancy, drag, end loads, payload
    weight/drag); entries of held coordinates are ignored by the integrator;
  - ``mass(t, y, Mb, data)``: the symmetric mass matrix M(q) in lower band storage
    ``Mb[k, j] = M[j + k, j]``, k = 0 … band, shape (band + 1, n_q) (payloads and added
    mass included);
  - ``held_acc(t, y, a, data)``: the prescribed accelerations of held coordinates into
    ``a`` (the other entries untouched).

- consistency (tests/test_generalized_alpha.py checks it for every model with the
  surface): on free coordinates ``rhs`` gives q̈ = M⁻¹F restricted to them, with the held
  accelerations on the right-hand side (M_ff q̈_f = F_f − M_fh a_h), and q̈_h = held_acc.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .._jit import kernel

if TYPE_CHECKING:
    from ..case import Case

__all__ = ["Formulation", "rk4_critical_step", "lumped_nodes", "uniform_elements"]


@kernel
def no_remesh(t, y, data):
    """The remesh hook of a formulation whose layout never changes."""
    return 0


class Formulation:
    """Base class: one subclass per model type, built from a Case."""

    remesh = staticmethod(no_remesh)

    name: str = ""
    #: what limits the explicit time step (reported by ``tetherdyn check``)
    fastest_mode: str = ""
    n_nodes: int
    n_elements: int
    arc_length: np.ndarray
    data: tuple
    #: second-order surface (see the module docstring); n_q = 0: not offered
    n_q: int = 0
    band: int = 0
    held: np.ndarray | None = None
    force = None
    mass = None
    held_acc = None

    def __init__(self, case: Case) -> None:
        self.case = case

    def initial_state(self) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def outputs(self, times: np.ndarray, Y: np.ndarray) -> dict[str, np.ndarray]:
        raise NotImplementedError  # pragma: no cover - interface

    def critical_time_step(self) -> tuple[float, int, float]:
        raise NotImplementedError  # pragma: no cover - interface

    def end_forces(self, t: float, y: np.ndarray, out: np.ndarray) -> None:
        """Forces [N] the tether exerts on its start (out[0]) and end (out[1]) holders at
        state y, time t (the results' start_force / end_force). Models override this with
        an allocation-free version for the step API; this fallback goes through outputs."""
        res = self.outputs(np.array([t]), y[None, :])
        out[0] = res["start_force"][0]
        out[1] = res["end_force"][0]


def _rk4_amplification(z: complex) -> float:
    return abs(1 + z + z**2 / 2 + z**3 / 6 + z**4 / 24)


def rk4_critical_step(omega: float, zeta: float) -> float:
    """Largest RK4 step [s] stable for the oscillator x'' + 2ζω x' + ω² x = 0.

    Found by bisection on the RK4 amplification factor |R(λ dt)| <= 1 for both roots λ.
    Undamped: dt = 2.828 / ω.
    """
    if omega <= 0:
        return math.inf
    disc = complex(zeta * zeta - 1.0) ** 0.5
    lams = (omega * (-zeta + disc), omega * (-zeta - disc))

    def stable(dt: float) -> bool:
        return all(_rk4_amplification(lam * dt) <= 1.0 + 1e-12 for lam in lams)

    hi = 2.8284271 / omega
    while stable(hi):  # heavily damped modes may allow more (real-axis limit 2.785 / |λ|)
        hi *= 2.0
    lo = 0.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if stable(mid):
            lo = mid
        else:
            hi = mid
    return lo


def uniform_elements(case: Case) -> tuple[np.ndarray, np.ndarray]:
    """``model.elements`` equal elements: unstretched lengths [m] and node arc lengths [m]."""
    N = case.model.elements
    L0 = np.full(N, case.tether.length / N)
    return L0, np.concatenate([[0.0], np.cumsum(L0)])


def lumped_nodes(case: Case) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Uniform elements with half of each element lumped on each of its nodes (seed 004
    eq. 2.15): unstretched element lengths [m], node arc lengths [m], node masses [kg] and
    node displaced volumes [m³]."""
    t = case.tether
    L0, arc_length = uniform_elements(case)
    node_mass = np.zeros(arc_length.size)
    node_volume = np.zeros(arc_length.size)
    for share, per_length in ((node_mass, t.linear_mass), (node_volume, t.displaced)):
        share[:-1] += 0.5 * per_length * L0
        share[1:] += 0.5 * per_length * L0
    return L0, arc_length, node_mass, node_volume
