"""Rigid bodies in a system of lines and points (issue 19; docs/systems.md, docs/bodies.md).

:class:`BodySystem` is a :class:`~tetherdyn.models.system.LineSystem` with 6-DOF bodies
(rigid_body.py's physics, unchanged). The state vector is the line system's, then each
free body's 13 states (rigid_body.py's layout):

``y = [lines …, free points …, body f0 (13), body f1 (13), …]``

A line end on a body sits at a point fixed in the body (``at``, body axes):

- on a **fixed** body it is the line's own ``fixed`` end (system_case.py puts it there);
- on a **coupled** body (6-DOF trajectory) or a **free** body it is a free end of the line
  without payload whose node rows are the attachment point's position and velocity
  (rigid_body.attachment_kinematics), copied in before every evaluation; its rates are the
  point's velocity and acceleration a_O + α × r + ω × (ω × r).

A free body carries the end nodes on it **lumped onto the body** (as MoorDyn's Body sums
its attached points' forces and masses, Body::doRHS / Point::getNetForceAndMass): the end
node is rigidly attached, so its mass matrix M_end (lumped line mass and the added mass of
its half element, nodes.mass_matrix_of) moves with the body. Its share of the body's 6x6
mass matrix about the reference point, body axes, acting on [Rᵀ a_O, ω̇], is

    [[M_b, −M_b [r]×], [[r]× M_b, −[r]× M_b [r]×]],   M_b = Rᵀ M_end R,

and its load on the body is its line's nodal load F_end (tension, weight, buoyancy,
drag, seabed) less M_end ω × (ω × R r) (the node's centripetal acceleration), at the
attachment point (rigid_body.add_attachment_load). The body's own loads (weight,
buoyancy, hydrostatics, drag, fluid inertia) are rigid_body's, with the sea of the
system's environment (line 0's sea arrays). rigid_body.body_derivative_with solves the
6x6 system with the extra mass; MoorDyn leaves the centripetal term out (it is needed for
the energy to hold: tests). Cost: one pass over the attachments and a 6x6 Cholesky solve
per free body, on top of the line system's: linear in the total nodes; no allocation.
"""

from __future__ import annotations

import math
from collections import namedtuple
from typing import TYPE_CHECKING

import numpy as np

from .._jit import inline_kernel, kernel
from ..boundary import eval_motion
from ..rigid_body import (
    N_PROPS,
    WORK_SIZE,
    _cross,
    _rot,
    add_attachment_load,
    attachment_kinematics,
    body_derivative_with,
    body_props,
    coupled_state,
    lever_and_spin,
    normalize_quaternion,
)
from ..sea import SEA_ACTIVE
from .lumped_mass import (
    GENERAL,
    LEAN,
    LEAN_FLUID,
    LEAN_SEA,
    LumpedMassData,
    _lean_fluid,
    _lean_vacuum,
)
from .nodes import (
    ADDED_N,
    ADDED_T,
    COMPRESSION,
    DAMPING,
    DRAG_LAW,
    EA,
    GX,
    HELD0,
    HELD1,
    MASS,
    SLACK_DAMPING,
    mass_matrix_of,
)
from .system import RUN_FIELDS as SYSTEM_RUN_FIELDS
from .system import (
    XBODY,
    LineSystem,
    SystemData,
    _line_instants,
    _points,
    _rows,
    _sync,
    line_data,
    line_rhs,
    n_lines,
)
from .system import enforce as system_enforce

if TYPE_CHECKING:
    from ..system_case import SystemCase

__all__ = ["BodySystem", "FIXED", "FREE", "COUPLED", "SecondOrderLayout"]

#: a system's coordinates for generalized-α (BodySystem.second_order_layout): per
#: coordinate its position and velocity index in y, held (1: not an unknown), master (the
#: coordinate it copies, -1: none); the lines' coordinate blocks (K + 1 bounds; the
#: points' and free bodies' coordinates follow the last) and half-bandwidths; rows (line,
#: first coordinate of its end node, unit) of the line ends on free points and bodies;
#: the units (first coordinate, size: 3 a point, 6 a body); per free body (first state in
#: y, first rotation coordinate); rot: 1 on the bodies' rotation coordinates
SecondOrderLayout = namedtuple("SecondOrderLayout",
                               ["qi", "vi", "held", "master", "blocks", "band", "ends",
                                "units", "bodies", "rot"])

#: body kinds (btype)
FIXED, FREE, COUPLED = 0, 1, 2
_KINDS = {"fixed": FIXED, "free": FREE, "coupled": COUPLED}

BodyData = namedtuple(
    "BodyData",
    [
        *SystemData._fields,
        # bodies: count, kind, rigid_body.body_props rows, states at t = 0 (a fixed body's
        # for all time), index among the free bodies (-1: not free), first free body state
        "n_bodies", "btype", "bprops", "bstate0", "bfree", "bo",
        # coupled bodies' trajectories: breaks and coefficients of all of them stacked;
        # btraj[b] = (position breaks start, stop, position coeffs start, stop, angle
        # breaks start, stop, angle coeffs start, stop)
        "tbreaks", "tcoeffs", "btraj",
        # attachments (line ends on coupled or free bodies): rows (line, 0 start / 1 end,
        # body, node index) and the point in body axes [m]
        "att", "atr",
        # work: body states now, derivatives, world acceleration of O and angular
        # acceleration, the lines' f6 on each body, extra (lumped) 6x6 mass, scratch
        "bstate", "bdy", "bacc", "bf6", "bm6", "bwork", "bm", "bvec",
    ],
)
RUN_FIELDS = (*SYSTEM_RUN_FIELDS, "bstate", "bdy", "bacc", "bf6", "bm6", "bwork", "bm",
              "bvec",
              # per run: the step API rewrites a coupled body's motion (system_cosim.py)
              "tbreaks", "tcoeffs")


@inline_kernel
def _end_mass(ld, i, sea, M):
    """The 3x3 mass matrix [kg] of line data ld's end node i, as a free point carries it
    (models/system.py: nodes.mass_matrix_of, its lumped mass and the added mass of its
    element, scaled by the medium with the sea)."""
    n = ld.n_nodes
    if sea:
        mass_matrix_of(i, n, ld.node[i, MASS], ld.elem, ld.wadd, 0, 1, ld.tangent, False, M)
    else:
        mass_matrix_of(i, n, ld.node[i, MASS], ld.elem, ld.elem, ADDED_N, ADDED_T,
                       ld.tangent, False, M)


@inline_kernel
def _coupled_acceleration(d, b, t, st, acc):
    """A coupled body's acceleration at t: acc[0:3] the reference point's [m/s^2], acc[3:6]
    the angular acceleration [rad/s^2], world axes, of R = Rx(φ) Ry(θ) Rz(ψ): ω = e_x φ' +
    u θ' + v ψ' with u = Rx e_y, v = Rx Ry e_z, so α = e_x φ'' + u θ'' + v ψ'' + φ'θ' e_x × u
    + ψ' (e_x φ' + u θ') × v."""
    m = d.bm
    tr = d.btraj[b]
    eval_motion(d.tbreaks[tr[0]:tr[1]], d.tcoeffs[tr[2]:tr[3]], t, m)
    for a in range(3):
        acc[a] = m[2, a]
    eval_motion(d.tbreaks[tr[4]:tr[5]], d.tcoeffs[tr[6]:tr[7]], t, m)
    r, p = m[0, 0], m[0, 1]
    dr, dp, dy = m[1, 0], m[1, 1], m[1, 2]
    cr, sr, cp, sp = math.cos(r), math.sin(r), math.cos(p), math.sin(p)
    ux, uy, uz = 0.0, cr, sr
    vx, vy, vz = sp, -sr * cp, cr * cp
    e1x, e1y, e1z = _cross(1.0, 0.0, 0.0, ux, uy, uz)
    e2x, e2y, e2z = _cross(dr + ux * dp, uy * dp, uz * dp, vx, vy, vz)
    acc[3] = m[2, 0] + ux * m[2, 1] + vx * m[2, 2] + dr * dp * e1x + dy * e2x
    acc[4] = uy * m[2, 1] + vy * m[2, 2] + dr * dp * e1y + dy * e2y
    acc[5] = uz * m[2, 1] + vz * m[2, 2] + dr * dp * e1z + dy * e2z


@inline_kernel
def _body_states(t, y, d):
    """Every body's state at t into d.bstate (free: from y; coupled: its trajectory, with
    its acceleration into d.bacc; fixed: as at t = 0)."""
    for b in range(d.n_bodies):
        st = d.bstate[b]
        k = d.btype[b]
        if k == FREE:
            o = d.bo + 13 * d.bfree[b]
            for c in range(13):
                st[c] = y[o + c]
        elif k == COUPLED:
            tr = d.btraj[b]
            coupled_state(d.tbreaks[tr[0]:tr[1]], d.tcoeffs[tr[2]:tr[3]],
                          d.tbreaks[tr[4]:tr[5]], d.tcoeffs[tr[6]:tr[7]], t, d.bm, st)
            _coupled_acceleration(d, b, t, st, d.bacc[b])
        else:
            for c in range(13):
                st[c] = d.bstate0[b, c]


@inline_kernel
def _attach_sync(y, d):
    """The attachment points' positions and velocities into the line end node rows on
    them (d.bstate current)."""
    pos = d.bvec[0:3]
    vel = d.bvec[3:6]
    for e in range(d.att.shape[0]):
        k, b, i = d.att[e, 0], d.att[e, 2], d.att[e, 3]
        attachment_kinematics(d.bstate[b], d.atr[e], pos, vel)
        a = d.off[k]
        ns = d.stack.n_nodes[k]
        for c in range(3):
            y[a + 3 * i + c] = pos[c]
            y[a + 3 * ns + 3 * i + c] = vel[c]


@inline_kernel
def _lump_end(d, b, r, force, M, F):
    """A line end node on free body b at r (body axes), with its line load ``force`` [N]
    and 3x3 mass M [kg], lumped onto the body (module docstring): its load less
    M ω × (ω × R r) at the attachment into d.bf6[b], its 6x6 share into d.bm6[b]; F:
    a 3-vector of scratch."""
    st = d.bstate[b]
    R = _rot(st[3], st[4], st[5], st[6])
    _, _, (c0, c1, c2) = lever_and_spin(R, r, st[10], st[11], st[12])  # ω × (ω × r)
    for a in range(3):
        F[a] = force[a] - (M[a, 0] * c0 + M[a, 1] * c1 + M[a, 2] * c2)
    add_attachment_load(st, r, F, d.bf6[b])
    # M_b = R^T M R and its 6x6 blocks with [r]x (body axes)
    m6 = d.bm6[b]
    Mb = d.bm[0:3, 0:3]
    for p in range(3):
        for q in range(3):
            s = 0.0
            for u in range(3):
                for v in range(3):
                    s += R[3 * u + p] * M[u, v] * R[3 * v + q]
            Mb[p, q] = s
    rx = ((0.0, -r[2], r[1]), (r[2], 0.0, -r[0]), (-r[1], r[0], 0.0))
    for p in range(3):
        for q in range(3):
            m6[6 * p + q] += Mb[p, q]
            mr = 0.0  # (M_b [r]x)[p, q]
            rm = 0.0  # ([r]x M_b)[p, q]
            rmr = 0.0  # ([r]x M_b [r]x)[p, q]
            for u in range(3):
                mr += Mb[p, u] * rx[u][q]
                rm += rx[p][u] * Mb[u, q]
                for v in range(3):
                    rmr += rx[p][u] * Mb[u, v] * rx[v][q]
            m6[6 * p + 3 + q] -= mr
            m6[6 * (3 + p) + q] += rm
            m6[6 * (3 + p) + 3 + q] -= rmr


@inline_kernel
def _bodies(t, y, dydt, d):
    """The free bodies' rates with the line end nodes lumped on them, and the rates of the
    line end nodes on every moving body (module docstring). Needs every line's rhs."""
    if d.n_bodies == 0:
        return  # (the views below are not built: a system of lines and points)
    ld0 = line_data(d.stack, d.soff, 0)
    sea = ld0.sea_par[SEA_ACTIVE] != 0.0
    M = d.pmass[d.n_points]  # a spare 3x3 (models/system.py's)
    F = d.bvec[0:3]
    for b in range(d.n_bodies):
        for c in range(6):
            d.bf6[b, c] = 0.0
        for c in range(36):
            d.bm6[b, c] = 0.0
    for e in range(d.att.shape[0]):
        k, b, i = d.att[e, 0], d.att[e, 2], d.att[e, 3]
        if d.btype[b] != FREE:
            continue
        ld = line_data(d.stack, d.soff, k)
        _end_mass(ld, i, sea, M)
        _lump_end(d, b, d.atr[e], ld.force[i], M, F)
    for x in range(d.xend.shape[0]):  # line ends of other formulations: their load and mass
        b = d.xend[x, 3]
        if d.xend[x, 2] == XBODY and d.btype[b] == FREE:
            _lump_end(d, b, d.xat[x], d.xf[x], d.xm[x], F)
    g = d.pscal
    for b in range(d.n_bodies):
        if d.btype[b] != FREE:
            continue
        st = d.bstate[b]
        out = d.bdy[b]
        body_derivative_with(t, st, d.bf6[b], d.bm6[b], d.bprops[b], ld0.sea_par,
                             ld0.sea_current, ld0.sea_wind, ld0.sea_waves, ld0.sea_grid,
                             g[GX], g[GX + 1], g[GX + 2], d.bwork, out)
        o = d.bo + 13 * d.bfree[b]
        for c in range(13):
            dydt[o + c] = out[c]
        R = _rot(st[3], st[4], st[5], st[6])
        for a in range(3):
            d.bacc[b, a] = out[7 + a]
            d.bacc[b, 3 + a] = R[3 * a] * out[10] + R[3 * a + 1] * out[11] + R[3 * a + 2] * out[12]
    # every moving end node: velocity v + ω × r, acceleration a + α × r + ω × (ω × r)
    for e in range(d.att.shape[0]):
        k, b, i = d.att[e, 0], d.att[e, 2], d.att[e, 3]
        end_rates(d.bstate[b], d.bacc[b], d.atr[e], dydt, d.off[k], d.stack.n_nodes[k], i)


@inline_kernel
def end_rates(st, acc, r, dydt, a, ns, i):
    """Rates of a line's end node i on a moving body (state st, acceleration acc: world
    a_O and α) at r (body axes), the line's state from y[a] with ns node rows: velocity
    v + ω × r, acceleration a + α × r + ω × (ω × r)."""
    R = _rot(st[3], st[4], st[5], st[6])
    (rw0, rw1, rw2), (t0, t1, t2), (c0, c1, c2) = lever_and_spin(R, r, st[10], st[11], st[12])
    l0, l1, l2 = _cross(acc[3], acc[4], acc[5], rw0, rw1, rw2)
    dydt[a + 3 * i] = st[7] + t0
    dydt[a + 3 * i + 1] = st[8] + t1
    dydt[a + 3 * i + 2] = st[9] + t2
    dydt[a + 3 * ns + 3 * i] = acc[0] + l0 + c0
    dydt[a + 3 * ns + 3 * i + 1] = acc[1] + l1 + c1
    dydt[a + 3 * ns + 3 * i + 2] = acc[2] + l2 + c2


# row of each stacked line field the lean passes read in ``soff`` (models/system.py)
(_L_FLAGS, _L_SCAL, _L_ENDS, _L_B0, _L_C0, _L_B1, _L_C1, _L_FORCE, _L_TANGENT, _L_MOTION,
 _L_TMP, _L_WADD, _L_SEA_PAR, _L_LEAN, _L_SOA) = (LumpedMassData._fields.index(f) for f in (
    "flags", "scal", "ends", "breaks0", "coeffs0", "breaks1", "coeffs1", "force", "tangent",
    "motion", "tmp", "wadd", "sea_par", "lean", "soa"))


@inline_kernel
def _lean_line(t, y, dydt, s, o, k, fluid):
    """dy/dt of line k (its slices y, dydt) on the lean path (lumped_mass.rhs_lean_fluid /
    rhs_lean_vacuum), its arrays as row views of the stack (not the 42 of line_data).
    Returns False where a calm sea's pass hands over to the general rhs (a node out of the
    water or in the seabed): the caller then runs it."""
    f = _rows(s.flags, o, _L_FLAGS, k)
    sc = _rows(s.scal, o, _L_SCAL, k)
    n = s.n_nodes[k]
    lean = _rows(s.lean, o, _L_LEAN, k)
    motion = _rows(s.motion, o, _L_MOTION, k)
    b0 = _rows(s.breaks0, o, _L_B0, k)
    c0 = _rows(s.coeffs0, o, _L_C0, k)
    b1 = _rows(s.breaks1, o, _L_B1, k)
    c1 = _rows(s.coeffs1, o, _L_C1, k)
    ends = _rows(s.ends, o, _L_ENDS, k)
    tmp = _rows(s.tmp, o, _L_TMP, k)
    force = _rows(s.force, o, _L_FORCE, k)
    tangent = _rows(s.tangent, o, _L_TANGENT, k)
    if fluid:
        par = _rows(s.sea_par, o, _L_SEA_PAR, k)
        return _lean_fluid(t, y, dydt, n, lean, _rows(s.soa, o, _L_SOA, k), sc[EA],
                           sc[DAMPING], f[COMPRESSION] != 0, f[SLACK_DAMPING] != 0,
                           f[HELD0] != 0, f[HELD1] != 0, motion, b0, c0, b1, c1, sc, ends,
                           tmp, f[DRAG_LAW], par, par[SEA_ACTIVE] != 0.0, force, tangent,
                           _rows(s.wadd, o, _L_WADD, k))
    _lean_vacuum(t, y, dydt, n, lean, sc[EA], sc[DAMPING], f[COMPRESSION] != 0,
                 f[SLACK_DAMPING] != 0, f[HELD0] != 0, f[HELD1] != 0, motion, b0, c0, b1, c1,
                 sc, ends, tmp, force, tangent)
    return True


@kernel
def system_rhs(t, y, dydt, d, general):
    """dy/dt of the system with bodies: the bodies' states and the line ends on them, every
    line's own rhs, the free points (models/system.py), then the bodies. Each line steps
    with the path its model chose (lumped_mass flags[LEAN]: the lean one-pass kernels for a
    line without winch or bending in a calm fluid or sea, which leave the loads of its end
    nodes and the tangents and added masses of its end elements for the points' and
    bodies' passes); ``general`` (a float, not a literal bool: numba compiles a kernel once
    per literal, and this one costs minutes): 1.0 sends every line through the general
    lumped_mass.rhs, which also fills the work arrays the results read (:func:`diagnostics`)."""
    _sync(y, d)
    _body_states(t, y, d)
    _attach_sync(y, d)
    off = d.off
    s, o = d.stack, d.soff
    for k in range(n_lines(d)):
        yk = y[off[k]:off[k + 1]]
        dk = dydt[off[k]:off[k + 1]]
        path = GENERAL if general != 0.0 else s.flags[o[_L_FLAGS, k] + LEAN]
        # one call site of the inlined general rhs: the lines on it (in waves too:
        # LEAN_SEA) and a lean pass's hand-overs (a second copy, or the compiled
        # lumped_mass.rhs, would be compiled too)
        if path == GENERAL or path == LEAN_SEA or not _lean_line(t, yk, dk, s, o, k,
                                                                path == LEAN_FLUID):
            line_rhs(t, yk, dk, line_data(s, o, k))
    _points(t, y, dydt, d)
    _bodies(t, y, dydt, d)


@inline_kernel
def rhs(t, y, dydt, d):
    """dy/dt of the system (:func:`system_rhs`, each line on its model's path)."""
    system_rhs(t, y, dydt, d, 0.0)


@kernel
def enforce(t, y, d):
    """The line system's enforce (held ends, free points into their line ends), then the
    free bodies' quaternions to unit norm and the bodies' attachment points into the line
    ends on them."""
    system_enforce(t, y, d)
    for b in range(d.n_bodies):
        if d.btype[b] == FREE:
            o = d.bo + 13 * d.bfree[b]
            normalize_quaternion(y[o:o + 13])
    _body_states(t, y, d)
    _attach_sync(y, d)


@kernel
def diagnostics(times, Y, d, replay, dydt, M, node_off, tension, start_force, end_force,
                kinetic, potential, curvature, shear, eta, grounded, bed_force, winch_out):
    """Per output instant: the system's rhs with every line on the general path (so that
    the line ends on free points and bodies move with them, and the lines' work arrays
    hold what their results read), then every line's results (models/system._line_instants) into
    the stacked arrays: line k's nodes are columns node_off[k]:node_off[k + 1] of
    curvature, eta, grounded, bed_force, its elements the same less k (tension, shear);
    start_force, end_force, kinetic, potential and winch_out have a column per line."""
    for j in range(times.size):
        system_rhs(times[j], Y[j], dydt, d, 1.0)
        _line_instants(j, times[j], Y[j], dydt, d, replay, M, node_off, tension, start_force,
                       end_force, kinetic, potential, curvature, shear, eta, grounded,
                       bed_force, winch_out)


class BodySystem(LineSystem):
    """Lines, points and 6-DOF bodies (module docstring). ``bodies``: body names in
    order; ``free_bodies``: the free ones, in state order."""

    rhs = staticmethod(rhs)
    enforce = staticmethod(enforce)
    diagnostics = staticmethod(diagnostics)
    run_fields = RUN_FIELDS

    def __init__(self, case: SystemCase) -> None:
        super().__init__(case)
        self.bodies = list(case.bodies)
        self.free_bodies = [b for b in self.bodies if case.bodies[b].type == "free"]
        B = len(self.bodies)
        env = case.environment
        g = float(np.linalg.norm(env.gravity))
        btype = np.array([_KINDS[case.bodies[b].type] for b in self.bodies] or [0],
                         dtype=np.int64)
        bprops = np.zeros((max(B, 1), N_PROPS))
        bstate0 = np.zeros((max(B, 1), 13))
        for j, b in enumerate(self.bodies):
            bprops[j] = body_props(case.bodies[b], env.fluid_density, g)
            bstate0[j] = case.body_states[b]
        bfree = np.array([self.free_bodies.index(b) if b in self.free_bodies else -1
                          for b in self.bodies] or [-1], dtype=np.int64)
        bo = self.n_state
        self.n_state = bo + 13 * len(self.free_bodies)
        breaks, coeffs = [np.zeros(0)], [np.zeros((0, 3, 4))]
        nb = nc = 0
        btraj = np.zeros((max(B, 1), 8), dtype=np.int64)
        for j, name in enumerate(self.bodies):
            body = case.bodies[name]
            if body.type != "coupled":
                continue
            for h, tr in enumerate(body.motion(case.base_dir)):
                btraj[j, 4 * h:4 * h + 4] = (nb, nb + tr.breaks.size, nc,
                                             nc + tr.coeffs.shape[0])
                breaks.append(tr.breaks)
                coeffs.append(tr.coeffs)
                nb += tr.breaks.size
                nc += tr.coeffs.shape[0]
        names = self.lumped
        att, atr = [], []
        for name in self.bodies:
            if case.bodies[name].type == "fixed":
                continue  # the line's own fixed end
            for line, w, at in case.attached_to_body(name):
                if line not in names:
                    continue  # another formulation's line (models/system_higher.py)
                n = self.line_models[line].data.n_nodes
                att.append((names.index(line), w, self.bodies.index(name), 0 if w == 0 else
                            n - 1))
                atr.append(at)
        self.data = BodyData(
            *self.data, n_bodies=B, btype=btype, bprops=bprops, bstate0=bstate0, bfree=bfree, bo=bo,
            tbreaks=np.concatenate(breaks), tcoeffs=np.ascontiguousarray(
                np.concatenate(coeffs)), btraj=btraj,
            att=np.array(att, dtype=np.int64).reshape(-1, 4),
            atr=np.array(atr, dtype=float).reshape(-1, 3),
            bstate=bstate0.copy(), bdy=np.zeros((max(B, 1), 13)),
            bacc=np.zeros((max(B, 1), 6)), bf6=np.zeros((max(B, 1), 6)),
            bm6=np.zeros((max(B, 1), 36)), bwork=np.zeros(WORK_SIZE), bm=np.zeros((3, 3)),
            bvec=np.zeros(6))

    def second_order_layout(self) -> SecondOrderLayout:
        """The system's coordinates for generalized-α (integrate/implicit_system.py).

        Coordinates: each lumped-mass line's node positions (3 per node, in line order),
        then each free point's position (3 per point), then per free body its reference
        point's position (3) and its rotation (3: a rotation vector in body axes, ``rot``,
        whose rates are ω; the quaternion is updated from it). A line end on a free point
        copies its point (``master``: the point's coordinate); held ends (fixed or coupled
        points, fixed bodies) and ends on coupled or free bodies take their motion from
        ``enforce``: none is an unknown (``held``). The points and free bodies are the
        border ``units`` (first coordinate, size); ``ends``: per line end on a free point
        or free body (line, its end node's first coordinate, the unit); ``bodies``: per
        free body (its first state in y, its first rotation coordinate). Raises ValueError
        naming what generalized-α does not take in a system (higher_order lines)."""
        if self.others:
            raise ValueError(f"solver.method: generalized_alpha in a system takes lumped_mass "
                             f"lines only in this version (line {self.others[0]!r} is "
                             f"{self.line_models[self.others[0]].name}); use rk4 or rk45")
        d = self.data
        L = len(self.lumped)
        P = int(d.n_points)
        NB = len(self.free_bodies)
        n = [int(d.stack.n_nodes[k]) for k in range(L)]
        blocks = np.concatenate([[0], np.cumsum([3 * x for x in n])]).astype(np.int64)
        nl = int(blocks[-1])
        nq = nl + 3 * P + 6 * NB
        qi = np.zeros(nq, dtype=np.int64)
        vi = np.zeros(nq, dtype=np.int64)
        held = np.zeros(nq, dtype=np.int64)
        master = np.full(nq, -1, dtype=np.int64)
        rot = np.zeros(nq, dtype=np.int64)
        # line ends on moving bodies: the free body's unit, or -1 (coupled)
        on_body = {(int(r[0]), int(r[1])): (P + int(d.bfree[r[2]]) if d.btype[r[2]] == FREE
                                            else -1) for r in d.att}
        ends = []
        for k in range(L):
            a, lo = int(d.off[k]), int(blocks[k])
            qi[lo:lo + 3 * n[k]] = a + np.arange(3 * n[k])
            vi[lo:lo + 3 * n[k]] = a + 3 * n[k] + np.arange(3 * n[k])
            held[lo:lo + 3 * n[k]] = self.line_models[self.lumped[k]].held[:3 * n[k]]
            for w in range(2):
                e = lo + (0 if w == 0 else 3 * (n[k] - 1))
                p = int(d.attach[k, w])
                if p >= 0:
                    held[e:e + 3] = 1
                    master[e:e + 3] = nl + 3 * p + np.arange(3)
                    ends.append((k, e, p))
                elif (k, w) in on_body:
                    held[e:e + 3] = 1
                    if on_body[k, w] >= 0:
                        ends.append((k, e, on_body[k, w]))
        po = int(d.off[L])
        for p in range(P):
            qi[nl + 3 * p:nl + 3 * p + 3] = po + 6 * p + np.arange(3)
            vi[nl + 3 * p:nl + 3 * p + 3] = po + 6 * p + 3 + np.arange(3)
        units = [(nl + 3 * p, 3) for p in range(P)]
        bodies = []
        for f in range(NB):
            o, j = int(d.bo) + 13 * f, nl + 3 * P + 6 * f
            qi[j:j + 3] = o + np.arange(3)  # position
            vi[j:j + 3] = o + 7 + np.arange(3)  # velocity
            qi[j + 3:j + 6] = o + 4 + np.arange(3)  # the quaternion's vector part (scales)
            vi[j + 3:j + 6] = o + 10 + np.arange(3)  # ω, body axes
            rot[j + 3:j + 6] = 1
            units.append((j, 6))
            bodies.append((o, j + 3))
        band = np.array([self.line_models[k].band for k in self.lumped], dtype=np.int64)
        return SecondOrderLayout(qi, vi, held, master, blocks, band,
                                 np.array(ends, dtype=np.int64).reshape(-1, 3),
                                 np.array(units, dtype=np.int64).reshape(-1, 2),
                                 np.array(bodies, dtype=np.int64).reshape(-1, 2), rot)

    def body_slice(self, body: str) -> slice:
        """A free body's slice of the state vector (13 entries, rigid_body.py's layout)."""
        b = int(self.data.bo) + 13 * self.free_bodies.index(body)
        return slice(b, b + 13)

    def body_motion(self, data: tuple, body: str
                    ) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
        """A coupled body's ((breaks, coeffs) of its position, (breaks, coeffs) of its roll,
        pitch, yaw [rad]) in the run ``data`` (boundary.py's layout; views into tbreaks and
        tcoeffs: the step API rewrites them in place, system_cosim.py)."""
        tr = data.btraj[self.bodies.index(body)]
        return ((data.tbreaks[tr[0]:tr[1]], data.tcoeffs[tr[2]:tr[3]]),
                (data.tbreaks[tr[4]:tr[5]], data.tcoeffs[tr[6]:tr[7]]))

    def initial_state(self) -> np.ndarray:
        """The line system's initial state, then each free body's state at t = 0."""
        parts = [self.line_models[k].initial_state() for k in self.lumped]
        for p in self.free_points:
            parts.append(np.concatenate([self.case.point_positions[p], np.zeros(3)]))
        for b in self.free_bodies:
            parts.append(self.case.body_states[b])
        y = np.concatenate(parts)
        self.enforce(0.0, y, self.data)
        return y

    def body_states(self, times: np.ndarray, Y: np.ndarray) -> dict[str, np.ndarray]:
        """Each body's 13 states at the output instants (free: from the states; coupled:
        its trajectory; fixed: constant)."""
        out = {}
        m = np.zeros((3, 3))
        for j, name in enumerate(self.bodies):
            kind = self.data.btype[j]
            if kind == FREE:
                out[name] = np.array(Y[:, self.body_slice(name)])
            elif kind == COUPLED:
                tr = self.data.btraj[j]
                d = self.data
                s = np.zeros((times.size, 13))
                for i, t in enumerate(times):
                    coupled_state(d.tbreaks[tr[0]:tr[1]], d.tcoeffs[tr[2]:tr[3]],
                                  d.tbreaks[tr[4]:tr[5]], d.tcoeffs[tr[6]:tr[7]], float(t),
                                  m, s[i])
                out[name] = s
            else:
                out[name] = np.tile(self.data.bstate0[j], (times.size, 1))
        return out
