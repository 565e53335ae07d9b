"""Parameter identification (seed 003 §4.3) and the Dask batch runner."""

from __future__ import annotations

import math

import numpy as np
import pytest
import xarray as xr
from conftest import make_small_case

from tetherdyn import simulate
from tetherdyn.batch import BatchResult, case_key, run_batch
from tetherdyn.case import CaseError
from tetherdyn.identify import (
    CORRELATION_WARN,
    MarkerCost,
    Markers,
    _sampling,
    _uncertainty,
    check_key,
    identify,
    parse_param,
    read_markers,
    tether_points,
    write_markers,
)
from validation import _REGISTRY
from validation.identification import (
    COVERAGE_MIN,
    SEA_TOLERANCE,
    SEA_TRUTH,
    TOLERANCE,
    TRUE_ELEMENTS,
)

# -- marker files ---------------------------------------------------------------------------

GOOD = """# camera 1, 25 fps
time,marker,arc_length,x,y,z
0.04,m0,0.0,0.0,0.0,0.0
0.04,tip,0.6,0.41,0.0,-0.2

0.08,m0,0.0,0.0,0.0,0.0
0.08,tip,0.6,0.35,0.0,-0.3
"""


def test_read_markers_good(tmp_path):
    p = tmp_path / "m.csv"
    p.write_text(GOOD)
    m = read_markers(p)
    assert len(m) == 4
    np.testing.assert_allclose(m.times, [0.04, 0.08])
    assert list(m.marker) == ["m0", "tip", "m0", "tip"]
    np.testing.assert_allclose(m.xyz[3], [0.35, 0.0, -0.3])
    # round trip through write_markers
    q = write_markers(m, tmp_path / "n.csv")
    m2 = read_markers(q)
    np.testing.assert_array_equal(m2.xyz, m.xyz)
    np.testing.assert_array_equal(m2.time, m.time)


@pytest.mark.parametrize("line, expect", [
    ("0.12,tip,0.6,abc,0.0,0.1", "x 'abc' is not a number"),
    ("0.12,tip,0.6,0.1,0.0", "5 fields, the header has 6"),
    ("-0.1,tip,0.6,0.1,0.0,0.1", "time must be >= 0"),
    ("0.12,tip,-0.6,0.1,0.0,0.1", "arc_length must be >= 0"),
    ("0.12,,0.6,0.1,0.0,0.1", "marker: empty label"),
    ("0.12,tip,0.6,nan,0.0,0.1", "x must be finite"),
    ("0.08,tip,0.6,0.1,0.0,0.1", "repeats line 7"),
])
def test_read_markers_bad_row_names_file_and_line(tmp_path, line, expect):
    p = tmp_path / "m.csv"
    p.write_text(GOOD + line + "\n")  # GOOD has 7 lines: the bad row is line 8
    with pytest.raises(CaseError) as exc:
        read_markers(p)
    assert f"{p}:8:" in str(exc.value)
    assert expect in str(exc.value)


def test_read_markers_bad_header(tmp_path):
    p = tmp_path / "m.csv"
    p.write_text("time,marker,s,x,y,z\n0,a,0,0,0,0\n")
    with pytest.raises(CaseError, match=r"m\.csv:1: header lacks column\(s\) arc_length"):
        read_markers(p)
    with pytest.raises(CaseError, match="not found"):
        read_markers(tmp_path / "missing.csv")


# -- parameter specs ------------------------------------------------------------------------


def test_parse_param():
    p = parse_param("model.material_damping=0:10000:100")
    assert len(p.values) == 101 and p.values[0] == 0.0 and p.values[-1] == 10000.0
    assert not p.integer
    c = parse_param("tether.cd_normal=0.60:0.90:0.05")
    assert c.values == [0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9]  # STOP included, no 0.8999..
    n = parse_param("model.elements=10:50:10")
    assert n.integer and n.values == [10, 20, 30, 40, 50]
    assert parse_param("tether.EA=1,2.5").values == [1.0, 2.5]


@pytest.mark.parametrize("spec, expect", [
    ("model.elements", "expected KEY=START"),
    ("model.elements=10:50", "START:STOP:STEP"),
    ("model.elements=10:50:0", "STEP must be > 0"),
    ("model.elements=50:10:10", "STOP must be >= START"),
    ("model.elements=10:50:2.5", "takes integers"),
    ("tether.cd_normal=a:1:0.1", "'a' is not a number"),
])
def test_parse_param_errors(spec, expect):
    with pytest.raises(CaseError, match=expect):
        parse_param(spec)


def test_unknown_key_rejected_before_anything_runs(monkeypatch, tmp_path):
    # run_batch / get_client must never be reached: any call fails the test
    import tetherdyn.batch as batch

    def boom(*a, **k):
        raise AssertionError("a simulation was started")

    monkeypatch.setattr(batch, "run_batch", boom)
    monkeypatch.setattr(batch, "get_client", boom)
    case = make_small_case()
    m = Markers(np.array([0.1]), np.array(["a"], dtype=object), np.array([1.0]),
                np.zeros((1, 3)))
    for spec, expect in [("tether.cd_nrmal=1:2:0.5", "unknown case key"),
                         ("modle.elements=2:4:1", "unknown case section"),
                         ("model.material_damping=0:1:1", "for model lumped_mass"),
                         ("tether.drag_law=1:2:1", "not a numeric scalar key"),
                         ("tether.EA=-10:10:10", "tether.EA: must be > 0")]:
        with pytest.raises(CaseError, match=expect):
            identify(case, m, [spec])
    check_key(case, "model.slack_damping")  # a model's own key is known


# -- the evaluation function (seed 003 eq. 25) against a hand computation --------------------


def _fake_results(slope: bool) -> xr.Dataset:
    """Two output instants of a 3-node tether along a parabola x = s, z = a s² (a = 0 at
    t = 0, a = 1 at t = 0.1), node spacing 0.5 m; slopes dr/ds = (1, 0, 2 a s)."""
    s = np.array([0.0, 0.5, 1.0])
    pos = np.zeros((2, 3, 3))
    slopes = np.zeros((2, 3, 3))
    for k, a in enumerate((0.0, 1.0)):
        pos[k, :, 0] = s
        pos[k, :, 2] = a * s**2
        slopes[k, :, 0] = 1.0
        slopes[k, :, 2] = 2 * a * s
    data = {"position": (("time", "node", "axis"), pos), "arc_length": (("node",), s)}
    if slope:
        data["slope"] = (("time", "node", "axis"), slopes)
    return xr.Dataset(data, coords={"time": [0.0, 0.1]})


def test_tether_points_linear_and_cubic():
    ds = _fake_results(slope=False)
    # linear between nodes: s = 0.25 at t = 0.1 is halfway between z = 0 and z = 0.25
    p = tether_points(ds, np.array([0.1, 0.1, 0.05]), np.array([0.25, 1.0, 0.25]))
    np.testing.assert_allclose(p[0], [0.25, 0.0, 0.125], atol=1e-15)
    np.testing.assert_allclose(p[1], [1.0, 0.0, 1.0], atol=1e-15)
    # t = 0.05 is halfway in time: (0 + 0.125) / 2
    np.testing.assert_allclose(p[2], [0.25, 0.0, 0.0625], atol=1e-15)
    # cubic Hermite reproduces the parabola exactly: z(0.25) = 0.0625 at t = 0.1
    ds = _fake_results(slope=True)
    p = tether_points(ds, np.array([0.1, 0.1]), np.array([0.25, 0.8]))
    np.testing.assert_allclose(p, [[0.25, 0.0, 0.0625], [0.8, 0.0, 0.64]], atol=1e-14)
    with pytest.raises(ValueError, match="past the simulation"):
        tether_points(ds, np.array([0.2]), np.array([0.5]))


def test_marker_cost_hand_computation():
    # J = sum of squared distances (eq. 25). Markers (by hand, parabola z = s² at t = 0.1,
    # straight z = 0 at t = 0):
    #   t = 0,   s = 0.5: measured (0.5, 0, 0.1)   simulated (0.5, 0, 0)    d² = 0.01
    #   t = 0.1, s = 1.0: measured (1.0, 0.2, 1.0) simulated (1.0, 0, 1.0)  d² = 0.04
    #   t = 0.1, s = 0.25 (cubic): measured (0.3, 0, 0.0625) simulated (0.25, 0, 0.0625)
    #                                                                     d² = 0.0025
    cost = MarkerCost(np.array([0.0, 0.1, 0.1]), np.array([0.5, 1.0, 0.25]),
                      np.array([[0.5, 0.0, 0.1], [1.0, 0.2, 1.0], [0.3, 0.0, 0.0625]]))
    v = cost(_fake_results(slope=True))
    assert v["J"] == pytest.approx(0.0525, rel=1e-12)
    assert v["rms"] == pytest.approx(math.sqrt(0.0525 / 3), rel=1e-12)
    assert v["max"] == pytest.approx(0.2, rel=1e-12)


def test_sampling_hits_marker_times_or_interpolates():
    case = make_small_case()  # rk4, dt = 1e-3, output 0.01, duration 0.2
    raw, note = _sampling(case, np.array([0.04, 0.08, 0.12, 0.04]))
    assert raw["solver"]["output_interval"] == 0.04 and raw["solver"]["duration"] == 0.12
    assert "hit" in note
    raw, note = _sampling(case, np.array([0.0333, 0.0666]))  # not a multiple of dt
    assert raw["solver"]["output_interval"] == 0.01
    assert raw["solver"]["duration"] == pytest.approx(0.07)
    assert "interpolated" in note


# -- the batch runner on a real LocalCluster (2 workers, shared by the tests below) ----------


@pytest.fixture
def client(dask_client):
    """The session's LocalCluster (conftest.dask_client), made by get_client(workers=2)."""
    return dask_client


def _markers_for(case: dict) -> Markers:
    ds = simulate(case, progress=False)
    t = np.repeat(ds.time.values[1:], 2)
    s = np.tile([0.5, 1.0], ds.time.size - 1)
    xyz = tether_points(ds, t, s) + 0.01  # 1 cm off in every axis: J = 3e-4 per marker
    return Markers(t, np.array(["a", "b"] * (ds.time.size - 1), dtype=object), s, xyz)


def test_local_cluster_two_workers(client):
    nthreads = client.nthreads()
    assert len(nthreads) == 2 and set(nthreads.values()) == {1}
    cases = [make_small_case({"tether.EA": ea}) for ea in (300.0, 500.0, 800.0)]
    cost = MarkerCost.from_markers(_markers_for(cases[1]))
    ticks = []
    res = run_batch(cases, cost, client=client, progress=lambda d, n: ticks.append((d, n)))
    assert [r.index for r in res] == [0, 1, 2] and all(r.status == "ok" for r in res)
    assert ticks[-1] == (3, 3)
    # the worker's J equals the same evaluation done here, for each case
    for c, r in zip(cases, res, strict=True):
        assert r.values["J"] == pytest.approx(cost(simulate(c, progress=False))["J"],
                                              rel=1e-12)
        assert r.key == case_key(c) and r.wall_s > 0
    # the case the markers came from: every marker 1 cm off in x, y, z
    assert res[1].values["J"] == pytest.approx(len(cost.time) * 3e-4, rel=1e-9)


def _ready() -> bool:
    import sys

    from numba.core.registry import cpu_target

    from tetherdyn import _numba_load
    from tetherdyn.spline import curvature_integral

    return ("tetherdyn.simulate" in sys.modules and "xarray" in sys.modules
            and "dask.array" in sys.modules  # xarray's first Dataset imports it
            and len(curvature_integral.overloads) == 1  # loaded from the cache
            # numba's context set up, unless the fast cache loads need none (_numba_load)
            and (_numba_load._installed or cpu_target.target_context._registries != {}))


def test_workers_are_readied_as_the_cluster_starts(client):
    """get_client preloads every worker (imports, a first function loaded from numba's
    cache — with numba's own loads that sets up its compiler context — and xarray's first
    Dataset), so that a worker's first task pays only loading its formulation's cached code
    (issue 22)."""
    assert list(client.run(_ready).values()) == [True, True]


def test_failures_are_recorded_not_dropped(client):
    good = make_small_case()
    invalid = make_small_case({"tether.EA": -1.0})  # CaseError on the worker
    # rk4 at 20 ms, 6x the 3.5 ms stability limit: blows up (SimulationError)
    blown = make_small_case({"solver.dt": 0.02, "solver.output_interval": 0.02})
    res = run_batch([good, invalid, blown], None, client=client, progress=False)
    assert [r.status for r in res] == ["ok", "failed", "failed"]
    assert res[0].values == {} and res[0].error is None
    assert res[1].error.startswith("CaseError") and "tether.EA" in res[1].error
    assert res[2].error.startswith("SimulationError") and "blew up" in res[2].error


def test_store_resume_runs_nothing_new(client, tmp_path, monkeypatch):
    import tetherdyn.batch as batch

    store = tmp_path / "store.csv"
    cases = [make_small_case({"tether.EA": ea}) for ea in (400.0, 600.0)]
    cases.append(make_small_case({"tether.EA": -1.0}))
    cost = MarkerCost.from_markers(_markers_for(cases[0]))
    first = run_batch(cases, cost, client=client, store=store, progress=False)
    header = store.read_text().splitlines()[0].split(",")
    assert header[:4] == ["key", "status", "error", "wall_s"] and "J" in header
    assert len(store.read_text().splitlines()) == 4
    # second run: no client given and none may be started; everything comes from the store
    monkeypatch.setattr(batch, "get_client",
                        lambda *a, **k: pytest.fail("a cluster was started on resume"))
    again = run_batch(cases, cost, store=store, progress=False)
    for a, b in zip(first, again, strict=True):
        assert isinstance(b, BatchResult)
        assert (a.key, a.status, a.error) == (b.key, b.status, b.error)
        assert a.values == b.values  # repr() of a float round-trips exactly
    # a new case on top: only it runs
    more = run_batch(cases + [make_small_case({"tether.EA": 700.0})], cost, client=client,
                     store=store, progress=False)
    assert more[-1].status == "ok" and len(store.read_text().splitlines()) == 5


# -- the reduced synthetic identification row ---------------------------------------------


def test_seed003_identification_reduced(client):
    row = _REGISTRY["seed003_identification"].func(full=False, client=client)
    v = row.values
    assert row.passed, row.ours
    assert v["n_points"] == 50 and v["n_failed"] == 0
    assert v["n_found"] == TRUE_ELEMENTS
    assert v["err_D"] < TOLERANCE and v["err_cd"] < TOLERANCE
    # at the truth J is the noise alone: rms distance ~ sqrt(2) sigma = 0.71 mm (550 draws:
    # +-5 % covers its sampling spread)
    assert v["rms"] == pytest.approx(math.sqrt(2) * 0.5e-3, rel=0.05)


# -- the command line (through the scheduler address in TETHERDYN_SCHEDULER) ---------------


def test_identify_cli_writes_table_best_and_figures(client, tmp_path, monkeypatch, capsys):
    import argparse

    import yaml

    from tetherdyn.cli import add_identify_parser

    case = make_small_case()
    case_file = tmp_path / "case.yaml"
    case_file.write_text(yaml.safe_dump(case))
    ds = simulate(case, progress=False)  # the markers: exactly the EA = 500 N run
    t = np.repeat(ds.time.values[1::4], 3)
    s = np.tile([0.25, 0.5, 1.0], t.size // 3)
    m = Markers(t, np.array(["a", "b", "c"] * (t.size // 3), dtype=object), s,
                tether_points(ds, t, s))
    marker_file = write_markers(m, tmp_path / "markers.csv")
    parser = argparse.ArgumentParser(prog="tetherdyn")
    add_identify_parser(parser.add_subparsers(dest="command"))
    out = tmp_path / "out"
    argv = ["identify", str(case_file), "--markers", str(marker_file), "--param",
            "tether.EA=300:700:100", "--param", "tether.cd_normal=1.0,1.2", "--out", str(out),
            "-q"]
    monkeypatch.setenv("TETHERDYN_SCHEDULER", client.scheduler.address)
    args = parser.parse_args(argv)
    assert args.func(args) == 0
    text = capsys.readouterr().out
    assert "evaluated 10 points (0 failed)" in text and "tether.EA = 500" in text
    for name in ("results.csv", "results.nc", "best.yaml", "landscape.png", "snapshots.png",
                 "store.csv"):
        assert (out / name).is_file(), name
    table = xr.open_dataset(out / "results.nc")
    assert table.sizes["point"] == 10 and set(table.status.values) == {"ok"}
    best = yaml.safe_load((out / "best.yaml").read_text())
    assert best["tether"]["EA"] == 500.0
    assert float(table.J.min()) == 0.0  # in air-free vacuum here: cd has no effect
    table.close()
    # again: everything from the store, no scheduler needed
    monkeypatch.setenv("TETHERDYN_SCHEDULER", "tcp://127.0.0.1:1")
    args = parser.parse_args(argv + ["--no-figures"])
    assert args.func(args) == 0
    assert "evaluated 10 points (0 failed)" in capsys.readouterr().out


def test_refinement_beats_the_grid(client):
    # truth EA = 530 N lies between grid points (300 … 700 step 100): Nelder-Mead from the
    # grid best (500) must land within 1 % of it (noise-free markers, same solver settings:
    # J(530) = 0, and J grows quadratically around it)
    truth = make_small_case({"tether.EA": 530.0})
    ds = simulate(truth, progress=False)
    t = np.repeat(ds.time.values[1:], 2)
    s = np.tile([0.5, 1.0], ds.time.size - 1)
    m = Markers(t, np.array(["a", "b"] * (ds.time.size - 1), dtype=object), s,
                tether_points(ds, t, s))
    res = identify(make_small_case(), m, ["tether.EA=300:700:100"], client=client,
                   refine=True, progress=False)
    assert res.grid_best["tether.EA"] == 500.0
    assert res.best["tether.EA"] == pytest.approx(530.0, rel=0.01)
    assert res.best_J < 0.01 * res.grid_best_J
    stages = set(res.table["stage"])
    assert {"grid", "refine"} <= stages and (res.table["status"] == "ok").all()
    # three starts: the three best grid points; the best of their ends is the answer (the
    # axial oscillation's phase makes J(EA) wavy: not every start reaches the truth)
    grid = res.table[res.table["stage"] == "grid"].sort_values("J")
    assert [s["start"]["tether.EA"] for s in res.starts] == list(grid["tether.EA"][:3])
    assert min(s["J"] for s in res.starts) == res.best_J


# -- uncertainty at the optimum ---------------------------------------------------------------


def test_uncertainty_matches_linear_regression():
    # a straight line y = a + b t fitted to noisy data is linear least squares: the
    # covariance s² (XᵀX)⁻¹ and the Student-t intervals are exact there (independent
    # reference: the closed-form formulas of simple linear regression)
    from scipy import stats

    rng = np.random.default_rng(5)
    t = np.linspace(0.0, 2.0, 30)
    y = 1.0 + 0.5 * t + rng.normal(0.0, 0.1, t.size)
    X = np.column_stack([np.ones_like(t), t])
    coef, *_ = np.linalg.lstsq(X, y, rcond=None)
    r = y - X @ coef
    # the residual is measured minus model: its Jacobian is -X; add a coordinate no marker
    # measures (zero residual, zero sensitivity), which must not count as an observation
    u = _uncertainty(["a", "b"], coef, np.append(r, 0.0), np.vstack([-X, [0.0, 0.0]]), 0.01,
                     [])
    n = t.size
    s2 = np.sum(r**2) / (n - 2)
    sxx = np.sum((t - t.mean()) ** 2)
    se_b = math.sqrt(s2 / sxx)
    se_a = math.sqrt(s2 * (1 / n + t.mean() ** 2 / sxx))
    assert u.dof == n - 2 and u.s2 == pytest.approx(s2, rel=1e-12)
    np.testing.assert_allclose(u.std_error, [se_a, se_b], rtol=1e-10)
    tq = stats.t.ppf(0.975, n - 2)
    np.testing.assert_allclose(u.ci95_high - coef, tq * u.std_error, rtol=1e-12)
    rho = -t.mean() / math.sqrt(np.mean(t**2))  # corr(a, b) of simple regression
    assert u.correlation[0, 1] == pytest.approx(rho, rel=1e-10)
    assert not u.warnings
    table = u.table()
    assert list(table["parameter"]) == ["a", "b"] and "rho[b]" in table


def test_uncertainty_warns_naming_the_correlated_pair():
    # two columns that differ by 1e-3: |ρ| ~ 1, the data cannot separate them
    rng = np.random.default_rng(2)
    c = rng.normal(size=200)
    jac = np.column_stack([c, c + 1e-3 * rng.normal(size=200)])
    u = _uncertainty(["tether.axial_damping", "tether.cd_normal"], np.array([1.0, 2.0]),
                     rng.normal(size=200), jac, 0.01, ["tether.cd_normal"])
    assert abs(u.correlation[0, 1]) > CORRELATION_WARN
    text = " ".join(u.warnings)
    assert "tether.axial_damping and tether.cd_normal are correlated" in text
    assert "ill-conditioned" in text
    assert "tether.cd_normal at the bound" in text
    assert "WARNING: tether.axial_damping and tether.cd_normal" in u.summary()


# -- the least-squares refinement on the line in sea water (self: our own markers) ----------


def test_edge_start_recovered(client):
    row = _REGISTRY["identification_edge_start"].func(full=False, client=client)
    v = row.values
    # the premise: the grid's best damping is its lower edge (25 N s, the truth is 70)
    assert v["on_edge"] and v["grid_best"]["tether.axial_damping"] == 25.0
    assert row.passed, row.ours
    for k, e in v["err"].items():
        assert abs(e) < SEA_TOLERANCE, k
    # a least-squares minimum inside the range is at or below J at the truth
    assert v["best_J"] <= v["J_truth"]
    u = v["uncertainty"]
    assert u.dof == 40 * 10 * 2 - 2  # y is measured by no marker: not an observation
    # s estimates the 1 mm marker noise (798 dof: ±5 % is about 2 standard deviations)
    assert math.sqrt(u.s2) == pytest.approx(1e-3, rel=0.05)


def test_coverage_reduced(client):
    row = _REGISTRY["identification_coverage"].func(full=False, client=client)
    v = row.values
    assert v["runs"] == 3 and v["n_failed"] == 0
    assert v["recovered"] and np.all(v["rel_err"] < SEA_TOLERANCE)
    # each realisation's 95 % intervals cover the truth (3 fixed seeds)
    truth = np.array(list(SEA_TRUTH.values()))
    assert np.all((v["low"] <= truth) & (truth <= v["high"]))
    assert np.all(v["coverage"] >= COVERAGE_MIN) and row.passed


def test_identify_cli_refine_prints_intervals_and_warns(client, tmp_path, monkeypatch,
                                                        capsys):
    import argparse

    import yaml

    from tetherdyn.cli import add_identify_parser

    case = make_small_case({"tether.EA": 530.0})  # in vacuum: cd_normal has no effect
    case_file = tmp_path / "case.yaml"
    case_file.write_text(yaml.safe_dump(make_small_case()))
    ds = simulate(case, progress=False)
    t = np.repeat(ds.time.values[1:], 2)
    s = np.tile([0.5, 1.0], ds.time.size - 1)
    xyz = tether_points(ds, t, s) + np.random.default_rng(0).normal(0, 1e-4, (t.size, 3))
    m = Markers(t, np.array(["a", "b"] * (t.size // 2), dtype=object), s, xyz)
    marker_file = write_markers(m, tmp_path / "markers.csv")
    parser = argparse.ArgumentParser(prog="tetherdyn")
    add_identify_parser(parser.add_subparsers(dest="command"))
    out = tmp_path / "out"
    monkeypatch.setenv("TETHERDYN_SCHEDULER", client.scheduler.address)
    args = parser.parse_args(["identify", str(case_file), "--markers", str(marker_file),
                              "--param", "tether.EA=300:700:100", "--param",
                              "tether.cd_normal=1.0,1.2", "--out", str(out), "-q",
                              "--refine"])
    assert args.func(args) == 0
    text = capsys.readouterr().out
    print(text)
    assert "95 % interval" in text
    assert "WARNING: the markers do not depend on tether.cd_normal" in text
    unc = xr.open_dataset(out / "results.nc")
    ea = unc.sel(parameter="tether.EA")
    assert float(ea.ci95_low) < 530.0 < float(ea.ci95_high)
    assert float(ea.estimate) == pytest.approx(530.0, rel=0.01)
    unc.close()
    assert (out / "uncertainty.csv").is_file()
