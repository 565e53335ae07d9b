"""Towpoint path generators (tetherdyn.paths)."""

import numpy as np
import pytest

from tetherdyn.boundary import load_trajectory
from tetherdyn.paths import circular_turn, write_trajectory_csv


def test_circular_turn_follows_the_circle(tmp_path):
    U, R, t0 = 1.78, 71.4, 20.0
    table = circular_turn(U, R, t0, 400.0, sample_interval=2.0, start=(0.0, 0.0, -1.0),
                          heading_deg=30.0, direction="right")
    traj = load_trajectory(str(write_trajectory_csv(table, tmp_path / "turn.csv")))
    h = np.radians(30.0)
    centre = U * t0 * np.array([np.cos(h), np.sin(h)]) + R * np.array([np.sin(h), -np.cos(h)])
    for t in np.linspace(t0, 400.0, 97):
        p, v, a = traj.evaluate(t)
        # Hermite interpolation of exact samples: O(h^4) error, h = 2 s -> well below 1 mm
        assert np.hypot(*(p[:2] - centre)) == pytest.approx(R, abs=1e-3)
        assert np.linalg.norm(v) == pytest.approx(U, rel=1e-4)
        assert p[2] == -1.0
    p, v, _ = traj.evaluate(10.0)  # straight approach along the heading
    np.testing.assert_allclose(p[:2], 10.0 * U * np.array([np.cos(h), np.sin(h)]), atol=1e-9)
    # 'right' turns clockwise seen from above: the angular momentum about z is negative
    p, v, _ = traj.evaluate(100.0)
    r = p[:2] - centre
    assert r[0] * v[1] - r[1] * v[0] < 0


def test_circular_turn_rejects_bad_input():
    with pytest.raises(ValueError, match="radius"):
        circular_turn(1.0, 0.0, 1.0, 10.0)
    with pytest.raises(ValueError, match="direction"):
        circular_turn(1.0, 5.0, 1.0, 10.0, direction="up")


@pytest.mark.parametrize("n", [3, 4, 9, 60])
def test_path_splines_are_scipys(n):
    """The path tables are splined without importing scipy.interpolate (issue 22: ~0.35 s
    of a process); the coefficients are scipy's natural CubicSpline and CubicHermiteSpline
    ones, bit for bit (an independent implementation of the same interpolants)."""
    from scipy.interpolate import CubicHermiteSpline, CubicSpline

    from tetherdyn.boundary import _hermite_coefficients, _natural_spline_slopes

    rng = np.random.default_rng(n)
    t = np.cumsum(rng.uniform(0.05, 3.0, n))
    y = rng.normal(size=(n, 3)) * 10.0
    v = rng.normal(size=(n, 3))
    natural = CubicSpline(t, y, axis=0, bc_type="natural").c
    np.testing.assert_array_equal(_hermite_coefficients(t, y, _natural_spline_slopes(t, y)),
                                  natural)
    np.testing.assert_array_equal(_hermite_coefficients(t, y, v),
                                  CubicHermiteSpline(t, y, v, axis=0).c)
