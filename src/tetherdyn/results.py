"""The one results builder: an xarray.Dataset per shared/spec/results-format.md, netCDF I/O."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ._version import __version__
from .case import Case
from .integrate import IntegrationResult
from .models.base import Formulation

if TYPE_CHECKING:  # xarray costs ~0.3 s to import: only where a Dataset is made (issue 22)
    import xarray as xr

__all__ = ["build_results", "save_results", "load_results", "REQUIRED_VARIABLES"]

REQUIRED_VARIABLES = {
    "arc_length": "m",
    "position": "m",
    "velocity": "m/s",
    "tension": "N",
    "start_force": "N",
    "end_force": "N",
    "kinetic_energy": "J",
    "potential_energy": "J",
}

_DESCRIPTIONS = {
    "arc_length": "unstretched arc length of each node from the start end",
    "position": "node positions",
    "velocity": "node velocities",
    "tension": "axial internal force, positive in tension",
    "start_force": "force the tether exerts on whatever holds its start end",
    "end_force": "force the tether exerts on whatever holds its end end",
    "kinetic_energy": "kinetic energy (structure, payloads and added fluid mass)",
    "potential_energy": "gravitational (with buoyancy) plus elastic potential energy",
}


def build_results(case: Case, model: Formulation, run: IntegrationResult) -> xr.Dataset:
    """Assemble the Dataset from a formulation's outputs at the integrated instants.

    A formulation may return variables beyond the required ones (a model's own results,
    e.g. nodal slopes) as ``name: (dims, values, attrs)`` with ``units`` and
    ``long_name`` in attrs; they go into the Dataset unchanged.
    """
    import xarray as xr

    out = model.outputs(run.times, run.states, run.data)
    dims = {
        "position": ("time", "node", "axis"),
        "velocity": ("time", "node", "axis"),
        "tension": ("time", "element"),
        "start_force": ("time", "axis"),
        "end_force": ("time", "axis"),
        "kinetic_energy": ("time",),
        "potential_energy": ("time",),
    }
    data_vars = {"arc_length": (("node",), model.arc_length)}
    for name, d in dims.items():
        data_vars[name] = (d, out.pop(name))
    for name, extra in out.items():
        if not (isinstance(extra, tuple) and len(extra) == 3 and "units" in extra[2]):
            raise TypeError(f"model output {name!r}: give (dims, values, attrs with units)")
        data_vars[name] = extra
    ds = xr.Dataset(
        data_vars,
        coords={
            "time": ("time", run.times),
            "node": ("node", np.arange(model.n_nodes)),
            "element": ("element", np.arange(model.n_elements)),
            "axis": ("axis", ["x", "y", "z"]),
        },
    )
    for name, units in REQUIRED_VARIABLES.items():
        ds[name].attrs.update(units=units, long_name=_DESCRIPTIONS[name])
    ds["time"].attrs["units"] = "s"
    ds.attrs.update(
        tetherdyn_version=__version__,
        model=case.model.type,
        elements=int(case.model.elements),
        method=case.method,
        dt=float(case.solver.dt),
        wall_time_s=float(run.wall_time_s),
        rhs_evaluations=int(run.rhs_evaluations),
        steps=int(run.steps),
        # method-specific counters (generalized_alpha: jacobians, rejected_steps, ...)
        **{k: v for k, v in run.stats.items() if k != "steps"},
        case=case.to_yaml(),
    )
    if case.name:
        ds.attrs["title"] = case.name
    if getattr(case.environment, "has_sea", False):
        # where the case's relative files are found: plots rebuild the case to draw a
        # sloped or gridded seabed and the waves across the view
        ds.attrs["case_dir"] = str(case.base_dir)
    return ds


def save_results(ds: xr.Dataset, path: str | Path) -> Path:
    """Write results as netCDF (readable with ``xarray.open_dataset``)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    ds.to_netcdf(path)
    return path


def load_results(path: str | Path) -> xr.Dataset:
    """Read a results file written by :func:`save_results` into memory."""
    import xarray as xr

    with xr.open_dataset(path) as ds:
        return ds.load()
