"""The system step API (tetherdyn.system_cosim.SystemSimulator; docs/systems.md "Step API"):
a host replaying the case's own trajectories reproduces run_system (self), a slow host
motion gives the forces of the system's statics, the worked example's static top tension
is the submerged weight below it, bad calls are named. RK4 as the suite's other system
tests (their kernels)."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from tetherdyn.rigid_body import body_rates_from_rpy, rpy_rates_from_body_rates
from tetherdyn.system_case import load_system
from tetherdyn.system_cosim import SystemSimulator
from tetherdyn.system_run import run_system
from tetherdyn.system_statics import solve_system

KNOTS = np.linspace(0.0, 0.5, 6)
TETHER = {"diameter": 0.02, "mass_per_length": 2.0, "EA": 1e5, "axial_damping": 200.0,
          "cd_normal": 1.2}


def driven_case() -> dict:
    """A coupled point P, a free point Q and a coupled body V turning on all three axes,
    joined by two lines in water; the trajectories are natural cubic splines through
    KNOTS."""
    t = KNOTS
    p = {"t": t.tolist(), "x": (20 + 0.5 * np.sin(2 * t)).tolist(),
         "y": (0.2 * t**2).tolist(), "z": (-0.3 * np.sin(t)).tolist()}
    v = {"t": t.tolist(), "x": (0.4 * np.sin(3 * t)).tolist(), "y": (0.1 * t).tolist(),
         "z": (-0.2 * t**2).tolist(), "roll_deg": (10 * np.sin(2 * t)).tolist(),
         "pitch_deg": (5 * t).tolist(), "yaw_deg": (30 * t**2).tolist()}
    return {
        "lines": {
            "L0": {"length": 12.0, "tether": TETHER, "start": {"point": "P"},
                   "model": {"type": "lumped_mass", "elements": 6}, "end": {"point": "Q"}},
            "L1": {"length": 9.0, "tether": TETHER, "start": {"point": "Q"},
                   "model": {"type": "lumped_mass", "elements": 5},
                   "end": {"body": "V", "at": [0.5, 0.2, -0.3]}}},
        "points": {"P": {"type": "coupled", "trajectory": p},
                   "Q": {"type": "free", "position": [10.0, 0.0, -8.0], "mass": 50.0,
                         "volume": 0.01}},
        "bodies": {"V": {"type": "coupled", "trajectory": v}},
        "environment": {"fluid_density": 1025.0},
        "solver": {"method": "rk4", "dt": 1e-3, "duration": 0.5, "output_interval": 0.1}}


def test_host_replaying_the_trajectories_reproduces_run_system():
    """(self) The host steps on the splines' knots with their positions, angles and rates
    (ω in body axes from the angle rates): each step's Hermite cubic is the spline's own, so
    the run is run_system's to round-off — node positions 1e-12 m, tensions and the forces
    and moments returned 1e-9 of their size (measured 2e-14 m and 2e-10 N over 1 s)."""
    case = driven_case()
    ref = run_system(case, progress=False)
    sc = load_system(case)
    pos, ang = sc.bodies["V"].motion(sc.base_dir)
    track = sc.lines["L0"].start_trajectory
    sim = SystemSimulator(case)
    for k, t in enumerate(KNOTS[1:], start=1):
        p, v, _ = track.evaluate(t)
        bp, bv, _ = pos.evaluate(t)
        a, da, _ = ang.evaluate(t)
        w = body_rates_from_rpy.py_func(*a, *da)
        assert np.allclose(rpy_rates_from_body_rates(*a, *w), da, rtol=0, atol=1e-12)
        bodies, points = sim.step(0.1, bodies={"V": (np.r_[bp, a], np.r_[bv, w])},
                                  points={"P": (p, v)})
        assert sim.t == pytest.approx(t, abs=1e-12)
        for name in ("L0", "L1"):
            got = ref.lines[name].data_vars
            np.testing.assert_allclose(sim.line_positions(name), got["position"][1][k],
                                       rtol=0, atol=1e-12)
            np.testing.assert_allclose(sim.line_tensions(name), got["tension"][1][k],
                                       rtol=0, atol=1e-9 * np.abs(got["tension"][1]).max())
        body = ref.bodies["V"]
        scale = np.abs(body["force"][1]).max()
        np.testing.assert_allclose(bodies["V"][0], body["force"][1][k], rtol=0,
                                   atol=1e-9 * scale)
        np.testing.assert_allclose(bodies["V"][1], body["moment"][1][k], rtol=0,
                                   atol=1e-9 * np.abs(body["moment"][1]).max())
        np.testing.assert_allclose(points["P"], ref.points["P"]["force"][1][k], rtol=0,
                                   atol=1e-9 * np.abs(ref.points["P"]["force"][1]).max())
        np.testing.assert_allclose(sim.point_state("Q")[0], ref.points["Q"]["position"][1][k],
                                   rtol=0, atol=1e-12)


def clump_case() -> dict:
    """A 300 kg clump between an anchor chain and a chain to a coupled fairlead P, started
    from the system's static equilibrium."""
    chain = {"diameter": 0.05, "mass_per_length": 8.0, "EA": 5.0e6, "axial_damping": 5.0e3,
             "cd_normal": 1.2, "ca_normal": 1.0}
    line = {"length": 26.0, "tether": chain, "model": {"type": "lumped_mass", "elements": 10}}
    return {
        "lines": {"L0": {**line, "start": {"point": "A"}, "end": {"point": "Q"}},
                  "L1": {**line, "start": {"point": "Q"}, "end": {"point": "P"}}},
        "points": {"A": {"type": "fixed", "position": [0.0, 0.0, -30.0]},
                   "Q": {"type": "free", "position": [20.0, 0.0, -25.0], "mass": 300.0,
                         "volume": 0.05, "drag_area": 1.0, "ca": 1.0},
                   "P": {"type": "coupled", "interpolation": "linear", "trajectory": {
                       "t": [0.0, 1.0], "x": [40.0, 40.0], "y": [0.0, 0.0], "z": [0.0, 0.0]}}},
        "initial": {"shape": "equilibrium"},
        "environment": {"fluid_density": 1025.0},
        "solver": {"method": "rk4", "dt": 2e-3, "duration": 1.0, "output_interval": 0.1}}


def smoothstep(T: float, steps: int = 100):
    """A host's slow move over T [s] in equal steps: (step [s], u = t/T rounded, the
    smoothstep s = u²(3 − 2u), ds/dt [1/s]) after each step."""
    for k in range(1, steps + 1):
        u = k / steps
        yield T / steps, round(u, 9), u * u * (3 - 2 * u), 6 * u * (1 - u) / T


def test_slow_host_motion_gives_the_forces_of_statics():
    """Quasi-statics: the host moves the fairlead by (3, 0, −1) m on a smoothstep over T; at
    a quarter, half and three quarters of the way the force on it is the system statics'
    (solve_system with the fairlead held there) within 2 % at T = 20 s (measured 0.54 %,
    1.25 %, 1.27 %; peak speed 0.24 m/s), and the difference vanishes as the motion slows:
    halving the speed (T = 20 s against 10 s) shrinks it to at most 0.65 of itself
    (measured 0.24–0.26: second order, as the chains' quadratic drag and the clump's
    inertia, its acceleration falling 4×)."""
    case = clump_case()
    p0, d = np.array([40.0, 0.0, 0.0]), np.array([3.0, 0.0, -1.0])
    marks = (0.25, 0.5, 0.75)
    got = {}
    for T in (10.0, 20.0):
        sim = SystemSimulator(case)
        for h, u, s, ds in smoothstep(T):
            p, v = p0 + d * s, d * ds
            _, points = sim.step(h, points={"P": (p, v)})
            if u in marks:
                got[T, u] = (p, points["P"].copy())
    for u in marks:
        p, _ = got[20.0, u]
        held = copy.deepcopy(case)
        held["points"]["P"] = {"type": "fixed", "position": p.tolist()}
        fs = solve_system(held).forces["P"]
        err = {T: np.linalg.norm(got[T, u][1] - fs) / np.linalg.norm(fs) for T in (10.0, 20.0)}
        assert err[20.0] < 0.02, (u, err)
        assert err[20.0] < 0.65 * err[10.0], (u, err)


def clump_body_case() -> dict:
    """clump_case with its fairlead a coupled body V (at rest on its trajectory at t = 0)
    holding the chain at an arm (-2, 0.5, -1) m from its reference point, and a second
    chain from an anchor B to its other side (2, 0, -1) m: a force and a moment on V."""
    case = clump_case()
    case["points"].pop("P")
    chain = case["lines"]["L1"]
    case["lines"]["L1"] = {**chain, "end": {"body": "V", "at": [-2.0, 0.5, -1.0]}}
    case["lines"]["L2"] = {**chain, "length": 40.0, "start": {"point": "B"},
                           "end": {"body": "V", "at": [2.0, 0.0, -1.0]}}
    case["points"]["B"] = {"type": "fixed", "position": [60.0, 3.0, -30.0]}
    case["bodies"] = {"V": {"type": "coupled", "interpolation": "linear", "trajectory": {
        "t": [0.0, 1.0], "x": [40.0, 40.0], "y": [0.0, 0.0], "z": [0.0, 0.0],
        "roll_deg": [0.0, 0.0], "pitch_deg": [0.0, 0.0], "yaw_deg": [0.0, 0.0]}}}
    return case


def test_slow_host_body_motion_gives_the_loads_of_statics():
    """Quasi-statics of a coupled body (the step API's body path and the statics' coupled
    body, started from its equilibrium): the host moves V by (3, 0, −1) m and turns it by
    roll 4°, pitch −6°, yaw 15° on a smoothstep over T; at a quarter, half and three
    quarters of the way the force and the moment about its reference point are those of
    solve_system with V held there (a fixed body at that pose) within 2 % at T = 20 s
    (measured 0.46 %, 0.80 %, 0.61 % of |F| or |M|, the larger), and the difference shrinks
    to at most 0.65 of itself when the speed halves (T = 20 s against 10 s; measured
    0.30, 0.25, 0.22: second order in the speed, as the point test)."""
    case = clump_body_case()
    p0, d = np.array([40.0, 0.0, 0.0]), np.array([3.0, 0.0, -1.0])
    turn = np.radians([4.0, -6.0, 15.0])
    marks = (0.25, 0.5, 0.75)
    got = {}
    for T in (10.0, 20.0):
        sim = SystemSimulator(case)
        for h, u, s, ds in smoothstep(T):
            a, da = turn * s, turn * ds
            w = body_rates_from_rpy.py_func(*a, *da)  # ω in body axes from the angle rates
            bodies, _ = sim.step(h, bodies={"V": (np.r_[p0 + d * s, a], np.r_[d * ds, w])})
            if u in marks:
                got[T, u] = (p0 + d * s, a, bodies["V"][0].copy(), bodies["V"][1].copy())
    for u in marks:
        p, a, _, _ = got[20.0, u]
        held = copy.deepcopy(case)
        held.pop("initial")
        held["bodies"]["V"] = {"type": "fixed", "position": p.tolist(),
                               "orientation_deg": np.degrees(a).tolist()}
        f6 = solve_system(held).body_forces["V"]
        err = {T: max(np.linalg.norm(got[T, u][2] - f6[:3]) / np.linalg.norm(f6[:3]),
                      np.linalg.norm(got[T, u][3] - f6[3:]) / np.linalg.norm(f6[3:]))
               for T in (10.0, 20.0)}
        assert err[20.0] < 0.02, (u, err)
        assert err[20.0] < 0.65 * err[10.0], (u, err)


def test_vessel_tms_rov_example_hangs_its_submerged_weight(tmp_path):
    """The worked example (examples/vessel_tms_rov.py), shortened. Calm (no waves or
    current, vessel held): the lines' force on the vessel is the submerged weight of
    everything below the A-frame, vertical, within 1 % from 1 s on (measured 0.26 %, the
    start's ringing), and its moment about the vessel's reference point is the A-frame's
    lever times it. In waves (1 s): the returned force equals the umbilical's start force
    (their one source), and the figure is drawn."""
    from tetherdyn.examples import vessel_tms_rov as ex

    calm = ex.run(duration=2.0, calm=True, snapshots=2)
    W = ex.wet_weight(calm["simulator"].case)
    late = calm["t"] >= 1.0
    F, M = calm["force"][late], calm["moment"][late]
    assert np.abs(F[:, 2] / W + 1.0).max() < 0.01
    assert np.abs(F[:, :2]).max() < 1e-9 * W
    at = np.array([-12.0, 0.0, 4.0])
    np.testing.assert_allclose(M, np.cross(at, F), rtol=0, atol=1e-9 * 12 * W)
    waves = ex.run(duration=1.0, ramp=0.5, snapshots=2)
    sim = waves["simulator"]
    np.testing.assert_allclose(sim.body_loads["vessel"][0],
                               sim.line_end_forces("umbilical")[0], rtol=0, atol=0)
    assert np.all(np.isfinite(waves["force"])) and abs(waves["heave"][-1]) > 0.0
    assert ex.plot(waves, tmp_path / "fig.png").stat().st_size > 10_000


def test_bad_host_calls_are_named():
    sim = SystemSimulator(driven_case())
    with pytest.raises(ValueError, match=r"points\.Q: a free point; make it coupled"):
        sim.step(0.1, points={"Q": np.zeros(3)})
    with pytest.raises(ValueError, match=r"bodies\.W: unknown \(coupled bodies: V\)"):
        sim.step(0.1, bodies={"W": np.zeros(6)})
    with pytest.raises(ValueError, match=r"bodies\.V: give a finite pose \(6,\)"):
        sim.step(0.1, bodies={"V": np.zeros(3)})
    with pytest.raises(ValueError, match=r"points\.P: give a finite position \(3,\)"):
        sim.step(0.1, points={"P": (np.zeros(3), np.full(3, np.nan))})
    with pytest.raises(ValueError, match="whole multiple of solver.dt"):
        sim.step(0.0015)
    with pytest.raises(ValueError, match="gimbal lock"):
        sim.step(0.1, bodies={"V": (np.r_[0, 0, 0, 0, np.pi / 2, 0], np.ones(6))})
    assert sim.t == 0.0


def test_a_higher_order_line_through_the_step_api():
    """clump_case with its upper chain a higher_order line (bending), from the system's
    statics (the statics with a higher_order line), the host holding the fairlead P still:
    the force the host gets is the statics' force on P within 1e-6 of it after 1 s (the
    run from the equilibrium stays still), it is the line's own end force (their one
    source), and the tensions the step API gives are the results' (run_system, self)."""
    case = clump_case()
    case["lines"]["L1"] = {**case["lines"]["L1"],
                           "model": {"type": "higher_order", "elements": 6},
                           "tether": {**case["lines"]["L1"]["tether"], "EI": 50.0}}
    fs = solve_system(case).forces["P"]
    ref = run_system(case, progress=False)
    sim = SystemSimulator(case)
    p = np.array([40.0, 0.0, 0.0])
    for k in range(1, 6):
        _, points = sim.step(0.2, points={"P": (p, np.zeros(3))})
        np.testing.assert_allclose(points["P"], fs, rtol=0, atol=1e-6 * np.linalg.norm(fs))
        np.testing.assert_allclose(points["P"], sim.line_end_forces("L1")[1], rtol=0, atol=0)
        for name in ("L0", "L1"):
            got = ref.lines[name].data_vars["tension"][1][2 * k]
            np.testing.assert_allclose(sim.line_tensions(name), got, rtol=0,
                                       atol=1e-9 * np.abs(got).max())


def _replay(sim: SystemSimulator, case: dict, knots) -> tuple:
    """Step ``sim`` over ``knots`` with driven_case's own trajectories (as the first test
    does); the last step's returns, copied."""
    sc = load_system(case)
    pos, ang = sc.bodies["V"].motion(sc.base_dir)
    track = sc.lines["L0"].start_trajectory
    for t in knots:
        p, v, _ = track.evaluate(t)
        bp, bv, _ = pos.evaluate(t)
        a, da, _ = ang.evaluate(t)
        w = body_rates_from_rpy.py_func(*a, *da)
        bodies, points = sim.step(t - sim.t, bodies={"V": (np.r_[bp, a], np.r_[bv, w])},
                                  points={"P": (p, v)})
    return (bodies["V"][0].copy(), bodies["V"][1].copy(), points["P"].copy(),
            sim.line_tensions("L1").copy())


def test_save_and_load_continue_bit_for_bit(tmp_path):
    """A run saved after two host steps and loaded again (the state, the integrator, the
    host's segments in the stacked lines and the body's motion, the case) continues bit
    for bit beside the original: state, tensions, forces and moments equal to the last
    bit, for a system with lumped-mass lines (driven_case) and one with a higher_order
    line (its own run data)."""
    case = driven_case()
    a = SystemSimulator(case)
    _replay(a, case, KNOTS[1:3])
    b = SystemSimulator.load(a.save(tmp_path / "run.npz"))
    assert b.t == a.t and np.array_equal(b.y, a.y)
    for x, y in zip(_replay(a, case, KNOTS[3:]), _replay(b, case, KNOTS[3:]), strict=True):
        assert np.array_equal(x, y)
    assert np.array_equal(a.y, b.y) and np.array_equal(a.line_positions("L0"),
                                                       b.line_positions("L0"))

    mixed = clump_case()
    mixed["lines"]["L1"] = {**mixed["lines"]["L1"],
                            "model": {"type": "higher_order", "elements": 6},
                            "tether": {**mixed["lines"]["L1"]["tether"], "EI": 50.0}}
    c = SystemSimulator(mixed)
    p = np.array([40.0, 0.0, 0.0])
    c.step(0.2, points={"P": (p, np.zeros(3))})
    d = SystemSimulator.load(c.save(tmp_path / "mixed.npz"))
    for _ in range(2):
        fc = c.step(0.2, points={"P": (p + 0.1, np.zeros(3))})[1]["P"].copy()
        fd = d.step(0.2, points={"P": (p + 0.1, np.zeros(3))})[1]["P"]
        assert np.array_equal(fc, fd)
    assert np.array_equal(c.y, d.y)
    assert np.array_equal(c.line_tensions("L1"), d.line_tensions("L1"))


def test_results_file_is_the_datatree_file(tmp_path, monkeypatch):
    """SystemResults.write writes with netCDF4 alone the file xarray's DataTree writes from
    the same results (issue 22: xarray brings dask): the same groups, dimensions,
    variables (types, dimensions, attributes, values) and attributes, in the same order —
    here lines, a coupled and a free point, a coupled body and a line end's ``end_body`` /
    ``end_at`` attributes — and it reads back identical with ``xarray.open_datatree``."""
    import xarray as xr

    from tests.nc_layout import netcdf_layout

    res = run_system(driven_case(), progress=False)
    via_xarray = tmp_path / "xarray.nc"
    tree = res.to_datatree()
    tree.to_netcdf(via_xarray)
    with monkeypatch.context() as m:  # the direct path, never a fall-back to xarray
        m.setattr(type(res), "to_datatree", lambda self: pytest.fail("went through xarray"))
        direct = res.write(tmp_path / "direct.nc")
    layout = netcdf_layout(direct)
    assert layout == netcdf_layout(via_xarray)
    line = dict(dict(layout["groups"])["lines"]["groups"])["L1"]
    assert {"end_body", "end_at"} <= {name for name, _, _ in line["attrs"]}
    with xr.open_datatree(direct) as back:
        xr.testing.assert_identical(back, tree)
