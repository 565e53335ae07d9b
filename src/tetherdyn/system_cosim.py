"""Step API for systems (issue 19): a host (a vessel's seakeeping model, a crane, a robot)
drives the coupled bodies (6-DOF) and coupled points of a system case step by step and
reads back the lines' forces and moments on them.

>>> sim = SystemSimulator("examples/vessel_tms_rov.yaml")
>>> bodies, points = sim.step(0.05, bodies={"vessel": (pose, velocity)})
>>> force, moment = bodies["vessel"]      # on the vessel at t + dt, world axes

A coupled body's ``pose`` is ``[x, y, z, roll, pitch, yaw]`` [m, rad] (its reference point
and docs/bodies.md's angles, R = Rx(roll) Ry(pitch) Rz(yaw)) and its ``velocity``
``[vx, vy, vz, wx, wy, wz]``: the reference point's velocity [m/s], world axes, and the
angular velocity [rad/s] in body axes (the body state's convention); a coupled point's
target is ``(position, velocity)``. Over the step each driven coordinate moves on the cubic
Hermite curve from its value and rate at the step's start to the host's at its end
(cosim.py's segment, the same compiled function; the angles with their rates from ω), or
on a straight line when the host gives the pose or position alone: the lines see a C1
motion across steps. A coupled body or point the host never drives keeps its case
trajectory. The step runs the case's integrator (rk4 with ``solver.dt``, rk45 or
generalized-α) in one compiled call into preallocated arrays; the forces come from one more
compiled call (the system's rhs and its results kernel at t + dt) and one that sums them per
body and point. ``save(path)`` writes the run (state, integrator, the host's segments, the
case) to an ``.npz`` file and ``SystemSimulator.load(path)`` continues it bit for bit.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from ._jit import kernel
from .boundary import eval_motion
from .cosim import SteppedRun, _next_segment
from .integrate import StepperOptions, make_stepper
from .models.base import RunData
from .rigid_body import add_attachment_load, rpy_rates_from_body_rates
from .system_case import SystemCase, load_system
from .system_run import system_initial_state, system_model

__all__ = ["SystemSimulator"]

_TWO_PI = 2.0 * math.pi


@kernel
def _host_loads(line_forces, point_ends, point_out, body_ends, body_at, bstate, body_out):
    """Sum the lines' end forces (line_forces (L, 2, 3): on the start and end holders) per
    host point (point_ends rows: host point, line, 0 start / 1 end) and per host body
    (body_ends rows: host body, line, end, the model's body index; body_at: attachment in
    body axes): force [N] and moment [N m] about the reference point, world axes
    (rigid_body.add_attachment_load), the body at bstate."""
    for p in range(point_out.shape[0]):
        for c in range(3):
            point_out[p, c] = 0.0
    for e in range(point_ends.shape[0]):
        p, k, w = point_ends[e, 0], point_ends[e, 1], point_ends[e, 2]
        for c in range(3):
            point_out[p, c] += line_forces[k, w, c]
    for h in range(body_out.shape[0]):
        for c in range(6):
            body_out[h, c] = 0.0
    for e in range(body_ends.shape[0]):
        h, k, w, b = body_ends[e, 0], body_ends[e, 1], body_ends[e, 2], body_ends[e, 3]
        add_attachment_load(bstate[b], body_at[e], line_forces[k, w], body_out[h])


class SystemSimulator(SteppedRun):
    """A system of lines, points and bodies advanced step by step by a host program.

    ``case``: a :class:`~tetherdyn.system_case.SystemCase`, a case dict or a YAML path
    (docs/systems.md). The host drives the case's **coupled** bodies and points
    (:meth:`step`); free points and bodies move with the lines, fixed ones stay. The run
    starts where :func:`~tetherdyn.system_run.run_system` starts (each line's ``initial``,
    or ``initial: {shape: equilibrium}``'s static solve) and runs the case's integrator
    with its own run data (``data``; two SystemSimulators of one case never see each
    other).

    After every step: ``body_loads[name]`` = (force [N], moment [N m]) of the lines on each
    coupled body, the moment about its reference point, both in world axes;
    ``point_forces[name]`` = the net force [N] of the lines on each coupled point (the
    results file's ``bodies/<name>/force``, ``moment`` and ``points/<name>/force``: what
    the lines exert on their holders, end node loads less the end nodes' inertia at the
    holder's acceleration). Arrays are reused by the next step: copy them to keep them.
    """

    def __init__(self, case: SystemCase | dict | str | Path) -> None:
        self.case = case if isinstance(case, SystemCase) else load_system(case)
        self.method = self.case.method
        self.model = system_model(self.case)
        self.t = 0.0
        y0, self.initial_attrs = system_initial_state(self.case, self.model)
        self.data = RunData(self.model)
        self._stepper = make_stepper(self.method, self.model, self.data, y0, 0.0,
                                     StepperOptions.from_case(self.case))
        self._start()
        self._p1 = np.zeros(3)
        self._v1 = np.zeros(3)
        c = self.case
        lines = list(c.lines)
        self._line_forces = np.zeros((len(lines), 2, 3))
        #: the coupled points and bodies, in case order
        self.coupled_points = [p for p, s in c.points.items() if s.type == "coupled"]
        self.coupled_bodies = [b for b, s in c.bodies.items() if s.type == "coupled"]
        ends = [(i, lines.index(line), w) for i, p in enumerate(self.coupled_points)
                for line, w in c.attached(p)]
        self._point_ends = np.array(ends, dtype=np.int64).reshape(-1, 3)
        rows, at = [], []
        for h, b in enumerate(self.coupled_bodies):
            for line, w, r in c.attached_to_body(b):
                rows.append((h, lines.index(line), w, self.model.bodies.index(b)))
                at.append(r)
        self._body_ends = np.array(rows, dtype=np.int64).reshape(-1, 4)
        self._body_at = np.array(at, dtype=float).reshape(-1, 3)
        self._pf = np.zeros((max(len(self.coupled_points), 1), 3))
        self._bf = np.zeros((max(len(self.coupled_bodies), 1), 6))
        self._bstate = (np.zeros((1, 13)) if not c.bodies else None)
        self.point_forces: dict[str, np.ndarray] = {
            p: self._pf[i] for i, p in enumerate(self.coupled_points)}
        self.body_loads: dict[str, tuple[np.ndarray, np.ndarray]] = {
            b: (self._bf[h, 0:3], self._bf[h, 3:6]) for h, b in enumerate(self.coupled_bodies)}
        # the host's segments: the motion arrays (views into the run data) of each coupled
        # point's line ends and each coupled body, set to one segment on the first drive
        self._driven: set[str] = set()
        self._update_forces()

    # -- state ------------------------------------------------------------------------
    def line_positions(self, line: str) -> np.ndarray:
        """Line ``line``'s node positions now, (nodes, 3) [m] (a view of the state)."""
        s = self.model.line_slices()[line]
        n = self.model.line_models[line].n_nodes
        return self.y[s][:3 * n].reshape(n, 3)

    def line_tensions(self, line: str) -> np.ndarray:
        """Line ``line``'s element tensions now [N] (a view: reused by the next step)."""
        return self.model.last_tensions(line)

    def line_end_forces(self, line: str) -> np.ndarray:
        """(2, 3): the forces [N] line ``line`` exerts on its start and end holders now."""
        return self._line_forces[list(self.model.line_models).index(line)]

    def point_state(self, point: str) -> tuple[np.ndarray, np.ndarray]:
        """A point's position [m] and velocity [m/s] now (copies)."""
        spec = self.case.points[point]
        if spec.type == "free":
            s = self.model.point_slice(point)
            return self.y[s][:3].copy(), self.y[s][3:].copy()
        line, w = self.case.attached(point)[0]
        r = self.line_positions(line)
        i = 0 if w == 0 else r.shape[0] - 1
        n = r.shape[0]
        v = self.y[self.model.line_slices()[line]][3 * n:].reshape(n, 3)
        return r[i].copy(), v[i].copy()

    def body_state(self, body: str) -> np.ndarray:
        """A body's 13 states now (docs/bodies.md's layout: position, quaternion w x y z,
        velocity world axes, angular velocity body axes; a copy)."""
        return self.data.args.bstate[self.model.bodies.index(body)].copy()

    # -- stepping ---------------------------------------------------------------------
    def step(self, dt: float, bodies: dict[str, Any] | None = None,
             points: dict[str, Any] | None = None
             ) -> tuple[dict[str, tuple[np.ndarray, np.ndarray]], dict[str, np.ndarray]]:
        """Advance by ``dt`` [s] with the given coupled bodies and points moved to their
        states at t + dt.

        ``bodies``: name -> pose (6,) ``[x, y, z, roll, pitch, yaw]`` [m, rad], or (pose,
        velocity (6,) ``[vx, vy, vz, wx, wy, wz]`` [m/s, rad/s; ω in body axes]).
        ``points``: name -> position (3,) [m], or (position, velocity (3,) [m/s]).
        Returns (:attr:`body_loads`, :attr:`point_forces`) at t + dt (module docstring).
        """
        t1 = self._step_end(dt)
        for name, target in (points or {}).items():
            self._drive_point(name, t1, target)
        for name, target in (bodies or {}).items():
            self._drive_body(name, t1, target)
        self._advance(t1)
        return self.body_loads, self.point_forces

    def _coupled(self, kind: str, name: str) -> None:
        specs = self.case.points if kind == "points" else self.case.bodies
        held = self.coupled_points if kind == "points" else self.coupled_bodies
        if name not in specs:
            raise ValueError(f"{kind}.{name}: unknown (coupled {kind}: "
                             f"{', '.join(held) or 'none'})")
        if name not in held:
            raise ValueError(f"{kind}.{name}: a {specs[name].type} {kind[:-1]}; make it "
                             f"coupled to drive it from the host (coupled {kind}: "
                             f"{', '.join(held) or 'none'})")

    def _segment(self, key: str, breaks, coeffs, t1, p1, v1, hermite) -> None:
        """Rewrite one motion to the host's segment on [t, t1] (cosim._next_segment), the
        rest of its breaks pushed to infinity on the first drive (one segment on [t, ∞))."""
        _next_segment(breaks, coeffs, self.t, t1, p1, v1, hermite, self._motion)
        if key not in self._driven:
            breaks[1:] = math.inf

    def _drive_point(self, name: str, t1: float, target: Any) -> None:
        key = f"points.{name}"
        self._coupled("points", name)
        p1, v1, hermite = self._host_target(key, target, 3)
        for breaks, coeffs in self.model.point_motions(self.data.args, name):
            self._segment(key, breaks, coeffs, t1, p1, v1, hermite)
        self._driven.add(key)

    def _drive_body(self, name: str, t1: float, target: Any) -> None:
        key = f"bodies.{name}"
        self._coupled("bodies", name)
        pose, vel, hermite = self._host_target(key, target, 6)
        (pb, pc), (ab, ac) = self.model.body_motion(self.data.args, name)
        # angles: the host's nearest to the current ones by whole turns (no spin through a
        # wrap from +pi to -pi); rates from the body-axes angular velocity at the target
        eval_motion(ab, ac, self.t, self._motion)
        ang, rate = self._p1, self._v1
        for a in range(3):
            cur = self._motion[0, a]
            ang[a] = pose[3 + a] + _TWO_PI * round((cur - pose[3 + a]) / _TWO_PI)
        try:
            rate[:] = rpy_rates_from_body_rates(*ang, *vel[3:6])
        except ValueError as exc:
            raise ValueError(f"{key}: {exc}") from None
        self._segment(key, ab, ac, t1, ang, rate, hermite)
        self._segment(key, pb, pc, t1, pose[0:3], vel[0:3], hermite)
        self._driven.add(key)

    def _update_forces(self) -> None:
        args = self.data.args
        self.model.end_forces(self.t, self.y, self._line_forces, args)
        bstate = self._bstate if self._bstate is not None else args.bstate
        _host_loads(self._line_forces, self._point_ends, self._pf, self._body_ends,
                    self._body_at, bstate, self._bf)

    # -- save / restore (cosim.SteppedRun.save / load) --------------------------------
    @staticmethod
    def _case_from(text: str, base_dir: str) -> SystemCase:
        return load_system(text, base_dir=base_dir)
