"""Lumped-mass visco-elastic (Voigt) cable — seed 004 §2.2 (also seed 000 §5.2's bead model).

N straight elements join N+1 nodes that carry the lumped mass. Each element is a Voigt
spring–dashpot with tension ``EA·ε`` and damping ``C_ID·ε̇`` (EA and C_ID are cross-section
properties, seed 004 eqs. (2.10)–(2.11)), optionally unable to carry compression (eq. 2.17).
Drag acts at each element's centre with the mean velocity of its nodes relative to the
fluid (eq. 2.12); half of every element load is lumped on each of its nodes (eq. 2.16);
added mass acts normal (and, if asked, tangential) to each element (eqs. 2.14–2.15).

State vector: ``y = [r_0, …, r_N, ṙ_0, …, ṙ_N]`` (positions then velocities, 6(N+1)).
Held ends (fixed / prescribed) stay in the state; the kernels overwrite them with the
prescribed motion, so every formulation shares one integrator surface.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit

from ..boundary import eval_motion, fixed_point
from ..case import Case
from ..hydro import DRAG_LAW_CODES, element_drag
from ..initial import initial_nodes
from .base import Formulation, rk4_critical_step

#: strain above which a run is declared blown up (1000 % stretch)
ABSURD_STRAIN = 10.0

LumpedMassData = namedtuple(
    "LumpedMassData",
    [
        "n_nodes", "unstretched", "EA", "damping", "compression", "slack_damping",
        "node_mass", "payload_mass", "node_volume", "added_normal", "added_tangential",
        "gravity", "current", "rho", "diameter", "cd_normal", "cd_tangential", "drag_law",
        "held", "breaks0", "coeffs0", "breaks1", "coeffs1",
        "end_force", "ramp_time", "drag_area",
        # work arrays (one model per run: never shared between runs)
        "pos", "vel", "tangent", "length", "tension", "force", "motion", "tmp",
    ],
)


@njit(cache=True)
def _load_nodes(d, t, y):
    """Copy node positions/velocities from y into work arrays, held ends from their motion."""
    n = d.n_nodes
    for i in range(n):
        for a in range(3):
            d.pos[i, a] = y[3 * i + a]
            d.vel[i, a] = y[3 * n + 3 * i + a]
    if d.held[0]:
        eval_motion(d.breaks0, d.coeffs0, t, d.motion[0])
        for a in range(3):
            d.pos[0, a] = d.motion[0, 0, a]
            d.vel[0, a] = d.motion[0, 1, a]
    if d.held[1]:
        eval_motion(d.breaks1, d.coeffs1, t, d.motion[1])
        for a in range(3):
            d.pos[n - 1, a] = d.motion[1, 0, a]
            d.vel[n - 1, a] = d.motion[1, 1, a]


@njit(cache=True)
def _tether_forces(d, t):
    """Element tensions and the tether's own nodal forces (no payload) into d.force [N]."""
    n = d.n_nodes
    ne = n - 1
    for i in range(n):
        for a in range(3):
            # weight and buoyancy of the half elements lumped here — seed 004 eqs. (2.13), (2.16)
            d.force[i, a] = (d.node_mass[i] - d.rho * d.node_volume[i]) * d.gravity[a]
    for e in range(ne):
        dx = d.pos[e + 1, 0] - d.pos[e, 0]
        dy = d.pos[e + 1, 1] - d.pos[e, 1]
        dz = d.pos[e + 1, 2] - d.pos[e, 2]
        L = math.sqrt(dx * dx + dy * dy + dz * dz)  # seed 004 eq. (2.3)
        qx = dx / L
        qy = dy / L
        qz = dz / L
        d.length[e] = L
        d.tangent[e, 0] = qx
        d.tangent[e, 1] = qy
        d.tangent[e, 2] = qz
        L0 = d.unstretched[e]
        strain = (L - L0) / L0  # seed 004 eq. (2.10)
        dvx = d.vel[e + 1, 0] - d.vel[e, 0]
        dvy = d.vel[e + 1, 1] - d.vel[e, 1]
        dvz = d.vel[e + 1, 2] - d.vel[e, 2]
        strain_rate = (dvx * qx + dvy * qy + dvz * qz) / L0  # seed 004 eq. (2.11)
        elastic = d.EA * strain
        viscous = d.damping * strain_rate
        if not d.compression and strain <= 0.0:  # bilinear law, seed 004 eq. (2.17)
            elastic = 0.0
            if not d.slack_damping:
                viscous = 0.0
        T = elastic + viscous
        d.tension[e] = T
        # drag at the element centre, half to each node — seed 004 eqs. (2.12), (2.16)
        if d.rho > 0.0:
            ux = 0.5 * (d.vel[e, 0] + d.vel[e + 1, 0]) - d.current[0]
            uy = 0.5 * (d.vel[e, 1] + d.vel[e + 1, 1]) - d.current[1]
            uz = 0.5 * (d.vel[e, 2] + d.vel[e + 1, 2]) - d.current[2]
            element_drag(d.drag_law, d.rho, d.diameter, L, d.cd_normal, d.cd_tangential,
                         qx, qy, qz, ux, uy, uz, d.tmp)
            for a in range(3):
                d.force[e, a] += 0.5 * d.tmp[a]
                d.force[e + 1, a] += 0.5 * d.tmp[a]
        d.force[e, 0] += T * qx
        d.force[e, 1] += T * qy
        d.force[e, 2] += T * qz
        d.force[e + 1, 0] -= T * qx
        d.force[e + 1, 1] -= T * qy
        d.force[e + 1, 2] -= T * qz


@njit(cache=True)
def _payload_force(d, t, which, node, out):
    """Applied force (ramped), payload weight and payload drag at a free end [N]."""
    ramp = 1.0
    if d.ramp_time[which] > 0.0 and t < d.ramp_time[which]:
        ramp = t / d.ramp_time[which]
    m = d.payload_mass[which]
    for a in range(3):
        out[a] = ramp * d.end_force[which, a] + m * d.gravity[a]
    if d.drag_area[which] > 0.0 and d.rho > 0.0:
        ux = d.vel[node, 0] - d.current[0]
        uy = d.vel[node, 1] - d.current[1]
        uz = d.vel[node, 2] - d.current[2]
        f = -0.5 * d.rho * d.drag_area[which] * math.sqrt(ux * ux + uy * uy + uz * uz)
        out[0] += f * ux
        out[1] += f * uy
        out[2] += f * uz


@njit(cache=True)
def _mass_matrix(d, i, with_payload, M):
    """Nodal 3x3 mass matrix (structural + added mass of the half elements), seed 004 (2.15)."""
    m = d.node_mass[i]
    if with_payload:
        if i == 0:
            m += d.payload_mass[0]
        if i == d.n_nodes - 1:
            m += d.payload_mass[1]
    for a in range(3):
        for b in range(3):
            M[a, b] = m if a == b else 0.0
    if d.rho == 0.0:
        return
    for e in (i - 1, i):
        if e < 0 or e >= d.n_nodes - 1:
            continue
        an = 0.5 * d.added_normal[e]
        at = 0.5 * d.added_tangential[e]
        for a in range(3):
            for b in range(3):
                qq = d.tangent[e, a] * d.tangent[e, b]
                M[a, b] += (an * ((1.0 if a == b else 0.0) - qq) + at * qq)


@njit(cache=True)
def _solve3(M, f, out):
    """Solve the 3x3 system M x = f by Cramer's rule (M symmetric positive definite)."""
    c00 = M[1, 1] * M[2, 2] - M[1, 2] * M[2, 1]
    c01 = M[1, 2] * M[2, 0] - M[1, 0] * M[2, 2]
    c02 = M[1, 0] * M[2, 1] - M[1, 1] * M[2, 0]
    det = M[0, 0] * c00 + M[0, 1] * c01 + M[0, 2] * c02
    c10 = M[0, 2] * M[2, 1] - M[0, 1] * M[2, 2]
    c11 = M[0, 0] * M[2, 2] - M[0, 2] * M[2, 0]
    c12 = M[0, 1] * M[2, 0] - M[0, 0] * M[2, 1]
    c20 = M[0, 1] * M[1, 2] - M[0, 2] * M[1, 1]
    c21 = M[0, 2] * M[1, 0] - M[0, 0] * M[1, 2]
    c22 = M[0, 0] * M[1, 1] - M[0, 1] * M[1, 0]
    out[0] = (c00 * f[0] + c10 * f[1] + c20 * f[2]) / det
    out[1] = (c01 * f[0] + c11 * f[1] + c21 * f[2]) / det
    out[2] = (c02 * f[0] + c12 * f[1] + c22 * f[2]) / det


@njit(cache=True)
def rhs(t, y, dydt, d):
    """dy/dt for the lumped-mass cable: node velocities and accelerations (eq. 2.16)."""
    n = d.n_nodes
    _load_nodes(d, t, y)
    _tether_forces(d, t)
    f = d.tmp[3:6]
    acc = d.tmp[6:9]
    M = d.motion[2]
    for i in range(n):
        for a in range(3):
            dydt[3 * i + a] = d.vel[i, a]
        held = (i == 0 and d.held[0]) or (i == n - 1 and d.held[1])
        if held:
            w = 0 if i == 0 else 1
            for a in range(3):
                dydt[3 * n + 3 * i + a] = d.motion[w, 2, a]
            continue
        for a in range(3):
            f[a] = d.force[i, a]
        if i == 0:
            _payload_force(d, t, 0, i, acc)
            for a in range(3):
                f[a] += acc[a]
        if i == n - 1:
            _payload_force(d, t, 1, i, acc)
            for a in range(3):
                f[a] += acc[a]
        if d.rho == 0.0:
            m = d.node_mass[i]
            if i == 0:
                m += d.payload_mass[0]
            if i == n - 1:
                m += d.payload_mass[1]
            for a in range(3):
                dydt[3 * n + 3 * i + a] = f[a] / m
        else:
            _mass_matrix(d, i, True, M)
            _solve3(M, f, acc)
            for a in range(3):
                dydt[3 * n + 3 * i + a] = acc[a]


@njit(cache=True)
def enforce(t, y, d):
    """Overwrite held ends in the state with their prescribed position and velocity."""
    n = d.n_nodes
    for w in range(2):
        if d.held[w]:
            node = 0 if w == 0 else n - 1
            if w == 0:
                eval_motion(d.breaks0, d.coeffs0, t, d.motion[0])
            else:
                eval_motion(d.breaks1, d.coeffs1, t, d.motion[1])
            for a in range(3):
                y[3 * node + a] = d.motion[w, 0, a]
                y[3 * n + 3 * node + a] = d.motion[w, 1, a]


@njit(cache=True)
def check(t, y, d):
    """Index of an element with non-finite or absurd strain, or -1 when the state is sound."""
    n = d.n_nodes
    for e in range(n - 1):
        s = 0.0
        L2 = 0.0
        for a in range(3):
            dx = y[3 * (e + 1) + a] - y[3 * e + a]
            L2 += dx * dx
            s += y[3 * n + 3 * e + a] + y[3 * n + 3 * (e + 1) + a]
        if not (math.isfinite(L2) and math.isfinite(s)):
            return e
        strain = math.sqrt(L2) / d.unstretched[e] - 1.0
        if strain > ABSURD_STRAIN:
            return e
    return -1


@njit(cache=True)
def diagnostics(times, Y, d, tension, start_force, end_force, kinetic, potential):
    """Element tension, end forces and energies at each output instant (results layer)."""
    n = d.n_nodes
    ny = Y.shape[1]
    dydt = np.empty(ny)
    M = np.empty((3, 3))
    ma = np.empty(3)
    for j in range(times.size):
        t = times[j]
        y = Y[j]
        rhs(t, y, dydt, d)
        for e in range(n - 1):
            tension[j, e] = d.tension[e]
        # force the tether exerts on each end's holder: its own nodal load minus the
        # inertia of the tether mass lumped there (spec: results-format.md)
        for w in range(2):
            i = 0 if w == 0 else n - 1
            _mass_matrix(d, i, False, M)
            for a in range(3):
                ma[a] = 0.0
                for b in range(3):
                    ma[a] += M[a, b] * dydt[3 * n + 3 * i + b]
            for a in range(3):
                val = d.force[i, a] - ma[a]
                if w == 0:
                    start_force[j, a] = val
                else:
                    end_force[j, a] = val
        ke = 0.0
        pe = 0.0
        for i in range(n):
            m = d.node_mass[i]
            if i == 0:
                m += d.payload_mass[0]
            if i == n - 1:
                m += d.payload_mass[1]
            _mass_matrix(d, i, True, M)
            for a in range(3):
                for b in range(3):
                    ke += 0.5 * d.vel[i, a] * M[a, b] * d.vel[i, b]
                pe -= (m - d.rho * d.node_volume[i]) * d.gravity[a] * d.pos[i, a]
        for e in range(n - 1):
            strain = d.length[e] / d.unstretched[e] - 1.0
            if d.compression or strain > 0.0:
                pe += 0.5 * d.EA * strain * strain * d.unstretched[e]
        kinetic[j] = ke
        potential[j] = pe


def _held_motion(case: Case, which: str):
    end = getattr(case, which)
    if end.type == "prescribed":
        return getattr(case, f"{which}_trajectory")
    if end.type == "fixed":
        return fixed_point(end.position if end.position is not None else (0.0, 0.0, 0.0))
    return fixed_point((0.0, 0.0, 0.0))  # unused placeholder arrays for a free end


class LumpedMass(Formulation):
    """Lumped-mass Voigt cable (``model.type: lumped_mass``)."""

    name = "lumped_mass"
    rhs = staticmethod(rhs)
    enforce = staticmethod(enforce)
    check = staticmethod(check)

    def __init__(self, case: Case) -> None:
        super().__init__(case)
        t = case.tether
        N = case.model.elements
        n = N + 1
        self.n_elements = N
        self.n_nodes = n
        L0 = np.full(N, t.length / N)
        self.arc_length = np.concatenate([[0.0], np.cumsum(L0)])
        rho = case.environment.fluid_density
        m_el = t.linear_mass * L0
        vol_el = t.displaced * L0
        node_mass = np.zeros(n)
        node_mass[:-1] += 0.5 * m_el
        node_mass[1:] += 0.5 * m_el
        node_volume = np.zeros(n)
        node_volume[:-1] += 0.5 * vol_el
        node_volume[1:] += 0.5 * vol_el
        ends = (case.start, case.end)
        m0, m1 = (self._motion(case, "start"), self._motion(case, "end"))
        self.data = LumpedMassData(
            n_nodes=n,
            unstretched=L0,
            EA=float(t.EA),
            damping=float(t.axial_damping),
            compression=bool(t.compression),
            slack_damping=bool(case.model.option("slack_damping")),
            node_mass=node_mass,
            payload_mass=np.array([e.mass if e.type == "free" else 0.0 for e in ends]),
            node_volume=node_volume,
            added_normal=rho * t.ca_normal * vol_el,  # seed 004 eq. (2.14), m_a = rho V Ca
            added_tangential=rho * t.ca_tangential * vol_el,
            gravity=np.array(case.environment.gravity, dtype=float),
            current=np.array(case.environment.current, dtype=float),
            rho=float(rho),
            diameter=float(t.diameter),
            cd_normal=float(t.cd_normal),
            cd_tangential=float(t.cd_tangential),
            drag_law=DRAG_LAW_CODES[case.drag_law],
            held=np.array([e.type != "free" for e in ends]),
            breaks0=m0.breaks, coeffs0=m0.coeffs, breaks1=m1.breaks, coeffs1=m1.coeffs,
            end_force=np.array([e.force for e in ends], dtype=float),
            ramp_time=np.array([e.force_ramp_time or 0.0 for e in ends]),
            drag_area=np.array([e.drag_area for e in ends]),
            pos=np.zeros((n, 3)), vel=np.zeros((n, 3)), tangent=np.zeros((N, 3)),
            length=np.zeros(N), tension=np.zeros(N), force=np.zeros((n, 3)),
            motion=np.zeros((3, 3, 3)), tmp=np.zeros(9),
        )

    @staticmethod
    def _motion(case: Case, which: str):
        return _held_motion(case, which)

    # -- the formulation surface -------------------------------------------------------
    def initial_state(self) -> np.ndarray:
        pos, vel = initial_nodes(self.case, self.arc_length)
        return np.concatenate([pos.ravel(), vel.ravel()])

    def node_states(self, Y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = self.n_nodes
        k = Y.shape[0]
        return Y[:, : 3 * n].reshape(k, n, 3), Y[:, 3 * n:].reshape(k, n, 3)

    def outputs(self, times: np.ndarray, Y: np.ndarray) -> dict[str, np.ndarray]:
        k = times.size
        N = self.n_elements
        tension = np.empty((k, N))
        f0 = np.empty((k, 3))
        f1 = np.empty((k, 3))
        ke = np.empty(k)
        pe = np.empty(k)
        diagnostics(times, np.ascontiguousarray(Y), self.data, tension, f0, f1, ke, pe)
        pos, vel = self.node_states(Y)
        return dict(position=pos, velocity=vel, tension=tension, start_force=f0,
                    end_force=f1, kinetic_energy=ke, potential_energy=pe)

    def element_properties(self) -> dict[str, np.ndarray]:
        d = self.data
        L0 = d.unstretched
        mass = d.node_mass.copy()
        mass[0] += d.payload_mass[0]
        mass[-1] += d.payload_mass[1]
        # axial stiffness and damping of each element as a spring between nodes
        k = d.EA / L0
        c = d.damping / L0
        return dict(length=L0, mass=self.case.tether.linear_mass * L0, node_mass=mass,
                    stiffness=k, damping=c)

    def critical_time_step(self) -> tuple[float, int, float]:
        """Largest stable RK4 step [s], the element that limits it, and its frequency [rad/s].

        Gershgorin bound of the axial stiffness / damping per node: with k_e = EA / L_e and
        c_e = C_ID / L_e, node i's highest mode obeys λ² + (2 Σc / m_i) λ + 2 Σk / m_i = 0,
        summed over its elements (exact 2·sqrt(k/m) for a uniform interior node).
        """
        p = self.element_properties()
        k, c, m = p["stiffness"], p["damping"], p["node_mass"]
        n = self.n_nodes
        best = (math.inf, 0, 0.0)
        for i in range(n):
            if (i == 0 and self.data.held[0]) or (i == n - 1 and self.data.held[1]):
                continue
            adj = [e for e in (i - 1, i) if 0 <= e < n - 1]
            ks = 2.0 * sum(k[e] for e in adj)
            cs = 2.0 * sum(c[e] for e in adj)
            omega = math.sqrt(ks / m[i])
            dt = rk4_critical_step(omega, cs / (2.0 * m[i] * omega))
            if dt < best[0]:
                best = (dt, max(adj, key=lambda e: k[e]), omega)
        return best
