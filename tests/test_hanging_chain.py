"""Hanging chain in vacuum: lumped-mass first-mode period vs Bernoulli's Bessel solution."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tetherdyn import analytic
from validation import _REGISTRY
from validation.hanging_chain import (
    DISCRETE_TOLERANCE,
    LENGTH,
    TOLERANCE,
    check,
    discrete_chain_frequencies,
    fit_sinusoids,
    mode_shape_points,
)


def test_discrete_chain_tends_to_continuum():
    # The discrete reference must itself converge to analytic.hanging_chain_frequencies with
    # the O(1/N²) bias the report quotes (0.296/N² for mode 1, ~3.8/N² for mode 2); N = 256
    # makes the next-order term (O(1/N^3)) negligible, so 2 % on the coefficient is ample.
    wc = analytic.hanging_chain_frequencies(LENGTH, 9.81, n_modes=2)
    n = 256
    bias = wc / discrete_chain_frequencies(n, n_modes=2) - 1.0  # period ratio - 1
    assert bias[0] * n**2 == pytest.approx(0.296, rel=0.02)
    assert bias[1] * n**2 == pytest.approx(3.82, rel=0.02)
    # a finite EA lengthens the period (stretched chain) by ~ mean strain / 2 ~ 2e-5
    stretch = discrete_chain_frequencies(n, EA=math.inf)[0] / discrete_chain_frequencies(
        n, EA=2e4)[0] - 1.0
    assert 1e-5 < stretch < 4e-5


def test_initial_shape_keeps_static_element_lengths():
    # The release shape must not stretch the elements beyond their static length (that would
    # launch axial waves): lengths equal T_e/EA-stretched L_e to round-off (1e-12 relative).
    pts = mode_shape_points(32, 1)
    le = LENGTH / 32
    tension = 9.81 * 0.016 * le * (32 - np.arange(32) - 0.5)
    lengths = np.linalg.norm(np.diff(pts, axis=0), axis=1)
    np.testing.assert_allclose(lengths, le * (1 + tension / 2e4), rtol=1e-12)
    assert pts[-1, 0] == pytest.approx(0.05, rel=1e-12)  # 5 cm tip amplitude
    assert pts[0] == pytest.approx([0.0, 0.0, 0.0])


def test_fit_recovers_known_frequencies():
    # Synthetic signal, exact frequencies: the fit must return them to ~1e-9 (noise-free data,
    # only round-off and the optimiser's tolerance limit it).
    t = np.arange(0.0, 16.0, 0.01)
    x = 0.05 * np.cos(1.19 * t + 0.3) + 2e-4 * np.sin(2.72 * t) + 1e-5
    fit = fit_sinusoids(t, x, [1.18, 2.7])
    assert fit.omega[0] == pytest.approx(1.19, rel=1e-9)
    assert fit.omega[1] == pytest.approx(2.72, rel=1e-6)
    assert fit.amplitude(0) == pytest.approx(0.05, rel=1e-8)


def test_hanging_chain_period_reduced():
    row = check(full=False)
    v = row.values
    T1 = analytic.hanging_chain_period(LENGTH, 9.81)
    assert v["period_continuum"] == pytest.approx(T1, rel=1e-12)
    # the report criterion: N = 32 within 0.5 % of the continuous chain's period
    assert abs(v["error"]) < TOLERANCE
    # sharper: the simulation must reproduce the exact discrete chain of 32 masses; what
    # remains is the amplitude effect (~1e-6) and the fit (see DISCRETE_TOLERANCE)
    assert abs(v["error_discrete"]) < DISCRETE_TOLERANCE
    # hence the error against the continuum is the discretisation bias, +3.1e-4
    # (0.296/32² + 2.2e-5 static stretch): the discrete chain is slower than the continuum
    assert v["expected_bias"] == pytest.approx(3.11e-4, rel=0.01)
    assert v["error"] == pytest.approx(v["expected_bias"], abs=DISCRETE_TOLERANCE)
    # the release from the mode shape excites essentially only mode 1 (< 1 % of others)
    assert v["leakage"] < 1e-2
    assert row.passed


def test_registered():
    spec = _REGISTRY["hanging_chain_period"]
    assert spec.tier == "analytic"
    assert spec.func is check
