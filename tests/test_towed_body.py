"""A towed body at a free end (``end.volume``, ``end.ca`` with ``mass`` and ``drag_area``):
buoyancy −ρVg in the weight, added mass ca·ρ·V in the inertia only (docs/towing.md)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tetherdyn.case import CaseError, load_case
from tetherdyn.models import build_model
from tetherdyn.simulate import simulate

RHO = 1025.0
G = 9.81


def _light_tether(length: float, **kw) -> dict:
    """A tether whose own mass, buoyancy, added mass and drag are negligible."""
    t = dict(length=length, diameter=0.001, mass_per_length=1e-6, displaced_area=0.0,
             EA=1e5, cd_normal=0.0, ca_normal=0.0)
    t.update(kw)
    return t


def test_sinking_sphere_reaches_terminal_velocity():
    # a sphere (d 0.2 m, 2000 kg/m^3) sinking on a neutrally buoyant, drag-free 1 m tail:
    # (m - rho V) g = 1/2 rho Cd A v^2 at terminal speed, whatever the inertia
    d, rho_s, cd = 0.2, 2000.0, 0.47
    V = math.pi / 6 * d**3
    area = cd * math.pi * d**2 / 4
    v_term = math.sqrt(2 * (rho_s - RHO) * V * G / (RHO * area))
    case = dict(
        tether=dict(length=1.0, diameter=0.01, density=RHO, EA=1e4, cd_normal=0.0),
        model=dict(type="lumped_mass", elements=1),
        environment=dict(fluid_density=RHO),
        start=dict(type="free"),
        end=dict(type="free", mass=rho_s * V, volume=V, ca=0.5, drag_area=area),
        initial=dict(direction=[0.0, 0.0, -1.0]),
        solver=dict(method="rk4", dt=1e-3, duration=8.0, output_interval=0.1))
    ds = simulate(case, progress=False)
    vz = ds.velocity.isel(node=-1).sel(axis="z").values
    # terminal within 0.2 %: the approach is exponential-like with a time scale
    # v_term / g' ~ 0.4 s, so after 8 s the residual is far below that
    assert -vz[-1] == pytest.approx(v_term, rel=2e-3)


def test_initial_acceleration_splits_weight_and_inertia():
    # at rest and unstrained, the body node accelerates at (m - rho V) g / (m + ca rho V + m_node)
    V, m, ca = 2e-3, 5.0, 0.8
    case = load_case(dict(
        tether=_light_tether(1.0),
        model=dict(type="lumped_mass", elements=1),
        environment=dict(fluid_density=RHO),
        start=dict(type="fixed", position=[0.0, 0.0, 0.0]),
        end=dict(type="free", mass=m, volume=V, ca=ca),
        initial=dict(direction=[1.0, 0.0, 0.0]),
        solver=dict(method="rk4", dt=1e-3, duration=1.0, output_interval=0.1)))
    model = build_model(case)
    y = model.initial_state()
    dydt = np.zeros_like(y)
    model.rhs(0.0, y, dydt, model.data)
    n = model.n_nodes
    az = dydt[3 * n + 3 * (n - 1) + 2]
    m_node = 0.5e-6  # half the tether element
    expected = -(m - RHO * V + m_node) * G / (m + ca * RHO * V + m_node)
    assert az == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("mtype", ["lumped_mass", "higher_order", "rigid_links", "rod_chain",
                                   "ancf2d"])
def test_neutrally_buoyant_body_stays_put(mtype):
    # a neutrally buoyant tether and body (mass = rho V): no net force anywhere, so the
    # horizontal tether from a fixed start stays exactly where it is
    V = 3e-3
    tether = dict(length=2.0, diameter=0.02, density=RHO, EA=1e5)
    if mtype in ("higher_order", "ancf2d"):
        tether["EI"] = 1.0
    if mtype == "rigid_links":
        del tether["EA"]  # inextensible links
    case = dict(
        tether=tether, model=dict(type=mtype, elements=2),
        environment=dict(fluid_density=RHO),
        start=dict(type="fixed", position=[0.0, 0.0, 0.0]),
        end=dict(type="free", mass=RHO * V, volume=V, ca=0.5, drag_area=0.01),
        initial=dict(direction=[1.0, 0.0, 0.0]),
        solver=dict(method="rk4", dt=1e-4, duration=0.5, output_interval=0.05))
    ds = simulate(case, progress=False)
    drift = float(np.abs(ds.position.values - ds.position.values[0]).max())
    assert drift < 1e-9


@pytest.mark.parametrize("ca", [0.0, 0.5, 1.5])
def test_added_mass_sets_the_bob_period(ca):
    # a body on an axially elastic, massless element: vertical oscillation about the static
    # stretch (m - rho V) g / k with period 2 pi sqrt((m + ca rho V) / k), k = EA / L
    m, V, EA, L = 2.0, 1e-3, 1000.0, 1.0
    k = EA / L
    case = dict(
        tether=_light_tether(L, EA=EA),
        model=dict(type="lumped_mass", elements=1),
        environment=dict(fluid_density=RHO),
        start=dict(type="fixed", position=[0.0, 0.0, 0.0]),
        end=dict(type="free", mass=m, volume=V, ca=ca),
        initial=dict(direction=[0.0, 0.0, -1.0]),
        solver=dict(method="rk4", dt=1e-4, duration=2.0, output_interval=1e-3))
    ds = simulate(case, progress=False)
    z = ds.position.isel(node=-1).sel(axis="z").values
    t = ds.time.values
    static = (m - RHO * V) * G / k
    x = -z - L - static  # displacement about the static stretch
    # centre of the oscillation: the net weight (0.1 % of the stretch)
    assert 0.5 * (x.max() + x.min()) == pytest.approx(0.0, abs=1e-3 * static)
    up = np.flatnonzero((x[:-1] < 0) & (x[1:] >= 0))
    tc = t[up] - x[up] / (x[up + 1] - x[up]) * (t[up + 1] - t[up])
    period = float(np.mean(np.diff(tc)))
    expected = 2 * math.pi * math.sqrt((m + ca * RHO * V + 0.5e-6) / k)
    # zero crossings interpolated on a 1 ms grid: 1e-4 relative
    assert period == pytest.approx(expected, rel=1e-4)


@pytest.mark.parametrize("mtype", ["rigid_links", "rod_chain"])
def test_pendulum_period_with_buoyancy_and_added_mass(mtype):
    # a body on a 1 m light link swinging 3 degrees: T = 2 pi sqrt((m + ca rho V) l /
    # ((m - rho V) g)) (1 + theta0^2 / 16): buoyancy in the restoring weight only, added
    # mass in the inertia only
    m, V, ca, L, th = 2.0, 1e-3, 0.5, 1.0, math.radians(3.0)
    tether = _light_tether(L, EA=1e6)
    if mtype == "rigid_links":
        del tether["EA"]  # inextensible links
    case = dict(
        tether=tether,
        model=dict(type=mtype, elements=1),
        environment=dict(fluid_density=RHO),
        start=dict(type="fixed", position=[0.0, 0.0, 0.0]),
        end=dict(type="free", mass=m, volume=V, ca=ca),
        initial=dict(angle_from_gravity_deg=3.0),
        solver=dict(method="rk4", dt=2e-4, duration=7.0, output_interval=2e-3))
    ds = simulate(case, progress=False)
    x = ds.position.isel(node=-1).sel(axis="x").values
    t = ds.time.values
    down = np.flatnonzero((x[:-1] > 0) & (x[1:] <= 0))
    tc = t[down] - x[down] / (x[down + 1] - x[down]) * (t[down + 1] - t[down])
    period = float(np.mean(np.diff(tc)))
    expected = 2 * math.pi * math.sqrt((m + ca * RHO * V) * L / ((m - RHO * V) * G))
    expected *= 1 + th**2 / 16
    # massless-link idealisation (tether 1e-6 kg) and interpolated crossings: 0.1 %
    assert period == pytest.approx(expected, rel=1e-3)


@pytest.mark.parametrize(("end", "key"), [
    (dict(type="fixed", position=[0.0, 0.0, -1.0], volume=0.1), "end.volume"),
    (dict(type="fixed", position=[0.0, 0.0, -1.0], ca=0.5), "end.ca"),
    (dict(type="free", mass=1.0, ca=0.5), "end.ca"),
    (dict(type="free", volume=-1.0), "end.volume"),
    (dict(type="free", volume=1.0, ca=-0.1), "end.ca"),
])
def test_body_keys_are_checked(end, key):
    case = dict(tether=_light_tether(1.0), model=dict(type="lumped_mass", elements=2),
                start=dict(type="fixed", position=[0.0, 0.0, 0.0]), end=end,
                solver=dict(dt=1e-3, duration=1.0))
    with pytest.raises(CaseError) as info:
        load_case(case)
    assert key in str(info.value)


@pytest.mark.parametrize("mtype", ["lumped_mass", "rod_chain", "rigid_links"])
def test_energy_books_the_body_consistently(mtype):
    # no drag, no damping: kinetic energy with the body's inertial mass (added mass as fluid
    # kinetic energy) plus potential energy with its weight mass must stay constant (the
    # potential swings by ~0.6 J; rk4 at 1e-4 s keeps the sum to ~1e-13 J)
    tether = _light_tether(1.0, EA=1000.0)
    if mtype == "rigid_links":
        del tether["EA"]
    case = dict(
        tether=tether, model=dict(type=mtype, elements=1),
        environment=dict(fluid_density=RHO),
        start=dict(type="fixed", position=[0.0, 0.0, 0.0]),
        end=dict(type="free", mass=2.0, volume=1e-3, ca=0.5),
        initial=dict(angle_from_gravity_deg=20.0),
        solver=dict(method="rk4", dt=1e-4, duration=2.0, output_interval=0.01))
    ds = simulate(case, progress=False)
    e = ds.kinetic_energy.values + ds.potential_energy.values
    assert np.ptp(ds.potential_energy.values) > 0.5
    assert np.ptp(e) < 1e-9
