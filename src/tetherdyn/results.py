"""The one results builder: a run's variables per shared/spec/results-format.md, as an
xarray.Dataset or written straight to netCDF, and netCDF I/O.

:func:`results_table` assembles the variables (plain numpy arrays and attributes);
:class:`ResultsTable.to_dataset` makes the Dataset and :meth:`ResultsTable.write` the netCDF
file. ``write`` uses netCDF4 directly, in the layout ``xarray.Dataset.to_netcdf`` writes
(tests/test_results_io.py compares the two files), because xarray imports dask and
dask.distributed whenever they are installed (``array_type("dask")`` on every Variable,
the scheduler lookup in ``to_netcdf``): ~0.8 s of a ``tetherdyn run`` process that never
uses them (issue 22, benchmarks/results_startup.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ._version import __version__
from .case import Case
from .integrate import IntegrationResult
from .models.base import Formulation

if TYPE_CHECKING:  # xarray costs ~0.3 s to import (dask ~0.5 s more): only where used
    import xarray as xr

__all__ = ["build_results", "results_table", "ResultsTable", "save_results", "load_results",
           "REQUIRED_VARIABLES", "write_group", "plain_group"]

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

_DIMS = {
    "position": ("time", "node", "axis"),
    "velocity": ("time", "node", "axis"),
    "tension": ("time", "element"),
    "start_force": ("time", "axis"),
    "end_force": ("time", "axis"),
    "kinetic_energy": ("time",),
    "potential_energy": ("time",),
}

#: a variable: (dims, values, attrs)
Variable = tuple[tuple[str, ...], np.ndarray, dict]


@dataclass
class ResultsTable:
    """A run's results before any xarray: data variables and coordinates as
    name -> (dims, values, attrs), in the Dataset's order, and global attributes."""

    data_vars: dict[str, Variable]
    coords: dict[str, Variable]
    attrs: dict

    @property
    def sizes(self) -> dict[str, int]:
        """Dimension name -> length, in order of first appearance (as xarray orders them)."""
        sizes: dict[str, int] = {}
        for dims, values, _ in (*self.data_vars.values(), *self.coords.values()):
            for d, n in zip(dims, np.shape(values), strict=True):
                sizes.setdefault(d, n)
        return sizes

    def to_dataset(self) -> xr.Dataset:
        """The results as an xarray.Dataset (shared/spec/results-format.md)."""
        import xarray as xr

        ds = xr.Dataset({k: (d, v) for k, (d, v, _) in self.data_vars.items()},
                        coords={k: (d, v) for k, (d, v, _) in self.coords.items()})
        for name, (_, _, attrs) in (*self.data_vars.items(), *self.coords.items()):
            ds[name].attrs.update(attrs)
        ds.attrs.update(self.attrs)
        return ds

    def write(self, path: str | Path) -> Path:
        """Write the netCDF file ``xarray.Dataset.to_netcdf`` would write (NETCDF4 format,
        float variables with a NaN ``_FillValue``, booleans as int8 with ``dtype: bool``,
        strings variable-length), without importing xarray (:func:`write_group`). A
        variable or attribute of any other kind goes through xarray instead."""
        path = Path(path)
        if not plain_group(self.data_vars, self.coords, self.attrs):
            self.to_dataset().to_netcdf(path)
            return path
        import netCDF4

        with netCDF4.Dataset(path, "w", format="NETCDF4") as nc:
            write_group(nc, self.data_vars, self.coords, self.attrs)
        return path


def plain_group(data_vars: dict[str, Variable], coords: dict[str, Variable],
                attrs: dict) -> bool:
    """Whether :func:`write_group` writes these variables and attributes as xarray would:
    variables of numbers, booleans and strings; attributes that are strings, numbers or
    1-D lists / arrays of numbers."""
    def plain_value(v) -> bool:
        if type(v) in (str, int, float) or isinstance(v, np.floating | np.integer):
            return True
        if isinstance(v, list | tuple | np.ndarray):
            a = np.asarray(v)
            return a.ndim == 1 and a.size > 0 and a.dtype.kind in "fi"
        return False

    def plain_attrs(a: dict) -> bool:
        return all(plain_value(v) for v in a.values())

    def plain_variable(v) -> bool:
        dtype = np.asarray(v).dtype
        return dtype.kind == "U" or (dtype.kind in "fbi" and dtype.itemsize <= 8)

    return plain_attrs(attrs) and all(
        plain_variable(v) and plain_attrs(a)
        for _, v, a in (*data_vars.values(), *coords.values()))


def write_group(nc, data_vars: dict[str, Variable], coords: dict[str, Variable],
                attrs: dict, inherited: tuple[str, ...] = ()) -> None:
    """Write a Dataset's variables (name -> (dims, values, attrs); data variables, then
    coordinates) and attributes into the netCDF4 group ``nc`` in the layout xarray writes:
    float variables with a NaN ``_FillValue``, booleans as int8 with ``dtype: bool``,
    strings variable-length. ``inherited``: coordinates a parent group holds (an
    xarray.DataTree's inherited ones: not written again, their dimensions the parent's).
    """
    sizes: dict[str, int] = {}  # in order of first appearance, as xarray creates them
    for dims, values, _ in (*data_vars.values(), *coords.values()):
        for d, n in zip(dims, np.shape(values), strict=True):
            sizes.setdefault(d, n)
    for dim, n in sizes.items():
        if dim not in inherited:
            nc.createDimension(dim, n)
    for name, (dims, values, a) in (*data_vars.items(), *coords.items()):
        if name in inherited:
            continue
        values = np.asarray(values)
        kind = values.dtype.kind
        if kind == "f":
            var = nc.createVariable(name, values.dtype, dims,
                                    fill_value=values.dtype.type(np.nan))
        elif kind == "b":
            var = nc.createVariable(name, np.int8, dims)
            a = {**a, "dtype": "bool"}
            values = values.astype(np.int8)
        elif kind == "U":
            var = nc.createVariable(name, str, dims)
            values = values.astype(object)
        else:
            var = nc.createVariable(name, values.dtype, dims)
        var.setncatts(a)
        var[...] = values
    nc.setncatts(attrs)


def results_table(case: Case, model: Formulation, run: IntegrationResult) -> ResultsTable:
    """Assemble the results from a formulation's outputs at the integrated instants.

    A formulation may return variables beyond the required ones (a model's own results,
    e.g. nodal slopes) as ``name: (dims, values, attrs)`` with ``units`` and
    ``long_name`` in attrs; they go into the results unchanged (a required variable's
    ``units`` and ``long_name`` are the contract's).
    """
    out = model.outputs(run.times, run.states, run.data)
    data_vars: dict[str, Variable] = {"arc_length": (("node",), model.arc_length, {})}
    for name, d in _DIMS.items():
        data_vars[name] = (d, out.pop(name), {})
    for name, extra in out.items():
        if not (isinstance(extra, tuple) and len(extra) == 3 and "units" in extra[2]):
            raise TypeError(f"model output {name!r}: give (dims, values, attrs with units)")
        data_vars[name] = (tuple(extra[0]), extra[1], dict(extra[2]))
    for name, units in REQUIRED_VARIABLES.items():
        d, v, a = data_vars[name]
        data_vars[name] = (d, v, {**a, "units": units, "long_name": _DESCRIPTIONS[name]})
    coords: dict[str, Variable] = {
        "time": (("time",), run.times, {"units": "s"}),
        "node": (("node",), np.arange(model.n_nodes), {}),
        "element": (("element",), np.arange(model.n_elements), {}),
        "axis": (("axis",), np.array(["x", "y", "z"]), {}),
    }
    attrs = dict(
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
        attrs["title"] = case.name
    if getattr(case.environment, "has_sea", False):
        # where the case's relative files are found: plots rebuild the case to draw a
        # sloped or gridded seabed and the waves across the view
        attrs["case_dir"] = str(case.base_dir)
    return ResultsTable(data_vars, coords, attrs)


def build_results(case: Case, model: Formulation, run: IntegrationResult) -> xr.Dataset:
    """The results Dataset of a run (:func:`results_table` as an xarray.Dataset)."""
    return results_table(case, model, run).to_dataset()


def save_results(ds: xr.Dataset | ResultsTable, path: str | Path) -> Path:
    """Write results as netCDF (readable with ``xarray.open_dataset``)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(ds, ResultsTable):
        return ds.write(path)
    ds.to_netcdf(path)
    return path


def load_results(path: str | Path) -> xr.Dataset:
    """Read a results file written by :func:`save_results` into memory."""
    import xarray as xr

    with xr.open_dataset(path) as ds:
        return ds.load()
