"""Statics of a system: free points and free bodies at their equilibrium, every line
hanging in its own (issue 19, "Statics"; docs/systems.md, "Statics").

The approach is MoorPy's (Hall, MoorPy ``System.solveEquilibrium``): the unknowns are the
free points' positions ``x`` (3 per point). For given ``x`` each line is a single-line case
with both ends held where its points are (a free point's end becomes a ``fixed`` end at the
point), solved by the single-line solver (:func:`tetherdyn.statics.solve`, warm-started
from the line's previous solution moved with its ends). The residual of a free point is
the net static force on it: its own weight, buoyancy and current drag plus the force of
every line end on it. That force is the system model's own (models/system.py's rhs at
rest evaluates each free point's load, ``pforce``: the dynamics' physics, written once).
Newton's method on ``R(x) = 0`` with a forward-difference Jacobian (each column re-solves
the lines on the perturbed point) updated by Broyden's formula between steps, and a
backtracking line search on ``|R|``; where it
stalls, dynamic relaxation of the whole system (its compiled RK4 step, velocities scaled
down every chunk) brings the points near, and Newton polishes from there.

Converged when every line meets its own test (``max |F_free| <= rtol × its weight``,
docs/statics.md), every free point's ``|R_p| <= rtol × W`` and every free body's
``|F| <= rtol × W``, ``|M| <= rtol × W × L_b`` (below), with ``W`` the system's weight (the
lines' statics weights plus each free point's ``|m − ρV| g`` and current drag and each
free body's ``|m − ρV| g``), else :class:`~tetherdyn.statics.StaticsError` naming the
point or body, its residual and what to try.

Bodies (issue 19): a free body adds 6 unknowns, its reference point's position and a
rotation vector θ [rad] (world axes) turning it from its starting orientation q₀: q =
exp(θ) ⊗ q₀ (the rotation by |θ| about θ/|θ|, then q₀). Its line ends sit at its
attachment points at that pose (a line end on it becomes a ``fixed`` end there, as on a
free point), and its residual is the net force [N] and moment about the reference point
[N m] on it, world axes: the lines' loads on the body as the system model's rhs at rest
lumps them (models/system_bodies.py: each attached end node's load at its attachment,
``bf6``) plus the body's own loads from rigid_body.body_loads (weight at the centre of
gravity, buoyancy at the centre of buoyancy, waterplane or matrix hydrostatics, drag in a
current): the dynamics' physics, written once. The moment enters Newton divided by the
body's size L_b (its farthest attachment from the reference point, at least 1 m), so all
residuals are forces [N] and one tolerance serves; a fixed or coupled body holds its
line ends where it puts them at t. :func:`body_stiffness` differences this residual about
the equilibrium (MoorPy's ``getCoupledStiffness``: every line re-solved for each perturbed
pose) into the body's 6x6 stiffness matrix.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from .case import Case, CaseError, load_case
from .models import build_model
from .models.system import LineSystem
from .models.system_model import build_system
from .rigid_body import (
    WORK_SIZE,
    body_loads,
    body_props,
    rotation_matrix,
    rpy_from_quaternion,
)
from .statics import Equilibrium, StaticsError, solve
from .system_case import SystemCase, attachment_position, load_system

__all__ = ["SystemEquilibrium", "SystemStatics", "solve_system", "body_stiffness"]

#: Newton on the free points: iterations, the forward-difference step (of the shortest
#: line's length [m]), the largest step (of the shortest line on the point), line-search
#: halvings
MAX_ITER = 40
FD_REL = 1e-5
MAX_STEP_REL = 0.25
HALVINGS = 8
#: Newton steps past convergence, each kept only where it lowers |R| (a shape at 1e-6 of
#: the weight is not still in a run: docs/statics.md's polish of a single line)
POLISH = 2
#: dynamic relaxation: RK4 steps per chunk, chunks between Newton attempts, RK4 budget
DR_CHUNK = 8
DR_PROBE = 250
DR_STEPS = 40_000


@dataclass
class SystemEquilibrium:
    """A system's static equilibrium (:func:`solve_system`).

    ``lines``: line name -> its :class:`~tetherdyn.statics.Equilibrium` (both ends held
    at their points); ``points``: point name -> position [m]; ``forces``: point name -> the
    net force [N] of the lines on it (their end forces summed); ``point_residuals``: free
    point name -> |net static force| [N] (lines, weight, buoyancy, drag); ``residual``:
    the largest of those and of the lines' residuals [N]; ``tol`` [N]; ``weight`` [N]
    (module docstring); ``method``: "lines" (no free point), "newton" or
    "dynamic_relaxation+newton"; ``iterations``: Newton iterations on the points.
    """

    case: SystemCase
    lines: dict[str, Equilibrium]
    points: dict[str, np.ndarray]
    forces: dict[str, np.ndarray]
    point_residuals: dict[str, float]
    residual: float
    tol: float
    weight: float
    method: str
    iterations: int
    wall_time_s: float = 0.0
    history: list = field(default_factory=list, repr=False)
    bodies: dict[str, np.ndarray] = field(default_factory=dict)
    body_forces: dict[str, np.ndarray] = field(default_factory=dict)
    body_residuals: dict[str, tuple[float, float]] = field(default_factory=dict)
    statics: SystemStatics | None = field(default=None, repr=False)

    def roll_pitch_yaw(self, body: str) -> np.ndarray:
        """A body's roll, pitch, yaw [rad] at equilibrium (docs/bodies.md's convention)."""
        return rpy_from_quaternion(self.bodies[body][3:7])

    def state(self, model: LineSystem | None = None) -> np.ndarray:
        """The system model's state at rest in this equilibrium (:func:`rest_state`)."""
        model = _build(self.case) if model is None else model
        y = rest_state(model, {k: eq.y for k, eq in self.lines.items()}, self.points,
                       self.bodies)
        model.enforce(0.0, y, model.data)
        return y

    def to_case_dict(self) -> dict:
        """The system case with every line's ``initial.points`` its equilibrium nodes and
        every free point and free body at its equilibrium position (a body's
        ``orientation_deg`` its roll, pitch, yaw; ``initial`` and the bodies' velocities
        dropped: a run of it starts from this shape, at rest)."""
        import copy

        raw = copy.deepcopy(self.case.raw)
        raw.pop("initial", None)
        for name, eq in self.lines.items():
            raw["lines"][name]["initial"] = {
                "points": [[float(v) for v in p] for p in eq.positions]}
        for name, spec in self.case.points.items():
            if spec.type == "free":
                raw["points"][name]["position"] = [float(v) for v in self.points[name]]
        for name, body in self.case.bodies.items():
            if body.type == "free":
                spec = raw["bodies"][name]
                spec["position"] = [float(v) for v in self.bodies[name][:3]]
                spec["orientation_deg"] = [float(v) for v in np.degrees(
                    self.roll_pitch_yaw(name))]
                spec.pop("velocity", None)
                spec.pop("angular_velocity", None)
        return raw


def _build(case: SystemCase) -> LineSystem:
    """The system model of a case (with bodies: models/system_bodies.py's)."""
    return build_system(case)


def rest_state(model: LineSystem, lines: dict[str, np.ndarray],
               points: dict[str, np.ndarray], bodies: dict[str, np.ndarray]) -> np.ndarray:
    """The system model's state at rest, in its own layout (``line_slices``,
    ``point_slice``, ``body_slice``: lumped_mass lines, free points, free bodies, then
    higher_order lines): each line's single-line state ``lines[k]`` ([r, v], v = 0 at
    rest), each free point at ``points[p]`` [m] at rest, each free body's 13 states."""
    y = np.zeros(model.n_state)
    for k, sl in model.line_slices().items():
        y[sl] = lines[k]
    for p in model.free_points:
        y[model.point_slice(p)][:3] = points[p]
    for b in getattr(model, "free_bodies", []):
        y[model.body_slice(b)] = bodies[b]
    return y


def _rotvec_quaternion(theta: np.ndarray) -> np.ndarray:
    """The unit quaternion [w, x, y, z] of the rotation vector theta [rad] (Euler-Rodrigues:
    angle |θ| about θ/|θ|)."""
    a = float(np.linalg.norm(theta))
    if a < 1e-300:
        return np.array([1.0, 0.0, 0.0, 0.0])
    return np.concatenate([[math.cos(0.5 * a)], math.sin(0.5 * a) * theta / a])


def _qmul(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Hamilton product p ⊗ q (scalar first; rigid_body.py's convention)."""
    pw, px, py, pz = p
    qw, qx, qy, qz = q
    return np.array([pw * qw - px * qx - py * qy - pz * qz,
                     pw * qx + px * qw + py * qz - pz * qy,
                     pw * qy - px * qz + py * qw + pz * qx,
                     pw * qz + px * qy - py * qx + pz * qw])


class SystemStatics:
    """The solver's state for one system case (module docstring): the lines' held-end
    cases, their last equilibria (warm starts) and the system model whose rhs gives the
    free points' and free bodies' loads.

    The unknowns ``x``: each free point's position (3), then each free body's position
    and rotation vector (3 + 3); :attr:`blocks` names each 3-entry block (kind, name),
    :attr:`reach` its scale (the shortest line on it [m]; a rotation's: that over L_b
    [rad])."""

    def __init__(self, case: SystemCase, *, rtol: float = 1e-6, t: float = 0.0) -> None:
        self.case = case
        self.rtol = rtol
        self.t = t
        self.model = _build(case)
        self.data = self.model.make_data()
        self.free = list(self.model.free_points)
        self.free_bodies = list(getattr(self.model, "free_bodies", []))
        self._check_still()
        self.eqs: dict[str, Equilibrium] = {}
        self._guess: dict[str, np.ndarray | None] = {
            k: self._given_points(k) for k in case.lines}
        self._dydt = np.empty(self.model.n_state)
        # each body's pose at t (free: its starting pose, q0 of the rotation vector)
        self.body0 = {b: self._held_body_state(b) for b in case.bodies}
        g = np.asarray(case.environment.gravity, dtype=float)
        self._g = g
        self._props = {b: body_props(case.bodies[b], case.environment.fluid_density,
                                     float(np.linalg.norm(g))) for b in self.free_bodies}
        first = next(iter(self.model.line_models.values())).data
        self._sea = (first.sea_par, first.sea_current, first.sea_wind, first.sea_waves,
                     first.sea_grid)
        self._work = np.zeros(WORK_SIZE)
        self._out6 = np.zeros(6)
        # L_b: the moment's length scale of each free body (module docstring)
        self.size = {b: max([1.0] + [float(np.linalg.norm(at)) for _, _, at in
                                     case.attached_to_body(b)]) for b in self.free_bodies}
        # the 3-entry blocks of x, their lines and scales
        self.blocks: list[tuple[str, str]] = [("point", p) for p in self.free]
        for b in self.free_bodies:
            self.blocks += [("body", b), ("rotation", b)]
        self.block_lines = [self._lines_on(kind, name) for kind, name in self.blocks]
        reach = []
        for (kind, name), on in zip(self.blocks, self.block_lines, strict=True):
            length = min([case.lines[k].tether.length for k in on] or [1.0])
            reach.append(length / self.size[name] if kind == "rotation" else length)
        self.reach = np.array(reach)

    # -- setup ---------------------------------------------------------------------------
    def _lines_on(self, kind: str, name: str) -> set[str]:
        """The lines with an end on a point or body."""
        if kind == "point":
            return {k for k, _ in self.case.attached(name)}
        return {k for k, _, _ in self.case.attached_to_body(name)}

    def _held_body_state(self, name: str) -> np.ndarray:
        """A body's 13 states at t at rest (fixed: its pose; coupled: its trajectory's;
        free: its starting pose, velocities dropped)."""
        body = self.case.bodies[name]
        if body.type == "coupled":
            from .rigid_body import coupled_state

            pos, ang = body.motion(self.case.base_dir)
            y = np.zeros(13)
            coupled_state(pos.breaks, pos.coeffs, ang.breaks, ang.coeffs, float(self.t),
                          np.zeros((3, 3)), y)
        else:
            y = np.array(self.case.body_states[name], dtype=float)
        y[3:7] /= np.linalg.norm(y[3:7])
        y[7:] = 0.0
        return y

    def _check_still(self) -> None:
        """A coupled point or body moving at t has no static equilibrium (a tow): refused."""
        for name, spec in self.case.points.items():
            if spec.type != "coupled":
                continue
            line, w = self.case.attached(name)[0]
            _, v = self.case.lines[line].end_state("end" if w else "start", self.t)
            if float(np.linalg.norm(v)) > 0.0:
                raise CaseError(
                    f"points.{name}.trajectory: the point moves at t = {self.t:g} s "
                    f"({np.linalg.norm(v):.3g} m/s): a system has no static equilibrium "
                    "then (towed systems are not solved; start the trajectory at rest)")
        for name, body in self.case.bodies.items():
            if body.type != "coupled":
                continue
            from .rigid_body import coupled_state

            pos, ang = body.motion(self.case.base_dir)
            y = np.zeros(13)
            coupled_state(pos.breaks, pos.coeffs, ang.breaks, ang.coeffs, float(self.t),
                          np.zeros((3, 3)), y)
            speed = float(np.linalg.norm(y[7:10]) + np.linalg.norm(y[10:13]))
            if speed > 0.0:
                raise CaseError(
                    f"bodies.{name}.trajectory: the body moves at t = {self.t:g} s "
                    f"(|v| + |ω| = {speed:.3g}): a system has no static equilibrium then "
                    "(start the trajectory at rest)")

    def _given_points(self, line: str) -> np.ndarray | None:
        """The case's own ``lines.<line>.initial.points``, resampled onto the line's nodes
        (the line model's initial shape), as the first guess; None: the analytic start."""
        if not self.case.raw["lines"][line].get("initial"):
            return None
        m = self.model.line_models[line]
        return np.asarray(m.outputs(np.array([0.0]), m.initial_state()[None, :])
                          ["position"][0], dtype=float)

    # -- the unknowns ----------------------------------------------------------------------
    def x0(self) -> np.ndarray:
        """The unknowns at the case's start: free points where the case puts them, free
        bodies at their starting pose (θ = 0)."""
        parts = [self.case.point_positions[p] for p in self.free]
        for b in self.free_bodies:
            parts += [self.body0[b][:3], np.zeros(3)]
        return np.concatenate(parts) if parts else np.zeros(0)

    def body_state(self, x: np.ndarray, name: str) -> np.ndarray:
        """A body's 13 states at rest for the unknowns x (free: position x and q =
        exp(θ) ⊗ q0; held: as at t)."""
        if name not in self.free_bodies:
            return self.body0[name]
        o = 3 * len(self.free) + 6 * self.free_bodies.index(name)
        y = np.zeros(13)
        y[:3] = x[o:o + 3]
        y[3:7] = _qmul(_rotvec_quaternion(np.asarray(x[o + 3:o + 6], dtype=float)),
                       self.body0[name][3:7])
        return y

    def _ends(self, x: np.ndarray) -> dict[str, np.ndarray]:
        """Every point's position [m] for the unknowns x; held points where the case
        puts them at t."""
        pos = {}
        for name, spec in self.case.points.items():
            if spec.type == "free":
                i = self.free.index(name)
                pos[name] = np.array(x[3 * i:3 * i + 3], dtype=float)
            elif spec.type == "fixed":
                pos[name] = np.asarray(spec.position, dtype=float)
            else:
                line, w = self.case.attached(name)[0]
                pos[name] = np.asarray(self.case.lines[line].end_state(
                    "end" if w else "start", self.t)[0], dtype=float)
        return pos

    def _line_ends(self, line: str, x: np.ndarray, pos: dict[str, np.ndarray]
                   ) -> tuple[np.ndarray | None, np.ndarray | None]:
        """Where line ``line``'s two ends are held: at their points' ``pos`` or at their
        bodies' attachment points (None: an end held by the line's own case, a fixed or
        coupled point's)."""
        out = []
        for w, p in enumerate(self.case.line_points[line]):
            on = self.case.line_bodies[line][w]
            if on is not None:
                out.append(attachment_position(self.body_state(x, on[0]), on[1]))
            else:
                out.append(pos[p])
        return out[0], out[1]

    # -- lines ---------------------------------------------------------------------------
    def _line_case(self, line: str, ends) -> Case:
        """Line ``line``'s case with its ends on free points and bodies held at ``ends``
        (its ends' positions [m])."""
        raw = self.case.lines[line].to_dict()
        for w, which in enumerate(("start", "end")):
            p = self.case.line_points[line][w]
            if p is None or self.case.points[p].type == "free":
                raw[which] = {"type": "fixed", "position": [float(v) for v in ends[w]]}
        raw["initial"] = {"shape": "equilibrium"}
        return load_case(raw, base_dir=self.case.base_dir)

    def _solve_line(self, line: str, ends) -> Equilibrium:
        """Line ``line`` in equilibrium between its ends at ``ends``, warm-started from its
        last solution with each node moved by its ends' displacements, blended by arc
        length."""
        model = build_model(self._line_case(line, ends))
        guess = None
        prev = self.eqs.get(line)
        a, b = ends
        if prev is not None:
            nodes = np.array(prev.positions, dtype=float)
            s = np.asarray(model.arc_length, dtype=float)
            f = (s / s[-1])[:, None]
            guess = nodes + (1.0 - f) * (a - nodes[0]) + f * (b - nodes[-1])
        elif self._guess[line] is not None:
            guess = self._guess[line].copy()
            guess[0], guess[-1] = a, b
        return solve(model, t=self.t, rtol=self.rtol, guess=guess)

    def lines_at(self, x: np.ndarray, only: set[str] | None = None
                 ) -> dict[str, Equilibrium]:
        """Every line's equilibrium (only those in ``only`` re-solved) for the unknowns
        x; raises StaticsError where a line has none."""
        pos = self._ends(x)
        eqs = dict(self.eqs)
        for k in self.case.lines:
            if only is None or k in only or k not in eqs:
                try:
                    eqs[k] = self._solve_line(k, self._line_ends(k, x, pos))
                except StaticsError as exc:
                    raise StaticsError(f"lines.{k}: {exc}") from None
        return eqs

    # -- the force balance -----------------------------------------------------------------
    def _evaluate(self, x: np.ndarray, eqs: dict[str, Equilibrium]) -> None:
        """The system model's rhs at rest for the unknowns x and the lines' equilibria:
        the free points' loads into data.pforce, the lines' loads on the free bodies into
        data.bf6 (models/system.py, models/system_bodies.py)."""
        y = self._state(x, eqs)
        self.model.enforce(self.t, y, self.data)
        self.model.rhs(self.t, y, self._dydt, self.data)

    def _state(self, x: np.ndarray, eqs: dict[str, Equilibrium]) -> np.ndarray:
        """The system state at rest: the lines' equilibria, the free points and bodies at
        x."""
        return rest_state(self.model, {k: eq.y for k, eq in eqs.items()},
                          {p: x[3 * i:3 * i + 3] for i, p in enumerate(self.free)},
                          {b: self.body_state(x, b) for b in self.free_bodies})

    def body_load(self, name: str, state: np.ndarray, f6_lines: np.ndarray) -> np.ndarray:
        """Everything acting on a free body at rest at ``state`` [N, N m; world axes,
        moment about its reference point]: the lines' ``f6_lines`` plus its own loads
        (rigid_body.body_loads: weight, buoyancy, hydrostatics, drag in a current)."""
        gx, gy, gz = (float(v) for v in self._g)
        # the kernel's own code run by Python (its _loads compiled): one call per residual
        body_loads.py_func(self.t, state, np.asarray(f6_lines, dtype=float),
                           self._props[name], *self._sea, gx, gy, gz, self._work,
                           self._out6)
        return self._out6.copy()

    def _residual(self, x: np.ndarray, eqs: dict[str, Equilibrium], *,
                  lines_only: bool = False, scaled: bool = True) -> np.ndarray:
        """The net static load on each free point (3 per point: the system model's point
        load at rest, its weight, buoyancy and drag plus its line ends' loads) and free
        body (its force [N], then its moment [N m] about the reference point, world axes,
        divided by L_b where ``scaled``); ``lines_only``: a body's lines' load alone."""
        self._evaluate(x, eqs)
        parts = [np.array(self.data.pforce[:len(self.free)], dtype=float).ravel()]
        for b in self.free_bodies:
            f6 = np.array(self.data.bf6[self.model.bodies.index(b)], dtype=float)
            if not lines_only:
                f6 = self.body_load(b, self.body_state(x, b), f6)
            if scaled:
                f6[3:] /= self.size[b]
            parts.append(f6)
        return np.concatenate(parts)

    def _own_load(self, x: np.ndarray) -> np.ndarray:
        """Each free point's and free body's own static load magnitude [N] (a point's
        wet weight and current drag: its rhs load with its line ends' loads taken out; a
        body's |m − ρV| g), the module docstring's weight."""
        eqs = self.lines_at(x) if len(self.eqs) < len(self.case.lines) else self.eqs
        R = self._residual(x, eqs)[:3 * len(self.free)].reshape(-1, 3)
        ends = np.zeros_like(R)
        for i, p in enumerate(self.free):
            ends[i] = self._line_forces(p, eqs)
        rho = self.case.environment.fluid_density
        g = float(np.linalg.norm(self._g))
        own = [abs(self.case.bodies[b].mass - rho * self.case.bodies[b].volume) * g
               for b in self.free_bodies]
        return np.concatenate([np.linalg.norm(R - ends, axis=1), own])

    def _line_forces(self, point: str, eqs: dict[str, Equilibrium]) -> np.ndarray:
        """The net force [N] of the lines on a point (their end forces summed)."""
        f = np.zeros(3)
        for line, w in self.case.attached(point):
            eq = eqs[line]
            out = eq.model.outputs(np.array([eq.t]), eq.y[None, :])
            f += np.asarray(out["end_force" if w else "start_force"][0], dtype=float)
        return f

    def body_line_load(self, name: str, x: np.ndarray, eqs: dict[str, Equilibrium]
                       ) -> np.ndarray:
        """The lines' force [N] and moment about the body's reference point [N m] on a
        body, world axes: their end forces (what each line exerts on its holder) at the
        attachment points."""
        st = self.body_state(x, name)
        R = rotation_matrix(st[3:7])
        f6 = np.zeros(6)
        for line, w, at in self.case.attached_to_body(name):
            eq = eqs[line]
            out = eq.model.outputs(np.array([eq.t]), eq.y[None, :])
            f = np.asarray(out["end_force" if w else "start_force"][0], dtype=float)
            f6[:3] += f
            f6[3:] += np.cross(R @ at, f)
        return f6

    def _jacobian(self, x: np.ndarray, R: np.ndarray) -> np.ndarray:
        """∂R/∂x [N/m] by forward differences from (x, R), each column re-solving the
        lines on the perturbed point or body (warm-started from the current equilibria,
        kept)."""
        n = x.size
        J = np.empty((n, n))
        base = dict(self.eqs)
        for j in range(n):
            h = FD_REL * self.reach[j // 3]
            xp = x.copy()
            xp[j] += h
            self.eqs = base
            J[:, j] = (self._residual(xp, self.lines_at(xp, self.block_lines[j // 3]))
                       - R) / h
        self.eqs = base
        return J

    def newton(self, x: np.ndarray, tol: float, max_iter: int = MAX_ITER
               ) -> tuple[np.ndarray, np.ndarray, int]:
        """Newton with a backtracking line search on |R| from x: (x, R, iterations). The
        Jacobian by differences, then Broyden's update after each full step (one line solve
        per iteration), differenced afresh after a damped step or where its step finds no
        descent. Stops converged (max |R| <= tol, then up to POLISH steps more while |R|
        falls), at max_iter, or where no step of a fresh Jacobian lowers |R|."""
        self.eqs = self.lines_at(x)
        R = self._residual(x, self.eqs)
        it = 0
        J = None
        extra = 0  # steps taken past convergence (POLISH)
        while it < max_iter and (np.max(np.abs(R)) > tol or (J is not None
                                                              and extra < POLISH)):
            if np.max(np.abs(R)) <= tol:
                extra += 1
            it += 1
            fresh = J is None
            if fresh:
                J = self._jacobian(x, R)
            step = self._line_search(x, R, J)
            if step is None and not fresh:
                J = self._jacobian(x, R)
                fresh = True
                step = self._line_search(x, R, J)
            if step is None:
                return x, R, it  # no step lowers |R|: stalled
            xt, Rt, eqs, full = step
            dx, dR = xt - x, Rt - R
            # Broyden's update (1965) after a full step; after a damped one the model is
            # far from linear over the step: a fresh Jacobian
            J = J + np.outer(dR - J @ dx, dx) / float(dx @ dx) if full else None
            x, R, self.eqs = xt, Rt, eqs
        return x, R, it

    def _line_search(self, x: np.ndarray, R: np.ndarray, J: np.ndarray):
        """The Newton step of J from x, halved until |R| falls (Armijo on |R|₂), at most
        MAX_STEP_REL of the shortest line on each point: (x, R, line equilibria, whether the
        full step was taken), or None."""
        try:
            dx = -np.linalg.solve(J, R)
        except np.linalg.LinAlgError:
            dx = -np.linalg.lstsq(J, R, rcond=None)[0]
        step = np.linalg.norm(dx.reshape(-1, 3), axis=1)
        cap = np.min(np.where(step > 0, MAX_STEP_REL * self.reach / np.maximum(
            step, 1e-300), 1.0))
        alpha = min(1.0, float(cap))
        r0 = float(np.linalg.norm(R))
        for _ in range(HALVINGS + 1):
            xt = x + alpha * dx
            try:
                eqs = self.lines_at(xt)
                Rt = self._residual(xt, eqs)
            except StaticsError:
                Rt = None
            if Rt is not None and np.all(np.isfinite(Rt)) and (
                    np.linalg.norm(Rt) < (1.0 - 1e-4 * alpha) * r0):
                return xt, Rt, eqs, alpha == 1.0
            alpha *= 0.5
        return None

    def relax(self, x: np.ndarray, max_steps: int = DR_STEPS) -> np.ndarray:
        """Dynamic relaxation of the whole system from the lines in equilibrium at the
        unknowns x: the system's compiled RK4 step, velocities scaled by
        exp(−c·DR_CHUNK·dt) after every chunk (c = 1.4 sqrt(g / L), L the longest line:
        near critical for the slowest, pendulum-like mode). Returns the unknowns after
        max_steps steps (the caller's Newton judges them)."""
        from .integrate import SimulationError, StepperOptions, make_stepper
        from .models.base import RunData

        model = self.model
        y = self.state_at(x)
        dt = 0.8 * model.critical_time_step()[0]
        g = max(float(np.linalg.norm(self.case.lines[next(iter(self.case.lines))]
                                     .environment.gravity)), 1e-3)
        span = max(c.tether.length for c in self.case.lines.values())
        decay = math.exp(-1.4 * math.sqrt(g / span) * DR_CHUNK * dt)
        data = RunData(model)
        times = self.t + dt * np.arange(1, DR_CHUNK + 1)
        Y = np.empty((DR_CHUNK, y.size))
        # each line's state is [r, v] (3 n each), lumped_mass and higher_order alike
        rates = [np.arange((s.start + s.stop) // 2, s.stop)
                 for s in model.line_slices().values()]
        rates += [np.arange(model.point_slice(p).start + 3, model.point_slice(p).stop)
                  for p in self.free]
        rates += [np.arange(model.body_slice(b).start + 7, model.body_slice(b).stop)
                  for b in self.free_bodies]
        rates = np.concatenate(rates).astype(int)
        for _ in range(max(1, max_steps // DR_CHUNK)):
            st = make_stepper("rk4", model, data, y, self.t, StepperOptions(dt=dt))
            try:
                if st.advance(times, Y) < DR_CHUNK:
                    break
            except SimulationError:
                break
            y = Y[-1].copy()
            y[rates] *= decay
        parts = [y[model.point_slice(p)][:3] for p in self.free]
        for b in self.free_bodies:
            s = y[model.body_slice(b)]
            q = s[3:7] / np.linalg.norm(s[3:7])
            theta = _rotvec_of(q, self.body0[b][3:7])
            parts += [s[:3], theta]
        return np.concatenate(parts) if parts else x

    def state_at(self, x: np.ndarray) -> np.ndarray:
        """The system state at rest with the lines in equilibrium at the unknowns x."""
        y = self._state(x, self.lines_at(x))
        self.model.enforce(self.t, y, self.model.data)
        return y


def solve_system(case: SystemCase | dict | str, *, rtol: float = 1e-6, t: float = 0.0,
                 max_iter: int = MAX_ITER, relax_steps: int = DR_STEPS
                 ) -> SystemEquilibrium:
    """The static equilibrium of a system case (module docstring) at time ``t`` [s]:
    free points and free bodies where their force (and moment) balance holds within
    ``rtol`` of the system's weight, every line in its own equilibrium between its ends.
    Raises StaticsError when nothing converges (the point or body, its residual, the
    methods tried, what to try)."""
    if not isinstance(case, SystemCase):
        case = load_system(case)
    t0 = time.perf_counter()
    ss = SystemStatics(case, rtol=rtol, t=t)
    x = ss.x0()
    ss.eqs = ss.lines_at(x)
    weight = float(sum(eq.weight for eq in ss.eqs.values()))
    if x.size:
        weight += float(np.sum(ss._own_load(x)))
    tol = rtol * weight
    method, it = "lines", 0
    R = np.zeros(0)
    if x.size:
        method = "newton"
        x, R, it = ss.newton(x, tol, max_iter)
        if np.max(np.abs(R)) > tol:
            method = "dynamic_relaxation+newton"
            x0, R0 = x, R
            try:
                xr = ss.relax(x, relax_steps)
                x, R, it2 = ss.newton(xr, tol, max_iter)
                it += it2
            except StaticsError:
                x, R = x0, R0
            if np.max(np.abs(R)) > tol and np.max(np.abs(R0)) < np.max(np.abs(R)):
                x, R = x0, R0
                ss.eqs = ss.lines_at(x)
    pos = ss._ends(x)
    n_p = 3 * len(ss.free)
    res_p = {p: float(np.linalg.norm(R[3 * i:3 * i + 3])) for i, p in enumerate(ss.free)}
    res_b = {}
    for j, b in enumerate(ss.free_bodies):
        r = R[n_p + 6 * j:n_p + 6 * j + 6]
        res_b[b] = (float(np.linalg.norm(r[:3])), float(np.linalg.norm(r[3:])) * ss.size[b])
    residual = max([eq.residual for eq in ss.eqs.values()] + list(res_p.values())
                   + [max(f, m / ss.size[b]) for b, (f, m) in res_b.items()])
    bodies = {b: ss.body_state(x, b) for b in case.bodies}
    if res_p and max(res_p.values()) > tol:
        worst = max(res_p, key=res_p.get)
        raise StaticsError(
            f"points.{worst}: no static equilibrium found: its net force is "
            f"{res_p[worst]:.3g} N at {_fmt(pos[worst])} m (tolerance {tol:.3g} N, "
            f"{rtol:g} of the system's weight {weight:.6g} N) after {it} Newton iterations "
            "and dynamic relaxation. Try: the free points' positions nearer their "
            "equilibrium (points.<name>.position), more elements, or check that one "
            "exists (a free point needs lines that can hold its net load: a buoyant point "
            "with slack lines, or lines too short to reach, have none)")
    bad = {b: v for b, v in res_b.items() if max(v[0], v[1] / ss.size[b]) > tol}
    if bad:
        worst = max(bad, key=lambda b: max(bad[b][0], bad[b][1] / ss.size[b]))
        f, m = bad[worst]
        rpy = np.degrees(rpy_from_quaternion(bodies[worst][3:7]))
        raise StaticsError(
            f"bodies.{worst}: no static equilibrium found: its net force is {f:.3g} N and "
            f"moment {m:.3g} N m at {_fmt(bodies[worst][:3])} m, roll/pitch/yaw "
            f"{_fmt(rpy)}° (tolerance {tol:.3g} N, and {tol * ss.size[worst]:.3g} N m = "
            f"tolerance × L_b = {ss.size[worst]:.3g} m; {rtol:g} of the system's weight "
            f"{weight:.6g} N) after {it} Newton iterations and dynamic relaxation. Try: "
            "the body's position and orientation_deg nearer its equilibrium, or check that "
            "one exists (weight, buoyancy and hydrostatics the lines can hold; a body "
            "without hydrostatics or lines below and above it may have no stable pose)")
    forces = {p: ss._line_forces(p, ss.eqs) for p in case.points}
    body_forces = {b: ss.body_line_load(b, x, ss.eqs) for b in case.bodies}
    return SystemEquilibrium(case=case, lines=dict(ss.eqs), points=pos, forces=forces,
                             point_residuals=res_p, residual=float(residual), tol=tol,
                             weight=weight, method=method, iterations=it,
                             wall_time_s=time.perf_counter() - t0, bodies=bodies,
                             body_forces=body_forces, body_residuals=res_b, statics=ss)


def body_stiffness(eq: SystemEquilibrium, body: str, *, lines_only: bool = False,
                   condense: bool = True, dx: float | None = None,
                   dth: float | None = None) -> np.ndarray:
    """The linearised 6x6 stiffness matrix K of a free body about its static equilibrium
    ``eq`` (:func:`solve_system`): K = −∂(F, M)/∂(x, θ), rows the net force [N] and moment
    about the reference point [N m], columns the reference point's displacement [m] and a
    small rotation about world axes [rad] (at a level pose: roll, pitch, yaw), so
    entries are N/m, N/rad, N m/m, N m/rad. Central differences of the statics residual,
    every line on the body re-solved for each perturbed pose (MoorPy's
    ``System.getCoupledStiffness``); ``lines_only``: the lines' load alone (MoorPy's
    ``lines_only=True``), else with the body's weight, buoyancy and hydrostatics (its
    waterplane's or matrix's restoring, and the moments of weight and buoyancy: ρgV z_b −
    m g z_c in roll and pitch). Steps ``dx`` [m] (default 1e-4 of the shortest line on
    the body) and ``dth`` [rad] (default dx / L_b). ``condense``: every other free point
    and body re-settles for each perturbation (static condensation K_bb − K_bo K_oo⁻¹
    K_ob of the whole system's K); else they stay where they are."""
    ss = eq.statics
    if ss is None:
        raise ValueError("body_stiffness: the equilibrium has no solver state "
                         "(give solve_system's own result)")
    if body not in ss.free_bodies:
        known = ", ".join(ss.free_bodies) or "none"
        raise ValueError(f"body_stiffness: {body!r} is not a free body (free bodies: "
                         f"{known}); a fixed or coupled body is held, it has no stiffness "
                         "of its own here")
    x = np.concatenate([eq.points[p] for p in ss.free] + [
        np.concatenate([eq.bodies[b][:3], _rotvec_of(eq.bodies[b][3:7], ss.body0[b][3:7])])
        for b in ss.free_bodies]) if (ss.free or ss.free_bodies) else np.zeros(0)
    n_p = 3 * len(ss.free)
    o = n_p + 6 * ss.free_bodies.index(body)
    cols = list(range(x.size)) if condense else list(range(o, o + 6))
    base = dict(eq.lines)
    J = np.zeros((x.size, x.size))
    for j in cols:
        blk = j // 3
        kind = ss.blocks[blk][0]
        name = ss.blocks[blk][1]
        if kind == "rotation":  # reach[blk] is the shortest line over L_b
            h = dth if dth is not None else (
                dx / ss.size[name] if dx is not None else 1e-4 * ss.reach[blk])
        else:
            h = dx if dx is not None else 1e-4 * ss.reach[blk]
        R2 = []
        for sgn in (1.0, -1.0):
            xp = x.copy()
            xp[j] += sgn * h
            ss.eqs = base
            eqs = ss.lines_at(xp, ss.block_lines[blk])
            r = ss._residual(xp, eqs, scaled=False)
            if lines_only:
                r[o:o + 6] = ss._residual(xp, eqs, lines_only=True, scaled=False)[o:o + 6]
            R2.append(r)
        J[:, j] = (R2[0] - R2[1]) / (2.0 * h)
    ss.eqs = base
    K = -J
    b = slice(o, o + 6)
    if not condense or x.size == 6:
        return K[b, b].copy()
    others = np.r_[0:o, o + 6:x.size]
    Kbo = K[b][:, others]
    Kob = K[others][:, b]
    Koo = K[np.ix_(others, others)]
    return K[b, b] - Kbo @ np.linalg.solve(Koo, Kob)


def _rotvec_of(q: np.ndarray, q0: np.ndarray) -> np.ndarray:
    """The rotation vector θ [rad] with q = exp(θ) ⊗ q0 (the inverse of
    :meth:`SystemStatics.body_state`'s map)."""
    dq = _qmul(np.asarray(q, dtype=float), np.asarray(q0, dtype=float)
               * np.array([1.0, -1.0, -1.0, -1.0]))
    if dq[0] < 0.0:
        dq = -dq
    v = float(np.linalg.norm(dq[1:]))
    return 2.0 * math.atan2(v, dq[0]) * dq[1:] / v if v > 0.0 else np.zeros(3)


def _fmt(v) -> str:
    return "(" + ", ".join(f"{float(c):.6g}" for c in v) + ")"
