"""A system case: several lines joined at named points (issue 19, first part; docs/systems.md).

A system case has ``lines`` and ``points`` instead of one ``tether`` with its two ends. Each
line is a full single-line case once its ends are known: its ``tether`` (optionally from a
named ``line_types`` entry), its ``model`` (lumped_mass, with or without bending), and the
system's ``environment`` and ``solver``; its two ends are the points they attach to:

- a ``fixed`` point holds the end at ``position`` (the line's end ``type: fixed``);
- a ``coupled`` point moves the end along its ``trajectory`` (``type: prescribed``);
- a ``free`` point is a point body (``mass``, ``volume``, ``drag_area`` = Cd·A as MoorDyn's
  CdA, added-mass coefficient ``ca``) moving with the lines ending on it (the line's end is
  ``type: free`` without a payload; models/system.py integrates the point).

Every line is validated as the single-line case it makes (:func:`tetherdyn.case.load_case`),
its errors keyed by the line (``lines.<name>.tether.EA: ...``), so a line admits exactly
what a single-line case of its model admits. ``initial: {shape: equilibrium}`` starts the
system from its static equilibrium (system_statics.py; free bodies included). Methods: rk4,
rk45 and generalized_alpha (lumped_mass lines, points and bodies; higher_order lines
refused with it, naming the line).

``bodies`` (name -> :class:`~tetherdyn.rigid_body.Body`, docs/bodies.md) are 6-DOF rigid
bodies; a line end attaches to a body at a point fixed in it (``{body: NAME, at: [x, y,
z]}``, body axes from its reference point). On a fixed body the line's end is a ``fixed``
end where that point is; on a coupled or free body it is a ``free`` end without payload
whose node models/system_bodies.py moves with the body.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .boundary import load_trajectory
from .case import (
    Case,
    CaseError,
    Environment,
    Finite,
    Solver,
    Vec3,
    _format_validation_error,
    is_system,
    load_case,
    read_case_source,
    yaml_text,
)
from .initial import END_GAP_REL
from .rigid_body import Body, attachment_kinematics, body_errors, coupled_state
from .rigid_body import initial_state as body_initial_state

__all__ = ["SystemCase", "load_system", "load_any", "is_system", "SYSTEM_METHODS",
           "SYSTEM_MODELS"]

#: the integrators a system runs with (generalized_alpha: integrate/implicit_system.py,
#: lumped_mass lines, points and bodies)
SYSTEM_METHODS = ("rk4", "rk45", "generalized_alpha")
#: the formulations a system's lines may use
SYSTEM_MODELS = ("lumped_mass", "higher_order")


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LineEnd(_Section):
    """One end of a line: the point it attaches to, or the body and where on it."""

    point: str | None = None
    body: str | None = None
    at: Vec3 | None = None  # on a body: body axes, from its reference point [m]


class LineInitial(_Section):
    """``lines.<name>.initial``: the line's node positions at t = 0 (at rest)."""

    points: list[Vec3] = Field(min_length=2)  # start to end [m], resampled by arc length


class LineSpec(_Section):
    """``lines.<name>``: a line's properties and the points its ends attach to."""

    line_type: str | None = None  # a key of line_types: its tether properties
    length: Finite | None = Field(default=None, gt=0)  # unstretched [m] (or tether.length)
    tether: dict[str, Any] | None = None  # tether keys (case-format.md), over line_type's
    model: dict[str, Any]  # type (lumped_mass), elements, options (bending, ...)
    start: LineEnd
    end: LineEnd
    initial: LineInitial | None = None  # default: straight between its two points


class PointSpec(_Section):
    """``points.<name>``: a fixed, free or coupled point."""

    type: Literal["fixed", "free", "coupled"]
    position: Vec3 | None = None  # fixed: where; free: initial; coupled: trajectory origin
    mass: Finite = Field(default=0.0, ge=0)  # free [kg]
    volume: Finite = Field(default=0.0, ge=0)  # free: displaced volume [m^3]
    drag_area: Finite = Field(default=0.0, ge=0)  # free: Cd x area [m^2] (MoorDyn's CdA)
    ca: Finite = Field(default=0.0, ge=0)  # free: added mass ca rho volume (MoorDyn's CA)
    trajectory: str | dict[str, list[float]] | None = None  # coupled (end trajectory format)
    interpolation: Literal["cubic", "linear"] | None = None


class SystemInitial(_Section):
    """``initial``: the system's state at t = 0 (docs/systems.md, "Statics")."""

    # lines: each line as its own ``initial`` lays it (default: straight between its
    # points), free points where ``position`` puts them; equilibrium: the system's static
    # equilibrium at t = 0 (system_statics.py), those shapes and positions as the guess
    shape: Literal["lines", "equilibrium"] = "lines"


class _SystemModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str | None = None
    initial: SystemInitial = SystemInitial()
    line_types: dict[str, dict[str, Any]] = {}
    lines: dict[str, LineSpec]
    points: dict[str, PointSpec] = {}
    bodies: dict[str, Body] = {}
    environment: Environment = Environment()
    solver: Solver


class SystemCase:
    """A validated system case (build with :func:`load_system`).

    ``lines``: line name -> its single-line :class:`~tetherdyn.case.Case`; ``line_points``:
    line name -> (start point, end point) names (None for an end on a body);
    ``line_bodies``: line name -> per end None or (body name, attachment in body axes [m]);
    ``points``: point name -> its :class:`PointSpec`; ``point_positions``: point name ->
    position at t = 0 [m]; ``bodies``: body name -> its :class:`~tetherdyn.rigid_body.Body`;
    ``body_states``: body name -> its 13 states at t = 0 (rigid_body.py's layout);
    ``environment``, ``solver``, ``method`` as a single-line case's.
    """

    def __init__(self, data: _SystemModel, raw: dict, base_dir: Path, lines: dict[str, Case],
                 positions: dict[str, np.ndarray]) -> None:
        self._data = data
        self.raw = raw
        self.base_dir = base_dir
        self.lines = lines
        self.line_points = {k: (v.start.point, v.end.point) for k, v in data.lines.items()}
        self.line_bodies = {k: tuple(None if e.body is None else
                                     (e.body, np.array(e.at or (0.0, 0.0, 0.0), dtype=float))
                                     for e in (v.start, v.end))
                            for k, v in data.lines.items()}
        self.points = dict(data.points)
        self.point_positions = positions
        self.bodies = dict(data.bodies)
        self.body_states = {k: body_state0(b, base_dir) for k, b in self.bodies.items()}

    @property
    def name(self) -> str | None:
        return self._data.name

    @property
    def initial_shape(self) -> str:
        """``initial.shape``: "lines" (each line's own initial shape) or "equilibrium"."""
        return self._data.initial.shape

    @property
    def environment(self) -> Environment:
        return self._data.environment

    @property
    def solver(self) -> Solver:
        return self._data.solver

    @property
    def method(self) -> str:
        """The integration method (rk4 when the case names none)."""
        return self.solver.method or SYSTEM_METHODS[0]

    def attached(self, point: str) -> list[tuple[str, int]]:
        """The line ends on a point: (line name, 0 for its start / 1 for its end)."""
        return [(k, w) for k, ends in self.line_points.items()
                for w, p in enumerate(ends) if p == point]

    def attached_to_body(self, body: str) -> list[tuple[str, int, np.ndarray]]:
        """The line ends on a body: (line name, 0 start / 1 end, attachment [m], body
        axes)."""
        return [(k, w, e[1]) for k, ends in self.line_bodies.items()
                for w, e in enumerate(ends) if e is not None and e[0] == body]

    def template_line(self) -> Case:
        """A short straight lumped-mass line in vacuum: the field types of a system's
        stacked line data when the system has no lumped-mass line (models/system.py)."""
        return load_case({"tether": {"length": 1.0, "diameter": 0.01,
                                     "mass_per_length": 1.0, "EA": 1.0},
                          "model": {"type": "lumped_mass", "elements": 1},
                          "start": {"type": "fixed", "position": [0.0, 0.0, 0.0]},
                          "end": {"type": "fixed", "position": [1.0, 0.0, 0.0]},
                          "solver": {"dt": 1e-3, "duration": 1e-3,
                                     "output_interval": 1e-3}})

    def to_yaml(self) -> str:
        """The case as YAML text (as given)."""
        return yaml_text(self.raw)

    def with_changes(self, changes: dict[str, Any]) -> SystemCase:
        """A new validated system case with dotted keys replaced (``solver.duration``)."""
        from .case import set_key

        raw = copy.deepcopy(self.raw)
        for path, value in changes.items():
            set_key(raw, path, value)
        return load_system(raw, base_dir=self.base_dir)


def load_any(source: str | Path | dict | Case | SystemCase, *,
             base_dir: str | Path | None = None) -> Case | SystemCase:
    """A single-line :class:`~tetherdyn.case.Case` or a :class:`SystemCase`, whichever the
    source describes (a system has ``lines`` / ``points``)."""
    if isinstance(source, Case | SystemCase):
        return source
    raw, folder = read_case_source(source, base_dir)
    if is_system(raw):
        return load_system(raw, base_dir=folder)
    return load_case(raw, base_dir=folder)


def _point_position(name: str, p: PointSpec, base_dir: Path) -> tuple[np.ndarray | None, str]:
    """A point's position at t = 0 [m], or (None, the error)."""
    if p.type == "coupled":
        if p.trajectory is None:
            return None, f"points.{name}.trajectory: required for a coupled point"
        try:
            traj = load_trajectory(p.trajectory, p.interpolation, base_dir, origin=p.position)
        except ValueError as exc:
            return None, f"points.{name}.trajectory: {exc}"
        return np.asarray(traj.evaluate(0.0)[0], dtype=float), ""
    if p.position is None:
        return None, f"points.{name}.position: required for a {p.type} point"
    return np.asarray(p.position, dtype=float), ""


def _point_errors(name: str, p: PointSpec, n_lines: int) -> list[str]:
    errors = []
    if p.type != "coupled":
        for key in ("trajectory", "interpolation"):
            if getattr(p, key) is not None:
                errors.append(f"points.{name}.{key}: only a coupled point follows a "
                              "trajectory")
    if p.type != "free":
        for key in ("mass", "volume", "drag_area", "ca"):
            if getattr(p, key) != 0.0:
                errors.append(f"points.{name}.{key}: only a free point has {key} (a "
                              f"{p.type} point is held)")
    if n_lines == 0:
        if p.type != "free":
            errors.append(f"points.{name}: no line ends at this {p.type} point")
        elif p.mass == 0.0:
            errors.append(f"points.{name}: a free point with no mass and no line has no "
                          "inertia (give mass, or attach a line)")
    elif p.type == "free" and p.ca > 0.0 and p.volume == 0.0:
        errors.append(f"points.{name}.ca: the added mass is ca rho volume: give volume > 0")
    return errors


def body_state0(body: Body, base_dir: Path) -> np.ndarray:
    """A body's 13 states at t = 0: a coupled body's from its trajectory (rigid_body.py's
    layout)."""
    if body.type != "coupled":
        return body_initial_state(body)
    pos, ang = body.motion(base_dir)
    y = np.zeros(13)
    coupled_state(pos.breaks, pos.coeffs, ang.breaks, ang.coeffs, 0.0, np.zeros((3, 3)), y)
    return y


def attachment_position(state: np.ndarray, at: np.ndarray) -> np.ndarray:
    """World position [m] of the body point ``at`` (body axes) with the body at ``state``."""
    pos, vel = np.zeros(3), np.zeros(3)
    attachment_kinematics(state, np.asarray(at, dtype=float), pos, vel)
    return pos


def _end_errors(name: str, which: str, e: LineEnd, data: _SystemModel) -> list[str]:
    """A line end's own errors: one point or one body, known by name."""
    key = f"lines.{name}.{which}"
    if (e.point is None) == (e.body is None):
        return [f"{key}: give point: NAME or body: NAME (with at: [x, y, z]), one of them"]
    if e.point is not None:
        if e.at is not None:
            return [f"{key}.at: only an end on a body has an attachment position"]
        if e.point not in data.points:
            known = ", ".join(data.points) or "none"
            return [f"{key}.point: unknown point {e.point!r} (points: {known})"]
    elif e.body not in data.bodies:
        known = ", ".join(data.bodies) or "none"
        return [f"{key}.body: unknown body {e.body!r} (bodies: {known})"]
    return []


def _end_section(p: PointSpec) -> dict:
    """A line end's section in its single-line case, from the point it attaches to."""
    if p.type == "fixed":
        return {"type": "fixed", "position": list(p.position)}
    if p.type == "coupled":
        end: dict[str, Any] = {"type": "prescribed", "trajectory": p.trajectory}
        if p.interpolation is not None:
            end["interpolation"] = p.interpolation
        if p.position is not None:
            end["position"] = list(p.position)
        return end
    return {"type": "free"}


def _line_raw(name: str, spec: LineSpec, data: _SystemModel, raw: dict,
              positions: dict[str, np.ndarray], body_states: dict[str, np.ndarray]
              ) -> tuple[dict | None, list[str]]:
    """The single-line case mapping of line ``name``, or (None, errors)."""
    errors = []
    tether: dict[str, Any] = {}
    if spec.line_type is not None:
        if spec.line_type not in data.line_types:
            known = ", ".join(data.line_types) or "none"
            errors.append(f"lines.{name}.line_type: unknown line type {spec.line_type!r} "
                          f"(line_types: {known})")
        else:
            tether.update(data.line_types[spec.line_type])
    tether.update(spec.tether or {})
    if spec.length is not None:
        if "length" in (spec.tether or {}):
            errors.append(f"lines.{name}.length: give length or tether.length, not both")
        tether["length"] = spec.length
    mtype = spec.model.get("type")
    if mtype not in SYSTEM_MODELS:
        errors.append(f"lines.{name}.model.type: a system's lines are "
                      f"{' or '.join(SYSTEM_MODELS)} in this version (got {mtype!r})")
    ends = (spec.start, spec.end)
    for which, e in zip(("start", "end"), ends, strict=True):
        errors += _end_errors(name, which, e, data)
    if ends[0].point is not None and ends[0].point == ends[1].point:
        errors.append(f"lines.{name}.end.point: the line starts at {ends[0].point!r} too (a "
                      "line joins two points)")
    if errors or any(e.point not in positions if e.point is not None else
                     e.body not in body_states for e in ends):
        return None, errors  # (a point's or body's own error is reported by load_system)
    # each end's position at t = 0, its section in the line's case, whether it moves
    # with the system (free point, coupled or free body)
    at0, sections, moving = [], [], []
    for e in ends:
        if e.point is not None:
            at0.append(positions[e.point])
            sections.append(_end_section(data.points[e.point]))
            moving.append(data.points[e.point].type == "free")
        else:
            at0.append(attachment_position(body_states[e.body], e.at or (0.0, 0.0, 0.0)))
            held = data.bodies[e.body].type == "fixed"
            sections.append({"type": "fixed", "position": at0[-1].tolist()} if held
                            else {"type": "free"})
            moving.append(not held)
    line = {"name": f"{data.name or 'system'}: line {name}", "tether": tether,
            "model": dict(spec.model)}
    if "environment" in raw:
        line["environment"] = copy.deepcopy(raw["environment"])
    line["start"], line["end"] = sections
    if spec.initial is not None:
        pts = [list(p) for p in spec.initial.points]
        # held ends are checked by the line's case; an end moving with the system here
        allowed = END_GAP_REL * tether.get("length", 1.0) / max(1, spec.model.get("elements", 1))
        for which, e, k, x0, mv in zip(("start", "end"), ends, (0, len(pts) - 1), at0, moving,
                                       strict=True):
            gap = float(np.linalg.norm(np.asarray(pts[k]) - x0))
            if mv and gap > allowed:
                where = f"point {e.point!r}" if e.point is not None else f"body {e.body!r}'s {e.at}"
                errors.append(f"lines.{name}.initial.points[{k}]: the line's {which} must be "
                              f"at {where} {x0.tolist()} (off by {gap:.3g} m)")
        line["initial"] = {"shape": "points", "points": pts}
    else:
        # laid straight along the chord between its two ends at t = 0
        line["initial"] = {"shape": "points", "points": [x.tolist() for x in at0]}
    if errors:
        return None, errors
    line["solver"] = copy.deepcopy(raw["solver"])
    return line, []


def load_system(source: str | Path | dict, *, base_dir: str | Path | None = None
                ) -> SystemCase:
    """Load and validate a system case (module docstring) from a YAML path, text or dict.

    Raises :class:`~tetherdyn.case.CaseError` naming each offending key path
    (``lines.<name>.…``, ``points.<name>.…``).
    """
    raw, folder = read_case_source(source, base_dir)
    for key in ("tether", "model", "start", "end"):
        if key in raw:
            raise CaseError(f"{key}: a system case gives each line's {key} under "
                            "lines.<name> (or a point), not at the top level")
    try:
        data = _SystemModel.model_validate(raw)
    except ValidationError as exc:
        raise CaseError(_format_validation_error(exc)) from None
    errors: list[str] = []
    if not data.lines:
        errors.append("lines: a system needs at least one line")
    method = data.solver.method or SYSTEM_METHODS[0]
    if method not in SYSTEM_METHODS:
        errors.append(f"solver.method: a system runs with {' or '.join(SYSTEM_METHODS)} "
                      f"(got {method}: not built for systems)")
    if method == "generalized_alpha":
        errors += [f"lines.{name}.model.type: generalized_alpha in a system takes lumped_mass "
                   f"lines only in this version (got {s.model.get('type')}); use rk4 or rk45 "
                   "for solver.method"
                   for name, s in data.lines.items() if s.model.get("type") != "lumped_mass"]
    folder = folder.resolve()
    positions: dict[str, np.ndarray] = {}
    for name, p in data.points.items():
        n_lines = sum((s.start.point, s.end.point).count(name) for s in data.lines.values())
        errors += _point_errors(name, p, n_lines)
        pos, err = _point_position(name, p, folder)
        if err:
            errors.append(err)
        else:
            positions[name] = pos
    body_states: dict[str, np.ndarray] = {}
    for name, b in data.bodies.items():
        errs = body_errors(b, data.environment, folder, f"bodies.{name}")
        on = [k for k, s in data.lines.items() if name in (s.start.body, s.end.body)]
        if not on and b.type != "free":
            errs.append(f"bodies.{name}: no line ends on this {b.type} body")
        errors += errs
        if not errs:
            body_states[name] = body_state0(b, folder)
    lines: dict[str, Case] = {}
    for name, spec in data.lines.items():
        line, errs = _line_raw(name, spec, data, raw, positions, body_states)
        if line is None:
            errors += errs  # (a point's or body's own error is reported above)
            continue
        try:
            lines[name] = load_case(line, base_dir=folder)
        except CaseError as exc:
            errors += [f"lines.{name}.{m}" for m in str(exc).splitlines()]
    if errors:
        raise CaseError("\n".join(errors))
    return SystemCase(data, raw, folder, lines, positions)
