"""Issue 18: every entry point starts from where the ends really are, and from the static
equilibrium with ``initial: {shape: equilibrium}`` (start.initial_state, one function).

The physics asserted: a straight line laid from a held end is unstretched at t = 0 (zero
tension: no jolt); a line hanging at rest in static equilibrium carries its whole weight at
the holder, |start_force| = (m' L + payload) g exactly for the lumped masses (the spec's
start_force includes the weight lumped at the end node), and stays still.
Small lumped_mass lines (4-6 elements, milliseconds of simulated time) keep this lean.
"""

from __future__ import annotations

import numpy as np
import pytest

from tetherdyn import CaseError, load_case
from tetherdyn.cosim import Simulator
from tetherdyn.integrate import integrate
from tetherdyn.models import build_model
from tetherdyn.simulate import run_case
from tetherdyn.start import initial_state
from tetherdyn.steady import Continuation

G = 9.81
L, N, MPL, EA, PAYLOAD = 10.0, 5, 0.5, 1.0e4, 1.0
WEIGHT = (MPL * L + PAYLOAD) * G  # [N] in vacuum
#: the issue's trajectory: the prescribed start's table begins at (0.25, 0, 0), no position
TABLE = dict(t=[0.0, 1.0, 2.0], x=[0.25, 0.25, 0.25], y=[0.0] * 3, z=[0.0] * 3)


def _case(**over) -> dict:
    c = dict(tether=dict(length=L, diameter=0.01, mass_per_length=MPL, EA=EA),
             model=dict(type="lumped_mass", elements=N),
             start=dict(type="prescribed", trajectory=TABLE),
             end=dict(type="free", mass=PAYLOAD),
             solver=dict(dt=1e-4, duration=4e-3, output_interval=2e-3))
    c.update(over)
    return c


def _var(table, name) -> np.ndarray:
    return np.asarray(table.data_vars[name][1])


def _element_lengths(pos: np.ndarray) -> np.ndarray:
    return np.linalg.norm(np.diff(pos, axis=0), axis=1)


# -- the ends rule ---------------------------------------------------------------------------

def test_prescribed_start_by_trajectory_alone_hangs_unstretched():
    """The issue's case: node 0 at the table's first row and every element at its
    unstretched length (was: laid from the origin, element 0 stretched by 0.25 m, a
    140 N jolt); zero tension at t = 0 and no jolt after it (a straight line released
    under gravity loads up to at most twice its weight)."""
    r = run_case(_case(initial=dict(direction=[0.0, 0.0, -1.0])), progress=False)
    pos = _var(r, "position")
    assert np.allclose(pos[0, 0], [0.25, 0.0, 0.0])
    assert np.allclose(_element_lengths(pos[0]), L / N, rtol=0, atol=1e-12)
    assert np.all(_var(r, "tension")[0] == 0.0)
    assert np.max(np.linalg.norm(_var(r, "start_force"), axis=1)) < 2.0 * WEIGHT


def test_straight_from_a_vessel_under_way_starts_at_its_position_and_velocity():
    """A vessel moving at 1 m/s at t = 0 (velocity table from its position): node 0 where
    and as fast as the vessel, the rest laid unstretched from there at initial.velocity
    (default at rest: docs/statics.md, the ends rule): no element stretched at t = 0."""
    vessel = dict(type="prescribed", position=[0.25, 0.0, 0.0], interpolation="linear",
                  trajectory=dict(t=[0.0, 10.0], vx=[1.0, 1.0], vy=[0.0, 0.0],
                                  vz=[0.0, 0.0]))
    pos, vel = initial_state_positions(_case(start=vessel))
    assert np.allclose(pos[0], [0.25, 0.0, 0.0]) and np.allclose(vel[0], [1.0, 0.0, 0.0])
    assert np.allclose(_element_lengths(pos), L / N, rtol=0, atol=1e-12)
    assert np.all(vel[1:] == 0.0)


def test_points_off_a_held_end_are_rejected_rounding_is_closed():
    pts = [[0.25, 0.0, -2.0 * k] for k in range(N + 1)]
    ok = load_case(_case(initial=dict(shape="points", points=pts)))
    assert ok.initial.points is not None
    off = [[0.0, 0.0, -2.0 * k] for k in range(N + 1)]  # from the origin: 0.25 m off
    with pytest.raises(CaseError, match=r"initial\.points\[0\]: .* 0\.25 m from where the "
                                        r"start end is held at t = 0"):
        load_case(_case(initial=dict(shape="points", points=off)))
    # a fixed end at the other side, 1e-9 of an element off (rounding of a written shape)
    both = _case(end=dict(type="fixed", position=[0.25, 0.0, -9.0]),
                 initial=dict(shape="points", points=[[0.25, 0.0, 0.0],
                                                      [0.25, 0.0, -9.0 - 2e-9]]))
    pos, _ = initial_state_positions(both)
    assert np.allclose(pos[-1], [0.25, 0.0, -9.0], rtol=0, atol=0)
    both["initial"]["points"][-1][2] = -9.01
    with pytest.raises(CaseError, match=r"initial\.points\[1\]: .* end end"):
        load_case(both)


def initial_state_positions(case: dict) -> tuple[np.ndarray, np.ndarray]:
    model = build_model(load_case(case))
    y = initial_state(model).y
    n = model.n_nodes
    return y[:3 * n].reshape(n, 3), y[3 * n:6 * n].reshape(n, 3)


def test_winch_start_lays_the_line_from_the_winch():
    """A winch on a vessel (trajectory, no position) paying out at 0.4 m/s: node 0 at the
    vessel's t = 0 position, the deployed tether.length unstretched, zero tension."""
    c = _case(start=dict(type="winch", trajectory=TABLE, payout=dict(speed=0.4)),
              initial=dict(direction=[0.0, 0.0, -1.0]))
    r = run_case(c, progress=False)
    pos = _var(r, "position")[0]
    live = ~np.isnan(pos[:, 0])
    assert np.allclose(pos[0], [0.25, 0.0, 0.0])
    assert np.isclose(np.sum(_element_lengths(pos[live])), L, rtol=1e-12)
    assert np.all(np.nan_to_num(_var(r, "tension")[0]) == 0.0)


# -- shape: equilibrium ----------------------------------------------------------------------

def test_winch_equilibrium_element_tensions_carry_the_weight_below():
    """The same winch from its static equilibrium: each element carries the lumped weight
    below it (half an element per node, the payload at the end) at t = 0."""
    c = _case(start=dict(type="winch", trajectory=TABLE, payout=dict(speed=0.4)),
              initial=dict(shape="equilibrium"))
    r = run_case(c, progress=False)
    assert r.attrs["initial_equilibrium_relative_residual"] <= 1e-6
    Le = L / N
    below = PAYLOAD * G + MPL * G * Le * (N - np.arange(N) - 0.5)  # elements 0..N-1
    # and the winch element balances the thrust (ṁ/2)|u| = m' ṡ² (1 + ε) / 2 of the
    # material paid out into its far node at rest, ε = T / EA (docs/winch.md, material
    # velocity and Meshchersky's variable-mass equation): T = (W + a) / (1 - a / EA)
    a = MPL * 0.4**2 / 2.0
    below[0] = (below[0] + a) / (1.0 - a / EA)
    tension = _var(r, "tension")[0][:N]
    assert np.allclose(tension, below, rtol=1e-6)
    assert np.allclose(_var(r, "position")[0, 0], [0.25, 0.0, 0.0])


def test_equilibrium_start_carries_the_weight_from_the_first_output():
    """A line with a payload hanging from a held start, the guess laid at 30 degrees (the
    hint): the run starts from the static equilibrium, plumb below the start's t = 0
    position, the holder carries the whole weight at t = 0, and the results say how it
    started."""
    c = _case(initial=dict(shape="equilibrium", angle_from_gravity_deg=30.0))
    r = run_case(c, progress=False)
    pos = _var(r, "position")[0]
    assert np.allclose(pos[:, :2], [0.25, 0.0], atol=1e-9)
    assert np.isclose(np.linalg.norm(_var(r, "start_force")[0]), WEIGHT, rtol=1e-9)
    assert np.allclose(_var(r, "velocity")[0], 0.0)
    assert r.attrs["initial_shape"] == "equilibrium"
    assert r.attrs["initial_equilibrium_relative_residual"] <= 1e-6
    assert r.attrs["initial_equilibrium_method"].startswith("newton")


def test_a_steady_tow_found_later_starts_at_the_vessel_under_way():
    """start.py's move of a steady tow (statics' "steady" method settles at some later
    time) to t = 0: the nodes shifted rigidly so the held end is where the vessel is at
    t = 0, every node moving with the vessel. In vacuum the plumb line carried at 1 m/s is
    an exact steady state (Galilean invariance): the run from the moved state keeps the
    holder force at the weight and every node at the vessel's velocity."""
    from tetherdyn.start import _towed_state
    from tetherdyn.statics import Equilibrium

    tow = dict(t=[0.0, 4000.0], x=[0.25, 4000.25], y=[0.0, 0.0], z=[0.0, 0.0])
    c = load_case(_case(start=dict(type="prescribed", interpolation="linear", trajectory=tow),
                        initial=dict(shape="equilibrium")))
    model = build_model(c)
    plumb = initial_state_positions(_case(initial=dict(shape="equilibrium")))[0]
    later = plumb + [10.0, 0.0, 0.0]  # where settle found it, at t = 10 s
    eq = Equilibrium(model=model, y=np.zeros(0), positions=later, residual=0.0, tol=1e-6,
                     converged=True, iterations=0, load_steps=1, t=10.0, method="steady",
                     weight=WEIGHT)
    y = _towed_state(model, eq, 0.0)
    n = model.n_nodes
    assert np.allclose(y[:3 * n].reshape(n, 3), plumb, atol=1e-12)
    assert np.allclose(y[3 * n:].reshape(n, 3), [1.0, 0.0, 0.0])
    run = Continuation(c, y0=y)
    _, Y = run.advance(4e-3, 2e-3)
    assert np.allclose(Y[:, 3 * n:], 1.0 * (np.arange(3 * n) % 3 == 0), atol=1e-9)
    f = np.empty((2, 3))
    model.end_forces(run.t, run.y, f, run.data.args)
    assert np.isclose(np.linalg.norm(f[0]), WEIGHT, rtol=1e-9)


def test_equilibrium_reaches_the_step_api_and_steady_and_stays_still():
    """The same equilibrium through cosim.Simulator and steady.Continuation (one
    function, which Continuation takes as y0); a run from it at rest stays still (max
    node speed over 4 ms)."""
    c = load_case(_case(initial=dict(shape="equilibrium")))
    sim = Simulator(c)
    assert sim.initial.equilibrium is not None
    f0 = np.linalg.norm(sim.forces[0])
    assert np.isclose(f0, WEIGHT, rtol=1e-9)
    for _ in range(4):
        sim.step(1e-3)
    assert np.isclose(np.linalg.norm(sim.forces[0]), WEIGHT, rtol=1e-6)
    with pytest.raises(ValueError, match="initial_state"):
        Continuation(c)  # steady sits below statics (which settles tows with it)
    run = Continuation(c, y0=initial_state(sim.model).y)
    assert np.array_equal(run.y, sim.initial.y)
    _, Y = run.advance(4e-3, 2e-3)
    n = run.model.n_nodes
    assert np.max(np.abs(Y[:, 3 * n:])) < 1e-6


def test_integrate_without_the_equilibrium_is_refused():
    model = build_model(load_case(_case(initial=dict(shape="equilibrium"))))
    with pytest.raises(ValueError, match="initial_state"):
        integrate(model, "rk4", 1e-4, 1e-3, 1e-3)


@pytest.mark.parametrize("initial, key", [
    (dict(shape="equilibrium", velocity=[1.0, 0.0, 0.0]), "initial.velocity"),
    (dict(shape="equilibrium", angular_velocity=[0.0, 1.0, 0.0]), "initial.angular_velocity"),
    (dict(shape="equilibrium", points=[[0.25, 0, 0]]), "initial.points"),
    (dict(shape="equilibrium", points=[[0.25, 0, 0], [0.25, 0, -9]], direction=[1, 0, 0]),
     "initial.direction"),
    (dict(shape="straight", points=[[0.25, 0, 0], [0.25, 0, -9]]), "initial.points"),
])
def test_bad_equilibrium_keys_are_named(initial, key):
    with pytest.raises(CaseError, match=rf"^{key.replace('.', r'[.]')}: "):
        load_case(_case(initial=initial))


def test_equilibrium_takes_points_as_its_guess():
    guess = [[0.25, 0.0, 0.0], [3.0, 0.0, -5.0], [0.25, 0.0, -9.9]]
    pos, vel = initial_state_positions(_case(initial=dict(shape="equilibrium", points=guess)))
    assert np.allclose(pos[:, :2], [0.25, 0.0], atol=1e-9)
    assert np.all(vel == 0.0)


def test_both_ends_at_one_point_hang_a_loop_each_holder_half_the_weight():
    """Both ends held at one point: a straight line cannot be laid (an error naming
    initial.points), the equilibrium can: the doubled line hangs plumb and, by symmetry,
    each holder carries half the line's weight from the first output on."""
    ends = dict(start=dict(type="fixed", position=[0.0, 0.0, 0.0]),
                end=dict(type="fixed", position=[0.0, 0.0, 0.0]))
    with pytest.raises(CaseError, match="initial.points"):
        load_case(_case(**ends))
    r = run_case(_case(**ends, model=dict(type="lumped_mass", elements=6),
                       initial=dict(shape="equilibrium")), progress=False)
    half = 0.5 * MPL * L * G
    assert np.allclose(np.linalg.norm(_var(r, "start_force"), axis=1), half, rtol=1e-6)
    assert np.allclose(np.linalg.norm(_var(r, "end_force"), axis=1), half, rtol=1e-6)


def test_a_grounded_line_with_friction_starts_still_in_every_driver():
    """A seabed catenary with Coulomb friction (mu = 0.5) from its equilibrium: the
    drivers hand on the statics' friction anchors (start.InitialState.run_arrays), so the
    run stays still, max node speed < 1e-6 m/s (issue 18's bound; without the anchors the
    friction springs of the grounded nodes start from elsewhere: 2.8e-5 m/s measured)."""
    raw = dict(tether=dict(length=30.0, diameter=0.02, mass_per_length=2.0, EA=1.0e6),
               model=dict(type="lumped_mass", elements=20),
               environment=dict(fluid_density=1025.0, water_level=0.0,
                                seabed=dict(z=-10.0, friction=dict(axial=0.5, lateral=0.5))),
               start=dict(type="fixed", position=[0.0, 0.0, -10.0]),
               end=dict(type="fixed", position=[25.0, 0.0, 0.0]),
               initial=dict(shape="equilibrium"),
               solver=dict(dt=1e-4, duration=0.05, output_interval=0.01))
    assert np.max(np.abs(_var(run_case(raw, progress=False), "velocity"))) < 1e-6
    sim = Simulator(raw)
    assert "data.sea_anchor" in sim.initial.run_arrays
    n = sim.model.n_nodes
    for _ in range(5):
        sim.step(0.01)
        assert np.max(np.abs(sim.y[3 * n:])) < 1e-6
    run = Continuation(raw, y0=sim.initial.y, run_arrays=sim.initial.run_arrays)
    _, Y = run.advance(0.05, 0.01)
    assert np.max(np.abs(Y[:, 3 * n:])) < 1e-6
