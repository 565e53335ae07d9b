"""Step API (tetherdyn.Simulator): a host-driven end reproduces a case-prescribed one (rk4,
rk45 and generalized-α), forces match the results layer, save/restore continues bit for bit,
two runs do not see each other, bad calls are named."""

from __future__ import annotations

import numpy as np
import pytest

from tetherdyn import Simulator, simulate
from tetherdyn.case import load_case

T_KNOTS = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]
# one cubic polynomial per axis, starting at rest at the origin (where the fixed start of
# the host-driven run begins), given as a Hermite track: every knot-to-knot Hermite cubic is
# the polynomial itself, so the motion is C2 and the end's inertia force is the same on
# either side of a knot
_A2 = np.array([0.3, 0.2, -0.1])
_A3 = np.array([-0.4, 0.1, 0.5])
_T = np.array(T_KNOTS)
_P = _T[:, None] ** 2 * _A2 + _T[:, None] ** 3 * _A3
_V = 2 * _T[:, None] * _A2 + 3 * _T[:, None] ** 2 * _A3
TRACK = dict(t=T_KNOTS, **{k: _P[:, i].tolist() for i, k in enumerate("xyz")},
             **{f"v{k}": _V[:, i].tolist() for i, k in enumerate("xyz")})


def driven_case(small_case, model: str = "lumped_mass") -> dict:
    case = small_case(start={"type": "prescribed", "trajectory": TRACK})
    case["solver"] = {"method": "rk4", "dt": 1e-3, "duration": 0.5, "output_interval": 0.1}
    case["model"]["type"] = model
    if model == "rigid_links":
        del case["tether"]["EA"]
    return case


@pytest.mark.parametrize("model", ["lumped_mass", "rigid_links", "rod_chain"])
def test_host_driven_start_reproduces_prescribed_trajectory(small_case, model):
    """Host steps on the spline's knots with the spline's position and velocity: each step's
    Hermite cubic is the spline's own cubic, so both runs integrate the same motion."""
    case = driven_case(small_case, model)
    ref = simulate(case, progress=False)
    track = load_case(case).start_trajectory
    fixed = dict(case, start={"type": "fixed", "position": [0.0, 0.0, 0.0]})
    sim = Simulator(fixed)
    for k, t in enumerate(T_KNOTS[1:], start=1):
        p, v, _ = track.evaluate(t)
        f_start, f_end = sim.step(0.1, start=(p, v))
        pos = ref.position.isel(time=k).values
        n = pos.shape[0]
        got = sim.model.outputs(np.array([sim.t]), sim.state[None], sim.data.args)["position"][0]
        assert np.allclose(got, pos, atol=1e-12, rtol=0), (model, t)
        assert np.allclose(f_start, ref.start_force.isel(time=k).values, atol=1e-9)
        assert np.allclose(f_end, ref.end_force.isel(time=k).values, atol=1e-9)
        assert n == sim.model.n_nodes


def test_undriven_simulator_matches_simulate(small_case):
    case = small_case()
    ref = simulate(case, progress=False)
    sim = Simulator(case)
    for k in range(1, ref.sizes["time"]):
        f0, _ = sim.step(0.01)
        assert np.allclose(f0, ref.start_force.isel(time=k).values, rtol=1e-12, atol=1e-12)
    assert np.array_equal(sim.state[:3], ref.position.isel(time=-1, node=0).values)


@pytest.mark.parametrize("method", ["rk4", "rk45", "generalized_alpha"])
def test_save_and_load_continue_bit_for_bit(small_case, tmp_path, method):
    case = driven_case(small_case)
    case["start"] = {"type": "fixed", "position": [0.0, 0.0, 0.0]}
    case["solver"]["method"] = method

    def drive(sim, k0, k1):
        out = []
        for k in range(k0, k1):
            t = 0.01 * (k + 1)
            p = np.array([0.05 * np.sin(3 * t), 0.0, 0.02 * t])
            v = np.array([0.15 * np.cos(3 * t), 0.0, 0.02])
            f0, f1 = sim.step(0.01, start=(p, v))
            out.append(np.concatenate([sim.state, f0, f1]))
        return np.array(out)

    a = Simulator(case)
    drive(a, 0, 10)
    path = a.save(tmp_path / "run.npz")
    first = drive(a, 10, 20)
    b = Simulator.load(path)
    assert b.t == a.t - 0.1 or np.isclose(b.t, 0.1)
    second = drive(b, 10, 20)
    assert np.array_equal(first, second)


def test_position_only_drive_moves_the_end_on_a_line(small_case):
    case = small_case(start={"type": "fixed", "position": [0.0, 0.0, 0.0]})
    sim = Simulator(case)
    sim.step(0.01, start=np.array([0.01, 0.0, 0.0]))
    p, v = sim.end_state("start")
    assert np.allclose(p, [0.01, 0.0, 0.0]) and np.allclose(v, [1.0, 0.0, 0.0])
    assert np.allclose(sim.state[:3], [0.01, 0.0, 0.0])


def test_bad_calls_name_the_problem(small_case):
    sim = Simulator(small_case())
    with pytest.raises(ValueError, match="end: the case's end end is free"):
        sim.step(0.01, end=np.zeros(3))
    with pytest.raises(ValueError, match="whole multiple of solver.dt"):
        sim.step(0.0015)
    with pytest.raises(ValueError, match="start: give a finite position"):
        sim.step(0.01, start=np.zeros(2))


def test_rov_cosimulation_example_runs(tmp_path):
    """The worked example (examples/cosim_rov.py) at reduced length: the tether holds the
    ROV back and pulls it towards the tether's top (x < 0 force while it flies off in +x)."""
    from tetherdyn.examples import cosim_rov

    result = cosim_rov.run(duration=3.0, settle=1.0)
    assert np.all(np.isfinite(result["tethered"])) and np.all(np.isfinite(result["force"]))
    assert result["tethered"][-1, 0] < result["free"][-1, 0]
    assert result["force"][-1, 0] < 0.0
    path = cosim_rov.plot(result, tmp_path / "rov.png")
    assert path.stat().st_size > 10_000


def test_host_driven_generalized_alpha_follows_integrate(small_case):
    """The step API runs generalized-α. The host replays the case's own start trajectory
    on its knots, so each step's Hermite cubic is the spline's cubic up to the rounding of
    its coefficients (Hermite form from p, v at the knots vs the spline's own), and both
    runs take the same steps (every output instant is a step target in both). Newton's
    stopping test (remaining error ≤ 0.05 of rtol/atol) lets that round-off grow: measured
    at t = 0.5 s, 1.0e-10 m in position and 4.6e-7 (relative) in the start force with the
    default rtol 1e-6; 2.3e-13 m and 5.2e-10 with rtol 1e-9, atol 1e-12 (used here)."""
    case = driven_case(small_case)
    case["solver"] = {"method": "generalized_alpha", "dt": 1e-3, "duration": 0.5,
                      "output_interval": 0.1, "rtol": 1e-9, "atol": 1e-12}
    ref = simulate(case, progress=False)
    track = load_case(case).start_trajectory
    sim = Simulator(dict(case, start={"type": "fixed", "position": [0.0, 0.0, 0.0]}))
    assert sim.method == "generalized_alpha"
    with pytest.raises(ValueError, match="dt = 0 s must be > 0"):
        sim.step(0.0)  # the step API's check of dt (cosim.SteppedRun), as systems have it
    for k, t in enumerate(T_KNOTS[1:], start=1):
        p, v, _ = track.evaluate(t)
        f_start, _ = sim.step(0.1, start=(p, v))
        out = sim.model.outputs(np.array([sim.t]), sim.state[None], sim.data.args)
        assert np.abs(out["position"][0] - ref.position.isel(time=k).values).max() < 1e-12
        f_ref = ref.start_force.isel(time=k).values
        assert np.abs(f_start - f_ref).max() < 1e-8 * np.abs(f_ref).max()
    assert sim.stepper.steps >= 500 and sim.stepper.jacobians > 0


def test_host_holding_an_end_still_is_the_case_bit_for_bit(small_case):
    """A host that holds the fixed start where the case holds it (position-only steps to the
    same point: the segment's coefficients are the fixed point's exactly) gives the run of
    ``simulate`` bit for bit, with generalized-α as with rk4. Steps of 1/64 s (binary
    fractions) so that the host's summed time equals the output instants exactly."""
    for method in ("generalized_alpha", "rk4"):
        case = small_case({"solver.method": method, "solver.dt": 1 / 1024,
                           "solver.output_interval": 1 / 64, "solver.duration": 0.25},
                          start={"type": "fixed", "position": [0.0, 0.0, 0.0]})
        ref = simulate(case, progress=False)
        sim = Simulator(case)
        for k in range(1, ref.sizes["time"]):
            f0, _ = sim.step(1 / 64, start=np.zeros(3))
            assert np.array_equal(f0, ref.start_force.isel(time=k).values), (method, k)
            assert np.array_equal(sim.model.outputs(np.array([sim.t]), sim.state[None],
                                                    sim.data.args)["position"][0],
                                  ref.position.isel(time=k).values), (method, k)


def test_save_and_load_keep_the_run_data_of_a_twisting_tether(tmp_path):
    """higher_order with an end torque tracks its twist branch in the run data (``tw``,
    outside the state vector): save stores every run field, so a loaded run continues bit
    for bit."""
    case = dict(
        tether=dict(length=1.0, diameter=0.01, mass_per_length=0.1, EA=2000.0, EI=0.5,
                    GJ=1.5, compression=True),
        environment=dict(gravity=[0.0, 0.0, -9.81]),
        model=dict(type="higher_order", elements=4),
        start=dict(type="fixed", clamp=[1.0, 0.0, 0.0], roll_deg=0.0),
        end=dict(type="free", torque=0.05),
        initial=dict(direction=[1.0, 0.0, 0.0]),
        solver=dict(method="rk4", dt=2e-5, duration=0.01, output_interval=1e-3),
    )

    def drive(sim, n):
        return np.array([np.concatenate([sim.step(1e-3, start=np.zeros(3))[0], sim.state])
                         for _ in range(n)])

    a = Simulator(case)
    drive(a, 3)
    path = a.save(tmp_path / "run.npz")
    with np.load(path) as f:
        assert "data.tw" in f.files and np.array_equal(f["data.tw"], a.data.args.tw)
    first = drive(a, 3)
    second = drive(Simulator.load(path), 3)
    assert np.array_equal(first, second)
