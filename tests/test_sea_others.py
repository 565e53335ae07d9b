"""rigid_links, rod_chain and ancf2d in the sea (issue 17): a line hanging through the water
level against the closed form (top force = weight in air of the part above + weight in water
of the part below), a line lying on a flat seabed against its wet weight, and the planar
model's refusal of a sea leaving its plane.

References are analytic (Archimedes per medium; statics of a line at rest on its supports),
never our own runs. The hanging line crosses the surface inside an element (not at a node),
so the wetted-fraction rule is what is checked.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tetherdyn.case import CaseError, load_case
from tetherdyn.simulate import simulate
from tetherdyn.statics import equilibrium

G = 9.81
L = 10.0  # line length [m]
D = 0.02  # diameter [m]
MASS = 1.0  # [kg/m]
A = math.pi * D * D / 4  # displaced area [m^2]
RHO_W = 1025.0
RHO_AIR = 1.225
LEVEL = -3.33  # the water level below the fixed top: inside an element for n = 20, 100
#: the seabed at z = 0 (water 20 m deep): a prescribed start's straight initial shape is
#: laid from the origin (initial.initial_nodes), so the dragged line starts there
BED_Z = 0.0

#: the issue's criterion for the hanging line (validation row "surface crossing")
HANGING_RTOL = 1e-3


def w_air() -> float:
    return (MASS - RHO_AIR * A) * G  # [N/m]


def w_water() -> float:
    return (MASS - RHO_W * A) * G  # [N/m]


def hanging_top_force(level: float = LEVEL) -> float:
    """Weight in air of the part above the water level plus weight in water of the part
    below [N], for a vertical line of length L hanging from z = 0 (inextensible)."""
    above = min(L, -level)
    return w_air() * above + w_water() * (L - above)


def hanging_case(model: str, n: int, **extra) -> dict:
    tether = dict(length=L, diameter=D, mass_per_length=MASS, cd_normal=1.2,
                  cd_tangential=0.01)
    if model != "rigid_links":
        tether.update(EA=1.0e7, axial_damping=2.0e4)
    if model == "ancf2d":
        tether.update(EI=0.05, drag_law="cross_flow")
    case = dict(model=dict(type=model, elements=n), tether=tether,
                environment=dict(fluid_density=RHO_W, water_level=LEVEL),
                start=dict(type="fixed", position=[0.0, 0.0, 0.0]), end=dict(type="free"),
                initial=dict(shape="straight", direction=[0.0, 0.0, -1.0]),
                solver=dict(method="rk4", dt=1e-4, duration=0.02, output_interval=0.01))
    case.update(extra)
    return case


# -- a line hanging through the water level ------------------------------------------------

def test_rigid_links_hanging_through_surface():
    """Inextensible links at rest, hanging straight: the root force is the closed form and
    every link's tension is the weight (per medium) of the line below its upper joint."""
    n = 20
    ds = simulate(hanging_case("rigid_links", n), progress=False)
    top = -float(ds.start_force.isel(time=-1).sel(axis="z"))
    assert top == pytest.approx(hanging_top_force(), rel=HANGING_RTOL)
    s = np.arange(n) * L / n  # arc length of each link's upper joint
    below = np.array([_weight_below(si) for si in s])
    np.testing.assert_allclose(ds.tension.isel(time=-1), below, rtol=HANGING_RTOL)
    # nothing moves: the straight line at rest is the equilibrium
    assert float(np.abs(ds.velocity).max()) < 1e-9
    assert not bool(ds.grounded.any())


def _weight_below(s: float) -> float:
    """Weight per medium of the line below arc length s [N] (hanging from z = 0)."""
    above = max(0.0, min(L, -LEVEL) - s)
    return w_air() * above + w_water() * (L - s - above)


def test_rod_chain_hanging_through_surface():
    """Elastic rods settled by their axial damping: the root force is the closed form
    (EA large: the stretch moves the crossing by ~1e-5 m, below the tolerance)."""
    case = hanging_case("rod_chain", 20)
    case["solver"] = dict(method="rk4", dt=2e-6, duration=0.2, output_interval=0.05)
    ds = simulate(case, progress=False)
    top = -float(ds.start_force.isel(time=-1).sel(axis="z"))
    assert top == pytest.approx(hanging_top_force(), rel=HANGING_RTOL)
    assert float(np.abs(ds.velocity.isel(time=-1)).max()) < 1e-4


def test_ancf2d_hanging_through_surface():
    """The static equilibrium (statics.equilibrium) of the planar ANCF cable: its Gauss
    points are wetted by point, so the crossing element's buoyancy is off by at most one
    Gauss weight's share; with 100 elements that bound is below the tolerance."""
    n = 100
    case = load_case(hanging_case("ancf2d", n))
    eq = equilibrium(case, tol=1e-5)
    assert eq.converged
    out = np.zeros((2, 3))
    eq.model.end_forces(0.0, eq.y, out)
    # the point-wetting rule's worst error: the 4-point Gauss rule's sum of the weights
    # below a surface at xi against the true wet fraction 1 - xi, over xi in [0, 1]
    xg, wg = np.polynomial.legendre.leggauss(4)
    xg, wg = 0.5 * (1 + xg), 0.5 * wg
    xi = np.linspace(0.0, 1.0, 20001)
    worst = max(abs(wg[xg > x].sum() - (1.0 - x)) for x in xi)
    bound = worst * (L / n) * (RHO_W - RHO_AIR) * A * G  # [N]
    assert bound / hanging_top_force() < HANGING_RTOL
    assert -out[0, 2] == pytest.approx(hanging_top_force(), rel=HANGING_RTOL)
    assert abs(-out[0, 2] - hanging_top_force()) <= bound * (1 + 1e-6) + 1e-6


@pytest.mark.parametrize("level", [-9.5, -10.5], ids=["body in water", "body in air"])
@pytest.mark.parametrize("model", ["rigid_links", "ancf2d"])
def test_free_end_body_weighs_in_its_medium(model, level):
    """A body at the free end (5 kg, 2 L) weighs (m - rho V) g in the medium it is in: the
    top force is the line's closed form plus that, for the tip below and above the water."""
    mass, volume = 5.0, 0.002
    case = hanging_case(model, 20 if model == "rigid_links" else 100,
                        end=dict(type="free", mass=mass, volume=volume))
    case["environment"]["water_level"] = level
    rho = RHO_W if level > -L else RHO_AIR
    expected = hanging_top_force(level) + (mass - rho * volume) * G
    if model == "rigid_links":
        ds = simulate(case, progress=False)
        top = -float(ds.start_force.isel(time=-1).sel(axis="z"))
    else:
        eq = equilibrium(load_case(case), tol=1e-5)
        assert eq.converged
        out = np.zeros((2, 3))
        eq.model.end_forces(0.0, eq.y, out)
        top = -out[0, 2]
    assert top == pytest.approx(expected, rel=HANGING_RTOL)


def test_surface_elevation_at_the_joints_is_airy():
    """Regular waves: the results' surface_elevation at each joint is the Airy elevation
    H/2 cos(k x - w t) at the joint's x (deep water: k = w^2 / g), 1e-6 m."""
    H, T = 2.0, 8.0
    case = hanging_case("rigid_links", 10)
    case["environment"] = dict(fluid_density=RHO_W, water_level=LEVEL,
                               waves=dict(type="airy", height=H, period=T),
                               seabed=dict(z=LEVEL - 200.0))
    case["solver"] = dict(method="rk4", dt=1e-3, duration=0.5, output_interval=0.1)
    ds = simulate(case, progress=False)
    omega = 2 * math.pi / T
    x = ds.position.sel(axis="x").values
    eta = 0.5 * H * np.cos(omega**2 / G * x - omega * ds.time.values[:, None])
    np.testing.assert_allclose(ds.surface_elevation.values, eta, atol=1e-6)


# -- a line lying on a flat seabed ---------------------------------------------------------

def lying_case(model: str, n: int) -> dict:
    """A straight line along +x lying on a flat seabed under 20 m of water."""
    case = hanging_case(model, n)
    case["environment"] = dict(fluid_density=RHO_W, water_level=BED_Z + 20.0,
                               seabed=dict(z=BED_Z, stiffness=3.0e6, damping=3.0e5))
    case["start"] = dict(type="fixed", position=[0.0, 0.0, BED_Z])
    case["initial"] = dict(shape="straight", direction=[1.0, 0.0, 0.0])
    case["solver"] = dict(method="rk4", dt=1e-4, duration=1.0, output_interval=0.5)
    if model != "rigid_links":
        case["tether"]["axial_damping"] = 100.0  # [N s]: the contact damps the settling
    return case


@pytest.mark.parametrize("model", ["rigid_links", "rod_chain"])
def test_chain_lying_on_seabed_carries_its_wet_weight(model):
    """Rooted at the bed, at rest: each link/rod rests half on each of its joints, so the
    bed carries the wet weight of the line less half of the first element (the root's),
    every free interior joint one element's wet weight, the tip half of one."""
    n = 10
    ds = simulate(lying_case(model, n), progress=False)
    last = ds.isel(time=-1)
    fz = last.seabed_force.sel(axis="z").values
    le = L / n
    assert bool(last.grounded[1:].all()) and not bool(last.grounded[0])
    assert fz.sum() == pytest.approx(w_water() * (L - 0.5 * le), rel=1e-3)
    np.testing.assert_allclose(fz[1:-1], w_water() * le, rtol=1e-3)
    assert fz[-1] == pytest.approx(0.5 * w_water() * le, rel=1e-3)
    assert -float(last.start_force.sel(axis="z")) == pytest.approx(0.5 * w_water() * le,
                                                                   rel=1e-3)


@pytest.mark.parametrize("model", ["rigid_links", "rod_chain"])
def test_chain_dragged_along_seabed_feels_coulomb_friction(model):
    """A drone's tether dragged on the ground: the root pulls the chain along the bed at a
    steady 0.1 m/s (no drag), every grounded joint slides, and the pull is the Coulomb
    friction mu times the wet weight on the ground (the joints carry all but half of the
    first element), within the issue's 1 %."""
    n, mu, speed = 10, 0.5, 0.1
    case = lying_case(model, n)
    case["tether"].update(cd_normal=0.0, cd_tangential=0.0)
    case["environment"]["seabed"]["friction"] = dict(axial=mu, lateral=mu)
    case["start"] = dict(type="prescribed", trajectory=dict(
        t=[0.0, 100.0], x=[0.0, 100.0 * speed], y=[0.0, 0.0], z=[BED_Z, BED_Z]))
    case["initial"] = dict(shape="straight", direction=[-1.0, 0.0, 0.0],
                           velocity=[speed, 0.0, 0.0])
    if model == "rod_chain":  # damp the axial wave the start of the pull sends down the rods
        case["tether"]["axial_damping"] = 2.0e4
        case["solver"].update(dt=5e-6)
    ds = simulate(case, progress=False)
    last = ds.isel(time=-1)
    le = L / n
    pull = -float(last.start_force.sel(axis="x"))
    assert pull == pytest.approx(mu * w_water() * (L - 0.5 * le), rel=1e-2)
    fx = last.seabed_force.sel(axis="x").values
    np.testing.assert_allclose(fx[1:-1], -mu * w_water() * le, rtol=1e-2)
    np.testing.assert_allclose(last.velocity.sel(axis="x"), speed, rtol=1e-3)


def test_ancf2d_free_cable_lying_on_seabed_carries_its_wet_weight():
    """A free–free planar cable at rest on the bed: the contact at its nodes carries its
    whole wet weight. Contact acts at the nodes only, so the cable must be stiff enough
    not to sag between them (EI = 10 N m²: 9 mm over a 1 m element as a simply supported
    beam) and its bending damped to settle within the run."""
    case = lying_case("ancf2d", 10)
    case["start"] = dict(type="free")
    case["tether"].update(EI=10.0, bending_damping=1.0)
    case["initial"] = dict(shape="points", points=[[0.0, 0.0, BED_Z], [L, 0.0, BED_Z]])
    case["solver"] = dict(method="rk4", dt=2e-5, duration=1.0, output_interval=0.5)
    ds = simulate(case, progress=False)
    last = ds.isel(time=-1)
    assert bool(last.grounded.all())
    assert float(last.seabed_force.sel(axis="z").sum()) == pytest.approx(w_water() * L,
                                                                          rel=1e-3)


# -- the planar model and the sea's directions ---------------------------------------------

@pytest.mark.parametrize("env, key", [
    (dict(current=[0.0, 0.5, 0.0]), "environment.current"),
    (dict(wind=[1.0, 2.0, 0.0]), "environment.wind"),
    (dict(waves=dict(type="airy", height=1.0, period=6.0, direction_deg=90.0)),
     "environment.waves.direction_deg"),
])
def test_ancf2d_refuses_a_sea_out_of_its_plane(env, key):
    case = hanging_case("ancf2d", 4)
    case["environment"] = dict(fluid_density=RHO_W, water_level=LEVEL, **env)
    with pytest.raises(CaseError, match=key):
        load_case(case)
