"""VTK export: files read back with meshio (and VTK's own reader when installed).

The values written are compared with the Dataset they came from (bit-exact: VTU stores
float64 losslessly), and the discrete curvature with the analytic curvature of a circle.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import meshio
import numpy as np
import pytest
import xarray as xr

from tetherdyn import simulate
from tetherdyn.export import discrete_curvature, export_vtk
from tetherdyn.results import save_results

BASE_POINT = {"velocity", "arc_length", "curvature", "node"}
BASE_CELL = {"tension", "element"}


@pytest.fixture(scope="module")
def small_ds(small_case) -> xr.Dataset:
    """The 4-element lumped-mass swing of conftest (21 outputs, 5 nodes)."""
    return simulate(small_case(), progress=False)


def read_pvd(pvd: Path) -> list[tuple[float, str]]:
    root = ET.parse(pvd).getroot()
    assert root.tag == "VTKFile" and root.get("type") == "Collection"
    return [(float(d.get("timestep")), d.get("file")) for d in root.iter("DataSet")]


def turning_curvature(p: np.ndarray) -> np.ndarray:
    """Independent spelling of the curvature: the angle between unit tangents ea, eb as
    2 atan2(|ea - eb|, |ea + eb|) (accurate for tiny angles, unlike arccos of the dot)."""
    a, b = p[1:-1] - p[:-2], p[2:] - p[1:-1]
    la, lb = np.linalg.norm(a, axis=1), np.linalg.norm(b, axis=1)
    ea, eb = a / la[:, None], b / lb[:, None]
    angle = 2.0 * np.arctan2(np.linalg.norm(ea - eb, axis=1), np.linalg.norm(ea + eb, axis=1))
    return np.concatenate([[0.0], angle / (0.5 * (la + lb)), [0.0]])


# --- discrete curvature ----------------------------------------------------------------


def circle_points(radius: float, n: int, span: float) -> tuple[np.ndarray, float]:
    """n equally spaced points on an arc of ``span`` rad in a tilted plane; step angle h."""
    phi = np.linspace(0.0, span, n)
    u = np.array([1.0, 2.0, 2.0]) / 3.0
    v = np.array([2.0, 1.0, -2.0]) / 3.0  # orthonormal to u
    centre = np.array([0.3, -1.0, 4.0])
    pts = centre + radius * (np.cos(phi)[:, None] * u + np.sin(phi)[:, None] * v)
    return pts, span / (n - 1)


@pytest.mark.parametrize("n", [13, 25, 49])
def test_curvature_of_circle_is_one_over_radius(n: int) -> None:
    R = 2.5
    pts, h = circle_points(R, n, 1.5 * np.pi)
    kappa = discrete_curvature(pts)
    assert kappa[0] == 0.0 and kappa[-1] == 0.0
    # exact for equal chords: turning angle h over chord 2R sin(h/2)
    np.testing.assert_allclose(kappa[1:-1], h / (2 * R * np.sin(h / 2)), rtol=1e-12)
    # discretisation error (h/2)/sin(h/2) - 1 = h^2/24 + O(h^4): 0.64 % at n = 13
    # (h = 0.39 rad), 0.16 % at 25, 0.04 % at 49; allow h^2/20 to cover the O(h^4) term
    err = np.abs(kappa[1:-1] * R - 1.0)
    assert np.all(err <= h**2 / 20)
    assert np.all(err >= h**2 / 30)  # and it is really second order, not zero by accident


def test_curvature_simple_shapes() -> None:
    line = np.column_stack([np.linspace(0, 3, 7), np.linspace(1, 2, 7), np.zeros(7)])
    np.testing.assert_allclose(discrete_curvature(line), 0.0, atol=1e-12)
    corner = np.array([[0.0, 0, 0], [2.0, 0, 0], [2.0, 1.0, 0]])  # right angle, lengths 2, 1
    np.testing.assert_allclose(discrete_curvature(corner), [0.0, (np.pi / 2) / 1.5, 0.0])
    hairpin = np.array([[0.0, 0, 0], [1.0, 0, 0], [0.0, 0, 0]])  # full reversal
    np.testing.assert_allclose(discrete_curvature(hairpin), [0.0, np.pi, 0.0])
    coincident = np.array([[0.0, 0, 0], [1.0, 0, 0], [1.0, 0, 0], [2.0, 0, 0]])
    k = discrete_curvature(coincident)
    assert np.isnan(k[1]) and np.isnan(k[2]) and k[0] == k[3] == 0.0
    assert np.array_equal(discrete_curvature(corner[:2]), [0.0, 0.0])
    with pytest.raises(ValueError):
        discrete_curvature(np.zeros((4, 2)))


# --- export of a simulated run ---------------------------------------------------------


def test_export_simulated_run(small_ds: xr.Dataset, tmp_path: Path) -> None:
    ds = small_ds
    pvd = export_vtk(ds, tmp_path / "vtk")
    assert pvd == tmp_path / "vtk" / "results.pvd"
    steps = read_pvd(pvd)
    assert len(steps) == ds.sizes["time"] == 21
    assert [t for t, _ in steps] == [float(t) for t in ds.time.values]  # exact round trip
    assert [f for _, f in steps] == [f"results_{k:04d}.vtu" for k in range(21)]

    pos = ds.position.transpose("time", "node", "axis").values
    for k, (_, fname) in enumerate(steps):
        mesh = meshio.read(pvd.parent / fname)
        assert mesh.points.shape == (5, 3)
        np.testing.assert_array_equal(mesh.points, pos[k])
        assert len(mesh.cells) == 1 and mesh.cells[0].type == "line"
        np.testing.assert_array_equal(mesh.cells[0].data, [[0, 1], [1, 2], [2, 3], [3, 4]])
        assert set(mesh.point_data) == BASE_POINT
        assert set(mesh.cell_data) == BASE_CELL
        np.testing.assert_array_equal(mesh.cell_data["tension"][0], ds.tension.values[k])
        np.testing.assert_array_equal(mesh.cell_data["element"][0], np.arange(4))
        np.testing.assert_array_equal(mesh.point_data["velocity"], ds.velocity.values[k])
        np.testing.assert_array_equal(mesh.point_data["arc_length"], [0, 0.25, 0.5, 0.75, 1])
        np.testing.assert_array_equal(mesh.point_data["node"], np.arange(5))
        np.testing.assert_allclose(
            mesh.point_data["curvature"], turning_curvature(pos[k]), rtol=1e-9, atol=1e-12
        )
    # the swinging chain does bend: curvature is not trivially zero everywhere
    assert mesh.point_data["curvature"][1:-1].max() > 0.0


def test_export_from_file_with_stride_and_extra_variables(
    small_ds: xr.Dataset, tmp_path: Path
) -> None:
    rng = np.random.default_rng(7)
    ds = small_ds.assign(
        slope=(("time", "element"), rng.normal(size=(21, 4))),
        bend=(("node", "time"), rng.normal(size=(5, 21))),  # transposed on purpose
        node_mass=(("node",), np.array([1.0, 2, 2, 2, 1])),  # no time dim: repeated
        drag=(("time", "element", "axis"), rng.normal(size=(21, 4, 3))),
    )
    nc = save_results(ds, tmp_path / "swing.nc")
    pvd = export_vtk(nc, tmp_path / "out", stride=3)
    assert pvd.name == "swing.pvd"
    steps = read_pvd(pvd)
    idx = list(range(0, 21, 3))
    assert [f for _, f in steps] == [f"swing_{k:04d}.vtu" for k in idx]
    assert [t for t, _ in steps] == [float(ds.time.values[k]) for k in idx]
    assert sorted(p.name for p in pvd.parent.glob("*.vtu")) == [f for _, f in steps]
    for k, (_, fname) in zip(idx, steps, strict=True):
        mesh = meshio.read(pvd.parent / fname)
        # scalars like kinetic_energy and (time, axis) forces are not per node/element
        assert set(mesh.point_data) == BASE_POINT | {"bend", "node_mass"}
        assert set(mesh.cell_data) == BASE_CELL | {"slope", "drag"}
        np.testing.assert_array_equal(mesh.cell_data["slope"][0], ds.slope.values[k])
        np.testing.assert_array_equal(mesh.cell_data["drag"][0], ds.drag.values[k])
        np.testing.assert_array_equal(mesh.point_data["bend"], ds.bend.values[:, k])
        np.testing.assert_array_equal(mesh.point_data["node_mass"], [1.0, 2, 2, 2, 1])
    with pytest.raises(ValueError):
        export_vtk(ds, tmp_path / "bad", stride=0)


def test_model_curvature_variable_is_not_overwritten(small_ds: xr.Dataset, tmp_path) -> None:
    ds = small_ds.assign(curvature=(("time", "node"), np.full((21, 5), 7.0)))
    pvd = export_vtk(ds, tmp_path, name="c")
    mesh = meshio.read(tmp_path / read_pvd(pvd)[4][1])
    np.testing.assert_array_equal(mesh.point_data["curvature"], 7.0)
    pos = ds.position.values[4]
    np.testing.assert_allclose(
        mesh.point_data["polyline_curvature"], turning_curvature(pos), rtol=1e-9, atol=1e-12
    )


# --- variable length (payout) ----------------------------------------------------------


def payout_dataset() -> xr.Dataset:
    """Hand-built variable-length run: 6 node slots, 3, 4 and 6 nodes live, then a gap.

    Nodes lie on a circle of radius 2 (0.3 rad apart), so the curvature is known; inactive
    entries are NaN as the spec prescribes.
    """
    n_slot = 6
    active = np.array(
        [
            [1, 1, 1, 0, 0, 0],
            [1, 1, 1, 1, 0, 0],
            [1, 1, 1, 1, 1, 1],
            [1, 1, 0, 1, 1, 1],  # a gap splits the polyline (elements 1, 2 dropped)
        ],
        dtype=bool,
    )
    n_time = active.shape[0]
    R, h = 2.0, 0.3
    phi = h * np.arange(n_slot)
    circle = np.column_stack([R * np.cos(phi), R * np.sin(phi), np.zeros(n_slot)])
    pos = np.where(active[..., None], circle[None] + 0.1 * np.arange(n_time)[:, None, None],
                   np.nan)
    vel = np.where(active[..., None], np.arange(n_time * n_slot * 3.0).reshape(pos.shape),
                   np.nan)
    s = np.where(active, R * h * np.arange(n_slot)[None, :], np.nan)
    elem_live = active[:, :-1] & active[:, 1:]
    tension = np.where(elem_live, 10.0 + np.arange(n_time * (n_slot - 1.0)).reshape(
        n_time, n_slot - 1), np.nan)
    return xr.Dataset(
        {
            "arc_length": (("time", "node"), s),
            "active": (("time", "node"), active),
            "position": (("time", "node", "axis"), pos),
            "velocity": (("time", "node", "axis"), vel),
            "tension": (("time", "element"), tension),
            "kinetic_energy": (("time",), np.zeros(n_time)),
        },
        coords={"time": [0.0, 0.5, 1.0, 1.5], "node": np.arange(n_slot),
                "element": np.arange(n_slot - 1), "axis": ["x", "y", "z"]},
    )


def test_variable_length_exports_only_active_nodes(tmp_path: Path) -> None:
    ds = payout_dataset()
    pvd = export_vtk(ds, tmp_path, name="payout")
    steps = read_pvd(pvd)
    assert [t for t, _ in steps] == [0.0, 0.5, 1.0, 1.5]
    kappa_circle = 0.3 / (2 * 2.0 * np.sin(0.15))  # equal chords on R = 2, h = 0.3
    expected_cells = [[[0, 1], [1, 2]], [[0, 1], [1, 2], [2, 3]],
                      [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5]], [[0, 1], [2, 3], [3, 4]]]
    expected_elements = [[0, 1], [0, 1, 2], [0, 1, 2, 3, 4], [0, 3, 4]]
    expected_kappa = [[0, kappa_circle, 0], [0, kappa_circle, kappa_circle, 0],
                      [0] + [kappa_circle] * 4 + [0], [0, 0, 0, kappa_circle, 0]]
    for k, (_, fname) in enumerate(steps):
        live = ds.active.values[k]
        mesh = meshio.read(tmp_path / fname)
        assert mesh.points.shape == (live.sum(), 3)
        assert np.all(np.isfinite(mesh.points))
        np.testing.assert_array_equal(mesh.points, ds.position.values[k][live])
        np.testing.assert_array_equal(mesh.cells[0].data, expected_cells[k])
        np.testing.assert_array_equal(mesh.cell_data["element"][0], expected_elements[k])
        tension = mesh.cell_data["tension"][0]
        assert np.all(np.isfinite(tension))
        np.testing.assert_array_equal(tension, ds.tension.values[k][expected_elements[k]])
        np.testing.assert_array_equal(mesh.point_data["node"], np.flatnonzero(live))
        for name in ("velocity", "arc_length"):
            assert np.all(np.isfinite(mesh.point_data[name]))
            np.testing.assert_array_equal(mesh.point_data[name], ds[name].values[k][live])
        assert "active" not in mesh.point_data
        np.testing.assert_allclose(mesh.point_data["curvature"], expected_kappa[k], rtol=1e-12)


# --- independent reader ----------------------------------------------------------------


def test_vtk_reader_reads_the_files(small_ds: xr.Dataset, tmp_path: Path) -> None:
    pytest.importorskip("vtk")
    from vtkmodules.util.numpy_support import vtk_to_numpy
    from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader

    pvd = export_vtk(small_ds, tmp_path)
    k = 7
    reader = vtkXMLUnstructuredGridReader()
    reader.SetFileName(str(tmp_path / read_pvd(pvd)[k][1]))
    reader.Update()
    grid = reader.GetOutput()
    assert grid.GetNumberOfPoints() == 5 and grid.GetNumberOfCells() == 4
    assert all(grid.GetCellType(c) == 3 for c in range(4))  # VTK_LINE
    np.testing.assert_array_equal(vtk_to_numpy(grid.GetPoints().GetData()),
                                  small_ds.position.values[k])
    pd, cd = grid.GetPointData(), grid.GetCellData()
    assert {pd.GetArrayName(i) for i in range(pd.GetNumberOfArrays())} == BASE_POINT
    assert {cd.GetArrayName(i) for i in range(cd.GetNumberOfArrays())} == BASE_CELL
    assert pd.GetArray("velocity").GetNumberOfComponents() == 3
    np.testing.assert_array_equal(vtk_to_numpy(cd.GetArray("tension")),
                                  small_ds.tension.values[k])
    np.testing.assert_array_equal(vtk_to_numpy(pd.GetArray("velocity")),
                                  small_ds.velocity.values[k])
    np.testing.assert_allclose(vtk_to_numpy(pd.GetArray("curvature")),
                               turning_curvature(small_ds.position.values[k]))
