"""The node formulations in the sea (issue 17): reduced physics checks of lumped_mass and
higher_order against closed forms (Archimedes per medium, the contact spring's
penetration, Coulomb friction on a slope).

The case builders and measurements are importable (sea-rows' report rows use them):
:func:`hanging_case`, :func:`static_top_force`, :func:`bed_case`, :func:`slope_case`,
:func:`slope_motion`.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import tetherdyn
from tetherdyn.models import build_model
from tetherdyn.statics import equilibrium

G = 9.81
RHO_W = 1025.0
RHO_A = 1.225

#: the hanging line: 10 m, 10 elements, d = 0.05 m, 5 kg/m, stiff (stretch <= 3e-5)
HANG = dict(length=10.0, diameter=0.05, mass_per_length=5.0, EA=1.0e7, axial_damping=1.0e3,
            cd_normal=1.2, cd_tangential=0.01, ca_normal=1.0)


def hanging_case(model_type: str = "lumped_mass", water_level: float = -4.3,
                 elements: int = 10) -> dict:
    """A vertical line hanging from a fixed point at z = 0 (free end below) through the
    water level [m]."""
    model = dict(type=model_type, elements=elements)
    tether = dict(HANG)
    if model_type == "higher_order":
        tether.update(EI=10.0)
    return dict(
        name=f"hanging through the surface ({model_type})",
        tether=tether, model=model,
        environment=dict(fluid_density=RHO_W, water_level=water_level, air_density=RHO_A),
        start=dict(type="fixed", position=[0.0, 0.0, 0.0]),
        end=dict(type="free"),
        initial=dict(direction=[0.0, 0.0, -1.0]),
        solver=dict(method="rk4", dt=1e-4, duration=1.0),
    )


def static_top_force(case: dict) -> float:
    """The static force [N] the line exerts on its top (start) holder, downwards, at the
    static equilibrium (statics.equilibrium: Newton on the model's force kernel)."""
    eq = equilibrium(case, tol=1e-6, max_iter=200)
    assert eq.converged, eq.residual
    model = eq.model
    out = np.empty((2, 3))
    model.end_forces(0.0, eq.y, out)
    return -float(out[0, 2])


def archimedes_top_force(water_level: float, length: float = HANG["length"]) -> float:
    """Weight in air of the part above the water level plus weight in water of the part
    below [N] (the line from z = 0 straight down, unstretched)."""
    area = math.pi / 4 * HANG["diameter"] ** 2
    above = min(max(-water_level, 0.0), length)
    m = HANG["mass_per_length"]
    return G * ((m - RHO_A * area) * above + (m - RHO_W * area) * (length - above))


@pytest.mark.parametrize("model_type", ["lumped_mass", "higher_order"])
def test_hanging_through_the_surface(model_type):
    """Static top tension = weight in air above + weight in water below, within 0.1 %."""
    wl = -4.3
    top = static_top_force(hanging_case(model_type, wl))
    expect = archimedes_top_force(wl)
    assert abs(top / expect - 1.0) < 1e-3, (top, expect)


def test_node_crossing_the_surface_moves_the_top_force_smoothly():
    """A node crossing the surface (water level ±1 mm about node 4 at z = -4 m) moves the
    top force by the buoyancy change of the 2 mm that crossed — no more than that node's
    share of the weight change (one element of line changing medium)."""
    eps = 1e-3
    lo = static_top_force(hanging_case(water_level=-4.0 - eps))
    hi = static_top_force(hanging_case(water_level=-4.0 + eps))
    area = math.pi / 4 * HANG["diameter"] ** 2
    crossed = G * (RHO_W - RHO_A) * area * 2 * eps  # 2 mm of line changed medium
    node_share = G * (RHO_W - RHO_A) * area * HANG["length"] / 10
    # a higher water level wets 2 mm more line: the top force drops by their buoyancy
    assert lo - hi == pytest.approx(crossed, rel=1e-3)
    assert abs(lo - hi) <= node_share


@pytest.mark.parametrize("water_level", [-4.3, -12.0])
def test_end_body_buoyancy_by_medium(water_level):
    """A free end's body is buoyed by the medium it is in: its net weight (m − ρV) g with
    water's density below the surface, air's above."""
    mass, volume = 10.0, 0.005
    case = hanging_case(water_level=water_level)
    case["end"] = dict(type="free", mass=mass, volume=volume)
    rho = RHO_W if water_level > -10.0 else RHO_A
    expect = archimedes_top_force(water_level) + (mass - rho * volume) * G
    assert static_top_force(case) == pytest.approx(expect, rel=1e-4)  # stretch: 3e-5


# -- the seabed ------------------------------------------------------------------------------

#: the line on the bed: 10 m, 10 elements, d = 0.05 m, 5 kg/m in water (wet 29.3 N/m)
BED = dict(length=10.0, diameter=0.05, mass_per_length=5.0, EA=1.0e6, axial_damping=0.0,
           cd_normal=0.0, cd_tangential=0.0, ca_normal=1.0, ca_tangential=0.0)
K_BOT = 3.0e6
C_BOT = 3.0e5


def wet_weight() -> float:
    """Wet weight per metre of the bed line [N/m]."""
    return G * (BED["mass_per_length"] - RHO_W * math.pi / 4 * BED["diameter"] ** 2)


def bed_case(duration: float = 2.0, mu: float = 0.0, slope_deg: float = 0.0,
             z_bed: float = -50.0) -> dict:
    """A straight line laid on a plane seabed at z_bed [m] (slope rising towards +x), along
    y, both ends free, released at rest touching the bed at its middle."""
    return dict(
        name="line on the seabed",
        tether=dict(BED), model=dict(type="lumped_mass", elements=10),
        environment=dict(fluid_density=RHO_W, water_level=0.0, seabed=dict(
            z=z_bed, slope_deg=slope_deg, stiffness=K_BOT, damping=C_BOT,
            friction=dict(axial=mu, lateral=mu))),
        start=dict(type="free", position=[0.0, -5.0, z_bed]),
        end=dict(type="free"),
        initial=dict(direction=[0.0, 1.0, 0.0]),
        solver=dict(method="rk4", dt=2e-4, duration=duration, output_interval=0.05),
    )


def test_line_resting_on_a_flat_bed():
    """At rest on a flat bed every node sinks by w / (kBot d)."""
    ds = tetherdyn.simulate(bed_case(duration=2.0), progress=False)
    pen = -50.0 - ds.position.values[-1, :, 2]
    expect = wet_weight() / (K_BOT * BED["diameter"])
    np.testing.assert_allclose(pen, expect, rtol=1e-3)
    assert ds.grounded.values[-1].all()
    # the bed carries the wet weight: contact force per node = w × its contact length
    lc = np.full(11, 1.0)
    lc[[0, -1]] = 0.5
    np.testing.assert_allclose(ds.seabed_force.values[-1, :, 2], wet_weight() * lc, rtol=1e-3)


def slope_case(mu: float, duration: float, slope_deg: float = 5.0) -> dict:
    """The bed line across a slope of ``slope_deg`` (rising towards +x), Coulomb
    coefficient mu along and across the line, no drag; settled into the bed first."""
    case = bed_case(duration=duration, mu=mu, slope_deg=slope_deg, z_bed=-50.0)
    # start a contact penetration deep, so that the landing transient is short
    pen = wet_weight() / (K_BOT * BED["diameter"])
    case["start"]["position"] = [0.0, -5.0, -50.0 - pen / math.cos(math.radians(slope_deg))]
    case["solver"]["output_interval"] = 0.1
    return case


def slope_motion(ds) -> np.ndarray:
    """Down-slope displacement [m] of the middle node over time (slope rising towards +x:
    down-slope is -x along the plane)."""
    x = ds.position.values[:, 5, 0]
    return -(x - x[0])


def slide_acceleration(mu: float, slope_deg: float = 5.0) -> float:
    """Closed form: g (sinθ − μ cosθ) × wet weight / (mass + normal added mass) [m/s²]."""
    th = math.radians(slope_deg)
    area = math.pi / 4 * BED["diameter"] ** 2
    m = BED["mass_per_length"]
    wet = m - RHO_W * area
    inertia = m + BED["ca_normal"] * RHO_W * area
    return G * (math.sin(th) - mu * math.cos(th)) * wet / inertia


def test_slope_sticks_with_mu_0_3():
    """On a 5° slope with mu 0.3 (> tan 5°) the line creeps less than 1 mm in 100 s."""
    ds = tetherdyn.simulate(slope_case(0.3, 100.0), progress=False)
    creep = np.abs(slope_motion(ds)).max()
    assert creep < 1e-3, creep


def test_slope_slides_with_mu_0_05():
    """With mu 0.05 the line slides down at g (sinθ − μ cosθ) · wet weight / (mass incl.
    added mass): a quadratic fit over 0.5–3 s, within 1 %."""
    ds = tetherdyn.simulate(slope_case(0.05, 3.0), progress=False)
    t = ds.time.values
    s = slope_motion(ds)
    keep = t >= 0.5
    a = 2.0 * np.polyfit(t[keep], s[keep], 2)[0]
    assert a == pytest.approx(slide_acceleration(0.05), rel=1e-2)


def test_no_sea_results_without_a_sea():
    """The sea's result variables exist only when the case has a sea."""
    case = hanging_case()
    case["environment"] = dict(fluid_density=RHO_W)
    case["solver"]["duration"] = 0.01
    ds = tetherdyn.simulate(case, progress=False)
    assert "grounded" not in ds and "seabed_force" not in ds
    ds = tetherdyn.simulate(hanging_case() | dict(solver=dict(method="rk4", dt=1e-4,
                                                              duration=0.01)), progress=False)
    assert ds.surface_elevation.shape == (ds.time.size, 11)
    assert not ds.grounded.values.any()


def test_seabed_contact_in_the_time_step():
    """The seabed's contact spring joins the stable-step bound (kBot d L per node)."""
    model = build_model(tetherdyn.load_case(bed_case()))
    dt, node, omega = model.seabed_critical_step()
    m = BED["mass_per_length"] * 1.0
    assert omega == pytest.approx(math.sqrt(K_BOT * BED["diameter"] * 1.0 / m))
    assert model.critical_time_step()[0] <= dt
