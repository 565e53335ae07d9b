"""The sea kernels (sea.py, issue 17) against closed forms.

Every check here has an independent reference: Archimedes for the wetted fraction, the
cross-flow drag formula, Airy's deep-water acceleration in the Morison inertia term, the
static penetration w / (kBot d) of a line on a flat bed, Coulomb's law (stick below mu N,
slide with (F - mu N) / m above it, on a slope a = g (sin th - mu cos th)), the plane's
normal, a bilinear surface's gradient. Point masses are stepped by semi-implicit Euler in
Python here (a few thousand steps): the kernels, not a formulation, are under test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tetherdyn import load_case, sea

RHO_W = 1025.0
RHO_A = 1.225
G = 9.81
D = 0.1  # diameter [m]
AREA = math.pi * D * D / 4  # displaced area [m^2]
KBOT = 3.0e6
CBOT = 3.0e5


def _env(**environment):
    case = load_case(dict(
        tether=dict(length=10.0, diameter=D, mass_per_length=20.0, EA=1e7),
        model=dict(type="lumped_mass", elements=10),
        solver=dict(dt=1e-3, duration=1.0),
        environment={"fluid_density": RHO_W, **environment}))
    return case.environment


def _arrays(n_points=4, nodes=None, **environment):
    nodes = np.zeros((2, 3)) if nodes is None else nodes
    return sea.sea_arrays(_env(**environment), nodes, n_points)


def _element(a, t, A, B, VA=(0, 0, 0), VB=(0, 0, 0), *, law=0, cd_n=1.2, cd_t=0.0,
             ca_n=1.0, ca_t=0.0, length0=None, g=(0.0, 0.0, -G)):
    out = np.zeros(sea.ELEMENT_OUT)
    L0 = float(np.linalg.norm(np.subtract(B, A))) if length0 is None else length0
    # coordinates as floats, as a formulation passes them: one compiled signature for all
    A, B, VA, VB, g = (tuple(map(float, v)) for v in (A, B, VA, VB, g))
    sea.element_fluid(a["sea_par"], a["sea_current"], a["sea_wind"], a["sea_waves"],
                      a["sea_grid"], float(t), law, D, AREA, float(L0), float(cd_n),
                      float(cd_t), float(ca_n), float(ca_t), *A, *B, *VA, *VB, *g, out)
    return out


# -- which cases have a sea ----------------------------------------------------------------


def test_no_sea_keys_leave_the_sea_inactive():
    a = sea.sea_arrays(_env(current=[0.3, 0.0, 0.0]), np.zeros((3, 3)), 3)
    assert a["sea_par"][sea.SEA_ACTIVE] == 0.0
    assert set(a) == set(sea.SEA_FIELDS)
    assert a["sea_par"].shape == (sea.N_PAR,)
    assert a["sea_anchor"].shape == (3, 4)


@pytest.mark.parametrize("env", [
    dict(water_level=0.0),
    dict(seabed=dict(z=-20.0)),
    dict(current=dict(z=[-10.0, 0.0], x=[0.0, 1.0])),
    dict(current=dict(type="power_law", speed=1.0, base_z=-30.0, reference_z=0.0)),
    dict(water_level=0.0, wind=[5.0, 0.0, 0.0]),
    dict(water_level=0.0, waves=dict(type="airy", height=1.0, period=6.0)),
])
def test_each_sea_key_activates_the_sea(env):
    assert _arrays(**env)["sea_par"][sea.SEA_ACTIVE] == 1.0


# -- media and the wetted fraction ------------------------------------------------------------


def test_element_half_below_the_surface_has_half_the_buoyancy():
    """Archimedes per medium: a vertical 1 m element centred on the surface is half wet;
    buoyancy (rho_w + rho_a) A L/2 g, each half's load shared about its own centroid."""
    a = _arrays(water_level=0.0)
    out = _element(a, 0.0, (0, 0, -0.5), (0, 0, 0.5), cd_n=0.0)
    assert out[6] == pytest.approx(0.5, abs=1e-15)
    wet = RHO_W * AREA * 0.5 * G
    dry = RHO_A * AREA * 0.5 * G
    assert out[2] + out[5] == pytest.approx(wet + dry, rel=1e-12)
    # wet half's centroid at a quarter from a (the lower end), the dry half's at 3/4
    assert out[2] == pytest.approx(0.75 * wet + 0.25 * dry, rel=1e-12)
    assert out[7] == pytest.approx(0.5 * (RHO_W + RHO_A), rel=1e-12)
    assert np.all(out[[0, 1, 3, 4]] == 0.0)


def test_wetted_fraction_is_continuous_as_a_node_crosses():
    """Sweeping the upper end through the surface: f and the end loads change by no more
    than the step times a bounded slope (nothing jumps at the crossing)."""
    a = _arrays(water_level=0.0)
    zs = np.linspace(-1e-3, 1e-3, 2001)
    rows = np.array([_element(a, 0.0, (0, 0, -1.0), (0.3, 0.0, z), VB=(0.2, 0.0, 0.0))[:8]
                     for z in zs])
    step = zs[1] - zs[0]
    jumps = np.abs(np.diff(rows, axis=0)).max(axis=0)
    scale = np.abs(rows).max(axis=0) + 1e-300
    assert np.all(jumps[:6] <= 1e-3 * scale[:6] + 1e-9)
    assert jumps[6] <= 2.0 * step  # df/dz = 1 / (element height) ~ 1 per m here
    assert rows[0, 6] == 1.0 and rows[-1, 6] < 1.0


def test_no_water_level_keeps_one_fluid_with_cross_flow_drag():
    """Without a water level: the fluid everywhere; drag = 1/2 rho cd d L U^2 normal to a
    horizontal element in a cross current, half to each end, plus buoyancy rho A L g."""
    U = 0.7
    a = _arrays(current=[0.0, U, 0.0])
    L = 2.0
    out = _element(a, 0.0, (0, 0, -5), (L, 0, -5), ca_n=0.0)
    drag = 0.5 * RHO_W * 1.2 * D * L * U * U
    assert out[6] == 1.0 and out[7] == RHO_W
    assert out[1] == pytest.approx(0.5 * drag, rel=1e-12)
    assert out[4] == pytest.approx(0.5 * drag, rel=1e-12)
    assert out[2] == pytest.approx(0.5 * RHO_W * AREA * L * G, rel=1e-12)


def test_buoyancy_on_the_unstretched_volume_drag_on_the_current_length():
    a = _arrays(current=[0.0, 1.0, 0.0])
    out = _element(a, 0.0, (0, 0, -5), (1.1, 0, -5), length0=1.0, ca_n=0.0)
    assert out[2] + out[5] == pytest.approx(RHO_W * AREA * 1.0 * G, rel=1e-12)
    assert out[1] + out[4] == pytest.approx(0.5 * RHO_W * 1.2 * D * 1.1, rel=1e-12)


def test_fluid_at_reads_wind_above_and_current_below():
    a = _arrays(water_level=2.0, current=[0.4, 0.0, 0.0], wind=[0.0, 8.0, 0.0])
    out = np.zeros(sea.FLUID_OUT)
    args = (a["sea_par"], a["sea_current"], a["sea_wind"], a["sea_waves"], a["sea_grid"], 0.0)
    sea.fluid_at(*args, 0.0, 0.0, 1.0, out)
    assert out[0] == RHO_W and list(out[1:4]) == [0.4, 0.0, 0.0]
    sea.fluid_at(*args, 0.0, 0.0, 3.0, out)
    assert out[0] == RHO_A and list(out[1:4]) == [0.0, 8.0, 0.0]
    assert not out[4:8].any()


def test_morison_inertia_in_deep_water_airy_waves():
    """A short vertical element 5 m down in deep-water Airy waves (unstretched), no drag:
    the horizontal
    load is rho V (1 + ca_n) a_x (Froude-Krylov + added mass) with Airy's closed form
    a_x = A w^2 e^{kz} sin(k x - w t) (k = w^2 / g); the vertical one, tangential here,
    rho V (1 + ca_t) a_z - (buoyancy) with a_z = -A w^2 e^{kz} cos(k x - w t)."""
    H, T = 2.0, 8.0
    a = _arrays(water_level=0.0, waves=dict(type="airy", height=H, period=T, grid="none",
                                            stretching="none"))
    w = 2 * math.pi / T
    k = w * w / G
    A = H / 2
    L = 0.01
    x, z, t = 3.0, -5.0, 1.3
    out = _element(a, t, (x, 0, z - L / 2), (x, 0, z + L / 2), cd_n=0.0, ca_n=1.0, ca_t=0.0)
    psi = k * x - w * t
    ax = A * w * w * math.exp(k * z) * math.sin(psi)
    az = -A * w * w * math.exp(k * z) * math.cos(psi)
    V = AREA * L
    assert out[0] + out[3] == pytest.approx(RHO_W * V * 2.0 * ax, rel=1e-5)
    assert out[2] + out[5] == pytest.approx(RHO_W * V * (az + G), rel=1e-5)
    assert out[6] == 1.0


def test_profiles_table_and_power_law():
    a = _arrays(water_level=0.0, seabed=dict(z=-40.0),
                current=dict(z=[-40.0, -10.0, 0.0], speed=[0.0, 0.6, 1.0],
                             direction_deg=[90.0, 90.0, 90.0]),
                wind=dict(type="power_law", speed=12.0, exponent=0.1))
    cur = sea.flow_velocity(a, "current", [-50.0, -25.0, -5.0, 3.0])
    np.testing.assert_allclose(cur[:, 1], [0.0, 0.3, 0.8, 1.0], atol=1e-15)
    np.testing.assert_allclose(cur[:, 0], 0.0, atol=1e-15)
    wind = sea.flow_velocity(a, "wind", [-1.0, 5.0, 10.0, 40.0])
    np.testing.assert_allclose(wind[:, 0], [0.0, 12 * 0.5**0.1, 12.0, 12 * 4**0.1],
                               rtol=1e-14)
    law = _arrays(water_level=0.0, seabed=dict(z=-40.0),
                  current=dict(type="power_law", speed=1.5))
    z = np.array([-40.0, -30.0, -1.0, 0.0])
    np.testing.assert_allclose(sea.flow_velocity(law, "current", z)[:, 0],
                               1.5 * ((z + 40.0) / 40.0) ** (1 / 7), rtol=1e-14)


# -- seabed geometry ---------------------------------------------------------------------------


def _depth(a, x, y):
    n = np.zeros(3)
    z = sea.seabed_depth(a["sea_par"], a["sea_bed"], a["sea_bed_axes"], x, y, n)
    return z, n


def test_sloped_plane_height_and_normal():
    th, phi = math.radians(30.0), math.radians(45.0)
    a = _arrays(seabed=dict(z=-20.0, slope_deg=30.0, slope_direction_deg=45.0))
    z, n = _depth(a, 3.0, -1.0)
    assert z == pytest.approx(-20.0 + math.tan(th) * (3 * math.cos(phi) - math.sin(phi)))
    np.testing.assert_allclose(
        n, [-math.sin(th) * math.cos(phi), -math.sin(th) * math.sin(phi), math.cos(th)],
        atol=1e-15)


def test_bathymetry_grid_reproduces_a_plane_and_a_bilinear_surface():
    xs, ys = np.linspace(-10, 10, 6), np.linspace(-5, 15, 5)
    X, Y = np.meshgrid(xs, ys, indexing="ij")
    plane = -30.0 + 0.1 * X - 0.05 * Y
    a = _arrays(seabed=dict(bathymetry=dict(x=X.ravel().tolist(), y=Y.ravel().tolist(),
                                            z=plane.ravel().tolist())))
    z, n = _depth(a, 1.7, 3.3)
    assert z == pytest.approx(-30.0 + 0.17 - 0.165, abs=1e-12)
    np.testing.assert_allclose(n, np.array([-0.1, 0.05, 1.0]) / math.sqrt(1.0125),
                               atol=1e-14)
    # z = c x y is bilinear in every cell: height and gradient (-c y, -c x, 1) exact
    c = 0.01
    saddle = c * X * Y
    rows = np.random.default_rng(3).permutation(X.size)  # any row order
    b = _arrays(seabed=dict(bathymetry=dict(x=X.ravel()[rows].tolist(),
                                            y=Y.ravel()[rows].tolist(),
                                            z=saddle.ravel()[rows].tolist())))
    for x, y in ((1.3, 2.1), (-7.7, 12.9)):
        z, n = _depth(b, x, y)
        assert z == pytest.approx(c * x * y, abs=1e-12)
        grad = np.array([-c * y, -c * x, 1.0])
        np.testing.assert_allclose(n, grad / np.linalg.norm(grad), atol=1e-13)
    # beyond the grid: the edge height continues, flat across the edge
    z, n = _depth(b, 20.0, 3.0)
    assert z == pytest.approx(c * 10.0 * 3.0) and n[0] == 0.0


@pytest.mark.parametrize("cols, msg", [
    (([0, 1, 0], [0, 0, 1], [1, 2, 3]), "regular grid"),
    (([0, 1, 0, 1], [0, 0, 1, 1], [1, 2, 3]), "unequal"),
    (([0, 1, 0, 0], [0, 0, 1, 1], [1, 2, 3, 4]), "missing"),
    (([0, 0], [0, 1], [1, 2]), "at least 2"),
])
def test_bathymetry_grid_rejects_scattered_points(cols, msg):
    with pytest.raises(ValueError, match=msg):
        sea.bathymetry_grid(*cols)


# -- contact and friction on point masses --------------------------------------------------


class Point:
    """One contact point of a line (contact length ``L``, mass per length ``mu``) stepped by
    semi-implicit Euler under gravity, the seabed and an applied force."""

    def __init__(self, a, *, mu=100.0, L=1.0, tangent=(1.0, 0.0, 0.0)):
        self.a = a
        self.m = mu * L
        self.L = L
        self.t = tangent
        self.f = np.zeros(3)

    def run(self, x, v, force, duration, dt=1e-3):
        a = self.a
        x = np.array(x, dtype=float)
        v = np.array(v, dtype=float)
        for _ in range(int(round(duration / dt))):
            sea.seabed_force(a["sea_par"], a["sea_bed"], a["sea_bed_axes"], a["sea_anchor"], 0,
                             *x, *v, *self.t, self.L, D, self.f)
            v += dt * ((self.f + force) / self.m + np.array([0.0, 0.0, -G]))
            x += dt * v
            sea.update_anchor(a["sea_par"], a["sea_bed"], a["sea_bed_axes"], a["sea_anchor"], 0,
                              *x, *self.t, self.L, D)
        return x, v


def test_line_on_a_flat_bed_settles_at_the_static_penetration():
    """N = kBot pen d L = w L: pen = w / (kBot d) (MoorDyn's contact law at rest)."""
    a = _arrays(seabed=dict(z=-10.0, stiffness=KBOT, damping=CBOT))
    p = Point(a, mu=100.0)
    x, v = p.run((0.0, 0.0, -10.0 + 0.05), (0.0, 0.0, 0.0), np.zeros(3), 3.0)
    pen = 100.0 * G / (KBOT * D)
    assert -10.0 - x[2] == pytest.approx(pen, rel=1e-6)
    assert abs(v[2]) < 1e-8


def _on_bed(a, mu_line, L=1.0, slope=0.0):
    """A point resting at its static penetration on a plane at z = -10 sloped by ``slope``
    [rad] rising along +x, its friction anchor where it rests: (position, normal)."""
    n = np.array([-math.sin(slope), 0.0, math.cos(slope)])
    pen = mu_line * L * G * math.cos(slope) / (KBOT * D * L)
    x = np.array([0.0, 0.0, -10.0]) - pen * n
    a["sea_anchor"][0] = [*x, 1.0]
    return x, n


@pytest.mark.parametrize("ratio", [0.8, 2.0])
def test_coulomb_friction_sticks_below_mu_n_and_slides_above(ratio):
    """A horizontal pull F = ratio mu N on a grounded point: below the limit it stays at the
    anchor spring's offset F / (kBot d L) (docs/sea.md: K_STICK = kBot); above it slides
    with (F - mu N) / m."""
    mu_f = 0.4
    a = _arrays(seabed=dict(z=-10.0, friction=dict(axial=mu_f, lateral=mu_f)))
    m_line = 100.0
    x0, _ = _on_bed(a, m_line)
    p = Point(a, mu=m_line)
    N = m_line * G
    F = np.array([ratio * mu_f * N, 0.0, 0.0])
    x1, v1 = p.run(x0, np.zeros(3), F, 2.0)
    if ratio < 1.0:
        assert x1[0] == pytest.approx(F[0] / (KBOT * D), rel=1e-4)
        assert abs(v1[0]) < 1e-6
    else:
        x2, v2 = p.run(x1, v1, F, 1.0)
        assert (v2[0] - v1[0]) / 1.0 == pytest.approx((F[0] - mu_f * N) / m_line, rel=1e-6)


def test_friction_is_anisotropic_axial_and_lateral():
    """mu_axial 0.2 along the line (x), mu_lateral 0.6 across: a pull of 0.4 N slides
    along the line and sticks across it."""
    a = _arrays(seabed=dict(z=-10.0, friction=dict(axial=0.2, lateral=0.6)))
    x0, _ = _on_bed(a, 100.0)
    N = 100.0 * G
    along = Point(a).run(x0, np.zeros(3), np.array([0.4 * N, 0, 0]), 1.0)[1]
    _on_bed(a, 100.0)
    across = Point(a).run(x0, np.zeros(3), np.array([0, 0.4 * N, 0]), 1.0)[1]
    assert along[0] > 0.5
    assert abs(across[1]) < 1e-6


@pytest.mark.parametrize("mu_f", [0.3, 0.05])
def test_point_on_a_five_degree_slope_sticks_or_slides(mu_f):
    """On a 5 deg slope: mu = 0.3 > tan 5 deg holds it (no creep once settled); mu = 0.05
    slides down with a = g (sin th - mu cos th)."""
    th = math.radians(5.0)
    a = _arrays(seabed=dict(z=-10.0, slope_deg=5.0, friction=dict(axial=mu_f, lateral=mu_f)))
    x0, _ = _on_bed(a, 100.0, slope=th)
    p = Point(a, tangent=(math.cos(th), 0.0, math.sin(th)))
    x1, v1 = p.run(x0, np.zeros(3), np.zeros(3), 2.0)
    x2, v2 = p.run(x1, v1, np.zeros(3), 4.0)
    downslope = np.array([-math.cos(th), 0.0, -math.sin(th)])
    if mu_f > math.tan(th):
        assert abs(np.dot(x2 - x1, downslope)) < 1e-9
    else:
        acc = np.dot(v2 - v1, downslope) / 4.0
        assert acc == pytest.approx(G * (math.sin(th) - mu_f * math.cos(th)), rel=1e-6)


def test_lift_off_clears_the_anchor_and_no_force_above_the_bed():
    a = _arrays(seabed=dict(z=-10.0, friction=dict(axial=0.5, lateral=0.5)))
    f = np.zeros(3)
    args = (a["sea_par"], a["sea_bed"], a["sea_bed_axes"], a["sea_anchor"], 1)
    # float arguments, as Point.run passes them (the same compiled signature)
    assert sea.seabed_force(*args, 0.0, 0.0, -9.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, D,
                            f) == 0
    assert not f.any()
    sea.update_anchor(*args, 0.0, 0.0, -10.001, 1.0, 0.0, 0.0, 1.0, D)
    assert a["sea_anchor"][1, 3] == 1.0
    sea.update_anchor(*args, 0.0, 0.0, -9.0, 1.0, 0.0, 0.0, 1.0, D)
    assert a["sea_anchor"][1, 3] == 0.0


def test_replayed_friction_is_the_limit_while_sliding():
    """Output samples of a steadily sliding point (every 10th step): the replayed friction
    is mu N against the motion, the contact force N up."""
    mu_f = 0.3
    a = _arrays(seabed=dict(z=-10.0, friction=dict(axial=mu_f, lateral=mu_f)))
    x0, _ = _on_bed(a, 100.0)
    p = Point(a)
    F = np.array([0.0, 2.0 * mu_f * 100.0 * G, 0.0])
    samples = []
    x, v = x0, np.zeros(3)
    for _ in range(20):
        x, v = p.run(x, v, F, 0.01)
        samples.append((x.copy(), v.copy()))
    pos = np.array([s[0] for s in samples])[:, None, :]
    vel = np.array([s[1] for s in samples])[:, None, :]
    tan = np.tile([1.0, 0.0, 0.0], (20, 1, 1))
    res = sea.sea_results(a, np.arange(20) * 0.01, pos, vel, tan, np.ones((20, 1)), D)
    assert res["grounded"].all()
    f = res["seabed_force"][5:, 0]
    np.testing.assert_allclose(f[:, 1], -mu_f * 100.0 * G, rtol=1e-9)
    np.testing.assert_allclose(f[:, 2], 100.0 * G, rtol=1e-9)
    assert not res["surface_elevation"].any()


def test_node_contact_geometry_half_lengths_and_mean_tangents():
    pos = np.array([[0.0, 0, 0], [1.0, 0, 0], [1.0, 2.0, 0]])
    tan, L = sea.node_contact_geometry(pos)
    np.testing.assert_allclose(L, [0.5, 1.5, 1.0])
    np.testing.assert_allclose(tan[1], np.array([1.0, 1.0, 0]) / math.sqrt(2))
    np.testing.assert_allclose(tan[0], [1.0, 0, 0])
