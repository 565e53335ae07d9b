"""Peer row (reduced) and the MuJoCo chain's own physics — only where mujoco is installed."""

import math

import numpy as np
import pytest

pytest.importorskip("mujoco")

from tetherdyn import analytic  # noqa: E402
from validation.mujoco_peer import check  # noqa: E402
from validation.peers import mujoco_chain as mc  # noqa: E402


def test_same_tether_as_mujoco():
    row = check(full=False)
    v = row.values
    assert not v["skipped"]
    # same equations, both RK4 at 5 ms: within the sum of the two codes' RK4 errors
    # (Richardson estimates, ~1e-8 m each over 2 s) ...
    assert v["end_distance"] <= v["tolerance"]
    # ... which itself must be small: a wrong dt or order would blow it up
    assert v["tolerance"] < 1e-6
    assert v["node_distance"] < 1e-6
    # the spin DOF MuJoCo adds stays at rest (no moment about a link's axis)
    assert v["max_spin_rate"] < 1e-12
    assert row.passed


def test_mujoco_chain_xml_and_spec_agree():
    args = (10.0, 0.16, 1.5875e-3, 8, (0.0, 0.0, -9.81), 0.005, 5.0, 0.13)
    mx = mc.build_chain_model(*args, via="xml")
    ms = mc.build_chain_model(*args, via="spec")
    for f in ("body_mass", "body_inertia", "body_ipos", "body_pos", "body_quat",
              "dof_damping", "site_pos"):
        np.testing.assert_array_equal(getattr(mx, f), getattr(ms, f))
    # link inertia: m l^2/12 transverse (seed 000 eq. 46), m r^2/2 spin
    m, ell, r = 0.16 / 8, 10.0 / 8, 1.5875e-3 / 2
    np.testing.assert_allclose(mx.body_inertia[1], [m * ell**2 / 12, m * ell**2 / 12,
                                                    m * r**2 / 2], rtol=1e-15)
    # per-joint damping C_s m_j l_j / (m_T L) = C_s / N^2; the root joint undamped
    np.testing.assert_array_equal(mx.dof_damping[:3], 0.0)
    np.testing.assert_allclose(mx.dof_damping[3:], 0.13 / 64, rtol=1e-15)


def test_mujoco_hanging_chain_period():
    """First-mode period of 32 links: exact discrete rigid chain and the Bessel continuum."""
    r = mc.hanging_chain_period_check(32, periods=3)
    # the discrete chain's own linear period: only fit and amplitude effects remain (~1e-6)
    assert abs(r["rel_discrete"]) < 1e-4
    # and the continuum (issue criterion 0.5 %; the discrete bias at N = 32 is -3e-5)
    assert abs(r["rel_continuum"]) < 5e-3
    assert r["continuum"] == pytest.approx(analytic.hanging_chain_period(10.0, 9.81))


def test_rigid_chain_frequencies_tend_to_bessel():
    w_c = analytic.hanging_chain_frequencies(10.0, 9.81, 2)
    err = [abs(mc.rigid_chain_frequencies(10.0, n, 9.81, 1)[0] / w_c[0] - 1) for n in (8, 16, 32)]
    assert err[0] > err[1] > err[2] and err[2] < 1e-4
    # one link: the compound pendulum, omega^2 = 3 g / (2 L)
    assert mc.rigid_chain_frequencies(2.0, 1, 9.81, 1)[0] == pytest.approx(
        math.sqrt(1.5 * 9.81 / 2.0), rel=1e-12)


def test_joint_damping_matches_mujoco_euler():
    """rigid_links' joint damping (seed 000 eq. 48) against MuJoCo's ball-joint damping.

    In planar motion MuJoCo's whole-relative-rate damping equals the bending-only damping of
    rigid_links (no relative twist). MuJoCo must use Euler (implicit in joint damping; RK4 is
    unstable on the small spin inertia), so it converges to first order in dt: the distance
    to tetherdyn (RK4 at 5 ms, error ~1e-9 m) must shrink 5x when dt does, towards zero.
    """
    from tetherdyn.simulate import simulate

    n, cs = 8, 0.13
    pos = {}
    for c in (cs, 0.0):
        case = dict(tether=dict(length=10.0, diameter=1.5875e-3, mass=0.16),
                    model=dict(type="rigid_links", elements=n, joint_damping=c),
                    initial=dict(angle_from_gravity_deg=5.0),
                    solver=dict(method="rk4", dt=0.005, duration=2.0, output_interval=0.05))
        pos[c] = simulate(case, progress=False).position.values
    effect = np.linalg.norm(pos[cs] - pos[0.0], axis=-1).max()  # ~7e-3 m
    d = []
    for dt in (1e-4, 2e-5):
        r = mc.run_mujoco_chain(10.0, 0.16, 1.5875e-3, n, dt, 2.0, output_interval=0.05,
                                initial_nodes=pos[cs][0], joint_damping=cs,
                                integrator="Euler", velocities=False)
        d.append(np.linalg.norm(r["positions"] - pos[cs], axis=-1).max())
    assert d[1] < 0.01 * effect
    assert 4.5 < d[0] / d[1] < 5.5  # first order
    # Richardson: what would remain at dt -> 0 (a damping model difference) is ~0
    assert abs(5.0 * d[1] - d[0]) / 4.0 < 0.2 * d[1]
