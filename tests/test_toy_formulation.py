"""A new formulation is one module plus one registry line (issue 16, item 2).

tests/toy_pendulum.py (a point mass on a massless elastic rod) is registered by one
``REGISTRY`` entry; nothing else in the package learns its name. It runs through
``simulate`` and its period matches the exact period of the rigid pendulum (an independent,
analytic reference); the generic checks of case.py reject what its declaration does not
list, with a message naming the key.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import ellipk

import tetherdyn
from tetherdyn import CaseError, load_case
from tetherdyn.models import REGISTRY

G = 9.81
LENGTH = 1.0
AMPLITUDE_DEG = 10.0


@pytest.fixture
def toy(monkeypatch):
    """The toy formulation registered by its one line."""
    monkeypatch.setitem(REGISTRY, "toy_pendulum", "tests.toy_pendulum:ToyPendulum")


def _case(**changes) -> dict:
    case = {
        "tether": {"length": LENGTH, "diameter": 0.01, "mass_per_length": 1.0,
                   # stiff rod: static stretch m g / (EA / L) = 1e-6 L
                   "EA": 1.0 * LENGTH * G / 1e-6},
        "model": {"type": "toy_pendulum", "elements": 1},
        "environment": {"gravity": [0.0, 0.0, -G]},
        "start": {"type": "fixed", "position": [0.0, 0.0, 0.0]},
        "end": {"type": "free"},
        "initial": {"angle_from_gravity_deg": AMPLITUDE_DEG},
        "solver": {"method": "rk4", "dt": 1e-4, "duration": 8.5, "output_interval": 1e-3},
    }
    for path, value in changes.items():
        section, key = path.split(".")
        case[section][key] = value
    return case


def _period(t: np.ndarray, x: np.ndarray) -> float:
    """Mean period [s] from the upward zero crossings of x(t) (linear interpolation)."""
    up = np.flatnonzero((x[:-1] < 0.0) & (x[1:] >= 0.0))
    tc = t[up] - x[up] * (t[up + 1] - t[up]) / (x[up + 1] - x[up])
    assert tc.size >= 3, "fewer than two full swings"
    return float((tc[-1] - tc[0]) / (tc.size - 1))


@pytest.mark.parametrize("method", ["rk4", "rk45"])
def test_toy_pendulum_period_is_the_exact_pendulum_period(toy, method):
    """T = 4 √(L/g) K(k), k = sin(θ₀/2) (the rigid pendulum; K: complete elliptic integral
    of the first kind, scipy's ellipk takes m = k²). At θ₀ = 10° the small-angle 2π√(L/g)
    is 0.19 % short, so a 1e-4 tolerance tells the two apart; the rod's static stretch
    (1e-6 L) moves the period by 5e-7."""
    ds = tetherdyn.simulate(_case(**{"solver.method": method}), progress=False)
    assert ds.attrs["model"] == "toy_pendulum"
    x = ds["position"].values[:, 1, 0]
    T = _period(ds["time"].values, x)
    k = math.sin(math.radians(AMPLITUDE_DEG) / 2)
    exact = 4.0 * math.sqrt(LENGTH / G) * ellipk(k * k)
    small_angle = 2 * math.pi * math.sqrt(LENGTH / G)
    assert abs(T / exact - 1.0) < 1e-4, (T, exact)
    assert abs(T / small_angle - 1.0) > 1e-3  # the tolerance sees the amplitude
    # energy (kinetic + potential) is kept by the conservative toy to 1e-6 of m g L
    E = ds["kinetic_energy"].values + ds["potential_energy"].values
    assert np.ptp(E) < 1e-6 * 1.0 * G * LENGTH


@pytest.mark.parametrize(("changes", "key"), [
    ({"model.bending": True}, "model.bending"),  # an option it does not declare
    ({"solver.method": "generalized_alpha"}, "solver.method"),  # a method it does not declare
    ({"tether.drag_law": "cross_flow"}, "tether.drag_law"),  # a drag law it lacks
    ({"start.type": "prescribed", "start.trajectory": {
        "t": [0.0, 1.0], "x": [0.0, 0.0], "y": [0.0, 0.0], "z": [0.0, 0.0]}},
     "start.type"),  # an end type it does not support
    ({"end.moment": [0.0, 1.0, 0.0]}, "end.moment"),  # no bending, no end moment
    ({"end.torque": 1.0}, "end.torque"),  # no torsion
])
def test_generic_checks_reject_what_the_toy_does_not_declare(toy, changes, key):
    case = _case()
    for path, value in changes.items():
        section, sub = path.split(".")
        case[section][sub] = value
    with pytest.raises(CaseError) as info:
        load_case(case)
    assert key in str(info.value) and "toy_pendulum" in str(info.value)


def test_toy_is_unknown_without_its_registry_line():
    with pytest.raises(CaseError, match="model.type"):
        load_case(_case())


def test_toy_warns_about_tether_keys_it_does_not_use(toy):
    with pytest.warns(tetherdyn.CaseWarning, match=r"tether\.axial_damping"):
        load_case(_case(**{"tether.axial_damping": 2.0}))
