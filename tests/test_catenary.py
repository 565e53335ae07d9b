"""Validation row ``elastic_catenary``: a cable between two supports, brought to rest, against
Irvine's elastic catenary (``analytic.elastic_catenary``), reduced version."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tetherdyn import analytic
from validation import catenary


@pytest.fixture(scope="module")
def row(tmp_path_factory):
    return catenary.check(full=False, figure_dir=tmp_path_factory.mktemp("figures"))


def test_row_passes(row):
    assert row.passed, row.details
    assert row.figure == "elastic_catenary.png"


@pytest.mark.parametrize("case", ["level/16", "level/32", "inclined/32"])
def test_relaxed_cable_matches_elastic_catenary(row, case):
    r = row.values["cases"][case]
    # 0.5 % (brief): the lumped-mass bias is ~0.47 / N² (0.18 % at N = 16, 0.05 % at N = 32)
    assert abs(r["sag_error"]) < 5e-3
    assert abs(r["tension_A_error"]) < 5e-3
    assert abs(r["tension_B_error"]) < 5e-3
    assert r["shape_error"] < 5e-3 * r["sag_analytic"]
    # the bias shrinks as 1/N²: at N = 32 it is below 0.1 % (measured 0.046 %, 0.047 %)
    if case.endswith("/32"):
        assert abs(r["sag_error"]) < 1e-3
    # elasticity must matter: the finite-EA sag is > 4 tolerances deeper than inextensible,
    # and the simulation sits on the elastic side (sag error << elastic effect)
    assert r["elastic_effect"] > 2e-2
    assert abs(r["sag_error"]) < 0.1 * r["elastic_effect"]
    # the exact equilibrium of the discrete chain (two-unknown statics solve): what is left
    # is the relaxation residue (KE peaks < 1e-12 of the fall -> ~1e-7 m), so 1e-5 m
    assert r["discrete_distance"] < 1e-5
    assert abs(r["discrete_tension_A_error"]) < 1e-4
    # settled: held 3 s at rest from the relaxed state, it stays still
    assert r["ke_hold_ratio"] < 1e-9
    assert r["hold_drift"] < 1e-5
    assert r["lateral"] == 0.0  # a plane problem stays plane


def test_sag_bias_is_second_order(row):
    # midpoint-rule quadrature of Irvine's dx/ds, dz/ds: error ratio 4 between N = 16 and 32
    assert 1.8 < row.values["orders"]["level"] < 2.2


def test_discrete_catenary_tends_to_irvine():
    # independent of the simulator: the discrete statics solution converges to the closed form
    span, dz, length = catenary.GEOMETRIES["inclined"]
    w = catenary.weight_per_length()
    sol = analytic.elastic_catenary(span, dz, length, w, catenary.EA)
    errs = []
    for n in (16, 32, 64):
        nodes, H, va = catenary.discrete_catenary(span, dz, length, w, catenary.EA, n)
        s = np.linspace(0.0, length, n + 1)
        errs.append(np.max(np.hypot(nodes[:, 0] - sol.x(s), nodes[:, 1] - sol.z(s))))
        # vertical equilibrium: the supports carry the whole weight (to round-off)
        assert nodes[-1] == pytest.approx([span, dz], abs=1e-12)
        assert math.hypot(H, va) == pytest.approx(sol.tension_A, rel=5e-3)
    # O(1/N²): halving the element length quarters the shape error (±10 %)
    assert errs[0] / errs[1] == pytest.approx(4.0, rel=0.1)
    assert errs[1] / errs[2] == pytest.approx(4.0, rel=0.1)


def test_midspan_sag_of_the_analytic_curve():
    # the measuring tool itself: a spline through 33 points of Irvine's curve recovers its
    # sag to 1e-6 relative (spline interpolation error O(h⁴) ~ 1e-7 here)
    span, dz, length = catenary.GEOMETRIES["inclined"]
    sol = analytic.elastic_catenary(span, dz, length, catenary.weight_per_length(),
                                    catenary.EA, n_points=33)
    pts = np.column_stack([sol.x_nodes, np.zeros(33), sol.z_nodes])
    assert catenary.midspan_sag(pts, span, dz) == pytest.approx(sol.sag_at_midspan(), rel=1e-6)
