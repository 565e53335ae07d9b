"""Export results to VTK for ParaView: one ``.vtu`` polyline per output time plus a ``.pvd``.

Each output instant becomes an unstructured grid whose points are the (active) nodes and whose
cells are two-node ``line`` cells, one per element, so per-element quantities (``tension``)
are cell data and per-node quantities (``velocity``, ``arc_length``, the discrete
``curvature``) are point data. The ``.vtu`` files are written by :mod:`meshio`; the ``.pvd``
collection that strings them into a time series is written with
:mod:`xml.etree.ElementTree`. Open the ``.pvd`` in ParaView.

Conventions of the results contract (shared/spec/results-format.md): element ``j`` joins nodes
``j`` and ``j + 1``; variable-length runs carry ``active(time, node)`` and NaN padding, and only
active nodes (and elements whose two end nodes are both active) are written.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import xarray as xr

from .results import load_results

__all__ = ["export_vtk", "discrete_curvature"]

#: variables that become the geometry (or the mask) rather than data arrays
_GEOMETRY = {"position", "active"}


def discrete_curvature(points: np.ndarray) -> np.ndarray:
    """Discrete curvature [1/m] of the polyline through ``points`` (shape (n, 3), in m).

    At interior node i the turning angle θ_i between the segments a = p_i − p_{i−1} and
    b = p_{i+1} − p_i (θ = atan2(|a × b|, a · b), in [0, π]) divided by the mean adjacent
    segment length (|a| + |b|) / 2; 0 at the two end nodes. For nodes equally spaced on a
    circle of radius R with central angle h between neighbours this gives
    κ = h / (2 R sin(h / 2)) = (1 / R) (1 + h² / 24 + O(h⁴)).

    A node next to a zero-length segment (coincident nodes) gets NaN (the turning angle is
    undefined), as does any node whose neighbourhood contains NaN coordinates.
    """
    p = np.asarray(points, dtype=float)
    if p.ndim != 2 or p.shape[1] != 3:
        raise ValueError(f"points must have shape (n, 3), got {p.shape}")
    n = p.shape[0]
    kappa = np.zeros(n)
    if n < 3:
        return kappa
    a = p[1:-1] - p[:-2]
    b = p[2:] - p[1:-1]
    la = np.linalg.norm(a, axis=1)
    lb = np.linalg.norm(b, axis=1)
    angle = np.arctan2(np.linalg.norm(np.cross(a, b), axis=1), np.einsum("ij,ij->i", a, b))
    with np.errstate(invalid="ignore", divide="ignore"):
        inner = angle / (0.5 * (la + lb))
    inner[(la == 0.0) | (lb == 0.0)] = np.nan
    kappa[1:-1] = inner
    return kappa


def _active_mask(ds: xr.Dataset, pos: np.ndarray) -> np.ndarray:
    """Boolean (time, node): the spec's ``active`` mask, else finite positions for a
    time-dependent ``arc_length`` (variable length without a mask), else all nodes."""
    if "active" in ds.variables:
        act = ds["active"]
        if set(act.dims) != {"time", "node"}:
            raise ValueError(f"'active' must have dims (time, node), got {act.dims}")
        return np.asarray(act.transpose("time", "node").values).astype(bool)
    if "arc_length" in ds.variables and "time" in ds["arc_length"].dims:
        return np.isfinite(pos).all(axis=2)
    return np.ones(pos.shape[:2], dtype=bool)


def _per_time(var: xr.DataArray, entity: str, n_time: int) -> np.ndarray | None:
    """``var`` as (time, n_entity[, components]) float/int array, or None if not exportable.

    Accepted layouts: (entity), (time, entity), (entity, c), (time, entity, c) in any order.
    """
    if entity not in var.dims or var.dtype.kind not in "biuf":
        return None
    other = [d for d in var.dims if d not in ("time", entity)]
    if len(other) > 1:
        return None
    order = (["time"] if "time" in var.dims else []) + [entity] + other
    a = np.asarray(var.transpose(*order).values)
    if a.dtype.kind == "b":
        a = a.astype(np.uint8)
    if "time" not in var.dims:
        a = np.broadcast_to(a, (n_time, *a.shape))
    return a


def _open(ds_or_path: xr.Dataset | str | Path) -> tuple[xr.Dataset, str]:
    if isinstance(ds_or_path, xr.Dataset):
        return ds_or_path, "results"
    path = Path(ds_or_path)
    return load_results(path), path.stem


def export_vtk(
    ds_or_path: xr.Dataset | str | Path,
    directory: str | Path,
    stride: int = 1,
    *,
    name: str | None = None,
) -> Path:
    """Write a ParaView time series of a results Dataset and return the ``.pvd`` path.

    ``ds_or_path`` is a results Dataset or a netCDF file written by ``tetherdyn run``.
    Every ``stride``-th output time (indices 0, stride, 2·stride, …) becomes
    ``directory/<name>_<time index>.vtu``; ``directory/<name>.pvd`` lists them with their
    times [s]. ``name`` defaults to the file's stem, or ``"results"`` for a Dataset.

    Written arrays (SI units, as in the Dataset):

    - points: node positions [m] (active nodes only in variable-length runs);
    - cells: one ``line`` per element whose two end nodes are active;
    - point data: ``velocity`` [m/s], ``arc_length`` [m], ``curvature`` [1/m] (see
      :func:`discrete_curvature`; ``polyline_curvature`` if the Dataset already has a
      ``curvature`` variable), ``node`` (node index), and every other numeric variable with
      a ``node`` dimension (optionally ``time`` and one component dimension, e.g. ``axis``);
    - cell data: ``tension`` [N], ``element`` (element index), and every other numeric
      variable with an ``element`` dimension, e.g. ``slope``.
    """
    try:
        import meshio  # imported here so discrete_curvature works without it
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("VTK export needs meshio: pip install meshio") from exc
    if int(stride) < 1:
        raise ValueError(f"stride must be a positive integer, got {stride}")
    stride = int(stride)
    ds, default_name = _open(ds_or_path)
    name = name or default_name
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)

    position = ds["position"].transpose("time", "node", "axis")
    if "axis" in position.coords:
        position = position.sel(axis=["x", "y", "z"])
    pos = np.asarray(position.values, dtype=float)
    n_time, n_node, _ = pos.shape
    n_elem = ds.sizes.get("element", n_node - 1)
    if n_elem != n_node - 1:
        raise ValueError(
            f"expected element j between nodes j and j+1 ({n_node} nodes, "
            f"{n_node - 1} elements), got {n_elem} elements"
        )
    times = np.asarray(ds["time"].values, dtype=float)
    active = _active_mask(ds, pos)

    curvature_name = "polyline_curvature" if "curvature" in ds.variables else "curvature"
    node_vars: dict[str, np.ndarray] = {}
    elem_vars: dict[str, np.ndarray] = {}
    for var_name, var in ds.data_vars.items():
        if var_name in _GEOMETRY:
            continue
        a = _per_time(var, "node", n_time)
        if a is not None:
            node_vars[str(var_name)] = a
            continue
        a = _per_time(var, "element", n_time)
        if a is not None:
            elem_vars[str(var_name)] = a

    width = max(4, len(str(n_time - 1)))
    collection_root = ET.Element(
        "VTKFile", type="Collection", version="0.1", byte_order="LittleEndian"
    )
    collection = ET.SubElement(collection_root, "Collection")
    for k in range(0, n_time, stride):
        nodes = np.flatnonzero(active[k])
        # element j joins nodes j and j+1: kept when both ends are live
        elems = np.flatnonzero(active[k, :-1] & active[k, 1:])
        local = np.full(n_node, -1, dtype=np.int64)
        local[nodes] = np.arange(nodes.size)
        lines = np.column_stack([local[elems], local[elems + 1]]).astype(np.int64)

        # curvature over each contiguous run of active nodes (a gap breaks the polyline)
        kappa = np.zeros(nodes.size)
        if nodes.size:
            breaks = np.flatnonzero(np.diff(nodes) != 1) + 1
            for run in np.split(np.arange(nodes.size), breaks):
                kappa[run] = discrete_curvature(pos[k, nodes[run]])

        point_data = {name_: a[k][nodes] for name_, a in node_vars.items()}
        point_data[curvature_name] = kappa
        point_data["node"] = nodes.astype(np.int32)
        cell_data = {name_: [a[k][elems]] for name_, a in elem_vars.items()}
        cell_data["element"] = [elems.astype(np.int32)]
        mesh = meshio.Mesh(
            pos[k, nodes],
            [("line", lines)],
            point_data=point_data,
            cell_data=cell_data,
        )
        file_name = f"{name}_{k:0{width}d}.vtu"
        meshio.write(directory / file_name, mesh, file_format="vtu")
        ET.SubElement(
            collection, "DataSet", timestep=_time_text(times[k]), group="", part="0",
            file=file_name,
        )

    tree = ET.ElementTree(collection_root)
    ET.indent(tree)
    pvd = directory / f"{name}.pvd"
    tree.write(pvd, encoding="utf-8", xml_declaration=True)
    return pvd


def _time_text(t: float) -> str:
    """Shortest text that reads back as the same float (repr), finite times only."""
    if not math.isfinite(t):
        raise ValueError(f"output time {t} is not finite")
    return repr(float(t))
