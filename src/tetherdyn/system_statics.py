"""Statics of a system: free points at their equilibrium, every line hanging in its own
(issue 19, "Statics"; docs/systems.md, "Statics").

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
docs/statics.md) and every free point's ``|R_p| <= rtol × W``, with ``W`` the system's
weight (the lines' statics weights plus each free point's ``|m − ρV| g`` and current
drag), else :class:`~tetherdyn.statics.StaticsError` naming the point, its residual and
what to try.

Bodies (issue 19's next part) add their 6 DOF to ``x`` (position and a rotation vector):
:meth:`SystemStatics._ends` places the line ends on a body at its pose, and
:meth:`SystemStatics._residual` appends the body's net force and moment about its
reference point (line end forces and their moments, weight at the centre of gravity,
buoyancy at the centre of buoyancy, hydrostatic stiffness); the Newton, Jacobian, line
search and relaxation below take any length of ``x``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from .case import Case, CaseError, load_case
from .models import build_model
from .models.system import LineSystem, build_system
from .statics import Equilibrium, StaticsError, solve
from .system_case import SystemCase, load_system

__all__ = ["SystemEquilibrium", "SystemStatics", "solve_system"]

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

    def state(self, model: LineSystem | None = None) -> np.ndarray:
        """The system model's state at rest in this equilibrium (models/system.py's
        layout: each line's ``[r, 0]``, then each free point's ``[r_p, 0]``)."""
        model = build_system(self.case) if model is None else model
        y = np.concatenate([self.lines[k].y for k in model.line_models]
                           + [np.concatenate([self.points[p], np.zeros(3)])
                              for p in model.free_points])
        model.enforce(0.0, y, model.data)
        return y

    def to_case_dict(self) -> dict:
        """The system case with every line's ``initial.points`` its equilibrium nodes and
        every free point at its equilibrium position (``initial`` dropped: a run of it
        starts from this shape, at rest)."""
        import copy

        raw = copy.deepcopy(self.case.raw)
        raw.pop("initial", None)
        for name, eq in self.lines.items():
            raw["lines"][name]["initial"] = {
                "points": [[float(v) for v in p] for p in eq.positions]}
        for name, spec in self.case.points.items():
            if spec.type == "free":
                raw["points"][name]["position"] = [float(v) for v in self.points[name]]
        return raw


class SystemStatics:
    """The solver's state for one system case (module docstring): the lines' held-end
    cases, their last equilibria (warm starts) and the system model whose rhs gives the
    free points' loads."""

    def __init__(self, case: SystemCase, *, rtol: float = 1e-6, t: float = 0.0) -> None:
        self.case = case
        self.rtol = rtol
        self.t = t
        self.model = build_system(case)
        self.data = self.model.make_data()
        self.free = list(self.model.free_points)
        self._check_still()
        self.eqs: dict[str, Equilibrium] = {}
        self._guess: dict[str, np.ndarray | None] = {
            k: self._given_points(k) for k in case.lines}
        self._dydt = np.empty(self.model.n_state)
        # the shortest line on each free point: its Newton step limit and difference step
        self.reach = np.array([min(case.lines[k].tether.length for k, _ in case.attached(p))
                               for p in self.free])

    # -- setup ---------------------------------------------------------------------------
    def _check_still(self) -> None:
        """A coupled point moving at t has no static equilibrium (a tow): refused."""
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

    def _given_points(self, line: str) -> np.ndarray | None:
        """The case's own ``lines.<line>.initial.points``, resampled onto the line's nodes
        (the line model's initial shape), as the first guess; None: the analytic start."""
        if not self.case.raw["lines"][line].get("initial"):
            return None
        m = self.model.line_models[line]
        return np.asarray(m.outputs(np.array([0.0]), m.initial_state()[None, :])
                          ["position"][0], dtype=float)

    # -- lines ---------------------------------------------------------------------------
    def _ends(self, x: np.ndarray) -> dict[str, np.ndarray]:
        """Every point's position [m] for the free points' positions x (3 per point, in
        the model's order); held points where the case puts them at t. (A body's line ends
        would be placed here from its pose.)"""
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

    def _line_case(self, line: str, pos: dict[str, np.ndarray]) -> Case:
        """Line ``line``'s case with both ends held at its points' positions ``pos``."""
        raw = self.case.lines[line].to_dict()
        for which, p in zip(("start", "end"), self.case.line_points[line], strict=True):
            if self.case.points[p].type == "free":
                raw[which] = {"type": "fixed", "position": [float(v) for v in pos[p]]}
        raw["initial"] = {"shape": "equilibrium"}
        return load_case(raw, base_dir=self.case.base_dir)

    def _solve_line(self, line: str, pos: dict[str, np.ndarray]) -> Equilibrium:
        """Line ``line`` in equilibrium between its points at ``pos``, warm-started from its
        last solution with each node moved by its ends' displacements, blended by arc
        length."""
        model = build_model(self._line_case(line, pos))
        guess = None
        prev = self.eqs.get(line)
        if prev is not None:
            nodes = np.array(prev.positions, dtype=float)
            s = np.asarray(model.arc_length, dtype=float)
            f = (s / s[-1])[:, None]
            a, b = (pos[p] for p in self.case.line_points[line])
            guess = nodes + (1.0 - f) * (a - nodes[0]) + f * (b - nodes[-1])
        elif self._guess[line] is not None:
            guess = self._guess[line].copy()
            a, b = (pos[p] for p in self.case.line_points[line])
            guess[0], guess[-1] = a, b
        return solve(model, t=self.t, rtol=self.rtol, guess=guess)

    def lines_at(self, x: np.ndarray, only: set[str] | None = None
                 ) -> dict[str, Equilibrium]:
        """Every line's equilibrium (only those in ``only`` re-solved) for free points at
        x; raises StaticsError where a line has none."""
        pos = self._ends(x)
        eqs = dict(self.eqs)
        for k in self.case.lines:
            if only is None or k in only or k not in eqs:
                try:
                    eqs[k] = self._solve_line(k, pos)
                except StaticsError as exc:
                    raise StaticsError(f"lines.{k}: {exc}") from None
        return eqs

    # -- the points' force balance ---------------------------------------------------------
    def _residual(self, x: np.ndarray, eqs: dict[str, Equilibrium]) -> np.ndarray:
        """The net static force [N] on each free point (3 per point): the system model's
        point load at rest (models/system.py: its weight, buoyancy and drag plus its line
        ends' loads). (A body's net force and moment would follow.)"""
        y = np.concatenate([eqs[k].y for k in self.model.line_models]
                           + [np.concatenate([x[3 * i:3 * i + 3], np.zeros(3)])
                              for i in range(len(self.free))])
        self.model.enforce(self.t, y, self.data)
        self.model.rhs(self.t, y, self._dydt, self.data)
        return np.array(self.data.pforce[:len(self.free)], dtype=float).ravel()

    def _own_load(self, x: np.ndarray) -> np.ndarray:
        """Each free point's own static load magnitude [N] (its wet weight and current
        drag, lines left out): the point load of the rhs with its line ends' loads
        taken out (module docstring's weight)."""
        eqs = self.lines_at(x) if len(self.eqs) < len(self.case.lines) else self.eqs
        R = self._residual(x, eqs).reshape(-1, 3)
        ends = np.zeros_like(R)
        for i, p in enumerate(self.free):
            ends[i] = self._line_forces(p, eqs)
        return np.linalg.norm(R - ends, axis=1)

    def _line_forces(self, point: str, eqs: dict[str, Equilibrium]) -> np.ndarray:
        """The net force [N] of the lines on a point (their end forces summed)."""
        f = np.zeros(3)
        for line, w in self.case.attached(point):
            eq = eqs[line]
            out = eq.model.outputs(np.array([eq.t]), eq.y[None, :])
            f += np.asarray(out["end_force" if w else "start_force"][0], dtype=float)
        return f

    def _jacobian(self, x: np.ndarray, R: np.ndarray) -> np.ndarray:
        """∂R/∂x [N/m] by forward differences from (x, R), each column re-solving the
        lines on the perturbed point (warm-started from the current equilibria, kept)."""
        n = x.size
        J = np.empty((n, n))
        base = dict(self.eqs)
        for j in range(n):
            p = self.free[j // 3]
            on = {k for k, _ in self.case.attached(p)}
            h = FD_REL * self.reach[j // 3]
            xp = x.copy()
            xp[j] += h
            self.eqs = base
            J[:, j] = (self._residual(xp, self.lines_at(xp, on)) - R) / h
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
        """Dynamic relaxation of the whole system from the lines in equilibrium on points
        at x: the system's compiled RK4 step, velocities scaled by exp(−c·DR_CHUNK·dt)
        after every chunk (c = 1.4 sqrt(g / L), L the longest line: near critical for the
        slowest, pendulum-like mode). Returns the points' positions after max_steps steps
        (the caller's Newton judges them)."""
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
        rates = np.concatenate([np.arange(model.data.off[k] + 3 * m.n_nodes,
                                          model.data.off[k + 1])
                                for k, m in enumerate(model.line_models.values())]
                               + [np.arange(model.point_slice(p).start + 3,
                                            model.point_slice(p).stop)
                                  for p in self.free]).astype(int)
        for _ in range(max(1, max_steps // DR_CHUNK)):
            st = make_stepper("rk4", model, data, y, self.t, StepperOptions(dt=dt))
            try:
                if st.advance(times, Y) < DR_CHUNK:
                    break
            except SimulationError:
                break
            y = Y[-1].copy()
            y[rates] *= decay
        return np.concatenate([y[model.point_slice(p)][:3] for p in self.free]) \
            if self.free else x

    def state_at(self, x: np.ndarray) -> np.ndarray:
        """The system state at rest with the lines in equilibrium on points at x."""
        eqs = self.lines_at(x)
        y = np.concatenate([eqs[k].y for k in self.model.line_models]
                           + [np.concatenate([x[3 * i:3 * i + 3], np.zeros(3)])
                              for i in range(len(self.free))])
        self.model.enforce(self.t, y, self.model.data)
        return y


def solve_system(case: SystemCase | dict | str, *, rtol: float = 1e-6, t: float = 0.0,
                 max_iter: int = MAX_ITER, relax_steps: int = DR_STEPS
                 ) -> SystemEquilibrium:
    """The static equilibrium of a system case (module docstring) at time ``t`` [s]:
    free points where their force balance holds within ``rtol`` of the system's weight,
    every line in its own equilibrium between its points. Raises StaticsError when
    nothing converges (the point, its residual, the methods tried, what to try)."""
    if not isinstance(case, SystemCase):
        case = load_system(case)
    if case.bodies:
        raise CaseError("bodies: the static equilibrium of a system with rigid bodies is not "
                        "built (system statics balances free points only)")
    t0 = time.perf_counter()
    ss = SystemStatics(case, rtol=rtol, t=t)
    x = np.concatenate([case.point_positions[p] for p in ss.free]) if ss.free else np.zeros(0)
    ss.eqs = ss.lines_at(x)
    weight = float(sum(eq.weight for eq in ss.eqs.values()))
    if ss.free:
        weight += float(np.sum(ss._own_load(x)))
    tol = rtol * weight
    method, it = "lines", 0
    R = np.zeros(0)
    if ss.free:
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
    res_p = {p: float(np.linalg.norm(R[3 * i:3 * i + 3])) for i, p in enumerate(ss.free)}
    residual = max([eq.residual for eq in ss.eqs.values()] + list(res_p.values()))
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
    forces = {p: ss._line_forces(p, ss.eqs) for p in case.points}
    return SystemEquilibrium(case=case, lines=dict(ss.eqs), points=pos, forces=forces,
                             point_residuals=res_p, residual=float(residual), tol=tol,
                             weight=weight, method=method, iterations=it,
                             wall_time_s=time.perf_counter() - t0)


def _fmt(v) -> str:
    return "(" + ", ".join(f"{float(c):.6g}" for c in v) + ")"
