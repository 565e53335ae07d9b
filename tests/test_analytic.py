"""Tests for :mod:`tetherdyn.analytic` against independent references.

Every closed form is checked against something that does not share its
derivation: published numbers, limits, or a brute-force numerical solution
(finite differences, shooting with ``solve_ivp``, time integration).  Each
tolerance carries a comment explaining where its size comes from.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, optimize
from scipy.linalg import eigh_tridiagonal

from tetherdyn.analytic import (
    CatenarySolution,
    axial_natural_frequency_fixed_free,
    elastic_catenary,
    hanging_chain_frequencies,
    hanging_chain_mode_shape,
    hanging_chain_period,
    seabed_catenary,
    sliding_acceleration,
    terminal_velocity_cross_flow,
    terminal_velocity_inclined,
    tethered_balloon,
    vertical_line_through_surface,
)

G = 9.81

# Zeros of J0 from Abramowitz & Stegun, Table 9.5 (independent of scipy.special.jn_zeros).
J0_ZEROS_AS = np.array(
    [2.404825557695773, 5.520078110286311, 8.653727912911013, 11.79153443901428, 14.93091770848779]
)


# ---------------------------------------------------------------------------
# Hanging chain
# ---------------------------------------------------------------------------


def _chain_shoot(omega: float, length: float, g: float, y_eval: np.ndarray | None = None):
    """Integrate g (y u')' + omega^2 u = 0 upwards from the free end (y = L - s = 0).

    The free end is a regular singular point; start at a small y0 from the
    power series u = sum c_n y^n, c_{n+1} = -omega^2 c_n / (g (n+1)^2), c_0 = 1.
    State: (u, y u').
    """
    y0 = 1e-6 * length
    c = [1.0]
    for n in range(6):
        c.append(-(omega**2) * c[-1] / (g * (n + 1) ** 2))
    u0 = sum(cn * y0**n for n, cn in enumerate(c))
    du0 = sum(n * cn * y0 ** (n - 1) for n, cn in enumerate(c) if n > 0)

    def rhs(y, state):
        u, p = state  # p = y u'
        return [p / y, -(omega**2) * u / g]

    return integrate.solve_ivp(
        rhs, (y0, length), [u0, y0 * du0], rtol=1e-11, atol=1e-13, t_eval=y_eval, method="DOP853"
    )


def _chain_fd_frequencies(length: float, g: float, n_seg: int, n_modes: int) -> np.ndarray:
    """Lumped-mass finite-difference chain: top node fixed, half mass at the free node."""
    h = length / n_seg
    tension = g * (length - (np.arange(n_seg) + 0.5) * h)  # per unit mass per length
    diag = tension / h
    diag[:-1] += tension[1:] / h
    off = -tension[1:] / h
    mass = np.full(n_seg, h)
    mass[-1] = 0.5 * h
    d = diag / mass
    o = off / np.sqrt(mass[:-1] * mass[1:])
    w2 = eigh_tridiagonal(d, o, select="i", select_range=(0, n_modes - 1), eigvals_only=True)
    return np.sqrt(w2)


def test_hanging_chain_known_numbers():
    # The only arithmetic is a product of exact inputs: agreement to round-off (1e-13).
    length = 2.5
    omega = hanging_chain_frequencies(length, G, n_modes=5)
    np.testing.assert_allclose(omega, 0.5 * J0_ZEROS_AS * math.sqrt(G / length), rtol=1e-13)
    # Textbook period T = 4 pi / 2.404826 sqrt(L / g) (the 7-digit zero limits this to 1e-6).
    assert hanging_chain_period(length, G) == pytest.approx(
        4 * math.pi / 2.404826 * math.sqrt(length / G), rel=1e-6
    )
    # 1 m chain under 9.81 m/s^2: 1.668 s (equivalent pendulum 0.6917 m); 4 digits quoted.
    assert hanging_chain_period(1.0, 9.81) == pytest.approx(1.6684, abs=5e-5)
    # Default n_modes and default g.
    assert hanging_chain_frequencies(1.0).shape == (5,)
    assert hanging_chain_period(1.0) == pytest.approx(hanging_chain_period(1.0, 9.81), rel=1e-15)


def test_hanging_chain_frequencies_vs_finite_differences():
    # Lumped-mass FD converges as O(h^2); with 4000 segments the observed error of mode 5
    # is ~5e-6 (mode 1: ~2e-8), so 2e-5 leaves margin while still catching e.g. a
    # wrong zero or a missing factor 2 (errors of order 1).
    length = 3.0
    fd = _chain_fd_frequencies(length, G, 4000, 5)
    np.testing.assert_allclose(hanging_chain_frequencies(length, G, 5), fd, rtol=2e-5)


@pytest.mark.parametrize("mode", [1, 2, 3])
def test_hanging_chain_frequency_and_shape_by_shooting(mode):
    length, g = 1.7, 9.81
    omega = hanging_chain_frequencies(length, g, n_modes=mode)[-1]

    def top_value(w):
        return _chain_shoot(w, length, g).y[0, -1]

    # Bracket the root +-5 % around the closed form; the neighbouring modes are more
    # than 30 % away, so the bracket isolates mode `mode`.
    w_num = optimize.brentq(top_value, 0.95 * omega, 1.05 * omega, xtol=1e-13)
    # solve_ivp at rtol 1e-11 plus the series start at y0 = 1e-6 L (truncation ~y0^7):
    # shooting frequency accurate to ~1e-10; 1e-8 is a safe bound.
    assert w_num == pytest.approx(omega, rel=1e-8)

    s = np.linspace(0.0, length, 41)
    y = np.sort(length - s)
    y = np.clip(y, 1e-6 * length, None)
    sol = _chain_shoot(w_num, length, g, y_eval=y)
    u_num = sol.y[0]  # normalised to 1 at the free end by the series start
    u_exact = hanging_chain_mode_shape(length - y, length, mode)
    # Same integration accuracy as above; the shape is O(1), so an absolute 1e-7 is safe.
    np.testing.assert_allclose(u_exact, u_num, atol=1e-7)


def test_hanging_chain_mode_shape_properties():
    length = 4.0
    for k in range(1, 5):
        # Boundary values are J0(j_k) = 0 and J0(0) = 1 (round-off only: 1e-14).
        assert hanging_chain_mode_shape(0.0, length, k) == pytest.approx(0.0, abs=1e-14)
        assert hanging_chain_mode_shape(length, length, k) == pytest.approx(1.0, abs=1e-14)
        u = hanging_chain_mode_shape(np.linspace(0.0, length, 2001)[1:], length, k)
        # Mode k has k - 1 interior nodes (exact integer check).
        assert np.count_nonzero(np.diff(np.sign(u)) != 0) == k - 1
    # Sturm-Liouville orthogonality with the uniform mass weight; quad accuracy ~1e-10.
    for j in range(1, 4):
        for k in range(j + 1, 5):
            val, _ = integrate.quad(
                lambda s, j=j, k=k: (
                    hanging_chain_mode_shape(s, length, j) * hanging_chain_mode_shape(s, length, k)
                ),
                0.0,
                length,
                limit=200,
            )
            assert abs(val) < 1e-9
    with pytest.raises(ValueError):
        hanging_chain_mode_shape(1.1 * length, length, 1)
    with pytest.raises(ValueError):
        hanging_chain_mode_shape(0.5, length, 0)


def test_hanging_chain_input_validation():
    with pytest.raises(ValueError):
        hanging_chain_frequencies(-1.0)
    with pytest.raises(ValueError):
        hanging_chain_frequencies(1.0, g=0.0)
    with pytest.raises(ValueError):
        hanging_chain_frequencies(1.0, n_modes=0)


# ---------------------------------------------------------------------------
# Elastic catenary
# ---------------------------------------------------------------------------


def _classic_catenary(span, h, length):
    """Independent inextensible catenary z = a cosh((x - x0)/a) + c via fsolve on (a, x0, c)."""

    def eqs(p):
        a, x0, c = p
        return [
            a * math.cosh(-x0 / a) + c,
            a * math.cosh((span - x0) / a) + c - h,
            a * (math.sinh((span - x0) / a) + math.sinh(x0 / a)) - length,
        ]

    # Parabolic-sag starting guess (no use of the library's solver).
    sag = math.sqrt(3.0 * span * (length - math.hypot(span, h)) / 8.0)
    a0 = span**2 / (8.0 * max(sag, 1e-3 * span))
    x00 = span / 2 - a0 * h / span
    p0 = [a0, x00, -a0 * math.cosh(x00 / a0)]
    p = optimize.fsolve(eqs, p0, xtol=1e-14, full_output=True)[0]
    # Judge convergence by the residual (fsolve may stop with "xtol too small" at round-off).
    assert np.max(np.abs(eqs(p))) < 1e-10 * length
    return p


def _shoot_catenary(span, h, length, w, ea, guess):
    """Shoot the equilibrium ODE d/ds(T t) = w e_z with ds_stretched = (1 + T/EA) ds.

    State (x, z, Tx, Tz) over unstretched s; unknowns (H, V_A) at s = 0, with
    (Tx, Tz)(0) = (H, -V_A).  Returns (H, V_A, dense solution).
    """
    comp = 0.0 if math.isinf(ea) else 1.0 / ea

    def rhs(s, y):
        tx, tz = y[2], y[3]
        t = math.hypot(tx, tz)
        f = 1.0 + t * comp
        return [f * tx / t, f * tz / t, 0.0, w]

    def integrate_line(p):
        H, va = p
        return integrate.solve_ivp(
            rhs,
            (0.0, length),
            [0.0, 0.0, H, -va],
            rtol=1e-12,
            atol=1e-12 * length,
            dense_output=True,
            method="DOP853",
        )

    def miss(p):
        sol = integrate_line([p[0] * w * length, p[1] * w * length])
        return [(sol.y[0, -1] - span) / length, (sol.y[1, -1] - h) / length]

    p0 = [guess[0] / (w * length), guess[1] / (w * length)]
    p = optimize.fsolve(miss, p0, xtol=1e-13, full_output=True)[0]
    assert np.max(np.abs(miss(p))) < 1e-11  # residuals are already scaled by L
    H, va = p[0] * w * length, p[1] * w * length
    return H, va, integrate_line([H, va])


def _parabolic_guess(span, h, length, w, ea):
    """Crude guess for the shooting solver, independent of the library's solver."""
    chord = math.hypot(span, h)
    slack = max(length - chord, 0.0)
    sag = max(math.sqrt(3.0 * span * slack / 8.0), 0.01 * span)
    H = w * length * span / (8.0 * sag)
    return H, 0.5 * w * length - H * h / span


INEXTENSIBLE_CASES = [
    (100.0, 0.0, 120.0, 10.0),  # level, moderate sag
    (100.0, 30.0, 110.0, 5.0),  # B higher, both reactions positive
    (80.0, -60.0, 101.0, 2.0),  # B lower, near-taut: V_B < 0, lowest point is B
    (100.0, 40.0, 108.0, 3.0),  # B higher, near-taut: V_A < 0, lowest point is A
    (10.0, 2.0, 60.0, 1.0),  # very slack
]


@pytest.mark.parametrize("span,h,length,w", INEXTENSIBLE_CASES)
def test_inextensible_catenary_matches_classic(span, h, length, w):
    sol = elastic_catenary(span, h, length, w)  # EA defaults to inf
    a, x0, c = _classic_catenary(span, h, length)
    # fsolve at xtol 1e-14 on O(1..100) unknowns: ~1e-12 relative; 1e-9 leaves margin and
    # still exposes any modelling error (which would be O(1e-3) or larger).
    assert sol.H == pytest.approx(w * a, rel=1e-9)
    # Slope at A of the classic catenary is sinh(-x0/a) = -V_A/H.
    assert sol.V_A == pytest.approx(w * a * math.sinh(x0 / a), rel=1e-9, abs=1e-9 * w * length)
    z_classic = a * np.cosh((sol.x_nodes - x0) / a) + c
    np.testing.assert_allclose(sol.z_nodes, z_classic, atol=1e-9 * length)
    # The cable passes through both supports (closed form evaluated at s = 0, L: round-off).
    assert sol.x_nodes[0] == pytest.approx(0.0, abs=1e-12 * length)
    assert sol.z_nodes[0] == pytest.approx(0.0, abs=1e-12 * length)
    assert sol.x_nodes[-1] == pytest.approx(span, abs=1e-10 * length)
    assert sol.z_nodes[-1] == pytest.approx(h, abs=1e-10 * length)
    # Lowest point: vertex of the classic catenary if inside the span, else the lower support.
    s_low, x_low, z_low = sol.lowest_point()
    if 0.0 < x0 < span:
        assert x_low == pytest.approx(x0, rel=1e-8)
        assert z_low == pytest.approx(a + c, abs=1e-9 * length)
    else:
        assert z_low == pytest.approx(min(0.0, h), abs=1e-12 * length)
    assert z_low <= sol.z_nodes.min() + 1e-12 * length
    # Midspan sag from the classic curve.
    zc_mid = a * math.cosh((0.5 * span - x0) / a) + c
    assert sol.sag_at_midspan() == pytest.approx(0.5 * h - zc_mid, abs=1e-9 * length)


ELASTIC_CASES = [
    (100.0, 0.0, 120.0, 10.0, 1.0e5),  # slack, noticeable stretch (T/EA ~ 1 %)
    (100.0, 30.0, 100.0, 10.0, 1.0e6),  # shorter than chord: only possible by stretching
    (100.0, -40.0, 200.0, 5.0, 1.0e4),  # very slack and very soft
    (300.0, 50.0, 320.0, 1.0, 2.0e3),  # very soft: large strain
    (100.0, 0.0, 100.0, 10.0, 1.0e8),  # taut: L equals span, sag due to stretch only
]


@pytest.mark.parametrize("span,h,length,w,ea", ELASTIC_CASES)
def test_elastic_catenary_matches_shooting(span, h, length, w, ea):
    sol = elastic_catenary(span, h, length, w, ea)
    guess = _parabolic_guess(span, h, length, w, ea)
    H_num, va_num, ode = _shoot_catenary(span, h, length, w, ea, guess)
    # DOP853 at rtol 1e-12 and fsolve at xtol 1e-13: the shooting unknowns are good to
    # ~1e-10; the taut case amplifies end-point errors into H by ~1/strain, hence 1e-7.
    assert sol.H == pytest.approx(H_num, rel=1e-7)
    assert sol.V_A == pytest.approx(va_num, rel=1e-7, abs=1e-7 * w * length)
    x_ode, z_ode, tx_ode, tz_ode = ode.sol(sol.s_nodes)
    # Shape: positions agree to the ODE accuracy; 1e-8 L is ~100x the integration error.
    np.testing.assert_allclose(sol.x_nodes, x_ode, atol=1e-8 * length)
    np.testing.assert_allclose(sol.z_nodes, z_ode, atol=1e-8 * length)
    np.testing.assert_allclose(sol.tension_nodes, np.hypot(tx_ode, tz_ode), rtol=1e-7)
    # Upward reaction at B is the vertical tension component at s = L.
    assert sol.V_B == pytest.approx(tz_ode[-1], rel=1e-7, abs=1e-7 * w * length)
    # Sum of vertical reactions equals the total weight (exact balance: round-off only).
    assert sol.V_A + sol.V_B == pytest.approx(w * length, rel=1e-12)
    # Tensions at the supports equal the node tensions there (round-off).
    assert sol.tension_A == pytest.approx(sol.tension_nodes[0], rel=1e-14)
    assert sol.tension_B == pytest.approx(sol.tension_nodes[-1], rel=1e-14)
    # Stretched length = integral of (1 + T/EA) ds; quad accurate to ~1e-12 relative.
    stretched, _ = integrate.quad(lambda s: 1.0 + float(sol.tension(s)) / ea, 0.0, length)
    assert sol.stretched_length == pytest.approx(stretched, rel=1e-10)
    # Midspan sag against the ODE curve: locate x = span/2 on the dense ODE solution.
    s_mid = optimize.brentq(lambda s: ode.sol(s)[0] - 0.5 * span, 0.0, length, xtol=1e-14)
    assert sol.sag_at_midspan() == pytest.approx(0.5 * h - ode.sol(s_mid)[1], abs=1e-8 * length)


def test_taut_catenary_sag_depends_on_stretch():
    # Cable exactly as long as the span: an inextensible cable cannot hang at all, so all
    # sag comes from elastic stretch.  Irvine (1981) shallow-cable (parabolic) estimate:
    # extra length 8 d^2 / (3 l) = H l / EA and d = w l^2 / (8 H) give H^3 = EA w^2 l^2 / 24.
    span, w = 100.0, 10.0
    sags = {}
    for ea in (1e7, 1e8, 1e9):
        sol = elastic_catenary(span, 0.0, span, w, ea)
        h_irvine = (ea * w**2 * span**2 / 24.0) ** (1.0 / 3.0)
        # The estimate neglects the tension variation along the cable (w L / (2 H) < 7 %
        # here, a second-order effect); observed discrepancy < 0.07 %, so 1 % is safe
        # while a wrong stretch law (e.g. a missing 1/EA term) would be off by O(1).
        assert sol.H == pytest.approx(h_irvine, rel=1e-2)
        assert sol.sag_at_midspan() == pytest.approx(w * span**2 / (8 * h_irvine), rel=1e-2)
        sags[ea] = sol.sag_at_midspan()
    # Sag scales as EA^(-1/3): a 10x stiffer cable sags 10^(1/3) = 2.15x less.  This is
    # "measurable": far beyond any round-off.  1 % tolerance as above.
    assert sags[1e7] / sags[1e8] == pytest.approx(10 ** (1 / 3), rel=1e-2)
    assert sags[1e8] / sags[1e9] == pytest.approx(10 ** (1 / 3), rel=1e-2)

    with pytest.raises(ValueError, match="inextensible"):
        elastic_catenary(span, 0.0, span, w)  # EA = inf and L == chord
    with pytest.raises(ValueError, match="inextensible"):
        elastic_catenary(span, 10.0, span, w)  # EA = inf and L < chord


def test_elastic_catenary_converges_to_inextensible():
    # The stretch terms are O(T/EA); with EA = 1e13 N and T ~ 5e2 N the observed difference
    # is ~2e-10 relative, so 1e-8 is safe, while EA = 1e5 N differs by ~2 % (> 1e-3).
    args = (100.0, 20.0, 125.0, 10.0)
    rigid = elastic_catenary(*args)
    stiff = elastic_catenary(*args, EA=1e13)
    soft = elastic_catenary(*args, EA=1e5)
    assert stiff.H == pytest.approx(rigid.H, rel=1e-8)
    assert stiff.V_A == pytest.approx(rigid.V_A, rel=1e-8)
    np.testing.assert_allclose(stiff.z_nodes, rigid.z_nodes, atol=1e-8 * args[2])
    assert abs(soft.sag_at_midspan() / rigid.sag_at_midspan() - 1.0) > 1e-3
    # A softer cable stretches, so it sags more (physical monotonicity).
    assert soft.sag_at_midspan() > rigid.sag_at_midspan()
    assert rigid.stretched_length == args[2]
    assert soft.stretched_length > args[2]


def test_elastic_catenary_solver_robustness():
    # Random geometries from very slack to strongly stretched (L down to 0.98 chord with
    # soft EA) and steep supports.  The returned (H, V_A) must reproduce the support B
    # position through the closed form to ~round-off (solver tolerance 1e-12 L).
    rng = np.random.default_rng(12345)
    for _ in range(300):
        span = 10 ** rng.uniform(-1, 3)
        h = span * rng.uniform(-5, 5)
        length = math.hypot(span, h) * 10 ** rng.uniform(-0.01, 1.5)
        w = 10 ** rng.uniform(-2, 3)
        ea = 10 ** rng.uniform(0, 12) if rng.uniform() < 0.7 else math.inf
        if math.isinf(ea) and length <= math.hypot(span, h):
            continue
        sol = elastic_catenary(span, h, length, w, ea, n_points=5)
        assert sol.H > 0
        assert float(sol.x(length)) == pytest.approx(span, abs=1e-9 * length)
        assert float(sol.z(length)) == pytest.approx(h, abs=1e-9 * length)


def test_symmetric_catenary_and_api():
    span, length, w, ea = 60.0, 75.0, 4.0, 5e4
    sol = elastic_catenary(span, 0.0, length, w, ea, n_points=11)
    assert isinstance(sol, CatenarySolution)
    assert sol.s_nodes.shape == sol.x_nodes.shape == sol.z_nodes.shape == (11,)
    # Symmetry: equal reactions wL/2 and the vertex at midspan (round-off level: 1e-12).
    assert sol.V_A == pytest.approx(0.5 * w * length, rel=1e-12)
    assert sol.V_B == pytest.approx(0.5 * w * length, rel=1e-12)
    s_low, x_low, z_low = sol.lowest_point()
    assert s_low == pytest.approx(0.5 * length, rel=1e-12)
    assert x_low == pytest.approx(0.5 * span, rel=1e-12)
    # Sag equals depth of the vertex below the (level) chord; tension minimum H at vertex.
    assert sol.sag_at_midspan() == pytest.approx(-z_low, rel=1e-10)
    assert float(sol.tension(s_low)) == pytest.approx(sol.H, rel=1e-14)
    # Mirror symmetry of the shape: z(s) = z(L - s), x(s) = span - x(L - s).
    np.testing.assert_allclose(sol.z_nodes, sol.z_nodes[::-1], atol=1e-12 * length)
    np.testing.assert_allclose(sol.x_nodes, span - sol.x_nodes[::-1], atol=1e-12 * length)
    with pytest.raises(ValueError):
        elastic_catenary(0.0, 0.0, 10.0, 1.0)
    with pytest.raises(ValueError):
        elastic_catenary(10.0, 0.0, 12.0, -1.0)
    with pytest.raises(ValueError):
        elastic_catenary(10.0, 0.0, 12.0, 1.0, EA=0.0)


# ---------------------------------------------------------------------------
# Terminal velocity
# ---------------------------------------------------------------------------

RHO_W = 1025.0
D = 0.02
M_LIN = 1.2  # kg/m, denser than water: net weight (1.2 - 0.322) * g > 0


def _drag(u, beta, cd_n, cd_t, d=D, rho=RHO_W):
    """Cross-flow drag per metre on a cable with tangent (cos b, sin b) moving at u=(ux, uz)."""
    t = np.array([math.cos(beta), math.sin(beta)])
    n = np.array([-math.sin(beta), math.cos(beta)])
    ut, un = u @ t, u @ n
    return (
        -0.5 * rho * cd_n * d * abs(un) * un * n - 0.5 * rho * cd_t * math.pi * d * abs(ut) * ut * t
    )


def test_broadside_terminal_velocity():
    cd = 1.2
    v = terminal_velocity_cross_flow(D, M_LIN, cd, RHO_W, G)
    w_net = (M_LIN - RHO_W * math.pi * D**2 / 4) * G
    # Drag at v balances the net weight (pure arithmetic: 1e-12).
    assert 0.5 * RHO_W * cd * D * v**2 == pytest.approx(w_net, rel=1e-12)
    assert v > 0
    # Hand computation: w_net = (1.2 - 1025 * pi * 0.02^2 / 4) * 9.81 = 8.6131 N/m,
    # v = sqrt(2 * 8.6131 / (1025 * 1.2 * 0.02)) = 0.83681 m/s (5 digits quoted: 1e-4).
    assert v == pytest.approx(0.83681, rel=1e-4)
    # Custom displaced area (e.g. a stranded rope with less volume than pi d^2/4).
    v2 = terminal_velocity_cross_flow(D, M_LIN, cd, RHO_W, G, displaced_area=2e-4)
    assert 0.5 * RHO_W * cd * D * v2**2 == pytest.approx((M_LIN - RHO_W * 2e-4) * G, rel=1e-12)
    # A buoyant cable rises: negative sinking speed with the same balance.
    v3 = terminal_velocity_cross_flow(D, 0.1, cd, RHO_W, G)
    assert v3 < 0
    assert 0.5 * RHO_W * cd * D * v3**2 == pytest.approx(
        -(0.1 - RHO_W * math.pi * D**2 / 4) * G, rel=1e-12
    )


def test_inclined_reduces_to_broadside_and_end_on():
    cd_n, cd_t = 1.2, 0.008
    v_b = terminal_velocity_cross_flow(D, M_LIN, cd_n, RHO_W, G)
    vel0 = terminal_velocity_inclined(D, M_LIN, cd_n, cd_t, RHO_W, 0.0, G)
    # beta = 0: purely vertical fall at the broadside speed (arithmetic identity: 1e-12).
    np.testing.assert_allclose(vel0, [0.0, -v_b], atol=1e-12)
    # cd_t = 0 is harmless when there is no tangential weight component.
    np.testing.assert_allclose(
        terminal_velocity_inclined(D, M_LIN, cd_n, 0.0, RHO_W, 0.0, G), [0.0, -v_b], atol=1e-12
    )
    # beta = pi/2: end-on fall, skin friction on pi d balances the weight.
    vel90 = terminal_velocity_inclined(D, M_LIN, cd_n, cd_t, RHO_W, math.pi / 2, G)
    w_net = (M_LIN - RHO_W * math.pi * D**2 / 4) * G
    assert vel90[0] == pytest.approx(0.0, abs=1e-12)
    assert vel90[1] == pytest.approx(
        -math.sqrt(2 * w_net / (RHO_W * cd_t * math.pi * D)), rel=1e-12
    )


@pytest.mark.parametrize("beta", [0.2, math.pi / 4, 1.3, -0.7, 2.5])
def test_inclined_force_balance(beta):
    cd_n, cd_t = 1.2, 0.05
    vel = terminal_velocity_inclined(D, M_LIN, cd_n, cd_t, RHO_W, beta, G)
    w_net = (M_LIN - RHO_W * math.pi * D**2 / 4) * G
    gravity = np.array([0.0, -w_net])
    # Drag + net weight = 0 at the returned velocity (round-off relative to w_net: 1e-10).
    np.testing.assert_allclose(_drag(vel, beta, cd_n, cd_t) + gravity, 0.0, atol=1e-10 * w_net)
    # Independent 2-D solve of the same balance with fsolve from a vertical-fall guess.
    v_b = terminal_velocity_cross_flow(D, M_LIN, cd_n, RHO_W, G)
    root = optimize.fsolve(lambda u: _drag(u, beta, cd_n, cd_t) + gravity, [0.0, -v_b], xtol=1e-13)
    np.testing.assert_allclose(vel, root, atol=1e-9)  # fsolve xtol 1e-13 on O(1) m/s
    # Gravity does positive work on the falling cable.
    assert vel[1] < 0


def test_inclined_glides_and_matches_time_integration():
    # Brute force: integrate m' dv/dt = drag(v) - w_net e_z from rest until steady.
    beta, cd_n, cd_t = 0.5, 1.2, 0.01
    vel = terminal_velocity_inclined(D, M_LIN, cd_n, cd_t, RHO_W, beta, G)
    w_net = (M_LIN - RHO_W * math.pi * D**2 / 4) * G

    def rhs(t, u):
        return (_drag(u, beta, cd_n, cd_t) + np.array([0.0, -w_net])) / M_LIN

    sol = integrate.solve_ivp(rhs, (0.0, 60.0), [0.0, 0.0], rtol=1e-10, atol=1e-12)
    # Each velocity component approaches its terminal value like tanh(t / tau) with
    # tau = m' v_term / w_component ~ 1 s here, so after 60 s only the integration error
    # (rtol 1e-10, observed ~3e-11) remains: 1e-8 leaves margin.
    np.testing.assert_allclose(sol.y[:, -1], vel, rtol=1e-8)
    # Tangent rises towards +x and tangential drag is small: the cable glides towards its
    # lower end (-x), so the velocity is not vertical.
    assert vel[0] < -0.1 * abs(vel[1])


def test_inclined_zero_tangential_drag_raises():
    with pytest.raises(ValueError, match="no terminal velocity"):
        terminal_velocity_inclined(D, M_LIN, 1.2, 0.0, RHO_W, 0.3, G)
    with pytest.raises(ValueError, match="no terminal velocity"):
        terminal_velocity_inclined(D, M_LIN, 0.0, 0.01, RHO_W, 0.3, G)
    # Neutrally buoyant cable: no weight, so it stays at rest even without drag.
    neutral = RHO_W * math.pi * D**2 / 4
    np.testing.assert_allclose(
        terminal_velocity_inclined(D, neutral, 1.2, 0.0, RHO_W, 0.3, G), [0.0, 0.0], atol=1e-12
    )


# ---------------------------------------------------------------------------
# Axial vibration of a fixed-free bar
# ---------------------------------------------------------------------------


def test_axial_frequency_known_number():
    # L = 100 m, EA = 1e6 N, m' = 1 kg/m: omega = (pi/2) * sqrt(1e6 / 1e4) = 5 pi (exact).
    assert axial_natural_frequency_fixed_free(100.0, 1e6, 1.0) == pytest.approx(
        5 * math.pi, rel=1e-14
    )
    # Higher modes are odd multiples of the fundamental (exact arithmetic).
    w1 = axial_natural_frequency_fixed_free(100.0, 1e6, 1.0)
    assert axial_natural_frequency_fixed_free(100.0, 1e6, 1.0, mode=3) == pytest.approx(
        5 * w1, rel=1e-14
    )
    with pytest.raises(ValueError):
        axial_natural_frequency_fixed_free(100.0, -1.0, 1.0)


def test_axial_frequency_vs_finite_differences_and_shooting():
    length, ea, m = 250.0, 3.0e7, 0.8
    omega = axial_natural_frequency_fixed_free(length, ea, m)

    # (a) Lumped-mass FD bar: fixed node 0, half mass at the free node; O(h^2) error,
    # ~(pi/4)^2 h^2 / (6 L^2) ~ 1e-8 for 3000 elements, so rtol 1e-6 is safe.
    n = 3000
    h = length / n
    k = ea / h
    diag = np.full(n, 2 * k)
    diag[-1] = k
    mass = np.full(n, m * h)
    mass[-1] = 0.5 * m * h
    off = np.full(n - 1, -k) / np.sqrt(mass[:-1] * mass[1:])
    w2 = eigh_tridiagonal(diag / mass, off, select="i", select_range=(0, 0), eigvals_only=True)
    assert math.sqrt(w2[0]) == pytest.approx(omega, rel=1e-6)

    # (b) Shooting: u'' = -(omega^2 m / EA) u, u(0) = 0, u'(0) = 1; find omega with u'(L) = 0.
    def end_slope(w):
        sol = integrate.solve_ivp(
            lambda s, y: [y[1], -(w**2) * m / ea * y[0]],
            (0.0, length),
            [0.0, 1.0],
            rtol=1e-12,
            atol=1e-14,
        )
        return sol.y[1, -1]

    w_num = optimize.brentq(end_slope, 0.5 * omega, 1.5 * omega, xtol=1e-13)
    # Integration at rtol 1e-12: root good to ~1e-10; 1e-8 is safe.
    assert w_num == pytest.approx(omega, rel=1e-8)


# ---------------------------------------------------------------------------
# The sea: surface crossing, seabed catenary, sliding, balloon
# ---------------------------------------------------------------------------


def test_vertical_line_through_surface_rigid_is_weight_in_air_plus_weight_in_water():
    # rigid line, top 3 m above the surface: 3 m dry, 7 m wet (Archimedes by hand)
    m, area, rho_w, rho_a = 2.0, 1e-3, 1025.0, 1.225
    r = vertical_line_through_surface(10.0, 3.0, 0.0, m, area, rho_w, rho_a, g=G)
    assert r.dry_length == pytest.approx(3.0, rel=1e-12)
    assert r.top_tension == pytest.approx((m - rho_a * area) * G * 3 + (m - rho_w * area) * G * 7,
                                          rel=1e-12)
    # wholly under water / wholly in air
    wet = vertical_line_through_surface(10.0, -1.0, 0.0, m, area, rho_w, rho_a, g=G)
    dry = vertical_line_through_surface(10.0, 20.0, 0.0, m, area, rho_w, rho_a, g=G)
    assert wet.top_tension == pytest.approx((m - rho_w * area) * G * 10, rel=1e-12)
    assert dry.top_tension == pytest.approx((m - rho_a * area) * G * 10, rel=1e-12)


def test_vertical_line_through_surface_elastic_against_brute_force_integration():
    # march Hooke's law dz/ds = -(1 + T/EA) down a fine grid for a trial s_w and find the
    # s_w that puts the surface at z = 0 (independent of the quadratic in the closed form)
    L, top, m, area, rho_w, rho_a, EA, mass = 10.0, 4.0, 1.0, 2e-4, 1000.0, 1.2, 300.0, 0.5
    w_a, w_w = (m - rho_a * area) * G, (m - rho_w * area) * G

    def z_at(s_w: float) -> float:
        s = np.linspace(0.0, s_w, 20001)
        t = mass * G + w_w * (L - s_w) + w_a * (s_w - s)
        return top - integrate.trapezoid(1.0 + t / EA, s)

    s_w = optimize.brentq(z_at, 0.0, L, xtol=1e-13)
    r = vertical_line_through_surface(L, top, 0.0, m, area, rho_w, rho_a, EA=EA, end_mass=mass,
                                      g=G)
    # trapezoid on a linear integrand is exact: agreement to the root finder's tolerance
    assert r.dry_length == pytest.approx(s_w, abs=1e-10)
    assert r.top_tension == pytest.approx(mass * G + w_a * s_w + w_w * (L - s_w), rel=1e-12)
    assert r.dry_length < top  # the stretch puts the surface higher up the line


def test_seabed_catenary_rigid_frictionless_matches_the_suspended_catenary():
    # the suspended part alone is Irvine's catenary from the touchdown point to the fairlead,
    # leaving the seabed horizontally: V_A = 0 and the same H (independent solver)
    r = seabed_catenary(85.0, 20.0, 100.0, 100.0)
    free = elastic_catenary(85.0 - r.touchdown_x, 20.0, 100.0 - r.grounded_length, 100.0)
    assert free.V_A == pytest.approx(0.0, abs=1e-7 * free.tension_B)
    assert free.H == pytest.approx(r.H, rel=1e-9)
    assert free.tension_B == pytest.approx(r.fairlead_tension, rel=1e-9)
    assert r.anchor_tension == pytest.approx(r.H, rel=1e-12)


def test_seabed_catenary_elastic_matches_the_suspended_elastic_catenary():
    r = seabed_catenary(85.0, 20.0, 100.0, 100.0, EA=2e5)
    free = elastic_catenary(85.0 - r.touchdown_x, 20.0, 100.0 - r.grounded_length, 100.0,
                            EA=2e5)
    assert free.V_A == pytest.approx(0.0, abs=1e-7 * free.tension_B)
    assert free.H == pytest.approx(r.H, rel=1e-9)
    # the grounded part carries H all along: stretched by H L_B / EA
    assert r.touchdown_x == pytest.approx(r.grounded_length * (1 + r.H / 2e5), rel=1e-12)


def test_seabed_catenary_friction_anchor_tension_and_grounded_stretch():
    # H > mu w L_B: the grounded part's axial force drops by exactly mu w L_B
    w, EA, mu = 100.0, 2e5, 0.02
    r = seabed_catenary(85.0, 20.0, 100.0, w, EA=EA, friction=mu)
    assert r.H > mu * w * r.grounded_length
    assert r.anchor_tension == pytest.approx(r.H - mu * w * r.grounded_length, rel=1e-12)
    # brute-force stretch of the grounded part: quadrature of T/EA along it
    stretch = integrate.quad(lambda s: float(r.tension(s)) / EA, 0.0, r.grounded_length)[0]
    assert r.touchdown_x == pytest.approx(r.grounded_length + stretch, rel=1e-10)
    # and the end point the shape functions give is the fairlead
    assert float(r.x(100.0)) == pytest.approx(85.0, rel=1e-10)
    assert float(r.z(100.0)) == pytest.approx(20.0, rel=1e-10)
    # large friction: the anchor carries nothing; the limit mu -> 0 is the frictionless line
    big = seabed_catenary(85.0, 20.0, 100.0, w, EA=EA, friction=5.0)
    assert big.anchor_tension == 0.0
    tiny = seabed_catenary(85.0, 20.0, 100.0, w, EA=EA, friction=1e-12)
    assert tiny.H == pytest.approx(seabed_catenary(85.0, 20.0, 100.0, w, EA=EA).H, rel=1e-9)


def test_seabed_catenary_rejects_a_line_without_grounded_part():
    with pytest.raises(ValueError, match="grounded"):
        seabed_catenary(99.0, 20.0, 100.0, 100.0)


def test_sliding_acceleration_limits():
    th = math.radians(5.0)
    assert sliding_acceleration(th, 0.0, 5.0, 1.0) == pytest.approx(5.0 * math.sin(th))
    assert sliding_acceleration(th, 0.3, 5.0, 1.0) == 0.0  # tan 5 deg = 0.087 < 0.3: sticks
    assert sliding_acceleration(th, math.tan(th), 5.0, 1.0) == 0.0
    a = sliding_acceleration(th, 0.05, 5.0, 1.0)
    assert a == pytest.approx(5.0 * (math.sin(th) - 0.05 * math.cos(th)), rel=1e-14)


def test_tethered_balloon_against_shooting_and_the_weightless_limit():
    L, w, D, B, EA = 50.0, 1.0, 20.0, 100.0, 1e4
    r = tethered_balloon(L, w, D, B, EA=EA)

    def rhs(s, y):  # y = (x, z); T = (D, B - w (L - s)); ds_stretched = (1 + T/EA) ds
        v = B - w * (L - s)
        t = math.hypot(D, v)
        return [D / t * (1 + t / EA), v / t * (1 + t / EA)]

    sol = integrate.solve_ivp(rhs, (0.0, L), [0.0, 0.0], rtol=1e-11, atol=1e-11)
    assert r.span == pytest.approx(sol.y[0, -1], rel=1e-8)
    assert r.height_difference == pytest.approx(sol.y[1, -1], rel=1e-8)
    assert r.tension_A == pytest.approx(math.hypot(D, B - w * L), rel=1e-14)
    # a nearly weightless rigid tether is straight along the balloon's pull (D, B): its
    # weight bends it by O(w L / B) = 5e-7 (a lighter one loses digits in (H/w) asinh)
    thin = tethered_balloon(L, 1e-6, D, B)
    assert thin.span / thin.height_difference == pytest.approx(D / B, rel=2e-6)
    with pytest.raises(ValueError, match="net_lift"):
        tethered_balloon(L, w, D, 0.5 * w * L)
