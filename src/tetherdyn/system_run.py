"""Run a system case and write its results: one netCDF file with a group per line and point
(shared/spec/results-format.md, "Systems"; open with ``xarray.open_datatree``).

SystemCase -> LineSystem (models/system.py) -> integrate (the same Stepper as a single line)
-> :class:`SystemResults`: ``lines/<name>`` laid out as a single-line result (the same
:func:`tetherdyn.results.results_table`), ``points/<name>`` with ``position``, ``velocity``
and ``force`` (the net force of the lines on the point, each line end's start_force /
end_force summed), and for a free point its own ``kinetic_energy`` and
``potential_energy`` (the point body's: the lines' energies are in their groups).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ._version import __version__
from .integrate import IntegrationResult, integrate
from .models.nodes import GX, PAYLOAD, WEIGHT
from .models.system import LineSystem, build_system
from .results import ResultsTable, Variable, results_table
from .system_case import SystemCase, load_system

if TYPE_CHECKING:
    import xarray as xr

__all__ = ["run_system", "SystemResults", "system_results"]


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

    def to_datatree(self) -> xr.DataTree:
        """The results as an xarray.DataTree: ``/`` (attributes, time), ``lines/<name>``,
        ``points/<name>``."""
        import xarray as xr

        axis = {"axis": ("axis", np.array(["x", "y", "z"]))}
        root = xr.Dataset(coords={"time": ("time", self.times, {"units": "s"})},
                          attrs=self.attrs)
        tree = {"/": root}
        for name, table in self.lines.items():
            tree[f"lines/{name}"] = table.to_dataset()
        for name, variables in self.points.items():
            ds = xr.Dataset({k: (d, v, a) for k, (d, v, a) in variables.items()},
                            coords={"time": ("time", self.times, {"units": "s"}), **axis})
            tree[f"points/{name}"] = ds
        return xr.DataTree.from_dict(tree)

    def write(self, path: str | Path) -> Path:
        """Write the netCDF file (groups; ``xarray.open_datatree`` reads it)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.to_datatree().to_netcdf(path)
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
        table.attrs["start_point"], table.attrs["end_point"] = case.line_points[name]
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
    attrs = dict(
        tetherdyn_version=__version__, model="system", method=case.method,
        dt=float(case.solver.dt), wall_time_s=float(run.wall_time_s),
        rhs_evaluations=int(run.rhs_evaluations), steps=int(run.steps),
        lines=len(model.line_models), points=len(case.points),
        free_points=len(model.free_points), case=case.to_yaml())
    if case.name:
        attrs["title"] = case.name
    return SystemResults(lines, points, run.times, attrs)


def run_system(case: SystemCase | dict | str | Path, *, progress: bool | None = None
               ) -> SystemResults:
    """Run a system case (docs/systems.md) and return its :class:`SystemResults`."""
    if not isinstance(case, SystemCase):
        case = load_system(case)
    model = build_system(case)
    s = case.solver
    y0, attrs = model.initial_state(), {}
    if case.initial_shape == "equilibrium":  # the static equilibrium (system_statics.py)
        from .system_statics import solve_system

        eq = solve_system(case)
        y0 = eq.state(model)
        attrs = dict(initial_shape="equilibrium", initial_equilibrium_method=eq.method,
                     initial_equilibrium_residual=float(eq.residual),
                     initial_equilibrium_relative_residual=float(eq.residual / eq.weight),
                     initial_equilibrium_iterations=int(eq.iterations))
    run = integrate(model, case.method, s.dt, s.duration, s.output_interval, rtol=s.rtol,
                    atol=s.atol, max_steps=s.max_steps, progress=progress, y0=y0)
    res = system_results(case, model, run)
    res.attrs.update(attrs)
    return res
