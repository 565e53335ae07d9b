"""Results Dataset and netCDF round trip (shared/spec/results-format.md), end forces of a
chain in exact static equilibrium, and the blow-up error."""

from __future__ import annotations

import math

import numpy as np
import pytest
import xarray as xr
import yaml
from scipy.optimize import brentq

import tetherdyn
from tests.nc_layout import netcdf_layout
from tetherdyn import SimulationError, load_case, save_results, simulate
from tetherdyn.models import build_model

#: required variables -> (dims, units) per the results contract
REQUIRED = {
    "arc_length": (("node",), "m"),
    "position": (("time", "node", "axis"), "m"),
    "velocity": (("time", "node", "axis"), "m/s"),
    "tension": (("time", "element"), "N"),
    "start_force": (("time", "axis"), "N"),
    "end_force": (("time", "axis"), "N"),
    "kinetic_energy": (("time",), "J"),
    "potential_energy": (("time",), "J"),
}
GLOBAL_ATTRS = ("tetherdyn_version", "model", "elements", "method", "dt", "wall_time_s",
                "rhs_evaluations", "case")

# duration deliberately not a multiple of output_interval: time = j*0.01, j = 0..20
DURATION = 0.205
OUTPUT_INTERVAL = 0.01


@pytest.fixture(scope="module", params=["rk4", "rk45"])
def saved(request, tmp_path_factory, small_case):
    """(in-memory results, path of the netCDF file, case dict) for a 4-element swing."""
    case = small_case({"solver.method": request.param, "solver.duration": DURATION,
                            "solver.output_interval": OUTPUT_INTERVAL})
    ds = simulate(case, progress=False)
    path = save_results(ds, tmp_path_factory.mktemp(request.param) / "sub" / "out.nc")
    return ds, path, case


def test_required_variables_dims_units(saved):
    ds, path, case = saved
    assert path.is_file()
    with xr.open_dataset(path) as f:
        for name, (dims, units) in REQUIRED.items():
            assert name in f.data_vars, name
            assert f[name].dims == dims, name
            assert f[name].attrs.get("units") == units, name
        n = case["model"]["elements"]
        assert f.sizes["node"] == n + 1 and f.sizes["element"] == n and f.sizes["axis"] == 3
        assert list(f["axis"].values) == ["x", "y", "z"]
        np.testing.assert_array_equal(f["node"].values, np.arange(n + 1))
        np.testing.assert_array_equal(f["element"].values, np.arange(n))
        # unstretched arc length of each node
        np.testing.assert_allclose(f["arc_length"].values, np.linspace(0.0, 1.0, n + 1),
                                   rtol=0, atol=1e-15)


def test_time_coordinate(saved):
    _, path, _ = saved
    with xr.open_dataset(path) as f:
        n_out = math.floor(DURATION / OUTPUT_INTERVAL) + 1
        assert f.sizes["time"] == n_out == 21
        # j * output_interval exactly as the spec states (round-off only)
        np.testing.assert_allclose(f["time"].values, np.arange(n_out) * OUTPUT_INTERVAL,
                                   rtol=0, atol=1e-14)
        assert f["time"].attrs.get("units") == "s"


def test_global_attributes(saved):
    ds, path, case = saved
    with xr.open_dataset(path) as f:
        for key in GLOBAL_ATTRS:
            assert key in f.attrs, key
        assert f.attrs["tetherdyn_version"] == tetherdyn.__version__
        assert f.attrs["model"] == "lumped_mass"
        assert int(f.attrs["elements"]) == 4
        assert f.attrs["method"] == case["solver"]["method"]
        assert float(f.attrs["dt"]) == case["solver"]["dt"]
        assert float(f.attrs["wall_time_s"]) >= 0.0
        evals = int(f.attrs["rhs_evaluations"])
        assert evals > 0
        if case["solver"]["method"] == "rk4":  # four stages per step, 200 steps to t = 0.2
            assert evals == 4 * 200
        assert yaml.safe_load(f.attrs["case"]) == case


def test_values_survive_round_trip(saved):
    ds, path, _ = saved
    back = tetherdyn.load_results(path)
    for name in REQUIRED:
        np.testing.assert_array_equal(back[name].values, ds[name].values, err_msg=name)
    np.testing.assert_array_equal(back["time"].values, ds["time"].values)
    assert np.all(np.isfinite(back["position"].values))
    # the tether actually moved (the comparison above is not between two constant arrays)
    assert np.ptp(back["position"].sel(axis="x").values[:, -1]) > 1e-4


def test_results_file_reproduces_itself(saved):
    ds, path, _ = saved
    with xr.open_dataset(path) as f:
        case = load_case(yaml.safe_load(f.attrs["case"]))
        again = simulate(case, progress=False)
        # deterministic compiled integration: bit-identical positions
        np.testing.assert_array_equal(again["position"].values, f["position"].values)
        np.testing.assert_array_equal(again["tension"].values, f["tension"].values)


def test_numpy_values_in_case_dict(small_case):
    """numpy scalars/arrays accepted by validation must also survive into attrs['case']."""
    case = small_case({"tether.EA": np.float64(500.0),
                       "environment.gravity": np.array([0.0, 0.0, -9.81]),
                       "solver.duration": 0.02})
    ds = simulate(case, progress=False)
    back = yaml.safe_load(ds.attrs["case"])
    assert back["tether"]["EA"] == 500.0
    assert back["environment"]["gravity"] == [0.0, 0.0, -9.81]


# -- physics of the end forces -----------------------------------------------------------------

def _static_chain(N: int, L: float, mpl: float, EA: float, g: float):
    """Exact static equilibrium of the lumped chain hanging from the origin, free at the
    bottom: node masses are half of each adjacent element (seed 004 eq. 2.16), so element e
    (0 at the top) carries the N - e - 1 interior nodes below it plus the half-mass end node:
    T_e = g m_e (N - e - 1/2), stretched length L_e (1 + T_e / EA)."""
    Le = L / N
    me = mpl * Le
    T = np.array([g * me * (N - e - 0.5) for e in range(N)])
    z = np.concatenate([[0.0], -np.cumsum(Le * (1.0 + T / EA))])
    node_mass = np.full(N + 1, me)
    node_mass[[0, -1]] = 0.5 * me
    return T, z, node_mass


def test_hanging_chain_end_forces_in_static_equilibrium(small_case):
    N, L, mpl, EA, g = 4, 2.0, 0.5, 100.0, 9.81  # strains up to 8.6 %: stretch matters
    T, z, node_mass = _static_chain(N, L, mpl, EA, g)
    points = [[0.0, 0.0, float(zi)] for zi in z]  # exactly N + 1 points: no resampling
    case = small_case({"tether.length": L, "tether.mass_per_length": mpl, "tether.EA": EA,
                       "model.elements": N, "solver.duration": 0.1},
                      initial={"shape": "points", "points": points})
    ds = simulate(case, progress=False)
    W = mpl * L * g
    # the force on the holder points down and equals the whole weight; in exact equilibrium
    # only round-off (~1e-15) separates it from -W: 1e-6 relative is a generous bound
    expected = np.tile([0.0, 0.0, -W], (ds.sizes["time"], 1))
    np.testing.assert_allclose(ds["start_force"].values, expected, rtol=0, atol=1e-6 * W)
    # nothing holds the free end: the tether's load there is zero
    np.testing.assert_allclose(ds["end_force"].values, 0.0, atol=1e-6 * W)
    # element tensions as derived by hand, and the chain stays put
    np.testing.assert_allclose(ds["tension"].values, np.tile(T, (ds.sizes["time"], 1)),
                               rtol=1e-9)
    np.testing.assert_allclose(ds["position"].values - ds["position"].values[0], 0.0,
                               atol=1e-9 * L)
    np.testing.assert_allclose(ds["kinetic_energy"].values, 0.0, atol=1e-12 * W * L)
    # potential energy: -sum m g.r (g = -g e_z) + sum EA eps^2 L_e / 2
    strain = T / EA
    pe = float(np.sum(node_mass * g * z) + np.sum(0.5 * EA * strain**2 * (L / N)))
    np.testing.assert_allclose(ds["potential_energy"].values, pe, rtol=1e-12)


def test_two_fixed_ends_share_the_weight(small_case):
    """A symmetric V between two supports at rest in its own equilibrium: by symmetry each
    holder carries half of the weight vertically (checked after settling with damping)."""
    case = small_case({"tether.axial_damping": 2.0, "model.elements": 2,
                       "solver.duration": 3.0, "solver.output_interval": 0.5},
                      end={"type": "fixed", "position": [0.8, 0.0, 0.0]},
                      initial={"shape": "straight"})
    ds = simulate(case, progress=False)
    W = 0.05 * 1.0 * 9.81
    f0 = ds["start_force"].values[-1]
    f1 = ds["end_force"].values[-1]
    # two elements: only the middle node is free; axial damping settles it to well below
    # 1e-3 W within 3 s (tolerance covers the residual swing)
    assert f0[2] == pytest.approx(-W / 2, rel=1e-3)
    assert f1[2] == pytest.approx(-W / 2, rel=1e-3)
    assert f0[0] == pytest.approx(-f1[0], rel=1e-3)  # holders pulled towards each other
    # horizontal pull from the exact equilibrium of the middle node: element length l with
    # 2 T h / l = m_e g, T = EA (l / L_e - 1), h = sqrt(l^2 - 0.4^2)
    EA, Le, me = 500.0, 0.5, 0.025

    def residual(ell: float) -> float:
        return 2.0 * EA * (ell / Le - 1.0) * math.sqrt(ell**2 - 0.16) / ell - me * 9.81

    ell = brentq(residual, Le, 2.0 * Le, xtol=1e-15)
    assert f0[0] == pytest.approx(EA * (ell / Le - 1.0) * 0.4 / ell, rel=1e-3)


def test_blow_up_names_time_element_and_suggests_dt(small_case):
    # dt = 20 ms is ~6 times the 3.5 ms RK4 limit of the small chain (conftest.SMALL_CASE)
    case = small_case({"solver.dt": 0.02, "solver.output_interval": 0.02,
                       "solver.duration": 5.0})
    with pytest.raises(SimulationError) as info:
        simulate(case, progress=False)
    msg = str(info.value)
    assert "t = " in msg
    assert "element " in msg
    assert "solver.dt <=" in msg
    suggested = float(msg.split("solver.dt <=")[1].split()[0])
    assert 0.0 < suggested <= build_model(load_case(case)).critical_time_step()[0]


def test_generalized_alpha_counters_in_attrs(small_case, tmp_path):
    """The implicit method's Newton/Jacobian counters travel with the results file."""
    from tetherdyn import load_results, save_results, simulate

    ds = simulate(small_case({"solver.method": "generalized_alpha"}), progress=False)
    back = load_results(save_results(ds, tmp_path / "ga.nc"))
    assert back.attrs["jacobians"] >= 1
    assert back.attrs["newton_iterations"] >= back.attrs["steps"] >= 1
    assert back.attrs["force_evaluations"] == back.attrs["rhs_evaluations"]


@pytest.mark.parametrize("example, changes", [
    ("hanging_chain.yaml", {"solver.duration": 0.02, "solver.output_interval": 0.01}),
    ("hanging_chain.yaml", {"solver.duration": 0.02, "solver.output_interval": 0.01,
                            "solver.method": "rk45"}),
    ("rubber_strip.yaml", {"solver.duration": 0.004, "solver.output_interval": 0.002}),
    ("winch_lowering.yaml", {"solver.duration": 0.2, "solver.output_interval": 0.1}),
    ("seed000_tether.yaml", {"solver.duration": 0.02, "solver.output_interval": 0.01}),
])
def test_direct_netcdf_file_is_xarrays(example, changes, tmp_path):
    """``tetherdyn run`` writes its file without xarray (ResultsTable.write, issue 22): the
    file is the one ``xarray.Dataset.to_netcdf`` writes from the same results (layout,
    types, attributes, values), and reads back identical."""
    from importlib import resources

    from tetherdyn.case import _Loader, set_key
    from tetherdyn.simulate import run_case

    path = resources.files("tetherdyn.examples") / example
    raw = yaml.load(path.read_text(), Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    for key, value in changes.items():
        set_key(raw, key, value)
    table = run_case(load_case(raw, base_dir=path.parent), progress=False)
    direct = save_results(table, tmp_path / "direct.nc")
    via_xarray = save_results(table.to_dataset(), tmp_path / "xarray.nc")
    assert netcdf_layout(direct) == netcdf_layout(via_xarray)
    with xr.open_dataset(direct) as a, xr.open_dataset(via_xarray) as b:
        xr.testing.assert_identical(a, b)
        assert table.sizes == dict(b.sizes)
