"""Statics' validation rows, reduced (issue 18, "It must show"): each asserts its row's
criterion. Wall times are the report's (validation/statics.py), never asserted here."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tetherdyn import analytic
from validation import statics


def test_equilibrium_from_defaults_for_examples_and_stress_cases():
    row = statics.check_examples(full=False)
    for group in ("examples", "stress"):
        for name, r in row.values[group].items():
            assert not r["error"], f"{name}: {r['error']}"
            # residual <= 1e-6 of the line's weight (statics.line_weight)
            assert r["rel"] <= statics.RTOL, f"{name}: residual/weight {r['rel']:.2e}"
            assert r["N"] <= 100


def test_closed_forms_written_here_agree_with_the_package_s():
    # the row's own Irvine / seabed formulas against tetherdyn.analytic's (two writings of
    # the same textbook equations)
    w, L = statics._wet(10.0, 0.05), 100.0
    EA = statics.CAT_RATIO * w * L
    H, V0 = statics.irvine_catenary(statics.CAT_SPAN, statics.CAT_DZ, L, w, EA)
    ref = analytic.elastic_catenary(statics.CAT_SPAN, statics.CAT_DZ, L, w, EA)
    assert H == pytest.approx(ref.H, rel=1e-9)
    ws = statics._wet(statics.SB_MPL, statics.SB_D)
    bed = statics.seabed_catenary_closed_form(85.0, 30.0, L, ws, 1e3 * ws * L)
    pkg = analytic.seabed_catenary(85.0, 30.0, L, ws, 1e3 * ws * L)
    assert bed["H"] == pytest.approx(pkg.H, rel=1e-9)
    assert bed["L_B"] == pytest.approx(pkg.grounded_length, rel=1e-9)
    assert math.isclose(bed["T_F"], pkg.fairlead_tension, rel_tol=1e-9)


def test_statics_converge_to_the_closed_form_catenaries_at_second_order():
    row = statics.check_catenary(full=False)
    for (label, k), o in row.values["order"].items():
        assert o["decreasing"], f"{label} {k}: {o['errors']}"
        assert o["order"] >= statics.ORDER - statics.ORDER_TOL, f"{label} {k}: {o['order']}"
    two = row.values["two"]
    assert max(r["out_of_plane"] for r in two.values()) == 0.0
    assert row.passed


def test_a_run_from_the_equilibrium_stays_still_and_its_t0_tension_ignores_dt():
    row = statics.check_still(full=False)
    for name, r in row.values.items():
        speeds = [run["max_speed"] for run in r["runs"]]
        assert max(speeds) < statics.STILL_SPEED, f"{name}: {speeds}"
        t0 = np.array([run["top_t0"] for run in r["runs"]])
        assert np.ptp(t0) <= statics.STILL_TOL * t0.max(), f"{name}: {t0}"
        assert len({run["dt"] for run in r["runs"]}) >= 2
        assert {run["method"] for run in r["runs"]} == {"rk4", "generalized_alpha"}
    assert row.passed


def test_a_tow_settles_to_the_residual_bound():
    raw, base = statics.example_cases()["vaz_patel_deceleration"]
    r = statics.timed_solve(raw, base)
    assert not r["error"], r["error"]
    assert r["rel"] <= statics.RTOL, f"residual/weight {r['rel']:.2e}"
