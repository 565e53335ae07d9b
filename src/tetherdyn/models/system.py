"""Several lumped-mass lines joined at points, in one state vector (issue 19; docs/systems.md).

A system's lines are ordinary :class:`~tetherdyn.models.lumped_mass.LumpedMass` models, one
per line, built from the single-line cases of system_case.py; their compiled kernels (rhs,
enforce, check, remesh, the results' ``instant``) are called per line here, unchanged. The
free points are point bodies integrated with the lines:

``y = [line 0's state, …, line L−1's state, r_p0, ṙ_p0, r_p1, ṙ_p1, …]``

(each line's state is its own ``[r_0 … r_N, ṙ_0 … ṙ_N]``, 6(N+1)). A line end on a fixed or
coupled point is a held end of the line (fixed / prescribed). A line end on a free point is
a free end of the line without payload whose node rows duplicate the point's state: the
system copies the point's position and velocity into them before every evaluation, and its
rates are the point's. The point's equation is MoorDyn's (Hall, MoorDyn v2 Point):

    (m_p + ρ V C_a) I + Σ_ends M_end) r̈_p = W_p + B_p + D_p + Σ_ends F_end

with M_end the 3x3 mass matrix of the attached end node (its lumped line mass and the added
mass of its half element, nodes.mass_matrix_of), F_end the end node's load from its line
(tension, weight and buoyancy of the half element, drag, seabed contact: the line's own
kernels), and the point's own weight, buoyancy and drag from the free-end payload kernels
(nodes.payload_load; with the sea, nodes.sea_body_load: buoyancy, drag and Froude–Krylov
inertia by the medium it is in). Cost: one pass over every line's nodes, then a 3x3 solve
per point: linear in the total number of nodes; no allocation per call.
"""

from __future__ import annotations

import math
from collections import namedtuple
from typing import TYPE_CHECKING

import numpy as np

from .._jit import inline_kernel, kernel
from ..sea import SEA_ACTIVE
from . import build_model
from .base import Formulation
from .lumped_mass import check as line_check
from .lumped_mass import instant as line_instant
from .lumped_mass import remesh as line_remesh
from .lumped_mass import rhs as line_rhs
from .nodes import (
    ADDED_N,
    ADDED_T,
    BODY_CA,
    BODY_DRAG,
    BODY_V,
    DRAG_AREA,
    MASS,
    N_ENDS,
    PAYLOAD,
    WEIGHT,
    mass_matrix_of,
    payload_load,
    sea_body_load,
    solve3,
)
from .nodes import enforce as line_enforce

if TYPE_CHECKING:
    from ..system_case import SystemCase

__all__ = ["LineSystem", "build_system"]

SystemData = namedtuple(
    "SystemData",
    [
        # one LumpedMassData per line (a homogeneous tuple); line k's state is
        # y[off[k]:off[k + 1]]; attach[k, w]: the free point at its start (w = 0) / end
        # (w = 1), -1 where the end is held or on no free point
        "lines", "off", "attach",
        # free points: count, their state's offset in y (after the lines'), payload-style
        # rows (nodes.py's ends columns: PAYLOAD, WEIGHT, DRAG_AREA, BODY_*), the line
        # whose sea arrays they use, the environment's scal (gravity, fluid, current)
        "n_points", "ptab", "pline", "pscal",
        # work: positions, velocities, net loads [N], 3x3 mass matrices [kg], scratch
        "ppos", "pvel", "pforce", "pmass", "ptmp", "pfout",
    ],
)
RUN_FIELDS = ("ppos", "pvel", "pforce", "pmass", "ptmp", "pfout")


@inline_kernel
def _sync(y, d):
    """Copy each free point's position and velocity into the node rows of the line ends
    attached to it."""
    lines = d.lines
    po = d.off[d.off.size - 1]
    for k in range(d.off.size - 1):
        for w in range(2):
            p = d.attach[k, w]
            if p < 0:
                continue
            a = d.off[k]
            ns = lines[k].n_nodes
            i = 0 if w == 0 else ns - 1
            for c in range(3):
                y[a + 3 * i + c] = y[po + 6 * p + c]
                y[a + 3 * ns + 3 * i + c] = y[po + 6 * p + 3 + c]


@inline_kernel
def _end_mass(ld, i, sea, M):
    """The 3x3 mass matrix [kg] of line data ld's end node i (nodes.mass_matrix_of: its
    lumped mass and the added mass of its element, scaled by the medium with the sea)."""
    n = ld.n_nodes
    if sea:
        mass_matrix_of(i, n, ld.node[i, MASS], ld.elem, ld.wadd, 0, 1, ld.tangent, False, M)
    else:
        mass_matrix_of(i, n, ld.node[i, MASS], ld.elem, ld.elem, ADDED_N, ADDED_T,
                       ld.tangent, False, M)


@inline_kernel
def _points(t, y, dydt, d):
    """The free points' loads, masses and rates (module docstring's equation), and the
    rates of the line ends attached to them. Needs every line's rhs evaluated at y."""
    lines = d.lines
    L = d.off.size - 1
    po = d.off[L]
    sea = lines[0].sea_par[SEA_ACTIVE] != 0.0
    ppos, pvel, pforce, pmass, tmp = d.ppos, d.pvel, d.pforce, d.pmass, d.ptmp
    for p in range(d.n_points):
        b = po + 6 * p
        for c in range(3):
            ppos[p, c] = y[b + c]
            pvel[p, c] = y[b + 3 + c]
        # the point's own weight (less buoyancy without the sea) and drag (MoorDyn's CdA)
        payload_load(t, d.ptab, p, d.pscal, pvel[p, 0], pvel[p, 1], pvel[p, 2], tmp)
        m = d.ptab[p, PAYLOAD]  # mass + ca rho V
        for c in range(3):
            pforce[p, c] = tmp[c]
            for e in range(3):
                pmass[p, c, e] = m if c == e else 0.0
        if sea:
            ld = lines[d.pline[p]]
            sea_body_load(t, p, d.ptab[p], d.pscal, ld.sea_par, ld.sea_current, ld.sea_wind,
                          ld.sea_waves, ld.sea_grid, ppos, pvel, pforce, d.pfout)
    M = d.pmass[d.n_points]  # a spare 3x3
    for k in range(L):
        for w in range(2):
            p = d.attach[k, w]
            if p < 0:
                continue
            ld = lines[k]
            i = 0 if w == 0 else ld.n_nodes - 1
            _end_mass(ld, i, sea, M)
            for c in range(3):
                pforce[p, c] += ld.force[i, c]
                for e in range(3):
                    pmass[p, c, e] += M[c, e]
    for p in range(d.n_points):
        b = po + 6 * p
        solve3(pmass[p], pforce[p, 0], pforce[p, 1], pforce[p, 2], tmp)
        for c in range(3):
            dydt[b + c] = pvel[p, c]
            dydt[b + 3 + c] = tmp[c]
    for k in range(L):
        for w in range(2):
            p = d.attach[k, w]
            if p < 0:
                continue
            a = d.off[k]
            ns = lines[k].n_nodes
            i = 0 if w == 0 else ns - 1
            b = po + 6 * p
            for c in range(3):
                dydt[a + 3 * i + c] = dydt[b + c]
                dydt[a + 3 * ns + 3 * i + c] = dydt[b + 3 + c]


@kernel
def rhs(t, y, dydt, d):
    """dy/dt of the system: every line's own rhs on its slice of y, then the free points
    and the line ends on them (module docstring)."""
    _sync(y, d)
    lines = d.lines
    off = d.off
    for k in range(off.size - 1):
        line_rhs(t, y[off[k]:off[k + 1]], dydt[off[k]:off[k + 1]], lines[k])
    _points(t, y, dydt, d)


@kernel
def enforce(t, y, d):
    """Every line's held ends from their motion, then the free points' state into the line
    ends on them."""
    lines = d.lines
    off = d.off
    for k in range(off.size - 1):
        line_enforce(t, y[off[k]:off[k + 1]], lines[k])
    _sync(y, d)


@kernel
def check(t, y, d):
    """The first element (numbered through the lines in order) with non-finite or absurd
    strain, or -1 when every line is sound; a non-finite point state gives the element
    count."""
    lines = d.lines
    off = d.off
    first = 0
    for k in range(off.size - 1):
        e = line_check(t, y[off[k]:off[k + 1]], lines[k])
        if e >= 0:
            return first + e
        first += lines[k].n_nodes - 1
    for i in range(off[off.size - 1], y.size):
        if not math.isfinite(y[i]):
            return first
    return -1


@kernel
def remesh(t, y, d):
    """Every line's remesh (the seabed's friction anchors); 1 when a line's layout
    changed."""
    lines = d.lines
    off = d.off
    changed = 0
    for k in range(off.size - 1):
        changed |= line_remesh(t, y[off[k]:off[k + 1]], lines[k])
    return changed


@kernel
def diagnostics(times, Y, d, replay, dydt, M, res):
    """Per output instant: the system's rhs (so that the line ends on free points move
    with their points), then every line's results (lumped_mass.instant) into res[k]
    (lumped_mass.diagnostics' arrays: tension, start and end force, kinetic and potential
    energy, curvature, shear, surface elevation, grounded, seabed force, winch record)."""
    lines = d.lines
    off = d.off
    for j in range(times.size):
        y = Y[j]
        rhs(times[j], y, dydt, d)
        for k in range(off.size - 1):
            r = res[k]
            a = off[k]
            b = off[k + 1]
            ke, pe = line_instant(j, times[j], y[a:b], dydt[a:b], lines[k], replay, M, r[0],
                                  r[1], r[2], r[5], r[6], r[7], r[8], r[9], r[10])
            r[3][j] = ke
            r[4][j] = pe


class LineSystem(Formulation):
    """Lumped-mass lines joined at fixed, coupled and free points (module docstring).

    ``line_models``: line name -> its LumpedMass; ``free_points``: the free points' names
    in state order; ``case``: the :class:`~tetherdyn.system_case.SystemCase`.
    """

    name = "system"
    rhs = staticmethod(rhs)
    enforce = staticmethod(enforce)
    check = staticmethod(check)
    remesh = staticmethod(remesh)
    run_fields = RUN_FIELDS

    def __init__(self, case: SystemCase) -> None:
        super().__init__(case)
        self.line_models = {k: build_model(c) for k, c in case.lines.items()}
        names = list(self.line_models)
        self.free_points = [p for p, s in case.points.items() if s.type == "free"]
        index = {p: i for i, p in enumerate(self.free_points)}
        sizes = [6 * m.data.n_nodes for m in self.line_models.values()]
        off = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        attach = np.full((len(names), 2), -1, dtype=np.int64)
        for k, name in enumerate(names):
            for w, p in enumerate(case.line_points[name]):
                attach[k, w] = index.get(p, -1)
        P = len(self.free_points)
        rho = case.environment.fluid_density
        first = next(iter(self.line_models.values()))
        sea = first.data.sea_par[SEA_ACTIVE] != 0.0
        ptab = np.zeros((max(P, 1), N_ENDS))
        pline = np.zeros(max(P, 1), dtype=np.int64)
        for i, p in enumerate(self.free_points):
            self._point_row(case.points[p], rho, sea, ptab[i])
            on = case.attached(p)
            pline[i] = names.index(on[0][0]) if on else 0
        for m in self.line_models.values():
            m.freeze()
        self.n_elements = int(sum(m.n_elements for m in self.line_models.values()))
        self.n_nodes = int(sum(m.n_nodes for m in self.line_models.values()))
        self.arc_length = np.zeros(0)
        self.n_state = int(off[-1]) + 6 * P
        self.data = SystemData(
            lines=tuple(m.data for m in self.line_models.values()),
            off=off, attach=attach, n_points=P, ptab=ptab, pline=pline,
            pscal=first.data.scal.copy(),
            ppos=np.zeros((max(P, 1), 3)), pvel=np.zeros((max(P, 1), 3)),
            pforce=np.zeros((max(P, 1), 3)), pmass=np.zeros((P + 1, 3, 3)),
            ptmp=np.zeros(9), pfout=np.zeros_like(first.data.fout),
        )

    @staticmethod
    def _point_row(p, rho: float, sea: bool, row: np.ndarray) -> None:
        """A free point's payload-style row (nodes.py's ends columns): inertial mass m +
        ca ρV, weight mass m − ρV and drag area; with the sea the body columns instead
        (nodes.sea_body_load: buoyancy, drag and fluid inertia by the medium)."""
        rv = rho * p.volume  # as case.End.body_masses and nodes.free_end_row
        row[[PAYLOAD, WEIGHT, DRAG_AREA]] = (p.mass + p.ca * rv, p.mass - rv, p.drag_area)
        if sea:  # as NodeRows._sea_arrays does for a free end's body
            row[[WEIGHT, DRAG_AREA]] = (p.mass, 0.0)
            row[[BODY_V, BODY_DRAG, BODY_CA]] = (p.volume, p.drag_area, p.ca)

    # -- model and data ---------------------------------------------------------------
    def make_data(self) -> tuple:
        """A fresh data tuple for one run: each line's own fresh data, fresh point work
        arrays, the constants shared."""
        d = super().make_data()
        return d._replace(lines=tuple(m.make_data() for m in self.line_models.values()))

    # -- the formulation surface -------------------------------------------------------
    def line_slices(self) -> dict[str, slice]:
        """Each line's slice of the state vector."""
        off = self.data.off
        return {k: slice(int(off[i]), int(off[i + 1]))
                for i, k in enumerate(self.line_models)}

    def point_slice(self, point: str) -> slice:
        """A free point's slice of the state vector: position (3) then velocity (3)."""
        b = int(self.data.off[-1]) + 6 * self.free_points.index(point)
        return slice(b, b + 6)

    def initial_state(self) -> np.ndarray:
        """Every line laid straight between its points at rest (system_case.py), then the
        free points at their positions, at rest."""
        parts = [m.initial_state() for m in self.line_models.values()]
        for p in self.free_points:
            parts.append(np.concatenate([self.case.point_positions[p], np.zeros(3)]))
        y = np.concatenate(parts)
        self.enforce(0.0, y, self.data)
        return y

    def critical_time_step(self) -> tuple[float, int, float]:
        """The smallest of the lines' RK4 step limits (a point's mass only slows its end
        nodes), with its element numbered through the lines in order."""
        best = (np.inf, 0, 0.0)
        first = 0
        for m in self.line_models.values():
            dt, e, w = m.critical_time_step()
            if dt < best[0]:
                best = (dt, first + e, w)
            first += m.n_elements
        return best

    def line_outputs(self, times: np.ndarray, Y: np.ndarray, data: tuple | None = None
                     ) -> dict[str, dict]:
        """Each line's results variables (LumpedMass.outputs' dict) at states Y, with the
        line ends on free points moving with their points (their start_force / end_force
        are then the force the line exerts on the point)."""
        d = self.data if data is None else data
        models = list(self.line_models.values())
        replay = False
        lines = []
        for m, ld in zip(models, d.lines, strict=True):
            ldr, rep = m._replay_data(ld)
            lines.append(ldr)
            replay |= rep
        d = d._replace(lines=tuple(lines))
        res = tuple(tuple(m._result_arrays(times.size, 0.0)) for m in models)
        Yc = np.array(Y, dtype=float, order="C")
        diagnostics(times, Yc, d, replay, np.empty(Yc.shape[1]), np.empty((3, 3)), res)
        out = {}
        for (name, m), s, r in zip(self.line_models.items(), self.line_slices().values(), res,
                                   strict=True):
            out[name] = m.outputs_from(Yc[:, s], list(r))
        return out


def build_system(case: SystemCase) -> LineSystem:
    """The system model of a validated system case, frozen (models/base.py)."""
    model = LineSystem(case)
    model.freeze()
    return model
