"""The three sea examples (issue 17) at reduced length, each against a number it must meet
from outside the code: the vessel's heave and the Airy elevation, the stick phase of the
grounded chain, the balloon's force balance in the closed-form wind law."""

from __future__ import annotations

import math
from importlib import resources

import numpy as np

from tetherdyn.case import load_case
from tetherdyn.simulate import simulate


def example(name: str, **changes):
    with resources.as_file(resources.files("tetherdyn") / "examples" / f"{name}.yaml") as p:
        return load_case(p).with_changes(changes)


def test_rov_umbilical_crosses_the_surface_in_waves():
    """The sheave rides the wave (z = 3 + cos(w t), vessel_heave.csv); the results' surface
    elevation at the sheave is the Airy wave's, H/2 cos(-w t) at x = 0; the umbilical
    crosses the surface: the first two elements are (partly) dry, the rest submerged."""
    case = example("rov_umbilical_waves", **{"solver.duration": 3.0})
    ds = simulate(case, progress=False)
    t = ds.time.values
    w = 2 * math.pi / 8.0
    np.testing.assert_allclose(ds.position.values[:, 0, 2], 3.0 + np.cos(w * t), atol=2e-4)
    np.testing.assert_allclose(ds.surface_elevation.values[:, 0], np.cos(w * t), atol=1e-9)
    z = ds.position.values[:, :, 2]
    assert (z[:, 1] > 0.0).all() and (z[:, 3:] < 0.0).all()  # node 1 dry, 3 on wet
    assert not ds.grounded.values.any()


def test_mooring_grounded_chain_sticks():
    """Under the surging fairlead the grounded chain near the anchor holds still with
    friction (the stick phase) and slides without it: Coulomb friction is what holds it."""
    moved = {}
    for mu in (0.5, 0.0):
        case = example("mooring_touchdown", **{"solver.duration": 6.0,
                                               "environment.seabed.friction.axial": mu,
                                               "environment.seabed.friction.lateral": 2 * mu})
        ds = simulate(case, progress=False)
        assert ds.grounded.values[4:, 1:20].all()  # landed by t = 1 s (starts at pen = 0)
        assert not ds.grounded.values[:, -3:].any()
        xy = ds.position.values[:, 1:15, :2]  # along the bed (they sink w / (kBot d) = 2.4 mm)
        moved[mu] = float(np.abs(xy - xy[0]).max())
    assert moved[0.5] < 1e-3 < moved[0.0]


def test_balloon_force_balance_in_the_wind_law():
    """Once the balloon has settled (60 s), the deck holds lift less weights plus the wind's
    drag on the balloon and on the tether, both from the closed-form power law
    U(z) = U10 (z / 10 m)^0.12 (DNV-RP-C205 2.3.2) written out here: balloon
    1/2 rho C_dA U(z_b)^2, tether sum 1/2 rho cd d L_e |u_n| u_n at the element centres
    (the cross-flow law). 10 elements for speed (measured at the example's 30: 0.22 %)."""
    case = example("balloon_tether_wind", **{"model.elements": 10, "solver.dt": 1.25e-3})
    ds = simulate(case, progress=False)
    rho, g = 1.225, 9.81
    p = ds.position.values[-1]
    assert (p[:, 2] > 0.0).all()  # all of it in the air
    assert np.abs(ds.velocity.values[-1]).max() < 0.05  # settled

    def wind(z: float) -> np.ndarray:
        return np.array([10.0 * (z / 10.0) ** 0.12, 0.0, 0.0])

    drag = 0.5 * rho * 3.0 * wind(p[-1, 2]) ** 2
    for a, b in zip(p[:-1], p[1:], strict=True):
        length = np.linalg.norm(b - a)
        t = (b - a) / length
        u = wind(0.5 * (a[2] + b[2]))
        un = u - (u @ t) * t
        drag += 0.5 * rho * 1.2 * 0.006 * length * np.linalg.norm(un) * un
    lift = 600.0 - 20.0 * g - 0.025 * 150.0 * g + rho * math.pi * 0.003**2 * 150.0 * g
    expected = drag + np.array([0.0, 0.0, lift])
    force = ds.start_force.values[-1]
    assert np.linalg.norm(force - expected) < 0.01 * np.linalg.norm(expected)
    assert force[0] > 300.0  # blown well downwind: the balloon's drag is in
