"""Run a system case and write its results: one netCDF file with a group per line and point
(shared/spec/results-format.md, "Systems"; open with ``xarray.open_datatree``).

SystemCase -> BodySystem (models/system_model.build_system, for every system) -> integrate
(the same Stepper as a single line)
-> :class:`SystemResults`: ``lines/<name>`` laid out as a single-line result (the same
:func:`tetherdyn.results.results_table`), ``points/<name>`` with ``position``, ``velocity``
and ``force`` (the net force of the lines on the point, each line end's start_force /
end_force summed), and for a free point its own ``kinetic_energy`` and
``potential_energy`` (the point body's: the lines' energies are in their groups), and
``bodies/<name>`` with the body's ``position``, ``orientation`` (quaternion w, x, y, z),
``roll_pitch_yaw``, ``velocity``, ``angular_velocity`` and the ``force`` and ``moment`` of
the lines on it (a free body also its ``kinetic_energy`` and ``potential_energy``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ._version import __version__
from .integrate import IntegrationResult, integrate
from .models.nodes import GX, PAYLOAD, WEIGHT
from .models.system import LineSystem
from .models.system_model import build_system
from .results import ResultsTable, Variable, plain_group, results_table, write_group
from .rigid_body import mass_matrix, rotation_matrix, rpy_from_quaternion
from .system_case import SystemCase, load_system

if TYPE_CHECKING:
    import xarray as xr

__all__ = ["run_system", "SystemResults", "system_results", "system_model",
           "system_initial_state"]


class _LineView:
    """What results_table reads of a model, for one line of a system run (its outputs
    computed with the system: models.system.LineSystem.line_outputs)."""

    def __init__(self, model, outputs: dict) -> None:
        self.arc_length = model.arc_length
        self.n_nodes = model.n_nodes
        self.n_elements = model.n_elements
        self._outputs = outputs

    def outputs(self, times, Y, data=None) -> dict:
        return dict(self._outputs)


@dataclass
class SystemResults:
    """A system run's results: a :class:`~tetherdyn.results.ResultsTable` per line, the
    points' variables (name -> variable -> (dims, values, attrs)) and global attributes."""

    lines: dict[str, ResultsTable]
    points: dict[str, dict[str, Variable]]
    times: np.ndarray
    attrs: dict
    bodies: dict[str, dict[str, Variable]] | None = None

    def energies(self) -> tuple[np.ndarray, np.ndarray]:
        """(kinetic, kinetic + potential) energy [J] of the whole system over ``times``:
        every line's (its end nodes included), plus each free point's and free body's own
        (their ``kinetic_energy`` / ``potential_energy``; fixed and coupled ones have
        none)."""
        ke = np.zeros_like(self.times)
        pe = np.zeros_like(self.times)
        parts = [t.data_vars for t in self.lines.values()]
        parts += [*self.points.values(), *(self.bodies or {}).values()]
        for v in parts:
            if "kinetic_energy" in v:
                ke = ke + v["kinetic_energy"][1]
                pe = pe + v["potential_energy"][1]
        return ke, ke + pe

    def groups(self) -> dict[str, tuple[dict[str, Variable], dict[str, Variable], dict]]:
        """Each group's (data variables, coordinates, attributes) by its path
        (``lines/<name>``, ``points/<name>``, ``bodies/<name>``); the root holds ``time``
        and :attr:`attrs`, which every group inherits."""
        axis = {"axis": (("axis",), np.array(["x", "y", "z"]), {})}
        body = {**axis, "component": (("component",), np.array(["w", "x", "y", "z"]), {}),
                "angle": (("angle",), np.array(["roll", "pitch", "yaw"]), {})}
        out = {f"lines/{k}": (t.data_vars, t.coords, t.attrs) for k, t in self.lines.items()}
        out |= {f"points/{k}": (v, axis, {}) for k, v in self.points.items()}
        out |= {f"bodies/{k}": (v, body, {}) for k, v in (self.bodies or {}).items()}
        return out

    def _time(self) -> dict[str, Variable]:
        return {"time": (("time",), self.times, {"units": "s"})}

    def to_datatree(self) -> xr.DataTree:
        """The results as an xarray.DataTree: ``/`` (attributes, time), ``lines/<name>``,
        ``points/<name>``, ``bodies/<name>``."""
        import xarray as xr

        tree = {"/": ResultsTable({}, self._time(), self.attrs).to_dataset()}
        for path, (data_vars, coords, attrs) in self.groups().items():
            tree[path] = ResultsTable(data_vars, {**self._time(), **coords},
                                      attrs).to_dataset()
        return xr.DataTree.from_dict(tree)

    def write(self, path: str | Path) -> Path:
        """Write the netCDF file (groups; ``xarray.open_datatree`` reads it): the file
        ``to_datatree().to_netcdf`` writes, written with netCDF4 alone
        (results.write_group; tests/test_system_cosim.py compares the two) — importing
        xarray brings dask and dask.distributed, ~1.9 s of CPU (issue 22). Variables or
        attributes of another kind go through xarray."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        groups = self.groups()
        if not (plain_group({}, self._time(), self.attrs)
                and all(plain_group(*g) for g in groups.values())):
            self.to_datatree().to_netcdf(path)
            return path
        import netCDF4

        with netCDF4.Dataset(path, "w", format="NETCDF4") as nc:
            write_group(nc, {}, self._time(), self.attrs)
            for key, (data_vars, coords, attrs) in groups.items():
                kind, name = key.split("/", 1)
                parent = nc.groups[kind] if kind in nc.groups else nc.createGroup(kind)
                write_group(parent.createGroup(name), data_vars,
                            {**self._time(), **coords}, attrs, inherited=("time",))
        return path


def system_results(case: SystemCase, model: LineSystem, run: IntegrationResult
                   ) -> SystemResults:
    """The results of a system run (module docstring)."""
    outs = model.line_outputs(run.times, run.states, run.data)
    lines = {}
    for name, m in model.line_models.items():
        sub = IntegrationResult(run.times, run.states[:, model.line_slices()[name]],
                                run.rhs_evaluations, run.wall_time_s, run.steps, run.stats)
        table = results_table(case.lines[name], _LineView(m, outs[name]), sub)
        table.attrs.pop("case", None)  # the system's case is the root's
        table.attrs["line"] = name
        for w, which in enumerate(("start", "end")):
            on_body = case.line_bodies[name][w]
            if on_body is None:
                table.attrs[f"{which}_point"] = case.line_points[name][w]
            else:
                table.attrs[f"{which}_body"] = on_body[0]
                table.attrs[f"{which}_at"] = on_body[1]
        lines[name] = table
    g = model.data.pscal[GX:GX + 3]
    points = {}
    k = run.times.size
    for name, spec in case.points.items():
        force = np.zeros((k, 3))
        pos = vel = None
        for line, w in case.attached(name):
            out = outs[line]
            force += out["end_force" if w else "start_force"]
            node = -1 if w else 0
            pos, vel = out["position"][:, node], out["velocity"][:, node]
        variables: dict[str, Variable] = {}
        if spec.type == "free":
            s = model.point_slice(name)
            pos, vel = run.states[:, s][:, :3], run.states[:, s][:, 3:]
            row = model.data.ptab[model.free_points.index(name)]
            ke = 0.5 * row[PAYLOAD] * np.sum(vel * vel, axis=1)
            pe = -row[WEIGHT] * (pos @ g)
            variables["kinetic_energy"] = (("time",), ke, {
                "units": "J", "long_name": "kinetic energy of the point body (mass and its "
                "added mass; the attached line ends' in their lines)"})
            variables["potential_energy"] = (("time",), pe, {
                "units": "J", "long_name": "gravitational potential energy of the point "
                "body (with buoyancy)"})
        variables["position"] = (("time", "axis"), np.array(pos), {
            "units": "m", "long_name": "point position"})
        variables["velocity"] = (("time", "axis"), np.array(vel), {
            "units": "m/s", "long_name": "point velocity"})
        variables["force"] = (("time", "axis"), force, {
            "units": "N", "long_name": "net force of the lines on the point (their end "
            "forces summed)"})
        points[name] = variables
    bodies = _body_results(case, model, run, outs) if case.bodies else None
    attrs = dict(
        tetherdyn_version=__version__, model="system", method=case.method,
        dt=float(case.solver.dt), wall_time_s=float(run.wall_time_s),
        rhs_evaluations=int(run.rhs_evaluations), steps=int(run.steps),
        lines=len(model.line_models), points=len(case.points),
        free_points=len(model.free_points), bodies=len(case.bodies), case=case.to_yaml())
    if case.name:
        attrs["title"] = case.name
    return SystemResults(lines, points, run.times, attrs, bodies)


def _body_results(case: SystemCase, model, run: IntegrationResult, outs: dict
                  ) -> dict[str, dict[str, Variable]]:
    """Each body's variables (module docstring): its motion, and the lines' force and
    moment about its reference point, world axes (their end forces, results-format.md:
    what each line exerts on its holder, at the attachment points)."""
    states = model.body_states(run.times, run.states)
    g = model.data.pscal[GX:GX + 3]
    rho = case.environment.fluid_density
    out = {}
    for name, body in case.bodies.items():
        y = states[name]
        k = y.shape[0]
        R = np.array([rotation_matrix(q) for q in y[:, 3:7]]).reshape(k, 3, 3)
        force = np.zeros((k, 3))
        moment = np.zeros((k, 3))
        for line, w, at in case.attached_to_body(name):
            f = outs[line]["end_force" if w else "start_force"]
            force += f
            moment += np.cross(R @ at, f)
        v: dict[str, Variable] = {}
        v["position"] = (("time", "axis"), y[:, 0:3], {
            "units": "m", "long_name": "body reference point position"})
        q = y[:, 3:7] / np.linalg.norm(y[:, 3:7], axis=1)[:, None]
        v["orientation"] = (("time", "component"), q, {
            "units": "1", "long_name": "unit quaternion body -> world (w, x, y, z)"})
        v["roll_pitch_yaw"] = (("time", "angle"), np.array([rpy_from_quaternion(c) for c in q]
                                                            ).reshape(k, 3), {
            "units": "rad", "long_name": "roll, pitch, yaw: R = Rx(roll) Ry(pitch) Rz(yaw) "
            "(docs/bodies.md)"})
        v["velocity"] = (("time", "axis"), y[:, 7:10], {
            "units": "m/s", "long_name": "body reference point velocity"})
        v["angular_velocity"] = (("time", "axis"), y[:, 10:13], {
            "units": "rad/s", "long_name": "angular velocity, body axes"})
        v["force"] = (("time", "axis"), force, {
            "units": "N", "long_name": "net force of the lines on the body (their end "
            "forces summed)"})
        v["moment"] = (("time", "axis"), moment, {
            "units": "N m", "long_name": "moment of the lines on the body about its "
            "reference point, world axes"})
        if body.type == "free":
            M = mass_matrix(body, 1.0 if rho > 0 else 0.0)
            xi = np.concatenate([np.einsum("kji,kj->ki", R, y[:, 7:10]), y[:, 10:13]], axis=1)
            ke = 0.5 * np.einsum("ki,ij,kj->k", xi, M, xi)
            c = np.array(body.center_of_gravity)
            cb = np.array(body.center_of_buoyancy if body.center_of_buoyancy is not None
                          else body.center_of_gravity)
            pe = -(body.mass * ((y[:, 0:3] + R @ c) @ g)
                   - rho * body.volume * ((y[:, 0:3] + R @ cb) @ g))
            v["kinetic_energy"] = (("time",), ke, {
                "units": "J", "long_name": "kinetic energy of the body (with its added mass "
                "in still water; the attached line ends' in their lines)"})
            v["potential_energy"] = (("time",), pe, {
                "units": "J", "long_name": "gravitational potential energy of the body's "
                "weight and buoyancy (hydrostatic restoring not included)"})
        out[name] = v
    return out


def system_model(case: SystemCase) -> LineSystem:
    """The system model of a validated system case (with bodies: a BodySystem)."""
    return build_system(case)


def system_initial_state(case: SystemCase, model: LineSystem) -> tuple[np.ndarray, dict]:
    """(y0, attrs): the state a run of the system starts from — each line as its
    ``initial`` lays it, or with ``initial: {shape: equilibrium}`` the static equilibrium
    (system_statics.py) — and the results' ``initial_*`` attributes (docs/systems.md)."""
    if case.initial_shape != "equilibrium":
        return model.initial_state(), {}
    from .system_statics import solve_system

    eq = solve_system(case)
    attrs = dict(initial_shape="equilibrium", initial_equilibrium_method=eq.method,
                 initial_equilibrium_residual=float(eq.residual),
                 initial_equilibrium_relative_residual=float(eq.residual / eq.weight),
                 initial_equilibrium_iterations=int(eq.iterations))
    return eq.state(model), attrs


def run_system(case: SystemCase | dict | str | Path, *, progress: bool | None = None
               ) -> SystemResults:
    """Run a system case (docs/systems.md) and return its :class:`SystemResults`."""
    if not isinstance(case, SystemCase):
        case = load_system(case)
    model = system_model(case)
    s = case.solver
    y0, attrs = system_initial_state(case, model)
    run = integrate(model, case.method, s.dt, s.duration, s.output_interval, rtol=s.rtol,
                    atol=s.atol, max_steps=s.max_steps, progress=progress, y0=y0)
    res = system_results(case, model, run)
    res.attrs.update(attrs)
    return res
