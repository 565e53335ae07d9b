"""The three sea examples (issue 17) at reduced length, each against a number it must meet
from outside the code: the vessel's heave and the Airy elevation, the stick phase of the
grounded chain, the balloon's vertical force balance."""

from __future__ import annotations

import math
from importlib import resources

import numpy as np
import pytest

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


def test_balloon_vertical_force_balance():
    """Once the balloon has settled, the deck holds the lift less the balloon's and the
    tether's weight (the tether in air: 1.225 kg/m^3 buoyancy, 0.05 N, left in)."""
    case = example("balloon_tether_wind", **{"solver.duration": 30.0})
    ds = simulate(case, progress=False)
    g = 9.81
    air = 1.225 * math.pi * 0.003**2 * 150.0 * g
    net = 600.0 - 20.0 * g - 0.025 * 150.0 * g + air
    fz = ds.start_force.values[ds.time.values > 20.0, 2].mean()
    assert fz == pytest.approx(net, rel=0.02)
    assert (ds.position.values[:, :, 2] > 0.0).all()  # all of it in the air
