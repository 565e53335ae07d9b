"""Linear waves (tetherdyn.waves): dispersion, Airy closed forms, stretching, spectra, grid."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest
from scipy import signal

from tetherdyn import waves as W

G = 9.81


def _par(section, depth):
    return W.wave_par(section, 0.0, depth)


def _at(table, grid, par, t, x, y, z):
    out = np.zeros(7)
    W.wave_kinematics(table, grid, par, t, x, y, z, out)
    return out


# ---- dispersion ---------------------------------------------------------------------------
def test_dispersion_limits_and_residual():
    w = np.array([0.1, 0.5, 1.0, 3.0])
    assert np.array_equal(W.wave_number(w, G), w**2 / G)
    for h in (0.5, 5.0, 50.0, 5000.0):
        k = W.wave_number(w, G, h)
        np.testing.assert_allclose(G * k * np.tanh(k * h), w**2, rtol=1e-13)
    # shallow: k -> omega / sqrt(g h) (1 + (kh)^2 / 6); deep: omega^2 / g
    k = W.wave_number(0.05, G, 1.0)
    k0 = 0.05 / math.sqrt(G)
    assert abs(k / (k0 * (1 + k**2 / 6)) - 1.0) < 1e-6
    assert abs(W.wave_number(3.0, G, 1000.0) / (9.0 / G) - 1.0) < 1e-14
    # Fenton & McKee (1990) explicit wavelength, within 1.7 % for all depths:
    # L = L0 tanh((2 pi sqrt(h / g) / T)^(3/2))^(2/3), L0 = g T^2 / (2 pi)
    for period, h in ((10.0, 20.0), (6.0, 3.0), (15.0, 100.0)):
        fm = G * period**2 / (2 * math.pi) * math.tanh(
            (2 * math.pi * math.sqrt(h / G) / period) ** 1.5) ** (2 / 3)
        length = 2 * math.pi / W.wave_number(2 * math.pi / period, G, h)
        assert length == pytest.approx(fm, rel=0.017)


def test_dispersion_rejects_bad_input():
    with pytest.raises(ValueError, match="omega"):
        W.wave_number(np.array([1.0, -1.0]), G, 10.0)
    with pytest.raises(ValueError, match="depth"):
        W.wave_number(1.0, G, 0.0)


# ---- Airy closed forms ---------------------------------------------------------------------
@pytest.mark.parametrize("depth, height, period", [(None, 2.0, 8.0), (15.0, 2.0, 8.0),
                                                   (2.0, 0.2, 16.0)])
def test_airy_amplitudes_at_depth(depth, height, period):
    sec = SimpleNamespace(type="airy", height=height, period=period, stretching="vertical")
    table, grid = W.build_waves(sec, G, depth, 0.0, None)
    par = _par(sec, depth)
    a, w, k = 0.5 * height, 2 * math.pi / period, table[0, W.K]
    h = depth if depth is not None else math.inf
    t = np.linspace(0.0, period, 400, endpoint=False)
    for z in (-1.05 * a, -0.5 * min(h, 20.0), -min(h, 40.0)):
        res = np.array([_at(table, grid, par, ti, 0.0, 0.0, z) for ti in t])
        if depth is None:
            cz = sz = math.exp(k * z)
        else:
            cz = math.cosh(k * (z + h)) / math.sinh(k * h)
            sz = math.sinh(k * (z + h)) / math.sinh(k * h)
        np.testing.assert_allclose(res[:, 1].max(), a * w * cz, rtol=1e-4)
        np.testing.assert_allclose(np.abs(res[:, 3]).max(), a * w * sz, rtol=1e-4,
                                   atol=1e-14)
        np.testing.assert_allclose(res[:, 4].max(), a * w * w * cz, rtol=1e-4)
        # horizontal velocity in phase with the elevation (crest at t = 0, x = 0)
        assert res[0, 1] == pytest.approx(a * w * cz, rel=1e-12)
        assert res[0, 0] == pytest.approx(a, rel=1e-12)
    if depth == 2.0:  # shallow water: u ~ (H/2) sqrt(g/h) through the depth
        assert a * w * math.cosh(0.0) / math.sinh(k * h) == pytest.approx(
            a * math.sqrt(G / h), rel=0.02)


def test_direction_and_phase():
    sec = SimpleNamespace(type="airy", height=2.0, period=6.0, direction_deg=90.0,
                          phase_deg=90.0)
    table, grid = W.build_waves(sec, G, None, 0.0, None)
    par = _par(sec, None)
    out = _at(table, grid, par, 0.0, 0.0, 0.0, -3.0)
    assert out[0] == pytest.approx(0.0, abs=1e-12)  # cos(90 deg)
    assert abs(out[1]) < 1e-12 and abs(out[2]) < 1e-12  # along +y, at a zero crossing
    assert out[3] > 0.0  # w = A omega e^{kz} sin(psi), psi = 90 deg


# ---- stretching ----------------------------------------------------------------------------
def _crest(stretching, depth=None):
    sec = SimpleNamespace(type="airy", height=2.0, period=8.0, stretching=stretching)
    table, grid = W.build_waves(sec, G, depth, 0.0, None)
    return table, grid, _par(sec, depth)


@pytest.mark.parametrize("depth", [None, 30.0])
def test_stretching_rules_under_a_crest(depth):
    a = 1.0
    lin = _at(*_crest("none", depth), 0.0, 0.0, 0.0, 0.0)  # calm-level value
    for rule in ("wheeler", "vertical", "extrapolated", "none"):
        table, grid, par = _crest(rule, depth)
        above = _at(table, grid, par, 0.0, 0.0, 0.0, a + 0.01)
        assert above[0] == pytest.approx(a) and np.all(above[1:] == 0.0), rule
        top = _at(table, grid, par, 0.0, 0.0, 0.0, a)  # at the crest
        mid = _at(table, grid, par, 0.0, 0.0, 0.0, 0.5 * a)
        if rule in ("wheeler", "vertical"):
            np.testing.assert_allclose(top[1:], lin[1:], rtol=1e-12)  # the calm-level value
        if rule == "vertical":
            np.testing.assert_allclose(mid[1:], lin[1:], rtol=1e-12)
        if rule == "none":
            assert np.all(mid[1:] == 0.0)
        if rule == "extrapolated":  # u(0) + z du/dz(0), du/dz = k S(0) / C(0) u(0)
            k = table[0, W.K]
            ratio = 1.0 if depth is None else math.tanh(k * depth)
            assert mid[1] == pytest.approx(lin[1] * (1 + 0.5 * a * k * ratio), rel=1e-12)
    # Wheeler: z' = h (z - eta) / (h + eta); at depth z the value of the profile at z'
    table, grid, par = _crest("wheeler", depth)
    z = -5.0
    zs = z - a if depth is None else depth * (z - a) / (depth + a)
    ref = _at(*_crest("none", depth), 0.0, 0.0, 0.0, zs)
    np.testing.assert_allclose(_at(table, grid, par, 0.0, 0.0, 0.0, z)[1:], ref[1:],
                               rtol=1e-12)


# ---- spectra -------------------------------------------------------------------------------
def test_jonswap_realisation_hs_and_spectrum():
    hs, tp = 4.0, 10.0
    sec = SimpleNamespace(type="jonswap", hs=hs, tp=tp, gamma=3.3, seed=7, components=200)
    table, grid = W.build_waves(sec, G, None, 0.0, None)
    # the table's own Hs = 4 sqrt(m0), m0 = sum A^2 / 2
    assert 4 * math.sqrt(0.5 * np.sum(table[:, W.AMP] ** 2)) == pytest.approx(hs, rel=0.02)
    par = _par(sec, None)
    dt = 0.25
    t = np.arange(0.0, 3600.0, dt)
    eta = np.array([W.eta_direct(table, 0.0, 0.0, ti) for ti in t])
    assert 4 * eta.std() == pytest.approx(hs, rel=0.02)
    assert _at(table, grid, par, t[5], 0.0, 0.0, 10.0)[0] == pytest.approx(eta[5], rel=1e-12)
    f, pxx = signal.welch(eta, fs=1 / dt, nperseg=2400)
    target = 2 * math.pi * W.jonswap(2 * math.pi * np.maximum(f, 1e-6), hs, tp, 3.3)
    band = target > 0.1 * target.max()
    assert f[np.argmax(pxx)] == pytest.approx(1 / tp, abs=f[1])
    err = np.sqrt(np.mean((pxx[band] - target[band]) ** 2) / np.mean(target[band] ** 2))
    assert err < 0.1


def test_spectra_formulas():
    wp = 2 * math.pi / 10.0
    # PM peaks at wp; JONSWAP with gamma = 1 is PM; its peak is gamma A_gamma times PM's
    w = np.linspace(0.5 * wp, 2 * wp, 2001)
    assert w[np.argmax(W.pierson_moskowitz(w, 3.0, 10.0))] == pytest.approx(wp, rel=1e-3)
    np.testing.assert_allclose(W.jonswap(w, 3.0, 10.0, 1.0), W.pierson_moskowitz(w, 3.0, 10.0))
    assert W.jonswap(wp, 3.0, 10.0, 3.3) / W.pierson_moskowitz(wp, 3.0, 10.0) == \
        pytest.approx(3.3 * (1 - 0.287 * math.log(3.3)))


def test_components_table_and_pm():
    sec = SimpleNamespace(type="components", components=dict(
        frequency=[0.1, 0.2], amplitude=[1.0, 0.5], phase_deg=[0.0, 90.0],
        direction_deg=[0.0, 45.0]))
    table, _ = W.build_waves(sec, G, 50.0, 0.0, None)
    assert table.shape == (2, W.NWC)
    np.testing.assert_allclose(table[:, W.OMEGA], 2 * math.pi * np.array([0.1, 0.2]))
    np.testing.assert_allclose(table[1, W.KY] / table[1, W.KX], 1.0)
    assert W.eta_direct(table, 0.0, 0.0, 0.0) == pytest.approx(1.0)
    pm = SimpleNamespace(type="pierson_moskowitz", hs=2.0, tp=8.0, components=100, seed=3)
    table, _ = W.build_waves(pm, G, None, 0.0, None)
    assert 4 * math.sqrt(0.5 * np.sum(table[:, W.AMP] ** 2)) == pytest.approx(2.0, rel=0.02)


# ---- bad input names the key ----------------------------------------------------------------
@pytest.mark.parametrize("section, key", [
    (dict(type="jonswap", hs=-1.0, tp=10.0), "environment.waves.hs"),
    (dict(type="jonswap", hs=1.0, tp=10.0, gamma=0.0), "environment.waves.gamma"),
    (dict(type="airy", height=1.0, period=0.0), "environment.waves.period"),
    (dict(type="airy", height=1.0, period=5.0, stretching="linear"),
     "environment.waves.stretching"),
    (dict(type="swell"), "environment.waves.type"),
    (dict(type="jonswap", hs=1.0, tp=10.0, frequency_range=[0.3, 0.1]),
     "environment.waves.frequency_range"),
    (dict(type="components", components=dict(frequency=[0.1, 0.2], amplitude=[1.0])),
     "environment.waves.components.amplitude"),
    (dict(type="airy", height=1.0, period=5.0, grid=dict(x=[10.0, 20.0])),
     "environment.waves.grid.x"),
    (dict(type="airy", height=1.0, period=5.0, grid=dict(cells=3)),
     "environment.waves.grid.cells"),
])
def test_bad_input_names_the_key(section, key):
    with pytest.raises(ValueError, match=key.replace(".", r"\.")):
        W.build_waves(SimpleNamespace(**section), G, None, 0.0, [[0.0, 0.0, -5.0]])


def test_waves_need_a_water_level():
    with pytest.raises(ValueError, match="water_level"):
        W.build_waves(SimpleNamespace(type="airy", height=1.0, period=5.0), G, None, None)


# ---- the precomputed grid -------------------------------------------------------------------
def _sea():
    sec = SimpleNamespace(type="jonswap", hs=4.0, tp=10.0, gamma=3.3, seed=2, components=200,
                          direction_deg=30.0)
    table, grid = W.build_waves(sec, G, 60.0, 0.0, [[0.0, 0.0, -40.0], [100.0, 20.0, -1.0]])
    return table, grid, _par(sec, 60.0)


def test_grid_against_direct_sums():
    table, grid, par = _sea()
    assert grid[W.G_FLAG] == 1.0 and grid[W.G_NB] == 1  # one column across the waves
    rng = np.random.default_rng(1)
    pts = rng.uniform([0, 0, -40], [100, 20, -3], size=(400, 3))
    times = rng.uniform(0, 50, 400)
    err, ref = [], []
    for (x, y, z), t in zip(pts, times, strict=True):
        a = _at(table, grid, par, t, x, y, z)
        b = _at(table, np.zeros(1), par, t, x, y, z)
        err.append(a - b)
        ref.append(b)
    rms = np.sqrt(np.mean(np.square(err), axis=0) / np.mean(np.square(ref), axis=0))
    # default tolerance 1 % (velocity-weighted): eta and velocity within it, acceleration
    # (weighted to the short waves) within twice
    assert np.all(rms[:4] < W.GRID_TOLERANCE) and np.all(rms[4:] < 2 * W.GRID_TOLERANCE)
    # outside the grid: the direct sum, exactly
    far = _at(table, grid, par, 3.0, 5000.0, 0.0, -10.0)
    np.testing.assert_array_equal(far, _at(table, np.zeros(1), par, 3.0, 5000.0, 0.0, -10.0))


def test_grid_results_do_not_depend_on_the_call_history():
    table, grid, par = _sea()
    rng = np.random.default_rng(2)
    times = np.sort(rng.uniform(0.0, 30.0, 200))
    pts = rng.uniform([0, 0, -40], [100, 20, 0], size=(200, 3))
    forward = [_at(table, grid, par, t, *p) for t, p in zip(times, pts, strict=True)]
    _, fresh, _ = _sea()
    order = rng.permutation(200)  # back and forth in time (rejected steps, restarts)
    backward = {i: _at(table, fresh, par, times[i], *pts[i]) for i in order}
    for i in range(200):
        np.testing.assert_array_equal(forward[i], backward[i])


def test_user_grid_and_no_grid():
    sec = SimpleNamespace(type="airy", height=1.0, period=5.0, grid="none")
    _, grid = W.build_waves(sec, G, None, 0.0, [[0.0, 0.0, -5.0]])
    assert grid.shape == (1,) and grid[0] == 0.0
    sec = SimpleNamespace(type="airy", height=1.0, period=5.0,
                          grid=dict(x=[-10.0, 10.0], y=[-1.0, 1.0], z=[-8.0, 2.0],
                                    spacing=[0.5, 0.25], dt=0.1))
    table, grid = W.build_waves(sec, G, None, 0.0, [[0.0, 0.0, -5.0]])
    assert grid[W.G_DA] == 0.5 and grid[W.G_DZ] == 0.25 and grid[W.G_DT] == 0.1
    assert W.no_waves()[0].shape == (0, W.NWC)
    out = np.ones(7)
    W.wave_kinematics(*W.no_waves(), W.wave_par(None, 0.0, None), 1.0, 0.0, 0.0, -1.0, out)
    assert np.all(out == 0.0)


# ---- the validation rows, reduced -----------------------------------------------------------
def test_row_airy_kinematics(tmp_path):
    from validation import waves as rows

    row = rows.check_airy(full=False, figure_dir=tmp_path)
    assert row.passed, row.ours
    assert row.values["direct"] < rows.ROUND_OFF and row.values["grid_ratio"] <= 1.0
    assert (tmp_path / row.figure).exists()


def test_row_jonswap_realisation():
    from validation import waves as rows

    row = rows.check_jonswap(full=False)
    assert row.passed, row.ours
    assert max(row.values["hs_error"]) <= rows.HS_TOLERANCE


def test_grid_of_a_multidirectional_sea():
    """Components in two directions: a 2-D horizontal lattice, still within the tolerance."""
    sec = SimpleNamespace(type="components", components=dict(
        frequency=[0.08, 0.1, 0.12, 0.15], amplitude=[0.5, 1.0, 0.6, 0.3],
        phase_deg=[0.0, 40.0, 200.0, 300.0], direction_deg=[0.0, 30.0, 60.0, -20.0]))
    table, grid = W.build_waves(sec, G, 40.0, 0.0, [[0.0, 0.0, -30.0], [60.0, 30.0, -1.0]])
    par = _par(sec, 40.0)
    assert grid[W.G_NB] > 1
    rng = np.random.default_rng(3)
    err, ref = [], []
    for _ in range(300):
        x, y, z = rng.uniform([0, 0, -30], [60, 30, -3])
        t = rng.uniform(0, 40)
        err.append(_at(table, grid, par, t, x, y, z) - _at(table, np.zeros(1), par, t, x, y, z))
        ref.append(_at(table, np.zeros(1), par, t, x, y, z))
    rms = np.sqrt(np.mean(np.square(err), axis=0) / np.mean(np.square(ref), axis=0))
    assert np.all(rms < 2 * W.GRID_TOLERANCE), rms


def test_oversized_grid():
    """An automatic grid too large falls back to direct sums with a warning naming the key;
    a user's grid that large is refused, naming it."""
    sec = SimpleNamespace(type="components", components=dict(
        frequency=[0.1, 0.2, 0.3, 0.5], amplitude=[1.0, 0.5, 0.2, 0.1],
        direction_deg=[0.0, 90.0, 45.0, 10.0]))
    far = [[0.0, 0.0, -100.0], [3000.0, 3000.0, 0.0]]
    with pytest.warns(UserWarning, match=r"environment\.waves\.grid"):
        _, grid = W.build_waves(sec, G, None, 0.0, far)
    assert grid.shape == (1,)
    sec.grid = dict(tolerance=0.01)
    with pytest.raises(ValueError, match=r"environment\.waves\.grid"):
        W.build_waves(sec, G, None, 0.0, far)


def test_points_above_the_grid_levels_are_summed_directly():
    """Extrapolated stretching under a crest higher than the grid's top level: the direct
    sum, not the top level's value held."""
    sec = SimpleNamespace(type="airy", height=2.0, period=8.0, stretching="extrapolated",
                          grid=dict(x=[-10.0, 10.0], y=[-1.0, 1.0], z=[-20.0, 0.1],
                                    spacing=[1.0, 0.5]))
    table, grid = W.build_waves(sec, G, None, 0.0, [[0.0, 0.0, -5.0]])
    par = _par(sec, None)
    top = grid[W.G_Z0] + (grid[W.G_NZ] - 1) * grid[W.G_DZ]
    z = top + 0.5 * grid[W.G_DZ]  # within one level spacing above the top level
    assert z < 0.99
    _at(table, grid, par, 0.0, 0.0, 0.0, top - 0.25 * grid[W.G_DZ])  # fills the top cell
    a = _at(table, grid, par, 0.0, 0.0, 0.0, z)
    b = _at(table, np.zeros(1), par, 0.0, 0.0, 0.0, z)
    np.testing.assert_allclose(a, b, rtol=2e-3)
