"""Seed 004 ch. 5 / App. D, the 3-D ROV manoeuvre: the data as printed, the ROV path, the
initial shape, the example cases, and the reduced validation rows."""

from __future__ import annotations

import numpy as np
import pytest

from tetherdyn.case import load_case
from validation import seed004_rov as R

# -- the data files: Tables D.1–D.4 as printed in the seed ----------------------------------


def test_waypoints_table_d1():
    w = R.waypoints()
    assert w["t"].size == 15
    assert (w["t"][0], w["X"][0], w["Y"][0], w["Z"][0]) == (-3.0, 3.77, 1.58, 1.17)
    assert (w["t"][8], w["X"][8], w["Y"][8], w["Z"][8]) == (32.67, 2.86, 1.36, 3.0)
    assert (w["t"][-1], w["X"][-1], w["Y"][-1], w["Z"][-1]) == (59.59, 4.94, 3.16, 2.69)
    # the depth sensor's ~0.3 m quantisation: only five distinct depths
    assert sorted(set(w["Z"])) == [1.17, 1.47, 1.78, 2.08, 2.69, 3.0]


def test_initial_shape_table_d2():
    p = R.initial_shape_seed()
    s = R.read_table("rov_initial_shape.csv")["s"]
    assert p.shape == (21, 3)
    assert np.all(p[0] == 0.0)
    # s printed to 3-4 digits: k * 0.3275 within the rounding
    assert np.abs(s - np.arange(21) * 0.3275).max() < 1e-3
    assert p[20].tolist() == [4.24, 0.85, 1.38]
    assert p[4].tolist() == [0.057, 0.73, 0.97]
    # chords 0.311-0.333 m, 6.474 m in all (digest of seed 004 §12): the printed rounding
    chords = np.linalg.norm(np.diff(p, axis=0), axis=1)
    assert chords.min() == pytest.approx(0.3114, abs=1e-3)
    assert chords.max() == pytest.approx(0.3330, abs=1e-3)
    assert chords.sum() == pytest.approx(6.474, abs=1e-3)


def test_histories_tables_d3_d4():
    t3, h3 = R.histories(0.0)
    t4, h4 = R.histories(0.11)
    assert np.array_equal(t3, np.arange(2.0, 57.0, 2.0)) and np.array_equal(t3, t4)
    # node 20 is the prescribed path: the same in both tables
    assert np.array_equal(h3[20], h4[20])
    # spot values (t = 40 s, the largest GJ effect: node 15 X 2.43 against 1.40)
    k = 19
    assert h3[5][k].tolist() == [-0.06, 0.51] and h4[5][k].tolist() == [0.04, 0.63]
    assert h3[15][k, 0] == 2.43 and h4[15][k, 0] == 1.40
    assert h3[10][0].tolist() == [1.50, 1.54] and h4[10][-1].tolist() == [2.04, 1.76]


# -- frame, path, initial shape ------------------------------------------------------------


def test_frame_is_a_rotation():
    """x = X, y = −Y, z = −Z is half a turn about X: det +1, cross products kept (so the
    sense of twist is kept), its own inverse."""
    Q = R.seed_to_ours(np.eye(3))
    assert np.linalg.det(Q) == pytest.approx(1.0)
    a, b = np.array([0.3, -1.2, 0.7]), np.array([2.0, 0.1, -0.4])
    assert np.allclose(np.cross(R.seed_to_ours(a), R.seed_to_ours(b)),
                       R.seed_to_ours(np.cross(a, b)))
    assert np.allclose(R.ours_to_seed(R.seed_to_ours(a)), a)


def test_path_follows_the_tables():
    t, h = R.histories(0.0)
    pos, vel = R.rov_path(np.concatenate([[0.0], t]))
    seed = R.ours_to_seed(pos)
    # t = 0: Table D.2's node 20 (the ShapeTape shape ends at the ROV)
    assert np.allclose(seed[0], [4.24, 0.85, 1.38], atol=1e-12)
    # X, Y: the node-20 columns of Table D.3 at every knot
    assert np.abs(seed[1:, :2] - h[20]).max() < 1e-12
    # depth: through Table D.1's Z at the waypoint times
    w = R.waypoints()
    inside = w["t"] > 0.0
    zp, _ = R.rov_path(w["t"][inside])
    assert np.abs(-zp[:, 2] - w["Z"][inside]).max() < 1e-12
    # the velocity is the derivative of the position (central differences, 1 ms)
    tt = np.linspace(0.5, 57.5, 115)
    p1, _ = R.rov_path(tt + 1e-3)
    p0, _ = R.rov_path(tt - 1e-3)
    _, v = R.rov_path(tt)
    assert np.abs((p1 - p0) / 2e-3 - v).max() < 1e-5
    # ROV speeds of a small vehicle in a pool: below 0.5 m/s throughout
    assert np.linalg.norm(v, axis=1).max() < 0.5


@pytest.mark.parametrize("roll, name", [(False, "rov_path.csv"), (True, "rov_path_roll.csv")])
def test_bundled_path_csv_is_current(roll, name):
    assert R.example_path(name).read_text() == R.path_csv_text(roll)


def test_case_trajectory_reproduces_the_path():
    """The Hermite interpolant of the 0.5 s table equals the splines between its rows (the
    waypoint times are rows too, so each interval is one cubic of each spline)."""
    case = load_case(R.rov_case(20, gj=R.GJ, method="generalized_alpha"))
    traj = case.end_trajectory
    assert traj.roll is not None and np.all(traj.roll == 0.0)
    tt = np.linspace(0.0, 57.0, 571) + 0.0123
    exact, _ = R.rov_path(tt)
    got = np.array([traj.evaluate(x)[0] for x in tt])
    assert np.abs(got - exact).max() < 2e-6  # the CSV's 1e-6 m / 1e-9 m/s rounding


def test_initial_points_equal_chords_and_slack():
    p = R.initial_points()
    chords = np.linalg.norm(np.diff(p, axis=0), axis=1)
    assert np.allclose(p[0], 0.0) and np.allclose(p[-1], [4.24, -0.85, -1.38])
    # resampled at equal arc-length fractions of the polyline: chords equal to 0.3 % (the
    # chord cuts the polyline's corners; measured 0.3227-0.3237 m)
    assert chords.max() - chords.min() < 1.5e-3
    # every chord 1.2 % shorter than L_u = 0.3275 m: the tether starts slack, at rest
    assert np.all(chords < 0.3275 * 0.99)


@pytest.mark.parametrize("name, gj", [("rov_manoeuvre.yaml", 0.11),
                                      ("rov_manoeuvre_spherical.yaml", 0.0)])
def test_example_cases_match_the_module(name, gj):
    c = load_case(R.example_path(name))
    d = load_case(R.rov_case(20, gj=gj, method="generalized_alpha"))
    assert c.tether == d.tether and c.start == d.start and c.model == d.model
    assert c.initial == d.initial and c.solver == d.solver
    assert np.array_equal(c.end_trajectory.coeffs, d.end_trajectory.coeffs)
    assert (c.end_trajectory.roll is None) == (gj == 0.0)


# -- the reduced validation rows -------------------------------------------------------------


@pytest.fixture(scope="module")
def histories_row():
    return R.check_histories(full=False)


@pytest.fixture(scope="module")
def tension_row():
    return R.check_tension(full=False)


@pytest.fixture(scope="module")
def twist_row():
    return R.check_twist(full=False)


def test_histories_row_gj0_matches_table_d3(histories_row):
    v = histories_row.values
    g0 = v["gj0"]
    # Table D.3 (GJ = 0): RMS over nodes 5, 10, 15, X and Y, 28 instants ≤ 0.2 m (digest
    # §15 #14: the ShapeTape drift and the 0.3 m depth quantisation make tighter targets
    # meaningless). Measured 0.156 m (nodes 0.08 / 0.16 / 0.20 m).
    assert g0["rms"] <= R.HISTORY_TOLERANCE
    assert g0["per_node"][5] < g0["per_node"][10] < 0.25
    # up to 26 s ours and the seed's simulation agree to centimetres (measured 0.021 m):
    # the same tether, path and initial shape give the same motion
    assert g0["rms_early"] < 0.05
    assert g0["driven_node_rms"] < 1e-9  # node 20 follows the table's path


@pytest.mark.xfail(strict=False, reason="not met: Table D.4 differs from D.3 by 0.53 m RMS, our "
                   "GJ = 0.11 runs from our GJ = 0 run by 0.057 m (parallel transport) and "
                   "0.010 m (App. B); RMS against D.4 0.59 / 0.61 m (docs/rov_manoeuvre.md)")
@pytest.mark.parametrize("key", ["gj011", "gj011_seed_b13"])
def test_histories_row_gj011_matches_table_d4(histories_row, key):
    assert histories_row.values[key]["rms"] <= R.HISTORY_TOLERANCE


def test_tension_row_physics(tension_row):
    v = tension_row.values
    # the spherical joint carries no twist at all; the roll-held case does, both signs
    assert v["gj0"]["twist_min"] == 0.0 == v["gj0"]["twist_max"]
    for key in ("gj011", "gj011_seed_b13"):
        assert v[key]["twist_max"] > 0.0 > v[key]["twist_min"]
    # App. B with φ = 0 at both ends: |Θ| ≤ π/2, so |τ| ≤ π/(2 L_TOT) at every instant
    b = v["gj011_seed_b13"]
    assert max(-b["twist_min"], b["twist_max"]) <= R.B13_TWIST_BOUND * (1 + 1e-12)
    # both runs: the tension rises as the ROV reaches the end of the tether's scope after
    # 52 s (the ROV's distance from the clamp approaches 6.55 m)
    assert v["rise_ok"]
    for k in ("gj0", "gj011", "gj011_seed_b13"):
        assert v[k]["end_mean"] > 2.0 * v[k]["calm_max"]
        assert 0.0 < v[k]["calm_max"] < 2.0  # a slack tether: about 1 N or less mid-run


@pytest.mark.xfail(strict=False, reason="not met: our ROV tension peaks at 1.2 N at 29.5 s with "
                   "either twist choice, as without GJ; the seed's GJ = 0.11 run peaks at "
                   "3.7 N at 33 s (docs/rov_manoeuvre.md)")
@pytest.mark.parametrize("twist", R.TWISTS)
def test_tension_row_seed_peak(tension_row, twist):
    assert tension_row.values["peak_ok"][twist]


@pytest.mark.xfail(strict=False, reason="not met: twist forces ≤ 0.02 N at 30–31 s against the "
                   "seed's 0.225 / 0.6 N; App. B's twist is bounded by π/(2 L) = 0.24 rad/m "
                   "(docs/rov_manoeuvre.md)")
@pytest.mark.parametrize("twist", R.TWISTS)
def test_twist_row_seed_claims(twist_row, twist):
    assert all(twist_row.values["met"][twist].values())


def test_convergence_row():
    row = R.check_convergence(full=False)
    d = row.values["diff"]
    assert row.passed
    # node X at 33 s converges as N grows: N = 20 within 0.06 m of N = 30 (measured
    # 0.002 m), N = 10 0.07 m, N = 5 0.53 m off
    assert d[20] <= R.CONVERGED_TOL
    assert d[5] > d[10] > d[20]
