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

from .._jit import inline_kernel, kernel
from ..boundary import end_motion_at, eval_motion, fixed_point, free_end_load
from ..case import Case
from ..hydro import DRAG_LAW_CODES, element_drag
from ..initial import initial_nodes
from .base import Formulation, rk4_critical_step

#: strain above which a run is declared blown up (1000 % stretch)
ABSURD_STRAIN = 10.0

# indices into the packed parameter arrays (module constants: frozen into the kernels)
EA, DAMPING, RHO, DIAMETER, CD_N, CD_T, GX, GY, GZ, UX, UY, UZ = range(12)  # scal
COMPRESSION, SLACK_DAMPING, DRAG_LAW, HELD0, HELD1 = range(5)  # flags
L0, ADDED_N, ADDED_T = range(3)  # elem columns
MASS, VOLUME = range(2)  # node columns
PAYLOAD, RAMP, DRAG_AREA, FX, FY, FZ = range(6)  # ends columns (row 0 start, row 1 end)

LumpedMassData = namedtuple(
    "LumpedMassData",
    [
        "n_nodes", "flags", "scal", "elem", "node", "ends",
        "breaks0", "coeffs0", "breaks1", "coeffs1",
        # work arrays (one model per run: never shared between runs)
        "pos", "vel", "force", "tangent", "length", "tension", "motion", "tmp",
    ],
)
# Kernels pass individual arrays to their helpers, never the whole tuple: handing a tuple
# of many arrays to a non-inlined function costs ~0.3 us per call (measured).


@kernel
def _tether_forces(n, flags, scal, elem, node, pos, vel, force, tangent, length, tension, tmp):
    """Element tensions and the tether's own nodal loads (no payload) into force [N]."""
    rho = scal[RHO]
    for i in range(n):
        w = node[i, MASS] - rho * node[i, VOLUME]
        # weight and buoyancy of the half elements lumped here — seed 004 eqs. (2.13), (2.16)
        force[i, 0] = w * scal[GX]
        force[i, 1] = w * scal[GY]
        force[i, 2] = w * scal[GZ]
    for e in range(n - 1):
        dx = pos[e + 1, 0] - pos[e, 0]
        dy = pos[e + 1, 1] - pos[e, 1]
        dz = pos[e + 1, 2] - pos[e, 2]
        L = math.sqrt(dx * dx + dy * dy + dz * dz)  # seed 004 eq. (2.3)
        inv_L = 1.0 / L
        qx = dx * inv_L
        qy = dy * inv_L
        qz = dz * inv_L
        length[e] = L
        tangent[e, 0] = qx
        tangent[e, 1] = qy
        tangent[e, 2] = qz
        Lu = elem[e, L0]
        inv_Lu = 1.0 / Lu
        strain = (L - Lu) * inv_Lu  # seed 004 eq. (2.10)
        dvx = vel[e + 1, 0] - vel[e, 0]
        dvy = vel[e + 1, 1] - vel[e, 1]
        dvz = vel[e + 1, 2] - vel[e, 2]
        strain_rate = (dvx * qx + dvy * qy + dvz * qz) * inv_Lu  # seed 004 eq. (2.11)
        elastic = scal[EA] * strain
        viscous = scal[DAMPING] * strain_rate
        if flags[COMPRESSION] == 0 and strain <= 0.0:  # bilinear law, seed 004 eq. (2.17)
            elastic = 0.0
            if flags[SLACK_DAMPING] == 0:
                viscous = 0.0
        T = elastic + viscous
        tension[e] = T
        if rho > 0.0:
            # drag at the element centre, half to each node — seed 004 eqs. (2.12), (2.16)
            ux = 0.5 * (vel[e, 0] + vel[e + 1, 0]) - scal[UX]
            uy = 0.5 * (vel[e, 1] + vel[e + 1, 1]) - scal[UY]
            uz = 0.5 * (vel[e, 2] + vel[e + 1, 2]) - scal[UZ]
            element_drag(flags[DRAG_LAW], rho, scal[DIAMETER], L, scal[CD_N], scal[CD_T],
                         qx, qy, qz, ux, uy, uz, tmp)
            for a in range(3):
                force[e, a] += 0.5 * tmp[a]
                force[e + 1, a] += 0.5 * tmp[a]
        force[e, 0] += T * qx
        force[e, 1] += T * qy
        force[e, 2] += T * qz
        force[e + 1, 0] -= T * qx
        force[e + 1, 1] -= T * qy
        force[e + 1, 2] -= T * qz


@inline_kernel
def _payload_load(t, ends, w, scal, vx, vy, vz, out):
    """Applied force (ramped), payload weight and payload drag at free end w [N]."""
    free_end_load(t, ends[w, RAMP], ends[w, FX], ends[w, FY], ends[w, FZ], ends[w, PAYLOAD],
                  ends[w, DRAG_AREA], scal[RHO], scal[GX], scal[GY], scal[GZ], scal[UX],
                  scal[UY], scal[UZ], vx, vy, vz, out)


@inline_kernel
def _mass_matrix(i, n, mass, elem, tangent, M):
    """Nodal 3x3 mass matrix: mass·I plus the added mass of the half elements (eq. 2.15).

    Each element adds rho V (Ca_n (I - q q^T) + Ca_t q q^T) / 2, seed 004 eq. (2.14).
    """
    diag = mass
    m00 = m01 = m02 = m11 = m12 = m22 = 0.0
    for e in range(max(i - 1, 0), min(i + 1, n - 1)):
        an = 0.5 * elem[e, ADDED_N]
        c = 0.5 * elem[e, ADDED_T] - an
        qx = tangent[e, 0]
        qy = tangent[e, 1]
        qz = tangent[e, 2]
        diag += an
        m00 += c * qx * qx
        m01 += c * qx * qy
        m02 += c * qx * qz
        m11 += c * qy * qy
        m12 += c * qy * qz
        m22 += c * qz * qz
    M[0, 0] = diag + m00
    M[1, 1] = diag + m11
    M[2, 2] = diag + m22
    M[0, 1] = M[1, 0] = m01
    M[0, 2] = M[2, 0] = m02
    M[1, 2] = M[2, 1] = m12


@inline_kernel
def _solve3(M, fx, fy, fz, out):
    """Solve M x = f for a symmetric positive definite 3x3 M (Cramer's rule)."""
    a, b, c = M[0, 0], M[0, 1], M[0, 2]
    d, e, f = M[1, 1], M[1, 2], M[2, 2]
    c00 = d * f - e * e
    c01 = e * c - b * f
    c02 = b * e - d * c
    det = a * c00 + b * c01 + c * c02
    c11 = a * f - c * c
    c12 = b * c - a * e
    c22 = a * d - b * b
    inv_det = 1.0 / det
    out[0] = (c00 * fx + c01 * fy + c02 * fz) * inv_det
    out[1] = (c01 * fx + c11 * fy + c12 * fz) * inv_det
    out[2] = (c02 * fx + c12 * fy + c22 * fz) * inv_det


@inline_kernel
def _node_mass(i, n, node, ends):
    """Point mass at node i [kg]: the tether's lumped mass plus a payload at a free end."""
    m = node[i, MASS]
    if i == 0:
        m += ends[0, PAYLOAD]
    if i == n - 1:
        m += ends[1, PAYLOAD]
    return m


@kernel
def _load_state(t, y, n, flags, b0, c0, b1, c1, motion, pos, vel):
    """Node positions/velocities from y into pos/vel; held ends from their motion at t."""
    for i in range(n):
        for a in range(3):
            pos[i, a] = y[3 * i + a]
            vel[i, a] = y[3 * n + 3 * i + a]
    if flags[HELD0]:
        eval_motion(b0, c0, t, motion[0])
        for a in range(3):
            pos[0, a] = motion[0, 0, a]
            vel[0, a] = motion[0, 1, a]
    if flags[HELD1]:
        eval_motion(b1, c1, t, motion[1])
        for a in range(3):
            pos[n - 1, a] = motion[1, 0, a]
            vel[n - 1, a] = motion[1, 1, a]


@kernel
def rhs(t, y, dydt, d):
    """dy/dt for the lumped-mass cable: node velocities and accelerations, seed 004 (2.16)."""
    n = d.n_nodes
    flags, scal, elem, node, ends = d.flags, d.scal, d.elem, d.node, d.ends
    pos, vel, force, tangent, motion, tmp = d.pos, d.vel, d.force, d.tangent, d.motion, d.tmp
    _load_state(t, y, n, flags, d.breaks0, d.coeffs0, d.breaks1, d.coeffs1, motion, pos, vel)
    _tether_forces(n, flags, scal, elem, node, pos, vel, force, tangent, d.length, d.tension,
                   tmp)
    M = motion[2]
    fluid = scal[RHO] > 0.0
    for i in range(n):
        base = 3 * n + 3 * i
        for a in range(3):
            dydt[3 * i + a] = vel[i, a]
        if (i == 0 and flags[HELD0]) or (i == n - 1 and flags[HELD1]):
            w = 0 if i == 0 else 1
            for a in range(3):
                dydt[base + a] = motion[w, 2, a]
            continue
        fx = force[i, 0]
        fy = force[i, 1]
        fz = force[i, 2]
        for w in range(2):
            if i == (0 if w == 0 else n - 1):
                _payload_load(t, ends, w, scal, vel[i, 0], vel[i, 1], vel[i, 2], tmp[3:6])
                fx += tmp[3]
                fy += tmp[4]
                fz += tmp[5]
        m = _node_mass(i, n, node, ends)
        if fluid:
            _mass_matrix(i, n, m, elem, tangent, M)
            _solve3(M, fx, fy, fz, tmp[6:9])
            for a in range(3):
                dydt[base + a] = tmp[6 + a]
        else:
            inv_m = 1.0 / m
            dydt[base] = fx * inv_m
            dydt[base + 1] = fy * inv_m
            dydt[base + 2] = fz * inv_m


@kernel
def enforce(t, y, d):
    """Overwrite held ends in the state with their prescribed position and velocity."""
    n = d.n_nodes
    for w in range(2):
        if d.flags[HELD0 + w]:
            node = 0 if w == 0 else n - 1
            end_motion_at(w, d.breaks0, d.coeffs0, d.breaks1, d.coeffs1, t, d.motion[w])
            for a in range(3):
                y[3 * node + a] = d.motion[w, 0, a]
                y[3 * n + 3 * node + a] = d.motion[w, 1, a]


@kernel
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
        if math.sqrt(L2) / d.elem[e, L0] - 1.0 > ABSURD_STRAIN:
            return e
    return -1


# -- second-order surface (generalized_alpha; models/base.py) ---------------------------
# q = [r_0, …, r_N] (3 per node), so a node couples to its neighbours' coordinates at most
# 5 indices away: band = 5. Held ends' nodes are held coordinates.


@kernel
def _positions_from(y, n, pos, vel):
    """Node positions/velocities straight from y (held coordinates as given)."""
    for i in range(n):
        for a in range(3):
            pos[i, a] = y[3 * i + a]
            vel[i, a] = y[3 * n + 3 * i + a]


@kernel
def force(t, y, F, d):
    """Generalized applied force F [N] on every coordinate: tension, damping, weight and
    buoyancy, drag, and at free ends the applied force and payload weight/drag — seed 004
    eq. (2.16)'s right-hand side, without inertia. Held coordinates are read from y."""
    n = d.n_nodes
    scal, ends, vel, force_, tmp = d.scal, d.ends, d.vel, d.force, d.tmp
    _positions_from(y, n, d.pos, vel)
    _tether_forces(n, d.flags, scal, d.elem, d.node, d.pos, vel, force_, d.tangent, d.length,
                   d.tension, tmp)
    for w in range(2):
        if not d.flags[HELD0 + w]:
            i = 0 if w == 0 else n - 1
            _payload_load(t, ends, w, scal, vel[i, 0], vel[i, 1], vel[i, 2], tmp[3:6])
            for a in range(3):
                force_[i, a] += tmp[3 + a]
    for i in range(n):
        for a in range(3):
            F[3 * i + a] = force_[i, a]


@kernel
def mass(t, y, Mb, d):
    """Mass matrix [kg] in lower band storage Mb[k, j] = M[j + k, j] (band 5): per node the
    point mass (payload included) plus the added mass of its half elements, seed 004
    eqs. (2.14)–(2.15); block diagonal (no coupling between nodes)."""
    n = d.n_nodes
    tangent, M = d.tangent, d.motion[2]
    for k in range(Mb.shape[0]):
        for j in range(Mb.shape[1]):
            Mb[k, j] = 0.0
    fluid = d.scal[RHO] > 0.0
    if fluid:
        for e in range(n - 1):
            dx = y[3 * (e + 1)] - y[3 * e]
            dy = y[3 * (e + 1) + 1] - y[3 * e + 1]
            dz = y[3 * (e + 1) + 2] - y[3 * e + 2]
            inv_L = 1.0 / math.sqrt(dx * dx + dy * dy + dz * dz)
            tangent[e, 0] = dx * inv_L
            tangent[e, 1] = dy * inv_L
            tangent[e, 2] = dz * inv_L
    for i in range(n):
        m = _node_mass(i, n, d.node, d.ends)
        if fluid:
            _mass_matrix(i, n, m, d.elem, tangent, M)
            for a in range(3):
                for b in range(a + 1):
                    Mb[a - b, 3 * i + b] = M[a, b]
        else:
            for a in range(3):
                Mb[0, 3 * i + a] = m


@kernel
def held_acc(t, y, acc, d):
    """Prescribed accelerations [m/s^2] of the held ends' coordinates into acc."""
    n = d.n_nodes
    for w in range(2):
        if d.flags[HELD0 + w]:
            i = 0 if w == 0 else n - 1
            end_motion_at(w, d.breaks0, d.coeffs0, d.breaks1, d.coeffs1, t, d.motion[w])
            for a in range(3):
                acc[3 * i + a] = d.motion[w, 2, a]


@kernel
def diagnostics(times, Y, d, dydt, M, tension, start_force, end_force, kinetic, potential):
    """Element tension, end forces and energies at each output instant (results layer).

    dydt (state size) and M (3x3) are work arrays.
    """
    n = d.n_nodes
    scal, node, ends, elem = d.scal, d.node, d.ends, d.elem
    for j in range(times.size):
        rhs(times[j], Y[j], dydt, d)
        for e in range(n - 1):
            tension[j, e] = d.tension[e]
        # force the tether exerts on each end's holder: its own nodal load minus the
        # inertia of the tether mass lumped there (spec: results-format.md)
        for w in range(2):
            i = 0 if w == 0 else n - 1
            _mass_matrix(i, n, node[i, MASS], elem, d.tangent, M)
            out = start_force if w == 0 else end_force
            for a in range(3):
                ma = 0.0
                for b in range(3):
                    ma += M[a, b] * dydt[3 * n + 3 * i + b]
                out[j, a] = d.force[i, a] - ma
        ke = 0.0
        pe = 0.0
        for i in range(n):
            m = _node_mass(i, n, node, ends)
            _mass_matrix(i, n, m, elem, d.tangent, M)
            for a in range(3):
                for b in range(3):
                    ke += 0.5 * d.vel[i, a] * M[a, b] * d.vel[i, b]
                pe -= (m - scal[RHO] * node[i, VOLUME]) * scal[GX + a] * d.pos[i, a]
        for e in range(n - 1):
            strain = d.length[e] / elem[e, L0] - 1.0
            if d.flags[COMPRESSION] or strain > 0.0:
                pe += 0.5 * scal[EA] * strain * strain * elem[e, L0]
        kinetic[j] = ke
        potential[j] = pe


class LumpedMass(Formulation):
    """Lumped-mass Voigt cable (``model.type: lumped_mass``)."""

    name = "lumped_mass"
    fastest_mode = "axial (stiffest element)"
    rhs = staticmethod(rhs)
    enforce = staticmethod(enforce)
    check = staticmethod(check)
    # second-order surface (generalized_alpha)
    band = 5
    force = staticmethod(force)
    mass = staticmethod(mass)
    held_acc = staticmethod(held_acc)

    def __init__(self, case: Case) -> None:
        super().__init__(case)
        t = case.tether
        N = case.model.elements
        n = N + 1
        self.n_elements = N
        self.n_nodes = n
        self.n_q = 3 * n
        self.held = np.zeros(3 * n, dtype=np.int64)
        self.held[:3] = case.start.type != "free"
        self.held[-3:] = case.end.type != "free"
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
        # a free end gets placeholder arrays (the kernels never read them)
        m0, m1 = (case.end_motion(w) or fixed_point((0.0, 0.0, 0.0)) for w in ("start", "end"))
        env = case.environment
        scal = np.zeros(12)
        scal[[EA, DAMPING, RHO, DIAMETER, CD_N, CD_T]] = (
            t.EA, t.axial_damping, rho, t.diameter, t.cd_normal, t.cd_tangential)
        scal[GX:GZ + 1] = env.gravity
        scal[UX:UZ + 1] = env.current
        flags = np.zeros(5, dtype=np.int64)
        flags[[COMPRESSION, SLACK_DAMPING, DRAG_LAW, HELD0, HELD1]] = (
            t.compression, bool(case.model.option("slack_damping")),
            DRAG_LAW_CODES[case.drag_law], case.start.type != "free", case.end.type != "free")
        end_table = np.zeros((2, 6))
        for w, e in enumerate(ends):
            if e.type == "free":
                end_table[w, [PAYLOAD, RAMP, DRAG_AREA]] = (
                    e.mass, e.force_ramp_time or 0.0, e.drag_area)
                end_table[w, FX:FZ + 1] = e.force
        self.data = LumpedMassData(
            n_nodes=n,
            flags=flags,
            scal=scal,
            # seed 004 eq. (2.14): added mass rho V Ca, normal and tangential
            elem=np.column_stack([L0, rho * t.ca_normal * vol_el, rho * t.ca_tangential * vol_el]),
            node=np.column_stack([node_mass, node_volume]),
            ends=end_table,
            breaks0=m0.breaks, coeffs0=m0.coeffs, breaks1=m1.breaks, coeffs1=m1.coeffs,
            pos=np.zeros((n, 3)), vel=np.zeros((n, 3)), force=np.zeros((n, 3)),
            tangent=np.zeros((N, 3)), length=np.zeros(N), tension=np.zeros(N),
            motion=np.zeros((3, 3, 3)), tmp=np.zeros(9),
        )

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
        diagnostics(times, np.ascontiguousarray(Y), self.data, np.empty(Y.shape[1]),
                    np.empty((3, 3)), tension, f0, f1, ke, pe)
        pos, vel = self.node_states(Y)
        return dict(position=pos, velocity=vel, tension=tension, start_force=f0,
                    end_force=f1, kinetic_energy=ke, potential_energy=pe)

    def end_forces(self, t: float, y: np.ndarray, out: np.ndarray) -> None:
        """Forces [N] on the start (out[0]) and end (out[1]) holders; no allocation after
        the first call (buffers kept on the model)."""
        if not hasattr(self, "_probe"):
            n, N = self.n_nodes, self.n_elements
            self._probe = (np.zeros(1), np.zeros((1, 6 * n)), np.empty(6 * n),
                           np.empty((3, 3)), np.empty((1, N)), np.empty((1, 3)),
                           np.empty((1, 3)), np.empty(1), np.empty(1))
        times, Y, dydt, M, tension, f0, f1, ke, pe = self._probe
        times[0] = t
        Y[0] = y
        diagnostics(times, Y, self.data, dydt, M, tension, f0, f1, ke, pe)
        out[0] = f0[0]
        out[1] = f1[0]

    def element_properties(self) -> dict[str, np.ndarray]:
        """Per element: unstretched length [m], mass [kg], axial stiffness EA/L [N/m] and
        damping C_ID/L [N s/m]; per node: point mass [kg] (payloads included)."""
        d = self.data
        Lu = d.elem[:, L0]
        mass = d.node[:, MASS].copy()
        mass[0] += d.ends[0, PAYLOAD]
        mass[-1] += d.ends[1, PAYLOAD]
        return dict(length=Lu, mass=self.case.tether.linear_mass * Lu, node_mass=mass,
                    stiffness=d.scal[EA] / Lu, damping=d.scal[DAMPING] / Lu)

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
            if (i == 0 and self.data.flags[HELD0]) or (i == n - 1 and self.data.flags[HELD1]):
                continue
            adj = [e for e in (i - 1, i) if 0 <= e < n - 1]
            ks = 2.0 * sum(k[e] for e in adj)
            cs = 2.0 * sum(c[e] for e in adj)
            omega = math.sqrt(ks / m[i])
            dt = rk4_critical_step(omega, cs / (2.0 * m[i] * omega))
            if dt < best[0]:
                best = (dt, max(adj, key=lambda e: k[e]), omega)
        return best
