"""The sea's validation rows, reduced (issue 17): each asserts the row's own criterion."""

from __future__ import annotations

import math

import numpy as np
import pytest

from validation import sea, sea_moordyn


def test_surface_crossing_top_tension_and_no_jump():
    row = sea.check_surface_crossing(full=False)
    r = row.values["res"]["lumped_mass"]
    assert r["converged"]
    assert r["err"] <= sea.SC_TOL  # weight in air above + in water below, 0.1 %
    # a node crossing moves the top force by no more than the weight change of what crossed
    assert r["step_ratio"] <= 1.0 + sea.SC_TOL
    assert r["max_step"] < 0.5 * r["node_jump"]  # the sweep's steps are fractions of a node
    assert row.passed


def test_seabed_catenary_touchdown_tension_and_friction():
    row = sea.check_seabed_catenary(full=False)
    assert not row.values["notes"], row.values["notes"]
    plain, fric = row.values["plain"], row.values["friction"]
    assert plain["converged"]
    assert plain["err_t"] <= sea.CAT_TOL and plain["err_td"] <= sea.CAT_TOL
    assert fric["err_t"] <= sea.CAT_TOL
    assert fric["err_drop"] <= sea.CAT_TOL  # grounded axial force drop mu w L_g
    assert row.passed


def test_seabed_friction_drag_stick_and_slide():
    row = sea.check_seabed_friction(full=False)
    assert not row.values["notes"], row.values["notes"]
    res = row.values["res"]
    assert res["drag"]["err"] <= sea.DRAG_TOL
    assert res["stick"]["node_max"] < sea.CREEP_LIMIT * 20.0 / 100.0
    assert res["slide"]["err"] <= sea.SLIDE_TOL
    assert row.passed


def test_tethered_balloon_in_wind():
    row = sea.check_balloon(full=False)
    r = row.values["res"]
    assert r is not None and r["converged"]
    assert r["err_pos"] <= sea.BAL_TOL and r["err_t"] <= sea.BAL_TOL
    assert row.passed


def test_moordyn_reads_our_wave_components_as_the_same_sea():
    """The wave file we hand MoorDyn gives its kinematics ours (a check of the deck)."""
    moordyn = pytest.importorskip("moordyn")
    import tempfile
    from pathlib import Path

    from tetherdyn import waves as W
    from validation.peers.moordyn import _quiet_fd
    from validation.peers.moordyn_sea import sea_deck_text, wave_frequencies_text

    depth = sea_moordyn.DEPTH
    table = sea_moordyn.wave_components(sea_moordyn.SEAS["jonswap"][0])
    text = wave_frequencies_text(table, amp=W.AMP, omega=W.OMEGA, phase=W.PHASE, kx=W.KX,
                                 ky=W.KY)
    deck = sea_deck_text(n_elements=4, length=120.0, mass_per_length=12.0, diameter=0.1,
                         EA=1e6, BA=0.0, cd_normal=1.2, cd_tangential=0.0, ca_normal=1.0,
                         ca_tangential=0.0, anchor=(0.0, 0.0, -depth),
                         fairlead=(100.0, 0.0, -8.0), water_depth=depth, kbot=3e6, cbot=3e5,
                         dt=1e-3, gravity=9.81, water_density=1025.0, waves=True)
    from types import SimpleNamespace

    # calm level 0, the seabed's depth, the section's stretching (wheeler)
    par = W.wave_par(SimpleNamespace(**sea_moordyn.SEAS["jonswap"][0]), 0.0, depth)
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "sea.dat").write_text(deck)
        (Path(tmp) / "wave_frequencies.txt").write_text(text)
        with _quiet_fd():
            system = moordyn.Create(str(Path(tmp) / "sea.dat"))
            moordyn.Init_NoIC(system, [], [])
        try:
            kin = moordyn.GetWaves(system)
            out = np.zeros(8)
            for x, z in ((10.0, -3.0), (40.0, -20.0), (75.0, -45.0)):
                u, a, eta, _ = moordyn.GetWavesKin(kin, x, 0.0, z)
                W.wave_kinematics(table, np.zeros(1), par, 0.0, x, 0.0, z, out)
                # same sea to the dispersion solvers' agreement (MoorDyn's own k)
                assert eta == pytest.approx(out[0], abs=1e-5)
                assert np.allclose(u, out[1:4], atol=1e-5)
                assert np.allclose(a, out[4:7], atol=1e-5)
        finally:
            with _quiet_fd():
                moordyn.Close(system)


def test_moordyn_side_by_side_in_waves():
    pytest.importorskip("moordyn")
    row = sea_moordyn.check(full=False)
    assert not row.values["notes"], row.values["notes"]
    for r in row.values["res"].values():
        assert r["rel"] <= sea_moordyn.TOL  # fairlead tension within 2 % of its peak
        assert r["swing"] > 0.05 * r["peak"]  # the waves do drive the fairlead tension
    assert row.passed


def test_missing_moordyn_is_not_run(monkeypatch):
    from validation.peers import moordyn

    monkeypatch.setattr(moordyn, "moordyn_available", lambda: False)
    row = sea_moordyn.check(full=False)
    assert row.skipped and not row.passed


def test_reference_shapes_are_the_closed_forms():
    # the nodes both codes start from lie on the closed-form catenary: anchor and fairlead
    pts = sea_moordyn.initial_nodes(30)
    assert np.allclose(pts[0], [0.0, 0.0, -sea_moordyn.DEPTH])
    assert np.allclose(pts[-1], sea_moordyn.FAIRLEAD)
    seg = np.linalg.norm(np.diff(pts, axis=0), axis=1)
    assert seg.min() >= 120.0 / 30 * (1 - 1e-12)  # stretched, never shorter than L_e
    assert math.isclose(sea.balloon_reference().H, 0.5 * 1.225 * 2.0 * 25.0)
