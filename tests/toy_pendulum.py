"""A toy formulation for the tests: one point mass on a massless elastic rod (a pendulum).

It exists to show that a formulation is one module plus one registry line: nothing else in
the package names it. tests/test_toy_formulation.py registers it (``REGISTRY`` entry
``"tests.toy_pendulum:ToyPendulum"``), runs it through ``simulate`` and checks its period
against the exact period of the rigid pendulum.

The bob carries the whole tether mass m = linear_mass · length [kg] plus the free end's
payload; the rod is an axial spring of stiffness EA / L [N/m] from the fixed start (the
pivot). State y = [r (3), v (3)]: bob position [m] and velocity [m/s]. Forces: the rod's
tension, the wet weight (m − ρ V) g with V = displaced · length [m³], and isotropic drag
½ ρ c_dn d L |u| u on the relative velocity u = current − v (the ``isotropic`` law with the
whole rod's projected area d L lumped on the bob).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from tetherdyn.initial import initial_nodes
from tetherdyn.models.base import Formulation, rk4_critical_step
from tetherdyn.models.supports import COMMON_TETHER_KEYS, Supports

# data = (pivot (3), gravity (3), current (3), par (5)): par = [m, k, L, m_wet, c_drag]
M, K, L0, MWET, CDRAG = range(5)


@njit(_nrt=False)
def rhs(t, y, dydt, data):
    """dy/dt = [v, a] with m a = −k (|r − p| − L) r̂ + m_wet g + c |u| u (no allocation)."""
    pivot, g, current, par = data
    r0, r1, r2 = y[0] - pivot[0], y[1] - pivot[1], y[2] - pivot[2]
    d = math.sqrt(r0 * r0 + r1 * r1 + r2 * r2)
    f = -par[K] * (d - par[L0]) / d
    u0, u1, u2 = current[0] - y[3], current[1] - y[4], current[2] - y[5]
    cu = par[CDRAG] * math.sqrt(u0 * u0 + u1 * u1 + u2 * u2)
    dydt[0], dydt[1], dydt[2] = y[3], y[4], y[5]
    dydt[3] = (f * r0 + par[MWET] * g[0] + cu * u0) / par[M]
    dydt[4] = (f * r1 + par[MWET] * g[1] + cu * u1) / par[M]
    dydt[5] = (f * r2 + par[MWET] * g[2] + cu * u2) / par[M]


@njit(_nrt=False)
def enforce(t, y, data):
    """Nothing is held in the state (the pivot is not part of it)."""


@njit(_nrt=False)
def check(t, y, data):
    """-1 when the state is finite and the rod's strain is below 10, else 0 (the rod)."""
    pivot, _, _, par = data
    s = 0.0
    for i in range(3):
        if not (math.isfinite(y[i]) and math.isfinite(y[3 + i])):
            return 0
        s += (y[i] - pivot[i]) ** 2
    return 0 if math.sqrt(s) > 11.0 * par[L0] else -1


class ToyPendulum(Formulation):
    """One point mass on a massless elastic rod (``model.type: toy_pendulum``, tests only)."""

    supports = Supports(
        methods=("rk4", "rk45"),
        drag_laws=("isotropic",),
        tether_keys=COMMON_TETHER_KEYS | {"EA"},
        required=("EA",),
        start_types=("fixed",), end_types=("free",),
        ends_note="a pendulum hangs from a fixed pivot",
    )

    name = "toy_pendulum"
    fastest_mode = "axial (the rod's spring against the bob)"
    rhs = staticmethod(rhs)
    enforce = staticmethod(enforce)
    check = staticmethod(check)

    def __init__(self, case) -> None:
        super().__init__(case)
        t, env = case.tether, case.environment
        L = t.length
        self.n_nodes, self.n_elements = 2, 1
        self.arc_length = np.array([0.0, L])
        m = t.linear_mass * L + case.end.mass
        rho = env.fluid_density
        par = np.array([m, t.EA / L, L, m - rho * t.displaced * L,
                        0.5 * rho * t.cd_normal * t.diameter * L])
        self.data = (np.asarray(case.start_position, dtype=float),
                     np.asarray(env.gravity, dtype=float),
                     np.asarray(env.current, dtype=float), par)

    def initial_state(self) -> np.ndarray:
        pos, vel = initial_nodes(self.case, self.arc_length)
        return np.concatenate([pos[1], vel[1]])

    def critical_time_step(self) -> tuple[float, int, float]:
        par = self.data[3]
        omega = math.sqrt(par[K] / par[M])
        return rk4_critical_step(omega, 0.0), 0, omega

    def outputs(self, times: np.ndarray, Y: np.ndarray, data: tuple | None = None
                ) -> dict[str, np.ndarray]:
        pivot, g, _, par = self.data if data is None else data
        n = times.size
        pos = np.empty((n, 2, 3))
        vel = np.zeros((n, 2, 3))
        pos[:, 0] = pivot
        pos[:, 1] = Y[:, :3]
        vel[:, 1] = Y[:, 3:]
        r = Y[:, :3] - pivot
        d = np.linalg.norm(r, axis=1)
        tension = par[K] * (d - par[L0])
        pull = (tension / d)[:, None] * r  # the rod pulls the pivot towards the bob
        ke = 0.5 * par[M] * np.sum(Y[:, 3:] ** 2, axis=1)
        pe = -par[MWET] * (Y[:, :3] @ g) + 0.5 * par[K] * (d - par[L0]) ** 2
        return {"position": pos, "velocity": vel, "tension": tension[:, None],
                "start_force": pull, "end_force": -pull, "kinetic_energy": ke,
                "potential_energy": pe}
