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

    ((m_p + ρ V C_a) I + Σ_ends M_end) r̈_p = W_p + B_p + D_p + Σ_ends F_end

with M_end the 3x3 mass matrix of the attached end node (its lumped line mass and the added
mass of its half element, nodes.mass_matrix_of), F_end the end node's load from its line
(tension, weight and buoyancy of the half element, drag, seabed contact: the line's own
kernels), and the point's own weight, buoyancy and drag from the free-end payload kernels
(nodes.payload_load; with the sea, nodes.sea_body_load: buoyancy, drag and Froude–Krylov
inertia by the medium it is in).

Data (:data:`SystemData`): every field of the lines' LumpedMassData stacked along its first
axis (``stack``) with per field the row where each line's part starts (``soff``); line k's
whole data is :func:`line_data` (42 views), a few of its fields ``_rows(field, soff, F, k)``
(one view). The line count is no part of any compiled type: one compiled system serves any
number of lines.

Pass order of one evaluation (models/system_bodies.py's ``rhs``: every system, with or
without bodies, runs that one set of kernels), each pass linear in its nodes:

1. ``_sync``: each free point's position and velocity into the node rows of the line ends
   on it;
2. per line, the line's own rhs on its slice of y and its line_data, on the path its model
   chose (lumped_mass flags[LEAN]: the lean kernels in a calm fluid or sea, else
   lumped_mass.rhs): the tether's loads and the rates of its nodes, the ends on free points
   included (as free ends without payload); either path leaves the end nodes' loads and
   the end elements' tangents and added masses that step 3 reads (the results run every
   line through lumped_mass.rhs, which fills all its work arrays);
3. ``_points``: per free point its own loads and mass, plus per attached line end that end
   node's load and 3x3 mass matrix (read from the stacked work arrays the lines' rhs just
   filled: force, tangent, wadd), one 3x3 solve per point, and the point's rates copied
   into the attached end nodes' rates.

After each step (:func:`enforce`) held ends take their motion (nodes.held_motion on a
7-field view of the line; a line with a winch through its own enforce) and the points'
state is copied into their line ends; :func:`remesh` runs the seabed's friction anchors
per line (nodes.sea_anchors; a winch line through lumped_mass.remesh). A new kind of
attachment (a rigid body) adds its state after the points' and a pass like ``_points``
after step 2: the lines' end loads are then complete.
"""

from __future__ import annotations

import math
from collections import namedtuple
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from .._jit import inline_kernel, kernel
from ..sea import BED, SEA_ACTIVE
from ..winch import W_ON
from . import build_model
from .base import Formulation
from .lumped_mass import RUN_FIELDS as LINE_RUN_FIELDS
from .lumped_mass import LumpedMassData, off_bed
from .lumped_mass import check as line_check
from .lumped_mass import instant as line_instant
from .lumped_mass import remesh as line_remesh
from .lumped_mass import rhs as _lumped_rhs
from .nodes import (
    ADDED_N,
    ADDED_T,
    BODY_CA,
    BODY_DRAG,
    BODY_V,
    DRAG_AREA,
    HELD0,
    HELD1,
    MASS,
    N_ENDS,
    PAYLOAD,
    SEA_DATA_FIELDS,
    WEIGHT,
    held_motion,
    mass_matrix_of,
    payload_load,
    sea_anchors,
    sea_body_load,
    solve3,
)
from .nodes import enforce as line_enforce

if TYPE_CHECKING:
    from ..system_case import SystemCase

__all__ = ["LineSystem"]

SystemData = namedtuple(
    "SystemData",
    [
        # every line's LumpedMassData field stacked along its first axis (``stack``, a
        # LineStack) with each field's row offsets per line (``soff`` (fields, L + 1));
        # line k's data is line_data(stack, soff, k): views, no copy. The line count is no
        # part of a compiled type (a tuple of L data would be: its compile time grew from
        # 35 s for 2 lines to 3 min for 6, measured under load). Line k's state is
        # y[off[k]:off[k + 1]]; attach[k, w]: the free point at its start (w = 0) / end
        # (w = 1), -1 where the end is held
        "stack", "soff", "off", "attach",
        # free points: count, payload-style rows (nodes.py's ends columns: PAYLOAD,
        # WEIGHT, DRAG_AREA, BODY_*), the line whose sea arrays they use, the
        # environment's scal (gravity, fluid, current)
        "n_points", "ptab", "pline", "pscal",
        # work: positions, velocities, net loads [N], 3x3 mass matrices [kg], scratch
        "ppos", "pvel", "pforce", "pmass", "ptmp", "pfout",
        # line ends of other formulations (higher_order: models/system_higher.py) on free
        # points and moving bodies: rows (line, 0 start / 1 end, 0 point / 1 body, the
        # point's or body's index, node index), the attachment in body axes [m], and the
        # end node's load [N] and 3x3 mass [kg] their own kernels leave here before the
        # system's rhs runs (no rows in a lumped-mass-only system)
        "xend", "xat", "xf", "xm",
    ],
)
RUN_FIELDS = ("ppos", "pvel", "pforce", "pmass", "ptmp", "pfout", "xf", "xm")
#: xend's columns: kind (XPOINT, XBODY)
XPOINT, XBODY = 0, 1
#: a line's data fields, stacked (n_nodes: one int64 per line)
LineStack = namedtuple("LineStack", LumpedMassData._fields)


@inline_kernel
def line_data(s, o, k):
    """Line k's LumpedMassData: views into the stacked fields (the types of a single
    line's data: its kernels are the single line's compiled code)."""
    return LumpedMassData(
        n_nodes=s.n_nodes[k],
        flags=s.flags[o[1, k]:o[1, k + 1]],
        scal=s.scal[o[2, k]:o[2, k + 1]],
        elem=s.elem[o[3, k]:o[3, k + 1]],
        node=s.node[o[4, k]:o[4, k + 1]],
        ends=s.ends[o[5, k]:o[5, k + 1]],
        breaks0=s.breaks0[o[6, k]:o[6, k + 1]],
        coeffs0=s.coeffs0[o[7, k]:o[7, k + 1]],
        breaks1=s.breaks1[o[8, k]:o[8, k + 1]],
        coeffs1=s.coeffs1[o[9, k]:o[9, k + 1]],
        pos=s.pos[o[10, k]:o[10, k + 1]],
        vel=s.vel[o[11, k]:o[11, k + 1]],
        force=s.force[o[12, k]:o[12, k + 1]],
        tangent=s.tangent[o[13, k]:o[13, k + 1]],
        length=s.length[o[14, k]:o[14, k + 1]],
        tension=s.tension[o[15, k]:o[15, k + 1]],
        motion=s.motion[o[16, k]:o[16, k + 1]],
        tmp=s.tmp[o[17, k]:o[17, k + 1]],
        lu=s.lu[o[18, k]:o[18, k + 1]],
        bfac=s.bfac[o[19, k]:o[19, k + 1]],
        clamp=s.clamp[o[20, k]:o[20, k + 1]],
        r2=s.r2[o[21, k]:o[21, k + 1]],
        r2dot=s.r2dot[o[22, k]:o[22, k + 1]],
        wb=s.wb[o[23, k]:o[23, k + 1]],
        shear=s.shear[o[24, k]:o[24, k + 1]],
        winch=s.winch[o[25, k]:o[25, k + 1]],
        wbreaks=s.wbreaks[o[26, k]:o[26, k + 1]],
        wcoeffs=s.wcoeffs[o[27, k]:o[27, k + 1]],
        held=s.held[o[28, k]:o[28, k + 1]],
        wmotion=s.wmotion[o[29, k]:o[29, k + 1]],
        wstate=s.wstate[o[30, k]:o[30, k + 1]],
        sea_par=s.sea_par[o[31, k]:o[31, k + 1]],
        sea_current=s.sea_current[o[32, k]:o[32, k + 1]],
        sea_wind=s.sea_wind[o[33, k]:o[33, k + 1]],
        sea_waves=s.sea_waves[o[34, k]:o[34, k + 1]],
        sea_grid=s.sea_grid[o[35, k]:o[35, k + 1]],
        sea_bed=s.sea_bed[o[36, k]:o[36, k + 1]],
        sea_bed_axes=s.sea_bed_axes[o[37, k]:o[37, k + 1]],
        sea_anchor=s.sea_anchor[o[38, k]:o[38, k + 1]],
        wadd=s.wadd[o[39, k]:o[39, k + 1]],
        fout=s.fout[o[40, k]:o[40, k + 1]],
        bedf=s.bedf[o[41, k]:o[41, k + 1]],
        gnd=s.gnd[o[42, k]:o[42, k + 1]],
        lean=s.lean[o[43, k]:o[43, k + 1]],
        soa=s.soa[o[44, k]:o[44, k + 1]],
    )


# row of each stacked field's offsets in ``soff`` (module constants: frozen into the kernels)
(_FLAGS, _SCAL, _ELEM, _NODE, _ENDS, _B0, _C0, _B1, _C1, _POS, _VEL, _FORCE, _TANGENT,
 _MOTION, _WINCH, _WADD, _FOUT, _SEA_PAR, _CURRENT, _WIND, _WAVES, _GRID, _BED, _BED_AXES,
 _ANCHOR) = (LumpedMassData._fields.index(f) for f in (
    "flags", "scal", "elem", "node", "ends", "breaks0", "coeffs0", "breaks1", "coeffs1",
    "pos", "vel", "force", "tangent", "motion", "winch", "wadd", "fout", "sea_par",
    "sea_current", "sea_wind", "sea_waves", "sea_grid", "sea_bed", "sea_bed_axes",
    "sea_anchor"))

#: lumped_mass.rhs itself (its source, the one lumped-mass rhs), compiled inline into the
#: system's rhs: the line's 42 views are built in place and only those the rhs reads are
#: kept (a call of the compiled line rhs copies all of them, ~0.3 µs per line and
#: evaluation, measured). Not cached on its own: its cache file would be lumped_mass.rhs's
line_rhs = njit(_nrt=False, inline="always")(_lumped_rhs.py_func)

#: the few fields of a line that nodes.held_motion reads (a duck-typed line view: building
#: it costs 7 slices where the whole LumpedMassData costs 42)
HeldView = namedtuple("HeldView", ["n_nodes", "winch", "flags", "breaks0", "coeffs0",
                                   "breaks1", "coeffs1", "motion"])


@inline_kernel
def _rows(a, o, f, k):
    """Line k's rows of the stacked field a (its offsets o[f])."""
    return a[o[f, k]:o[f, k + 1]]


@inline_kernel
def n_lines(d):
    """The number of lines."""
    return d.off.size - 1


@inline_kernel
def _sync(y, d):
    """Copy each free point's position and velocity into the node rows of the line ends
    attached to it."""
    po = d.off[d.off.size - 1]
    for k in range(n_lines(d)):
        for w in range(2):
            p = d.attach[k, w]
            if p < 0:
                continue
            a = d.off[k]
            ns = d.stack.n_nodes[k]
            i = 0 if w == 0 else ns - 1
            for c in range(3):
                y[a + 3 * i + c] = y[po + 6 * p + c]
                y[a + 3 * ns + 3 * i + c] = y[po + 6 * p + 3 + c]


@inline_kernel
def _points(t, y, dydt, d):
    """The free points' loads, masses and rates (module docstring's equation), and the
    rates of the line ends attached to them. Needs every line's rhs evaluated at y (the
    end nodes' loads and the element tangents and added masses it left in the stacked
    work arrays, read here by row offsets)."""
    L = n_lines(d)
    po = d.off[L]
    s, o = d.stack, d.soff
    sea = s.sea_par[SEA_ACTIVE] != 0.0  # line 0's (one sea for all lines)
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
            k = d.pline[p]
            sea_body_load(t, p, d.ptab[p], d.pscal, _rows(s.sea_par, o, _SEA_PAR, k),
                          _rows(s.sea_current, o, _CURRENT, k), _rows(s.sea_wind, o, _WIND, k),
                          _rows(s.sea_waves, o, _WAVES, k), _rows(s.sea_grid, o, _GRID, k),
                          ppos, pvel, pforce, d.pfout)
    M = d.pmass[d.n_points]  # a spare 3x3
    for k in range(L):
        for w in range(2):
            p = d.attach[k, w]
            if p < 0:
                continue
            n = s.n_nodes[k]
            i = 0 if w == 0 else n - 1
            # the end node's 3x3 mass matrix [kg] (nodes.mass_matrix_of: its lumped mass and
            # the added mass of its element, scaled by the medium with the sea)
            elem = _rows(s.elem, o, _ELEM, k)
            tangent = _rows(s.tangent, o, _TANGENT, k)
            mi = s.node[o[_NODE, k] + i, MASS]
            if sea:
                mass_matrix_of(i, n, mi, elem, _rows(s.wadd, o, _WADD, k), 0, 1, tangent,
                               False, M)
            else:
                mass_matrix_of(i, n, mi, elem, elem, ADDED_N, ADDED_T, tangent, False, M)
            f = o[_FORCE, k] + i
            for c in range(3):
                pforce[p, c] += s.force[f, c]
                for e in range(3):
                    pmass[p, c, e] += M[c, e]
    for x in range(d.xend.shape[0]):  # line ends of other formulations: their own load, mass
        if d.xend[x, 2] != XPOINT:
            continue
        p = d.xend[x, 3]
        for c in range(3):
            pforce[p, c] += d.xf[x, c]
            for e in range(3):
                pmass[p, c, e] += d.xm[x, c, e]
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
            ns = s.n_nodes[k]
            i = 0 if w == 0 else ns - 1
            b = po + 6 * p
            for c in range(3):
                dydt[a + 3 * i + c] = dydt[b + c]
                dydt[a + 3 * ns + 3 * i + c] = dydt[b + 3 + c]


@kernel
def enforce(t, y, d):
    """Every line's held ends from their motion (nodes.enforce: held_motion, and a winch's
    payout through the line's own enforce), then the free points' state into the line
    ends on them."""
    off = d.off
    s, o = d.stack, d.soff
    for k in range(n_lines(d)):
        if s.winch[o[_WINCH, k] + W_ON] != 0.0:
            line_enforce(t, y[off[k]:off[k + 1]], line_data(s, o, k))
            continue
        f = o[_FLAGS, k]
        if s.flags[f + HELD0] == 0 and s.flags[f + HELD1] == 0:
            continue  # no held end: nothing to enforce
        view = HeldView(s.n_nodes[k], _rows(s.winch, o, _WINCH, k), _rows(s.flags, o, _FLAGS, k),
                        _rows(s.breaks0, o, _B0, k), _rows(s.coeffs0, o, _C0, k),
                        _rows(s.breaks1, o, _B1, k), _rows(s.coeffs1, o, _C1, k),
                        _rows(s.motion, o, _MOTION, k))
        yk = y[off[k]:off[k + 1]]
        held_motion(t, yk, view, 0, 1, yk)
    _sync(y, d)


@kernel
def check(t, y, d):
    """The first element (numbered through the lines in order) with non-finite or absurd
    strain, or -1 when every line is sound; a non-finite point state gives the element
    count."""
    off = d.off
    first = 0
    for k in range(n_lines(d)):
        e = line_check(t, y[off[k]:off[k + 1]], line_data(d.stack, d.soff, k))
        if e >= 0:
            return first + e
        first += d.stack.n_nodes[k] - 1
    for i in range(off[off.size - 1], y.size):
        if not math.isfinite(y[i]):
            return first
    return -1


@kernel
def remesh(t, y, d):
    """Every line's remesh (lumped_mass.remesh: the seabed's friction anchors,
    nodes.sea_anchors, and a winch's split or merge); 1 when a line's layout changed."""
    off = d.off
    s, o = d.stack, d.soff
    changed = 0
    bed = s.sea_par[BED] != 0.0  # line 0's (one seabed for all lines)
    for k in range(n_lines(d)):
        if s.winch[o[_WINCH, k] + W_ON] != 0.0:
            changed |= line_remesh(t, y[off[k]:off[k + 1]], line_data(s, o, k))
        elif bed:  # lumped_mass.remesh without a winch
            ns = s.n_nodes[k]
            yk = y[off[k]:off[k + 1]]
            if off_bed(yk, ns, _rows(s.flags, o, _FLAGS, k), _rows(s.sea_par, o, _SEA_PAR, k),
                       _rows(s.sea_bed, o, _BED, k), _rows(s.sea_bed_axes, o, _BED_AXES, k),
                       _rows(s.sea_anchor, o, _ANCHOR, k), _rows(s.fout, o, _FOUT, k)):
                continue
            sea_anchors(y[off[k]:off[k + 1]], ns, ns, _rows(s.flags, o, _FLAGS, k),
                        _rows(s.scal, o, _SCAL, k), _rows(s.elem, o, _ELEM, k),
                        _rows(s.sea_par, o, _SEA_PAR, k), _rows(s.sea_bed, o, _BED, k),
                        _rows(s.sea_bed_axes, o, _BED_AXES, k),
                        _rows(s.sea_anchor, o, _ANCHOR, k), _rows(s.pos, o, _POS, k),
                        _rows(s.vel, o, _VEL, k), _rows(s.fout, o, _FOUT, k))
    return changed


@inline_kernel
def _line_instants(j, t, y, dydt, d, replay, M, node_off, tension, start_force, end_force,
                   kinetic, potential, curvature, shear, eta, grounded, bed_force, winch_out):
    """Output instant j's results of every line (lumped_mass.instant) after the system's
    rhs at y (diagnostics' layout)."""
    off = d.off
    for k in range(n_lines(d)):
        a = off[k]
        b = off[k + 1]
        n0 = node_off[k]
        n1 = node_off[k + 1]
        ke, pe = line_instant(j, t, y[a:b], dydt[a:b], line_data(d.stack, d.soff, k),
                              replay, M, tension[:, n0 - k:n1 - k - 1],
                              start_force[:, k], end_force[:, k], curvature[:, n0:n1],
                              shear[:, n0 - k:n1 - k - 1], eta[:, n0:n1],
                              grounded[:, n0:n1], bed_force[:, n0:n1], winch_out[:, k])
        kinetic[j, k] = ke
        potential[j, k] = pe


def _template_data(case: SystemCase) -> tuple:
    """A lumped-mass line's data (the system case's template line, SystemCase.template_line):
    the field types of a system's stack when it has no lumped-mass line (its rows are sea
    carriers alone)."""
    return build_model(case.template_line()).data


def _sea_carrier(template: tuple, other: tuple) -> tuple:
    """A LumpedMassData row of the stack for a line of another formulation: its sea arrays
    (``other``'s, nodes.SEA_DATA_FIELDS: the same layout in every formulation), every other
    field empty (no rows; one node count of 0). Only the points' and bodies' passes read
    it (the sea at a point or body); no line pass runs on it."""
    return LumpedMassData(**{
        f: (0 if f == "n_nodes" else getattr(other, f) if f in SEA_DATA_FIELDS
            else getattr(template, f)[:0]) for f in LumpedMassData._fields})


def _stack(datas: list) -> tuple:
    """(LineStack, offsets): every field of the lines' data concatenated along its first
    axis (read-only where the line's is a constant), and per field the row where each
    line's part starts (the last column: the total)."""
    fields = LumpedMassData._fields
    soff = np.zeros((len(fields), len(datas) + 1), dtype=np.int64)
    arrays = {}
    for i, f in enumerate(fields):
        vals = [getattr(d, f) for d in datas]
        if f == "n_nodes":
            arrays[f] = np.array(vals, dtype=np.int64)
            continue
        if len({v.shape[1:] for v in vals}) > 1:
            raise ValueError(f"lines: the lines' {f} arrays differ beyond their first axis "
                             f"({[v.shape for v in vals]}); they cannot share a system")
        soff[i, 1:] = np.cumsum([v.shape[0] for v in vals])
        arrays[f] = np.ascontiguousarray(np.concatenate(vals, axis=0))
        if f not in LINE_RUN_FIELDS:
            arrays[f].flags.writeable = False
    return LineStack(**arrays), soff


class LineSystem(Formulation):
    """Lumped-mass lines joined at fixed, coupled and free points (module docstring): the
    lines' and points' part of the system model; models.system_model.build_system builds
    its subclass models.system_bodies.BodySystem, whose compiled kernels serve every system.

    ``line_models``: line name -> its LumpedMass; ``free_points``: the free points' names
    in state order; ``case``: the :class:`~tetherdyn.system_case.SystemCase`.
    """

    name = "system"
    check = staticmethod(check)
    remesh = staticmethod(remesh)
    run_fields = RUN_FIELDS

    def __init__(self, case: SystemCase) -> None:
        super().__init__(case)
        self.line_models = {k: build_model(c) for k, c in case.lines.items()}
        #: the lumped-mass lines (stacked, stepped by this module's kernels) and the others
        #: (higher_order: models/system_higher.py), each in the order of ``lines``
        self.lumped = [k for k, m in self.line_models.items() if m.name == "lumped_mass"]
        self.others = [k for k in self.line_models if k not in self.lumped]
        names = self.lumped
        self.free_points = [p for p, s in case.points.items() if s.type == "free"]
        index = {p: i for i, p in enumerate(self.free_points)}
        sizes = [6 * self.line_models[k].data.n_nodes for k in names]
        off = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        attach = np.full((len(names), 2), -1, dtype=np.int64)
        for k, name in enumerate(names):
            for w, p in enumerate(case.line_points[name]):
                attach[k, w] = index.get(p, -1)
        P = len(self.free_points)
        rho = case.environment.fluid_density
        first = next(iter(self.line_models.values()))
        sea = first.data.sea_par[SEA_ACTIVE] != 0.0
        # the stack's rows: the lumped lines, then per other line a carrier of its sea
        # arrays (a point or body reads the sea of the first line on it; never stepped)
        rows = names + self.others
        ptab = np.zeros((max(P, 1), N_ENDS))
        pline = np.zeros(max(P, 1), dtype=np.int64)
        for i, p in enumerate(self.free_points):
            self._point_row(case.points[p], rho, sea, ptab[i])
            on = case.attached(p)
            pline[i] = rows.index(on[0][0]) if on else 0
        for m in self.line_models.values():
            m.freeze()
        self.n_elements = int(sum(m.n_elements for m in self.line_models.values()))
        self.n_nodes = int(sum(m.n_nodes for m in self.line_models.values()))
        self.arc_length = np.zeros(0)
        self.n_state = int(off[-1]) + 6 * P
        datas = [self.line_models[k].data for k in names]
        template = datas[0] if datas else _template_data(case)
        datas += [_sea_carrier(template, self.line_models[k].data) for k in self.others]
        stack, soff = _stack(datas)
        self._stack_pristine = {f: getattr(stack, f).copy() for f in LINE_RUN_FIELDS}
        self.data = SystemData(
            stack=stack, soff=soff,
            off=off, attach=attach, n_points=P, ptab=ptab, pline=pline,
            pscal=first.data.scal.copy(),
            ppos=np.zeros((max(P, 1), 3)), pvel=np.zeros((max(P, 1), 3)),
            pforce=np.zeros((max(P, 1), 3)), pmass=np.zeros((P + 1, 3, 3)),
            ptmp=np.zeros(9), pfout=np.zeros_like(first.data.fout),
            xend=np.zeros((0, 5), dtype=np.int64), xat=np.zeros((0, 3)),
            xf=np.zeros((0, 3)), xm=np.zeros((0, 3, 3)),
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
        fresh = {f: v.copy() for f, v in self._stack_pristine.items()}
        return d._replace(stack=d.stack._replace(**fresh))

    def run_arrays(self, data: tuple) -> dict[str, np.ndarray]:
        """The run fields and the stacked lines' own (``data.stack.<field>``: work arrays,
        the step API's end motions, seabed anchors)."""
        return {**super().run_arrays(data),
                **{f"data.stack.{f}": getattr(data.stack, f) for f in LINE_RUN_FIELDS}}

    # -- the formulation surface -------------------------------------------------------
    def line_slices(self) -> dict[str, slice]:
        """Each line's slice of the state vector."""
        off = self.data.off
        return {k: slice(int(off[i]), int(off[i + 1])) for i, k in enumerate(self.lumped)}

    def point_slice(self, point: str) -> slice:
        """A free point's slice of the state vector: position (3) then velocity (3)."""
        b = int(self.data.off[-1]) + 6 * self.free_points.index(point)
        return slice(b, b + 6)

    def initial_state(self) -> np.ndarray:
        """Every line laid straight between its points at rest (system_case.py), then the
        free points at their positions, at rest."""
        parts = [self.line_models[k].initial_state() for k in self.lumped]
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

    def point_motions(self, data: tuple, point: str) -> list[tuple[np.ndarray, np.ndarray]]:
        """The (breaks [s], coeffs) a coupled point's line ends follow in the run ``data``
        (boundary.py's layout; views into the stacked breaks0/coeffs0, breaks1/coeffs1:
        the step API rewrites them in place, system_cosim.py), one pair per line end."""
        s, o = data.stack, data.soff
        out = []
        for k, name in enumerate(self.line_models):
            for w, p in enumerate(self.case.line_points[name]):
                if p == point:
                    b, c = (s.breaks0, s.coeffs0) if w == 0 else (s.breaks1, s.coeffs1)
                    fb, fc = (_B0, _C0) if w == 0 else (_B1, _C1)
                    out.append((b[o[fb, k]:o[fb, k + 1]], c[o[fc, k]:o[fc, k + 1]]))
        return out

    def end_forces(self, t: float, y: np.ndarray, out: np.ndarray,
                   data: tuple | None = None) -> None:
        """Forces [N] every line exerts on its start (out[k, 0]) and end (out[k, 1])
        holders at state y, time t (the results' start_force / end_force, line k in the
        order of ``lines``) with a run's ``data`` (None: the model's own); no allocation
        after the first call (scratch kept on the model; the step API's, system_cosim.py).
        Leaves the run's work arrays at (t, y) (the bodies' states in ``bstate``) and the
        element tensions in ``self._probe[5]`` (line_outputs' stacked layout, columns
        node_off[k] - k to node_off[k + 1] - k - 1 for line k, node_off = ``self._probe[4]``)."""
        if getattr(self, "_probe", None) is None:
            node_off, arrays = stacked_line_arrays(
                1, [self.line_models[k].n_nodes for k in self.lumped])
            self._probe = (np.zeros(1), np.zeros((1, self.n_state)), np.empty(self.n_state),
                           np.empty((3, 3)), node_off, *arrays)
        p = self._probe
        p[0][0] = t
        p[1][0] = y
        # the run's own friction anchors, not replayed (not changed): nodes.end_forces' rule
        self.diagnostics(p[0], p[1], self.data if data is None else data, False, *p[2:])
        out[:, 0] = p[6][0]
        out[:, 1] = p[7][0]

    def last_tensions(self, line: str) -> np.ndarray:
        """Line ``line``'s element tensions [N] at the last :meth:`end_forces` (a view of
        its scratch, overwritten by the next call)."""
        k = self.lumped.index(line)
        node_off = self._probe[4]
        return self._probe[5][0, node_off[k] - k:node_off[k + 1] - k - 1]

    def line_outputs(self, times: np.ndarray, Y: np.ndarray, data: tuple | None = None
                     ) -> dict[str, dict]:
        """Each line's results variables (LumpedMass.outputs' dict) at states Y, with the
        line ends on free points moving with their points (their start_force / end_force
        are then the force the line exerts on the point)."""
        d = self.data if data is None else data
        models = [self.line_models[k] for k in self.lumped]
        if not models:
            return {}
        replay = bool(models[0].data.sea_par[BED] != 0.0)  # one seabed for all lines
        if replay:  # NodeRows._replay_data: fresh friction anchors, replayed per instant
            d = d._replace(stack=d.stack._replace(sea_anchor=np.zeros_like(
                d.stack.sea_anchor)))
        node_off, arrays = stacked_line_arrays(times.size, [m.n_nodes for m in models])
        Yc = np.array(Y, dtype=float, order="C")
        self.diagnostics(times, Yc, d, replay, np.empty(Yc.shape[1]), np.empty((3, 3)), node_off,
                    *arrays)
        return {name: self.line_models[name].outputs_from(
                    Yc[:, s], line_arrays(arrays, node_off, i))
                for i, (name, s) in enumerate(self.line_slices().items())}


def stacked_line_arrays(k: int, n_nodes: list[int]) -> tuple[np.ndarray, tuple]:
    """The output arrays ``_line_instants`` fills for k instants of lumped-mass lines of
    ``n_nodes`` nodes each, stacked (line i's nodes: columns node_off[i]:node_off[i + 1],
    its elements the same less i; per-line values: column i): node_off and (tension,
    start_force, end_force, kinetic, potential, curvature, shear, eta, grounded,
    bed_force, winch_out)."""
    n = np.asarray(n_nodes, dtype=np.int64)
    L = n.size
    node_off = np.concatenate([[0], np.cumsum(n)]).astype(np.int64)
    tot, tot_e = int(n.sum()), int(n.sum()) - L
    return node_off, (np.zeros((k, tot_e)), np.empty((k, L, 3)), np.empty((k, L, 3)),
                      np.empty((k, L)), np.empty((k, L)), np.zeros((k, tot)),
                      np.zeros((k, tot_e)), np.zeros((k, tot)), np.zeros((k, tot)),
                      np.zeros((k, tot, 3)), np.zeros((k, L, 6)))


def line_arrays(arrays: tuple, node_off: np.ndarray, i: int) -> list[np.ndarray]:
    """Line i's own contiguous copies of :func:`stacked_line_arrays`' arrays, in the order
    LumpedMass.outputs_from takes them."""
    tension, f0, f1, ke, pe, curv, shear, eta, grounded, bed_force, wout = arrays
    nodes = slice(node_off[i], node_off[i + 1])
    elems = slice(node_off[i] - i, node_off[i + 1] - i - 1)
    return [np.ascontiguousarray(a) for a in (
        tension[:, elems], f0[:, i], f1[:, i], ke[:, i], pe[:, i], curv[:, nodes],
        shear[:, elems], eta[:, nodes], grounded[:, nodes], bed_force[:, nodes], wout[:, i])]
