"""The pre-factored C² spline of seed 004 eq. (3.12) (src/tetherdyn/spline.py)."""

import numpy as np
import pytest

from tetherdyn.spline import CLAMPED, FREE, spline_curvatures, spline_end_tangents, spline_factor


def _dense(pos, L, bc0, bc1, t0, t1):
    """The eq.-(3.12) system assembled densely and solved with numpy (the reference)."""
    N = L.size
    A = np.zeros((N + 1, N + 1))
    D = np.zeros((N + 1, 3))
    for i in range(1, N):
        A[i, i - 1], A[i, i], A[i, i + 1] = L[i - 1] / 6, (L[i - 1] + L[i]) / 3, L[i] / 6
        D[i] = (pos[i + 1] - pos[i]) / L[i] - (pos[i] - pos[i - 1]) / L[i - 1]
    if bc0 == CLAMPED:
        A[0, :2] = L[0] / 3, L[0] / 6
        D[0] = (pos[1] - pos[0]) / L[0] - t0
    else:
        A[0, 0] = 1.0
    if bc1 == CLAMPED:
        A[N, N - 1:] = L[-1] / 6, L[-1] / 3
        D[N] = t1 - (pos[N] - pos[N - 1]) / L[-1]
    else:
        A[N, N] = 1.0
    return np.linalg.solve(A, D)


@pytest.mark.parametrize("bc0", [FREE, CLAMPED])
@pytest.mark.parametrize("bc1", [FREE, CLAMPED])
def test_factored_solve_matches_dense_and_is_c1(bc0, bc1):
    rng = np.random.default_rng(7)
    N = 9
    L = rng.uniform(0.3, 2.0, N)  # unequal elements exercise every coefficient
    pos = rng.normal(size=(N + 1, 3))
    t0, t1 = rng.normal(size=3), rng.normal(size=3)
    r2 = np.zeros((N + 1, 3))
    spline_curvatures(pos, L, spline_factor(L, bc0, bc1), bc0, bc1, t0, t1, r2)
    # round-off only: the Thomas solve of a diagonally dominant system
    assert np.abs(r2 - _dense(pos, L, bc0, bc1, t0, t1)).max() < 1e-12
    tangents = np.zeros((N, 2, 3))
    for e in range(N):
        spline_end_tangents(pos, r2, L, e, tangents[e])
    # C¹: the tangent leaving node e+1 in element e+1 equals the one arriving in element e
    assert np.abs(tangents[1:, 0] - tangents[:-1, 1]).max() < 1e-12
    if bc0 == CLAMPED:
        assert np.abs(tangents[0, 0] - t0).max() < 1e-12
    else:
        assert np.abs(r2[0]).max() == 0.0
    if bc1 == CLAMPED:
        assert np.abs(tangents[-1, 1] - t1).max() < 1e-12
    else:
        assert np.abs(r2[-1]).max() == 0.0


@pytest.mark.parametrize("n_el, expected", [(6, 0.0057), (3, 0.023)])
def test_circle_curvature_overestimate(n_el, expected):
    """Nodes on a quarter circle (radius ρ), clamped exact end tangents: |r''| exceeds 1/ρ by
    about (L_u/ρ)²/12 (the interpolant's chord-vs-arc error; digest ch. 4 §15 check 3:
    +0.57 % at L_u/ρ = 0.262, +2.3 % at 0.524). 0.1 % absolute as the digest asks."""
    rho = 6.0
    arc = 0.5 * np.pi * rho
    L = np.full(n_el, arc / n_el)
    th = np.linspace(0.0, 0.5 * np.pi, n_el + 1)
    pos = np.stack([rho * np.sin(th), np.zeros_like(th), rho * (1.0 - np.cos(th))], axis=1)
    r2 = np.zeros_like(pos)
    spline_curvatures(pos, L, spline_factor(L, CLAMPED, CLAMPED), CLAMPED, CLAMPED,
                      np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.0, 1.0]), r2)
    excess = np.linalg.norm(r2, axis=1) * rho - 1.0
    assert np.abs(excess - expected).max() < 1e-3
    # every nodal curvature vector points at the centre (0, 0, ρ); at the clamped end nodes
    # it tilts by O((L_u/ρ)^3) rad along the tangent (2.8e-3 rad at L_u/ρ = 0.79)
    to_centre = np.array([0.0, 0.0, rho]) - pos
    cos = np.sum(r2 * to_centre, axis=1) / (np.linalg.norm(r2, axis=1) * rho)
    assert cos.min() > 1.0 - 1e-5


def test_straight_line_has_no_curvature():
    L = np.full(5, 2.0)
    pos = np.outer(np.arange(6) * 2.0, [0.6, 0.0, -0.8])
    r2 = np.ones((6, 3))
    q = np.array([0.6, 0.0, -0.8])
    spline_curvatures(pos, L, spline_factor(L, CLAMPED, FREE), CLAMPED, FREE, q, q, r2)
    assert np.abs(r2).max() < 1e-15


def test_curvature_integral_is_exact_for_linear_r2():
    """∫|r''|² ds of the piecewise-linear r'' against 2001-point trapezoid quadrature per
    element (the integrand is quadratic: trapezoid error ~ 1e-7 relative)."""
    from tetherdyn.spline import curvature_integral

    rng = np.random.default_rng(3)
    L = rng.uniform(0.5, 2.0, 6)
    r2 = rng.normal(size=(7, 3))
    ref = 0.0
    for e in range(6):
        x = np.linspace(0.0, 1.0, 2001)[:, None]
        f = np.sum(((1 - x) * r2[e] + x * r2[e + 1]) ** 2, axis=1)
        ref += L[e] * np.trapezoid(f, x[:, 0])
    assert abs(curvature_integral(r2, L) / ref - 1.0) < 1e-6
