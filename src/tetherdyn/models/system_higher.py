"""higher_order lines in a system, next to lumped-mass lines (issue 19; docs/systems.md).

A system with higher_order lines (seed 004 ch. 4, models/higher_order.py) runs the kernels
of this module; a system of lumped-mass lines alone never compiles them
(models/system_model.build_system). The state vector is the lumped-mass system's, then
each higher_order line's own state ``[r_0 … r_N, ṙ_0 … ṙ_N]``:

``y = [lumped lines …, free points …, free bodies …, higher_order line 0, line 1, …]``

Each higher_order line is the single-line model of its case (the line's ends made from
its points and bodies by system_case.py, exactly as for a lumped-mass line): an end on a
fixed point or fixed body is the line's fixed end, on a coupled point its prescribed end;
on a free point or a coupled / free body it is a free end without payload whose node rows
are the point's position and velocity (or the attachment point's on the body), copied in
before every evaluation. The end exchange is the lumped-mass lines' (models/system.py,
models/system_bodies.py), through the rows ``xend`` of the system data:

1. the points' and bodies' states into the higher_order lines' end node rows;
2. every higher_order line's own compiled rhs (higher_order.rhs, the single-line kernel
   with the single line's data types) on its slice of y; then per end on a free point or
   moving body its node's load F_end (tension, bending, weight, buoyancy, drag of the half
   element: ``force`` as the rhs left it) and its 3x3 mass M_end (its lumped mass and the
   element-average added mass of its half element, nodes.mass_matrix_of, nodal) into
   ``xf`` / ``xm``;
3. the lumped-mass system's rhs (models/system_bodies.system_rhs, compiled once for every
   system): its lines, then the free points with ``xf`` / ``xm`` added to theirs
   (models/system.py's point equation) and the free bodies with those ends lumped on them
   (models/system_bodies.py: load less M_end ω × (ω × R r), the 6x6 mass share);
4. the higher_order end nodes' rates: a point's velocity and acceleration, or the body
   attachment point's (system_bodies.end_rates).

The torsion of a higher_order line needs two ends that hold their roll: the ends a system
makes hold none (no ``roll_deg`` / clamp at a point), so its twist is zero (τ ≡ 0,
docs/higher_order.md "Twist"); bending acts in full. Cost: the line's own rhs plus a pass
over its two ends; no allocation.
"""

from __future__ import annotations

from collections import namedtuple
from typing import TYPE_CHECKING

import numpy as np

from .._jit import inline_kernel, kernel
from ..rigid_body import attachment_kinematics
from ..sea import BED, SEA_ACTIVE
from .higher_order import check as ho_check
from .higher_order import instant as ho_instant
from .higher_order import remesh as ho_remesh
from .higher_order import rhs as ho_rhs
from .nodes import ADDED_N, ADDED_T, MASS, mass_matrix_of
from .nodes import enforce as ho_enforce
from .system import XBODY, XPOINT, line_arrays, stacked_line_arrays
from .system import check as lumped_check
from .system import remesh as lumped_remesh
from .system_bodies import RUN_FIELDS as BODY_RUN_FIELDS
from .system_bodies import (
    BodyData,
    BodySystem,
    _body_states,
    _line_instants,
    end_rates,
    system_rhs,
)
from .system_bodies import enforce as body_enforce

if TYPE_CHECKING:
    from ..system_case import SystemCase

__all__ = ["MixedSystem"]

MixedData = namedtuple(
    "MixedData",
    [
        *BodyData._fields,
        # the higher_order lines' own data (a tuple of HigherOrderData, one type), the
        # start of each line's state in y (H + 1: the last is y's size), scratch (6)
        "ho", "hoff", "hv",
    ],
)
RUN_FIELDS = (*BODY_RUN_FIELDS, "hv")


@inline_kernel
def _base(D):
    """The lumped-mass system's data (BodyData: the type every system's compiled
    system_rhs takes) of the mixed data D: the same arrays, no copy."""
    return BodyData(
        D.stack, D.soff, D.off, D.attach, D.n_points, D.ptab, D.pline, D.pscal, D.ppos,
        D.pvel, D.pforce, D.pmass, D.ptmp, D.pfout, D.xend, D.xat, D.xf, D.xm, D.n_bodies,
        D.btype, D.bprops, D.bstate0, D.bfree, D.bo, D.tbreaks, D.tcoeffs, D.btraj, D.att,
        D.atr, D.bstate, D.bdy, D.bacc, D.bf6, D.bm6, D.bwork, D.bm, D.bvec)


@inline_kernel
def _ends_in(t, y, D):
    """Step 1 (module docstring): the free points' states and the moving bodies'
    attachment points' positions and velocities into the higher_order line end node rows
    on them (the bodies' states at t into D.bstate)."""
    _body_states(t, y, D)
    po = D.off[D.off.size - 1]
    pv = D.hv
    for x in range(D.xend.shape[0]):
        h, kind, g, i = D.xend[x, 0], D.xend[x, 2], D.xend[x, 3], D.xend[x, 4]
        if kind == XPOINT:
            for c in range(6):
                pv[c] = y[po + 6 * g + c]
        else:
            attachment_kinematics(D.bstate[g], D.xat[x], pv[0:3], pv[3:6])
        a = D.hoff[h]
        ns = D.ho[h].n_nodes
        for c in range(3):
            y[a + 3 * i + c] = pv[c]
            y[a + 3 * ns + 3 * i + c] = pv[3 + c]


@kernel
def mixed_rhs(t, y, dydt, D, general):
    """dy/dt of a system with higher_order lines (module docstring's steps 1-4);
    ``general`` as system_bodies.system_rhs's (1.0: every lumped-mass line on the general
    path, for the results)."""
    _ends_in(t, y, D)
    for h in range(len(D.ho)):
        ho_rhs(t, y[D.hoff[h]:D.hoff[h + 1]], dydt[D.hoff[h]:D.hoff[h + 1]], D.ho[h])
    for x in range(D.xend.shape[0]):
        d = D.ho[D.xend[x, 0]]
        i = D.xend[x, 4]
        for c in range(3):
            D.xf[x, c] = d.force[i, c]
        # the end node's mass as higher_order.rhs's node_rates forms it (nodal: spline
        # tangents, per-metre added mass averaged over the element; the sea's by medium)
        if d.sea_par[SEA_ACTIVE] != 0.0:
            mass_matrix_of(i, d.n_nodes, d.node[i, MASS], d.elem, d.wadd, 0, 1, d.ntan, True,
                           D.xm[x])
        else:
            mass_matrix_of(i, d.n_nodes, d.node[i, MASS], d.elem, d.elem, ADDED_N, ADDED_T,
                           d.ntan, True, D.xm[x])
    system_rhs(t, y, dydt, _base(D), general)
    po = D.off[D.off.size - 1]
    for x in range(D.xend.shape[0]):
        h, kind, g, i = D.xend[x, 0], D.xend[x, 2], D.xend[x, 3], D.xend[x, 4]
        a = D.hoff[h]
        ns = D.ho[h].n_nodes
        if kind == XPOINT:
            for c in range(3):
                dydt[a + 3 * i + c] = dydt[po + 6 * g + c]
                dydt[a + 3 * ns + 3 * i + c] = dydt[po + 6 * g + 3 + c]
        else:
            end_rates(D.bstate[g], D.bacc[g], D.xat[x], dydt, a, ns, i)


@kernel
def rhs(t, y, dydt, D):
    """dy/dt of the system (:func:`mixed_rhs`, each lumped-mass line on its model's path)."""
    mixed_rhs(t, y, dydt, D, 0.0)


@kernel
def enforce(t, y, D):
    """The lumped-mass system's enforce (held ends, points, bodies), each higher_order
    line's held ends (nodes.enforce, its own kernel), then the points' and bodies' states
    into the higher_order end nodes on them."""
    body_enforce(t, y, _base(D))
    for h in range(len(D.ho)):
        ho_enforce(t, y[D.hoff[h]:D.hoff[h + 1]], D.ho[h])
    _ends_in(t, y, D)


@kernel
def check(t, y, D):
    """The first unsound element numbered through the lumped-mass lines, then the
    higher_order lines (higher_order.check), or -1."""
    e = lumped_check(t, y, _base(D))
    if e >= 0:
        return e
    first = 0
    for k in range(D.off.size - 1):
        first += D.stack.n_nodes[k] - 1
    for h in range(len(D.ho)):
        e = ho_check(t, y[D.hoff[h]:D.hoff[h + 1]], D.ho[h])
        if e >= 0:
            return first + e
        first += D.ho[h].n_nodes - 1
    return -1


@kernel
def remesh(t, y, D):
    """The lumped-mass system's remesh, then each higher_order line's (the seabed's
    friction anchors)."""
    changed = lumped_remesh(t, y, _base(D))
    for h in range(len(D.ho)):
        changed |= ho_remesh(t, y[D.hoff[h]:D.hoff[h + 1]], D.ho[h])
    return changed


@kernel
def diagnostics(times, Y, D, replay, dydt, M, node_off, tension, start_force, end_force,
                kinetic, potential, curvature, shear, eta, grounded, bed_force, winch_out,
                hnode_off, htension, hf0, hf1, hke, hpe, hcurv, htwist, htors, heta, hgnd,
                hbed, hwout):
    """Per output instant the system's rhs (:func:`mixed_rhs`, general path), then the
    lumped-mass lines' results (models/system._line_instants, its stacked layout) and each
    higher_order line's (higher_order.instant) into the h-prefixed arrays, stacked the
    same way: line h's nodes are columns hnode_off[h]:hnode_off[h + 1], its elements the
    same less h; hf0, hf1, hke, hpe, hwout have a column per line."""
    base = _base(D)
    for j in range(times.size):
        t = times[j]
        y = Y[j]
        mixed_rhs(t, y, dydt, D, 1.0)
        _line_instants(j, t, y, dydt, base, replay, M, node_off, tension, start_force,
                       end_force, kinetic, potential, curvature, shear, eta, grounded,
                       bed_force, winch_out)
        for h in range(len(D.ho)):
            a = D.hoff[h]
            b = D.hoff[h + 1]
            n0 = hnode_off[h]
            n1 = hnode_off[h + 1]
            ho_instant(j, t, y[a:b], dydt[a:b], D.ho[h], replay, M,
                       htension[:, n0 - h:n1 - h - 1], hf0[:, h], hf1[:, h], hke[:, h],
                       hpe[:, h], hcurv[:, n0:n1], htwist[:, n0 - h:n1 - h - 1],
                       htors[:, n0:n1], heta[:, n0:n1], hgnd[:, n0:n1], hbed[:, n0:n1],
                       hwout[:, h])


class MixedSystem(BodySystem):
    """Lumped-mass and higher_order lines, points and bodies (module docstring).
    ``others``: the higher_order lines' names, in state order (after the bodies)."""

    rhs = staticmethod(rhs)
    enforce = staticmethod(enforce)
    check = staticmethod(check)
    remesh = staticmethod(remesh)
    diagnostics = staticmethod(diagnostics)
    run_fields = RUN_FIELDS

    def __init__(self, case: SystemCase) -> None:
        super().__init__(case)
        models = [self.line_models[k] for k in self.others]
        for name, m in zip(self.others, models, strict=True):
            if m.name != "higher_order" or m.winch:  # (system_case.py refuses these first)
                raise ValueError(f"lines.{name}: a system's line is lumped_mass or "
                                 "higher_order without a winch")
        sizes = [6 * m.data.n_nodes for m in models]
        hoff = (self.n_state + np.concatenate([[0], np.cumsum(sizes)])).astype(np.int64)
        self.n_state = int(hoff[-1])
        index = {p: i for i, p in enumerate(self.free_points)}
        xend, xat = [], []
        for h, name in enumerate(self.others):
            n = models[h].data.n_nodes
            for w in range(2):
                i = 0 if w == 0 else n - 1
                p = case.line_points[name][w]
                on = case.line_bodies[name][w]
                if p is not None and p in index:
                    xend.append((h, w, XPOINT, index[p], i))
                    xat.append(np.zeros(3))
                elif on is not None and case.bodies[on[0]].type != "fixed":
                    xend.append((h, w, XBODY, self.bodies.index(on[0]), i))
                    xat.append(on[1])
        E = len(xend)
        ho = tuple(m.data for m in models)
        self.data = MixedData(
            *self.data._replace(xend=np.array(xend, dtype=np.int64).reshape(E, 5),
                                xat=np.array(xat, dtype=float).reshape(E, 3),
                                xf=np.zeros((E, 3)), xm=np.zeros((E, 3, 3))),
            ho=ho, hoff=hoff, hv=np.zeros(6))

    def make_data(self) -> tuple:
        """A fresh data tuple for one run: the lumped-mass system's (LineSystem.make_data)
        and each higher_order line's own fresh data."""
        d = super().make_data()
        return d._replace(ho=tuple(self.line_models[k].make_data() for k in self.others))

    def run_arrays(self, data: tuple) -> dict[str, np.ndarray]:
        """The lumped-mass system's run arrays and each higher_order line's own
        (``data.ho.<line>.<field>``)."""
        out = super().run_arrays(data)
        for k, d in zip(self.others, data.ho, strict=True):
            for key, v in self.line_models[k].run_arrays(d).items():
                out[f"data.ho.{k}.{key[5:]}"] = v
        return out

    def line_slices(self) -> dict[str, slice]:
        """Each line's slice of the state vector, in the order of ``lines``."""
        hoff = self.data.hoff
        sl = {**super().line_slices(),
              **{k: slice(int(hoff[h]), int(hoff[h + 1])) for h, k in enumerate(self.others)}}
        return {k: sl[k] for k in self.line_models}

    def initial_state(self) -> np.ndarray:
        """The lumped-mass system's initial state, then each higher_order line's (laid as
        system_case.py lays it), the ends on points and bodies put there."""
        parts = [self.line_models[k].initial_state() for k in self.lumped]
        for p in self.free_points:
            parts.append(np.concatenate([self.case.point_positions[p], np.zeros(3)]))
        for b in self.free_bodies:
            parts.append(self.case.body_states[b])
        parts += [self.line_models[k].initial_state() for k in self.others]
        y = np.concatenate(parts)
        self.enforce(0.0, y, self.data)
        return y

    def point_motions(self, data: tuple, point: str) -> list[tuple[np.ndarray, np.ndarray]]:
        """The lumped-mass lines' (LineSystem.point_motions) and the higher_order lines'
        (breaks, coeffs) a coupled point's line ends follow in the run ``data``."""
        out = super().point_motions(data, point)
        for h, name in enumerate(self.others):
            for w, p in enumerate(self.case.line_points[name]):
                if p == point:
                    d = data.ho[h]
                    out.append((d.breaks0, d.coeffs0) if w == 0 else (d.breaks1, d.coeffs1))
        return out

    def _higher_arrays(self, k: int) -> tuple[np.ndarray, tuple]:
        """The higher_order lines' output arrays :func:`diagnostics` fills for k instants,
        stacked as its docstring says: hnode_off and (tension, start_force, end_force,
        kinetic, potential, curvature, twist, torsion_force, eta, grounded, bed_force,
        winch_out)."""
        hn = np.array([self.line_models[n].n_nodes for n in self.others], dtype=np.int64)
        H = hn.size
        hnode_off = np.concatenate([[0], np.cumsum(hn)]).astype(np.int64)
        htot, htot_e = int(hn.sum()), int(hn.sum()) - H
        return hnode_off, (np.zeros((k, htot_e)), np.empty((k, H, 3)), np.empty((k, H, 3)),
                           np.empty((k, H)), np.empty((k, H)), np.zeros((k, htot)),
                           np.zeros((k, htot_e)), np.zeros((k, htot, 3)), np.zeros((k, htot)),
                           np.zeros((k, htot)), np.zeros((k, htot, 3)), np.zeros((k, H, 6)))

    def end_forces(self, t: float, y: np.ndarray, out: np.ndarray,
                   data: tuple | None = None) -> None:
        """Forces [N] every line exerts on its start (out[k, 0]) and end (out[k, 1])
        holders at state y, time t (line k in the order of ``lines``) with a run's ``data``
        (None: the model's own), through :func:`diagnostics` at one instant (the run's
        friction anchors not replayed; the higher_order lines' twist tracking left as it
        was); no allocation after the first call (the step API's, system_cosim.py). Leaves
        the element tensions for :meth:`last_tensions`."""
        d = self.data if data is None else data
        p = getattr(self, "_mprobe", None)
        if p is None:
            node_off, arrays = stacked_line_arrays(
                1, [self.line_models[k].n_nodes for k in self.lumped])
            hnode_off, harrays = self._higher_arrays(1)
            rows = [(0, self.lumped.index(k)) if k in self.lumped else (1, self.others.index(k))
                    for k in self.line_models]
            p = self._mprobe = (np.zeros(1), np.zeros((1, self.n_state)),
                                np.empty(self.n_state), np.empty((3, 3)), node_off, arrays,
                                hnode_off, harrays, [np.empty_like(h.tw) for h in d.ho], rows)
        times, Y, dydt, M, node_off, arrays, hnode_off, harrays, saved, rows = p
        times[0] = t
        Y[0] = y
        for h, keep in zip(d.ho, saved, strict=True):
            keep[:] = h.tw
        diagnostics(times, Y, d, False, dydt, M, node_off, *arrays, hnode_off, *harrays)
        for h, keep in zip(d.ho, saved, strict=True):
            h.tw[:] = keep
        for k, (kind, i) in enumerate(rows):
            a = arrays if kind == 0 else harrays
            out[k, 0] = a[1][0, i]
            out[k, 1] = a[2][0, i]

    def last_tensions(self, line: str) -> np.ndarray:
        """Line ``line``'s element tensions [N] at the last :meth:`end_forces` (a view of
        its scratch, overwritten by the next call)."""
        _, _, _, _, node_off, arrays, hnode_off, harrays, _, _ = self._mprobe
        if line in self.lumped:
            k = self.lumped.index(line)
            return arrays[0][0, node_off[k] - k:node_off[k + 1] - k - 1]
        h = self.others.index(line)
        return harrays[0][0, hnode_off[h] - h:hnode_off[h + 1] - h - 1]

    def line_outputs(self, times: np.ndarray, Y: np.ndarray, data: tuple | None = None,
                     replay: bool | None = None) -> dict[str, dict]:
        """Each line's results variables (its model's outputs dict: LumpedMass's or
        HigherOrder's) at states Y, the line ends on free points and bodies moving with
        them (their start_force / end_force: the force the line exerts on the point or
        body)."""
        d = self.data if data is None else data
        if replay is None:
            replay = bool(d.stack.sea_par[BED] != 0.0)  # one seabed for all lines
        if replay:  # fresh friction anchors, replayed per instant (NodeRows._replay_data)
            d = d._replace(stack=d.stack._replace(sea_anchor=np.zeros_like(
                d.stack.sea_anchor)), ho=tuple(h._replace(sea_anchor=np.zeros_like(
                    h.sea_anchor)) for h in d.ho))
        k = times.size
        node_off, arrays = stacked_line_arrays(
            k, [self.line_models[n].n_nodes for n in self.lumped])
        hnode_off, harrays = self._higher_arrays(k)
        Yc = np.array(Y, dtype=float, order="C")
        saved = [h.tw.copy() for h in d.ho]
        diagnostics(np.ascontiguousarray(times, dtype=float), Yc, d, replay,
                    np.empty(Yc.shape[1]), np.empty((3, 3)), node_off, *arrays, hnode_off,
                    *harrays)
        for h, s in zip(d.ho, saved, strict=True):
            h.tw[:] = s
        sl = self.line_slices()
        out = {}
        for i, name in enumerate(self.lumped):
            out[name] = self.line_models[name].outputs_from(
                Yc[:, sl[name]], line_arrays(arrays, node_off, i))
        (tension, f0, f1, ke, pe, curv, twist, tors, eta, grounded, bed_force,
         wout) = harrays
        for h, name in enumerate(self.others):
            m = self.line_models[name]
            nodes = slice(hnode_off[h], hnode_off[h + 1])
            elems = slice(hnode_off[h] - h, hnode_off[h + 1] - h - 1)
            pos, vel = m.node_states(Yc[:, sl[name]])
            res = dict(
                position=pos, velocity=vel, tension=tension[:, elems],
                start_force=f0[:, h], end_force=f1[:, h], kinetic_energy=ke[:, h],
                potential_energy=pe[:, h],
                curvature=(("time", "node"), curv[:, nodes],
                           {"units": "1/m",
                            "long_name": "curvature |r''| of the spline at the node"}),
                twist=(("time", "element"), twist[:, elems],
                       {"units": "rad/m", "long_name": "total twist tau of the cross "
                        "section (zero: a system's line ends hold no roll)"}),
                torsion_force=(("time", "node", "axis"), tors[:, nodes],
                               {"units": "N", "long_name": "nodal force of the twist term "
                                "GJ tau r' x r'' (seed 004 eq. 4.28)"}),
            )
            if m.sea_results:
                from .nodes import sea_outputs

                res.update(sea_outputs(eta[:, nodes], grounded[:, nodes],
                                       bed_force[:, nodes]))
            out[name] = {k2: (np.ascontiguousarray(v) if isinstance(v, np.ndarray) else v)
                         for k2, v in res.items()}
        return {name: out[name] for name in self.line_models}
